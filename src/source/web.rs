//! Web sources: RFC 8615 well-known indexes (v1 file lists, v0.2 `skill-md`/`archive` entries
//! with digests) and direct downloads (a SKILL.md, a zip, tar or tar.gz archive), turned into
//! trees that discovery and install read like a folder.
//!
//! Everything is checked in memory before anything is written: digests before unpacking, sizes
//! as bytes arrive (a declared size is never trusted), file counts, skill names, and archive
//! entries (`..`, absolute paths, links and devices are refused, `__MACOSX` is ignored, a single
//! top-level folder is unwrapped).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read};
use std::rc::Rc;

use serde_json::Value;

use super::discover::Offered;
use super::http::{Http, HttpError};
use super::tree::{Entry, Kind, SourceTree};

/// What a web source may weigh.
#[derive(Debug, Clone, Copy)]
pub struct WebLimits {
    /// Largest download (a SKILL.md or an archive).
    pub download: u64,
    /// Largest total of the files an archive unpacks to.
    pub extracted: u64,
    /// Most files of one archive or skill.
    pub files: usize,
}

impl Default for WebLimits {
    fn default() -> Self {
        WebLimits {
            download: 10 << 20,
            extracted: 25 << 20,
            files: 1000,
        }
    }
}

impl From<&crate::cli::LimitArgs> for WebLimits {
    fn from(args: &crate::cli::LimitArgs) -> WebLimits {
        WebLimits {
            download: args.max_download_size,
            extracted: args.max_extracted_size,
            files: args.max_files,
        }
    }
}

impl WebLimits {
    /// An archive an index names with its digest may be as large as the index format allows.
    fn for_indexed_archive(self) -> WebLimits {
        WebLimits {
            download: self.download.max(50 << 20),
            extracted: self.extracted.max(50 << 20),
            files: self.files,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error(transparent)]
    Http(#[from] HttpError),
    #[error("`{url}` is not a valid skills index: {why}")]
    BadIndex { url: String, why: String },
    #[error("the index at `{url}` lists an invalid skill name `{name}`")]
    BadName { url: String, name: String },
    #[error(
        "`{url}` does not match its digest: the index says {expected}, the download is {actual}"
    )]
    Digest {
        url: String,
        expected: String,
        actual: String,
    },
    #[error("the archive `{url}` is refused: {why}")]
    Archive { url: String, why: String },
    #[error("`{url}` is neither a SKILL.md nor a zip, tar or tar.gz archive{found}")]
    Unknown { url: String, found: String },
}

impl WebError {
    pub fn hint(&self) -> Option<String> {
        match self {
            WebError::Http(err) => err.hint(),
            WebError::Unknown { .. } => Some(
                "a web source is a site with `/.well-known/agent-skills/index.json`, a raw SKILL.md, or an archive link".into(),
            ),
            WebError::Archive { why, .. } if why.contains("limit") => {
                Some("raise --max-download-size, --max-skill-size or --max-files if you trust it".into())
            }
            _ => None,
        }
    }
}

/// A file held in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MemoryFile {
    bytes: Vec<u8>,
    executable: bool,
}

/// Files held in memory, by `/`-separated path; folders are implied by the paths.
#[derive(Debug, Clone, Default)]
pub struct MemoryTree {
    files: BTreeMap<String, MemoryFile>,
    label: String,
}

impl MemoryTree {
    fn insert(&mut self, path: String, bytes: Vec<u8>, executable: bool) {
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

fn not_found(path: &str) -> io::Error {
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

/// A path inside an archive or index, checked: relative, no `..`, no backslashes, no NUL.
fn safe_path(path: &str) -> Result<String, String> {
    let trimmed = path.trim_start_matches("./");
    let bad = trimmed.is_empty()
        || trimmed.starts_with('/')
        || trimmed.contains(['\\', '\0'])
        || trimmed.split('/').any(|part| part == "..")
        || trimmed.as_bytes().get(1) == Some(&b':');
    if bad {
        return Err(format!("unsafe path `{path}`"));
    }
    Ok(trimmed
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect::<Vec<_>>()
        .join("/"))
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    crate::lock::digest(bytes)
}

/// Reads at most `limit` bytes from `reader`; more is an error.
fn read_limited(reader: impl Read, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|err| format!("cannot unpack `{what}`: {err}"))?;
    if out.len() as u64 > limit {
        return Err(format!(
            "`{what}` unpacks to more than the limit of {limit} bytes"
        ));
    }
    Ok(out)
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
            tree: MemoryTree {
                files: BTreeMap::new(),
                label: url.to_owned(),
            },
            total: 0,
            limits,
        }
    }

