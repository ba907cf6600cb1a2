//! Direct downloads and archives (zip, tar, tar.gz), unpacked in memory against the limits.

use std::io::{self, Read};

use super::memory::MemoryTree;
use super::{WebError, WebLimits, digest};
use crate::relpath::{RelPath, UnsafePath, Why};
use crate::source::http::Http;

/// The path of a file inside an archive or index, validated and normalised by
/// [`RelPath::normalize`] (`./a//b` is `a/b`); the root (`""`, `.`, `./`) is no file.
pub(super) fn safe_path(path: &str) -> Result<RelPath, ArchiveProblem> {
    let normal = safe_dir(path)?;
    if normal.is_root() {
        return Err(ArchiveProblem::Path(UnsafePath {
            path: path.to_owned(),
            why: Why::Empty,
        }));
    }
    Ok(normal)
}

/// The path of a folder inside an archive, as [`safe_path`], the root included (the entry `./`
/// of `tar -C dir -czf x.tgz .`).
fn safe_dir(path: &str) -> Result<RelPath, ArchiveProblem> {
    RelPath::normalize(path).map_err(ArchiveProblem::Path)
}

/// Why an archive (or a skill of an index) is refused.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveProblem {
    /// A path that is not safe to write (from [`safe_path`]).
    #[error(transparent)]
    Path(UnsafePath),
    #[error("it has more than the limit of {0} files")]
    TooManyFiles(usize),
    #[error("it unpacks to more than the limit of {0} bytes")]
    TooLarge(u64),
    #[error("`{name}` is larger than the limit of {limit} bytes")]
    SkillTooLarge { name: String, limit: u64 },
    #[error("cannot unpack `{path}`")]
    Read {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("not a readable zip")]
    Zip(#[source] zip::result::ZipError),
    #[error("entry {index} is not readable")]
    ZipEntry {
        index: usize,
        #[source]
        source: zip::result::ZipError,
    },
    #[error("not a readable tar")]
    Tar(#[source] io::Error),
    #[error("`{0}` is a symlink")]
    Symlink(String),
    #[error("`{0}` is a link")]
    Link(String),
    #[error("`{0}` is not a regular file")]
    NotAFile(String),
    #[error("`{0}` is not a regular file or folder")]
    Special(String),
    #[error("it has no SKILL.md at its root")]
    NoSkillMd,
}

impl ArchiveProblem {
    /// Whether a limit (that an option raises) refused it.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            ArchiveProblem::TooManyFiles(_)
                | ArchiveProblem::TooLarge(_)
                | ArchiveProblem::SkillTooLarge { .. }
        )
    }
}

/// Reads at most `limit` bytes from `reader`; more is `Ok(None)`.
fn read_limited(
    reader: impl Read,
    limit: u64,
    path: &str,
) -> Result<Option<Vec<u8>>, ArchiveProblem> {
    let mut out = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|source| ArchiveProblem::Read {
            path: path.to_owned(),
            source,
        })?;
    Ok((out.len() as u64 <= limit).then_some(out))
}

/// Collects unpacked files against the limits, then unwraps a single top-level folder.
struct Unpacked {
    tree: MemoryTree,
    total: u64,
    limits: WebLimits,
}

impl Unpacked {
    fn new(url: &str, limits: WebLimits) -> Unpacked {
        Unpacked {
            tree: MemoryTree::new(url),
            total: 0,
            limits,
        }
    }

    /// Adds the entry at path `raw` (entries under `__MACOSX` are dropped).
    fn add(
        &mut self,
        raw: &str,
        reader: impl Read,
        executable: bool,
    ) -> Result<(), ArchiveProblem> {
        let path = safe_path(raw)?;
        if path.components().next() == Some("__MACOSX") {
            return Ok(());
        }
        if self.tree.files.len() >= self.limits.files {
            return Err(ArchiveProblem::TooManyFiles(self.limits.files));
        }
        let room = self.limits.extracted.saturating_sub(self.total);
        let extracted = self.limits.extracted;
        let bytes = read_limited(reader, room, &path)
            .map_err(|problem| match problem {
                ArchiveProblem::Read { path, source } => over_cap(source, extracted, |source| {
                    ArchiveProblem::Read { path, source }
                }),
                other => other,
            })?
            .ok_or(ArchiveProblem::TooLarge(extracted))?;
        self.total += bytes.len() as u64;
        self.tree.insert(path, bytes, executable);
        Ok(())
    }

