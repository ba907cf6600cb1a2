//! Addresses a lockfile chose: a cloned project's `skills-lock.json` whose `source`/`sourceUrl`
//! point at loopback (a git daemon, an HTTP server standing in for the machine's own services
//! or a cloud's metadata service). `install --frozen`, `check` and `update` refuse before any
//! request — the servers log none — naming the address and the variable that would allow it;
//! by IP literal, by name (`localhost`) and by a name only the system's resolver turns into an
//! address (`127.1`). The user's own choices stay allowed: a URL typed to `add`, and a host
//! listed in `SKILLS_TRUSTED_HOSTS` — whose redirects are judged again.

use serde_json::Value;

use super::{Before, Canary, says, skill_md};
use crate::add::Remote;
use crate::common::{Output, TestContext, run, write};
use crate::httpserver::{HttpServer, Route};

/// `skills ARGS` in `context`, with short timeouts and the extra environment `env`.
fn skills(context: &TestContext, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = context.command();
    command.args(args).env("SKILLS_HTTP_TIMEOUT", "5");
    for (key, value) in env {
        command.env(key, value);
    }
    run(&mut command)
}

/// A project holding `lock` (and nothing else), its canary, and what it was before.
fn project(lock: &Value) -> (TestContext, Canary, Before) {
    let teammate = TestContext::new();
    let canary = Canary::plant(&teammate);
    write(
        &teammate.project.join("skills-lock.json"),
        serde_json::to_string_pretty(lock).unwrap(),
    );
    let before = Before::of(&teammate.project);
    (teammate, canary, before)
}

/// `lock` with every entry's `source` and `sourceUrl` replaced by `source`.
fn pointed_at(lock: &Value, source: &str) -> Value {
    let mut lock = lock.clone();
    for entry in lock["skills"].as_object_mut().unwrap().values_mut() {
        entry["source"] = source.into();
        if entry.get("sourceUrl").is_some() {
            entry["sourceUrl"] = source.into();
        }
    }
    lock
}

