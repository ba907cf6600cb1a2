//! `add --copy` for several agents writes one locked skill into several agent dirs: `list` shows
//! it once with all its agents, and `lint` checks it once. Folders with one name that are not
//! copies of one lock entry (different bytes, or not locked) are still duplicates.

use serde_json::Value;

use crate::common::{TestContext, run};

fn lint_strict(context: &TestContext) -> crate::common::Output {
    run(context
        .command()
        .args(["lint", "--strict", "--format", "json"]))
}

/// Rows of a `list` table (boxed, or tab-separated when piped) whose first cell is `name`.
fn rows_named(table: &str, name: &str) -> usize {
    table
        .lines()
        .filter(|line| {
            line.split(['│', '┆', '\t'])
                .map(str::trim)
                .find(|cell| !cell.is_empty())
                .is_some_and(|cell| cell == name)
        })
        .count()
}

/// How often `compat/duplicate-name` fired, from the report's summary.
fn duplicate_names(output: &crate::common::Output) -> u64 {
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    report["summary"]["rules"]["compat/duplicate-name"]
        .as_u64()
        .unwrap_or(0)
}

#[test]
fn copies_of_one_locked_skill_are_one_skill() {
    let context = TestContext::new();
    let source = context.temp.path().join("source");
    crate::common::write(
        &source.join("pdf-forms/SKILL.md"),
        "---\nname: pdf-forms\ndescription: Fills PDF forms. Use when the user has a PDF form to fill.\n---\n# PDF forms\n\nSteps.\n",
    );
    let output = run(context.command().args([
        "add",
        &source.to_string_lossy(),
        "-a",
        "claude-code",
        "-a",
        "codex",
        "--copy",
        "-y",
    ]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    for dir in [".claude/skills/pdf-forms", ".agents/skills/pdf-forms"] {
        let meta = std::fs::symlink_metadata(context.project.join(dir)).unwrap();
        assert!(meta.is_dir(), "{dir} is a copy");
    }

    let output = run(context.command().arg("list"));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!output.stdout.contains("shadowed"), "{}", output.stdout);
    assert_eq!(
        rows_named(&output.stdout, "pdf-forms"),
        1,
        "{}",
        output.stdout
    );
    let output = run(context.command().args(["list", "--json"]));
    let listed: Value = serde_json::from_str(&output.stdout).unwrap();
    let items = listed["skills"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{listed}");
    let ids: Vec<&str> = items[0]["agentIds"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        ids.contains(&"claude-code") && ids.contains(&"codex"),
        "{ids:?}"
    );
    assert!(items[0].get("shadowedBy").is_none(), "{listed}");

    let output = lint_strict(&context);
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
    assert_eq!(duplicate_names(&output), 0, "{}", output.stdout);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(report["summary"]["skills"], 1, "linted once: {report}");
    // The agent dirs named on the command line: the same.
    let output = run(context.command().args([
        "lint",
        "--strict",
        "--format",
        "json",
        ".claude/skills",
        ".agents/skills",
    ]));
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
    assert_eq!(duplicate_names(&output), 0, "{}", output.stdout);

    // One copy edited: not the locked skill any more, so two skills with one name.
    crate::common::write(
        &context.project.join(".claude/skills/pdf-forms/notes.md"),
        "# Notes\n",
    );
    let output = lint_strict(&context);
    assert_eq!(output.code, 1, "{}", output.stdout);
    assert_eq!(duplicate_names(&output), 2, "{}", output.stdout);
    let output = run(context.command().arg("list"));
    assert!(output.stdout.contains("(shadowed)"), "{}", output.stdout);
}

#[test]
fn same_names_outside_the_lock_are_duplicates() {
    let context = TestContext::new();
    context.skill(".claude/skills/review", "review");
    context.skill(".windsurf/skills/review", "review");
    let output = lint_strict(&context);
    assert_eq!(output.code, 1, "{}", output.stdout);
    assert_eq!(duplicate_names(&output), 2, "{}", output.stdout);
    let output = run(context.command().arg("list"));
    assert!(
        output.stdout.contains("review (shadowed)"),
        "{}",
        output.stdout
    );
}
