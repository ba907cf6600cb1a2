//! The one install pipeline. Every command that writes skills into agent dirs (`add`, `install`,
//! `update`, `sync`) or hands one to an agent (`use`, into the cache) goes through an
//! [`Installer`], which is the only way to stage a write ([`super::Transaction::stage`] is private
//! to this module's parent): so no command can skip the gate or the local-edit check.
//!
//! ```text
//!  command: what to install     Installer::plan        Installer::offer                      Installer::commit
//!  (source, lock, packages) ──▶ in place? edited?  ──▶ gate (worker thread, stored  ──▶ stage ──▶ folders + lock,
//!  Candidate per skill          other source? ─┐       verdicts) → edits vs incoming     one transaction
//!                                              └─▶ Conflict (not without --force)   └─▶ Refused / Conflict
//! ```
//!
//! - **plan**: what is at each placement now, against the skill's lock entry and what this
//!   machine last wrote there ([`super::record`]): nothing, a folder it may replace, something that
//!   is not its to replace (a file, a skill of another source, a folder of another name), or a
//!   folder that is replaced only if it already holds exactly the incoming bytes (local edits, a
//!   folder no lock lists). `--force` replaces all of them.
//! - **fetch** is the command's (a git tree, the store, `node_modules`): it offers each skill's
//!   [`Payload`], and whether it came from the store.
//! - **gate**: every payload offered is judged ([`crate::gate::Gate::judge`]); its lint runs on a
//!   worker thread while the next skill is read, unless the store keeps a verdict that this build
//!   found these very files clean as this folder. What was read from a source is kept in the
//!   store, with the verdict when it was clean.
//! - **commit**: what passed is staged where it is not in place already, its lock entry built in
//!   one place ([`Provenance::entry`]), and everything is committed with the lock in one
//!   transaction ([`super::commit`]).
//!
//! A skill the gate refuses that is linked into its source (`sync`'s link mode) is unlinked:
//! a link would hand the refused bytes to the agent all the same.

use std::collections::VecDeque;
use std::path::PathBuf;

use serde_json::Value;

use super::checks::{Answer, Checks, WINDOW};
use super::store::{Store, StoreKey};
use super::transaction::Replaces;
use super::{InstallError, Payload, Placed, Placement, Transaction, TransactionError};
use crate::gate::{self, Gate, Verdict};
use crate::lock::{Files, InstallMode, Lock, LockEntry, SourceType};
use crate::output::Printer;
use crate::project::Scope;
use crate::source::open::Origin;

/// What a command asks of the pipeline for one run.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub gate: gate::Policy,
    /// Replace what is in the way: local edits, folders no lock lists, other sources' skills.
    pub force: bool,
}

/// Where a skill comes from and how it is installed: everything its lock entry says but its
/// files.
#[derive(Debug, Clone)]
pub struct Provenance {
    pub origin: Origin,
    /// The SKILL.md inside the source (`skills/pdf/SKILL.md`).
    pub skill_path: String,
    pub agents: Vec<String>,
    pub mode: InstallMode,
    /// Fields of the entry's `extra` to set (`Some`) or take out (`None`): `add`'s `subagents`,
    /// `sync`'s `version` and `via`.
    pub extra: Vec<(String, Option<Value>)>,
    /// An install or update (the user's lock stamps it), not a restore of what is locked.
    pub stamp: bool,
}

impl Provenance {
    /// The provenance `entry` records (for restoring it), with what the source told since.
    pub fn of_entry(entry: &LockEntry, layout: &super::Layout, skill_path: String) -> Provenance {
        Provenance {
            origin: Origin {
                source: entry.source.clone(),
                source_type: entry.source_type(),
                source_url: entry.source_url.clone(),
                git_ref: entry.git_ref.clone(),
                commit: entry.commit.clone(),
                digest: entry.digest.clone(),
            },
            skill_path,
            agents: if entry.agents.is_empty() {
                layout.agents.clone()
            } else {
                entry.agents.clone()
            },
            mode: layout.mode,
            extra: Vec::new(),
            stamp: false,
        }
    }

