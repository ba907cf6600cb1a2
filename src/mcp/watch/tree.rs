//! The watch on Linux: one inotify watch per folder under the roots, kept in a compact tree.
//!
//! Why not `notify`'s recursive watch: it asks the kernel for open events too, so the server's own
//! reads (a rebuild opens every `SKILL.md`) flood the event queue until it overflows, and an
//! overflow asks for a rebuild, whose reads overflow it again; and it keeps two full paths per
//! folder, 44 MB for the 150,000 folders of 50,000 skills. Here the kernel reports only writes,
//! creations, deletions and renames, and each folder costs its name and its parent's descriptor.
//!
//! Invariants: a folder is watched once (a second path to it, through a symlink, adds nothing,
//! which also ends symlink loops); `.git` and `node_modules` are never entered (never served);
//! a folder created under a watched one is watched at once; a folder removed or moved away is
//! forgotten; when the roots change or the kernel's queue overflows, the whole tree is watched
//! anew and a whole rebuild is asked for. Over the kernel's limit of watches, what is left
//! unwatched is said once: reads are still checked against their digests.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask, Watches};

use super::{Event, MAX_WALK_DEPTH};

/// What the kernel is asked to report: changes of content and of names, nothing about reads.
const MASK: WatchMask = WatchMask::CREATE
    .union(WatchMask::DELETE)
    .union(WatchMask::MODIFY)
    .union(WatchMask::CLOSE_WRITE)
    .union(WatchMask::MOVED_FROM)
    .union(WatchMask::MOVED_TO)
    .union(WatchMask::DELETE_SELF)
    .union(WatchMask::MOVE_SELF)
    .union(WatchMask::EXCL_UNLINK);

/// Folders never watched: nothing in them is served.
const SKIPPED: &[&str] = crate::skill::files::NOT_INSPECTED;

/// A watched folder: its name under its parent (a root's whole path), kept in [`Tree::names`].
struct Node {
    wd: WatchDescriptor,
    /// The parent's watch; -1 for a root.
    parent: i32,
    name: Name,
}

/// Where a name is in [`Tree::names`]: one allocation for all names, not one per folder.
#[derive(Clone, Copy)]
struct Name {
    start: u32,
    len: u32,
}

#[derive(Default)]
struct Tree {
    nodes: HashMap<i32, Node>,
    /// Every name, one after the other (names of forgotten folders stay until the tree is
    /// watched anew).
    names: Vec<u8>,
    /// The roots followed, as given, with the watch of their folder (`None`: it could not be
    /// watched, and is not tried again until the roots change).
    roots: Vec<(PathBuf, Option<i32>)>,
    /// The kernel refused a watch for lack of room (said once).
    full: bool,
}

impl Tree {
    fn name(&self, name: Name) -> &OsStr {
        let (start, len) = (name.start as usize, name.len as usize);
        OsStr::from_bytes(self.names.get(start..start + len).unwrap_or_default())
    }

    fn keep(&mut self, name: &OsStr) -> Name {
        let start = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.extend_from_slice(name.as_bytes());
        Name {
            start,
            len: u32::try_from(name.len()).unwrap_or(0),
        }
    }

    /// The folders from a root to `id`.
    fn chain(&self, id: i32) -> Option<Vec<i32>> {
        let mut chain = vec![id];
        let mut at = self.nodes.get(&id)?.parent;
        while at >= 0 {
            chain.push(at);
            at = self.nodes.get(&at)?.parent;
            if chain.len() > MAX_WALK_DEPTH + 1 {
                return None;
            }
        }
        Some(chain)
    }

    fn path(&self, id: i32) -> Option<PathBuf> {
        let chain = self.chain(id)?;
        Some(
            chain
                .iter()
                .rev()
                .map(|id| self.name(self.nodes[id].name))
                .collect(),
        )
    }

    fn depth(&self, id: i32) -> usize {
        self.chain(id).map_or(0, |chain| chain.len() - 1)
    }

