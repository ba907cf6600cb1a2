//! `skills list`: installed skills with the agents whose dirs hold them and where they came from.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::{self, AGENTS, Agent};
use crate::cli::ListArgs;
use crate::error::{Error, ExitStatus};
use crate::index::{Entry, NameFilter, SkillIndex};
use crate::lock::{Lock, LockEntry, SourceType};
use crate::output::Printer;
use crate::project::Scope;
use crate::source::open::Location;

/// One row of `skills list`; also its `--json` item, which carries the fields of `npx skills
/// list --json` (`name`, `path`, `scope`, `agents` as display names, `source`, `sourceUrl`,
/// `sourceType`, null when the lock does not know the skill) and ours.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    name: String,
    /// The skill's folder, absolute (symlinks not resolved).
    path: String,
    scope: &'static str,
    agents: Vec<&'static str>,
    source: Option<String>,
    source_url: Option<String>,
    source_type: Option<&'static str>,
    description: String,
    /// Agent ids whose skills dir holds the skill (symlinks resolved).
    agent_ids: Vec<&'static str>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    git_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shadowed_by: Option<String>,
    /// The path shown in the table: relative to the project (`~/…` for the user's).
    #[serde(skip)]
    shown: String,
}

pub fn run(args: &ListArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    for id in &args.agents {
        if agents::find(id).is_none() {
            return Err(crate::project::ProjectError::unknown_agent(id).into());
        }
    }
    let scope = Scope::open(args.global, printer)?;
    let cwd = scope.project.clone();
    let mut index = SkillIndex::build_with(
        scope.roots(),
        &NameFilter::default(),
        crate::skill::Load::Frontmatter,
    )?;
    let lock = Some(scope.read_lock()?);
    // Copies of one locked skill for several agents (`add --copy`) are one skill.
    if let Some(lock) = &lock {
        crate::drift::fold_locked_copies(&mut index, lock);
    }
    let mut items: Vec<Item> = Vec::new();
    for entry in &index.entries {
        // As the reference: a SKILL.md without a name and a description is not a skill.
        if let Some(why) = unreadable(entry) {
            printer.warn(format_args!(
                "skipped `{}`: {why} (`skills lint` says more)",
                shown(&entry.dir, &cwd)
            ));
            continue;
        }
        let item = item(entry, &index, lock.as_ref(), &scope);
        let wanted = args.agents.is_empty()
            || args
                .agents
                .iter()
                .any(|a| item.agent_ids.contains(&a.as_str()));
        if wanted {
            items.push(item);
        }
    }
    if args.json {
        crate::json::print(&crate::json::Skills::new(&items), printer)?;
        return Ok(ExitStatus::Success);
    }
    if items.is_empty() {
        let scope = if args.global {
            "for this user"
        } else {
            "in this project"
        };
        printer.status(format_args!("No skills installed {scope}"));
        if !args.global {
            printer.status("hint: `skills list -g` lists the user's skills; `skills add owner/repo` installs some");
        }
        return Ok(ExitStatus::Success);
    }
    printer.table(&table(&items))?;
    Ok(ExitStatus::Success)
}

/// Why `entry` is not listed, if it is not.
fn unreadable(entry: &Entry) -> Option<String> {
    match &entry.skill {
        Err(err) => Some(crate::hint::one_line(err)),
        Ok(skill) if skill.name().is_none() || skill.description().is_none() => {
            Some("its SKILL.md has no frontmatter with a `name` and a `description`".into())
        }
        Ok(_) => None,
    }
}

