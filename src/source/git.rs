//! Git sources through libgit2: one bare cache repository per remote URL, shallow fetches of the
//! one commit needed, trees read from the object database.
//!
//! Invariants: a commit already in the cache is never fetched again (a ref advertisement is all
//! it costs); a commit of a remote is opened only once [`super::provenance`] has found it on a
//! branch or tag of that remote; local repositories (`file://`, paths) are opened in place, never
//! copied; credentials come from `GITHUB_TOKEN`/`GH_TOKEN` (GitHub over HTTPS only,
//! [`super::smart_http`]) or the user's ssh ([`super::ssh`]), and `skills` itself never prompts;
//! the cache repository is locked while it is fetched into,
//! so concurrent runs wait; with `redirects` off, no HTTP redirect is followed (libgit2 follows
//! the first request's by default).

use crate::hint::Hint;
use std::path::{Path, PathBuf};

use git2::{
    AutotagOption, Direction, FetchOptions, Oid, RemoteCallbacks, RemoteRedirect, Repository,
};
use sha2::{Digest, Sha256};

use super::tree::GitTree;
use crate::lock::LockEntry;

/// A remote ref: its full name and the commit it points to (tags peeled).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRef {
    pub name: String,
    pub oid: Oid,
}

/// What to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    /// The remote's default branch.
    Head,
    /// A branch, tag or full ref name.
    Ref(String),
    /// An exact commit (40 hex digits); `fallback` is a ref to fetch in full when the server does
    /// not serve commits by id.
    Commit {
        oid: String,
        fallback: Option<String>,
    },
    /// A branch or tag of this name if the remote has one, else the one commit whose id starts
    /// with these 7 to 39 hex digits (the 12-digit ids every command prints).
    Prefix(String),
}

/// The shortest commit id prefix taken as one, as git's default abbreviation.
pub const MIN_PREFIX: usize = 7;

