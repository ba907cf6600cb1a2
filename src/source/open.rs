//! Opening a source, the one way for every command: a source string (`add`, `use`, `install
//! SOURCE`) or a lock entry (`install`, `check`, `update`, `list`) becomes a [`Request`] (where
//! the source is, what to read there, what the lock records), and [`Sources`] opens it as a tree
//! to discover and copy skills from.
//!
//! Invariants: each remote is asked for its refs once however many skills share it (a failure
//! too is remembered, so an unreachable host costs one timeout), each commit is fetched (or found
//! in the cache) once, and each web index is fetched once; a 40-hex ref names a commit wherever
//! it comes from ([`Want::of_ref`]); folders and web sources are read as they are now. A request
//! a project's lockfile chose ([`Chooser::Lock`]) reaches only addresses the policy of
//! [`super::address`] allows, its git transfers follow no redirect, and each git host is judged
//! once per run.

use crate::hint::Hint;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use super::address::{BadTrustedHost, Chooser, Policy, Refused};
use super::discover::{self, Offered, Options};
use super::git::{self, FetchError, GitSettings, RemoteRef, Want};
use super::grammar::{Provider, Selector, Source, SourceEnv, SourceError, WebKind};
use super::tree::{LocalTree, SourceTree};
use super::web::{self, WebError};
use crate::lock::{LockEntry, SourceType};
use crate::relpath::RelPath;

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

/// Where a source is: what opening it needs to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A folder on this machine (`sourceType: local`, or a package in `node_modules`).
    Folder(PathBuf),
    /// A git remote, by clone URL.
    Git(String),
    /// A web source: a site with a well-known index (`well_known`), or a download.
    Web { url: String, well_known: bool },
}

