//! Writing placements and removals with no half-states, through handles no link can redirect.
//!
//! Staging: every folder and link is written into a staging dir inside its agent dir
//! (`<agent dir>/.skills-staging-<pid>-<random>/<folder>`), through the agent dir's handle
//! ([`super::confined`]), with names that were validated ([`crate::relpath::RelPath`]); nothing is
//! visible yet. Commit: a journal is written first (in the cache, beside the lockfile's advisory
//! lock: which folders go where, with the identity of each new folder and of what it replaces,
//! and the lock's new bytes), then each new folder is swapped with the old one in one atomic
//! step (`renameat2 RENAME_EXCHANGE` where the system has it; else the old one is renamed aside,
//! then the new one in), removals are renamed into the staging dir, the lockfile is written, and
//! only then are the staging dirs (now holding what was replaced) deleted with the journal.
//!
//! So at any moment each skill folder is wholly old or wholly new, and a crash leaves a journal
//! that the next run holding the same lockfile ([`recover`]) rolls forward: it finds each new
//! folder by its identity (device and inode), finishes the swaps, writes the lock the journal
//! holds and removes the leftovers. A failure inside the run (a lockfile that cannot be written)
//! puts everything back before it returns. When putting back fails too, nothing that is needed
//! is deleted: the journal is turned around (it now says "go back") and kept, the staging dirs
//! (holding the old folders) are kept, the error names each folder left changed, and the next
//! run finishes putting them back before it does anything else (`transaction/recovery.rs`).
//! [`sweep`] removes staging, backup and trash folders that runs which died before writing a
//! journal left behind.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::confined::{AgentDir, Confinement, OpenError};
use super::record::Record;
use super::{InstallError, Limits, Payload, Placement, TransactionError, collect};
use crate::fsutil::TEMP_PREFIX;
use crate::lock::{Lock, LockError};
use crate::source::tree::LocalTree;

mod recovery;

pub use recovery::{Recovered, recover};

/// The identity of a folder or link: its device and inode (none where the system has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    #[cfg(unix)]
    #[expect(
        clippy::unnecessary_wraps,
        reason = "`None` where the system has no inodes"
    )]
    fn of(meta: &cap_std::fs::Metadata) -> Option<FileId> {
        use cap_std::fs::MetadataExt;
        Some(FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }

    #[cfg(not(unix))]
    fn of(_meta: &cap_std::fs::Metadata) -> Option<FileId> {
        None
    }
}

/// What one item of a transaction does in its agent dir.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Op {
    /// The staged folder or link `name` goes into place (`id`: its identity once staged; `old`:
    /// that of what it replaces, taken when the journal is written, none when nothing is there).
    Place {
        id: Option<FileId>,
        #[serde(default)]
        old: Option<FileId>,
    },
    /// `name` goes out (into the staging dir, deleted at the end).
    Remove,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Item {
    /// Index into the transaction's agent dirs.
    dir: usize,
    /// A single validated folder name.
    name: String,
    op: Op,
    /// The files a copy placement writes, for the [`Record`] (not journaled).
    #[serde(skip)]
    files: Option<crate::lock::Files>,
    /// What it may replace or remove, judged again when the commit starts (not journaled: a
    /// journal is finished as it was written).
    #[serde(skip)]
    replaces: Replaces,
}

/// What a placement may replace (or a removal take away), as the plan found it: judged again
/// when the commit starts, so that a folder edited (or made) between the plan and the commit —
/// while sources were read and the gate ran — is not lost.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Replaces {
    /// Whatever is there (`--force`; the cache; a removal the user named).
    #[default]
    Anything,
    /// Nothing: nothing was there when planned, and nothing may be there now.
    Nothing,
    /// A link, or a folder whose files are still one of these sets (or what this machine last
    /// wrote there) with nothing unlisted in it: what the plan found unedited.
    Unedited(Vec<crate::lock::Files>),
}

/// How an item was carried out, to undo it.
#[derive(Debug, Clone, Copy)]
enum Done {
    /// Swapped with what was there: the old one is at the staged name.
    Exchanged,
    /// What was there was renamed to the staged name + `.old`, then the new one in.
    Replaced,
    /// Nothing was there.
    Added,
    /// Removed into the staging dir.
    Removed,
}

/// Why [`Transaction::apply`] stopped, and the folders its undo could not put back.
type Failed = (InstallError, Vec<PathBuf>);

/// An agent dir of the transaction and its staging dir (made when the first item is staged).
#[derive(Debug)]
struct Dir {
    agent: AgentDir,
    staging: Option<Staging>,
}

/// A staging dir: its name in the agent dir, and a handle on it (every staged entry is one name
/// beneath it, so each write, swap and removal is one system call on two handles).
#[derive(Debug)]
struct Staging {
    name: String,
    dir: cap_std::fs::Dir,
    modes: Modes,
}

/// Whether a file created in a staging dir with a mode (`0o644`, `0o755`) gets exactly that
/// mode, or the umask (or a default ACL) takes bits away: learnt from the first file of each
/// mode, so that the others need no `chmod`. The folders made beneath a staging dir inherit its
/// default ACL, so what one file shows holds for all of them.
#[derive(Debug, Default)]
struct Modes {
    /// Per mode (plain, executable): 0 not known yet, 1 exact, 2 not.
    exact: [std::sync::atomic::AtomicU8; 2],
}

/// What a placement holds before anything is compared ([`Transaction::probe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    Folder,
    Link,
    /// Neither (a file, a FIFO): never ours to replace.
    Other,
}

/// What is at a placement, compared with what it should hold ([`Transaction::placed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placed {
    /// Nothing (no folder, file or link).
    Nothing,
    /// Exactly what it should hold.
    Same,
    /// Something else: other files, a folder where a link goes, a file.
    Other,
}

