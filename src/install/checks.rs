//! The gate's checks in the install pipeline, overlapped with reading: each skill read out of its source is linted on a
//! worker thread while the next ones are read, and handed back in the order pushed. The worker
//! also hashes the files for the lock, and skips the lint of files a stored verdict says this
//! build found clean ([`crate::gate::verdict_key`]). Judging the findings is the pipeline's
//! ([`crate::gate::Gate::judge`], on the calling thread, where it prints). At most [`WINDOW`] skills
//! are in flight, so memory stays bounded however many skills come.
//!
//! One worker that sleeps on a condition variable, rather than the rayon pool: its idle workers
//! spin before they sleep, and on two cores that spinning takes time from the thread that reads
//! and writes. Skills go to it in batches of [`BATCH`], which spares a wake-up per skill. When
//! the calling thread has to wait (the window is full, or the last skills are being checked) it
//! checks the skills the worker has not started itself, rather than sleep: with the other core
//! busy (a build beside it) the worker may not run for a while, and the gate would then cost
//! its whole time on top of the reading and writing.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::Payload;
use crate::gate::{Gate, lint};
use crate::lint::{Config, Diagnostic};

/// Most skills pushed and not yet taken.
pub const WINDOW: usize = 16;
/// Skills handed to the worker at once.
pub const BATCH: usize = 4;

/// One skill checked.
pub struct Checked {
    pub payload: Payload,
    /// What the gate found; `None` when it is off (nothing looked at).
    pub findings: Option<Vec<Diagnostic>>,
    /// The digests of its files (`relative/path` → `sha256:…`).
    pub digests: crate::lock::Files,
    /// The key of this lint ([`crate::gate::verdict_key`]), when the build can be told apart.
    pub key: Option<String>,
    /// A stored verdict said these files are clean: nothing was linted.
    pub known: bool,
}

impl Checked {
    /// The key of a lint that ran now and found nothing: a verdict worth keeping.
    pub fn clean_key(&self) -> Option<&str> {
        let clean = !self.known && self.findings.as_ref().is_some_and(Vec::is_empty);
        self.key.as_deref().filter(|_| clean)
    }
}

/// One skill to check: its number in the order pushed, the folder it is linted as, its files,
/// and the keys of lints that found these files clean before.
struct Job {
    number: u64,
    folder: String,
    payload: Payload,
    passed: Vec<String>,
}

/// Checks one skill; `None` if the check panicked (a bug): the caller then refuses the skill,
/// and the other skills are still checked, whichever thread this runs on.
fn check(config: &Config, job: Job) -> Option<Checked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let Job {
            folder,
            payload,
            passed,
            ..
        } = job;
        let digests = payload.digests();
        let key = payload.verdict_key(&folder);
        let known = key.as_ref().is_some_and(|key| passed.contains(key));
        let findings = if known {
            Vec::new()
        } else {
            lint(config, &folder, &payload.memory())
        };
        Checked {
            payload,
            findings: Some(findings),
            digests,
            key,
            known,
        }
    }))
    .ok()
}

/// What the calling thread and the worker share.
#[derive(Default)]
struct Queue {
    state: Mutex<State>,
    /// Signalled when a job is queued, a check is done, or the worker stops.
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// Not started, oldest first.
    jobs: VecDeque<Job>,
    /// Done, not taken yet (`None`: the check panicked).
    done: HashMap<u64, Option<Checked>>,
    /// No more jobs will come (the checks are dropped).
    closed: bool,
    /// The worker stopped (it panicked, or the queue closed).
    gone: bool,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The worker: checks jobs oldest first until the queue closes.
    fn work(&self, config: &Config) {
        loop {
            let mut state = self.lock();
            let job = loop {
                if let Some(job) = state.jobs.pop_front() {
                    break job;
                }
                if state.closed {
                    return;
                }
                state = self.wait(state);
            };
            drop(state);
            let number = job.number;
            let checked = check(config, job);
            self.lock().done.insert(number, checked);
            self.changed.notify_all();
        }
    }
}

