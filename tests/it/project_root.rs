//! Project commands find the project as git and cargo do: from a subfolder, the nearest folder
//! with `skills-lock.json` or an agent dir, never above the repository root; each says which root
//! it used when it is not the working directory. A check with no lock to check fails (exit 2).

use std::path::Path;

use serde_json::Value;

use crate::add::{Remote, fixture};
use crate::common::{Output, TestContext, run};
use crate::gitfixture::git;

/// `skills args…` run in `dir`, with the mirror of `remote` as GitHub.
fn skills_in(context: &TestContext, remote: Option<&Remote>, dir: &Path, args: &[&str]) -> Output {
    let mut command = context.command();
    command.current_dir(dir).args(args);
    if let Some(remote) = remote {
        command.env("SKILLS_GITHUB_URL", &remote.daemon.base_url);
    }
    run(&mut command)
}

/// The project as a git work tree with a `src/` subfolder.
fn repository(context: &TestContext) -> std::path::PathBuf {
    git(&context.project, &["init", "--quiet"]);
    let src = context.project.join("src");
    std::fs::create_dir_all(&src).unwrap();
    src
}

#[test]
fn check_from_a_subfolder_without_a_lock_fails() {
    let context = TestContext::new();
    let src = repository(&context);
    for args in [
        &["check"][..],
        &["check", "--json"],
        &["manifest", "--check"],
    ] {
        let output = skills_in(&context, None, &src, args);
        assert_eq!(
            output.code, 2,
            "{args:?} passed with no lock:\n{}",
            output.stderr
        );
        assert!(
            output.stderr.contains("no lockfile") && output.stderr.contains("skills-lock.json"),
            "{args:?} does not say what is missing:\n{}",
            output.stderr
        );
        assert!(
            output.stderr.contains("Using the project at")
                && output.stderr.contains("(the repository root)"),
            "{args:?} does not say which root it used:\n{}",
            output.stderr
        );
        assert!(output.stdout.is_empty(), "{}", output.stdout);
    }
    assert!(!src.join("skills-lock.json").exists());
}

#[test]
fn subfolder_commands_use_the_project_root() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let src = repository(&context);
    let deep = src.join("deep/er");
    std::fs::create_dir_all(&deep).unwrap();

    // `add` from a subfolder installs at the repository root: no nested `src/.claude`.
    let output = skills_in(
        &context,
        Some(&remote),
        &src,
        &[
            "add",
            "acme/flat",
            "-s",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        context
            .project
            .join(".claude/skills/csv-tools/SKILL.md")
            .is_file()
    );
    assert!(context.project.join("skills-lock.json").is_file());
    assert!(
        !src.join(".claude").exists(),
        "a nested agent dir was created"
    );
    assert!(!src.join("skills-lock.json").exists());
    let said: Vec<&str> = output
        .stderr
        .lines()
        .filter(|l| l.contains("Using the project at"))
        .collect();
    assert_eq!(said.len(), 1, "one line names the root:\n{}", output.stderr);
    assert!(said[0].contains("the repository root"), "{}", said[0]);

    // From deeper still, the root is the one with the lock (and the agent dir) now.
    for args in [
        &["check", "--exit-code"][..],
        &["manifest", "--check"],
        &["install", "--frozen"],
        &["update"],
    ] {
        let output = skills_in(&context, Some(&remote), &deep, args);
        assert_eq!(output.code, 0, "{args:?}:\n{}", output.stderr);
        assert!(
            output.stderr.contains("Using the project at")
                && output.stderr.contains("(it has `skills-lock.json`)"),
            "{args:?}:\n{}",
            output.stderr
        );
    }
    let output = skills_in(&context, None, &deep, &["list", "--json"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let listed: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(crate::common::skill_names(&listed), ["csv-tools"]);

    let output = skills_in(&context, None, &src, &["prompt"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        output.stdout.contains("<name>csv-tools</name>"),
        "{}",
        output.stdout
    );

    let output = skills_in(&context, None, &src, &["lint", "--format", "json"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        output.stdout.contains("csv-tools"),
        "lint did not lint the project's skill:\n{}",
        output.stdout
    );

    // Not the current folder: no line about it.
    let output = run(context.command().args(["list", "--json"]));
    assert!(
        !output.stderr.contains("Using the project"),
        "{}",
        output.stderr
    );

    let output = skills_in(&context, None, &deep, &["remove", "csv-tools", "-y"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!context.project.join(".claude/skills/csv-tools").exists());
    let lock: Value =
        serde_json::from_slice(&std::fs::read(context.project.join("skills-lock.json")).unwrap())
            .unwrap();
    assert!(lock["skills"].get("csv-tools").is_none(), "{lock}");
}

#[test]
fn the_nearest_project_wins_and_home_is_no_project() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let _ = repository(&context);
    // A package of a monorepo with its own agent dir is its own project.
    let package = context.project.join("packages/web");
    std::fs::create_dir_all(package.join(".agents/skills")).unwrap();
    std::fs::create_dir_all(package.join("lib")).unwrap();
    let output = skills_in(
        &context,
        Some(&remote),
        &package.join("lib"),
        &["add", "acme/flat", "-s", "pdf-forms", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        output.stderr.contains("(it has `.agents/skills`)"),
        "{}",
        output.stderr
    );
    assert!(package.join(".agents/skills/pdf-forms/SKILL.md").is_file());
    assert!(package.join("skills-lock.json").is_file());
    assert!(!context.project.join("skills-lock.json").exists());

    // Below HOME, outside any repository: the user's agent dirs make no project of HOME; the
    // working directory is the project.
    std::fs::create_dir_all(context.home.join(".claude/skills")).unwrap();
    let notes = context.home.join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    let output = skills_in(&context, None, &notes, &["check"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        !output.stderr.contains("Using the project"),
        "{}",
        output.stderr
    );
    assert!(
        output
            .stderr
            .contains(&*notes.join("skills-lock.json").to_string_lossy()),
        "{}",
        output.stderr
    );
}
