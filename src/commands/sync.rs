//! `skills sync` (the reference's `experimental_sync`): the skills that packages in
//! `node_modules` ship, installed into agent dirs and recorded in the lock as
//! `sourceType: "node_modules"`.
//!
//! By default `.agents/skills/<name>` is a symlink into the package, so the skill follows
//! `npm update`, and the other agent dirs link to it; `--copy` copies instead. A skill that no
//! package ships any more is removed (`--no-cleanup` keeps it). Sync never touches what it did
//! not install: a skill added with `skills add`, or a folder or link it does not know, is left
//! alone and reported. Everything is one transaction with the lock, as in `add`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, ExitStatus};
use crate::install::{self, Candidate, Done, Installer, Payload, Provenance};
use crate::lock::{InstallMode, Lock, LockEntry, SourceType};
use crate::output::Printer;
use crate::project::{Scope, Target, shown};
use crate::relpath::RelPath;
use crate::settings;
use crate::source::npm::{self, Shipped};
use crate::source::open::Origin;
use crate::source::tree::LocalTree;

/// A shipped skill on its way in.
struct Planned {
    skill: Shipped,
    payload: Payload,
    plan: install::Planned,
}

/// `--include` / `--exclude`: `pkg` or `pkg#skill`, globs allowed.
struct Filter {
    include: Vec<(globset::GlobMatcher, globset::GlobMatcher)>,
    exclude: Vec<(globset::GlobMatcher, globset::GlobMatcher)>,
}

impl Filter {
    fn new(include: &[String], exclude: &[String]) -> Result<Filter, Error> {
        let compile = |patterns: &[String]| -> Result<Vec<_>, Error> {
            patterns
                .iter()
                .map(|pattern| {
                    let (package, skill) = pattern.split_once('#').unwrap_or((pattern, "*"));
                    let glob = |text: &str| {
                        globset::Glob::new(text)
                            .map(|g| g.compile_matcher())
                            .map_err(|err| {
                                Error::msg(format!("`{pattern}` is not a valid pattern"))
                                    .with_source(err)
                            })
                    };
                    Ok((glob(package)?, glob(skill)?))
                })
                .collect()
        };
        Ok(Filter {
            include: compile(include)?,
            exclude: compile(exclude)?,
        })
    }

    fn allows(&self, skill: &Shipped) -> bool {
        let folder = crate::skill::name::folder_name(&skill.name).unwrap_or_default();
        let matches = |(package, name): &(globset::GlobMatcher, globset::GlobMatcher)| {
            package.is_match(&skill.package) && name.is_match(&folder)
        };
        (self.include.is_empty() || self.include.iter().any(matches))
            && !self.exclude.iter().any(matches)
    }
}

