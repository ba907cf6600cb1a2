//! `skills check`: read-only, which locked skills have upstream changes.
//!
//! Per git remote one ref advertisement; a skill whose locked commit is still the tip of what it
//! follows costs nothing more. When the tip moved, that commit is fetched (into the cache only)
//! and the skill's folder hashed: a commit that does not touch the skill is not an update. A
//! local source is compared with the folder as it is now.

use serde_json::json;

use super::locked::{self, Sources, Upstream};
use crate::cli::CheckArgs;
use crate::error::{Error, ExitStatus};
use crate::install::Payload;
use crate::lock::{Lock, LockEntry};
use crate::output::Printer;
use crate::project::Scope;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    UpToDate,
    UpdateAvailable,
    RemovedUpstream,
    Unreachable,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::UpToDate => "up to date",
            State::UpdateAvailable => "update available",
            State::RemovedUpstream => "removed upstream",
            State::Unreachable => "source unreachable",
        }
    }

    fn slug(self) -> &'static str {
        match self {
            State::UpToDate => "up-to-date",
            State::UpdateAvailable => "update-available",
            State::RemovedUpstream => "removed-upstream",
            State::Unreachable => "unreachable",
        }
    }
}

/// What upstream has for one locked skill.
pub struct Status {
    pub name: String,
    pub state: State,
    /// The upstream commit looked at (git sources).
    pub upstream: Option<String>,
    /// Why, for the states that need one.
    pub reason: Option<String>,
    /// The upstream version, when it is an update: its folder in the source and its files.
    pub update: Option<(String, Payload)>,
    /// What a web source says the update's bytes hash to.
    pub digest: Option<String>,
}

impl Status {
    fn new(name: &str, state: State, upstream: Option<String>) -> Status {
        Status {
            name: name.to_owned(),
            state,
            upstream,
            reason: None,
            update: None,
            digest: None,
        }
    }

    fn unreachable(name: &str, upstream: Option<String>, reason: String) -> Status {
        Status {
            reason: Some(reason),
            ..Status::new(name, State::Unreachable, upstream)
        }
    }
}

/// What upstream has for `entry`.
pub fn inspect(name: &str, entry: &LockEntry, sources: &mut Sources) -> Status {
    let upstream = match sources.upstream(entry) {
        Ok(upstream) => upstream,
        Err(reason) => return Status::unreachable(name, None, reason),
    };
    // A skill made where it is installed is its own upstream: `skills manifest` records edits.
    if let Upstream::Folder(_) = &upstream
        && let Ok(layout) = locked::layout(sources.scope, name, entry)
        && layout
            .placements
            .iter()
            .any(|p| p.link.is_none() && locked::is_own_source(entry, sources.scope, &p.path))
    {
        return Status::new(name, State::UpToDate, None);
    }
    let remotes = &mut sources.remotes;
    let opened = match upstream {
        Upstream::Folder(_) | Upstream::Web { .. } => {
            match remotes.open_upstream(&upstream, &locked::tracked_want(entry)) {
                Ok(opened) => opened,
                Err(reason) => return Status::unreachable(name, None, reason),
            }
        }
        Upstream::Git(url) => {
            let want = locked::tracked_want(entry);
            let tip = match remotes.resolve(&url, &want) {
                Ok(tip) => tip,
                Err(reason) => return Status::unreachable(name, None, reason),
            };
            if entry.commit.as_deref() == Some(tip.as_str()) {
                return Status::new(name, State::UpToDate, Some(tip));
            }
            let pinned = git_want(&tip, entry);
            match remotes.open(&url, &pinned) {
                Ok(opened) => opened,
                Err(reason) => return Status::unreachable(name, Some(tip), reason),
            }
        }
    };
    let tip = opened.commit.clone();
    // A web index that still gives the locked digest serves the locked bytes: nothing to download.
    if entry.digest.is_some() && opened.digests.get(name) == entry.digest.as_ref() {
        return Status::new(name, State::UpToDate, tip);
    }
    let digest = opened.digest(name);
    match locked::read_skill(entry, name, &opened, sources.limits) {
        Ok(None) => Status {
            reason: Some(format!("the source no longer has a skill `{name}`")),
            ..Status::new(name, State::RemovedUpstream, tip)
        },
        Ok(Some((_, payload))) if payload.computed_hash == entry.computed_hash => {
            Status::new(name, State::UpToDate, tip)
        }
        Ok(Some(update)) => Status {
            update: Some(update),
            digest,
            ..Status::new(name, State::UpdateAvailable, tip)
        },
        Err(reason) => Status::unreachable(name, tip, reason),
    }
}

