//! The next run's half of a transaction: finishing what a journal says is unfinished.
//!
//! A journal left behind means one of two things. A run died in the middle of its commit: the
//! journal goes forward, and the commit is finished (each new folder found by its identity and
//! swapped in, removals finished, the lock written with the bytes it holds). Or a commit failed
//! and could not put everything back ([`super::commit`] turned its journal around): the journal
//! goes back, and what that run changed is put back (each new folder found by its identity and
//! taken out, each old one put in its place again from the staging dir); the lock was never
//! written, so it is left alone.
//!
//! Invariants: the caller holds the lockfile's advisory lock; every entry is reached through its
//! agent dir's handle ([`super::Confinement`]) by a single validated name; each step looks at
//! what is there first, so recovering twice, or after a partial recovery, does no harm. A step
//! that fails keeps the journal and the staging dirs (they hold the folders still to be put
//! somewhere): nothing else may be written in the scope until a later run finishes it. A journal
//! that cannot be read, or a new folder that is gone, cannot be finished by any run: said, and
//! dropped.

use std::path::{Path, PathBuf};

use super::{Dir, FileId, Item, Journal, Modes, Op, Places, Staging, exchange};
use crate::fsutil::TEMP_PREFIX;
use crate::install::Confinement;

/// What [`recover`] did.
#[derive(Debug, Default)]
pub struct Recovered {
    /// Folders put into place or taken out.
    pub finished: Vec<PathBuf>,
    /// What could not be done (with why).
    pub problems: Vec<String>,
    /// Whether the lockfile was written.
    pub lock_written: bool,
    /// Whether the journal went back (a failed run's changes put back) rather than forward.
    pub undone: bool,
    /// The journal, when it is kept: a step failed that a later run can retry.
    pub kept: Option<PathBuf>,
}

/// Finishes the transaction whose journal is at `path`, if there is one (see the module docs).
pub fn recover(path: &Path, confinement: &Confinement) -> Option<Recovered> {
    let bytes = std::fs::read(path).ok()?;
    let mut recovered = Recovered::default();
    let Ok(journal) = serde_json::from_slice::<Journal>(&bytes) else {
        recovered
            .problems
            .push(format!("the journal `{}` cannot be read", path.display()));
        let _ = std::fs::remove_file(path);
        return Some(recovered);
    };
    recovered.undone = journal.undo;
    let mut retry = false;
    // Each agent dir with its staging dir, both opened as the transaction had them. Going
    // back, a staging dir that is gone is made again: a new folder taken out goes there.
    let dirs: Vec<Option<Dir>> = journal
        .dirs
        .iter()
        .map(|(dir, staging)| {
            let (agent, _) = confinement.open(dir, false).ok().flatten()?;
            if !staging.starts_with(TEMP_PREFIX) || staging.contains('/') {
                return None;
            }
            let handle = match agent.dir.open_dir(staging) {
                Ok(handle) => handle,
                Err(err) if journal.undo && err.kind() == std::io::ErrorKind::NotFound => {
                    agent.dir.create_dir(staging).ok()?;
                    agent.dir.open_dir(staging).ok()?
                }
                Err(_) => return None,
            };
            Some(Dir {
                agent,
                staging: Some(Staging {
                    name: staging.clone(),
                    dir: handle,
                    modes: Modes::default(),
                }),
            })
        })
        .collect();
    for item in &journal.items {
        let Some(Some(dir)) = dirs.get(item.dir) else {
            continue;
        };
        if crate::relpath::check_component(&item.name).is_err() {
            continue;
        }
        let Some(places) = Places::of(dir, &item.name) else {
            continue;
        };
        let at = dir.agent.path.join(&item.name);
        let outcome = if journal.undo {
            put_back(&places, item, &at, &mut recovered.problems)
        } else {
            finish(&places, item, &at, &mut recovered.problems)
        };
        match outcome {
            Ok(true) => recovered.finished.push(at),
            Ok(false) => {}
            Err(err) => {
                retry = true;
                recovered
                    .problems
                    .push(format!("`{}`: {err}", at.display()));
            }
        }
    }
    if let Some((lock_path, bytes)) = &journal.lock {
        match crate::fsutil::write_if_changed(lock_path, bytes.as_bytes()) {
            Ok(written) => recovered.lock_written = written,
            Err(err) => {
                retry = true;
                recovered
                    .problems
                    .push(format!("`{}`: {err}", lock_path.display()));
            }
        }
    }
    if retry {
        recovered.kept = Some(path.to_path_buf());
        return Some(recovered);
    }
    for dir in dirs.iter().flatten() {
        if let Some(staging) = &dir.staging {
            let _ = dir.agent.dir.remove_dir_all(&staging.name);
        }
    }
    let _ = std::fs::remove_file(path);
    Some(recovered)
}