pub fn run(args: &crate::cli::SyncArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let args = &settings::Sync::resolve(args);
    let scope = Scope::open(false, printer)?;
    if npm::read_package_json(&scope.project).is_none() {
        printer.status("Nothing to sync: no `package.json` here");
        return Ok(ExitStatus::Success);
    }
    let found = npm::discover(&scope.project, args.recursive);
    if !found.errors.is_empty() {
        return Err(Error::msg(format!(
            "the \"skills\" field of `package.json` is not right:\n  {}",
            found.errors.join("\n  ")
        ))
        .with_hint(
            "entries are \"npm:<package>\", a git source, or {\"source\": …, \"skills\": [names]}",
        ));
    }
    for warning in &found.warnings {
        printer.warn(warning);
    }
    if !args.no_remote {
        for source in &found.remote {
            printer.warn(format_args!(
                "`{source}` (in a \"skills\" field) is a git source; `skills sync` installs packaged skills only: `skills add {source}`"
            ));
        }
    }
    let filter = Filter::new(&args.include, &args.exclude)?;
    let offered: Vec<Shipped> = found
        .skills
        .into_iter()
        .filter(|s| filter.allows(s))
        .collect();
    let targets = if args.agents.is_empty() {
        scope.default_targets()
    } else {
        scope.targets_for(&args.agents)?
    };
    let mode = if args.copy {
        InstallMode::Copy
    } else {
        InstallMode::Link
    };
    let policy = install::Policy {
        gate: args.gate.clone(),
        force: args.force,
    };
    let mut installer = Installer::open(&scope, &policy, printer)?;
    let lock = installer.lock().cloned().unwrap_or_default();
    let keep: Vec<String> = offered
        .iter()
        .filter_map(|s| crate::skill::name::folder_name(&s.name))
        .collect();
    let (chosen, mut skipped) = choose(offered, &lock, &targets, &scope);
    let agents = agent_ids(&targets);
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let mut planned = Vec::new();
    for (skill, folder) in chosen {
        let collected = LocalTree::open(skill.package_dir.clone())
            .map_err(|source| install::InstallError::Read {
                path: skill.package_dir.display().to_string(),
                source,
            })
            .and_then(|tree| {
                let dir = RelPath::new(&skill.dir)?;
                Ok((install::collect(&tree, &dir, args.limits.skill)?, dir))
            });
        let (payload, dir) = match collected {
            Ok(collected) => collected,
            Err(err) => {
                skipped.push((skill, SkipReason::Install(err)));
                continue;
            }
        };
        let placements = match mode {
            InstallMode::Link => {
                install::link_placements(&folder, &dirs, &scope.canonical, &skill.path())
            }
            _ => install::placements(&folder, &dirs, &scope.canonical, mode),
        };
        let candidate = Candidate {
            name: skill.name.clone(),
            folder,
            placements,
            provenance: Provenance {
                origin: Origin {
                    source: skill.package.clone(),
                    source_type: SourceType::NodeModules,
                    source_url: None,
                    git_ref: None,
                    commit: None,
                    digest: None,
                },
                skill_path: skill.skill_path(),
                agents: agents.clone(),
                mode,
                extra: vec![
                    ("version".to_owned(), skill.version.clone().map(Into::into)),
                    ("via".to_owned(), skill.via.clone().map(Into::into)),
                ],
                stamp: false,
            },
            dir,
        };
        match installer.plan(candidate)? {
            Ok(plan) => planned.push(Planned {
                skill,
                payload,
                plan,
            }),
            Err(conflict) => skipped.push((skill, SkipReason::Conflict(conflict.why))),
        }
    }
    for (skill, reason) in &skipped {
        printer.warn(format_args!(
            "skipped `{}` from `{}`: {reason}",
            skill.name, skill.package
        ));
    }
    let (stale, kept) = if args.no_cleanup {
        (Vec::new(), Vec::new())
    } else {
        stale(&scope, &lock, &keep, &mut installer)?
    };
    for (name, why) in &kept {
        printer.warn(format_args!(
            "not removing `{name}` (no package ships it): {why}"
        ));
    }
    let mut status = if kept.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    };
    if planned.is_empty() && stale.is_empty() {
        installer.abort()?;
        printer.status("Nothing to sync");
        return Ok(status);
    }
    let plan_text = describe(&planned, &stale, mode, &scope);
    if args.dry_run {
        installer.abort()?;
        printer.plain(&plan_text)?;
        return Ok(status);
    }
    if !args.yes {
        if !crate::ask::terminal() {
            installer.abort()?;
            printer.error(
                &Error::msg(format!(
                    "not syncing without confirmation, and there is no terminal to ask on; would do:\n{}",
                    plan_text.trim_end()
                ))
                .with_hint("pass `-y` to sync"),
            );
            return Ok(ExitStatus::Failure);
        }
        printer.status(plan_text.trim_end());
        if !crate::ask::yes_no("Proceed", true)? {
            return Err(crate::ask::AskError::Cancelled("synced").into());
        }
    }
    let mut offered_now: Vec<Shipped> = Vec::new();
    for Planned {
        skill,
        payload,
        plan,
    } in planned
    {
        // The package's own files: neither kept in the store nor known to it.
        installer.offer(plan, payload, install::Fetched::Elsewhere)?;
        offered_now.push(skill);
    }
    for (name, paths) in &stale {
        let files = lock
            .skills
            .get(name)
            .map(|entry| entry.files.clone())
            .unwrap_or_default();
        for path in paths {
            installer.remove(path, &files)?;
        }
        installer.forget(name);
    }
    let committed = installer.commit(true, "syncing")?;
    let mut synced = Vec::new();
    for outcome in &committed.outcomes {
        let Some(skill) = offered_now
            .iter()
            .find(|s| s.name == outcome.candidate.name)
        else {
            continue;
        };
        match &outcome.done {
            Done::Written | Done::InPlace => {
                if let Some(entry) = committed.entry(outcome) {
                    synced.push((skill, outcome, entry));
                }
            }
            Done::Refused { unlinked, .. } => {
                status = ExitStatus::Failure;
                if *unlinked {
                    printer.warn(format_args!(
                        "`{}` from `{}` was linked before; its links were removed, so that no agent reads what the gate refused",
                        skill.name, skill.package
                    ));
                }
            }
            Done::Conflict(why) => {
                status = ExitStatus::Failure;
                printer.warn(format_args!(
                    "skipped `{}` from `{}`: {why}",
                    skill.name, skill.package
                ));
                printer.hint("pass `--force` to replace it (local edits are lost)");
            }
        }
    }
    report(&synced, &stale, &skipped, mode, &scope, args.json, printer)?;
    Ok(status)
}