#[test]
fn a_lock_cannot_send_git_to_loopback() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let tools = context.temp.path().join("tools");
    write(&tools.join("skills/pdf/SKILL.md"), skill_md("pdf"));
    remote.upstream("acme/tools", &tools);
    let url = remote.daemon.url("acme/tools");
    let port = remote.daemon.port.to_string();
    // The user typed the address: allowed.
    let output = skills(&context, &["add", &url, "-a", "claude-code", "-y"], &[]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lock = crate::add::lock(&context);
    assert_eq!(lock["skills"]["pdf"]["sourceUrl"], url.as_str());
    let served = remote.daemon.upload_pack_requests();

    // A clone of the project: its lock chose the address.
    let (teammate, canary, before) = project(&lock);
    let output = skills(&teammate, &["install", "--frozen"], &[]);
    assert_ne!(output.code, 0, "{}", output.stderr);
    let host = format!("127.0.0.1:{port}");
    says(
        &output.stderr,
        &[&host, "loopback", "SKILLS_TRUSTED_HOSTS", "hint:"],
    );
    before.assert_unchanged();
    canary.assert_untouched();
    // `check` and `update` in the project that has it installed: refused the same.
    let installed = Before::of(&context.project);
    for command in [&["check"][..], &["update"][..]] {
        let output = skills(&context, command, &[]);
        says(&output.stderr, &[&host, "SKILLS_TRUSTED_HOSTS"]);
        installed.assert_unchanged();
    }
    // By name, and by a name only the system's resolver makes an address of.
    for alias in ["localhost", "127.1"] {
        let lock = pointed_at(&lock, &url.replace("127.0.0.1", alias));
        let (teammate, canary, before) = project(&lock);
        let output = skills(&teammate, &["install", "--frozen"], &[]);
        assert_ne!(output.code, 0, "{alias}: {}", output.stderr);
        says(&output.stderr, &[alias, "loopback", "SKILLS_TRUSTED_HOSTS"]);
        before.assert_unchanged();
        canary.assert_untouched();
    }
    // Private ranges may be allowed; loopback is not among them.
    let output = skills(
        &teammate,
        &["install", "--frozen"],
        &[("SKILLS_ALLOW_PRIVATE_ADDRESSES", "1")],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    before.assert_unchanged();
    assert_eq!(
        remote.daemon.upload_pack_requests(),
        served,
        "the daemon saw a request:\n{}",
        remote.daemon.log()
    );

    // The user trusts the host: it works, and only then is the daemon asked.
    for trusted in [host.as_str(), "127.0.0.1"] {
        let (teammate, canary, _) = project(&lock);
        let output = skills(
            &teammate,
            &["install", "--frozen"],
            &[(
                "SKILLS_TRUSTED_HOSTS",
                &format!("mirror.example, {trusted}"),
            )],
        );
        assert_eq!(output.code, 0, "{}", output.stderr);
        assert!(
            teammate
                .project
                .join(".claude/skills/pdf/SKILL.md")
                .is_file()
        );
        canary.assert_untouched();
    }
    assert!(remote.daemon.upload_pack_requests() > served);
    // Trusted on another port is not trusted here.
    let (teammate, _, before) = project(&lock);
    let output = skills(
        &teammate,
        &["install", "--frozen"],
        &[("SKILLS_TRUSTED_HOSTS", "127.0.0.1:1")],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    before.assert_unchanged();
    // A trusted-hosts value that is no host list is an error that says so.
    let output = skills(
        &teammate,
        &["install", "--frozen"],
        &[("SKILLS_TRUSTED_HOSTS", "http://127.0.0.1/")],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &["SKILLS_TRUSTED_HOSTS", "host:port"]);
    before.assert_unchanged();
}

/// A well-known site on loopback with one skill, `pdf`.
fn site() -> HttpServer {
    let server = HttpServer::start();
    server.file(
        "/.well-known/agent-skills/index.json",
        serde_json::json!({"skills": [
            {"name": "pdf", "description": "Fill PDF forms.", "files": ["SKILL.md"]},
        ]})
        .to_string(),
    );
    server.file("/.well-known/agent-skills/pdf/SKILL.md", skill_md("pdf"));
    server.file("/one/SKILL.md", skill_md("pdf"));
    server
}

#[test]
fn a_lock_cannot_send_web_requests_to_loopback() {
    let context = TestContext::new();
    let server = site();
    let output = skills(
        &context,
        &["add", &server.url, "-s", "pdf", "-a", "claude-code", "-y"],
        &[],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lock = crate::add::lock(&context);
    server.clear_log();
    let host = server.authority();

    let (teammate, canary, before) = project(&lock);
    let output = skills(&teammate, &["install", "--frozen"], &[]);
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(
        &output.stderr,
        &[&host, "loopback", "SKILLS_TRUSTED_HOSTS", "hint:"],
    );
    before.assert_unchanged();
    canary.assert_untouched();
    let installed = Before::of(&context.project);
    for command in [&["check"][..], &["update"][..]] {
        let output = skills(&context, command, &[]);
        says(&output.stderr, &[&host, "SKILLS_TRUSTED_HOSTS"]);
        installed.assert_unchanged();
    }
    let by_name = pointed_at(&lock, &server.url.replace("127.0.0.1", "localhost"));
    let (named, canary, before) = project(&by_name);
    let output = skills(&named, &["install", "--frozen"], &[]);
    assert_ne!(output.code, 0, "{}", output.stderr);
    says(&output.stderr, &["localhost", "loopback"]);
    before.assert_unchanged();
    canary.assert_untouched();
    assert_eq!(
        server.requests(),
        Vec::<String>::new(),
        "the server saw a request"
    );

    let output = skills(
        &teammate,
        &["install", "--frozen"],
        &[("SKILLS_TRUSTED_HOSTS", &host)],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        teammate
            .project
            .join(".claude/skills/pdf/SKILL.md")
            .is_file()
    );
    assert!(!server.requests().is_empty());
}

#[test]
fn a_trusted_hosts_redirect_is_judged_again() {
    let context = TestContext::new();
    let inner = site();
    let outer = HttpServer::start();
    outer.route(
        "/one/SKILL.md",
        Route::Redirect(format!("{}/one/SKILL.md", inner.url)),
    );
    let source = format!("{}/one/SKILL.md", outer.url);
    // Typed by the user, the redirect inside loopback is followed.
    let output = skills(&context, &["add", &source, "-a", "claude-code", "-y"], &[]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lock = crate::add::lock(&context);
    inner.clear_log();
    let trusted = outer.authority();
    let (teammate, canary, before) = project(&lock);
    let output = skills(
        &teammate,
        &["install", "--frozen"],
        &[("SKILLS_TRUSTED_HOSTS", &trusted)],
    );
    assert_ne!(output.code, 0, "{}", output.stderr);
    let target = inner.authority();
    says(
        &output.stderr,
        &[&target, "loopback", "SKILLS_TRUSTED_HOSTS"],
    );
    before.assert_unchanged();
    canary.assert_untouched();
    assert_eq!(
        inner.requests(),
        Vec::<String>::new(),
        "the redirect was followed"
    );
}

/// A lock that points a skill at a cloud's metadata service (the credentials of the CI runner
/// it is restored on): refused before any connection, by address and by name, for git and web
/// sources alike, whatever opt-in is set for private ranges.
#[test]
fn a_lock_cannot_reach_a_cloud_metadata_service() {
    let hash = "0".repeat(64);
    for (source_type, source) in [
        ("well-known", "http://169.254.169.254/latest/meta-data/iam"),
        ("well-known", "http://[fd00:ec2::254]/latest"),
        (
            "git",
            "https://metadata.google.internal/computeMetadata.git",
        ),
        ("git", "git://100.100.100.200/latest.git"),
    ] {
        let lock = serde_json::json!({"version": 1, "skills": {"creds": {
            "source": source, "sourceType": source_type, "sourceUrl": source,
            "computedHash": hash,
        }}});
        let (teammate, canary, before) = project(&lock);
        for args in [&["install", "--frozen"][..], &["check"], &["update"]] {
            let started = std::time::Instant::now();
            let output = skills(&teammate, args, &[("SKILLS_ALLOW_PRIVATE_ADDRESSES", "1")]);
            assert_ne!(output.code, 0, "{source} {args:?}: {}", output.stderr);
            says(&output.stderr, &["metadata", "hint:"]);
            assert!(
                started.elapsed() < std::time::Duration::from_secs(4),
                "{source} {args:?}: refused before any connection, not after a timeout"
            );
            before.assert_unchanged();
            canary.assert_untouched();
        }
    }
}
