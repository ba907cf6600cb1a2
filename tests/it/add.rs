//! `skills add` and `skills remove`: sources over `file://` and a real `git daemon`, discovery in
//! the reference order, the install layout, the lockfile, and every way it must refuse.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestContext, repo, run, write};
use crate::gitfixture::{GitDaemon, Upstream, git};
use crate::snapshot_output;

pub fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures/repos").join(name)
}

/// A git daemon serving upstreams built from fixture folders, and the context pointed at it.
pub struct Remote {
    pub daemon: GitDaemon,
    pub root: PathBuf,
}

impl Remote {
    pub fn new(context: &TestContext) -> Remote {
        let root = context.temp.path().join("upstream");
        let daemon = GitDaemon::start(&root.join("repos"));
        Remote { daemon, root }
    }

    pub fn upstream(&self, name: &str, content: &Path) -> Upstream {
        Upstream::from_dir(&self.root, name, content)
    }
}

pub fn add(context: &TestContext, remote: Option<&Remote>, args: &[&str]) -> crate::common::Output {
    let mut command = context.command();
    command.arg("add").args(args);
    if let Some(remote) = remote {
        command.env("SKILLS_GITHUB_URL", &remote.daemon.base_url);
    }
    run(&mut command)
}

pub fn lock(context: &TestContext) -> Value {
    serde_json::from_slice(&std::fs::read(context.project.join("skills-lock.json")).unwrap())
        .unwrap()
}

/// Rewrites the project's lock as `npx skills` writes it: no `commit`, `files`, `agents` or
/// `mode` in any entry (only `computedHash` pins the files). Returns the lock as it was.
pub fn as_reference_lock(context: &TestContext) -> Value {
    let before = lock(context);
    let mut stripped = before.clone();
    for entry in stripped["skills"].as_object_mut().unwrap().values_mut() {
        let entry = entry.as_object_mut().unwrap();
        for field in ["commit", "files", "agents", "mode"] {
            entry.remove(field);
        }
    }
    crate::common::write(
        &context.project.join("skills-lock.json"),
        serde_json::to_vec_pretty(&stripped).unwrap(),
    );
    before
}

pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&path) else {
            continue;
        };
        for entry in entries {
            let entry = entry.unwrap();
            let rel = entry
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            if meta.file_type().is_symlink() {
                out.push(format!(
                    "{rel} -> {}",
                    std::fs::read_link(entry.path()).unwrap().display()
                ));
            } else if meta.is_dir() {
                out.push(format!("{rel}/"));
                stack.push(entry.path());
            } else {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn owner_repo_over_git_daemon() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    let output = add(
        &context,
        Some(&remote),
        &[
            "acme/flat",
            "--skill",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        tree(&context.project),
        [
            ".claude/",
            ".claude/skills/",
            ".claude/skills/csv-tools/",
            ".claude/skills/csv-tools/SKILL.md",
            ".claude/skills/csv-tools/references/",
            ".claude/skills/csv-tools/references/formats.md",
            ".claude/skills/csv-tools/scripts/",
            ".claude/skills/csv-tools/scripts/convert.py",
            "skills-lock.json",
        ],
        "one agent: a copy, nothing else created"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(
            context
                .project
                .join(".claude/skills/csv-tools/scripts/convert.py"),
        )
        .unwrap()
        .permissions()
        .mode();
        assert_eq!(mode & 0o777, 0o755, "the executable bit survives");
    }
    let lock = lock(&context);
    let entry = &lock["skills"]["csv-tools"];
    assert_eq!(entry["source"], "acme/flat");
    assert_eq!(entry["sourceType"], "github");
    assert_eq!(
        entry["sourceUrl"], "https://github.com/acme/flat.git",
        "the public URL, not the mirror"
    );
    assert_eq!(entry["commit"], upstream.head());
    assert_eq!(entry["skillPath"], "skills/csv-tools/SKILL.md");
    assert_eq!(entry["mode"], "copy");
    assert_eq!(entry["agents"], serde_json::json!(["claude-code"]));
    // A second add of the same commit is served from the cache: one ref advertisement, no fetch.
    let before = remote.daemon.upload_pack_requests();
    let output = add(
        &context,
        Some(&remote),
        &[
            "acme/flat",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        remote.daemon.upload_pack_requests() - before,
        1,
        "{}",
        remote.daemon.log()
    );
    // `skills list` shows the source and commit from the lock.
    let output = run(context.command().args(["list", "--json"]));
    let list: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(list["skills"][0]["source"], "acme/flat");
    assert_eq!(list["skills"][0]["commit"], upstream.head());
}

#[test]
fn file_url_with_ref_and_tree_urls() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    upstream.git(&["checkout", "-q", "-b", "feature/new"]);
    let feature = upstream.commit("feature", |work| {
        write(&work.join("skills/csv-tools/NOTES.md"), "feature branch\n");
    });
    upstream.push("feature/new");
    upstream.git(&["checkout", "-q", "main"]);
    let tag = upstream.tag("v1.0");
    let url = format!("{}#v1.0", upstream.file_url());
    let output = add(
        &context,
        None,
        &[&url, "--skill", "pdf-forms", "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lock = lock(&context);
    assert_eq!(lock["skills"]["pdf-forms"]["commit"], tag);
    assert_eq!(lock["skills"]["pdf-forms"]["ref"], "v1.0");
    assert_eq!(lock["skills"]["pdf-forms"]["sourceType"], "git");
    // A tree URL whose ref holds a `/` is resolved against the remote's refs.
    let tree_url = format!(
        "{}/acme/flat/tree/feature/new/skills/csv-tools",
        remote.daemon.base_url
    );
    let output = add(
        &context,
        Some(&remote),
        &[&tree_url, "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        context
            .project
            .join(".claude/skills/csv-tools/NOTES.md")
            .exists()
    );
    let lock: Value =
        serde_json::from_slice(&std::fs::read(context.project.join("skills-lock.json")).unwrap())
            .unwrap();
    assert_eq!(lock["skills"]["csv-tools"]["commit"], feature);
    assert_eq!(lock["skills"]["csv-tools"]["ref"], "feature/new");
    // owner/repo@skill and #ref@skill.
    let output = add(
        &context,
        Some(&remote),
        &["acme/flat#main@release-notes", "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        context
            .project
            .join(".claude/skills/release-notes/SKILL.md")
            .exists()
    );
}

#[test]
fn discovery_follows_the_reference_order() {
    let context = TestContext::new();
    let list = |name: &str, extra: &[&str]| -> Vec<String> {
        let mut args = vec!["add", "--list", "--json"];
        let path = fixture(name);
        let path = path.to_str().unwrap();
        args.insert(1, path);
        args.extend_from_slice(extra);
        let output = run(context.command().args(&args));
        assert_eq!(output.code, 0, "{name}: {}", output.stderr);
        let json: Value = serde_json::from_str(&output.stdout).unwrap();
        crate::common::skill_names(&json)
    };
    assert_eq!(
        list("flat", &[]),
        ["csv-tools", "pdf-forms", "release-notes"]
    );
    assert_eq!(
        list("curated", &[]),
        ["alpha-curated", "beta-curated", "gamma-exp", "delta-system"]
    );
    assert_eq!(
        list("plugins", &[]),
        ["doc-writer", "deploy-check", "log-triage"]
    );
    assert_eq!(list("root-skill", &[]), ["root-skill"]);
    assert_eq!(
        list("root-skill", &["--full-depth"]),
        ["root-skill", "other-skill"]
    );
    assert_eq!(list("nested", &[]), ["deep-skill"]);
    assert_eq!(list("internal", &[]), ["public-one"]);
    let output = run(context
        .command()
        .args(["add", "--list", "--json"])
        .arg(fixture("internal"))
        .env("INSTALL_INTERNAL_SKILLS", "1"));
    snapshot_output!(context, output);
    let output = run(context
        .command()
        .args(["add", "--list", "--full-depth"])
        .arg(fixture("duplicates")));
    snapshot_output!(context, output);
    // Internal skills can still be installed by name.
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "secret-internal",
            "-a",
            "claude-code",
            "-y",
        ])
        .arg(fixture("internal")));
    assert_eq!(output.code, 0, "{}", output.stderr);
}

#[test]
fn layout_copy_symlink_and_defaults() {
    let context = TestContext::new();
    let source = fixture("flat");
    // No agent dir exists: `.agents/skills` plus `.claude/skills`, linked.
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        tree(&context.project.join(".claude")),
        [
            "skills/",
            "skills/pdf-forms -> ../../.agents/skills/pdf-forms"
        ]
    );
    assert!(
        context
            .project
            .join(".agents/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    // An existing agent dir is picked up; nobody else's dir is created.
    std::fs::create_dir_all(context.project.join(".sisu/skills")).unwrap();
    let output = run(context
        .command()
        .args(["add", "--skill", "csv-tools", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(context.project.join(".sisu/skills/csv-tools").is_symlink());
    assert!(
        !context.project.join(".cursor").exists() && !context.project.join(".windsurf").exists()
    );
    // --copy copies into each.
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "release-notes",
            "-a",
            "claude-code,sisu",
            "--copy",
            "-y",
        ])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    for dir in [".claude/skills", ".sisu/skills"] {
        let path = context.project.join(dir).join("release-notes");
        assert!(path.is_dir() && !path.is_symlink(), "{dir}");
    }
    assert!(
        !context
            .project
            .join(".agents/skills/release-notes")
            .exists()
    );
    let lock = lock(&context);
    assert_eq!(lock["skills"]["release-notes"]["mode"], "copy");
    assert_eq!(lock["skills"]["csv-tools"]["mode"], "symlink");
    // A lockfile the reference installer can read: version 1, its fields, sorted.
    assert_eq!(lock["version"], 1);
    assert_eq!(
        lock["skills"]["pdf-forms"]["source"],
        format!("{}", crate::add_source_display(&context, &source))
    );
}

/// How the lock records a local source: relative to the project.
pub fn add_source_display(context: &TestContext, source: &Path) -> String {
    let project = std::fs::canonicalize(&context.project).unwrap();
    let source = std::fs::canonicalize(source).unwrap();
    let common = project
        .components()
        .zip(source.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = project.components().count() - common;
    let mut parts: Vec<String> = vec!["..".into(); ups];
    parts.extend(
        source
            .components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[test]
fn computed_hash_matches_the_reference_installer() {
    let context = TestContext::new();
    let root = repo().join("tests/fixtures/computed-hash");
    let expected: Value =
        serde_json::from_slice(&std::fs::read(root.join("expected.json")).unwrap()).unwrap();
    for (name, want) in expected["skills"].as_object().unwrap() {
        let source = context.temp.path().join("hash-src").join(name);
        crate::gitfixture::copy_tree(&root.join(name), &source);
        // The fixture folders are named after the case, not the skill: install by path.
        let output = run(context
            .command()
            .args(["add", "-a", "claude-code", "-y", "--force"])
            .arg(&source));
        assert_eq!(output.code, 0, "{name}: {}", output.stderr);
        let lock = lock(&context);
        let (_, entry) = lock["skills"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(_, e)| {
                e["source"]
                    .as_str()
                    .is_some_and(|s| s.ends_with(name.as_str()))
            })
            .unwrap();
        assert_eq!(entry["computedHash"], want["computedHash"], "{name}");
    }
}

#[test]
fn unsafe_sources_are_refused() {
    let context = TestContext::new();
    let source = context.temp.path().join("evil");
    // A symlink to a secret outside the source.
    let secret = write(&context.home.join(".ssh/id_rsa"), "PRIVATE");
    write(
        &source.join("skills/leaky/SKILL.md"),
        "---\nname: leaky\ndescription: Leaks. Use when testing.\n---\nbody\n",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, source.join("skills/leaky/key")).unwrap();
    // A name that is a path.
    write(
        &source.join("skills/traversal/SKILL.md"),
        "---\nname: ../../x\ndescription: Climbs. Use when testing.\n---\nbody\n",
    );
    // A file over the limit and a skill with too many files.
    write(
        &source.join("skills/big/SKILL.md"),
        "---\nname: big\ndescription: Big. Use when testing.\n---\nbody\n",
    );
    write(&source.join("skills/big/blob.bin"), vec![0u8; 3 << 20]);
    write(
        &source.join("skills/many/SKILL.md"),
        "---\nname: many\ndescription: Many. Use when testing.\n---\nbody\n",
    );
    for i in 0..10_000 {
        write(&source.join(format!("skills/many/f/{i}.txt")), "x");
    }
    write(
        &source.join("skills/fine/SKILL.md"),
        "---\nname: fine\ndescription: Fine. Use when testing.\n---\nbody\n",
    );
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "*",
            "-a",
            "claude-code",
            "-y",
            "--max-file-size",
            "1MiB",
        ])
        .arg(&source));
    assert_eq!(
        output.code, 0,
        "the fine skill is installed: {}",
        output.stderr
    );
    // Line by line, not a snapshot: the symlinked skill exists only where symlinks can be made.
    for expected in [
        #[cfg(unix)]
        "skipped `leaky`: `key` is a symlink to",
        "skipped `../../x`: its name cannot be a folder name",
        "skipped `big`: `blob.bin` is 3145728 bytes, over the limit of 1048576",
        "skipped `many`: the skill has more than 1000 files",
    ] {
        assert!(
            output.stderr.contains(expected),
            "{expected} in\n{}",
            output.stderr
        );
    }
    assert_eq!(
        tree(&context.project.join(".claude/skills")),
        ["fine/", "fine/SKILL.md"]
    );
    assert!(!context.temp.path().join("x").exists() && !context.project.join("x").exists());
    // A `..` in a subpath.
    let output = run(context.command().args(["add", "acme/repo/../../etc", "-y"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}

#[test]
fn submodules_are_reported() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let other = remote.upstream("acme/other", &fixture("root-skill"));
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    upstream.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &other.file_url(),
        "skills/csv-tools/vendor",
    ]);
    upstream.commit("submodule", |_| {});
    let output = add(
        &context,
        Some(&remote),
        &[
            "acme/flat",
            "--skill",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    // One line, not a snapshot: the commit's hash varies with `.gitmodules`, which holds the
    // temp path of the submodule's URL.
    assert!(
        output.stderr.contains("left out `vendor`: a git submodule"),
        "{}",
        output.stderr
    );
    assert!(
        !context
            .project
            .join(".claude/skills/csv-tools/vendor")
            .exists()
    );
}

#[test]
fn conflicts_need_force() {
    let context = TestContext::new();
    let source = fixture("flat");
    context.write(".claude/skills/pdf-forms/SKILL.md", "my own edits\n");
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms", "-a", "claude-code", "-y"])
        .arg(&source));
    assert_eq!(output.code, 1, "the answer is no");
    snapshot_output!(context, output);
    assert_eq!(
        std::fs::read_to_string(context.project.join(".claude/skills/pdf-forms/SKILL.md")).unwrap(),
        "my own edits\n"
    );
    assert!(!context.project.join("skills-lock.json").exists());
    // A name locked from another source.
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
            "--force",
        ])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let other = context.temp.path().join("other");
    crate::gitfixture::copy_tree(&fixture("flat"), &other);
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms", "-a", "claude-code", "-y"])
        .arg(&other));
    assert_eq!(output.code, 1);
    snapshot_output!(context, output);
}

#[test]
fn no_terminal_no_prompt() {
    let context = TestContext::new();
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms"])
        .arg(fixture("flat")));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let output = run(context
        .command()
        .args(["add", "-a", "claude-code"])
        .arg(fixture("flat")));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    assert!(
        tree(&context.project).is_empty(),
        "nothing written: {:?}",
        tree(&context.project)
    );
    // The reference's variadic `-a a b` works with the source anywhere.
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "pdf-forms",
            "--dry-run",
            "-a",
            "claude-code",
            "sisu",
        ])
        .arg(fixture("flat")));
    snapshot_output!(context, output);
    assert!(
        tree(&context.project).is_empty(),
        "a dry run writes nothing"
    );
}

