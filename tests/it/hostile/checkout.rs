//! A hostile project checkout: links in the project's own folders that lead outside. A cloned
//! repository is input (the GitHub Action runs `install --frozen` in one), so its agent dirs,
//! skill folders and leftovers are never followed out of the project.

use std::os::unix::fs::symlink;

use super::lockfile::locked;
use super::{Canary, says};
use crate::add::Remote;
use crate::common::{Output, TestContext, run, write};

/// A teammate's checkout of the project locked by [`locked`], with a canary beside it; `plant`
/// shapes the checkout before the command runs.
/// The first context holds the remote's repos: keep it alive as long as the remote.
fn checkout(
    plant: impl FnOnce(&TestContext, &Canary),
) -> (TestContext, Canary, (Remote, TestContext)) {
    let (upstream, remote, lock) = locked();
    let teammate = TestContext::new();
    let canary = Canary::plant(&teammate);
    write(
        &teammate.project.join("skills-lock.json"),
        serde_json::to_string_pretty(&lock).unwrap(),
    );
    plant(&teammate, &canary);
    (teammate, canary, (remote, upstream))
}

fn skills(context: &TestContext, (remote, _): &(Remote, TestContext), args: &[&str]) -> Output {
    let output = run(context
        .command()
        .args(args)
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url));
    assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    output
}

#[test]
fn an_agent_dir_linked_outside_is_refused_by_name() {
    let (context, canary, remote) = checkout(|context, canary| {
        std::fs::create_dir_all(context.project.join(".claude")).unwrap();
        symlink(
            canary.root.join("skills"),
            context.project.join(".claude/skills"),
        )
        .unwrap();
    });
    for args in [
        &["install", "--frozen"][..],
        &["install", "--frozen", "--force"],
        &["remove", "pdf", "-y"],
    ] {
        let output = skills(&context, &remote, args);
        assert_ne!(output.code, 0, "{args:?}: {}", output.stderr);
        says(&output.stderr, &[".claude/skills"]);
        canary.assert_untouched();
    }
}

#[test]
fn a_parent_of_the_agent_dir_linked_outside_is_refused() {
    let (context, canary, remote) = checkout(|context, canary| {
        symlink(&canary.root, context.project.join(".claude")).unwrap();
    });
    let output = skills(&context, &remote, &["install", "--frozen"]);
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &[".claude"]);
    canary.assert_untouched();
}

#[test]
fn a_skill_folder_linked_outside_is_never_written_through() {
    let (context, canary, remote) = checkout(|context, canary| {
        std::fs::create_dir_all(context.project.join(".claude/skills")).unwrap();
        symlink(
            canary.root.join("skills/pdf"),
            context.project.join(".claude/skills/pdf"),
        )
        .unwrap();
    });
    for args in [
        &["install", "--frozen"][..],
        &["install", "--frozen", "--force"],
        &["update", "-y", "--force"],
        &["remove", "pdf", "-y"],
    ] {
        let _ = skills(&context, &remote, args);
        canary.assert_untouched();
    }
}

