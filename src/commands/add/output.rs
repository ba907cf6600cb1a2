//! What `skills add` prints: the skills a source offers (`--list`), the plan of a dry run, and
//! the report of what was installed (human lines on stderr, or one JSON document).

use std::fmt::Write as _;

use serde::Serialize;

use crate::error::{Error, ExitStatus};
use crate::install::{self, Candidate, Limits, Outcome};
use crate::lock::{InstallMode, LockEntry, SourceType};
use crate::output::Printer;
use crate::project::{Scope, shown};
use crate::source::discover::Offered;
use crate::source::open::{Opened, Origin};

/// More agent dirs than this per skill are summarised in `add`'s report.
const MANY_DIRS: usize = 3;

pub fn origin_label(origin: &Origin) -> String {
    match &origin.commit {
        Some(commit) => format!("{}@{}", origin.source, crate::lock::short(commit)),
        None => origin.source.clone(),
    }
}

/// What a dry run shows: each skill (read and checked, then dropped) and where it would go.
pub fn describe_plan(
    planned: &[&Candidate],
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
        match install::collect(tree, &skill.dir, limits) {
            Ok(payload) => {
                let _ = writeln!(out, "  {} ({} files)", skill.name, payload.files.len());
            }
            Err(err) => {
                let _ = writeln!(
                    out,
                    "  {} (would be skipped: {})",
                    skill.name,
                    err.skip_reason()
                );
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

/// `add --json`: the source, then one item per skill installed or refused.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonAdd<'a> {
    version: u32,
    source: &'a str,
    source_type: &'a str,
    commit: Option<&'a str>,
    scope: &'static str,
    skills: Vec<JsonAdded<'a>>,
}

/// An item of `add --json`'s `skills`: installed, or skipped with the reason (a refusal of the
/// install gate among them).
#[derive(Serialize)]
#[serde(untagged)]
enum JsonAdded<'a> {
    Installed(Box<JsonInstalled<'a>>),
    Skipped {
        name: &'a str,
        status: &'static str,
        reason: String,
    },
}

/// An installed skill: the fields of `npx skills add --json` first, in its order, then ours.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonInstalled<'a> {
    name: &'a str,
    status: &'static str,
    source: &'a str,
    #[serde(rename = "ref")]
    git_ref: Option<&'a str>,
    hash: &'a str,
    path: Option<String>,
    scope: &'static str,
    agents: &'a [&'a str],
    mode: &'static str,
    /// Always null: the reference's field, which our install gate does not fill.
    security: Option<()>,
    folder: &'a str,
    paths: Vec<String>,
    agent_ids: &'a [String],
    commit: Option<&'a str>,
    files: usize,
}

/// `add --list --json`: what the source offers.
#[derive(Serialize)]
struct JsonOffers<'a> {
    version: u32,
    source: &'a str,
    commit: Option<&'a str>,
    skills: Vec<JsonOffer<'a>>,
}

#[derive(Serialize)]
struct JsonOffer<'a> {
    name: &'a str,
    description: &'a str,
    path: &'a str,
}

/// What one `add` installed, for its report.
pub struct Installed<'a> {
    /// Outcomes written or found in place, with their lock entries.
    pub skills: &'a [(&'a Outcome, &'a LockEntry)],
    pub skipped: &'a [(String, crate::install::Skip)],
    pub agents: &'a [String],
    pub origin: &'a Origin,
    pub mode: InstallMode,
    pub scope: &'a Scope,
}

