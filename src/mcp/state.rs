//! What the handler and the watcher share: the snapshot in place, the first build while it runs,
//! and the clients to tell about changes.
//!
//! The first build hands out `skills/list` pages as soon as the skills on them are loaded (the
//! walk order is the listing order, so a page given early is the page the finished snapshot
//! gives); every other request waits for the whole snapshot. Later snapshots are built whole
//! and swapped in. Bytes are read on demand and checked against the listed digest: a file that
//! no longer matches has its skill reloaded, clients told, and is answered from the new snapshot,
//! so bytes that disagree with the listing in place are never sent.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};
use sha2::{Digest as _, Sha256};
use tokio::sync::watch;

use super::Settings;
use super::build::{self, reload};
use super::digests::{self, Known};
use super::snapshot::{FileMeta, SkillEntry, Snapshot};
use super::watch::{Changes, broadcast, diff};

/// How far the first build is.
#[derive(Debug, Clone, Copy, Default)]
struct Progress {
    /// Skills listed so far.
    listed: usize,
    /// The whole snapshot is in place.
    complete: bool,
}

/// State shared by the handler and the watcher.
pub struct Shared {
    settings: Settings,
    snapshot: RwLock<Arc<Snapshot>>,
    /// While the first build runs: the skills listed so far, in order.
    first: RwLock<Vec<Arc<SkillEntry>>>,
    progress: watch::Sender<Progress>,
    /// One rebuild at a time.
    rebuilding: Mutex<()>,
    /// The snapshot in place is newer than the digest cache on disk.
    dirty: AtomicBool,
    /// One write of the digest cache at a time.
    saving: Mutex<()>,
    /// URIs subscribed with the legacy `resources/subscribe`.
    pub subscribed: Mutex<HashSet<String>>,
    /// Open `subscriptions/listen` streams (2026-07-28).
    pub sinks: Mutex<Vec<SubscriptionSink>>,
    /// The client after a legacy `initialize`, for unscoped notifications.
    pub legacy_peer: Mutex<Option<Peer<RoleServer>>>,
    pub eof: watch::Receiver<bool>,
}

/// A file read and checked against the digest its skill lists.
pub struct Verified {
    pub skill: Arc<SkillEntry>,
    pub bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("no skill named `{0}`")]
    NoSkill(String),
    #[error("the skill `{skill}` serves no file `{rel}`")]
    NoFile { skill: String, rel: String },
    #[error("`{0}` keeps changing while it is read; try again")]
    Unsettled(String),
}

/// How often a read is tried against a freshly reloaded skill before giving up.
const READ_TRIES: usize = 3;

