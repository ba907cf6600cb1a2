//! Writing placements with no half-states: every folder and link is written into a staging dir
//! beside its target (`<agent dir>/.skills-staging-…`), and only when all are staged are they
//! renamed into place; a folder being replaced is renamed aside first and restored if anything
//! later fails. [`Committed::rollback`] undoes a commit (used when the lockfile cannot be
//! written); [`Committed::finish`] drops the replaced folders. Removals go to a trash folder
//! beside their target until everything (the lockfile too) is done.

use std::path::{Path, PathBuf};

use super::{InstallError, Payload, Placement, TransactionError};
use crate::fsutil::TEMP_PREFIX;
use crate::lock::Lock;

/// A placement written into a staging dir, waiting to be renamed into place.
#[derive(Debug)]
struct Staged {
    staged: PathBuf,
    target: PathBuf,
}

/// Everything of one `add`/`update`, staged and not yet visible.
#[derive(Debug, Default)]
pub struct Transaction {
    staged: Vec<Staged>,
    staging_dirs: Vec<PathBuf>,
    /// Agent dirs created for this transaction (removed again on rollback when empty).
    created_dirs: Vec<PathBuf>,
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> InstallError + '_ {
    move |source| InstallError::Write {
        path: path.to_path_buf(),
        source,
    }
}

impl Transaction {
    /// Writes `placement` of `payload` into a staging dir beside its target.
    pub fn stage(&mut self, placement: &Placement, payload: &Payload) -> Result<(), InstallError> {
        let dir = placement.path.parent().unwrap_or(Path::new("."));
        if !dir.exists() {
            let mut missing = Vec::new();
            let mut cursor = Some(dir);
            while let Some(path) = cursor.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
                missing.push(path.to_path_buf());
                cursor = path.parent();
            }
            std::fs::create_dir_all(dir).map_err(write_error(dir))?;
            self.created_dirs.extend(missing);
        }
        let staging =
            if let Some(staging) = self.staging_dirs.iter().find(|s| s.parent() == Some(dir)) {
                staging.clone()
            } else {
                let staging = tempfile::Builder::new()
                    .prefix(&format!("{TEMP_PREFIX}staging-"))
                    .tempdir_in(dir)
                    .map_err(write_error(dir))?
                    .keep();
                self.staging_dirs.push(staging.clone());
                staging
            };
        let name = placement.path.file_name().unwrap_or_default();
        let staged = staging.join(name);
        match &placement.link {
            Some(target) => make_link(target, &staged)?,
            None => write_payload(&staged, payload)?,
        }
        self.staged.push(Staged {
            staged,
            target: placement.path.clone(),
        });
        Ok(())
    }

    /// Renames everything into place; on failure, undoes what was done and removes the staging.
    pub fn commit(mut self) -> Result<Committed, InstallError> {
        let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
        let staged = std::mem::take(&mut self.staged);
        for item in &staged {
            match replace(&item.staged, &item.target) {
                Ok(backup) => done.push((item.target.clone(), backup)),
                Err(err) => {
                    undo(&done);
                    self.abort();
                    return Err(err);
                }
            }
        }
        Ok(Committed {
            done,
            staging_dirs: std::mem::take(&mut self.staging_dirs),
            created_dirs: std::mem::take(&mut self.created_dirs),
        })
    }

    /// Drops everything staged; nothing was visible.
    pub fn abort(mut self) {
        self.cleanup();
    }

    fn cleanup(&mut self) {
        for staging in self.staging_dirs.drain(..) {
            let _ = std::fs::remove_dir_all(&staging);
        }
        for dir in self.created_dirs.drain(..) {
            let _ = std::fs::remove_dir(&dir);
        }
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        self.cleanup();
    }
}

/// A committed transaction: everything is in place, replaced folders are still kept aside.
#[derive(Debug)]
pub struct Committed {
    done: Vec<(PathBuf, Option<PathBuf>)>,
    staging_dirs: Vec<PathBuf>,
    created_dirs: Vec<PathBuf>,
}

impl Committed {
    /// Puts back what was replaced and removes what was added.
    pub fn rollback(self) {
        undo(&self.done);
        for staging in &self.staging_dirs {
            let _ = std::fs::remove_dir_all(staging);
        }
        for dir in &self.created_dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }

    /// Deletes the replaced folders and the staging dirs.
    pub fn finish(self) {
        for (_, backup) in &self.done {
            if let Some(backup) = backup {
                remove_any(backup);
            }
        }
        for staging in &self.staging_dirs {
            let _ = std::fs::remove_dir_all(staging);
        }
    }
}

/// Removals of skill folders and links: each is renamed into a trash folder beside it, and only
/// deleted once everything (the lockfile too) is done; on failure everything is renamed back.
#[derive(Debug, Default)]
pub struct Removal {
    moved: Vec<(PathBuf, PathBuf)>,
}

impl Removal {
    /// Moves `path` (a folder or a symlink) to the trash.
    pub fn remove(&mut self, path: &Path) -> Result<(), InstallError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let trash = dir.join(format!(
            "{TEMP_PREFIX}trash-{}-{}-{name}",
            std::process::id(),
            self.moved.len()
        ));
        remove_any(&trash);
        std::fs::rename(path, &trash).map_err(write_error(path))?;
        self.moved.push((path.to_path_buf(), trash));
        Ok(())
    }

    /// Puts everything back.
    pub fn rollback(self) {
        for (original, trash) in self.moved.iter().rev() {
            let _ = std::fs::rename(trash, original);
        }
    }

    /// Deletes what was removed.
    pub fn finish(self) {
        for (_, trash) in &self.moved {
            remove_any(trash);
        }
    }
}

