//! `skills remove`: take skills out of agent dirs and the lock — by name, by source, or all;
//! from every agent or only some.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::add::shown;
use super::scope::{Scope, lock_error};
use crate::cli::RemoveArgs;
use crate::error::{Error, ExitStatus};
use crate::install::Removal;
use crate::lock::Guard;
use crate::output::Printer;

/// What removing one skill does.
struct Plan {
    name: String,
    /// Folders and links to delete.
    paths: Vec<PathBuf>,
    /// Agents left with the skill (empty: the lock entry goes).
    remaining_agents: Vec<String>,
    keeps_entry: bool,
}

pub fn run(args: &RemoveArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    if args.names.is_empty() && !args.all {
        return Err(Error::msg("name the skills to remove").with_hint(
            "`skills remove NAME…`, `skills remove owner/repo`, or `skills remove --all`",
        ));
    }
    let scope = Scope::new(args.global)?;
    let settings = Scope::git_settings(false);
    let _guard = Guard::acquire(&scope.lock_path, &settings.cache, printer)
        .map_err(|err| Error::msg("cannot take the lockfile lock").with_source(err))?;
    let mut lock = scope.read_lock()?;
    let installed = installed(&scope)?;
    let names = names(args, &lock, &installed)?;
    let filter = if args.agents.is_empty() {
        None
    } else {
        Some(scope.targets_for(&args.agents)?)
    };
    let mut plans = Vec::new();
    for name in names {
        let locations = installed.get(&name).cloned().unwrap_or_default();
        let recorded = lock
            .skills
            .get(&name)
            .map(|e| e.agents.clone())
            .unwrap_or_default();
        plans.push(plan(
            &name,
            &locations,
            &recorded,
            filter.as_deref(),
            &scope,
            printer,
        ));
    }
    plans.retain(|p| !p.paths.is_empty() || !p.keeps_entry);
    if plans.is_empty() {
        printer.status("Nothing to remove");
        return Ok(ExitStatus::Success);
    }
    if args.dry_run {
        let mut text = String::from("Would remove:\n");
        for plan in &plans {
            for path in &plan.paths {
                let _ = writeln!(text, "  {}", shown(path, &scope));
            }
            if !plan.keeps_entry {
                let _ = writeln!(text, "  `{}` from the lockfile", plan.name);
            }
        }
        printer.data(&text)?;
        return Ok(ExitStatus::Success);
    }
    confirm(args.yes, &plans, printer)?;
    let mut removal = Removal::default();
    for plan in &plans {
        for path in &plan.paths {
            if let Err(err) = removal.remove(path) {
                removal.rollback();
                return Err(Error::msg(format!(
                    "cannot remove `{}`; nothing was changed",
                    path.display()
                ))
                .with_source(err));
            }
        }
        if plan.keeps_entry {
            if let Some(entry) = lock.skills.get_mut(&plan.name) {
                entry.agents.clone_from(&plan.remaining_agents);
            }
        } else {
            lock.skills.remove(&plan.name);
        }
    }
    if let Err(err) = lock.write(&scope.lock_path) {
        removal.rollback();
        return Err(lock_error(err));
    }
    removal.finish();
    if args.json {
        let removed: Vec<serde_json::Value> = plans
            .iter()
            .map(|p| json!({"name": p.name, "paths": p.paths.iter().map(|x| shown(x, &scope)).collect::<Vec<_>>(), "locked": p.keeps_entry}))
            .collect();
        let mut text = serde_json::to_string_pretty(&json!({"version": 1, "removed": removed}))?;
        text.push('\n');
        printer.data(&text)?;
    } else {
        for plan in &plans {
            let paths: Vec<String> = plan.paths.iter().map(|p| shown(p, &scope)).collect();
            printer.status(format_args!(
                "Removed {} ({})",
                plan.name,
                if paths.is_empty() {
                    "lock entry".into()
                } else {
                    paths.join(", ")
                }
            ));
        }
    }
    Ok(ExitStatus::Success)
}

/// Installed skills of the scope: name → every folder or link that holds it.
fn installed(scope: &Scope) -> Result<BTreeMap<String, Vec<PathBuf>>, Error> {
    let mut installed: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for (name, copies) in scope.installed()? {
        let paths = installed.entry(name).or_default();
        for location in copies.into_iter().flat_map(|copy| copy.locations) {
            if !paths.contains(&location) {
                paths.push(location);
            }
        }
    }
    Ok(installed)
}

