//! File-system helpers with the house invariant: nothing is written half-way.
//!
//! Every file is written to a temp file beside its target and renamed into place, so a reader
//! (or a crash) sees either the old bytes or the new ones. Permissions of a replaced file are kept.
//! Every temp name starts with [`TEMP_PREFIX`], which the index and `doctor` know to skip; and
//! [`relative_path`] gives the relative links and lock paths between two absolute folders.
//!
//! Paths *inside* a skill, a source or an archive (archive entries, the lock's `files`, link
//! targets, subpaths) are read by one normaliser, [`normal_rel`] (and [`resolve_within`] for a
//! link's target), with one set of rules; paths of the machine (a local source, `--cwd`) are
//! `Path`s and keep their own rules (`source::grammar::normalize`).

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

/// Prefix of every temp folder or file `skills` writes beside its target (staging, backup and
/// trash folders, atomic writes); the index never looks into them.
pub const TEMP_PREFIX: &str = ".skills-";

/// The largest lockfile or `package.json` read.
pub const MAX_MANIFEST: u64 = 64 << 20;

/// Opens a file for reading without blocking on a FIFO (a `SKILL.md` that is a named pipe must
/// not hang the whole run).
pub fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads a lockfile or a `package.json` that a checkout may have made anything: opened without
/// blocking (a FIFO does not hang the run), read only when it is a regular file (not
/// `/dev/zero`, a socket or a folder, also through a link), and at most [`MAX_MANIFEST`] bytes.
pub fn read_manifest(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a regular file (a device, FIFO, socket or folder)",
        ));
    }
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than the limit of {} MiB", MAX_MANIFEST >> 20),
        )
    };
    if meta.len() > MAX_MANIFEST {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_MANIFEST + 1), &mut bytes)?;
    if bytes.len() as u64 > MAX_MANIFEST {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically (temp file in the same folder, then rename). A `path`
/// that exists and is not a regular file (a device such as `/dev/null`, a FIFO, a socket, a
/// folder) is refused: the rename would replace it, not write into it. (A link to a regular
/// file is replaced by the file; callers that mean its target resolve it first.)
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Like [`write_atomic`], the bytes written by `write` as they come (nothing held in memory).
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("`{}` is not a regular file", path.display()),
        ));
    }
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}tmp-"))
        .tempfile_in(dir)?;
    {
        let mut out = std::io::BufWriter::new(temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
    }
    temp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        std::fs::set_permissions(temp.path(), meta.permissions())?;
    } else {
        set_default_mode(temp.as_file())?;
    }
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Writes `bytes` to `rel` beneath the folder handle `dir`, atomically: a temp file beside it,
/// then a rename, both through the handle, so no link on the way can lead the write out of
/// `dir`. Permissions of a replaced file are kept; `rel` must be a regular file or nothing.
pub fn write_atomic_beneath(
    dir: &cap_std::fs::Dir,
    rel: &Path,
    bytes: &[u8],
) -> std::io::Result<()> {
    use std::io::Write as _;
    let parent = rel.parent().filter(|p| !p.as_os_str().is_empty());
    if rel.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no file name",
        ));
    }
    let old = match dir.symlink_metadata(rel) {
        Ok(meta) if !meta.is_file() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("`{}` is not a regular file", rel.display()),
            ));
        }
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    let temp_name = format!(
        "{TEMP_PREFIX}tmp-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let temp = parent.map_or_else(|| PathBuf::from(&temp_name), |p| p.join(&temp_name));
    let mut options = cap_std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    let written = (|| {
        let mut file = dir.open_with(&temp, &options)?.into_std();
        file.write_all(bytes)?;
        file.sync_all()?;
        match old {
            Some(permissions) => dir.set_permissions(&temp, permissions)?,
            None => set_default_mode(&file)?,
        }
        dir.rename(&temp, dir, rel)
    })();
    if written.is_err() {
        let _ = dir.remove_file(&temp);
    }
    written
}

/// New files get the usual `0644` (tempfile creates them `0600`).
#[cfg(unix)]
fn set_default_mode(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_default_mode(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Writes `bytes` only when they differ from what `path` holds; returns whether it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if read_manifest(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

/// Why a path inside a skill, source or archive is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsafePath {
    /// It starts with `/` or a drive (`C:`).
    Absolute,
    /// A segment is `..`.
    Climbs,
    /// It holds NUL.
    Nul,
    /// It holds `\`: a separator on Windows and a name character elsewhere, so the same path
    /// would name different files on different systems.
    Backslash,
}

impl std::fmt::Display for UnsafePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnsafePath::Absolute => "it is absolute",
            UnsafePath::Climbs => "it climbs with `..`",
            UnsafePath::Nul => "it holds NUL",
            UnsafePath::Backslash => "it holds a backslash",
        })
    }
}