/// Renames everything `transaction` staged into place, then writes `lock` to `path` (when
/// given); a lock that cannot be written puts everything back. `doing` names the work for the
/// error (`installing`).
pub fn commit(
    transaction: Transaction,
    lock: Option<(&Lock, &Path)>,
    doing: &str,
) -> Result<(), TransactionError> {
    let committed = transaction
        .commit()
        .map_err(|error| TransactionError::Commit {
            doing: doing.to_owned(),
            error,
        })?;
    if let Some((lock, path)) = lock
        && let Err(err) = lock.write(path)
    {
        committed.rollback();
        return Err(TransactionError::Lock(err));
    }
    committed.finish();
    Ok(())
}

/// Moves each of `paths` to the trash of `removal`; when one cannot be moved, puts back all
/// that was and says which.
pub fn remove_paths<'a>(
    removal: &mut Removal,
    paths: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<(), TransactionError> {
    for path in paths {
        if let Err(error) = removal.remove(path) {
            std::mem::take(removal).rollback();
            return Err(TransactionError::Remove {
                path: path.clone(),
                error,
            });
        }
    }
    Ok(())
}

/// Moves `target` aside (when it exists) and `staged` into its place; returns the backup.
fn replace(staged: &Path, target: &Path) -> Result<Option<PathBuf>, InstallError> {
    let backup = if std::fs::symlink_metadata(target).is_ok() {
        let dir = target.parent().unwrap_or(Path::new("."));
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let backup = dir.join(format!("{TEMP_PREFIX}old-{}-{name}", std::process::id()));
        remove_any(&backup);
        std::fs::rename(target, &backup).map_err(write_error(target))?;
        Some(backup)
    } else {
        None
    };
    if let Err(err) = std::fs::rename(staged, target) {
        if let Some(backup) = &backup {
            let _ = std::fs::rename(backup, target);
        }
        return Err(InstallError::Write {
            path: target.to_path_buf(),
            source: err,
        });
    }
    Ok(backup)
}

fn undo(done: &[(PathBuf, Option<PathBuf>)]) {
    for (target, backup) in done.iter().rev() {
        remove_any(target);
        if let Some(backup) = backup {
            let _ = std::fs::rename(backup, target);
        }
    }
}

/// Removes a file, a symlink or a folder tree, ignoring what is not there.
pub fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

fn write_payload(dir: &Path, payload: &Payload) -> Result<(), InstallError> {
    std::fs::create_dir_all(dir).map_err(write_error(dir))?;
    for file in &payload.files {
        let path = dir.join(&file.rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(write_error(parent))?;
        }
        std::fs::write(&path, &file.bytes).map_err(write_error(&path))?;
        set_mode(&path, file.executable)?;
    }
    Ok(())
}

#[cfg(unix)]
fn set_mode(path: &Path, executable: bool) -> Result<(), InstallError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if executable { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(write_error(path))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _executable: bool) -> Result<(), InstallError> {
    Ok(())
}

#[cfg(unix)]
fn make_link(target: &Path, at: &Path) -> Result<(), InstallError> {
    std::os::unix::fs::symlink(target, at).map_err(write_error(at))
}

#[cfg(not(unix))]
fn make_link(target: &Path, at: &Path) -> Result<(), InstallError> {
    // No unprivileged symlinks everywhere: copy the canonical folder instead.
    let source = at.parent().unwrap_or(Path::new(".")).join(target);
    copy_tree(&source, at)
}

#[cfg(not(unix))]
fn copy_tree(from: &Path, to: &Path) -> Result<(), InstallError> {
    std::fs::create_dir_all(to).map_err(write_error(to))?;
    for entry in std::fs::read_dir(from).map_err(write_error(from))? {
        let entry = entry.map_err(write_error(from))?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).map_err(write_error(&target))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::PayloadFile;

    #[test]
    fn transaction_commits_and_rolls_back() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("agent/skills");
        let payload = Payload {
            files: vec![PayloadFile {
                rel: "SKILL.md".into(),
                bytes: b"new".to_vec(),
                executable: false,
            }],
            computed_hash: String::new(),
            notes: Vec::new(),
        };
        std::fs::create_dir_all(dir.join("x")).unwrap();
        std::fs::write(dir.join("x/SKILL.md"), "old").unwrap();
        let placement = Placement {
            path: dir.join("x"),
            link: None,
        };
        let mut tx = Transaction::default();
        tx.stage(&placement, &payload).unwrap();
        let committed = tx.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("x/SKILL.md")).unwrap(),
            "new"
        );
        committed.rollback();
        assert_eq!(
            std::fs::read_to_string(dir.join("x/SKILL.md")).unwrap(),
            "old"
        );
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x"], "no staging or backup left");
        let mut tx = Transaction::default();
        tx.stage(
            &Placement {
                path: tmp.path().join("fresh/skills/y"),
                link: None,
            },
            &payload,
        )
        .unwrap();
        tx.abort();
        assert!(
            !tmp.path().join("fresh").exists(),
            "created dirs are removed again"
        );
    }
}
