//! `skills doctor`: what is wrong with the skills installed on this machine, each problem with a
//! fix. Read-only: it never changes anything.
//!
//! Checks, in the project (unless `-g`) and for the user:
//! - `broken-link`: symlinks in agent dirs (or inside skills) whose target is gone, and loops;
//! - `leftover`: staging, backup and trash folders an interrupted run left in an agent dir;
//! - `lock`: a lockfile that cannot be read;
//! - `missing`, `modified`, `untracked`, `unreadable`: drift between the lock and the disk, as
//!   `manifest --check` finds it (only where a lock exists: hand-made skills without one are
//!   not drift);
//! - `shadowed`: a user skill hidden by a project skill of the same name;
//! - `unread-dir`: an agent dir holding skills that no agent installed on this machine reads;
//! - `stale-cache`: cached repositories unused for [`STALE_DAYS`] days, or broken.
//!
//! Problems are what is wrong (exit 1); notes are what is worth knowing on a good layout (exit
//! 0): `unread-dir` (a CI runner has no agent installed, and Claude Code reads `.claude/skills`
//! and the canonical dir through its links whether or not `~/.claude` exists here),
//! `stale-cache`, and a user skill shadowed by the same files in the project. A layout that
//! `add`, `sync` or `install` wrote is never a problem, and no note offers to remove a folder
//! that holds skills.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use crate::agents::{AGENTS, CANONICAL_DIR};
use crate::cli::DoctorArgs;
use crate::error::{Error, ExitStatus};
use crate::fsutil::TEMP_PREFIX;
use crate::hint::Hint;
use crate::index::{self, NameFilter, SkillIndex};
use crate::lock::Lock;
use crate::output::Printer;
use crate::project::{Scope, shown};
use crate::skill::inventory::{FileKind, Inventory};

/// A cached repository unused for this many days is stale.
pub const STALE_DAYS: u64 = 30;

/// One problem found, with how to fix it.
#[derive(Debug, Serialize)]
pub struct Problem {
    pub kind: &'static str,
    /// `project`, `user`, or `cache`.
    pub scope: &'static str,
    pub path: String,
    pub message: String,
    pub fix: String,
}

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    ok: bool,
    problems: &'a [Problem],
    notes: &'a [Problem],
}

/// Kinds that are notes, not problems: worth knowing, nothing wrong.
const NOTE_KINDS: &[&str] = &["unread-dir", "stale-cache", "shadowed-same"];

