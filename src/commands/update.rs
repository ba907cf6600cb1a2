//! `skills update [NAMES…]`: what `check` finds, applied — each skill for the agents and in the
//! mode it was installed with, all of them in one transaction with the lock, or none.
//!
//! An installed copy edited since it was installed is not replaced without `--force`: the
//! edits would be lost.

use serde::Serialize;

use crate::error::{Error, ExitStatus};
use crate::hint::one_line;
use crate::install::{self, Candidate, Done, FileDiff, Installer, Provenance, RestoreError};
use crate::lock::LockEntry;
use crate::output::Printer;
use crate::project::Scope;
use crate::settings;
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

pub fn run(args: &crate::cli::UpdateArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let args = &settings::Update::resolve(args);
    let scopes = scopes(args, printer)?;
    // As `check`: with no lockfile there is nothing this command can read, and a CI step must not
    // pass for want of anything to update (exit 2, with how to make one).
    if scopes.iter().all(|scope| !scope.lock_path.exists())
        && let Some(scope) = scopes.first()
    {
        scope.require_lock()?;
    }
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
fn scopes(args: &settings::Update, printer: &Printer) -> Result<Vec<Scope>, Error> {
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
/// A skill with local edits is not replaced without `--force` (it is named; the others go in).
fn update_scope(
    scope: &Scope,
    args: &settings::Update,
    names: &[String],
    printer: &Printer,
) -> Result<(Vec<Updated>, Failures), Error> {
    let mut locked = Locked::new(scope, args.limits, printer.progress());
    let policy = install::Policy {
        gate: args.gate.clone(),
        force: args.force,
    };
    let mut installer = Installer::open(scope, &policy, printer)?;
    let lock = installer.lock().cloned().unwrap_or_default();
    let statuses: Vec<(Status, LockEntry)> = upstream::select(&lock, names)?
        .into_iter()
        .map(|(name, entry)| {
            let status = upstream::inspect(name, entry, &mut locked);
            (status, entry.clone())
        })
        .collect();
    let mut failures: Failures = Vec::new();
    let mut before: Vec<(String, crate::lock::Files)> = Vec::new();
    for (status, entry) in statuses {
        match status.state {
            State::UpdateAvailable => {}
            State::UpToDate => continue,
            State::Skipped => {
                if let Some(reason) = &status.reason {
                    printer.warn(format_args!(
                        "skipped `{}`: {}",
                        status.name,
                        one_line(reason)
                    ));
                }
                continue;
            }
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
        before.push((
            status.name.clone(),
            recorded_files(&entry, &layout.placements),
        ));
        let mut provenance = Provenance::of_entry(
            &entry,
            &layout,
            crate::source::tree::join(dir.as_str(), crate::skill::SKILL_MD),
        );
        provenance.origin.commit.clone_from(&status.upstream);
        provenance.origin.digest.clone_from(&status.digest);
        provenance.stamp = true;
        let candidate = Candidate {
            name: status.name.clone(),
            folder: layout.folder,
            placements: layout.placements,
            provenance,
            dir,
        };
        match installer.plan(candidate)? {
            Ok(planned) => installer.offer(planned, payload, install::Fetched::Source)?,
            Err(conflict) => failures.push((conflict.name, RestoreError::Conflict(conflict.why))),
        }
    }
    let mut updated: Vec<Updated> = Vec::new();
    // Nothing updated: nothing written (no lockfile is created where there was none).
    let committed = installer.commit(true, "updating")?;
    for outcome in &committed.outcomes {
        let name = outcome.candidate.name.clone();
        match &outcome.done {
            Done::Written | Done::InPlace => {
                let Some(after) = committed.entry(outcome).cloned() else {
                    continue;
                };
                let before_files = before
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, files)| files.clone())
                    .unwrap_or_default();
                updated.push(Updated {
                    diff: FileDiff::between(&before_files, &after.files),
                    name,
                    before: outcome.previous.clone().unwrap_or_default(),
                    after,
                });
            }
            Done::Refused { .. } => failures.push((name, RestoreError::Refused)),
            // Local edits: named with the others not updated; the hint says `--force`.
            Done::Conflict(why) => failures.push((name, RestoreError::Conflict(why.clone()))),
        }
    }
    Ok((updated, failures))
}

/// The files the lock says are installed, else those of the first installed copy (for the
/// report only).
fn recorded_files(
    entry: &LockEntry,
    placements: &[crate::install::Placement],
) -> crate::lock::Files {
    if !entry.files.is_empty() {
        return entry.files.clone();
    }
    placements
        .iter()
        .filter(|p| p.link.is_none())
        .find_map(|p| install::installed(&p.path).and_then(Result::ok))
        .map(|payload| payload.digests())
        .unwrap_or_default()
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