fn item(entry: &Entry, index: &SkillIndex, lock: Option<&Lock>, scope: &Scope) -> Item {
    let name = entry.name();
    let description = entry
        .skill
        .as_ref()
        .ok()
        .and_then(crate::skill::Skill::description)
        .unwrap_or_default();
    let mut ids: Vec<&'static str> = Vec::new();
    for location in &entry.locations {
        for agent in agents_of(location, scope) {
            if !ids.contains(&agent.id) {
                ids.push(agent.id);
            }
        }
    }
    let locked = lock.and_then(|lock| lock.skills.get(&name));
    let cwd = &scope.project;
    Item {
        path: entry.dir.display().to_string(),
        shown: shown(&entry.dir, cwd),
        agents: ids
            .iter()
            .filter_map(|id| agents::find(id))
            .filter(|a| a.id != "universal")
            .map(|a| a.display_name)
            .collect(),
        agent_ids: ids,
        scope: if scope.global { "global" } else { "project" },
        source: locked.map(|l| source(l, scope)),
        source_url: locked.and_then(|l| l.source_url.clone()),
        source_type: locked.map(|l| l.source_type().as_str()),
        git_ref: locked.and_then(|l| l.git_ref.clone()),
        commit: locked.and_then(|l| l.commit.clone()),
        shadowed_by: entry
            .shadowed_by
            .and_then(|i| index.entries.get(i))
            .map(|e| shown(&e.dir, cwd)),
        name,
        description,
    }
}

/// The source as the reference gives it: a local one as an absolute path (the lock keeps it
/// relative to its own folder).
fn source(entry: &LockEntry, scope: &Scope) -> String {
    let env = scope.source_env();
    match Location::of_entry(entry, &scope.lock_dir(), &env) {
        Ok(Location::Folder(path)) if entry.source_type() == SourceType::Local => {
            path.display().to_string()
        }
        _ => entry.source.clone(),
    }
}

/// Agents that read the folder holding `location`: those whose skills dir it is, every
/// universal agent for the canonical `.agents/skills` (in the user's scope too, as the
/// reference), and Eve for its subagents' dirs.
fn agents_of(location: &Path, scope: &Scope) -> Vec<&'static Agent> {
    let Some(parent) = location.parent() else {
        return Vec::new();
    };
    let subagent = scope.subagent_dirs().iter().any(|d| d == parent);
    AGENTS
        .iter()
        .filter(|agent| {
            if subagent {
                return agent.id == agents::EVE;
            }
            let universal = agent.project_dir == agents::CANONICAL_DIR;
            (universal && parent == scope.canonical)
                || scope.agent_dir(agent).is_some_and(|dir| dir == parent)
        })
        .collect()
}

fn shown(path: &Path, cwd: &Path) -> String {
    let relative: PathBuf = path
        .strip_prefix(cwd)
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf);
    relative.to_string_lossy().into_owned()
}

/// Agents in a table cell, by id; the many agents that read the canonical dir are one
/// `universal`.
fn agents_cell(ids: &[&'static str]) -> String {
    let is_universal =
        |id: &&str| agents::find(id).is_some_and(|a| a.project_dir == agents::CANONICAL_DIR);
    let mut parts: Vec<&str> = Vec::new();
    if ids.iter().any(is_universal) {
        parts.push("universal");
    }
    parts.extend(ids.iter().filter(|id| !is_universal(id)));
    parts.join(", ")
}

fn table(items: &[Item]) -> crate::output::Table {
    let versions = items
        .iter()
        .any(|i| i.commit.is_some() || i.git_ref.is_some());
    let mut header = vec!["Name", "Agents", "Source"];
    if versions {
        header.push("Version");
    }
    header.extend(["Path", "Description"]);
    // The description is cut first to fit the terminal.
    let description_column = header.len() - 1;
    let mut table = crate::output::Table::new(&header).flexible(description_column);

    for item in items {
        // `--json` names the winner; the table only flags the loser.
        let name = match &item.shadowed_by {
            Some(_) => format!("{} (shadowed)", item.name),
            None => item.name.clone(),
        };

        let description = crate::output::single_line(&item.description, usize::MAX);
        let source = item.source.clone().unwrap_or_else(|| "local".to_owned());
        let mut cells = vec![name, agents_cell(&item.agent_ids), source];
        if versions {
            let version = match (&item.git_ref, &item.commit) {
                (Some(r), Some(c)) => format!("{r} ({})", crate::lock::short(c)),
                (None, Some(c)) => crate::lock::short(c).to_owned(),
                (Some(r), None) => r.clone(),
                (None, None) => String::new(),
            };
            cells.push(version);
        }
        cells.push(item.shown.clone());
        cells.push(description);
        table.row(cells);
    }
    table
}
