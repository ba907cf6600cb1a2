//! `skills remove`: take skills out of agent dirs and the lock — by name, by source, or all;
//! from every agent or only some.
//!
//! `--all` means every skill the lockfile lists (with the links to it), never a folder that no
//! lock lists: such a folder was made by hand (or copied in), and only naming it removes it.
//! Each one kept is said, with the command that would remove it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::RemoveArgs;
use crate::error::{Error, ExitStatus};
use crate::output::Printer;
use crate::project::{Scope, shown};

/// What removing one skill does.
struct Plan {
    name: String,
    /// Folders and links to delete.
    paths: Vec<PathBuf>,
    /// Agents left with the skill (empty: the lock entry goes).
    remaining_agents: Vec<String>,
    keeps_entry: bool,
}

/// `remove --json`: each skill removed (with `--dry-run`: that would be), the paths deleted, and
/// what became of its lock entry.
#[derive(Serialize)]
struct JsonRemove<'a> {
    version: u32,
    dry_run: bool,
    removed: Vec<JsonRemoved<'a>>,
}

#[derive(Serialize)]
struct JsonRemoved<'a> {
    name: &'a str,
    paths: Vec<String>,
    /// `removed` (it was in the lockfile and is no longer), `kept` (other agents still have it),
    /// or `none` (the lockfile never listed it).
    lock_entry: &'static str,
}

impl<'a> JsonRemove<'a> {
    fn new(plans: &'a [Plan], lock: &crate::lock::Lock, scope: &Scope, dry_run: bool) -> Self {
        JsonRemove {
            version: crate::json::VERSION,
            dry_run,
            removed: plans
                .iter()
                .map(|p| JsonRemoved {
                    name: &p.name,
                    paths: p.paths.iter().map(|x| shown(x, scope)).collect(),
                    lock_entry: if !lock.skills.contains_key(&p.name) {
                        "none"
                    } else if p.keeps_entry {
                        "kept"
                    } else {
                        "removed"
                    },
                })
                .collect(),
        }
    }
}

