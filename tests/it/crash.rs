//! Crash test: `add`, `install --frozen`, `update` and `remove` killed with SIGKILL at random
//! moments. After each kill every skill folder is wholly old or wholly new (never a mix, never
//! a half-written file); the next run finishes or rolls back what the crash left, removes the
//! staging and backup folders and the journal, and leaves every folder matching the lock.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::Digest as _;

use crate::add::Remote;
use crate::common::{TestContext, write};
use crate::gitfixture::copy_tree;

/// Skills in the source: enough files that a run takes a while to write.
const SKILLS: usize = 16;
/// Runs per command (four commands).
const RUNS: usize = 30;

/// A folder's files: relative path → `sha256:<hex>`, as the lock's `files` spells them.
type Files = BTreeMap<String, String>;

fn files_of(dir: &Path) -> Files {
    let mut out = Files::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let digest = sha2::Sha256::digest(std::fs::read(&path).unwrap());
                out.insert(rel, format!("sha256:{}", hex::encode(digest)));
            }
        }
    }
    out
}

/// Each locked skill's files.
fn locked(lock: &Value) -> BTreeMap<String, Files> {
    lock["skills"]
        .as_object()
        .map(|skills| {
            skills
                .iter()
                .map(|(name, entry)| {
                    let files = entry["files"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                        .collect();
                    (name.clone(), files)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn read_lock(project: &Path) -> Option<Value> {
    let text = std::fs::read(project.join("skills-lock.json")).ok()?;
    Some(serde_json::from_slice(&text).expect("the lock is always whole JSON"))
}

/// The skill folders in the agent dir (not this tool's own dot-folders).
fn folders(project: &Path) -> BTreeMap<String, Files> {
    let dir = project.join(".claude/skills");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                files_of(&e.path()),
            )
        })
        .collect()
}

/// This tool's leftovers: staging and backup folders, journals.
fn leftovers(project: &Path, cache: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(project.join(".claude/skills")) {
        found.extend(entries.map(|e| e.unwrap().path()).filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".skills-")
        }));
    }
    let mut stack = vec![cache.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "journal") {
                found.push(path);
            }
        }
    }
    found
}

/// A small deterministic generator (xorshift): a failing run can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// One command under test: the project it starts from, what it runs, and the two states every
/// folder may be in after a kill.
struct Case {
    name: &'static str,
    start: PathBuf,
    args: Vec<&'static str>,
    old: BTreeMap<String, Files>,
    new: BTreeMap<String, Files>,
}

