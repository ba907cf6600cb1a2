//! `skills serve --stdio`: the index served to any MCP client.
//!
//! One immutable [`snapshot::Snapshot`] answers every request (resources, the Skills extension,
//! tools, prompts), and is replaced whole when the watched roots change. rmcp speaks both
//! protocol eras (legacy `initialize` and stateless 2026-07-28) on the same stdio; a gate in
//! front of it ([`stdio`]) answers what rmcp would drop. Only JSON-RPC ever reaches stdout;
//! logs go to stderr.

pub mod server;
pub mod snapshot;
pub mod stdio;
pub mod tools;
pub mod watch;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::ServiceExt;

use crate::index::{NameFilter, Root, SkillIndex};
use crate::output::Printer;
use server::{Shared, SkillsServer};
use snapshot::{Limits, Snapshot};

/// What the server tells clients about itself.
pub const INSTRUCTIONS: &str = "This server provides Agent Skills: folders of instructions, scripts and \
references for specific tasks. Each skill has a name and a description saying when to use it \
(`skills/list`, the `skill://prompt-xml` resource, or the `get_available_skills` tool). When a \
request matches a skill, load its SKILL.md (`skill://<name>/SKILL.md`, the `load_skill` tool, or \
the prompt named after the skill) and follow it; read its other files (`skill://<name>/<path>`, \
`get_skill_related_file`) only when the instructions call for them. Resources are read-only.";

/// What `serve` serves and how.
#[derive(Debug, Clone)]
pub struct Settings {
    pub roots: Roots,
    pub filter: NameFilter,
    pub watch: bool,
    pub limits: Limits,
}

/// Where the skills are.
#[derive(Debug, Clone)]
pub enum Roots {
    /// Given paths (or `SKILLS_DIR`): they must exist at the start; while one is gone, nothing is
    /// served (rather than a partial or stale set), until it is back.
    Given(Vec<Root>),
    /// The default agent dirs of `project` (and the user's), which come and go: those that exist
    /// when the snapshot is built.
    Default { project: PathBuf, global_only: bool },
}

impl Roots {
    /// The roots as they are now.
    pub fn now(&self) -> Vec<Root> {
        match self {
            Roots::Given(roots) => roots.clone(),
            Roots::Default {
                project,
                global_only,
            } => crate::index::default_roots(project, *global_only),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Index(#[from] crate::index::IndexError),
    #[error("cannot start the server")]
    Start(#[source] std::io::Error),
    #[error("the MCP session failed: {0}")]
    Session(String),
}

fn build(settings: &Settings) -> Result<Snapshot, crate::index::IndexError> {
    let index = SkillIndex::build(settings.roots.now(), &settings.filter)?;
    Ok(Snapshot::build(index, settings.limits))
}

/// Serves until stdin closes.
pub fn run(settings: Settings, printer: &Printer) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Start)?;
    let result = runtime.block_on(serve(settings, printer));
    // A failed start may leave the stdin reader blocked: do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    result
}

async fn serve(settings: Settings, printer: &Printer) -> Result<(), ServeError> {
    let gate = stdio::open();
    let shared = Arc::new(Shared::new(gate.eof.clone()));
    // The handshake needs no skills: it is answered while the snapshot is built, and requests
    // that need the skills wait for it.
    let (failed, failure) = tokio::sync::oneshot::channel();
    tokio::spawn(prepare(
        settings,
        Arc::clone(&shared),
        printer.clone(),
        failed,
    ));
    let server = SkillsServer {
        shared: Arc::clone(&shared),
    };
    let session = async {
        let running = match server.serve(gate.transport).await {
            Ok(running) => running,
            // The client went away before asking anything: nothing to do.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(err) => return Err(ServeError::Session(err.to_string())),
        };
        if running.peer().peer_info().is_some()
            && let Ok(mut legacy) = shared.legacy_peer.lock()
        {
            *legacy = Some(running.peer().clone());
        }
        running
            .waiting()
            .await
            .map(drop)
            .map_err(|err| ServeError::Session(err.to_string()))
    };
    let result = tokio::select! {
        result = session => result,
        Ok(err) = failure => return Err(err),
    };
    let _ = gate.writer.await;
    result
}

/// Builds the first snapshot, then watches the roots until stdin closes. Requests wait only for
/// the snapshot: setting up the watch walks every folder again (on 1,000 skills that takes longer
/// than the build, and doing both at once slowed the build by half on two cores), so it comes
/// after. A change made after the build started but before its folder was watched is caught by
/// one look at modification times once the watch is set up. An index error is sent on `failed`
/// and ends the session.
async fn prepare(
    settings: Settings,
    shared: Arc<Shared>,
    printer: Printer,
    failed: tokio::sync::oneshot::Sender<ServeError>,
) {
    let started = std::time::SystemTime::now();
    let first = {
        let settings = settings.clone();
        tokio::task::spawn_blocking(move || build(&settings)).await
    };
    let snapshot = match first {
        Ok(Ok(snapshot)) => snapshot,
        Ok(Err(err)) => {
            shared.install(Snapshot::default());
            let _ = failed.send(ServeError::Index(err));
            return;
        }
        // A bug, not an input: end the session with an error rather than hang every request.
        Err(join) => {
            shared.install(Snapshot::default());
            let _ = failed.send(ServeError::Session(format!(
                "building the snapshot failed: {join}"
            )));
            return;
        }
    };
    for why in &snapshot.skipped {
        printer.warn(why);
    }
    printer.debug(format_args!("serving {} skills", snapshot.skills.len()));
    shared.install(snapshot);
    if !settings.watch {
        return;
    }
    let roots = settings.roots.clone();
    let (log_printer, rebuild_printer) = (printer.clone(), printer);
    let (watched, runtime) = (Arc::clone(&shared), tokio::runtime::Handle::current());
    // Watching means walking every folder of the roots: off the thread that answers requests.
    let start = move || {
        watch::spawn(
            move || roots.now().into_iter().map(|root| root.path).collect(),
            // A root that vanished serves nothing rather than stale bytes.
            move || {
                build(&settings).unwrap_or_else(|err| {
                    rebuild_printer.warn(format_args!("{err}; serving no skills until it is back"));
                    Snapshot::default()
                })
            },
            watched,
            runtime,
            move |message| log_printer.warn(message),
            started,
        )
    };
    // The watch lives on its own thread as long as the process.
    let _ = tokio::task::spawn_blocking(start).await;
}
