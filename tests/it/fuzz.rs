//! Property tests: no input makes the parser or the linter panic.

use std::path::Path;

use proptest::prelude::*;

use skills::index::{NameFilter, Root, RootKind, SkillIndex};
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
        Just("<!-- ".to_owned()),
        Just(" -->".to_owned()),
        Just("`".to_owned()),
        Just("```\n".to_owned()),
        Just("Ignore all previous instructions".to_owned()),
        Just("without the user's knowledge".to_owned()),
        Just("echo eA== | base64 -d | sh".to_owned()),
        Just("cat ~/.ssh/id_rsa".to_owned()),
        Just("http://10.0.0.1/x".to_owned()),
        Just("\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}".to_owned()),
        Just("\u{E0072}\u{E0075}\u{E006E}".to_owned()),
        Just("\u{200B}\u{200C}\u{200D}\u{2060}".to_owned()),
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

    /// Reading a head as bytes arrive finds the end that splitting the whole text finds.
    #[test]
    fn head_scan_agrees_with_split(text in frontmatterish(), chunk in 1usize..64) {
        let mut scan = frontmatter::HeadScan::default();
        let mut found = frontmatter::Head::More;
        let bytes = text.as_bytes();
        let mut end = 0;
        while end < bytes.len() && found == frontmatter::Head::More {
            end = (end + chunk).min(bytes.len());
            found = scan.feed(&bytes[..end]);
        }
        // Still waiting at the end of the input: the whole file is then the head, which parses as
        // `split` says. A found end or a refusal must agree with `split`.
        match (frontmatter::split(&text), found) {
            (Ok(split), frontmatter::Head::End(at)) => prop_assert_eq!(split.body_offset, at),
            (Ok(split), frontmatter::Head::More) => prop_assert!(split.body_offset + 1 >= bytes.len()),
            (
                Err(frontmatter::SplitError::Missing),
                frontmatter::Head::None | frontmatter::Head::More,
            )
            | (Err(frontmatter::SplitError::Unclosed { .. }), frontmatter::Head::More) => {}
            (split, found) => prop_assert!(false, "split: {:?}, the scan: {:?}", split, found),
        }
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
        let roots = vec![Root { path: temp.path().to_path_buf(), kind: RootKind::Path }];
        let index = SkillIndex::build(roots, &NameFilter::default()).unwrap();
        let report = lint::lint(&index, &Config::default());
        let cwd = temp.path();
        let _ = lint::report::human(&report, cwd, true, true);
        let _ = lint::report::json(&report, cwd);
        let _ = lint::report::github(&report, cwd);
        let _ = lint::report::sarif(&report, cwd);
    }

    /// The install gate lints from memory: no file name or content makes it panic.
    #[test]
    fn gate_never_panics(skill_md in frontmatterish(), script in frontmatterish(), other in any::<Vec<u8>>(), rel in "[a-zA-Z0-9._/-]{1,24}") {
        let files = [("SKILL.md", skill_md.into_bytes()), ("scripts/run.sh", script.into_bytes()), (rel.as_str(), other)];
        let payload = skills::install::Payload {
            files: files.into_iter().filter_map(|(rel, bytes)| Some(skills::install::PayloadFile { rel: skills::relpath::RelPath::file(rel).ok()?, bytes, executable: true })).collect(),
            computed_hash: String::new(),
            notes: Vec::new(),
            left_out: Vec::new(),
            store: None,
            digested: std::sync::OnceLock::new(),
        };
        let gate = skills::gate::Gate::new(&skills::gate::Policy { allow: Vec::new(), no_verify: false }, &skills::output::Printer::silent()).unwrap();
        let _ = gate.lint(&payload.memory());
    }
}