/// Whether `text` may be an abbreviated commit id: 7 to 39 hex digits.
pub fn is_commit_prefix(text: &str) -> bool {
    (MIN_PREFIX..40).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Want {
    /// What a ref names: a 40-hex ref is that commit (a server may not advertise it), another
    /// ref a branch or tag, no ref the default branch.
    pub fn of_ref(git_ref: Option<&str>) -> Want {
        match git_ref {
            Some(r) if r.len() == 40 && r.bytes().all(|b| b.is_ascii_hexdigit()) => Want::Commit {
                oid: r.to_ascii_lowercase(),
                fallback: None,
            },
            Some(r) if is_commit_prefix(r) => Want::Prefix(r.to_owned()),
            Some(r) => Want::Ref(r.to_owned()),
            None => Want::Head,
        }
    }

    /// What `entry` pins: its commit (its ref the fallback), else what its ref names.
    pub fn locked(entry: &LockEntry) -> Want {
        match &entry.commit {
            // A ref that is a commit id prefix names no branch to fall back on.
            Some(commit) if entry.git_ref.as_deref().is_some_and(is_commit_prefix) => {
                Want::exactly(commit, None)
            }
            Some(commit) => Want::exactly(commit, entry.git_ref.clone()),
            None => Want::of_ref(entry.git_ref.as_deref()),
        }
    }

    /// What `entry` follows upstream: what its ref names (a commit, when the ref is one).
    pub fn tracked(entry: &LockEntry) -> Want {
        Want::of_ref(entry.git_ref.as_deref())
    }

    /// Exactly the commit `oid`; `fallback` is a ref to fetch in full when the server does not
    /// serve commits by id.
    pub fn exactly(oid: &str, fallback: Option<String>) -> Want {
        Want::Commit {
            oid: oid.to_owned(),
            fallback,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("cannot reach `{url}`")]
    Unreachable {
        url: String,
        #[source]
        source: git2::Error,
    },
    #[error("`{url}` refused the credentials (or needs some)")]
    Auth {
        url: String,
        #[source]
        source: git2::Error,
    },
    #[error("no repository at `{url}`")]
    NotFound {
        url: String,
        #[source]
        source: git2::Error,
    },
    #[error("`{url}` has no branch, tag or commit `{wanted}`")]
    UnknownRef {
        url: String,
        wanted: String,
        known: Vec<String>,
    },
    #[error("`{prefix}` is the start of more than one object id in `{url}`")]
    AmbiguousPrefix { url: String, prefix: String },
    #[error("`{url}` no longer has commit `{oid}` (history rewritten?)")]
    MissingCommit { url: String, oid: String },
    /// The commit is served, but no branch or tag of the repository has it: a pull request's,
    /// or a fork's (a fork network shares one object store).
    #[error("commit `{oid}` is on no branch or tag of `{url}`{}", holders_text(.holders))]
    NotOnBranch {
        url: String,
        oid: String,
        /// The refs that do point at it (`refs/pull/1/head`).
        holders: Vec<String>,
    },
    #[error(
        "`{url}` sent nothing for {secs} s, or too little to go on (less than 1 KiB in {secs} s)"
    )]
    Stalled { url: String, secs: u64 },
    #[error("git failed on `{url}`")]
    Git {
        url: String,
        #[source]
        source: git2::Error,
    },
    /// An HTTP failure of another kind (TLS, a refused redirect, a server error).
    #[error(transparent)]
    Http(super::http::HttpError),
    #[error("cannot use the cache `{}`", path.display())]
    Cache {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Hint for FetchError {
    fn hint(&self) -> Option<String> {
        match self {
            FetchError::Unreachable { .. } => {
                Some("check the network, or set SKILLS_GITHUB_URL to a reachable mirror".into())
            }
            FetchError::Stalled { .. } => {
                Some("a slow network? set SKILLS_HTTP_TIMEOUT (seconds) to wait longer".into())
            }
            FetchError::Auth { url, .. }
                if url.starts_with("git@") || url.starts_with("ssh://") =>
            {
                Some("load a key into the ssh agent (`ssh-add`) that the host accepts".into())
            }
            FetchError::Auth { .. } => {
                Some("for private GitHub repositories set GITHUB_TOKEN (or GH_TOKEN)".into())
            }
            FetchError::NotFound { .. } => {
                Some("check `owner/repo` (a private repository also needs GITHUB_TOKEN)".into())
            }
            FetchError::Http(err) => err.hint(),
            FetchError::NotOnBranch { holders, .. } => Some(if holders.is_empty() {
                "it may be a fork's commit (forks share objects with their upstream) or on a branch deleted since; pin a commit of a branch or tag: `skills update` pins the tip of the entry's ref".into()
            } else {
                "a pull request's commit is not the repository's: anyone can open one; pin a commit of a branch or tag: `skills update` pins the tip of the entry's ref".into()
            }),
            FetchError::AmbiguousPrefix { .. } => {
                Some("give more digits of the commit id (all 40 always work)".into())
            }
            FetchError::UnknownRef { wanted, .. } if is_commit_prefix(wanted) => Some(format!(
                "no branch, tag or commit of any branch or tag starts with `{wanted}`; a commit id prefix needs at least {MIN_PREFIX} hex digits"
            )),
            FetchError::UnknownRef { known, .. } if !known.is_empty() => Some(format!(
                "the remote has {}{}",
                known
                    .iter()
                    .take(8)
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if known.len() > 8 { ", …" } else { "" }
            )),
            _ => None,
        }
    }
}

/// The end of the message of [`FetchError::NotOnBranch`]: the refs that hold the commit.
fn holders_text(holders: &[String]) -> String {
    if holders.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = holders.iter().take(4).map(|h| format!("`{h}`")).collect();
    let more = if holders.len() > 4 { ", …" } else { "" };
    format!(": it is only at {}{more}", quoted.join(", "))
}

/// Settings of a fetch, from the environment and the command line.
#[derive(Debug, Clone)]
pub struct GitSettings {
    /// Root of the cache (`$SKILLS_CACHE_DIR` or the user cache dir + `/skills`).
    pub cache: PathBuf,
    /// Draw a transfer progress bar.
    pub progress: bool,
    /// What web sources may weigh.
    pub web: super::web::WebLimits,
    /// Whether libgit2 follows an HTTP redirect of the first request (a remote a lockfile chose:
    /// no, the redirect would reach an address nobody judged).
    pub redirects: bool,
}

impl GitSettings {
    pub fn from_env(progress: bool) -> GitSettings {
        GitSettings {
            cache: crate::env_vars::cache_dir(),
            progress,
            web: super::web::WebLimits::default(),
            redirects: true,
        }
    }
}

/// The local repository a `file://` URL or a plain path names, if the URL is one.
pub fn local_path(url: &str) -> Option<PathBuf> {
    if let Some(rest) = url.strip_prefix("file://") {
        return Some(PathBuf::from(
            percent_encoding::percent_decode_str(rest)
                .decode_utf8_lossy()
                .into_owned(),
        ));
    }
    let path = Path::new(url);
    (path.is_absolute() && path.exists()).then(|| path.to_path_buf())
}

/// Callbacks that report progress to the watch and draw a bar. No credentials are asked for
/// here: HTTP(S) remotes get the GitHub token from [`super::smart_http`], ssh remotes whatever
/// the user's ssh gives ([`super::ssh`]), and `git://` asks for none.
fn callbacks<'a>(
    bar: Option<&'a indicatif::ProgressBar>,
    progress: &'a super::watchdog::Progress,
) -> RemoteCallbacks<'a> {
    let mut callbacks = RemoteCallbacks::new();
    callbacks.transfer_progress(move |stats| {
        if let Some(bar) = bar {
            bar.set_length(stats.total_objects() as u64);
            bar.set_position(stats.received_objects() as u64);
        }
        progress.tick(&stats)
    });
    callbacks.sideband_progress(move |_| progress.moved());
    callbacks
}

