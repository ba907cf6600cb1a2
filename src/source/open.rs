//! Opening a parsed source: a local folder, or a git remote fetched at a ref or commit, as a
//! tree to discover and copy skills from, plus what the lockfile records about it.

use std::path::{Path, PathBuf};

use super::git::{self, FetchError, GitSettings, Want};
use super::grammar::{Provider, Selector, Source, SourceError, WebKind};
use super::tree::{LocalTree, SourceTree};
use crate::lock::SourceType;

/// What the lockfile records about where skills came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// `source`: as typed (`owner/repo`, a URL), or a local path relative to the lock.
    pub source: String,
    pub source_type: SourceType,
    /// `sourceUrl`: the clone URL (with the public host for `owner/repo`, whatever mirror served it).
    pub source_url: Option<String>,
    /// The ref asked for, when one was.
    pub git_ref: Option<String>,
    /// The commit read, for git sources.
    pub commit: Option<String>,
    /// `sha256:<hex>` of the download, for direct web downloads.
    pub digest: Option<String>,
}

/// A source ready to read.
pub struct Opened {
    pub tree: Box<dyn SourceTree>,
    /// Where to search inside the tree (`""` for its root).
    pub base: String,
    pub origin: Origin,
    /// `@skill` from the source string.
    pub skill: Option<String>,
    /// Whether git objects were transferred.
    pub transferred: bool,
    /// The skills a web index offers (discovery is not needed, nothing is downloaded yet).
    pub offered: Option<Vec<super::discover::Offered>>,
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("`{}` does not exist", .0.display())]
    NotFound(PathBuf),
    #[error(transparent)]
    Web(#[from] super::web::WebError),
}

impl OpenError {
    pub fn hint(&self) -> Option<String> {
        match self {
            OpenError::Source(err) => err.hint(),
            OpenError::Fetch(err) => err.hint(),
            OpenError::NotFound(_) => {
                Some("a local source is a folder of skills or a skill folder".into())
            }
            OpenError::Web(err) => err.hint(),
        }
    }
}

/// How a lock records a local source: relative to the lock's folder (`./x`, `../x`) in a
/// project, absolute for the user's lock.
pub fn local_source(path: &Path, lock_dir: &Path, global: bool) -> String {
    if global {
        return path.display().to_string();
    }
    let relative = crate::fsutil::relative_path(lock_dir, path);
    if relative.is_absolute() {
        return relative.display().to_string();
    }
    let text = relative.to_string_lossy().replace('\\', "/");
    if text.is_empty() {
        ".".to_owned()
    } else if text.starts_with("..") {
        text
    } else {
        format!("./{text}")
    }
}

/// Opens `source`; `pin` reads that exact commit instead of the ref's tip.
pub fn open(
    source: &Source,
    lock_dir: &Path,
    global: bool,
    settings: &GitSettings,
    pin: Option<&str>,
) -> Result<Opened, OpenError> {
    match source {
        Source::Local { path } => {
            let meta = std::fs::metadata(path).map_err(|_| OpenError::NotFound(path.clone()))?;
            let root = if meta.is_file() {
                path.parent()
                    .map_or_else(|| path.clone(), Path::to_path_buf)
            } else {
                path.clone()
            };
            let root = std::fs::canonicalize(&root).unwrap_or(root);
            Ok(Opened {
                origin: Origin {
                    source: local_source(&root, lock_dir, global),
                    source_type: SourceType::Local,
                    source_url: None,
                    git_ref: None,
                    commit: None,
                    digest: None,
                },
                tree: Box::new(LocalTree { root }),
                base: String::new(),
                skill: None,
                transferred: false,
                offered: None,
            })
        }
        Source::Git(git_source) => {
            git::set_timeouts();
            let refs = git::ls_remote(&git_source.url, settings)?;
            let (git_ref, subpath) = git_source.selector.resolve(&git::short_names(&refs))?;
            let want = match (pin, &git_ref) {
                (Some(commit), _) => Want::Commit {
                    oid: commit.to_owned(),
                    fallback: git_ref.clone(),
                },
                (None, Some(r)) if r.len() == 40 && r.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    Want::Commit {
                        oid: r.to_ascii_lowercase(),
                        fallback: None,
                    }
                }
                (None, Some(r)) => Want::Ref(r.clone()),
                (None, None) => Want::Head,
            };
            let fetched = git::fetch(&git_source.url, &want, Some(refs), settings)?;
            let source_type = match git_source.provider {
                Provider::Github => SourceType::Github,
                Provider::Gitlab => SourceType::Gitlab,
                Provider::Git => SourceType::Git,
            };
            // A ref that came from a tree/blob URL is recorded like `#ref`.
            let recorded_ref = match &git_source.selector {
                Selector::Exact { git_ref, .. } => git_ref.clone(),
                Selector::Path { .. } => git_ref,
            };
            Ok(Opened {
                origin: Origin {
                    source: git_source.display.clone(),
                    source_type,
                    source_url: Some(git_source.public.clone()),
                    git_ref: recorded_ref,
                    commit: Some(fetched.commit.clone()),
                    digest: None,
                },
                transferred: fetched.transferred,
                tree: Box::new(fetched.tree),
                base: subpath.unwrap_or_default(),
                skill: git_source.skill.clone(),
                offered: None,
            })
        }
        Source::Web { url, kind } => {
            let http =
                super::http::Http::new(settings.progress).map_err(super::web::WebError::from)?;
            let opened = super::web::open(http, url, *kind == WebKind::WellKnown, settings.web)?;
            Ok(Opened {
                origin: Origin {
                    source: url.clone(),
                    source_type: SourceType::WellKnown,
                    source_url: Some(opened.source_url),
                    git_ref: None,
                    commit: None,
                    digest: opened.digest,
                },
                tree: opened.tree,
                base: String::new(),
                skill: None,
                transferred: true,
                offered: opened.offered,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn local_sources_are_relative_to_the_lock() {
        use std::path::Path;
        assert_eq!(
            super::local_source(Path::new("/p/vendor/skills"), Path::new("/p"), false),
            "./vendor/skills"
        );
        assert_eq!(
            super::local_source(Path::new("/src"), Path::new("/p"), false),
            "../src"
        );
        assert_eq!(
            super::local_source(Path::new("/p"), Path::new("/p"), false),
            "."
        );
        assert_eq!(
            super::local_source(Path::new("/src"), Path::new("/p"), true),
            "/src"
        );
    }
}
