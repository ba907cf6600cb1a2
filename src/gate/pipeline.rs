//! The gate of `add`, overlapped with reading: each skill read out of the source is linted on a
//! worker thread while the next ones are read, and handed back in the order read, with the gate's
//! decision taken (and printed) on the calling thread. The worker also hashes the files for the
//! lock, work the calling thread did before. At most [`WINDOW`] skills are in flight, so memory
//! stays bounded however many skills come.
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

use super::{Gate, lint};
use crate::install::Payload;
use crate::install::Planned;
use crate::lint::{Config, Diagnostic};
use crate::output::Printer;
use crate::source::open::Origin;

/// Most skills read and not yet decided on.
pub const WINDOW: usize = 16;
/// Skills handed to the worker at once.
pub const BATCH: usize = 4;

/// A skill the gate let through, with the digests of its files (`relative/path` → `sha256:…`).
pub struct Passed {
    pub skill: Planned,
    pub payload: Payload,
    pub digests: crate::lock::Files,
}

/// What checking one skill gives back.
type Checked = (Payload, Vec<Diagnostic>, crate::lock::Files);

/// One skill to check: its number in the order read, the folder it is linted as, its files.
type Job = (u64, String, Payload);

/// Checks one skill; `None` if the check panicked (a bug): the skill is then refused, and the
/// other skills are still checked, whichever thread this runs on.
fn check(config: &Config, folder: &str, payload: Payload) -> Option<Checked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let findings = lint(config, folder, &payload);
        let digests = payload.digests();
        (payload, findings, digests)
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
    /// No more jobs will come (the pipeline is dropped).
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
            let (number, folder, payload) = loop {
                if let Some(job) = state.jobs.pop_front() {
                    break job;
                }
                if state.closed {
                    return;
                }
                state = self.wait(state);
            };
            drop(state);
            let checked = check(config, &folder, payload);
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
enum Answer {
    Done(Box<Checked>),
    /// Not done yet (asked without waiting).
    Pending,
    /// It can never complete: it panicked, or the worker stopped while checking it.
    Lost,
}

/// Skills on their way through the gate.
pub struct Pipeline<'a> {
    gate: &'a mut Gate,
    origin: &'a Origin,
    config: Arc<Config>,
    queue: Arc<Queue>,
    worker: Option<JoinHandle<()>>,
    /// Read, not yet handed to the worker.
    batch: Vec<Job>,
    /// Skills pushed and not handed back yet, in order, with their numbers; with the gate off,
    /// their payloads.
    in_flight: VecDeque<(Planned, u64, Option<Payload>)>,
    /// The number of the next skill pushed.
    next_number: u64,
}

impl<'a> Pipeline<'a> {
    pub fn new(gate: &'a mut Gate, origin: &'a Origin) -> Pipeline<'a> {
        let config = Arc::clone(&gate.config);
        Pipeline {
            gate,
            origin,
            config,
            queue: Arc::default(),
            worker: None,
            batch: Vec::new(),
            in_flight: VecDeque::new(),
            next_number: 0,
        }
    }

    /// Starts checking `payload` of `skill`.
    pub fn push(&mut self, skill: Planned, payload: Payload) {
        let number = self.next_number;
        self.next_number += 1;
        if self.gate.off {
            self.in_flight.push_back((skill, number, Some(payload)));
            return;
        }
        self.batch.push((number, skill.folder.clone(), payload));
        self.in_flight.push_back((skill, number, None));
        if self.batch.len() >= BATCH {
            self.flush();
        }
    }

    /// Hands the batch to the worker, starting it on first use.
    fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        if self.worker.is_none() {
            let queue = Arc::clone(&self.queue);
            let config = Arc::clone(&self.config);
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
    fn checked(&self, number: u64, block: bool) -> Answer {
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
            if let Some((job, folder, payload)) = state.jobs.pop_front() {
                drop(state);
                let checked = check(&self.config, &folder, payload);
                state = self.queue.lock();
                state.done.insert(job, checked);
                continue;
            }
            if state.gone {
                return Answer::Lost;
            }
            state = self.queue.wait(state);
        }
    }

    /// The next skill the gate lets through, in the order pushed. Without `wait`, only when its
    /// check is done or the window is full; with it, until none is left. Refused skills are
    /// reported and passed over.
    pub fn next(&mut self, wait: bool, printer: &Printer) -> Option<Passed> {
        loop {
            let block = wait || self.in_flight.len() >= WINDOW;
            if block {
                self.flush();
            }
            let (skill, number, unchecked) = self.in_flight.pop_front()?;
            let checked = match unchecked {
                Some(payload) => {
                    let digests = payload.digests();
                    Some((payload, Vec::new(), digests))
                }
                None => match self.checked(number, block) {
                    Answer::Done(checked) => Some(*checked),
                    Answer::Lost => None,
                    Answer::Pending => {
                        self.in_flight.push_front((skill, number, None));
                        return None;
                    }
                },
            };
            let Some((payload, findings, digests)) = checked else {
                // The check ended without an answer (a bug): never install unchecked.
                self.gate
                    .refuse(&skill.name, "its check did not complete", printer);
                continue;
            };
            if self
                .gate
                .decide_planned(&skill, self.origin, &findings, printer)
                .is_some()
            {
                return Some(Passed {
                    skill,
                    payload,
                    digests,
                });
            }
        }
    }
}

impl Drop for Pipeline<'_> {
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