    fn finish(mut self) -> MemoryTree {
        let first = |path: &RelPath| {
            path.as_str()
                .contains('/')
                .then(|| RelPath::new(path.components().next().unwrap_or_default()).ok())
                .flatten()
        };
        let top: Option<RelPath> = self.tree.files.keys().next().and_then(first);
        if let Some(top) = top
            && self
                .tree
                .files
                .keys()
                .all(|path| first(path).as_ref() == Some(&top))
        {
            self.tree.files = std::mem::take(&mut self.tree.files)
                .into_iter()
                .filter_map(|(path, file)| Some((path.strip_prefix(&top)?, file)))
                .collect();
        }
        self.tree
    }
}

/// The error of a [`Capped`] reader past its limit.
#[derive(Debug, thiserror::Error)]
#[error("it unpacks to more than the size limit")]
struct OverCap;

/// `err`, or the archive's size limit when `err` is a [`Capped`] reader's.
fn over_cap(
    err: io::Error,
    limit: u64,
    problem: impl FnOnce(io::Error) -> ArchiveProblem,
) -> ArchiveProblem {
    if err
        .get_ref()
        .is_some_and(|inner| inner.downcast_ref::<OverCap>().is_some())
    {
        ArchiveProblem::TooLarge(limit)
    } else {
        problem(err)
    }
}

/// A reader that fails once more than `limit` bytes came through (a decompression bomb stops
/// there, whatever the archive claims).
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        if read as u64 > self.left {
            return Err(io::Error::other(OverCap));
        }
        self.left -= read as u64;
        Ok(read)
    }
}

fn unpack_zip(url: &str, bytes: &[u8], limits: WebLimits) -> Result<MemoryTree, ArchiveProblem> {
    let mut archive = zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(ArchiveProblem::Zip)?;
    let mut unpacked = Unpacked::new(url, limits);
    for index in 0..archive.len() {
        let entry = archive
            .by_index(index)
            .map_err(|source| ArchiveProblem::ZipEntry { index, source })?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_dir() {
            safe_dir(&name)?;
            continue;
        }
        if entry.is_symlink() {
            return Err(ArchiveProblem::Symlink(name));
        }
        let executable = entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
        if entry
            .unix_mode()
            .is_some_and(|mode| mode & 0o170_000 != 0 && mode & 0o170_000 != 0o100_000)
        {
            return Err(ArchiveProblem::NotAFile(name));
        }
        unpacked.add(&name, entry, executable)?;
    }
    Ok(unpacked.finish())
}

fn unpack_tar(
    url: &str,
    reader: impl Read,
    limits: WebLimits,
) -> Result<MemoryTree, ArchiveProblem> {
    // Headers and padding count too: a bomb of empty entries stops at the same cap.
    let slack = 1024 * (limits.files as u64 + 16);
    let capped = Capped {
        inner: reader,
        left: limits.extracted.saturating_add(slack),
    };
    let mut archive = tar::Archive::new(capped);
    let mut unpacked = Unpacked::new(url, limits);
    let unreadable = |err| over_cap(err, limits.extracted, ArchiveProblem::Tar);
    let entries = archive.entries().map_err(unreadable)?;
    for entry in entries {
        let entry = entry.map_err(unreadable)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                let executable = entry.header().mode().is_ok_and(|mode| mode & 0o111 != 0);
                unpacked.add(&name, entry, executable)?;
            }
            tar::EntryType::Directory => {
                safe_dir(&name)?;
            }
            // Metadata of the archive itself (`git archive` writes a global pax header).
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader => {}
            tar::EntryType::Symlink | tar::EntryType::Link => {
                return Err(ArchiveProblem::Link(name));
            }
            _ => return Err(ArchiveProblem::Special(name)),
        }
    }
    Ok(unpacked.finish())
}

/// Unpacks `bytes` by what they are (not by the URL's extension); `None` when they are no
/// archive.
pub fn unpack(url: &str, bytes: &[u8], limits: WebLimits) -> Option<Result<MemoryTree, WebError>> {
    let refused = |problem| WebError::Archive {
        url: url.to_owned(),
        problem,
    };
    let result = if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        unpack_zip(url, bytes, limits)
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        unpack_tar(url, flate2::read::MultiGzDecoder::new(bytes), limits)
    } else if bytes.get(257..262) == Some(b"ustar") {
        unpack_tar(url, bytes, limits)
    } else {
        return None;
    };
    Some(result.map_err(refused))
}

