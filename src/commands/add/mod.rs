//! `skills add`: fetch a source, pick skills, install them into agent dirs, record them in the
//! lock — all of it, or nothing.

use std::path::PathBuf;

use serde_json::json;

mod output;

use self::output::{Installed, describe_plan, list};
use crate::ask;
use crate::cli::{AddArgs, AddOptions};
use crate::error::{Error, ExitStatus};
use crate::install::{self, Limits, Planned, Staged, Transaction};
use crate::lock::{InstallMode, LockEntry};
use crate::offered::{Found, find_offered, open_offered, show_internal, split_source};
use crate::output::Printer;
use crate::project::{Scope, Target};
use crate::source::discover::Offered;
use crate::source::open::{Opened, Origin};

pub fn run(args: &AddArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let Some((input, options)) = split_source(args.source.as_ref(), &args.options) else {
        return Err(Error::msg("no source given").with_hint("`skills add owner/repo`, `skills add ./folder`, or a URL; `skills add --help` lists the forms"));
    };
    install_from(&input, &options, printer)
}

/// A project lock reads local sources inside its repository only (SECURITY.md): say so now when
/// the skills just installed came from a folder or `file://` repository elsewhere, rather than
/// when `install`, `check` or `update` of this lock first refuses them.
fn warn_unlockable(staged: &[Staged], lock: &crate::lock::Lock, scope: &Scope, printer: &Printer) {
    use crate::source::open::{Location, OpenError};
    let Some(entry) = staged
        .first()
        .and_then(|skill| lock.skills.get(&skill.planned.name))
    else {
        return;
    };
    if let Err(err @ OpenError::Outside { .. }) =
        Location::of_entry(entry, &scope.lock_dir(), &scope.source_env())
    {
        printer.warn(format_args!(
            "installed, but `install`, `check` and `update` of this lock will refuse it: {err}"
        ));
        printer.hint(
            "keep the source inside the project's repository, or add with `-g` to use a folder elsewhere",
        );
    }
}

/// Installs from the source `input`, as `options` say.
pub fn install_from(
    input: &str,
    args: &AddOptions,
    printer: &Printer,
) -> Result<ExitStatus, Error> {
    let scope = Scope::open(args.global, printer)?;
    let Found {
        opened,
        offered,
        settings: _,
    } = open_offered(input, &scope, args.full_depth, &args.limits, printer)?;
    let show_internal = show_internal();
    if args.list {
        return list(&offered, show_internal, &opened, args.json, printer);
    }
    // At a terminal, whatever the flags leave open is asked; elsewhere nothing ever is.
    let interactive = !args.yes && !args.all && !args.json && !args.dry_run && ask::terminal();
    let requested = requested(args, &opened);
    let chosen = if interactive && requested.is_empty() {
        ask::pick_skills(&offered, show_internal)?
    } else {
        choose(&offered, &requested, args, show_internal)?
    };
    let mut targets = if args.agents.is_empty() && !args.all {
        if interactive && args.subagents.is_empty() {
            ask::pick_agents(&scope)?
        } else if args.subagents.is_empty() {
            scope.default_targets()
        } else {
            Vec::new()
        }
    } else {
        let ids = if args.all {
            vec!["*".to_owned()]
        } else {
            args.agents.clone()
        };
        scope.targets_for(&ids)?
    };
    if !args.subagents.is_empty() {
        // Eve's own dir is a target only when `root` is among the subagents.
        targets.retain(|t| !t.agents.contains(&crate::agents::EVE));
        targets.extend(scope.eve_targets(&args.subagents)?);
    }
    // Eve alone gets copies, as from the reference (which rewrites Eve's frontmatter).
    let only_eve = targets
        .iter()
        .all(|t| t.agents.iter().all(|a| *a == crate::agents::EVE));
    let mode = if targets.len() > 1 && !args.copy && !only_eve {
        InstallMode::Symlink
    } else {
        InstallMode::Copy
    };
    let limits = Limits::from(&args.limits);

    let (planned, mut skipped) = plan(&chosen, &targets, &scope, mode, printer);
    let mut agents: Vec<String> = Vec::new();
    for agent in targets.iter().flat_map(|t| t.agents.iter()) {
        if !agents.iter().any(|a| a == agent) {
            agents.push((*agent).to_owned());
        }
    }
    let _guard = install::take_turn(&scope, printer)?;
    let mut lock = scope.read_lock()?;
    let mut transaction = install::transaction(&scope);
    let Conflicts {
        planned,
        conflicts,
        replaced,
    } = conflicts(planned, &lock, &opened.origin, args.force, &mut transaction)?;
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
    if args.dry_run {
        printer.plain(&describe_plan(
            &planned,
            opened.tree.as_ref(),
            limits,
            &scope,
            mode,
            &opened.origin,
        ))?;
        return Ok(ExitStatus::Success);
    }
    ask::confirm_install(args.yes || args.all, &planned, &targets, &scope, printer)?;
    let mut gate = crate::gate::Gate::new(&args.gate, printer)?;
    gate.remember_locked(&lock, &opened.origin.source);
    let (transaction, staged, more_skipped) = stage_all(
        transaction,
        opened.tree.as_ref(),
        planned,
        limits,
        (&mut gate, &opened.origin),
        printer,
    )?;
    skipped.extend(more_skipped);
    for name in &replaced {
        // `--force` gave their folder to a skill of another name.
        lock.skills.remove(name);
    }
    for skill in &staged {
        let previous = lock.skills.get(&skill.planned.name);
        let mut entry = lock_entry(skill, &opened.origin, &agents, mode, previous, scope.global);
        record_subagents(&mut entry, &args.subagents);
        entry.allow = gate.allowed_for(&skill.planned.name);
        lock.skills.insert(skill.planned.name.clone(), entry);
    }
    // Every skill refused by the gate: nothing to write, not even the lock.
    if !staged.is_empty() {
        crate::install::commit(transaction, Some((&lock, &scope.lock_path)), "installing")?;
    }
    warn_unlockable(&staged, &lock, &scope, printer);
    if !staged.is_empty() || args.json {
        let installed = Installed {
            staged: &staged,
            skipped: &skipped,
            agents: &agents,
            origin: &opened.origin,
            mode,
            scope: &scope,
        };
        installed.report(args.json, printer)?;
    }
    if !conflicts.is_empty() {
        printer.hint(format_args!(
            "{} skill(s) were not replaced; pass `--force` to replace them (local edits are lost)",
            conflicts.len()
        ));
    }
    Ok(if gate.refused_any() || !conflicts.is_empty() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// The lock's `subagents` (as the reference writes it: `""` for Eve's root agent), kept only
/// when Eve is installed for more than its root agent.
fn record_subagents(entry: &mut LockEntry, subagents: &[String]) {
    let names: Vec<String> = subagents
        .iter()
        .map(|s| match s.as_str() {
            "root" | "." => String::new(),
            other => other.to_owned(),
        })
        .collect();
    if names.is_empty() || names == [""] {
        entry.extra.remove("subagents");
    } else {
        entry.extra.insert("subagents".into(), json!(names));
    }
}

/// Skill names asked for: `--skill` plus `@skill` of the source string.
fn requested(args: &AddOptions, opened: &Opened) -> Vec<String> {
    let mut names = args.skills.clone();
    if let Some(skill) = &opened.skill {
        names.push(skill.clone());
    }
    if args.all {
        names.push("*".into());
    }
    names
}

/// The offered skills to install.
fn choose(
    offered: &[Offered],
    names: &[String],
    args: &AddOptions,
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
            _ if args.yes => Ok(visible.into_iter().cloned().collect()),
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
                return Err(
                    Error::msg(format!("the source offers no skill named `{name}`"))
                        .with_hint(format!("available: {}", available.join(", "))),
                );
            }
        }
    }
    Ok(chosen)
}

