//! The gate of `add`, overlapped with reading: each skill read out of the source is linted on
//! the thread pool while the next ones are read, and handed back in the order read, with the
//! gate's decision taken (and printed) on the calling thread. At most [`WINDOW`] skills are in
//! flight, so memory stays bounded however many skills come.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};

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

/// Skills on their way through the gate.
pub struct Pipeline<'a> {
    gate: &'a mut Gate,
    origin: &'a Origin,
    config: Arc<Config>,
    in_flight: VecDeque<(Planned, Receiver<Checked>)>,
}

impl<'a> Pipeline<'a> {
    pub fn new(gate: &'a mut Gate, origin: &'a Origin) -> Pipeline<'a> {
        let config = Arc::clone(&gate.config);
        Pipeline {
            gate,
            origin,
            config,
            in_flight: VecDeque::new(),
        }
    }

    /// Starts checking `payload` of `skill`.
    pub fn push(&mut self, skill: Planned, payload: Payload) {
        let (sender, receiver) = mpsc::channel();
        if self.gate.off {
            let _ = sender.send((payload, Vec::new()));
        } else {
            let config = Arc::clone(&self.config);
            let folder = skill.folder.clone();
            rayon::spawn(move || {
                let findings = lint(&config, &folder, &payload);
                let _ = sender.send((payload, findings));
            });
        }
        self.in_flight.push_back((skill, receiver));
    }

    /// The next skill the gate lets through, with its payload, in the order pushed. Without
    /// `wait`, only when its check is done or the window is full; with it, until none is left.
    /// Refused skills are reported and passed over.
    pub fn next(&mut self, wait: bool, printer: &Printer) -> Option<(Planned, Payload)> {
        loop {
            let block = wait || self.in_flight.len() >= WINDOW;
            let (_, receiver) = self.in_flight.front()?;
            let checked = if block {
                receiver.recv().ok()
            } else {
                match receiver.try_recv() {
                    Ok(checked) => Some(checked),
                    Err(TryRecvError::Empty) => return None,
                    Err(TryRecvError::Disconnected) => None,
                }
            };
            let (skill, _) = self.in_flight.pop_front()?;
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
