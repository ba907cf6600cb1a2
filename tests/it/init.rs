//! `skills init`: a new skill that passes `skills lint --strict`.

use crate::common::{TestContext, run};
use crate::{snapshot, snapshot_output};

#[test]
fn named_skill_passes_strict_lint() {
    let context = TestContext::new();
    snapshot!(context, context.command().args(["init", "pdf-tools"]), @"
    exit: 0
    ----- stdout -----
    ----- stderr -----
    Created `pdf-tools/SKILL.md`
    Next: describe what it does and when to use it, write the steps, then run `skills lint`
    ");
    let output = run(context.command().args(["lint", "--strict", "pdf-tools"]));
    assert_eq!(output.code, 0, "{}", output.stdout);
    let output = run(context
        .command()
        .args(["lint", "--strict", "-v", "pdf-tools"]));
    snapshot_output!(context, output);
}

#[test]
fn unnamed_skill_takes_the_folder_name() {
    let context = TestContext::new();
    let dir = context.project.join("my-skill");
    std::fs::create_dir_all(&dir).unwrap();
    let output = run(context.command().current_dir(&dir).arg("init"));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: my-skill\n"), "{text}");
    let output = run(context.command().args(["lint", "--strict", "my-skill"]));
    assert_eq!(output.code, 0, "{}", output.stdout);
}

#[test]
fn refuses_to_overwrite_and_bad_names() {
    let context = TestContext::new();
    let existing = context.skill("taken", "taken");
    let before = std::fs::read(&existing).unwrap();
    snapshot!(context, context.command().args(["init", "taken"]), @"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: `[TEMP]/project/taken/SKILL.md` already exists

    hint: `skills init` never overwrites a skill; pick another name
    ");
    assert_eq!(std::fs::read(&existing).unwrap(), before);
    snapshot!(context, context.command().args(["init", "My_Skill"]), @"
    exit: 2
    ----- stdout -----
    ----- stderr -----
    error: the name `My_Skill` is not a valid skill name

    hint: try `skills init my-skill`
    ");
    assert!(!context.project.join("My_Skill").exists());
}
