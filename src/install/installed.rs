//! What is installed now: a folder read back (without limits: it is already there), and how two
//! file inventories (the lock's `files`, a folder read back) differ. Reading placements on the
//! way to a write goes through the transaction's handles (the pipeline's plan, with
//! [`super::Transaction::edited`]); this reads a folder the index found, for reports.

use std::fmt::Write as _;
use std::path::Path;

use super::{InstallError, Limits, Payload, collect};
use crate::lock::Files;
use crate::relpath::RelPath;
use crate::source::tree::LocalTree;

/// What is installed in the folder `path` now: `None` when nothing is there.
pub fn installed(path: &Path) -> Option<Result<Payload, InstallError>> {
    std::fs::symlink_metadata(path).ok()?;
    let tree = match LocalTree::open(path.to_path_buf()) {
        Ok(tree) => tree,
        Err(source) => {
            return Some(Err(InstallError::Read {
                path: path.display().to_string(),
                source,
            }));
        }
    };
    Some(collect(&tree, &RelPath::ROOT, Limits::unbounded()))
}

/// How one file inventory (`path` → digest) became another.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub modified: Vec<String>,
}

impl FileDiff {
    pub fn between(old: &Files, new: &Files) -> FileDiff {
        let mut diff = FileDiff::default();
        for (path, digest) in new {
            match old.get(path) {
                None => diff.added.push(path.to_string()),
                Some(before) if before != digest => diff.modified.push(path.to_string()),
                Some(_) => {}
            }
        }
        diff.removed = old
            .keys()
            .filter(|path| !new.contains_key(*path))
            .map(ToString::to_string)
            .collect();
        diff
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.modified.is_empty()
    }

    /// `2 modified, 1 added` (nothing when empty).
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [
            (&self.modified, "modified"),
            (&self.added, "added"),
            (&self.removed, "removed"),
        ]
        .into_iter()
        .filter(|(list, _)| !list.is_empty())
        .map(|(list, what)| format!("{} {what}", list.len()))
        .collect();
        parts.join(", ")
    }

    /// The changed paths, for a message: `~ SKILL.md, + notes.md, - old.md` (at most `max`).
    pub fn listed(&self, max: usize) -> String {
        let all: Vec<String> = self
            .modified
            .iter()
            .map(|p| format!("~ {p}"))
            .chain(self.added.iter().map(|p| format!("+ {p}")))
            .chain(self.removed.iter().map(|p| format!("- {p}")))
            .collect();
        let mut text = all.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
        if all.len() > max {
            let _ = write!(text, ", … ({} more)", all.len() - max);
        }
        text
    }
}
