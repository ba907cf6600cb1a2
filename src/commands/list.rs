//! `skills list`: installed skills with the agents whose dirs hold them and where they came from.

use std::path::{Path, PathBuf};

use comfy_table::Row;
use serde::Serialize;

use crate::agents::{self, AGENTS, Agent};
use crate::cli::ListArgs;
use crate::error::{Error, ExitStatus};
use crate::index::{self, Entry, NameFilter, SkillIndex};
use crate::lock::{Lock, PROJECT_LOCK};
use crate::output::Printer;

/// One row of `skills list`; also its `--json` item.
#[derive(Debug, Serialize)]
struct Item {
    name: String,
    description: String,
    path: String,
    /// Agent ids whose skills dir holds the skill (symlinks resolved).
    agents: Vec<&'static str>,
    scope: &'static str,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_type: Option<&'static str>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    git_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shadowed_by: Option<String>,
}

pub fn run(args: &ListArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    for id in &args.agents {
        if agents::find(id).is_none() {
            return Err(Error::msg(format!("unknown agent `{id}`"))
                .with_hint("agent ids look like `claude-code`, `codex`, `cursor`, `sisu`"));
        }
    }
    let cwd = super::current_dir()?;
    let roots = if args.global {
        index::global_roots()
    } else {
        index::project_roots(&cwd)
    };
    let index = SkillIndex::build_with(
        roots,
        &NameFilter::default(),
        crate::skill::Load::Frontmatter,
    )?;
    let lock = if args.global {
        None
    } else {
        Lock::read(&cwd.join(PROJECT_LOCK)).map_err(lock_error)?
    };
    let items: Vec<Item> = index
        .entries
        .iter()
        .map(|entry| item(entry, &index, lock.as_ref(), &cwd, args.global))
        .filter(|item| {
            args.agents.is_empty()
                || args
                    .agents
                    .iter()
                    .any(|a| item.agents.contains(&a.as_str()))
        })
        .collect();
    if args.json {
        let mut text =
            serde_json::to_string_pretty(&serde_json::json!({"version": 1, "skills": items}))?;
        text.push('\n');
        printer.data(&text)?;
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
    printer.data(&table(&items))?;
    Ok(ExitStatus::Success)
}

fn lock_error(err: crate::lock::LockError) -> Error {
    let hint = err.hint();
    let error = Error::msg(err.to_string()).with_source(err);
    match hint {
        Some(hint) => error.with_hint(hint),
        None => error,
    }
}

fn item(entry: &Entry, index: &SkillIndex, lock: Option<&Lock>, cwd: &Path, global: bool) -> Item {
    let name = entry.name();
    let description = entry
        .skill
        .as_ref()
        .ok()
        .and_then(crate::skill::Skill::description)
        .unwrap_or_else(|| "(cannot be read; `skills lint` says why)".into());
    let mut agents: Vec<&'static str> = Vec::new();
    for location in &entry.locations {
        for agent in agents_of(location, cwd, global) {
            if !agents.contains(&agent.id) {
                agents.push(agent.id);
            }
        }
    }
    let locked = lock.and_then(|lock| lock.skills.get(&name));
    Item {
        path: shown(&entry.dir, cwd),
        agents,
        scope: if global { "global" } else { "project" },
        source: locked.map_or_else(|| "local".to_owned(), |l| l.source.clone()),
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

/// Agents whose skills dir is the folder holding `location`.
fn agents_of(location: &Path, cwd: &Path, global: bool) -> Vec<&'static Agent> {
    let Some(parent) = location.parent() else {
        return Vec::new();
    };
    AGENTS
        .iter()
        .filter(|agent| {
            if global {
                agent.global_path().is_some_and(|dir| dir == parent)
            } else {
                cwd.join(agent.project_dir) == parent
            }
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

fn table(items: &[Item]) -> String {
    let versions = items
        .iter()
        .any(|i| i.commit.is_some() || i.git_ref.is_some());
    let mut header = vec!["Name", "Agents", "Source"];
    if versions {
        header.push("Version");
    }
    header.extend(["Path", "Description"]);
    // Every column keeps its content; only the description is cut to fit the terminal.
    let fixed = header.len() - 1;
    let mut table = crate::output::table(&header);
    table.set_constraints(
        std::iter::repeat_n(comfy_table::ColumnConstraint::ContentWidth, fixed).chain([
            comfy_table::ColumnConstraint::LowerBoundary(comfy_table::Width::Fixed(12)),
        ]),
    );

    for item in items {
        // `--json` names the winner; the table only flags the loser.
        let name = match &item.shadowed_by {
            Some(_) => format!("{} (shadowed)", item.name),
            None => item.name.clone(),
        };

        let description = crate::output::single_line(&item.description, usize::MAX);
        let mut cells = vec![name, agents_cell(&item.agents), item.source.clone()];
        if versions {
            let version = match (&item.git_ref, &item.commit) {
                (Some(r), Some(c)) => format!("{r} ({})", &c[..c.len().min(7)]),
                (None, Some(c)) => c[..c.len().min(7)].to_owned(),
                (Some(r), None) => r.clone(),
                (None, None) => String::new(),
            };
            cells.push(version);
        }
        cells.push(item.path.clone());
        cells.push(description);
        let mut row = Row::from(cells);
        row.max_height(1);
        table.add_row(row);
    }
    format!("{table}\n")
}
