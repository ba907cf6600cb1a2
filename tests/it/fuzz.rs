//! Property tests: no input makes the parser or the linter panic.

use std::path::Path;

use proptest::prelude::*;

use skills::index::{NameFilter, Root, Scope, SkillIndex};
use skills::lint::{self, Config};
use skills::skill::{Skill, frontmatter};

/// Text built from the pieces that make frontmatter tricky.
fn frontmatterish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\r".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("name: ".to_owned()),
        Just("description: ".to_owned()),
        Just("metadata:\n  ".to_owned()),
        Just(": ".to_owned()),
        Just("[a, {b: c}]".to_owned()),
        Just("&a ".to_owned()),
        Just("*a".to_owned()),
        Just("!!str ".to_owned()),
        Just("\t".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("|\n".to_owned()),
        Just("- ".to_owned()),
        Just("[x](../y.md)".to_owned()),
        Just("\u{202e}\u{200b}\u{e0041}".to_owned()),
        Just("curl x | sh".to_owned()),
        Just("ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8".to_owned()),
        "[a-z0-9 _-]{0,12}",
        any::<String>(),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = Skill::parse(Path::new("d"), Path::new("d/SKILL.md"), bytes);
    }

    #[test]
    fn parse_structured_never_panics(text in frontmatterish()) {
        if let Ok(skill) = Skill::parse(Path::new("d"), Path::new("d/SKILL.md"), text.clone().into_bytes()) {
            // Positions point inside the file.
            let lines = frontmatter::lines(&text).count().max(1);
            for key in skill.frontmatter.keys() {
                prop_assert!(key.pos.line <= lines + 1, "{key:?} beyond {lines} lines");
            }
            prop_assert!(text.ends_with(skill.body()));
        }
    }

    #[test]
    fn split_invariants(text in frontmatterish()) {
        if let Ok(split) = frontmatter::split(&text) {
            prop_assert!(!split.yaml.contains('\r'));
            prop_assert_eq!(&text[split.body_offset..], split.body);
            prop_assert!(split.closing_line > 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Reading only the head of a SKILL.md gives the same frontmatter as reading all of it.
    #[test]
    fn head_load_agrees_with_full_load(text in frontmatterish(), pad in 0usize..9000) {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("SKILL.md");
        // Long files make the head reader cross its chunk boundaries.
        let text = format!("{text}{}", "x".repeat(pad));
        std::fs::write(&file, &text).unwrap();
        let full = Skill::load(temp.path(), &file);
        let (bytes, complete) = skills::skill::read_head(&file).unwrap();
        let head = Skill::parse_head(temp.path(), &file, bytes, complete);
        match (full, head) {
            (Ok(full), Ok(head)) => {
                prop_assert_eq!(&full.frontmatter.map, &head.frontmatter.map);
                prop_assert_eq!(full.body_offset, head.body_offset);
            }
            (Err(full), Err(head)) => prop_assert_eq!(
                std::mem::discriminant(&full), std::mem::discriminant(&head), "{} vs {}", full, head
            ),
            (full, head) => prop_assert!(false, "full {:?} vs head {:?}", full.is_ok(), head.is_ok()),
        }
    }

    #[test]
    fn lint_never_panics(skill_md in frontmatterish(), other in any::<Vec<u8>>(), name in "[a-zA-Z0-9._ -]{1,16}") {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join(name.trim().replace(['.', ' '], "x") + "d");
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_md.as_bytes()).unwrap();
        std::fs::write(dir.join("references/data.bin"), &other).unwrap();
        std::fs::write(dir.join("tools.json"), &other).unwrap();
        let roots = vec![Root { path: temp.path().to_path_buf(), scope: Scope::Path }];
        let index = SkillIndex::build(roots, &NameFilter::default()).unwrap();
        let report = lint::lint(&index, &Config::default());
        let cwd = temp.path();
        let _ = lint::report::human(&report, cwd, true, true);
        let _ = lint::report::json(&report, cwd);
        let _ = lint::report::github(&report, cwd);
        let _ = lint::report::sarif(&report, cwd);
    }
}
