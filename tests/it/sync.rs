//! `skills sync` (`experimental_sync`): skills shipped in packages, over a real `node_modules`
//! made by `npm install` of local package folders. They need `npm`, and fail (never skip)
//! without it: `.ci/run` installs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::add::{lock, tree};
use crate::common::{Output, TestContext, run, write};
use crate::snapshot_output;

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

fn skill_md(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when {name}.\n---\n# {name}\n{extra}"
    )
}

/// A package folder `name` (version 1.0.0) shipping `skills/<skill>/SKILL.md` for each skill.
pub fn package(root: &Path, name: &str, skills: &[&str]) -> PathBuf {
    let dir = root.join("packages").join(name);
    write(
        &dir.join("package.json"),
        json!({"name": name, "version": "1.0.0"}).to_string(),
    );
    for skill in skills {
        write(
            &dir.join(format!("skills/{skill}/SKILL.md")),
            skill_md(skill, ""),
        );
    }
    dir
}

/// `npm install` of local folders into the project, offline, with npm's cache and config in
/// the test's temp dir. Fails the test where npm is not installed.
pub fn npm_install(context: &TestContext, folders: &[&Path]) {
    assert!(
        Command::new("npm").arg("--version").output().is_ok(),
        "the sync tests need `npm` (`.ci/run` installs it: `apt-get install npm`)"
    );
    let root = context.temp.path();
    let output = Command::new("npm")
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
        ])
        .args(folders)
        .current_dir(&context.project)
        .env("HOME", &context.home)
        .env("npm_config_cache", root.join("npm-cache"))
        .env("npm_config_userconfig", root.join("npmrc"))
        .env("npm_config_update_notifier", "false")
        .output()
        .expect("npm runs");
    assert!(
        output.status.success(),
        "npm install failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn link(path: &Path) -> String {
    std::fs::read_link(path).map_or_else(
        |_| format!("{} is not a link", path.display()),
        |t| t.display().to_string(),
    )
}

#[test]
fn sync_links_packaged_skills_and_follows_the_packages() {
    let context = TestContext::new();
    let root = context.temp.path();
    let tools = package(root, "pdf-kit", &["pdf-tools", "pdf-forms"]);
    let other = package(root, "@acme/review", &["code-review"]);
    write(
        &context.project.join("package.json"),
        json!({"name": "app", "version": "0.0.0"}).to_string(),
    );
    npm_install(&context, &[&tools, &other]);
    // Without a terminal and without `-y`: what would happen, nothing done, exit 1.
    let output = run(context.command().arg("sync"));
    snapshot_output!(context, output);
    assert!(!context.project.join(".agents").exists());
    assert!(!context.project.join("skills-lock.json").exists());
    // `--dry-run` prints the plan on stdout and changes nothing either.
    let output = run(context.command().args(["sync", "--dry-run"]));
    snapshot_output!(context, output);
    assert!(!context.project.join(".agents").exists());
    // `npx skills experimental_sync -a claude-code -y`.
    ok(&run(context.command().args([
        "experimental_sync",
        "-a",
        "claude-code",
        "-y",
    ])));
    let agents = context.project.join(".agents/skills");
    assert_eq!(
        link(&agents.join("pdf-tools")),
        "../../node_modules/pdf-kit/skills/pdf-tools",
        "linked into the package"
    );
    assert_eq!(
        link(&context.project.join(".claude/skills/code-review")),
        "../../.agents/skills/code-review"
    );
    let locked = lock(&context);
    let entry = &locked["skills"]["pdf-tools"];
    assert_eq!(entry["source"], "pdf-kit");
    assert_eq!(entry["sourceType"], "node_modules");
    assert_eq!(entry["skillPath"], "skills/pdf-tools/SKILL.md");
    assert_eq!(entry["version"], "1.0.0");
    assert_eq!(entry["mode"], "link");
    assert_eq!(locked["skills"]["code-review"]["source"], "@acme/review");
    // `list` shows them with their package.
    let listed: Value =
        serde_json::from_str(&run(context.command().args(["list", "--json"])).stdout).unwrap();
    let sources: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].as_str().unwrap())
        .collect();
    assert!(
        sources.contains(&"pdf-kit") && sources.contains(&"@acme/review"),
        "{listed}"
    );
    // The package changes (a skill edited, one dropped): the link follows, `check` sees it,
    // and the next sync records the new hash and removes the dropped skill.
    std::fs::write(
        tools.join("skills/pdf-tools/SKILL.md"),
        skill_md("pdf-tools", "v2\n"),
    )
    .unwrap();
    std::fs::remove_dir_all(tools.join("skills/pdf-forms")).unwrap();
    assert!(
        std::fs::read_to_string(agents.join("pdf-tools/SKILL.md"))
            .unwrap()
            .contains("v2")
    );
    let output = run(context
        .command()
        .args(["sync", "-y", "-a", "claude-code", "--json"]));
    ok(&output);
    let report: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(report["removed"], json!(["pdf-forms"]));
    assert!(std::fs::symlink_metadata(agents.join("pdf-forms")).is_err());
    assert!(std::fs::symlink_metadata(context.project.join(".claude/skills/pdf-forms")).is_err());
    assert!(lock(&context)["skills"].get("pdf-forms").is_none());
    assert_ne!(
        lock(&context)["skills"]["pdf-tools"]["computedHash"],
        entry["computedHash"]
    );
    // `install` puts the links back as sync made them.
    std::fs::remove_dir_all(context.project.join(".claude")).unwrap();
    std::fs::remove_dir_all(&agents).unwrap();
    ok(&run(context.command().args(["install", "--frozen"])));
    assert_eq!(
        link(&agents.join("pdf-tools")),
        "../../node_modules/pdf-kit/skills/pdf-tools"
    );
    assert_eq!(
        link(&context.project.join(".claude/skills/pdf-tools")),
        "../../.agents/skills/pdf-tools"
    );
}