/// Everything of one `add`/`update`/`install`/`remove`/`sync`, staged and not yet visible.
#[derive(Debug)]
pub struct Transaction {
    confinement: Confinement,
    /// Where the journal goes at commit (none: nothing to recover, as for the cache).
    journal: Option<PathBuf>,
    dirs: Vec<Dir>,
    items: Vec<Item>,
    /// Agent dirs created for this transaction, outermost first (removed again when empty).
    created: Vec<PathBuf>,
    /// What this machine last wrote to each folder (loaded on first use).
    record: Option<Record>,
    /// Agent dirs looked for and not found (each looked for once until one is created).
    absent: Vec<PathBuf>,
}

/// The journal of a commit: enough for the next run to finish it.
#[derive(Debug, Serialize, Deserialize)]
struct Journal {
    version: u32,
    /// `(agent dir, staging dir name)` per dir.
    dirs: Vec<(PathBuf, String)>,
    items: Vec<Item>,
    /// The lockfile and the bytes it gets.
    lock: Option<(PathBuf, String)>,
    /// Go back: a commit failed and could not put everything back; the next run does.
    #[serde(default)]
    undo: bool,
}

const JOURNAL_VERSION: u32 = 1;

fn open_error(err: OpenError) -> InstallError {
    match err {
        OpenError::Escapes(escapes) => InstallError::Escapes(escapes),
        OpenError::Io { path, source } => InstallError::Write { path, source },
    }
}

/// A staging dir's name: the prefix the index skips, this process's id (so that [`sweep`]
/// knows a live run's from a dead one's) and a random part.
fn staging_name() -> String {
    let random: u64 = {
        use std::hash::{BuildHasher as _, Hasher as _};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        hasher.finish()
    };
    format!("{TEMP_PREFIX}staging-{}-{random:016x}", std::process::id())
}

/// The agent dir and the single folder name of `path`.
fn split(path: &Path) -> Result<(&Path, &str), InstallError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    crate::relpath::check_component(name).map_err(|why| {
        InstallError::UnsafePath(crate::relpath::UnsafePath {
            path: path.display().to_string(),
            why,
        })
    })?;
    Ok((path.parent().unwrap_or(Path::new(".")), name))
}

impl Transaction {
    /// A transaction whose writes stay within `confinement`; `journal` is where its commit is
    /// recorded for [`recover`] (the scope's [`journal_path`]).
    pub fn new(confinement: Confinement, journal: Option<PathBuf>) -> Transaction {
        Transaction {
            confinement,
            journal,
            dirs: Vec::new(),
            items: Vec::new(),
            created: Vec::new(),
            record: None,
            absent: Vec::new(),
        }
    }

    /// The record of what this machine wrote where (empty without a journal: nothing to keep).
    fn record(&mut self) -> &mut Record {
        let path = self.journal.as_ref().map(|j| j.with_extension("record"));
        self.record
            .get_or_insert_with(|| path.map(Record::load).unwrap_or_default())
    }

    /// Whether nothing is staged.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The agent dir `dir`, opened (and created when `create`); `None` when it does not exist.
    fn dir(&mut self, dir: &Path, create: bool) -> Result<Option<usize>, InstallError> {
        if let Some(index) = self.dirs.iter().position(|d| d.agent.path == dir) {
            return Ok(Some(index));
        }
        if !create && self.absent.iter().any(|a| a == dir) {
            return Ok(None);
        }
        let Some((agent, created)) = self.confinement.open(dir, create).map_err(open_error)? else {
            self.absent.push(dir.to_path_buf());
            return Ok(None);
        };
        self.absent.clear();
        self.created.extend(created);
        // One folder reached by two paths (a dir that links to another) is one dir, so that
        // two items can never take one name in it.
        let id = |d: &AgentDir| d.dir.dir_metadata().ok().and_then(|m| FileId::of(&m));
        if let Some(same) = id(&agent)
            && let Some(index) = self.dirs.iter().position(|d| id(&d.agent) == Some(same))
        {
            return Ok(Some(index));
        }
        self.dirs.push(Dir {
            agent,
            staging: None,
        });
        Ok(Some(self.dirs.len() - 1))
    }

    /// Makes the staging dir of the agent dir `index` on first use.
    fn staging(&mut self, index: usize) -> Result<(), InstallError> {
        let dir = &mut self.dirs[index];
        if dir.staging.is_some() {
            return Ok(());
        }
        let name = staging_name();
        let failed = write_error(dir.agent.path.join(&name));
        dir.agent.dir.create_dir(&name).map_err(failed)?;
        let handle = dir
            .agent
            .dir
            .open_dir(&name)
            .map_err(write_error(dir.agent.path.join(&name)))?;
        dir.staging = Some(Staging {
            name,
            dir: handle,
            modes: Modes::default(),
        });
        Ok(())
    }

    /// Refuses a second item for one folder: two skills never share a folder.
    fn claim(&self, index: usize, name: &str, path: &Path) -> Result<(), InstallError> {
        if self.items.iter().any(|i| i.dir == index && i.name == name) {
            return Err(InstallError::Shared {
                path: path.to_path_buf(),
            });
        }
        Ok(())
    }

    /// Writes `placement` of `payload` into a staging dir beside its target, to replace
    /// whatever is there.
    #[cfg(test)]
    pub(super) fn stage(
        &mut self,
        placement: &Placement,
        payload: &Payload,
    ) -> Result<(), InstallError> {
        self.stage_over(placement, payload, Replaces::Anything)
    }

    /// Writes `placement` of `payload` into a staging dir beside its target, to replace only
    /// what `replaces` allows when the commit starts.
    pub(super) fn stage_over(
        &mut self,
        placement: &Placement,
        payload: &Payload,
        replaces: Replaces,
    ) -> Result<(), InstallError> {
        let (dir, name) = split(&placement.path)?;
        let index = self.dir(dir, true)?.ok_or_else(|| InstallError::Write {
            path: dir.to_path_buf(),
            source: std::io::ErrorKind::NotFound.into(),
        })?;
        self.claim(index, name, &placement.path)?;
        self.staging(index)?;
        let dir = &self.dirs[index];
        let Some(staging) = &dir.staging else {
            return Ok(());
        };
        let at = dir.agent.path.join(&staging.name).join(name);
        match &placement.link {
            Some(target) => make_link(staging, &at, target, name, payload)?,
            None => write_payload(staging, &at, name, payload)?,
        }
        let id = staging
            .dir
            .symlink_metadata(name)
            .ok()
            .and_then(|meta| FileId::of(&meta));
        self.items.push(Item {
            dir: index,
            name: name.to_owned(),
            op: Op::Place { id, old: None },
            files: placement.link.is_none().then(|| payload.digests()),
            replaces,
        });
        Ok(())
    }

