//! Red-team findings on writes and reads that a lockfile or a checkout can turn against the user:
//! a real folder replaced by the link the lock plans, `sync` or `remove --all` deleting what they
//! never installed, a lock's sources read from outside the project, and a lockfile that is a
//! device or a FIFO.
//! Each plants a canary that must stay untouched and asserts a clear error.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::{Before, Canary, says, skill_md};
use crate::common::{Output, TestContext, run, write};

fn skills(context: &TestContext, args: &[&str]) -> Output {
    let output = run(context.command().args(args));
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

fn read_lock(project: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(project.join("skills-lock.json")).unwrap()).unwrap()
}

fn write_lock(project: &Path, lock: &Value) {
    write(
        &project.join("skills-lock.json"),
        serde_json::to_string_pretty(lock).unwrap(),
    );
}

/// Removes a link, a file or a folder at `path`.
fn remove(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path).unwrap(),
        Ok(_) => std::fs::remove_file(path).unwrap(),
        Err(_) => {}
    }
}

/// The user's own skill folder `my-notes` in `.claude/skills`, with notes they wrote.
fn users_notes(project: &Path) {
    write(
        &project.join(".claude/skills/my-notes/SKILL.md"),
        "---\nname: my-notes\ndescription: The user's own notes skill, hand written.\n---\nmine\n",
    );
    write(
        &project.join(".claude/skills/my-notes/notes.md"),
        "months of hand-written notes\n",
    );
}

