//! The test context: runs the real `skills` binary hermetically.
//!
//! HOME, XDG_* and SKILLS_* point into a temp dir, color is off and the terminal width fixed, so
//! that no test reads or writes the developer's machine and output is stable.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// Variables that must never leak from the developer's environment into a test run.
const SCRUBBED: &[&str] = &[
    "SKILLS_GITHUB_URL",
    "SKILLS_GITLAB_URL",
    "SKILLS_API_URL",
    "SKILLS_DIR",
    "SKILLS_CACHE_DIR",
    "SKILLS_OFFLINE",
    "SKILLS_COMPLETE",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GH_HOST",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "INSTALL_INTERNAL_SKILLS",
    "CLICOLOR_FORCE",
    "SKILLS_HTTP_TIMEOUT",
    "SKILLS_LOCK_TIMEOUT",
    "SSL_CERT_FILE",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "FORCE_COLOR",
];

pub struct TestContext {
    pub temp: tempfile::TempDir,
    /// The fake home directory.
    pub home: PathBuf,
    /// The project directory commands run in.
    pub project: PathBuf,
}

impl TestContext {
    pub fn new() -> Self {
        let temp = tempfile::tempdir().expect("temp dir");
        let home = temp.path().join("home");
        let project = temp.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        TestContext {
            temp,
            home,
            project,
        }
    }

    /// `skills` with a hermetic environment, run in the project directory.
    pub fn command(&self) -> Command {
        Command::from_std(self.std_command())
    }

    /// The same, as a plain `std::process::Command` (to spawn several at once).
    pub fn std_command(&self) -> std::process::Command {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("skills"));
        for var in SCRUBBED {
            command.env_remove(var);
        }
        // A test run from a git hook inherits GIT_DIR and friends; the binary must not see them.
        for (var, _) in std::env::vars_os() {
            if var.to_string_lossy().starts_with("GIT_") {
                command.env_remove(var);
            }
        }
        let root = self.temp.path();
        command
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", root.join("xdg/config"))
            .env("XDG_CACHE_HOME", root.join("xdg/cache"))
            .env("XDG_DATA_HOME", root.join("xdg/data"))
            .env("XDG_STATE_HOME", root.join("xdg/state"))
            .env("SKILLS_CACHE_DIR", root.join("cache"))
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", root.join("gitconfig"));
        command
    }

    /// A project next door with only this project's lockfile in it, and its own HOME and cache:
    /// a teammate's machine.
    pub fn teammate(&self) -> TestContext {
        let fresh = TestContext::new();
        std::fs::copy(
            self.project.join("skills-lock.json"),
            fresh.project.join("skills-lock.json"),
        )
        .unwrap();
        fresh
    }

    /// Writes a file under the project, creating folders.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        write(&self.project.join(rel), content)
    }

    /// Writes `dir/SKILL.md` under the project with a valid frontmatter and a body.
    pub fn skill(&self, dir: &str, name: &str) -> PathBuf {
        self.write(
            &format!("{dir}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Does {name} things. Use when the user asks for {name}.\n---\n# {name}\n\nSteps.\n"
            ),
        )
    }

    /// Insta filters that hide the temp dir, the fixtures' folder and the ports of loopback
    /// servers.
    pub fn filters(&self) -> Vec<(String, String)> {
        let root = self.temp.path().to_string_lossy().into_owned();
        let canonical =
            std::fs::canonicalize(self.temp.path()).map(|p| p.to_string_lossy().into_owned());
        // A port of the ephemeral range has 5 digits wherever the tests run, so a table that
        // shows one keeps its width.
        let mut filters = vec![
            (regex_escape(&root), "[TEMP]".to_owned()),
            (
                r"127\.0\.0\.1:\d+".to_owned(),
                "127.0.0.1:[PORT]".to_owned(),
            ),
            // The fixtures, absolute or relative to the project: the checkout's place varies.
            (
                r"(?:\.\./)+\S*?tests/fixtures".to_owned(),
                "[FIXTURES]".to_owned(),
            ),
            (
                regex_escape(&repo().join("tests/fixtures").to_string_lossy()),
                "[FIXTURES]".to_owned(),
            ),
            // libgit2's own words (and the git daemon's) after the last quoted name: they vary
            // with the versions installed, and are not `skills`'s message.
            (
                r": [^`\n]*; class=\w+ \(-?\d+\)".to_owned(),
                ": [LIBGIT2 ERROR]".to_owned(),
            ),
        ];
        if let Ok(canonical) = canonical
            && canonical != root
        {
            filters.push((regex_escape(&canonical), "[TEMP]".to_owned()));
        }
        filters
    }
}

pub fn write(path: &Path, content: impl AsRef<[u8]>) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, content).unwrap();
    path.to_path_buf()
}

pub fn regex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `name` of each item of `document["skills"]`, in order.
pub fn skill_names(document: &serde_json::Value) -> Vec<String> {
    document["skills"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|s| s["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The repository root (for fixtures).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// stdout and stderr of a finished command, as text, with the exit code.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(command: &mut Command) -> Output {
    let output = command.output().expect("command runs");
    Output {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Snapshots the exit code, stdout and stderr of an [`Output`] already run, as `snapshot!` does
/// those of a command, in a snapshot file.
#[macro_export]
macro_rules! snapshot_output {
    ($context:expr, $output:expr) => {{
        let output: &$crate::common::Output = &$output;
        let mut settings = insta::Settings::clone_current();
        for (from, to) in $context.filters() {
            settings.add_filter(&from, to);
        }
        let output = format!(
            "exit: {}\n----- stdout -----\n{}----- stderr -----\n{}",
            output.code, output.stdout, output.stderr
        );
        settings.bind(|| insta::assert_snapshot!(output));
    }};
}

/// Runs `command` and snapshots `exit code`, stdout and stderr together.
#[macro_export]
macro_rules! snapshot {
    ($context:expr, $command:expr, @$snapshot:literal) => {{
        let output = $crate::common::run(&mut $command);
        let mut settings = insta::Settings::clone_current();
        for (from, to) in $context.filters() {
            settings.add_filter(&from, to);
        }
        settings.bind(|| {
            insta::assert_snapshot!(
                format!("exit: {}\n----- stdout -----\n{}----- stderr -----\n{}", output.code, output.stdout, output.stderr),
                @$snapshot
            );
        });
        output
    }};
    ($context:expr, $command:expr) => {{
        let output = $crate::common::run(&mut $command);
        let mut settings = insta::Settings::clone_current();
        for (from, to) in $context.filters() {
            settings.add_filter(&from, to);
        }
        settings.bind(|| {
            insta::assert_snapshot!(
                format!("exit: {}\n----- stdout -----\n{}----- stderr -----\n{}", output.code, output.stdout, output.stderr)
            );
        });
        output
    }};
}

/// Snapshots a text put together by the test (several runs' outputs, say), with the context's
/// filters, in a snapshot file.
#[macro_export]
macro_rules! snapshot_text {
    ($context:expr, $text:expr) => {{
        let text: &str = &$text;
        let mut settings = insta::Settings::clone_current();
        for (from, to) in $context.filters() {
            settings.add_filter(&from, to);
        }
        settings.bind(|| insta::assert_snapshot!(text));
    }};
}
