//! Source addresses as a user types them: `https://github.com/owner/repo` fetched from
//! `SKILLS_GITHUB_URL` as `owner/repo` is, and the commit ids every command prints (12 hex
//! digits) — any unique prefix of 7 or more — usable wherever a ref is taken, against a real
//! `git daemon` that advertises refs only.

use serde_json::Value;

use crate::add::{Remote, add, fixture, lock};
use crate::common::{Output, TestContext, run, write};

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

/// Two blobs whose ids share their first 7 hex digits (`122f9b7`), found once by brute force.
const TWINS: [&str; 2] = ["noise 38722\n", "noise 43099\n"];
const TWIN_PREFIX: &str = "122f9b7";

#[test]
fn github_com_urls_use_the_mirror() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    for url in [
        "https://github.com/acme/flat",
        "https://github.com/acme/flat.git",
        "https://github.com/acme/flat/tree/main/skills/pdf-forms",
    ] {
        let before = remote.daemon.upload_pack_requests_for("acme/flat");
        let output = add(
            &context,
            Some(&remote),
            &[url, "-s", "pdf-forms", "-a", "claude-code", "-y"],
        );
        ok(&output);
        assert!(
            remote.daemon.upload_pack_requests_for("acme/flat") > before,
            "{url} was not fetched from the mirror"
        );
        let entry = &lock(&context)["skills"]["pdf-forms"];
        assert_eq!(entry["source"], "acme/flat", "{url}");
        assert_eq!(
            entry["sourceUrl"], "https://github.com/acme/flat.git",
            "{url}"
        );
    }
    // Without the mirror, github.com itself: unreachable from the tests, so nothing here is
    // fetched from the mirror (and nothing from the network: the proxy goes nowhere).
    let before = remote.daemon.upload_pack_requests_for("acme/flat");
    let output = run(context
        .command()
        .args(["add", "https://github.com/acme/flat", "--list"])
        .env("SKILLS_GITHUB_URL", "git://127.0.0.1:9"));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(output.stderr.contains("127.0.0.1:9"), "{}", output.stderr);
    assert_eq!(remote.daemon.upload_pack_requests_for("acme/flat"), before);
    // `GH_HOST` (a GitHub Enterprise host) is honoured by the long form as by `owner/repo`.
    for source in ["https://github.com/acme/flat", "acme/flat"] {
        let output = run(context
            .command()
            .args(["add", source, "--list"])
            .env("GH_HOST", "127.0.0.1:9"));
        assert_eq!(output.code, 2, "{}", output.stderr);
        assert!(
            output.stderr.contains("https://127.0.0.1:9/acme/flat.git"),
            "{source}: {}",
            output.stderr
        );
    }
}

#[test]
fn commit_id_prefixes_are_refs() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    let first = upstream.head();
    let second = upstream.commit("two blobs that share a prefix", |work| {
        write(&work.join("noise/a.txt"), TWINS[0]);
        write(&work.join("noise/b.txt"), TWINS[1]);
    });
    let third = upstream.commit("more", |work| {
        write(&work.join("notes.txt"), "more\n");
    });
    // The cache starts shallow: the tip alone.
    ok(&add(
        &context,
        Some(&remote),
        &["acme/flat", "-s", "csv-tools", "-a", "claude-code", "-y"],
    ));

    // The 12 digits `list` prints, of a commit below every advertised tip.
    let twelve = &first[..12];
    ok(&add(
        &context,
        Some(&remote),
        &[
            &format!("acme/flat#{twelve}"),
            "-s",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    let entry = &lock(&context)["skills"]["pdf-forms"];
    assert_eq!(entry["commit"], first.as_str());
    assert_eq!(entry["ref"], twelve, "the ref is recorded as typed");

    // 7 digits, in a tree URL on github.com (the mirror serves it).
    let seven = &second[..7];
    ok(&add(
        &context,
        Some(&remote),
        &[
            &format!("https://github.com/acme/flat/tree/{seven}/skills/release-notes"),
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    assert_eq!(
        lock(&context)["skills"]["release-notes"]["commit"],
        second.as_str()
    );
    assert_ne!(second, third);

    // Locked prefixes are pinned commits: nothing to update, and a teammate restores them.
    let output = run(context
        .command()
        .args(["check", "--json"])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url));
    ok(&output);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    for item in report["skills"].as_array().unwrap() {
        if item["name"] != "csv-tools" {
            assert_eq!(item["lockedCommit"], item["upstreamCommit"], "{item}");
        }
    }
    let teammate = context.teammate();
    ok(&run(teammate
        .command()
        .args(["install", "--frozen"])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url)));
    assert!(
        teammate
            .project
            .join(".claude/skills/pdf-forms/SKILL.md")
            .is_file()
    );

    // Ambiguous: two objects start so; unknown: none does.
    let output = add(
        &context,
        Some(&remote),
        &[&format!("acme/flat#{TWIN_PREFIX}"), "--list"],
    );
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains(&format!(
            "`{TWIN_PREFIX}` is the start of more than one object id"
        )) && output.stderr.contains("give more digits"),
        "{}",
        output.stderr
    );
    let output = add(
        &context,
        Some(&remote),
        &["acme/flat#0000000dead", "--list"],
    );
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output
            .stderr
            .contains("has no branch, tag or commit `0000000dead`")
            && output.stderr.contains("at least 7 hex digits"),
        "{}",
        output.stderr
    );
}