impl Location {
    /// Where `entry`'s source is. A local source is relative to the lock's folder; a remote one is
    /// parsed again from `source` (so `SKILLS_GITHUB_URL` mirrors apply), else taken from
    /// `sourceUrl`.
    pub fn of_entry(
        entry: &LockEntry,
        lock_dir: &Path,
        env: &SourceEnv,
    ) -> Result<Location, OpenError> {
        match entry.source_type() {
            SourceType::Local => {
                let path = match entry.source.strip_prefix("~/") {
                    Some(rest) => dirs::home_dir().ok_or(OpenError::NoHome)?.join(rest),
                    None => lock_dir.join(&entry.source),
                };
                let path = super::grammar::normalize(&path);
                if let Some(bound) = &env.bound {
                    check_bound(&entry.source, &path, bound, &env.outside)?;
                }
                Ok(Location::Folder(path))
            }
            SourceType::WellKnown => match super::parse(&entry.source, env) {
                Ok(Source::Web { url, kind, .. }) => Ok(Location::Web {
                    url,
                    well_known: kind == WebKind::WellKnown,
                }),
                _ => Err(OpenError::NotWebSource(entry.source.clone())),
            },
            SourceType::NodeModules => {
                // Looked up in the `node_modules` folders of the repository only; what a package
                // manager links from there (a store, a local package) is its own business.
                let path = super::npm::find_installed(lock_dir, &entry.source)
                    .filter(|path| env.bound.as_ref().is_none_or(|b| path.starts_with(b)))
                    .ok_or_else(|| OpenError::PackageNotInstalled(entry.source.clone()))?;
                Ok(Location::Folder(path))
            }
            SourceType::Github | SourceType::Gitlab | SourceType::Git => {
                let parsed = match super::parse(&entry.source, env) {
                    Ok(Source::Git(source)) => Some(source),
                    _ => None,
                };
                // The reference once recorded GitLab and other git sources host-less (`g/s/r`,
                // from the clone URL's path), which reads as a GitHub shorthand: such an entry
                // is found through its `sourceUrl`, or on gitlab.com for a GitLab one.
                let hostless = entry.source_type() != SourceType::Github
                    && parsed
                        .as_ref()
                        .is_some_and(|s| s.provider == Provider::Github);
                let parsed = match parsed {
                    Some(source) if !hostless => Some(source),
                    _ if hostless
                        && entry.source_type() == SourceType::Gitlab
                        && entry.source_url.is_none() =>
                    {
                        match super::parse(&format!("gitlab:{}", entry.source), env) {
                            Ok(Source::Git(source)) => Some(source),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let url = if let Some(source) = parsed {
                    source.url
                } else {
                    let url = entry
                        .source_url
                        .clone()
                        .ok_or_else(|| OpenError::NoSourceUrl(entry.source.clone()))?;
                    // A path (`../home/repo`) would be opened by libgit2 relative to the cwd,
                    // past the bound: only a URL is taken from `sourceUrl`.
                    if !is_git_url(&url) {
                        return Err(OpenError::NotGitUrl(url));
                    }
                    url
                };
                // A repository on this machine is a local folder too.
                if let (Some(bound), Some(path)) = (&env.bound, git::local_path(&url)) {
                    check_bound(&entry.source, &path, bound, &env.outside)?;
                }
                Ok(Location::Git(url))
            }
        }
    }
}

/// Whether `url` is a git URL (`https://`, `http://`, `ssh://`, `git://`, `file://`,
/// `git@host:path`), not a path.
fn is_git_url(url: &str) -> bool {
    ["https://", "http://", "ssh://", "git://", "file://"]
        .iter()
        .any(|scheme| url.starts_with(scheme))
        || url
            .strip_prefix("git@")
            .and_then(|rest| rest.split_once(':'))
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// A locked folder must be inside `bound` (a project lock's repository), links resolved: a
/// lock from a clone must not make `skills` read, link or install `~/.ssh`. Past it, only a
/// folder this machine's user added skills from, or any folder where every byte read is
/// checked against the lock before it is written (`outside`).
fn check_bound(
    source: &str,
    path: &Path,
    bound: &Path,
    outside: &super::Outside,
) -> Result<(), OpenError> {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    if real(path).starts_with(real(bound))
        || outside.verified
        || super::added::covers(&outside.trusted, path)
    {
        Ok(())
    } else {
        Err(OpenError::Outside {
            folder: source.to_owned(),
            bound: bound.to_path_buf(),
        })
    }
}

/// The folder a project's lock may name local sources in: the repository it is in (the nearest
/// folder above it with a `.git`). `None` for a project that is no repository: its lock may
/// still come from a stranger (a downloaded archive), and is bounded to its own folder.
pub fn repository_of(lock_dir: &Path) -> Option<PathBuf> {
    let found = lock_dir.ancestors().find(|dir| dir.join(".git").exists())?;
    // A `.git` that another user planted in a shared parent (`/tmp/.git`) would widen the bound
    // to everything below it: only a repository that could be the project bounds it.
    crate::trust::Trust::from_env()
        .check(found, &[".git"])
        .is_ok()
        .then(|| found.to_path_buf())
}

/// A source to open: where it is, what to read there, and what the lock records about it.
#[derive(Debug, Clone)]
pub struct Request {
    pub location: Location,
    /// What to read of a git source (folders and web sources are read as they are now).
    pub want: Want,
    /// What the lock records; opening fills in the commit read and a download's digest.
    pub origin: Origin,
    /// Where to search inside the tree (`""` for its root).
    pub base: RelPath,
    /// `@skill` from the source string.
    pub skill: Option<String>,
    /// Who chose where the source is: a project's lockfile, or the user.
    pub chooser: Chooser,
}

impl Request {
    /// The source of the lock entry `entry`, to be read at what `want` names. A project's lock
    /// (one bounded to its repository) chose it; the user's own lock is the user's choice.
    pub fn from_entry(
        entry: &LockEntry,
        lock_dir: &Path,
        env: &SourceEnv,
        want: Want,
    ) -> Result<Request, OpenError> {
        Ok(Request {
            location: Location::of_entry(entry, lock_dir, env)?,
            want,
            origin: Origin {
                source: entry.source.clone(),
                source_type: entry.source_type(),
                source_url: entry.source_url.clone(),
                git_ref: entry.git_ref.clone(),
                commit: None,
                digest: None,
            },
            base: RelPath::ROOT,
            skill: None,
            chooser: if env.bound.is_some() {
                Chooser::Lock
            } else {
                Chooser::User
            },
        })
    }

    /// The same source at exactly `commit` (a tip seen in an advertisement: the ref may move
    /// while we look); the ref followed is the fallback for servers that do not serve commits.
    #[must_use]
    pub fn pinned(&self, commit: &str) -> Request {
        let fallback = match &self.want {
            Want::Head | Want::Prefix(_) => None,
            Want::Ref(name) => Some(name.clone()),
            Want::Commit { fallback, .. } => fallback.clone(),
        };
        Request {
            want: Want::exactly(commit, fallback),
            ..self.clone()
        }
    }
}

/// A source ready to read.
#[derive(Clone)]
pub struct Opened {
    pub tree: Rc<dyn SourceTree>,
    /// Where to search inside the tree (`""` for its root).
    pub base: RelPath,
    /// What the lock records, with the commit read (git) and the download's digest (web).
    pub origin: Origin,
    /// `@skill` from the source string.
    pub skill: Option<String>,
    /// Whether git objects were transferred.
    pub transferred: bool,
    /// The skills a web index offers (discovery is not needed, nothing is downloaded yet).
    pub offered: Option<Vec<Offered>>,
}

impl Opened {
    /// The commit read, for git sources.
    pub fn commit(&self) -> Option<&str> {
        self.origin.commit.as_deref()
    }

    /// The digest a web index gives the skill `name` (the last listing of that name wins).
    pub fn indexed_digest(&self, name: &str) -> Option<&str> {
        self.offered
            .iter()
            .flatten()
            .rev()
            .filter(|o| o.name == name)
            .find_map(|o| o.digest.as_deref())
    }

    /// The digest of what this source serves for the skill `name`, for the lock: the index's,
    /// else the download's.
    pub fn digest_of(&self, name: &str) -> Option<String> {
        self.indexed_digest(name)
            .map(str::to_owned)
            .or_else(|| self.origin.digest.clone())
    }

    /// The folder of the skill `name` inside the tree: the folder of `skill_path` when it still
    /// holds a SKILL.md, else the skill of that name wherever the source now keeps it. `Err` for
    /// a `skill_path` that climbs out of the source.
    pub fn skill_dir(
        &self,
        skill_path: Option<&str>,
        name: &str,
    ) -> Result<Option<RelPath>, OpenError> {
        let tree = self.tree.as_ref();
        if let Some(path) = skill_path {
            let path = RelPath::normalize(path)
                .ok()
                .filter(|p| !p.is_root())
                .ok_or_else(|| OpenError::SkillPathLeaves(path.to_owned()))?;
            let dir = path.parent();
            if tree.kind(&path).is_some()
                && dir
                    .join(crate::skill::SKILL_MD)
                    .is_ok_and(|file| tree.kind(&file).is_some())
            {
                return Ok(Some(dir));
            }
        }
        let found = discover::discover(tree, &RelPath::ROOT, Options { full_depth: true });
        Ok(found
            .skills
            .into_iter()
            .find(|s| s.name == name)
            .map(|s| s.path))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Source(#[from] SourceError),
    /// Shared: a remote's failed advertisement is remembered and given to every skill of it.
    #[error(transparent)]
    Fetch(Arc<FetchError>),
    #[error("`{}` does not exist", .0.display())]
    NotFound(PathBuf),
    #[error("the source folder `{}` does not exist", .0.display())]
    NotAFolder(PathBuf),
    #[error(transparent)]
    Web(#[from] WebError),
    #[error("cannot find the home directory")]
    NoHome,
    #[error("`{0}` is not a web source")]
    NotWebSource(String),
    #[error("the package `{0}` is not in `node_modules` (run `npm install`)")]
    PackageNotInstalled(String),
    #[error("`{0}` is not a git source and the entry has no `sourceUrl`")]
    NoSourceUrl(String),
    #[error("its `skillPath` `{0}` leaves the source")]
    SkillPathLeaves(String),
    /// `--offline`, and the source is not on this machine.
    #[error("offline, and neither the cache nor this machine has `{0}` at the locked commit")]
    Offline(String),
    /// `--offline`, and no run fetched the repository into the git cache.
    #[error("offline, and the git cache holds no copy of `{0}`")]
    NotCached(String),
    /// `--offline`, and the cache of the repository has no tip of that name.
    #[error(
        "offline, and no run fetched `{wanted}` of `{url}` into the git cache (it has {known})"
    )]
    NotCachedRef {
        url: String,
        wanted: String,
        known: String,
    },
    /// `--offline`, and the cache has the commit but no run has found it on a branch or tag.
    #[error("offline, and no run has found commit `{commit}` on a branch or tag of `{url}` yet")]
    OfflineUnverified { url: String, commit: String },
    #[error("its `sourceUrl` `{0}` is not a git URL (a path is a `local` source)")]
    NotGitUrl(String),
    #[error("its local source `{folder}` is outside `{}`, the repository (or, with none, the folder) of the lockfile", bound.display())]
    Outside { folder: String, bound: PathBuf },
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    TrustedHosts(#[from] BadTrustedHost),
}

impl From<FetchError> for OpenError {
    fn from(err: FetchError) -> OpenError {
        OpenError::Fetch(Arc::new(err))
    }
}

impl Hint for OpenError {
    fn hint(&self) -> Option<String> {
        match self {
            OpenError::Source(err) => err.hint(),
            OpenError::Fetch(err) => err.hint(),
            OpenError::NotFound(_) => {
                Some("a local source is a folder of skills or a skill folder".into())
            }
            OpenError::Web(err) => err.hint(),
            OpenError::Refused(err) => err.hint(),
            OpenError::OfflineUnverified { .. } => Some(
                "run once online: a commit is used only once it is known to be on a branch or tag of its source, and the cache then remembers it".into(),
            ),
            OpenError::NotCached(_) | OpenError::NotCachedRef { .. } => Some(
                "run it once without `--offline` (and without `SKILLS_OFFLINE=1`): what a run fetches stays in the cache (`skills cache dir`), and `--offline` opens it there at the commit that run saw".into(),
            ),
            OpenError::TrustedHosts(err) => err.hint(),
            OpenError::Outside { .. } => Some(
                "a project's lockfile follows local sources outside its repository only on a machine whose user added them (`skills add FOLDER` there); `skills install` restores them wherever the folder holds the locked bytes".into(),
            ),
            _ => None,
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

/// Sources opened so far: each remote is asked for its refs once, each commit is fetched (or
/// found in the cache) once, each web source is fetched once.
pub struct Sources {
    settings: GitSettings,
    /// Open only what this machine has: local folders and commits in the git cache.
    offline: bool,
    refs: HashMap<String, Result<Rc<[RemoteRef]>, Arc<FetchError>>>,
    trees: HashMap<(String, String), Rc<dyn SourceTree>>,
    web: HashMap<(String, bool), web::Fetched>,
    /// Where requests a lockfile chose may go, read from the environment when first needed.
    policy: Option<Arc<Policy>>,
    /// Git remotes a lockfile chose, judged: each host is resolved once per run.
    judged: HashMap<String, Result<(), Refused>>,
}

impl Sources {
    pub fn new(settings: GitSettings) -> Sources {
        Sources {
            settings,
            offline: false,
            refs: HashMap::new(),
            trees: HashMap::new(),
            web: HashMap::new(),
            policy: None,
            judged: HashMap::new(),
        }
    }

    /// The address policy for requests a lockfile chose.
    fn policy(&mut self) -> Result<Arc<Policy>, OpenError> {
        if let Some(policy) = &self.policy {
            return Ok(Arc::clone(policy));
        }
        let policy = Arc::new(Policy::from_env()?);
        self.policy = Some(Arc::clone(&policy));
        Ok(policy)
    }

    /// Before the network is asked about the git remote `url`: a remote a lockfile chose must
    /// be at an address the policy allows (the user's own choices are not judged).
    fn judge_git(&mut self, url: &str, chooser: Chooser) -> Result<(), OpenError> {
        if chooser == Chooser::User || git::local_path(url).is_some() {
            return Ok(());
        }
        if let Some(known) = self.judged.get(url) {
            return known.clone().map_err(OpenError::Refused);
        }
        let verdict = self.policy()?.check_git_url(url);
        self.judged.insert(url.to_owned(), verdict.clone());
        verdict.map_err(OpenError::Refused)
    }

    /// The git settings for a request `chooser` made: a remote a lockfile chose is not followed
    /// through redirects (where libgit2 allows: HTTP), which would reach an address unjudged.
    fn settings_for(&self, chooser: Chooser) -> GitSettings {
        GitSettings {
            redirects: chooser == Chooser::User,
            ..self.settings.clone()
        }
    }

    /// From now on, open only what this machine has (`--offline`): folders, and commits the
    /// git cache holds.
    pub fn go_offline(&mut self) {
        self.offline = true;
    }

    /// The refs of `url`: one advertisement, remembered (failures too).
    fn refs(&mut self, url: &str, chooser: Chooser) -> Result<Rc<[RemoteRef]>, OpenError> {
        // libgit2 is set up on first use only: its OpenSSL setup rewrites `SSL_CERT_FILE`, which
        // must stay as the user set it for web sources (a missing file is an error there).
        git::set_timeouts();
        if let Some(known) = self.refs.get(url) {
            return known.clone().map_err(OpenError::Fetch);
        }
        if self.offline {
            // What the last run that fetched `url` saw: no network, no address to judge.
            let refs: Rc<[RemoteRef]> = git::known_refs(url, &self.settings)
                .ok_or_else(|| OpenError::NotCached(super::redact(url)))?
                .into();
            self.refs.insert(url.to_owned(), Ok(Rc::clone(&refs)));
            return Ok(refs);
        }
        self.judge_git(url, chooser)?;
        let refs = git::ls_remote(url, &self.settings_for(chooser))
            .map(Rc::from)
            .map_err(Arc::new);
        self.refs.insert(url.to_owned(), refs.clone());
        refs.map_err(OpenError::Fetch)
    }

    /// What opening the parsed source `source` takes. A local path may name a SKILL.md (its
    /// folder is opened); a git source's tree/blob URL is split into ref and subpath against the
    /// remote's refs, so a ref holding `/` is found whole.
    pub fn request(
        &mut self,
        source: &Source,
        lock_dir: &Path,
        global: bool,
    ) -> Result<Request, OpenError> {
        match source {
            Source::Local { path } => {
                let meta =
                    std::fs::metadata(path).map_err(|_| OpenError::NotFound(path.clone()))?;
                let root = if meta.is_file() {
                    path.parent()
                        .map_or_else(|| path.clone(), Path::to_path_buf)
                } else {
                    path.clone()
                };
                let root = std::fs::canonicalize(&root).unwrap_or(root);
                Ok(Request {
                    origin: Origin {
                        source: local_source(&root, lock_dir, global),
                        source_type: SourceType::Local,
                        source_url: None,
                        git_ref: None,
                        commit: None,
                        digest: None,
                    },
                    location: Location::Folder(root),
                    want: Want::Head,
                    base: RelPath::ROOT,
                    skill: None,
                    chooser: Chooser::User,
                })
            }
            Source::Git(git_source) => {
                let refs = self.refs(&git_source.url, Chooser::User)?;
                let (git_ref, subpath) = git_source.selector.resolve(&git::short_names(&refs))?;
                let want = Want::of_ref(git_ref.as_deref());
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
                Ok(Request {
                    location: Location::Git(git_source.url.clone()),
                    want,
                    origin: Origin {
                        source: git_source.display.clone(),
                        source_type,
                        source_url: Some(git_source.public.clone()),
                        git_ref: recorded_ref,
                        commit: None,
                        digest: None,
                    },
                    base: subpath
                        .as_deref()
                        .map(RelPath::normalize)
                        .transpose()
                        .map_err(|err| {
                            OpenError::Source(SourceError::UnsafeSubpath(
                                err.path.clone(),
                                "it is not a safe relative path",
                            ))
                        })?
                        .unwrap_or_default(),
                    skill: git_source.skill.clone(),
                    chooser: Chooser::User,
                })
            }
            Source::Web { url, public, kind } => Ok(Request {
                location: Location::Web {
                    url: url.clone(),
                    well_known: *kind == WebKind::WellKnown,
                },
                want: Want::Head,
                origin: Origin {
                    source: public.clone(),
                    source_type: SourceType::WellKnown,
                    source_url: None,
                    git_ref: None,
                    commit: None,
                    digest: None,
                },
                base: RelPath::ROOT,
                skill: None,
                chooser: Chooser::User,
            }),
        }
    }

    /// The commit `request` names now, for git sources (no object transfer); `None` for folders
    /// and web sources, which have no commits.
    pub fn tip(&mut self, request: &Request) -> Result<Option<String>, OpenError> {
        let Location::Git(url) = &request.location else {
            return Ok(None);
        };
        let refs = self.refs(url, request.chooser)?;
        let settings = self.settings_for(request.chooser);
        let (_, oid) = git::resolve_fetching(url, &refs, &request.want, &settings)?;
        Ok(Some(oid.to_string()))
    }

    /// Offline: the commit a branch, a tag or the default branch of `url` named when a run last
    /// fetched it, from the cache.
    fn open_known(
        &mut self,
        url: &str,
        request: &Request,
    ) -> Result<(Rc<dyn SourceTree>, String), OpenError> {
        let refs = self.refs(url, request.chooser)?;
        let not_cached = || {
            let mut known = git::short_names(&refs);
            if refs.iter().any(|r| r.name == "HEAD") {
                known.insert(0, "the default branch".to_owned());
            }
            OpenError::NotCachedRef {
                url: super::redact(url),
                wanted: match &request.want {
                    Want::Ref(name) | Want::Prefix(name) => name.clone(),
                    _ => "the default branch".to_owned(),
                },
                known: if known.is_empty() {
                    "nothing".to_owned()
                } else {
                    known.join(", ")
                },
            }
        };
        let (_, oid) = git::resolve(url, &refs, &request.want).map_err(|_| not_cached())?;
        let key = (url.to_owned(), oid.to_string());
        if let Some(tree) = self.trees.get(&key) {
            return Ok((Rc::clone(tree), key.1));
        }
        let fetched = git::cached(url, &key.1, &self.settings).ok_or_else(not_cached)?;
        let tree: Rc<dyn SourceTree> = Rc::new(fetched.tree);
        self.trees.insert(key, Rc::clone(&tree));
        Ok((tree, fetched.commit))
    }

    /// Opens `request`: a git source at what its `want` names, fetched unless the cache has it;
    /// a folder or web source as it is now.
    pub fn open(&mut self, request: &Request) -> Result<Opened, OpenError> {
        let mut origin = request.origin.clone();
        let mut offered = None;
        let mut transferred = false;
        let tree: Rc<dyn SourceTree> = match &request.location {
            Location::Folder(path) => {
                if !path.is_dir() {
                    return Err(OpenError::NotAFolder(path.clone()));
                }
                Rc::new(
                    LocalTree::open(path.clone())
                        .map_err(|_| OpenError::NotAFolder(path.clone()))?,
                )
            }
            Location::Git(url) => {
                // A locked commit the cache holds needs no network at all.
                let cached = match &request.want {
                    Want::Commit { oid, .. } => {
                        let key = (url.clone(), oid.clone());
                        match self.trees.get(&key) {
                            Some(tree) => Some((Rc::clone(tree), key.1)),
                            None => git::cached(url, oid, &self.settings).map(|fetched| {
                                let tree: Rc<dyn SourceTree> = Rc::new(fetched.tree);
                                self.trees.insert(key, Rc::clone(&tree));
                                (tree, fetched.commit)
                            }),
                        }
                    }
                    _ => None,
                };
                // Offline, a branch or tag opens at the commit an earlier run saw it at.
                let cached = match cached {
                    None if self.offline => {
                        if let Want::Commit { oid, .. } = &request.want {
                            if git::cached_unverified(url, oid, &self.settings) {
                                return Err(OpenError::OfflineUnverified {
                                    url: super::redact(url),
                                    commit: crate::lock::short(oid).to_owned(),
                                });
                            }
                            return Err(OpenError::Offline(super::redact(url)));
                        }
                        Some(self.open_known(url, request)?)
                    }
                    cached => cached,
                };
                if let Some((tree, commit)) = cached {
                    origin.commit = Some(commit);
                    return Ok(Opened {
                        tree,
                        base: request.base.clone(),
                        origin,
                        skill: request.skill.clone(),
                        transferred: false,
                        offered: None,
                    });
                }
                let commit = self.tip(request)?.unwrap_or_default();
                let key = (url.clone(), commit);
                if let Some(tree) = self.trees.get(&key) {
                    origin.commit = Some(key.1);
                    Rc::clone(tree)
                } else {
                    let refs = self.refs(url, request.chooser)?;
                    self.judge_git(url, request.chooser)?;
                    let settings = self.settings_for(request.chooser);
                    let fetched = git::fetch(url, &request.want, Some(refs.to_vec()), &settings)?;
                    let tree: Rc<dyn SourceTree> = Rc::new(fetched.tree);
                    self.trees.insert(key, Rc::clone(&tree));
                    origin.commit = Some(fetched.commit);
                    transferred = fetched.transferred;
                    tree
                }
            }
            Location::Web { url, well_known } => {
                if self.offline {
                    return Err(OpenError::Offline(super::redact(url)));
                }
                let fetched = match self.web.entry((url.clone(), *well_known)) {
                    Entry::Occupied(known) => known.into_mut(),
                    Entry::Vacant(slot) => {
                        let progress = self.settings.progress;
                        let http = match request.chooser {
                            Chooser::User => super::http::Http::new(progress),
                            Chooser::Lock => {
                                let policy = if let Some(policy) = &self.policy {
                                    Arc::clone(policy)
                                } else {
                                    let policy = Arc::new(Policy::from_env()?);
                                    self.policy = Some(Arc::clone(&policy));
                                    policy
                                };
                                super::http::Http::guarded(progress, policy)
                            }
                        }
                        .map_err(WebError::from)?;
                        slot.insert(web::open(http, url, *well_known, self.settings.web)?)
                    }
                };
                offered.clone_from(&fetched.offered);
                // The index or download URL, which keeps credentials the user typed for it.
                origin.source_url = Some(super::redact(&fetched.source_url));
                origin.digest.clone_from(&fetched.digest);
                transferred = true;
                Rc::clone(&fetched.tree)
            }
        };
        Ok(Opened {
            tree,
            base: request.base.clone(),
            origin,
            skill: request.skill.clone(),
            transferred,
            offered,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Want;
    use crate::lock::LockEntry;

    #[test]
    fn a_commit_ref_is_followed_as_that_commit() {
        let sha = "3919d9a4c0e1b2f3a4b5c6d7e8f90123456789ab";
        let entry = LockEntry {
            git_ref: Some(sha.to_uppercase()),
            ..LockEntry::default()
        };
        let exactly = Want::exactly(sha, None);
        assert_eq!(Want::tracked(&entry), exactly);
        assert_eq!(Want::locked(&entry), exactly);
        let branch = LockEntry {
            git_ref: Some("main".into()),
            commit: Some(sha.into()),
            ..LockEntry::default()
        };
        assert_eq!(Want::tracked(&branch), Want::Ref("main".into()));
        assert_eq!(
            Want::locked(&branch),
            Want::exactly(sha, Some("main".into()))
        );
        assert_eq!(Want::tracked(&LockEntry::default()), Want::Head);
    }

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
