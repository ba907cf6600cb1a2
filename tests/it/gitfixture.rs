//! Local git upstreams for install/update tests: a work repo plus a bare clone, and a `git daemon`
//! serving the bare repos on loopback (for `SKILLS_GITHUB_URL=git://127.0.0.1:PORT`).
//!
//! Every git call gets a hermetic environment: no system or global config, a fake HOME, fixed
//! author/committer identity and date (so commit shas are reproducible), `init.defaultBranch=main`
//! and `protocol.file.allow=always`. Nothing here touches the network or the real HOME.

// Not every test binary module uses every helper.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const DATE: &str = "2026-01-01T00:00:00Z";
#[rustfmt::skip]
const CONFIG: [&str; 8] = [
    "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always",
    "-c", "commit.gpgSign=false", "-c", "tag.gpgSign=false",
];

/// The fake HOME (with an empty `gitconfig` inside) shared by all git calls of this process.
fn git_home() -> &'static Path {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gitfixture-home");
        std::fs::create_dir_all(&home).expect("create git home");
        std::fs::write(home.join("gitconfig"), "").expect("write empty gitconfig");
        home
    })
}

/// `program` (git or one of its helpers) with the hermetic environment, run in `dir`.
fn hermetic(program: impl AsRef<OsStr>, dir: &Path) -> Command {
    let home = git_home();
    let mut command = Command::new(program);
    // GIT_DIR, GIT_INDEX_FILE, … leak in when tests run from a git hook; drop every GIT_* var.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("GIT_") {
            command.env_remove(key);
        }
    }
    command
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("xdg"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "Fixture Author")
        .env("GIT_AUTHOR_EMAIL", "author@example.invalid")
        .env("GIT_AUTHOR_DATE", DATE)
        .env("GIT_COMMITTER_NAME", "Fixture Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.invalid")
        .env("GIT_COMMITTER_DATE", DATE);
    command
}

/// A `git` command with the hermetic environment and config, run in `dir`.
pub fn git_command(dir: &Path) -> Command {
    let mut command = hermetic("git", dir);
    command.args(CONFIG);
    command
}

/// Runs git in `dir`; `Ok(trimmed stdout)` on success, `Err(stderr)` on failure.
pub fn try_git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let output = git_command(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("git runs");
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Runs git in `dir` and returns its trimmed stdout; panics with stderr on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    try_git(dir, args)
        .unwrap_or_else(|stderr| panic!("git {args:?} failed in {}:\n{stderr}", dir.display()))
}

/// Copies the folder `from` into `to`, keeping symlinks as symlinks and file modes.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            let link = std::fs::read_link(&source).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink(&link, &target).unwrap();
            #[cfg(not(unix))]
            panic!(
                "symlink {} -> {}: unix only",
                target.display(),
                link.display()
            );
        } else if kind.is_dir() {
            copy_tree(&source, &target);
        } else {
            // `fs::copy` copies the permission bits too.
            std::fs::copy(&source, &target).unwrap();
        }
    }
}

/// A work repo at `root/work/<name>` and its bare clone at `root/repos/<name>.git`.
pub struct Upstream {
    pub work: PathBuf,
    pub bare: PathBuf,
}

impl Upstream {
    /// Copies `content` into a new work repo, commits it ("initial") and pushes `main` to a new
    /// bare repo. `name` may contain a `/` ("owner/repo" → `root/repos/owner/repo.git`).
    pub fn from_dir(root: &Path, name: &str, content: &Path) -> Upstream {
        let work = root.join("work").join(name);
        let bare = root.join("repos").join(format!("{name}.git"));
        assert!(!work.exists(), "{} already exists", work.display());
        copy_tree(content, &work);
        std::fs::create_dir_all(&bare).unwrap();
        git(&bare, &["init", "--quiet", "--bare"]);
        git(&work, &["init", "--quiet"]);
        git(&work, &["config", "core.fileMode", "true"]);
        git(&work, &["config", "core.symlinks", "true"]);
        let origin = bare.to_str().expect("utf-8 path");
        git(&work, &["remote", "add", "origin", origin]);
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-q", "--allow-empty", "-m", "initial"]);
        let upstream = Upstream { work, bare };
        upstream.push("main");
        upstream
    }

    /// Runs `edit` on the work tree, commits everything and pushes `main`; returns the new sha.
    /// The commit is made even if `edit` changed nothing.
    pub fn commit(&self, message: &str, edit: impl FnOnce(&Path)) -> String {
        edit(&self.work);
        self.git(&["add", "-A"]);
        self.git(&["commit", "--quiet", "--allow-empty", "-m", message]);
        self.push("main");
        self.head()
    }

