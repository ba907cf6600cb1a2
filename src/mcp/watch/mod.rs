//! Freshness: the roots are watched; a burst of changes is debounced, the skills it touched are
//! reloaded (or the whole snapshot rebuilt) and swapped in, then clients are told — legacy
//! clients with unscoped notifications (`*/list_changed`, and `resources/updated` for what they
//! subscribed), 2026-07-28 clients on their `subscriptions/listen` streams.
//!
//! The watch itself is [`tree`] on Linux (inotify, told only of writes and renames, a compact
//! tree of folders) and [`portable`] elsewhere (`notify`).

#[cfg(not(target_os = "linux"))]
mod portable;
#[cfg(target_os = "linux")]
mod tree;

#[cfg(not(target_os = "linux"))]
use portable::Watcher;
#[cfg(target_os = "linux")]
use tree::Watcher;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::ResourceUpdatedNotificationParam;

use super::server::PROMPT_XML;
use super::snapshot::{SkillEntry, Snapshot};
use super::state::Shared;
use super::uri::uri;
use crate::skill::files::NOT_INSPECTED;

/// How long a burst of file events is allowed to settle before rebuilding.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// What the watch saw.
#[derive(Debug, Default)]
pub struct Event {
    /// Files or folders written or created.
    pub changed: Vec<PathBuf>,
    /// Files or folders removed or renamed away.
    pub removed: Vec<PathBuf>,
    /// Events were lost, or the roots changed: only a whole rebuild tells what changed.
    pub rescan: bool,
}

impl Event {
    fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty() && !self.rescan
    }

    fn merge(&mut self, other: Event) {
        self.changed.extend(other.changed);
        self.removed.extend(other.removed);
        self.rescan |= other.rescan;
    }
}

/// What changed between two snapshots.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Skills or files appeared, disappeared or were renamed, or a frontmatter changed.
    pub lists: bool,
    /// URIs whose content changed (or that are gone).
    pub updated: Vec<String>,
}

/// What changed from `old` to `new`, skill by skill. Any change to a file changes the listings
/// too: `skills/list` entries carry every digest.
pub fn diff(old: &Snapshot, new: &Snapshot) -> Changes {
    let mut changes = Changes::default();
    let outline = |s: &Snapshot| -> Vec<(String, bool, String, Vec<String>)> {
        s.skills
            .iter()
            .map(|skill| {
                let files = skill.files.iter().map(|f| f.rel.to_string()).collect();
                (
                    skill.name.to_string(),
                    skill.is_listed(),
                    skill.frontmatter.get().to_owned(),
                    files,
                )
            })
            .collect()
    };
    let reshaped = old.skills.len() != new.skills.len() || outline(old) != outline(new);
    let by_name: HashMap<&str, &Arc<SkillEntry>> =
        new.skills.iter().map(|s| (&*s.name, s)).collect();
    for before in &old.skills {
        let after = by_name.get(&*before.name);
        let mut touched = false;
        for file in &before.files {
            let now = after.and_then(|a| a.file(&file.rel));
            if now.is_none_or(|now| now.digest != file.digest) {
                touched = true;
                changes.updated.push(uri(&before.name, &file.rel));
            }
        }
        if touched || after.is_none_or(|a| a.files.len() != before.files.len()) {
            changes.updated.push(uri(&before.name, "_manifest"));
        }
    }
    changes.lists = reshaped || !changes.updated.is_empty();
    if reshaped {
        // Names and descriptions make the catalog.
        changes.updated.push(PROMPT_XML.to_owned());
    }
    changes.updated.sort();
    changes.updated.dedup();
    changes
}

