//! Relative paths that come from outside — git tree entries, archive members, well-known index
//! `files`, npm packages, local folders, the lock's `files` keys and `skillPath` — as one type,
//! [`RelPath`], that can only be built by validation.
//!
//! Invariants of a [`RelPath`]: its text is its components joined by `/`; every component passed
//! [`check_component`] — not empty, not `.` or `..`, no `/`, `\` or NUL, no control character, not
//! `.git` in any case nor one of its NTFS (`git~1`, `.git::$INDEX_ALLOCATION`, `.git.`) or HFS+
//! (`.g\u{200c}it`) aliases, not a Windows device name (`CON`, `aux.md`, `LPT1`), no `<>:"|?*`,
//! no trailing dot or space. Those are the rules `git checkout` applies before it writes a tree
//! entry (`verify_path`, with `core.protectNTFS` and `core.protectHFS` on, as git has them on by
//! default since CVE-2019-1353/1354), taken from `gix-validate`, applied on every system so that a
//! lock written on Linux installs on Windows and macOS the same. The empty path is the root of a
//! tree or skill (a skill at the top of a repository); [`RelPath::file`] refuses it where a file
//! is meant.
//!
//! Install, the lock and serve take only this type, so an unvalidated path cannot reach a write
//! (the compiler says so); `fsutil` joins it onto directory handles that refuse to follow links.

use std::fmt;

/// Why a component or path is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// An empty component (`a//b`), or an empty path where a file is meant.
    Empty,
    /// It starts with `/` or a drive (`C:`).
    Absolute,
    /// A `.` component.
    Dot,
    /// A `..` component.
    Climbs,
    /// `/` inside one name (a crafted tree entry).
    Slash,
    /// `\` in a name: a separator on Windows.
    Backslash,
    /// NUL.
    Nul,
    /// A control character (tab, newline, ESC, …).
    Control,
    /// `.git` in some spelling: git would read it as repository metadata.
    Git,
    /// A Windows device name (`CON`, `nul.txt`, `COM1`).
    Device,
    /// A character Windows forbids in names (`<>:"|?*`).
    WindowsChar,
    /// A trailing dot or space, which Windows drops.
    Trailing,
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Why::Empty => "it is empty or has an empty segment",
            Why::Absolute => "it is absolute",
            Why::Dot => "it has a `.` segment",
            Why::Climbs => "it climbs with `..`",
            Why::Slash => "a name in it holds a `/`",
            Why::Backslash => "it holds a backslash",
            Why::Nul => "it holds NUL",
            Why::Control => "it holds a control character",
            Why::Git => "git would take a name in it for repository metadata (`.git`)",
            Why::Device => "a name in it is a Windows device name",
            Why::WindowsChar => "it holds a character Windows forbids in names (`<>:\"|?*`)",
            Why::Trailing => "a name in it ends with a dot or a space",
        })
    }
}

/// A path refused, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is not a safe relative path: {why}", path.escape_debug())]
pub struct UnsafePath {
    pub path: String,
    pub why: Why,
}

/// Checks one name (a file or folder name inside a tree).
pub fn check_component(name: &str) -> Result<(), Why> {
    use gix_validate::path::component::Error as E;
    match name {
        "" => return Err(Why::Empty),
        "." => return Err(Why::Dot),
        ".." => return Err(Why::Climbs),
        _ => {}
    }
    // Reported before gix's broader classes, for a precise message.
    if name.contains('/') {
        return Err(Why::Slash);
    }
    if name.contains('\\') {
        return Err(Why::Backslash);
    }
    if name.contains('\0') {
        return Err(Why::Nul);
    }
    if name.chars().any(char::is_control) {
        return Err(Why::Control);
    }
    let options = gix_validate::path::component::Options::default();
    match gix_validate::path::component(name.as_bytes().into(), None, options) {
        Ok(_) => Ok(()),
        Err(E::DotGitDir) => Err(Why::Git),
        Err(E::WindowsReservedName) => Err(Why::Device),
        Err(E::WindowsPathPrefix) => Err(Why::Absolute),
        Err(E::WindowsIllegalCharacter) if name.ends_with(['.', ' ']) => Err(Why::Trailing),
        Err(E::WindowsIllegalCharacter) => Err(Why::WindowsChar),
        Err(E::Relative) => Err(Why::Climbs),
        Err(E::PathSeparator) => Err(Why::Backslash),
        Err(_) => Err(Why::Empty),
    }
}

