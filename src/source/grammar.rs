//! The grammar of `skills add <source>`, compatible with `npx skills add` 1.7.4.
//!
//! Forms are tried in this order and the first match wins, because several overlap (`./a/b` and
//! `a/b`, `git@host:o/r` and `o/r@skill`):
//!
//! 1. local paths (`.`, `..`, `./x`, `../x`, `/abs`, `~/x`, `C:\x`): resolved lexically against the
//!    cwd, never touching the file system; `#` and `@` are part of the path there;
//! 2. `ext::…` is refused: git would run it as a command;
//! 3. `github:o/r…` is the `o/r…` shorthand; 4. `gitlab:group/sub/repo[#ref][@skill]`;
//! 5. `owner/repo[/sub/path][#ref][@skill]` on `SKILLS_GITHUB_URL` (aliases applied); a
//!    scheme-less `github.com/o/r` is read as its `https://` URL, since GitHub owners have no dots;
//! 6. `http(s)://` URLs: GitHub and GitLab pages, Azure Repos, `….git` clone URLs, direct downloads
//!    (`SKILL.md`, archives) and, for anything else, a host serving a well-known skills index;
//! 7. `git@host:path`, `ssh://`, `git://`, `file://`, all with an optional `#ref`.
//!
//! Invariants: [`parse`] is pure (no network, file system or env: [`SourceEnv`] carries all that);
//! every subpath it returns is relative, `/`-separated and free of `..`, backslashes and NUL (also
//! after percent-decoding), so joining it to a checkout cannot escape it; no ref it returns starts
//! with `-`, so it can never be read as a git option. What needs the remote is left for later:
//! `tree/<rest>` and `blob/<rest>` URLs keep `rest` whole in [`Selector::Path`] because a ref may
//! contain `/` (`feature/x`), and only the remote's ref list tells where the ref ends; whether a
//! well-known host really serves an index is found out when it is fetched.

use crate::hint::Hint;
use std::path::{Component, Path, PathBuf};

/// Where `owner/repo` and `gitlab:` shorthands point, and what relative paths are resolved against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceEnv {
    /// Where GitHub repositories are fetched from: `SKILLS_GITHUB_URL`, else `https://<GH_HOST>`,
    /// else `https://github.com`.
    pub github_base: String,
    /// `GH_HOST` when it names a GitHub Enterprise host (not `github.com`): `owner/repo` means a
    /// repository there, recorded as its `https://` clone URL (as the reference does).
    pub github_host: Option<String>,
    pub gitlab_base: String,
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    /// Where the folders a lock's local sources name must be (a project lock: its repository),
    /// `None` for no bound (the user's own lock).
    pub bound: Option<PathBuf>,
    /// Which folders past `bound` may be read all the same.
    pub outside: Outside,
}

/// The local sources past a lock's bound that may be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outside {
    /// Folders this machine's user added skills from ([`super::trust`]).
    pub trusted: Vec<PathBuf>,
    /// Any folder: every byte read is checked against the lock before anything is written
    /// (`install`), so a lock can make `skills` write nothing but what it locked.
    pub verified: bool,
}

impl SourceEnv {
    /// `github_base` from `SKILLS_GITHUB_URL` (default `https://<GH_HOST>` or
    /// `https://github.com`), `gitlab_base` from `SKILLS_GITLAB_URL` (default
    /// `https://gitlab.com`), trailing slashes trimmed; `home` from `HOME`.
    pub fn from_env(cwd: PathBuf) -> SourceEnv {
        let base = |var: &str, default: &str| {
            let value = std::env::var(var).unwrap_or_default();
            let value = value.trim().trim_end_matches('/');
            if value.is_empty() { default } else { value }.to_owned()
        };
        let github_host = std::env::var(crate::env_vars::GH_HOST)
            .ok()
            .and_then(|host| enterprise_host(&host));
        let github_default = github_host.as_ref().map_or_else(
            || "https://github.com".to_owned(),
            |h| format!("https://{h}"),
        );
        SourceEnv {
            github_base: base(crate::env_vars::SKILLS_GITHUB_URL, &github_default),
            github_host,
            gitlab_base: base(crate::env_vars::SKILLS_GITLAB_URL, "https://gitlab.com"),
            cwd,
            home: std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from),
            bound: None,
            outside: Outside::default(),
        }
    }

    /// The same, with the folders of a lock's local sources held inside `bound`.
    #[must_use]
    pub fn bounded(self, bound: PathBuf) -> SourceEnv {
        SourceEnv {
            bound: Some(bound),
            ..self
        }
    }
}