/// Classifies a libgit2 failure against `url`.
fn classify(url: &str, err: git2::Error) -> FetchError {
    classify_with(url, err, None)
}

/// Classifies a libgit2 failure against `url`, by the HTTP failure behind it when the HTTP
/// transport saw one (its kind and hint are more than libgit2's message keeps).
fn classify_with(url: &str, err: git2::Error, http: Option<super::http::HttpError>) -> FetchError {
    use super::http::HttpError;
    if let Some(http) = http {
        let url = super::redact(url);
        return match http {
            HttpError::Status {
                status: 401 | 403, ..
            } => FetchError::Auth { url, source: err },
            HttpError::Status {
                status: 404 | 410, ..
            } => FetchError::NotFound { url, source: err },
            HttpError::Connect { .. } => FetchError::Unreachable { url, source: err },
            HttpError::Timeout { secs, .. } => FetchError::Stalled { url, secs },
            other => FetchError::Http(other),
        };
    }
    let message = err.message().to_ascii_lowercase();
    // What libgit2 says may quote the URL, credentials and all, and a server's `ERR` text with
    // line breaks that would print as lines of our own (a forged `hint:`): one line, no secret.
    let mut cleaned = err.message().trim_end().replace(['\r', '\n'], " ");
    if let Some(secret) = super::secret_of(url) {
        cleaned = cleaned.replace(secret, "***");
    }
    let err = if cleaned == err.message() {
        err
    } else {
        git2::Error::new(err.code(), err.class(), cleaned)
    };
    let url = super::redact(url);
    if err.code() == git2::ErrorCode::Auth
        || message.contains("authentication")
        || message.contains("credentials")
        || message.contains("401")
        || message.contains("403")
    {
        return FetchError::Auth { url, source: err };
    }
    if message.contains("not found")
        || message.contains("404")
        || message.contains("does not appear to be a git repository")
        || message.contains("repository")
        || message.contains("early eof")
    {
        return FetchError::NotFound { url, source: err };
    }
    if err.class() == git2::ErrorClass::Net
        || err.class() == git2::ErrorClass::Os
        || err.class() == git2::ErrorClass::Ssl
        || message.contains("connect")
        || message.contains("resolve")
        || message.contains("timed out")
    {
        return FetchError::Unreachable { url, source: err };
    }
    FetchError::Git { url, source: err }
}

/// The cache repository for `url`: `<cache>/git/<readable name>-<hash>`.
fn cache_path(settings: &GitSettings, url: &str) -> PathBuf {
    let digest = hex::encode(Sha256::digest(url.as_bytes()));
    settings
        .cache
        .join("git")
        .join(format!("{}-{}", readable_name(url), &digest[..16]))
}

