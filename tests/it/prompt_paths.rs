//! `prompt --write FILE` writes a file that is usually committed: the locations of the project's
//! skills are relative to the written file's folder, so they hold on every clone; the user's
//! skills (outside the project) are not written at all (issue 27: no `/home/…` in a committed
//! file). On stdout, locations stay absolute and the user's skills are there.

use crate::common::{TestContext, run};
use crate::gitfixture::git;

fn locations(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            line.strip_prefix("<location>")?
                .strip_suffix("</location>")
                .map(str::to_owned)
        })
        .collect()
}

#[test]
fn written_locations_are_relative_to_the_written_file() {
    let context = TestContext::new();
    git(&context.project, &["init", "--quiet"]);
    context.skill(".claude/skills/pdf", "pdf");
    context.skill(".agents/skills/review", "review");
    let global = context.home.join(".claude/skills/mine");
    crate::common::write(
        &global.join("SKILL.md"),
        "---\nname: mine\ndescription: Mine. Use when mine.\n---\nBody.\n",
    );
    std::fs::create_dir_all(context.project.join("docs")).unwrap();
    std::fs::create_dir_all(context.project.join("src")).unwrap();

    let output = run(context.command().args(["prompt", "--write", "AGENTS.md"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let text = std::fs::read_to_string(context.project.join("AGENTS.md")).unwrap();
    let global_location = global.join("SKILL.md").to_string_lossy().into_owned();
    assert!(!text.contains(&global_location), "{text}");
    assert_eq!(
        locations(&text),
        [
            ".agents/skills/review/SKILL.md",
            ".claude/skills/pdf/SKILL.md"
        ],
        "{text}"
    );

    // A file in a subfolder: `../`; from a subfolder, the path typed is relative to it.
    let output = run(context
        .command()
        .current_dir(context.project.join("src"))
        .args(["prompt", "--write", "../docs/SKILLS.md"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let text = std::fs::read_to_string(context.project.join("docs/SKILLS.md")).unwrap();
    assert_eq!(
        locations(&text),
        [
            "../.agents/skills/review/SKILL.md",
            "../.claude/skills/pdf/SKILL.md",
        ],
        "{text}"
    );
    assert!(!context.project.join("src/docs").exists());

    // An activation block names the skill's folder the same way.
    let output =
        run(context
            .command()
            .args(["prompt", "--skill", "pdf", "--write", "docs/PDF.md"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let text = std::fs::read_to_string(context.project.join("docs/PDF.md")).unwrap();
    assert!(
        text.contains("Skill directory: ../.claude/skills/pdf\n"),
        "{text}"
    );
    assert!(
        !text.contains(&*context.project.to_string_lossy()),
        "{text}"
    );

    // Printed, not written: absolute, as before.
    let output = run(context.command().arg("prompt"));
    let printed = locations(&output.stdout);
    assert!(
        printed
            .iter()
            .all(|l| std::path::Path::new(l).is_absolute()),
        "{printed:?}"
    );
}
