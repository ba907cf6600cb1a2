//! Placing skill folders in agent dirs, and taking them out, with no half-states.
//!
//! A skill is first read out of its source into memory ([`Payload`]), checked (symlinks that
//! leave the source, sizes, file count) before anything is written. Then every folder and link
//! is written into a staging dir beside its target (`<agent dir>/.skills-staging-…`), and only
//! when all are staged are they renamed into place; a folder being replaced is renamed aside
//! first and restored if anything later fails (a lockfile that cannot be written puts everything
//! back; a rollback that cannot finish keeps its journal for the next run).
//!
//! The concept is split by step: [`payload`] reads and checks a skill, [`placement`] says where
//! it goes ([`layout`] for a locked skill), [`pipeline`] takes every skill from its source through
//! the gate to the lock (the one way in for every command), [`transaction`] writes it (and takes
//! skills out) with no half-states, [`installed`] reads back what is in place.

use std::path::PathBuf;

use crate::hint::Hint;
use crate::lock::LockError;

pub mod checks;
pub mod confined;
pub mod installed;
pub mod layout;
pub mod payload;
pub mod pipeline;
pub mod placement;
pub mod record;
pub mod store;
pub mod transaction;
pub mod turn;

pub use confined::Confinement;
pub use installed::{FileDiff, installed};
pub use layout::{Layout, LayoutError, layout, subagents};
pub use payload::{Limits, Payload, PayloadFile, SourceLimits, collect};
pub use pipeline::{
    Candidate, Committed, Conflict, Done, Fetched, Installer, Outcome, PipelineError, Planned,
    Policy, Provenance,
};
pub use placement::{Placement, link_placements, placements};
pub use transaction::{
    Placed, Probe, Transaction, commit, journal_path, recover, remove_any, sweep,
};
pub use turn::{confinement, take_turn, transaction};

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("`{path}` is a symlink to `{target}`, which leaves the source")]
    SymlinkEscapes { path: String, target: String },
    #[error("`{path}` is a symlink to `{target}`, which leads nowhere (missing, or a loop)")]
    SymlinkDangles { path: String, target: String },
    #[error("`{path}` is {size} bytes, over the limit of {limit}")]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error("the skill is {size} bytes, over the limit of {limit}")]
    SkillTooLarge { size: u64, limit: u64 },
    #[error("the skill has more than {limit} files")]
    TooManyFiles { limit: usize },
    #[error("the skill has more than {limit} entries to look at (files, folders and links)")]
    TooManyEntries { limit: usize },
    #[error(transparent)]
    UnsafePath(#[from] crate::relpath::UnsafePath),
    #[error("`{first}` and `{second}` would be one file on systems that ignore case")]
    Clash { first: String, second: String },
    #[error("`{path}` is not a regular file, folder or symlink")]
    Special { path: String },
    #[error("`{path}` is nested deeper than {limit} folders")]
    TooDeep { path: String, limit: usize },
    #[error("cannot read `{path}` from the source")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Escapes(#[from] confined::Escapes),
    #[error("two skills would be installed in one folder, `{}`", path.display())]
    Shared { path: PathBuf },
    /// What the plan found at a place changed before the commit (`what`: how).
    #[error("`{}` changed while `skills` was at work: {what}", path.display())]
    Changed { path: PathBuf, what: String },
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl InstallError {
    /// The option that sets the limit this error is over.
    pub fn flag(&self) -> Option<&'static str> {
        match self {
            InstallError::FileTooLarge { .. } => Some("--max-file-size"),
            InstallError::SkillTooLarge { .. } => Some("--max-skill-size"),
            InstallError::TooManyFiles { .. } | InstallError::TooManyEntries { .. } => {
                Some("--max-files")
            }
            _ => None,
        }
    }

    /// Why a skill was left out, on one line, with the option of the limit it is over:
    /// `` `f.bin` is 3000 bytes, over the limit of 1000 (--max-file-size) ``.
    pub fn skip_reason(&self) -> String {
        let text = crate::hint::one_line(self);
        match self.flag() {
            Some(flag) => format!("{text} ({flag})"),
            None => text,
        }
    }
}

impl Hint for InstallError {
    fn hint(&self) -> Option<String> {
        if let Some(flag) = self.flag() {
            return Some(format!(
                "raise the limit with `{flag}` if you trust this skill"
            ));
        }
        match self {
            InstallError::SymlinkEscapes { .. } => Some(
                "a skill may link only inside its source; ask its author to copy the file in"
                    .into(),
            ),
            InstallError::Changed { .. } => Some(
                "run the command again (it looks at the folder again); `--force` replaces what is there".into(),
            ),
            InstallError::Special { .. } => {
                Some("a skill holds only files, folders and symlinks".into())
            }
            InstallError::Escapes(escapes) => Some(format!(
                "`skills` writes only inside {}: remove the link `{}`, or make it point inside",
                escapes.what,
                escapes.link.display()
            )),
            InstallError::UnsafePath(_) | InstallError::Clash { .. } => Some(
                "the source holds a file name that is not safe to write; ask its author to rename it"
                    .into(),
            ),
            // A web source's failure travels inside the read error; its hint with it.
            InstallError::Read { source, .. } => source
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<crate::source::web::SharedWebError>())
                .and_then(Hint::hint),
            _ => None,
        }
    }
}

