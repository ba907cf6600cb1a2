//! The path validator, fuzzed: whatever text comes in, `RelPath` never panics, and what it
//! accepts can only name a place beneath a base folder — never `..`, an absolute path, `.git`
//! in any spelling, a separator or a control character in a name. And a differential check
//! against git itself: every path `git update-index` refuses to put in an index (with
//! `core.protectNTFS` and `core.protectHFS` on, as git has them by default), `RelPath` refuses.

use std::path::{Component, Path};
use std::process::Stdio;

use proptest::prelude::*;
use skills::relpath::{RelPath, check_component};

/// Names built from the pieces attacks are made of.
fn hostile_name() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        ".",
        "..",
        "...",
        ".git",
        ".GIT",
        ".Git",
        "git~1",
        "GIT~2",
        ".git.",
        ".git ",
        " ",
        ".gitmodules",
        "\u{200c}",
        "\u{200e}",
        "\u{feff}",
        "\u{202e}",
        "/",
        "\\",
        "\0",
        "\n",
        "\x1b",
        ":",
        "::$INDEX_ALLOCATION",
        "CON",
        "aux",
        "nul",
        "com1",
        "lpt9",
        ".txt",
        "a",
        "b",
        "SKILL.md",
        "-",
        "~",
        "é",
        "%2e",
        "C:",
        "*",
        "?",
        "|",
        "<",
        ">",
        "\"",
    ]);
    prop::collection::vec(pieces, 1..6).prop_map(|parts| parts.concat())
}

fn hostile_path() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(hostile_name(), 1..5).prop_map(|names| names.join("/")),
        any::<String>(),
        "[a-z./\\\\:~ -]{0,24}",
    ]
}

/// What an accepted path must be, checked independently of the validator's own code.
fn assert_confined(path: &RelPath) {
    let base = Path::new("/base");
    let joined = path.to_path(base);
    assert!(joined.starts_with(base), "{path:?} → {}", joined.display());
    for component in joined.strip_prefix(base).unwrap().components() {
        assert!(
            matches!(component, Component::Normal(_)),
            "{path:?} has {component:?}"
        );
    }
    for name in path.components() {
        // HFS+ ignores these code points when it compares names: `.g\u{200c}it` is `.git` there.
        let hfs: String = name
            .chars()
            .filter(|c| !matches!(*c as u32, 0x200c..=0x200f | 0x202a..=0x202e | 0x206a..=0x206f | 0xfeff))
            .collect::<String>()
            .to_ascii_lowercase();
        assert_ne!(hfs, ".git", "{path:?}");
        // NTFS drops trailing dots and spaces, reads `name:stream`, and has 8.3 short names.
        let ntfs = name.to_ascii_lowercase();
        let ntfs = ntfs.split(':').next().unwrap_or_default();
        let ntfs = ntfs.trim_end_matches(['.', ' ']);
        assert_ne!(ntfs, ".git", "{path:?}");
        assert_ne!(ntfs, "git~1", "{path:?}");
        assert!(!name.contains(['\\', '\0', ':']), "{path:?}");
        assert!(!name.chars().any(char::is_control), "{path:?}");
        assert!(!name.ends_with(['.', ' ']), "{path:?}");
        assert!(!name.is_empty() && name != "." && name != "..", "{path:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// No input makes the validator panic; what it accepts stays beneath its base.
    #[test]
    fn accepted_paths_stay_beneath(text in hostile_path()) {
        if let Ok(path) = RelPath::new(&text) {
            prop_assert_eq!(path.as_str(), text.as_str(), "kept as written");
            assert_confined(&path);
        }
        if let Ok(path) = RelPath::normalize(&text) {
            assert_confined(&path);
            prop_assert_eq!(RelPath::normalize(path.as_str()).unwrap(), path.clone(), "idempotent");
            prop_assert_eq!(RelPath::new(path.as_str()).unwrap(), path);
        }
    }

    /// A link's target resolves to a path beneath the tree, or to nothing.
    #[test]
    fn links_resolve_beneath(at in "[a-z]{1,3}(/[a-z]{1,3}){0,3}".prop_filter_map("a valid link path", |p| RelPath::new(&p).ok()), target in hostile_path()) {
        if let Some(resolved) = at.resolve_link(&target) {
            assert_confined(&resolved);
        }
    }

    /// Joining a name validates it.
    #[test]
    fn join_checks_the_name(name in hostile_name()) {
        let joined = RelPath::new("dir").unwrap().join(&name);
        prop_assert_eq!(joined.is_ok(), check_component(&name).is_ok());
        if let Ok(path) = joined {
            assert_confined(&path);
        }
    }
}

/// Asks git whether it would put `path` in an index (its `verify_path`, protections on).
fn git_accepts(repo: &Path, path: &str) -> bool {
    let ok = crate::gitfixture::git_command(repo)
        .args([
            "-c",
            "core.protectNTFS=true",
            "-c",
            "core.protectHFS=true",
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("100644,e69de29bb2d1d6434b8b29ae775ad8c2e48c5391,{path}"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git runs")
        .success();
    if ok {
        let _ = crate::gitfixture::try_git(repo, &["rm", "-q", "--cached", "-r", "--", "."]);
    }
    ok
}

/// Every path git refuses, `RelPath` refuses: the validator is at least as strict as git's
/// checkout, on names built from the pieces of known attacks.
#[test]
fn stricter_than_git() {
    let temp = tempfile::tempdir().unwrap();
    let repo = temp.path();
    crate::gitfixture::git(repo, &["init", "-q"]);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 400,
        ..ProptestConfig::default()
    });
    // Mostly spellings of `.git`, where git's own checks are richest.
    let gitish = (
        prop::sample::select(vec!["", "\u{200c}", "\u{feff}", "\u{200e}"]),
        prop::sample::select(vec![
            ".git",
            ".GIT",
            ".gIt",
            "git~1",
            "GIT~1",
            ".g\u{200c}it",
        ]),
        prop::sample::select(vec![
            "",
            ".",
            " ",
            "..",
            ". ",
            "::$INDEX_ALLOCATION",
            "x",
            "~",
        ]),
    )
        .prop_map(|(a, b, c)| format!("{a}{b}{c}"));
    let name = prop_oneof![2 => gitish, 1 => hostile_name()];
    let strategy = prop::collection::vec(name, 1..4)
        .prop_map(|names| names.join("/"))
        .prop_filter("git reads NUL and newline as the end of the entry", |p| {
            !p.contains(['\0', '\n'])
        });
    let git_refused = std::cell::Cell::new(0);
    runner
        .run(&strategy, |path| {
            if !git_accepts(repo, &path) {
                git_refused.set(git_refused.get() + 1);
                prop_assert!(
                    RelPath::new(&path).is_err(),
                    "git refuses {path:?}, RelPath accepts it"
                );
            }
            Ok(())
        })
        .unwrap();
    let git_refused = git_refused.get();
    assert!(
        git_refused >= 10,
        "the generator reaches git's refusals ({git_refused})"
    );
    // And git's own known refusals, spelled out.
    for path in [
        ".git/config",
        "a/.GIT/hooks/x",
        "a/../b",
        ".git./x",
        "git~1/x",
        ".g\u{200c}it/x",
    ] {
        assert!(!git_accepts(repo, path), "git accepts {path:?}?");
        assert!(RelPath::new(path).is_err(), "{path:?}");
    }
}
