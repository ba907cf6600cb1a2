//! Locked skills and their sources, shared by `install`, `check`, `update` and `manifest`: where
//! a lock entry's source is, that source opened at the locked commit or at its upstream tip (one
//! ref advertisement per remote however many skills share it), where the skill is installed, and
//! how two file inventories differ.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::install::{self, Limits, Payload, Placement};
use crate::lock::{InstallMode, LockEntry, SourceType};
use crate::project::{Scope, Target};
use crate::source::discover::{self, Options};
use crate::source::git::{self, GitSettings, RemoteRef, Want};
use crate::source::http::Http;
use crate::source::tree::{LocalTree, SourceTree};
use crate::source::web;
use crate::source::{Source, SourceEnv};

/// Where a locked skill's source is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Upstream {
    /// A folder on this machine (`sourceType: local`).
    Folder(PathBuf),
    /// A git remote, by clone URL.
    Git(String),
    /// A web source: a site with a well-known index (`well_known`), or a download.
    Web { url: String, well_known: bool },
}

pub use crate::error::one_line as describe;

/// Where `entry`'s source is. A local source is relative to the lock's folder; a remote one is
/// parsed again from `source` (so `SKILLS_GITHUB_URL` mirrors apply), else taken from `sourceUrl`.
pub fn upstream(entry: &LockEntry, lock_dir: &Path, env: &SourceEnv) -> Result<Upstream, String> {
    match entry.source_type() {
        SourceType::Local => {
            let path = match entry.source.strip_prefix("~/") {
                Some(rest) => dirs::home_dir()
                    .ok_or("cannot find the home directory")?
                    .join(rest),
                None => lock_dir.join(&entry.source),
            };
            Ok(Upstream::Folder(crate::source::grammar::normalize(&path)))
        }
        SourceType::WellKnown => match crate::source::parse(&entry.source, env) {
            Ok(Source::Web { url, kind }) => Ok(Upstream::Web {
                url,
                well_known: kind == crate::source::WebKind::WellKnown,
            }),
            _ => Err(format!("`{}` is not a web source", entry.source)),
        },
        SourceType::NodeModules => crate::source::npm::find_installed(lock_dir, &entry.source)
            .map(Upstream::Folder)
            .ok_or_else(|| {
                format!(
                    "the package `{}` is not in `node_modules` (run `npm install`)",
                    entry.source
                )
            }),
        SourceType::Github | SourceType::Gitlab | SourceType::Git => {
            match crate::source::parse(&entry.source, env) {
                Ok(Source::Git(source)) => Ok(Upstream::Git(source.url)),
                _ => entry.source_url.clone().map(Upstream::Git).ok_or_else(|| {
                    format!(
                        "`{}` is not a git source and the entry has no `sourceUrl`",
                        entry.source
                    )
                }),
            }
        }
    }
}

/// What reading locked skills takes: the scope (where the lock is), how source strings parse,
/// the remotes opened so far, and the limits a skill must keep.
pub struct Sources<'a> {
    pub scope: &'a Scope,
    pub env: SourceEnv,
    pub remotes: Remotes,
    pub limits: Limits,
}

