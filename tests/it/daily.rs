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

// 5. `install` with one edited skill names it and restores the others (fixed on main by the
// install pipeline, cae5425; kept here so that it stays so).
#[test]
fn install_with_one_edited_skill_names_it_and_restores_the_others() {
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
    let skills = context.project.join(".claude/skills");
    let path = skills.join("pdf/SKILL.md");
    let edited = format!("{}\nMine.\n", std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &edited).unwrap();
    std::fs::remove_dir_all(skills.join("notes")).unwrap();
    let output = run(context.command().arg("install"));
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert!(output.stderr.contains("`pdf`"), "{}", output.stderr);
    assert!(
        output.stderr.contains("the others were restored"),
        "{}",
        output.stderr
    );
    assert!(skills.join("notes/SKILL.md").is_file(), "notes restored");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

// 6. No hint goes round in circles or loses work.
#[test]
fn frozen_install_of_an_edited_hand_made_skill_points_to_manifest_not_to_update() {
    let context = TestContext::new();
    context.skill(".claude/skills/mine", "mine");
    ok(&run(context.command().arg("manifest")));
    let path = context.project.join(".claude/skills/mine/SKILL.md");
    let edited = format!("{}\nMore steps.\n", std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &edited).unwrap();
    let output = run(context.command().args(["install", "--frozen"]));
    assert_eq!(output.code, 1, "{}", output.stderr);
    assert!(
        output
            .stderr
            .contains("`skills manifest` records the edits"),
        "{}",
        output.stderr
    );
    assert!(
        !output.stderr.contains("skills update"),
        "`update` has no upstream to follow here: {}",
        output.stderr
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // And the hint works: recorded, the frozen install passes.
    ok(&run(context.command().arg("manifest")));
    ok(&run(context.command().args(["install", "--frozen"])));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

#[test]
fn update_after_manifest_recorded_edits_keeps_them_unless_forced() {
    let context = TestContext::new();
    context.skill("vendor/pdf", "pdf");
    ok(&run(context.command().args([
        "add",
        "./vendor/pdf",
        "-a",
        "claude-code",
        "-y",
    ])));
    // Upstream moves on; the user edits the installed copy.
    write(
        &context.project.join("vendor/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Does pdf things, v2. Use when pdf.\n---\n# pdf\n\nNew steps.\n",
    );
    let copy = context.project.join(".claude/skills/pdf/SKILL.md");
    let edited = format!(
        "{}\nMy own note.\n",
        std::fs::read_to_string(&copy).unwrap()
    );
    std::fs::write(&copy, &edited).unwrap();
    let output = run(context.command().arg("update"));
    assert_eq!(output.code, 1, "{}", output.stderr);
    // The user records the edit, and runs update again: the edit is still the user's.
    let output = run(context.command().arg("manifest"));
    ok(&output);
    assert!(output.stderr.contains("local edits"), "{}", output.stderr);
    let output = run(context.command().arg("update"));
    assert_eq!(output.code, 1, "{}\n{}", output.stdout, output.stderr);
    assert!(output.stderr.contains("local edits"), "{}", output.stderr);
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), edited, "edit kept");
    // `--force` says it means it.
    ok(&run(context.command().args(["update", "--force"])));
    assert!(
        std::fs::read_to_string(&copy)
            .unwrap()
            .contains("New steps.")
    );
    assert!(
        lock(&context)["skills"]["pdf"].get("localEdits").is_none(),
        "the source's bytes again: {}",
        lock(&context)
    );
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

// 8. Project commands work on the project's skills, not on one user's `-g` skills.
#[test]
fn lint_and_prompt_write_in_a_project_leave_the_users_skills_out() {
    let context = TestContext::new();
    context.skill(".claude/skills/pdf", "pdf");
    // A user skill that fails lint: its name is not its folder's.
    write(
        &context.home.join(".claude/skills/mine/SKILL.md"),
        "---\nname: mine-x\ndescription: Mine. Use when mine.\n---\n# Mine\n\nSteps.\n",
    );
    let output = run(context.command().args(["lint", "--strict"]));
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
    assert!(!output.stdout.contains("mine"), "{}", output.stdout);
    let output = run(context.command().args(["lint", "--strict", "-g"]));
    assert_eq!(output.code, 1, "`-g` lints the user's: {}", output.stdout);
    ok(&run(context.command().args([
        "prompt",
        "--write",
        "AGENTS.md",
    ])));
    let text = std::fs::read_to_string(context.project.join("AGENTS.md")).unwrap();
    assert!(text.contains(".claude/skills/pdf/SKILL.md"), "{text}");
    assert!(
        !text.contains("mine"),
        "no user skill in a committed file: {text}"
    );
    // On stdout, what the agent sees: the user's skills too.
    let output = run(context.command().arg("prompt"));
    assert!(output.stdout.contains("mine-x"), "{}", output.stdout);
}

// 9. Messages and output.
#[test]
fn prompt_write_into_a_missing_folder_says_the_folder_is_missing() {
    let context = TestContext::new();
    context.skill(".claude/skills/pdf", "pdf");
    let output = run(context.command().args(["prompt", "--write", "docs/NEW.md"]));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("the folder `docs` does not exist")
            && output.stderr.contains("mkdir -p"),
        "{}",
        output.stderr
    );
    assert!(!output.stderr.contains("symlink"), "{}", output.stderr);
}

#[test]
fn remove_json_dry_run_prints_json_and_says_the_lock_entry_was_removed() {
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
    let output = run(context
        .command()
        .args(["remove", "pdf", "--json", "--dry-run"]));
    ok(&output);
    let document: Value = serde_json::from_str(&output.stdout)
        .unwrap_or_else(|_| panic!("JSON on stdout: {}", output.stdout));
    assert_eq!(document["dry_run"], true);
    assert_eq!(
        document["removed"][0]["lock_entry"], "removed",
        "{document:#}"
    );
    assert!(
        context.project.join(".claude/skills/pdf").exists(),
        "a dry run"
    );
    let output = run(context.command().args(["remove", "pdf", "--json", "-y"]));
    ok(&output);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(document["dry_run"], false);
    assert_eq!(
        document["removed"][0]["lock_entry"], "removed",
        "it was in the lock and is no more: {document:#}"
    );
    assert!(lock(&context)["skills"].get("pdf").is_none());
}

#[test]
fn serve_is_silent_about_copies_of_one_skill_for_several_agents() {
    use std::io::Write as _;
    let context = TestContext::new();
    vendor(&context);
    ok(&run(context.command().args([
        "add",
        "./vendor",
        "--skill",
        "*",
        "-a",
        "claude-code",
        "-a",
        "windsurf",
        "--copy",
        "-y",
    ])));
    let mut child = context
        .std_command()
        .args(["serve", "--stdio", "--no-watch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    // Wait for the answer to the last request before the end of input.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut answers = String::new();
    while !answers.contains("\"id\":2") {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut stdout, &mut line).unwrap() == 0 {
            break;
        }
        answers.push_str(&line);
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(answers.contains("skill://pdf/SKILL.md"), "{answers}");
    assert!(!stderr.contains("duplicate-name"), "{stderr}");
}

#[test]
fn list_at_a_wide_terminal_keeps_descriptions_readable_beside_many_agents() {
    use crate::terminal::until_exit;
    let context = TestContext::new();
    vendor(&context);
    ok(&run(context.command().args(["add", "./vendor", "--all"])));
    // `COLUMNS`, as the report had it: the width `stty` sets in the pseudo-terminal can lose a
    // race with the terminal's own default under load.
    let mut session = wide_terminal(&context, &["list"]);
    let (text, code) = until_exit(&mut session);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("Does pdf things. Use when the user asks"),
        "the description keeps its share of 160 columns:\n{text}"
    );
}

#[test]
fn add_dry_run_over_an_edited_skill_exits_1_as_the_run_does() {
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
    let path = context.project.join(".claude/skills/pdf/SKILL.md");
    let edited = format!("{}\nMine.\n", std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &edited).unwrap();
    let args = ["add", "./vendor", "--skill", "*", "-a", "claude-code", "-y"];
    let dry = run(context.command().args(args).arg("--dry-run"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    let real = run(context.command().args(args));
    assert_eq!(real.code, 1, "{}", real.stderr);
    assert_eq!(dry.code, real.code, "{}", dry.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

#[test]
fn add_again_in_another_layout_leaves_no_old_copy_behind() {
    let context = TestContext::new();
    vendor(&context);
    ok(&run(context
        .command()
        .args(["add", "./vendor", "--skill", "pdf", "-y"])));
    let canonical = context.project.join(".agents/skills/pdf");
    assert!(is_real_dir(&canonical));
    assert!(is_link(&context.project.join(".claude/skills/pdf")));
    ok(&run(context.command().args([
        "add",
        "./vendor",
        "--skill",
        "pdf",
        "-a",
        "claude-code",
        "-y",
    ])));
    assert!(is_real_dir(&context.project.join(".claude/skills/pdf")));
    assert!(
        !canonical.exists() && !is_link(&canonical),
        "the old canonical copy is gone"
    );
    let (code, document) = doctor_json(&context);
    assert_eq!(code, 0, "{document:#}");
}

#[test]
fn remove_without_names_at_a_terminal_picks_and_says_which_have_edits() {
    use crate::terminal::{in_terminal, until_exit};
    use expectrl::Expect as _;
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
    let path = context.project.join(".claude/skills/pdf/SKILL.md");
    let edited = format!("{}\nMine.\n", std::fs::read_to_string(&path).unwrap());
    std::fs::write(&path, &edited).unwrap();
    let mut session = in_terminal(&context, 120, &["remove"]);
    session.expect("Skills to remove").unwrap();
    session.expect("enter confirm").unwrap();
    session.send("pdf").unwrap();
    session.expect("1 of 2 shown").unwrap();
    session.send("\r").unwrap();
    session
        .expect("it has local edits, which are lost")
        .unwrap();
    session.expect("Proceed").unwrap();
    session.send("n").unwrap();
    let (text, _) = until_exit(&mut session);
    assert!(path.is_file(), "kept: {text}");
    assert!(context.project.join(".claude/skills/notes").is_dir());
}

#[test]
fn update_without_a_lockfile_is_an_error_as_check_is() {
    let context = TestContext::new();
    let check = run(context.command().arg("check"));
    let update = run(context.command().arg("update"));
    assert_eq!(check.code, 2, "{}", check.stderr);
    assert_eq!(update.code, check.code, "{}", update.stderr);
    assert!(update.stderr.contains("no lockfile"), "{}", update.stderr);
}

#[test]
fn check_with_its_source_out_of_reach_says_so_once_for_all_its_skills() {
    use crate::add::{Remote, fixture};
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    ok(&run(context
        .command()
        .args([
            "add",
            "acme/flat",
            "--skill",
            "*",
            "-a",
            "claude-code",
            "-y",
        ])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url)));
    let skills = lock(&context)["skills"].as_object().unwrap().len();
    assert!(skills > 1, "{}", lock(&context));
    let output = run(context
        .command()
        .arg("check")
        .env("SKILLS_GITHUB_URL", "git://127.0.0.1:9"));
    assert_eq!(output.code, 2, "{}", output.stderr);
    let warnings: Vec<&str> = output
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warnings.len(),
        1,
        "one warning for one source:\n{}",
        output.stderr
    );
}

#[test]
fn add_all_reports_each_skill_on_one_short_line() {
    let context = TestContext::new();
    vendor(&context);
    let output = run(context.command().args(["add", "./vendor", "--all"]));
    ok(&output);
    assert!(
        output.stderr.len() < 4096,
        "{} bytes:\n{}",
        output.stderr.len(),
        output.stderr
    );
    assert!(
        output.stderr.contains("other agent dirs"),
        "{}",
        output.stderr
    );
}

#[test]
fn unknown_agent_and_skill_names_suggest_the_near_ones() {
    let context = TestContext::new();
    vendor(&context);
    let output = run(context
        .command()
        .args(["add", "./vendor", "--skill", "pdf", "-a", "claude", "-y"]));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("did you mean `claude-code`"),
        "{}",
        output.stderr
    );
    let output = run(context
        .command()
        .args(["add", "./vendor", "--skill", "pfd", "-y"]));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("did you mean `--skill pdf`"),
        "{}",
        output.stderr
    );
}

#[test]
fn cache_clean_removes_the_skills_use_ran() {
    let context = TestContext::new();
    context.skill("vendor/pdf", "pdf");
    let output = run(context.command().args(["use", "./vendor/pdf"]));
    ok(&output);
    let used = context.temp.path().join("cache/use");
    assert!(used.is_dir(), "`use` caches the skill: {}", output.stderr);
    let output = run(context.command().args(["cache", "clean"]));
    ok(&output);
    assert!(!used.exists(), "{}", output.stderr);
    assert!(output.stderr.contains("`use/`"), "{}", output.stderr);
}

#[test]
fn completions_complete_agent_ids() {
    let context = TestContext::new();
    for shell in ["bash", "zsh", "fish"] {
        let output = run(context.command().args(["completions", shell]));
        ok(&output);
        assert!(output.stdout.contains("claude-code"), "{shell}");
        assert!(output.stdout.contains("windsurf"), "{shell}");
    }
}

/// What the dynamic completion (`SKILLS_COMPLETE=<shell> skills -- <words>`, as the script of
/// `source <(SKILLS_COMPLETE=bash skills)` calls it at each Tab) offers for the last word.
fn complete(context: &TestContext, shell: &str, words: &[&str]) -> Vec<String> {
    let output = run(context
        .command()
        .env("SKILLS_COMPLETE", shell)
        // Where bash's and zsh's scripts say the cursor is: the last word.
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(words));
    ok(&output);
    assert!(
        output.stderr.is_empty(),
        "a Tab prints nothing else: {}",
        output.stderr
    );
    output
        .stdout
        .lines()
        .map(|line| {
            line.split(['\t', ':'])
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[test]
fn dynamic_completion_offers_installed_skill_names_to_remove_update_check_and_prompt() {
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
    let names = |candidates: &[String]| -> Vec<String> {
        candidates
            .iter()
            .filter(|c| !c.starts_with('-'))
            .cloned()
            .collect()
    };
    for shell in ["bash", "zsh", "fish"] {
        for words in [
            &["skills", "remove", ""][..],
            &["skills", "rm", "--skill", ""],
            &["skills", "update", ""],
            &["skills", "check", ""],
            &["skills", "prompt", "--skill", ""],
        ] {
            assert_eq!(
                names(&complete(&context, shell, words)),
                ["notes", "pdf"],
                "{shell} {words:?}"
            );
        }
        assert_eq!(
            complete(&context, shell, &["skills", "remove", "p"]),
            ["pdf"],
            "{shell}"
        );
        // Not where a name is a source's skill, or a path.
        assert!(
            !complete(
                &context,
                shell,
                &["skills", "add", "./vendor", "--skill", ""]
            )
            .contains(&"pdf".to_owned()),
            "{shell}"
        );
    }
    // Fish shows each skill's description beside its name.
    let output = run(context
        .command()
        .env("SKILLS_COMPLETE", "fish")
        .args(["--", "skills", "remove", ""]));
    assert!(
        output.stdout.lines().any(|l| l.starts_with("pdf\t")),
        "{}",
        output.stdout
    );
    // The shell's script: it calls this binary back with the same variable.
    let output = run(context.command().env("SKILLS_COMPLETE", "bash"));
    ok(&output);
    assert!(
        output.stdout.contains("SKILLS_COMPLETE=\"bash\""),
        "{}",
        output.stdout
    );
    // The static scripts stay as they were, and the variable unset is a normal run.
    ok(&run(context.command().args(["completions", "bash"])));
    let output = run(context.command().args(["list", "--json"]));
    ok(&output);
    assert!(
        output.stdout.contains("\"version\": 1"),
        "{}",
        output.stdout
    );
}

// 10. Offline by content: the lock's URLs resolve elsewhere now (another mirror, another
// network), and this machine holds every locked byte.
#[test]
fn frozen_offline_install_restores_when_the_locks_urls_resolve_elsewhere() {
    use crate::add::{Remote, fixture};
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    ok(&run(context
        .command()
        .args([
            "add",
            "acme/flat",
            "--skill",
            "*",
            "-a",
            "claude-code",
            "-y",
        ])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url)));
    let skills = context.project.join(".claude/skills");
    let before = crate::add::tree(&skills);
    // Another network: `owner/repo` now means another host, which is not reachable.
    let elsewhere = "git://127.0.0.1:9";
    let restore = || {
        run(context
            .command()
            .args(["install", "--frozen", "--offline"])
            .env("SKILLS_GITHUB_URL", elsewhere))
    };
    // From the store.
    std::fs::remove_dir_all(&skills).unwrap();
    let output = restore();
    ok(&output);
    assert_eq!(crate::add::tree(&skills), before);
    // From the git cache alone (the store is gone): the commit is found by its id.
    std::fs::remove_dir_all(&skills).unwrap();
    std::fs::remove_dir_all(context.temp.path().join("cache/store")).unwrap();
    let output = restore();
    ok(&output);
    assert_eq!(crate::add::tree(&skills), before);
}

/// `skills args…` in a pseudo-terminal, with `COLUMNS=160` in its environment.
fn wide_terminal(context: &TestContext, args: &[&str]) -> expectrl::session::OsSession {
    let skills = context.std_command();
    let mut command = std::process::Command::new(skills.get_program());
    command.args(args).current_dir(&context.project);
    for (key, value) in skills.get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    command.env("COLUMNS", "160").env("TERM", "xterm");
    let mut session = expectrl::Session::spawn(command).expect("spawn in a pty");
    session.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    session
}

/// Every file under `dir` with its bytes, by path relative to it.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for path in crate::add::tree(dir) {
        if !path.ends_with('/') {
            out.push((path.clone(), std::fs::read(dir.join(&path)).unwrap()));
        }
    }
    out
}

// 10, last part: another skill of a repository the cache holds, with no network.
#[test]
fn add_and_use_offline_open_another_skill_of_a_cached_repository_without_the_network() {
    use crate::add::{Remote, fixture};
    let context = TestContext::new();
    let remote = Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let base_url = remote.daemon.base_url.clone();
    ok(&run(context
        .command()
        .args([
            "add",
            "acme/flat",
            "--skill",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ])
        .env("SKILLS_GITHUB_URL", &base_url)));
    let commit = lock(&context)["skills"]["pdf-forms"]["commit"]
        .as_str()
        .unwrap()
        .to_owned();
    // The network is gone: the daemon is stopped, its port closed.
    drop(remote);
    let offline = |args: &[&str]| {
        run(context
            .command()
            .args(args)
            .env("SKILLS_GITHUB_URL", &base_url))
    };
    let output = offline(&[
        "add",
        "acme/flat",
        "--skill",
        "csv-tools",
        "-a",
        "claude-code",
        "-y",
        "--offline",
    ]);
    ok(&output);
    let installed = context.project.join(".claude/skills/csv-tools");
    assert_eq!(
        files(&installed),
        files(&fixture("flat").join("skills/csv-tools")),
        "byte for byte"
    );
    let entry = &lock(&context)["skills"]["csv-tools"];
    assert_eq!(entry["commit"], commit.as_str(), "the commit the cache saw");
    assert_eq!(entry["source"], "acme/flat");
    // `SKILLS_OFFLINE=1` does the same, and `use` too.
    let output = run(context
        .command()
        .args(["use", "acme/flat@release-notes"])
        .env("SKILLS_GITHUB_URL", &base_url)
        .env("SKILLS_OFFLINE", "1"));
    ok(&output);
    assert!(output.stdout.contains("release-notes"), "{}", output.stdout);
    let output = offline(&["use", "acme/flat", "--skill", "release-notes", "--offline"]);
    ok(&output);
    // A repository no run fetched: a clear error that names `--offline`, and nothing written.
    let before = std::fs::read(context.project.join("skills-lock.json")).unwrap();
    let output = offline(&[
        "add",
        "acme/never",
        "--skill",
        "x",
        "-a",
        "claude-code",
        "-y",
        "--offline",
    ]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output
            .stderr
            .contains("offline, and the git cache holds no copy of")
            && output.stderr.contains("acme/never")
            && output.stderr.contains("without `--offline`"),
        "{}",
        output.stderr
    );
    // A branch the cache never saw.
    let output = offline(&["add", "acme/flat#dev", "--skill", "x", "-y", "--offline"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("no run fetched `dev`")
            && output.stderr.contains("without `--offline`"),
        "{}",
        output.stderr
    );
    assert_eq!(
        std::fs::read(context.project.join("skills-lock.json")).unwrap(),
        before
    );
}