impl Shared {
    /// Shared state whose snapshot is still being built.
    pub fn new(settings: Settings, eof: watch::Receiver<bool>) -> Shared {
        Shared {
            settings,
            snapshot: RwLock::new(Arc::new(Snapshot::default())),
            first: RwLock::new(Vec::new()),
            progress: watch::Sender::new(Progress::default()),
            rebuilding: Mutex::new(()),
            dirty: AtomicBool::new(false),
            saving: Mutex::new(()),
            subscribed: Mutex::new(HashSet::new()),
            sinks: Mutex::new(Vec::new()),
            legacy_peer: Mutex::new(None),
            eof,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Adds what the first build just listed.
    pub fn extend_first(&self, skills: &[Arc<SkillEntry>]) {
        let listed: Vec<Arc<SkillEntry>> =
            skills.iter().filter(|s| s.is_listed()).cloned().collect();
        if listed.is_empty() {
            return;
        }
        let Ok(mut first) = self.first.write() else {
            return;
        };
        first.extend(listed);
        let count = first.len();
        drop(first);
        self.progress.send_modify(|p| p.listed = count);
    }

    /// Puts the first snapshot in place: a built one, to be remembered in the digest cache.
    pub fn install_first(&self, snapshot: Snapshot) {
        self.install(snapshot);
        self.dirty.store(true, Ordering::Relaxed);
    }

    /// Puts `snapshot` in place and releases the requests waiting for one.
    pub fn install(&self, snapshot: Snapshot) {
        if let Ok(mut current) = self.snapshot.write() {
            *current = Arc::new(snapshot);
        }
        self.progress.send_modify(|p| p.complete = true);
        if let Ok(mut first) = self.first.write() {
            *first = Vec::new();
        }
    }

    /// The snapshot as it is now (empty before the first one is installed).
    pub fn current(&self) -> Arc<Snapshot> {
        self.snapshot
            .read()
            .map(|s| Arc::clone(&s))
            .unwrap_or_default()
    }

    /// The snapshot, once the first one is installed.
    pub async fn snapshot(&self) -> Arc<Snapshot> {
        let mut progress = self.progress.subscribe();
        let _ = progress.wait_for(|p| p.complete).await;
        self.current()
    }

    /// Up to `count` listed skills from position `start`, and whether more follow; answered as
    /// soon as the first build has listed them. `None` when `start` is past the end.
    pub async fn listed(&self, start: usize, count: usize) -> Option<(Vec<Arc<SkillEntry>>, bool)> {
        let end = start.saturating_add(count);
        let mut progress = self.progress.subscribe();
        let now = progress
            .wait_for(|p| p.complete || p.listed > end)
            .await
            .map(|p| *p)
            .unwrap_or_default();
        if !now.complete
            && let Ok(first) = self.first.read()
            && first.len() > end
        {
            return Some((first[start..end].to_vec(), true));
        }
        let snapshot = self.snapshot().await;
        let len = snapshot.listed_len();
        if start > len {
            return None;
        }
        let end = end.min(len);
        let page = (start..end)
            .map(|i| Arc::clone(snapshot.listed_at(i)))
            .collect();
        Some((page, end < len))
    }

    /// Builds the snapshot anew (digests of unchanged files are taken from the one in place) and
    /// puts it in place when something changed. A root that vanished serves nothing rather than
    /// stale bytes. Blocking.
    pub fn rebuild(&self, log: &dyn Fn(String)) -> Changes {
        let _one = self.rebuilding.lock();
        let old = self.current();
        let roots = self.settings.roots.now();
        let known = Known::from_snapshot(Arc::clone(&old));
        let new = build::build(&roots, &self.settings.filter, self.settings.limits, known)
            .unwrap_or_else(|err| {
                log(format!("{err}; serving no skills until it is back"));
                Snapshot::default()
            });
        // Each reason once: only what this rebuild newly skips.
        for why in new.skipped.iter().filter(|why| !old.skipped.contains(why)) {
            log(why.clone());
        }
        self.swap(&old, new)
    }

    /// Reloads the skills served from `dirs` (a change inside them), or rebuilds everything when
    /// one of them is gone, was renamed or is not a served skill. Blocking.
    pub fn refresh(&self, dirs: &[std::path::PathBuf], log: &dyn Fn(String)) -> Changes {
        let guard = self.rebuilding.lock();
        let old = self.current();
        let mut fresh = Vec::new();
        let known = Known::from_snapshot(Arc::clone(&old));
        for dir in dirs {
            let Some(skill) = old.skills.iter().find(|s| &s.dir == dir) else {
                drop(guard);
                return self.rebuild(log);
            };
            match reload(dir, &skill.name, self.settings.limits, &known) {
                // Whether it is listed decides the order of pages: only a whole build changes it.
                Some(new) if new.is_listed() == skill.is_listed() => {
                    fresh.push(Arc::new(SkillEntry {
                        root: skill.root,
                        ..new
                    }));
                }
                _ => {
                    drop(guard);
                    return self.rebuild(log);
                }
            }
        }
        let new = old.replacing(fresh);
        self.swap(&old, new)
    }

    fn swap(&self, old: &Snapshot, new: Snapshot) -> Changes {
        let changes = diff(old, &new);
        if changes.lists || !changes.updated.is_empty() {
            self.install(new);
            self.dirty.store(true, Ordering::Relaxed);
        }
        changes
    }

    /// Writes the digest cache, when the snapshot in place is newer; waits for a write under way.
    pub fn save_digests(&self) -> std::io::Result<()> {
        let _one = self.saving.lock();
        if !self.dirty.swap(false, Ordering::Relaxed) {
            return Ok(());
        }
        let roots: Vec<std::path::PathBuf> = self
            .settings
            .roots
            .now()
            .into_iter()
            .map(|r| r.path)
            .collect();
        digests::save(&digests::cache_file(&roots), &self.current())
    }

    /// The bytes of file `rel` of skill `name`, checked against the digest the snapshot lists. A
    /// file that changed gets its skill reloaded and the clients told, and is answered from the
    /// new snapshot.
    pub async fn read(
        self: &Arc<Self>,
        name: &str,
        rel: &str,
        log: Arc<dyn Fn(String) + Send + Sync>,
    ) -> Result<Verified, ReadError> {
        for _ in 0..READ_TRIES {
            let snapshot = self.snapshot().await;
            let skill = snapshot
                .get(name)
                .ok_or_else(|| ReadError::NoSkill(name.to_owned()))?;
            let file = skill.file(rel).ok_or_else(|| ReadError::NoFile {
                skill: name.to_owned(),
                rel: rel.to_owned(),
            })?;
            let (path, expected) = (skill.path(file), file.clone());
            let max = self.settings.limits.max_file;
            let read = tokio::task::spawn_blocking(move || read_checked(&path, &expected, max))
                .await
                .ok()
                .flatten();
            if let Some(bytes) = read {
                return Ok(Verified {
                    skill: Arc::clone(skill),
                    bytes,
                });
            }
            let (shared, dir, log) = (Arc::clone(self), skill.dir.clone(), Arc::clone(&log));
            let changes = tokio::task::spawn_blocking(move || {
                shared.refresh(std::slice::from_ref(&dir), &*log)
            })
            .await
            .unwrap_or_default();
            broadcast(self, &changes).await;
        }
        Err(ReadError::Unsettled(super::uri::uri(name, rel)))
    }
}

/// The bytes at `path` when they are the ones `file` lists.
fn read_checked(path: &std::path::Path, file: &FileMeta, max: u64) -> Option<Vec<u8>> {
    if file.size() > max {
        return None;
    }
    let bytes = crate::skill::read_listed(path, &file.stamp, Some(file.size())).ok()?;
    (bytes.len() as u64 == file.size() && <[u8; 32]>::from(Sha256::digest(&bytes)) == file.digest)
        .then_some(bytes)
}
