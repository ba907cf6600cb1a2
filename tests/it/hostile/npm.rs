//! A hostile npm package in `node_modules`: `skills sync` installs what packages ship, so a
//! package's skill names, links and folders are input. Nothing is read from or written to
//! outside the package and the project.

use std::os::unix::fs::symlink;

use serde_json::json;

use super::{Canary, says, skill_md};
use crate::common::{TestContext, run, write};

/// A project that depends on `evil`, whose package folder `shape` fills.
fn project(shape: impl FnOnce(&std::path::Path, &Canary)) -> (TestContext, Canary) {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    write(
        &context.project.join("package.json"),
        json!({"name": "app", "version": "1.0.0", "dependencies": {"evil": "1.0.0"}}).to_string(),
    );
    let package = context.project.join("node_modules/evil");
    write(
        &package.join("package.json"),
        json!({"name": "evil", "version": "1.0.0"}).to_string(),
    );
    shape(&package, &canary);
    (context, canary)
}

#[test]
fn packaged_skills_cannot_reach_outside() {
    let (context, canary) = project(|package, canary| {
        // A skill that carries a link to the user's key.
        write(&package.join("skills/leaky/SKILL.md"), skill_md("leaky"));
        symlink(
            canary.root.join(".ssh/id_ed25519"),
            package.join("skills/leaky/key"),
        )
        .unwrap();
        // A skill folder that is itself a link to a folder outside.
        symlink(canary.root.join("skills/pdf"), package.join("skills/pdf")).unwrap();
        // A name that is a path.
        write(
            &package.join("skills/climb/SKILL.md"),
            "---\nname: ../../../outside/x\ndescription: Climbs. Use when asked.\n---\nx\n",
        );
    });
    for args in [&["sync", "-y", "--copy"][..], &["sync", "-y"]] {
        let output = run(context.command().args(args));
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
        canary.assert_untouched();
        // The key was not copied in, and nothing landed for the climbing name.
        let found = walk(&context.project.join(".agents"));
        assert!(
            !found
                .iter()
                .any(|(_, bytes)| bytes.as_slice() == b"PRIVATE KEY\n"),
            "{args:?}: the key was copied into the project: {}",
            output.stderr
        );
        assert!(!context.temp.path().join("outside/x").exists());
        says(
            &output.stderr,
            &[
                "`key` is a symlink to",
                "leads outside the source",
                "cannot be a folder name",
            ],
        );
    }
}

/// Every regular file under `dir` (not following links) with its bytes.
fn walk(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    super::snapshot(dir)
        .into_iter()
        .filter_map(|(path, entry)| match entry {
            super::Entry::File(bytes) => Some((path, bytes)),
            _ => None,
        })
        .collect()
}
