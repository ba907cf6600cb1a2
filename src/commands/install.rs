//! `skills install [--frozen]`: every skill of the lock restored exactly, like `npm ci`.
//!
//! The disk first: an entry whose folders already hold what the lock says (its `files`, or its
//! `computedHash` where it lists none) is left alone without opening its source, so a project
//! that is in place costs no network at all. Then the shared store ([`crate::store`]): a skill
//! it holds with the locked hash and files is placed from there, every file verified. Only then
//! is the entry's source opened at its locked commit (a commit the git cache holds costs no
//! network either; entries the reference installer wrote have none: their `ref`), the skill read
//! out of it, checked against `computedHash` and `files`, kept in the store, and placed for the
//! recorded agents in the recorded mode. Everything is written in one transaction.
//! `--offline` (or `SKILLS_OFFLINE=1`) stops before the network: what this machine cannot
//! restore is named, per skill. `--frozen` writes nothing at all unless
//! every entry is reproduced exactly; without it, an entry that cannot be reproduced is reported
//! and its installed copy kept, and the lock gains what it lacked (commit, files, agents, mode).

use serde::Serialize;

use crate::cli::{AddOptions, InstallArgs};
use crate::error::{Error, ExitStatus};
use crate::hint::Hint;
use crate::hint::one_line;
use crate::install::{
    self, Candidate, Done, Fetched, FileDiff, Installer, Provenance, RestoreError,
};
use crate::lock::{Lock, LockEntry};
use crate::output::Printer;
use crate::project::Scope;
use crate::settings;
use crate::source::git::Want;
use crate::source::open::Opened;
use crate::upstream::{self, Locked};

/// What became of one entry.
enum Outcome {
    /// Written (or to be written) into place.
    Restored,
    /// Already exactly in place.
    InPlace,
}

/// `skills install SOURCE` (and `skills i SOURCE`) is `skills add SOURCE`, as in `npx skills`:
/// the settings to add it with, when a source is given (dispatch hands them to `add`).
pub fn as_add(args: &InstallArgs) -> Result<Option<settings::Add>, Error> {
    let Some(add) = settings::Add::resolve(args.source.as_ref(), &args.options, args.offline)
    else {
        return Ok(None);
    };
    if args.frozen {
        return Err(
            Error::msg("`--frozen` restores the lock; it takes no source")
                .with_hint("`skills install --frozen`, or `skills add SOURCE` to add skills"),
        );
    }
    Ok(Some(add))
}

/// Restores the lock (`skills install` without a source: see [`as_add`]).
pub fn run(args: &InstallArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    if let Some(flag) = add_only_flag(&args.options) {
        return Err(Error::msg(format!(
            "`{flag}` needs a source: `skills install` without one restores the lock"
        ))
        .with_hint(format!(
            "`skills install SOURCE {flag} …` (the same as `skills add`)"
        )));
    }
    restore_lock(&settings::Restore::resolve(args), printer)
}