/// The skill names the arguments mean: names, or sources (`owner/repo`) standing for their skills.
fn names(
    args: &RemoveArgs,
    lock: &crate::lock::Lock,
    installed: &BTreeMap<String, Vec<PathBuf>>,
) -> Result<Vec<String>, Error> {
    if args.all {
        let mut all: Vec<String> = lock
            .skills
            .keys()
            .chain(installed.keys())
            .cloned()
            .collect();
        all.sort();
        all.dedup();
        return Ok(all);
    }
    let mut out: Vec<String> = Vec::new();
    for arg in &args.names {
        let matched: Vec<String> = if lock.skills.contains_key(arg) || installed.contains_key(arg) {
            vec![arg.clone()]
        } else {
            lock.skills
                .iter()
                .filter(|(_, e)| e.source == *arg)
                .map(|(n, _)| n.clone())
                .collect()
        };
        if matched.is_empty() {
            let known: Vec<String> = installed
                .keys()
                .chain(lock.skills.keys())
                .map(|n| format!("`{n}`"))
                .collect();
            let hint = if known.is_empty() {
                "nothing is installed here (`-g` for the user's skills)".to_owned()
            } else {
                format!("installed: {}", known.join(", "))
            };
            return Err(
                Error::msg(format!("no installed skill or source named `{arg}`")).with_hint(hint),
            );
        }
        for name in matched {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    Ok(out)
}

/// What removing `name` from the agents of `filter` (all when `None`) takes away.
fn plan(
    name: &str,
    locations: &[PathBuf],
    recorded: &[String],
    filter: Option<&[super::scope::Target]>,
    scope: &Scope,
    printer: &Printer,
) -> Plan {
    let Some(targets) = filter else {
        return Plan {
            name: name.to_owned(),
            paths: locations.to_vec(),
            remaining_agents: Vec::new(),
            keeps_entry: false,
        };
    };
    let in_filter = |path: &Path| {
        targets
            .iter()
            .any(|t| path.parent() == Some(t.dir.as_path()))
    };
    let canonical = |path: &Path| path.parent() == Some(scope.canonical.as_path());
    let mut paths: Vec<PathBuf> = locations.iter().filter(|p| in_filter(p)).cloned().collect();
    let kept: Vec<&PathBuf> = locations.iter().filter(|p| !in_filter(p)).collect();
    let removed_ids: Vec<&str> = targets
        .iter()
        .flat_map(|t| t.agents.iter().copied())
        .collect();
    let remaining_agents: Vec<String> = recorded
        .iter()
        .filter(|a| !removed_ids.contains(&a.as_str()))
        .cloned()
        .collect();
    let links_into_canonical = kept
        .iter()
        .any(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()));
    if links_into_canonical && paths.iter().any(|p| canonical(p)) {
        // Other agents' links lead to the canonical copy: it stays while they use it.
        paths.retain(|p| !canonical(p));
        printer.warn(format_args!(
            "`{name}` stays in `{}`: other agents link to it",
            shown(&scope.canonical, scope)
        ));
    } else if !links_into_canonical && kept.len() == 1 && kept.iter().all(|p| canonical(p)) {
        // Only the canonical copy would be left, and no agent that reads it directly remains.
        let universal_left = remaining_agents.iter().any(|id| {
            crate::agents::find(id)
                .is_some_and(|a| scope.agent_dir(a).as_deref() == Some(scope.canonical.as_path()))
        });
        if !universal_left {
            paths.extend(kept.into_iter().cloned());
        }
    }
    let keeps_entry = paths.len() < locations.len();
    Plan {
        name: name.to_owned(),
        paths,
        remaining_agents,
        keeps_entry,
    }
}

fn confirm(yes: bool, plans: &[Plan], printer: &Printer) -> Result<(), Error> {
    if yes {
        return Ok(());
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(Error::msg(
            "not removing without confirmation, and there is no terminal to ask on",
        )
        .with_hint("pass `-y` to confirm"));
    }
    let names: Vec<&str> = plans.iter().map(|p| p.name.as_str()).collect();
    printer.status(format_args!("Remove {}?", names.join(", ")));
    let answer = dialoguer::Confirm::new()
        .with_prompt("Proceed")
        .default(false)
        .interact_on(&dialoguer::console::Term::stderr())
        .map_err(|err| {
            Error::msg("cannot read the answer").with_source(std::io::Error::other(err.to_string()))
        })?;
    if answer {
        Ok(())
    } else {
        Err(Error::msg("cancelled; nothing was removed"))
    }
}