impl Installed<'_> {
    /// The report: a JSON document whose `skills` items carry the fields of `npx skills add
    /// --json` (`name`, `status`, `source`, `ref`, `hash`, `path`, `scope`, `agents` as display
    /// names, `mode`, `security`) and ours, or lines on stderr.
    pub fn report(&self, as_json: bool, printer: &Printer) -> Result<(), Error> {
        let Installed {
            skills: installed,
            skipped,
            agents,
            origin,
            mode,
            scope,
        } = *self;
        if !as_json {
            printer.status(format_args!(
                "Installed {} skill(s) from {}:",
                installed.len(),
                origin_label(origin)
            ));
            // Many agent dirs (`--all`, `-a '*'`): each skill on one short line, the dirs once.
            let mut many: Vec<String> = Vec::new();
            for (skill, _) in installed {
                let paths: Vec<String> = skill
                    .candidate
                    .placements
                    .iter()
                    .map(|p| shown(&p.path, scope))
                    .collect();
                if paths.len() > MANY_DIRS {
                    printer.status(format_args!(
                        "  {} → {} and {} other agent dirs ({})",
                        skill.candidate.name,
                        paths[0],
                        paths.len() - 1,
                        mode.as_str()
                    ));
                    for dir in skill.candidate.placements.iter().skip(1) {
                        if let Some(parent) = dir.path.parent() {
                            let parent = shown(parent, scope);
                            if !many.contains(&parent) {
                                many.push(parent);
                            }
                        }
                    }
                    continue;
                }
                printer.status(format_args!(
                    "  {} → {} ({})",
                    skill.candidate.name,
                    paths.join(", "),
                    mode.as_str()
                ));
            }
            if !many.is_empty() {
                printer.status(format_args!("  other agent dirs: {}", many.join(", ")));
            }
            return Ok(());
        }
        let display_names: Vec<&str> = agents
            .iter()
            .map(|id| crate::agents::find(id).map_or(id.as_str(), |a| a.display_name))
            .collect();
        // The reference gives a local source as an absolute path.
        let source = match origin.source_type {
            SourceType::Local => {
                crate::source::grammar::normalize(&scope.lock_dir().join(&origin.source))
                    .display()
                    .to_string()
            }
            _ => origin.source.clone(),
        };
        let scope_name = if scope.global { "global" } else { "project" };
        let mut skills: Vec<JsonAdded<'_>> = installed
            .iter()
            .map(|(s, entry)| {
                let (hash, files) = (entry.computed_hash.as_str(), entry.files.len());
                JsonAdded::Installed(Box::new(JsonInstalled {
                    name: &s.candidate.name,
                    status: "installed",
                    source: &source,
                    git_ref: origin.git_ref.as_deref(),
                    hash,
                    path: s
                        .candidate
                        .placements
                        .first()
                        .map(|p| p.path.display().to_string()),
                    scope: scope_name,
                    agents: &display_names,
                    mode: mode.as_str(),
                    security: None,
                    folder: &s.candidate.folder,
                    paths: s
                        .candidate
                        .placements
                        .iter()
                        .map(|p| shown(&p.path, scope))
                        .collect(),
                    agent_ids: agents,
                    commit: origin.commit.as_deref(),
                    files,
                }))
            })
            .collect();
        skills.extend(skipped.iter().map(|(name, reason)| JsonAdded::Skipped {
            name,
            status: "skipped",
            reason: reason.to_string(),
        }));
        let document = JsonAdd {
            version: crate::json::VERSION,
            source: &origin.source,
            source_type: origin.source_type.as_str(),
            commit: origin.commit.as_deref(),
            scope: scope_name,
            skills,
        };
        Ok(crate::json::print(&document, printer)?)
    }
}

/// `--list`: what the source offers, as a table or JSON, and nothing installed.
pub fn list(
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
        let document = JsonOffers {
            version: crate::json::VERSION,
            source: &opened.origin.source,
            commit: opened.origin.commit.as_deref(),
            skills: visible
                .iter()
                .map(|s| JsonOffer {
                    name: &s.name,
                    description: &s.description,
                    path: &s.path,
                })
                .collect(),
        };
        crate::json::print(&document, printer)?;
        return Ok(ExitStatus::Success);
    }
    let mut table = crate::output::Table::new(&["Name", "Path", "Description"]).flexible(2);
    for skill in &visible {
        table.row([
            skill.name.clone(),
            if skill.path.is_root() {
                ".".to_owned()
            } else {
                skill.path.to_string()
            },
            crate::output::single_line(&skill.description, usize::MAX),
        ]);
    }
    printer.table(&table)?;
    printer.status(format_args!(
        "{} skill(s) in {}",
        visible.len(),
        origin_label(&opened.origin)
    ));
    Ok(ExitStatus::Success)
}