/// `GH_HOST` as a host (`ghe.example.com`, or with a `:port`), lowercased; `None` when empty,
/// `github.com`, or not a plain host (the reference ignores such values too).
pub fn enterprise_host(value: &str) -> Option<String> {
    let host = value.trim().to_ascii_lowercase();
    let (name, port) = host.split_once(':').unwrap_or((&host, ""));
    let name_ok = !name.is_empty()
        && !name.starts_with(['-', '.'])
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    let port_ok = port.is_empty() || (port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()));
    (name_ok && port_ok && host != "github.com" && !host.ends_with(':')).then_some(host)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Local {
        path: PathBuf,
    },
    Git(GitSource),
    /// `url` is what is requested (credentials typed into it included, as git does); `public`
    /// is what is recorded in the lock and shown: the same without them ([`super::redact`]).
    Web {
        url: String,
        public: String,
        kind: WebKind,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebKind {
    /// A host (optionally with a path) expected to serve `.well-known/…/index.json`.
    WellKnown,
    /// A single `SKILL.md` or an archive.
    Download,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Github,
    Gitlab,
    Git,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSource {
    pub provider: Provider,
    /// Clone URL.
    pub url: String,
    /// The repository's identity, as the reference records it — goes into the lockfile's
    /// `source`, and is the same for every form that names the repository: `owner/repo` for
    /// anything on GitHub (shorthands and github.com URLs), the clone URL for a GitHub
    /// Enterprise repository and for a GitLab one (`gitlab:g/s/r`, `https://gitlab.com/g/s/r`,
    /// its `.git`, `/-/tree/…` and `/-/blob/…` URLs are all `https://gitlab.com/g/s/r.git`), the
    /// URL without `#ref` otherwise.
    pub display: String,
    /// The lockfile's `sourceUrl`: the clone URL on the public host (whatever mirror serves it),
    /// without credentials.
    pub public: String,
    pub selector: Selector,
    /// `@skill` filter; `Some("*")` means all.
    pub skill: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// Ref (branch, tag or 40-hex commit) and subpath known from the string.
    Exact {
        git_ref: Option<String>,
        subpath: Option<String>,
    },
    /// `tree/<rest>` or `blob/<rest>`: the ref is the longest `/`-bounded prefix of `rest` naming a
    /// remote ref. `rest` is percent-decoded and already checked for unsafe segments.
    Path { rest: String, blob: bool },
}

impl Selector {
    /// Splits `rest` given the remote's ref names (short names like "main", "feature/x", tags
    /// "v1.0"): the longest prefix of `rest` at a `/` boundary that is one of `refs`; else the first
    /// segment. Returns (ref, subpath) where subpath is None when empty; for blob=true the last
    /// segment (the file name) is dropped from the subpath.
    ///
    /// # Errors
    /// [`SourceError::UnsafeSubpath`] or [`SourceError::InvalidRef`] when `rest` cannot be trusted.
    pub fn resolve(
        &self,
        refs: &[String],
    ) -> Result<(Option<String>, Option<String>), SourceError> {
        let (rest, blob) = match self {
            Selector::Exact { git_ref, subpath } => return Ok((git_ref.clone(), subpath.clone())),
            Selector::Path { rest, blob } => (rest.as_str(), *blob),
        };
        clean_subpath(rest, rest)?;
        let trimmed = rest.trim_matches('/');
        // A blob names a file; its folder is the skill.
        let dir = match trimmed.rsplit_once('/') {
            Some((dir, _)) if blob => dir,
            _ if blob => "",
            _ => trimmed,
        };
        let at_boundary = |r: &&String| {
            let tail = dir.strip_prefix(r.as_str());
            !r.is_empty() && tail.is_some_and(|t| t.is_empty() || t.starts_with('/'))
        };
        let split = refs.iter().filter(at_boundary).map(String::len).max();
        let split = split.unwrap_or_else(|| dir.find('/').unwrap_or(dir.len()));
        match dir.split_at_checked(split) {
            Some((git_ref, sub)) if !git_ref.is_empty() => {
                Ok((Some(check_ref(git_ref, rest)?), clean_subpath(sub, rest)?))
            }
            _ => Ok((None, None)),
        }
    }
}

const FORMS: &str = "use `./path`, `owner/repo[/path][#ref][@skill]`, `github:owner/repo`, \
`gitlab:group/repo`, `https://github.com/owner/repo[/tree/<ref>/<path>]`, `https://host/…/repo.git[#ref]`, \
`git@host:owner/repo.git`, an `ssh://`, `git://` or `file://` URL, or any other `https://` URL \
(a well-known skills index, a SKILL.md or an archive)";

/// The first field is always the input as typed (or the `rest` of a [`Selector::Path`]), with
/// the credentials typed into a URL taken out ([`quoted`]): an error is printed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("no source given: the source string is empty")]
    Empty,
    #[error("`{0}` is not a source skills can install from")]
    Unrecognized(String),
    #[error("`{0}` uses a git remote helper: remote helper URLs are not allowed")]
    RemoteHelper(String),
    /// (input, reason)
    #[error("`{0}` has an unsafe subpath: {1}")]
    UnsafeSubpath(String, &'static str),
    #[error("`{0}` names an empty ref")]
    EmptyRef(String),
    /// (input, ref, reason)
    #[error("`{0}` has an invalid ref `{1}`: {2}")]
    InvalidRef(String, String, &'static str),
    #[error("`{0}` has an empty skill name after `@`")]
    EmptySkill(String),
    /// (input, the expected shape)
    #[error("`{0}` does not name a repository: expected {1}")]
    NotARepository(String, &'static str),
    #[error("`{0}` starts with `~` but HOME is not set")]
    NoHome(String),
}

impl Hint for SourceError {
    /// A short next step for the user, where one helps.
    fn hint(&self) -> Option<String> {
        let hint = match self {
            Self::Empty | Self::Unrecognized(_) => FORMS,
            Self::RemoteHelper(_) => "clone the repository yourself and pass its local path",
            Self::UnsafeSubpath(..) => "a subpath must stay inside the repository",
            Self::EmptyRef(_) => "name a branch, tag or commit, or drop the `#`",
            Self::InvalidRef(..) => "refs follow git's rules (see `git check-ref-format`)",
            Self::EmptySkill(_) => "name a skill after `@`, use `@*` for all, or drop the `@`",
            Self::NotARepository(..) => return None,
            Self::NoHome(_) => "set HOME or give the full path",
        };
        Some(hint.to_owned())
    }
}

/// Parses a source string; see the module docs for the grammar.
///
/// # Errors
/// When `input` matches no form, or matches one with an empty, unsafe or invalid part.
pub fn parse(input: &str, env: &SourceEnv) -> Result<Source, SourceError> {
    let input = input.trim();
    if input.is_empty() {
        return Err(SourceError::Empty);
    }
    if let Some(path) = local_path(input, env)? {
        return Ok(Source::Local { path });
    }
    if strip_prefix_ci(input, "ext::").is_some() {
        return Err(SourceError::RemoteHelper(quoted(input)));
    }
    if let Some(rest) = strip_prefix_ci(input, "github:") {
        return shorthand(rest, input, env)?.ok_or_else(|| unrecognized(input));
    }
    if let Some(rest) = strip_prefix_ci(input, "gitlab:") {
        return gitlab_shorthand(rest, input, env);
    }
    // Without this, `github.com/o/r` would be the repository `github.com/o` (owners have no dots).
    let hosts = ["github.com/", "gitlab.com/", "raw.githubusercontent.com/"];
    if hosts.iter().any(|h| strip_prefix_ci(input, h).is_some()) {
        return parse(&format!("https://{input}"), env);
    }
    if let Some(source) = shorthand(input, input, env)? {
        return Ok(source);
    }
    if let Some(url) = split_url(input) {
        return url_source(&url, input, env);
    }
    scp(input)?.ok_or_else(|| unrecognized(input))
}

/// `input` as an error may quote it: a token typed into a URL must not reach the terminal, a
/// CI log or a bug report ([`super::redact`]).
fn quoted(input: &str) -> String {
    super::redact(input)
}

fn unrecognized(input: &str) -> SourceError {
    SourceError::Unrecognized(quoted(input))
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    let matched = head.eq_ignore_ascii_case(prefix);
    matched.then_some(s.get(prefix.len()..)?)
}

fn git(provider: Provider, url: String, display: &str, selector: Selector) -> Source {
    let (display, skill, public) = (without_secrets(display), None, without_secrets(&url));
    Source::Git(GitSource {
        provider,
        url,
        display,
        public,
        selector,
        skill,
    })
}

/// A repository on GitHub (or on the GitHub Enterprise host of `GH_HOST`), cloned from `url`.
fn github_repo(
    owner: &str,
    repo: &str,
    url: String,
    selector: Selector,
    env: &SourceEnv,
) -> Source {
    let (display, public, provider) = match &env.github_host {
        Some(host) => {
            let public = format!("https://{host}/{owner}/{repo}.git");
            (public.clone(), public, Provider::Git)
        }
        None => (
            format!("{owner}/{repo}"),
            format!("https://github.com/{owner}/{repo}.git"),
            Provider::Github,
        ),
    };
    match git(provider, url, &display, selector) {
        Source::Git(source) => Source::Git(GitSource { public, ..source }),
        other => other,
    }
}

/// `display` goes into the lockfile, which is committed: credentials typed into a URL must not
/// ([`super::redact`]).
fn without_secrets(display: &str) -> String {
    super::redact(display)
}

fn no_subpath(git_ref: Option<String>) -> Selector {
    let subpath = None;
    Selector::Exact { git_ref, subpath }
}

fn local_path(input: &str, env: &SourceEnv) -> Result<Option<PathBuf>, SourceError> {
    let after_tilde = input.strip_prefix('~');
    if let Some(after) = after_tilde.filter(|a| a.is_empty() || a.starts_with(['/', '\\'])) {
        let no_home = || SourceError::NoHome(quoted(input));
        let home = env.home.as_ref().ok_or_else(no_home)?;
        return Ok(Some(normalize(
            &home.join(after.trim_start_matches(['/', '\\'])),
        )));
    }
    let drive = matches!(input.as_bytes(), [d, b':', b'\\' | b'/', ..] if d.is_ascii_alphabetic());
    let prefixes = ["./", "../", ".\\", "..\\", "/", "\\"];
    let local =
        drive || input == "." || input == ".." || prefixes.iter().any(|p| input.starts_with(p));
    Ok(local.then(|| normalize(&env.cwd.join(input))))
}

/// `path` with `.` and `..` resolved lexically, so that a path to something not yet created (or
/// a symlink) means what was typed.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        let after_name = matches!(out.components().next_back(), Some(Component::Normal(_)));
        match component {
            Component::CurDir => {}
            Component::ParentDir if after_name => drop(out.pop()),
            Component::ParentDir if out.has_root() => {}
            other => out.push(other),
        }
    }
    let empty = out.as_os_str().is_empty();
    if empty { PathBuf::from(".") } else { out }
}

fn is_name(s: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-');
    !s.is_empty() && !s.starts_with(['.', '-']) && s.bytes().all(allowed)
}

/// Splits `main[#ref][@skill]`; the suffixes are checked, but only matter once `main` has matched.
/// A skill name never holds `@`, a ref rarely does, so the first `@` after the `#` starts the skill.
fn split_suffixes<'a>(s: &'a str, input: &str) -> (&'a str, Result<Suffixes, SourceError>) {
    let (main, git_ref, skill) = match s.split_once('#') {
        Some((main, tail)) => match tail.split_once('@') {
            Some((git_ref, skill)) => (main, Some(git_ref), Some(skill)),
            None => (main, Some(tail), None),
        },
        None => match s.split_once('@') {
            Some((main, skill)) => (main, None, Some(skill)),
            None => (s, None, None),
        },
    };
    if skill.is_some_and(|k| k.trim().is_empty()) {
        return (main, Err(SourceError::EmptySkill(quoted(input))));
    }
    let git_ref = git_ref.map(|r| check_ref(r, input)).transpose();
    (main, git_ref.map(|r| (r, skill.map(str::to_owned))))
}

/// (ref, skill)
type Suffixes = (Option<String>, Option<String>);

/// A subset of `git check-ref-format`: enough that git cannot take the ref for an option or a
/// revision expression.
fn check_ref(git_ref: &str, input: &str) -> Result<String, SourceError> {
    let banned = |c: char| c.is_whitespace() || c.is_control() || "~^:?*[\\".contains(c);
    let reason = if git_ref.is_empty() {
        return Err(SourceError::EmptyRef(quoted(input)));
    } else if git_ref.starts_with('-') {
        "a ref cannot start with `-`"
    } else if git_ref.contains("..") || git_ref.contains("@{") {
        "`..` and `@{` are not allowed in a ref"
    } else if git_ref.contains(banned) {
        "it contains a character git does not allow in refs"
    } else {
        return Ok(git_ref.to_owned());
    };
    let git_ref = git_ref.to_owned();
    Err(SourceError::InvalidRef(quoted(input), git_ref, reason))
}

/// Checks the raw and the percent-decoded text, since either may reach the file system.
fn clean_subpath(raw: &str, input: &str) -> Result<Option<String>, SourceError> {
    use crate::relpath::{RelPath, Why};
    // A URL's path may repeat or lead with `/`; what follows is held to the rules of every
    // relative path from outside, as written and percent-decoded.
    let raw = raw.trim_start_matches('/');
    let decoded = percent_decode(raw);
    for text in [raw, decoded.as_str()] {
        let reason = match RelPath::normalize(text.trim_start_matches('/')) {
            Ok(_) => continue,
            Err(err) => match err.why {
                Why::Climbs => "`..` is not allowed",
                Why::Backslash => "backslashes are not allowed",
                Why::Nul => "NUL is not allowed",
                Why::Absolute => "a drive is not allowed",
                Why::Git => "`.git` is not allowed",
                _ => "a name in it is not a portable file name",
            },
        };
        return Err(SourceError::UnsafeSubpath(quoted(input), reason));
    }
    let normal = RelPath::normalize(raw).unwrap_or_default();
    Ok((!normal.is_root()).then(|| normal.to_string()))
}

/// `%XX` escapes decoded; a stray `%` and bytes that are not UTF-8 are kept as they come.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

fn alias<'a>(owner: &'a str, repo: &'a str) -> (&'a str, &'a str) {
    const ALIASES: [(&str, &str, &str); 2] = [
        ("coinbase", "agentWallet", "agentic-wallet-skills"),
        ("vercel-labs", "vercel-skills", "agent-skills"),
    ];
    let same = |(o, r, _): &&(&str, &str, &str)| {
        o.eq_ignore_ascii_case(owner) && r.eq_ignore_ascii_case(repo)
    };
    let found = ALIASES.iter().find(same);
    found.map_or((owner, repo), |&(o, _, to)| (o, to))
}