    /// Stages the removal of the folder or link `path` (nothing is removed before the commit).
    pub fn remove(&mut self, path: &Path) -> Result<(), InstallError> {
        self.remove_only(path, Replaces::Anything)
    }

    /// Stages the removal of `path`, when the commit starts, only if what is there is what
    /// `replaces` allows.
    pub fn remove_only(&mut self, path: &Path, replaces: Replaces) -> Result<(), InstallError> {
        let (dir, name) = split(path)?;
        let Some(index) = self.dir(dir, false)? else {
            return Ok(());
        };
        if self.dirs[index].agent.dir.symlink_metadata(name).is_err() {
            return Ok(());
        }
        self.claim(index, name, path)?;
        self.staging(index)?;
        self.items.push(Item {
            dir: index,
            name: name.to_owned(),
            op: Op::Remove,
            files: None,
            replaces,
        });
        Ok(())
    }

    /// Whether every item's place still holds what it may replace ([`Replaces`]): looked at
    /// once more as the commit starts, after the plan and before anything moves.
    fn still_as_planned(&mut self) -> Result<(), InstallError> {
        for index in 0..self.items.len() {
            let item = &self.items[index];
            let replaces = item.replaces.clone();
            let path = self.dirs[item.dir].agent.path.join(&item.name);
            let there = self.dirs[item.dir]
                .agent
                .dir
                .symlink_metadata(&item.name)
                .is_ok();
            let changed = match replaces {
                Replaces::Nothing if there => Some("something was put there".to_owned()),
                Replaces::Unedited(baselines) if there => {
                    let baselines: Vec<&crate::lock::Files> = baselines.iter().collect();
                    self.edited(&path, &baselines)?
                        .map(|diff| format!("it was edited ({})", diff.listed(6)))
                }
                _ => None,
            };
            if let Some(what) = changed {
                return Err(InstallError::Changed { path, what });
            }
        }
        Ok(())
    }

    /// What is at `path` (nothing, a folder, a link, something else), looked at once through
    /// its agent dir's handle.
    pub fn probe(&mut self, path: &Path) -> Result<Option<Probe>, InstallError> {
        let (dir, name) = split(path)?;
        let Some(index) = self.dir(dir, false)? else {
            return Ok(None);
        };
        Ok(self.dirs[index]
            .agent
            .dir
            .symlink_metadata(name)
            .ok()
            .map(|meta| {
                if meta.file_type().is_symlink() {
                    Probe::Link
                } else if meta.is_dir() {
                    Probe::Folder
                } else {
                    Probe::Other
                }
            }))
    }

