//! Crafted git trees: what `git mktree --literally` can make and libgit2 hands over as-is. Each
//! attack is served twice, by `git daemon` and over `file://`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{Before, Canary, says, skill_md};
use crate::common::{Output, TestContext, run};
use crate::gitfixture::{GitDaemon, git, git_command};

/// A bare repo whose objects are written one by one, so that a tree can hold any name.
struct Crafted {
    bare: PathBuf,
}

/// One tree entry: mode, raw name, object id.
type Entry = (&'static str, Vec<u8>, String);

impl Crafted {
    fn new(repos: &Path, name: &str) -> Crafted {
        let bare = repos.join(format!("{name}.git"));
        std::fs::create_dir_all(&bare).unwrap();
        git(&bare, &["init", "--quiet", "--bare"]);
        Crafted { bare }
    }

    fn object(&self, kind: &str, bytes: &[u8]) -> String {
        let mut child = git_command(&self.bare)
            .args(["hash-object", "-w", "--literally", "--stdin", "-t", kind])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        let feeder = std::thread::spawn(move || stdin.write_all(&bytes));
        let output = child.wait_with_output().unwrap();
        feeder.join().unwrap().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }

    fn blob(&self, bytes: impl AsRef<[u8]>) -> String {
        self.object("blob", bytes.as_ref())
    }

    /// A tree with exactly these entries, in git's order (folders sort as `name/`), duplicates
    /// and all.
    fn tree(&self, mut entries: Vec<Entry>) -> String {
        let key = |(mode, name, _): &Entry| {
            let mut key = name.clone();
            if *mode == "40000" {
                key.push(b'/');
            }
            key
        };
        entries.sort_by_key(key);
        let mut bytes = Vec::new();
        for (mode, name, id) in entries {
            bytes.extend_from_slice(mode.as_bytes());
            bytes.push(b' ');
            bytes.extend_from_slice(&name);
            bytes.push(0);
            bytes.extend_from_slice(&hex(&id));
        }
        self.object("tree", &bytes)
    }

    /// Commits `tree` as `main`.
    fn commit(&self, tree: &str) {
        let commit = git(&self.bare, &["commit-tree", tree, "-m", "crafted"]);
        git(&self.bare, &["update-ref", "refs/heads/main", &commit]);
        git(&self.bare, &["symbolic-ref", "HEAD", "refs/heads/main"]);
    }

    fn file_url(&self) -> String {
        format!("file://{}", self.bare.display())
    }
}

fn hex(id: &str) -> Vec<u8> {
    (0..id.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&id[i..i + 2], 16).unwrap())
        .collect()
}

fn file(name: &str, id: &str) -> Entry {
    ("100644", name.as_bytes().to_vec(), id.to_owned())
}

fn dir(name: &str, id: &str) -> Entry {
    ("40000", name.as_bytes().to_vec(), id.to_owned())
}

fn link(name: &str, id: &str) -> Entry {
    ("120000", name.as_bytes().to_vec(), id.to_owned())
}

/// A tree holding `skills/<name>/` = `skill`.
fn in_skills(repo: &Crafted, name: &str, skill: &str) -> String {
    let skills = repo.tree(vec![dir(name, skill)]);
    repo.tree(vec![dir("skills", &skills)])
}

/// One context, its canary, a daemon serving the crafted repos, and an `add` of each.
struct Attack {
    context: TestContext,
    canary: Canary,
    daemon: GitDaemon,
    base: PathBuf,
}

impl Attack {
    fn new() -> Attack {
        let context = TestContext::new();
        let canary = Canary::plant(&context);
        let base = context.temp.path().join("repos");
        let daemon = GitDaemon::start(&base);
        Attack {
            context,
            canary,
            daemon,
            base,
        }
    }

    fn repo(&self, name: &str) -> Crafted {
        Crafted::new(&self.base, name)
    }

    /// `skills add URL -s '*' -y` over `git://` and `file://`; both outputs.
    fn add_both(&self, name: &str, repo: &Crafted) -> [Output; 2] {
        [self.daemon.url(name), repo.file_url()].map(|url| {
            let before = Before::of(&self.context.project);
            let output = run(self.context.command().args([
                "add",
                &url,
                "-s",
                "*",
                "-a",
                "claude-code",
                "-y",
            ]));
            if output.code != 0 {
                before.assert_unchanged();
            }
            self.canary.assert_untouched();
            output
        })
    }
}

