//! Freshness: the roots are watched; a burst of changes is debounced, the snapshot rebuilt and
//! swapped in whole, then clients are told — legacy clients with unscoped notifications
//! (`*/list_changed`, and `resources/updated` for what they subscribed), 2026-07-28 clients on
//! their `subscriptions/listen` streams.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use notify::Watcher as _;
use rmcp::model::ResourceUpdatedNotificationParam;

use super::server::{PROMPT_XML, Shared};
use super::snapshot::{Snapshot, uri};
use crate::index::SKIPPED_DIRS;

/// How long a burst of file events is allowed to settle before rebuilding.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// What changed between two snapshots.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Skills or files appeared, disappeared or were renamed, or a description changed.
    pub lists: bool,
    /// URIs whose content changed.
    pub updated: Vec<String>,
}

/// Every served URI of `snapshot` with its digest.
fn digests(snapshot: &Snapshot) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for skill in &snapshot.skills {
        let mut manifest = String::new();
        for file in &skill.files {
            out.insert(file.uri.clone(), file.digest.clone());
            manifest.push_str(&file.digest);
        }
        out.insert(uri(&skill.name, "_manifest"), manifest);
    }
    out.insert(
        PROMPT_XML.to_owned(),
        crate::lock::digest(snapshot.catalog_xml.as_bytes()),
    );
    out
}

pub fn diff(old: &Snapshot, new: &Snapshot) -> Changes {
    let (before, after) = (digests(old), digests(new));
    let lists = before.keys().ne(after.keys())
        || old
            .skills
            .iter()
            .map(|s| (&s.name, &s.description))
            .ne(new.skills.iter().map(|s| (&s.name, &s.description)));
    let updated = before
        .iter()
        .filter(|(uri, digest)| after.get(*uri) != Some(*digest))
        .map(|(uri, _)| uri.clone())
        .collect();
    Changes { lists, updated }
}

/// Tells every client what changed.
pub async fn broadcast(shared: &Shared, changes: &Changes) {
    let legacy = shared.legacy_peer.lock().ok().and_then(|p| p.clone());
    if let Some(peer) = legacy {
        if changes.lists {
            let _ = peer.notify_resource_list_changed().await;
            let _ = peer.notify_tool_list_changed().await;
            let _ = peer.notify_prompt_list_changed().await;
        }
        let subscribed = shared
            .subscribed
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default();
        for uri in changes.updated.iter().filter(|u| subscribed.contains(*u)) {
            let _ = peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri.clone()))
                .await;
        }
    }
    let sinks = shared.sinks.lock().map(|s| s.clone()).unwrap_or_default();
    for sink in sinks {
        // Each stream only takes what its client asked for; refusals are expected.
        if changes.lists {
            let _ = sink.notify_resource_list_changed().await;
            let _ = sink.notify_tool_list_changed().await;
            let _ = sink.notify_prompt_list_changed().await;
        }
        for uri in &changes.updated {
            let _ = sink.notify_resource_updated(uri.clone()).await;
        }
    }
}

