//! Drift: how the installed skills of a scope differ from its lock. Every installed folder is
//! read (copies in several agent dirs one by one, links to one folder once) and compared with
//! the lock entry's `files` (else its `computedHash`) and with the places the entry says it is
//! installed. `manifest --check` reports it; `doctor` turns it into problems with fixes.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::rc::Rc;

use crate::install::{self, FileDiff, InstallError, Payload};
use crate::lock::Lock;
use crate::project::{Installed, ProjectError, Scope, shown};

/// One installed folder of a skill, read.
pub struct Folder {
    pub installed: Installed,
    pub payload: Payload,
}

/// What `--check` found for one skill.
pub struct Drift {
    pub name: String,
    /// `modified`, `missing`, `untracked`, `unreadable`.
    pub status: &'static str,
    /// The folder or link, as shown to the user.
    pub path: Option<String>,
    pub files: FileDiff,
    pub detail: Option<DriftDetail>,
}

/// Why a skill drifted, where its files alone do not say it; shown as a phrase after the
/// skill's name (the `detail` of `manifest --check --json`).
pub enum DriftDetail {
    /// Locked, and in none of the scope's agent dirs.
    NotInstalled,
    /// Locked for an agent whose dir lacks it.
    NotInstalledHere,
    /// A link of the install that points elsewhere: where it should point.
    ShouldLinkTo(PathBuf),
    /// An entry without `files` whose folder no longer has its `computedHash`.
    HashDiffers,
    /// Installed, and not locked.
    NotInTheLockfile,
    /// The folder could not be read.
    Unreadable(Rc<InstallError>),
}

impl fmt::Display for DriftDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriftDetail::NotInstalled => f.write_str("not installed"),
            DriftDetail::NotInstalledHere => f.write_str("not installed here"),
            DriftDetail::ShouldLinkTo(target) => {
                write!(f, "should link to `{}`", target.display())
            }
            DriftDetail::HashDiffers => f.write_str(
                "its hash differs from the lock's `computedHash` (no `files` recorded: `skills manifest` records them)",
            ),
            DriftDetail::NotInTheLockfile => f.write_str("not in the lockfile"),
            DriftDetail::Unreadable(err) => f.write_str(&crate::hint::one_line(&**err)),
        }
    }
}

/// An installed folder of a skill that could not be read.
pub struct Unreadable {
    pub name: String,
    /// The folder, as shown to the user.
    pub path: String,
    pub error: Rc<InstallError>,
}

/// The installed skills of `scope`, read: name → each folder; then the folders that could not
/// be read.
pub type Copies = (BTreeMap<String, Vec<Folder>>, Vec<Unreadable>);

/// Reads every installed folder of `scope`.
pub fn read_copies(scope: &Scope) -> Result<Copies, ProjectError> {
    let mut copies: BTreeMap<String, Vec<Folder>> = BTreeMap::new();
    let mut unreadable: Vec<Unreadable> = Vec::new();
    for (name, folders) in scope.installed()? {
        for installed in folders {
            match install::installed(&installed.real) {
                Some(Ok(payload)) => copies
                    .entry(name.clone())
                    .or_default()
                    .push(Folder { installed, payload }),
                Some(Err(err)) => unreadable.push(Unreadable {
                    name: name.clone(),
                    path: shown(&installed.real, scope),
                    error: Rc::new(err),
                }),
                None => {}
            }
        }
    }
    Ok((copies, unreadable))
}

