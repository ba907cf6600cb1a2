//! RFC 8615 well-known skills indexes: v1 file lists and v0.2 `skill-md`/`archive` entries
//! with digests, and the lazy tree an index is read through.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;

use serde_json::Value;

use super::archive::{ArchiveProblem, found, safe_path, unpack};
use super::memory::{MemoryTree, not_found};
use super::{SharedWebError, WebError, WebLimits, digest};
use crate::relpath::RelPath;
use crate::source::http::{Http, is_internal};
use crate::source::tree::{Entry, Kind, SourceTree};

/// How an index serves one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// v1: files at `<index folder>/<name>/<file>`.
    Files(Vec<RelPath>),
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
            if !paths.iter().any(|p| *p == crate::skill::SKILL_MD) {
                return Err(bad(&format!("`{name}` does not list a SKILL.md")));
            }
            Served::Files(paths)
        } else {
            let target = text("url")
                .ok_or_else(|| bad(&format!("`{name}` has neither `files` nor `url`")))?;
            let base = reqwest::Url::parse(url)
                .map_err(|_| bad(&format!("`{name}` has an invalid `url`")))?;
            let target = base
                .join(&target)
                .map_err(|_| bad(&format!("`{name}` has an invalid `url`")))?;
            // As for redirects: a public index may not send requests to internal addresses.
            if is_internal(&target) && !is_internal(&base) {
                return Err(bad(&format!("`{name}` has a `url` to an internal address")));
            }
            let target = target.to_string();
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
            let mut tree = MemoryTree::new(&label);
            let mut total = 0u64;
            for file in files {
                let bytes = http.get(&format!("{base}/{}/{file}", skill.name), limits.download)?;
                total += bytes.len() as u64;
                if total > limits.extracted {
                    return Err(WebError::Archive {
                        url: index.url.clone(),
                        problem: ArchiveProblem::SkillTooLarge {
                            name: skill.name.clone(),
                            limit: limits.extracted,
                        },
                    });
                }
                tree.insert(file.clone(), bytes, false);
            }
            Ok(tree)
        }
        Served::SkillMd { url, digest } => {
            let bytes = http.get(url, limits.download)?;
            check_digest(url, &bytes, digest)?;
            let mut tree = MemoryTree::new(&label);
            tree.insert(skill_md(), bytes, false);
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
            if tree.kind(&skill_md()).is_none() {
                return Err(WebError::Archive {
                    url: url.clone(),
                    problem: ArchiveProblem::NoSkillMd,
                });
            }
            Ok(tree)
        }
    }
}

/// The path `SKILL.md`.
fn skill_md() -> RelPath {
    RelPath::ROOT
        .join(crate::skill::SKILL_MD)
        .unwrap_or_default()
}

/// An index as a tree: `<name>/<file>`, each skill downloaded the first time it is looked at.
pub(super) struct IndexTree {
    http: Http,
    index: Index,
    limits: WebLimits,
    loaded: RefCell<HashMap<String, Result<MemoryTree, SharedWebError>>>,
}

impl IndexTree {
    pub(super) fn new(http: Http, index: Index, limits: WebLimits) -> IndexTree {
        IndexTree {
            http,
            index,
            limits,
            loaded: RefCell::new(HashMap::new()),
        }
    }

    fn skill<T>(
        &self,
        path: &RelPath,
        then: impl FnOnce(&MemoryTree, &RelPath) -> io::Result<T>,
    ) -> io::Result<T> {
        let name = path.components().next().unwrap_or_default();
        let rest = RelPath::new(name)
            .ok()
            .and_then(|top| path.strip_prefix(&top))
            .unwrap_or_default();
        let Some(skill) = self.index.skills.iter().find(|s| s.name == name) else {
            return Err(not_found(path));
        };
        let mut loaded = self.loaded.borrow_mut();
        let tree = loaded.entry(name.to_owned()).or_insert_with(|| {
            fetch_skill(&self.http, &self.index, skill, self.limits)
                .map_err(|err| SharedWebError(std::sync::Arc::new(err)))
        });
        match tree {
            Ok(tree) => then(tree, &rest),
            Err(err) => Err(io::Error::other(err.clone())),
        }
    }
}

impl SourceTree for IndexTree {
    fn list(&self, path: &RelPath) -> io::Result<Vec<Entry>> {
        if path.is_root() {
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

    fn read(&self, path: &RelPath, limit: u64) -> io::Result<Vec<u8>> {
        self.skill(path, |tree, rest| tree.read(rest, limit))
    }

    fn read_link(&self, path: &RelPath) -> io::Result<String> {
        self.skill(path, SourceTree::read_link)
    }

    fn kind(&self, path: &RelPath) -> Option<Kind> {
        if path.is_root() {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