#[test]
fn leftovers_that_are_links_are_removed_not_followed() {
    let (context, canary, remote) = checkout(|context, canary| {
        let dir = context.project.join(".claude/skills");
        std::fs::create_dir_all(&dir).unwrap();
        // Names of this tool's staging and backup folders, planted as links to the canary.
        symlink(
            canary.root.join("skills"),
            dir.join(".skills-staging-1-abcdef"),
        )
        .unwrap();
        symlink(
            canary.root.join("skills/pdf"),
            dir.join(".skills-old-1-pdf"),
        )
        .unwrap();
    });
    let output = skills(&context, &remote, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    canary.assert_untouched();
    let check = skills(&context, &remote, &["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
}

#[test]
fn a_lockfile_that_is_a_link_is_not_written_through() {
    let (context, canary, remote) = checkout(|context, canary| {
        let lock = context.project.join("skills-lock.json");
        let outside = canary.root.join("skills-lock.json");
        std::fs::rename(&lock, &outside).unwrap();
        symlink(&outside, &lock).unwrap();
    });
    // The canary now includes the lock it points to: whatever `add` does, that file stays.
    let canary = Canary {
        before: super::snapshot(&canary.root),
        root: canary.root.clone(),
    };
    let output = skills(&context, &remote, &["remove", "notes", "-y"]);
    canary.assert_untouched();
    let _ = output;
}

#[test]
fn a_home_agent_dir_linked_outside_home_is_refused() {
    let (context, canary, remote) = checkout(|_, _| {});
    std::fs::create_dir_all(context.home.join(".claude")).unwrap();
    symlink(
        canary.root.join("skills"),
        context.home.join(".claude/skills"),
    )
    .unwrap();
    let output = skills(
        &context,
        &remote,
        &[
            "add",
            "acme/tools",
            "-g",
            "-s",
            "*",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &[".claude/skills"]);
    canary.assert_untouched();
}

/// A skill folder outside the project to install from, in its first version.
fn local_source(context: &TestContext) -> std::path::PathBuf {
    let source = context.temp.path().join("src");
    write(&source.join("pdf/SKILL.md"), super::skill_md("pdf"));
    source
}

/// `ln -s ~/.agents/skills ~/.claude/skills`: one folder shared by two agents with an absolute
/// link that stays in the home. `add`, `update` and `remove` for the user go through it.
#[test]
fn a_home_agent_dir_linked_absolutely_inside_home_is_followed() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let shared = context.home.join(".agents/skills");
    std::fs::create_dir_all(context.home.join(".claude")).unwrap();
    symlink(&shared, context.home.join(".claude/skills")).unwrap();
    let source = local_source(&context);
    let output = run(context
        .command()
        .args(["add", "-g", "-s", "*", "-a", "claude-code", "-y"])
        .arg(&source));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(shared.join("pdf/SKILL.md").is_file());
    let link = std::fs::symlink_metadata(context.home.join(".claude/skills")).unwrap();
    assert!(link.file_type().is_symlink(), "the user's link is kept");

    write(
        &source.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Version two. Use when asked.\n---\n# pdf\n",
    );
    let output = run(context.command().args(["update", "-g", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    says(
        &std::fs::read_to_string(shared.join("pdf/SKILL.md")).unwrap(),
        &["Version two"],
    );

    let output = run(context.command().args(["remove", "pdf", "-g", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(!shared.join("pdf").exists());
    assert!(shared.is_dir(), "the shared folder stays");
    canary.assert_untouched();
}

/// `.claude/skills → /abs/project/.agents/skills`: an absolute link inside the project.
#[test]
fn a_project_agent_dir_linked_absolutely_inside_the_project_is_followed() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let canonical = context.project.join(".agents/skills");
    std::fs::create_dir_all(context.project.join(".claude")).unwrap();
    symlink(&canonical, context.project.join(".claude/skills")).unwrap();
    let source = local_source(&context);
    for agents in ["claude-code", "claude-code,universal"] {
        let output = run(context
            .command()
            .args(["add", "-s", "*", "-a", agents, "-y"])
            .arg(&source));
        assert_eq!(output.code, 0, "{agents}: {}", output.stderr);
        assert!(canonical.join("pdf/SKILL.md").is_file(), "{agents}");
        let listed = run(context.command().args(["list", "--json"]));
        assert_eq!(listed.code, 0, "{}", listed.stderr);
        assert!(listed.stdout.contains("\"pdf\""), "{}", listed.stdout);
        let output = run(context.command().args(["remove", "pdf", "-y"]));
        assert_eq!(output.code, 0, "{agents}: {}", output.stderr);
        assert!(!canonical.join("pdf").exists(), "{agents}");
    }
    canary.assert_untouched();
}

/// An absolute link that climbs out with `..` is still refused, and writes nothing there.
#[test]
fn an_absolute_agent_dir_link_that_climbs_out_is_refused() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    std::fs::create_dir_all(context.project.join(".claude")).unwrap();
    let escape = context
        .project
        .join("..")
        .join(canary.root.file_name().unwrap())
        .join("skills");
    symlink(&escape, context.project.join(".claude/skills")).unwrap();
    let source = local_source(&context);
    let output = run(context
        .command()
        .args(["add", "-s", "*", "-a", "claude-code", "-y"])
        .arg(&source));
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(
        &output.stderr,
        &[".claude/skills", "leads out of the project"],
    );
    let output = run(context.command().args(["remove", "pdf", "-y"]));
    says(&output.stderr, &[".claude/skills"]);
    canary.assert_untouched();
}
