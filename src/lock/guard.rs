//! The advisory lock of a lockfile, so that concurrent runs on one project take turns.

use std::path::Path;

/// An advisory lock held while a lockfile is read, changed and written, so that concurrent runs
/// on one project take turns. It lives in the cache dir (nothing is added to the project), keyed
/// by the lockfile's real path; the OS releases it if the process dies.
pub struct Guard {
    _file: std::fs::File,
}

impl Guard {
    /// Takes the lock of the lockfile `lock_path`; `on_wait` is called once, before blocking,
    /// when another run holds it (so the caller can say why nothing happens).
    pub fn acquire(
        lock_path: &Path,
        cache: &Path,
        on_wait: impl FnOnce(),
    ) -> std::io::Result<Guard> {
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
        let dir = cache.join("locks");
        std::fs::create_dir_all(&dir)?;
        let file = std::fs::File::create(dir.join(format!("{}.lock", &key[..24])))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                on_wait();
                file.lock()?;
            }
            Err(std::fs::TryLockError::Error(err)) => return Err(err),
        }
        Ok(Guard { _file: file })
    }
}
