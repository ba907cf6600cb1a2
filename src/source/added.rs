//! Folders outside a project's repository that this machine's user added skills from: `skills
//! check` and `skills update` of a project lock read a local source outside its repository only
//! when it is one of these (or inside one), as direnv reads an `.envrc` only once it was allowed.
//! (Which folder may be the project at all is [`crate::trust`]'s.)
//!
//! Kept in the user's data dir (`$XDG_DATA_HOME/skills/trusted-folders.json`), never in a project:
//! a lockfile from a clone cannot bring trust with it, and `cache clean` does not take it away.
//! Recorded by `skills add` of such a folder, as the folder's real path (links resolved). A record
//! that cannot be read trusts nothing; one that cannot be written only means a later `check` skips
//! the entry with a note.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Default)]
struct Wire {
    version: u32,
    folders: Vec<PathBuf>,
}

const VERSION: u32 = 1;

/// Where the record is.
fn path() -> Option<PathBuf> {
    dirs::data_dir().map(|dir| dir.join("skills").join("trusted-folders.json"))
}

/// The folders this user trusts, real paths.
pub fn load() -> Vec<PathBuf> {
    path()
        .and_then(|path| std::fs::read(path).ok())
        .and_then(|bytes| serde_json::from_slice::<Wire>(&bytes).ok())
        .filter(|wire| wire.version == VERSION)
        .map(|wire| wire.folders)
        .unwrap_or_default()
}

/// Whether `folder` is, or is inside, one of `trusted` (links resolved).
pub fn covers(trusted: &[PathBuf], folder: &Path) -> bool {
    let real = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    trusted.iter().any(|t| real.starts_with(t))
}

/// Records that this user trusts `folder` (a source they just added skills from).
pub fn record(folder: &Path) -> std::io::Result<()> {
    let Some(path) = path() else {
        return Ok(());
    };
    let real = std::fs::canonicalize(folder)?;
    let mut folders = load();
    if covers(&folders, &real) {
        return Ok(());
    }
    folders.push(real);
    folders.sort();
    let bytes = serde_json::to_vec_pretty(&Wire {
        version: VERSION,
        folders,
    })
    .map_err(std::io::Error::other)?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    crate::fsutil::write_atomic(&path, &bytes)
}
