//! Project or user scope: where the lock is, which agent dirs a command works on, and how a
//! path is shown to the user (relative to the project, `~/…` for the user's).
//!
//! Defaults without `-a`, as the design says: in a project, the agents whose skills dir (or the
//! dot-folder that holds it, `.claude/`) already exists plus the canonical `.agents/skills`
//! (`skills/` and other folder names any project uses do not count: they hold the project's own
//! sources), or `.agents/skills` and `.claude/skills` when no
//! agent dir exists yet; for the user, the agents found on this machine plus `~/.agents/skills`,
//! or `~/.agents/skills` and Claude Code's. No dir is created for an agent nobody asked for.
//!
//! The project is found as git and cargo find theirs ([`ProjectRoot::locate`]): the nearest
//! folder at or above the working directory with a `skills-lock.json` or an agent dir, never
//! above the repository root (the folder with `.git`); with neither up to there, the repository
//! root, or outside a repository the working directory. The user's home is never a project found
//! from below it: its agent dirs are the user's scope.
//!
//! A folder is the project only when [`crate::trust`] trusts it: owned by you, not writable by
//! every user, its markers yours (git's `safe.directory`). A marked folder above the working
//! directory that is not trusted ends the climb and is said (a warning naming it and why):
//! the working directory is then the project, as if nothing were above it. The working
//! directory itself not trusted as the project (marked or not) is an error for every command of
//! the project's scope, naming the folder, its owner or mode, and `SKILLS_SAFE_DIRECTORIES`; the
//! user's scope (`-g`) never looks for a project.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::agents::{self, AGENTS, Agent, CANONICAL_DIR};
use crate::hint::Hint;
use crate::index::{self, NameFilter, SkillIndex};
use crate::lock::{Guard, Lock, LockError, LockKind, PROJECT_LOCK};
use crate::output::Printer;
use crate::source::git::GitSettings;

mod root;

pub use root::{Found, ProjectRoot, find_root};

/// One agent skills dir and the agents it is recorded for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub dir: PathBuf,
    pub agents: Vec<&'static str>,
}

#[derive(Debug, Clone)]
pub struct Scope {
    pub global: bool,
    /// The project root ([`ProjectRoot::locate`]); the working directory for the user's scope.
    pub project: PathBuf,
    /// The working directory: what relative paths typed by the user are relative to.
    pub cwd: PathBuf,
    pub lock_path: PathBuf,
    /// `.agents/skills` of the project, or `~/.agents/skills`.
    pub canonical: PathBuf,
}

/// One installed folder of a skill, and every place it shows up (itself, links to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The folder itself (symlinks resolved).
    pub real: PathBuf,
    pub locations: Vec<PathBuf>,
}

