//! What a fresh machine needs to build `skills`, said where a newcomer reads it: the vendored
//! OpenSSL needs `perl` and `make` besides a C compiler, the README's quick start says so and
//! `.ci/run` installs them with apt when they are missing, before anything is built.

use crate::common::repo;

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap()
}

#[test]
fn the_quick_start_names_what_the_vendored_openssl_needs() {
    let manifest = read("Cargo.toml");
    let git2 = manifest
        .lines()
        .find(|line| line.starts_with("git2 "))
        .expect("git2 in Cargo.toml");
    assert!(
        git2.contains("vendored-openssl"),
        "when OpenSSL is no longer vendored, the quick start and .ci/run can say less: {git2}"
    );
    let readme = read("README.md");
    let start = readme
        .find("## Quick start (fresh machine")
        .expect("a quick start");
    let quick_start = &readme[start..];
    let quick_start = &quick_start[..quick_start[3..]
        .find("\n## ")
        .map_or(quick_start.len(), |e| e + 3)];
    for needed in ["`perl`", "`make`", "C\ncompiler", "vendored OpenSSL"] {
        assert!(
            quick_start.contains(needed)
                || quick_start
                    .replace('\n', " ")
                    .contains(&needed.replace('\n', " ")),
            "the quick start does not name {needed}:\n{quick_start}"
        );
    }
    // `.ci/run` installs them before the first `cargo` command that builds (clippy).
    let ci = read(".ci/run");
    let clippy = ci.find("cargo clippy").expect("clippy in .ci/run");
    for check in [
        "command -v perl >/dev/null || missing+=(perl)",
        "command -v make >/dev/null || missing+=(make)",
        "command -v cc >/dev/null || missing+=(gcc libc6-dev)",
        "apt-get install",
    ] {
        let at = ci
            .find(check)
            .unwrap_or_else(|| panic!(".ci/run lacks `{check}`"));
        assert!(
            at < clippy,
            "`{check}` comes after the first build in .ci/run"
        );
    }
}