/// Whether `name` is exactly `.git`: a repository's own metadata (a folder, or a `gitdir:`
/// file), which is never part of a skill; readers skip it, where another spelling is refused.
pub fn is_dot_git(name: &str) -> bool {
    name == ".git"
}

/// A validated relative path: components joined by `/` (see the module docs); `""` is the root.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RelPath(String);

impl RelPath {
    /// The root of a tree.
    pub const ROOT: RelPath = RelPath(String::new());

    /// Validates `text` as it is written: `/`-separated components, no `.` or empty ones; `""`
    /// is the root.
    pub fn new(text: &str) -> Result<RelPath, UnsafePath> {
        let unsafe_path = |why| UnsafePath {
            path: text.to_owned(),
            why,
        };
        if text.is_empty() {
            return Ok(RelPath::ROOT);
        }
        if text.starts_with('/') {
            return Err(unsafe_path(Why::Absolute));
        }
        for part in text.split('/') {
            check_component(part).map_err(unsafe_path)?;
        }
        Ok(RelPath(text.to_owned()))
    }

    /// Validates `text` leniently, as archives and URLs write paths: `.` and empty segments are
    /// dropped (`./a//b/` is `a/b`); everything else as [`RelPath::new`].
    pub fn normalize(text: &str) -> Result<RelPath, UnsafePath> {
        if text.starts_with('/') {
            return Err(UnsafePath {
                path: text.to_owned(),
                why: Why::Absolute,
            });
        }
        let parts: Vec<&str> = text
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        RelPath::new(&parts.join("/")).map_err(|err| UnsafePath {
            path: text.to_owned(),
            ..err
        })
    }

    /// [`RelPath::new`], and not the root: the path of a file.
    pub fn file(text: &str) -> Result<RelPath, UnsafePath> {
        let path = RelPath::new(text)?;
        if path.is_root() {
            return Err(UnsafePath {
                path: text.to_owned(),
                why: Why::Empty,
            });
        }
        Ok(path)
    }

    /// This path with the validated name `name` appended.
    pub fn join(&self, name: &str) -> Result<RelPath, UnsafePath> {
        let joined = if self.0.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", self.0)
        };
        match check_component(name) {
            Ok(()) => Ok(RelPath(joined)),
            Err(why) => Err(UnsafePath { path: joined, why }),
        }
    }

    /// The path `target` (a link's text, relative to this path's folder) leads to, `..` going
    /// up a folder: `None` when it is absolute, climbs above the root or is refused otherwise.
    #[must_use]
    pub fn resolve_link(&self, target: &str) -> Option<RelPath> {
        if target.starts_with('/') {
            return None;
        }
        let parent = self.parent();
        let mut parts: Vec<&str> = parent.components().collect();
        for segment in target.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                name => {
                    check_component(name).ok()?;
                    parts.push(name);
                }
            }
        }
        Some(RelPath(parts.join("/")))
    }

    /// The folder this path is in (the root for a top-level name and for the root).
    #[must_use]
    pub fn parent(&self) -> RelPath {
        RelPath(
            self.0
                .rsplit_once('/')
                .map_or(String::new(), |(dir, _)| dir.to_owned()),
        )
    }

    /// The last component (`""` for the root).
    pub fn name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or("")
    }

    /// Its components.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|p| !p.is_empty())
    }

    /// This path relative to `base`, when it is inside it (`base` itself is the root).
    #[must_use]
    pub fn strip_prefix(&self, base: &RelPath) -> Option<RelPath> {
        if base.is_root() {
            return Some(self.clone());
        }
        if self.0 == base.0 {
            return Some(RelPath::ROOT);
        }
        self.0
            .strip_prefix(&base.0)
            .and_then(|rest| rest.strip_prefix('/'))
            .map(|rest| RelPath(rest.to_owned()))
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// This path under a folder of this machine (components pushed one by one: never absolute,
    /// never climbing).
    pub fn to_path(&self, base: &std::path::Path) -> std::path::PathBuf {
        let mut path = base.to_path_buf();
        path.extend(self.components());
        path
    }
}

