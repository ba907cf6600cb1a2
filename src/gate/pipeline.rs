//! The gate of `add`, overlapped with reading: each skill read out of the source is linted on a
//! worker thread while the next ones are read, and handed back in the order read, with the gate's
//! decision taken (and printed) on the calling thread. The worker also hashes the files for the
//! lock, work the calling thread did before. At most [`WINDOW`] skills are in flight, so memory
//! stays bounded however many skills come.
//!
//! One worker that sleeps on a channel, rather than the rayon pool: its idle workers spin before
//! they sleep, and on two cores that spinning takes time from the thread that reads and writes.
//! Skills go to it in batches of [`BATCH`], which spares a wake-up per skill.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
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

/// What the worker gives back for one skill.
type Checked = (Payload, Vec<Diagnostic>, crate::lock::Files);

struct Worker {
    jobs: Sender<Vec<(String, Payload)>>,
    done: Receiver<Checked>,
    thread: JoinHandle<()>,
}

/// Skills on their way through the gate.
pub struct Pipeline<'a> {
    gate: &'a mut Gate,
    origin: &'a Origin,
    config: Arc<Config>,
    worker: Option<Worker>,
    /// Read, not yet handed to the worker.
    batch: Vec<(String, Payload)>,
    /// Skills pushed and not handed back yet, in order; with the gate off, their payloads.
    in_flight: VecDeque<(Planned, Option<Payload>)>,
}

impl<'a> Pipeline<'a> {
    pub fn new(gate: &'a mut Gate, origin: &'a Origin) -> Pipeline<'a> {
        let config = Arc::clone(&gate.config);
        Pipeline {
            gate,
            origin,
            config,
            worker: None,
            batch: Vec::new(),
            in_flight: VecDeque::new(),
        }
    }

    /// Starts checking `payload` of `skill`.
    pub fn push(&mut self, skill: Planned, payload: Payload) {
        if self.gate.off {
            self.in_flight.push_back((skill, Some(payload)));
            return;
        }
        self.batch.push((skill.folder.clone(), payload));
        self.in_flight.push_back((skill, None));
        if self.batch.len() >= BATCH {
            self.flush();
        }
    }

    /// Hands the batch to the worker, starting it on first use.
    fn flush(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let config = &self.config;
        let worker = self.worker.get_or_insert_with(|| {
            let (jobs, inbox) = mpsc::channel::<Vec<(String, Payload)>>();
            let (outbox, done) = mpsc::channel();
            let config = Arc::clone(config);
            let thread = std::thread::spawn(move || {
                for (folder, payload) in inbox.into_iter().flatten() {
                    let findings = lint(&config, &folder, &payload);
                    let digests = payload.digests();
                    if outbox.send((payload, findings, digests)).is_err() {
                        return;
                    }
                }
            });
            Worker { jobs, done, thread }
        });
        // A worker gone (it panicked) shows as a check that does not complete, in `next`.
        let _ = worker.jobs.send(std::mem::take(&mut self.batch));
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
            let (skill, unchecked) = self.in_flight.pop_front()?;
            let checked = match (unchecked, &self.worker) {
                (Some(payload), _) => {
                    let digests = payload.digests();
                    Some((payload, Vec::new(), digests))
                }
                (None, Some(worker)) if block => worker.done.recv().ok(),
                (None, Some(worker)) => match worker.done.try_recv() {
                    Ok(checked) => Some(checked),
                    Err(TryRecvError::Empty) => {
                        self.in_flight.push_front((skill, None));
                        return None;
                    }
                    Err(TryRecvError::Disconnected) => None,
                },
                // Still in the batch.
                (None, None) if !block => {
                    self.in_flight.push_front((skill, None));
                    return None;
                }
                (None, None) => None,
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
            drop(worker.jobs);
            drop(worker.done);
            let _ = worker.thread.join();
        }
    }
}