/// Exactly the tip commit seen in the advertisement (the ref may move while we look).
fn git_want(tip: &str, entry: &LockEntry) -> crate::source::git::Want {
    crate::source::git::Want::Commit {
        oid: tip.to_owned(),
        fallback: entry.git_ref.clone(),
    }
}

/// The entries `names` selects (all when empty); an unknown name is an error that lists the
/// locked ones.
pub fn select<'a>(
    lock: &'a Lock,
    names: &[String],
) -> Result<Vec<(&'a String, &'a LockEntry)>, Error> {
    if names.is_empty() {
        return Ok(lock.skills.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            lock.skills.get_key_value(name).ok_or_else(|| {
                let known: Vec<&str> = lock.skills.keys().map(String::as_str).collect();
                Error::msg(format!("`{name}` is not in the lockfile")).with_hint(
                    if known.is_empty() {
                        "the lockfile is empty".to_owned()
                    } else {
                        format!("locked: {}", known.join(", "))
                    },
                )
            })
        })
        .collect()
}

pub fn run(args: &CheckArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let scope = Scope::new(args.global)?;
    let lock = scope.read_lock()?;
    let mut sources = Sources::new(&scope, &args.limits, printer.progress());
    let selected = select(&lock, &args.names)?;
    let statuses: Vec<(Status, &LockEntry)> = selected
        .into_iter()
        .map(|(name, entry)| (inspect(name, entry, &mut sources), entry))
        .collect();
    report(&statuses, args.json, printer)?;
    let count = |state: State| statuses.iter().filter(|(s, _)| s.state == state).count();
    let updates = count(State::UpdateAvailable) + count(State::RemovedUpstream);
    if count(State::Unreachable) > 0 {
        return Ok(ExitStatus::Error);
    }
    if args.exit_code && updates > 0 {
        return Ok(ExitStatus::Failure);
    }
    Ok(ExitStatus::Success)
}

fn report(
    statuses: &[(Status, &LockEntry)],
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let skills: Vec<serde_json::Value> = statuses
            .iter()
            .map(|(status, entry)| {
                json!({
                    "name": status.name,
                    "source": entry.source,
                    "lockedCommit": entry.commit,
                    "upstreamCommit": status.upstream,
                    "status": status.state.slug(),
                    "reason": status.reason,
                })
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&json!({"version": 1, "skills": skills}))?;
        text.push('\n');
        return printer.data(&text);
    }
    if statuses.is_empty() {
        printer.status("no locked skills");
        return Ok(());
    }
    let mut table = crate::output::table(&["Skill", "Source", "Locked", "Upstream", "Status"]);
    for (status, entry) in statuses {
        table.add_row([
            status.name.clone(),
            entry.source.clone(),
            locked::short(entry.commit.as_deref()),
            locked::short(status.upstream.as_deref()),
            status.state.as_str().to_owned(),
        ]);
    }
    printer.data(&format!("{table}\n"))?;
    for (status, _) in statuses {
        if let Some(reason) = &status.reason {
            printer.warn(format_args!("`{}`: {reason}", status.name));
        }
    }
    let updates = statuses
        .iter()
        .filter(|(s, _)| matches!(s.state, State::UpdateAvailable | State::RemovedUpstream))
        .count();
    let unchecked = statuses
        .iter()
        .filter(|(s, _)| s.state == State::Unreachable)
        .count();
    if unchecked > 0 {
        printer.status(format_args!("{unchecked} skill(s) could not be checked"));
    }
    if updates > 0 {
        printer.status(format_args!(
            "{updates} update(s) available; `skills update` applies them"
        ));
    } else if unchecked == 0 {
        printer.status("all checked skills are up to date");
    }
    Ok(())
}