/// Why a scope, its lock or its agent dirs cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("cannot read the current directory")]
    CurrentDir(#[source] std::io::Error),
    #[error("cannot find the home directory")]
    NoHome,
    #[error("no lockfile: `{}` does not exist", .path.display())]
    NoLock { path: PathBuf, global: bool },
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Index(#[from] index::IndexError),
    #[error("unknown agent `{id}`")]
    UnknownAgent { id: String, near: Vec<&'static str> },
    #[error("{agent} has no user-level skills dir")]
    NoGlobalDir { agent: &'static str },
    #[error("Eve subagents have no user-level skills dir")]
    NoGlobalSubagents,
    #[error("`{0}` cannot be a subagent folder name")]
    SubagentName(String),
    #[error("`{}` cannot be the project: {}", .0.folder.display(), .0.reason())]
    Untrusted(crate::trust::Untrusted),
    /// A journal of an earlier run that cannot be finished yet (see `install::turn`).
    #[error("{} cannot be finished yet: {}", if *.undo { "putting back what a failed `skills` run changed" } else { "an interrupted `skills` run" }, .problems.join("; "))]
    Unfinished {
        journal: PathBuf,
        undo: bool,
        problems: Vec<String>,
    },
}

impl ProjectError {
    /// `id` names no agent: the error, with the ids near it.
    pub fn unknown_agent(id: &str) -> ProjectError {
        ProjectError::UnknownAgent {
            id: id.to_owned(),
            // A typo (`claud-code`), or a word of the id (`claude`, `copilot`).
            near: AGENTS
                .iter()
                .map(|a| a.id)
                .filter(|a| {
                    strsim::levenshtein(a, id) <= 2
                        || (id.len() >= 3
                            && (a.starts_with(id) || a.split('-').any(|word| word == id)))
                })
                .take(5)
                .collect(),
        }
    }
}

impl Hint for ProjectError {
    fn hint(&self) -> Option<String> {
        match self {
            ProjectError::NoHome => Some("set HOME".into()),
            ProjectError::NoLock { global: false, .. } => Some(
                "`skills add <source>` installs skills and writes it; `skills manifest` records the skills already installed; the project is the nearest folder with `skills-lock.json` or an agent dir, up to the repository root"
                    .into(),
            ),
            ProjectError::NoLock { global: true, .. } => {
                Some("`skills add -g <source>` installs skills for the user and writes it".into())
            }
            ProjectError::Lock(err) => err.hint(),
            ProjectError::Index(err) => err.hint(),
            ProjectError::UnknownAgent { near, .. } if near.is_empty() => {
                Some("agent ids look like `claude-code`, `codex`, `cursor`, `sisu`".into())
            }
            ProjectError::UnknownAgent { near, .. } => {
                Some(format!("did you mean `{}`?", near.join("` or `")))
            }
            ProjectError::NoGlobalDir { .. } => {
                Some("install it into the project instead (without `-g`)".into())
            }
            ProjectError::NoGlobalSubagents => {
                Some("install them into the project instead (without `-g`)".into())
            }
            ProjectError::Untrusted(untrusted) => Some(untrusted.hint()),
            ProjectError::Unfinished { journal, .. } => Some(format!(
                "nothing is written here until it is: fix what stops it, then run the command again, which finishes it first (the journal is `{}`)",
                journal.display()
            )),
            ProjectError::CurrentDir(_) | ProjectError::SubagentName(_) => None,
        }
    }
}

/// The working directory: the project root for default roots and the base for shown paths.
pub fn current_dir() -> Result<PathBuf, ProjectError> {
    std::env::current_dir().map_err(ProjectError::CurrentDir)
}

/// `path` as the user sees it: relative to the project, `~/…` in the user's scope, else whole.
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

impl Scope {
    /// The scope, its project found from the working directory without a word.
    pub fn new(global: bool) -> Result<Scope, ProjectError> {
        if global {
            return Scope::user();
        }
        Scope::at(false, &ProjectRoot::locate()?)
    }

    /// The same, saying on stderr which project root is used when it is not the working
    /// directory (and which marked folder above was not trusted).
    pub fn open(global: bool, printer: &Printer) -> Result<Scope, ProjectError> {
        if global {
            return Scope::user();
        }
        let root = ProjectRoot::locate()?;
        root.announce(printer);
        Scope::at(false, &root)
    }

    /// The user's scope: no project is looked for.
    fn user() -> Result<Scope, ProjectError> {
        let cwd = current_dir()?;
        Scope::at(
            true,
            &ProjectRoot {
                path: cwd.clone(),
                found: Found::WorkingDir,
                cwd,
                passed_over: None,
            },
        )
    }

    fn at(global: bool, root: &ProjectRoot) -> Result<Scope, ProjectError> {
        let cwd = root.cwd.clone();
        if !global {
            let project = root.path.clone();
            return Ok(Scope {
                global,
                lock_path: project.join(PROJECT_LOCK),
                canonical: project.join(CANONICAL_DIR),
                project,
                cwd,
            });
        }
        let lock_path = crate::lock::global_lock_path().ok_or(ProjectError::NoHome)?;
        let canonical = agents::expand("~/.agents/skills").ok_or(ProjectError::NoHome)?;
        Ok(Scope {
            global,
            project: cwd.clone(),
            cwd,
            lock_path,
            canonical,
        })
    }

    pub fn lock_kind(&self) -> LockKind {
        if self.global {
            LockKind::Global
        } else {
            LockKind::Project
        }
    }

    /// An error when this scope has no lockfile (for the commands that check one).
    pub fn require_lock(&self) -> Result<(), ProjectError> {
        if self.lock_path.exists() {
            return Ok(());
        }
        Err(ProjectError::NoLock {
            path: self.lock_path.clone(),
            global: self.global,
        })
    }

    /// The lock of this scope (empty when there is none yet).
    pub fn read_lock(&self) -> Result<Lock, ProjectError> {
        Ok(Lock::read_kind(&self.lock_path, self.lock_kind())?
            .unwrap_or_else(|| Lock::new(self.lock_kind())))
    }

    /// Takes the advisory lock of this scope's lockfile for the rest of the run, saying so while
    /// another run holds it.
    pub fn guard(&self, printer: &Printer) -> Result<Guard, ProjectError> {
        let timeout = crate::lock::guard::timeout();
        Guard::acquire(
            &self.lock_path,
            &crate::env_vars::cache_dir(),
            timeout,
            || {
                printer.status(format_args!(
                    "Waiting for another `skills` run on `{}` (at most {} s)",
                    self.lock_path.display(),
                    timeout.as_secs()
                ));
            },
        )
        .map_err(ProjectError::Lock)
    }

    /// How this scope's lock reads source strings: relative to the lock's folder, and for a
    /// project its local sources held inside its repository (a clone) or, in a project that
    /// is no repository (a downloaded archive, a template), inside the lock's folder — past
    /// it, only the folders this machine's user added skills from ([`crate::source::added`]).
    pub fn source_env(&self) -> crate::source::SourceEnv {
        let env = crate::source::SourceEnv::from_env(self.lock_dir());
        if self.global {
            return env;
        }
        let mut env = match crate::source::open::repository_of(&self.lock_dir()) {
            Some(repository) => env.bounded(repository),
            None => env.bounded(self.lock_dir()),
        };
        env.outside.trusted = crate::source::added::load();
        env
    }

    /// The folder the lock is in (local sources are relative to it).
    pub fn lock_dir(&self) -> PathBuf {
        self.lock_path
            .parent()
            .map_or_else(|| self.project.clone(), Path::to_path_buf)
    }

    /// The agent dirs of the scope that exist, canonical first, then Eve's subagents' dirs.
    pub fn roots(&self) -> Vec<index::Root> {
        if self.global {
            return index::global_roots();
        }
        let mut roots = index::project_roots(&self.project);
        // `skills/`, `data/skills`, `agent/skills`: names any project uses for its own things
        // (its skill sources). They hold installed skills only when the lock installs there (or,
        // for Eve, the project is an Eve project); else `list`, `remove`, `manifest` and `doctor`
        // would take the user's sources for installed skills.
        let generic: Vec<&Agent> = AGENTS.iter().filter(|a| !a.owns_project_dir()).collect();
        if roots.iter().any(|root| {
            generic
                .iter()
                .any(|a| root.path == self.project.join(a.project_dir))
        }) {
            let recorded: Vec<String> = self
                .read_lock()
                .map(|lock| {
                    lock.skills
                        .into_values()
                        .flat_map(|entry| entry.agents)
                        .collect()
                })
                .unwrap_or_default();
            roots.retain(|root| {
                generic
                    .iter()
                    .filter(|a| root.path == self.project.join(a.project_dir))
                    .all(|a| {
                        recorded.iter().any(|id| id == a.id)
                            || (a.detect.contains(&agents::Detect::EveProject)
                                && a.is_detected(&self.project))
                    })
            });
        }
        roots.extend(self.subagent_dirs().into_iter().map(|path| index::Root {
            path,
            kind: index::RootKind::Project,
        }));
        roots
    }

    /// The skills dirs of Eve's subagents that exist in the project (`agent/subagents/*/skills`).
    pub fn subagent_dirs(&self) -> Vec<PathBuf> {
        if self.global {
            return Vec::new();
        }
        let base = self.project.join(agents::EVE_SUBAGENTS_DIR);
        let Ok(entries) = std::fs::read_dir(&base) else {
            return Vec::new();
        };
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path().join("skills"))
            .filter(|dir| dir.is_dir())
            .collect();
        dirs.sort();
        dirs
    }

    /// Targets for Eve's subagents (`--subagent`): `root` (or `.`, or `""` as the lock writes it)
    /// is Eve's own `agent/skills`, any other name `agent/subagents/<name>/skills`.
    pub fn eve_targets(&self, subagents: &[String]) -> Result<Vec<Target>, ProjectError> {
        if self.global {
            return Err(ProjectError::NoGlobalSubagents);
        }
        let mut targets: Vec<Target> = Vec::new();
        for name in subagents {
            let dir = match name.as_str() {
                "" | "root" | "." => self.project.join(agents::EVE_PROJECT_DIR),
                other => {
                    let folder = crate::skill::name::folder_name(other)
                        .ok_or_else(|| ProjectError::SubagentName(other.to_owned()))?;
                    self.project
                        .join(agents::EVE_SUBAGENTS_DIR)
                        .join(folder)
                        .join("skills")
                }
            };
            if !targets.iter().any(|t| t.dir == dir) {
                targets.push(Target {
                    dir,
                    agents: vec![agents::EVE],
                });
            }
        }
        Ok(targets)
    }

    /// Installed skills of the scope: name → each distinct folder that holds it (copies in
    /// several agent dirs are several folders; symlinks to one folder are one).
    pub fn installed(&self) -> Result<BTreeMap<String, Vec<Installed>>, ProjectError> {
        let roots = self.roots();
        let index = SkillIndex::build_with(
            roots,
            &NameFilter::default(),
            crate::skill::Load::Frontmatter,
        )?;
        let mut installed: BTreeMap<String, Vec<Installed>> = BTreeMap::new();
        for entry in &index.entries {
            installed.entry(entry.name()).or_default().push(Installed {
                real: entry.real.clone(),
                locations: entry.locations.clone(),
            });
        }
        Ok(installed)
    }

    /// Agent ids whose skills dir is `dir` here; the canonical dir is `universal`, as `add`
    /// records it.
    pub fn agents_of_dir(&self, dir: &Path) -> Vec<&'static str> {
        if dir == self.canonical {
            return vec!["universal"];
        }
        AGENTS
            .iter()
            .filter(|agent| self.agent_dir(agent).as_deref() == Some(dir))
            .map(|agent| agent.id)
            .collect()
    }

    /// The git cache and progress settings.
    pub fn git_settings(progress: bool) -> GitSettings {
        GitSettings::from_env(progress)
    }

    /// The skills dir of `agent` in this scope.
    pub fn agent_dir(&self, agent: &Agent) -> Option<PathBuf> {
        if self.global {
            if agent.project_dir == CANONICAL_DIR && agent.id == "universal" {
                return Some(self.canonical.clone());
            }
            agent.global_path()
        } else {
            Some(self.project.join(agent.project_dir))
        }
    }

    /// Targets for agent ids given on the command line (`*` for all).
    pub fn targets_for(&self, ids: &[String]) -> Result<Vec<Target>, ProjectError> {
        let mut agents: Vec<&'static Agent> = Vec::new();
        for id in ids {
            if id == "*" {
                agents.extend(AGENTS.iter().filter(|a| self.agent_dir(a).is_some()));
                continue;
            }
            let agent = agents::find(id).ok_or_else(|| ProjectError::unknown_agent(id))?;
            if self.agent_dir(agent).is_none() {
                return Err(ProjectError::NoGlobalDir {
                    agent: agent.display_name,
                });
            }
            agents.push(agent);
        }
        Ok(self.group(agents.iter().map(|a| (*a, a.id))))
    }

    /// Targets when no agent is named.
    pub fn default_targets(&self) -> Vec<Target> {
        let detected: Vec<&'static Agent> = if self.global {
            AGENTS
                .iter()
                .filter(|a| a.is_detected(&self.project) && a.global_dir.is_some())
                .collect()
        } else {
            AGENTS.iter().filter(|a| self.shows(a)).collect()
        };
        let fallback = if detected.is_empty() {
            agents::find("claude-code")
        } else {
            None
        };
        let universal = agents::find("universal").map(|a| (a, "universal"));
        let mut pairs: Vec<(&'static Agent, &'static str)> = universal.into_iter().collect();
        for agent in detected.into_iter().chain(fallback) {
            // The canonical dir is recorded once, as `universal`.
            if self.agent_dir(agent).as_ref() == Some(&self.canonical) {
                continue;
            }
            pairs.push((agent, agent.id));
        }
        self.group(pairs.into_iter())
    }

    /// Whether `agent` shows in this project, for the defaults of `add`: its own skills dir
    /// exists, or the dot-folder that holds it (`.claude/` for `.claude/skills`: the project uses
    /// Claude Code). A folder any project may have (`skills/`, `data/skills`) shows nothing;
    /// Eve shows by its own test (`agent/` and a `package.json` that depends on it).
    fn shows(&self, agent: &Agent) -> bool {
        if !agent.owns_project_dir() {
            return agent.detect.contains(&agents::Detect::EveProject)
                && agent.is_detected(&self.project);
        }
        if self.project.join(agent.project_dir).is_dir() {
            return true;
        }
        agent
            .project_dir
            .split('/')
            .next()
            .is_some_and(|top| top != ".agents" && self.project.join(top).is_dir())
    }

    /// The agent dirs of this scope that already hold `folder` (a folder or a link, broken or
    /// not), as targets: where a lock entry that records no agents was installed.
    pub fn targets_holding(&self, folder: &str) -> Vec<Target> {
        let holds = |dir: &Path| dir.join(folder).symlink_metadata().is_ok();
        let mut pairs: Vec<(&'static Agent, &'static str)> = Vec::new();
        if holds(&self.canonical)
            && let Some(universal) = agents::find("universal")
        {
            pairs.push((universal, "universal"));
        }
        let mut seen: Vec<PathBuf> = vec![self.canonical.clone()];
        for agent in AGENTS {
            let Some(dir) = self.agent_dir(agent) else {
                continue;
            };
            // One id per dir (the first of the table), as `add` records a detected dir; a
            // folder any project may have (`skills/`) holds the project's own things.
            if seen.contains(&dir) || (!self.global && !agent.owns_project_dir()) {
                continue;
            }
            seen.push(dir.clone());
            if holds(&dir) {
                pairs.push((agent, agent.id));
            }
        }
        self.group(pairs.into_iter())
    }

    /// Groups agents by skills dir, canonical dir first, in table order otherwise. Two dirs that
    /// are one folder (`.claude/skills` a link to `../.agents/skills`) are one target, under the
    /// first one's name: a link placed in one would replace the copy in the other.
    fn group(&self, agents: impl Iterator<Item = (&'static Agent, &'static str)>) -> Vec<Target> {
        let real = |dir: &Path| std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mut targets: Vec<Target> = Vec::new();
        // The real folder of each target, looked up only when a second dir may be the same one.
        let mut reals: Vec<PathBuf> = Vec::new();
        for (agent, id) in agents {
            let Some(dir) = self.agent_dir(agent) else {
                continue;
            };
            let found = targets.iter().position(|t| t.dir == dir).or_else(|| {
                if targets.is_empty() {
                    return None;
                }
                while reals.len() < targets.len() {
                    reals.push(real(&targets[reals.len()].dir));
                }
                let same = real(&dir);
                reals.iter().position(|r| *r == same)
            });
            match found.map(|i| &mut targets[i]) {
                Some(target) => {
                    if !target.agents.contains(&id) {
                        target.agents.push(id);
                    }
                    // One folder under two names: the canonical one names it.
                    if dir == self.canonical {
                        target.dir = dir;
                    }
                }
                None => targets.push(Target {
                    dir,
                    agents: vec![id],
                }),
            }
        }
        targets.sort_by_key(|t| t.dir != self.canonical);
        targets
    }
}