/// The absolute path of `target` as tree entries under twenty `..`: `../../…/<target>`.
fn climbing(repo: &Crafted, target: &Path, leaf: Entry) -> Entry {
    let mut names: Vec<String> = vec!["..".into(); 20];
    names.extend(target.components().filter_map(|c| match c {
        std::path::Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
        _ => None,
    }));
    let mut entry = leaf;
    for name in names.iter().rev() {
        let tree = repo.tree(vec![entry]);
        entry = dir(name, &tree);
    }
    entry
}

#[test]
fn dot_dot_entries_cannot_climb_out() {
    let attack = Attack::new();
    let repo = attack.repo("climb");
    let payload = repo.blob("echo pwned\n");
    let leaf = file(".bashrc", &payload);
    let climb = climbing(&repo, &attack.canary.root, leaf);
    let skill = repo.tree(vec![file("SKILL.md", &repo.blob(skill_md("climb"))), climb]);
    repo.commit(&in_skills(&repo, "climb", &skill));
    for output in attack.add_both("climb", &repo) {
        assert_ne!(output.code, 0, "{}", output.stderr);
        says(&output.stderr, &["climb", "`..`"]);
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    }
}

#[test]
fn names_that_are_paths_are_refused() {
    let attack = Attack::new();
    let hostile: &[&[u8]] = &[
        b"..",
        b".",
        b"a/../../../x",
        b"/etc/x",
        b"..\\..\\x",
        b"x\0y",
        b"",
        b"CON",
        b"trailing.",
        b"esc\x1b[2Jape",
    ];
    for (i, name) in hostile.iter().enumerate() {
        let repo_name = format!("name{i}");
        let repo = attack.repo(&repo_name);
        let blob = repo.blob("pwned\n");
        let entry = ("100644", name.to_vec(), blob);
        let skill = repo.tree(vec![file("SKILL.md", &repo.blob(skill_md("named"))), entry]);
        repo.commit(&in_skills(&repo, "named", &skill));
        for output in attack.add_both(&repo_name, &repo) {
            assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
            // Either the tree is unreadable as a whole or the skill is refused, never written.
            assert!(
                !attack.context.project.join(".claude/skills/named").exists(),
                "{:?} was installed: {}",
                String::from_utf8_lossy(name),
                output.stderr
            );
            assert!(!output.stderr.contains('\x1b'), "{}", output.stderr);
        }
    }
    assert!(!attack.context.temp.path().join("x").exists());
}

#[test]
fn git_files_and_folders_in_any_spelling_are_left_out() {
    let attack = Attack::new();
    let repo = attack.repo("dotgit");
    // A `.git` file pointing at a crafted git dir whose config runs a command (core.fsmonitor).
    let pointer = repo.blob("gitdir: ./evil-git\n");
    let config = repo.blob("[core]\n\tfsmonitor = touch ../../../outside/PWNED\n");
    let evil_git = repo.tree(vec![file("config", &config)]);
    let skill = repo.tree(vec![
        file("SKILL.md", &repo.blob(skill_md("dotgit"))),
        file(".git", &pointer),
        dir("evil-git", &evil_git),
        dir(".GIT", &evil_git),
        dir("git~1", &evil_git),
        dir(".git\u{200c}", &evil_git),
    ]);
    repo.commit(&in_skills(&repo, "dotgit", &skill));
    for output in attack.add_both("dotgit", &repo) {
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
        let installed = attack.context.project.join(".claude/skills/dotgit");
        for name in [".git", ".GIT", "git~1", ".git\u{200c}"] {
            assert!(
                !installed.join(name).exists(),
                "{name} installed: {}",
                output.stderr
            );
        }
    }
    // git run in the installed skill finds no repository there, so no hook or fsmonitor of the
    // source's runs.
    let installed = attack.context.project.join(".claude/skills/dotgit");
    if installed.exists() {
        let _ = git_command(&installed).args(["status"]).output();
    }
    assert!(!attack.context.temp.path().join("outside/PWNED").exists());
    // And lint names a `.git` file in a skill folder.
    let local = attack.context.temp.path().join("local/dotgit");
    crate::common::write(&local.join("SKILL.md"), skill_md("dotgit"));
    crate::common::write(&local.join(".git"), "gitdir: ./evil-git\n");
    let output = run(attack.context.command().arg("lint").arg(&local));
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&format!("{}{}", output.stdout, output.stderr), &[".git"]);
}

