//! Where a command may write: beneath a root (the project, or the user's home for `-g`), through
//! directory handles that no link can lead out of.
//!
//! An agent dir is opened from its root's handle ([`cap_std`]: on Linux `openat2` with
//! `RESOLVE_BENEATH`, elsewhere a walk that checks every component), so a link on the way is
//! followed only while it stays beneath the root — the common `.claude/skills → ../.agents/skills`
//! — and a link that leaves it (`.claude → /home/me`, `skills → ~/.local`) makes the command
//! refuse, naming the link. Every write, rename and removal of a transaction then goes through
//! the agent dir's handle with a single validated name, so nothing in the project can redirect it.
//! A dir that no root holds (the user set `CODEX_HOME=/opt/codex`) is its own root: the user
//! chose it.

use std::path::{Path, PathBuf};

/// The roots writes may go beneath.
#[derive(Debug, Clone)]
pub struct Confinement {
    roots: Vec<PathBuf>,
    /// What the roots are, for messages: `the project`, `your home folder`.
    what: &'static str,
}

/// An agent dir that leads out of its root.
#[derive(Debug, thiserror::Error)]
#[error("`{}` leads out of {what} through the link `{}` → `{}`", dir.display(), link.display(), target.display())]
pub struct Escapes {
    pub dir: PathBuf,
    pub link: PathBuf,
    pub target: PathBuf,
    pub what: &'static str,
}

/// An open agent dir: its path, for messages, and the handle every write goes through.
#[derive(Debug)]
pub struct AgentDir {
    pub path: PathBuf,
    pub dir: cap_std::fs::Dir,
}

/// Why an agent dir cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Escapes(#[from] Escapes),
    #[error("cannot open `{}`", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Confinement {
    /// Writes beneath the project `root`.
    pub fn project(root: PathBuf) -> Confinement {
        Confinement {
            roots: vec![root],
            what: "the project",
        }
    }

    /// Writes beneath the user's `home`.
    pub fn home(home: PathBuf) -> Confinement {
        Confinement {
            roots: vec![home],
            what: "your home folder",
        }
    }

    /// Writes beneath `root`, whatever it is (the cache).
    pub fn within(root: PathBuf) -> Confinement {
        Confinement {
            roots: vec![root],
            what: "its folder",
        }
    }

    /// The root `dir` is beneath (the longest one), and `dir` relative to it.
    fn root_of<'a>(&'a self, dir: &'a Path) -> (&'a Path, &'a Path) {
        self.roots
            .iter()
            .filter_map(|root| dir.strip_prefix(root).ok().map(|rel| (root.as_path(), rel)))
            .max_by_key(|(root, _)| root.as_os_str().len())
            .unwrap_or((dir, Path::new("")))
    }

    /// Opens the agent dir `dir`, creating it (and the folders on its way) when `create`;
    /// returns it with the folders created, outermost first. `Ok(None)` when it does not exist
    /// and `create` is false.
    pub fn open(
        &self,
        dir: &Path,
        create: bool,
    ) -> Result<Option<(AgentDir, Vec<PathBuf>)>, OpenError> {
        let (root, rel) = self.root_of(dir);
        let io = |source| OpenError::Io {
            path: dir.to_path_buf(),
            source,
        };
        if create {
            // The root itself is trusted (the project, the home folder, the cache).
            std::fs::create_dir_all(root).map_err(io)?;
        }
        let root_dir = match cap_std::fs::Dir::open_ambient_dir(root, cap_std::ambient_authority())
        {
            Ok(handle) => handle,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound && !create => return Ok(None),
            Err(err) => return Err(io(err)),
        };
        if rel.as_os_str().is_empty() {
            return Ok(Some((
                AgentDir {
                    path: dir.to_path_buf(),
                    dir: root_dir,
                },
                Vec::new(),
            )));
        }
        let mut created = Vec::new();
        if create {
            let mut sofar = PathBuf::new();
            for part in rel.components() {
                sofar.push(part);
                match root_dir.symlink_metadata(&sofar) {
                    Ok(_) => {}
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                        match root_dir.create_dir(&sofar) {
                            Ok(()) => created.push(root.join(&sofar)),
                            Err(err) => return Err(self.explain(root, rel, dir, err)),
                        }
                    }
                    Err(err) => return Err(self.explain(root, rel, dir, err)),
                }
            }
        }
        match root_dir.open_dir(rel) {
            Ok(handle) => Ok(Some((
                AgentDir {
                    path: dir.to_path_buf(),
                    dir: handle,
                },
                created,
            ))),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound && !create => {
                // A dangling link on the way is not "no dir": say where it leads.
                match self.explain(root, rel, dir, err) {
                    OpenError::Escapes(escapes) => Err(OpenError::Escapes(escapes)),
                    OpenError::Io { .. } => Ok(None),
                }
            }
            Err(err) => Err(self.explain(root, rel, dir, err)),
        }
    }

    /// Why opening `rel` beneath `root` failed: the first link on the way that leaves the root,
    /// else the I/O error itself.
    fn explain(&self, root: &Path, rel: &Path, dir: &Path, err: std::io::Error) -> OpenError {
        let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut path = root.to_path_buf();
        for part in rel.components() {
            path.push(part);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                break;
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            let target = std::fs::read_link(&path).unwrap_or_default();
            let leads = std::fs::canonicalize(&path)
                .ok()
                .or_else(|| Some(path.parent()?.join(&target)));
            if leads.is_none_or(|real| !real.starts_with(&real_root)) {
                return OpenError::Escapes(Escapes {
                    dir: dir.to_path_buf(),
                    link: path,
                    target,
                    what: self.what,
                });
            }
        }
        OpenError::Io {
            path: dir.to_path_buf(),
            source: err,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_inside_are_followed_links_outside_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(project.join(".agents/skills")).unwrap();
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink("../.agents/skills", project.join(".claude/skills")).unwrap();
        std::os::unix::fs::symlink(&outside, project.join(".cursor")).unwrap();
        let confinement = Confinement::project(project.clone());
        let (opened, created) = confinement
            .open(&project.join(".claude/skills"), true)
            .unwrap()
            .unwrap();
        assert!(created.is_empty());
        opened.dir.create_dir("x").unwrap();
        assert!(project.join(".agents/skills/x").is_dir());
        let err = confinement
            .open(&project.join(".cursor/skills"), true)
            .unwrap_err();
        assert!(matches!(err, OpenError::Escapes(_)), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "`{}` leads out of the project through the link `{}` → `{}`",
                project.join(".cursor/skills").display(),
                project.join(".cursor").display(),
                outside.display()
            )
        );
        assert!(!outside.join("skills").exists(), "nothing created outside");
        let err = confinement
            .open(&project.join(".cursor/skills"), false)
            .unwrap_err();
        assert!(matches!(err, OpenError::Escapes(_)), "{err}");
        let (_, created) = confinement
            .open(&project.join(".codex/x/skills"), true)
            .unwrap()
            .unwrap();
        assert_eq!(created.len(), 3);
        assert!(
            confinement
                .open(&project.join(".none/skills"), false)
                .unwrap()
                .is_none()
        );
    }
}