/// `Ok(None)` when `s` is not shaped like `owner/repo…`, so that the later forms get their turn.
fn shorthand(s: &str, input: &str, env: &SourceEnv) -> Result<Option<Source>, SourceError> {
    let (main, suffixes) = split_suffixes(s, input);
    let mut segments = main.trim_end_matches('/').splitn(3, '/');
    let (Some(owner), Some(repo)) = (segments.next(), segments.next()) else {
        return Ok(None);
    };
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    if !is_name(owner) || !is_name(repo) {
        return Ok(None);
    }
    let (git_ref, skill) = suffixes?;
    let subpath = segments.next().map(|p| clean_subpath(p, input));
    let subpath = subpath.transpose()?.flatten();
    let (owner, repo) = alias(owner, repo);
    let url = format!("{}/{owner}/{repo}.git", env.github_base);
    let selector = Selector::Exact { git_ref, subpath };
    let source = github_repo(owner, repo, url, selector, env);
    Ok(Some(with_skill(source, skill)))
}

fn with_skill(source: Source, skill: Option<String>) -> Source {
    match source {
        Source::Git(git) => Source::Git(GitSource { skill, ..git }),
        other => other,
    }
}

fn gitlab_shorthand(s: &str, input: &str, env: &SourceEnv) -> Result<Source, SourceError> {
    let (main, suffixes) = split_suffixes(s, input);
    let (git_ref, skill) = suffixes?;
    let project = main.trim_matches('/');
    let project = project.strip_suffix(".git").unwrap_or(project);
    if project.split('/').count() < 2 || !project.split('/').all(is_name) {
        let expected = "`gitlab:group[/subgroup…]/repo[#ref][@skill]`";
        return Err(SourceError::NotARepository(quoted(input), expected));
    }
    let url = format!("{}/{project}.git", env.gitlab_base);
    let source = gitlab_repo(GITLAB_PUBLIC, project, url, no_subpath(git_ref));
    Ok(with_skill(source, skill))
}