/// Tells every client what changed.
pub async fn broadcast(shared: &Shared, changes: &Changes) {
    if !changes.lists && changes.updated.is_empty() {
        return;
    }
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

/// The skill folders the changed `paths` lie in, or `None` when one lies in none (a skill
/// folder itself appeared, vanished or was renamed, or something outside every skill changed):
/// then only a whole build tells what changed.
fn touched_skills(snapshot: &Snapshot, paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let dirs: HashSet<&Path> = snapshot.skills.iter().map(|s| s.dir.as_path()).collect();
    let mut touched: Vec<PathBuf> = Vec::new();
    for path in paths {
        let dir = path
            .ancestors()
            .skip(1)
            .find(|ancestor| dirs.contains(ancestor))?;
        if !touched.iter().any(|t| t == dir) {
            touched.push(dir.to_path_buf());
        }
    }
    Some(touched)
}

/// Watches the roots of `shared`; on change reloads the skills changed (or rebuilds the whole
/// snapshot), swaps it in and broadcasts on `runtime`. The snapshot in place was built from
/// `started` on, before the watch was set up, from the roots `built`: if a root came or went
/// since, or anything under them was modified since, it is rebuilt right away. Roots come and
/// go (a default agent dir is created, a given folder is deleted and made again): one removed
/// or moved away is no longer followed, and every [`ROOTS_POLL`] the roots are looked up again;
/// when they changed the watch follows and the snapshot is rebuilt. The watch lives on its own
/// thread; `false` when none can be made.
pub fn spawn(
    shared: Arc<Shared>,
    runtime: tokio::runtime::Handle,
    log: Arc<dyn Fn(String) + Send + Sync>,
    started: SystemTime,
    built: &[PathBuf],
) -> bool {
    let (events, receive) = std::sync::mpsc::channel::<Event>();
    let missed = events.clone();
    let Ok(mut watcher) = Watcher::new(events, Arc::clone(&log)) else {
        return false;
    };
    let roots = {
        let shared = Arc::clone(&shared);
        move || -> Vec<PathBuf> {
            let roots: Vec<PathBuf> = shared
                .settings()
                .roots
                .now()
                .into_iter()
                .map(|root| root.path)
                .collect();
            present(&roots)
        }
    };
    watcher.follow(&roots(), &*log);
    // File systems stamp modification times from a coarse clock (and some at 2 s granularity):
    // look back far enough that a change just after `started` is never stamped before it.
    let since = started.checked_sub(CLOCK_SLACK).unwrap_or(UNIX_EPOCH);
    let following = watcher.following();
    if following != built || following.iter().any(|root| modified_since(root, since)) {
        let _ = missed.send(Event {
            rescan: true,
            ..Event::default()
        });
    }
    std::thread::spawn(move || {
        loop {
            let mut batch = Event::default();
            match receive.recv_timeout(ROOTS_POLL) {
                Ok(event) => {
                    batch.merge(event);
                    // Let the burst settle: keep draining until it is quiet for a moment.
                    while let Ok(more) = receive.recv_timeout(DEBOUNCE) {
                        batch.merge(more);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
            }
            let now = roots();
            if now != watcher.following() {
                watcher.follow(&now, &*log);
                batch.rescan = true;
            }
            if batch.is_empty() {
                continue;
            }
            let dirs = if batch.rescan {
                None
            } else {
                batch.changed.extend(batch.removed);
                touched_skills(&shared.current(), &batch.changed)
            };
            let changes = match dirs {
                Some(dirs) => shared.refresh(&dirs, &*log),
                None => shared.rebuild(&*log),
            };
            let shared = Arc::clone(&shared);
            runtime.spawn(async move { broadcast(&shared, &changes).await });
        }
    });
    true
}

/// How often the roots are looked up again.
pub const ROOTS_POLL: Duration = Duration::from_secs(2);

/// The roots that exist.
pub fn present(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots.iter().filter(|root| root.exists()).cloned().collect()
}

/// How far before the start of the first build a modification time still counts as "during".
const CLOCK_SLACK: Duration = Duration::from_secs(2);

/// Whether `root`, or anything under it the index could see, was modified at or after `since`.
/// A folder's time changes when entries are added, removed or renamed in it; links are followed,
/// as the index and the watch follow them, each linked folder once. Only what no reader looks
/// into is skipped ([`NOT_INSPECTED`]): a skill's `build/` is served, so it is looked at.
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
            if NOT_INSPECTED.contains(&entry.file_name().to_string_lossy().as_ref()) {
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
pub const MAX_WALK_DEPTH: usize = crate::index::MAX_DEPTH + crate::skill::inventory::MAX_DEPTH;

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
