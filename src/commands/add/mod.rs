//! `skills add`: fetch a source, pick skills, install them into agent dirs, record them in the
//! lock — all of it, or nothing.

use std::path::PathBuf;

use serde_json::json;

mod output;

use self::output::{Installed, describe_plan, list};
use crate::ask;
use crate::error::{Error, ExitStatus};
use crate::install::{self, Candidate, Done, Fetched, Installer, Planned, Provenance};
use crate::lock::{InstallMode, LockEntry};
use crate::offered::{Found, find_offered, open_offered};
use crate::output::Printer;
use crate::project::{Scope, Target};
use crate::settings;
use crate::source::discover::Offered;
use crate::source::open::Opened;

/// `skills add`: its source given, or handed to `-a`/`-s` (see [`settings::Add::resolve`]).
pub fn run(args: &crate::cli::AddArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let Some(settings) = settings::Add::resolve(args.source.as_ref(), &args.options, args.offline)
    else {
        return Err(Error::msg("no source given").with_hint("`skills add owner/repo`, `skills add ./folder`, or a URL; `skills add --help` lists the forms"));
    };
    install_from(&settings, printer)
}

/// A project lock follows local sources outside its repository only where this machine's user
/// added them (SECURITY.md): a skill just installed from a folder or `file://` repository
/// elsewhere is recorded as trusted by this user, and said once, so that a teammate's
/// `check` skipping it comes as no surprise.
fn trust_outside(done: &[(&install::Outcome, &LockEntry)], scope: &Scope, printer: &Printer) {
    use crate::source::open::{Location, OpenError};
    let Some((_, entry)) = done.first() else {
        return;
    };
    let mut env = scope.source_env();
    env.outside = crate::source::Outside::default();
    let Err(OpenError::Outside { .. }) = Location::of_entry(entry, &scope.lock_dir(), &env) else {
        return;
    };
    env.outside.verified = true;
    let folder = match Location::of_entry(entry, &scope.lock_dir(), &env) {
        Ok(Location::Folder(path)) => Some(path),
        Ok(Location::Git(url)) => crate::source::git::local_path(&url),
        _ => None,
    };
    if let Some(folder) = folder
        && crate::source::added::record(&folder).is_ok()
    {
        printer.warn(format_args!(
            "`{}` is outside the project's repository: `check` and `update` follow it on this machine only (elsewhere they skip it); `install` restores it wherever the folder holds the locked bytes",
            entry.source
        ));
    }
}