pub fn run(args: &RemoveArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let mut requested: Vec<String> = args.names.iter().chain(&args.skills).cloned().collect();
    // `--skill '*'` is `--all`, as in the reference; `--all` needs no confirmation there either.
    let all = args.all || requested.iter().any(|n| n == "*");
    requested.retain(|n| n != "*");
    if all && !requested.is_empty() {
        return Err(
            Error::msg("`--all` (or `*`) and skill names do not go together").with_hint(
                "`skills remove --all` removes every skill; name skills to remove only those",
            ),
        );
    }
    // No names: at a terminal, a picker of what is installed (as the reference has); elsewhere,
    // which names to pass.
    let pick = requested.is_empty() && !all;
    if pick && !crate::ask::terminal() {
        return Err(Error::msg("name the skills to remove").with_hint(
            "`skills remove NAME…`, `skills remove owner/repo`, or `skills remove --all`",
        ));
    }
    let scope = Scope::open(args.global, printer)?;
    let _guard = crate::install::take_turn(&scope, printer)?;
    let lock_existed = scope.lock_path.exists();
    let mut lock = scope.read_lock()?;
    let installed = installed(&scope)?;
    if pick {
        if installed.is_empty() {
            printer.status("Nothing to remove");
            return Ok(ExitStatus::Success);
        }
        let choices: Vec<(String, String)> = installed
            .iter()
            .map(|(name, paths)| {
                let shown: Vec<String> = paths.iter().map(|p| shown(p, &scope)).collect();
                (name.clone(), shown.join(", "))
            })
            .collect();
        requested = crate::ask::pick_installed(&choices)?;
    }
    let names = if all {
        let (locked, unlocked) = every_name(&lock, &installed);
        for name in &unlocked {
            let paths: Vec<String> = installed
                .get(name)
                .into_iter()
                .flatten()
                .map(|p| shown(p, &scope))
                .collect();
            printer.warn(format_args!(
                "kept `{name}` ({}): no lockfile lists it, so `--all` leaves it; `skills remove {name}{}` removes it",
                paths.join(", "),
                if scope.global { " -g" } else { "" }
            ));
        }
        locked
    } else {
        names(&requested, &lock, &installed, printer)
    };
    let filter = if args.agents.is_empty() {
        None
    } else {
        let mut targets = scope.targets_for(&args.agents)?;
        if targets
            .iter()
            .any(|t| t.agents.contains(&crate::agents::EVE))
        {
            // Eve's subagents are Eve too.
            let subagents: Vec<String> = scope
                .subagent_dirs()
                .iter()
                .filter_map(|d| d.parent()?.file_name()?.to_str().map(str::to_owned))
                .collect();
            targets.extend(scope.eve_targets(&subagents)?);
        }
        Some(targets)
    };
    let mut plans = Vec::new();
    for name in names {
        let mut locations = installed.get(&name).cloned().unwrap_or_default();
        if all {
            // What the lock lists is its skill's folder: another folder whose SKILL.md gives
            // the same name (a copy the user made to change) was made by hand.
            let folder = folder_key(&name);
            let (listed, by_hand): (Vec<PathBuf>, Vec<PathBuf>) = locations
                .into_iter()
                .partition(|path| path.file_name().is_some_and(|f| *f == *folder));
            for path in &by_hand {
                printer.warn(format_args!(
                    "kept `{}`: its SKILL.md names it `{name}`, but the lockfile installs `{name}` in `{folder}`, so `--all` leaves it; delete it yourself if you mean to",
                    shown(path, &scope)
                ));
            }
            locations = listed;
        }
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
    if args.dry_run && args.json {
        crate::json::print(&JsonRemove::new(&plans, &lock, &scope, true), printer)?;
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
        printer.plain(&text)?;
        return Ok(ExitStatus::Success);
    }
    if !(args.yes || all || confirmed(&plans, &lock, &scope, printer)?) {
        return Ok(ExitStatus::Failure);
    }
    // What the lock listed, for `--json` after the entries are gone.
    let listed = lock.clone();
    let mut transaction = crate::install::transaction(&scope);
    for plan in &plans {
        for path in &plan.paths {
            transaction.remove(path)?;
        }
        if plan.keeps_entry {
            if let Some(entry) = lock.skills.get_mut(&plan.name) {
                entry.agents.clone_from(&plan.remaining_agents);
            }
        } else {
            lock.skills.remove(&plan.name);
        }
    }
    // A project that had no lockfile does not get an empty one.
    let write_lock = lock_existed || !lock.skills.is_empty();
    crate::install::commit(
        transaction,
        write_lock.then_some((&lock, scope.lock_path.as_path())),
        "removing",
    )?;
    if args.json {
        crate::json::print(&JsonRemove::new(&plans, &listed, &scope, false), printer)?;
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

/// The folder name a skill name makes (as the lock installs it), else the name in lower case:
/// how names are compared.
fn folder_key(name: &str) -> String {
    crate::skill::name::folder_name(name).unwrap_or_else(|| name.to_lowercase())
}

/// What `--all` removes: the skills the lock lists, and the installed skills of the same names
/// (compared as the folder names they make); then the installed skills no lock lists.
fn every_name(
    lock: &crate::lock::Lock,
    installed: &BTreeMap<String, Vec<PathBuf>>,
) -> (Vec<String>, Vec<String>) {
    let key = folder_key;
    let locked_keys: Vec<String> = lock.skills.keys().map(|name| key(name)).collect();
    let (mut locked, unlocked): (Vec<String>, Vec<String>) = installed
        .keys()
        .cloned()
        .partition(|name| locked_keys.contains(&key(name)));
    locked.extend(lock.skills.keys().cloned());
    locked.sort();
    locked.dedup();
    (locked, unlocked)
}

/// The skill names the arguments mean: names in any case (compared as the folder names they
/// make, as the reference does), or sources (`owner/repo`) standing for their skills. A name
/// that matches nothing is a warning: removing what is not there is already done.
fn names(
    requested: &[String],
    lock: &crate::lock::Lock,
    installed: &BTreeMap<String, Vec<PathBuf>>,
    printer: &Printer,
) -> Vec<String> {
    let key = folder_key;
    let known: Vec<&String> = installed.keys().chain(lock.skills.keys()).collect();
    let mut out: Vec<String> = Vec::new();
    for arg in requested {
        let wanted = key(arg);
        let mut matched: Vec<String> = known
            .iter()
            .filter(|name| key(name) == wanted)
            .map(|name| (*name).clone())
            .collect();
        if matched.is_empty() {
            matched = lock
                .skills
                .iter()
                .filter(|(_, e)| e.source == *arg)
                .map(|(n, _)| n.clone())
                .collect();
        }
        if matched.is_empty() {
            let hint = if known.is_empty() {
                " (nothing is installed here; `-g` for the user's skills)".to_owned()
            } else {
                String::new()
            };
            printer.warn(format_args!(
                "no installed skill or source named `{arg}`{hint}"
            ));
        }
        for name in matched {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// What removing `name` from the agents of `filter` (all when `None`) takes away.
fn plan(
    name: &str,
    locations: &[PathBuf],
    recorded: &[String],
    filter: Option<&[crate::project::Target]>,
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

/// Asks at a terminal. Without one, says what would be removed and that `-y` is needed, and
/// removes nothing.
fn confirmed(
    plans: &[Plan],
    lock: &crate::lock::Lock,
    scope: &Scope,
    printer: &Printer,
) -> Result<bool, Error> {
    let mut listing = String::new();
    for plan in plans {
        let paths: Vec<String> = plan.paths.iter().map(|p| shown(p, scope)).collect();
        let what = if paths.is_empty() {
            "lock entry".to_owned()
        } else {
            paths.join(", ")
        };
        let edits = if edited(plan, lock) {
            " — it has local edits, which are lost"
        } else {
            ""
        };
        let _ = write!(listing, "\n  {} ({what}){edits}", plan.name);
    }
    if !crate::ask::terminal() {
        printer.error(
            &Error::msg(format!(
                "not removing without confirmation, and there is no terminal to ask on; would remove:{listing}"
            ))
            .with_hint("pass `-y` to remove them"),
        );
        return Ok(false);
    }
    printer.status(format_args!("Remove:{listing}"));
    if crate::ask::yes_no("Proceed", false)? {
        Ok(true)
    } else {
        Err(crate::ask::AskError::Cancelled("removed").into())
    }
}

/// Whether a copy `plan` removes differs from what the lock records for it (edited by hand).
fn edited(plan: &Plan, lock: &crate::lock::Lock) -> bool {
    let Some(entry) = lock.skills.get(&plan.name) else {
        return false;
    };
    plan.paths.iter().any(|path| {
        let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        !is_link
            && crate::install::installed(path)
                .and_then(Result::ok)
                .is_some_and(|now| {
                    if entry.files.is_empty() {
                        now.computed_hash != entry.computed_hash
                    } else {
                        now.digests() != entry.files
                    }
                })
    })
}
