//! The watch where there is no inotify (macOS, Windows, the BSDs): `notify`'s recursive watch,
//! whose backends there (FSEvents, `ReadDirectoryChangesW`, kqueue) report no reads. A root
//! removed or renamed away stops being followed until it is back.

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use notify::Watcher as _;

use super::Event;

pub struct Watcher {
    watcher: notify::RecommendedWatcher,
    followed: Vec<PathBuf>,
    /// Followed roots removed or renamed away since they were followed.
    gone: Arc<Mutex<Vec<PathBuf>>>,
}

impl Watcher {
    pub fn new(
        events: Sender<Event>,
        _log: Arc<dyn Fn(String) + Send + Sync>,
    ) -> std::io::Result<Watcher> {
        let gone: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
        let seen = Arc::clone(&gone);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let mut out = Event::default();
            match event {
                Ok(event) if event.need_rescan() => out.rescan = true,
                Ok(event) => match event.kind {
                    notify::EventKind::Access(_) => return,
                    notify::EventKind::Remove(_)
                    | notify::EventKind::Modify(notify::event::ModifyKind::Name(_)) => {
                        if let Ok(mut gone) = seen.lock() {
                            gone.extend(event.paths.iter().cloned());
                        }
                        out.removed = event.paths;
                    }
                    _ => out.changed = event.paths,
                },
                // A watch could not be kept: rebuild to be sure.
                Err(_) => out.rescan = true,
            }
            let _ = events.send(out);
        })
        .map_err(std::io::Error::other)?;
        Ok(Watcher {
            watcher,
            followed: Vec::new(),
            gone,
        })
    }

    /// Watches `roots` instead of what it watched.
    pub fn follow(&mut self, roots: &[PathBuf], log: &dyn Fn(String)) {
        let gone = self.gone.lock().map(|g| g.clone()).unwrap_or_default();
        for old in &self.followed {
            if !roots.contains(old) || gone.contains(old) {
                // The watch of a deleted folder is gone already.
                let _ = self.watcher.unwatch(old);
            }
        }
        for new in roots {
            if !self.followed.contains(new) || gone.contains(new) {
                if let Err(err) = self.watcher.watch(new, notify::RecursiveMode::Recursive) {
                    log(format!("cannot watch `{}`: {err}", new.display()));
                }
            }
        }
        if let Ok(mut gone) = self.gone.lock() {
            gone.clear();
        }
        self.followed = roots.to_vec();
    }

    /// The roots followed, less those removed or renamed away since.
    pub fn following(&self) -> Vec<PathBuf> {
        let gone = self.gone.lock().map(|g| g.clone()).unwrap_or_default();
        self.followed
            .iter()
            .filter(|root| !gone.contains(root))
            .cloned()
            .collect()
    }
}