    /// Watches `path` and every folder below it; `false` when the kernel's limit is reached.
    fn add(
        &mut self,
        watches: &mut Watches,
        path: &Path,
        parent: i32,
        name: &OsStr,
        depth: usize,
        log: &dyn Fn(String),
    ) -> bool {
        let wd = match watches.add(path, MASK) {
            Ok(wd) => wd,
            Err(err) if err.raw_os_error() == Some(libc::ENOSPC) => {
                if !self.full {
                    self.full = true;
                    log(format!(
                        "cannot watch every folder: the kernel's limit of inotify watches \
                         (fs.inotify.max_user_watches) is reached at `{}`; changes beyond it are \
                         seen only when a file is read",
                        path.display()
                    ));
                }
                return false;
            }
            // Gone already, or not a folder: nothing to watch.
            Err(_) => return true,
        };
        let id = wd.get_watch_descriptor_id();
        if self.nodes.contains_key(&id) {
            // The same folder again: reached through a symlink or a second root (watched
            // already), or moved here from where it was (its name follows it).
            let moved = self.path(id).is_none_or(|old| !old.exists());
            if moved && parent >= 0 && self.nodes[&id].parent >= 0 {
                let name = self.keep(name);
                if let Some(node) = self.nodes.get_mut(&id) {
                    node.parent = parent;
                    node.name = name;
                }
            }
            return true;
        }
        let name = self.keep(name);
        self.nodes.insert(id, Node { wd, parent, name });
        if depth >= MAX_WALK_DEPTH {
            return true;
        }
        let Ok(entries) = std::fs::read_dir(path) else {
            return true;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if SKIPPED.iter().any(|s| name == **s) {
                continue;
            }
            let child = entry.path();
            let is_dir = match entry.file_type() {
                Ok(kind) if kind.is_dir() => true,
                Ok(kind) if kind.is_symlink() => child.is_dir(),
                _ => false,
            };
            if is_dir && !self.add(watches, &child, id, &name, depth + 1, log) {
                return false;
            }
        }
        true
    }

    /// Forgets the folder `id` and every folder below it, removing their watches.
    fn remove(&mut self, watches: &mut Watches, id: i32) {
        let below: Vec<i32> = self
            .nodes
            .keys()
            .copied()
            .filter(|&other| self.chain(other).is_some_and(|chain| chain.contains(&id)))
            .collect();
        for id in below {
            if let Some(node) = self.nodes.remove(&id) {
                let _ = watches.remove(node.wd);
            }
        }
    }

    /// Watches `roots` (those that exist) from scratch.
    fn watch(&mut self, watches: &mut Watches, roots: &[PathBuf], log: &dyn Fn(String)) {
        for (_, node) in self.nodes.drain() {
            let _ = watches.remove(node.wd);
        }
        self.names = Vec::new();
        self.full = false;
        self.roots.clear();
        for root in roots {
            // A SKILL.md given as the root: its folder is the skill.
            let dir = if root.is_dir() {
                root.clone()
            } else {
                match root.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                    _ => PathBuf::from("."),
                }
            };
            let full = !self.add(watches, &dir, -1, dir.as_os_str(), 0, log);
            // Asked again, the kernel names the watch it has (or refuses the same way).
            let id = watches
                .add(&dir, MASK)
                .ok()
                .map(|wd| wd.get_watch_descriptor_id());
            self.roots.push((root.clone(), id));
            if full {
                break;
            }
        }
    }
}

/// The watch of a set of roots.
pub struct Watcher {
    watches: Watches,
    tree: Arc<Mutex<Tree>>,
}