/// Watches the folders `roots` names; on change runs `rebuild`, swaps the snapshot and
/// broadcasts on `runtime`. The snapshot in place was built from `started` on, before the watch
/// was set up: if anything was modified since, it is rebuilt right away. Roots come and go (a
/// default agent dir is created, a given folder is deleted and made again): a root removed or
/// renamed away is no longer followed, and every [`ROOTS_POLL`] the roots are looked up again;
/// when they changed the watch follows and the snapshot is rebuilt. The watch lives on its own
/// thread; `false` when none can be made.
pub fn spawn(
    roots: impl Fn() -> Vec<PathBuf> + Send + 'static,
    rebuild: impl Fn() -> Snapshot + Send + 'static,
    shared: Arc<Shared>,
    runtime: tokio::runtime::Handle,
    log: impl Fn(String) + Send + 'static,
    started: SystemTime,
) -> bool {
    // Each event sends the paths it removed or renamed away (often none).
    let (events, receive) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let missed = events.clone();
    let Ok(mut watcher) =
        notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                return;
            };
            let gone = match event.kind {
                notify::EventKind::Access(_) => return,
                notify::EventKind::Remove(_)
                | notify::EventKind::Modify(notify::event::ModifyKind::Name(_)) => event.paths,
                _ => Vec::new(),
            };
            let _ = events.send(gone);
        })
    else {
        return false;
    };
    let mut following = Following::default();
    following.follow(&mut watcher, present(&roots()), &log);
    // File systems stamp modification times from a coarse clock (and some at 2 s granularity):
    // look back far enough that a change just after `started` is never stamped before it.
    let since = started.checked_sub(CLOCK_SLACK).unwrap_or(UNIX_EPOCH);
    if following.0.iter().any(|root| modified_since(root, since)) {
        let _ = missed.send(Vec::new());
    }
    std::thread::spawn(move || {
        loop {
            match receive.recv_timeout(ROOTS_POLL) {
                Ok(mut gone) => {
                    // Let the burst settle: keep draining until it is quiet for a moment.
                    while let Ok(more) = receive.recv_timeout(DEBOUNCE) {
                        gone.extend(more);
                    }
                    following.forget(&mut watcher, &gone);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if present(&roots()) == following.0 {
                        continue;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
            }
            following.follow(&mut watcher, present(&roots()), &log);
            let new = rebuild();
            let old = shared.current();
            // Each reason once: only what this rebuild newly skips.
            for why in new.skipped.iter().filter(|why| !old.skipped.contains(why)) {
                log(why.clone());
            }
            let changes = diff(&old, &new);
            if changes.lists || !changes.updated.is_empty() {
                shared.install(new);
                let shared = Arc::clone(&shared);
                runtime.spawn(async move { broadcast(&shared, &changes).await });
            }
        }
    });
    true
}

/// How often the roots are looked up again.
pub const ROOTS_POLL: Duration = Duration::from_secs(2);

/// The roots that exist.
fn present(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots.iter().filter(|root| root.exists()).cloned().collect()
}

/// The roots being watched.
#[derive(Default)]
struct Following(Vec<PathBuf>);

impl Following {
    /// Watches `now` instead: drops the roots that went, adds the new ones.
    fn follow(
        &mut self,
        watcher: &mut notify::RecommendedWatcher,
        now: Vec<PathBuf>,
        log: &impl Fn(String),
    ) {
        for old in self.0.iter().filter(|old| !now.contains(old)) {
            // The watch of a deleted folder is gone already.
            let _ = watcher.unwatch(old);
        }
        for new in now.iter().filter(|new| !self.0.contains(new)) {
            if let Err(err) = watcher.watch(new, notify::RecursiveMode::Recursive) {
                log(format!("cannot watch `{}`: {err}", new.display()));
            }
        }
        self.0 = now;
    }

    /// Stops following the roots among `gone`: what is at their path now, if anything, is
    /// another folder, to be watched afresh.
    fn forget(&mut self, watcher: &mut notify::RecommendedWatcher, gone: &[PathBuf]) {
        self.0.retain(|root| {
            let keep = !gone.contains(root);
            if !keep {
                let _ = watcher.unwatch(root);
            }
            keep
        });
    }
}

/// How far before the start of the first build a modification time still counts as "during".
const CLOCK_SLACK: Duration = Duration::from_secs(2);

/// Whether `root`, or anything under it the index could see, was modified at or after `since`.
/// A folder's time changes when entries are added, removed or renamed in it; links are followed,
/// as the index and the watch follow them, each linked folder once.
fn modified_since(root: &Path, since: SystemTime) -> bool {
    let Ok(metadata) = std::fs::metadata(root) else {
        // Not there (most default roots are not), so not watched either.
        return false;
    };
    let newer = |metadata: &std::fs::Metadata| metadata.modified().is_ok_and(|m| m >= since);
    let mut linked = HashSet::new();
    let mut stack = vec![(root.to_path_buf(), 0)];
    if newer(&metadata) {
        return true;
    }
    if !metadata.is_dir() {
        return false;
    }
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref()) {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let metadata = if kind.is_symlink() {
                std::fs::metadata(&path)
            } else {
                entry.metadata()
            };
            let Ok(metadata) = metadata else {
                continue;
            };
            if newer(&metadata) {
                return true;
            }
            let fresh = !kind.is_symlink()
                || std::fs::canonicalize(&path).is_ok_and(|real| linked.insert(real));
            if metadata.is_dir() && fresh && depth < MAX_WALK_DEPTH {
                stack.push((path, depth + 1));
            }
        }
    }
    false
}

/// Skill folders lie at most `index::MAX_DEPTH` deep, their files at most
/// `inventory::MAX_DEPTH` below them.
const MAX_WALK_DEPTH: usize = crate::index::MAX_DEPTH + crate::skill::inventory::MAX_DEPTH;

#[cfg(test)]
mod tests {
    use super::*;

    fn backdate(path: &Path, to: SystemTime) {
        let kind = std::fs::symlink_metadata(path).unwrap().file_type();
        if kind.is_symlink() {
            return;
        }
        if kind.is_dir() {
            for entry in std::fs::read_dir(path).unwrap() {
                backdate(&entry.unwrap().path(), to);
            }
        }
        std::fs::File::open(path).unwrap().set_modified(to).unwrap();
    }

    #[test]
    fn modified_since_sees_new_and_changed_entries_at_any_depth() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("root");
        let deep = root.join("group/pdf/references/a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
        std::fs::create_dir_all(temp.path().join("elsewhere/linked")).unwrap();
        std::fs::write(root.join("group/pdf/SKILL.md"), "---\n---\n").unwrap();
        std::fs::write(deep.join("notes.md"), "notes\n").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(temp.path().join("elsewhere"), root.join("link")).unwrap();
            // A loop: walked once, not forever.
            std::os::unix::fs::symlink(&root, root.join("group/loop")).unwrap();
        }
        let old = SystemTime::now() - Duration::from_secs(3600);
        let since = SystemTime::now() - Duration::from_secs(60);
        backdate(temp.path(), old);
        assert!(!modified_since(&root, since));
        assert!(!modified_since(&temp.path().join("missing"), since));

        // A changed file deep down.
        std::fs::write(deep.join("notes.md"), "changed\n").unwrap();
        assert!(modified_since(&root, since));
        backdate(temp.path(), old);
        // A new file: its folder's time changes.
        std::fs::write(deep.join("new.md"), "new\n").unwrap();
        std::fs::File::open(deep.join("new.md"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(modified_since(&root, since));
        backdate(temp.path(), old);
        // What the index never reads does not count.
        std::fs::write(root.join("node_modules/x/index.js"), "").unwrap();
        assert!(!modified_since(&root, since));
        // Behind a link.
        #[cfg(unix)]
        {
            std::fs::write(temp.path().join("elsewhere/linked/f.md"), "f\n").unwrap();
            assert!(modified_since(&root, since));
        }
    }
}
