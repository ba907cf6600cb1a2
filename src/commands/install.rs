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
use crate::install::{self, FileDiff, RestoreError, Transaction};
use crate::lock::{Lock, LockEntry};
use crate::offered::split_source;
use crate::output::Printer;
use crate::project::Scope;
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
/// the source and the options to add it with, when one is given (dispatch hands them to `add`).
pub fn as_add(args: &InstallArgs) -> Result<Option<(String, AddOptions)>, Error> {
    let Some(add) = split_source(args.source.as_ref(), &args.options) else {
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
    let scope = Scope::open(args.options.global, printer)?;
    let mut locked = Locked::new(&scope, &args.options.limits, printer.progress());
    let offline = args.offline || crate::env_vars::offline();
    if offline {
        locked.sources.go_offline();
    }
    let store = crate::install::store::Store::from_env();
    let _guard = install::take_turn(&scope, printer)?;
    let lock = Lock::read_kind(&scope.lock_path, scope.lock_kind())?.ok_or_else(|| {
        Error::msg(format!("there is no `{}`", scope.lock_path.display()))
            .with_hint("`skills add` creates it; run `skills install` in the folder that has it")
    })?;
    let mut gate = crate::gate::Gate::new(&args.options.gate, printer)?;
    let mut transaction = install::transaction(&scope);
    // The lock as it is to be written (`--frozen` never writes it).
    let mut next = (!args.frozen).then(|| lock.clone());
    let mut outcomes: Vec<(String, Outcome)> = Vec::new();
    let mut failures: Vec<(String, RestoreError)> = Vec::new();
    let mut edited: Vec<String> = Vec::new();
    let shared = shared_folders(&lock);
    for (name, entry) in &lock.skills {
        if let Some(other) = shared.get(name.as_str()) {
            failures.push((name.clone(), RestoreError::SharedFolder(other.clone())));
            continue;
        }
        printer.debug(format_args!("restoring `{name}` from `{}`", entry.source));
        let restoring = Restoring {
            transaction: &mut transaction,
            gate: &mut gate,
            edited: &mut edited,
            force: args.options.force,
            frozen: args.frozen,
            store: &store,
        };
        match restore(name, entry, &mut locked, restoring, printer) {
            Ok((outcome, restored)) => {
                if let Some(next) = &mut next {
                    next.skills.insert(name.clone(), restored);
                }
                outcomes.push((name.clone(), outcome));
            }
            Err(why) => failures.push((name.clone(), why)),
        }
    }
    if !edited.is_empty() {
        transaction.abort();
        return Err(Error::msg(format!(
            "not replacing skills with local edits; nothing was written:\n  {}",
            edited.join("\n  ")
        ))
        .with_hint("pass `--force` to replace them (the edits are lost); `skills manifest --check` shows every change")
        .answer_no());
    }

    if args.frozen && !failures.is_empty() {
        transaction.abort();
        printer.error(&not_reproduced(&failures, "nothing was written", offline));
        return Ok(ExitStatus::Failure);
    }
    // `--frozen` never writes the lock: everything in it was just reproduced as it says.
    let lock = next.as_ref().map(|next| (next, scope.lock_path.as_path()));
    crate::install::commit(transaction, lock, "restoring")?;

    report(&outcomes, &failures, args.options.json, printer)?;
    if failures.is_empty() {
        Ok(ExitStatus::Success)
    } else {
        printer.error(&not_reproduced(
            &failures,
            "their installed copies were kept",
            offline,
        ));
        Ok(ExitStatus::Failure)
    }
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

fn not_reproduced(failures: &[(String, RestoreError)], consequence: &str, offline: bool) -> Error {
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
    hints.push("`skills check` shows what moved upstream; `skills update` installs the upstream versions and locks them".to_owned());
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

/// Where `restore` stages, checks and reports.
struct Restoring<'a> {
    transaction: &'a mut Transaction,
    gate: &'a mut crate::gate::Gate,
    /// Installed copies with local edits, said as [`install::edits`] says them.
    edited: &'a mut Vec<String>,
    force: bool,
    /// `--frozen`: the lock is not written, so an entry that lacks fields is not filled in.
    frozen: bool,
    store: &'a crate::install::store::Store,
}

/// Reads `entry`'s skill at its locked commit, checks it against the lock, and stages it where it
/// is not already in place (a copy with local edits is not replaced without `--force`: it is
/// added to `edited`). Returns the entry as the lock should now record it.
fn restore(
    name: &str,
    entry: &LockEntry,
    locked: &mut Locked,
    restoring: Restoring,
    printer: &Printer,
) -> Result<(Outcome, LockEntry), RestoreError> {
    let Restoring {
        transaction,
        gate,
        edited,
        force,
        frozen,
        store,
    } = restoring;
    // Without `--frozen` the lock gains what it lacks, and only the source has a commit.
    let complete = frozen || is_complete(entry);
    let layout = install::layout(locked.scope, name, entry);
    if let Ok(layout) = &layout
        && complete
        && on_disk(entry, layout, transaction)?
    {
        printer.debug(format_args!(
            "`{name}` is in place; its source is not opened"
        ));
        return Ok((Outcome::InPlace, entry.clone()));
    }
    let stored = if complete && layout.is_ok() {
        store.get(&entry.computed_hash, &entry.files)
    } else {
        Err(crate::install::store::Miss::Absent)
    };
    // `passed`: the gate verdicts the store keeps for a skill it gave back (`None`: read from
    // its source, and not in the store yet).
    let (dir, payload, opened, passed) = match stored {
        Ok(stored) => {
            printer.debug(format_args!("`{name}` comes from the cache"));
            let dir = entry
                .skill_path
                .as_deref()
                .and_then(|p| crate::relpath::RelPath::normalize(p).ok())
                .map_or(stored.dir, |p| p.parent().to_string());
            (dir, stored.payload, None, Some(stored.passed))
        }
        Err(miss) => {
            if let crate::install::store::Miss::Corrupt(_) = miss {
                printer.warn(format_args!("`{name}`: {miss}; reading its source again"));
            }
            match from_source(name, entry, locked) {
                Ok((dir, payload, opened)) => (dir.to_string(), payload, Some(opened), None),
                // The network is down and the lock lacks what only the source has (a commit):
                // the cache still restores the skill; the lock is filled in another time.
                Err(err) if is_network(&err) => {
                    let Ok(stored) = store.get(&entry.computed_hash, &entry.files) else {
                        return Err(err);
                    };
                    printer.warn(format_args!(
                        "`{name}`: {}; restored from the cache",
                        one_line(&err)
                    ));
                    (stored.dir, stored.payload, None, Some(stored.passed))
                }
                Err(err) => return Err(err),
            }
        }
    };
    let layout = match layout {
        Ok(layout) => layout,
        Err(err) => {
            if passed.is_none() {
                let _ = store.put(&dir, &payload, None);
            }
            return Err(err.into());
        }
    };
    let digests = payload.digests();
    // The gate, unless this build found nothing in these very files as this folder before (a
    // verdict the store keeps beside them); a lint that finds nothing is kept there.
    let key = crate::gate::verdict_key(&layout.folder, &payload);
    let known = matches!((&key, &passed), (Some(key), Some(passed)) if passed.contains(key));
    let findings = if known {
        Some(Vec::new())
    } else {
        gate.lint_as(&layout.folder, &payload)
    };
    let clean = key
        .as_deref()
        .filter(|_| !known && findings.as_ref().is_some_and(Vec::is_empty));
    match (&passed, clean) {
        (None, clean) => {
            let _ = store.put(&dir, &payload, clean);
        }
        (Some(_), Some(key)) => {
            let _ = store.pass(&entry.computed_hash, key);
        }
        (Some(_), None) => {}
    }
    let allow = gate
        .decide_locked(
            name,
            entry,
            (&dir, &layout.folder),
            &findings.unwrap_or_default(),
            printer,
        )
        .ok_or(RestoreError::Refused)?;
    let mut outcome = Outcome::InPlace;
    for placement in &layout.placements {
        let placed = transaction.placed(placement, &payload)?;
        if placed != install::Placed::Same {
            // Nothing there: no edits to keep.
            if !force && placed == install::Placed::Other {
                edited.extend(install::edits(
                    name,
                    entry,
                    std::slice::from_ref(placement),
                    Some(&digests),
                    transaction,
                )?);
            }
            transaction.stage(placement, &payload)?;
            outcome = Outcome::Restored;
        }
    }
    let mut restored = entry.clone();
    if let Some(opened) = &opened {
        restored.commit = restored
            .commit
            .or_else(|| opened.commit().map(str::to_owned));
        if restored.digest.is_none() {
            restored.digest = opened.digest_of(name);
        }
    }
    if restored.files.is_empty() {
        restored.files = digests;
    }
    if restored.agents.is_empty() {
        restored.agents = layout.agents;
    }
    restored.mode = Some(layout.mode);
    restored.allow = allow;
    if restored.skill_path.is_none() {
        restored.skill_path = Some(format!(
            "{dir}{}{}",
            if dir.is_empty() { "" } else { "/" },
            crate::skill::SKILL_MD
        ));
    }
    Ok((outcome, restored))
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

/// Whether every placement of `layout` holds what `entry` records: each copy exactly its
/// `files` (or, for an entry that lists none, files whose `computedHash` is the locked one),
/// each link its target. Read through the transaction's handles, as a restore would.
fn on_disk(
    entry: &LockEntry,
    layout: &install::Layout,
    transaction: &mut Transaction,
) -> Result<bool, RestoreError> {
    for placement in &layout.placements {
        if placement.link.is_some() {
            let none = crate::install::Payload {
                files: Vec::new(),
                computed_hash: String::new(),
                notes: Vec::new(),
                left_out: Vec::new(),
                store: None,
                digested: std::sync::OnceLock::new(),
            };
            if !transaction.in_place(placement, &none)? {
                return Ok(false);
            }
            continue;
        }
        let Some(now) = transaction.installed(&placement.path)? else {
            return Ok(false);
        };
        let matches = if entry.files.is_empty() {
            now.computed_hash == entry.computed_hash
        } else {
            now.digests() == entry.files
        };
        if !matches {
            return Ok(false);
        }
    }
    Ok(!layout.placements.is_empty())
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
