//! `skills-lock.json`: what is installed, from where, at which commit, with which hashes.
//!
//! The project lock is the reference installer's version-1 schema (so `npx skills` reads ours
//! and we read theirs) plus our own fields, which the reference ignores: `commit`, `agents`,
//! `mode`, `files`, `allow`. The user's lock (`~/.agents/.skill-lock.json`, or under `$XDG_STATE_HOME`)
//! is the reference's version-3 schema: the hash is `skillFolderHash` and entries carry
//! `installedAt`/`updatedAt`. The on-disk struct ([`LockWire`]) is converted into a validated
//! model ([`Lock`]) with errors that name the entry; unknown fields are kept as written, and a
//! file that cannot be read is refused, never emptied.
//! The writer is canonical: keys sorted at every level, two-space indent, final newline, no
//! timestamps in the project lock, rewritten only when the content changed — except for what
//! another tool wrote: the top-level key order read and every entry that did not change are
//! written back as they were ([`model::Written`]), so that a lock shared with `npx skills`
//! changes only in the entries that changed.
//!
//! Split by concern: [`model`] (the validated lock, reading and writing it), [`wire`] (the
//! on-disk structs, validation into the model, canonical JSON), [`hash`] (`computedHash` and
//! file digests), [`guard`] (the advisory lock concurrent runs take turns on).

use crate::hint::Hint;
use std::path::PathBuf;

pub mod guard;
pub mod hash;
pub mod model;
pub mod wire;

pub use guard::Guard;
pub use hash::{computed_hash, digest, short};
pub use model::{Files, InstallMode, Lock, LockEntry, SourceType, source_identity};
pub use wire::{EntryWire, LockWire, canonical_json};

pub const PROJECT_LOCK: &str = "skills-lock.json";

/// Our field (in an entry's `extra`) saying that its `files` are local edits `skills manifest`
/// recorded over bytes installed from elsewhere: they are not what the source gives, so
/// `update` and `add` treat the folder as edited (nothing replaced without `--force`) until the
/// pipeline writes the source's bytes again, which takes the field out.
pub const LOCAL_EDITS: &str = "localEdits";
pub const PROJECT_LOCK_VERSION: u64 = 1;
pub const GLOBAL_LOCK_VERSION: u64 = 3;

/// Which of the two lockfiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockKind {
    /// `skills-lock.json` of a project (version 1).
    #[default]
    Project,
    /// The user's `.skill-lock.json` (version 3).
    Global,
}

impl LockKind {
    fn version(self) -> u64 {
        match self {
            LockKind::Project => PROJECT_LOCK_VERSION,
            LockKind::Global => GLOBAL_LOCK_VERSION,
        }
    }

    fn hash_field(self) -> &'static str {
        match self {
            LockKind::Project => "computedHash",
            LockKind::Global => "skillFolderHash",
        }
    }
}

/// Where the user's lock lives: `$XDG_STATE_HOME/skills/.skill-lock.json`, else
/// `~/.agents/.skill-lock.json` (as the reference installer).
pub fn global_lock_path() -> Option<PathBuf> {
    if let Some(state) = std::env::var_os(crate::env_vars::XDG_STATE_HOME).filter(|v| !v.is_empty())
    {
        return Some(PathBuf::from(state).join("skills/.skill-lock.json"));
    }
    dirs::home_dir().map(|home| home.join(".agents/.skill-lock.json"))
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is not valid JSON", path.display())]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("`{}` has lockfile version {found}; this `skills` understands version {expected}", path.display())]
    Version {
        path: PathBuf,
        found: u64,
        expected: u64,
    },
    #[error("`{}`: entry `{name}` {problem}", path.display())]
    Entry {
        path: PathBuf,
        name: String,
        problem: wire::EntryProblem,
    },
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Another run held the advisory lock of the lockfile for the whole wait.
    #[error(
        "gave up after {} s waiting for another `skills` run on `{}` (it holds `{}`)",
        waited.as_secs_f64().round(),
        lockfile.display(),
        guard.display()
    )]
    Busy {
        lockfile: PathBuf,
        guard: PathBuf,
        waited: std::time::Duration,
    },
    #[error("cannot take the lock `{}`", path.display())]
    Guard {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Hint for LockError {
    fn hint(&self) -> Option<String> {
        match self {
            LockError::Json { .. } | LockError::Entry { .. } => Some(
                "fix the file by hand or restore it from version control; `skills` never drops entries it cannot read"
                    .into(),
            ),
            LockError::Version { found, expected, .. } if found > expected => {
                Some("a newer `skills` wrote it; upgrade `skills`".into())
            }
            LockError::Busy { .. } => Some(format!(
                "another `skills` run is changing this lockfile; let it finish (or stop it) and try again, or set {} (seconds) to wait longer; the lock goes away by itself when that run exits",
                crate::env_vars::SKILLS_LOCK_TIMEOUT
            )),
            _ => None,
        }
    }
}