    /// Adds the entry at path `raw` (entries under `__MACOSX` are dropped).
    fn add(&mut self, raw: &str, reader: impl Read, executable: bool) -> Result<(), String> {
        let path = safe_path(raw)?;
        if path.split('/').next() == Some("__MACOSX") {
            return Ok(());
        }
        if self.tree.files.len() >= self.limits.files {
            return Err(format!(
                "it has more than the limit of {} files",
                self.limits.files
            ));
        }
        let room = self.limits.extracted.saturating_sub(self.total);
        let bytes = read_limited(reader, room, &path).map_err(|why| {
            if why.contains("limit") {
                format!(
                    "it unpacks to more than the limit of {} bytes",
                    self.limits.extracted
                )
            } else {
                why
            }
        })?;
        self.total += bytes.len() as u64;
        self.tree.insert(path, bytes, executable);
        Ok(())
    }

    fn finish(mut self) -> MemoryTree {
        let first = |path: &String| path.split_once('/').map(|(dir, _)| dir.to_owned());
        let top: Option<String> = self.tree.files.keys().next().and_then(first);
        if let Some(top) = top
            && self
                .tree
                .files
                .keys()
                .all(|path| first(path).as_deref() == Some(top.as_str()))
        {
            let prefix = format!("{top}/");
            self.tree.files = std::mem::take(&mut self.tree.files)
                .into_iter()
                .map(|(path, file)| (path[prefix.len()..].to_owned(), file))
                .collect();
        }
        self.tree
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
            return Err(io::Error::other("it unpacks to more than the size limit"));
        }
        self.left -= read as u64;
        Ok(read)
    }
}

fn unpack_zip(url: &str, bytes: &[u8], limits: WebLimits) -> Result<MemoryTree, String> {
    let mut archive = zip::ZipArchive::new(io::Cursor::new(bytes))
        .map_err(|err| format!("not a readable zip: {err}"))?;
    let mut unpacked = Unpacked::new(url, limits);
    for index in 0..archive.len() {
        let entry = archive
            .by_index(index)
            .map_err(|err| format!("entry {index}: {err}"))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_dir() {
            safe_path(&name)?;
            continue;
        }
        if entry.is_symlink() {
            return Err(format!("`{name}` is a symlink"));
        }
        let executable = entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
        if entry
            .unix_mode()
            .is_some_and(|mode| mode & 0o170_000 != 0 && mode & 0o170_000 != 0o100_000)
        {
            return Err(format!("`{name}` is not a regular file"));
        }
        unpacked.add(&name, entry, executable)?;
    }
    Ok(unpacked.finish())
}

fn unpack_tar(url: &str, reader: impl Read, limits: WebLimits) -> Result<MemoryTree, String> {
    // Headers and padding count too: a bomb of empty entries stops at the same cap.
    let slack = 1024 * (limits.files as u64 + 16);
    let capped = Capped {
        inner: reader,
        left: limits.extracted.saturating_add(slack),
    };
    let mut archive = tar::Archive::new(capped);
    let mut unpacked = Unpacked::new(url, limits);
    let entries = archive
        .entries()
        .map_err(|err| format!("not a readable tar: {err}"))?;
    for entry in entries {
        let entry = entry.map_err(|err| format!("not a readable tar: {err}"))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                let executable = entry.header().mode().is_ok_and(|mode| mode & 0o111 != 0);
                unpacked.add(&name, entry, executable)?;
            }
            tar::EntryType::Directory => {
                safe_path(&name)?;
            }
            // Metadata of the archive itself (`git archive` writes a global pax header).
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader => {}
            tar::EntryType::Symlink | tar::EntryType::Link => {
                return Err(format!("`{name}` is a link"));
            }
            _ => return Err(format!("`{name}` is not a regular file or folder")),
        }
    }
    Ok(unpacked.finish())
}

