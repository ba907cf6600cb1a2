//! Drop-in for `npx skills` 1.7.4: the reference's command lines — aliases, options, and the
//! behaviours scripts rely on — work with the same effect. Each test names the command lines it
//! runs; `sync`, `use` and the source forms (`GH_HOST`, `GIT_SSH_COMMAND`) have modules of
//! their own.

use serde_json::{Value, json};

use crate::add::{lock, tree};
use crate::common::{Output, TestContext, run};
use crate::httpserver::HttpServer;
use crate::snapshot_output;

fn skills(context: &TestContext, args: &[&str]) -> Output {
    run(context.command().args(args))
}

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

/// `skills add ./src -s SKILL -y`, then `more` (agents, flags).
fn add(context: &TestContext, skill: &str, more: &[&str]) -> Output {
    run(context
        .command()
        .args(["add", "./src", "-s", skill, "-y"])
        .args(more))
}

/// `src/skills/{alpha,Beta_Two,gamma}` in the project: a local source of three skills, one
/// with a name that is not a folder name as it stands.
fn source(context: &TestContext) {
    for name in ["alpha", "Beta_Two", "gamma"] {
        context.skill(&format!("src/skills/{name}"), name);
    }
}

#[test]
fn install_and_i_with_a_source_are_add() {
    let context = TestContext::new();
    source(&context);
    // `skills i <source>` and `skills install <source>`, as `npx skills i/install`.
    ok(&skills(
        &context,
        &["i", "./src", "--skill", "alpha", "-a", "claude-code", "-y"],
    ));
    ok(&skills(
        &context,
        &[
            "install",
            "./src",
            "-s",
            "Beta_Two",
            "-a",
            "claude-code",
            "-y",
        ],
    ));
    // The source may also come last, after `-a` (several values, as in the reference).
    ok(&skills(
        &context,
        &["install", "-s", "gamma", "-y", "-a", "claude-code", "./src"],
    ));
    assert_eq!(
        tree(&context.project.join(".claude/skills")),
        [
            "alpha/",
            "alpha/SKILL.md",
            "beta_two/",
            "beta_two/SKILL.md",
            "gamma/",
            "gamma/SKILL.md"
        ],
        "the reference's folder name for `Beta_Two`"
    );
    let locked = lock(&context);
    assert_eq!(locked["skills"]["Beta_Two"]["source"], "./src");
    // Without a source, `install` (and `experimental_install`) restores the lock.
    std::fs::remove_dir_all(context.project.join(".claude/skills/alpha")).unwrap();
    ok(&skills(&context, &["install"]));
    assert!(
        context
            .project
            .join(".claude/skills/alpha/SKILL.md")
            .is_file()
    );
    std::fs::remove_dir_all(context.project.join(".claude/skills/gamma")).unwrap();
    ok(&skills(&context, &["experimental_install"]));
    assert!(
        context
            .project
            .join(".claude/skills/gamma/SKILL.md")
            .is_file()
    );
    // Options of `add` without a source: an error that says why, nothing restored or written.
    let before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let output = skills(&context, &["install", "--skill", "alpha"]);
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    let output = skills(&context, &["install", "./src", "--frozen"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        before
    );
}

#[test]
fn add_metadata_is_accepted_and_ignored() {
    let context = TestContext::new();
    source(&context);
    let output = add(
        &context,
        "alpha",
        &["-a", "claude-code", "--metadata", r#"{"ci": true}"#],
    );
    ok(&output);
    assert!(context.project.join(".claude/skills/alpha").is_dir());
    assert!(
        !std::fs::read_to_string(context.project.join("skills-lock.json"))
            .unwrap()
            .contains("ci"),
        "nothing of it is kept"
    );
    // The reference refuses a value that is not JSON; so do we, before anything is done.
    let output = add(&context, "gamma", &["--metadata", "{not json"]);
    assert_eq!(output.code, 2);
    snapshot_output!(context, output);
    assert!(!context.project.join(".claude/skills/gamma").exists());
}

#[test]
fn add_subagent_installs_for_eve_subagents() {
    let context = TestContext::new();
    source(&context);
    // `npx skills add <source> --subagent reviewer root`: Eve's subagent and its root agent.
    ok(&add(&context, "alpha", &["--subagent", "reviewer", "root"]));
    assert_eq!(
        tree(&context.project.join("agent")),
        [
            "skills/",
            "skills/alpha/",
            "skills/alpha/SKILL.md",
            "subagents/",
            "subagents/reviewer/",
            "subagents/reviewer/skills/",
            "subagents/reviewer/skills/alpha/",
            "subagents/reviewer/skills/alpha/SKILL.md",
        ],
        "Eve alone: copies, as from the reference"
    );
    let entry = &lock(&context)["skills"]["alpha"];
    assert_eq!(entry["agents"], json!(["eve"]));
    assert_eq!(
        entry["subagents"],
        json!(["reviewer", ""]),
        "as the reference records them"
    );
    // `list` sees the subagent's dir as Eve's; `install` puts both back; `remove` takes both.
    let listed: Value =
        serde_json::from_str(&skills(&context, &["list", "--json"]).stdout).unwrap();
    assert_eq!(listed["skills"][0]["agentIds"], json!(["eve"]));
    std::fs::remove_dir_all(context.project.join("agent")).unwrap();
    ok(&skills(&context, &["install"]));
    assert!(
        context
            .project
            .join("agent/subagents/reviewer/skills/alpha/SKILL.md")
            .is_file()
    );
    assert!(
        context
            .project
            .join("agent/skills/alpha/SKILL.md")
            .is_file()
    );
    ok(&skills(&context, &["remove", "alpha", "-y"]));
    assert!(
        !context
            .project
            .join("agent/subagents/reviewer/skills/alpha")
            .exists()
    );
    assert!(!context.project.join("agent/skills/alpha").exists());
    // A subagent name that cannot be a folder is refused, nothing written.
    let output = skills(
        &context,
        &["add", "./src", "-s", "gamma", "--subagent", "..", "-y"],
    );
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(!context.project.join("agent/skills/gamma").exists());
}

#[test]
fn remove_aliases_skill_option_any_case_and_idempotence() {
    let context = TestContext::new();
    source(&context);
    ok(&add(&context, "*", &["-a", "claude-code"]));
    // `npx skills r NAME`: names match in any case.
    ok(&skills(&context, &["r", "ALPHA", "-y"]));
    assert!(!context.project.join(".claude/skills/alpha").exists());
    // `--skill`, with the folder name of `Beta_Two`.
    ok(&skills(&context, &["rm", "--skill", "beta_two", "-y"]));
    assert!(!context.project.join(".claude/skills/beta_two").exists());
    assert!(lock(&context)["skills"].get("Beta_Two").is_none());
    // Removing what is not there is a warning, not a failure; nothing else changes.
    let before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let output = skills(&context, &["remove", "alpha", "nope", "-y"]);
    snapshot_output!(context, output);
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        before
    );
    // `-s '*' -a AGENT`: every skill, from that agent.
    ok(&skills(
        &context,
        &["remove", "-s", "*", "-a", "claude-code", "-y"],
    ));
    assert!(tree(&context.project.join(".claude/skills")).is_empty());
}

#[test]
fn remove_without_a_terminal_says_what_and_removes_nothing() {
    let context = TestContext::new();
    source(&context);
    ok(&add(&context, "alpha", &["-a", "claude-code"]));
    let before = tree(&context.project);
    let output = skills(&context, &["remove", "alpha"]);
    snapshot_output!(context, output);
    assert_eq!(tree(&context.project), before);
    // `--all` needs no `-y`, as in the reference.
    ok(&skills(&context, &["remove", "--all"]));
    assert!(!context.project.join(".claude/skills/alpha").exists());
}

#[test]
fn remove_never_creates_an_empty_lockfile() {
    let context = TestContext::new();
    context.skill(".claude/skills/hand-made", "hand-made");
    ok(&skills(&context, &["remove", "hand-made", "-y"]));
    assert!(!context.project.join(".claude/skills/hand-made").exists());
    ok(&skills(&context, &["remove", "nope", "-y"]));
    assert!(!context.project.join("skills-lock.json").exists());
}

#[test]
fn find_aliases() {
    let context = TestContext::new();
    let server = HttpServer::start();
    server.file(
        "/api/search",
        json!({"skills": [{"id": "acme/tools/pdf", "name": "pdf", "installs": 7, "source": "acme/tools"}]})
            .to_string(),
    );
    let mut outputs = Vec::new();
    for alias in ["find", "search", "f", "s"] {
        let output = run(context
            .command()
            .args([alias, "pdf", "--json"])
            .env("SKILLS_API_URL", &server.url));
        ok(&output);
        outputs.push(output.stdout);
    }
    assert!(outputs.iter().all(|o| *o == outputs[0]), "{outputs:?}");
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn update_alias_and_scope_options() {
    let context = TestContext::new();
    source(&context);
    ok(&add(&context, "alpha", &["-a", "claude-code"]));
    let edit = |text: &str| {
        std::fs::write(context.project.join("src/skills/alpha/SKILL.md"), text).unwrap();
    };
    edit("---\nname: alpha\ndescription: Alpha, version 2. Use when alpha.\n---\n# Alpha 2\n");
    // `npx skills upgrade -y`: the project has skills, so the project's are updated.
    let output = skills(&context, &["upgrade", "-y", "--json"]);
    ok(&output);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(report["updated"][0]["name"], "alpha");
    assert!(
        std::fs::read_to_string(context.project.join(".claude/skills/alpha/SKILL.md"))
            .unwrap()
            .contains("version 2")
    );
    // `-p`: the project's only; nothing left to do.
    let output = skills(&context, &["update", "-p", "-y"]);
    snapshot_output!(context, output);
    // Where the project has no skills, `update` is the user's (as the reference decides it).
    let elsewhere = context.temp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let source = context.project.join("src");
    ok(&run(context
        .command()
        .args(["add", "-g", "-s", "gamma", "-a", "claude-code", "-y"])
        .arg(&source)));
    std::fs::write(
        source.join("skills/gamma/SKILL.md"),
        "---\nname: gamma\ndescription: Gamma, version 2. Use when gamma.\n---\n# Gamma 2\n",
    )
    .unwrap();
    let output = run(context
        .command()
        .current_dir(&elsewhere)
        .args(["update", "-y"]));
    ok(&output);
    assert!(
        std::fs::read_to_string(context.home.join(".claude/skills/gamma/SKILL.md"))
            .unwrap()
            .contains("version 2"),
        "{}",
        output.stderr
    );
    assert!(
        !elsewhere.join("skills-lock.json").exists(),
        "no lock where there was none"
    );
}

#[test]
fn list_takes_several_agents_and_universal_agents_read_the_canonical_dir() {
    let context = TestContext::new();
    source(&context);
    ok(&add(&context, "alpha", &["-a", "claude-code"]));
    // Codex reads `.agents/skills`: the copy goes there.
    ok(&add(&context, "gamma", &["-a", "codex"]));
    let names = |args: &[&str]| -> Vec<String> {
        let output = skills(&context, args);
        ok(&output);
        crate::common::skill_names(&serde_json::from_str(&output.stdout).unwrap())
    };
    // `npx skills ls -a claude-code cursor`: several agents after one flag.
    assert_eq!(
        names(&["ls", "-a", "claude-code", "cursor", "--json"]),
        ["gamma", "alpha"]
    );
    // Cursor reads `.agents/skills` too.
    assert_eq!(names(&["list", "-a", "cursor", "--json"]), ["gamma"]);
    assert_eq!(names(&["list", "-a", "claude-code", "--json"]), ["alpha"]);
    // In the user's scope as well: `~/.agents/skills` is read by every universal agent, even
    // one (Cursor) whose own user dir is elsewhere.
    let source = context.project.join("src");
    ok(&run(context
        .command()
        .args(["add", "-g", "-s", "alpha", "-a", "codex", "-y"])
        .arg(&source)));
    assert!(context.home.join(".agents/skills/alpha/SKILL.md").is_file());
    assert_eq!(names(&["list", "-g", "-a", "cursor", "--json"]), ["alpha"]);
}

#[test]
fn list_skips_a_skill_md_without_frontmatter() {
    let context = TestContext::new();
    context.skill(".claude/skills/good", "good");
    context.write(
        ".claude/skills/notes/SKILL.md",
        "# Just notes\n\nNo frontmatter.\n",
    );
    let output = skills(&context, &["list", "--json"]);
    snapshot_output!(context, output);
}

#[test]
fn json_documents_carry_the_reference_fields() {
    let context = TestContext::new();
    source(&context);
    let output = add(
        &context,
        "alpha",
        &["-a", "claude-code", "cursor", "--json"],
    );
    ok(&output);
    let added: Value = serde_json::from_str(&output.stdout).unwrap();
    let project = std::fs::canonicalize(&context.project).unwrap();
    let item = &added["skills"][0];
    // The fields of `npx skills add --json`, with the reference's meanings.
    assert_eq!(item["name"], "alpha");
    assert_eq!(item["status"], "installed");
    assert_eq!(item["source"], project.join("src").display().to_string());
    assert_eq!(item["ref"], Value::Null);
    assert_eq!(item["hash"].as_str().unwrap().len(), 64);
    assert_eq!(
        item["path"],
        project.join(".agents/skills/alpha").display().to_string()
    );
    assert_eq!(item["scope"], "project");
    assert_eq!(item["agents"], json!(["Cursor", "Claude Code"]));
    assert_eq!(item["mode"], "symlink");
    assert_eq!(item["security"], Value::Null);
    assert_eq!(added["version"], 1);
    // And those of `npx skills list --json`.
    let output = skills(&context, &["list", "--json"]);
    ok(&output);
    let listed: Value = serde_json::from_str(&output.stdout).unwrap();
    let item = &listed["skills"][0];
    for field in [
        "name",
        "path",
        "scope",
        "agents",
        "source",
        "sourceUrl",
        "sourceType",
    ] {
        assert!(item.get(field).is_some(), "{field} missing: {item}");
    }
    assert_eq!(
        item["path"],
        project.join(".agents/skills/alpha").display().to_string()
    );
    assert_eq!(item["sourceType"], "local");
    assert_eq!(
        item["source"],
        project.join("src").display().to_string(),
        "absolute, as the reference resolves it"
    );
    assert_eq!(item["sourceUrl"], Value::Null);
    assert!(
        item["agents"]
            .as_array()
            .unwrap()
            .contains(&json!("Claude Code"))
    );
    assert!(
        item["agentIds"]
            .as_array()
            .unwrap()
            .contains(&json!("claude-code"))
    );
}
