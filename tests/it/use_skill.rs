//! `skills use`: the activation prompt of one skill of a source, nothing installed — from a local
//! folder and over `git daemon`, printed, as JSON, or handed to an agent.

use serde_json::Value;

use crate::add::{Remote, fixture, tree};
use crate::common::{Output, TestContext, run};
use crate::snapshot_output;

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

/// The folder the prompt names as the skill's directory.
fn directory(prompt: &str) -> std::path::PathBuf {
    let line = prompt
        .lines()
        .find_map(|l| l.strip_prefix("Skill directory: "))
        .unwrap_or_else(|| panic!("no directory in {prompt}"));
    std::path::PathBuf::from(line)
}

#[test]
fn use_a_skill_of_a_local_folder() {
    let context = TestContext::new();
    crate::gitfixture::copy_tree(&fixture("flat"), &context.project.join("src"));
    let output = run(context
        .command()
        .args(["use", "./src", "--skill", "csv-tools"]));
    ok(&output);
    snapshot_output!(context, output);
    let prompt = &output.stdout;
    // The folder it names holds the skill's files, in the cache: nothing is installed.
    let dir = directory(prompt);
    assert!(
        dir.starts_with(context.temp.path().join("cache")),
        "{}",
        dir.display()
    );
    assert!(dir.join("scripts/convert.py").is_file());
    assert_eq!(tree(&context.project.join("src")), tree(&fixture("flat")));
    assert_eq!(
        std::fs::read_dir(&context.project).unwrap().count(),
        1,
        "only `src`: no agent dir, no lockfile"
    );
    // A second `use` of the same bytes: the same folder, written once.
    let again = run(context.command().args(["use", "./src", "-s", "csv-tools"]));
    assert_eq!(again.stdout, output.stdout);
    // A folder with one skill needs no name; several need one, and the error lists them.
    ok(&run(context
        .command()
        .args(["use", "./src/skills/pdf-forms"])));
    let output = run(context.command().args(["use", "./src"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let output = run(context.command().args(["use", "./src", "-s", "nope"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}

#[test]
fn use_owner_repo_at_skill_over_git_daemon() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let use_skill = |args: &[&str]| {
        run(context
            .command()
            .arg("use")
            .args(args)
            .env("SKILLS_GITHUB_URL", &remote.daemon.base_url))
    };
    let output = use_skill(&["acme/flat@pdf-forms", "--json"]);
    ok(&output);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(document["version"], 1);
    assert_eq!(document["name"], "pdf-forms");
    let prompt = document["prompt"].as_str().unwrap();
    // The whole skill is in it; its opening tag is the point.
    assert!(
        prompt.contains("<skill_content name=\"pdf-forms\">"),
        "{prompt}"
    );
    let dir = std::path::PathBuf::from(document["directory"].as_str().unwrap());
    assert!(dir.join("SKILL.md").is_file());
    assert!(!context.project.join("skills-lock.json").exists());
    // The source's `@skill` and `--skill` must agree.
    let output = use_skill(&["acme/flat@pdf-forms", "--skill", "csv-tools"]);
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}

#[cfg(unix)]
#[test]
fn use_with_agent_starts_it_with_the_prompt() {
    use std::os::unix::fs::PermissionsExt;
    let context = TestContext::new();
    crate::gitfixture::copy_tree(&fixture("flat"), &context.project.join("src"));
    // A `claude` on PATH that keeps its last argument and exits as told.
    let bin = context.temp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let got = context.temp.path().join("got.txt");
    std::fs::write(
        bin.join("claude"),
        format!(
            "#!/bin/sh\nprintf '%s' \"$1\" > '{}'\nexit \"${{EXIT:-0}}\"\n",
            got.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = run(context
        .command()
        .args(["use", "./src", "-s", "csv-tools", "--agent", "claude-code"])
        .env("PATH", &path));
    ok(&output);
    assert!(output.stdout.is_empty(), "{}", output.stdout);
    let prompt = std::fs::read_to_string(&got).unwrap();
    // The whole skill is in it; its opening tag is the point.
    assert!(
        prompt.contains("<skill_content name=\"csv-tools\">"),
        "{prompt}"
    );
    // The agent's failure is ours.
    let output = run(context
        .command()
        .args(["use", "./src", "-s", "csv-tools", "-a", "claude-code"])
        .env("PATH", &path)
        .env("EXIT", "3"));
    assert_eq!(output.code, 1);
    // An agent `use` cannot start yet is refused before anything is read.
    let output = run(context
        .command()
        .args(["use", "./src", "-s", "csv-tools", "-a", "cursor"]));
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
}