/// Where `gitlab:` repositories are, whatever mirror `SKILLS_GITLAB_URL` names.
const GITLAB_PUBLIC: &str = "https://gitlab.com";

/// A GitLab repository `project` (`group[/subgroup…]/repo`) on the instance at `public`
/// (`https://gitlab.com`, or a self-hosted one), cloned from `url`: recorded as its clone URL on
/// that instance, as the reference does, whichever form named it.
fn gitlab_repo(public: &str, project: &str, url: String, selector: Selector) -> Source {
    let public = format!("{public}/{project}.git");
    match git(Provider::Gitlab, url, &public, selector) {
        Source::Git(source) => Source::Git(GitSource {
            public: without_secrets(&public),
            ..source
        }),
        other => other,
    }
}

struct Url<'a> {
    scheme: String,
    authority: &'a str,
    /// Lowercased `host[:port]`, without user info.
    host: String,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
    without_fragment: &'a str,
}

fn split_url(s: &str) -> Option<Url<'_>> {
    let (scheme, _) = s.split_once("://")?;
    let scheme_char = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
    let odd = |c: char| c.is_whitespace() || c.is_control();
    if scheme.is_empty() || !scheme.bytes().all(scheme_char) || s.contains(odd) {
        return None;
    }
    let (without_fragment, fragment) = s.split_once('#').map_or((s, None), |(a, f)| (a, Some(f)));
    let rest = without_fragment.get(scheme.len() + 3..)?;
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path_query) = rest.split_at_checked(authority_end)?;
    let (path, query) = match path_query.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (path_query, None),
    };
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.to_ascii_lowercase();
    let scheme = scheme.to_ascii_lowercase();
    Some(Url {
        scheme,
        authority,
        host,
        path,
        query,
        fragment,
        without_fragment,
    })
}

fn url_source(u: &Url, input: &str, env: &SourceEnv) -> Result<Source, SourceError> {
    let web = matches!(u.scheme.as_str(), "http" | "https");
    let host_char = |b: u8| b.is_ascii_alphanumeric() || b".-_:[]".contains(&b);
    // A host starting with `-` (`ssh://-oProxyCommand=…`) would reach ssh as an option.
    let no_host = u.host.is_empty() && u.scheme != "file";
    if no_host || u.host.starts_with('-') || !u.host.bytes().all(host_char) {
        return Err(unrecognized(input));
    }
    // With a mirror on `git://host:port`, its git:// URLs are GitHub too.
    let same_host = |base: &str| {
        let matches =
            |b: Url| !b.host.is_empty() && b.host == u.host && (web || b.scheme == u.scheme);
        split_url(base).is_some_and(matches)
    };
    let enterprise = web && env.github_host.as_deref() == Some(u.host.as_str());
    if same_host(&env.github_base) || (web && u.host == "github.com") || enterprise {
        return github_url(u, input, env, enterprise);
    }
    if !web {
        return plain_git(u, input);
    }
    if u.host == "raw.githubusercontent.com" {
        return Ok(web_source(u, WebKind::Download));
    }
    if same_host(&env.gitlab_base) || u.host == "gitlab.com" {
        return gitlab_url(u, input, Some(env));
    }
    // Elsewhere `/-/` only suggests a self-hosted GitLab; other shapes get the later forms.
    if u.path.contains("/-/") {
        match gitlab_url(u, input, None) {
            Err(SourceError::NotARepository(..)) => {}
            other => return other,
        }
    }
    if let Some(source) = azure(u, input)? {
        return Ok(source);
    }
    let path = u.path.to_ascii_lowercase();
    if path.trim_end_matches('/').strip_suffix(".git").is_some() {
        return plain_git(u, input);
    }
    let archives = [".zip", ".tar", ".tar.gz", ".tgz"];
    if u.path.ends_with("SKILL.md") || archives.iter().any(|e| path.ends_with(e)) {
        return Ok(web_source(u, WebKind::Download));
    }
    Ok(web_source(u, WebKind::WellKnown))
}

/// The fragment is dropped: it never reaches the server.
fn web_source(u: &Url, kind: WebKind) -> Source {
    let url = u.without_fragment.to_owned();
    let public = without_secrets(&url);
    Source::Web { url, public, kind }
}

fn fragment_ref(u: &Url, input: &str) -> Result<Selector, SourceError> {
    let git_ref = u.fragment.map(|f| check_ref(f, input)).transpose()?;
    Ok(no_subpath(git_ref))
}

