//! `skills cache dir|clean|prune`: the cache shared by every project — git repositories
//! sources were fetched into (`git/`), the content-addressed store of installed files
//! (`store/`, [`crate::store`]), `serve`'s digests (`serve/`) and the skills `skills use` ran
//! (`use/`).
//!
//! `clean` renames each of those folders aside first (one atomic step each: a run that starts
//! meanwhile finds it empty, never half-deleted), then deletes them. The advisory locks and
//! journals of projects (`locks/`) stay: they are not cached data, and a journal is what
//! finishes an interrupted install. `prune` goes by last use: a cached repository's lock file
//! is touched on every use, a stored skill's manifest on every restore from it; objects are
//! removed when no remaining stored skill names them.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::cli::{CacheArgs, CacheCommand};
use crate::error::{Error, ExitStatus};
use crate::install::store::Store;
use crate::output::Printer;

/// The folders of the cache that hold cached data (not the projects' locks and journals).
const CACHED: &[&str] = &["git", "store", "serve", "use"];

pub fn run(args: &CacheArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let cache = crate::env_vars::cache_dir();
    match &args.command {
        CacheCommand::Dir => {
            printer.data(&format!("{}\n", cache.display()))?;
        }
        CacheCommand::Clean => {
            let removed = clean(&cache)?;
            printer.status(format_args!(
                "removed {} from `{}`",
                if removed.is_empty() {
                    "nothing".to_owned()
                } else {
                    removed.join(", ")
                },
                cache.display()
            ));
        }
        CacheCommand::Prune { days } => {
            let unused = Duration::from_secs(days.saturating_mul(86_400));
            let now = SystemTime::now();
            let repos = prune_repos(&cache.join("git"), unused, now)
                .map_err(|err| io_error(&cache.join("git"), err))?;
            let pruned = Store::new(&cache)
                .prune(unused, now)
                .map_err(|err| io_error(&cache.join("store"), err))?;
            printer.status(format_args!(
                "removed {repos} cached repositor{} and {} stored skill(s) unused for {days} days, \
                 and {} stored file(s) ({} bytes)",
                if repos == 1 { "y" } else { "ies" },
                pruned.skills,
                pruned.objects,
                pruned.bytes
            ));
        }
    }
    Ok(ExitStatus::Success)
}

fn io_error(path: &Path, err: std::io::Error) -> Error {
    Error::msg(format!("cannot clean `{}`", path.display())).with_source(err)
}

/// Renames each cached folder aside, then deletes it; returns the names removed.
fn clean(cache: &Path) -> Result<Vec<String>, Error> {
    let mut aside: Vec<(String, PathBuf)> = Vec::new();
    for name in CACHED {
        let path = cache.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let trash = cache.join(format!(
            "{}trash-{name}-{}",
            crate::fsutil::TEMP_PREFIX,
            std::process::id()
        ));
        std::fs::rename(&path, &trash).map_err(|err| io_error(&path, err))?;
        aside.push(((*name).to_owned(), trash));
    }
    // Leftovers of a clean that was interrupted after its renames.
    if let Ok(entries) = std::fs::read_dir(cache) {
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&format!("{}trash-", crate::fsutil::TEMP_PREFIX))
                && !aside.iter().any(|(_, p)| p == &entry.path())
            {
                aside.push((String::new(), entry.path()));
            }
        }
    }
    let mut removed = Vec::new();
    for (name, path) in aside {
        std::fs::remove_dir_all(&path).map_err(|err| io_error(&path, err))?;
        if !name.is_empty() {
            removed.push(format!("`{name}/`"));
        }
    }
    Ok(removed)
}

/// Removes the cached repositories under `git` whose last use is `unused` ago or more.
fn prune_repos(git: &Path, unused: Duration, now: SystemTime) -> std::io::Result<usize> {
    let entries = match std::fs::read_dir(git) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(err) => return Err(err),
    };
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let lock = path.with_extension("lock");
        let used = std::fs::metadata(&lock)
            .or_else(|_| std::fs::metadata(&path))
            .and_then(|m| m.modified());
        let stale = used.map_or(true, |used| {
            now.duration_since(used).unwrap_or(Duration::ZERO) >= unused
        });
        // A repository a run is fetching into (it holds the lock) is in use.
        let held = std::fs::File::options()
            .create(true)
            .append(true)
            .open(&lock)
            .ok()
            .filter(|file| file.try_lock().is_ok());
        if stale && held.is_some() {
            std::fs::remove_dir_all(&path)?;
            let _ = std::fs::remove_file(&lock);
            removed += 1;
        }
    }
    Ok(removed)
}
