//! Placing skill folders in agent dirs, and taking them out, with no half-states.
//!
//! A skill is first read out of its source into memory ([`Payload`]), checked (symlinks that
//! leave the source, sizes, file count) before anything is written. Then every folder and link
//! is written into a staging dir beside its target (`<agent dir>/.skills-staging-…`), and only
//! when all are staged are they renamed into place; a folder being replaced is renamed aside
//! first and restored if anything later fails. [`Committed::rollback`] undoes a commit (used when
//! the lockfile cannot be written); [`Committed::finish`] drops the replaced folders.

use std::path::{Component, Path, PathBuf};

use crate::error::Error;
use crate::fsutil::{TEMP_PREFIX, relative_path};

use crate::lock::{self, InstallMode, Lock};
use crate::project::lock_error;
use crate::source::tree::{Kind, SourceTree, join};

/// Limits on what one skill may bring.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_file_size: u64,
    pub max_skill_size: u64,
    pub max_files: usize,
}

impl From<&crate::cli::LimitArgs> for Limits {
    fn from(args: &crate::cli::LimitArgs) -> Limits {
        Limits {
            max_file_size: args.max_file_size,
            max_skill_size: args.max_skill_size,
            max_files: args.max_files,
        }
    }
}

impl Limits {
    /// No limits: for reading what is already installed.
    pub fn unbounded() -> Limits {
        Limits {
            max_file_size: u64::MAX,
            max_skill_size: u64::MAX,
            max_files: usize::MAX,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: 10 << 20,
            max_skill_size: 50 << 20,
            max_files: 1000,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("`{path}` is a symlink to `{target}`, which leaves the source")]
    SymlinkEscapes { path: String, target: String },
    #[error("`{path}` is {size} bytes, over the limit of {limit} (--max-file-size)")]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error("the skill is {size} bytes, over the limit of {limit} (--max-skill-size)")]
    SkillTooLarge { size: u64, limit: u64 },
    #[error("the skill has more than {limit} files (--max-files)")]
    TooManyFiles { limit: usize },
    #[error("`{path}` is not a regular file, folder or symlink")]
    Special { path: String },
    #[error("cannot read `{path}` from the source")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadFile {
    pub rel: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// A skill read out of its source.
#[derive(Debug, Clone)]
pub struct Payload {
    /// What is installed: every file but `.git/` and the top-level `metadata.json`, symlinks
    /// that stay inside the source dereferenced.
    pub files: Vec<PayloadFile>,
    /// The reference's hash of the source folder (regular files only, `.git/` and
    /// `node_modules/` left out, `metadata.json` and dotfiles included).
    pub computed_hash: String,
    /// Things left out, with why (submodules).
    pub notes: Vec<String>,
}

impl Payload {
    /// `relative/path` → `sha256:<hex>` of what is installed.
    pub fn digests(&self) -> std::collections::BTreeMap<String, String> {
        self.files
            .iter()
            .map(|f| (f.rel.clone(), lock::digest(&f.bytes)))
            .collect()
    }
}

/// Normalizes `base/rel` inside a tree; `None` when it climbs above the tree root.
fn tree_path(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for component in Path::new(rel).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

struct Collector<'a> {
    tree: &'a dyn SourceTree,
    limits: Limits,
    payload: Payload,
    hashed: Vec<(String, Vec<u8>)>,
    total: u64,
}

/// Reads the skill at `dir` (a folder of `tree`) and checks it against `limits`.
pub fn collect(tree: &dyn SourceTree, dir: &str, limits: Limits) -> Result<Payload, InstallError> {
    let mut collector = Collector {
        tree,
        limits,
        payload: Payload {
            files: Vec::new(),
            computed_hash: String::new(),
            notes: Vec::new(),
        },
        hashed: Vec::new(),
        total: 0,
    };
    collector.walk(dir, "", 0, true)?;
    collector.payload.computed_hash = lock::computed_hash(
        collector
            .hashed
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice())),
    );
    collector.payload.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(collector.payload)
}