    /// How the folder at `path` differs from what it should hold, when it holds local edits:
    /// `None` when nothing (or a link) is there, or when its files are one of `baselines` (what
    /// the lock says was installed, what is about to be) or what this machine last wrote there
    /// (a folder nobody touched since, whose lock moved on), and nothing no lock lists is in it
    /// (a `.git`, a `metadata.json`: shown as added). The diff is against the first baseline
    /// that is not empty.
    pub fn edited(
        &mut self,
        path: &Path,
        baselines: &[&crate::lock::Files],
    ) -> Result<Option<super::FileDiff>, InstallError> {
        let Some(installed) = self.installed(path)? else {
            return Ok(None);
        };
        let now = installed.digests();
        // What no lock lists and replacing the folder would delete (a `.git` of the user's, a
        // `metadata.json`) is an edit even where every listed file matches.
        let left_out = installed.left_out;
        if left_out.is_empty()
            && (baselines.iter().any(|b| **b == now) || self.record().wrote(path, &now))
        {
            return Ok(None);
        }
        let empty = crate::lock::Files::new();
        let baseline: &crate::lock::Files = baselines
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&empty, |b| *b);
        let mut diff = super::FileDiff::between(baseline, &now);
        diff.added.extend(left_out);
        Ok(Some(diff))
    }

    /// What is installed at the placement path `path` now, read through its agent dir's
    /// handle: `None` when nothing (or a link) is there.
    pub fn installed(&mut self, path: &Path) -> Result<Option<Payload>, InstallError> {
        let (dir, name) = split(path)?;
        let Some(index) = self.dir(dir, false)? else {
            return Ok(None);
        };
        let handle = &self.dirs[index].agent.dir;
        match handle.symlink_metadata(name) {
            Ok(meta) if meta.is_dir() => {}
            _ => return Ok(None),
        }
        let folder = handle.open_dir(name).map_err(|source| InstallError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let tree = LocalTree::from_dir(path.to_path_buf(), folder);
        collect(&tree, &crate::relpath::RelPath::ROOT, Limits::unbounded()).map(Some)
    }

    /// Whether `placement` already holds exactly `payload` (or the right link).
    pub fn in_place(
        &mut self,
        placement: &Placement,
        payload: &Payload,
    ) -> Result<bool, InstallError> {
        Ok(self.placed(placement, payload)? == Placed::Same)
    }

    /// What is at `placement` now, compared with `payload` (or the right link).
    pub fn placed(
        &mut self,
        placement: &Placement,
        payload: &Payload,
    ) -> Result<Placed, InstallError> {
        let (dir, name) = split(&placement.path)?;
        let Some(index) = self.dir(dir, false)? else {
            return Ok(Placed::Nothing);
        };
        let handle = &self.dirs[index].agent.dir;
        let Ok(meta) = handle.symlink_metadata(name) else {
            return Ok(Placed::Nothing);
        };
        let same = match &placement.link {
            Some(target) => {
                meta.file_type().is_symlink()
                    && handle.read_link_contents(name).is_ok_and(|t| t == *target)
            }
            None => {
                !meta.file_type().is_symlink()
                    && self
                        .installed(&placement.path)?
                        .is_some_and(|now| now.files == payload.files)
            }
        };
        Ok(if same { Placed::Same } else { Placed::Other })
    }

    /// Drops everything staged; nothing was visible.
    pub fn abort(mut self) {
        self.cleanup();
    }

    fn cleanup(&mut self) {
        for dir in &mut self.dirs {
            if let Some(staging) = dir.staging.take() {
                let _ = dir.agent.dir.remove_dir_all(&staging.name);
            }
        }
        for dir in self.created.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
        self.created.clear();
    }

    /// Carries out the items in order (each done one as its index and how); on a failure,
    /// undoes what was done and says why, with the folders it could not put back.
    fn apply(&self) -> Result<Vec<(usize, Done)>, Failed> {
        let mut done = Vec::with_capacity(self.items.len());
        for (index, item) in self.items.iter().enumerate() {
            let dir = &self.dirs[item.dir];
            let Some(places) = Places::of(dir, &item.name) else {
                continue;
            };
            let outcome = match item.op {
                Op::Remove => places.remove(),
                Op::Place { .. } => places.place(item.replaces == Replaces::Nothing),
            };
            match outcome {
                Ok(how) => done.push((index, how)),
                Err(source) => {
                    let left = self.undo(&done);
                    let error = InstallError::Write {
                        path: dir.agent.path.join(&item.name),
                        source,
                    };
                    return Err((error, left));
                }
            }
        }
        Ok(done)
    }

    /// Puts back what `done` did, last first; returns the folders it could not put back.
    fn undo(&self, done: &[(usize, Done)]) -> Vec<PathBuf> {
        let mut left = Vec::new();
        for &(index, how) in done.iter().rev() {
            let item = &self.items[index];
            let dir = &self.dirs[item.dir];
            if let Some(places) = Places::of(dir, &item.name)
                && places.undo(how).is_err()
            {
                left.push(dir.agent.path.join(&item.name));
            }
        }
        left.reverse();
        left
    }

    /// The error of a commit that failed with `cause`, after the undo that left `left` changed.
    /// With nothing left, the journal and the staging dirs go. Else both are kept for the next
    /// run: the journal turned around (should that fail, the journal written at the start
    /// stays, and the next run finishes the commit instead — consistent either way), the
    /// staging dirs detached so that dropping the transaction leaves them.
    fn fail(
        mut self,
        journal: Option<PathBuf>,
        left: Vec<PathBuf>,
        doing: &str,
        cause: Cause,
    ) -> TransactionError {
        if left.is_empty() {
            if let Some(path) = &journal {
                let _ = std::fs::remove_file(path);
            }
            self.cleanup();
            return match cause {
                Cause::Apply(error) => TransactionError::Commit {
                    doing: doing.to_owned(),
                    error,
                },
                Cause::Lock(err) => TransactionError::Lock(err),
            };
        }
        if let Some(path) = &journal {
            let mut back = self.journal(None);
            back.undo = true;
            let _ = write_journal(path, &back);
        }
        let staging: Vec<PathBuf> = self
            .dirs
            .iter_mut()
            .filter_map(|dir| Some(dir.agent.path.join(dir.staging.take()?.name)))
            .collect();
        self.created.clear();
        TransactionError::Unfinished(Box::new(Unfinished {
            doing: doing.to_owned(),
            cause,
            left,
            staging,
            journal,
        }))
    }

    /// Records what the committed items wrote and removed.
    fn remember(&mut self) {
        if self.journal.is_none() {
            return;
        }
        let done: Vec<(PathBuf, Option<crate::lock::Files>)> = self
            .items
            .iter()
            .map(|item| {
                (
                    self.dirs[item.dir].agent.path.join(&item.name),
                    item.files.clone(),
                )
            })
            .collect();
        let record = self.record();
        for (path, files) in done {
            match files {
                Some(files) => record.set(&path, &files),
                None => record.forget(&path),
            }
        }
        record.save();
    }

    /// Notes what each placement replaces, before anything moves: going back, the old folder
    /// is told by its identity from anything else.
    fn note_old(&mut self) {
        for item in &mut self.items {
            if let Op::Place { old, .. } = &mut item.op {
                *old = self.dirs[item.dir]
                    .agent
                    .dir
                    .symlink_metadata(&item.name)
                    .ok()
                    .and_then(|meta| FileId::of(&meta));
            }
        }
    }

    /// The journal of this transaction, with `lock`'s bytes.
    fn journal(&self, lock: Option<(&Lock, &Path)>) -> Journal {
        Journal {
            version: JOURNAL_VERSION,
            dirs: self
                .dirs
                .iter()
                .map(|d| {
                    let staging = d.staging.as_ref().map(|s| s.name.clone());
                    (d.agent.path.clone(), staging.unwrap_or_default())
                })
                .collect(),
            items: self.items.clone(),
            lock: lock.map(|(lock, path)| {
                (
                    path.to_path_buf(),
                    String::from_utf8_lossy(&lock.to_bytes()).into_owned(),
                )
            }),
            undo: false,
        }
    }
}

impl Drop for Transaction {
    fn drop(&mut self) {
        self.cleanup();
    }
}

/// An item's two places: its name in the agent dir, and the same name in the staging dir.
struct Places<'a> {
    agent: &'a cap_std::fs::Dir,
    staging: &'a cap_std::fs::Dir,
    name: &'a str,
}

