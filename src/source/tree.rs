//! Read-only views of a source: a local folder or a git tree read straight from the object
//! database (no work tree, no temp clone).
//!
//! Paths are [`RelPath`]s relative to the source root (the root is [`RelPath::ROOT`]); entry
//! names are given as the tree has them, and a walker turns one into a path only through
//! [`RelPath::join`], which refuses `..`, `.git` and the other names no writer may see. Entries
//! come sorted by name. Nothing here follows a symlink on its own: callers decide what a link may
//! mean. A local folder is read through a directory handle ([`cap_std`]), so that no link on the
//! way to a file can lead out of it; a git blob's size is read from its object header before
//! any of its bytes, so a huge blob is refused without being inflated.

use std::io::{self, Read as _};
use std::path::PathBuf;

use crate::relpath::RelPath;

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
    /// The name as the tree has it: not validated (see [`RelPath::join`]).
    pub name: String,
    pub kind: Kind,
}

/// A file over the limit given to [`SourceTree::read`], carried inside the `io::Error`.
#[derive(Debug, thiserror::Error)]
#[error("{size} bytes, over the limit of {limit}")]
pub struct TooLarge {
    pub size: u64,
    pub limit: u64,
}

impl TooLarge {
    pub fn error(size: u64, limit: u64) -> io::Error {
        io::Error::new(io::ErrorKind::FileTooLarge, TooLarge { size, limit })
    }

    /// The [`TooLarge`] inside `err`, if that is what it is.
    pub fn of(err: &io::Error) -> Option<&TooLarge> {
        err.get_ref().and_then(|inner| inner.downcast_ref())
    }
}

/// A source's files, wherever they are.
pub trait SourceTree {
    /// The entries of the folder at `path`, sorted by name.
    fn list(&self, path: &RelPath) -> io::Result<Vec<Entry>>;
    /// The bytes of the file at `path`; a file over `limit` bytes is a [`TooLarge`] error,
    /// found before its bytes are read where the tree can tell.
    fn read(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>>;
    /// The target of the symlink at `path`, as stored.
    fn read_link(&self, path: &RelPath) -> io::Result<String>;
    /// What is at `path`, if anything.
    fn kind(&self, path: &RelPath) -> Option<Kind>;
    /// Where the tree is, for messages (a folder, or `URL@commit`).
    fn describe(&self) -> String;
    /// An identity of the folder at `path` shared by every path that holds the same folder
    /// (a git tree object id), so that a search visits a shared subtree once; `None` where
    /// paths cannot share folders.
    fn folder_id(&self, _path: &RelPath) -> Option<[u8; 20]> {
        None
    }
}

/// Joins a tree path and a name, for messages and for paths of this program's own making.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// A folder on this machine, read through a handle: a link on the way to a file may lead
/// anywhere inside the folder, and nowhere outside it.
pub struct LocalTree {
    root: PathBuf,
    dir: cap_std::fs::Dir,
}

impl LocalTree {
    /// Opens the folder `root`.
    pub fn open(root: PathBuf) -> io::Result<LocalTree> {
        let dir = cap_std::fs::Dir::open_ambient_dir(&root, cap_std::ambient_authority())?;
        Ok(LocalTree { root, dir })
    }

    /// The folder `root` already opened as `dir` (a handle beneath another).
    pub fn from_dir(root: PathBuf, dir: cap_std::fs::Dir) -> LocalTree {
        LocalTree { root, dir }
    }

    pub fn root(&self) -> &std::path::Path {
        &self.root
    }

    /// `path` for the handle: `.` for the root.
    fn rel(path: &RelPath) -> &str {
        if path.is_root() { "." } else { path.as_str() }
    }
}

fn kind_of(meta: &cap_std::fs::Metadata) -> Kind {
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
fn is_executable(meta: &cap_std::fs::Metadata) -> bool {
    use cap_std::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &cap_std::fs::Metadata) -> bool {
    false
}

impl LocalTree {
    /// [`SourceTree::list`] in one `openat2(RESOLVE_BENEATH)` and one read of the entries
    /// (cap-std opens a folder and then reopens it to read it); `None` where the kernel has no
    /// `openat2`, for the portable way.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn list_beneath(&self, path: &RelPath) -> Option<io::Result<Vec<Entry>>> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags};
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        let fd =
            match rustix::fs::openat2(&self.dir, Self::rel(path), flags, Mode::empty(), resolve) {
                Ok(fd) => fd,
                Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => return None,
                Err(err) => return Some(Err(beneath(err.into()))),
            };
        let listed = (|| {
            let dir = rustix::fs::Dir::new(fd.try_clone()?)?;
            let mut entries = Vec::new();
            for entry in dir {
                let entry = entry?;
                let Ok(name) = entry.file_name().to_str() else {
                    continue;
                };
                if name == "." || name == ".." {
                    continue;
                }
                let kind = match entry.file_type() {
                    FileType::Directory => Kind::Dir,
                    FileType::Symlink => Kind::Symlink,
                    FileType::RegularFile | FileType::Unknown => {
                        match rustix::fs::statat(&fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                            Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                                FileType::RegularFile => Kind::File {
                                    executable: stat.st_mode & 0o111 != 0,
                                },
                                FileType::Directory => Kind::Dir,
                                FileType::Symlink => Kind::Symlink,
                                _ => Kind::Special,
                            },
                            Err(_) => Kind::File { executable: false },
                        }
                    }
                    _ => Kind::Special,
                };
                entries.push(Entry {
                    name: name.to_owned(),
                    kind,
                });
            }
            entries.sort_by(|a, b| a.name.cmp(&b.name));
            Ok::<_, io::Error>(entries)
        })();
        Some(listed)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn list_beneath(&self, _path: &RelPath) -> Option<io::Result<Vec<Entry>>> {
        None
    }
}

/// The error of a path that a link leads out of the source's folder (`openat2` with
/// `RESOLVE_BENEATH` says EXDEV, cap-std's fallback `PermissionDenied`), in words.
fn beneath(err: io::Error) -> io::Error {
    let escaped = err.raw_os_error() == Some(libc::EXDEV)
        || (err.kind() == io::ErrorKind::PermissionDenied && err.raw_os_error().is_none());
    if escaped {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            "a symlink on the way leads outside the source",
        )
    } else {
        err
    }
}