fn restore_lock(settings: &settings::Restore, printer: &Printer) -> Result<ExitStatus, Error> {
    let scope = Scope::open(settings.global, printer)?;
    let mut locked = Locked::new(&scope, settings.limits, printer.progress());
    // A local source past the repository may be read: every byte is checked against the lock
    // (`computedHash`, and `files` where it lists them) before anything is written.
    locked.env.outside.verified = true;
    let offline = settings.offline;
    if offline {
        locked.sources.go_offline();
    }
    let store = crate::install::store::Store::from_env();
    let policy = install::Policy {
        gate: settings.gate.clone(),
        force: settings.force,
    };
    let mut installer = Installer::open(&scope, &policy, printer)?;
    let lock = installer.lock().cloned().unwrap_or_default();
    if !scope.lock_path.exists() {
        return Err(
            Error::msg(format!("there is no `{}`", scope.lock_path.display())).with_hint(
                "`skills add` creates it; run `skills install` in the folder that has it",
            ),
        );
    }
    let mut outcomes: Vec<(String, Outcome)> = Vec::new();
    let mut failures: Vec<(String, RestoreError)> = Vec::new();
    let shared = shared_folders(&lock);
    for (name, entry) in &lock.skills {
        if let Some(other) = shared.get(name.as_str()) {
            failures.push((name.clone(), RestoreError::SharedFolder(other.clone())));
            continue;
        }
        printer.debug(format_args!("restoring `{name}` from `{}`", entry.source));
        if entry.files.is_empty() {
            printer.warn(format_args!(
                "`{name}` is not fully pinned: its lock entry lists no `files` (as `npx skills` writes it), so file boundaries and linked files are not locked{}",
                if settings.frozen {
                    "; `skills install` records them"
                } else {
                    "; they are recorded now"
                }
            ));
        }
        match restore(
            name,
            entry,
            &mut locked,
            &store,
            &mut installer,
            settings.frozen,
            printer,
        ) {
            Ok(Some(outcome)) => outcomes.push((name.clone(), outcome)),
            Ok(None) => {}
            Err(why) => failures.push((name.clone(), why)),
        }
    }
    // The pipeline's outcomes: what was written, found in place, refused or in the way.
    let mut edited: Vec<String> = Vec::new();
    for outcome in installer.settle()? {
        let name = outcome.candidate.name.clone();
        match &outcome.done {
            Done::Written => outcomes.push((name, Outcome::Restored)),
            Done::InPlace => outcomes.push((name, Outcome::InPlace)),
            Done::Refused { .. } => failures.push((name, RestoreError::Refused)),
            Done::Conflict(why) => edited.push(why.clone()),
        }
    }
    outcomes.sort_by(|a, b| a.0.cmp(&b.0));
    failures.sort_by(|a, b| a.0.cmp(&b.0));
    if settings.frozen && (!failures.is_empty() || !edited.is_empty()) {
        installer.abort()?;
        if !edited.is_empty() {
            return Err(edited_error(&edited, "nothing was written"));
        }
        let own = own_sources(&scope, &lock, &failures);
        printer.error(&not_reproduced(
            &failures,
            &own,
            "nothing was written",
            offline,
        ));
        return Ok(ExitStatus::Failure);
    }
    // `--frozen` never writes the lock: everything in it was just reproduced as it says.
    installer.commit(!settings.frozen, "restoring")?;
    report(&outcomes, &failures, settings.json, printer)?;
    if !edited.is_empty() {
        let restored = outcomes
            .iter()
            .any(|(_, outcome)| matches!(outcome, Outcome::Restored));
        printer.error(&edited_error(
            &edited,
            if restored {
                "the others were restored"
            } else {
                "nothing was written"
            },
        ));
    }
    if failures.is_empty() && edited.is_empty() {
        Ok(ExitStatus::Success)
    } else {
        if !failures.is_empty() {
            let own = own_sources(&scope, &lock, &failures);
            printer.error(&not_reproduced(
                &failures,
                &own,
                "their installed copies were kept",
                offline,
            ));
        }
        Ok(ExitStatus::Failure)
    }
}

/// Skills not replaced because of local edits, said as the pipeline says them.
fn edited_error(edited: &[String], consequence: &str) -> Error {
    Error::msg(format!(
        "not replacing skills with local edits ({consequence}):\n  {}",
        edited.join("\n  ")
    ))
    .with_hint("pass `--force` to replace them (the edits are lost); `skills manifest --check` shows every change")
    .answer_no()
}

