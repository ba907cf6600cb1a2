//! A day with `skills` (issue 27): nothing lands in the wrong place, no hint leads to lost work,
//! CI stays green on good layouts. One test per numbered problem of the issue, named after the
//! behaviour expected.

use std::path::Path;

use serde_json::Value;

use crate::add::{as_reference_lock, lock};
use crate::common::{Output, TestContext, run, write};

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

fn is_link(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

fn is_real_dir(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.is_dir())
}

/// `pdf` and `notes` in `./vendor` of the project.
fn vendor(context: &TestContext) {
    context.skill("vendor/pdf", "pdf");
    context.skill("vendor/notes", "notes");
}

fn doctor_json(context: &TestContext) -> (i32, Value) {
    let output = run(context.command().args(["doctor", "--json"]));
    let document = serde_json::from_str(&output.stdout)
        .unwrap_or_else(|_| panic!("{}\n{}", output.stdout, output.stderr));
    (output.code, document)
}

// 1. A plain `skills/` folder (the project's own skill sources) is no OpenClaw dir.
#[test]
fn add_without_agents_installs_for_claude_dir_and_leaves_a_plain_skills_folder_alone() {
    let context = TestContext::new();
    vendor(&context);
    context.skill("skills/mine", "mine");
    context.write(".claude/settings.json", "{}\n");
    ok(&run(context
        .command()
        .args(["add", "./vendor", "--skill", "pdf", "-y"])));
    let project = &context.project;
    assert!(
        !project.join("skills/pdf").exists() && !is_link(&project.join("skills/pdf")),
        "nothing written into the project's own `skills/`"
    );
    assert!(project.join(".claude/skills/pdf/SKILL.md").is_file());
    let agents = lock(&context)["skills"]["pdf"]["agents"].clone();
    assert!(
        !agents.to_string().contains("openclaw"),
        "not recorded for OpenClaw: {agents}"
    );
    let (code, document) = doctor_json(&context);
    assert_eq!(code, 0, "{document:#}");
    assert!(
        !document.to_string().contains("\"skills\""),
        "doctor leaves `skills/` alone: {document:#}"
    );
}

// 2. `lint .`, `lint SKILL.md` and `lint --changed SKILL.md` at a skill's root.
#[test]
fn lint_at_a_skill_root_compares_name_with_the_real_folder_name() {
    let context = TestContext::new();
    let dir = context.project.join("my-skill");
    std::fs::create_dir_all(&dir).unwrap();
    ok(&run(context.command().current_dir(&dir).arg("init")));
    for args in [
        &["lint", "--strict", "."][..],
        &["lint", "--strict", "SKILL.md"],
        &["lint", "--strict", "--changed", "SKILL.md"],
        &["lint", "--strict", "./"],
    ] {
        let output = run(context.command().current_dir(&dir).args(args));
        assert_eq!(
            output.code, 0,
            "{args:?}\n{}\n{}",
            output.stdout, output.stderr
        );
        assert!(
            !output.stdout.contains("name-dir-mismatch"),
            "{}",
            output.stdout
        );
    }
    // A real mismatch at the root is still found, naming the real folder.
    write(
        &dir.join("SKILL.md"),
        "---\nname: other\ndescription: Does things. Use when asked.\n---\n# Other\n\nSteps.\n",
    );
    let output = run(context.command().current_dir(&dir).args(["lint", "."]));
    assert_eq!(output.code, 1, "{}", output.stdout);
    assert!(
        output
            .stdout
            .contains("differs from the folder name `my-skill`"),
        "{}",
        output.stdout
    );
}

// 3. The picker: a typed name and Enter take the skill of that name.
#[test]
fn picker_enter_after_typing_a_name_installs_the_skill_of_that_name() {
    use crate::terminal::{confirm, in_terminal, skill_md, until_exit};
    use expectrl::Expect as _;
    let context = TestContext::new();
    let source = context.temp.path().join("source");
    write(
        &source.join("skills/canvas-design/SKILL.md"),
        skill_md(
            "canvas-design",
            "Design posters as PNG and PDF files. Use when designing.",
        ),
    );
    write(
        &source.join("skills/pdf/SKILL.md"),
        skill_md("pdf", "Fill forms. Use when forms."),
    );
    let mut session = in_terminal(&context, 100, &["add", source.to_str().unwrap()]);
    session.expect("enter confirm").unwrap();
    session.send("pdf").unwrap();
    session.expect("2 of 2 shown").unwrap();
    session.send("\r").unwrap();
    session.expect("Skills to install: pdf").unwrap();
    confirm(&mut session);
    let (text, code) = until_exit(&mut session);
    assert_eq!(code, 0, "{text}");
    assert!(context.project.join(".agents/skills/pdf").exists());
    assert!(
        !context
            .project
            .join(".agents/skills/canvas-design")
            .exists()
    );
}

