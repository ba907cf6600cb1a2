//! Web sources: RFC 8615 well-known indexes (v1 file lists, v0.2 `skill-md`/`archive` entries
//! with digests) and direct downloads (a SKILL.md, a zip, tar or tar.gz archive), turned into
//! trees that discovery and install read like a folder.
//!
//! Everything is checked in memory before anything is written: digests before unpacking, sizes
//! as bytes arrive (a declared size is never trusted), file counts, skill names, and archive
//! entries (`..`, absolute paths, links and devices are refused, `__MACOSX` is ignored, a single
//! top-level folder is unwrapped).

mod archive;
mod index;
mod memory;

use crate::hint::Hint;
use std::rc::Rc;

use super::discover::Offered;
use super::http::{Http, HttpError};
use super::tree::SourceTree;

pub use archive::{download, unpack};
pub use index::{Index, IndexedSkill, Served, fetch_skill, find_index, parse_index};
pub use memory::MemoryTree;

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

/// URLs are quoted without the credentials typed into them ([`super::redact`]).
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error(transparent)]
    Http(#[from] HttpError),
    #[error("`{}` is not a valid skills index: {why}", super::redact(.url))]
    BadIndex { url: String, why: String },
    #[error("the index at `{}` lists an invalid skill name `{name}`", super::redact(.url))]
    BadName { url: String, name: String },
    #[error(
        "`{}` does not match its digest: the index says {expected}, the download is {actual}",
        super::redact(.url)
    )]
    Digest {
        url: String,
        expected: String,
        actual: String,
    },
    #[error("the archive `{}` is refused", super::redact(.url))]
    Archive {
        url: String,
        #[source]
        problem: archive::ArchiveProblem,
    },
    #[error("`{}` is neither a SKILL.md nor a zip, tar or tar.gz archive{found}", super::redact(.url))]
    Unknown { url: String, found: String },
}

impl Hint for WebError {
    fn hint(&self) -> Option<String> {
        match self {
            WebError::Http(err) => err.hint(),
            WebError::Unknown { .. } => Some(
                "a web source is a site with `/.well-known/agent-skills/index.json`, a raw SKILL.md, or an archive link".into(),
            ),
            WebError::Digest { .. } => Some(
                "the download is not what the index promised: nothing of it was used; if the site updated one without the other, try again later, else tell its owner".into(),
            ),
            WebError::Archive { problem, .. } if problem.is_limit() => {
                Some("raise --max-download-size, --max-skill-size or --max-files if you trust it".into())
            }
            _ => None,
        }
    }
}

/// A [`WebError`] handed to every read of the skill it stopped (an index tree fetches a skill
/// once and remembers the failure); it travels inside an `io::Error` and keeps its hint.
#[derive(Debug, Clone)]
pub struct SharedWebError(pub std::sync::Arc<WebError>);

impl std::fmt::Display for SharedWebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SharedWebError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // Shown as the inner error: its cause comes next.
        std::error::Error::source(&*self.0)
    }
}

impl Hint for SharedWebError {
    fn hint(&self) -> Option<String> {
        self.0.hint()
    }
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    crate::lock::digest(bytes)
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
                // A name the index was refused for otherwise (`is_portable`): one component.
                path: crate::relpath::RelPath::new(&s.name).unwrap_or_default(),
                internal: false,
                digest: s.digest().map(str::to_owned),
            })
            .collect();
        return Ok(Fetched {
            source_url: index.url.clone(),
            offered: Some(offered),
            digest: None,
            tree: Rc::new(index::IndexTree::new(http, index, limits)),
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