    /// The identity of the source, as the store files skills by it.
    pub fn identity(&self) -> String {
        crate::lock::source_identity(
            self.origin.source_type,
            &self.origin.source,
            self.origin.source_url.as_deref(),
        )
    }

    /// The lock entry of a skill from here whose files are `files` (hashing to `computed_hash`),
    /// let through by the gate with `allow`: the one place an entry is built. What `previous`
    /// records that this does not say (its `installedAt`, fields we do not know) is kept.
    pub fn entry(
        &self,
        (computed_hash, files): (&str, &Files),
        allow: Vec<String>,
        previous: Option<&LockEntry>,
        global: bool,
    ) -> LockEntry {
        let mut entry = previous.cloned().unwrap_or_default();
        let origin = &self.origin;
        entry.source.clone_from(&origin.source);
        entry.source_type = Some(origin.source_type);
        entry.source_url.clone_from(&origin.source_url);
        entry.git_ref.clone_from(&origin.git_ref);
        entry.commit.clone_from(&origin.commit);
        entry.digest.clone_from(&origin.digest);
        entry.skill_path = Some(self.skill_path.clone());
        computed_hash.clone_into(&mut entry.computed_hash);
        entry.files = files.clone();
        entry.agents.clone_from(&self.agents);
        entry.mode = Some(self.mode);
        entry.allow = allow;
        // What goes in now is the source's bytes: no recorded local edits any more.
        entry.extra.remove(crate::lock::LOCAL_EDITS);
        for (key, value) in &self.extra {
            match value {
                Some(value) => entry.extra.insert(key.clone(), value.clone()),
                None => entry.extra.remove(key),
            };
        }
        if global && self.stamp {
            let now = jiff::Timestamp::now()
                .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
                .to_string();
            if entry.installed_at.is_none() {
                entry.installed_at = Some(now.clone());
            }
            entry.updated_at = Some(now);
        }
        entry
    }
}

/// One skill on its way in.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub name: String,
    /// Its folder name in the agent dirs.
    pub folder: String,
    pub placements: Vec<Placement>,
    pub provenance: Provenance,
    /// Its folder inside its source (`skills/pdf`; the root for a source that is the skill).
    pub dir: crate::relpath::RelPath,
}

/// A candidate the plan let through: what the lock says of it now, and which placements hold
/// something that may be replaced only by exactly the same bytes.
#[derive(Debug)]
pub struct Planned {
    pub candidate: Candidate,
    pub previous: Option<LockEntry>,
    /// Per placement: whether anything was there when planned, and why it may not be replaced
    /// unless it already holds the incoming bytes.
    undecided: Vec<(bool, Option<String>)>,
    /// Lock entries whose folder this skill takes (`--force`).
    replaced: Vec<String>,
}

/// Why a skill may not be written (without `--force`).
#[derive(Debug, Clone)]
pub struct Conflict {
    pub name: String,
    pub why: String,
}

/// Where a payload offered came from.
pub enum Fetched {
    /// Read from its source: kept in the store once the gate lets it through.
    Source,
    /// Read from the store, with the keys of gate lints that found it clean there.
    Store { key: StoreKey, passed: Vec<String> },
    /// Neither kept nor known (the gate is all it gets).
    Elsewhere,
}

/// What became of one candidate.
#[derive(Debug)]
pub enum Done {
    /// Staged; in place once committed (its new entry is in [`Committed::lock`]).
    Written,
    /// Already exactly in place: nothing written (its entry, as it now is, too).
    InPlace,
    /// Refused by the gate, with the codes that refused it (none when its check could not
    /// complete); `unlinked` when its link into the source was taken out.
    Refused { codes: Vec<String>, unlinked: bool },
    /// Something is in the way that only `--force` replaces.
    Conflict(String),
}

/// One candidate's outcome.
#[derive(Debug)]
pub struct Outcome {
    pub candidate: Candidate,
    pub previous: Option<LockEntry>,
    pub done: Done,
}