pub fn run(args: &DoctorArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let mut problems = Vec::new();
    let mut scopes = Vec::new();
    if !args.global {
        scopes.push(Scope::open(false, printer)?);
    }
    scopes.push(Scope::open(true, printer)?);
    for scope in &scopes {
        let label = if scope.global { "user" } else { "project" };
        let mut found = Vec::new();
        let lock = read_lock(scope, &mut found);
        links(scope, lock.as_ref(), &mut found);
        if let Some(lock) = &lock {
            drift(scope, lock, &mut found)?;
        }
        unread_dirs(scope, lock.as_ref(), &mut found);
        problems.extend(found.into_iter().map(|mut p| {
            p.scope = label;
            p
        }));
    }
    if !args.global {
        shadowed(&scopes[0], &mut problems)?;
    }
    stale_cache(
        &Scope::git_settings(false).cache,
        SystemTime::now(),
        &mut problems,
    );
    let (mut notes, problems): (Vec<Problem>, Vec<Problem>) = problems
        .into_iter()
        .partition(|p| NOTE_KINDS.contains(&p.kind));
    for note in &mut notes {
        if note.kind == "shadowed-same" {
            note.kind = "shadowed";
        }
    }
    report(&problems, &notes, args.json, printer)?;
    Ok(if problems.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

fn problem(kind: &'static str, path: String, message: String, fix: String) -> Problem {
    Problem {
        kind,
        scope: "",
        path,
        message,
        fix,
    }
}

/// The scope's lock; one that cannot be read is a problem (and drift is not checked).
fn read_lock(scope: &Scope, problems: &mut Vec<Problem>) -> Option<Lock> {
    match Lock::read_kind(&scope.lock_path, scope.lock_kind()) {
        Ok(lock) => lock,
        Err(err) => {
            problems.push(problem(
                "lock",
                shown(&scope.lock_path, scope),
                crate::hint::one_line(&err),
                err.hint()
                    .unwrap_or_else(|| "restore it from version control or fix it by hand".into()),
            ));
            None
        }
    }
}

/// The agent dirs of `scope` that exist, each once, canonical first. In a project, a folder any
/// project may have (`skills/` of `OpenClaw`) is an agent dir only when the lock installs there:
/// otherwise it holds the project's own skill sources.
fn agent_dirs(scope: &Scope, lock: Option<&Lock>) -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = if scope.global {
        crate::agents::global_dirs()
    } else {
        let locked_agents: Vec<&str> = lock
            .map(|lock| {
                lock.skills
                    .values()
                    .flat_map(|entry| entry.agents.iter().map(String::as_str))
                    .collect()
            })
            .unwrap_or_default();
        crate::agents::project_dirs()
            .into_iter()
            .filter(|dir| {
                dir.starts_with('.')
                    || AGENTS
                        .iter()
                        .any(|a| a.project_dir == *dir && locked_agents.contains(&a.id))
            })
            .map(|d| scope.project.join(d))
            .collect()
    };
    dirs.into_iter().filter(|d| d.is_dir()).collect()
}

/// Whether `lock` has a skill installed as folder `name`.
fn locked(lock: Option<&Lock>, name: &str) -> bool {
    lock.is_some_and(|lock| {
        lock.skills
            .keys()
            .any(|skill| crate::skill::name::folder_name(skill).as_deref() == Some(name))
    })
}

/// Broken symlinks in agent dirs and inside skills; leftovers of interrupted runs.
fn links(scope: &Scope, lock: Option<&Lock>, problems: &mut Vec<Problem>) {
    for dir in agent_dirs(scope, lock) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let fix_missing = || {
                if locked(lock, &name) {
                    "`skills install` puts it back (it is in the lockfile)".to_owned()
                } else {
                    format!("remove it: `rm '{}'`", path.display())
                }
            };
            if name.starts_with(TEMP_PREFIX) {
                problems.push(problem(
                    "leftover",
                    shown(&path, scope),
                    "left behind by an interrupted `skills` run".into(),
                    format!(
                        "unless a `skills` command is running now, remove it: `rm -rf '{}'`",
                        path.display()
                    ),
                ));
                continue;
            }
            let Ok(meta) = entry.file_type() else {
                continue;
            };
            if meta.is_symlink()
                && let Err(err) = std::fs::metadata(&path)
            {
                let target = std::fs::read_link(&path).unwrap_or_default();
                let message = if err.raw_os_error() == Some(libc_eloop()) {
                    format!("is a symlink loop (`{}`)", target.display())
                } else {
                    format!("links to `{}`, which does not exist", target.display())
                };
                problems.push(problem(
                    "broken-link",
                    shown(&path, scope),
                    message,
                    fix_missing(),
                ));
                continue;
            }
            if path.join(crate::skill::SKILL_MD).is_file() {
                inner_links(scope, &path, &fix_missing, problems);
            }
        }
    }
}

#[cfg(unix)]
fn libc_eloop() -> i32 {
    libc::ELOOP
}

#[cfg(not(unix))]
fn libc_eloop() -> i32 {
    -1
}

/// Dangling symlinks inside one skill folder.
fn inner_links(scope: &Scope, skill: &Path, fix: &dyn Fn() -> String, problems: &mut Vec<Problem>) {
    let inventory = Inventory::scan(skill);
    for file in &inventory.files {
        if let FileKind::Symlink(link) = &file.kind
            && link.resolved.is_none()
        {
            let fix = if fix().starts_with("`skills install`") {
                fix()
            } else {
                format!("fix or remove the link: `rm '{}'`", file.path.display())
            };
            problems.push(problem(
                "broken-link",
                shown(&file.path, scope),
                format!("links to `{}`, which does not exist", link.target.display()),
                fix,
            ));
        }
    }
}

