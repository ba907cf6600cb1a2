//! `skills manifest [--check]`: the files and hashes of every installed skill, recorded in (or
//! checked against) `skills-lock.json`.
//!
//! Every folder of a skill is read: copies in several agent dirs are checked one by one, links
//! to one folder count once. Writing records each skill's `files` (and, for skills whose source is
//! their own folder, `computedHash`); skills the lock does not know become `sourceType: local`
//! entries with their folder as the source. `computedHash` of a skill installed from elsewhere
//! describes that source and is left alone. Entries of skills that are not installed are kept;
//! a skill whose folder cannot be read is installed (its files are not recorded, and it says why).
//!
//! `--json` prints what `serve` lists in each skill's `_manifest` (the served view of
//! [`crate::skill::files`]), read from the folder, so a folder `install` cannot read (a dangling
//! link) is listed too; `unserved` names what the lock records beyond it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::json;

use crate::cli::ManifestArgs;
use crate::drift::{Drift, Folder, Unreadable, drifts, read_copies};
use crate::error::{Error, ExitStatus};
use crate::install::FileDiff;
use crate::lock::{InstallMode, Lock, LockEntry, SourceType};
use crate::output::{Printer, Table};
use crate::project::{Scope, shown};
use crate::skill::files::{self, ManifestFile};
use crate::skill::inventory::Inventory;

pub fn run(args: &ManifestArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let scope = Scope::open(args.global, printer)?;
    if args.check {
        // Nothing to compare with is not a match.
        scope.require_lock()?;
    }
    let _guard = if args.check {
        None
    } else {
        Some(crate::install::take_turn(&scope, printer)?)
    };
    let lock = scope.read_lock()?;
    let (copies, unreadable) = read_copies(&scope)?;
    if args.check {
        return check(&scope, &lock, &copies, &unreadable, args.json, printer);
    }
    for folder in &unreadable {
        printer.warn(format_args!(
            "`{}` at `{}` cannot be read: {}",
            folder.name,
            folder.path,
            crate::hint::one_line(&*folder.error)
        ));
    }
    let unreadable = unreadable.into_iter().map(|folder| folder.name).collect();
    record(&scope, lock, &copies, &unreadable, args.json, printer)
}

/// One skill of `manifest --json`: `skill` and `files` are exactly what `serve` lists in
/// `skill://<name>/_manifest` (the served view of [`crate::skill::files`], SKILL.md first);
/// `unserved` names the files recorded in the lock that `_manifest` leaves out (dotfiles,
/// secret-named files, `node_modules/`, files over 4 MiB, files reached through a link that
/// leaves the folder).
#[derive(Debug, serde::Serialize)]
struct SkillManifest {
    skill: String,
    files: Vec<ManifestFile>,
    unserved: Vec<String>,
}

/// The served view of the installed folder `dir`, with the lock's `recorded` files it leaves out.
fn inventory(name: &str, dir: &Path, recorded: &crate::lock::Files) -> SkillManifest {
    let inventory = Inventory::scan(dir);
    let own = files::skill_file(&inventory).unwrap_or(crate::skill::SKILL_MD);
    let mut listed = Vec::new();
    for served in files::served(&inventory, own, files::MAX_SERVED_FILE) {
        // As `serve`: a file that cannot be read is not listed.
        let Ok(bytes) = crate::skill::read_listed(
            &served.entry.path,
            &served.entry.stamp,
            Some(served.entry.size),
        ) else {
            continue;
        };
        listed.push(ManifestFile {
            path: served.rel.to_owned(),
            size: bytes.len() as u64,
            hash: crate::lock::digest(&bytes),
        });
    }
    let unserved = recorded
        .keys()
        .filter(|path| {
            !listed.iter().any(|f| {
                f.path == path.as_str() || (f.path == crate::skill::SKILL_MD && *path == own)
            })
        })
        .map(ToString::to_string)
        .collect();
    SkillManifest {
        skill: name.to_owned(),
        files: listed,
        unserved,
    }
}