impl<'a> Sources<'a> {
    pub fn new(scope: &'a Scope, limits: &crate::cli::LimitArgs, progress: bool) -> Sources<'a> {
        let mut settings = Scope::git_settings(progress);
        settings.web = web::WebLimits::from(limits);
        Sources {
            scope,
            env: SourceEnv::from_env(scope.lock_dir()),
            remotes: Remotes::new(settings),
            limits: Limits::from(limits),
        }
    }

    /// Where `entry`'s source is.
    pub fn upstream(&self, entry: &LockEntry) -> Result<Upstream, String> {
        upstream(entry, &self.scope.lock_dir(), &self.env)
    }

    /// The cache dir (where the advisory lock of the lockfile lives too).
    pub fn cache(&self) -> &Path {
        &self.remotes.settings.cache
    }
}

/// Whether `entry`'s source is the folder `dir` itself: a skill made where it is installed
/// (recorded by `skills manifest`), which has no upstream to follow.
pub fn is_own_source(entry: &LockEntry, scope: &Scope, dir: &Path) -> bool {
    let env = SourceEnv::from_env(scope.lock_dir());
    let real = |path: &Path| std::fs::canonicalize(path).ok();
    entry.source_type() == SourceType::Local
        && matches!(
            upstream(entry, &scope.lock_dir(), &env),
            Ok(Upstream::Folder(path)) if real(&path).is_some() && real(&path) == real(dir)
        )
}

/// A source opened at one commit (or a folder or web source as it is now).
#[derive(Clone)]
pub struct Opened {
    pub tree: Rc<dyn SourceTree>,
    /// The commit read, for git sources.
    pub commit: Option<String>,
    /// Web sources: the digest an index gives each skill, by name.
    pub digests: HashMap<String, String>,
    /// Web sources: the digest of a direct download.
    pub download_digest: Option<String>,
}

impl Opened {
    fn tree(tree: Rc<dyn SourceTree>, commit: Option<String>) -> Opened {
        Opened {
            tree,
            commit,
            digests: HashMap::new(),
            download_digest: None,
        }
    }

    /// The digest of what this source serves for the skill `name`, for the lock.
    pub fn digest(&self, name: &str) -> Option<String> {
        self.digests
            .get(name)
            .cloned()
            .or_else(|| self.download_digest.clone())
    }
}

/// Remotes and folders opened so far: each remote is asked for its refs once, each commit is
/// fetched (or found in the cache) once.
pub struct Remotes {
    settings: GitSettings,
    refs: HashMap<String, Result<Rc<Vec<RemoteRef>>, String>>,
    trees: HashMap<(String, String), Opened>,
}

impl Remotes {
    pub fn new(settings: GitSettings) -> Remotes {
        git::set_timeouts();
        Remotes {
            settings,
            refs: HashMap::new(),
            trees: HashMap::new(),
        }
    }

    /// The refs of `url`: one advertisement, remembered (failures too).
    pub fn refs(&mut self, url: &str) -> Result<Rc<Vec<RemoteRef>>, String> {
        if let Some(known) = self.refs.get(url) {
            return known.clone();
        }
        let refs = git::ls_remote(url, &self.settings)
            .map(Rc::new)
            .map_err(|err| describe(&err));
        self.refs.insert(url.to_owned(), refs.clone());
        refs
    }

    /// The commit `want` names on `url` (no object transfer).
    pub fn resolve(&mut self, url: &str, want: &Want) -> Result<String, String> {
        let refs = self.refs(url)?;
        git::resolve(url, &refs, want)
            .map(|(_, oid)| oid.to_string())
            .map_err(|err| describe(&err))
    }

    /// `want` of `url`, fetched unless the cache has it, and opened.
    pub fn open(&mut self, url: &str, want: &Want) -> Result<Opened, String> {
        let commit = self.resolve(url, want)?;
        let key = (url.to_owned(), commit);
        if let Some(opened) = self.trees.get(&key) {
            return Ok(opened.clone());
        }
        let refs = self.refs(url)?;
        let fetched = git::fetch(url, want, Some(refs.to_vec()), &self.settings)
            .map_err(|err| describe(&err))?;
        let opened = Opened::tree(Rc::new(fetched.tree), Some(fetched.commit.clone()));
        self.trees.insert(key, opened.clone());
        Ok(opened)
    }

    /// A local source folder as it is now.
    pub fn folder(path: &Path) -> Result<Opened, String> {
        if !path.is_dir() {
            return Err(format!(
                "the source folder `{}` does not exist",
                path.display()
            ));
        }
        let root = path.to_path_buf();
        Ok(Opened::tree(Rc::new(LocalTree { root }), None))
    }

    /// A web source as it is now: its index (skills downloaded when read), or the download.
    pub fn web(&self, url: &str, well_known: bool) -> Result<Opened, String> {
        let http = Http::new(self.settings.progress).map_err(|err| describe(&err))?;
        let opened =
            web::open(http, url, well_known, self.settings.web).map_err(|err| describe(&err))?;
        let digests = opened
            .offered
            .iter()
            .flatten()
            .filter_map(|o| Some((o.name.clone(), o.digest.clone()?)))
            .collect();
        Ok(Opened {
            tree: Rc::from(opened.tree),
            commit: None,
            digests,
            download_digest: opened.digest,
        })
    }