/// A relative path inside a skill, a source or an archive, checked and written one way: segments
/// joined by `/`, no `.` and no empty segment.
///
/// Rules: `/` is the only separator; `.` segments and empty ones (`a//b`, a trailing `/`) are
/// dropped, so the root itself (`""`, `.`, `./`) is `""`; a `..` segment is refused (a link's
/// `..` is followed by [`resolve_within`]); an absolute path is refused — a leading `/`, or a
/// first segment that is a Windows drive (one ASCII letter and `:`, as in `C:` or `C:/x`; `a:b`
/// is a name); NUL and `\` are refused (checked last, so a path refused for another reason
/// says that reason).
pub fn normal_rel(path: &str) -> Result<String, UnsafePath> {
    let is_drive = |segment: &str| {
        let bytes = segment.as_bytes();
        bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
    };
    if path.starts_with('/') || path.split(['/', '\\']).next().is_some_and(is_drive) {
        return Err(UnsafePath::Absolute);
    }
    let mut segments = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(UnsafePath::Climbs),
            _ => segments.push(segment),
        }
    }
    if path.contains('\0') {
        return Err(UnsafePath::Nul);
    }
    if path.contains('\\') {
        return Err(UnsafePath::Backslash);
    }
    Ok(segments.join("/"))
}

/// The path `rel` (a link's target, relative to folder `base`) leads to inside a tree, under
/// [`normal_rel`]'s rules, except that `..` goes up a folder: `None` when it climbs above the
/// tree's root or is refused otherwise.
pub fn resolve_within(base: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for segment in rel.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => {
                normal_rel(name).ok()?;
                parts.push(name);
            }
        }
    }
    Some(parts.join("/"))
}

/// The relative path from folder `from` to `to` (both absolute), for relative symlinks.
pub fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let from: Vec<Component> = from.components().collect();
    let to_parts: Vec<Component> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to_parts[common..] {
        out.push(part.as_os_str());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;

    #[test]
    fn replaces_atomically_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o644
            );
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert!(write_if_changed(&path, b"two").unwrap());
        assert!(!write_if_changed(&path, b"two").unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temp file is left behind");
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let err = write_atomic(&socket, b"x").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        assert!(
            std::fs::symlink_metadata(&socket)
                .unwrap()
                .file_type()
                .is_socket()
        );
        assert!(write_atomic(dir.path(), b"x").is_err(), "a folder");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temp file left");
    }

    #[test]
    fn normal_relative_paths() {
        for (path, normal) in [
            ("a/b.md", "a/b.md"),
            ("./a//b/./c.md", "a/b/c.md"),
            ("a/", "a"),
            ("", ""),
            (".", ""),
            ("./", ""),
            ("a:b", "a:b"),
            ("ab:/c", "ab:/c"),
        ] {
            assert_eq!(normal_rel(path).as_deref(), Ok(normal), "{path}");
        }
        for (path, why) in [
            ("/etc/passwd", UnsafePath::Absolute),
            ("C:/x", UnsafePath::Absolute),
            ("c:", UnsafePath::Absolute),
            ("C:\\x", UnsafePath::Absolute),
            ("a/../b", UnsafePath::Climbs),
            ("..", UnsafePath::Climbs),
            ("a\\b", UnsafePath::Backslash),
            ("a\0b", UnsafePath::Nul),
        ] {
            assert_eq!(normal_rel(path), Err(why), "{path}");
        }
        assert_eq!(
            resolve_within("s/refs", "../LICENSE").as_deref(),
            Some("s/LICENSE")
        );
        assert_eq!(resolve_within("s", "./a//b").as_deref(), Some("s/a/b"));
        assert_eq!(resolve_within("s", "../../x"), None);
        assert_eq!(resolve_within("s", "/etc"), None);
        assert_eq!(resolve_within("s", "a\\b"), None);
    }

    #[test]
    fn relative_links() {
        assert_eq!(
            relative_path(
                Path::new("/p/.claude/skills"),
                Path::new("/p/.agents/skills/x")
            ),
            PathBuf::from("../../.agents/skills/x")
        );
        assert_eq!(
            relative_path(
                Path::new("/h/.config/x/skills"),
                Path::new("/h/.agents/skills/y")
            ),
            PathBuf::from("../../../.agents/skills/y")
        );
    }
}