    /// Creates a lightweight tag at HEAD and pushes it; returns the tagged commit sha.
    pub fn tag(&self, name: &str) -> String {
        self.git(&["tag", name]);
        self.push(&format!("refs/tags/{name}"));
        self.head()
    }

    /// Creates an annotated tag at HEAD (ls-remote then also shows `refs/tags/<name>^{}`) and
    /// pushes it; returns the tagged commit sha.
    pub fn annotated_tag(&self, name: &str) -> String {
        self.git(&["tag", "-a", name, "-m", &format!("release {name}")]);
        self.push(&format!("refs/tags/{name}"));
        self.head()
    }

    /// Creates a branch at HEAD (the work tree stays on `main`) and pushes it.
    pub fn branch(&self, name: &str) -> String {
        self.git(&["branch", name]);
        self.push(&format!("refs/heads/{name}"));
        self.head()
    }

    /// Runs git in the work repo.
    pub fn git(&self, args: &[&str]) -> String {
        git(&self.work, args)
    }

    /// Pushes `refspec` (`main`, `refs/tags/v1`, `+main` to force) to the bare repo.
    pub fn push(&self, refspec: &str) {
        self.git(&["push", "--quiet", "origin", refspec]);
    }

    /// The sha of the work repo's HEAD (what the last push sent to `main`).
    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"])
    }

    /// `file://` URL of the bare repo.
    pub fn file_url(&self) -> String {
        let path = self.bare.to_string_lossy().replace('\\', "/");
        if path.starts_with('/') {
            format!("file://{path}")
        } else {
            format!("file:///{path}")
        }
    }

    /// Replaces `main` by a parentless commit (the current tree after `edit`), force-pushes it and
    /// prunes the bare repo, so the previous commits of `main` no longer exist there — unless a
    /// tag or another branch still points into the old history. Returns the new sha.
    pub fn force_push_new_history(&self, edit: impl FnOnce(&Path)) -> String {
        self.git(&["checkout", "--quiet", "--orphan", "rewritten"]);
        edit(&self.work);
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", "rewritten history"]);
        self.git(&["branch", "-M", "main"]);
        self.push("+main");
        git(&self.bare, &["reflog", "expire", "--expire=now", "--all"]);
        git(&self.bare, &["gc", "--quiet", "--prune=now"]);
        self.head()
    }
}

/// The text `git daemon --verbose` logs once per upload-pack connection (clone, fetch,
/// ls-remote), e.g. `[4242] Request upload-pack for '/owner/repo.git'`.
pub const UPLOAD_PACK_LINE: &str = "Request upload-pack for '";

/// `git daemon` serving the bare repos under a base path on 127.0.0.1; killed on drop.
pub struct GitDaemon {
    pub port: u16,
    /// `git://127.0.0.1:PORT`; `owner/repo` is then at `{base_url}/owner/repo.git`.
    pub base_url: String,
    child: Child,
    log_path: PathBuf,
    _temp: tempfile::TempDir,
}

impl GitDaemon {
    /// Starts the daemon on a free port and waits until it listens (up to ~5 s). Creates
    /// `base_path` if needed, so the daemon may start before the repos it serves are pushed.
    pub fn start(base_path: &Path) -> GitDaemon {
        std::fs::create_dir_all(base_path).expect("create daemon base path");
        let temp = tempfile::tempdir().expect("temp dir");
        let log_path = temp.path().join("daemon.log");
        let base = base_path.to_str().expect("utf-8 path");
        // Run `git-daemon` itself: killing a `git daemon` wrapper would orphan the real daemon.
        let program = Path::new(&git(base_path, &["--exec-path"])).join("git-daemon");
        let mut failures = String::new();
        for _attempt in 0..5 {
            let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|listener| listener.local_addr())
                .expect("bind an ephemeral port")
                .port();
            let log = std::fs::File::create(&log_path).expect("create daemon log");
            let mut child = hermetic(&program, base_path)
                .args(["--reuseaddr", "--export-all", "--enable=upload-pack"])
                .arg(format!("--base-path={base}"))
                .arg("--listen=127.0.0.1")
                .arg(format!("--port={port}"))
                .args(["--log-destination=stderr", "--verbose", base])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .expect("git daemon starts");
            if wait_ready(&mut child, &log_path) {
                return GitDaemon {
                    port,
                    base_url: format!("git://127.0.0.1:{port}"),
                    child,
                    log_path,
                    _temp: temp,
                };
            }
            let _ = child.kill();
            let _ = child.wait();
            let log = std::fs::read_to_string(&log_path).unwrap_or_default();
            let _ = writeln!(failures, "port {port}:\n{log}");
        }
        panic!("git daemon did not start:\n{failures}");
    }

    /// The daemon's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).expect("read daemon log")
    }

    /// How many upload-pack connections (clone, fetch, ls-remote: one each) the daemon served.
    pub fn upload_pack_requests(&self) -> usize {
        self.count_lines(UPLOAD_PACK_LINE)
    }

    /// Upload-pack connections for one repo (`"owner/repo"`, as in [`GitDaemon::url`]).
    pub fn upload_pack_requests_for(&self, repo: &str) -> usize {
        self.count_lines(&format!("{UPLOAD_PACK_LINE}/{repo}.git'"))
    }

    fn count_lines(&self, needle: &str) -> usize {
        let log = self.log();
        log.lines().filter(|line| line.contains(needle)).count()
    }

    /// The URL of a repo under the base path: `url("owner/repo")` → `git://…/owner/repo.git`.
    pub fn url(&self, repo: &str) -> String {
        format!("{}/{repo}.git", self.base_url)
    }
}