/// The readable part of a cache repository's name: the repository's own name (`flat` of
/// `…/acme/flat.git`), the same for every mirror of it.
fn readable_name(url: &str) -> String {
    url.rsplit(['/', ':'])
        .find(|s| !s.is_empty())
        .unwrap_or("repo")
        .trim_end_matches(".git")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(40)
        .collect()
}

/// Refs of a remote repository (`ls-remote`): one ref advertisement, no object transfer.
pub fn ls_remote(url: &str, settings: &GitSettings) -> Result<Vec<RemoteRef>, FetchError> {
    if let Some(path) = local_path(url) {
        let repo = Repository::open(&path).map_err(|e| classify(url, e))?;
        return local_refs(&repo).map_err(|e| classify(url, e));
    }
    open_cache(settings, url)?;
    let path = cache_path(settings, url);
    let owned = url.to_owned();
    let redirects = settings.redirects;
    watched(url, redirects, move |progress| {
        let repo = Repository::open_bare(&path)?;
        let mut remote = repo.remote_anonymous(&owned)?;
        if redirects {
            let connection =
                remote.connect_auth(Direction::Fetch, Some(callbacks(None, &progress)), None)?;
            return Ok(advertised(connection.list()?));
        }
        // `connect_auth` takes no redirect setting; a download connects with the fetch options
        // (redirects off) and reads the advertisement. Its refspec matches no ref, so nothing
        // is wanted and nothing transferred or written (with no refspec at all, libgit2 would
        // fetch `HEAD`).
        let mut options = FetchOptions::new();
        options.remote_callbacks(callbacks(None, &progress));
        options.follow_redirects(RemoteRedirect::None);
        options.download_tags(AutotagOption::None);
        remote.download(&[NOTHING], Some(&mut options))?;
        let refs = advertised(remote.list()?);
        remote.disconnect()?;
        Ok(refs)
    })
}

/// A refspec no remote ref matches: a download with it only reads the ref advertisement.
const NOTHING: &str = "refs/skills-advertisement-only/*:refs/skills/nothing/*";

/// Runs the network operation `work` under the watch of [`super::watchdog`]: a remote that
/// goes silent, or trickles, for `SKILLS_HTTP_TIMEOUT` seconds is given up. HTTP requests it
/// makes follow redirects only when `redirects` allows.
fn watched<T: Send + 'static>(
    url: &str,
    redirects: bool,
    work: impl FnOnce(std::sync::Arc<super::watchdog::Progress>) -> Result<T, git2::Error>
    + Send
    + 'static,
) -> Result<T, FetchError> {
    let stall = std::time::Duration::from_secs(super::http::timeout_secs());
    let work = move |progress| {
        super::smart_http::on_this_thread(redirects);
        work(progress).map_err(|err| (err, super::smart_http::take_failure()))
    };
    match super::watchdog::watch(stall, work) {
        Ok(result) => result.map_err(|(err, http)| classify_with(url, err, http)),
        Err(stalled) => Err(FetchError::Stalled {
            url: super::redact(url),
            secs: stalled.stall.as_secs(),
        }),
    }
}