#[test]
fn failure_half_way_leaves_everything_as_it_was() {
    let context = TestContext::new();
    let source = fixture("flat");
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code,sisu",
            "-y",
        ])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let before_tree = tree(&context.project);
    let before_lock = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let sisu = context.project.join(".sisu/skills");
    let read_only = ReadOnly::make(&sisu);
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "csv-tools,release-notes",
            "-a",
            "claude-code,sisu",
            "-y",
        ])
        .arg(&source));
    assert_eq!(output.code, 2, "{}", output.stderr);
    drop(read_only);
    assert_eq!(
        tree(&context.project),
        before_tree,
        "no skill half-installed, no staging left"
    );
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        before_lock
    );
}

/// A folder made unwritable for the duration of a test: read-only for a normal user, immutable
/// (`chattr +i`) for root, who ignores permissions.
struct ReadOnly(PathBuf, bool);

impl ReadOnly {
    /// Fails the test (never skips it) where the folder cannot be made unwritable: as root that
    /// needs `chattr` (Debian's `e2fsprogs`, which `.ci/run` installs) and a file system and
    /// capability (`CAP_LINUX_IMMUTABLE`) that allow the immutable attribute.
    fn make(dir: &Path) -> ReadOnly {
        Self::try_make(dir).unwrap_or_else(|| {
            panic!(
                "cannot make {} unwritable: as root this test needs `chattr` (e2fsprogs) and the \
                 CAP_LINUX_IMMUTABLE capability",
                dir.display()
            )
        })
    }

