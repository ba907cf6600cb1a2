//! `skills add`: fetch a source, pick skills, install them into agent dirs, record them in the
//! lock — all of it, or nothing.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

use serde_json::json;

use super::scope::{Scope, Target};
use crate::cli::AddArgs;
use crate::error::{Error, ExitStatus};
use crate::install::{self, Limits, Placement, Transaction};
use crate::lock::{Guard, InstallMode, LockEntry};
use crate::output::Printer;
use crate::source::discover::{self, Offered, Options};
use crate::source::open::{self, OpenError, Opened, Origin};
use crate::source::{self as sources, SourceEnv};

/// One skill on its way in.
#[derive(Debug, Clone)]
pub struct Planned {
    pub name: String,
    pub folder: String,
    /// Its folder inside the source tree.
    pub source_dir: String,
    /// The SKILL.md inside the source.
    pub skill_path: String,
    /// What a web index says its bytes hash to.
    pub digest: Option<String>,
    pub placements: Vec<Placement>,
}

/// A skill staged for installing: what the lock records about it. Its bytes are written and
/// dropped as soon as it is staged, so memory stays flat however many skills come.
#[derive(Debug, Clone)]
pub struct Staged {
    pub planned: Planned,
    pub computed_hash: String,
    pub digests: std::collections::BTreeMap<String, String>,
}

pub fn open_error(err: OpenError) -> Error {
    let hint = err.hint();
    let error = Error::msg(err.to_string()).with_source(err);
    match hint {
        Some(hint) => error.with_hint(hint),
        None => error,
    }
}

pub fn install_error(name: &str, err: install::InstallError) -> Error {
    Error::msg(format!("cannot install `{name}`: {err}")).with_source(err)
}

/// `--skill` and `--agent` take several values (`-a claude-code codex`, as the reference), so
/// `skills add -a claude-code owner/repo` hands the source to `-a`. Skill names and agent ids
/// never hold `/`, `:` or a leading `.`/`~`; a value that does is the source.
fn split_source(args: &AddArgs) -> Result<(String, AddArgs), Error> {
    if let Some(source) = &args.source {
        return Ok((source.clone(), args.clone()));
    }
    let looks_like_source = |v: &String| v.contains(['/', ':', '\\']) || v.starts_with(['.', '~']);
    let mut rest = args.clone();
    if let Some(index) = rest.agents.iter().rposition(looks_like_source) {
        let source = rest.agents.remove(index);
        return Ok((source, rest));
    }
    if let Some(index) = rest.skills.iter().rposition(looks_like_source) {
        let source = rest.skills.remove(index);
        return Ok((source, rest));
    }

    Err(Error::msg("no source given").with_hint("`skills add owner/repo`, `skills add ./folder`, or a URL; `skills add --help` lists the forms"))
}

