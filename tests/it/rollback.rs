//! A commit whose lockfile cannot be written, and whose undo fails too: the run says which
//! folders it left changed, keeps its journal and the staging dir that holds what they replaced,
//! and no later run writes anything until it has put them back; once the cause is gone, the next
//! run does, and the project is as it was before the failed run.
//!
//! Placing a folder and taking it out again are the same renames, so one cause cannot let the
//! first through and stop the second; the append-only attribute does (`chattr +a`: entries may
//! be added to a folder, not taken out), with the project folder immutable (`chattr +i`) so that
//! the lockfile cannot be written. Both need root (`CAP_LINUX_IMMUTABLE`) and `chattr`
//! (e2fsprogs, which `.ci/run` installs); as another user the test checks nothing (the unit
//! tests of `src/install/transaction.rs` provoke the same failure by hand, for every user).

use std::path::{Path, PathBuf};

use crate::common::{TestContext, run};
use crate::hostile::{Canary, says, skill_md, snapshot};

/// A file attribute set for the duration of a test (`+a`, `+i`), removed again on drop.
struct Attr(PathBuf, &'static str);

impl Attr {
    fn set(path: &Path, attr: &'static str) -> Attr {
        let status = std::process::Command::new("chattr")
            .arg(format!("+{attr}"))
            .arg(path)
            .status()
            .expect("`chattr` runs (e2fsprogs)");
        assert!(status.success(), "chattr +{attr} {}", path.display());
        Attr(path.to_path_buf(), attr)
    }
}

impl Drop for Attr {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg(format!("-{}", self.1))
            .arg(&self.0)
            .status();
    }
}

/// The journals in the cache, and this tool's folders in the agent dir.
fn leftovers(context: &TestContext) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut journals = Vec::new();
    let mut stack = vec![context.temp.path().join("cache")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "journal") {
                journals.push(path);
            }
        }
    }
    let staging = std::fs::read_dir(context.project.join(".claude/skills"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".skills-")
        })
        .collect();
    (journals, staging)
}

#[test]
fn a_failed_rollback_is_kept_and_finished_by_the_next_run() {
    let context = TestContext::new();
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(context.temp.path()).unwrap());
    if uid != 0 {
        // No attribute, permission or timing lets another user place a folder and then not take
        // it out; the unit tests of `src/install/transaction.rs` cover the logic for every user.
        return;
    }
    let canary = Canary::plant(&context);
    for name in ["alpha", "beta"] {
        context.write(&format!("vendor/{name}/SKILL.md"), skill_md(name));
    }
    let add = |skill: &str| {
        run(context
            .command()
            .args(["add", "./vendor", "-s", skill, "-a", "claude-code", "-y"]))
    };
    let output = add("alpha");
    assert_eq!(output.code, 0, "{}", output.stderr);
    let agent_dir = context.project.join(".claude/skills");
    let lock = context.project.join("skills-lock.json");
    let lock_before = std::fs::read(&lock).unwrap();
    let alpha_before = snapshot(&agent_dir.join("alpha"));

    // `beta` goes in, the lock cannot be written, and `beta` cannot come out again.
    let blocked = (Attr::set(&agent_dir, "a"), Attr::set(&context.project, "i"));
    let output = add("beta");
    assert_eq!(output.code, 2, "{}", output.stderr);
    let beta = agent_dir.join("beta");
    says(
        &output.stderr,
        &[
            &format!(
                "error: installing failed, and a folder could not be put back as it was: `{}`",
                beta.display()
            ),
            "caused by:",
            "skills-lock.json",
            ".skills-staging-",
            "keep(s) what putting them back needs",
            "the next `skills add`, `remove`, `update`, `install` or `sync` here puts them back",
        ],
    );
    let (journals, staging) = leftovers(&context);
    assert_eq!(journals.len(), 1, "the journal is kept: {journals:?}");
    assert_eq!(staging.len(), 1, "the staging dir is kept: {staging:?}");
    says(&output.stderr, &[&journals[0].display().to_string()]);
    assert!(beta.join("SKILL.md").is_file(), "left changed, as it says");
    assert_eq!(std::fs::read(&lock).unwrap(), lock_before);

    // Still blocked: the next run writes nothing, and says why.
    let output = run(context.command().args(["remove", "alpha", "-y"]));
    assert_eq!(output.code, 2, "{}", output.stderr);
    says(
        &output.stderr,
        &[
            "putting back what a failed `skills` run changed cannot be finished yet",
            &beta.display().to_string(),
            "nothing is written here until it is",
        ],
    );
    assert_eq!(snapshot(&agent_dir.join("alpha")), alpha_before);
    assert_eq!(leftovers(&context), (journals.clone(), staging.clone()));

    // Unblocked: the next run puts `beta` back out, then does its own work.
    drop(blocked);
    let output = run(context.command().arg("install"));
    assert_eq!(output.code, 0, "{}", output.stderr);
    says(
        &output.stderr,
        &["put back what a failed `skills` run had left changed: 1 folder(s)"],
    );
    assert!(!beta.exists());
    assert_eq!(snapshot(&agent_dir.join("alpha")), alpha_before);
    assert_eq!(std::fs::read(&lock).unwrap(), lock_before);
    assert_eq!(leftovers(&context), (Vec::new(), Vec::new()));
    let output = run(context.command().args(["manifest", "--check"]));
    assert_eq!(output.code, 0, "{}", output.stderr);

    // And the install that failed works now.
    let output = add("beta");
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(beta.join("SKILL.md").is_file());
    canary.assert_untouched();
}
