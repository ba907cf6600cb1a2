//! `skills update [NAMES…]`: what `check` finds, applied — each skill for the agents and in the
//! mode it was installed with, all of them in one transaction with the lock, or none.
//!
//! An installed copy edited since it was installed is not replaced without `--force`: the
//! edits would be lost.

use serde::Serialize;

use crate::cli::UpdateArgs;
use crate::error::{Error, ExitStatus};
use crate::hint::one_line;
use crate::install::{self, FileDiff, RestoreError, Transaction};
use crate::lock::LockEntry;
use crate::output::Printer;
use crate::project::Scope;
use crate::upstream::{self, Locked, State, Status};

/// Skills not updated, with why.
type Failures = Vec<(String, RestoreError)>;

/// One skill updated: the entry before and after, and how its files changed.
struct Updated {
    name: String,
    before: LockEntry,
    after: LockEntry,
    diff: FileDiff,
}

pub fn run(args: &UpdateArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let scopes = scopes(args, printer)?;
    let mut updated: Vec<Updated> = Vec::new();
    let mut failures: Failures = Vec::new();
    let mut unknown: Vec<String> = args.names.clone();
    for scope in &scopes {
        let lock = scope.read_lock()?;
        // With both scopes, a name needs to be in only one of the locks.
        let names: Vec<String> = if scopes.len() > 1 {
            let here: Vec<String> = args
                .names
                .iter()
                .filter(|n| lock.skills.contains_key(*n))
                .cloned()
                .collect();
            unknown.retain(|n| !here.contains(n));
            if here.is_empty() && !args.names.is_empty() {
                continue;
            }
            here
        } else {
            unknown.clear();
            args.names.clone()
        };
        let (done, failed) = update_scope(scope, args, &names, printer)?;
        updated.extend(done);
        failures.extend(failed);
    }
    if let Some(name) = unknown.first() {
        return Err(Error::msg(format!("`{name}` is in neither lockfile")));
    }
    report(&updated, &failures, args.json, printer)?;
    if failures.is_empty() {
        Ok(ExitStatus::Success)
    } else {
        for (name, reason) in &failures {
            printer.warn(format_args!("not updated `{name}`: {}", one_line(reason)));
        }
        printer.hints(failures.iter().map(|(_, r)| r as &dyn crate::hint::Hint));
        Ok(ExitStatus::Failure)
    }
}

/// The scopes to update: `-p` the project's, `-g` the user's, both with both; without either,
/// the project's when it has skills, else the user's (the reference's non-interactive choice).
fn scopes(args: &UpdateArgs, printer: &Printer) -> Result<Vec<Scope>, Error> {
    let (project, global) = match (args.project, args.global) {
        (false, false) => {
            let here = Scope::new(false)?;
            return Ok(vec![if has_project_skills(&here) {
                Scope::open(false, printer)?
            } else {
                Scope::open(true, printer)?
            }]);
        }
        other => other,
    };
    let mut scopes = Vec::new();
    if project {
        scopes.push(Scope::open(false, printer)?);
    }
    if global {
        scopes.push(Scope::open(true, printer)?);
    }
    Ok(scopes)
}

/// A lockfile, or a skill in `.agents/skills`.
fn has_project_skills(scope: &Scope) -> bool {
    scope.lock_path.exists()
        || std::fs::read_dir(&scope.canonical).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().join(crate::skill::SKILL_MD).is_file())
        })
}