fn record(
    scope: &Scope,
    mut lock: Lock,
    copies: &BTreeMap<String, Vec<Folder>>,
    unreadable: &BTreeSet<String>,
    as_json: bool,
    printer: &Printer,
) -> Result<ExitStatus, Error> {
    let (mut added, mut changed) = (Vec::new(), Vec::new());
    for (name, found) in copies {
        let first = &found[0];
        if found.iter().any(|c| c.payload.files != first.payload.files) {
            printer.warn(format_args!(
                "the copies of `{name}` differ; recorded `{}`",
                shown(&first.installed.real, scope)
            ));
        }
        let digests = first.payload.digests();
        if let Some(entry) = lock.skills.get_mut(name) {
            let mut next = entry.clone();
            if !next.files.is_empty() && next.files != digests {
                let diff = FileDiff::between(&next.files, &digests);
                printer.warn(format_args!(
                    "`{name}` differs from what was installed ({}); recorded as it is now",
                    diff.summary()
                ));
            }
            let own = crate::upstream::is_own_source(entry, scope, &first.installed.real);
            // Edits of a skill installed from elsewhere: recorded, and marked as edits, so that
            // `update` does not take the recorded bytes for the source's and replace them.
            let edited = if next.files.is_empty() {
                first.payload.computed_hash != next.computed_hash
            } else {
                next.files != digests
            };
            if !own && edited {
                next.extra.insert(
                    crate::lock::LOCAL_EDITS.to_owned(),
                    serde_json::Value::Bool(true),
                );
                printer.warn(format_args!(
                    "`{name}` is recorded with its local edits: `skills update` keeps them (`--force` replaces them with the source's files)"
                ));
            }
            next.files = digests;
            if own {
                next.computed_hash.clone_from(&first.payload.computed_hash);
            }
            if next != *entry {
                changed.push(name.clone());
                *entry = next;
            }
        } else {
            lock.skills
                .insert(name.clone(), local_entry(scope, found, &digests));
            added.push(name.clone());
        }
    }
    // A skill whose folder cannot be read is installed: its warning was given.
    let missing: Vec<&String> = lock
        .skills
        .keys()
        .filter(|name| !copies.contains_key(*name) && !unreadable.contains(*name))
        .collect();
    for name in &missing {
        printer.warn(format_args!(
            "`{name}` is locked but not installed; `skills install` restores it"
        ));
    }
    lock.write(&scope.lock_path)?;
    if as_json {
        // Every installed skill, read or not: the served view does not need the whole folder.
        let skills: Vec<SkillManifest> = scope
            .installed()?
            .into_iter()
            .filter_map(|(name, folders)| {
                let dir = &folders.first()?.real;
                let recorded = lock.skills.get(&name).map(|e| e.files.clone());
                Some(inventory(&name, dir, &recorded.unwrap_or_default()))
            })
            .collect();
        crate::json::print(&skills, printer)?;
    } else {
        printer.status(format_args!(
            "recorded {} skill(s) in {} ({} new, {} changed)",
            copies.len(),
            shown(&scope.lock_path, scope),
            added.len(),
            changed.len()
        ));
    }
    Ok(ExitStatus::Success)
}

/// The lock entry of a skill the lock did not know: its own folder is its source.
fn local_entry(scope: &Scope, found: &[Folder], digests: &crate::lock::Files) -> LockEntry {
    let first = &found[0];
    let mut agents: BTreeSet<&str> = BTreeSet::new();
    let mut linked = false;
    for copy in found {
        for location in &copy.installed.locations {
            linked |= std::fs::symlink_metadata(location).is_ok_and(|m| m.file_type().is_symlink());
            if let Some(dir) = location.parent() {
                agents.extend(scope.agents_of_dir(dir));
            }
        }
    }
    let provenance = crate::install::Provenance {
        origin: crate::source::open::Origin {
            source: crate::source::open::local_source(
                &first.installed.real,
                &scope.lock_dir(),
                scope.global,
            ),
            source_type: SourceType::Local,
            source_url: None,
            git_ref: None,
            commit: None,
            digest: None,
        },
        skill_path: crate::skill::SKILL_MD.to_owned(),
        agents: agents.into_iter().map(str::to_owned).collect(),
        mode: if linked {
            InstallMode::Symlink
        } else {
            InstallMode::Copy
        },
        extra: Vec::new(),
        stamp: false,
    };
    provenance.entry(
        (&first.payload.computed_hash, digests),
        Vec::new(),
        None,
        scope.global,
    )
}

fn check(
    scope: &Scope,
    lock: &Lock,
    copies: &BTreeMap<String, Vec<Folder>>,
    unreadable: &[Unreadable],
    as_json: bool,
    printer: &Printer,
) -> Result<ExitStatus, Error> {
    let drifts = drifts(scope, lock, copies, unreadable);
    let checked = copies.values().map(Vec::len).sum::<usize>();
    if as_json {
        let skills: Vec<serde_json::Value> = drifts
            .iter()
            .map(|d| {
                json!({
                    "name": d.name,
                    "status": d.status,
                    "path": d.path,
                    "modified": d.files.modified,
                    "missing": d.files.removed,
                    "untracked": d.files.added,
                    "detail": d.detail.as_ref().map(ToString::to_string),
                })
            })
            .collect();
        let document =
            json!({"version": 1, "ok": drifts.is_empty(), "checked": checked, "drift": skills});
        crate::json::print(&document, printer)?;
    } else if drifts.is_empty() {
        printer.status(format_args!(
            "{checked} installed skill folder(s) match {}",
            shown(&scope.lock_path, scope)
        ));
    } else {
        printer.table(&table(&drifts))?;
        printer.status(format_args!(
            "{} skill(s) differ from {}",
            drifts
                .iter()
                .map(|d| &d.name)
                .collect::<BTreeSet<_>>()
                .len(),
            shown(&scope.lock_path, scope)
        ));
    }
    Ok(if drifts.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}

fn table(drifts: &[Drift]) -> Table {
    let mut table = Table::new(&["Skill", "Status", "Path", "Files"]);
    for drift in drifts {
        let mut lines: Vec<String> = Vec::new();
        for (list, what) in [
            (&drift.files.modified, "modified"),
            (&drift.files.removed, "missing"),
            (&drift.files.added, "untracked"),
        ] {
            lines.extend(list.iter().map(|path| format!("{what}: {path}")));
        }
        lines.extend(drift.detail.as_ref().map(ToString::to_string));
        table.row([
            drift.name.clone(),
            drift.status.to_owned(),
            drift.path.clone().unwrap_or_else(|| "-".to_owned()),
            lines.join("\n"),
        ]);
    }
    table
}
