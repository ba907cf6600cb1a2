//! Locked skills and their sources, shared by `install`, `check`, `update`, `manifest` and
//! `list`: a lock entry's source opened at the locked commit or at its upstream tip (one ref
//! advertisement per remote however many skills share it), the skill read out of it, and what
//! upstream has compared with what is locked.
//!
//! Per git remote one ref advertisement; a skill whose locked commit is still the tip of what it
//! follows costs nothing more. When the tip moved, that commit is fetched (into the cache only)
//! and the skill's folder hashed: a commit that does not touch the skill is not an update. A
//! local source is compared with the folder as it is now.

use std::path::Path;

use crate::hint::Hint;
use crate::install::{self, Limits, Payload, RestoreError};
use crate::lock::{Lock, LockEntry, SourceType};
use crate::project::Scope;
use crate::source::SourceEnv;
use crate::source::git::Want;
use crate::source::open::{Location, OpenError, Opened, Request, Sources};

/// What reading locked skills takes: the scope (where the lock is), how source strings parse,
/// the sources opened so far, and the limits a skill must keep.
pub struct Locked<'a> {
    pub scope: &'a Scope,
    pub env: SourceEnv,
    pub sources: Sources,
    pub limits: Limits,
}

impl<'a> Locked<'a> {
    pub fn new(scope: &'a Scope, limits: install::SourceLimits, progress: bool) -> Locked<'a> {
        let mut settings = Scope::git_settings(progress);
        settings.web = limits.web;
        Locked {
            scope,
            env: scope.source_env(),
            sources: Sources::new(settings),
            limits: limits.skill,
        }
    }

    /// `entry`'s source, to be read at what `want` names.
    pub fn request(&self, entry: &LockEntry, want: Want) -> Result<Request, OpenError> {
        // libgit2 is set up before the first locked source is opened, whatever its kind (its
        // OpenSSL setup fills in an unset or missing `SSL_CERT_FILE`, which web sources then
        // use), and not at all by a run that opens none (every skill in place or in the store:
        // loading the system's certificates was a tenth of an offline restore).
        crate::source::git::set_timeouts();
        Request::from_entry(entry, &self.scope.lock_dir(), &self.env, want)
    }
}

/// Whether `entry`'s source is the folder `dir` itself: a skill made where it is installed
/// (recorded by `skills manifest`), which has no upstream to follow.
pub fn is_own_source(entry: &LockEntry, scope: &Scope, dir: &Path) -> bool {
    let env = scope.source_env();
    let real = |path: &Path| std::fs::canonicalize(path).ok();
    entry.source_type() == SourceType::Local
        && matches!(
            Location::of_entry(entry, &scope.lock_dir(), &env),
            Ok(Location::Folder(path)) if real(&path).is_some() && real(&path) == real(dir)
        )
}

/// Reads the skill `name` of `entry` out of `opened`; `Ok(None)` when the source no longer has it.
pub fn read_skill(
    entry: &LockEntry,
    name: &str,
    opened: &Opened,
    limits: Limits,
) -> Result<Option<(crate::relpath::RelPath, Payload)>, RestoreError> {
    let Some(dir) = opened.skill_dir(entry.skill_path.as_deref(), name)? else {
        return Ok(None);
    };
    let payload = install::collect(opened.tree.as_ref(), &dir, limits)?;
    Ok(Some((dir, payload)))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    UpToDate,
    UpdateAvailable,
    RemovedUpstream,
    Unreachable,
    /// Not looked at: a local source outside the repository that this machine's user did not
    /// add ([`crate::source::added`]). Said, and no failure.
    Skipped,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::UpToDate => "up to date",
            State::UpdateAvailable => "update available",
            State::RemovedUpstream => "removed upstream",
            State::Unreachable => "source unreachable",
            State::Skipped => "skipped",
        }
    }

    /// The state in `--json`.
    pub fn slug(self) -> &'static str {
        match self {
            State::UpToDate => "up-to-date",
            State::UpdateAvailable => "update-available",
            State::RemovedUpstream => "removed-upstream",
            State::Unreachable => "unreachable",
            State::Skipped => "skipped",
        }
    }
}

/// What upstream has for one locked skill.
pub struct Status {
    pub name: String,
    pub state: State,
    /// The upstream commit looked at (git sources).
    pub upstream: Option<String>,
    /// Why, for the states that need one.
    pub reason: Option<RestoreError>,
    /// The upstream version, when it is an update: its folder in the source and its files.
    pub update: Option<(crate::relpath::RelPath, Payload)>,
    /// What a web source says the update's bytes hash to.
    pub digest: Option<String>,
}

