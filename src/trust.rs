//! Whether a folder may be the project: git's `safe.directory` (CVE-2022-24765) for skills.
//!
//! The project's agent dirs and lockfile decide which skills reach `prompt`, `serve` and
//! AGENTS.md, and where `add` writes. The project is found by climbing from the working
//! directory, so a `.claude/` or `skills-lock.json` that another local user left in a shared
//! parent (`/tmp`, a team share) would otherwise become the project of everyone below it.
//!
//! Invariants: a folder is trusted as the project only when it is owned by you and not writable
//! by every user (sticky bit or not), and each marker found in it (the lockfile, each hidden
//! agent dir and the folders on its way, `.git`) is owned by you. Ownership is that of the entry
//! itself, never of a link's target (`lstat`, as git judges it). "You" is the effective user;
//! for root, a folder root owns, or one owned by the user `sudo` ran for (`SUDO_UID`), as in git.
//! [`SKILLS_SAFE_DIRECTORIES`](crate::env_vars::SKILLS_SAFE_DIRECTORIES) lists folders trusted
//! all the same: `*` trusts every folder, `dir/*` a folder and every folder below it. On systems
//! without Unix owners every folder is trusted.

use std::path::{Path, PathBuf};

/// Who may own a project, and the folders trusted whatever their owner.
#[derive(Debug, Clone, Default)]
pub struct Trust {
    /// The effective user id (`None` where the system has no Unix owners).
    euid: Option<u32>,
    /// For root: the user `sudo` ran for.
    sudo_uid: Option<u32>,
    safe: Vec<Safe>,
}

/// One entry of `SKILLS_SAFE_DIRECTORIES`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Safe {
    /// `*`: every folder.
    All,
    /// This folder.
    Exact(PathBuf),
    /// `dir/*`: this folder and every folder below it.
    Below(PathBuf),
}

/// A folder that cannot be the project, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.reason())]
pub struct Untrusted {
    /// The folder that would have been the project.
    pub folder: PathBuf,
    /// The entry at fault: the folder itself, or a marker in it.
    pub path: PathBuf,
    pub why: Why,
}

/// What is wrong with an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// Owned by another user.
    Owner { uid: u32, you: u32 },
    /// Writable by every user (`mode`: its permission bits).
    WorldWritable { mode: u32 },
}

impl Untrusted {
    /// Why, after the folder is named: `it is writable by every user (mode 1777)`,
    /// `` `/srv/x/.claude` is owned by `nobody` (uid 65534), not by you (`me`, uid 1000) ``.
    pub fn reason(&self) -> String {
        let what = if self.path == self.folder {
            "it".to_owned()
        } else {
            format!("`{}`", self.path.display())
        };
        match self.why {
            Why::Owner { uid, you } => format!(
                "{what} is owned by {}, not by you ({})",
                user(uid),
                user(you)
            ),
            Why::WorldWritable { mode } => {
                format!("{what} is writable by every user (mode {mode:o})")
            }
        }
    }

    /// How to trust the folder all the same.
    pub fn trust_hint(&self) -> String {
        format!(
            "if you trust `{}`, add it to {} (`{}={}`; `*` trusts every folder)",
            self.folder.display(),
            crate::env_vars::SKILLS_SAFE_DIRECTORIES,
            crate::env_vars::SKILLS_SAFE_DIRECTORIES,
            self.folder.display()
        )
    }

    /// What to do about it: where to work instead, and how to trust the folder.
    pub fn hint(&self) -> String {
        format!(
            "work in a folder of your own, or pass `-g` for your own skills; {}",
            self.trust_hint()
        )
    }
}

/// `` `nobody`, uid 65534 ``, or `uid 65534` when the user database does not name it.
fn user(uid: u32) -> String {
    match user_name(uid) {
        Some(name) => format!("`{name}`, uid {uid}"),
        None => format!("uid {uid}"),
    }
}

/// The name `/etc/passwd` gives `uid` (users of a directory service are shown by number).
fn user_name(uid: u32) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id = fields.nth(1)?;
        (id.parse::<u32>().ok()? == uid).then(|| name.to_owned())
    })
}

impl Trust {
    /// The running user, and the folders `SKILLS_SAFE_DIRECTORIES` trusts.
    pub fn from_env() -> Trust {
        let safe = std::env::var_os(crate::env_vars::SKILLS_SAFE_DIRECTORIES)
            .map(|list| parse_safe(&list))
            .unwrap_or_default();
        Trust {
            euid: effective_uid(),
            sudo_uid: std::env::var(crate::env_vars::SUDO_UID)
                .ok()
                .and_then(|v| v.trim().parse().ok()),
            safe,
        }
    }

    /// Whether `SKILLS_SAFE_DIRECTORIES` trusts `dir`.
    fn listed(&self, dir: &Path) -> bool {
        let real = std::fs::canonicalize(dir).ok();
        let is = |path: &Path| dir == path || real.as_deref() == Some(path);
        self.safe.iter().any(|safe| match safe {
            Safe::All => true,
            Safe::Exact(path) => is(path),
            Safe::Below(path) => {
                dir.starts_with(path) || real.as_deref().is_some_and(|r| r.starts_with(path))
            }
        })
    }

