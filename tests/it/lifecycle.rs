//! The lock lifecycle over a real `git daemon`: `add` → upstream commits → `check` → `update` →
//! `install --frozen` elsewhere; drift, force-pushes, tampering, and locks written by the
//! reference installer.

use std::path::Path;

use serde_json::{Value, json};
use sha2::Digest as _;

use crate::add::{Remote, add, fixture, lock, tree};
use crate::common::{Output, TestContext, run, write};
use crate::{snapshot_output, snapshot_text};

/// `skills ARGS` in `context`, with `owner/repo` served by `remote`.
pub fn skills(context: &TestContext, remote: &Remote, args: &[&str]) -> Output {
    let mut command = context.command();
    command
        .args(args)
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url);
    run(&mut command)
}

/// Every file, folder and link under `dir` (as [`tree`] lists them) with what identifies a
/// file: its sha256 and executable bit.
pub fn fingerprint(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_iter()
        .map(|line| {
            if line.ends_with('/') || line.contains(" -> ") {
                return line;
            }
            let path = dir.join(&line);
            #[cfg(unix)]
            let executable = std::os::unix::fs::PermissionsExt::mode(
                &std::fs::metadata(&path).unwrap().permissions(),
            ) & 0o111
                != 0;
            #[cfg(not(unix))]
            let executable = false;
            let digest = hex::encode(sha2::Sha256::digest(std::fs::read(&path).unwrap()));
            format!("{line} {digest} x={executable}")
        })
        .collect()
}

/// `add acme/flat --skill SKILL -a claude-code MORE… -y`, which must succeed.
/// A lock whose two sources are gone: a local folder, and a repository nobody serves.
pub fn lock_vanished_sources(context: &TestContext) {
    let zeros = "0".repeat(64);
    let lock = json!({"version": 1, "skills": {
        "gone-local": {"source": "./vendor/gone", "sourceType": "local", "computedHash": zeros},
        "gone-remote": {"source": "acme/nothing", "sourceType": "github", "computedHash": zeros, "commit": "1".repeat(40)}}});
    write(
        &context.project.join("skills-lock.json"),
        serde_json::to_string(&lock).unwrap(),
    );
}

fn add_flat(context: &TestContext, remote: &Remote, skill: &str, more: &[&str]) {
    let mut args = vec!["acme/flat", "--skill", skill, "-a", "claude-code"];
    args.extend(more);
    args.push("-y");
    let output = add(context, Some(remote), &args);
    assert_eq!(output.code, 0, "{}", output.stderr);
}