#[test]
fn a_link_and_a_folder_of_one_name_cannot_write_through_the_link() {
    let attack = Attack::new();
    let repo = attack.repo("twin");
    // `out` is a symlink to the canary and, in the same tree, a folder with a `.bashrc`: a
    // checkout that writes the link first and then the folder's file writes through the link.
    let target = repo.blob(attack.canary.root.to_string_lossy().as_bytes());
    let inner = repo.tree(vec![file(".bashrc", &repo.blob("echo pwned\n"))]);
    let relative = repo.blob(b"../../../../outside");
    let skill = repo.tree(vec![
        file("SKILL.md", &repo.blob(skill_md("twin"))),
        link("out", &target),
        dir("out", &inner),
        link("up", &relative),
    ]);
    repo.commit(&in_skills(&repo, "twin", &skill));
    for output in attack.add_both("twin", &repo) {
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
    }
}

#[test]
fn shared_subtrees_are_walked_once() {
    let attack = Attack::new();
    let repo = attack.repo("bomb");
    // Thirty levels of a tree holding itself twice: 2^30 paths, 31 objects.
    let mut tree = repo.tree(vec![file("f", &repo.blob("x"))]);
    for _ in 0..30 {
        tree = repo.tree(vec![dir("a", &tree), dir("b", &tree)]);
    }
    let skill = repo.tree(vec![
        file("SKILL.md", &repo.blob(skill_md("bomb"))),
        dir("nest", &tree),
    ]);
    let skills = repo.tree(vec![dir("bomb", &skill), dir("deep", &tree)]);
    repo.commit(&repo.tree(vec![dir("skills", &skills)]));
    let started = Instant::now();
    for output in attack.add_both("bomb", &repo) {
        assert_ne!(output.code, 0, "{}", output.stderr);
        says(&output.stderr, &["bomb"]);
    }
    let list = run(attack
        .context
        .command()
        .args(["add", "--list"])
        .arg(repo.file_url()));
    assert!(!list.stderr.contains("panicked"), "{}", list.stderr);
    // Bounded, not exponential: seconds, where 2^30 paths would take hours.
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_huge_blob_is_refused_from_its_header() {
    let attack = Attack::new();
    let repo = attack.repo("huge");
    // 256 MiB of zeros: a small pack, a big file.
    let mut child = git_command(&repo.bare)
        .args(["hash-object", "-w", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..256 {
            stdin.write_all(&chunk).unwrap();
        }
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let big = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    let skill = repo.tree(vec![
        file("SKILL.md", &repo.blob(skill_md("huge"))),
        file("zeros.bin", &big),
    ]);
    repo.commit(&in_skills(&repo, "huge", &skill));
    for output in attack.add_both("huge", &repo) {
        assert_ne!(output.code, 0, "{}", output.stderr);
        says(&output.stderr, &["zeros.bin", "over the limit"]);
    }
}

#[test]
fn two_skills_for_one_folder_are_refused_before_writing() {
    let attack = Attack::new();
    let repo = attack.repo("clash");
    let upper = repo.tree(vec![file("SKILL.md", &repo.blob(skill_md("PDF")))]);
    let lower = repo.tree(vec![file("SKILL.md", &repo.blob(skill_md("pdf")))]);
    let skills = repo.tree(vec![dir("PDF", &upper), dir("pdf", &lower)]);
    repo.commit(&repo.tree(vec![dir("skills", &skills)]));
    for output in attack.add_both("clash", &repo) {
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
        says(
            &output.stderr,
            &["the name `pdf` is installed in the folder `pdf`"],
        );
        // One folder, one lock entry, and the folder holds what that entry says.
        let skills = attack.context.project.join(".claude/skills");
        let count = std::fs::read_dir(&skills).unwrap().count();
        assert_eq!(count, 1, "{}", output.stderr);
        let lock = crate::add::lock(&attack.context);
        assert_eq!(lock["skills"].as_object().unwrap().len(), 1, "{lock}");
        // The lock names the test's own daemon on loopback: trusted, as a mirror would be.
        let trusted = format!("127.0.0.1:{}", attack.daemon.port);
        let check = run(attack
            .context
            .command()
            .arg("check")
            .env("SKILLS_TRUSTED_HOSTS", trusted));
        assert_eq!(check.code, 0, "{}", check.stderr);
    }
}