    fn try_make(dir: &Path) -> Option<ReadOnly> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).ok()?;
            if std::fs::write(dir.join(".probe"), "").is_err() {
                return Some(ReadOnly(dir.to_path_buf(), false));
            }
            let _ = std::fs::remove_file(dir.join(".probe"));
            let ok = std::process::Command::new("chattr")
                .arg("+i")
                .arg(dir)
                .status()
                .is_ok_and(|s| s.success());
            if ok && std::fs::write(dir.join(".probe"), "").is_err() {
                return Some(ReadOnly(dir.to_path_buf(), true));
            }
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(dir)
                .status();
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).ok()?;
        }
        None
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if self.1 {
                let _ = std::process::Command::new("chattr")
                    .arg("-i")
                    .arg(&self.0)
                    .status();
            }
            let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
        }
    }
}

#[test]
fn concurrent_adds_both_land() {
    let context = TestContext::new();
    let source = fixture("flat");
    let spawn = |skill: &str| {
        let mut command = context.std_command();
        command
            .args(["add", "--skill", skill, "-a", "claude-code", "-y"])
            .arg(&source);
        command
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children: Vec<_> = ["pdf-forms", "csv-tools", "release-notes"]
        .iter()
        .map(|s| spawn(s))
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let lock = lock(&context);
    let names: Vec<&String> = lock["skills"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["csv-tools", "pdf-forms", "release-notes"]);
}

/// A run that finds the lockfile held by another process waits `SKILLS_LOCK_TIMEOUT`, then
/// stops naming the lockfile and its lock, and changes nothing.
#[test]
fn lockfile_held_by_another_process_times_out() {
    let context = TestContext::new();
    let lockfile = context.project.join("skills-lock.json");
    let cache = context.temp.path().join("cache");
    // This test process is the other run: it holds the lock while `skills` runs.
    let held = skills::lock::Guard::acquire(&lockfile, &cache, std::time::Duration::ZERO, || {
        panic!("nobody else holds it")
    })
    .unwrap();
    let started = std::time::Instant::now();
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms", "-a", "claude-code", "-y"])
        .arg(fixture("flat"))
        .env("SKILLS_LOCK_TIMEOUT", "1"));
    assert!(started.elapsed() >= std::time::Duration::from_secs(1));
    let guard = skills::lock::guard::guard_path(&lockfile, &cache);
    let stderr = output
        .stderr
        .replace(&guard.display().to_string(), "[GUARD]")
        .replace(&lockfile.display().to_string(), "[LOCKFILE]");
    assert_eq!(output.code, 2, "{stderr}");
    insta::assert_snapshot!(stderr, @r"
    Waiting for another `skills` run on `[LOCKFILE]` (at most 1 s)
    error: gave up after 1 s waiting for another `skills` run on `[LOCKFILE]` (it holds `[GUARD]`)

    hint: another `skills` run is changing this lockfile; let it finish (or stop it) and try again, or set SKILLS_LOCK_TIMEOUT (seconds) to wait longer; the lock goes away by itself when that run exits
    ");
    assert!(!lockfile.exists());
    assert!(!context.project.join(".claude").exists());
    assert!(!context.project.join(".agents").exists());
    drop(held);
}

#[test]
fn clear_errors_for_bad_remotes() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let output = add(&context, Some(&remote), &["acme/missing", "-y"]);
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let output = add(&context, Some(&remote), &["acme/flat#nope", "-y"]);
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let output = run(context
        .command()
        .args(["add", "acme/flat", "-y"])
        .env("SKILLS_GITHUB_URL", format!("git://127.0.0.1:{closed}")));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let empty = context.temp.path().join("empty");
    std::fs::create_dir_all(empty.join("docs")).unwrap();
    let output = run(context.command().args(["add", "-y"]).arg(&empty));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}

