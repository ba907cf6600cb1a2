//! The file inventory of a skill folder: every entry with its relative path, size and kind.
//!
//! Invariants: paths are relative to the skill folder and joined with `/`; entries come in byte
//! order of their path (deterministic, independent of the file system); `.git/` and
//! `node_modules/` are never entered (see [`super::files`] for why, and for every other rule of
//! which files a skill has). Symlinks are recorded, not followed, and carry whether their target
//! stays inside the skill folder.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Directory names never entered when listing a skill's files: what no reader of an installed
/// folder looks into ([`super::files`]).
pub const SKIPPED_DIRS: &[&str] = super::files::NOT_INSPECTED;

/// Deepest folder nesting listed inside one skill.
pub const MAX_DEPTH: usize = super::files::MAX_DEPTH;
/// Most entries listed for one skill; a larger folder is reported, not listed further.
pub const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Path relative to the skill folder, `/`-separated.
    pub rel: String,
    pub path: PathBuf,
    pub size: u64,
    pub kind: FileKind,
    /// Unix permission bits (0 elsewhere).
    pub mode: u32,
    /// The metadata that changes with the content (of a link's target, for a link).
    pub stamp: Stamp,
}

/// What a file's metadata says about its content, as git's index keeps it: writing a file
/// changes its size or its modification and change times; replacing it changes the inode. Caches
/// of digests are keyed by it, so that a file whose stamp is unchanged is not read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Stamp {
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime: i64,
    /// Change time (of the inode), nanoseconds since the epoch; cannot be set by tools.
    pub ctime: i64,
    pub ino: u64,
    pub dev: u64,
}

impl Stamp {
    #[cfg(unix)]
    pub fn of(meta: &fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        let nanos =
            |secs: i64, nanos: i64| secs.saturating_mul(1_000_000_000).saturating_add(nanos);
        Stamp {
            size: meta.len(),
            mtime: nanos(meta.mtime(), meta.mtime_nsec()),
            ctime: nanos(meta.ctime(), meta.ctime_nsec()),
            ino: meta.ino(),
            dev: meta.dev(),
        }
    }

    #[cfg(not(unix))]
    pub fn of(meta: &fs::Metadata) -> Stamp {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        Stamp {
            size: meta.len(),
            mtime,
            ..Stamp::default()
        }
    }

    /// Whether the file changed less than `slack` before `time` (nanoseconds since the epoch): a
    /// write in the same tick of a coarse clock could leave the stamp as it is, so such a stamp
    /// proves nothing yet ("racily clean" in git's words).
    pub fn is_racy(&self, time: i64, slack: i64) -> bool {
        self.mtime.max(self.ctime) >= time.saturating_sub(slack)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    File,
    Symlink(Link),
    /// A socket, FIFO or device: never part of a skill.
    Special,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The link text as stored.
    pub target: PathBuf,
    /// Where it leads (`None`: dangling or a loop).
    pub resolved: Option<PathBuf>,
    /// The target is absolute or leads out of the skill folder.
    pub escapes: bool,
    pub to_dir: bool,
}

impl FileEntry {
    pub fn is_executable(&self) -> bool {
        self.mode & 0o111 != 0
    }

    /// The final path component.
    pub fn file_name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }
}

#[derive(Debug, Default)]
pub struct Inventory {
    pub files: Vec<FileEntry>,
    /// Entries that could not be listed, with the error.
    pub problems: Vec<(PathBuf, io::Error)>,
    /// The listing stopped at [`MAX_ENTRIES`].
    pub truncated: bool,
}

impl Inventory {
    /// Files an agent may be shown and served, whatever their size: the served view of
    /// [`super::files`] (see [`super::files::served`] for the one with sizes and order).
    pub fn servable(&self) -> impl Iterator<Item = &FileEntry> {
        self.files
            .iter()
            .filter(|f| super::files::is_served(&f.rel) && super::files::is_served_kind(f))
    }