/// The first option given that only `add` uses (restoring the lock has no use for it).
fn add_only_flag(options: &AddOptions) -> Option<&'static str> {
    [
        (!options.skills.is_empty(), "--skill"),
        (!options.agents.is_empty(), "--agent"),
        (!options.subagents.is_empty(), "--subagent"),
        (options.copy, "--copy"),
        (options.all, "--all"),
        (options.list, "--list"),
        (options.dry_run, "--dry-run"),
        (options.full_depth, "--full-depth"),
        (options.metadata.is_some(), "--metadata"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

/// The failed skills whose source is the folder they are installed in (hand-made skills that
/// `skills manifest` recorded): an edit there is their source changing, which no upstream
/// knows; `skills manifest` records it.
fn own_sources(scope: &Scope, lock: &Lock, failures: &[(String, RestoreError)]) -> Vec<String> {
    failures
        .iter()
        .filter(|(name, _)| {
            lock.skills.get(name).is_some_and(|entry| {
                crate::install::layout(scope, name, entry).is_ok_and(|layout| {
                    layout
                        .placements
                        .iter()
                        .any(|p| upstream::is_own_source(entry, scope, &p.path))
                })
            })
        })
        .map(|(name, _)| name.clone())
        .collect()
}

fn not_reproduced(
    failures: &[(String, RestoreError)],
    own: &[String],
    consequence: &str,
    offline: bool,
) -> Error {
    let list: Vec<String> = failures
        .iter()
        .map(|(name, why)| format!("`{name}`: {}", one_line(why)))
        .collect();
    if offline {
        return Error::msg(format!(
            "offline, {} of the locked skills cannot be restored from this machine ({consequence}):\n  {}",
            failures.len(),
            list.join("\n  ")
        ))
        .with_hint("run `skills install` once with the network to fill the cache (`skills cache dir` shows where it is)");
    }
    // The failures' own hints first (a token to set, a limit to raise), each once.
    let mut hints: Vec<String> = Vec::new();
    for hint in failures.iter().filter_map(|(_, why)| why.hint()) {
        if !hints.contains(&hint) {
            hints.push(hint);
        }
    }
    if !own.is_empty() {
        let names: Vec<String> = own.iter().map(|n| format!("`{n}`")).collect();
        hints.push(format!(
            "{} {} made where {} installed (its source is its own folder): `skills manifest` records the edits in the lock; `git diff` shows them",
            names.join(", "),
            if own.len() == 1 { "was" } else { "were" },
            if own.len() == 1 { "it is" } else { "they are" }
        ));
    }
    // `check` and `update` follow an upstream: for skills that have none they would say "up to
    // date" and go round in circles.
    if own.len() < failures.len() {
        hints.push("`skills check` shows what moved upstream; `skills update` installs the upstream versions and locks them".to_owned());
    }
    Error::msg(format!(
        "{} of the locked skills cannot be reproduced exactly ({consequence}):\n  {}",
        failures.len(),
        list.join("\n  ")
    ))
    .with_hint(hints.join("; "))
}

/// Entries whose names make one folder (`PDF`, `pdf`): name → the other name. Neither can be
/// restored: which one the folder should hold, the lock does not say.
fn shared_folders(lock: &Lock) -> std::collections::HashMap<&str, String> {
    let mut by_folder: std::collections::HashMap<String, Vec<&str>> =
        std::collections::HashMap::new();
    for name in lock.skills.keys() {
        if let Some(folder) = crate::skill::name::folder_name(name) {
            by_folder.entry(folder).or_default().push(name);
        }
    }
    let mut shared = std::collections::HashMap::new();
    for names in by_folder.values().filter(|names| names.len() > 1) {
        for (i, name) in names.iter().enumerate() {
            let other = names[(i + 1) % names.len()];
            shared.insert(*name, other.to_owned());
        }
    }
    shared
}

/// Puts `entry`'s skill back: left alone when its folders already hold what the lock says
/// (`None`: nothing to do, its source not even opened); else read from the store when it holds
/// these files of this source, or from the source at the locked commit (checked against the
/// lock), and offered to the pipeline, which judges and places it.
fn restore(
    name: &str,
    entry: &LockEntry,
    locked: &mut Locked,
    store: &crate::install::store::Store,
    installer: &mut Installer,
    frozen: bool,
    printer: &Printer,
) -> Result<Option<Outcome>, RestoreError> {
    // Without `--frozen` the lock gains what it lacks, and only the source has a commit.
    let complete = frozen || is_complete(entry);
    let layout = install::layout(locked.scope, name, entry)?;
    // A skill linked into its package (`sync`'s link mode) is whatever that folder holds now:
    // links in place say nothing of the bytes behind them (`npm update` changes them), and the
    // store's copy is not what the links show. Its bytes are read from the package, checked
    // against the lock and judged by the gate, every time.
    let linked = layout.mode == crate::lock::InstallMode::Link;
    if complete
        && !linked
        && installer
            .holds(&layout.placements, &entry.files, &entry.computed_hash)
            .map_err(pipeline)?
    {
        printer.debug(format_args!(
            "`{name}` is in place; its source is not opened"
        ));
        return Ok(Some(Outcome::InPlace));
    }
    let identity = entry.identity();
    let from_store = || store.get(&identity, &entry.computed_hash, &entry.files);
    let stored = if complete && !linked {
        from_store()
    } else {
        Err(crate::install::store::Miss::Absent)
    };
    let (dir, payload, opened, fetched) = match stored {
        Ok(stored) => {
            printer.debug(format_args!("`{name}` comes from the cache"));
            let fetched = Fetched::Store {
                key: stored.key,
                passed: stored.passed,
            };
            (skill_dir(entry, &stored.dir), stored.payload, None, fetched)
        }
        Err(miss) => {
            if let crate::install::store::Miss::Corrupt(_) = miss {
                printer.warn(format_args!("`{name}`: {miss}; reading its source again"));
            }
            match from_source(name, entry, locked) {
                Ok((dir, payload, opened)) => (dir, payload, Some(opened), Fetched::Source),
                // The network is down and the lock lacks what only the source has (a commit):
                // the cache still restores the skill; the lock is filled in another time.
                Err(err) if is_network(&err) && !linked => {
                    let Ok(stored) = from_store() else {
                        return Err(err);
                    };
                    printer.warn(format_args!(
                        "`{name}`: {}; restored from the cache",
                        one_line(&err)
                    ));
                    let fetched = Fetched::Store {
                        key: stored.key,
                        passed: stored.passed,
                    };
                    (skill_dir(entry, &stored.dir), stored.payload, None, fetched)
                }
                Err(err) => return Err(err),
            }
        }
    };
    let skill_path = entry
        .skill_path
        .clone()
        .unwrap_or_else(|| crate::source::tree::join(dir.as_str(), crate::skill::SKILL_MD));
    let mut provenance = Provenance::of_entry(entry, &layout, skill_path);
    if let Some(opened) = &opened {
        if provenance.origin.commit.is_none() {
            provenance.origin.commit = opened.commit().map(str::to_owned);
        }
        if provenance.origin.digest.is_none() {
            provenance.origin.digest = opened.digest_of(name);
        }
    }
    let candidate = Candidate {
        name: name.to_owned(),
        folder: layout.folder,
        placements: layout.placements,
        provenance,
        dir,
    };
    match installer.plan(candidate).map_err(pipeline)? {
        Ok(planned) => installer
            .offer(planned, payload, fetched)
            .map_err(pipeline)?,
        // Another source's skill, or a folder another entry takes: the lock itself says so.
        Err(conflict) => return Err(RestoreError::Conflict(conflict.why)),
    }
    Ok(None)
}

/// A pipeline error met while restoring one skill.
fn pipeline(err: install::PipelineError) -> RestoreError {
    match err {
        install::PipelineError::Read(err) => RestoreError::Install(err),
        install::PipelineError::Install(err) => RestoreError::Install(err.error),
        other => RestoreError::Pipeline(one_line(&other)),
    }
}

/// The folder of `entry`'s skill in its source: its `skillPath`'s, else where the store found it.
fn skill_dir(entry: &LockEntry, stored: &str) -> crate::relpath::RelPath {
    entry
        .skill_path
        .as_deref()
        .and_then(|p| crate::relpath::RelPath::normalize(p).ok())
        .map(|p| p.parent())
        .or_else(|| crate::relpath::RelPath::normalize(stored).ok())
        .unwrap_or(crate::relpath::RelPath::ROOT)
}

/// Reads `entry`'s skill out of its source at the locked commit and checks it against the lock.
fn from_source(
    name: &str,
    entry: &LockEntry,
    locked: &mut Locked,
) -> Result<(crate::relpath::RelPath, crate::install::Payload, Opened), RestoreError> {
    let request = locked.request(entry, Want::locked(entry))?;
    let opened = locked.sources.open(&request)?;
    let at = opened
        .commit()
        .map_or_else(String::new, |c| format!(" at {}", crate::lock::short(c)));
    let (dir, payload) =
        upstream::read_skill(entry, name, &opened, locked.limits)?.ok_or_else(|| {
            RestoreError::Missing {
                name: name.to_owned(),
                at: at.clone(),
            }
        })?;
    if payload.computed_hash != entry.computed_hash {
        return Err(RestoreError::Hash {
            at,
            found: crate::lock::short(&payload.computed_hash).to_owned(),
            locked: crate::lock::short(&entry.computed_hash).to_owned(),
        });
    }
    let digests = payload.digests();
    if !entry.files.is_empty() && digests != entry.files {
        let diff = FileDiff::between(&entry.files, &digests);
        return Err(RestoreError::Files(diff.summary()));
    }
    Ok((dir, payload, opened))
}

/// Whether `err` says the network (or the server) could not be reached.
fn is_network(err: &RestoreError) -> bool {
    use crate::source::git::FetchError;
    matches!(
        err,
        RestoreError::Open(crate::source::open::OpenError::Fetch(fetch))
            if matches!(**fetch, FetchError::Unreachable { .. } | FetchError::Stalled { .. })
    )
}

/// Whether the lock records everything `install` would fill in for `entry` (so that leaving it
/// alone leaves the lock as complete as restoring it would).
fn is_complete(entry: &LockEntry) -> bool {
    let has_commits = matches!(
        entry.source_type(),
        crate::lock::SourceType::Github
            | crate::lock::SourceType::Gitlab
            | crate::lock::SourceType::Git
    );
    !entry.files.is_empty()
        && !entry.agents.is_empty()
        && entry.mode.is_some()
        && entry.skill_path.is_some()
        && (entry.commit.is_some() || !has_commits)
}

/// `install --json`: the skills restored, those already in place, and those that failed.
#[derive(Serialize)]
struct JsonRestored<'a> {
    version: u32,
    restored: &'a [&'a str],
    unchanged: &'a [&'a str],
    failed: Vec<crate::json::Failed<'a>>,
}

fn report(
    outcomes: &[(String, Outcome)],
    failures: &[(String, RestoreError)],
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    let names = |wanted: fn(&Outcome) -> bool| -> Vec<&str> {
        outcomes
            .iter()
            .filter(|(_, o)| wanted(o))
            .map(|(n, _)| n.as_str())
            .collect()
    };
    let restored = names(|o| matches!(o, Outcome::Restored));
    let in_place = names(|o| matches!(o, Outcome::InPlace));
    if as_json {
        let document = JsonRestored {
            version: crate::json::VERSION,
            restored: &restored,
            unchanged: &in_place,
            failed: crate::json::Failed::all(failures),
        };
        return Ok(crate::json::print(&document, printer)?);
    }
    for name in &restored {
        printer.status(format_args!("  restored {name}"));
    }
    printer.status(format_args!(
        "{} skill(s) restored, {} already in place",
        restored.len(),
        in_place.len()
    ));
    Ok(())
}
