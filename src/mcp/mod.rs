//! `skills serve --stdio`: the index served to any MCP client.
//!
//! One immutable [`snapshot::Snapshot`] answers every request (resources, the Skills extension,
//! tools, prompts), and is replaced whole when the watched roots change. rmcp speaks both
//! protocol eras (legacy `initialize` and stateless 2026-07-28) on the same stdio; a gate in
//! front of it ([`stdio`]) answers what rmcp would drop. Only JSON-RPC ever reaches stdout;
//! logs go to stderr.

pub mod build;
pub mod digests;
pub mod listing;
pub mod server;
pub mod snapshot;
pub mod state;
pub mod stdio;
pub mod tools;
pub mod uri;
pub mod watch;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::ServiceExt;

use crate::index::{NameFilter, Root};
use crate::output::Printer;
use server::SkillsServer;
use snapshot::Limits;
use state::Shared;

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
    #[error("the MCP session could not begin")]
    Initialize(#[source] Box<rmcp::service::ServerInitializeError>),
    #[error("the MCP session failed")]
    Session(#[source] tokio::task::JoinError),
    /// A bug, not an input: the first build of the snapshot panicked.
    #[error("building the snapshot failed")]
    Build(#[source] tokio::task::JoinError),
}

impl crate::hint::Hint for ServeError {
    fn hint(&self) -> Option<String> {
        match self {
            ServeError::Index(err) => err.hint(),
            ServeError::Initialize(_) => Some(
                "`skills serve` speaks MCP on stdin/stdout: start it from an MCP client".into(),
            ),
            ServeError::Start(_) | ServeError::Session(_) | ServeError::Build(_) => None,
        }
    }
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
    let shared = Arc::new(Shared::new(settings, gate.eof.clone()));
    let log: Arc<dyn Fn(String) + Send + Sync> = {
        let printer = printer.clone();
        Arc::new(move |message: String| printer.warn(message))
    };
    // The handshake needs no skills: it is answered while the snapshot is built, and requests
    // that need the skills wait for it (`skills/list` pages only for the skills on them).
    let (failed, failure) = tokio::sync::oneshot::channel();
    tokio::spawn(prepare(
        Arc::clone(&shared),
        printer.clone(),
        Arc::clone(&log),
        failed,
    ));
    let server = SkillsServer {
        shared: Arc::clone(&shared),
        log,
    };
    let session = async {
        let running = match server.serve(gate.transport).await {
            Ok(running) => running,
            // The client went away before asking anything: nothing to do.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(err) => return Err(ServeError::Initialize(Box::new(err))),
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
            .map_err(ServeError::Session)
    };
    let result = tokio::select! {
        result = session => result,
        Ok(err) = failure => return Err(err),
    };
    let _ = gate.writer.await;
    // What was reloaded since the start is remembered for the next one.
    let saved = Arc::clone(&shared);
    let _ = tokio::task::spawn_blocking(move || saved.save_digests()).await;
    result
}

/// Skills loaded per batch of the first build: a little more than a page, so that the first
/// page is answered after the first batch.
const FIRST_BATCH: usize = 256;

/// Builds the first snapshot a batch at a time, handing each batch's listed skills to waiting
/// `skills/list` requests, then writes the digest cache and watches the roots until stdin
/// closes. Setting up the watch walks every folder again (on 1,000 skills that takes longer than
/// the build, and doing both at once slowed the build by half on two cores), so it comes after.
/// A change made after the build started but before its folder was watched is caught by one look
/// at modification times once the watch is set up. An index error is sent on `failed` and ends
/// the session.
async fn prepare(
    shared: Arc<Shared>,
    printer: Printer,
    log: Arc<dyn Fn(String) + Send + Sync>,
    failed: tokio::sync::oneshot::Sender<ServeError>,
) {
    let started = std::time::SystemTime::now();
    let first = {
        let (shared, log) = (Arc::clone(&shared), Arc::clone(&log));
        tokio::task::spawn_blocking(move || first_build(&shared, &*log)).await
    };
    let built = match first {
        Ok(Ok(built)) => built,
        Ok(Err(err)) => {
            shared.install(snapshot::Snapshot::default());
            let _ = failed.send(ServeError::Index(err));
            return;
        }
        // A bug, not an input: end the session with an error rather than hang every request.
        Err(join) => {
            shared.install(snapshot::Snapshot::default());
            let _ = failed.send(ServeError::Build(join));
            return;
        }
    };
    printer.debug(format_args!(
        "serving {} skills",
        shared.current().skills.len()
    ));
    if shared.settings().watch {
        let runtime = tokio::runtime::Handle::current();
        let (watched, log) = (Arc::clone(&shared), Arc::clone(&log));
        // Watching means walking every folder of the roots: off the thread that answers requests.
        let start = move || watch::spawn(watched, runtime, log, started, &built);
        // The watch lives on its own thread as long as the process.
        let _ = tokio::task::spawn_blocking(start).await;
    }
    // The digest cache is for the next start: written once the watch is set up, so that the
    // two do not add up in memory.
    let _ = tokio::task::spawn_blocking(move || {
        if let Err(err) = shared.save_digests() {
            printer.warn(format_args!("cannot write the digest cache: {err}"));
        }
    })
    .await;
}

/// The first snapshot, published a batch at a time. Returns the roots that were there.
fn first_build(
    shared: &Shared,
    log: &dyn Fn(String),
) -> Result<Vec<PathBuf>, crate::index::IndexError> {
    let settings = shared.settings();
    let roots = settings.roots.now();
    let paths: Vec<PathBuf> = roots.iter().map(|r| r.path.clone()).collect();
    let cache = digests::cache_file(&paths);
    let known = digests::Known::load(&cache);
    let mut builder = build::Builder::new(&roots, settings.filter.clone(), settings.limits, known);
    let mut batch = FIRST_BATCH;
    let mut published = 0;
    while !builder.is_done() {
        let (_, skipped) = builder.step(batch)?;
        for why in skipped {
            log(why);
        }
        let fresh = builder.skills_from(published);
        published += fresh.len();
        shared.extend_first(fresh);
        batch = build::BATCH;
    }
    shared.install_first(builder.finish()?);
    Ok(watch::present(&paths))
}