/// Where each chosen skill goes; a name that cannot be a folder name is skipped.
fn plan(
    chosen: &[Offered],
    targets: &[Target],
    scope: &Scope,
    mode: InstallMode,
    printer: &Printer,
) -> (Vec<Planned>, Skipped) {
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    for offered in chosen {
        let Some(folder) = crate::skill::name::folder_name(&offered.name) else {
            let reason = install::Skip::FolderName;
            printer.warn(format_args!("skipped `{}`: {reason}", offered.name));
            skipped.push((offered.name.clone(), reason));
            continue;
        };
        planned.push(Planned {
            name: offered.name.clone(),
            placements: install::placements(&folder, &dirs, &scope.canonical, mode),
            folder,
            source_dir: offered.path.clone(),
            skill_path: crate::source::tree::join(offered.path.as_str(), crate::skill::SKILL_MD),
            digest: offered.digest.clone(),
        });
    }
    (planned, skipped)
}

/// Skills left out, with why.
pub type Skipped = Vec<(String, install::Skip)>;

/// Reads each planned skill from the source, passes it through the install gate, and stages it;
/// a skill that cannot be installed (a symlink leaving the source, over a limit) is skipped and
/// reported, one the gate refuses too. Errors only when nothing is left and nothing was refused,
/// or when writing fails (then nothing is left behind either).
pub fn stage_all(
    mut transaction: Transaction,
    tree: &dyn crate::source::tree::SourceTree,
    planned: Vec<Planned>,
    limits: Limits,
    (gate, origin): (&mut crate::gate::Gate, &Origin),
    printer: &Printer,
) -> Result<(Transaction, Vec<Staged>, Skipped), Error> {
    let mut staged = Vec::new();
    let mut skipped = Vec::new();
    // The gate checks each skill on the thread pool while the next ones are read.
    let mut checked = crate::gate::Pipeline::new(gate, origin);
    for skill in planned {
        let payload = match install::collect(tree, &skill.source_dir, limits) {
            Ok(payload) => payload,
            Err(err) => {
                let reason = install::Skip::Install(err);
                printer.warn(format_args!("skipped `{}`: {reason}", skill.name));
                skipped.push((skill.name.clone(), reason));
                continue;
            }
        };
        for note in &payload.notes {
            printer.warn(format_args!("`{}`: {note}", skill.name));
        }
        checked.push(skill, payload);
        while let Some(passed) = checked.next(false, printer) {
            staged.push(stage_one(&mut transaction, passed)?);
        }
    }
    while let Some(passed) = checked.next(true, printer) {
        staged.push(stage_one(&mut transaction, passed)?);
    }
    drop(checked);
    skipped.extend(gate.refusals());
    if staged.is_empty() && !gate.refused_any() {
        // Why each was skipped is in its warning above; the error names them, and the hint
        // gives the distinct hints of those reasons (a limit to raise), if any.
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
        return Err(if hints.is_empty() {
            error
        } else {
            error.with_hint(hints.join("; "))
        });
    }
    Ok((transaction, staged, skipped))
}