/// The refs of a ref advertisement, tags peeled.
fn advertised(heads: &[git2::RemoteHead<'_>]) -> Vec<RemoteRef> {
    let mut refs: Vec<RemoteRef> = Vec::new();
    for head in heads {
        let name = head.name();
        if let Some(tag) = name.strip_suffix("^{}") {
            // A peeled annotated tag: the commit replaces the tag object.
            if let Some(existing) = refs.iter_mut().find(|r| r.name == tag) {
                existing.oid = head.oid();
            }
            continue;
        }
        refs.push(RemoteRef {
            name: name.to_owned(),
            oid: head.oid(),
        });
        if name == "HEAD"
            && let Some(target) = head.symref_target()
        {
            refs.push(RemoteRef {
                name: format!("HEAD->{target}"),
                oid: head.oid(),
            });
        }
    }
    refs
}

fn local_refs(repo: &Repository) -> Result<Vec<RemoteRef>, git2::Error> {
    let mut refs = Vec::new();
    if let Ok(head) = repo.head()
        && let Ok(commit) = head.peel_to_commit()
    {
        refs.push(RemoteRef {
            name: "HEAD".into(),
            oid: commit.id(),
        });
        if let Some(target) = head.name().ok().filter(|n| *n != "HEAD") {
            refs.push(RemoteRef {
                name: format!("HEAD->{target}"),
                oid: commit.id(),
            });
        }
    }
    for reference in repo.references()? {
        let reference = reference?;
        let (Ok(name), Ok(commit)) = (reference.name(), reference.peel_to_commit()) else {
            continue;
        };
        refs.push(RemoteRef {
            name: name.to_owned(),
            oid: commit.id(),
        });
    }
    Ok(refs)
}

/// Short names of branches and tags (`main`, `feature/x`, `v1.0`) for ref resolution and hints.
pub fn short_names(refs: &[RemoteRef]) -> Vec<String> {
    refs.iter()
        .filter_map(|r| {
            r.name
                .strip_prefix("refs/heads/")
                .or_else(|| r.name.strip_prefix("refs/tags/"))
        })
        .map(str::to_owned)
        .collect()
}

/// The full ref name and commit of `wanted` among `refs`.
pub fn resolve(
    url: &str,
    refs: &[RemoteRef],
    wanted: &Want,
) -> Result<(Option<String>, Oid), FetchError> {
    let unknown = |wanted: &str| FetchError::UnknownRef {
        url: super::redact(url),
        wanted: wanted.to_owned(),
        known: short_names(refs),
    };
    match wanted {
        Want::Head => {
            let target = refs
                .iter()
                .find_map(|r| r.name.strip_prefix("HEAD->").map(str::to_owned));
            let head = refs
                .iter()
                .find(|r| r.name == "HEAD")
                .ok_or_else(|| unknown("HEAD"))?;
            Ok((target, head.oid))
        }
        Want::Ref(name) => {
            let candidates = [
                format!("refs/heads/{name}"),
                format!("refs/tags/{name}"),
                name.clone(),
            ];
            candidates
                .iter()
                .find_map(|c| refs.iter().find(|r| r.name == *c))
                .map(|r| (Some(r.name.clone()), r.oid))
                .ok_or_else(|| unknown(name))
        }
        Want::Commit { oid, .. } => {
            let oid = Oid::from_str(oid).map_err(|_| unknown(oid))?;
            Ok((ref_of(refs, oid), oid))
        }
        Want::Prefix(prefix) => {
            // A branch or tag that happens to look like a commit id is that branch or tag.
            if let Ok(found) = resolve(url, refs, &Want::Ref(prefix.clone())) {
                return Ok(found);
            }
            let lower = prefix.to_ascii_lowercase();
            let mut tips: Vec<Oid> = refs
                .iter()
                .filter(|r| r.oid.to_string().starts_with(&lower))
                .map(|r| r.oid)
                .collect();
            tips.sort();
            tips.dedup();
            match tips.as_slice() {
                [oid] => Ok((ref_of(refs, *oid), *oid)),
                _ => Err(unknown(prefix)),
            }
        }
    }
}

/// The full name of a ref among `refs` that points at `oid`.
fn ref_of(refs: &[RemoteRef], oid: Oid) -> Option<String> {
    refs.iter()
        .find(|r| r.oid == oid && r.name.starts_with("refs/"))
        .map(|r| r.name.clone())
}

/// Like [`resolve`], and a commit id prefix that no advertised tip starts with is looked up in
/// the repository: the cache (or the local repository) first, then after fetching every branch
/// and tag of the remote in full, since a server advertises refs, never the commits below them.
pub fn resolve_fetching(
    url: &str,
    refs: &[RemoteRef],
    wanted: &Want,
    settings: &GitSettings,
) -> Result<(Option<String>, Oid), FetchError> {
    let resolved = resolve(url, refs, wanted);
    let Want::Prefix(prefix) = wanted else {
        return resolved;
    };
    if resolved.is_ok() {
        return resolved;
    }
    let oid = if let Some(path) = local_path(url) {
        let repo = Repository::open(&path).map_err(|e| classify(url, e))?;
        lookup_prefix(&repo, url, prefix, refs)?
    } else {
        let repo = open_cache(settings, url)?;
        let _lock = lock_cache(settings, url)?;
        match lookup_prefix(&repo, url, prefix, refs) {
            Err(FetchError::UnknownRef { .. }) => {
                let refspecs = [
                    "+refs/heads/*:refs/skills/heads/*",
                    "+refs/tags/*:refs/skills/tags/*",
                ];
                // A cache filled by shallow fetches is deepened: the commit may be below them.
                let depth = repo.is_shallow().then_some(i32::MAX);
                fetch_refspecs(&repo, url, &refspecs, depth, settings)?;
                lookup_prefix(&repo, url, prefix, refs)?
            }
            other => other?,
        }
    };
    Ok((ref_of(refs, oid), oid))
}

/// The one commit of `repo` whose id starts with `prefix`.
fn lookup_prefix(
    repo: &Repository,
    url: &str,
    prefix: &str,
    refs: &[RemoteRef],
) -> Result<Oid, FetchError> {
    match repo.find_commit_by_prefix(prefix) {
        Ok(commit) => Ok(commit.id()),
        Err(err) if err.code() == git2::ErrorCode::Ambiguous => Err(FetchError::AmbiguousPrefix {
            url: super::redact(url),
            prefix: prefix.to_owned(),
        }),
        Err(_) => Err(FetchError::UnknownRef {
            url: super::redact(url),
            wanted: prefix.to_owned(),
            known: short_names(refs),
        }),
    }
}

/// The lock of the cache repository for `url`, held while it is fetched into. Holding it, no
/// other run writes the repository, so the lock files of git's own that a killed run left
/// (`config.lock`, `refs/…/x.lock`, `shallow.lock`) are removed: they would fail every later
/// fetch.
fn lock_cache(settings: &GitSettings, url: &str) -> Result<std::fs::File, FetchError> {
    let path = cache_path(settings, url);
    let lock_path = path.with_extension("lock");
    let lock = std::fs::File::create(&lock_path).map_err(|source| FetchError::Cache {
        path: lock_path.clone(),
        source,
    })?;
    lock.lock().map_err(|source| FetchError::Cache {
        path: lock_path.clone(),
        source,
    })?;
    remove_stale_locks(&path);
    Ok(lock)
}

/// Removes `*.lock` files at the top of the bare repository at `path` and under its `refs/`.
fn remove_stale_locks(path: &Path) {
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let child = entry.path();
            if kind.is_dir() {
                if dir != path || entry.file_name() == "refs" {
                    stack.push(child);
                }
            } else if kind.is_file() && child.extension().is_some_and(|e| e == "lock") {
                let _ = std::fs::remove_file(&child);
            }
        }
    }
}

