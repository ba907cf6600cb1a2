//! The gate of `add`, overlapped with reading: each skill read out of the source is linted on a
//! worker thread while the next ones are read, and handed back in the order read, with the gate's
//! decision taken (and printed) on the calling thread. At most [`WINDOW`] skills are in flight, so
//! memory stays bounded however many skills come.
//!
//! One worker that sleeps on a channel, rather than the rayon pool: its idle workers spin before
//! they sleep, and on two cores that spinning takes time from the thread that reads and writes.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;

use super::{Gate, lint};
use crate::commands::add::Planned;
use crate::install::Payload;
use crate::lint::{Config, Diagnostic};
use crate::output::Printer;
use crate::source::open::Origin;

/// Most skills read and not yet decided on.
pub const WINDOW: usize = 16;

/// A skill's payload and findings, once its check is done.
type Checked = (Payload, Vec<Diagnostic>);

struct Worker {
    jobs: Sender<(String, Payload)>,
    done: Receiver<Checked>,
    thread: JoinHandle<()>,
}

/// Skills on their way through the gate.
pub struct Pipeline<'a> {
    gate: &'a mut Gate,
    origin: &'a Origin,
    config: Arc<Config>,
    worker: Option<Worker>,
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
            in_flight: VecDeque::new(),
        }
    }

    /// Starts checking `payload` of `skill`.
    pub fn push(&mut self, skill: Planned, payload: Payload) {
        if self.gate.off {
            self.in_flight.push_back((skill, Some(payload)));
            return;
        }
        let config = &self.config;
        let worker = self.worker.get_or_insert_with(|| {
            let (jobs, inbox) = mpsc::channel::<(String, Payload)>();
            let (outbox, done) = mpsc::channel();
            let config = Arc::clone(config);
            let thread = std::thread::spawn(move || {
                for (folder, payload) in inbox {
                    let findings = lint(&config, &folder, &payload);
                    if outbox.send((payload, findings)).is_err() {
                        return;
                    }
                }
            });
            Worker { jobs, done, thread }
        });
        // A worker gone (it panicked) shows as a check that does not complete, below.
        let _ = worker.jobs.send((skill.folder.clone(), payload));
        self.in_flight.push_back((skill, None));
    }

    /// The next skill the gate lets through, with its payload, in the order pushed. Without
    /// `wait`, only when its check is done or the window is full; with it, until none is left.
    /// Refused skills are reported and passed over.
    pub fn next(&mut self, wait: bool, printer: &Printer) -> Option<(Planned, Payload)> {
        loop {
            let (skill, unchecked) = self.in_flight.pop_front()?;
            let checked = match (unchecked, &self.worker) {
                (Some(payload), _) => Some((payload, Vec::new())),
                (None, None) => None,
                (None, Some(worker)) => {
                    if wait || self.in_flight.len() + 1 >= WINDOW {
                        worker.done.recv().ok()
                    } else {
                        match worker.done.try_recv() {
                            Ok(checked) => Some(checked),
                            Err(TryRecvError::Empty) => {
                                self.in_flight.push_front((skill, None));
                                return None;
                            }
                            Err(TryRecvError::Disconnected) => None,
                        }
                    }
                }
            };
            let Some((payload, findings)) = checked else {
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
                return Some((skill, payload));
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