/// Tells the calling thread when the worker stops, however it stops: a check it had taken then
/// never completes, and the calling thread must not wait for it.
struct Stopping(Arc<Queue>);

impl Drop for Stopping {
    fn drop(&mut self) {
        self.0.lock().gone = true;
        self.0.changed.notify_all();
    }
}

/// Where the check of one skill is.
pub enum Answer {
    Done(Box<Checked>),
    /// Not done yet (asked without waiting).
    Pending,
    /// It can never complete: it panicked, or the worker stopped while checking it.
    Lost,
}

/// Skills on their way through the gate's checks.
pub struct Checks {
    /// `None` when the gate is off: nothing is linted.
    config: Option<Arc<Config>>,
    queue: Arc<Queue>,
    worker: Option<JoinHandle<()>>,
    /// Pushed, not yet handed to the worker.
    batch: Vec<Job>,
    /// With the gate off: the payloads pushed, by number.
    unchecked: HashMap<u64, Payload>,
    /// The number of the next skill pushed.
    next_number: u64,
}

impl Checks {
    pub fn new(gate: &Gate) -> Checks {
        Checks {
            config: gate.config(),
            queue: Arc::default(),
            worker: None,
            batch: Vec::new(),
            unchecked: HashMap::new(),
            next_number: 0,
        }
    }

    /// Starts checking `payload` installed as `folder`; `passed` are the keys of lints that
    /// found these files clean before (kept in the store). Returns its number.
    pub fn push(&mut self, folder: &str, payload: Payload, passed: Vec<String>) -> u64 {
        let number = self.next_number;
        self.next_number += 1;
        if self.config.is_none() {
            self.unchecked.insert(number, payload);
            return number;
        }
        self.batch.push(Job {
            number,
            folder: folder.to_owned(),
            payload,
            passed,
        });
        if self.batch.len() >= BATCH {
            self.flush();
        }
        number
    }

    /// Hands the batch to the worker, starting it on first use.
    fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let Some(config) = &self.config else {
            return;
        };
        if self.worker.is_none() {
            let queue = Arc::clone(&self.queue);
            let config = Arc::clone(config);
            // A thread that cannot be started leaves every check to the calling thread.
            self.worker = std::thread::Builder::new()
                .name("gate".into())
                .spawn(move || {
                    let stopping = Stopping(queue);
                    stopping.0.work(&config);
                })
                .ok();
        }
        self.queue.lock().jobs.extend(self.batch.drain(..));
        self.queue.changed.notify_all();
    }

    /// The check of skill `number`: taken when done; without `block`, pending when it is not;
    /// with it, checked here when the worker has not started it yet, else waited for.
    pub fn take(&mut self, number: u64, block: bool) -> Answer {
        if let Some(payload) = self.unchecked.remove(&number) {
            let digests = payload.digests();
            return Answer::Done(Box::new(Checked {
                payload,
                findings: None,
                digests,
                key: None,
                known: false,
            }));
        }
        let Some(config) = self.config.clone() else {
            return Answer::Lost;
        };
        if block {
            self.flush();
        }
        let mut state = self.queue.lock();
        loop {
            match state.done.remove(&number) {
                Some(Some(checked)) => return Answer::Done(Box::new(checked)),
                Some(None) => return Answer::Lost,
                None => {}
            }
            if !block {
                return Answer::Pending;
            }
            // The worker takes the oldest job first, so ours, if not started, leads the queue;
            // a later one there is checked here too, and the loop looks again.
            if let Some(job) = state.jobs.pop_front() {
                drop(state);
                let done = job.number;
                let checked = check(&config, job);
                state = self.queue.lock();
                state.done.insert(done, checked);
                continue;
            }
            if state.gone {
                return Answer::Lost;
            }
            state = self.queue.wait(state);
        }
    }
}

impl Drop for Checks {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            // Dropped early (a write failed): what is not started never will be needed.
            let mut state = self.queue.lock();
            state.jobs.clear();
            state.closed = true;
            drop(state);
            self.queue.changed.notify_all();
            let _ = worker.join();
        }
    }
}