impl Collector<'_> {
    /// Walks `dir` of the tree, installing under `prefix`; `hash` is false below a symlinked
    /// folder (the reference's hash does not follow links).
    fn walk(
        &mut self,
        dir: &str,
        prefix: &str,
        depth: usize,
        hash: bool,
    ) -> Result<(), InstallError> {
        if depth > 32 {
            return Err(InstallError::Special {
                path: dir.to_owned(),
            });
        }
        let entries = self.tree.list(dir).map_err(|source| InstallError::Read {
            path: dir.to_owned(),
            source,
        })?;
        for entry in entries {
            let source_path = join(dir, &entry.name);
            let rel = join(prefix, &entry.name);
            match entry.kind {
                Kind::Dir => {
                    if entry.name == ".git" {
                        continue;
                    }
                    let hash = hash && entry.name != "node_modules";
                    self.walk(&source_path, &rel, depth + 1, hash)?;
                }
                Kind::File { executable } => {
                    let bytes = self.read(&source_path, &rel)?;
                    if hash && !rel.split('/').any(|p| p == "node_modules") {
                        self.hashed.push((rel.clone(), bytes.clone()));
                    }
                    if rel != "metadata.json" {
                        self.push(rel, bytes, executable)?;
                    }
                }
                Kind::Symlink => self.link(&source_path, &rel, depth)?,
                Kind::Submodule => self.payload.notes.push(format!(
                    "left out `{rel}`: a git submodule (its files live in another repository)"
                )),
                Kind::Special => return Err(InstallError::Special { path: rel }),
            }
        }
        Ok(())
    }

    /// Dereferences a symlink whose target stays inside the source; refuses one that leaves it.
    fn link(&mut self, source_path: &str, rel: &str, depth: usize) -> Result<(), InstallError> {
        let target = self
            .tree
            .read_link(source_path)
            .map_err(|source| InstallError::Read {
                path: rel.to_owned(),
                source,
            })?;
        let parent = source_path.rsplit_once('/').map_or("", |(p, _)| p);
        let escapes = || InstallError::SymlinkEscapes {
            path: rel.to_owned(),
            target: target.clone(),
        };
        let resolved = if target.starts_with('/') || target.contains('\\') {
            return Err(escapes());
        } else {
            tree_path(parent, &target).ok_or_else(escapes)?
        };
        match self.tree.kind(&resolved) {
            Some(Kind::File { executable }) => {
                let bytes = self.read(&resolved, rel)?;
                self.push(rel.to_owned(), bytes, executable)
            }
            Some(Kind::Dir) => self.walk(&resolved, rel, depth + 1, false),
            Some(Kind::Symlink) if depth < 8 => self.link(&resolved, rel, depth + 1),
            _ => Err(escapes()),
        }
    }

    fn read(&self, path: &str, rel: &str) -> Result<Vec<u8>, InstallError> {
        let bytes = self.tree.read(path).map_err(|source| InstallError::Read {
            path: rel.to_owned(),
            source,
        })?;
        let size = bytes.len() as u64;
        if size > self.limits.max_file_size {
            return Err(InstallError::FileTooLarge {
                path: rel.to_owned(),
                size,
                limit: self.limits.max_file_size,
            });
        }
        Ok(bytes)
    }

    fn push(&mut self, rel: String, bytes: Vec<u8>, executable: bool) -> Result<(), InstallError> {
        self.total += bytes.len() as u64;
        if self.total > self.limits.max_skill_size {
            return Err(InstallError::SkillTooLarge {
                size: self.total,
                limit: self.limits.max_skill_size,
            });
        }
        if self.payload.files.len() >= self.limits.max_files {
            return Err(InstallError::TooManyFiles {
                limit: self.limits.max_files,
            });
        }
        self.payload.files.push(PayloadFile {
            rel,
            bytes,
            executable,
        });
        Ok(())
    }
}

/// Where one skill goes in one agent dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The skill folder (or link) to create: `<agent dir>/<folder>`.
    pub path: PathBuf,
    /// `None`: a copy of the payload; `Some(text)`: a symlink with this (relative) target.
    pub link: Option<PathBuf>,
}

/// Where one skill goes, given the agent dirs chosen (first one canonical in symlink mode).
pub fn placements(
    folder: &str,
    dirs: &[PathBuf],
    canonical: &Path,
    mode: InstallMode,
) -> Vec<Placement> {
    match mode {
        InstallMode::Copy => dirs
            .iter()
            .map(|dir| Placement {
                path: dir.join(folder),
                link: None,
            })
            .collect(),
        InstallMode::Symlink | InstallMode::Link => {
            let real = canonical.join(folder);
            let mut out = vec![Placement {
                path: real.clone(),
                link: None,
            }];
            for dir in dirs.iter().filter(|d| d.as_path() != canonical) {
                out.push(Placement {
                    path: dir.join(folder),
                    link: Some(relative_path(dir, &real)),
                });
            }
            out
        }
    }
}

/// Where one skill goes in [`InstallMode::Link`]: `.agents/skills/<folder>` a symlink to the
/// source folder `source` itself, the other dirs symlinks to that.
pub fn link_placements(
    folder: &str,
    dirs: &[PathBuf],
    canonical: &Path,
    source: &Path,
) -> Vec<Placement> {
    let mut out = placements(folder, dirs, canonical, InstallMode::Link);
    if let Some(first) = out.first_mut() {
        first.link = Some(relative_path(canonical, source));
    }
    out
}

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
) -> Result<(), Error> {
    let committed = transaction.commit().map_err(|err| {
        Error::msg(format!("{doing} failed; nothing was changed: {err}")).with_source(err)
    })?;
    if let Some((lock, path)) = lock
        && let Err(err) = lock.write(path)
    {
        committed.rollback();
        return Err(lock_error(err));
    }
    committed.finish();
    Ok(())
}

/// Moves each of `paths` to the trash of `removal`; when one cannot be moved, puts back all
/// that was and says which.
pub fn remove_paths<'a>(
    removal: &mut Removal,
    paths: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<(), Error> {
    for path in paths {
        if let Err(err) = removal.remove(path) {
            std::mem::take(removal).rollback();
            return Err(Error::msg(format!(
                "cannot remove `{}`; nothing was changed",
                path.display()
            ))
            .with_source(err));
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
    use crate::source::tree::LocalTree;

    #[cfg(unix)]
    #[test]
    fn collects_and_refuses_escaping_links() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("skill/scripts")).unwrap();
        std::fs::write(root.join("skill/SKILL.md"), "x").unwrap();
        std::fs::write(root.join("skill/metadata.json"), "{}").unwrap();
        std::fs::write(root.join("LICENSE"), "MIT").unwrap();
        std::os::unix::fs::symlink("../LICENSE", root.join("skill/LICENSE")).unwrap();
        let tree = LocalTree {
            root: root.to_path_buf(),
        };
        let payload = collect(&tree, "skill", Limits::default()).unwrap();
        let rels: Vec<_> = payload.files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(
            rels,
            ["LICENSE", "SKILL.md"],
            "metadata.json left out, inner link dereferenced"
        );
        std::os::unix::fs::symlink("/etc/passwd", root.join("skill/passwd")).unwrap();
        let err = collect(&tree, "skill", Limits::default()).unwrap_err();
        assert!(matches!(err, InstallError::SymlinkEscapes { .. }), "{err}");
    }

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