impl std::ops::Deref for RelPath {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RelPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for RelPath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl PartialEq<str> for RelPath {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RelPath {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl serde::Serialize for RelPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_normal_paths() {
        for text in [
            "SKILL.md",
            "a/b.md",
            "scripts/run.sh",
            ".github/x.yml",
            "gitignore",
            ".gitignore",
            ".gitmodules",
            "README",
            "con-test.md",
            "données/é.md",
            "node_modules/x/index.js",
        ] {
            assert_eq!(RelPath::new(text).unwrap().as_str(), text, "{text}");
        }
        assert!(RelPath::new("").unwrap().is_root());
        assert_eq!(RelPath::normalize("./a//b/./c.md").unwrap(), "a/b/c.md");
        assert!(RelPath::normalize("./").unwrap().is_root());
    }

    #[test]
    fn refuses_what_git_refuses_and_more() {
        for (text, why) in [
            ("..", Why::Climbs),
            ("a/../b", Why::Climbs),
            ("a/./b", Why::Dot),
            ("a//b", Why::Empty),
            ("a/", Why::Empty),
            ("/etc/passwd", Why::Absolute),
            ("C:", Why::Absolute),
            ("c:x", Why::Absolute),
            ("a\\b", Why::Backslash),
            ("a\0b", Why::Nul),
            ("a\nb", Why::Control),
            ("a\x1b[2Jb", Why::Control),
            (".git", Why::Git),
            (".GIT", Why::Git),
            ("a/.Git/config", Why::Git),
            (".git.", Why::Git),
            (".git ", Why::Git),
            ("git~1", Why::Git),
            ("GIT~1", Why::Git),
            (".git::$INDEX_ALLOCATION", Why::Git),
            (".g\u{200c}it", Why::Git),
            ("\u{200e}.git", Why::Git),
            ("CON", Why::Device),
            ("aux.md", Why::Device),
            ("scripts/nul.txt", Why::Device),
            ("LPT1", Why::Device),
            ("a<b", Why::WindowsChar),
            ("a?b", Why::WindowsChar),
            ("note:x.md", Why::WindowsChar),
            ("dots.", Why::Trailing),
            ("space ", Why::Trailing),
        ] {
            assert_eq!(RelPath::new(text).map_err(|e| e.why), Err(why), "{text:?}");
        }
        assert_eq!(RelPath::file("").unwrap_err().why, Why::Empty);
    }

    #[test]
    fn links_resolve_inside_only() {
        let at = |p: &str| RelPath::new(p).unwrap();
        assert_eq!(
            at("s/refs/x").resolve_link("../LICENSE").unwrap(),
            "s/LICENSE"
        );
        assert_eq!(at("s/x").resolve_link("./a//b").unwrap(), "s/a/b");
        assert_eq!(at("s/x").resolve_link("../../x"), None);
        assert_eq!(at("s/x").resolve_link("/etc"), None);
        assert_eq!(at("s/x").resolve_link("a\\b"), None);
        assert_eq!(at("s/x").resolve_link(".git/config"), None);
        assert_eq!(at("a").parent(), RelPath::ROOT);
        assert_eq!(at("a/b/c").strip_prefix(&at("a")).unwrap(), "b/c");
        assert_eq!(at("ab/c").strip_prefix(&at("a")), None);
    }
}