impl Watcher {
    /// Starts the thread that turns the kernel's events into [`Event`]s on `events`.
    pub fn new(
        events: Sender<Event>,
        log: Arc<dyn Fn(String) + Send + Sync>,
    ) -> std::io::Result<Watcher> {
        let mut inotify = Inotify::init()?;
        let watches = inotify.watches();
        let tree = Arc::new(Mutex::new(Tree::default()));
        let (shared, mut own) = (Arc::clone(&tree), watches.clone());
        std::thread::spawn(move || {
            let mut buffer = vec![0u8; 64 * 1024];
            loop {
                let Ok(read) = inotify.read_events_blocking(&mut buffer) else {
                    return;
                };
                let Ok(mut tree) = shared.lock() else {
                    return;
                };
                let mut event = Event::default();
                for raw in read {
                    if raw.mask.contains(EventMask::Q_OVERFLOW) {
                        // Events were lost: watch everything anew and rebuild.
                        let roots: Vec<PathBuf> =
                            tree.roots.iter().map(|(r, _)| r.clone()).collect();
                        tree.watch(&mut own, &roots, &*log);
                        event.rescan = true;
                        continue;
                    }
                    let id = raw.wd.get_watch_descriptor_id();
                    if raw.mask.contains(EventMask::IGNORED) {
                        tree.nodes.remove(&id);
                        continue;
                    }
                    let Some(dir) = tree.path(id) else {
                        continue;
                    };
                    if raw
                        .mask
                        .intersects(EventMask::DELETE_SELF | EventMask::MOVE_SELF)
                    {
                        // Moved within the tree, it is watched under its new name already.
                        if raw.mask.contains(EventMask::DELETE_SELF) || !dir.is_dir() {
                            tree.remove(&mut own, id);
                        }
                        event.removed.push(dir);
                        continue;
                    }
                    let Some(name) = raw.name else {
                        continue;
                    };
                    let path = dir.join(name);
                    if raw.mask.contains(EventMask::ISDIR)
                        && raw.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO)
                        && !SKIPPED.iter().any(|s| name == *s)
                    {
                        let depth = tree.depth(id) + 1;
                        tree.add(&mut own, &path, id, name, depth, &*log);
                    }
                    if raw
                        .mask
                        .intersects(EventMask::DELETE | EventMask::MOVED_FROM)
                    {
                        event.removed.push(path);
                    } else {
                        event.changed.push(path);
                    }
                }
                drop(tree);
                if !event.is_empty() && events.send(event).is_err() {
                    return;
                }
            }
        });
        Ok(Watcher { watches, tree })
    }

    /// Watches `roots` instead of what it watched.
    pub fn follow(&mut self, roots: &[PathBuf], log: &dyn Fn(String)) {
        if let Ok(mut tree) = self.tree.lock() {
            tree.watch(&mut self.watches, roots, log);
        }
    }

    /// The roots followed, less those whose folder was removed or moved away since.
    pub fn following(&self) -> Vec<PathBuf> {
        let Ok(tree) = self.tree.lock() else {
            return Vec::new();
        };
        tree.roots
            .iter()
            .filter(|(_, id)| id.is_none_or(|id| tree.nodes.contains_key(&id)))
            .map(|(root, _)| root.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Everything the watch reports until it is quiet for a moment.
    fn drain(events: &std::sync::mpsc::Receiver<Event>) -> Event {
        let mut all = Event::default();
        while let Ok(event) = events.recv_timeout(Duration::from_millis(300)) {
            all.merge(event);
        }
        all
    }

    #[test]
    fn folders_are_followed_as_they_come_and_go() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("root");
        std::fs::create_dir_all(root.join("pdf/references")).unwrap();
        std::fs::create_dir_all(root.join("pdf/.git/objects")).unwrap();
        std::fs::write(root.join("pdf/SKILL.md"), "a").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&root, root.join("pdf/loop")).unwrap();
        let (sender, events) = std::sync::mpsc::channel();
        let log: Arc<dyn Fn(String) + Send + Sync> = Arc::new(|_| {});
        let mut watcher = Watcher::new(sender, Arc::clone(&log)).unwrap();
        watcher.follow(std::slice::from_ref(&root), &*log);
        assert_eq!(watcher.following(), std::slice::from_ref(&root));
        {
            let tree = watcher.tree.lock().unwrap();
            let mut folders: Vec<PathBuf> =
                tree.nodes.keys().filter_map(|&id| tree.path(id)).collect();
            folders.sort();
            // Once each (the symlink loop leads back to the root), `.git` never.
            assert_eq!(
                folders,
                [root.clone(), root.join("pdf"), root.join("pdf/references")]
            );
        }
        // Reads are not reported; writes are, at any depth, also in folders made later.
        let _ = std::fs::read(root.join("pdf/SKILL.md")).unwrap();
        assert!(drain(&events).is_empty(), "reads are not events");
        std::fs::write(root.join("pdf/references/a.md"), "x").unwrap();
        std::fs::create_dir_all(root.join("pdf/scripts/deep")).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        std::fs::write(root.join("pdf/scripts/deep/run.py"), "x").unwrap();
        let seen = drain(&events);
        assert!(
            seen.changed.contains(&root.join("pdf/references/a.md")),
            "{seen:?}"
        );
        assert!(
            seen.changed.contains(&root.join("pdf/scripts/deep/run.py")),
            "{seen:?}"
        );
        // A folder renamed within the tree is followed under its new name.
        std::fs::rename(root.join("pdf"), root.join("pdf2")).unwrap();
        let seen = drain(&events);
        assert!(seen.removed.contains(&root.join("pdf")), "{seen:?}");
        std::fs::write(root.join("pdf2/references/b.md"), "x").unwrap();
        let seen = drain(&events);
        assert!(
            seen.changed.contains(&root.join("pdf2/references/b.md")),
            "{seen:?}"
        );
        // The root removed: no longer followed.
        std::fs::remove_dir_all(&root).unwrap();
        let seen = drain(&events);
        assert!(seen.removed.contains(&root), "{seen:?}");
        assert!(watcher.following().is_empty());
    }
}
