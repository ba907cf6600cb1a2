//! The project root: which folder a command in the project's scope works on, found from the
//! working directory as git and cargo find theirs, and trusted as git's `safe.directory` trusts
//! a repository ([`crate::trust`]). See the docs of [`super`] for the rules.

use std::path::{Path, PathBuf};

use super::{ProjectError, current_dir};
use crate::agents;
use crate::lock::PROJECT_LOCK;
use crate::output::Printer;

/// Why a folder is the project root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// It holds `skills-lock.json`.
    Lock,
    /// It holds this agent skills dir.
    AgentDir(&'static str),
    /// Nothing marks a project up to the repository root: that root.
    Repository,
    /// Nothing marks a project, and no repository holds the working directory.
    WorkingDir,
}

/// The project a command works on, and the working directory it was found from.
#[derive(Debug, Clone)]
pub struct ProjectRoot {
    pub path: PathBuf,
    pub found: Found,
    pub cwd: PathBuf,
    /// A marked folder above the working directory that was not trusted as the project.
    pub passed_over: Option<crate::trust::Untrusted>,
}

impl ProjectRoot {
    /// The project of the working directory: see the docs of [`crate::project`].
    pub fn locate() -> Result<ProjectRoot, ProjectError> {
        let cwd = current_dir()?;
        let home = dirs::home_dir();
        let trust = crate::trust::Trust::from_env();
        find_root(&cwd, home.as_deref(), &trust).map_err(ProjectError::Untrusted)
    }

    /// On stderr: the marked folder passed over, and the root and why when it is not the
    /// working directory.
    pub fn announce(&self, printer: &Printer) {
        if let Some(untrusted) = &self.passed_over {
            printer.warn(format_args!(
                "`{}` is not used as the project: {}; the project is the working directory",
                untrusted.folder.display(),
                untrusted.reason()
            ));
            printer.hint(untrusted.trust_hint());
        }
        if self.path == self.cwd {
            return;
        }
        let why = match self.found {
            Found::Lock => format!("it has `{PROJECT_LOCK}`"),
            Found::AgentDir(dir) => format!("it has `{dir}`"),
            Found::Repository => "the repository root".to_owned(),
            Found::WorkingDir => return,
        };
        printer.status(format_args!(
            "Using the project at `{}` ({why})",
            self.path.display()
        ));
    }
}

/// The agent dirs that mark a project root: the hidden ones. `skills/`, `data/skills/` and
/// `agent/skills/` of a few agents are common folder names in any source tree (this
/// repository's own skills are in `skills/`), so a folder holding one is no project by itself.
fn marker_dirs() -> Vec<&'static str> {
    agents::project_dirs()
        .into_iter()
        .filter(|dir| dir.starts_with('.'))
        .collect()
}

/// The project root of `cwd`: the nearest folder at or above it with a `skills-lock.json` or a
/// hidden agent dir, not climbing above a repository root (the folder with `.git`) or into
/// `home` (the user's scope); with none, the repository root, else `cwd`. A marked folder that
/// `trust` refuses is never the root: above `cwd` it ends the climb (and is returned as passed
/// over), as `cwd` it is the error, as is a `cwd` refused when nothing above it is the root.
pub fn find_root(
    cwd: &Path,
    home: Option<&Path>,
    trust: &crate::trust::Trust,
) -> Result<ProjectRoot, crate::trust::Untrusted> {
    let markers = marker_dirs();
    let root = |path: &Path, found, passed_over| ProjectRoot {
        path: path.to_path_buf(),
        found,
        cwd: cwd.to_path_buf(),
        passed_over,
    };
    let mut passed_over = None;
    for dir in cwd.ancestors() {
        if dir != cwd && home.is_some_and(|home| dir == home) {
            break;
        }
        // Every marker present is checked, not only the one that makes the root: the
        // others are read as part of the project too.
        let lock = dir.join(PROJECT_LOCK).is_file();
        let agent_dirs: Vec<&'static str> = markers
            .iter()
            .copied()
            .filter(|m| dir.join(m).is_dir())
            .collect();
        let repository = dir.join(".git").exists();
        let found = match (lock, agent_dirs.first(), repository) {
            (true, _, _) => Found::Lock,
            (false, Some(marker), _) => Found::AgentDir(marker),
            (false, None, true) => Found::Repository,
            (false, None, false) => continue,
        };
        let present: Vec<&str> = lock
            .then_some(PROJECT_LOCK)
            .into_iter()
            .chain(agent_dirs)
            .chain(repository.then_some(".git"))
            .collect();
        match trust.check(dir, &present) {
            Ok(()) => return Ok(root(dir, found, None)),
            Err(untrusted) if dir == cwd => return Err(untrusted),
            Err(untrusted) => {
                passed_over = Some(untrusted);
                break;
            }
        }
    }
    trust.check(cwd, &[])?;
    Ok(root(cwd, Found::WorkingDir, passed_over))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_the_nearest_marked_folder_below_the_repository_root() {
        let temp = tempfile::tempdir().unwrap();
        let base = temp.path();
        let mkdir = |rel: &str| std::fs::create_dir_all(base.join(rel)).unwrap();
        mkdir("home/repo/.git");
        mkdir("home/repo/a/b/c");
        mkdir("home/repo/pkg/.claude/skills");
        mkdir("home/repo/pkg/src");
        mkdir("home/repo/plain/skills");
        mkdir("home/.claude/skills");
        mkdir("home/loose/x");
        std::fs::write(base.join("home/repo/a/skills-lock.json"), "{}").unwrap();
        let home = base.join("home");
        let trust = crate::trust::Trust::from_env();
        let root = |rel: &str| {
            let found = find_root(&base.join(rel), Some(&home), &trust).unwrap();
            (found.path, found.found)
        };
        assert_eq!(
            root("home/repo/a/b/c"),
            (base.join("home/repo/a"), Found::Lock)
        );
        assert_eq!(
            root("home/repo/pkg/src"),
            (
                base.join("home/repo/pkg"),
                Found::AgentDir(".claude/skills")
            )
        );
        // A plain `skills/` folder is no project; the repository root is.
        assert_eq!(
            root("home/repo/plain"),
            (base.join("home/repo"), Found::Repository)
        );
        // Below HOME with no repository: HOME's agent dirs are the user's, not a project.
        assert_eq!(
            root("home/loose/x"),
            (base.join("home/loose/x"), Found::WorkingDir)
        );
        // HOME itself, as the working directory, is what it always was.
        assert_eq!(
            root("home"),
            (home.clone(), Found::AgentDir(".claude/skills"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_world_writable_parent_is_passed_over_and_never_the_working_dir() {
        use std::os::unix::fs::PermissionsExt as _;
        let temp = tempfile::tempdir().unwrap();
        let shared = temp.path().join("shared");
        std::fs::create_dir_all(shared.join(".claude/skills/evil")).unwrap();
        std::fs::create_dir_all(shared.join("mine/deep")).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let trust = crate::trust::Trust::from_env();
        let found = find_root(&shared.join("mine/deep"), None, &trust).unwrap();
        assert_eq!(
            (found.path.as_path(), &found.found),
            (shared.join("mine/deep").as_path(), &Found::WorkingDir)
        );
        let passed = found.passed_over.unwrap();
        assert_eq!(passed.folder, shared);
        let err = find_root(&shared, None, &trust).unwrap_err();
        assert_eq!(err.folder, shared);
        std::fs::remove_dir_all(shared.join(".claude")).unwrap();
        let err = find_root(&shared, None, &trust).unwrap_err();
        assert_eq!(err.folder, shared, "the working dir, marked or not");
    }
}