#[test]
fn killed_at_random_moments_nothing_is_mixed_and_the_next_run_cleans_up() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let tools = context.temp.path().join("tools");
    for i in 0..SKILLS {
        let dir = tools.join(format!("skills/s{i:02}"));
        write(&dir.join("SKILL.md"), skill_md(i, "one"));
        for f in 0..6 {
            write(
                &dir.join(format!("references/r{f}.md")),
                format!("v1 {i} {f}\n").repeat(2000),
            );
        }
    }
    let upstream = remote.upstream("acme/tools", &tools);
    let base = &remote.daemon.base_url;
    let skills = |dir: &Path, args: &[&str]| {
        let output = context
            .std_command()
            .current_dir(dir)
            .args(args)
            .env("SKILLS_GITHUB_URL", base)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let add = [
        "add",
        "acme/tools",
        "-s",
        "*",
        "-a",
        "claude-code",
        "--copy",
        "-y",
    ];
    // v1 installed: the start of `update`, `remove`, and (lock only) `install --frozen`.
    let at_v1 = context.temp.path().join("at-v1");
    std::fs::create_dir_all(&at_v1).unwrap();
    skills(&at_v1, &add);
    let v1 = locked(&read_lock(&at_v1).unwrap());
    let lock_only = context.temp.path().join("lock-only");
    write(
        &lock_only.join("skills-lock.json"),
        std::fs::read(at_v1.join("skills-lock.json")).unwrap(),
    );
    let empty = context.temp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    // v2 upstream: every file of every skill changes, and two skills go.
    upstream.commit("v2", |work| {
        for i in 0..SKILLS {
            let dir = work.join(format!("skills/s{i:02}"));
            std::fs::write(dir.join("SKILL.md"), skill_md(i, "two")).unwrap();
            for f in 0..6 {
                let text = format!("v2 {i} {f}\n").repeat(2100);
                std::fs::write(dir.join(format!("references/r{f}.md")), text).unwrap();
            }
        }
    });
    let at_v2 = context.temp.path().join("at-v2");
    copy_tree(&at_v1, &at_v2);
    skills(&at_v2, &["update", "-y"]);
    let v2 = locked(&read_lock(&at_v2).unwrap());
    assert_ne!(v1, v2);

    let none = BTreeMap::new();
    let cases = [
        Case {
            name: "add",
            start: empty.clone(),
            args: add.to_vec(),
            old: none.clone(),
            new: v2.clone(),
        },
        Case {
            name: "install --frozen",
            start: lock_only,
            args: vec!["install", "--frozen"],
            old: none.clone(),
            new: v1.clone(),
        },
        Case {
            name: "update",
            start: at_v1.clone(),
            args: vec!["update", "-y"],
            old: v1.clone(),
            new: v2.clone(),
        },
        Case {
            name: "remove",
            start: at_v1,
            args: vec!["remove", "--all"],
            old: v1,
            new: none,
        },
    ];
    let mut rng = Rng(0x5eed_cafe_f00d_u64);
    let mut killed = 0;
    for case in &cases {
        // How long one whole run takes here: kills land anywhere in it, a few after it.
        let probe = context
            .temp
            .path()
            .join(format!("probe-{}", case.name.replace(' ', "-")));
        copy_tree(&case.start, &probe);
        let started = Instant::now();
        skills(&probe, &case.args);
        let whole = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        for run in 0..RUNS {
            let project = context
                .temp
                .path()
                .join(format!("run-{}-{run}", case.name.replace(' ', "-")));
            copy_tree(&case.start, &project);
            let cache = context
                .temp
                .path()
                .join(format!("cache-{}-{run}", case.name.replace(' ', "-")));
            let delay = Duration::from_micros(rng.below(whole + whole / 10));
            let mut child = context
                .std_command()
                .current_dir(&project)
                .args(&case.args)
                .env("SKILLS_GITHUB_URL", base)
                .env("SKILLS_CACHE_DIR", &cache)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            if child.try_wait().unwrap().is_none() {
                killed += 1;
            }
            let _ = child.kill();
            let _ = child.wait();
            let what = format!(
                "{} run {run}, killed after {delay:?} of {whole} µs",
                case.name
            );
            // Wholly old or wholly new, folder by folder.
            for (name, files) in folders(&project) {
                assert!(
                    case.old.get(&name) == Some(&files) || case.new.get(&name) == Some(&files),
                    "{what}: `{name}` is neither the old nor the new skill"
                );
            }
            // The lock is whole JSON, and names only old or new entries.
            if let Some(lock) = read_lock(&project) {
                for (name, files) in locked(&lock) {
                    assert!(
                        case.old.get(&name) == Some(&files) || case.new.get(&name) == Some(&files),
                        "{what}: the lock's `{name}` is neither old nor new"
                    );
                }
            }
            // The next run finishes or rolls back, and cleans up.
            let output = context
                .std_command()
                .current_dir(&project)
                .args(&case.args)
                .env("SKILLS_GITHUB_URL", base)
                .env("SKILLS_CACHE_DIR", &cache)
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "{what}: the next run failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let lock = read_lock(&project).map(|l| locked(&l)).unwrap_or_default();
            assert_eq!(
                folders(&project),
                lock,
                "{what}: folders differ from the lock"
            );
            assert_eq!(
                lock, case.new,
                "{what}: the next run did not reach the new state"
            );
            let left = leftovers(&project, &cache);
            assert!(left.is_empty(), "{what}: left behind {left:?}");
        }
    }
    // Most runs must really have been cut short, or the test proves little.
    assert!(
        killed >= RUNS * cases.len() / 2,
        "only {killed} runs were killed mid-way"
    );
}

fn skill_md(i: usize, version: &str) -> String {
    format!(
        "---\nname: s{i:02}\ndescription: Skill {i}, {version}. Use when asked for {i}.\n---\n# s{i:02} {version}\n"
    )
}

#[test]
fn lock_files_of_a_killed_fetch_do_not_fail_the_next_run() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let tools = context.temp.path().join("tools");
    write(&tools.join("skills/s00/SKILL.md"), skill_md(0, "one"));
    let upstream = remote.upstream("acme/tools", &tools);
    let add = ["add", "acme/tools", "-s", "*", "-a", "claude-code", "-y"];
    let skills = |args: &[&str]| {
        context
            .std_command()
            .args(args)
            .env("SKILLS_GITHUB_URL", &remote.daemon.base_url)
            .output()
            .unwrap()
    };
    assert!(skills(&add).status.success());
    // What git leaves when killed mid-write, in every cached repository; and one repository
    // killed while it was being made (a `config.lock` and no `config`).
    let git = context.temp.path().join("cache/git");
    for repo in std::fs::read_dir(&git).unwrap() {
        let repo = repo.unwrap().path();
        if repo.is_dir() {
            write(&repo.join("config.lock"), "");
            write(&repo.join("shallow.lock"), "");
            write(&repo.join("refs/heads/main.lock"), "");
            let half = repo.with_file_name(format!(
                "{}-half",
                repo.file_name().unwrap().to_string_lossy()
            ));
            write(&half.join("config.lock"), "");
        }
    }
    upstream.commit("v2", |work| {
        std::fs::write(work.join("skills/s00/SKILL.md"), skill_md(0, "two")).unwrap();
    });
    let output = skills(&["update", "-y"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