/// The cache repository for `url`, made on first use under its lock; one that a killed run left
/// half made (it does not open) is made again.
fn open_cache(settings: &GitSettings, url: &str) -> Result<Repository, FetchError> {
    let path = cache_path(settings, url);
    if let Ok(repo) = Repository::open_bare(&path) {
        return Ok(repo);
    }
    let cache_error = |source| FetchError::Cache {
        path: path.clone(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(cache_error)?;
    }
    let _lock = lock_cache(settings, url)?;
    if let Ok(repo) = Repository::open_bare(&path) {
        return Ok(repo);
    }
    if path.exists() {
        std::fs::remove_dir_all(&path).map_err(cache_error)?;
    }
    std::fs::create_dir_all(&path).map_err(cache_error)?;
    Repository::init_bare(&path).map_err(|e| FetchError::Cache {
        path: path.clone(),
        source: std::io::Error::other(e.message().to_owned()),
    })
}

/// Whether the cache holds commit `oid` of `url` that no run has found on a branch or tag yet
/// (an offline run cannot use it, and says so).
pub fn cached_unverified(url: &str, oid: &str, settings: &GitSettings) -> bool {
    let Ok(oid) = Oid::from_str(oid) else {
        return false;
    };
    local_path(url).is_none()
        && Repository::open_bare(cache_path(settings, url)).is_ok_and(|repo| {
            repo.find_commit(oid).is_ok() && !super::provenance::is_verified(&repo, oid)
        })
}

/// The refs of `url` this machine knows without the network: a local repository's own, else
/// the tips its cache repository recorded when it was last fetched ([`super::tips`]). `None`
/// when no run fetched `url` into the cache (or the repository is gone).
pub fn known_refs(url: &str, settings: &GitSettings) -> Option<Vec<RemoteRef>> {
    if let Some(path) = local_path(url) {
        let repo = Repository::open(&path).ok()?;
        return local_refs(&repo).ok();
    }
    let repo = Repository::open_bare(cache_path(settings, url)).ok()?;
    let tips = super::tips::read(&repo);
    (!tips.is_empty()).then_some(tips)
}

/// A fetched commit, ready to read.
pub struct Fetched {
    pub tree: GitTree,
    pub commit: String,
    /// The full ref name it came from, when one points at it.
    pub ref_name: Option<String>,
    /// Whether objects were transferred (false: the commit was in the cache or the repo is local).
    pub transferred: bool,
}

/// Fetches what `wanted` names from `url` (refs from a previous `ls_remote`, if any, spare one
/// advertisement) and opens its tree.
pub fn fetch(
    url: &str,
    wanted: &Want,
    refs: Option<Vec<RemoteRef>>,
    settings: &GitSettings,
) -> Result<Fetched, FetchError> {
    let refs = match refs {
        Some(refs) => refs,
        None => ls_remote(url, settings)?,
    };
    let (ref_name, oid) = resolve_fetching(url, &refs, wanted, settings)?;
    if let Some(path) = local_path(url) {
        let repo = Repository::open(&path).map_err(|e| classify(url, e))?;
        return open_commit(repo, url, oid, ref_name, false);
    }
    let repo = open_cache(settings, url)?;
    let lock = lock_cache(settings, url)?;
    if repo.find_commit(oid).is_ok() {
        super::provenance::verify(&repo, url, oid, &refs, wanted, settings)?;
        super::tips::record(&repo, &refs, oid);
        return open_commit(repo, url, oid, ref_name, false);
    }
    let refspec = match &ref_name {
        Some(name) => format!("+{name}:refs/skills/fetched"),
        None => format!("+{oid}:refs/skills/fetched"),
    };
    let first = fetch_refspec(&repo, url, &refspec, Some(1), settings);
    if first.is_err() || repo.find_commit(oid).is_err() {
        // Servers may refuse a shallow fetch, or a fetch by commit id: try the whole branch
        // (or tag) the entry follows.
        let fallback = match wanted {
            Want::Commit {
                fallback: Some(name),
                ..
            } => {
                let full = resolve(url, &refs, &Want::Ref(name.clone()))
                    .ok()
                    .and_then(|(full, _)| full)
                    .unwrap_or_else(|| format!("refs/heads/{name}"));
                Some(format!("+{full}:refs/skills/fetched"))
            }
            Want::Commit { fallback: None, .. } => refs
                .iter()
                .find(|r| r.name == "HEAD")
                .map(|_| "+HEAD:refs/skills/fetched".to_owned()),
            _ => Some(refspec.clone()),
        };
        if let Some(fallback) = fallback {
            // Below the tip of a cache filled by shallow fetches: deepen it, or the commit
            // stays out of reach.
            let depth = repo.is_shallow().then_some(i32::MAX);
            let again = fetch_refspec(&repo, url, &fallback, depth, settings);
            if again.is_err() && first.is_err() {
                first?;
            }
        } else {
            first?;
        }
    }
    if repo.find_commit(oid).is_err() {
        return Err(FetchError::MissingCommit {
            url: super::redact(url),
            oid: oid.to_string(),
        });
    }
    super::provenance::verify(&repo, url, oid, &refs, wanted, settings)?;
    super::tips::record(&repo, &refs, oid);
    drop(lock);
    open_commit(repo, url, oid, ref_name, true)
}

/// The commit `oid` of `url` from this machine alone, with no network: the repository itself
/// for a local one, else the cache repository when it holds the commit and a run found it on a
/// branch or tag of `url` before (its lock file is touched: the last use `skills doctor` and
/// `skills cache prune` go by). `None` when neither has it so.
pub fn cached(url: &str, oid: &str, settings: &GitSettings) -> Option<Fetched> {
    let oid = Oid::from_str(oid).ok()?;
    if let Some(path) = local_path(url) {
        let repo = Repository::open(&path).ok()?;
        return open_commit(repo, url, oid, None, false).ok();
    }
    // The cache of this URL first; then, by content, the cache of a mirror of the same
    // repository (another `SKILLS_GITHUB_URL`, a moved host): a commit id names its bytes, the
    // mirror's cache found it on one of its branches or tags, and the caller checks every file
    // against the lock before writing it.
    let own = cache_path(settings, url);
    let prefix = format!("{}-", readable_name(url));
    let mirrors = std::fs::read_dir(settings.cache.join("git"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            *path != own
                && path.is_dir()
                && path
                    .file_name()
                    .and_then(|name| name.to_str())
                    .and_then(|name| name.strip_prefix(&prefix))
                    .is_some_and(|hash| {
                        hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
                    })
        });
    let (path, repo) = std::iter::once(own.clone())
        .chain(mirrors)
        .find_map(|path| {
            let repo = Repository::open_bare(&path).ok()?;
            repo.find_commit(oid).ok()?;
            super::provenance::is_verified(&repo, oid).then_some((path, repo))
        })?;
    if let Ok(lock) = std::fs::File::options()
        .create(true)
        .append(true)
        .open(path.with_extension("lock"))
    {
        let _ = lock.set_modified(std::time::SystemTime::now());
    }
    open_commit(repo, url, oid, None, false).ok()
}

fn fetch_refspec(
    repo: &Repository,
    url: &str,
    refspec: &str,
    depth: Option<i32>,
    settings: &GitSettings,
) -> Result<(), FetchError> {
    fetch_refspecs(repo, url, &[refspec], depth, settings)
}

pub(super) fn fetch_refspecs(
    repo: &Repository,
    url: &str,
    refspecs: &[&str],
    depth: Option<i32>,
    settings: &GitSettings,
) -> Result<(), FetchError> {
    let path = repo.path().to_path_buf();
    let bar = settings.progress.then(|| {
        crate::output::progress_bar(
            "  fetching {msg} {bar:30} {pos}/{len} objects",
            &super::redact(url),
            0,
        )
    });
    let owned = url.to_owned();
    let refspecs: Vec<String> = refspecs.iter().map(|r| (*r).to_owned()).collect();
    let worker_bar = bar.clone();
    let redirects = settings.redirects;
    let result = watched(url, redirects, move |progress| {
        let repo = Repository::open_bare(&path)?;
        let mut remote = repo.remote_anonymous(&owned)?;
        let mut options = FetchOptions::new();
        options.remote_callbacks(callbacks(worker_bar.as_ref(), &progress));
        options.download_tags(AutotagOption::None);
        if !redirects {
            options.follow_redirects(RemoteRedirect::None);
        }
        if let Some(depth) = depth {
            options.depth(depth);
        }
        remote.fetch(&refspecs, Some(&mut options), None)
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result
}

fn open_commit(
    repo: Repository,
    url: &str,
    oid: Oid,
    ref_name: Option<String>,
    transferred: bool,
) -> Result<Fetched, FetchError> {
    let tree = {
        let commit = repo
            .find_commit(oid)
            .map_err(|_| FetchError::MissingCommit {
                url: super::redact(url),
                oid: oid.to_string(),
            })?;
        commit.tree_id()
    };
    let label = format!(
        "{}@{}",
        super::redact(url),
        crate::lock::short(&oid.to_string())
    );
    Ok(Fetched {
        tree: GitTree { repo, tree, label },
        commit: oid.to_string(),
        ref_name,
        transferred,
    })
}

/// Sets libgit2's process-wide options, once: bounded waits for servers, a tree cache large
/// enough for repositories with hundreds of skills (libgit2 caches no tree over 4 KiB by
/// default, so a big root tree would be inflated and hashed again on every lookup), and the
/// transports of HTTP(S) ([`super::smart_http`]) and ssh ([`super::ssh`]).
pub fn set_timeouts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(set_options_unsynchronized);
}

#[expect(
    unsafe_code,
    reason = "libgit2's global options; called once, before any thread uses libgit2"
)]
fn set_options_unsynchronized() {
    // SAFETY: called exactly once (guarded by `Once` above) before any libgit2 use, so no other
    // thread reads these globals concurrently.
    unsafe {
        let _ = git2::opts::set_server_connect_timeout_in_milliseconds(15_000);
        let _ = git2::opts::set_server_timeout_in_milliseconds(60_000);
        let _ = git2::opts::set_cache_object_limit(git2::ObjectType::Tree, 4 << 20);
        // The transport registry is global state of the same kind.
        super::smart_http::register();
        super::ssh::register();
    }
}