#[test]
fn round_trip_add_check_update_install_frozen() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "*", &["cursor"]);
    let locked_commit = upstream.head();

    // Nothing upstream: up to date, one advertisement, no fetch.
    let before = remote.daemon.upload_pack_requests();
    let output = skills(&context, &remote, &["check", "--exit-code"]);
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    assert_eq!(
        remote.daemon.upload_pack_requests() - before,
        1,
        "one ref advertisement"
    );

    // A commit that touches no skill is not an update; one that touches `pdf-forms` is.
    upstream.commit("docs", |work| {
        write(&work.join("README.md"), "# Skills\n");
    });
    let new_commit = upstream.commit("pdf: better forms", |work| {
        write(&work.join("skills/pdf-forms/SKILL.md"), "---\nname: pdf-forms\ndescription: Fill PDF forms, better. Use when a form needs filling.\n---\n# PDF forms\n\nNew steps.\n");
        write(&work.join("skills/pdf-forms/references/fields.md"), "# Fields\n");
    });
    let lock_before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let tree_before = fingerprint(&context.project);
    let output = skills(&context, &remote, &["check", "--json"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    let statuses: Vec<(&str, &str)> = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [
            ("csv-tools", "up-to-date"),
            ("pdf-forms", "update-available"),
            ("release-notes", "up-to-date")
        ]
    );
    assert_eq!(report["skills"][1]["lockedCommit"], locked_commit.as_str());
    assert_eq!(report["skills"][1]["upstreamCommit"], new_commit.as_str());
    let output = skills(&context, &remote, &["check", "--exit-code"]);
    assert_eq!(output.code, 1, "updates exist: {}", output.stderr);
    snapshot_output!(context, output);
    assert_eq!(
        fingerprint(&context.project),
        tree_before,
        "check changes nothing on disk"
    );
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        lock_before
    );

    // Update: only pdf-forms, same agents and mode, the changes listed.
    let output = skills(&context, &remote, &["update"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    snapshot_output!(context, output);
    let after = lock(&context);
    let entry = &after["skills"]["pdf-forms"];
    assert_eq!(entry["commit"], new_commit.as_str());
    assert_eq!(entry["mode"], "symlink");
    assert_eq!(entry["agents"], json!(["cursor", "claude-code"]));
    assert!(entry["files"]["references/fields.md"].is_string());
    assert_eq!(
        after["skills"]["csv-tools"]["commit"],
        locked_commit.as_str(),
        "untouched skills keep their pin"
    );
    assert!(
        std::fs::read_to_string(context.project.join(".claude/skills/pdf-forms/SKILL.md"))
            .unwrap()
            .contains("New steps."),
        "the agent link shows the new version"
    );
    assert_eq!(skills(&context, &remote, &["check", "--exit-code"]).code, 0);
    assert_eq!(skills(&context, &remote, &["manifest", "--check"]).code, 0);

    // A teammate: the same bytes and the same lock from `install --frozen`.
    let fresh = context.teammate();
    let output = skills(&fresh, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        fingerprint(&fresh.project),
        fingerprint(&context.project),
        "identical trees"
    );
    let output = skills(&fresh, &remote, &["install", "--frozen", "--json"]);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(
        report["restored"],
        json!([]),
        "a second run has nothing to do"
    );
    assert_eq!(report["unchanged"].as_array().unwrap().len(), 3);
    assert_eq!(skills(&fresh, &remote, &["manifest", "--check"]).code, 0);
}

#[test]
fn check_costs_one_advertisement_per_source() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let repos = context.temp.path().join("content");
    for source in 0..10 {
        for skill in 0..10 {
            let name = format!("s{source}-k{skill}");
            write(
                &repos.join(format!("r{source}/skills/{name}/SKILL.md")),
                format!(
                    "---\nname: {name}\ndescription: Skill {name}. Use when testing.\n---\nbody\n"
                ),
            );
        }
        remote.upstream(
            &format!("acme/r{source}"),
            &repos.join(format!("r{source}")),
        );
        let output = add(
            &context,
            Some(&remote),
            &[
                &format!("acme/r{source}"),
                "--skill",
                "*",
                "-a",
                "claude-code",
                "-y",
            ],
        );
        assert_eq!(output.code, 0, "{}", output.stderr);
    }
    assert_eq!(lock(&context)["skills"].as_object().unwrap().len(), 100);
    let before = remote.daemon.upload_pack_requests();
    let output = skills(&context, &remote, &["check", "--exit-code"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        remote.daemon.upload_pack_requests() - before,
        10,
        "{}",
        remote.daemon.log()
    );
    assert_eq!(output.stderr, "all checked skills are up to date\n");
}

#[test]
fn force_push_fails_frozen_and_keeps_the_installed_copy() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "csv-tools", &[]);
    upstream.force_push_new_history(|work| {
        write(
            &work.join("skills/csv-tools/SKILL.md"),
            "---\nname: csv-tools\ndescription: Rewritten. Use when rewriting.\n---\nx\n",
        );
    });

    // A teammate cannot reproduce it: exit 1, the skill named, nothing written.
    let fresh = context.teammate();
    let lock_before = std::fs::read(fresh.project.join("skills-lock.json")).unwrap();
    let output = skills(&fresh, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(fresh, output);
    assert_eq!(
        fingerprint(&fresh.project),
        ["skills-lock.json ".to_owned()
            + &hex::encode(sha2::Sha256::digest(&lock_before))
            + " x=false"]
    );

    // Without --frozen, where it is installed with an edit (a copy as locked is left alone
    // without asking the source): said so, the copy kept (a new cache: the old commit is
    // nowhere any more).
    let edit = context.project.join(".claude/skills/csv-tools/notes.md");
    write(&edit, "mine\n");
    let tree_before = fingerprint(&context.project);
    let mut command = context.command();
    command
        .args(["install"])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url)
        .env("SKILLS_CACHE_DIR", context.temp.path().join("other-cache"));
    let output = run(&mut command);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(context, output);
    assert_eq!(fingerprint(&context.project), tree_before);
    std::fs::remove_file(&edit).unwrap();

    // `check` sees the new history as an update; `update` moves to it.
    let output = skills(&context, &remote, &["check", "--exit-code"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert_eq!(skills(&context, &remote, &["update"]).code, 0);
    assert_eq!(
        lock(&context)["skills"]["csv-tools"]["commit"],
        upstream.head().as_str()
    );
}

#[test]
fn manifest_check_names_tampered_missing_and_untracked_files() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "*", &[]);
    assert_eq!(skills(&context, &remote, &["manifest", "--check"]).code, 0);
    let skill = context.project.join(".claude/skills/csv-tools");
    std::fs::write(skill.join("references/formats.md"), "tampered\n").unwrap();
    std::fs::remove_file(skill.join("scripts/convert.py")).unwrap();
    write(&skill.join("extra.txt"), "new\n");
    context.skill(".claude/skills/hand-made", "hand-made");

    let output = skills(&context, &remote, &["manifest", "--check"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(context, output);
    let output = skills(&context, &remote, &["manifest", "--check", "--json"]);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(report["ok"], false);
    let csv = report["drift"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "csv-tools")
        .unwrap();
    assert_eq!(csv["modified"], json!(["references/formats.md"]));
    assert_eq!(csv["missing"], json!(["scripts/convert.py"]));
    assert_eq!(csv["untracked"], json!(["extra.txt"]));

    // Neither `install` nor `install --frozen` overwrites the edits: they name them and say no;
    // `--force` restores the lock's bytes.
    for args in [&["install"][..], &["install", "--frozen"]] {
        let output = skills(&context, &remote, args);
        assert_eq!(output.code, 1, "{}", output.stderr);
        snapshot_output!(context, output);
        assert!(skill.join("extra.txt").exists() && !skill.join("scripts/convert.py").exists());
    }
    let output = skills(&context, &remote, &["install", "--force"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!skill.join("extra.txt").exists() && skill.join("scripts/convert.py").exists());
    // Recording adopts the hand-made skill as a local entry; then everything matches.
    let output = skills(&context, &remote, &["manifest"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let entry = &lock(&context)["skills"]["hand-made"];
    assert_eq!(entry["sourceType"], "local");
    assert_eq!(entry["source"], "./.claude/skills/hand-made");
    assert_eq!(entry["agents"], json!(["claude-code"]));
    assert_eq!(skills(&context, &remote, &["manifest", "--check"]).code, 0);
    assert_eq!(
        skills(&context, &remote, &["install", "--frozen"]).code,
        0,
        "a local entry reproduces itself"
    );
    // Edited where it was made: no upstream to check, and `manifest --check` names the change.
    std::fs::write(
        context.project.join(".claude/skills/hand-made/SKILL.md"),
        "edited\n",
    )
    .unwrap();
    let output = skills(&context, &remote, &["check", "--exit-code", "hand-made"]);
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    let output = skills(&context, &remote, &["manifest", "--check"]);
    snapshot_output!(context, output);
    assert_eq!(skills(&context, &remote, &["manifest"]).code, 0);
    let output = skills(&context, &remote, &["manifest", "--json"]);
    let inventories: Value = serde_json::from_str(&output.stdout).unwrap();
    let first = &inventories[0];
    assert_eq!(first["skill"], "csv-tools");
    assert_eq!(first["files"][0]["path"], "SKILL.md");
    assert!(
        first["files"][0]["hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
}

/// What the installed view leaves out is the user's too: a repository they made in an installed
/// skill to track their edits (`git init` there), a `metadata.json` they added. `update` and
/// `add` name them as local edits and replace nothing; `install --frozen` finds the skill in
/// place and leaves it; only `--force` replaces the folder.
#[test]
fn a_users_git_and_metadata_in_an_installed_skill_are_edits() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "csv-tools", &[]);
    let folder = context.project.join(".claude/skills/csv-tools");
    let history = write(&folder.join(".git/NOTES"), "my history\n");
    let metadata = write(&folder.join("metadata.json"), "{\"my\": \"settings\"}\n");
    upstream.commit("change", |work| {
        write(
            &work.join("skills/csv-tools/references/formats.md"),
            "# Formats v2\n",
        );
    });
    let attempts: [&[&str]; 2] = [
        &["update", "-y"],
        &[
            "add",
            "acme/flat",
            "--skill",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ],
    ];
    for args in attempts {
        let output = skills(&context, &remote, args);
        assert_eq!(output.code, 1, "{args:?}: {}", output.stderr);
        assert!(
            output.stderr.contains("+ .git/") && output.stderr.contains("+ metadata.json"),
            "{args:?}: {}",
            output.stderr
        );
        assert!(history.exists() && metadata.exists(), "{args:?}");
    }
    // The lock did not move: every listed file is in place, and nothing is replaced.
    let output = skills(&context, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(history.exists() && metadata.exists());
    let output = skills(&context, &remote, &["update", "csv-tools", "--force"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!history.exists() && !metadata.exists());
}

#[test]
fn update_keeps_edits_unless_forced() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "csv-tools", &[]);
    upstream.commit("change", |work| {
        write(
            &work.join("skills/csv-tools/references/formats.md"),
            "# Formats v2\n",
        );
    });
    let edited = context.project.join(".claude/skills/csv-tools/SKILL.md");
    std::fs::write(&edited, "my edits\n").unwrap();
    let output = skills(&context, &remote, &["update"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(context, output);
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), "my edits\n");
    let output = skills(&context, &remote, &["update", "csv-tools", "--force"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_ne!(std::fs::read_to_string(&edited).unwrap(), "my edits\n");
    let output = skills(&context, &remote, &["update", "nope"]);
    snapshot_output!(context, output);
}

#[test]
fn reference_written_locks_are_restored_by_ref_and_hash() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    // What `npx skills` writes: no commit, files, agents or mode.
    add_flat(&context, &remote, "pdf-forms", &[]);
    let hash = lock(&context)["skills"]["pdf-forms"]["computedHash"].clone();
    let fresh = TestContext::new();
    let reference = json!({"version": 1, "skills": {"pdf-forms": {
        "source": "acme/flat", "sourceType": "github", "sourceUrl": "https://github.com/acme/flat.git",
        "skillPath": "skills/pdf-forms/SKILL.md", "computedHash": hash}}});
    let text = serde_json::to_string_pretty(&reference).unwrap();
    write(&fresh.project.join("skills-lock.json"), &text);
    let output = skills(&fresh, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        std::fs::read_to_string(fresh.project.join("skills-lock.json")).unwrap(),
        text,
        "--frozen writes no lock"
    );
    assert!(
        fresh
            .project
            .join(".agents/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    let output = skills(&fresh, &remote, &["install"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let filled = serde_json::from_slice::<Value>(
        &std::fs::read(fresh.project.join("skills-lock.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        filled["skills"]["pdf-forms"]["commit"],
        upstream.head().as_str(),
        "the lock gains the commit"
    );
    assert!(filled["skills"]["pdf-forms"]["files"]["SKILL.md"].is_string());

    // The upstream moves on: a ref-only entry no longer matches its hash, and says so.
    upstream.commit("change", |work| {
        write(
            &work.join("skills/pdf-forms/SKILL.md"),
            "---\nname: pdf-forms\ndescription: Changed. Use when changed.\n---\nx\n",
        );
    });
    let other = TestContext::new();
    write(&other.project.join("skills-lock.json"), &text);
    let output = skills(&other, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(other, output);
}

#[test]
fn broken_locks_and_vanished_sources_are_named() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    // Every command's whole message for every broken lock, in one snapshot.
    let mut said = String::new();
    for text in [
        "{\"version\": 9, \"skills\": {}}",
        "{not json",
        "{\"version\": 1, \"skills\": {\"pdf\": {\"source\": \"a/b\", \"sourceType\": \"github\", \"computedHash\": \"xyz\"}}}",
    ] {
        write(&context.project.join("skills-lock.json"), text);
        said.push_str("===== skills-lock.json: ");
        said.push_str(text);
        said.push('\n');
        for command in [&["install"][..], &["check"], &["update"], &["manifest"]] {
            let output = skills(&context, &remote, command);
            assert_eq!(output.code, 2, "{command:?} {text}: {}", output.stderr);
            assert_eq!(output.stdout, "", "{command:?}");
            said.push_str(&["$ skills ", &command.join(" "), "\n", &output.stderr].concat());
            assert_eq!(
                std::fs::read_to_string(context.project.join("skills-lock.json")).unwrap(),
                text,
                "never rewritten"
            );
        }
    }
    snapshot_text!(context, said);
    // Sources that are gone: a local folder, a repository nobody serves.
    lock_vanished_sources(&context);
    let output = skills(&context, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(context, output);
    // The fetch error's own hint reaches `install`, `check` and `update` (typed, not a string).
    for command in [&["check"][..], &["update"]] {
        snapshot_output!(context, skills(&context, &remote, command));
    }
    let output = skills(&context, &remote, &["check", "--json"]);
    assert_eq!(
        output.code, 2,
        "a check that could not check is not a success"
    );
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(report["skills"][0]["status"], "unreachable");
    assert_eq!(report["skills"][1]["status"], "unreachable");
}

#[test]
fn global_lock_lifecycle() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    add_flat(&context, &remote, "csv-tools", &["-g"]);
    let lock_path = context
        .temp
        .path()
        .join("xdg/state/skills/.skill-lock.json");
    let global: Value = serde_json::from_slice(&std::fs::read(&lock_path).unwrap()).unwrap();
    assert_eq!(global["version"], 3);
    assert_eq!(
        skills(&context, &remote, &["manifest", "--check", "-g"]).code,
        0
    );
    upstream.commit("change", |work| {
        write(
            &work.join("skills/csv-tools/references/formats.md"),
            "# Formats v2\n",
        );
    });
    assert_eq!(
        skills(&context, &remote, &["check", "-g", "--exit-code"]).code,
        1
    );
    let output = skills(&context, &remote, &["check", "--exit-code"]);
    assert_eq!(
        output.code, 2,
        "the project lock is another lock, and there is none: nothing checked is no pass"
    );
    assert!(output.stderr.contains("no lockfile"), "{}", output.stderr);
    let output = skills(&context, &remote, &["update", "-g"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let global: Value = serde_json::from_slice(&std::fs::read(&lock_path).unwrap()).unwrap();
    assert_eq!(global["version"], 3);
    assert_eq!(
        global["skills"]["csv-tools"]["commit"],
        upstream.head().as_str()
    );
    assert!(global["skills"]["csv-tools"]["updatedAt"].is_string());
    let installed = context
        .home
        .join(".claude/skills/csv-tools/references/formats.md");
    assert_eq!(
        std::fs::read_to_string(&installed).unwrap(),
        "# Formats v2\n"
    );
    std::fs::remove_dir_all(context.home.join(".claude/skills/csv-tools")).unwrap();
    assert_eq!(
        skills(&context, &remote, &["manifest", "--check", "-g"]).code,
        1
    );
    let output = skills(&context, &remote, &["install", "-g", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        std::fs::read_to_string(&installed).unwrap(),
        "# Formats v2\n"
    );
}

/// A lock from a clone must not make `skills` link or install `~/.ssh` (a bot that runs `skills
/// update` and commits the result would publish it): `check` and `update` do not read a local
/// source past the repository that this machine's user never added, and `install` reads it only
/// to check it against the lock, which it cannot match.
#[test]
fn a_lock_cannot_reach_outside_its_repository() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join(".git")).unwrap();
    // What the attacker wants: a folder outside the repository, made to look like a skill.
    let outside = context.home.join(".ssh");
    write(
        &outside.join("SKILL.md"),
        "---\nname: keys\ndescription: Keys. Use when asked.\n---\n",
    );
    let canary = write(
        &outside.join("id_ed25519"),
        "-----BEGIN OPENSSH PRIVATE KEY-----\n",
    );
    let before = fingerprint(&outside);
    let hash = "0".repeat(64);
    let mut skills = serde_json::Map::new();
    // A private repository of the user's, next to the project.
    let private = context.temp.path().join("private.git");
    crate::gitfixture::git(
        context.temp.path(),
        &["init", "-q", "--bare", "private.git"],
    );
    let private_url = format!("file://{}", private.display());
    for (name, extra) in [
        ("keys", json!({})),
        ("linked", json!({"mode": "link", "agents": ["claude-code"]})),
        (
            "repo",
            json!({"sourceType": "git", "source": "not a source", "sourceUrl": private_url}),
        ),
        (
            "repo-path",
            json!({"sourceType": "git", "source": private_url}),
        ),
    ] {
        let mut entry = json!({
            "source": "../home/.ssh",
            "sourceType": "local",
            "computedHash": hash,
        });
        entry
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        skills.insert(name.to_owned(), entry);
    }
    context.write(
        "skills-lock.json",
        serde_json::to_string_pretty(&json!({"version": 1, "skills": skills})).unwrap(),
    );
    // `install` may read past the repository (every byte is checked against the lock before it
    // is written): nothing the lock did not lock is installed, and no link leads out.
    for args in [&["install"][..], &["install", "--frozen"]] {
        let output = run(context.command().args(args));
        assert_eq!(output.code, 1, "{args:?}: {}", output.stderr);
        assert!(
            output.stderr.contains("the lock says 000000000000"),
            "{args:?}: {}",
            output.stderr
        );
        assert!(
            !output.stderr.contains("BEGIN OPENSSH"),
            "{}",
            output.stderr
        );
    }
    // `check` and `update` read it only where this machine's user added it: skipped, said.
    for args in [&["update", "-y"][..], &["check"]] {
        let output = run(context.command().args(args));
        assert_eq!(output.code, 0, "{args:?}: {}", output.stderr);
        // One warning per reason (`check` names the skills it holds for together).
        for name in ["`keys`", "`linked`", "`repo`", "`repo-path`"] {
            assert!(
                output
                    .stderr
                    .lines()
                    .any(|line| line.contains("is outside") && line.contains(name)),
                "{args:?}: every entry is skipped for it, {name} too: {}",
                output.stderr
            );
        }
        assert!(
            !output.stderr.contains("BEGIN OPENSSH"),
            "{}",
            output.stderr
        );
    }
    assert_eq!(
        fingerprint(&outside),
        before,
        "the outside folder is untouched"
    );
    assert!(canary.exists());
    assert!(
        tree(&context.project)
            .iter()
            .all(|p| !p.contains(".claude") && !p.contains(".agents")),
        "nothing installed: {:?}",
        tree(&context.project)
    );
}

/// `add` from a folder outside the project's repository installs (the user named it), trusts the
/// folder on this machine (`check` and `update` follow it here) and says so at once; another
/// user's `check` skips it with a note.
#[test]
fn add_from_outside_the_repository_is_followed_on_this_machine_only() {
    let context = TestContext::new();
    let canary = crate::hostile::Canary::plant(&context);
    std::fs::create_dir_all(context.project.join(".git")).unwrap();
    // The path is printed: a folder name holding a clipboard write (OSC 52) stays escaped.
    let outside = context
        .temp
        .path()
        .join("elsewhere\u{1b}]52;c;ZWNobyBoaQ==\u{7}/tidy");
    write(
        &outside.join("SKILL.md"),
        "---\nname: tidy\ndescription: Tidies files. Use when asked to tidy.\n---\n",
    );
    let inside = context.project.join("vendor/neat");
    write(
        &inside.join("SKILL.md"),
        "---\nname: neat\ndescription: Neatens files. Use when asked to neaten.\n---\n",
    );
    let output =
        run(context
            .command()
            .args(["add"])
            .arg(&outside)
            .args(["-a", "claude-code", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        output.stderr.contains("on this machine only")
            && output.stderr.contains("outside the project's repository"),
        "{}",
        output.stderr
    );
    assert!(!output.stderr.contains('\u{1b}'), "{:?}", output.stderr);
    let check = run(context.command().args(["check"]));
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(!check.stderr.contains("skipped"), "{}", check.stderr);
    let stranger = run(context
        .command()
        .arg("check")
        .env("XDG_DATA_HOME", context.temp.path().join("stranger")));
    assert_eq!(stranger.code, 0, "{}", stranger.stderr);
    assert!(
        stranger.stderr.contains("skipped `tidy`") && stranger.stderr.contains("is outside"),
        "{}",
        stranger.stderr
    );
    assert!(!stranger.stderr.contains('\u{1b}'), "{:?}", stranger.stderr);
    let output = run(context
        .command()
        .args(["add", "./vendor/neat", "-a", "claude-code", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        !output.stderr.contains("on this machine only"),
        "{}",
        output.stderr
    );
    canary.assert_untouched();
}
