//! A watch over one libgit2 network operation. libgit2's own timeouts bound each read, not the
//! whole: a server that trickles a byte every few seconds holds a run forever, and while it
//! sends its ref advertisement no callback runs at all. So the operation runs on a worker
//! thread, its callbacks report progress ([`Progress::tick`]), and the watch ends it when nothing
//! moved for `stall`, or when, while pack data arrives, less than [`MIN_BYTES`] came in a whole
//! `stall` window (a low-speed limit, as curl's `CURLOPT_LOW_SPEED_LIMIT`). Ending it is asking
//! the callbacks to return `false` (libgit2 then stops cleanly); a worker stuck where no callback
//! runs is left behind after a grace period, and the run goes on without it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The least a `stall` window must bring while pack data arrives.
pub const MIN_BYTES: u64 = 1024;

/// How long a stopped worker gets to notice before it is left behind.
const GRACE: Duration = Duration::from_secs(2);

/// What the callbacks of the watched operation report.
#[derive(Debug)]
pub struct Progress {
    state: Mutex<State>,
    abort: AtomicBool,
}

#[derive(Debug)]
struct State {
    /// When anything last moved.
    moved: Instant,
    /// What was last reported: bytes received, and objects and deltas indexed.
    seen: (u64, u64, u64),
    /// Bytes at the start of the current low-speed window, and when it started.
    window: (u64, Instant),
    /// Whether pack data is arriving (the low-speed limit applies then only: indexing is
    /// local work).
    receiving: bool,
}

impl Progress {
    fn new() -> Progress {
        let now = Instant::now();
        Progress {
            state: Mutex::new(State {
                moved: now,
                seen: (0, 0, 0),
                window: (0, now),
                receiving: false,
            }),
            abort: AtomicBool::new(false),
        }
    }

    /// Reports libgit2's transfer progress; returns whether to go on (the callback's answer).
    pub fn tick(&self, stats: &git2::Progress<'_>) -> bool {
        let seen = (
            stats.received_bytes() as u64,
            stats.indexed_objects() as u64,
            stats.indexed_deltas() as u64,
        );
        if let Ok(mut state) = self.state.lock() {
            if seen != state.seen {
                state.moved = Instant::now();
                state.seen = seen;
            }
            state.receiving = stats.received_objects() < stats.total_objects();
        }
        self.go_on()
    }

    /// Reports that something else moved (a sideband message); returns whether to go on.
    pub fn moved(&self) -> bool {
        if let Ok(mut state) = self.state.lock() {
            state.moved = Instant::now();
        }
        self.go_on()
    }

    /// Whether the watched operation may go on.
    pub fn go_on(&self) -> bool {
        !self.abort.load(Ordering::Relaxed)
    }

    /// Whether the operation has stalled at `now`: nothing moved for `stall`, or a whole
    /// window brought less than [`MIN_BYTES`] while receiving.
    fn stalled(&self, now: Instant, stall: Duration) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return true;
        };
        if now.duration_since(state.moved) >= stall {
            return true;
        }
        let (start_bytes, start) = state.window;
        if now.duration_since(start) >= stall {
            let slow = state.receiving && state.seen.0.saturating_sub(start_bytes) < MIN_BYTES;
            state.window = (state.seen.0, now);
            return slow;
        }
        false
    }
}

/// Why a watched operation did not finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stalled {
    /// The window it was held to.
    pub stall: Duration,
}

/// Runs `work` on a worker thread under the watch; `Err` when it stalled (its own result, an
/// error from the stopped callbacks, is dropped).
pub fn watch<T: Send + 'static>(
    stall: Duration,
    work: impl FnOnce(Arc<Progress>) -> T + Send + 'static,
) -> Result<T, Stalled> {
    let progress = Arc::new(Progress::new());
    let (done, result) = std::sync::mpsc::channel();
    let worker = Arc::clone(&progress);
    std::thread::Builder::new()
        .name("git".into())
        .spawn(move || {
            let _ = done.send(work(worker));
        })
        .map_err(|_| Stalled { stall })?;
    let tick = Duration::from_millis(100).min(stall);
    loop {
        match result.recv_timeout(tick) {
            Ok(value) => return Ok(value),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(Stalled { stall }),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if progress.stalled(Instant::now(), stall) {
            progress.abort.store(true, Ordering::Relaxed);
            // Give the callbacks their chance to stop libgit2 cleanly, then leave the worker.
            let _ = result.recv_timeout(GRACE);
            return Err(Stalled { stall });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_that_finishes_is_returned() {
        assert_eq!(watch(Duration::from_secs(5), |_| 7), Ok(7));
    }

    #[test]
    fn silence_ends_the_watch() {
        let start = Instant::now();
        let stalled = watch(Duration::from_millis(300), |progress| {
            // A worker with no callbacks (a ref advertisement that never ends).
            while progress.go_on() {
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        assert_eq!(stalled.unwrap_err().stall, Duration::from_millis(300));
        assert!(start.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn a_trickle_is_too_slow() {
        let progress = Progress::new();
        let start = Instant::now();
        {
            let mut state = progress.state.lock().unwrap();
            state.receiving = true;
            state.seen.0 = 10;
        }
        // Moving, but ten bytes in a whole window.
        assert!(!progress.stalled(start + Duration::from_millis(500), Duration::from_secs(1)));
        progress.state.lock().unwrap().moved = start + Duration::from_millis(900);
        assert!(progress.stalled(start + Duration::from_secs(1), Duration::from_secs(1)));
    }
}
