//! Read-only views of a source: a local folder or a git tree read straight from the object
//! database (no work tree, no temp clone).
//!
//! Paths are `/`-separated and relative to the source root (`""` is the root). Entries come
//! sorted by name. Nothing here follows a symlink: callers decide what a link may mean.

use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File {
        executable: bool,
    },
    Dir,
    Symlink,
    /// A git submodule (a commit inside a tree).
    Submodule,
    /// A socket, FIFO or device.
    Special,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub kind: Kind,
}

/// A source's files, wherever they are.
pub trait SourceTree {
    /// The entries of the folder at `path`, sorted by name.
    fn list(&self, path: &str) -> io::Result<Vec<Entry>>;
    /// The bytes of the file at `path`.
    fn read(&self, path: &str) -> io::Result<Vec<u8>>;
    /// The target of the symlink at `path`, as stored.
    fn read_link(&self, path: &str) -> io::Result<String>;
    /// What is at `path`, if anything.
    fn kind(&self, path: &str) -> Option<Kind>;
    /// Where the tree is, for messages (a folder, or `URL@commit`).
    fn describe(&self) -> String;
}

/// Joins a tree path and a name.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// A folder on this machine.
pub struct LocalTree {
    pub root: PathBuf,
}

impl LocalTree {
    fn path(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }
}

fn kind_of(meta: &std::fs::Metadata) -> Kind {
    let file_type = meta.file_type();
    if file_type.is_symlink() {
        Kind::Symlink
    } else if file_type.is_dir() {
        Kind::Dir
    } else if file_type.is_file() {
        Kind::File {
            executable: is_executable(meta),
        }
    } else {
        Kind::Special
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

impl SourceTree for LocalTree {
    fn list(&self, path: &str) -> io::Result<Vec<Entry>> {
        let dir = self.path(path);
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let kind = match entry.file_type() {
                Ok(t) if t.is_dir() => Kind::Dir,
                Ok(t) if t.is_symlink() => Kind::Symlink,
                Ok(t) if t.is_file() => match entry.metadata() {
                    Ok(meta) => kind_of(&meta),
                    Err(_) => Kind::File { executable: false },
                },
                _ => Kind::Special,
            };
            entries.push(Entry { name, kind });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        crate::skill::read_file(&self.path(path), None)
    }

    fn read_link(&self, path: &str) -> io::Result<String> {
        Ok(std::fs::read_link(self.path(path))?
            .to_string_lossy()
            .into_owned())
    }

    fn kind(&self, path: &str) -> Option<Kind> {
        std::fs::symlink_metadata(self.path(path))
            .ok()
            .map(|meta| kind_of(&meta))
    }

    fn describe(&self) -> String {
        self.root.display().to_string()
    }
}

/// A tree of a commit in a git repository, read from its object database.
pub struct GitTree {
    pub repo: git2::Repository,
    pub tree: git2::Oid,
    /// `URL@commit`, for messages.
    pub label: String,
}

fn git_error(err: &git2::Error) -> io::Error {
    let kind = if err.code() == git2::ErrorCode::NotFound {
        io::ErrorKind::NotFound
    } else {
        io::ErrorKind::Other
    };
    io::Error::new(kind, err.message().to_owned())
}

fn git_kind(mode: i32) -> Kind {
    match mode {
        0o040_000 => Kind::Dir,
        0o100_755 => Kind::File { executable: true },
        0o100_644 | 0o100_664 => Kind::File { executable: false },
        0o120_000 => Kind::Symlink,
        0o160_000 => Kind::Submodule,
        _ => Kind::Special,
    }
}

impl GitTree {
    /// The tree object at `path`.
    fn subtree(&self, path: &str) -> io::Result<git2::Tree<'_>> {
        let root = self.repo.find_tree(self.tree).map_err(|e| git_error(&e))?;
        if path.is_empty() {
            return Ok(root);
        }
        let entry = root.get_path(Path::new(path)).map_err(|e| git_error(&e))?;
        if entry.kind() != Some(git2::ObjectType::Tree) {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("`{path}` is not a folder"),
            ));
        }
        self.repo.find_tree(entry.id()).map_err(|e| git_error(&e))
    }

    fn blob(&self, path: &str) -> io::Result<Vec<u8>> {
        let root = self.repo.find_tree(self.tree).map_err(|e| git_error(&e))?;
        let entry = root.get_path(Path::new(path)).map_err(|e| git_error(&e))?;
        let blob = self.repo.find_blob(entry.id()).map_err(|e| git_error(&e))?;
        Ok(blob.content().to_vec())
    }
}

impl SourceTree for GitTree {
    fn list(&self, path: &str) -> io::Result<Vec<Entry>> {
        let tree = self.subtree(path)?;
        let mut entries: Vec<Entry> = tree
            .iter()
            .filter_map(|entry| {
                let name = entry.name().ok()?.to_owned();
                Some(Entry {
                    name,
                    kind: git_kind(entry.filemode()),
                })
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.blob(path)
    }

    fn read_link(&self, path: &str) -> io::Result<String> {
        Ok(String::from_utf8_lossy(&self.blob(path)?).into_owned())
    }

    fn kind(&self, path: &str) -> Option<Kind> {
        if path.is_empty() {
            return Some(Kind::Dir);
        }
        let root = self.repo.find_tree(self.tree).ok()?;
        let entry = root.get_path(Path::new(path)).ok()?;
        Some(git_kind(entry.filemode()))
    }

    fn describe(&self) -> String {
        self.label.clone()
    }
}