/// The segments after `tree`/`blob`; splitting ref from subpath waits for the remote's refs.
fn path_selector(tail: &[&str], blob: bool, input: &str) -> Result<Selector, SourceError> {
    let rest = percent_decode(&tail.join("/"));
    if rest.is_empty() {
        return Err(SourceError::EmptyRef(quoted(input)));
    }
    clean_subpath(&rest, input)?;
    if blob && !(rest.ends_with("SKILL.md") && rest.contains('/')) {
        let expected = "a blob URL of a `SKILL.md` (use a tree URL for a folder)";
        return Err(SourceError::NotARepository(quoted(input), expected));
    }
    Ok(Selector::Path { rest, blob })
}

/// A GitHub URL: on github.com, on the mirror of `SKILLS_GITHUB_URL`, or on the Enterprise host
/// of `GH_HOST` (`enterprise`, fetched through the mirror when one is set).
fn github_url(
    u: &Url,
    input: &str,
    env: &SourceEnv,
    enterprise: bool,
) -> Result<Source, SourceError> {
    let expected = "`https://github.com/owner/repo[/tree/<ref>[/<path>]]`";
    let not_repo = || SourceError::NotARepository(quoted(input), expected);
    let segments: Vec<&str> = u.path.split('/').filter(|s| !s.is_empty()).collect();
    let [owner, repo, rest @ ..] = segments.as_slice() else {
        return Err(not_repo());
    };
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    if !is_name(owner) || !is_name(repo) {
        return Err(not_repo());
    }
    let selector = match rest {
        [] => fragment_ref(u, input)?,
        ["archive" | "raw" | "releases", ..] => return Ok(web_source(u, WebKind::Download)),
        [kind @ ("tree" | "blob"), tail @ ..] => path_selector(tail, *kind == "blob", input)?,
        _ => return Err(not_repo()),
    };
    // github.com and the Enterprise host of `GH_HOST` are fetched as `owner/repo` is: from
    // `SKILLS_GITHUB_URL` when one is set, else from `GH_HOST` (a `github.com` URL copied from a
    // browser names the same repository as `owner/repo` does); a URL on the mirror itself is
    // fetched as typed.
    let mirrored = enterprise || u.host == "github.com";
    let url = if mirrored {
        format!("{}/{owner}/{repo}.git", env.github_base)
    } else {
        format!("{}://{}/{owner}/{repo}.git", u.scheme, u.authority)
    };
    Ok(github_repo(owner, repo, url, selector, env))
}

/// A GitLab URL: on gitlab.com or the mirror of `SKILLS_GITLAB_URL` (`env` given: a gitlab.com
/// URL is fetched from the mirror, as `gitlab:` is), or on a self-hosted instance.
fn gitlab_url(u: &Url, input: &str, env: Option<&SourceEnv>) -> Result<Source, SourceError> {
    let expected = "`https://host/group[/subgroup…]/repo[/-/tree/<ref>[/<path>]]`";
    let not_repo = || SourceError::NotARepository(quoted(input), expected);
    let (project, action) = match u.path.split_once("/-/") {
        Some((project, action)) => (project, Some(action)),
        None => (u.path, None),
    };
    let project = project.trim_matches('/');
    let project = project.strip_suffix(".git").unwrap_or(project);
    if project.split('/').count() < 2 || !project.split('/').all(is_name) {
        return Err(not_repo());
    }
    let tail = action
        .unwrap_or_default()
        .split('/')
        .filter(|s| !s.is_empty());
    let tail: Vec<&str> = tail.collect();
    let selector = match (action, tail.as_slice()) {
        (None, _) => fragment_ref(u, input)?,
        (Some(_), ["archive" | "raw", ..]) => return Ok(web_source(u, WebKind::Download)),
        (Some(_), [kind @ ("tree" | "blob"), t @ ..]) => path_selector(t, *kind == "blob", input)?,
        (Some(_), _) => return Err(not_repo()),
    };
    let typed = format!("{}://{}/{project}.git", u.scheme, u.authority);
    Ok(match env {
        Some(env) => {
            let url = if u.host == "gitlab.com" {
                format!("{}/{project}.git", env.gitlab_base)
            } else {
                typed
            };
            gitlab_repo(GITLAB_PUBLIC, project, url, selector)
        }
        None => gitlab_repo(
            &format!("{}://{}", u.scheme, u.host),
            project,
            typed,
            selector,
        ),
    })
}

/// `https://dev.azure.com/org/proj/_git/repo?path=/x&version=GBmain`: the query is the web UI's,
/// so it names the ref and folder but is not part of the clone URL.
fn azure(u: &Url, input: &str) -> Result<Option<Source>, SourceError> {
    let segments: Vec<&str> = u.path.split('/').collect();
    let Some(at) = segments.iter().position(|s| *s == "_git") else {
        return Ok(None);
    };
    if segments.get(at + 1).is_none_or(|repo| repo.is_empty()) {
        return Ok(None);
    }
    let mut git_ref = u.fragment.map(|f| check_ref(f, input)).transpose()?;
    let mut subpath = None;
    for pair in u.query.unwrap_or_default().split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value);
        match key {
            "version" => {
                // Branch, tag or commit.
                let name = ["GB", "GT", "GC"]
                    .iter()
                    .find_map(|p| value.strip_prefix(p));
                let name = name.unwrap_or(&value);
                git_ref = Some(check_ref(name, input)?);
            }
            "path" => subpath = clean_subpath(value.trim_start_matches('/'), input)?,
            _ => {}
        }
    }
    let path = u.path.trim_end_matches('/');
    let url = format!("{}://{}{path}", u.scheme, u.authority);
    let selector = Selector::Exact { git_ref, subpath };
    Ok(Some(git(Provider::Git, url, u.without_fragment, selector)))
}

fn plain_git(u: &Url, input: &str) -> Result<Source, SourceError> {
    let schemes = ["ssh", "git", "file", "git+ssh", "ssh+git", "http", "https"];
    if !schemes.contains(&u.scheme.as_str()) {
        return Err(unrecognized(input));
    }
    let (url, selector) = (u.without_fragment.to_owned(), fragment_ref(u, input)?);
    Ok(git(Provider::Git, url, u.without_fragment, selector))
}