/// What a committed run did: each candidate's outcome, in the order offered, and the lock as
/// written (empty for the cache).
#[derive(Debug)]
pub struct Committed {
    pub outcomes: Vec<Outcome>,
    pub lock: Lock,
}

impl Committed {
    /// The lock entry of `outcome`, when it was written or found in place.
    pub fn entry(&self, outcome: &Outcome) -> Option<&LockEntry> {
        matches!(outcome.done, Done::Written | Done::InPlace)
            .then(|| self.lock.skills.get(&outcome.candidate.name))
            .flatten()
    }
}

/// A skill offered and waiting for its check.
struct Waiting {
    planned: Planned,
    number: u64,
    fetched: Fetched,
}

/// Where the installer writes.
enum Target<'a> {
    /// Agent dirs of a scope, with its lock.
    Scope {
        scope: &'a Scope,
        lock: Box<Lock>,
        /// The lock as it was read: it is written only when it changed.
        read: Box<Lock>,
        _guard: crate::lock::Guard,
    },
    /// A folder of the cache (`use`): no lock, nothing of the user's in the way.
    Cache,
}

/// The install pipeline of one run on one target.
pub struct Installer<'a> {
    target: Target<'a>,
    printer: &'a Printer,
    force: bool,
    gate: Gate,
    store: Store,
    transaction: Transaction,
    checks: Checks,
    waiting: VecDeque<Waiting>,
    outcomes: Vec<Outcome>,
}