impl SourceTree for LocalTree {
    fn list(&self, path: &RelPath) -> io::Result<Vec<Entry>> {
        if let Some(listed) = self.list_beneath(path) {
            return listed;
        }
        let mut entries = Vec::new();
        let listing = self.dir.read_dir(Self::rel(path)).map_err(beneath)?;
        for entry in listing {
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

    fn read(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>> {
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            // A FIFO must not block the run.
            use cap_std::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let file = self
            .dir
            .open_with(Self::rel(path), &options)
            .map_err(beneath)?
            .into_std();
        // Read up to the limit without a `stat`; only a file over it is measured, to say how
        // large it is.
        match crate::skill::read_open(file, None, limit) {
            Ok(bytes) => Ok(bytes),
            Err(crate::skill::ReadOpen::Io(err)) => Err(err),
            Err(crate::skill::ReadOpen::TooLarge) => {
                let size = self
                    .dir
                    .metadata(Self::rel(path))
                    .map_or(limit.saturating_add(1), |meta| meta.len());
                Err(TooLarge::error(size, limit))
            }
        }
    }

    fn read_link(&self, path: &RelPath) -> io::Result<String> {
        Ok(self
            .dir
            .read_link_contents(Self::rel(path))?
            .to_string_lossy()
            .into_owned())
    }

    fn kind(&self, path: &RelPath) -> Option<Kind> {
        self.dir
            .symlink_metadata(Self::rel(path))
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
    /// The id and file mode of what is at `path` (the root tree for the root).
    fn entry(&self, path: &RelPath) -> io::Result<(git2::Oid, i32)> {
        if path.is_root() {
            return Ok((self.tree, 0o040_000));
        }
        let root = self.repo.find_tree(self.tree).map_err(|e| git_error(&e))?;
        let entry = root
            .get_path(std::path::Path::new(path.as_str()))
            .map_err(|e| git_error(&e))?;
        Ok((entry.id(), entry.filemode()))
    }

    /// The tree object at `path`.
    fn subtree(&self, path: &RelPath) -> io::Result<git2::Tree<'_>> {
        let (id, mode) = self.entry(path)?;
        if git_kind(mode) != Kind::Dir {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("`{path}` is not a folder"),
            ));
        }
        self.repo.find_tree(id).map_err(|e| git_error(&e))
    }

    /// The bytes of the blob at `path`, its size taken from the object header first: a loose
    /// object is streamed (one lookup gives the size, then the bytes), a packed one is asked
    /// for its header, then read.
    fn blob(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>> {
        let (id, _) = self.entry(path)?;
        let odb = self.repo.odb().map_err(|e| git_error(&e))?;
        let checked = |size: usize, kind: git2::ObjectType| {
            if kind != git2::ObjectType::Blob {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("`{path}` is not a file"),
                ));
            }
            if size as u64 > limit {
                return Err(TooLarge::error(size as u64, limit));
            }
            Ok(())
        };
        if let Ok((mut reader, size, kind)) = odb.reader(id) {
            checked(size, kind)?;
            let mut bytes = Vec::with_capacity(size);
            std::io::Read::take(&mut reader, limit.saturating_add(1)).read_to_end(&mut bytes)?;
            return Ok(bytes);
        }
        let (size, kind) = odb.read_header(id).map_err(|e| git_error(&e))?;
        checked(size, kind)?;
        let blob = self.repo.find_blob(id).map_err(|e| git_error(&e))?;
        Ok(blob.content().to_vec())
    }
}

impl SourceTree for GitTree {
    fn list(&self, path: &RelPath) -> io::Result<Vec<Entry>> {
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

    fn read(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>> {
        self.blob(path, limit)
    }

    fn read_link(&self, path: &RelPath) -> io::Result<String> {
        // A link's text is a path: 4 KiB is more than any system takes.
        Ok(String::from_utf8_lossy(&self.blob(path, 4096)?).into_owned())
    }

    fn kind(&self, path: &RelPath) -> Option<Kind> {
        self.entry(path).ok().map(|(_, mode)| git_kind(mode))
    }

    fn describe(&self) -> String {
        self.label.clone()
    }

    fn folder_id(&self, path: &RelPath) -> Option<[u8; 20]> {
        let (id, mode) = self.entry(path).ok()?;
        (git_kind(mode) == Kind::Dir)
            .then(|| id.as_bytes().try_into().ok())
            .flatten()
    }
}