/// Unpacks `bytes` by what they are (not by the URL's extension); `None` when they are no
/// archive.
pub fn unpack(url: &str, bytes: &[u8], limits: WebLimits) -> Option<Result<MemoryTree, WebError>> {
    let refused = |why: String| WebError::Archive {
        url: url.to_owned(),
        why,
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
fn found(bytes: &[u8]) -> String {
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
        let mut tree = MemoryTree {
            files: BTreeMap::new(),
            label: url.to_owned(),
        };
        tree.insert(crate::skill::SKILL_MD.to_owned(), bytes, false);
        return Ok((tree, digest));
    }
    Err(WebError::Unknown {
        url: url.to_owned(),
        found: found(&bytes),
    })
}

/// How an index serves one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// v1: files at `<index folder>/<name>/<file>`.
    Files(Vec<String>),
    /// v0.2 `skill-md`: one SKILL.md.
    SkillMd { url: String, digest: String },
    /// v0.2 `archive`: a zip or tar.gz with a root SKILL.md.
    Archive { url: String, digest: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedSkill {
    pub name: String,
    pub description: String,
    pub served: Served,
}

impl IndexedSkill {
    pub fn digest(&self) -> Option<&str> {
        match &self.served {
            Served::Files(_) => None,
            Served::SkillMd { digest, .. } | Served::Archive { digest, .. } => Some(digest),
        }
    }
}

/// A well-known skills index.
#[derive(Debug, Clone)]
pub struct Index {
    /// Where it was found.
    pub url: String,
    pub skills: Vec<IndexedSkill>,
}

/// Where to look for an index of `url`, in the reference's order.
fn index_candidates(url: &str) -> Vec<String> {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return Vec::new();
    };
    let origin = parsed.origin().ascii_serialization();
    let path = parsed.path().trim_end_matches('/');
    let mut out: Vec<String> = Vec::new();
    for dir in ["agent-skills", "skills"] {
        for base in [format!("{origin}{path}"), origin.clone()] {
            let candidate = format!("{base}/.well-known/{dir}/index.json");
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

pub fn parse_index(url: &str, bytes: &[u8]) -> Result<Index, WebError> {
    let bad = |why: &str| WebError::BadIndex {
        url: url.to_owned(),
        why: why.to_owned(),
    };
    let value: Value =
        serde_json::from_slice(bytes).map_err(|err| bad(&format!("not JSON ({err})")))?;
    let list = value
        .get("skills")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no `skills` list"))?;
    let v02 = value
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("0.2"));
    let mut skills = Vec::new();
    for item in list {
        let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
        let name = text("name").ok_or_else(|| bad("a skill without a `name`"))?;
        if !crate::skill::name::is_portable(&name) {
            return Err(WebError::BadName {
                url: url.to_owned(),
                name,
            });
        }
        let description = text("description").unwrap_or_default();
        let served = if let Some(files) = item
            .get("files")
            .and_then(Value::as_array)
            .filter(|_| !v02 || text("type").is_none())
        {
            let mut paths = Vec::new();
            for file in files {
                let file = file
                    .as_str()
                    .ok_or_else(|| bad(&format!("`{name}` lists a file that is not a string")))?;
                paths.push(safe_path(file).map_err(|why| bad(&format!("`{name}`: {why}")))?);
            }
            if !paths.iter().any(|p| p == crate::skill::SKILL_MD) {
                return Err(bad(&format!("`{name}` does not list a SKILL.md")));
            }
            Served::Files(paths)
        } else {
            let target = text("url")
                .ok_or_else(|| bad(&format!("`{name}` has neither `files` nor `url`")))?;
            let target = reqwest::Url::parse(url)
                .and_then(|base| base.join(&target))
                .map_err(|_| bad(&format!("`{name}` has an invalid `url`")))?
                .to_string();
            let digest = text("digest")
                .filter(|d| {
                    d.strip_prefix("sha256:")
                        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                })
                .ok_or_else(|| {
                    bad(&format!(
                        "`{name}` has no `digest` of the form sha256:<64 hex>"
                    ))
                })?
                .to_ascii_lowercase();
            match text("type").as_deref() {
                Some("archive") => Served::Archive {
                    url: target,
                    digest,
                },
                Some("skill-md") | None => Served::SkillMd {
                    url: target,
                    digest,
                },
                Some(other) => {
                    return Err(bad(&format!("`{name}` has an unknown `type` `{other}`")));
                }
            }
        };
        skills.push(IndexedSkill {
            name,
            description,
            served,
        });
    }
    Ok(Index {
        url: url.to_owned(),
        skills,
    })
}

/// The index of `url`, if it has one. Places that do not exist (404, or a page that is not
/// JSON) are passed over; any other failure is an error.
pub fn find_index(http: &Http, url: &str) -> Result<Option<Index>, WebError> {
    for candidate in index_candidates(url) {
        let bytes = match http.get(&candidate, 8 << 20) {
            Ok(bytes) => bytes,
            Err(err) if err.is_not_found() => continue,
            Err(err) => return Err(err.into()),
        };
        // A page that is not JSON (a site answering every path with HTML) is no index.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            continue;
        }
        return parse_index(&candidate, &bytes).map(Some);
    }
    Ok(None)
}

fn check_digest(url: &str, bytes: &[u8], expected: &str) -> Result<(), WebError> {
    let actual = digest(bytes);
    if actual != expected {
        return Err(WebError::Digest {
            url: url.to_owned(),
            expected: expected.to_owned(),
            actual,
        });
    }
    Ok(())
}

/// Downloads one skill of `index`, checked, as a tree with its files at the root.
pub fn fetch_skill(
    http: &Http,
    index: &Index,
    skill: &IndexedSkill,
    limits: WebLimits,
) -> Result<MemoryTree, WebError> {
    let label = format!("{}#{}", index.url, skill.name);
    match &skill.served {
        Served::Files(files) => {
            if files.len() > limits.files {
                return Err(WebError::BadIndex {
                    url: index.url.clone(),
                    why: format!("`{}` lists more than {} files", skill.name, limits.files),
                });
            }
            let base = index
                .url
                .rsplit_once('/')
                .map_or(index.url.as_str(), |(dir, _)| dir);
            let mut tree = MemoryTree {
                files: BTreeMap::new(),
                label,
            };
            let mut total = 0u64;
            for file in files {
                let bytes = http.get(&format!("{base}/{}/{file}", skill.name), limits.download)?;
                total += bytes.len() as u64;
                if total > limits.extracted {
                    return Err(WebError::Archive {
                        url: index.url.clone(),
                        why: format!(
                            "`{}` is larger than the limit of {} bytes",
                            skill.name, limits.extracted
                        ),
                    });
                }
                tree.insert(file.clone(), bytes, false);
            }
            Ok(tree)
        }
        Served::SkillMd { url, digest } => {
            let bytes = http.get(url, limits.download)?;
            check_digest(url, &bytes, digest)?;
            let mut tree = MemoryTree {
                files: BTreeMap::new(),
                label,
            };
            tree.insert(crate::skill::SKILL_MD.to_owned(), bytes, false);
            Ok(tree)
        }
        Served::Archive { url, digest } => {
            let limits = limits.for_indexed_archive();
            let bytes = http.get(url, limits.download)?;
            check_digest(url, &bytes, digest)?;
            let tree = unpack(url, &bytes, limits).unwrap_or_else(|| {
                Err(WebError::Unknown {
                    url: url.clone(),
                    found: found(&bytes),
                })
            })?;
            if tree.kind(crate::skill::SKILL_MD).is_none() {
                return Err(WebError::Archive {
                    url: url.clone(),
                    why: "it has no SKILL.md at its root".into(),
                });
            }
            Ok(tree)
        }
    }
}

/// An index as a tree: `<name>/<file>`, each skill downloaded the first time it is looked at.
pub struct IndexTree {
    http: Http,
    index: Index,
    limits: WebLimits,
    loaded: RefCell<HashMap<String, Result<MemoryTree, String>>>,
}

impl IndexTree {
    fn skill<T>(
        &self,
        path: &str,
        then: impl FnOnce(&MemoryTree, &str) -> io::Result<T>,
    ) -> io::Result<T> {
        let (name, rest) = path.split_once('/').unwrap_or((path, ""));
        let Some(skill) = self.index.skills.iter().find(|s| s.name == name) else {
            return Err(not_found(path));
        };
        let mut loaded = self.loaded.borrow_mut();
        let tree = loaded.entry(name.to_owned()).or_insert_with(|| {
            fetch_skill(&self.http, &self.index, skill, self.limits)
                .map_err(|err| crate::error::one_line(&err))
        });
        match tree {
            Ok(tree) => then(tree, rest),
            Err(why) => Err(io::Error::other(why.clone())),
        }
    }
}

impl SourceTree for IndexTree {
    fn list(&self, path: &str) -> io::Result<Vec<Entry>> {
        if path.is_empty() {
            return Ok(self
                .index
                .skills
                .iter()
                .map(|s| Entry {
                    name: s.name.clone(),
                    kind: Kind::Dir,
                })
                .collect());
        }
        self.skill(path, SourceTree::list)
    }

    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.skill(path, SourceTree::read)
    }

    fn read_link(&self, path: &str) -> io::Result<String> {
        self.skill(path, SourceTree::read_link)
    }

    fn kind(&self, path: &str) -> Option<Kind> {
        if path.is_empty() {
            return Some(Kind::Dir);
        }
        self.skill(path, |tree, rest| Ok(tree.kind(rest)))
            .ok()
            .flatten()
    }

    fn describe(&self) -> String {
        self.index.url.clone()
    }
}

/// A web source fetched: a tree to read, and for an index the skills it offers (with their
/// digests), so nothing is downloaded before skills are chosen. Cheap to clone: the tree is
/// shared, and an index's tree downloads each skill once however many clones read it.
#[derive(Clone)]
pub struct Fetched {
    pub tree: Rc<dyn SourceTree>,
    pub offered: Option<Vec<Offered>>,
    /// The index, or the downloaded URL.
    pub source_url: String,
    /// The download's digest (direct downloads).
    pub digest: Option<String>,
}

/// Opens `url`: its well-known index when `well_known` and it has one, else the download.
pub fn open(
    http: Http,
    url: &str,
    well_known: bool,
    limits: WebLimits,
) -> Result<Fetched, WebError> {
    if well_known && let Some(index) = find_index(&http, url)? {
        let offered = index
            .skills
            .iter()
            .map(|s| Offered {
                name: s.name.clone(),
                description: s.description.clone(),
                path: s.name.clone(),
                internal: false,
                digest: s.digest().map(str::to_owned),
            })
            .collect();
        return Ok(Fetched {
            source_url: index.url.clone(),
            offered: Some(offered),
            digest: None,
            tree: Rc::new(IndexTree {
                http,
                index,
                limits,
                loaded: RefCell::new(HashMap::new()),
            }),
        });
    }
    let (tree, digest) = download(&http, url, limits)?;
    Ok(Fetched {
        tree: Rc::new(tree),
        offered: None,
        source_url: url.to_owned(),
        digest: Some(digest),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::name::is_portable;

    #[test]
    fn index_places_in_the_reference_order() {
        assert_eq!(
            index_candidates("https://example.com/docs/"),
            [
                "https://example.com/docs/.well-known/agent-skills/index.json",
                "https://example.com/.well-known/agent-skills/index.json",
                "https://example.com/docs/.well-known/skills/index.json",
                "https://example.com/.well-known/skills/index.json",
            ]
        );
        assert_eq!(index_candidates("http://127.0.0.1:8080").len(), 2);
    }

    #[test]
    fn names_and_paths_are_checked() {
        assert!(is_portable("pdf-forms") && is_portable("a1"));
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "../x", &"a".repeat(65)] {
            assert!(!is_portable(bad), "{bad}");
        }
        assert_eq!(safe_path("./a//b/./c.md").unwrap(), "a/b/c.md");
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
            tree.kind("SKILL.md"),
            Some(Kind::File { executable: false })
        );
        assert_eq!(
            tree.kind("scripts/a.sh"),
            Some(Kind::File { executable: true })
        );
        assert_eq!(
            tree.list("")
                .unwrap()
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>(),
            ["SKILL.md", "scripts"]
        );
    }
}