/// Why a chosen skill was left out of an install (the others go on).
#[derive(Debug)]
pub enum Skip {
    /// Its name cannot be a folder name.
    FolderName,
    /// It cannot be read or is over a limit.
    Install(InstallError),
    /// The install gate refused it (`codes`: the findings' rules, if it got that far).
    Refused { codes: Vec<String> },
    /// It would replace what is there (another source's skill, local edits), without `--force`.
    Conflict(String),
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::FolderName => f.write_str(
                "its name cannot be a folder name (path separators, `..`, or no letters)",
            ),
            Skip::Install(err) => f.write_str(&err.skip_reason()),
            Skip::Refused { codes } if codes.is_empty() => {
                f.write_str("refused by the install gate")
            }
            Skip::Refused { codes } => {
                write!(f, "refused by the install gate: {}", codes.join(", "))
            }
            Skip::Conflict(why) => f.write_str(why),
        }
    }
}

impl Skip {
    /// What to do about it, when the reason is an error with a hint (a web source's limits).
    pub fn hint(&self) -> Option<String> {
        match self {
            // The limit's flag is in the reason already; a web error's hint is not.
            Skip::Install(err) if err.flag().is_none() => err.hint(),
            _ => None,
        }
    }
}

/// Why a locked skill cannot be put back as the lock records it (`skills install`).
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(transparent)]
    Open(#[from] crate::source::open::OpenError),
    #[error(transparent)]
    Install(#[from] InstallError),
    #[error(transparent)]
    Layout(#[from] LayoutError),
    /// `at` is ` at <commit>` when the source has commits.
    #[error("its source{at} has no skill `{name}`")]
    Missing { name: String, at: String },
    #[error("its source{at} has hash {found}, the lock says {locked}")]
    Hash {
        at: String,
        found: String,
        locked: String,
    },
    #[error("its files differ from the lock's `files` ({0})")]
    Files(String),
    #[error("refused by the install gate")]
    Refused,
    /// Another entry of the lock makes the same folder (`PDF`, `pdf`).
    #[error("its folder is also the folder of `{0}`: the lock cannot say which one it holds")]
    SharedFolder(String),
    /// Upstream (`check`, `update`): the source no longer has the skill.
    #[error("the source no longer has a skill `{0}`")]
    Removed(String),
    /// Something is in the way that the lock cannot account for (another entry's folder).
    #[error("{0}")]
    Conflict(String),
    /// The install pipeline could not go on with it.
    #[error("{0}")]
    Pipeline(String),
}

impl Hint for RestoreError {
    fn hint(&self) -> Option<String> {
        match self {
            RestoreError::Open(err) => err.hint(),
            RestoreError::Install(err) => err.hint(),
            RestoreError::Layout(err) => err.hint(),
            RestoreError::Conflict(_) => Some(
                "pass `--force` to replace it (local edits are lost); `skills manifest --check` shows every change"
                    .into(),
            ),
            _ => None,
        }
    }
}

/// An [`InstallError`] of the skill `name`, as a command reports it. The message includes the
/// inner one, so the chain goes on with the inner error's cause.
#[derive(Debug)]
pub struct SkillError {
    pub name: String,
    pub error: InstallError,
}

impl SkillError {
    pub fn new(name: &str, error: InstallError) -> SkillError {
        SkillError {
            name: name.to_owned(),
            error,
        }
    }
}

impl std::fmt::Display for SkillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot install `{}`: {}", self.name, self.error)
    }
}

impl std::error::Error for SkillError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.error)
    }
}

impl Hint for SkillError {
    fn hint(&self) -> Option<String> {
        self.error.hint()
    }
}

/// A transaction that could not be written or taken back; nothing was changed.
#[derive(Debug)]
pub enum TransactionError {
    /// Placing the staged folders failed (`doing` names the work: `installing`).
    Commit { doing: String, error: InstallError },
    /// A folder could not be moved out of the way.
    Remove { path: PathBuf, error: InstallError },
    /// The lockfile could not be written; what was placed was put back.
    Lock(LockError),
    /// Failed, and what was placed could not all be put back: the next run does.
    Unfinished(Box<transaction::Unfinished>),
}

impl std::fmt::Display for TransactionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TransactionError::Commit { doing, error } => {
                write!(f, "{doing} failed; nothing was changed: {error}")
            }
            TransactionError::Remove { path, .. } => {
                write!(f, "cannot remove `{}`; nothing was changed", path.display())
            }
            TransactionError::Lock(err) => err.fmt(f),
            TransactionError::Unfinished(unfinished) => unfinished.fmt(f),
        }
    }
}

impl std::error::Error for TransactionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // `Commit` and `Lock` show their inner error's message: the chain goes on with its
        // cause. `Remove` names the folder only: the inner error is the cause.
        match self {
            TransactionError::Commit { error, .. } => std::error::Error::source(error),
            TransactionError::Remove { error, .. } => Some(error),
            TransactionError::Lock(err) => std::error::Error::source(err),
            TransactionError::Unfinished(unfinished) => std::error::Error::source(&**unfinished),
        }
    }
}

impl Hint for TransactionError {
    fn hint(&self) -> Option<String> {
        match self {
            TransactionError::Commit { error, .. } | TransactionError::Remove { error, .. } => {
                error.hint()
            }
            TransactionError::Lock(err) => err.hint(),
            TransactionError::Unfinished(unfinished) => unfinished.hint(),
        }
    }
}
