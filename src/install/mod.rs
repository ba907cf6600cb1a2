//! Placing skill folders in agent dirs, and taking them out, with no half-states.
//!
//! A skill is first read out of its source into memory ([`Payload`]), checked (symlinks that
//! leave the source, sizes, file count) before anything is written. Then every folder and link
//! is written into a staging dir beside its target (`<agent dir>/.skills-staging-…`), and only
//! when all are staged are they renamed into place; a folder being replaced is renamed aside
//! first and restored if anything later fails. [`Committed::rollback`] undoes a commit (used when
//! the lockfile cannot be written); [`Committed::finish`] drops the replaced folders.
//!
//! The concept is split by step: [`payload`] reads and checks a skill, [`placement`] says where
//! it goes ([`layout`] for a locked skill), [`plan`] follows one skill from a source to the lock,
//! [`transaction`] writes it (and takes skills out) with no half-states, [`installed`] reads back
//! what is in place.

use std::path::PathBuf;

use crate::error::Error;

pub mod installed;
pub mod layout;
pub mod payload;
pub mod placement;
pub mod plan;
pub mod transaction;

pub use installed::{FileDiff, in_place, installed};
pub use layout::{Layout, layout, subagents};
pub use payload::{Limits, Payload, PayloadFile, collect};
pub use placement::{Placement, link_placements, placements};
pub use plan::{Planned, Staged};
pub use transaction::{Committed, Removal, Transaction, commit, remove_any, remove_paths};

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("`{path}` is a symlink to `{target}`, which leaves the source")]
    SymlinkEscapes { path: String, target: String },
    #[error("`{path}` is a symlink to `{target}`, which leads nowhere (missing, or a loop)")]
    SymlinkDangles { path: String, target: String },
    #[error("`{path}` is {size} bytes, over the limit of {limit} (--max-file-size)")]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error("the skill is {size} bytes, over the limit of {limit} (--max-skill-size)")]
    SkillTooLarge { size: u64, limit: u64 },
    #[error("the skill has more than {limit} files (--max-files)")]
    TooManyFiles { limit: usize },
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
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// `err` of the skill `name`, as a command reports it.
pub fn install_error(name: &str, err: InstallError) -> Error {
    Error::msg(format!("cannot install `{name}`: {err}")).with_source(err)
}