/// Skills left out, with why.
type LeftOut = Vec<(Shipped, SkipReason)>;

/// Why sync leaves a shipped skill out (the warning's words and `sync --json`'s `reason`).
enum SkipReason {
    /// Its name cannot be a folder name.
    FolderName,
    /// Another package ships the same folder closer to the project.
    Closer { package: String },
    /// Several packages ship it at the same depth: no winner.
    Tie {
        packages: Vec<String>,
        folder: String,
    },
    /// The lock gives the folder to `skills add`.
    Added { source: String },
    /// A destination is a link sync did not make.
    Symlink { shown: String, target: PathBuf },
    /// A destination exists and the lock does not give it to sync.
    NotOurs { shown: String },
    /// It cannot be read or is over a limit.
    Install(install::InstallError),
    /// Something is in the way: its local edits, another source's skill.
    Conflict(String),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::FolderName => f.write_str("its name cannot be a folder name"),
            SkipReason::Closer { package } => write!(f, "`{package}` is closer to the project"),
            SkipReason::Tie { packages, folder } => write!(
                f,
                "shipped by {}; leave one out with `--exclude <package>#{folder}`",
                packages.join(", ")
            ),
            SkipReason::Added { source } => {
                write!(f, "installed with `skills add` from `{source}`")
            }
            SkipReason::Symlink { shown, target } => {
                write!(f, "`{shown}` is a symlink to `{}`", target.display())
            }
            SkipReason::NotOurs { shown } => {
                write!(f, "`{shown}` exists and was not installed by sync")
            }
            SkipReason::Install(err) => f.write_str(&err.skip_reason()),
            SkipReason::Conflict(why) => f.write_str(why),
        }
    }
}

/// Agent ids of `targets`, each once.
fn agent_ids(targets: &[Target]) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for id in targets.iter().flat_map(|t| t.agents.iter()) {
        if !ids.iter().any(|i| i == id) {
            ids.push((*id).to_owned());
        }
    }
    ids
}

/// Whether `entry` was written by a sync (ours or the reference's).
fn by_sync(entry: &LockEntry) -> bool {
    entry.source_type() == SourceType::NodeModules || entry.extra.contains_key("via")
}

/// The lock entry `name` (matched by folder name), if any.
fn locked<'a>(lock: &'a Lock, folder: &str) -> Option<(&'a String, &'a LockEntry)> {
    lock.skills
        .iter()
        .find(|(name, _)| crate::skill::name::folder_name(name).as_deref() == Some(folder))
}

/// The skills to install and those left out, with why: one package per name (the one closest
/// to the project; a tie is no winner), never over something sync did not install.
fn choose(
    offered: Vec<Shipped>,
    lock: &Lock,
    targets: &[Target],
    scope: &Scope,
) -> (Vec<(Shipped, String)>, LeftOut) {
    let mut chosen = Vec::new();
    let mut skipped = Vec::new();
    let mut groups: Vec<(String, Vec<Shipped>)> = Vec::new();
    for skill in offered {
        let Some(folder) = crate::skill::name::folder_name(&skill.name) else {
            skipped.push((skill, SkipReason::FolderName));
            continue;
        };
        match groups.iter_mut().find(|(f, _)| *f == folder) {
            Some((_, group)) => group.push(skill),
            None => groups.push((folder, vec![skill])),
        }
    }
    for (folder, group) in groups {
        let depth = group.iter().map(|s| s.depth).min().unwrap_or(0);
        let (closest, farther): (Vec<Shipped>, Vec<Shipped>) =
            group.into_iter().partition(|s| s.depth == depth);
        for skill in farther {
            let package = closest[0].package.clone();
            skipped.push((skill, SkipReason::Closer { package }));
        }
        if closest.len() > 1 {
            let packages: Vec<String> = closest.iter().map(|s| s.package.clone()).collect();
            skipped.extend(closest.into_iter().map(|s| {
                let reason = SkipReason::Tie {
                    packages: packages.clone(),
                    folder: folder.clone(),
                };
                (s, reason)
            }));
            continue;
        }
        let Some(skill) = closest.into_iter().next() else {
            continue;
        };
        match blocked(&folder, lock, targets, scope) {
            Some(reason) => skipped.push((skill, reason)),
            None => chosen.push((skill, folder)),
        }
    }
    (chosen, skipped)
}

