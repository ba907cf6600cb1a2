//! Where a locked skill goes in a scope: the agents its entry records (else the agent dirs that
//! already hold it, else the defaults, as `add` picks them), in the mode it records (else what `add` or `sync` would choose), as
//! placements ready to stage. `install`, `update`, `manifest --check` and `doctor` all read a
//! lock entry this way, so they agree on where a skill belongs.

use std::path::PathBuf;

use super::{Placement, link_placements, placements};
use crate::hint::Hint;
use crate::lock::{InstallMode, LockEntry, SourceType};
use crate::project::{ProjectError, Scope, Target};
use crate::source::open::Location;

/// Where a locked skill goes: the recorded agents (else the defaults, as `add`), in the recorded
/// mode (else linked into `node_modules` for a packaged skill, as `sync`; symlinks when there is
/// more than one dir, as `add`).
pub struct Layout {
    pub folder: String,
    pub agents: Vec<String>,
    pub mode: InstallMode,
    pub placements: Vec<Placement>,
}

/// Why a locked skill has no place in this scope.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    #[error("its name cannot be a folder name")]
    FolderName,
    /// Its recorded agents or subagents cannot be placed here.
    #[error(transparent)]
    Targets(#[from] ProjectError),
    #[error("it is linked to its source, which is not a folder here")]
    NotAFolder,
    #[error("its `skillPath` `{0}` leaves the source")]
    SkillPathLeaves(String),
}

impl Hint for LayoutError {
    fn hint(&self) -> Option<String> {
        match self {
            LayoutError::Targets(err) => err.hint(),
            _ => None,
        }
    }
}

pub fn layout(scope: &Scope, name: &str, entry: &LockEntry) -> Result<Layout, LayoutError> {
    let folder = crate::skill::name::folder_name(name).ok_or(LayoutError::FolderName)?;
    let subagents = subagents(entry);
    // An entry that records no agents (`npx skills` writes none) goes where it already is, in
    // the mode it is there: replacing copies in `.claude/skills` with links into a new
    // `.agents/skills` would be a mass deletion in `git status` for the same bytes.
    let present = if entry.agents.is_empty() && subagents.is_empty() {
        scope.targets_holding(&folder)
    } else {
        Vec::new()
    };
    let copies_in_place = present.len() > 1
        && present
            .iter()
            .filter(|t| t.dir != scope.canonical)
            .all(|t| {
                t.dir
                    .join(&folder)
                    .symlink_metadata()
                    .is_ok_and(|m| m.is_dir())
            });
    let mut targets: Vec<Target> = if !present.is_empty() {
        present
    } else if entry.agents.is_empty() {
        scope.default_targets()
    } else {
        scope.targets_for(&entry.agents)?
    };
    if !subagents.is_empty() {
        targets.retain(|t| !t.agents.contains(&crate::agents::EVE));
        targets.extend(scope.eve_targets(&subagents)?);
    }
    let mode = entry
        .mode
        .unwrap_or(if entry.source_type() == SourceType::NodeModules {
            // How `sync` (the reference's too, which records no mode) places packaged skills.
            InstallMode::Link
        } else if targets.len() > 1 && !copies_in_place {
            InstallMode::Symlink
        } else {
            InstallMode::Copy
        });
    let agents = if entry.agents.is_empty() {
        targets
            .iter()
            .flat_map(|t| t.agents.iter().map(|a| (*a).to_owned()))
            .collect()
    } else {
        entry.agents.clone()
    };
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let placements = if mode == InstallMode::Link {
        // Linked into its source folder: only a folder on this machine can be.
        let Ok(Location::Folder(root)) =
            Location::of_entry(entry, &scope.lock_dir(), &scope.source_env())
        else {
            return Err(LayoutError::NotAFolder);
        };
        let rel = entry
            .skill_path
            .as_deref()
            .and_then(|p| p.rsplit_once('/'))
            .map_or("", |(dir, _)| dir);
        if rel.starts_with('/') || rel.contains('\\') || rel.split('/').any(|p| p == "..") {
            return Err(LayoutError::SkillPathLeaves(rel.to_owned()));
        }
        let dir = root.join(rel);
        link_placements(&folder, &dirs, &scope.canonical, &dir)
    } else {
        placements(&folder, &dirs, &scope.canonical, mode)
    };
    Ok(Layout {
        folder,
        agents,
        mode,
        placements,
    })
}

/// The Eve subagents an entry was installed for (the reference's `subagents`, `""` for the root
/// agent); empty when none are recorded.
pub fn subagents(entry: &LockEntry) -> Vec<String> {
    entry
        .extra
        .get("subagents")
        .and_then(serde_json::Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
