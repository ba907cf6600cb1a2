//! A tree of files held in memory: what a download or an unpacked archive becomes.

use std::collections::BTreeMap;
use std::io;

use crate::source::tree::{Entry, Kind, SourceTree};

/// A file held in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MemoryFile {
    bytes: Vec<u8>,
    executable: bool,
}

/// Files held in memory, by `/`-separated path; folders are implied by the paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryTree {
    pub(super) files: BTreeMap<String, MemoryFile>,
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

    pub(super) fn insert(&mut self, path: String, bytes: Vec<u8>, executable: bool) {
        self.files.insert(path, MemoryFile { bytes, executable });
    }

    fn is_dir(&self, path: &str) -> bool {
        path.is_empty()
            || self
                .files
                .range(format!("{path}/")..)
                .next()
                .is_some_and(|(k, _)| k.starts_with(&format!("{path}/")))
    }
}

pub(super) fn not_found(path: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("no `{path}` in the download"),
    )
}

impl SourceTree for MemoryTree {
    fn list(&self, path: &str) -> io::Result<Vec<Entry>> {
        if !self.is_dir(path) {
            return Err(not_found(path));
        }
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut entries: Vec<Entry> = Vec::new();
        for (key, file) in self.files.range(prefix.clone()..) {
            let Some(rest) = key.strip_prefix(&prefix) else {
                break;
            };
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

    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.files
            .get(path)
            .map(|f| f.bytes.clone())
            .ok_or_else(|| not_found(path))
    }

    fn read_link(&self, path: &str) -> io::Result<String> {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("`{path}` is not a link"),
        ))
    }

    fn kind(&self, path: &str) -> Option<Kind> {
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
