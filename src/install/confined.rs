//! Where a command may write: beneath a root (the project, or the user's home for `-g`), through
//! directory handles that no link can lead out of.
//!
//! An agent dir is reached from its root's handle, one component at a time: a link on the way,
//! relative or absolute, is followed only while it stays beneath the root — the common
//! `.claude/skills → ../.agents/skills`, and `~/.claude/skills → /home/me/.agents/skills` as
//! people share one folder between agents with `ln -s` — and a link that leaves it (`.claude →
//! /home/other`, `skills → ../../outside`) makes the command refuse, naming the link. An
//! absolute target counts as beneath the root when it names the root (as given or with its
//! links resolved) or resolves into it. The path found holds no link any more; it is then
//! opened from the root's handle with [`cap_std`] (on Linux `openat2` with `RESOLVE_BENEATH`,
//! elsewhere a walk that checks every component), so a link swapped in meanwhile cannot lead
//! out either. Every write, rename and removal of a transaction then goes through the agent
//! dir's handle with a single validated name, so nothing in the project can redirect it. A dir
//! that no root holds (the user set `CODEX_HOME=/opt/codex`) is its own root: the user chose it.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

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
        let (found, missing) = self.resolve(&root_dir, root, rel, dir)?;
        if missing && !create {
            return Ok(None);
        }
        let mut created = Vec::new();
        if missing {
            let mut sofar = PathBuf::new();
            for part in found.components() {
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
        let opened = if found.as_os_str().is_empty() {
            root_dir.try_clone()
        } else {
            root_dir.open_dir(&found)
        };
        match opened {
            Ok(handle) => Ok(Some((
                AgentDir {
                    path: dir.to_path_buf(),
                    dir: handle,
                },
                created,
            ))),
            Err(err) => Err(self.explain(root, rel, dir, err)),
        }
    }

    /// Where `rel` really is beneath `root` (whose handle is `root_dir`): the path relative to
    /// it with every link on the way followed, and whether a part of it does not exist yet (the
    /// rest of the path is then where it would be). A link that leads out of the root, or a
    /// chain of more than 40 links, is the error.
    fn resolve(
        &self,
        root_dir: &cap_std::fs::Dir,
        root: &Path,
        rel: &Path,
        dir: &Path,
    ) -> Result<(PathBuf, bool), OpenError> {
        let io = |source| OpenError::Io {
            path: dir.to_path_buf(),
            source,
        };
        let real_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut todo: VecDeque<OsString> = VecDeque::new();
        push_front(&mut todo, rel).map_err(io)?;
        // The path so far: every part of it a folder, none a link.
        let mut done = PathBuf::new();
        let mut missing = false;
        // The last link followed: what a `..` past the root is blamed on.
        let mut last_link: Option<(PathBuf, PathBuf)> = None;
        let mut hops = 0;
        let escapes = |link: Option<(PathBuf, PathBuf)>| match link {
            Some((link, target)) => OpenError::Escapes(Escapes {
                dir: dir.to_path_buf(),
                link,
                target,
                what: self.what,
            }),
            None => io(std::io::ErrorKind::InvalidInput.into()),
        };
        while let Some(part) = todo.pop_front() {
            if part == ".." {
                if !done.pop() {
                    return Err(escapes(last_link));
                }
                continue;
            }
            let next = done.join(&part);
            if missing {
                done = next;
                continue;
            }
            let meta = match root_dir.symlink_metadata(&next) {
                Ok(meta) => meta,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                    missing = true;
                    done = next;
                    continue;
                }
                Err(err) => return Err(io(err)),
            };
            if !meta.file_type().is_symlink() {
                done = next;
                continue;
            }
            hops += 1;
            if hops > 40 {
                return Err(io(std::io::Error::other("too many levels of links")));
            }
            let target = root_dir.read_link_contents(&next).map_err(io)?;
            let link = (root.join(&next), target.clone());
            if target.is_absolute() {
                let Some(inside) = beneath(root, &real_root, &target) else {
                    return Err(escapes(Some(link)));
                };
                done = PathBuf::new();
                push_front(&mut todo, &inside).map_err(io)?;
            } else {
                push_front(&mut todo, &target).map_err(io)?;
            }
            last_link = Some(link);
        }
        Ok((done, missing))
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

/// Puts the parts of `path` (relative) before the rest of `todo`, in order.
fn push_front(todo: &mut VecDeque<OsString>, path: &Path) -> std::io::Result<()> {
    for part in path.components().rev() {
        match part {
            Component::Normal(name) => todo.push_front(name.to_os_string()),
            Component::ParentDir => todo.push_front("..".into()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => {
                return Err(std::io::ErrorKind::InvalidInput.into());
            }
        }
    }
    Ok(())
}

/// The absolute link target `target` relative to the root, when it names a place beneath it:
/// spelt with the root as given or as resolved, or resolving into it. `None` when it leaves.
fn beneath(root: &Path, real_root: &Path, target: &Path) -> Option<PathBuf> {
    target
        .strip_prefix(root)
        .or_else(|_| target.strip_prefix(real_root))
        .map(Path::to_path_buf)
        .ok()
        .or_else(|| {
            let real = std::fs::canonicalize(target).ok()?;
            real.strip_prefix(real_root).ok().map(Path::to_path_buf)
        })
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

    #[test]
    fn absolute_links_inside_are_followed_too() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let outside = tmp.path().join("outside");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(home.join(".cursor")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        // `ln -s ~/.agents/skills ~/.claude/skills` before `~/.agents/skills` exists.
        std::os::unix::fs::symlink(home.join(".agents/skills"), home.join(".claude/skills"))
            .unwrap();
        // Through a link of its own into the home, and back out with `..`.
        std::os::unix::fs::symlink(&home, tmp.path().join("alias")).unwrap();
        std::os::unix::fs::symlink(
            tmp.path().join("alias/.agents/../.agents/skills"),
            home.join(".cursor/skills"),
        )
        .unwrap();
        std::os::unix::fs::symlink(home.join("../outside"), home.join(".codex")).unwrap();
        let confinement = Confinement::home(home.clone());
        assert!(
            confinement
                .open(&home.join(".claude/skills"), false)
                .unwrap()
                .is_none(),
            "a link to a folder not made yet is no dir yet"
        );
        let (opened, created) = confinement
            .open(&home.join(".claude/skills"), true)
            .unwrap()
            .unwrap();
        assert_eq!(created, [home.join(".agents"), home.join(".agents/skills")]);
        opened.dir.create_dir("x").unwrap();
        assert!(home.join(".agents/skills/x").is_dir());
        let (opened, _) = confinement
            .open(&home.join(".cursor/skills"), false)
            .unwrap()
            .unwrap();
        assert!(opened.dir.symlink_metadata("x").unwrap().is_dir());
        let err = confinement
            .open(&home.join(".codex/skills"), true)
            .unwrap_err();
        assert!(matches!(err, OpenError::Escapes(_)), "{err}");
        assert!(!outside.join("skills").exists(), "nothing created outside");
    }
}