    /// Lists the skill folder `dir`.
    pub fn scan(dir: &Path) -> Inventory {
        let mut inventory = Inventory::default();
        let mut walk = Walk {
            dir,
            root: None,
            inventory: &mut inventory,
        };
        walk.dir(dir, "", 0);
        inventory.files.sort_by(|a, b| a.rel.cmp(&b.rel));
        inventory
    }

    pub fn get(&self, rel: &str) -> Option<&FileEntry> {
        self.files
            .binary_search_by(|f| f.rel.as_str().cmp(rel))
            .ok()
            .map(|i| &self.files[i])
    }

    pub fn total_size(&self) -> u64 {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::File)
            .map(|f| f.size)
            .sum()
    }
}

struct Walk<'a> {
    dir: &'a Path,
    /// The canonical skill folder, resolved when the first symlink needs judging.
    root: Option<PathBuf>,
    inventory: &'a mut Inventory,
}

impl Walk<'_> {
    fn dir(&mut self, dir: &Path, prefix: &str, depth: usize) {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                self.inventory.problems.push((dir.to_path_buf(), err));
                return;
            }
        };
        let mut entries: Vec<_> = entries
            .filter_map(|entry| match entry {
                Ok(entry) => Some(entry),
                Err(err) => {
                    self.inventory.problems.push((dir.to_path_buf(), err));
                    None
                }
            })
            .collect();
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            if self.inventory.files.len() >= MAX_ENTRIES {
                self.inventory.truncated = true;
                return;
            }
            self.entry(&entry, prefix, depth);
        }
    }

    fn entry(&mut self, entry: &fs::DirEntry, prefix: &str, depth: usize) {
        let path = entry.path();
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            let err = io::Error::new(io::ErrorKind::InvalidData, "file name is not valid UTF-8");
            self.inventory.problems.push((path, err));
            return;
        };
        let rel = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        };
        // The listing's file type saves a `stat` for folders; files need one for size and mode.
        let file_type = match entry.file_type() {
            Ok(file_type) => file_type,
            Err(err) => {
                self.inventory.problems.push((path, err));
                return;
            }
        };
        if file_type.is_dir() {
            if SKIPPED_DIRS.contains(&name) {
                return;
            }
            if depth >= MAX_DEPTH {
                let err = io::Error::other(format!("nested deeper than {MAX_DEPTH} folders"));
                self.inventory.problems.push((path, err));
                return;
            }
            self.dir(&path, &rel, depth + 1);
            return;
        }
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(err) => {
                self.inventory.problems.push((path, err));
                return;
            }
        };
        let kind = if file_type.is_symlink() {
            let root = self.root.get_or_insert_with(|| {
                fs::canonicalize(self.dir).unwrap_or_else(|_| self.dir.to_path_buf())
            });
            FileKind::Symlink(inspect_link(&path, root))
        } else if file_type.is_file() {
            FileKind::File
        } else {
            FileKind::Special
        };
        let stamp = match &kind {
            FileKind::Symlink(link) if !link.escapes && !link.to_dir => link
                .resolved
                .as_ref()
                .and_then(|p| fs::metadata(p).ok())
                .map_or_else(Stamp::default, |m| Stamp::of(&m)),
            _ => Stamp::of(&meta),
        };
        self.inventory.files.push(FileEntry {
            rel,
            path,
            size: stamp.size,
            kind,
            mode: mode(&meta),
            stamp,
        });
    }
}

fn inspect_link(path: &Path, root: &Path) -> Link {
    let target = fs::read_link(path).unwrap_or_default();
    let resolved = fs::canonicalize(path).ok();
    // A link is judged by its text as well as its target: an absolute link or one that climbs
    // out of the folder escapes even when the place it names happens to lie inside.
    let climbs_out = {
        let parent_depth = path
            .strip_prefix(root)
            .map_or(0, |rel| rel.components().count().saturating_sub(1));
        let mut depth = i64::try_from(parent_depth).unwrap_or(i64::MAX);
        target.components().any(|c| match c {
            Component::ParentDir => {
                depth -= 1;
                depth < 0
            }
            Component::Normal(_) => {
                depth += 1;
                false
            }
            Component::RootDir | Component::Prefix(_) => true,
            Component::CurDir => false,
        })
    };
    let escapes = climbs_out || resolved.as_ref().is_none_or(|r| !r.starts_with(root));
    let to_dir = resolved.as_ref().is_some_and(|r| r.is_dir());
    Link {
        target,
        resolved,
        escapes,
        to_dir,
    }
}