/// Updates the skills `names` (all when empty) of one scope, in one transaction with its lock.
fn update_scope(
    scope: &Scope,
    args: &UpdateArgs,
    names: &[String],
    printer: &Printer,
) -> Result<(Vec<Updated>, Failures), Error> {
    let mut locked = Locked::new(scope, &args.limits, printer.progress());
    let _guard = install::take_turn(scope, printer)?;
    let mut lock = scope.read_lock()?;
    let statuses: Vec<(Status, LockEntry)> = upstream::select(&lock, names)?
        .into_iter()
        .map(|(name, entry)| {
            let status = upstream::inspect(name, entry, &mut locked);
            (status, entry.clone())
        })
        .collect();

    let mut gate = crate::gate::Gate::new(&args.gate, printer)?;
    let mut transaction = install::transaction(scope);
    let mut updated: Vec<Updated> = Vec::new();
    let mut edited: Vec<String> = Vec::new();
    let mut failures: Failures = Vec::new();
    for (status, entry) in statuses {
        match status.state {
            State::UpdateAvailable => {}
            State::UpToDate => continue,
            State::RemovedUpstream | State::Unreachable => {
                let reason = status
                    .reason
                    .unwrap_or_else(|| RestoreError::Removed(status.name.clone()));
                failures.push((status.name, reason));
                continue;
            }
        }
        let Some((dir, payload)) = status.update else {
            continue;
        };
        let layout = match install::layout(scope, &status.name, &entry) {
            Ok(layout) => layout,
            Err(err) => {
                failures.push((status.name, err.into()));
                continue;
            }
        };
        let folder = (dir.as_str(), layout.folder.as_str());
        let findings = gate.lint_as(&layout.folder, &payload);
        // A lint that found nothing is kept in the store beside the files (see `install`).
        let clean = findings
            .as_ref()
            .is_some_and(Vec::is_empty)
            .then(|| crate::gate::verdict_key(&layout.folder, &payload))
            .flatten();
        let findings = findings.unwrap_or_default();
        let Some(allow) = gate.decide_locked(&status.name, &entry, folder, &findings, printer)
        else {
            failures.push((status.name, RestoreError::Refused));
            continue;
        };
        let before_files = recorded_files(&entry, &layout.placements, &mut transaction)?;
        if !args.force {
            edited.extend(install::edits(
                &status.name,
                &entry,
                &layout.placements,
                None,
                &mut transaction,
            )?);
        }
        for placement in &layout.placements {
            transaction
                .stage(placement, &payload)
                .map_err(|err| install::SkillError::new(&status.name, err))?;
        }
        let _ =
            crate::install::store::Store::from_env().put(dir.as_str(), &payload, clean.as_deref());
        let mut after = entry.clone();
        after.computed_hash.clone_from(&payload.computed_hash);
        after.files = payload.digests();
        after.commit.clone_from(&status.upstream);
        after.digest.clone_from(&status.digest);
        after.skill_path = Some(crate::source::tree::join(&dir, crate::skill::SKILL_MD));
        after.agents = layout.agents;
        after.mode = Some(layout.mode);
        after.allow = allow;
        if scope.global {
            after.updated_at = Some(
                jiff::Timestamp::now()
                    .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
                    .to_string(),
            );
        }
        updated.push(Updated {
            diff: FileDiff::between(&before_files, &after.files),
            name: status.name,
            before: entry,
            after,
        });
    }
    if !edited.is_empty() {
        transaction.abort();
        return Err(Error::msg(format!(
            "not replacing skills with local edits; nothing was updated:\n  {}",
            edited.join("\n  ")
        ))
        .with_hint("pass `--force` to replace them (the edits are lost); `skills manifest --check` shows every change")
        .answer_no());
    }
    for skill in &updated {
        lock.skills.insert(skill.name.clone(), skill.after.clone());
    }
    // Nothing updated: nothing written (no lockfile is created where there was none).
    let lock = (!updated.is_empty()).then_some((&lock, scope.lock_path.as_path()));
    crate::install::commit(transaction, lock, "updating")?;
    Ok((updated, failures))
}

/// The files the lock says are installed, else those of the first installed copy.
fn recorded_files(
    entry: &LockEntry,
    placements: &[crate::install::Placement],
    transaction: &mut Transaction,
) -> Result<crate::lock::Files, install::InstallError> {
    if !entry.files.is_empty() {
        return Ok(entry.files.clone());
    }
    for placement in placements.iter().filter(|p| p.link.is_none()) {
        if let Some(payload) = transaction.installed(&placement.path)? {
            return Ok(payload.digests());
        }
    }
    Ok(crate::lock::Files::new())
}

/// A short label of what an entry pins: its commit, else its web digest.
fn version(entry: &LockEntry) -> String {
    match (&entry.commit, &entry.digest) {
        (Some(commit), _) => upstream::short(Some(commit)),
        (None, Some(digest)) => upstream::short(digest.strip_prefix("sha256:")),
        (None, None) => upstream::short(Some(&entry.computed_hash)),
    }
}

/// `update --json`: the skills updated, from which commit to which and what changed in their
/// files, and those that failed.
#[derive(Serialize)]
struct JsonUpdate<'a> {
    version: u32,
    updated: Vec<JsonUpdated<'a>>,
    failed: Vec<crate::json::Failed<'a>>,
}

#[derive(Serialize)]
struct JsonUpdated<'a> {
    name: &'a str,
    from: Option<&'a str>,
    to: Option<&'a str>,
    hash: &'a str,
    added: &'a [String],
    removed: &'a [String],
    modified: &'a [String],
}

fn report(
    updated: &[Updated],
    failures: &[(String, RestoreError)],
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let document = JsonUpdate {
            version: crate::json::VERSION,
            updated: updated
                .iter()
                .map(|u| JsonUpdated {
                    name: &u.name,
                    from: u.before.commit.as_deref(),
                    to: u.after.commit.as_deref(),
                    hash: &u.after.computed_hash,
                    added: &u.diff.added,
                    removed: &u.diff.removed,
                    modified: &u.diff.modified,
                })
                .collect(),
            failed: crate::json::Failed::all(failures),
        };
        return Ok(crate::json::print(&document, printer)?);
    }
    if updated.is_empty() {
        // With failures, the warnings that follow say what happened; "nothing to update" would
        // read as "all up to date".
        if failures.is_empty() {
            printer.status("nothing to update");
        }
        return Ok(());
    }
    for skill in updated {
        printer.status(format_args!(
            "updated {} {} → {} ({})",
            skill.name,
            version(&skill.before),
            version(&skill.after),
            if skill.diff.is_empty() {
                "no file changes".to_owned()
            } else {
                skill.diff.summary()
            }
        ));
        for (paths, sign) in [
            (&skill.diff.added, '+'),
            (&skill.diff.modified, '~'),
            (&skill.diff.removed, '-'),
        ] {
            for path in paths {
                printer.status(format_args!("    {sign} {path}"));
            }
        }
    }
    Ok(())
}