/// Why `folder` may not be written by sync, if it may not.
fn blocked(folder: &str, lock: &Lock, targets: &[Target], scope: &Scope) -> Option<SkipReason> {
    let entry = locked(lock, folder).map(|(_, e)| e);
    if let Some(entry) = entry
        && !by_sync(entry)
    {
        return Some(SkipReason::Added {
            source: entry.source.clone(),
        });
    }
    let ours = entry.is_some();
    let canonical = scope.canonical.join(folder);
    let destinations =
        std::iter::once(canonical.clone()).chain(targets.iter().map(|t| t.dir.join(folder)));
    for path in destinations {
        if let Some(reason) = foreign(&path, &canonical, ours, scope) {
            return Some(reason);
        }
    }
    None
}

/// Whether `path` holds something sync did not put there: a link elsewhere than into
/// `node_modules` or to the canonical folder, or a folder the lock does not give to sync.
fn foreign(path: &Path, canonical: &Path, ours: bool, scope: &Scope) -> Option<SkipReason> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let shown = shown(path, scope);
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).ok()?;
        let resolved = path.parent().unwrap_or(Path::new(".")).join(&target);
        let resolved = crate::source::grammar::normalize(&resolved);
        if into_node_modules(&resolved) || resolved == canonical {
            return None;
        }
        return Some(SkipReason::Symlink { shown, target });
    }
    (!ours).then_some(SkipReason::NotOurs { shown })
}

fn into_node_modules(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "node_modules")
}

/// Skills sync installed that no package ships any more: lock name → the paths to remove
/// (only what sync put there, unchanged); and those left alone, with why (a folder sync did
/// not install, or one changed since: a lock entry alone never vouches for a folder).
fn stale(
    scope: &Scope,
    lock: &Lock,
    keep: &[String],
    installer: &mut Installer,
) -> Result<(Stale, Vec<(String, String)>), install::PipelineError> {
    let mut out: Stale = Vec::new();
    let mut kept = Vec::new();
    for (name, entry) in &lock.skills {
        if entry.source_type() != SourceType::NodeModules {
            continue;
        }
        let Some(folder) = crate::skill::name::folder_name(name) else {
            continue;
        };
        if !keep.contains(&folder) {
            match ours(scope, &folder, Some(entry), installer)? {
                Ok(paths) => out.push((name.clone(), paths)),
                Err(why) => kept.push((name.clone(), why)),
            }
        }
    }
    // Links into `node_modules` the lock does not know (a lock restored from elsewhere).
    if let Ok(entries) = std::fs::read_dir(&scope.canonical) {
        for entry in entries.filter_map(Result::ok) {
            let folder = entry.file_name().to_string_lossy().into_owned();
            let known = locked(lock, &folder).is_some();
            let linked = std::fs::read_link(entry.path()).is_ok_and(|t| into_node_modules(&t));
            if linked && !known && !keep.contains(&folder) {
                match ours(scope, &folder, None, installer)? {
                    Ok(paths) => out.push((folder.clone(), paths)),
                    Err(why) => kept.push((folder.clone(), why)),
                }
            }
        }
    }
    Ok((out, kept))
}

/// Lock names with the paths sync removes for them.
type Stale = Vec<(String, Vec<PathBuf>)>;

/// The places of `folder` sync may remove: links it makes (into `node_modules`, or to the
/// canonical folder) in any agent dir, and copies in the dirs `entry` records whose files are
/// what `entry` says sync installed (or what this machine last wrote there) — never a folder
/// anywhere else (a project's own `skills/` is an agent dir too). `Err` names a folder or file
/// in a recorded dir that is not such a copy: then nothing of `folder` is removed.
fn ours(
    scope: &Scope,
    folder: &str,
    entry: Option<&LockEntry>,
    installer: &mut Installer,
) -> Result<Result<Vec<PathBuf>, String>, install::PipelineError> {
    let canonical = scope.canonical.join(folder);
    let recorded: Vec<PathBuf> = entry
        .and_then(|e| scope.targets_for(&e.agents).ok())
        .unwrap_or_default()
        .into_iter()
        .map(|t| t.dir)
        .collect();
    let mut paths: Vec<PathBuf> = vec![canonical.clone()];
    for agent in crate::agents::AGENTS {
        if let Some(dir) = scope.agent_dir(agent) {
            let path = dir.join(folder);
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for path in paths {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            if foreign(&path, &canonical, false, scope).is_none() {
                out.push(path);
            }
            continue;
        }
        let (Some(entry), true) = (
            entry,
            path.parent()
                .is_some_and(|dir| recorded.iter().any(|r| r == dir)),
        ) else {
            continue;
        };
        let shown = shown(&path, scope);
        if !meta.is_dir() {
            return Ok(Err(format!("`{shown}` is not a folder sync installed")));
        }
        if let Some(diff) = installer.edited(&path, entry)? {
            return Ok(Err(format!(
                "`{shown}` is not what sync installed ({}); delete it yourself, or remove `{folder}` from the lockfile",
                diff.listed(6)
            )));
        }
        out.push(path);
    }
    Ok(Ok(out))
}

/// The plan, one line per change.
fn describe(
    planned: &[Planned],
    stale: &[(String, Vec<PathBuf>)],
    mode: InstallMode,
    scope: &Scope,
) -> String {
    let mut out = String::new();
    for plan in planned {
        let from = shown(&plan.skill.path(), scope);
        let how = if mode == InstallMode::Link {
            "linked to"
        } else {
            "copied from"
        };
        let _ = writeln!(
            out,
            "sync {} ← {}: {} {how} {from}",
            plan.skill.name,
            plan.skill.package,
            shown(&scope.canonical.join(&plan.plan.candidate.folder), scope),
        );
    }
    for (name, _) in stale {
        let _ = writeln!(out, "remove {name} (no package ships it any more)");
    }
    out
}

/// `sync --json`: the skills linked, the stale ones removed, and those left out with why.
#[derive(Serialize)]
struct JsonSync<'a> {
    version: u32,
    synced: Vec<JsonSynced<'a>>,
    removed: Vec<&'a str>,
    skipped: Vec<JsonLeftOut<'a>>,
}

