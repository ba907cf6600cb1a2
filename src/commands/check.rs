//! `skills check`: read-only, which locked skills have upstream changes (the comparison itself
//! is `upstream`'s, shared with `update`).

use serde::Serialize;

use crate::cli::CheckArgs;
use crate::error::{Error, ExitStatus};
use crate::hint::one_line;
use crate::lock::LockEntry;
use crate::output::Printer;
use crate::project::Scope;
use crate::upstream::{self, Locked, State, Status, inspect, select};

pub fn run(args: &CheckArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let scope = Scope::open(args.global, printer)?;
    // A CI step run where no lock is found must not pass for want of anything to check.
    scope.require_lock()?;
    let lock = scope.read_lock()?;
    let mut locked = Locked::new(
        &scope,
        crate::settings::limits(&args.limits),
        printer.progress(),
    );
    let selected = select(&lock, &args.names)?;
    let statuses: Vec<(Status, &LockEntry)> = selected
        .into_iter()
        .map(|(name, entry)| (inspect(name, entry, &mut locked), entry))
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

/// An item of `check --json`: a locked skill, its commits and what `check` found.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonChecked<'a> {
    name: &'a str,
    source: &'a str,
    locked_commit: Option<&'a str>,
    upstream_commit: Option<&'a str>,
    status: &'static str,
    reason: Option<String>,
    /// Whether the lock pins each file (`files`), not only `computedHash`.
    pinned: bool,
}

fn report(
    statuses: &[(Status, &LockEntry)],
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let skills: Vec<JsonChecked<'_>> = statuses
            .iter()
            .map(|(status, entry)| JsonChecked {
                name: &status.name,
                source: &entry.source,
                locked_commit: entry.commit.as_deref(),
                upstream_commit: status.upstream.as_deref(),
                status: status.state.slug(),
                reason: status.reason.as_ref().map(|r| one_line(r)),
                pinned: !entry.files.is_empty(),
            })
            .collect();
        return Ok(crate::json::print(
            &crate::json::Skills::new(&skills),
            printer,
        )?);
    }
    if statuses.is_empty() {
        printer.status("no locked skills");
        return Ok(());
    }
    let mut table = crate::output::Table::new(&["Skill", "Source", "Locked", "Upstream", "Status"]);
    for (status, entry) in statuses {
        table.row([
            status.name.clone(),
            entry.source.clone(),
            upstream::short(entry.commit.as_deref()),
            upstream::short(status.upstream.as_deref()),
            status.state.as_str().to_owned(),
        ]);
    }
    printer.table(&table)?;
    // One warning per reason, naming every skill it holds for: a source out of reach (offline,
    // say) is said once, not once per skill it has.
    let mut reasons: Vec<(bool, String, Vec<String>)> = Vec::new();
    let mut unpinned: Vec<String> = Vec::new();
    for (status, entry) in statuses {
        if let Some(reason) = &status.reason {
            let skipped = status.state == State::Skipped;
            let text = one_line(reason);
            let name = format!("`{}`", status.name);
            match reasons
                .iter_mut()
                .find(|(s, t, _)| *s == skipped && *t == text)
            {
                Some((_, _, names)) => names.push(name),
                None => reasons.push((skipped, text, vec![name])),
            }
        }
        if entry.files.is_empty() {
            unpinned.push(format!("`{}`", status.name));
        }
    }
    for (skipped, text, names) in &reasons {
        printer.warn(format_args!(
            "{}{}: {text}",
            if *skipped { "skipped " } else { "" },
            names.join(", ")
        ));
    }
    if !unpinned.is_empty() {
        printer.warn(format_args!(
            "{} {} not fully pinned: {} lock {} no `files` (as `npx skills` writes it), so a change to a file that is a link in {} source goes unseen; `skills install` records them",
            unpinned.join(", "),
            if unpinned.len() == 1 { "is" } else { "are" },
            if unpinned.len() == 1 { "its" } else { "their" },
            if unpinned.len() == 1 { "entry lists" } else { "entries list" },
            if unpinned.len() == 1 { "its" } else { "their" },
        ));
    }
    printer.hints(
        statuses
            .iter()
            .filter_map(|(s, _)| s.reason.as_ref())
            .map(|r| r as &dyn crate::hint::Hint),
    );
    let count = |states: &[State]| {
        statuses
            .iter()
            .filter(|(s, _)| states.contains(&s.state))
            .count()
    };
    let updates = count(&[State::UpdateAvailable, State::RemovedUpstream]);
    let unchecked = count(&[State::Unreachable]);
    if unchecked > 0 {
        printer.status(format_args!("{unchecked} skill(s) could not be checked"));
    }
    let skipped = count(&[State::Skipped]);
    if skipped > 0 {
        printer.status(format_args!("{skipped} skill(s) skipped"));
    }
    if updates > 0 {
        printer.status(format_args!(
            "{updates} update(s) available; `skills update` applies them"
        ));
    } else if unchecked == 0 && skipped < statuses.len() {
        printer.status("all checked skills are up to date");
    }
    Ok(())
}
