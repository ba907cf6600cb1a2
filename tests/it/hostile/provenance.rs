//! Impostor commits: a lock entry whose `commit` (with `computedHash` and `files` to match) was
//! changed to a commit the upstream serves but that is on none of its branches or tags — an
//! unmerged pull request's head (`refs/pull/1/head`), as GitHub advertises it and as any fork's
//! commit is served through its upstream. `install --frozen` must refuse it naming the ref that
//! holds it, and write nothing; a commit on an old part of `main`, or below a tag only, installs.

use serde_json::{Value, json};

use super::{Before, Canary, says, skill_md};
use crate::add::{Remote, add};
use crate::common::{Output, TestContext, run, write};
use crate::gitfixture::Upstream;

/// `acme/tools` with three commits on `main` (`pdf` v1, v2, v3), a pull request's head off
/// `main` that only `refs/pull/1/head` names, and a tag `side` on two commits no branch has.
struct Upstreams {
    remote: Remote,
    upstream: Upstream,
    /// Commits of `main`, oldest first.
    main: Vec<String>,
    /// The pull request's head.
    pull: String,
    /// The commit below the tag `side` (on no branch).
    below_tag: String,
}

fn pdf(version: &str) -> impl FnOnce(&std::path::Path) {
    let version = version.to_owned();
    move |work: &std::path::Path| {
        write(
            &work.join("skills/pdf/SKILL.md"),
            format!("{}\nVersion {version}.\n", skill_md("pdf")),
        );
    }
}

fn upstreams(context: &TestContext) -> Upstreams {
    let remote = Remote::new(context);
    let tools = context.temp.path().join("tools");
    write(&tools.join("skills/pdf/SKILL.md"), skill_md("pdf"));
    let upstream = remote.upstream("acme/tools", &tools);
    let mut main = vec![upstream.head()];
    main.push(upstream.commit("v2", pdf("2")));
    // The pull request: a branch of the attacker's fork, pushed only as the upstream's
    // `refs/pull/1/head` (as GitHub does for every pull request).
    upstream.git(&["checkout", "--quiet", "-b", "evil"]);
    let evil = |work: &std::path::Path| {
        write(
            &work.join("skills/pdf/SKILL.md"),
            // Innocent-looking on purpose: only the commit's provenance may stop it here.
            format!("{}\nVersion 2.1 (from a fork).\n", skill_md("pdf")),
        );
    };
    evil(&upstream.work);
    upstream.git(&["commit", "--quiet", "-am", "evil"]);
    let pull = upstream.head();
    upstream.push("evil:refs/pull/1/head");
    // Two commits below a tag, on no branch.
    upstream.git(&["checkout", "--quiet", "-b", "side", &main[1]]);
    pdf("side-1")(&upstream.work);
    upstream.git(&["commit", "--quiet", "-am", "side 1"]);
    let below_tag = upstream.head();
    pdf("side-2")(&upstream.work);
    upstream.git(&["commit", "--quiet", "-am", "side 2"]);
    upstream.tag("side");
    upstream.git(&["checkout", "--quiet", "main"]);
    main.push(upstream.commit("v3", pdf("3")));
    Upstreams {
        remote,
        upstream,
        main,
        pull,
        below_tag,
    }
}