/// Waits for the daemon's "Ready to rumble" line, which it logs after its sockets listen (polling
/// the log rather than connecting keeps a probe connection out of the log). False if the daemon
/// exited (port taken) or took longer than 5 s.
fn wait_ready(child: &mut Child, log_path: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        let log = std::fs::read_to_string(log_path).unwrap_or_default();
        if log.contains("] Ready to rumble") {
            return true;
        }
        if child.try_wait().expect("poll git daemon").is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

impl Drop for GitDaemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn upstream_keeps_modes_and_daemon_serves_it() {
    let temp = tempfile::tempdir().unwrap();
    let content = temp.path().join("content");
    std::fs::create_dir_all(content.join("skills/a/scripts")).unwrap();
    std::fs::write(content.join("skills/a/SKILL.md"), "---\nname: a\n---\n").unwrap();
    std::fs::write(content.join("skills/a/scripts/run.sh"), "#!/bin/sh\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let script = content.join("skills/a/scripts/run.sh");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::symlink("a", content.join("skills/link")).unwrap();
    }
    let upstream = Upstream::from_dir(temp.path(), "owner/repo", &content);
    assert_eq!(upstream.bare, temp.path().join("repos/owner/repo.git"));
    let tree = git(&upstream.bare, &["ls-tree", "-r", "main"]);
    #[cfg(unix)]
    assert!(
        tree.contains("100755 blob") && tree.contains("120000 blob"),
        "{tree}"
    );
    assert!(tree.contains("skills/a/SKILL.md"), "{tree}");

    let daemon = GitDaemon::start(&temp.path().join("repos"));
    assert_eq!(daemon.upload_pack_requests(), 0);
    let url = daemon.url("owner/repo");
    let refs = git(temp.path(), &["ls-remote", &url]);
    let main = format!("{}\trefs/heads/main", upstream.head());
    assert!(refs.contains(&main), "{refs}");
    assert_eq!(daemon.upload_pack_requests(), 1);
    upstream.tag("v1");
    git(temp.path(), &["ls-remote", &url]);
    assert_eq!(daemon.upload_pack_requests(), 2, "{}", daemon.log());
    assert_eq!(daemon.upload_pack_requests_for("owner/repo"), 2);
    // A clone over file:// works too.
    git(temp.path(), &["clone", "-q", &upstream.file_url(), "clone"]);
    assert_eq!(daemon.upload_pack_requests(), 2);
    let port = daemon.port;
    drop(daemon);
    assert!(std::net::TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err());
}

#[test]
fn force_push_new_history_drops_the_old_commits() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(temp.path().join("c")).unwrap();
    std::fs::write(temp.path().join("c/SKILL.md"), "x\n").unwrap();
    let upstream = Upstream::from_dir(temp.path(), "o/r", &temp.path().join("c"));
    let twin = Upstream::from_dir(temp.path(), "twin", &temp.path().join("c"));
    let first = upstream.head();
    assert_eq!(
        first,
        twin.head(),
        "fixed identity and dates give reproducible shas"
    );
    let write =
        |name: &'static str| move |work: &Path| std::fs::write(work.join(name), "x").unwrap();
    let old = upstream.commit("second", write("b"));
    git(&upstream.bare, &["cat-file", "-e", &old]);
    let new = upstream.force_push_new_history(write("c"));
    assert_ne!(new, old);
    assert_eq!(git(&upstream.bare, &["rev-parse", "main"]), new);
    assert!(try_git(&upstream.bare, &["cat-file", "-e", &old]).is_err());
    assert!(try_git(&upstream.bare, &["cat-file", "-e", &first]).is_err());
    assert_eq!(git(&upstream.bare, &["rev-list", "--count", "main"]), "1");
}