/// Installs from the source `settings.source`, as `settings` say.
pub fn install_from(settings: &settings::Add, printer: &Printer) -> Result<ExitStatus, Error> {
    let scope = Scope::open(settings.global, printer)?;
    let Found {
        opened, offered, ..
    } = open_offered(
        &settings.source,
        &scope,
        settings.full_depth,
        settings.offline,
        settings.limits.web,
        printer,
    )?;
    let show_internal = settings.show_internal;
    if settings.list {
        return list(&offered, show_internal, &opened, settings.json, printer);
    }
    // At a terminal, whatever the flags leave open is asked; elsewhere nothing ever is.
    let interactive =
        !settings.yes && !settings.all && !settings.json && !settings.dry_run && ask::terminal();
    let requested = requested(settings, &opened);
    let chosen = if interactive && requested.is_empty() {
        ask::pick_skills(&offered, show_internal)?
    } else {
        choose(&offered, &requested, settings, show_internal)?
    };
    let mut targets = if settings.agents.is_empty() && !settings.all {
        if interactive && settings.subagents.is_empty() {
            ask::pick_agents(&scope)?
        } else if settings.subagents.is_empty() {
            scope.default_targets()
        } else {
            Vec::new()
        }
    } else {
        let ids = if settings.all {
            vec!["*".to_owned()]
        } else {
            settings.agents.clone()
        };
        scope.targets_for(&ids)?
    };
    if !settings.subagents.is_empty() {
        // Eve's own dir is a target only when `root` is among the subagents.
        targets.retain(|t| !t.agents.contains(&crate::agents::EVE));
        targets.extend(scope.eve_targets(&settings.subagents)?);
    }
    // Eve alone gets copies, as from the reference (which rewrites Eve's frontmatter).
    let only_eve = targets
        .iter()
        .all(|t| t.agents.iter().all(|a| *a == crate::agents::EVE));
    let mode = if targets.len() > 1 && !settings.copy && !only_eve {
        InstallMode::Symlink
    } else {
        InstallMode::Copy
    };
    let limits = settings.limits.skill;
    let mut agents: Vec<String> = Vec::new();
    for agent in targets.iter().flat_map(|t| t.agents.iter()) {
        if !agents.iter().any(|a| a == agent) {
            agents.push((*agent).to_owned());
        }
    }
    let provenance = Provenance {
        origin: opened.origin.clone(),
        skill_path: String::new(),
        agents: agents.clone(),
        mode,
        extra: vec![("subagents".to_owned(), subagents(&settings.subagents))],
        stamp: true,
    };
    let (candidates, mut skipped) = candidates(&chosen, &targets, &scope, &provenance, printer);
    let policy = install::Policy {
        gate: settings.gate.clone(),
        force: settings.force,
    };
    let mut installer = Installer::open(&scope, &policy, printer)?;
    let mut planned: Vec<Planned> = Vec::new();
    let mut conflicts: Vec<(String, String)> = Vec::new();
    for candidate in candidates {
        match installer.plan(candidate)? {
            // `add` does not fetch what it would write only if it came identical.
            Ok(plan) => match Installer::undecided(&plan) {
                Some(why) => {
                    conflicts.push((plan.candidate.name.clone(), why.clone()));
                    installer.conflicted(plan, why);
                }
                None => planned.push(plan),
            },
            Err(conflict) => conflicts.push((conflict.name, conflict.why)),
        }
    }
    if planned.is_empty() && !conflicts.is_empty() {
        return Err(Error::msg(format!(
            "not replacing what is there: {}",
            conflicts
                .iter()
                .map(|(_, why)| why.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ))
        .with_hint("pass `--force` to replace it (local edits are lost)")
        .answer_no());
    }
    for (name, why) in &conflicts {
        printer.warn(format_args!("skipped `{name}`: {why}"));
        skipped.push((name.clone(), install::Skip::Conflict(why.clone())));
    }
    if settings.dry_run {
        let candidates: Vec<&Candidate> = planned.iter().map(|p| &p.candidate).collect();
        printer.plain(&describe_plan(
            &candidates,
            opened.tree.as_ref(),
            limits,
            &scope,
            mode,
            &opened.origin,
        ))?;
        // As the run would: a skill it would not replace (local edits) is a "no".
        return Ok(if conflicts.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Failure
        });
    }
    let chosen: Vec<&Candidate> = planned.iter().map(|p| &p.candidate).collect();
    ask::confirm_install(
        settings.yes || settings.all,
        &chosen,
        &targets,
        &scope,
        printer,
    )?;
    // Each skill is read while the gate checks the ones before it (on its worker thread).
    for plan in planned {
        let payload = match install::collect(opened.tree.as_ref(), plan_dir(&plan), limits) {
            Ok(payload) => payload,
            Err(err) => {
                let reason = install::Skip::Install(err);
                printer.warn(format_args!("skipped `{}`: {reason}", plan.candidate.name));
                skipped.push((plan.candidate.name.clone(), reason));
                continue;
            }
        };
        for note in &payload.notes {
            printer.warn(format_args!("`{}`: {note}", plan.candidate.name));
        }
        // Added again in another layout (other agents, `--copy`): what the old layout placed
        // and the new one does not goes, as the lock will no longer name it; a copy with local
        // edits stays (the removal is refused for it).
        let stale: Vec<std::path::PathBuf> = plan
            .previous
            .as_ref()
            .and_then(|previous| install::layout(&scope, &plan.candidate.name, previous).ok())
            .map(|old| {
                old.placements
                    .into_iter()
                    .map(|p| p.path)
                    .filter(|path| {
                        !plan.candidate.placements.iter().any(|p| p.path == *path)
                            && path.symlink_metadata().is_ok()
                    })
                    .collect()
            })
            .unwrap_or_default();
        let previous_files = plan
            .previous
            .as_ref()
            .map(|p| p.files.clone())
            .unwrap_or_default();
        installer.offer(plan, payload, Fetched::Elsewhere)?;
        for path in &stale {
            installer.remove(path, &previous_files)?;
        }
    }
    let refused_any = {
        let outcomes = installer.settle()?;
        let written = outcomes
            .iter()
            .filter(|o| matches!(o.done, Done::Written | Done::InPlace))
            .count();
        let refused = outcomes
            .iter()
            .filter(|o| matches!(o.done, Done::Refused { .. }))
            .count();
        if written == 0 && refused == 0 && conflicts.is_empty() {
            return Err(nothing_to_install(&skipped));
        }
        refused > 0
    };
    // Every skill refused by the gate: nothing to write, not even the lock.
    let committed = installer.commit(true, "installing")?;
    let mut late_conflicts = 0;
    for outcome in &committed.outcomes {
        match &outcome.done {
            Done::Refused { codes, .. } => skipped.push((
                outcome.candidate.name.clone(),
                install::Skip::Refused {
                    codes: codes.clone(),
                },
            )),
            Done::Conflict(why) if !conflicts.iter().any(|(n, _)| *n == outcome.candidate.name) => {
                printer.warn(format_args!("skipped `{}`: {why}", outcome.candidate.name));
                skipped.push((
                    outcome.candidate.name.clone(),
                    install::Skip::Conflict(why.clone()),
                ));
                late_conflicts += 1;
            }
            _ => {}
        }
    }
    let done: Vec<(&install::Outcome, &LockEntry)> = committed
        .outcomes
        .iter()
        .filter_map(|o| Some((o, committed.entry(o)?)))
        .collect();
    trust_outside(&done, &scope, printer);
    if !done.is_empty() || settings.json {
        let report = Installed {
            skills: &done,
            skipped: &skipped,
            agents: &agents,
            origin: &opened.origin,
            mode,
            scope: &scope,
        };
        report.report(settings.json, printer)?;
    }
    let not_replaced = conflicts.len() + late_conflicts;
    if not_replaced > 0 {
        printer.hint(format_args!(
            "{not_replaced} skill(s) were not replaced; pass `--force` to replace them (local edits are lost)"
        ));
    }
    Ok(if refused_any || not_replaced > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// The folder of a planned skill inside its source.
fn plan_dir(plan: &Planned) -> &crate::relpath::RelPath {
    &plan.candidate.dir
}

/// Every chosen skill was skipped: why each was is in its warning above; the error names them,
/// and the hint gives the distinct hints of those reasons (a limit to raise), if any.
fn nothing_to_install(skipped: &Skipped) -> Error {
    let names: Vec<String> = skipped.iter().map(|(n, _)| format!("`{n}`")).collect();
    let mut hints: Vec<String> = Vec::new();
    for more in skipped.iter().filter_map(|(_, r)| r.hint()) {
        if !hints.contains(&more) {
            hints.push(more);
        }
    }
    let error = Error::msg(format!(
        "nothing to install: every chosen skill was skipped ({})",
        names.join(", ")
    ));
    if hints.is_empty() {
        error
    } else {
        error.with_hint(hints.join("; "))
    }
}

/// The lock's `subagents` (as the reference writes it: `""` for Eve's root agent), kept only
/// when Eve is installed for more than its root agent; `None` takes it out.
fn subagents(subagents: &[String]) -> Option<serde_json::Value> {
    let names: Vec<String> = subagents
        .iter()
        .map(|s| match s.as_str() {
            "root" | "." => String::new(),
            other => other.to_owned(),
        })
        .collect();
    (!names.is_empty() && names != [""]).then(|| json!(names))
}

/// Skill names asked for: `--skill` plus `@skill` of the source string.
fn requested(settings: &settings::Add, opened: &Opened) -> Vec<String> {
    let mut names = settings.skills.clone();
    if let Some(skill) = &opened.skill {
        names.push(skill.clone());
    }
    if settings.all {
        names.push("*".into());
    }
    names
}

/// The offered skills to install.
fn choose(
    offered: &[Offered],
    names: &[String],
    settings: &settings::Add,
    show_internal: bool,
) -> Result<Vec<Offered>, Error> {
    let visible: Vec<&Offered> = offered
        .iter()
        .filter(|s| show_internal || !s.internal)
        .collect();
    if names.iter().any(|n| n == "*") {
        return Ok(visible.into_iter().cloned().collect());
    }
    if names.is_empty() {
        return match visible.as_slice() {
            [one] => Ok(vec![(*one).clone()]),
            _ if settings.yes => Ok(visible.into_iter().cloned().collect()),
            _ => Err(Error::msg(format!("the source offers {} skills; which ones?", visible.len()))
                .with_hint("pass `--skill NAME` (repeatable, or `--skill '*'` for all), or `-y` to install all; `--list` shows them")),
        };
    }
    let mut chosen: Vec<Offered> = Vec::new();
    for name in names {
        match find_offered(offered, name) {
            Some(skill) if !chosen.contains(skill) => chosen.push(skill.clone()),
            Some(_) => {}
            None => {
                let available: Vec<String> =
                    visible.iter().map(|s| format!("`{}`", s.name)).collect();
                let wanted = name.to_lowercase();
                let near: Vec<String> = visible
                    .iter()
                    .filter(|s| {
                        let offered = s.name.to_lowercase();
                        strsim::damerau_levenshtein(&offered, &wanted) <= 2
                            || (wanted.len() >= 3 && offered.contains(&wanted))
                    })
                    .map(|s| format!("`--skill {}`", s.name))
                    .collect();
                let hint = if near.is_empty() {
                    format!("available: {}", available.join(", "))
                } else {
                    format!(
                        "did you mean {}? available: {}",
                        near.join(" or "),
                        available.join(", ")
                    )
                };
                return Err(
                    Error::msg(format!("the source offers no skill named `{name}`"))
                        .with_hint(hint),
                );
            }
        }
    }
    Ok(chosen)
}

/// Each chosen skill as a candidate of the pipeline; a name that cannot be a folder name is
/// skipped.
fn candidates(
    chosen: &[Offered],
    targets: &[Target],
    scope: &Scope,
    provenance: &Provenance,
    printer: &Printer,
) -> (Vec<Candidate>, Skipped) {
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let mut candidates = Vec::new();
    let mut skipped = Vec::new();
    for offered in chosen {
        let Some(folder) = crate::skill::name::folder_name(&offered.name) else {
            let reason = install::Skip::FolderName;
            printer.warn(format_args!("skipped `{}`: {reason}", offered.name));
            skipped.push((offered.name.clone(), reason));
            continue;
        };
        let mut provenance = provenance.clone();
        provenance.skill_path =
            crate::source::tree::join(offered.path.as_str(), crate::skill::SKILL_MD);
        if let Some(digest) = &offered.digest {
            provenance.origin.digest = Some(digest.clone());
        }
        candidates.push(Candidate {
            name: offered.name.clone(),
            placements: install::placements(&folder, &dirs, &scope.canonical, provenance.mode),
            folder,
            provenance,
            dir: offered.path.clone(),
        });
    }
    (candidates, skipped)
}

/// Skills left out, with why.
pub type Skipped = Vec<(String, install::Skip)>;