// 4. `install --frozen` on a lock `npx skills` wrote keeps the copies already in place.
#[test]
fn frozen_install_of_an_npx_lock_keeps_copies_in_place_and_creates_no_canonical_dir() {
    let context = TestContext::new();
    vendor(&context);
    ok(&run(context.command().args([
        "add",
        "./vendor",
        "--skill",
        "*",
        "-a",
        "claude-code",
        "-y",
    ])));
    as_reference_lock(&context);
    let lock_before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let output = run(context.command().args(["install", "--frozen"]));
    ok(&output);
    let project = &context.project;
    for name in ["pdf", "notes"] {
        let path = project.join(".claude/skills").join(name);
        assert!(is_real_dir(&path), "{name} stays a copy: {}", output.stderr);
    }
    assert!(
        !project.join(".agents").exists(),
        "no `.agents/skills` made: {}",
        output.stderr
    );
    assert_eq!(
        std::fs::read(project.join("skills-lock.json")).unwrap(),
        lock_before,
        "a frozen install writes no lock"
    );
    // Copies for two agents (`--copy`) stay copies too.
    let context = TestContext::new();
    vendor(&context);
    ok(&run(context.command().args([
        "add",
        "./vendor",
        "--skill",
        "pdf",
        "-a",
        "claude-code",
        "-a",
        "windsurf",
        "--copy",
        "-y",
    ])));
    as_reference_lock(&context);
    ok(&run(context.command().args(["install", "--frozen"])));
    for dir in [".claude/skills/pdf", ".windsurf/skills/pdf"] {
        assert!(is_real_dir(&context.project.join(dir)), "{dir}");
    }
}

// 7. `doctor` on good layouts, with and without `~/.claude`: notes, exit 0.
#[test]
fn doctor_exits_0_with_notes_on_every_layout_add_sync_and_install_write() {
    let layouts: &[&[&str]] = &[
        &["add", "./vendor", "--skill", "*", "-y"],
        &["add", "./vendor", "--skill", "*", "-a", "claude-code", "-y"],
        &["add", "./vendor", "--skill", "*", "-a", "windsurf", "-y"],
        &[
            "add",
            "./vendor",
            "--skill",
            "*",
            "-a",
            "claude-code",
            "-a",
            "cursor",
            "-y",
        ],
        &[
            "add",
            "./vendor",
            "--skill",
            "*",
            "-a",
            "windsurf",
            "-a",
            "claude-code",
            "--copy",
            "-y",
        ],
    ];
    for claude_home in [false, true] {
        for args in layouts {
            let context = TestContext::new();
            if claude_home {
                std::fs::create_dir_all(context.home.join(".claude")).unwrap();
            }
            vendor(&context);
            ok(&run(context.command().args(*args)));
            let (code, document) = doctor_json(&context);
            assert_eq!(code, 0, "{args:?} ~/.claude: {claude_home}\n{document:#}");
            assert_eq!(document["problems"], serde_json::json!([]), "{document:#}");
            let text = document.to_string();
            assert!(!text.contains("remove the folder"), "{text}");
            // A teammate (a CI runner: no agent at all) restoring from the lock.
            let teammate = context.teammate();
            vendor(&teammate);
            ok(&run(teammate.command().args(["install", "--frozen"])));
            let (code, document) = doctor_json(&teammate);
            assert_eq!(code, 0, "install after {args:?}\n{document:#}");
        }
    }
    // `sync -a claude-code`: packaged skills linked from `.agents/skills`, read by Claude Code
    // through `.claude/skills`, on a machine without `~/.claude`.
    let context = TestContext::new();
    let package = crate::sync::package(context.temp.path(), "with-skills", &["packaged"]);
    write(
        &context.project.join("package.json"),
        serde_json::json!({"name": "app", "version": "1.0.0"}).to_string(),
    );
    crate::sync::npm_install(&context, &[&package]);
    ok(&run(context.command().args([
        "sync",
        "-a",
        "claude-code",
        "-y",
    ])));
    let (code, document) = doctor_json(&context);
    assert_eq!(code, 0, "{document:#}");
}