/// File names that say they hold secrets (see `security/secret-file`).
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower == ".env" {
        return true;
    }
    if let Some(suffix) = lower.strip_prefix(".env.") {
        return !matches!(
            suffix,
            "example" | "sample" | "template" | "dist" | "defaults" | "schema"
        );
    }
    let (stem, extension) = lower.rsplit_once('.').unwrap_or((&lower, ""));
    if matches!(extension, "pem" | "key" | "p12" | "pfx") {
        return true;
    }
    if matches!(
        lower.as_str(),
        "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | ".netrc" | ".pgpass"
    ) {
        return true;
    }
    // `credentials.md` documents; `credentials.json` or `secrets` holds.
    (stem.starts_with("credentials") || stem.starts_with("secrets"))
        && matches!(
            extension,
            "" | "json"
                | "yaml"
                | "yml"
                | "toml"
                | "ini"
                | "env"
                | "cfg"
                | "conf"
                | "xml"
                | "properties"
                | "csv"
                | "txt"
        )
}

#[cfg(unix)]
fn mode(meta: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode()
}

#[cfg(not(unix))]
fn mode(_meta: &fs::Metadata) -> u32 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_sorted_and_skips() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        fs::create_dir_all(d.join("b/c")).unwrap();
        fs::create_dir_all(d.join(".git")).unwrap();
        fs::create_dir_all(d.join("node_modules/x")).unwrap();
        fs::write(d.join("SKILL.md"), "x").unwrap();
        fs::write(d.join("b/c/d.txt"), "xyz").unwrap();
        fs::write(d.join(".git/HEAD"), "x").unwrap();
        fs::write(d.join("node_modules/x/i.js"), "x").unwrap();
        fs::write(d.join("a.md"), "").unwrap();
        let inv = Inventory::scan(d);
        let rels: Vec<_> = inv.files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["SKILL.md", "a.md", "b/c/d.txt"]);
        assert_eq!(inv.get("b/c/d.txt").unwrap().size, 3);
        assert_eq!(inv.total_size(), 4);
    }

    #[test]
    fn secret_names() {
        for name in [
            ".env",
            ".env.local",
            "id_rsa",
            "server.pem",
            "tls.KEY",
            "credentials",
            "credentials.json",
            "secrets.yaml",
            ".netrc",
        ] {
            assert!(is_secret_name(name), "{name}");
        }
        for name in [
            ".env.example",
            "credentials.md",
            "secrets-guide.md",
            "keys.md",
            "monkey.py",
            "SKILL.md",
        ] {
            assert!(!is_secret_name(name), "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_judged() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("skill");
        fs::create_dir_all(d.join("refs")).unwrap();
        fs::write(d.join("SKILL.md"), "x").unwrap();
        fs::write(tmp.path().join("secret"), "s").unwrap();
        symlink("SKILL.md", d.join("inside")).unwrap();
        symlink("../secret", d.join("outside")).unwrap();
        symlink("/etc/passwd", d.join("absolute")).unwrap();
        symlink("../SKILL.md", d.join("refs/up")).unwrap();
        symlink("../../skill/SKILL.md", d.join("refs/roundabout")).unwrap();
        symlink("loop", d.join("loop")).unwrap();
        let inv = Inventory::scan(&d);
        let escapes = |rel: &str| match &inv.get(rel).unwrap().kind {
            FileKind::Symlink(link) => link.escapes,
            other => panic!("{other:?}"),
        };
        assert!(!escapes("inside"));
        assert!(escapes("outside"));
        assert!(escapes("absolute"));
        assert!(!escapes("refs/up"));
        assert!(escapes("refs/roundabout"));
        assert!(escapes("loop"));
        assert_eq!(inv.get("inside").unwrap().size, 1);
    }
}