/// Why the pipeline cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error(transparent)]
    Gate(#[from] crate::gate::GateError),
    #[error(transparent)]
    Project(#[from] crate::project::ProjectError),
    #[error(transparent)]
    Install(#[from] super::SkillError),
    #[error(transparent)]
    Read(#[from] InstallError),
    #[error(transparent)]
    Transaction(#[from] TransactionError),
}

impl crate::hint::Hint for PipelineError {
    fn hint(&self) -> Option<String> {
        match self {
            PipelineError::Gate(err) => err.hint(),
            PipelineError::Project(err) => err.hint(),
            PipelineError::Install(err) => err.hint(),
            PipelineError::Read(err) => err.hint(),
            PipelineError::Transaction(err) => err.hint(),
        }
    }
}

impl<'a> Installer<'a> {
    /// The pipeline into `scope`'s agent dirs: takes the run's turn on its lockfile (finishing
    /// what an interrupted run left), then reads the lock.
    pub fn open(
        scope: &'a Scope,
        policy: &Policy,
        printer: &'a Printer,
    ) -> Result<Installer<'a>, PipelineError> {
        let gate = Gate::new(&policy.gate, printer)?;
        let guard = super::take_turn(scope, printer)?;
        let lock = scope.read_lock()?;
        Ok(Installer {
            target: Target::Scope {
                scope,
                read: Box::new(lock.clone()),
                lock: Box::new(lock),
                _guard: guard,
            },
            printer,
            force: policy.force,
            checks: Checks::new(&gate),
            gate,
            store: Store::from_env(),
            transaction: super::transaction(scope),
            waiting: VecDeque::new(),
            outcomes: Vec::new(),
        })
    }

    /// The pipeline into the folder `root` of the cache (`use`): no lock; what is there is the
    /// cache's own, replaced when it does not hold exactly what it should.
    pub fn cache(
        root: PathBuf,
        policy: &gate::Policy,
        printer: &'a Printer,
    ) -> Result<Installer<'a>, PipelineError> {
        let gate = Gate::new(policy, printer)?;
        Ok(Installer {
            target: Target::Cache,
            printer,
            force: true,
            checks: Checks::new(&gate),
            gate,
            store: Store::from_env(),
            transaction: Transaction::new(super::Confinement::within(root), None),
            waiting: VecDeque::new(),
            outcomes: Vec::new(),
        })
    }

    /// The lock as it is to be written (empty for the cache).
    pub fn lock(&self) -> Option<&Lock> {
        match &self.target {
            Target::Scope { lock, .. } => Some(lock),
            Target::Cache => None,
        }
    }

    fn lock_mut(&mut self) -> Option<&mut Lock> {
        match &mut self.target {
            Target::Scope { lock, .. } => Some(lock),
            Target::Cache => None,
        }
    }

    fn global(&self) -> bool {
        matches!(&self.target, Target::Scope { scope, .. } if scope.global)
    }

    /// Whether the gate refused any skill: the command exits 1.
    pub fn refused_any(&self) -> bool {
        self.gate.refused_any()
    }

    /// Whether the gate is off (`--no-verify`).
    pub fn unchecked(&self) -> bool {
        self.gate.is_off()
    }

    /// What is in the way of `candidate`, from what is at its placements now and what the lock
    /// says of it: the planned candidate, or why it may not be written without `--force`.
    pub fn plan(
        &mut self,
        candidate: Candidate,
    ) -> Result<Result<Planned, Conflict>, PipelineError> {
        let (previous, others) = match &self.target {
            Target::Scope { lock, .. } => {
                let previous = lock.skills.get(&candidate.name).cloned();
                let others: Vec<(String, String)> = lock
                    .skills
                    .iter()
                    .filter(|(name, _)| {
                        **name != candidate.name
                            && crate::skill::name::folder_name(name).as_deref()
                                == Some(candidate.folder.as_str())
                    })
                    .map(|(name, entry)| (name.clone(), entry.source.clone()))
                    .collect();
                (previous, others)
            }
            Target::Cache => (None, Vec::new()),
        };
        let mut problems = Vec::new();
        let mut replaced = Vec::new();
        for (other, source) in others {
            problems.push(format!(
                "`{}` would go into the folder of `{other}`, installed from `{source}`",
                candidate.name
            ));
            replaced.push(other);
        }
        if let Some(entry) = &previous
            && !same_source(entry, &candidate.provenance.origin)
        {
            problems.push(format!(
                "`{}` is installed from `{}`, not from `{}`",
                candidate.name, entry.source, candidate.provenance.origin.source
            ));
        }
        let mut undecided = Vec::with_capacity(candidate.placements.len());
        for placement in &candidate.placements {
            let there = self.transaction.probe(&placement.path)?;
            if matches!(self.target, Target::Cache) {
                undecided.push((there.is_some(), None));
                continue;
            }
            let why = match there {
                None => None,
                Some(super::Probe::Other) => {
                    problems.push(format!(
                        "`{}`: `{}` is not a folder installed by skills",
                        candidate.name,
                        placement.path.display()
                    ));
                    None
                }
                Some(_) => match &previous {
                    Some(entry) => self.edited(&placement.path, entry)?.map(|diff| {
                            let what = if placement.link.is_some() {
                                "is a folder where a link goes, not installed by skills or with local edits"
                            } else {
                                "has local edits"
                            };
                            format!(
                                "`{}` at `{}` {what} ({})",
                                candidate.name,
                                placement.path.display(),
                                diff.listed(6)
                            )
                        }),
                    None => Some(format!(
                        "`{}` exists and is not in the lockfile",
                        placement.path.display()
                    )),
                },
            };
            undecided.push((there.is_some(), why));
        }
        if self.force {
            for (_, why) in &mut undecided {
                *why = None;
            }
        } else if !problems.is_empty() {
            return Ok(Err(Conflict {
                name: candidate.name,
                why: problems.join("; "),
            }));
        } else {
            replaced.clear();
        }
        Ok(Ok(Planned {
            candidate,
            previous,
            undecided,
            replaced,
        }))
    }

    /// Why `planned` would not be written if it came with other bytes than are there: what
    /// `add` reports before it fetches anything (it does not fetch what it would not write).
    pub fn undecided(planned: &Planned) -> Option<String> {
        let why: Vec<&str> = planned
            .undecided
            .iter()
            .filter_map(|(_, why)| why.as_deref())
            .collect();
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// Records `conflict` as the outcome of its candidate (a command that does not fetch it).
    pub fn conflicted(&mut self, planned: Planned, why: String) {
        self.outcomes.push(Outcome {
            candidate: planned.candidate,
            previous: planned.previous,
            done: Done::Conflict(why),
        });
    }

    /// Offers the files of `planned`: they go through the gate (on the worker thread), and
    /// once judged are staged where they may be. Skills judged meanwhile are decided here.
    pub fn offer(
        &mut self,
        planned: Planned,
        payload: Payload,
        fetched: Fetched,
    ) -> Result<(), PipelineError> {
        let passed = match &fetched {
            Fetched::Store { passed, .. } => passed.clone(),
            Fetched::Source | Fetched::Elsewhere => Vec::new(),
        };
        let number = self.checks.push(&planned.candidate.folder, payload, passed);
        self.waiting.push_back(Waiting {
            planned,
            number,
            fetched,
        });
        self.decide_ready(false)
    }

    /// Decides the skills whose checks are done (with `all`, every skill offered, waiting for
    /// their checks), in the order offered.
    fn decide_ready(&mut self, all: bool) -> Result<(), PipelineError> {
        loop {
            let block = all || self.waiting.len() >= WINDOW;
            let Some(front) = self.waiting.front() else {
                return Ok(());
            };
            let answer = self.checks.take(front.number, block);
            if matches!(answer, Answer::Pending) {
                return Ok(());
            }
            let Some(waiting) = self.waiting.pop_front() else {
                return Ok(());
            };
            self.decide(waiting, answer)?;
        }
    }

    /// Judges one checked skill, then stages it where it may go.
    fn decide(&mut self, waiting: Waiting, answer: Answer) -> Result<(), PipelineError> {
        let Waiting {
            planned, fetched, ..
        } = waiting;
        let Planned {
            candidate,
            previous,
            undecided,
            replaced,
        } = planned;
        let provenance = &candidate.provenance;
        let shown = gate::shown_dir(
            provenance.origin.source_type,
            &provenance.origin.source,
            candidate.dir.as_str(),
        );
        let locked: Vec<String> = previous
            .as_ref()
            .filter(|entry| same_source(entry, &provenance.origin))
            .map(|entry| entry.allow.clone())
            .unwrap_or_default();
        let judged = gate::Candidate {
            name: &candidate.name,
            folder: &candidate.folder,
            source: &provenance.origin.source,
            shown_dir: &shown,
            locked: &locked,
        };
        let (verdict, checked) = match answer {
            Answer::Done(checked) => (
                self.gate
                    .judge(&judged, checked.findings.as_deref(), self.printer),
                Some(checked),
            ),
            // The check ended without an answer (a bug): never install unchecked.
            Answer::Lost | Answer::Pending => (
                self.gate
                    .refuse(&candidate.name, "its check did not complete", self.printer),
                None,
            ),
        };
        let (allow, checked) = match (verdict, checked) {
            (Verdict::Pass { allow }, Some(checked)) => (allow, checked),
            (Verdict::Refuse { codes }, _) => {
                let unlinked = self.unlink_refused(&candidate)?;
                self.outcomes.push(Outcome {
                    candidate,
                    previous,
                    done: Done::Refused { codes, unlinked },
                });
                return Ok(());
            }
            (Verdict::Pass { .. }, None) => return Ok(()),
        };
        let payload = &checked.payload;
        // Keep what was read from a source, and what the gate found clean, for next time.
        match &fetched {
            Fetched::Source => {
                let _ = self.store.put(
                    &provenance.identity(),
                    candidate.dir.as_str(),
                    payload,
                    checked.clean_key(),
                );
            }
            Fetched::Store { key, .. } => {
                if let Some(clean) = checked.clean_key() {
                    let _ = self.store.pass(key, clean);
                }
            }
            Fetched::Elsewhere => {}
        }
        // What is there may go only where it is the incoming bytes already.
        let mut writes = Vec::new();
        let mut blocked = Vec::new();
        for (placement, (there, why)) in candidate.placements.iter().zip(&undecided) {
            // Nothing was there when planned (the run holds the lockfile's lock): a new place,
            // and it must still be one when the commit starts.
            let placed = if *there {
                self.transaction.placed(placement, payload)?
            } else {
                Placed::Nothing
            };
            // What the commit may replace: what the plan found, unedited still (a user or an
            // agent may write to the folder while sources are read and the gate runs).
            let replaces = match (&self.target, *there, &previous) {
                (Target::Cache, ..) => Replaces::Anything,
                _ if self.force => Replaces::Anything,
                (_, false, _) => Replaces::Nothing,
                (_, true, previous) => {
                    let mut baselines = vec![checked.digests.clone()];
                    match previous {
                        Some(entry) if !entry.files.is_empty() => {
                            baselines.push(entry.files.clone());
                        }
                        // An entry without `files` (`npx skills`') is matched by its
                        // `computedHash`: the files found that way are the baseline.
                        Some(entry) => {
                            if let Some(now) = self.transaction.installed(&placement.path)?
                                && now.computed_hash == entry.computed_hash
                            {
                                baselines.push(now.digests());
                            }
                        }
                        None => {}
                    }
                    Replaces::Unedited(baselines)
                }
            };
            match (placed, why) {
                (Placed::Same, _) => {}
                (_, Some(why)) => blocked.push(why.clone()),
                (_, None) => writes.push((placement, replaces)),
            }
        }
        if !blocked.is_empty() {
            self.outcomes.push(Outcome {
                candidate,
                previous,
                done: Done::Conflict(blocked.join("; ")),
            });
            return Ok(());
        }
        for (placement, replaces) in &writes {
            self.transaction
                .stage_over(placement, payload, replaces.clone())
                .map_err(|err| super::SkillError::new(&candidate.name, err))?;
        }
        let global = self.global();
        let entry = provenance.entry(
            (&payload.computed_hash, &checked.digests),
            allow,
            previous.as_ref(),
            global,
        );
        if let Some(lock) = self.lock_mut() {
            for name in &replaced {
                lock.skills.remove(name);
            }
            lock.skills.insert(candidate.name.clone(), entry);
        }
        let done = if writes.is_empty() {
            Done::InPlace
        } else {
            Done::Written
        };
        self.outcomes.push(Outcome {
            candidate,
            previous,
            done,
        });
        Ok(())
    }

    /// Takes out the links of a refused `candidate` that lead into its source, where they are in
    /// place (a packaged skill that `npm update` changed under its link), with its lock entry.
    fn unlink_refused(&mut self, candidate: &Candidate) -> Result<bool, PipelineError> {
        if candidate.provenance.mode != InstallMode::Link {
            return Ok(false);
        }
        let mut unlinked = false;
        let nothing = Payload::empty();
        for placement in &candidate.placements {
            if placement.link.is_some()
                && self.transaction.placed(placement, &nothing)? == Placed::Same
            {
                // A link cannot hold edits; a folder put there meanwhile stays.
                self.transaction
                    .remove_only(&placement.path, Replaces::Unedited(Vec::new()))?;
                unlinked = true;
            }
        }
        if unlinked && let Some(lock) = self.lock_mut() {
            lock.skills.remove(&candidate.name);
        }
        Ok(unlinked)
    }

    /// Whether every one of `placements` holds what a lock entry records: each copy exactly
    /// `files` (or, where the entry lists none, files whose `computedHash` is `computed_hash`),
    /// each link its target. Read through the transaction's
    /// handles, as a write would be: a link on the way is not followed.
    pub fn holds(
        &mut self,
        placements: &[Placement],
        files: &Files,
        computed_hash: &str,
    ) -> Result<bool, PipelineError> {
        let nothing = Payload::empty();
        for placement in placements {
            if placement.link.is_some() {
                if self.transaction.placed(placement, &nothing)? != Placed::Same {
                    return Ok(false);
                }
                continue;
            }
            let Some(now) = self.transaction.installed(&placement.path)? else {
                return Ok(false);
            };
            let matches = if files.is_empty() {
                now.computed_hash == computed_hash
            } else {
                now.digests() == *files
            };
            if !matches {
                return Ok(false);
            }
        }
        Ok(!placements.is_empty())
    }

    /// How the folder at `path` differs from what `entry` records (or what this machine last
    /// wrote there), when it does: read through the transaction's handles. An entry that lists
    /// no `files` (written by `npx skills`) is matched by its `computedHash`, with nothing in
    /// the folder that the hash leaves out.
    pub fn edited(
        &mut self,
        path: &std::path::Path,
        entry: &LockEntry,
    ) -> Result<Option<super::FileDiff>, PipelineError> {
        // `skills manifest` recorded local edits as the entry's `files`: the folder matches the
        // lock but not the source, and replacing it would lose the edits without a word.
        if entry.extra.get(crate::lock::LOCAL_EDITS) == Some(&Value::Bool(true)) {
            let since = self.transaction.edited(path, &[&entry.files])?;
            return Ok(since.or_else(|| {
                Some(super::FileDiff {
                    modified: vec!["edits recorded by `skills manifest`".to_owned()],
                    ..super::FileDiff::default()
                })
            }));
        }
        if entry.files.is_empty()
            && let Some(now) = self.transaction.installed(path)?
            && now.left_out.is_empty()
            && now.computed_hash == entry.computed_hash
        {
            return Ok(None);
        }
        Ok(self.transaction.edited(path, &[&entry.files])?)
    }

    /// Stages the removal of the folder or link `path` (a skill no source ships any more),
    /// found to be a link or a copy holding `files` (or what this machine last wrote there):
    /// removed only if it still is when the commit starts.
    pub fn remove(&mut self, path: &std::path::Path, files: &Files) -> Result<(), PipelineError> {
        let replaces = if self.force {
            Replaces::Anything
        } else {
            Replaces::Unedited(vec![files.clone()])
        };
        Ok(self.transaction.remove_only(path, replaces)?)
    }

    /// Takes `name` out of the lock to be written.
    pub fn forget(&mut self, name: &str) {
        if let Some(lock) = self.lock_mut() {
            lock.skills.remove(name);
        }
    }

    /// Waits for every check, decides, and gives the outcomes so far, in the order offered.
    pub fn settle(&mut self) -> Result<&[Outcome], PipelineError> {
        self.decide_ready(true)?;
        Ok(&self.outcomes)
    }

    /// Everything settled and committed: the staged folders put in place and, when `write_lock`
    /// and it changed, the lock written, in one transaction; `doing` names the work for errors.
    pub fn commit(mut self, write_lock: bool, doing: &str) -> Result<Committed, PipelineError> {
        self.decide_ready(true)?;
        let lock = match &self.target {
            Target::Scope {
                scope, lock, read, ..
            } if write_lock && lock != read => Some((lock.as_ref(), scope.lock_path.as_path())),
            _ => None,
        };
        if lock.is_some() || !self.transaction.is_empty() {
            super::commit(self.transaction, lock, doing)?;
        }
        let lock = match self.target {
            Target::Scope { lock, .. } => *lock,
            Target::Cache => Lock::default(),
        };
        Ok(Committed {
            outcomes: self.outcomes,
            lock,
        })
    }

    /// Everything settled and nothing written (`--frozen` that cannot reproduce the lock, a
    /// dry run): the outcomes.
    pub fn abort(mut self) -> Result<Vec<Outcome>, PipelineError> {
        self.decide_ready(true)?;
        self.transaction.abort();
        Ok(self.outcomes)
    }
}

/// Whether `entry` was installed from the source `origin` names, in whichever form it was
/// recorded (any package, for `sync`, which owns every `node_modules` entry).
fn same_source(entry: &LockEntry, origin: &Origin) -> bool {
    if origin.source_type == SourceType::NodeModules {
        return entry.source_type() == SourceType::NodeModules || entry.extra.contains_key("via");
    }
    crate::source::identity::same(entry, &origin.source)
}