/// The identity of what is at `name` in `dir`, if anything.
fn id_of(dir: &cap_std::fs::Dir, name: &str) -> Option<FileId> {
    dir.symlink_metadata(name)
        .ok()
        .and_then(|meta| FileId::of(&meta))
}

/// Going forward: the item's new folder into place, or its old one out. `Ok(true)` when it
/// moved something; a new folder that is gone is a problem no run can fix (`Ok(false)`).
fn finish(
    places: &Places<'_>,
    item: &Item,
    at: &Path,
    problems: &mut Vec<String>,
) -> std::io::Result<bool> {
    let (in_place, staged) = (
        id_of(places.agent, &item.name),
        id_of(places.staging, &item.name),
    );
    match item.op {
        Op::Remove if in_place.is_some() && staged.is_none() => places.remove().map(|_| true),
        Op::Remove => Ok(false),
        Op::Place { id: Some(id), .. } if in_place == Some(id) => Ok(false),
        Op::Place { id: Some(id), .. } if staged == Some(id) => places.place(false).map(|_| true),
        Op::Place { .. } => {
            problems.push(format!(
                "`{}`: its new version is gone; left as it is",
                at.display()
            ));
            Ok(false)
        }
    }
}

/// Going back: the item's new folder out of place (into the staging dir) and the old one, if
/// there was one, back in, each found by its identity; a removal undone. `Ok(true)` when it
/// moved something; an old folder that is gone is a problem no run can fix (the new one stays,
/// whole).
fn put_back(
    places: &Places<'_>,
    item: &Item,
    at: &Path,
    problems: &mut Vec<String>,
) -> std::io::Result<bool> {
    let name = item.name.as_str();
    let aside = places.old();
    let in_place = places.agent.symlink_metadata(name).is_ok();
    let staged = places.staging.symlink_metadata(name).is_ok();
    let (id, old) = match item.op {
        Op::Remove if !in_place && staged => {
            places.staging.rename(name, places.agent, name)?;
            return Ok(true);
        }
        Op::Remove => return Ok(false),
        Op::Place { id, old } => (id, old),
    };
    let is_old = |dir: &cap_std::fs::Dir, entry: &str| old.is_some() && id_of(dir, entry) == old;
    if id.is_none() || id_of(places.agent, name) != id {
        // The new folder is out already; the old one may be half-way back (taken aside).
        if !in_place && is_old(places.staging, &aside) {
            places.staging.rename(&aside, places.agent, name)?;
            return Ok(true);
        }
        return Ok(false);
    }
    if old.is_none() {
        // Nothing was there: the new folder goes, into the staging dir that is deleted.
        places.agent.rename(name, places.staging, name)?;
        return Ok(true);
    }
    if is_old(places.staging, name) {
        // Swapped: swap back.
        if exchange(places.staging, name, places.agent, name)? {
            return Ok(true);
        }
        let out = format!("{name}.new");
        places.agent.rename(name, places.staging, &out)?;
        places.staging.rename(name, places.agent, name)?;
        return Ok(true);
    }
    if is_old(places.staging, &aside) {
        let out = if staged {
            format!("{name}.new")
        } else {
            name.to_owned()
        };
        places.agent.rename(name, places.staging, &out)?;
        places.staging.rename(&aside, places.agent, name)?;
        return Ok(true);
    }
    problems.push(format!(
        "`{}`: what it replaced is gone; the new version is left in place",
        at.display()
    ));
    Ok(false)
}