impl<'a> Places<'a> {
    fn of(dir: &'a Dir, name: &'a str) -> Option<Places<'a>> {
        Some(Places {
            agent: &dir.agent.dir,
            staging: &dir.staging.as_ref()?.dir,
            name,
        })
    }

    /// `<name>.old` in the staging dir: where the old entry goes where it cannot be swapped in
    /// one step.
    fn old(&self) -> String {
        format!("{}.old", self.name)
    }

    /// Moves the staged entry into place: into a free name, else (unless `only_new`) swapped
    /// with what is there (atomically where the system can; else the old entry is renamed
    /// aside first).
    fn place(&self, only_new: bool) -> std::io::Result<Done> {
        if rename_new(self.staging, self.name, self.agent, self.name)? {
            return Ok(Done::Added);
        }
        if only_new {
            return Err(std::io::ErrorKind::AlreadyExists.into());
        }
        if exchange(self.staging, self.name, self.agent, self.name)? {
            return Ok(Done::Exchanged);
        }
        self.agent.rename(self.name, self.staging, self.old())?;
        if let Err(err) = self.staging.rename(self.name, self.agent, self.name) {
            let _ = self.staging.rename(self.old(), self.agent, self.name);
            return Err(err);
        }
        Ok(Done::Replaced)
    }

    /// Moves the entry out of place, into the staging dir.
    fn remove(&self) -> std::io::Result<Done> {
        self.agent.rename(self.name, self.staging, self.name)?;
        Ok(Done::Removed)
    }

    /// Undoes what [`Places::place`] or [`Places::remove`] did.
    fn undo(&self, how: Done) -> std::io::Result<()> {
        match how {
            Done::Exchanged => {
                if exchange(self.staging, self.name, self.agent, self.name)? {
                    Ok(())
                } else {
                    Err(std::io::ErrorKind::Unsupported.into())
                }
            }
            Done::Replaced => self
                .agent
                .rename(self.name, self.staging, self.name)
                .and_then(|()| self.staging.rename(self.old(), self.agent, self.name)),
            Done::Added => self.agent.rename(self.name, self.staging, self.name),
            Done::Removed => self.staging.rename(self.name, self.agent, self.name),
        }
    }
}

/// Renames `from` (in `from_dir`) to `to` (in `to_dir`) only if `to` does not exist: `Ok(false)`
/// when it does.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn rename_new(
    from_dir: &cap_std::fs::Dir,
    from: &str,
    to_dir: &cap_std::fs::Dir,
    to: &str,
) -> std::io::Result<bool> {
    use rustix::io::Errno;
    match rustix::fs::renameat_with(
        from_dir,
        from,
        to_dir,
        to,
        rustix::fs::RenameFlags::NOREPLACE,
    ) {
        Ok(()) => Ok(true),
        Err(Errno::EXIST) => Ok(false),
        // A file system without RENAME_NOREPLACE: look, then rename.
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
            rename_if_free(from_dir, from, to_dir, to)
        }
        Err(err) => Err(err.into()),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn rename_new(
    from_dir: &cap_std::fs::Dir,
    from: &str,
    to_dir: &cap_std::fs::Dir,
    to: &str,
) -> std::io::Result<bool> {
    rename_if_free(from_dir, from, to_dir, to)
}

fn rename_if_free(
    from_dir: &cap_std::fs::Dir,
    from: &str,
    to_dir: &cap_std::fs::Dir,
    to: &str,
) -> std::io::Result<bool> {
    if to_dir.symlink_metadata(to).is_ok() {
        return Ok(false);
    }
    from_dir.rename(from, to_dir, to)?;
    Ok(true)
}

/// Swaps `a` (in `a_dir`) and `b` (in `b_dir`) in one step; `Ok(false)` when the system cannot.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn exchange(
    a_dir: &cap_std::fs::Dir,
    a: &str,
    b_dir: &cap_std::fs::Dir,
    b: &str,
) -> std::io::Result<bool> {
    use rustix::io::Errno;
    match rustix::fs::renameat_with(a_dir, a, b_dir, b, rustix::fs::RenameFlags::EXCHANGE) {
        Ok(()) => Ok(true),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => Ok(false),
        Err(err) => Err(err.into()),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn exchange(
    _a_dir: &cap_std::fs::Dir,
    _a: &str,
    _b_dir: &cap_std::fs::Dir,
    _b: &str,
) -> std::io::Result<bool> {
    Ok(false)
}

/// Renames everything `transaction` staged into place, then writes `lock` to `path` (when
/// given); a lock that cannot be written puts everything back. `doing` names the work for the
/// error (`installing`). What cannot be put back is [`TransactionError::Unfinished`]: its
/// journal and staging dirs are kept for the next run ([`recover`]).
pub fn commit(
    mut transaction: Transaction,
    lock: Option<(&Lock, &Path)>,
    doing: &str,
) -> Result<(), TransactionError> {
    let failed = |error| TransactionError::Commit {
        doing: doing.to_owned(),
        error,
    };
    // What the plan found at each place is looked at again: a folder edited (or made) while
    // the sources were read and the gate ran is not replaced.
    transaction.still_as_planned().map_err(failed)?;
    transaction.note_old();
    let journal = match &transaction.journal {
        Some(path) if !transaction.items.is_empty() => {
            let journal = transaction.journal(lock);
            write_journal(path, &journal).map_err(|source| {
                failed(InstallError::Write {
                    path: path.clone(),
                    source,
                })
            })?;
            Some(path.clone())
        }
        _ => None,
    };
    let done = match transaction.apply() {
        Ok(done) => done,
        Err((error, left)) => {
            return Err(transaction.fail(journal, left, doing, Cause::Apply(error)));
        }
    };
    if let Some((lock, path)) = lock
        && let Err(err) = lock.write(path)
    {
        let left = transaction.undo(&done);
        return Err(transaction.fail(journal, left, doing, Cause::Lock(err)));
    }
    // Everything is in place: the staging dirs hold only what was replaced or removed.
    transaction.remember();
    transaction.created.clear();
    transaction.cleanup();
    if let Some(path) = &journal {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Why a commit failed.
#[derive(Debug, thiserror::Error)]
pub enum Cause {
    /// Putting a folder in place (or out) failed.
    #[error(transparent)]
    Apply(InstallError),
    /// The lockfile could not be written.
    #[error(transparent)]
    Lock(LockError),
}

/// A commit that failed, and whose undo failed too: `left` still hold what the commit put
/// there. The staging dirs keep what they replaced, and the journal (when the transaction has
/// one) tells the next run to put it back.
#[derive(Debug)]
pub struct Unfinished {
    pub doing: String,
    pub cause: Cause,
    /// The folders (and links) not put back.
    pub left: Vec<PathBuf>,
    /// The staging dirs kept.
    pub staging: Vec<PathBuf>,
    pub journal: Option<PathBuf>,
}

impl std::fmt::Display for Unfinished {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let left: Vec<String> = self
            .left
            .iter()
            .map(|path| format!("`{}`", path.display()))
            .collect();
        write!(
            f,
            "{} failed, and {} could not be put back as {} {}: {}",
            self.doing,
            if left.len() == 1 {
                "a folder"
            } else {
                "folders"
            },
            if left.len() == 1 { "it" } else { "they" },
            if left.len() == 1 { "was" } else { "were" },
            left.join(", ")
        )
    }
}

impl std::error::Error for Unfinished {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.cause)
    }
}

impl crate::hint::Hint for Unfinished {
    fn hint(&self) -> Option<String> {
        let staging: Vec<String> = self
            .staging
            .iter()
            .map(|path| format!("`{}`", path.display()))
            .collect();
        Some(match &self.journal {
            Some(journal) => format!(
                "{} keep(s) what putting them back needs; once the cause is fixed, the next `skills add`, `remove`, `update`, `install` or `sync` here puts them back before anything else (the journal is `{}`)",
                staging.join(", "),
                journal.display()
            ),
            None => format!(
                "{} keep(s) what they replaced: move it back by hand",
                staging.join(", ")
            ),
        })
    }
}

fn write_journal(path: &Path, journal: &Journal) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    crate::fsutil::write_atomic_with(path, |out| {
        serde_json::to_writer(&mut *out, journal).map_err(std::io::Error::other)?;
        out.flush()
    })
}

