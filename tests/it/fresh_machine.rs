//! What a fresh machine needs to build `skills`, said where a newcomer reads it: a C compiler
//! (libgit2, zlib, ring) and nothing else, since no OpenSSL is built (HTTPS is rustls, for git
//! too; ssh is the user's `ssh`). The README's quick start says so and `.ci/run` installs the
//! compiler with apt when it is missing, before anything is built.

use crate::common::repo;

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap()
}

#[test]
fn the_quick_start_names_what_the_build_needs() {
    let manifest = read("Cargo.toml");
    let git2 = manifest
        .lines()
        .find(|line| line.starts_with("git2 "))
        .expect("git2 in Cargo.toml");
    // These features bring OpenSSL (and with it perl and make) back into the build.
    for feature in ["\"https\"", "\"ssh\"", "vendored-openssl"] {
        assert!(
            !git2.contains(feature),
            "git2's {feature} brings OpenSSL back: the quick start and .ci/run must then name perl and make again: {git2}"
        );
    }
    let readme = read("README.md");
    let start = readme
        .find("## Quick start (fresh machine")
        .expect("a quick start");
    let quick_start = &readme[start..];
    let quick_start = &quick_start[..quick_start[3..]
        .find("\n## ")
        .map_or(quick_start.len(), |e| e + 3)];
    let flat = quick_start.replace('\n', " ");
    for needed in ["C compiler", "No OpenSSL"] {
        assert!(
            flat.contains(needed),
            "the quick start does not say {needed}:\n{quick_start}"
        );
    }
    // `.ci/run` installs it before the first `cargo` command that builds (clippy).
    let ci = read(".ci/run");
    let clippy = ci.find("cargo clippy").expect("clippy in .ci/run");
    for check in [
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
