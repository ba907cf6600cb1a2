//! `skills doctor`: a healthy setup says so and exits 0; each kind of problem is found with a
//! fix, exit 1 (notes, such as a dir no agent here reads, do not fail the run), and `--json`
//! carries the same as data.

use serde_json::Value;

use crate::common::{Output, TestContext, run, write};
use crate::snapshot_output;

fn doctor(context: &TestContext, args: &[&str]) -> Output {
    run(context.command().arg("doctor").args(args))
}

/// A project with `pdf` and `notes` installed for Claude Code from a local folder, Claude Code
/// installed for the user.
fn project() -> TestContext {
    let context = TestContext::new();
    std::fs::create_dir_all(context.home.join(".claude")).unwrap();
    context.skill("vendor/pdf", "pdf");
    context.skill("vendor/notes", "notes");
    let output =
        run(context
            .command()
            .args(["add", "./vendor", "--skill", "*", "-a", "claude-code", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    context
}

#[test]
fn a_healthy_setup_says_so() {
    let context = project();
    let output = doctor(&context, &[]);
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    assert_eq!(output.stdout, "");
    assert_eq!(output.stderr, "no problems found\n");
    let output = doctor(&context, &["--json"]);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(
        document,
        serde_json::json!({"version": 1, "ok": true, "problems": [], "notes": []})
    );
}

#[test]
fn every_kind_of_problem_is_found_with_a_fix() {
    let context = project();
    let skills = context.project.join(".claude/skills");
    // Drift: an edited file, a locked skill gone, a hand-made skill the lock does not know.
    write(
        &skills.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Edited. Use when editing.\n---\n# Edited\n",
    );
    std::fs::remove_dir_all(skills.join("notes")).unwrap();
    context.skill(".claude/skills/handmade", "handmade");
    #[cfg(unix)]
    {
        // A link whose target is gone, and a loop.
        std::os::unix::fs::symlink("../../.agents/skills/gone", skills.join("gone")).unwrap();
        std::os::unix::fs::symlink("loop", skills.join("loop")).unwrap();
    }
    // What an interrupted run leaves.
    write(&skills.join(".skills-staging-x1/pdf/SKILL.md"), "partial");
    // A dir only Windsurf reads, and Windsurf is not installed.
    context.skill(".windsurf/skills/wind", "wind");
    // A user skill hidden by the project's.
    write(
        &context.home.join(".claude/skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Mine. Use when mine.\n---\n# Mine\n",
    );
    // A cache entry that is no repository.
    std::fs::create_dir_all(context.temp.path().join("cache/git/tools-0123456789abcdef")).unwrap();

    let output = doctor(&context, &["--json"]);
    snapshot_output!(context, output);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    // Problems and notes (a dir no agent here reads, a stale cache) alike.
    let found: Vec<(String, String, String)> = document["problems"]
        .as_array()
        .unwrap()
        .iter()
        .chain(document["notes"].as_array().unwrap())
        .map(|p| {
            assert!(!p["fix"].as_str().unwrap().is_empty(), "{p}");
            (
                p["scope"].as_str().unwrap().to_owned(),
                p["kind"].as_str().unwrap().to_owned(),
                p["path"]
                    .as_str()
                    .unwrap()
                    .replace(&*context.temp.path().to_string_lossy(), "[TEMP]"),
            )
        })
        .collect();
    let expect = |scope: &str, kind: &str, path: &str| {
        assert!(
            found.contains(&(scope.to_owned(), kind.to_owned(), path.to_owned())),
            "no {scope} {kind} at {path} in {found:#?}"
        );
    };
    expect("project", "leftover", ".claude/skills/.skills-staging-x1");
    expect("project", "modified", ".claude/skills/pdf");
    expect("project", "missing", ".claude/skills/notes");
    expect("project", "untracked", ".claude/skills/handmade");
    expect("project", "unread-dir", ".windsurf/skills");
    expect("user", "shadowed", "~/.claude/skills/pdf");
    expect(
        "cache",
        "stale-cache",
        "[TEMP]/cache/git/tools-0123456789abcdef",
    );
    #[cfg(unix)]
    {
        expect("project", "broken-link", ".claude/skills/gone");
        expect("project", "broken-link", ".claude/skills/loop");
    }
    assert!(
        !found
            .iter()
            .any(|(_, kind, path)| kind == "unread-dir" && path == ".claude/skills"),
        "Claude Code is installed: its dir is read"
    );

    // The human form: one problem per finding on stdout, each with its fix.
    let output = doctor(&context, &[]);
    snapshot_output!(context, output);

    // `-g`: the user's side only.
    let output = doctor(&context, &["-g", "--json"]);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert!(
        document["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["scope"] != "project"),
        "{document:#}"
    );
}
