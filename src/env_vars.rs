//! Every environment variable `skills` reads, in one place, with what it does.
//!
//! Tests point all of them (and `HOME`, `XDG_*`) into a temp dir so that no run touches the
//! developer's machine.

/// Base URL that replaces `https://github.com` for `owner/repo` sources (mirrors, tests).
pub const SKILLS_GITHUB_URL: &str = "SKILLS_GITHUB_URL";
/// Base URL that replaces `https://gitlab.com` for `gitlab:` sources.
pub const SKILLS_GITLAB_URL: &str = "SKILLS_GITLAB_URL";
/// Hosts the user trusts, comma-separated `host[:port]` (`mirror.corp:8443,10.0.0.5`,
/// `[fd00::1]:80`; no port: every port): a project's lockfile may send `skills` there even when
/// the address is loopback, link-local or private. Mirrors the user configured
/// (`SKILLS_GITHUB_URL`, `SKILLS_GITLAB_URL`, `GH_HOST`) are trusted without being listed.
pub const SKILLS_TRUSTED_HOSTS: &str = "SKILLS_TRUSTED_HOSTS";
/// `1`: a project's lockfile may send `skills` to private ranges (`10/8`, `172.16/12`,
/// `192.168/16`, `100.64/10`, `fc00::/7`): an intranet mirror. Loopback, link-local and cloud
/// metadata addresses stay refused unless listed in `SKILLS_TRUSTED_HOSTS`.
pub const SKILLS_ALLOW_PRIVATE_ADDRESSES: &str = "SKILLS_ALLOW_PRIVATE_ADDRESSES";
/// Base URL of the skills.sh search API used by `skills find` (default `https://skills.sh`).
pub const SKILLS_API_URL: &str = "SKILLS_API_URL";
/// Comma-separated skill roots for `skills serve` when no path is given (as in skill-to-mcp).
pub const SKILLS_DIR: &str = "SKILLS_DIR";
/// Cache directory: fetched git repositories, `serve`'s file digests (default: the user cache
/// dir + `/skills`).
pub const SKILLS_CACHE_DIR: &str = "SKILLS_CACHE_DIR";
/// `1`: `skills install` restores from this machine only (the shared store and the git cache),
/// and `skills add` and `skills use` open sources from it, as with `--offline`.
pub const SKILLS_OFFLINE: &str = "SKILLS_OFFLINE";
/// Folders trusted as the project although another user owns them or every user may write to
/// them (git's `safe.directory`): paths separated as in `PATH`; `dir/*` trusts a folder and every
/// folder below it, `*` every folder. Without it, such a folder is never the project
/// (see `SECURITY.md`).
pub const SKILLS_SAFE_DIRECTORIES: &str = "SKILLS_SAFE_DIRECTORIES";
/// Set by `sudo` to the user it runs for: as root, a project that user owns is trusted, as git
/// does.
pub const SUDO_UID: &str = "SUDO_UID";
/// Set to a shell (`bash`, `zsh`, `fish`, `elvish`, `powershell`): the run prints that shell's
/// dynamic completion script, or, as called by that script, the candidates for the words after
/// `--` (installed skill names included), and does nothing else. clap's `COMPLETE` protocol under
/// our own name, as cargo's `CARGO_COMPLETE`: a `COMPLETE` set for another program never turns a
/// `skills` run into a completion. Empty or `0`: a normal run.
pub const SKILLS_COMPLETE: &str = "SKILLS_COMPLETE";
/// Set to `1` in `cargo test` to rewrite snapshots of generated files (completions, man pages).
pub const SKILLS_BLESS: &str = "SKILLS_BLESS";
/// Disables color, as everywhere (<https://no-color.org>).
pub const NO_COLOR: &str = "NO_COLOR";
/// Seconds a whole HTTP request (web sources, `skills find`) may take, body included, and the
/// longest a git transfer may go without progress or bring less than 1 KiB (default 30).
pub const SKILLS_HTTP_TIMEOUT: &str = "SKILLS_HTTP_TIMEOUT";
/// Seconds a run waits for another `skills` run that holds the same lockfile (default 60; `0`
/// does not wait).
pub const SKILLS_LOCK_TIMEOUT: &str = "SKILLS_LOCK_TIMEOUT";
/// Token for private GitHub repositories over HTTPS; `GH_TOKEN` is read too.
pub const GITHUB_TOKEN: &str = "GITHUB_TOKEN";
pub const GH_TOKEN: &str = "GH_TOKEN";
/// GitHub Enterprise host (`ghe.example.com`, as `gh` reads it): `owner/repo` and URLs on that
/// host are cloned from it, and GitHub tokens are sent to it.
pub const GH_HOST: &str = "GH_HOST";
/// The command git runs for ssh (`ssh -i key -o …`); honoured for `git@host:…` and `ssh://`
/// sources. `GIT_SSH` (a program, no arguments) is read when it is not set.
pub const GIT_SSH_COMMAND: &str = "GIT_SSH_COMMAND";
pub const GIT_SSH: &str = "GIT_SSH";
/// Shows `metadata.internal: true` skills in source listings, as in the reference installer.
pub const INSTALL_INTERNAL_SKILLS: &str = "INSTALL_INTERNAL_SKILLS";
/// Where the reference installer keeps its global lock (`$XDG_STATE_HOME/skills/.skill-lock.json`).
pub const XDG_STATE_HOME: &str = "XDG_STATE_HOME";

/// The cache directory: `$SKILLS_CACHE_DIR`, else the user cache dir + `/skills`.
pub fn cache_dir() -> std::path::PathBuf {
    std::env::var_os(SKILLS_CACHE_DIR)
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("skills")))
        .unwrap_or_else(|| std::env::temp_dir().join("skills-cache"))
}

/// Whether `SKILLS_OFFLINE` asks for no network (`1`, `true`, `yes`).
pub fn offline() -> bool {
    std::env::var(SKILLS_OFFLINE)
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}