/// `computedHash` and `files` of the skill `pdf` at `commit` of the upstream, as a lock records
/// them: the folder is added from a local copy, whose hashes are the same.
fn hashes(upstreams: &Upstreams, commit: &str) -> (Value, Value) {
    let scratch = TestContext::new();
    let folder = scratch.temp.path().join("copy");
    let tree = crate::gitfixture::git(
        &upstreams.upstream.work,
        &["show", &format!("{commit}:skills/pdf/SKILL.md")],
    );
    write(&folder.join("pdf/SKILL.md"), format!("{tree}\n"));
    let output = run(scratch.command().args([
        "add",
        folder.to_str().unwrap(),
        "-a",
        "claude-code",
        "-y",
        "--no-verify",
    ]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lock = crate::add::lock(&scratch);
    let entry = &lock["skills"]["pdf"];
    (entry["computedHash"].clone(), entry["files"].clone())
}

/// The lock `add acme/tools` writes, with the entry of `pdf` moved to `commit` (its hashes to
/// match) and to `git_ref`.
fn forged(
    context: &TestContext,
    upstreams: &Upstreams,
    commit: &str,
    git_ref: Option<&str>,
) -> Value {
    let output = add(
        context,
        Some(&upstreams.remote),
        &["acme/tools", "-s", "pdf", "-a", "claude-code", "-y"],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    let mut lock = crate::add::lock(context);
    let (computed, files) = hashes(upstreams, commit);
    let entry = &mut lock["skills"]["pdf"];
    entry["commit"] = json!(commit);
    entry["computedHash"] = computed;
    entry["files"] = files;
    match git_ref {
        Some(git_ref) => entry["ref"] = json!(git_ref),
        None => {
            entry.as_object_mut().unwrap().remove("ref");
        }
    }
    lock
}

/// `install --frozen` of `lock` in a fresh project with its own canary and cache.
fn install(upstreams: &Upstreams, lock: &Value, extra: &[&str]) -> (TestContext, Output) {
    let teammate = TestContext::new();
    write(
        &teammate.project.join("skills-lock.json"),
        serde_json::to_string_pretty(lock).unwrap(),
    );
    let output = run(teammate
        .command()
        .args(["install", "--frozen"])
        .args(extra)
        .env("SKILLS_GITHUB_URL", &upstreams.remote.daemon.base_url));
    (teammate, output)
}

#[test]
fn a_pull_requests_commit_is_refused_naming_the_ref_that_holds_it() {
    let context = TestContext::new();
    let upstreams = upstreams(&context);
    for git_ref in [None, Some("main")] {
        let lock = forged(&context, &upstreams, &upstreams.pull, git_ref);
        let teammate = TestContext::new();
        let canary = Canary::plant(&teammate);
        write(
            &teammate.project.join("skills-lock.json"),
            serde_json::to_string_pretty(&lock).unwrap(),
        );
        let before = Before::of(&teammate.project);
        let frozen = |extra: &[&str]| {
            run(teammate
                .command()
                .args(["install", "--frozen"])
                .args(extra)
                .env("SKILLS_GITHUB_URL", &upstreams.remote.daemon.base_url))
        };
        let output = frozen(&[]);
        assert_ne!(output.code, 0, "{}", output.stderr);
        let short = &upstreams.pull[..12];
        says(
            &output.stderr,
            &[short, "on no branch or tag", "refs/pull/1/head", "hint:"],
        );
        assert!(!output.stderr.contains("panicked"), "{}", output.stderr);
        before.assert_unchanged();
        canary.assert_untouched();
        // The commit is in the cache now, unproven: offline, it is not used either.
        let offline = frozen(&["--offline"]);
        assert_ne!(offline.code, 0, "{}", offline.stderr);
        says(&offline.stderr, &["no run has found commit", short]);
        before.assert_unchanged();
        canary.assert_untouched();
    }
}

#[test]
fn add_of_a_pull_requests_commit_by_id_is_refused() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let upstreams = upstreams(&context);
    let before = Before::of(&context.project);
    let source = format!("acme/tools#{}", upstreams.pull);
    let output = add(
        &context,
        Some(&upstreams.remote),
        &[&source, "-a", "claude-code", "-y"],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &["on no branch or tag", "refs/pull/1/head"]);
    before.assert_unchanged();
    canary.assert_untouched();
}

#[test]
fn a_commit_on_an_old_part_of_main_installs_and_is_remembered() {
    let context = TestContext::new();
    let upstreams = upstreams(&context);
    let oldest = upstreams.main[0].clone();
    for git_ref in [None, Some("main")] {
        let lock = forged(&context, &upstreams, &oldest, git_ref);
        let (teammate, output) = install(&upstreams, &lock, &[]);
        assert_eq!(output.code, 0, "{}", output.stderr);
        let installed = teammate.project.join(".claude/skills/pdf/SKILL.md");
        assert_eq!(std::fs::read_to_string(installed).unwrap(), skill_md("pdf"));
        // The proof is kept in the cache: the same commit needs no proof (nor network) again.
        let repos = teammate.temp.path().join("cache/git");
        let verified = std::fs::read_dir(&repos).unwrap().flatten().any(|repo| {
            repo.path()
                .join("refs/skills/verified")
                .join(&oldest)
                .exists()
        });
        assert!(verified, "no record of the proof under {}", repos.display());
        // Offline, from the git cache alone (the store of restored skills put aside), the
        // recorded proof is what lets the commit be used.
        let cache = teammate.temp.path().join("cache");
        std::fs::remove_dir_all(cache.join("store")).unwrap();
        let offline = TestContext::new();
        write(
            &offline.project.join("skills-lock.json"),
            serde_json::to_string_pretty(&lock).unwrap(),
        );
        let output = run(offline
            .command()
            .args(["install", "--frozen", "--offline"])
            .env("SKILLS_CACHE_DIR", &cache)
            .env("SKILLS_GITHUB_URL", &upstreams.remote.daemon.base_url));
        assert_eq!(output.code, 0, "{}", output.stderr);
        assert!(
            offline
                .project
                .join(".claude/skills/pdf/SKILL.md")
                .is_file()
        );
    }
}

#[test]
fn a_commit_below_a_tag_installs() {
    let context = TestContext::new();
    let upstreams = upstreams(&context);
    let below = upstreams.below_tag.clone();
    let lock = forged(&context, &upstreams, &below, Some("side"));
    let (teammate, output) = install(&upstreams, &lock, &[]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let installed = teammate.project.join(".claude/skills/pdf/SKILL.md");
    let text = std::fs::read_to_string(installed).unwrap();
    assert!(text.contains("Version side-1."), "{text}");
    // The tag's own commit is a tip: cheap, and fine too.
    let tagged = upstreams.upstream.git(&["rev-parse", "side^{commit}"]);
    let lock = forged(&context, &upstreams, &tagged, Some("side"));
    let (_teammate, output) = install(&upstreams, &lock, &[]);
    assert_eq!(output.code, 0, "{}", output.stderr);
}
