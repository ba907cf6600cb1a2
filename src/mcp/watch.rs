//! Freshness: the roots are watched; a burst of changes is debounced, the snapshot rebuilt and
//! swapped in whole, then clients are told — legacy clients with unscoped notifications
//! (`*/list_changed`, and `resources/updated` for what they subscribed), 2026-07-28 clients on
//! their `subscriptions/listen` streams.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use notify::Watcher as _;
use rmcp::model::ResourceUpdatedNotificationParam;

use super::server::{PROMPT_XML, Shared};
use super::snapshot::{Snapshot, uri};

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

/// Watches `roots`; on change runs `rebuild`, swaps the snapshot and broadcasts on `runtime`.
/// The returned watcher must be kept alive.
pub fn spawn(
    roots: &[PathBuf],
    rebuild: impl Fn() -> Snapshot + Send + 'static,
    shared: Arc<Shared>,
    runtime: tokio::runtime::Handle,
    log: impl Fn(String) + Send + 'static,
) -> Option<notify::RecommendedWatcher> {
    let (events, receive) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok_and(|e| !matches!(e.kind, notify::EventKind::Access(_))) {
            let _ = events.send(());
        }
    })
    .ok()?;
    for root in roots {
        if let Err(err) = watcher.watch(root, notify::RecursiveMode::Recursive) {
            log(format!("cannot watch `{}`: {err}", root.display()));
        }
    }
    std::thread::spawn(move || {
        while receive.recv().is_ok() {
            // Let the burst settle: keep draining until it is quiet for a moment.
            while receive.recv_timeout(DEBOUNCE).is_ok() {}
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
    Some(watcher)
}