/// Lock ↔ disk drift, as `manifest --check` reports it.
fn drift(scope: &Scope, lock: &Lock, problems: &mut Vec<Problem>) -> Result<(), Error> {
    let (copies, unreadable) = crate::drift::read_copies(scope)?;
    for drift in crate::drift::drifts(scope, lock, &copies, &unreadable) {
        // A skill installed nowhere is shown where it belongs.
        let path = drift.path.clone().unwrap_or_else(|| {
            lock.skills
                .get(&drift.name)
                .and_then(|entry| crate::install::layout(scope, &drift.name, entry).ok())
                .and_then(|layout| layout.placements.first().map(|p| shown(&p.path, scope)))
                .unwrap_or_else(|| drift.name.clone())
        });
        // A broken link is reported once, as such.
        if problems
            .iter()
            .any(|p| p.kind == "broken-link" && p.path == path)
        {
            continue;
        }
        let (message, fix) = match drift.status {
            "missing" => (
                format!("`{}` is in the lockfile but not installed here", drift.name),
                "`skills install` restores it".to_owned(),
            ),
            "modified" => {
                let detail = drift.detail.as_ref().map_or_else(
                    || {
                        let summary = drift.files.summary();
                        format!("its files differ from the lockfile ({summary})")
                    },
                    ToString::to_string,
                );
                (
                    format!("`{}`: {detail}", drift.name),
                    "`skills install` restores the locked files; `skills manifest` records the edits instead".to_owned(),
                )
            }
            "untracked" => (
                format!("`{}` is installed but not in the lockfile", drift.name),
                format!(
                    "`skills manifest` records it, or `skills remove {}` removes it",
                    drift.name
                ),
            ),
            _ => (
                format!(
                    "`{}` cannot be read: {}",
                    drift.name,
                    drift
                        .detail
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default()
                ),
                "check its permissions".to_owned(),
            ),
        };
        problems.push(problem(drift.status, path, message, fix));
    }
    Ok(())
}

/// Agent dirs with skills that no agent installed on this machine reads (notes: a CI runner has
/// no agent installed, and the project is for the agents its users run elsewhere).
fn unread_dirs(scope: &Scope, lock: Option<&Lock>, problems: &mut Vec<Problem>) {
    let dirs = agent_dirs(scope, lock);
    let readers = |dir: &Path| -> Vec<&'static crate::agents::Agent> {
        AGENTS
            .iter()
            .filter(|agent| {
                if scope.global {
                    agent.global_path().as_deref() == Some(dir)
                } else {
                    scope.project.join(agent.project_dir) == dir
                }
            })
            .collect()
    };
    let read = |dir: &Path| readers(dir).iter().any(|a| a.is_detected(&scope.project));
    for dir in &dirs {
        let skills = skill_count(dir);
        if skills == 0 || read(dir) {
            continue;
        }
        // The canonical dir is read through the links other agents' dirs hold into it, by
        // whichever agent reads those (installed on this machine or not).
        let canonical = dir.ends_with(CANONICAL_DIR) || *dir == scope.canonical;
        if canonical
            && dirs
                .iter()
                .filter(|other| *other != dir)
                .any(|other| links_into(other, dir))
        {
            continue;
        }
        let names: Vec<&str> = readers(dir)
            .iter()
            .map(|a| a.display_name)
            .take(3)
            .collect();
        let who = if names.is_empty() {
            "no agent reads it".to_owned()
        } else {
            format!(
                "none of the agents that read it ({}) is installed here",
                names.join(", ")
            )
        };
        problems.push(problem(
            "unread-dir",
            shown(dir, scope),
            format!("holds {skills} skill(s), but {who}"),
            "nothing to do where those agents run (a teammate's machine, not a CI runner); to use the skills with an agent installed here: `skills add SOURCE -a AGENT`".into(),
        ));
    }
}

fn skill_count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.path().join(crate::skill::SKILL_MD).is_file())
            .count()
    })
}

/// Whether a symlink in `dir` leads into `target`.
fn links_into(dir: &Path, target: &Path) -> bool {
    let Ok(target) = std::fs::canonicalize(target) else {
        return false;
    };
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            e.file_type().is_ok_and(|t| t.is_symlink())
                && std::fs::canonicalize(e.path()).is_ok_and(|real| real.starts_with(&target))
        })
    })
}

/// User skills that a project skill of the same name hides from every agent.
fn shadowed(project: &Scope, problems: &mut Vec<Problem>) -> Result<(), Error> {
    let roots = index::default_roots(&project.project, false);
    let index = SkillIndex::build_with(
        roots,
        &NameFilter::default(),
        crate::skill::Load::Frontmatter,
    )?;
    let scope_of = |entry: &index::Entry| index.roots.get(entry.root).map(|r| r.kind);
    for entry in &index.entries {
        let Some(winner) = entry.shadowed_by.and_then(|i| index.entries.get(i)) else {
            continue;
        };
        if scope_of(entry) == scope_of(winner) {
            continue;
        }
        let same = crate::install::installed(&entry.real)
            .and_then(Result::ok)
            .zip(crate::install::installed(&winner.real).and_then(Result::ok))
            .is_some_and(|(a, b)| a.files == b.files);
        let name = entry.name();
        problems.push(Problem {
            // The same files in both places hide nothing: a note.
            kind: if same { "shadowed-same" } else { "shadowed" },
            scope: "user",
            path: tilde(&entry.dir),
            message: format!(
                "`{name}` is hidden by the project's `{}`{}",
                shown(&winner.dir, project),
                if same { " (the same files)" } else { " (different files)" }
            ),
            fix: format!(
                "keep one: `skills remove -g {name}` for the user's, or `skills remove {name}` for the project's"
            ),
        });
    }
    Ok(())
}