/// scp-like `user@host:path[#ref]`; a `/` before the `:` would make it a local path to git.
fn scp(input: &str) -> Result<Option<Source>, SourceError> {
    let (main, fragment) = match input.split_once('#') {
        Some((main, fragment)) => (main, Some(fragment)),
        None => (input, None),
    };
    let Some((user_host, path)) = main.split_once(':') else {
        return Ok(None);
    };
    let Some((user, host)) = user_host.split_once('@') else {
        return Ok(None);
    };
    let bad = |s: &str| s.is_empty() || s.starts_with('-') || s.contains(['/', '@']);
    let odd = |c: char| c.is_whitespace() || c.is_control();
    if bad(user) || bad(host) || path.is_empty() || main.contains(odd) {
        return Ok(None);
    }
    let selector = no_subpath(fragment.map(|f| check_ref(f, input)).transpose()?);
    Ok(Some(git(Provider::Git, main.to_owned(), main, selector)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> SourceEnv {
        SourceEnv {
            github_base: "https://github.com".into(),
            github_host: None,
            gitlab_base: "https://gitlab.com".into(),
            cwd: PathBuf::from("/work/proj"),
            home: Some(PathBuf::from("/home/me")),
            bound: None,
            outside: Outside::default(),
        }
    }

    /// One line per outcome, so that a case and its expectation fit on one row:
    /// `<provider> <clone url> <display or => <ref or -> <subpath or -> <skill or ->`,
    /// `tree:<rest>`/`blob:<rest>` for a [`Selector::Path`], or the error variant's name.
    fn show(input: &str, env: &SourceEnv) -> String {
        let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
        match parse(input, env) {
            Ok(Source::Local { path }) => format!("local {}", path.display()),
            Ok(Source::Web { url, kind, .. }) => format!("{kind:?} {url}"),
            Ok(Source::Git(g)) => {
                let selector = match &g.selector {
                    Selector::Exact { git_ref, subpath } => {
                        format!("{} {}", opt(git_ref), opt(subpath))
                    }
                    Selector::Path { rest, blob: true } => format!("blob:{rest}"),
                    Selector::Path { rest, blob: false } => format!("tree:{rest}"),
                };
                let display = if g.display == input { "=" } else { &g.display };
                let (provider, url, skill) = (g.provider, &g.url, opt(&g.skill));
                format!("{provider:?} {url} {display} {selector} {skill}")
            }
            Err(e) => {
                let debug = format!("{e:?}");
                debug
                    .split(['(', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            }
        }
    }

    macro_rules! cases {
        ($($(#[$meta:meta])* $name:ident: $input:literal => $want:literal,)*) => {$(
            $(#[$meta])* #[test]
            fn $name() {
                assert_eq!(show($input, &env()), $want, "{}", $input);
            }
        )*};
    }

    cases! {
        #[cfg(unix)] local_dot_slash: "./x" => "local /work/proj/x",
        #[cfg(unix)] local_parent: "../x/./y" => "local /work/x/y",
        #[cfg(unix)] local_dot: "." => "local /work/proj",
        #[cfg(unix)] local_dotdot: ".." => "local /work",
        #[cfg(unix)] local_absolute: "/abs/../path" => "local /path",
        #[cfg(unix)] local_keeps_hash_and_at: "./a#b@c" => "local /work/proj/a#b@c",
        #[cfg(unix)] local_home: "~/s" => "local /home/me/s",
        #[cfg(unix)] local_windows_drive: "C:\\x" => "local /work/proj/C:\\x",
        github_prefix: "github:o/r/x#main" => "Github https://github.com/o/r.git o/r main x -",
        gitlab_shorthand: "gitlab:g/s/r" => "Gitlab https://gitlab.com/g/s/r.git https://gitlab.com/g/s/r.git - - -",
        gitlab_shorthand_ref_skill: "gitlab:g/r#v2@x" => "Gitlab https://gitlab.com/g/r.git https://gitlab.com/g/r.git v2 - x",
        gitlab_shorthand_one_segment: "gitlab:lonely" => "NotARepository",
        owner_repo: "o/r" => "Github https://github.com/o/r.git = - - -",
        owner_repo_trailing_slash: "o/r/" => "Github https://github.com/o/r.git o/r - - -",
        owner_repo_subpath: "o/r/sub/path/" => "Github https://github.com/o/r.git o/r - sub/path -",
        owner_repo_skill: "o/r@skill" => "Github https://github.com/o/r.git o/r - - skill",
        owner_repo_ref: "o/r#ref" => "Github https://github.com/o/r.git o/r ref - -",
        owner_repo_ref_skill: "o/r#ref@skill" => "Github https://github.com/o/r.git o/r ref - skill",
        owner_repo_ref_all_skills: "o/r#v1@*" => "Github https://github.com/o/r.git o/r v1 - *",
        owner_repo_sub_ref_skill: "o/r/sub#ref@s" => "Github https://github.com/o/r.git o/r ref sub s",
        alias_coinbase: "coinbase/agentWallet" => "Github https://github.com/coinbase/agentic-wallet-skills.git coinbase/agentic-wallet-skills - - -",
        alias_vercel: "vercel-labs/vercel-skills@x" => "Github https://github.com/vercel-labs/agent-skills.git vercel-labs/agent-skills - - x",
        schemeless_github: "github.com/o/r" => "Github https://github.com/o/r.git o/r - - -",
        github_url: "https://github.com/o/r" => "Github https://github.com/o/r.git o/r - - -",
        github_url_git: "https://github.com/o/r.git" => "Github https://github.com/o/r.git o/r - - -",
        github_tree_ref: "https://github.com/o/r/tree/main" => "Github https://github.com/o/r.git o/r tree:main -",
        github_tree_ref_path: "https://github.com/o/r/tree/feature/x/skills/" => "Github https://github.com/o/r.git o/r tree:feature/x/skills -",
        github_blob: "https://github.com/o/r/blob/main/a/SKILL.md" => "Github https://github.com/o/r.git o/r blob:main/a/SKILL.md -",
        github_blob_not_skill_md: "https://github.com/o/r/blob/main/README.md" => "NotARepository",
        github_owner_only: "https://github.com/o" => "NotARepository",
        gitlab_tree: "https://gl.example/g/s/r/-/tree/main/skills/x" => "Gitlab https://gl.example/g/s/r.git https://gl.example/g/s/r.git tree:main/skills/x -",
        gitlab_blob: "https://gitlab.com/g/r/-/blob/v1/a/SKILL.md" => "Gitlab https://gitlab.com/g/r.git https://gitlab.com/g/r.git blob:v1/a/SKILL.md -",
        dash_path_elsewhere: "https://example.com/x/-/y" => "WellKnown https://example.com/x/-/y",
        gitlab_subgroups: "https://gitlab.com/g/s/r" => "Gitlab https://gitlab.com/g/s/r.git https://gitlab.com/g/s/r.git - - -",
        gitlab_subgroups_git: "https://gitlab.com/g/s/r.git" => "Gitlab https://gitlab.com/g/s/r.git = - - -",
        azure_query: "https://dev.azure.com/o/p/_git/r?path=/skills/x&version=GBmain" => "Git https://dev.azure.com/o/p/_git/r = main skills/x -",
        azure_tag: "https://dev.azure.com/o/p/_git/r?version=GTv1.0&path=%2Fa" => "Git https://dev.azure.com/o/p/_git/r = v1.0 a -",
        azure_plain: "https://dev.azure.com/o/p/_git/r" => "Git https://dev.azure.com/o/p/_git/r = - - -",
        scp: "git@host:o/r.git" => "Git git@host:o/r.git = - - -",
        scp_ref: "git@host:o/r.git#v1" => "Git git@host:o/r.git git@host:o/r.git v1 - -",
        ssh_ref: "ssh://git@host/o/r.git#dev" => "Git ssh://git@host/o/r.git ssh://git@host/o/r.git dev - -",
        git_daemon: "git://host/o/r.git" => "Git git://host/o/r.git = - - -",
        https_git_ref: "https://host/x/o/r.git#main" => "Git https://host/x/o/r.git https://host/x/o/r.git main - -",
        file_ref: "file:///srv/repo#topic" => "Git file:///srv/repo file:///srv/repo topic - -",
        raw_github: "https://raw.githubusercontent.com/o/r/main/SKILL.md" => "Download https://raw.githubusercontent.com/o/r/main/SKILL.md",
        github_archive: "https://github.com/o/r/archive/refs/heads/main.zip" => "Download https://github.com/o/r/archive/refs/heads/main.zip",
        github_release: "https://github.com/o/r/releases/download/v1/s.tgz" => "Download https://github.com/o/r/releases/download/v1/s.tgz",
        gitlab_archive: "https://gitlab.com/g/r/-/archive/main/r.tar.gz" => "Download https://gitlab.com/g/r/-/archive/main/r.tar.gz",
        gitlab_raw: "https://gitlab.com/g/r/-/raw/main/SKILL.md" => "Download https://gitlab.com/g/r/-/raw/main/SKILL.md",
        scoped_skill_md: "https://example.com/skills/pdf/SKILL.md" => "Download https://example.com/skills/pdf/SKILL.md",
        archive_tar: "https://example.com/a.tar" => "Download https://example.com/a.tar",
        well_known_host: "https://example.com" => "WellKnown https://example.com",
        well_known_path_drops_fragment: "http://example.com/docs#x" => "WellKnown http://example.com/docs",
        unsafe_dotdot: "o/r/a/../b" => "UnsafeSubpath",
        unsafe_encoded_dotdot: "o/r/%2e%2e/x" => "UnsafeSubpath",
        unsafe_backslash: "o/r/a\\b" => "UnsafeSubpath",
        unsafe_tree: "https://github.com/o/r/tree/main/%2E%2e/x" => "UnsafeSubpath",
        unsafe_azure: "https://dev.azure.com/o/p/_git/r?path=/../x" => "UnsafeSubpath",
        ext_refused: "ext::sh -c touch% /tmp/x" => "RemoteHelper",
        empty_refused: "  " => "Empty",
        garbage_refused: "garbage" => "Unrecognized",
        unknown_scheme: "ftp://host/x" => "Unrecognized",
        no_host: "https://" => "Unrecognized",
        ssh_option_host: "ssh://-oProxyCommand=x/r" => "Unrecognized",
        empty_ref: "o/r#" => "EmptyRef",
        empty_skill: "o/r@" => "EmptySkill",
        option_ref: "o/r#--upload-pack=x" => "InvalidRef",
    }

    fn with(github_base: &str, home: Option<PathBuf>) -> SourceEnv {
        let github_base = github_base.to_owned();
        SourceEnv {
            github_base,
            home,
            ..env()
        }
    }

    #[test]
    fn resolve_splits_rest_at_longest_remote_ref() {
        let refs = ["main".to_owned(), "feature/x".to_owned()];
        let resolve = |rest: &str, blob| {
            let rest = rest.to_owned();
            Selector::Path { rest, blob }.resolve(&refs)
        };
        let ok = |r: &str, sub: Option<&str>| Ok((Some(r.to_owned()), sub.map(str::to_owned)));
        let deep = ok("feature/x", Some("skills/pdf"));
        assert_eq!(resolve("feature/x/skills/pdf", false), deep);
        assert_eq!(resolve("feature/x/skills/pdf/SKILL.md", true), deep);
        assert_eq!(resolve("main", false), ok("main", None));
        assert_eq!(resolve("v2/a", false), ok("v2", Some("a")));
        assert_eq!(resolve("main/SKILL.md", true), ok("main", None));
        let bad_ref = resolve("-x/a", false);
        assert!(matches!(bad_ref, Err(SourceError::InvalidRef(..))));
        let bad_path = resolve("main/../a", false);
        assert!(matches!(bad_path, Err(SourceError::UnsafeSubpath(..))));
    }

    #[test]
    fn mirror_base_url() {
        let mirror = with("http://127.0.0.1:9418", None);
        let want = "Github http://127.0.0.1:9418/owner/repo.git = - - -";
        assert_eq!(show("owner/repo", &mirror), want);
        let tree = "http://127.0.0.1:9418/owner/repo/tree/main/x";
        let want = "Github http://127.0.0.1:9418/owner/repo.git owner/repo tree:main/x -";
        assert_eq!(show(tree, &mirror), want);
        let daemon = with("git://127.0.0.1:9418", None);
        let url = "git://127.0.0.1:9418/o/r.git";
        assert_eq!(
            show(url, &daemon),
            "Github git://127.0.0.1:9418/o/r.git o/r - - -"
        );
        assert_eq!(show("~/x", &mirror), "NoHome");
    }

    #[test]
    fn messages_name_the_input() {
        let err = |s: &str| parse(s, &env()).expect_err(s);
        let msg = "`o/r/a/../b` has an unsafe subpath: `..` is not allowed";
        assert_eq!(err("o/r/a/../b").to_string(), msg);
        assert!(
            err("o/r/a/%2e%2e/b")
                .to_string()
                .contains("`..` is not allowed")
        );
        assert!(
            err("o/r/C:/x")
                .to_string()
                .contains("a drive is not allowed")
        );
        assert_eq!(
            clean_subpath("ab//./c/", "x").unwrap().as_deref(),
            Some("ab/c")
        );
        // A name Windows cannot hold is refused everywhere: a lock must install on every system.
        assert!(clean_subpath("ab:c", "x").is_err());
        assert!(clean_subpath("x/.git/hooks", "x").is_err());
        assert!(err("nope").hint().is_some_and(|h| h.contains("owner/repo")));
        assert!(err("ext::x").to_string().contains("`ext::x`"));
    }

    #[test]
    fn never_panics() {
        let pieces = "a|/|#|@| |.|..|%2e|%|%e|https://|git@|:|\\|~|-|/-/|tree|blob|SKILL.md|_git|?path=\
            |&version=GB|é|\0|ext::|github:|gitlab:|github.com|.git|*|C:";
        let pieces: Vec<&str> = pieces.split('|').collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |bound: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005);
            state = state.wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(state >> 33).unwrap_or_default() % bound
        };
        let refs = ["a".to_owned(), "a/a".to_owned()];
        for _ in 0..600 {
            let count = next(8) + 1;
            let input: String = (0..count).map(|_| pieces[next(pieces.len())]).collect();
            if let Ok(Source::Git(g)) = parse(&input, &env()) {
                let _ = g.selector.resolve(&refs);
            }
        }
    }

    #[test]
    fn gh_host_is_github_enterprise() {
        assert_eq!(
            enterprise_host(" GHE.Example.com "),
            Some("ghe.example.com".into())
        );
        assert_eq!(
            enterprise_host("127.0.0.1:8443"),
            Some("127.0.0.1:8443".into())
        );
        for ignored in [
            "",
            "github.com",
            "https://ghe.example.com",
            "ghe/x",
            "-x",
            "h:",
        ] {
            assert_eq!(enterprise_host(ignored), None, "{ignored}");
        }
        let env = SourceEnv {
            github_base: "https://ghe.example.com".into(),
            github_host: Some("ghe.example.com".into()),
            ..env()
        };
        let git = |input: &str| match parse(input, &env) {
            Ok(Source::Git(git)) => git,
            other => panic!("{input}: {other:?}"),
        };
        let shorthand = git("o/r#v1");
        assert_eq!(shorthand.provider, Provider::Git);
        assert_eq!(shorthand.url, "https://ghe.example.com/o/r.git");
        assert_eq!(shorthand.display, "https://ghe.example.com/o/r.git");
        assert_eq!(shorthand.public, shorthand.display);
        let tree = git("https://ghe.example.com/o/r/tree/main/skills/x");
        assert_eq!(tree.display, "https://ghe.example.com/o/r.git");
        assert!(matches!(tree.selector, Selector::Path { .. }));
        // A github.com URL is `o/r` written long: it goes where `o/r` goes.
        let long = git("https://github.com/o/r");
        assert_eq!(long.url, shorthand.url);
        assert_eq!(long.display, shorthand.display);
    }

    #[test]
    fn github_urls_are_fetched_from_the_mirror_as_owner_repo_is() {
        let env = SourceEnv {
            github_base: "git://127.0.0.1:9418".into(),
            ..env()
        };
        let git = |input: &str| match parse(input, &env) {
            Ok(Source::Git(git)) => git,
            other => panic!("{input}: {other:?}"),
        };
        let shorthand = git("o/r");
        for input in [
            "https://github.com/o/r",
            "https://github.com/o/r.git",
            "https://GitHub.com/o/r/",
            "github.com/o/r",
            "https://github.com/o/r/tree/main/skills/x",
            "https://github.com/o/r/blob/main/skills/x/SKILL.md",
        ] {
            let long = git(input);
            assert_eq!(long.url, shorthand.url, "{input}");
            assert_eq!(long.display, "o/r", "{input}");
            assert_eq!(long.public, "https://github.com/o/r.git", "{input}");
            assert_eq!(long.provider, Provider::Github, "{input}");
        }
        // A URL on the mirror itself is fetched as typed.
        assert_eq!(
            git("git://127.0.0.1:9418/o/r").url,
            "git://127.0.0.1:9418/o/r.git"
        );
    }

    #[test]
    fn every_gitlab_form_is_one_source_fetched_from_the_mirror() {
        let env = SourceEnv {
            gitlab_base: "http://127.0.0.1:9418".into(),
            ..env()
        };
        let git = |input: &str| match parse(input, &env) {
            Ok(Source::Git(git)) => git,
            other => panic!("{input}: {other:?}"),
        };
        for input in [
            "gitlab:g/s/r",
            "gitlab:g/s/r.git#v1@x",
            "https://gitlab.com/g/s/r",
            "https://GitLab.com/g/s/r.git",
            "gitlab.com/g/s/r",
            "https://gitlab.com/g/s/r/-/tree/main/skills/x",
            "https://gitlab.com/g/s/r/-/blob/main/skills/x/SKILL.md",
            // A URL on the mirror itself is fetched as typed, and is the same repository.
            "http://127.0.0.1:9418/g/s/r/-/tree/main",
        ] {
            let gitlab = git(input);
            assert_eq!(gitlab.provider, Provider::Gitlab, "{input}");
            assert_eq!(gitlab.display, "https://gitlab.com/g/s/r.git", "{input}");
            assert_eq!(gitlab.public, gitlab.display, "{input}");
            assert_eq!(gitlab.url, "http://127.0.0.1:9418/g/s/r.git", "{input}");
        }
        // A self-hosted instance keeps its host; its clone URL is the same repository.
        let hosted = git("https://user:tok@gl.example/g/r/-/tree/main/x");
        assert_eq!(hosted.display, "https://gl.example/g/r.git");
        assert_eq!(hosted.url, "https://user:tok@gl.example/g/r.git");
        assert_eq!(git("https://gl.example/g/r.git").display, hosted.display);
    }

    #[test]
    fn credentials_stay_out_of_the_display() {
        let env = SourceEnv {
            github_base: "https://github.com".into(),
            github_host: None,
            gitlab_base: "https://gitlab.com".into(),
            cwd: "/p".into(),
            home: None,
            bound: None,
            outside: Outside::default(),
        };
        let Ok(Source::Git(git)) = parse("https://user:ghp_secret@example.com/o/r.git", &env)
        else {
            panic!()
        };
        assert_eq!(git.display, "https://example.com/o/r.git");
        assert_eq!(
            git.public, "https://example.com/o/r.git",
            "nor into `sourceUrl`"
        );
        assert!(git.url.contains("ghp_secret"), "the clone URL keeps them");
        let Ok(Source::Git(git)) = parse("ssh://git@example.com/o/r.git", &env) else {
            panic!()
        };
        assert_eq!(git.display, "ssh://git@example.com/o/r.git");
    }
}