#[derive(Serialize)]
struct JsonSynced<'a> {
    name: &'a str,
    package: &'a str,
    version: Option<&'a str>,
    via: Option<&'a str>,
    paths: Vec<String>,
    mode: &'static str,
    hash: &'a str,
}

#[derive(Serialize)]
struct JsonLeftOut<'a> {
    name: &'a str,
    package: &'a str,
    reason: String,
}

/// A skill synced: what shipped it, its outcome in the pipeline, and its lock entry.
type Synced<'a> = (&'a Shipped, &'a install::Outcome, &'a LockEntry);

fn report(
    synced: &[Synced<'_>],
    stale: &[(String, Vec<PathBuf>)],
    skipped: &LeftOut,
    mode: InstallMode,
    scope: &Scope,
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let document = JsonSync {
            version: crate::json::VERSION,
            synced: synced
                .iter()
                .map(|(skill, outcome, entry)| JsonSynced {
                    name: &skill.name,
                    package: &skill.package,
                    version: skill.version.as_deref(),
                    via: skill.via.as_deref(),
                    paths: outcome
                        .candidate
                        .placements
                        .iter()
                        .map(|x| shown(&x.path, scope))
                        .collect(),
                    mode: mode.as_str(),
                    hash: &entry.computed_hash,
                })
                .collect(),
            removed: stale.iter().map(|(name, _)| name.as_str()).collect(),
            skipped: skipped
                .iter()
                .map(|(s, why)| JsonLeftOut {
                    name: &s.name,
                    package: &s.package,
                    reason: why.to_string(),
                })
                .collect(),
        };
        return Ok(crate::json::print(&document, printer)?);
    }
    for (skill, outcome, _) in synced {
        printer.status(format_args!(
            "  {} ← {} ({})",
            skill.name,
            skill.package,
            shown(&scope.canonical.join(&outcome.candidate.folder), scope)
        ));
    }
    for (name, _) in stale {
        printer.status(format_args!(
            "  removed {name} (no package ships it any more)"
        ));
    }
    printer.status(format_args!(
        "Synced {} skill(s), removed {}",
        synced.len(),
        stale.len()
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SkipReason;

    #[test]
    fn skip_reasons_read_as_they_always_did() {
        let shown = [
            SkipReason::FolderName,
            SkipReason::Closer {
                package: "pdf-kit".into(),
            },
            SkipReason::Tie {
                packages: vec!["a".into(), "b".into()],
                folder: "pdf".into(),
            },
            SkipReason::Added {
                source: "./src/pdf".into(),
            },
            SkipReason::Symlink {
                shown: ".claude/skills/pdf".into(),
                target: "/elsewhere".into(),
            },
            SkipReason::NotOurs {
                shown: ".claude/skills/pdf".into(),
            },
        ]
        .map(|reason| reason.to_string());
        assert_eq!(
            shown,
            [
                "its name cannot be a folder name",
                "`pdf-kit` is closer to the project",
                "shipped by a, b; leave one out with `--exclude <package>#pdf`",
                "installed with `skills add` from `./src/pdf`",
                "`.claude/skills/pdf` is a symlink to `/elsewhere`",
                "`.claude/skills/pdf` exists and was not installed by sync",
            ]
        );
    }
}