/// Stages every placement of `skill`.
fn stage_one(transaction: &mut Transaction, passed: crate::gate::Passed) -> Result<Staged, Error> {
    let crate::gate::Passed {
        skill,
        payload,
        digests,
    } = passed;
    for placement in &skill.placements {
        transaction
            .stage(placement, &payload)
            .map_err(|err| install::SkillError::new(&skill.name, err))?;
    }
    Ok(Staged {
        computed_hash: payload.computed_hash,
        digests,
        planned: skill,
    })
}

/// The planned skills split by whether they may be written, from [`conflicts`].
pub struct Conflicts {
    /// What may be written.
    pub planned: Vec<Planned>,
    /// What may not without `--force`, each with why (naming both sources when there are two).
    pub conflicts: Vec<(String, String)>,
    /// Names whose lock entries `--force` gives up: their folder goes to a skill of another name.
    pub replaced: Vec<String>,
}

/// Folders the lock does not know are someone's work; a name locked from another source is
/// someone else's skill; an installed copy that differs from what the lock says was installed
/// holds local edits; a folder locked under another name (`PDF`, `pdf`) is another skill's.
/// Each is left out without `--force` (the others go in), and said.
pub fn conflicts(
    planned: Vec<Planned>,
    lock: &crate::lock::Lock,
    origin: &Origin,
    force: bool,
    transaction: &mut Transaction,
) -> Result<Conflicts, Error> {
    let mut out = Conflicts {
        planned: Vec::new(),
        conflicts: Vec::new(),
        replaced: Vec::new(),
    };
    for skill in planned {
        let mut problems = Vec::new();
        for (other, entry) in lock.skills.iter().filter(|(name, _)| {
            **name != skill.name
                && crate::skill::name::folder_name(name).as_deref() == Some(skill.folder.as_str())
        }) {
            problems.push(format!(
                "`{}` would go into the folder of `{other}`, installed from `{}`",
                skill.name, entry.source
            ));
            out.replaced.push(other.clone());
        }
        match lock.skills.get(&skill.name) {
            Some(entry) if !crate::source::identity::same(entry, &origin.source) => {
                problems.push(format!(
                    "`{}` is installed from `{}`, not from `{}`",
                    skill.name, entry.source, origin.source
                ));
            }
            Some(entry) => {
                problems.extend(install::edits(
                    &skill.name,
                    entry,
                    &skill.placements,
                    None,
                    transaction,
                )?);
            }
            None => {
                for placement in &skill.placements {
                    if transaction.exists(&placement.path)? {
                        problems.push(format!(
                            "`{}` exists and is not in the lockfile",
                            placement.path.display()
                        ));
                    }
                }
            }
        }
        if problems.is_empty() || force {
            out.planned.push(skill);
        } else {
            out.conflicts.push((skill.name, problems.join("; ")));
        }
    }
    if !force {
        out.replaced.clear();
    }
    Ok(out)
}

pub fn lock_entry(
    skill: &Staged,
    origin: &Origin,
    agents: &[String],
    mode: InstallMode,
    previous: Option<&LockEntry>,
    global: bool,
) -> LockEntry {
    let now = global.then(|| {
        jiff::Timestamp::now()
            .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string()
    });
    LockEntry {
        source: origin.source.clone(),
        source_type: Some(origin.source_type),
        source_url: origin.source_url.clone(),
        git_ref: origin.git_ref.clone(),
        skill_path: Some(skill.planned.skill_path.clone()),
        computed_hash: skill.computed_hash.clone(),
        commit: origin.commit.clone(),
        digest: skill
            .planned
            .digest
            .clone()
            .or_else(|| origin.digest.clone()),
        agents: agents.to_vec(),
        mode: Some(mode),
        files: skill.digests.clone(),
        allow: Vec::new(),
        installed_at: previous
            .and_then(|p| p.installed_at.clone())
            .or_else(|| now.clone()),
        updated_at: now,
        extra: previous.map(|p| p.extra.clone()).unwrap_or_default(),
    }
}