/// Whether `bytes` look like a SKILL.md (UTF-8 text opening with a frontmatter).
fn looks_like_skill_md(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    std::str::from_utf8(text).is_ok_and(|t| t.starts_with("---"))
}

/// What a response that is neither shows, for the error message.
pub(super) fn found(bytes: &[u8]) -> String {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_ascii_lowercase();
    if head.contains("<html") || head.contains("<!doctype") {
        " (it is an HTML page)".to_owned()
    } else if bytes.is_empty() {
        " (it is empty)".to_owned()
    } else {
        String::new()
    }
}

/// A direct download as a tree: an archive's files, or one `SKILL.md` at the root; with the
/// download's digest.
pub fn download(
    http: &Http,
    url: &str,
    limits: WebLimits,
) -> Result<(MemoryTree, String), WebError> {
    let bytes = http.get(url, limits.download)?;
    let digest = digest(&bytes);
    if let Some(tree) = unpack(url, &bytes, limits) {
        return Ok((tree?, digest));
    }
    if looks_like_skill_md(&bytes) {
        let mut tree = MemoryTree::new(url);
        tree.insert(
            RelPath::file(crate::skill::SKILL_MD).unwrap_or_default(),
            bytes,
            false,
        );
        return Ok((tree, digest));
    }
    Err(WebError::Unknown {
        url: url.to_owned(),
        found: found(&bytes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::tree::{Kind, SourceTree};

    #[test]
    fn paths_are_checked() {
        assert_eq!(safe_path("./a//b/./c.md").unwrap(), "a/b/c.md");
        assert!(safe_path("a:b").is_err(), "a name no Windows can hold");
        assert!(safe_path("x/.git/config").is_err() && safe_path(".GIT/HEAD").is_err());
        assert_eq!(
            safe_dir("./").unwrap(),
            "",
            "the root entry of `tar -C dir .`"
        );
        assert!(safe_path("./").is_err() && safe_path(".").is_err());
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a\\b",
            "C:/x",
            "",
            "a\0b",
        ] {
            assert!(safe_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_tar_of_dot_has_a_root_entry() {
        // `tar -C dir -cf x.tar .`: `./`, then `./SKILL.md`.
        let mut builder = tar::Builder::new(Vec::new());
        let mut dir = tar::Header::new_ustar();
        dir.set_entry_type(tar::EntryType::Directory);
        dir.set_path("./").unwrap();
        dir.set_mode(0o755);
        dir.set_size(0);
        dir.set_cksum();
        builder.append(&dir, &b""[..]).unwrap();
        let mut file = tar::Header::new_ustar();
        file.set_path("./SKILL.md").unwrap();
        file.set_mode(0o644);
        file.set_size(4);
        file.set_cksum();
        builder.append(&file, &b"---\n"[..]).unwrap();
        let bytes = builder.into_inner().unwrap();
        let tree = unpack("x", &bytes, WebLimits::default()).unwrap().unwrap();
        assert_eq!(
            tree.read(&RelPath::file("SKILL.md").unwrap(), u64::MAX)
                .unwrap(),
            b"---\n"
        );
    }

    #[test]
    fn a_single_top_level_folder_is_unwrapped() {
        let mut unpacked = Unpacked::new("x", WebLimits::default());
        unpacked
            .add("repo-main/SKILL.md", &b"---\n"[..], false)
            .unwrap();
        unpacked
            .add("repo-main/scripts/a.sh", &b"echo"[..], true)
            .unwrap();
        unpacked
            .add("__MACOSX/repo-main/._SKILL.md", &b"junk"[..], false)
            .unwrap();
        let tree = unpacked.finish();
        assert_eq!(
            tree.kind(&RelPath::file("SKILL.md").unwrap()),
            Some(Kind::File { executable: false })
        );
        assert_eq!(
            tree.kind(&RelPath::file("scripts/a.sh").unwrap()),
            Some(Kind::File { executable: true })
        );
        assert_eq!(
            tree.list(&RelPath::ROOT)
                .unwrap()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>(),
            ["SKILL.md", "scripts"]
        );
    }
}