    /// Opens `upstream` at what `want` names (git), or as it is now (folders, web sources).
    pub fn open_upstream(&mut self, upstream: &Upstream, want: &Want) -> Result<Opened, String> {
        match upstream {
            Upstream::Folder(path) => Remotes::folder(path),
            Upstream::Git(url) => self.open(url, want),
            Upstream::Web { url, well_known } => self.web(url, *well_known),
        }
    }
}

/// What `entry` pins: its commit, else its ref, else the default branch.
pub fn locked_want(entry: &LockEntry) -> Want {
    match (&entry.commit, &entry.git_ref) {
        (Some(commit), git_ref) => Want::Commit {
            oid: commit.clone(),
            fallback: git_ref.clone(),
        },
        (None, Some(git_ref)) => Want::Ref(git_ref.clone()),
        (None, None) => Want::Head,
    }
}

/// What `entry` follows upstream: its ref, else the default branch.
pub fn tracked_want(entry: &LockEntry) -> Want {
    match &entry.git_ref {
        Some(git_ref) => Want::Ref(git_ref.clone()),
        None => Want::Head,
    }
}

/// The folder of the skill `name` inside `tree`: the folder of `skillPath` when it still holds a
/// SKILL.md, else the skill of that name wherever the source now keeps it. `Err` for a
/// `skillPath` that climbs out of the source.
pub fn skill_dir(
    entry: &LockEntry,
    name: &str,
    tree: &dyn SourceTree,
) -> Result<Option<String>, String> {
    if let Some(path) = &entry.skill_path {
        let path = path.trim_start_matches("./");
        if path.starts_with('/') || path.contains('\\') || path.split('/').any(|part| part == "..")
        {
            return Err(format!("its `skillPath` `{path}` leaves the source"));
        }
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        if tree.kind(path).is_some()
            && tree
                .kind(&crate::source::tree::join(dir, crate::skill::SKILL_MD))
                .is_some()
        {
            return Ok(Some(dir.to_owned()));
        }
    }
    let found = discover::discover(tree, "", Options { full_depth: true });
    Ok(found
        .skills
        .into_iter()
        .find(|s| s.name == name)
        .map(|s| s.path))
}

/// Reads the skill `name` of `entry` out of `opened`; `Ok(None)` when the source no longer has it.
pub fn read_skill(
    entry: &LockEntry,
    name: &str,
    opened: &Opened,
    limits: Limits,
) -> Result<Option<(String, Payload)>, String> {
    let Some(dir) = skill_dir(entry, name, opened.tree.as_ref())? else {
        return Ok(None);
    };
    let payload =
        install::collect(opened.tree.as_ref(), &dir, limits).map_err(|err| describe(&err))?;
    Ok(Some((dir, payload)))
}

/// Where a locked skill goes: the recorded agents (else the defaults, as `add`), in the recorded
/// mode (else linked into `node_modules` for a packaged skill, as `sync`; symlinks when there is
/// more than one dir, as `add`).
pub struct Layout {
    pub folder: String,
    pub agents: Vec<String>,
    pub mode: InstallMode,
    pub placements: Vec<Placement>,
}

pub fn layout(scope: &Scope, name: &str, entry: &LockEntry) -> Result<Layout, String> {
    let folder = crate::skill::name::folder_name(name).ok_or("its name cannot be a folder name")?;
    let mut targets: Vec<Target> = if entry.agents.is_empty() {
        scope.default_targets()
    } else {
        scope
            .targets_for(&entry.agents)
            .map_err(|err| err.to_string())?
    };
    let subagents = subagents(entry);
    if !subagents.is_empty() {
        targets.retain(|t| !t.agents.contains(&crate::agents::EVE));
        targets.extend(
            scope
                .eve_targets(&subagents)
                .map_err(|err| err.to_string())?,
        );
    }
    let mode = entry
        .mode
        .unwrap_or(if entry.source_type() == SourceType::NodeModules {
            // How `sync` (the reference's too, which records no mode) places packaged skills.
            InstallMode::Link
        } else if targets.len() > 1 {
            InstallMode::Symlink
        } else {
            InstallMode::Copy
        });
    let agents = if entry.agents.is_empty() {
        targets
            .iter()
            .flat_map(|t| t.agents.iter().map(|a| (*a).to_owned()))
            .collect()
    } else {
        entry.agents.clone()
    };
    let dirs: Vec<PathBuf> = targets.iter().map(|t| t.dir.clone()).collect();
    let placements = if mode == InstallMode::Link {
        // Linked into its source folder: only a folder on this machine can be.
        let Ok(Upstream::Folder(root)) = upstream(
            entry,
            &scope.lock_dir(),
            &SourceEnv::from_env(scope.lock_dir()),
        ) else {
            return Err("it is linked to its source, which is not a folder here".into());
        };
        let rel = entry
            .skill_path
            .as_deref()
            .and_then(|p| p.rsplit_once('/'))
            .map_or("", |(dir, _)| dir);
        if rel.starts_with('/') || rel.contains('\\') || rel.split('/').any(|p| p == "..") {
            return Err(format!("its `skillPath` `{rel}` leaves the source"));
        }
        let dir = root.join(rel);
        install::link_placements(&folder, &dirs, &scope.canonical, &dir)
    } else {
        install::placements(&folder, &dirs, &scope.canonical, mode)
    };
    Ok(Layout {
        folder,
        agents,
        mode,
        placements,
    })
}

/// The Eve subagents an entry was installed for (the reference's `subagents`, `""` for the root
/// agent); empty when none are recorded.
pub fn subagents(entry: &LockEntry) -> Vec<String> {
    entry
        .extra
        .get("subagents")
        .and_then(serde_json::Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What is installed at a placement's path now: `None` when nothing is there.
pub fn installed(path: &Path) -> Option<Result<Payload, String>> {
    std::fs::symlink_metadata(path).ok()?;
    let tree = LocalTree {
        root: path.to_path_buf(),
    };
    Some(install::collect(&tree, "", Limits::unbounded()).map_err(|err| describe(&err)))
}

/// Whether `placement` already holds exactly `payload` (or the right link).
pub fn in_place(placement: &Placement, payload: &Payload) -> bool {
    let Ok(meta) = std::fs::symlink_metadata(&placement.path) else {
        return false;
    };
    match &placement.link {
        Some(target) => {
            meta.file_type().is_symlink()
                && std::fs::read_link(&placement.path).is_ok_and(|t| t == *target)
        }
        None => {
            !meta.file_type().is_symlink()
                && matches!(installed(&placement.path), Some(Ok(now)) if now.files == payload.files)
        }
    }
}

/// How one file inventory (`path` → digest) became another.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub modified: Vec<String>,
}

impl FileDiff {
    pub fn between(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> FileDiff {
        let mut diff = FileDiff::default();
        for (path, digest) in new {
            match old.get(path) {
                None => diff.added.push(path.clone()),
                Some(before) if before != digest => diff.modified.push(path.clone()),
                Some(_) => {}
            }
        }
        diff.removed = old
            .keys()
            .filter(|path| !new.contains_key(*path))
            .cloned()
            .collect();
        diff
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.modified.is_empty()
    }

    /// `2 modified, 1 added` (nothing when empty).
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [
            (&self.modified, "modified"),
            (&self.added, "added"),
            (&self.removed, "removed"),
        ]
        .into_iter()
        .filter(|(list, _)| !list.is_empty())
        .map(|(list, what)| format!("{} {what}", list.len()))
        .collect();
        parts.join(", ")
    }
}

/// A 12-digit commit for tables.
pub fn short(commit: Option<&str>) -> String {
    commit.map_or_else(|| "-".to_owned(), |c| c[..c.len().min(12)].to_owned())
}
