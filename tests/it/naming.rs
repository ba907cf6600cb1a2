//! Skill names and folders: a skill may be called like a folder that searches skip (`build`,
//! `node_modules`, …) and is still seen where it is installed; two names that become one folder
//! (`PDF`, `pdf`) are caught before anything is written.

use serde_json::Value;

use crate::common::{TestContext, run, write};
use crate::snapshot_output;

fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n# {name}\n")
}

#[test]
fn skills_named_like_skipped_folders_are_seen() {
    let context = TestContext::new();
    let source = context.temp.path().join("source");
    let names = ["__pycache__", "build", "dist", "node_modules", "pdf"];
    for name in names {
        write(
            &source.join(format!("skills/{name}/SKILL.md")),
            skill_md(name),
        );
    }
    let output = run(context
        .command()
        .args(["add", "--skill", "*", "-a", "claude-code", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    for name in names {
        assert!(
            context
                .project
                .join(format!(".claude/skills/{name}/SKILL.md"))
                .is_file(),
            "{name}"
        );
    }
    let output = run(context.command().args(["list", "--json"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let listed: Value = serde_json::from_str(&output.stdout).unwrap();
    let mut seen = crate::common::skill_names(&listed);
    seen.sort();
    assert_eq!(seen, names);
    let output = run(context.command().args(["manifest", "--check"]));
    assert_eq!(output.code, 0, "{}{}", output.stdout, output.stderr);
    let output = run(context.command().args(["manifest", "--json"]));
    let manifests: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(manifests.as_array().unwrap().len(), names.len());
}

#[test]
fn names_differing_in_case_clash_up_front() {
    let context = TestContext::new();
    let source = context.temp.path().join("source");
    write(&source.join("skills/a-upper/SKILL.md"), skill_md("PDF"));
    write(&source.join("skills/b-lower/SKILL.md"), skill_md("pdf"));
    let output = run(context
        .command()
        .args(["add", "--skill", "*", "-a", "claude-code", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    snapshot_output!(context, output);
    let installed: Vec<String> = std::fs::read_dir(context.project.join(".claude/skills"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(installed, ["pdf"]);
    let lock: Value =
        serde_json::from_slice(&std::fs::read(context.project.join("skills-lock.json")).unwrap())
            .unwrap();
    assert_eq!(
        lock["skills"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["PDF"]
    );
}