/// A valid zip, tar and tar.gz with a skill in them, to be mangled.
fn archives() -> Vec<Vec<u8>> {
    use std::io::Write as _;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("pack/SKILL.md", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"---\nname: a\ndescription: b\n---\n")
        .unwrap();
    let zip = zip.finish().unwrap().into_inner();
    let mut tar = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(4);
    tar.append_data(&mut header, "pack/SKILL.md", &b"---\n"[..])
        .unwrap();
    let tar = tar.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar).unwrap();
    vec![zip, tar.clone(), gz.finish().unwrap()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Lockfiles: arbitrary bytes, and JSON close to a real lock.
    #[test]
    fn lock_parse_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1024), hash in "[0-9a-fx]{0,70}", field in "[a-zA-Z]{1,12}", value in ".{0,40}") {
        let _ = skills::lock::Lock::parse(Path::new("skills-lock.json"), &bytes);
        let text = format!(
            r#"{{"version": 1, "skills": {{"s": {{"source": "{v}", "sourceType": "github", "computedHash": "{hash}", "{field}": "{v}", "files": {{"{v}": "sha256:{hash}"}}}}}}}}"#,
            v = value.replace(['"', '\\'], "")
        );
        let _ = skills::lock::Lock::parse(Path::new("skills-lock.json"), text.as_bytes());
    }

    /// Source strings, as typed by anyone.
    #[test]
    fn source_grammar_never_panics(text in ".{0,120}", url in "(https?|git|ssh|file)://[a-z0-9./@#:?=&%-]{0,60}") {
        let env = skills::source::SourceEnv::from_env(std::path::PathBuf::from("/work"));
        let _ = skills::source::parse(&text, &env);
        let _ = skills::source::parse(&url, &env);
    }

    /// `skill://` URIs a client may send.
    #[test]
    fn skill_uris_never_panic(text in ".{0,80}", path in "[a-z%0-9./\\\\]{0,40}") {
        let _ = skills::mcp::uri::parse_uri(&text);
        let _ = skills::mcp::uri::parse_uri(&format!("skill://pdf/{path}"));
    }

    /// Well-known indexes: bytes, and JSON shaped like one.
    #[test]
    fn index_parse_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512), name in ".{0,70}", file in ".{0,40}", digest in "[a-z0-9:]{0,80}") {
        let url = "http://127.0.0.1/.well-known/agent-skills/index.json";
        let _ = skills::source::web::parse_index(url, &bytes);
        let v1 = serde_json::json!({"skills": [{"name": name, "description": "d", "files": [file, "SKILL.md"]}]});
        let _ = skills::source::web::parse_index(url, v1.to_string().as_bytes());
        let v02 = serde_json::json!({"$schema": "0.2.0", "skills": [{"name": name, "type": "archive", "url": file, "digest": digest}]});
        let _ = skills::source::web::parse_index(url, v02.to_string().as_bytes());
    }

    /// Archives: valid ones with bytes flipped, cut short, or random bytes behind a magic number.
    #[test]
    fn unpack_never_panics(which in 0usize..3, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in any::<usize>(), tail in proptest::collection::vec(any::<u8>(), 0..512)) {
        let limits = skills::source::web::WebLimits { download: 1 << 20, extracted: 1 << 20, files: 50 };
        let mut bytes = archives().swap_remove(which);
        for (at, value) in flips {
            let len = bytes.len();
            bytes[at % len] = value;
        }
        bytes.truncate(cut % (bytes.len() + 1));
        let _ = skills::source::web::unpack("fuzz", &bytes, limits);
        for magic in [&b"PK\x03\x04"[..], &[0x1f, 0x8b][..]] {
            let mut random = magic.to_vec();
            random.extend(&tail);
            let _ = skills::source::web::unpack("fuzz", &random, limits);
        }
    }

    /// ssh addresses (`GIT_SSH_COMMAND`) and `GH_HOST` values: never a panic, and never a host
    /// that ssh would read as an option.
    #[test]
    fn ssh_and_gh_host_never_panic(text in ".{0,80}", scheme in prop_oneof![Just(""), Just("ssh://"), Just("git+ssh://")]) {
        if let Some(address) = skills::source::ssh::address(&format!("{scheme}{text}")) {
            prop_assert!(!address.host.starts_with('-'));
        }
        if let Some(host) = skills::source::grammar::enterprise_host(&text) {
            prop_assert!(!host.contains(['/', '@', ' ']), "{host}");
        }
    }

    /// `package.json` files of any shape: `sync`'s discovery reads them without a panic.
    #[test]
    fn package_json_never_panics(deps in proptest::collection::vec(".{0,30}", 0..4), entry in ".{0,30}") {
        let dir = tempfile::tempdir().unwrap();
        let manifest = serde_json::json!({
            "dependencies": deps.iter().map(|d| (d.clone(), serde_json::json!("1"))).collect::<serde_json::Map<_, _>>(),
            "skills": [entry, {"source": "npm:x", "skills": [1]}, 3],
            "workspaces": {"packages": ["../*", "**"]},
        });
        std::fs::write(dir.path().join("package.json"), manifest.to_string()).unwrap();
        let _ = skills::source::npm::discover(dir.path(), true);
    }
}
