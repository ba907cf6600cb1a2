//! What is installed now: the folder at a placement read back (without limits: it is already
//! there), whether a placement already holds a payload, and how two file inventories (the lock's
//! `files`, a folder read back) differ.

use std::collections::BTreeMap;
use std::path::Path;

use super::{InstallError, Limits, Payload, Placement, collect};
use crate::source::tree::LocalTree;

/// What is installed at a placement's path now: `None` when nothing is there.
pub fn installed(path: &Path) -> Option<Result<Payload, InstallError>> {
    std::fs::symlink_metadata(path).ok()?;
    let tree = LocalTree {
        root: path.to_path_buf(),
    };
    Some(collect(&tree, "", Limits::unbounded()))
}

/// Whether `placement` already holds exactly `payload` (or the right link).
pub fn in_place(placement: &Placement, payload: &Payload) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(&placement.path) else {
        return false;
    };
    match &placement.link {
        Some(target) => {
            meta.file_type().is_symlink()
                && std::fs::read_link(&placement.path).is_ok_and(|t| t == *target)
        }
        None => {
            !meta.file_type().is_symlink()
                && matches!(installed(&placement.path), Some(Ok(now)) if now.files == payload.files)
        }
    }
}

/// How one file inventory (`path` → digest) became another.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub modified: Vec<String>,
}

impl FileDiff {
    pub fn between(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> FileDiff {
        let mut diff = FileDiff::default();
        for (path, digest) in new {
            match old.get(path) {
                None => diff.added.push(path.clone()),
                Some(before) if before != digest => diff.modified.push(path.clone()),
                Some(_) => {}
            }
        }
        diff.removed = old
            .keys()
            .filter(|path| !new.contains_key(*path))
            .cloned()
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
}