fn tilde(path: &Path) -> String {
    match dirs::home_dir().and_then(|home| path.strip_prefix(home).ok().map(Path::to_path_buf)) {
        Some(rel) => format!("~/{}", rel.display()),
        None => path.display().to_string(),
    }
}

/// Cached repositories not used for [`STALE_DAYS`] days, and ones that cannot be opened.
pub fn stale_cache(cache: &Path, now: SystemTime, problems: &mut Vec<Problem>) {
    let Ok(entries) = std::fs::read_dir(cache.join("git")) else {
        return;
    };
    let mut repos: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    repos.sort();
    for repo in repos {
        let fix = format!(
            "remove it: `rm -rf '{}'` (it is fetched again when needed)",
            repo.display()
        );
        if let Err(err) = git2::Repository::open_bare(&repo) {
            problems.push(Problem {
                kind: "stale-cache",
                scope: "cache",
                path: repo.display().to_string(),
                message: format!("cannot be opened as a git repository: {}", err.message()),
                fix,
            });
            continue;
        }
        // Every use of a cached repository takes its lock file, which touches it.
        let used = std::fs::metadata(repo.with_extension("lock"))
            .or_else(|_| std::fs::metadata(&repo))
            .and_then(|m| m.modified());
        let Ok(age) = used.map(|used| now.duration_since(used).unwrap_or(Duration::ZERO)) else {
            continue;
        };
        let days = age.as_secs() / 86_400;
        if days >= STALE_DAYS {
            problems.push(Problem {
                kind: "stale-cache",
                scope: "cache",
                path: repo.display().to_string(),
                message: format!("unused for {days} days ({})", size(&repo)),
                fix,
            });
        }
    }
}

/// The size of a folder tree, for humans.
fn size(dir: &Path) -> String {
    fn walk(dir: &Path) -> u64 {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| match e.file_type() {
                    Ok(t) if t.is_dir() => walk(&e.path()),
                    Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
                    _ => 0,
                })
                .sum()
        })
    }
    let bytes = walk(dir);
    #[expect(clippy::cast_precision_loss, reason = "a size shown with one decimal")]
    let mib = bytes as f64 / f64::from(1 << 20);
    format!("{mib:.1} MiB")
}

fn report(
    problems: &[Problem],
    notes: &[Problem],
    as_json: bool,
    printer: &Printer,
) -> Result<(), Error> {
    if as_json {
        let document = Document {
            version: crate::json::VERSION,
            ok: problems.is_empty(),
            problems,
            notes,
        };
        return Ok(crate::json::print(&document, printer)?);
    }
    let mut text = String::new();
    for p in problems {
        let _ = writeln!(
            text,
            "{}: {}: {}\n  fix: {}",
            p.path, p.kind, p.message, p.fix
        );
    }
    for n in notes {
        let _ = writeln!(
            text,
            "{}: note: {}: {}\n  {}",
            n.path, n.kind, n.message, n.fix
        );
    }
    if !text.is_empty() {
        printer.plain(&text)?;
    }
    let notes = match notes.len() {
        0 => String::new(),
        n => format!(" ({n} note(s))"),
    };
    if problems.is_empty() {
        printer.status(format_args!("no problems found{notes}"));
    } else {
        printer.status(format_args!("{} problem(s) found{notes}", problems.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_unused_for_a_month_is_stale() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("git/tools-0123456789abcdef");
        git2::Repository::init_bare(&repo).unwrap();
        std::fs::write(repo.with_extension("lock"), "").unwrap();
        std::fs::create_dir_all(tmp.path().join("git/broken-fedcba9876543210")).unwrap();
        let now = SystemTime::now();
        let mut problems = Vec::new();
        stale_cache(tmp.path(), now, &mut problems);
        let kinds: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(problems.len(), 1, "{kinds:?}");
        assert!(problems[0].message.starts_with("cannot be opened"));
        let later = now + Duration::from_secs(86_400 * (STALE_DAYS + 1));
        let mut problems = Vec::new();
        stale_cache(tmp.path(), later, &mut problems);
        assert_eq!(problems.len(), 2);
        assert!(
            problems[1]
                .message
                .starts_with(&format!("unused for {} days", STALE_DAYS + 1)),
            "{}",
            problems[1].message
        );
    }
}
