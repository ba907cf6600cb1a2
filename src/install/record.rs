//! What this machine installed where: for each skill folder of a scope, the digest of the files
//! `skills` last wrote there. It tells a folder nobody touched since (safe to replace when the
//! lock moved on, after a `git pull`) from one with local edits (replaced only with `--force`).
//!
//! Kept in the cache beside the lockfile's advisory lock (nothing is added to the project, and a
//! project cannot bring one that vouches for a folder); written when a transaction commits. A
//! record that is missing or stale only makes `skills` more careful: a folder is called edited
//! when it matches neither the lock nor the record.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::lock::Files;

/// The record of one scope.
#[derive(Debug, Default)]
pub struct Record {
    path: Option<PathBuf>,
    folders: BTreeMap<String, String>,
    changed: bool,
}

#[derive(Serialize, Deserialize)]
struct Wire {
    version: u32,
    folders: BTreeMap<String, String>,
}

/// One digest for a whole folder's files: sha256 over each `path NUL digest LF`, in path order.
pub fn folder_digest(files: &Files) -> String {
    let mut hasher = Sha256::new();
    for (path, digest) in files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update(digest.as_bytes());
        hasher.update([b'\n']);
    }
    hex::encode(hasher.finalize())
}

fn key(folder: &Path) -> String {
    folder.to_string_lossy().into_owned()
}

impl Record {
    /// The record kept at `path` (empty when there is none, or it cannot be read).
    pub fn load(path: PathBuf) -> Record {
        let folders = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Wire>(&bytes).ok())
            .filter(|wire| wire.version == 1)
            .map(|wire| wire.folders)
            .unwrap_or_default();
        Record {
            path: Some(path),
            folders,
            changed: false,
        }
    }

    /// Whether `files` is what was last written to `folder`.
    pub fn wrote(&self, folder: &Path, files: &Files) -> bool {
        self.folders.get(&key(folder)) == Some(&folder_digest(files))
    }

    /// `files` were just written to `folder`.
    pub fn set(&mut self, folder: &Path, files: &Files) {
        self.folders.insert(key(folder), folder_digest(files));
        self.changed = true;
    }

    /// `folder` was removed.
    pub fn forget(&mut self, folder: &Path) {
        self.changed |= self.folders.remove(&key(folder)).is_some();
    }

    /// Writes the record when it changed; a failure only makes later runs more careful.
    pub fn save(&self) {
        let Some(path) = &self.path else {
            return;
        };
        if !self.changed {
            return;
        }
        let wire = Wire {
            version: 1,
            folders: self.folders.clone(),
        };
        if let Ok(bytes) = serde_json::to_vec(&wire) {
            let _ = path.parent().map(std::fs::create_dir_all);
            let _ = crate::fsutil::write_atomic(path, &bytes);
        }
    }
}
