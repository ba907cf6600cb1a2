//! Drift: how the installed skills of a scope differ from its lock. Every installed folder is
//! read (copies in several agent dirs one by one, links to one folder once) and compared with
//! the lock entry's `files` (else its `computedHash`) and with the places the entry says it is
//! installed. `manifest --check` reports it; `doctor` turns it into problems with fixes.

use std::collections::BTreeMap;

use crate::install::{self, FileDiff, Payload};
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
    pub detail: Option<String>,
}

/// The installed skills of `scope`, read: name → each folder; then the folders that could not
/// be read (name, shown path, why).
pub type Copies = (BTreeMap<String, Vec<Folder>>, Vec<(String, String, String)>);

/// Reads every installed folder of `scope`.
pub fn read_copies(scope: &Scope) -> Result<Copies, ProjectError> {
    let mut copies: BTreeMap<String, Vec<Folder>> = BTreeMap::new();
    let mut unreadable: Vec<(String, String, String)> = Vec::new();
    for (name, folders) in scope.installed()? {
        for installed in folders {
            match install::installed(&installed.real) {
                Some(Ok(payload)) => copies
                    .entry(name.clone())
                    .or_default()
                    .push(Folder { installed, payload }),
                Some(Err(err)) => {
                    let why = crate::hint::one_line(&err);
                    unreadable.push((name.clone(), shown(&installed.real, scope), why));
                }
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
    unreadable: &[(String, String, String)],
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
                Some("not installed".into()),
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
                        Some("not installed here".into()),
                    )),
                    (Ok(_), Some(target)) if link.as_ref() != Some(target) => {
                        let detail = format!("should link to `{}`", target.display());
                        drifts.push(drift(
                            name,
                            "modified",
                            path,
                            FileDiff::default(),
                            Some(detail),
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
                    let detail = "its hash differs from the lock's `computedHash` (no `files` recorded: `skills manifest` records them)";
                    drifts.push(drift(
                        name,
                        "modified",
                        path,
                        FileDiff::default(),
                        Some(detail.into()),
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
                Some("not in the lockfile".into()),
            ));
        }
    }
    for (name, path, why) in unreadable {
        drifts.push(drift(
            name,
            "unreadable",
            Some(path.clone()),
            FileDiff::default(),
            Some(why.clone()),
        ));
    }
    drifts.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    drifts
}
