//! Two different skills with one `computedHash`: the reference's hash runs each file's name and
//! bytes together with no separator, so `SKILL.md` + `templates.md` and a single `SKILL.md` that
//! holds both runs hash the same. A fork built that way, installed anywhere on the machine, must
//! never be what another project restoring the original gets, from the shared store or from the
//! cache of `skills use`.

use crate::add::{Remote, as_reference_lock};
use crate::common::{TestContext, run, write};
use crate::hostile::{Canary, skill_md};

const TEMPLATES: &str = "Use the table template.\n";

/// The original: `SKILL.md` and `templates.md`.
fn original(root: &std::path::Path) -> std::path::PathBuf {
    let dir = root.join("content/original");
    write(&dir.join("skills/helper/SKILL.md"), skill_md("helper"));
    write(&dir.join("skills/helper/templates.md"), TEMPLATES);
    dir
}

/// The fork: one `SKILL.md` whose bytes are the original's names and bytes run together, with
/// the fork's own instructions where the original had its templates.
fn fork(root: &std::path::Path) -> std::path::PathBuf {
    let dir = root.join("content/fork");
    write(
        &dir.join("skills/helper/SKILL.md"),
        format!("{}templates.md{TEMPLATES}", skill_md("helper")),
    );
    dir
}

#[test]
fn a_computed_hash_collision_reaches_neither_the_store_nor_use() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let remote = Remote::new(&context);
    remote.upstream("acme/helper", &original(context.temp.path()));
    remote.upstream("mallory/helper", &fork(context.temp.path()));
    let github = remote.daemon.base_url.clone();
    let skills = |dir: &std::path::Path, args: &[&str]| {
        run(context
            .command()
            .current_dir(dir)
            .args(args)
            .env("SKILLS_GITHUB_URL", &github))
    };
    // Another project on this machine installs the fork, and restores it once (which keeps it in
    // the shared store).
    let other = context.temp.path().join("other-project");
    std::fs::create_dir_all(&other).unwrap();
    let output = skills(
        &other,
        &["add", "mallory/helper", "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    std::fs::remove_dir_all(other.join(".claude")).unwrap();
    let output = skills(&other, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let fork_lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(other.join("skills-lock.json")).unwrap()).unwrap();

    // This project locks the original, as `npx skills` writes it (no `files`, no commit).
    let output = skills(
        &context.project,
        &["add", "acme/helper", "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    let locked = as_reference_lock(&context);
    assert_eq!(
        locked["skills"]["helper"]["computedHash"], fork_lock["skills"]["helper"]["computedHash"],
        "the pair shares its computedHash"
    );
    std::fs::remove_dir_all(context.project.join(".claude")).unwrap();
    let output = skills(&context.project, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let installed = context.project.join(".claude/skills/helper");
    assert_eq!(
        std::fs::read_to_string(installed.join("SKILL.md")).unwrap(),
        skill_md("helper"),
        "the original's SKILL.md, not the fork's"
    );
    assert_eq!(
        std::fs::read_to_string(installed.join("templates.md")).unwrap(),
        TEMPLATES
    );

    // `use`: the fork's cached folder is not the original's.
    let output = skills(&context.project, &["use", "mallory/helper"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(output.stdout.contains("templates.md"), "{}", output.stdout);
    let output = skills(&context.project, &["use", "acme/helper"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        !output.stdout.contains(&format!("templates.md{TEMPLATES}")),
        "the original's prompt, not the fork's: {}",
        output.stdout
    );
    assert!(
        output.stdout.contains("<file>templates.md</file>"),
        "{}",
        output.stdout
    );
    canary.assert_untouched();
}