/// How the installed skills of `scope` differ from `lock`, sorted by skill and path.
pub fn drifts(
    scope: &Scope,
    lock: &Lock,
    copies: &BTreeMap<String, Vec<Folder>>,
    unreadable: &[Unreadable],
) -> Vec<Drift> {
    let mut drifts: Vec<Drift> = Vec::new();
    let drift = |name: &str, status, path: Option<String>, files, detail| Drift {
        name: name.to_owned(),
        status,
        path,
        files,
        detail,
    };
    for (name, entry) in &lock.skills {
        let Some(found) = copies.get(name) else {
            drifts.push(drift(
                name,
                "missing",
                None,
                FileDiff::default(),
                Some(DriftDetail::NotInstalled),
            ));
            continue;
        };
        // Every place the skill was installed for is still there (links pointing right).
        if !entry.agents.is_empty()
            && let Ok(layout) = install::layout(scope, name, entry)
        {
            for placement in &layout.placements {
                let path = Some(shown(&placement.path, scope));
                let now = std::fs::symlink_metadata(&placement.path);
                let link = std::fs::read_link(&placement.path).ok();
                match (&now, &placement.link) {
                    (Err(_), _) => drifts.push(drift(
                        name,
                        "missing",
                        path,
                        FileDiff::default(),
                        Some(DriftDetail::NotInstalledHere),
                    )),
                    (Ok(_), Some(target)) if link.as_ref() != Some(target) => {
                        drifts.push(drift(
                            name,
                            "modified",
                            path,
                            FileDiff::default(),
                            Some(DriftDetail::ShouldLinkTo(target.clone())),
                        ));
                    }
                    _ => {}
                }
            }
        }
        for copy in found {
            let path = Some(shown(&copy.installed.real, scope));
            if entry.files.is_empty() {
                if copy.payload.computed_hash != entry.computed_hash {
                    drifts.push(drift(
                        name,
                        "modified",
                        path,
                        FileDiff::default(),
                        Some(DriftDetail::HashDiffers),
                    ));
                }
                continue;
            }
            let files = FileDiff::between(&entry.files, &copy.payload.digests());
            if !files.is_empty() {
                drifts.push(drift(name, "modified", path, files, None));
            }
        }
    }
    for (name, found) in copies
        .iter()
        .filter(|(name, _)| !lock.skills.contains_key(*name))
    {
        for copy in found {
            let path = Some(shown(&copy.installed.real, scope));
            drifts.push(drift(
                name,
                "untracked",
                path,
                FileDiff::default(),
                Some(DriftDetail::NotInTheLockfile),
            ));
        }
    }
    for folder in unreadable {
        drifts.push(drift(
            &folder.name,
            "unreadable",
            Some(folder.path.clone()),
            FileDiff::default(),
            Some(DriftDetail::Unreadable(Rc::clone(&folder.error))),
        ));
    }
    drifts.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    drifts
}

/// Folds, in `index`, the copies of one locked skill in several agent dirs (`add --copy` for
/// several agents) into one entry: a later folder with the name of an earlier one whose files
/// are the same bytes, and what `lock` records for that name (its `files`, else its
/// `computedHash`). Folders that differ, or that the lock does not know, stay separate: those
/// are real duplicates.
pub fn fold_locked_copies(index: &mut crate::index::SkillIndex, lock: &Lock) {
    if lock.skills.is_empty() {
        return;
    }
    let mut read: std::collections::HashMap<PathBuf, Option<crate::lock::Files>> =
        std::collections::HashMap::new();
    index.fold_copies(|first, later| {
        let name = first.name();
        let Some(entry) = lock.skills.get(&name) else {
            return false;
        };
        let mut files = |folder: &crate::index::Entry| {
            read.entry(folder.real.clone())
                .or_insert_with(|| {
                    let payload = install::installed(&folder.real)?.ok()?;
                    let matches = if entry.files.is_empty() {
                        payload.computed_hash == entry.computed_hash
                    } else {
                        payload.digests() == entry.files
                    };
                    matches.then(|| payload.digests())
                })
                .clone()
        };
        match (files(first), files(later)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    });
}

#[cfg(test)]
mod tests {
    use super::DriftDetail;

    #[test]
    fn details_read_as_they_always_did() {
        let shown = [
            DriftDetail::NotInstalled,
            DriftDetail::NotInstalledHere,
            DriftDetail::ShouldLinkTo("../../.agents/skills/pdf".into()),
            DriftDetail::HashDiffers,
            DriftDetail::NotInTheLockfile,
        ]
        .map(|detail| detail.to_string());
        assert_eq!(
            shown,
            [
                "not installed",
                "not installed here",
                "should link to `../../.agents/skills/pdf`",
                "its hash differs from the lock's `computedHash` (no `files` recorded: `skills manifest` records them)",
                "not in the lockfile",
            ]
        );
    }
}