/// Where the journal of the lockfile `lock_path`'s transactions lives: beside its advisory lock
/// in the cache (nothing is added to the project, and a project cannot bring one of its own).
pub fn journal_path(lock_path: &Path, cache: &Path) -> PathBuf {
    crate::lock::guard::guard_path(lock_path, cache).with_extension("journal")
}

/// Removes the staging, backup and trash folders that dead runs left in the agent dirs `dirs`
/// (those of a run still alive are left alone); returns what was removed.
pub fn sweep(dirs: &[PathBuf], confinement: &Confinement) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for dir in dirs {
        let Ok(Some((agent, _))) = confinement.open(dir, false) else {
            continue;
        };
        let Ok(entries) = agent.dir.entries() else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if is_leftover(&name) {
                let gone = match entry.file_type() {
                    Ok(kind) if kind.is_dir() => agent.dir.remove_dir_all(&name),
                    _ => agent.dir.remove_file(&name),
                };
                if gone.is_ok() {
                    removed.push(dir.join(&name));
                }
            }
        }
    }
    removed
}

/// Whether `name` is a staging, backup, trash or temp entry of a run that is not alive.
pub fn is_leftover(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
        return false;
    };
    let Some((_, rest)) = rest.split_once('-') else {
        return false;
    };
    // `staging-<pid>-…`, `old-<pid>-…`, `trash-<pid>-…`; a temp file (`tmp-…`) has no pid.
    let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
    pid.is_none_or(|pid| !is_alive(pid))
}

#[cfg(unix)]
fn is_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(raw) = i32::try_from(pid) else {
        return false;
    };
    rustix::process::Pid::from_raw(raw).is_some_and(|pid| {
        !matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        )
    })
}

#[cfg(not(unix))]
fn is_alive(pid: u32) -> bool {
    pid == std::process::id()
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

/// Writes `payload` as the folder `name` beneath `staging`, files with their modes; `at` is
/// where that is, for messages.
fn write_payload(
    staging: &Staging,
    at: &Path,
    name: &str,
    payload: &Payload,
) -> Result<(), InstallError> {
    let failed = |rel: &crate::relpath::RelPath| write_error(rel.to_path(at));
    staging
        .dir
        .create_dir(name)
        .map_err(write_error(at.to_path_buf()))?;
    let folder = staging
        .dir
        .open_dir(name)
        .map_err(write_error(at.to_path_buf()))?;
    let mut made: std::collections::HashSet<crate::relpath::RelPath> =
        std::collections::HashSet::new();
    let options = |executable: bool| {
        let mut options = cap_std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt as _;
            options.mode(mode_of(executable));
        }
        #[cfg(not(unix))]
        let _ = executable;
        options
    };
    let options = [options(false), options(true)];
    // Reflinks from the store are tried until the file system says it cannot; the objects are
    // found by the digests the store verified (nothing is hashed again here).
    let mut store = payload.store.as_ref();
    let digests = store.map(|_| payload.digested());
    for file in &payload.files {
        let parent = file.rel.parent();
        if !parent.is_root() && !made.contains(&parent) {
            folder
                .create_dir_all(parent.as_str())
                .map_err(failed(&parent))?;
            made.insert(parent);
        }
        let mut out = folder
            .open_with(file.rel.as_str(), &options[usize::from(file.executable)])
            .map_err(failed(&file.rel))?
            .into_std();
        // From the store: a reflink of the object these very bytes hash to (they were verified
        // when read), else the copy.
        let digest = digests.and_then(|d| d.get(&file.rel));
        let cloned = store
            .zip(digest)
            .is_some_and(|(store, digest)| store.reflink(digest, &out));
        if !cloned {
            store = None;
            out.write_all(&file.bytes).map_err(failed(&file.rel))?;
        }
        staging
            .modes
            .set(&out, file.executable)
            .map_err(failed(&file.rel))?;
    }
    Ok(())
}

fn write_error(path: PathBuf) -> impl FnOnce(std::io::Error) -> InstallError {
    move |source| InstallError::Write { path, source }
}