    /// Whether an entry owned by `uid` is yours (see the module docs).
    fn owns(&self, uid: u32) -> bool {
        match self.euid {
            None => true,
            Some(euid) if uid == euid => true,
            Some(0) => self.sudo_uid == Some(uid),
            Some(_) => false,
        }
    }

    /// Ok when `folder` may be the project, with `markers` (paths relative to it: the lockfile,
    /// agent dirs, `.git`) found in it; else the first entry at fault.
    pub fn check(&self, folder: &Path, markers: &[&str]) -> Result<(), Untrusted> {
        let Some(you) = self.euid else {
            return Ok(());
        };
        if self.listed(folder) {
            return Ok(());
        }
        let fault = |path: PathBuf, why| Untrusted {
            folder: folder.to_path_buf(),
            path,
            why,
        };
        // An entry that cannot be looked at is judged by what follows: the marker that could
        // not be seen was not used either.
        if let Some((uid, mode)) = owner(folder) {
            if !self.owns(uid) {
                return Err(fault(folder.to_path_buf(), Why::Owner { uid, you }));
            }
            if mode & 0o002 != 0 {
                return Err(fault(
                    folder.to_path_buf(),
                    Why::WorldWritable {
                        mode: mode & 0o7777,
                    },
                ));
            }
        }
        for marker in markers {
            let mut path = folder.to_path_buf();
            for part in Path::new(marker).components() {
                path.push(part);
                if let Some((uid, _)) = owner(&path)
                    && !self.owns(uid)
                {
                    return Err(fault(path, Why::Owner { uid, you }));
                }
            }
        }
        Ok(())
    }
}

/// The entries of `SKILLS_SAFE_DIRECTORIES`: paths separated as in `PATH`; `*`, `dir/*`, `dir`.
fn parse_safe(list: &std::ffi::OsStr) -> Vec<Safe> {
    std::env::split_paths(list)
        .filter(|path| !path.as_os_str().is_empty())
        .map(|path| {
            if path.as_os_str() == "*" {
                return Safe::All;
            }
            let (below, dir) = match path.to_str().and_then(|p| p.strip_suffix("/*")) {
                Some(dir) => (true, PathBuf::from(if dir.is_empty() { "/" } else { dir })),
                None => (false, path),
            };
            let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
            if below {
                Safe::Below(dir)
            } else {
                Safe::Exact(dir)
            }
        })
        .collect()
}

#[cfg(unix)]
#[expect(
    clippy::unnecessary_wraps,
    reason = "`None` where the system has no Unix owners"
)]
fn effective_uid() -> Option<u32> {
    Some(rustix::process::geteuid().as_raw())
}

#[cfg(not(unix))]
fn effective_uid() -> Option<u32> {
    None
}

/// The owner and mode of the entry at `path` itself (a link is not followed).
#[cfg(unix)]
fn owner(path: &Path) -> Option<(u32, u32)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|meta| (meta.uid(), meta.mode()))
}

#[cfg(not(unix))]
fn owner(_path: &Path) -> Option<(u32, u32)> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn trust(euid: u32, sudo_uid: Option<u32>, safe: &str) -> Trust {
        Trust {
            euid: Some(euid),
            sudo_uid,
            safe: parse_safe(std::ffi::OsStr::new(safe)),
        }
    }

    #[test]
    fn owners_as_git_sees_them() {
        assert!(trust(1000, None, "").owns(1000));
        assert!(!trust(1000, None, "").owns(0));
        assert!(
            !trust(1000, Some(1001), "").owns(1001),
            "SUDO_UID is for root"
        );
        assert!(trust(0, Some(1000), "").owns(0));
        assert!(trust(0, Some(1000), "").owns(1000));
        assert!(!trust(0, Some(1000), "").owns(1001));
        assert!(!trust(0, None, "").owns(65534));
    }

    #[test]
    fn safe_directories_trust_a_folder_below_or_all() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        std::fs::create_dir_all(a.join("b")).unwrap();
        let list = |entries: &[String]| std::env::join_paths(entries).unwrap();
        let t = |entries: &[String]| Trust {
            euid: Some(1),
            sudo_uid: None,
            safe: parse_safe(&list(entries)),
        };
        let shown = a.display().to_string();
        assert!(t(std::slice::from_ref(&shown)).listed(&a));
        assert!(!t(std::slice::from_ref(&shown)).listed(&a.join("b")));
        assert!(t(&[format!("{shown}/*")]).listed(&a.join("b")));
        assert!(t(&["*".into()]).listed(Path::new("/anything")));
        assert!(!t(&[String::new()]).listed(&a));
    }

    #[test]
    fn a_world_writable_folder_is_refused_sticky_or_not() {
        use std::os::unix::fs::PermissionsExt as _;
        let tmp = tempfile::tempdir().unwrap();
        let me = effective_uid().unwrap();
        let trust = trust(me, None, "");
        assert_eq!(trust.check(tmp.path(), &[]), Ok(()));
        for mode in [0o777, 0o1777] {
            std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode)).unwrap();
            let err = trust.check(tmp.path(), &[]).unwrap_err();
            assert_eq!(err.why, Why::WorldWritable { mode });
        }
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