pub fn run(args: &AddArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let (input, args) = split_source(args)?;
    let args = &args;
    let scope = Scope::new(args.global)?;
    let env = SourceEnv::from_env(scope.project.clone());
    let source = sources::parse(&input, &env).map_err(|err| open_error(OpenError::Source(err)))?;

    let mut settings = Scope::git_settings(printer.progress());
    settings.web = crate::source::web::WebLimits::from(&args.limits);
    let lock_dir = scope
        .lock_path
        .parent()
        .map_or_else(|| scope.project.clone(), PathBuf::from);
    let opened =
        open::open(&source, &lock_dir, scope.global, &settings, None).map_err(open_error)?;
    // A web index lists its skills: nothing to search, nothing downloaded before choosing.
    let discovery = match &opened.offered {
        Some(offered) => discover::Discovery {
            skills: offered.clone(),
            searched: vec![opened.origin.source_url.clone().unwrap_or_default()],
            ..discover::Discovery::default()
        },
        None => discover::discover(
            opened.tree.as_ref(),
            &opened.base,
            Options {
                full_depth: args.full_depth,
            },
        ),
    };
    for warning in &discovery.warnings {
        printer.warn(warning);
    }
    if discovery.skills.is_empty() {
        return Err(Error::msg(format!("`{input}` offers no skills")).with_hint(format!(
            "searched {}; a skill is a folder with a SKILL.md that has a `name` and a `description`",
            discovery.searched.join(", ")
        )));
    }
    let show_internal = std::env::var_os(crate::env_vars::INSTALL_INTERNAL_SKILLS)
        .is_some_and(|v| v == "1" || v == "true");
    if args.list {
        return list(
            &discovery.skills,
            show_internal,
            &opened,
            args.json,
            printer,
        );
    }
    // At a terminal, whatever the flags leave open is asked; elsewhere nothing ever is.
    let interactive = !args.yes && !args.all && !args.json && !args.dry_run && terminal();
    let requested = requested(args, &opened);
    let chosen = if interactive && requested.is_empty() {
        pick_skills(&discovery.skills, show_internal)?
    } else {
        choose(&discovery.skills, &requested, args, show_internal)?
    };
    let targets = if args.agents.is_empty() && !args.all {
        if interactive {
            pick_agents(&scope)?
        } else {
            scope.default_targets()
        }
    } else {
        let ids = if args.all {
            vec!["*".to_owned()]
        } else {
            args.agents.clone()
        };
        scope.targets_for(&ids)?
    };
    let mode = if targets.len() > 1 && !args.copy {
        InstallMode::Symlink
    } else {
        InstallMode::Copy
    };
    let limits = Limits::from(&args.limits);

    let (planned, mut skipped) = plan(&chosen, &targets, &scope, mode, printer);
    let agents: Vec<String> = targets
        .iter()
        .flat_map(|t| t.agents.iter().map(|a| (*a).to_owned()))
        .collect();
    let _guard = Guard::acquire(&scope.lock_path, &settings.cache, printer)
        .map_err(|err| Error::msg("cannot take the lockfile lock").with_source(err))?;
    let mut lock = scope.read_lock()?;
    check_conflicts(&planned, &lock, &opened.origin, args.force)?;
    if args.dry_run {
        printer.data(&describe_plan(
            &planned,
            opened.tree.as_ref(),
            limits,
            &scope,
            mode,
            &opened.origin,
        ))?;
        return Ok(ExitStatus::Success);
    }
    confirm(args.yes || args.all, &planned, &targets, &scope, printer)?;
    let mut gate = crate::gate::Gate::new(&args.gate, printer)?;
    gate.remember_locked(&lock, &opened.origin.source);
    let (transaction, staged, more_skipped) = stage_all(
        opened.tree.as_ref(),
        planned,
        limits,
        (&mut gate, &opened.origin),
        printer,
    )?;
    skipped.extend(more_skipped);
    for skill in &staged {
        let previous = lock.skills.get(&skill.planned.name);
        let mut entry = lock_entry(skill, &opened.origin, &agents, mode, previous, scope.global);
        entry.allow = gate.allowed_for(&skill.planned.name);
        lock.skills.insert(skill.planned.name.clone(), entry);
    }
    // Every skill refused by the gate: nothing to write, not even the lock.
    if !staged.is_empty() {
        super::scope::commit(transaction, Some((&lock, &scope.lock_path)), "installing")?;
    }
    if !staged.is_empty() || args.json {
        report(
            &staged,
            &skipped,
            &opened.origin,
            mode,
            &scope,
            args.json,
            printer,
        )?;
    }
    Ok(if gate.refused_any() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Skill names asked for: `--skill` plus `@skill` of the source string.
fn requested(args: &AddArgs, opened: &Opened) -> Vec<String> {
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
    args: &AddArgs,
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
        let found = offered.iter().find(|s| {
            s.name.eq_ignore_ascii_case(name)
                || s.path
                    .rsplit('/')
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case(name))
        });
        match found {
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
) -> (Vec<Planned>, Vec<(String, String)>) {
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let mut planned = Vec::new();
    let mut skipped = Vec::new();
    for offered in chosen {
        let Some(folder) = install::folder_name(&offered.name) else {
            let reason = "its name cannot be a folder name (path separators, `..`, or no letters)"
                .to_owned();
            printer.warn(format_args!("skipped `{}`: {reason}", offered.name));
            skipped.push((offered.name.clone(), reason));
            continue;
        };
        planned.push(Planned {
            name: offered.name.clone(),
            placements: install::placements(&folder, &dirs, &scope.canonical, mode),
            folder,
            source_dir: offered.path.clone(),
            skill_path: crate::source::tree::join(&offered.path, crate::skill::SKILL_MD),
            digest: offered.digest.clone(),
        });
    }
    (planned, skipped)
}

/// Skills left out, with why.
pub type Skipped = Vec<(String, String)>;

/// Reads each planned skill from the source, passes it through the install gate, and stages it;
/// a skill that cannot be installed (a symlink leaving the source, over a limit) is skipped and
/// reported, one the gate refuses too. Errors only when nothing is left and nothing was refused,
/// or when writing fails (then nothing is left behind either).
pub fn stage_all(
    tree: &dyn crate::source::tree::SourceTree,
    planned: Vec<Planned>,
    limits: Limits,
    (gate, origin): (&mut crate::gate::Gate, &Origin),
    printer: &Printer,
) -> Result<(Transaction, Vec<Staged>, Skipped), Error> {
    let mut transaction = Transaction::default();
    let mut staged = Vec::new();
    let mut skipped = Vec::new();
    // The gate checks each skill on the thread pool while the next ones are read.
    let mut checked = crate::gate::Pipeline::new(gate, origin);
    for skill in planned {
        let payload = match install::collect(tree, &skill.source_dir, limits) {
            Ok(payload) => payload,
            Err(err) => {
                let reason = crate::error::one_line(&err);
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
        return Err(
            Error::msg("nothing to install: every chosen skill was skipped").with_hint(
                skipped
                    .iter()
                    .map(|(n, r)| format!("`{n}`: {r}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        );
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
            .map_err(|err| install_error(&skill.name, err))?;
    }
    Ok(Staged {
        computed_hash: payload.computed_hash,
        digests,
        planned: skill,
    })
}

/// Folders the lock does not know are someone's work; a name locked from another source is
/// someone else's skill. Both need `--force`.
pub fn check_conflicts(
    planned: &[Planned],
    lock: &crate::lock::Lock,
    origin: &Origin,
    force: bool,
) -> Result<(), Error> {
    if force {
        return Ok(());
    }
    let mut problems = Vec::new();
    for skill in planned {
        match lock.skills.get(&skill.name) {
            Some(entry) if entry.source != origin.source => {
                problems.push(format!(
                    "`{}` is installed from `{}`",
                    skill.name, entry.source
                ));
            }
            Some(_) => {}
            None => {
                for placement in &skill.placements {
                    if std::fs::symlink_metadata(&placement.path).is_ok() {
                        problems.push(format!(
                            "`{}` exists and is not in the lockfile",
                            placement.path.display()
                        ));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::msg(format!(
        "not replacing what is there: {}",
        problems.join("; ")
    ))
    .with_hint("pass `--force` to replace it (local edits are lost)"))
}

fn terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

#[expect(
    clippy::needless_pass_by_value,
    reason = "used as `map_err(prompt_error)`"
)]
fn prompt_error(err: dialoguer::Error) -> Error {
    Error::msg("cannot read the answer").with_source(std::io::Error::other(err.to_string()))
}

/// Asks which of the offered skills to install (one offered skill is not asked about).
fn pick_skills(offered: &[Offered], show_internal: bool) -> Result<Vec<Offered>, Error> {
    let visible: Vec<&Offered> = offered
        .iter()
        .filter(|s| show_internal || !s.internal)
        .collect();
    if let [one] = visible.as_slice() {
        return Ok(vec![(*one).clone()]);
    }
    let items: Vec<String> = visible
        .iter()
        .map(|s| {
            format!(
                "{}  {}",
                s.name,
                crate::output::single_line(&s.description, 70)
            )
        })
        .collect();
    let picked = dialoguer::MultiSelect::new()
        .with_prompt("Skills to install (space selects, enter confirms)")
        .items(&items)
        .max_length(15)
        .interact_on_opt(&dialoguer::console::Term::stderr())
        .map_err(prompt_error)?;
    match picked {
        Some(indexes) if !indexes.is_empty() => {
            Ok(indexes.into_iter().map(|i| visible[i].clone()).collect())
        }
        _ => Err(Error::msg("no skill selected; nothing was installed")),
    }
}

/// Asks which agents to install for; the ones `add` would pick by itself are preselected.
fn pick_agents(scope: &Scope) -> Result<Vec<Target>, Error> {
    let defaults: Vec<&str> = scope
        .default_targets()
        .iter()
        .flat_map(|t| t.agents.clone())
        .collect();
    let agents: Vec<&crate::agents::Agent> = crate::agents::AGENTS
        .iter()
        .filter(|a| (!a.hidden || defaults.contains(&a.id)) && scope.agent_dir(a).is_some())
        .collect();
    let items: Vec<String> = agents
        .iter()
        .map(|a| {
            let dir = scope
                .agent_dir(a)
                .map(|d| shown(&d, scope))
                .unwrap_or_default();
            format!("{}  {dir}", a.display_name)
        })
        .collect();
    let preselected: Vec<bool> = agents.iter().map(|a| defaults.contains(&a.id)).collect();
    let picked = dialoguer::MultiSelect::new()
        .with_prompt("Agents to install for (space selects, enter confirms)")
        .items(&items)
        .defaults(&preselected)
        .max_length(15)
        .interact_on_opt(&dialoguer::console::Term::stderr())
        .map_err(prompt_error)?;
    match picked {
        Some(indexes) if !indexes.is_empty() => {
            let ids: Vec<String> = indexes
                .into_iter()
                .map(|i| agents[i].id.to_owned())
                .collect();
            scope.targets_for(&ids)
        }
        _ => Err(Error::msg("no agent selected; nothing was installed")),
    }
}

fn confirm(
    yes: bool,
    planned: &[Planned],
    targets: &[Target],
    scope: &Scope,
    printer: &Printer,
) -> Result<(), Error> {
    if yes {
        return Ok(());
    }
    if !terminal() {
        return Err(Error::msg(
            "not installing without confirmation, and there is no terminal to ask on",
        )
        .with_hint("pass `-y` to confirm (with `--skill` and `-a` to choose skills and agents)"));
    }
    let dirs: Vec<String> = targets.iter().map(|t| shown(&t.dir, scope)).collect();
    let names: Vec<&str> = planned.iter().map(|p| p.name.as_str()).collect();
    printer.status(format_args!(
        "Install {} into {}?",
        names.join(", "),
        dirs.join(", ")
    ));
    let answer = dialoguer::Confirm::new()
        .with_prompt("Proceed")
        .default(true)
        .interact_on(&dialoguer::console::Term::stderr())
        .map_err(prompt_error)?;
    if answer {
        Ok(())
    } else {
        Err(Error::msg("cancelled; nothing was installed"))
    }
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

pub fn shown(path: &std::path::Path, scope: &Scope) -> String {
    let base = if scope.global {
        dirs::home_dir().unwrap_or_default()
    } else {
        scope.project.clone()
    };
    match path.strip_prefix(&base) {
        Ok(rel) if scope.global => format!("~/{}", rel.display()),
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

fn origin_label(origin: &Origin) -> String {
    match &origin.commit {
        Some(commit) => format!("{}@{}", origin.source, &commit[..commit.len().min(12)]),
        None => origin.source.clone(),
    }
}

/// What a dry run shows: each skill (read and checked, then dropped) and where it would go.
fn describe_plan(
    planned: &[Planned],
    tree: &dyn crate::source::tree::SourceTree,
    limits: Limits,
    scope: &Scope,
    mode: InstallMode,
    origin: &Origin,
) -> String {
    let mut out = format!(
        "Would install from {} ({}):\n",
        origin_label(origin),
        mode.as_str()
    );
    for skill in planned {
        match install::collect(tree, &skill.source_dir, limits) {
            Ok(payload) => {
                let _ = writeln!(out, "  {} ({} files)", skill.name, payload.files.len());
            }
            Err(err) => {
                let _ = writeln!(out, "  {} (would be skipped: {err})", skill.name);
                continue;
            }
        }
        for placement in &skill.placements {
            let path = shown(&placement.path, scope);
            let _ = match &placement.link {
                Some(target) => writeln!(out, "    {path} -> {}", target.display()),
                None => writeln!(out, "    {path}"),
            };
        }
    }
    out
}

fn report(
    staged: &[Staged],
    skipped: &[(String, String)],
    origin: &Origin,
    mode: InstallMode,
    scope: &Scope,
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let installed: Vec<serde_json::Value> = staged
            .iter()
            .map(|s| {
                json!({
                    "name": s.planned.name,
                    "folder": s.planned.folder,
                    "paths": s.planned.placements.iter().map(|p| shown(&p.path, scope)).collect::<Vec<_>>(),
                    "mode": mode.as_str(),
                    "hash": s.computed_hash,
                    "files": s.digests.len(),
                })
            })
            .collect();
        let skipped: Vec<serde_json::Value> = skipped
            .iter()
            .map(|(n, r)| json!({"name": n, "reason": r}))
            .collect();
        let document = json!({
            "version": 1,
            "source": origin.source,
            "sourceType": origin.source_type.as_str(),
            "commit": origin.commit,
            "scope": if scope.global { "global" } else { "project" },
            "installed": installed,
            "skipped": skipped,
        });
        let mut text = serde_json::to_string_pretty(&document)?;
        text.push('\n');
        return printer.data(&text);
    }
    printer.status(format_args!(
        "Installed {} skill(s) from {}:",
        staged.len(),
        origin_label(origin)
    ));
    for skill in staged {
        let paths: Vec<String> = skill
            .planned
            .placements
            .iter()
            .map(|p| shown(&p.path, scope))
            .collect();
        printer.status(format_args!(
            "  {} → {} ({})",
            skill.planned.name,
            paths.join(", "),
            mode.as_str()
        ));
    }
    Ok(())
}

/// `--list`: what the source offers, as a table or JSON, and nothing installed.
fn list(
    offered: &[Offered],
    show_internal: bool,
    opened: &Opened,
    as_json: bool,
    printer: &Printer,
) -> Result<ExitStatus, Error> {
    let visible: Vec<&Offered> = offered
        .iter()
        .filter(|s| show_internal || !s.internal)
        .collect();
    if as_json {
        let skills: Vec<serde_json::Value> = visible
            .iter()
            .map(|s| json!({"name": s.name, "description": s.description, "path": s.path}))
            .collect();
        let document = json!({"version": 1, "source": opened.origin.source, "commit": opened.origin.commit, "skills": skills});
        let mut text = serde_json::to_string_pretty(&document)?;
        text.push('\n');
        printer.data(&text)?;
        return Ok(ExitStatus::Success);
    }
    let mut table = crate::output::table(&["Name", "Path", "Description"]);
    for skill in &visible {
        let mut row = comfy_table::Row::from([
            skill.name.clone(),
            if skill.path.is_empty() {
                ".".to_owned()
            } else {
                skill.path.clone()
            },
            crate::output::single_line(&skill.description, usize::MAX),
        ]);
        row.max_height(1);
        table.add_row(row);
    }
    printer.data(&format!("{table}\n"))?;
    printer.status(format_args!(
        "{} skill(s) in {}",
        visible.len(),
        origin_label(&opened.origin)
    ));
    Ok(ExitStatus::Success)
}
