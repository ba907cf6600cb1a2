//! The hostile-source suite: every attack of the threat model in `SECURITY.md`, as the input an
//! attacker controls (a git tree, an archive, a well-known index, an npm package, a lockfile, a
//! project checkout). Each test plants a canary outside the project, runs the real binary, and
//! asserts a clear error, the canary untouched and, where the command is refused as a whole,
//! the project unchanged.

mod addresses;
mod archive;
mod checkout;
mod collision;
mod container;
mod git;
mod lockfile;
mod npm;
mod prompt_markers;
mod provenance;
mod redteam_leaks;
mod redteam_pipeline;
mod redteam_writes;
mod serve;
mod shared_root;
mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{TestContext, write};

/// A folder outside the project with files an attacker would like to overwrite, delete or read:
/// a shell rc file, a key, a folder named like a skill. It must stay exactly as it was.
pub struct Canary {
    pub root: PathBuf,
    pub before: BTreeMap<PathBuf, Entry>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    File(Vec<u8>),
    Dir,
    Link(PathBuf),
}

impl Canary {
    /// Plants the canary at `<temp>/outside`, beside the project and the home.
    pub fn plant(context: &TestContext) -> Canary {
        let root = context.temp.path().join("outside");
        write(&root.join(".bashrc"), "# the user's shell\n");
        write(&root.join(".ssh/id_ed25519"), "PRIVATE KEY\n");
        write(
            &root.join("skills/pdf/SKILL.md"),
            "---\nname: pdf\ndescription: The user's own pdf skill.\n---\nmine\n",
        );
        write(&root.join("skills/pdf/notes.md"), "my notes\n");
        Canary {
            before: snapshot(&root),
            root,
        }
    }

    /// Panics, naming the difference, when anything under the canary changed.
    #[track_caller]
    pub fn assert_untouched(&self) {
        let after = snapshot(&self.root);
        assert_eq!(self.before, after, "the canary outside the project changed");
    }
}

/// Every path under `root` (not following links) with its content.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let entry = if meta.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&path).unwrap())
            } else if meta.is_dir() {
                stack.push(path.clone());
                Entry::Dir
            } else {
                Entry::File(std::fs::read(&path).unwrap())
            };
            out.insert(rel, entry);
        }
    }
    out
}

/// The project as it was before a command: `unchanged()` checks nothing was written.
pub struct Before {
    root: PathBuf,
    before: BTreeMap<PathBuf, Entry>,
}

impl Before {
    pub fn of(root: &Path) -> Before {
        Before {
            root: root.to_path_buf(),
            before: snapshot(root),
        }
    }

    #[track_caller]
    pub fn assert_unchanged(&self) {
        assert_eq!(
            self.before,
            snapshot(&self.root),
            "{} changed",
            self.root.display()
        );
    }
}

/// A skill's `SKILL.md`.
pub fn skill_md(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n# {name}\n")
}

/// Asserts that `text` holds each of `needles`.
#[track_caller]
pub fn says(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "`{needle}` not in:\n{text}");
    }
}