/// The mode of an installed file: `0o755` when executable, else `0o644`, whatever the umask.
#[cfg(unix)]
fn mode_of(executable: bool) -> u32 {
    if executable { 0o755 } else { 0o644 }
}

impl Modes {
    /// Gives the new file `file`, created with its mode, exactly that mode.
    #[cfg(unix)]
    fn set(&self, file: &std::fs::File, executable: bool) -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        use std::sync::atomic::Ordering;
        let mode = mode_of(executable);
        let exact = &self.exact[usize::from(executable)];
        match exact.load(Ordering::Relaxed) {
            1 => return Ok(()),
            2 => {}
            _ => {
                let got = file.metadata()?.permissions().mode() & 0o7777;
                exact.store(if got == mode { 1 } else { 2 }, Ordering::Relaxed);
                if got == mode {
                    return Ok(());
                }
            }
        }
        file.set_permissions(std::fs::Permissions::from_mode(mode))
    }

    #[cfg(not(unix))]
    fn set(&self, _file: &std::fs::File, _executable: bool) -> std::io::Result<()> {
        Ok(())
    }
}

/// Makes the link `name` beneath `staging`, to `target`.
#[cfg(unix)]
fn make_link(
    staging: &Staging,
    at: &Path,
    target: &Path,
    name: &str,
    _payload: &Payload,
) -> Result<(), InstallError> {
    staging
        .dir
        .symlink_contents(target, name)
        .map_err(write_error(at.to_path_buf()))
}