/// A project in a repository whose lock (symlink mode, the default) installs `my-notes` from
/// `./vendor` for claude-code: the link `.claude/skills/my-notes` is planned. Returned with
/// the user's own real folder already where that link goes.
fn lock_over_users_folder(files: bool) -> TestContext {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join(".git")).unwrap();
    context.write("vendor/my-notes/SKILL.md", skill_md("my-notes"));
    let output = skills(
        &context,
        &["add", "./vendor", "-a", "claude-code", "-a", "codex", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    let mut lock = read_lock(&context.project);
    assert_eq!(lock["skills"]["my-notes"]["mode"], "symlink", "{lock}");
    if !files {
        lock["skills"]["my-notes"]
            .as_object_mut()
            .unwrap()
            .remove("files");
    }
    write_lock(&context.project, &lock);
    for dir in [".claude/skills", ".agents/skills"] {
        remove(&context.project.join(dir).join("my-notes"));
    }
    users_notes(&context.project);
    context
}

#[test]
fn a_real_folder_where_a_link_goes_is_not_replaced() {
    for files in [true, false] {
        for args in [
            &["install"][..],
            &["install", "--frozen"],
            &["update", "-y"],
        ] {
            let context = lock_over_users_folder(files);
            let canary = Canary::plant(&context);
            if args[0] == "update" {
                // upstream moved on: an update is due
                context.write("vendor/my-notes/extra.md", "new upstream file\n");
            }
            let before = Before::of(&context.project.join(".claude"));
            let output = skills(&context, args);
            assert_eq!(output.code, 1, "{args:?} files={files}: {}", output.stderr);
            says(
                &output.stderr,
                &[
                    "local edits",
                    ".claude/skills/my-notes",
                    "a folder where a link goes, not installed by skills",
                    "notes.md",
                    "--force",
                ],
            );
            before.assert_unchanged();
            canary.assert_untouched();
        }
    }
    // `--force` is the user's explicit choice.
    let context = lock_over_users_folder(true);
    let output = skills(&context, &["install", "--force"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        std::fs::symlink_metadata(context.project.join(".claude/skills/my-notes"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_file_where_a_skill_folder_goes_is_not_replaced() {
    let context = lock_over_users_folder(true);
    std::fs::remove_dir_all(context.project.join(".claude/skills/my-notes")).unwrap();
    context.write(".claude/skills/my-notes", "a file of the user\n");
    let before = Before::of(&context.project.join(".claude"));
    let output = skills(&context, &["install", "--frozen"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    says(
        &output.stderr,
        &[
            ".claude/skills/my-notes",
            "not a folder installed by skills",
        ],
    );
    before.assert_unchanged();
}

#[test]
fn sync_never_removes_a_folder_it_did_not_install() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join(".git")).unwrap();
    let canary = Canary::plant(&context);
    context.write("package.json", r#"{"name":"proj","version":"1.0.0"}"#);
    users_notes(&context.project);
    // A pulled lock names the user's folder as a packaged skill no package ships any more.
    let zeros = "0".repeat(64);
    write_lock(
        &context.project,
        &serde_json::json!({"version": 1, "skills": {"my-notes": {
            "source": "some-pkg", "sourceType": "node_modules", "agents": ["claude-code"],
            "mode": "copy", "files": {"SKILL.md": format!("sha256:{zeros}")},
            "computedHash": zeros,
        }}}),
    );
    let before = Before::of(&context.project);
    for args in [&["sync", "-y"][..], &["sync", "--dry-run"]] {
        let output = skills(&context, args);
        assert_eq!(output.code, 1, "{args:?}: {}", output.stderr);
        says(
            &output.stderr,
            &[
                "not removing `my-notes`",
                ".claude/skills/my-notes",
                "not what sync installed",
                "notes.md",
            ],
        );
        before.assert_unchanged();
        canary.assert_untouched();
    }
}

/// `remove --all` takes out what the lock lists, in every agent dir and with its links, and
/// leaves the folders the user wrote by hand (saying so); naming one removes it.
#[test]
fn remove_all_keeps_hand_made_folders() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    for name in ["alpha", "beta"] {
        context.write(&format!("vendor/{name}/SKILL.md"), skill_md(name));
    }
    let output = skills(
        &context,
        &["add", "./vendor", "-s", "*", "-a", "claude-code,sisu", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    users_notes(&context.project);
    // A hand-made folder in the canonical dir too, which no agent's link leads to.
    write(
        &context.project.join(".agents/skills/scratch/SKILL.md"),
        skill_md("scratch"),
    );
    let installed = |rel: &str| std::fs::symlink_metadata(context.project.join(rel)).is_ok();
    for rel in [
        ".agents/skills/alpha",
        ".claude/skills/alpha",
        ".sisu/skills/beta",
    ] {
        assert!(installed(rel), "{rel} was not installed");
    }

    let output = skills(&context, &["remove", "--all", "-y"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    says(
        &output.stderr,
        &[
            "kept `my-notes` (.claude/skills/my-notes)",
            "no lockfile lists it",
            "`skills remove my-notes` removes it",
            "kept `scratch` (.agents/skills/scratch)",
            "Removed alpha",
            "Removed beta",
        ],
    );
    for rel in [
        ".agents/skills/alpha",
        ".agents/skills/beta",
        ".claude/skills/alpha",
        ".claude/skills/beta",
        ".sisu/skills/alpha",
        ".sisu/skills/beta",
    ] {
        assert!(!installed(rel), "{rel} is still there");
    }
    assert_eq!(
        std::fs::read_to_string(context.project.join(".claude/skills/my-notes/notes.md")).unwrap(),
        "months of hand-written notes\n"
    );
    assert!(installed(".agents/skills/scratch/SKILL.md"));
    assert_eq!(read_lock(&context.project)["skills"], serde_json::json!({}));

    // Again: nothing locked is left, the hand-made folders still stay.
    let output = skills(&context, &["remove", "--all"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &["Nothing to remove", "kept `my-notes`"]);
    assert!(installed(".claude/skills/my-notes"));

    // Named, it goes.
    let output = skills(&context, &["remove", "my-notes", "-y"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!installed(".claude/skills/my-notes"));
    assert!(installed(".agents/skills/scratch"));
    canary.assert_untouched();
}

/// Nothing was installed in the project (the lockfile may be rewritten in its own format) and
/// nothing of `secret` reached it.
#[track_caller]
fn nothing_copied(context: &TestContext, secret: &str) {
    let mut top: Vec<String> = std::fs::read_dir(&context.project)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    top.sort();
    top.retain(|name| name != ".git");
    assert_eq!(top, ["skills-lock.json"], "something was installed");
    for (path, entry) in super::snapshot(&context.project) {
        if let super::Entry::File(bytes) = entry {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(secret),
                "{} holds the secret",
                path.display()
            );
        }
    }
}

#[test]
fn a_git_entry_whose_source_url_is_a_path_is_refused() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join(".git")).unwrap();
    let canary = Canary::plant(&context);
    // The user's private repository beside the project.
    let private = context.home.join("private-repo");
    write(&private.join("notes/SKILL.md"), skill_md("notes"));
    write(&private.join("notes/secret.txt"), "AWS_SECRET=CANARY-42\n");
    crate::gitfixture::git(&private, &["init", "-q"]);
    crate::gitfixture::git(&private, &["add", "-A"]);
    crate::gitfixture::git(&private, &["commit", "-qm", "x"]);
    let zeros = "0".repeat(64);
    for url in [
        "../home/private-repo".to_owned(),
        private.display().to_string(),
        "home/private-repo".to_owned(),
    ] {
        write_lock(
            &context.project,
            &serde_json::json!({"version": 1, "skills": {"notes": {
                "source": "not a source", "sourceType": "git", "sourceUrl": url,
                "skillPath": "notes/SKILL.md", "computedHash": zeros,
            }}}),
        );
        for args in [
            &["update", "-y"][..],
            &["install", "--frozen"],
            &["install"],
        ] {
            let output = skills(&context, args);
            assert_ne!(output.code, 0, "{url} {args:?}: {}", output.stderr);
            says(&output.stderr, &["`sourceUrl`", "is not a git URL"]);
            nothing_copied(&context, "CANARY-42");
            canary.assert_untouched();
        }
    }
}

#[test]
fn a_project_without_a_repository_keeps_local_sources_in_its_folder() {
    let context = TestContext::new();
    assert!(!context.project.join(".git").exists());
    let canary = Canary::plant(&context);
    let private = context.home.join(".agents/skills/company-internal");
    write(&private.join("SKILL.md"), skill_md("company-internal"));
    write(&private.join("creds.env"), "DB_PASSWORD=CANARY-43\n");
    let zeros = "0".repeat(64);
    for source in [
        "../home/.agents/skills",
        "../outside/skills",
        "vendor/../..",
    ] {
        write_lock(
            &context.project,
            &serde_json::json!({"version": 1, "skills": {"company-internal": {
                "source": source, "sourceType": "local", "computedHash": zeros,
            }}}),
        );
        // `check` and `update` skip it (this machine's user never added it) and go on.
        for args in [&["update", "-y"][..], &["check"]] {
            let output = skills(&context, args);
            assert_eq!(output.code, 0, "{source} {args:?}: {}", output.stderr);
            says(
                &output.stderr,
                &[
                    "skipped `company-internal`",
                    "is outside",
                    "the folder) of the lockfile",
                ],
            );
            nothing_copied(&context, "CANARY-43");
            canary.assert_untouched();
        }
        // `install` reads it only to check it against the lock, which it cannot match.
        let output = skills(&context, &["install", "--frozen"]);
        assert_eq!(output.code, 1, "{source}: {}", output.stderr);
        says(
            &output.stderr,
            &["cannot be reproduced exactly", "nothing was written"],
        );
        nothing_copied(&context, "CANARY-43");
        canary.assert_untouched();
    }
    // A local source inside the project still works.
    context.write("vendor/inside/SKILL.md", skill_md("inside"));
    std::fs::remove_file(context.project.join("skills-lock.json")).unwrap();
    let output = skills(&context, &["add", "./vendor", "-a", "claude-code", "-y"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let output = skills(&context, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// `skills args` with a deadline: a run that blocks on a FIFO or reads `/dev/zero` without end
/// fails the test instead of hanging it.
fn bounded(context: &TestContext, args: &[&str]) -> Output {
    let output = run(context
        .command()
        .args(args)
        .timeout(Duration::from_secs(60)));
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

#[test]
fn a_lockfile_that_is_a_device_a_fifo_or_huge_is_refused_at_once() {
    let commands: [&[&str]; 6] = [
        &["list"],
        &["install"],
        &["install", "--frozen"],
        &["check"],
        &["update", "-y"],
        &["manifest"],
    ];
    let zero = TestContext::new();
    symlink("/dev/zero", zero.project.join("skills-lock.json")).unwrap();
    let fifo = TestContext::new();
    mkfifo(&fifo.project.join("skills-lock.json"));
    let huge = TestContext::new();
    let file = std::fs::File::create(huge.project.join("skills-lock.json")).unwrap();
    file.set_len((64 << 20) + 1).unwrap(); // sparse: no disk used
    for (context, why) in [
        (&zero, "not a regular file"),
        (&fifo, "not a regular file"),
        (&huge, "larger than the limit of 64 MiB"),
    ] {
        let canary = Canary::plant(context);
        for args in commands {
            let output = bounded(context, args);
            assert_eq!(output.code, 2, "{args:?}: {}", output.stderr);
            says(&output.stderr, &["cannot read", "skills-lock.json", why]);
            canary.assert_untouched();
        }
    }
    // The user's lock too.
    let global = TestContext::new();
    mkfifo(&global.temp.path().join("xdg/state/skills/.skill-lock.json"));
    let output = bounded(&global, &["check", "-g"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    says(&output.stderr, &[".skill-lock.json", "not a regular file"]);
}

#[test]
fn a_package_json_that_is_a_fifo_does_not_hang_sync() {
    let context = TestContext::new();
    mkfifo(&context.project.join("package.json"));
    let output = bounded(&context, &["sync", "-y"]);
    assert!(output.code == 0 || output.code == 1, "{}", output.stderr);
}
