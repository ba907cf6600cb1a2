//! A tree of files held in memory: what a download or an unpacked archive becomes.

use std::collections::BTreeMap;
use std::io;

use crate::relpath::RelPath;
use crate::source::tree::{Entry, Kind, SourceTree, TooLarge};

/// A file held in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MemoryFile {
    bytes: Vec<u8>,
    executable: bool,
}

/// Files held in memory, by `/`-separated path; folders are implied by the paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryTree {
    pub(super) files: BTreeMap<RelPath, MemoryFile>,
    label: String,
}

impl MemoryTree {
    /// An empty tree, described as `label` in messages.
    pub(super) fn new(label: &str) -> MemoryTree {
        MemoryTree {
            files: BTreeMap::new(),
            label: label.to_owned(),
        }
    }

    pub(super) fn insert(&mut self, path: RelPath, bytes: Vec<u8>, executable: bool) {
        self.files.insert(path, MemoryFile { bytes, executable });
    }

    /// The files below the folder `path`, in order, with their paths below it.
    fn below<'a>(
        &'a self,
        path: &'a RelPath,
    ) -> impl Iterator<Item = (&'a str, &'a MemoryFile)> + 'a {
        let prefix = if path.is_root() {
            String::new()
        } else {
            format!("{path}/")
        };
        self.files
            .iter()
            .skip_while({
                let prefix = prefix.clone();
                move |(k, _)| k.as_str() < prefix.as_str()
            })
            .map_while(move |(k, file)| {
                let rest = k.as_str().strip_prefix(prefix.as_str())?;
                Some((rest, file))
            })
    }

    fn is_dir(&self, path: &RelPath) -> bool {
        path.is_root() || self.below(path).next().is_some()
    }
}

pub(super) fn not_found(path: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("no `{path}` in the download"),
    )
}

impl SourceTree for MemoryTree {
    fn list(&self, path: &RelPath) -> io::Result<Vec<Entry>> {
        if !self.is_dir(path) {
            return Err(not_found(path));
        }
        let mut entries: Vec<Entry> = Vec::new();
        for (rest, file) in self.below(path) {
            let (name, kind) = match rest.split_once('/') {
                Some((dir, _)) => (dir, Kind::Dir),
                None => (
                    rest,
                    Kind::File {
                        executable: file.executable,
                    },
                ),
            };
            if entries.last().is_none_or(|last| last.name != name) {
                entries.push(Entry {
                    name: name.to_owned(),
                    kind,
                });
            }
        }
        Ok(entries)
    }

    fn read(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>> {
        let file = self.files.get(path).ok_or_else(|| not_found(path))?;
        if file.bytes.len() as u64 > limit {
            return Err(TooLarge::error(file.bytes.len() as u64, limit));
        }
        Ok(file.bytes.clone())
    }

    fn read_link(&self, path: &RelPath) -> io::Result<String> {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{path}` is not a link"),
        ))
    }

    fn kind(&self, path: &RelPath) -> Option<Kind> {
        match self.files.get(path) {
            Some(file) => Some(Kind::File {
                executable: file.executable,
            }),
            None => self.is_dir(path).then_some(Kind::Dir),
        }
    }

    fn describe(&self) -> String {
        self.label.clone()
    }
}