#[test]
fn sync_copy_and_what_it_leaves_alone() {
    let context = TestContext::new();
    let root = context.temp.path();
    let tools = package(root, "pdf-kit", &["pdf-tools", "shared"]);
    write(
        &context.project.join("package.json"),
        json!({"name": "app", "version": "0.0.0"}).to_string(),
    );
    npm_install(&context, &[&tools]);
    // A skill of the same name added with `skills add` is not sync's to replace.
    context.skill("src/shared", "shared");
    ok(&run(context.command().args([
        "add",
        "./src/shared",
        "-a",
        "claude-code",
        "-y",
    ])));
    let output = run(context
        .command()
        .args(["sync", "--copy", "-a", "claude-code", "-y"]));
    snapshot_output!(context, output);
    assert_eq!(lock(&context)["skills"]["shared"]["sourceType"], "local");
    // `--copy`: copies, nothing linked into `node_modules`.
    assert_eq!(
        tree(&context.project.join(".claude/skills")),
        [
            "pdf-tools/",
            "pdf-tools/SKILL.md",
            "shared/",
            "shared/SKILL.md"
        ]
    );
    assert_eq!(lock(&context)["skills"]["pdf-tools"]["mode"], "copy");
    // A sync with nothing new to do writes nothing.
    let sync = |more: &[&str]| {
        run(context
            .command()
            .args(["sync", "--copy", "-a", "claude-code", "-y"])
            .args(more))
    };
    let before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    ok(&sync(&[]));
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        before
    );
    // `--exclude` leaves a package's skill out; `--no-cleanup` keeps what is installed.
    ok(&sync(&["--exclude", "pdf-kit#pdf-*", "--no-cleanup"]));
    assert!(context.project.join(".claude/skills/pdf-tools").is_dir());
    // Without `--no-cleanup`, an excluded skill is no longer provided: it goes.
    ok(&sync(&["--exclude", "pdf-kit#pdf-*"]));
    assert!(!context.project.join(".claude/skills/pdf-tools").exists());
    assert!(
        context.project.join(".claude/skills/shared").is_dir(),
        "not sync's"
    );
}

#[test]
fn sync_without_package_json_has_nothing_to_do() {
    let context = TestContext::new();
    let output = run(context.command().args(["sync", "-y"]));
    snapshot_output!(context, output);
    assert_eq!(std::fs::read_dir(&context.project).unwrap().count(), 0);
}