#[cfg(not(unix))]
fn make_link(
    staging: &Staging,
    at: &Path,
    _target: &Path,
    name: &str,
    payload: &Payload,
) -> Result<(), InstallError> {
    // No unprivileged symlinks everywhere: a copy instead.
    write_payload(staging, at, name, payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::PayloadFile;
    use crate::relpath::RelPath;

    fn payload(text: &str) -> Payload {
        Payload {
            files: vec![PayloadFile {
                rel: RelPath::file("SKILL.md").unwrap(),
                bytes: text.as_bytes().to_vec(),
                executable: false,
            }],
            computed_hash: String::new(),
            notes: Vec::new(),
            left_out: Vec::new(),
            store: None,
            digested: std::sync::OnceLock::new(),
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn transaction_commits_and_rolls_back() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let dir = root.join("agent/skills");
        std::fs::create_dir_all(dir.join("x")).unwrap();
        std::fs::write(dir.join("x/SKILL.md"), "old").unwrap();
        let placement = Placement {
            path: dir.join("x"),
            link: None,
        };
        let mut tx = Transaction::new(Confinement::project(root.clone()), None);
        assert!(!tx.in_place(&placement, &payload("new")).unwrap());
        assert!(tx.in_place(&placement, &payload("old")).unwrap());
        tx.stage(&placement, &payload("new")).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("x/SKILL.md")).unwrap(),
            "old",
            "nothing visible before the commit"
        );
        let err = tx.stage(&placement, &payload("other")).unwrap_err();
        assert!(matches!(err, InstallError::Shared { .. }), "{err}");
        commit(tx, None, "installing").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("x/SKILL.md")).unwrap(),
            "new"
        );
        assert_eq!(names(&dir), ["x"], "no staging or backup left");

        // A lock that cannot be written puts everything back.
        let mut tx = Transaction::new(Confinement::project(root.clone()), None);
        tx.stage(&placement, &payload("newer")).unwrap();
        tx.stage(
            &Placement {
                path: dir.join("y"),
                link: None,
            },
            &payload("y"),
        )
        .unwrap();
        let lock_path = root.join("no/such/dir/skills-lock.json");
        std::fs::write(root.join("no"), "a file where a folder is needed").unwrap();
        let err = commit(
            tx,
            Some((&Lock::new(crate::lock::LockKind::Project), &lock_path)),
            "installing",
        )
        .unwrap_err();
        assert!(matches!(err, TransactionError::Lock(_)), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("x/SKILL.md")).unwrap(),
            "new"
        );
        assert_eq!(names(&dir), ["x"]);

        let mut tx = Transaction::new(Confinement::project(root.clone()), None);
        tx.stage(
            &Placement {
                path: root.join("fresh/skills/y"),
                link: None,
            },
            &payload("y"),
        )
        .unwrap();
        tx.abort();
        assert!(
            !root.join("fresh").exists(),
            "created dirs are removed again"
        );
    }

    #[test]
    fn a_journal_is_rolled_forward() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("p");
        let dir = root.join("skills");
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(dir.join("a/SKILL.md"), "old a").unwrap();
        std::fs::create_dir_all(dir.join("gone")).unwrap();
        let confinement = Confinement::project(root.clone());
        let journal = tmp.path().join("j.journal");
        let mut tx = Transaction::new(confinement.clone(), Some(journal.clone()));
        for (name, text) in [("a", "new a"), ("b", "new b")] {
            tx.stage(
                &Placement {
                    path: dir.join(name),
                    link: None,
                },
                &payload(text),
            )
            .unwrap();
        }
        tx.remove(&dir.join("gone")).unwrap();
        let lock_path = root.join("skills-lock.json");
        let mut lock = Lock::new(crate::lock::LockKind::Project);
        lock.extra.insert("marker".into(), serde_json::json!(1));
        write_journal(&journal, &tx.journal(Some((&lock, &lock_path)))).unwrap();
        // The run dies after the first swap.
        Places::of(&tx.dirs[0], &tx.items[0].name)
            .unwrap()
            .place(false)
            .unwrap();
        std::mem::forget(tx);
        assert_eq!(
            std::fs::read_to_string(dir.join("a/SKILL.md")).unwrap(),
            "new a"
        );
        assert!(!dir.join("b").exists());
        let recovered = recover(&journal, &confinement).unwrap();
        assert!(recovered.problems.is_empty(), "{:?}", recovered.problems);
        assert_eq!(recovered.finished.len(), 2);
        assert!(recovered.lock_written);
        assert_eq!(
            std::fs::read_to_string(dir.join("b/SKILL.md")).unwrap(),
            "new b"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("a/SKILL.md")).unwrap(),
            "new a"
        );
        assert_eq!(
            names(&dir),
            ["a", "b"],
            "the removal finished, leftovers gone"
        );
        assert_eq!(std::fs::read(&lock_path).unwrap(), lock.to_bytes());
        assert!(!journal.exists());
        assert!(recover(&journal, &confinement).is_none());
    }

    #[test]
    fn a_failed_rollback_keeps_the_journal_and_the_next_run_puts_back() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("p");
        let dir = root.join("skills");
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(dir.join("a/SKILL.md"), "old a").unwrap();
        let confinement = Confinement::project(root.clone());
        let journal = tmp.path().join("j.journal");
        let mut tx = Transaction::new(confinement.clone(), Some(journal.clone()));
        for (name, text) in [("a", "new a"), ("b", "new b")] {
            tx.stage(
                &Placement {
                    path: dir.join(name),
                    link: None,
                },
                &payload(text),
            )
            .unwrap();
        }
        let lock_path = root.join("skills-lock.json");
        tx.note_old();
        let lock = Lock::new(crate::lock::LockKind::Project);
        write_journal(&journal, &tx.journal(Some((&lock, &lock_path)))).unwrap();
        let done = tx.apply().unwrap();
        let staging = dir.join(&tx.dirs[0].staging.as_ref().unwrap().name);
        // Something at the staged name of `b`: `b` cannot go back there.
        std::fs::create_dir_all(staging.join("b/blocker")).unwrap();
        let left = tx.undo(&done);
        assert_eq!(left, [dir.join("b")]);
        let cause = Cause::Lock(LockError::Write {
            path: lock_path.clone(),
            source: std::io::ErrorKind::PermissionDenied.into(),
        });
        let err = tx.fail(Some(journal.clone()), left, "installing", cause);
        let TransactionError::Unfinished(unfinished) = &err else {
            panic!("{err}");
        };
        assert_eq!(unfinished.left, [dir.join("b")]);
        assert_eq!(unfinished.staging, std::slice::from_ref(&staging));
        assert!(
            err.to_string()
                .contains(&format!("`{}`", dir.join("b").display())),
            "{err}"
        );
        assert!(staging.is_dir(), "the staging dir is kept");
        assert_eq!(
            std::fs::read_to_string(dir.join("a/SKILL.md")).unwrap(),
            "old a"
        );
        let kept: Journal = serde_json::from_slice(&std::fs::read(&journal).unwrap()).unwrap();
        assert!(kept.undo && kept.lock.is_none());

        // Still blocked: the next run cannot finish, and keeps everything.
        let recovered = recover(&journal, &confinement).unwrap();
        assert_eq!(recovered.kept.as_deref(), Some(journal.as_path()));
        assert_eq!(recovered.problems.len(), 1, "{:?}", recovered.problems);
        assert!(journal.exists() && staging.is_dir());

        // Unblocked: the run after puts `b` back (out), and cleans up.
        std::fs::remove_dir_all(staging.join("b")).unwrap();
        let recovered = recover(&journal, &confinement).unwrap();
        assert!(recovered.problems.is_empty(), "{:?}", recovered.problems);
        assert!(recovered.undone && recovered.kept.is_none());
        assert_eq!(recovered.finished, [dir.join("b")]);
        assert!(!recovered.lock_written);
        assert_eq!(names(&dir), ["a"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("a/SKILL.md")).unwrap(),
            "old a"
        );
        assert!(!journal.exists());
        assert!(!lock_path.exists());
    }

    #[test]
    fn going_back_puts_every_kind_of_change_back() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("p");
        let dir = root.join("skills");
        for name in ["swapped", "removed"] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            std::fs::write(dir.join(name).join("SKILL.md"), format!("old {name}")).unwrap();
        }
        let confinement = Confinement::project(root.clone());
        let journal = tmp.path().join("j.journal");
        let mut tx = Transaction::new(confinement.clone(), Some(journal.clone()));
        for name in ["swapped", "added"] {
            tx.stage(
                &Placement {
                    path: dir.join(name),
                    link: None,
                },
                &payload("new"),
            )
            .unwrap();
        }
        tx.remove(&dir.join("removed")).unwrap();
        tx.note_old();
        tx.apply().unwrap();
        // The run failed and its undo did nothing at all: the next run does all of it.
        let mut back = tx.journal(None);
        back.undo = true;
        write_journal(&journal, &back).unwrap();
        for d in &mut tx.dirs {
            d.staging = None;
        }
        drop(tx);
        let recovered = recover(&journal, &confinement).unwrap();
        assert!(recovered.problems.is_empty(), "{:?}", recovered.problems);
        assert_eq!(recovered.finished.len(), 3);
        assert_eq!(names(&dir), ["removed", "swapped"]);
        for name in ["swapped", "removed"] {
            assert_eq!(
                std::fs::read_to_string(dir.join(name).join("SKILL.md")).unwrap(),
                format!("old {name}")
            );
        }
        assert!(!journal.exists());
        // Twice is harmless: there is nothing left to do.
        assert!(recover(&journal, &confinement).is_none());
    }

    #[test]
    fn leftovers_of_dead_runs_are_swept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("skills");
        std::fs::create_dir_all(dir.join(".skills-staging-999999999-ab/x")).unwrap();
        std::fs::create_dir_all(dir.join(format!(".skills-staging-{}-cd", std::process::id())))
            .unwrap();
        std::fs::create_dir_all(dir.join(".skills-old-999999999-x")).unwrap();
        std::fs::create_dir_all(dir.join("keep")).unwrap();
        let removed = sweep(
            std::slice::from_ref(&dir),
            &Confinement::project(tmp.path().to_path_buf()),
        );
        assert_eq!(removed.len(), 2);
        assert_eq!(
            names(&dir),
            [
                format!(".skills-staging-{}-cd", std::process::id()),
                "keep".into()
            ]
        );
    }
}
