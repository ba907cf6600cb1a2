//! The advisory lock of a lockfile, so that concurrent runs on one project take turns.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::LockError;

/// Default for `SKILLS_LOCK_TIMEOUT`: seconds a run waits for another one on the same lockfile.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;

/// How often a waiting run tries the lock again.
const POLL: Duration = Duration::from_millis(100);

/// An advisory lock held while a lockfile is read, changed and written, so that concurrent runs
/// on one project take turns. It lives in the cache dir (nothing is added to the project), keyed
/// by the lockfile's real path; the OS releases it if the process dies.
pub struct Guard {
    _file: std::fs::File,
}

/// The wait of `SKILLS_LOCK_TIMEOUT` (seconds), else the default.
pub fn timeout() -> Duration {
    let secs = std::env::var(crate::env_vars::SKILLS_LOCK_TIMEOUT)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_TIMEOUT_SECS);
    Duration::from_secs(secs)
}

/// Where the advisory lock of the lockfile `lock_path` lives under `cache`.
pub fn guard_path(lock_path: &Path, cache: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let real = lock_path
        .parent()
        .and_then(|dir| {
            std::fs::canonicalize(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            })
            .ok()
        })
        .map_or_else(
            || lock_path.to_path_buf(),
            |dir| dir.join(lock_path.file_name().unwrap_or_default()),
        );
    let key = hex::encode(Sha256::digest(real.to_string_lossy().as_bytes()));
    cache.join("locks").join(format!("{}.lock", &key[..24]))
}

impl Guard {
    /// Takes the lock of the lockfile `lock_path`, waiting at most `timeout` for another run
    /// that holds it; `on_wait` is called once, before waiting (so the caller can say why
    /// nothing happens).
    pub fn acquire(
        lock_path: &Path,
        cache: &Path,
        timeout: Duration,
        on_wait: impl FnOnce(),
    ) -> Result<Guard, LockError> {
        let path = guard_path(lock_path, cache);
        let failed = |source| LockError::Guard {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(failed)?;
        }
        let file = std::fs::File::create(&path).map_err(failed)?;
        let start = Instant::now();
        let mut on_wait = Some(on_wait);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Guard { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(err)) => return Err(failed(err)),
            }
            let waited = start.elapsed();
            if waited >= timeout {
                return Err(LockError::Busy {
                    lockfile: lock_path.to_path_buf(),
                    guard: path,
                    waited,
                });
            }
            if let Some(on_wait) = on_wait.take() {
                on_wait();
            }
            std::thread::sleep(POLL.min(timeout.saturating_sub(waited)));
        }
    }
}