#[test]
fn remove_by_name_source_agent_and_all() {
    let context = TestContext::new();
    let source = fixture("flat");
    let output = run(context
        .command()
        .args(["add", "--skill", "*", "-a", "claude-code,sisu", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    // From one agent: its link goes, the canonical copy stays for the other.
    let output = run(context
        .command()
        .args(["remove", "pdf-forms", "-a", "sisu", "-y"]));
    snapshot_output!(context, output);
    assert!(!context.project.join(".sisu/skills/pdf-forms").exists());
    assert!(context.project.join(".claude/skills/pdf-forms").exists());
    assert_eq!(
        lock(&context)["skills"]["pdf-forms"]["agents"],
        serde_json::json!(["claude-code"])
    );
    // The last link gone: the canonical copy goes too, and the entry.
    let output = run(context
        .command()
        .args(["remove", "pdf-forms", "-a", "claude-code", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!context.project.join(".agents/skills/pdf-forms").exists());
    assert!(lock(&context)["skills"].get("pdf-forms").is_none());
    // By name, everywhere.
    let output = run(context.command().args(["rm", "csv-tools", "-y"]));
    snapshot_output!(context, output);
    assert!(!context.project.join(".agents/skills/csv-tools").exists());
    assert!(!context.project.join(".claude/skills/csv-tools").exists());
    // By source.
    let display = add_source_display(&context, &source);
    let output = run(context.command().args(["remove", &display, "-y"]));
    snapshot_output!(context, output);
    assert!(lock(&context)["skills"].as_object().unwrap().is_empty());
    assert!(tree(&context.project.join(".agents/skills")).is_empty());
    // --all, and an unknown name.
    run(context
        .command()
        .args(["add", "--skill", "*", "-a", "claude-code", "-y"])
        .arg(&source));
    // Removing what is not there is already done: a warning, exit 0 (as the reference).
    let output = run(context.command().args(["remove", "nope", "-y"]));
    snapshot_output!(context, output);
    let output = run(context.command().args(["remove", "--all", "-y"]));
    snapshot_output!(context, output);
    assert!(tree(&context.project.join(".claude/skills")).is_empty());
}

#[test]
fn global_scope_writes_the_v3_lock() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.home.join(".claude")).unwrap();
    let output = run(context
        .command()
        .args(["add", "--skill", "pdf-forms", "-g", "-y"])
        .arg(fixture("flat"))
        .env_remove("XDG_STATE_HOME"));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        context
            .home
            .join(".agents/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    assert!(context.home.join(".claude/skills/pdf-forms").is_symlink());
    let lock: Value = serde_json::from_slice(
        &std::fs::read(context.home.join(".agents/.skill-lock.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(lock["version"], 3);
    let entry = &lock["skills"]["pdf-forms"];
    assert!(
        entry["skillFolderHash"].is_string()
            && entry["installedAt"].is_string()
            && entry.get("computedHash").is_none()
    );
    assert!(
        !context.project.join("skills-lock.json").exists(),
        "the project is untouched"
    );
    // A global lock we cannot read is refused, never emptied.
    std::fs::write(context.home.join(".agents/.skill-lock.json"), "{ not json").unwrap();
    let output = run(context
        .command()
        .args(["add", "--skill", "csv-tools", "-g", "-y"])
        .arg(fixture("flat"))
        .env_remove("XDG_STATE_HOME"));
    assert_eq!(output.code, 2);
    assert_eq!(
        std::fs::read_to_string(context.home.join(".agents/.skill-lock.json")).unwrap(),
        "{ not json"
    );
    git(context.temp.path(), &["--version"]);
}

/// A second source that shares some names with an installed one: the shared names are left
/// alone and said, with both sources; the others go in; the answer is still no (exit 1).
#[test]
fn shared_names_across_sources_install_the_rest() {
    let context = TestContext::new();
    let first = context.temp.path().join("first");
    let second = context.temp.path().join("second");
    for (dir, names) in [(&first, ["alpha", "beta"]), (&second, ["beta", "gamma"])] {
        for name in names {
            write(
                &dir.join(format!("skills/{name}/SKILL.md")),
                format!(
                    "---\nname: {name}\ndescription: {name} from {}. Use when asked.\n---\n",
                    dir.file_name().unwrap().to_string_lossy()
                ),
            );
        }
    }
    let add = |source: &Path| {
        run(context
            .command()
            .args(["add", "--skill", "*", "-a", "claude-code", "-y"])
            .arg(source))
    };
    assert_eq!(add(&first).code, 0);
    let output = add(&second);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(context, output);
    let lock = lock(&context);
    assert_eq!(lock["skills"]["beta"]["source"], "../first");
    assert_eq!(lock["skills"]["gamma"]["source"], "../second");
    assert!(
        std::fs::read_to_string(context.project.join(".claude/skills/beta/SKILL.md"))
            .unwrap()
            .contains("from first")
    );
    let output = run(context
        .command()
        .args(["add", "--skill", "*", "-a", "claude-code", "-y", "--json"])
        .arg(&second));
    assert_eq!(output.code, 1, "{}", output.stderr);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    let beta = document["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "beta")
        .unwrap();
    assert_eq!(beta["status"], "skipped");
}

/// `.claude/skills` a link to `../.agents/skills` (a common layout): the two dirs are one
/// folder, so Claude Code and Codex get one copy there — never a link in place of the copy.
#[cfg(unix)]
#[test]
fn a_dir_linked_to_another_is_one_target() {
    let context = TestContext::new();
    std::fs::create_dir_all(context.project.join(".agents/skills")).unwrap();
    std::fs::create_dir_all(context.project.join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.agents/skills", context.project.join(".claude/skills"))
        .unwrap();
    // Inside the project: a project lock's local sources stay in its folder.
    let flat = context.project.join("vendor/flat");
    crate::gitfixture::copy_tree(&fixture("flat"), &flat);
    let output = run(context
        .command()
        .args([
            "add",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-a",
            "codex",
            "-y",
        ])
        .arg(&flat));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let installed = context.project.join(".agents/skills/pdf-forms");
    assert!(
        std::fs::symlink_metadata(&installed).unwrap().is_dir(),
        "a folder, not a link to itself"
    );
    assert!(installed.join("SKILL.md").is_file());
    let lock = lock(&context);
    assert_eq!(lock["skills"]["pdf-forms"]["mode"], "copy");
    let output = run(context.command().args(["install", "--frozen"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let output = run(context.command().args(["manifest", "--check"]));
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
}

#[test]
fn a_copy_another_tool_installed_from_a_reference_lock_is_in_place() {
    // What `npx skills` leaves: a copied folder and a lock entry with no `files`, `agents` or
    // `mode`. Its `computedHash` says the folder is untouched: `install`, `add` and `check`
    // take it as installed, and an edit to it is still an edit.
    let context = TestContext::new();
    crate::gitfixture::copy_tree(&fixture("flat"), &context.project.join("vendor"));
    let add = |skill: &str| {
        run(context.command().args([
            "add",
            "./vendor",
            "--skill",
            skill,
            "-a",
            "claude-code",
            "--copy",
            "-y",
        ]))
    };
    let output = add("csv-tools");
    assert_eq!(output.code, 0, "{}", output.stderr);
    as_reference_lock(&context);
    // Nothing on this machine remembers writing it.
    let locks = context.temp.path().join("cache/locks");
    for entry in std::fs::read_dir(&locks).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "record") {
            std::fs::remove_file(path).unwrap();
        }
    }
    for args in [&["install", "--frozen"][..], &["check", "--exit-code"]] {
        let output = run(context.command().args(args));
        assert_eq!(output.code, 0, "{args:?}: {}", output.stderr);
    }
    let output = add("pdf-forms");
    assert_eq!(output.code, 0, "{}", output.stderr);

    let edited = context.project.join(".claude/skills/csv-tools/SKILL.md");
    let text = format!("{}\nmy note\n", std::fs::read_to_string(&edited).unwrap());
    write(&edited, &text);
    let output = run(context.command().args(["install", "--frozen"]));
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert!(output.stderr.contains("csv-tools"), "{}", output.stderr);
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), text);

    // Without the edit, a new version upstream replaces it (the commit looks again and finds
    // what the plan found).
    write(
        &edited,
        std::fs::read(context.project.join("vendor/skills/csv-tools/SKILL.md")).unwrap(),
    );
    let upstream = context.project.join("vendor/skills/csv-tools/SKILL.md");
    let newer = format!(
        "{}\nVersion 2.\n",
        std::fs::read_to_string(&upstream).unwrap()
    );
    write(&upstream, &newer);
    let output = run(context.command().args(["update", "csv-tools", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        std::fs::read_to_string(&edited)
            .unwrap()
            .contains("Version 2.")
    );
}