impl Status {
    fn new(name: &str, state: State, upstream: Option<String>) -> Status {
        Status {
            name: name.to_owned(),
            state,
            upstream,
            reason: None,
            update: None,
            digest: None,
        }
    }

    fn unreachable(
        name: &str,
        upstream: Option<String>,
        reason: impl Into<RestoreError>,
    ) -> Status {
        Status {
            reason: Some(reason.into()),
            ..Status::new(name, State::Unreachable, upstream)
        }
    }
}

/// What upstream has for `entry`.
pub fn inspect(name: &str, entry: &LockEntry, locked: &mut Locked) -> Status {
    let request = match locked.request(entry, Want::tracked(entry)) {
        Ok(request) => request,
        Err(err @ OpenError::Outside { .. }) => {
            return Status {
                reason: Some(err.into()),
                ..Status::new(name, State::Skipped, None)
            };
        }
        Err(err) => return Status::unreachable(name, None, err),
    };
    // A skill made where it is installed is its own upstream: `skills manifest` records edits.
    if let Location::Folder(_) = &request.location
        && let Ok(layout) = install::layout(locked.scope, name, entry)
        && layout
            .placements
            .iter()
            .any(|p| p.link.is_none() && is_own_source(entry, locked.scope, &p.path))
    {
        return Status::new(name, State::UpToDate, None);
    }
    let sources = &mut locked.sources;
    let opened = match sources.tip(&request) {
        Err(err) => return Status::unreachable(name, None, err),
        Ok(None) => match sources.open(&request) {
            Ok(opened) => opened,
            Err(err) => return Status::unreachable(name, None, err),
        },
        Ok(Some(tip)) => {
            if entry.commit.as_deref() == Some(tip.as_str()) {
                return Status::new(name, State::UpToDate, Some(tip));
            }
            // Exactly the tip commit seen in the advertisement (the ref may move while we look).
            match sources.open(&request.pinned(&tip)) {
                Ok(opened) => opened,
                Err(err) => return Status::unreachable(name, Some(tip), err),
            }
        }
    };
    let tip = opened.commit().map(str::to_owned);
    // A web index that still gives the locked digest serves the locked bytes: nothing to download.
    if entry.digest.is_some() && opened.indexed_digest(name) == entry.digest.as_deref() {
        return Status::new(name, State::UpToDate, tip);
    }
    let digest = opened.digest_of(name);
    match read_skill(entry, name, &opened, locked.limits) {
        Ok(None) => Status {
            reason: Some(RestoreError::Removed(name.to_owned())),
            ..Status::new(name, State::RemovedUpstream, tip)
        },
        // Per-file digests where the lock has them: `computedHash` alone (all an entry of the
        // reference installer pins) misses a change to a file that is a link in the source.
        Ok(Some((_, payload)))
            if payload.computed_hash == entry.computed_hash
                && (entry.files.is_empty() || *payload.digested() == entry.files) =>
        {
            Status::new(name, State::UpToDate, tip)
        }
        Ok(Some(update)) => Status {
            update: Some(update),
            digest,
            ..Status::new(name, State::UpdateAvailable, tip)
        },
        Err(err) => Status::unreachable(name, tip, err),
    }
}

/// A skill asked for by name that the lockfile does not have.
#[derive(Debug, thiserror::Error)]
#[error("`{name}` is not in the lockfile")]
pub struct SelectError {
    pub name: String,
    pub locked: Vec<String>,
}

impl Hint for SelectError {
    fn hint(&self) -> Option<String> {
        Some(if self.locked.is_empty() {
            "the lockfile is empty".to_owned()
        } else {
            format!("locked: {}", self.locked.join(", "))
        })
    }
}

/// The entries `names` selects (all when empty); an unknown name is an error that lists the
/// locked ones.
pub fn select<'a>(
    lock: &'a Lock,
    names: &[String],
) -> Result<Vec<(&'a String, &'a LockEntry)>, SelectError> {
    if names.is_empty() {
        return Ok(lock.skills.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            lock.skills.get_key_value(name).ok_or_else(|| SelectError {
                name: name.clone(),
                locked: lock.skills.keys().cloned().collect(),
            })
        })
        .collect()
}

/// A commit for tables ([`crate::lock::short`]), `-` when there is none.
pub fn short(commit: Option<&str>) -> String {
    commit.map_or_else(|| "-".to_owned(), |c| crate::lock::short(c).to_owned())
}
