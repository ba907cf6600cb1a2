//! Where sources come from and how the lock names them, as `npx skills` does: GitHub URLs
//! recorded as `owner/repo`, GitHub Enterprise through `GH_HOST`, and ssh through
//! `GIT_SSH_COMMAND` — over `git daemon`, a loopback HTTPS server and a stand-in for ssh.

use crate::add::{fixture, lock};
use crate::common::{Output, TestContext, run};
use crate::snapshot_output;

fn ok(output: &Output) {
    assert_eq!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
}

#[test]
fn github_urls_are_locked_as_owner_repo() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    // A tree URL on the GitHub host (here the mirror that stands in for github.com).
    let url = format!(
        "{}/acme/flat/tree/main/skills/csv-tools",
        remote.daemon.base_url
    );
    let output = crate::add::add(&context, Some(&remote), &[&url, "-a", "claude-code", "-y"]);
    ok(&output);
    let entry = &lock(&context)["skills"]["csv-tools"];
    assert_eq!(entry["source"], "acme/flat", "as `npx skills` writes it");
    assert_eq!(entry["sourceType"], "github");
    assert_eq!(entry["ref"], "main");
    assert_eq!(entry["skillPath"], "skills/csv-tools/SKILL.md");
    // The entry is followed like any `owner/repo` one.
    let output = run(context
        .command()
        .args(["check", "--exit-code"])
        .env("SKILLS_GITHUB_URL", &remote.daemon.base_url));
    ok(&output);
}

#[test]
fn gh_host_names_a_github_enterprise_host() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let with_host = |args: &[&str]| {
        run(context
            .command()
            .args(args)
            .env("GH_HOST", "ghe.example.test")
            .env("SKILLS_GITHUB_URL", &remote.daemon.base_url))
    };
    // `owner/repo` is a repository of the Enterprise host, recorded by its clone URL with
    // `sourceType: git`, as the reference records it.
    ok(&with_host(&[
        "add",
        "acme/flat",
        "-s",
        "csv-tools",
        "-a",
        "claude-code",
        "-y",
    ]));
    let entry = &lock(&context)["skills"]["csv-tools"];
    assert_eq!(entry["source"], "https://ghe.example.test/acme/flat.git");
    assert_eq!(entry["sourceUrl"], "https://ghe.example.test/acme/flat.git");
    assert_eq!(entry["sourceType"], "git");
    // A page URL of that host is a repository too, not a website with a skills index.
    ok(&with_host(&[
        "add",
        "https://ghe.example.test/acme/flat/tree/main/skills/pdf-forms",
        "-a",
        "claude-code",
        "-y",
    ]));
    assert_eq!(lock(&context)["skills"]["pdf-forms"]["ref"], "main");
    ok(&with_host(&["check", "--exit-code"]));
    // Without a mirror the repository is fetched from the host itself, over HTTPS.
    let host = crate::httpserver::https_server(b"not git".to_vec());
    let host = host.trim_start_matches("https://");
    let output = run(context
        .command()
        .args(["add", "acme/flat", "--list"])
        .env("GH_HOST", host)
        .env(
            "SSL_CERT_FILE",
            crate::common::repo().join("tests/fixtures/tls/ca.pem"),
        ));
    assert_eq!(output.code, 2, "{}", output.stderr);
    snapshot_output!(context, output);
}

#[cfg(unix)]
#[test]
fn git_ssh_command_is_honoured() {
    use std::os::unix::fs::PermissionsExt;
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    // An "ssh" that runs the remote command here, as sshd would on the host, and logs its
    // arguments: what git would run with this GIT_SSH_COMMAND.
    let log = context.temp.path().join("ssh.log");
    let ssh = context.temp.path().join("fake ssh");
    std::fs::write(
        &ssh,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nwhile [ $# -gt 2 ]; do shift; done\nexec sh -c \"$2\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command_line = format!("'{}' -o BatchMode=yes", ssh.display());
    let bare = upstream.bare.display().to_string();
    for url in [
        format!("git@git.example.test:{bare}"),
        format!("ssh://git@git.example.test:2222{bare}"),
    ] {
        let output = run(context
            .command()
            .args([
                "add",
                &url,
                "-s",
                "csv-tools",
                "-a",
                "claude-code",
                "-y",
                "--force",
            ])
            .env("GIT_SSH_COMMAND", &command_line));
        ok(&output);
    }
    assert!(
        context
            .project
            .join(".claude/skills/csv-tools/scripts/convert.py")
            .is_file()
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains(&format!(
            "-o BatchMode=yes git@git.example.test git-upload-pack '{bare}'"
        )),
        "{logged}"
    );
    assert!(
        logged.contains(&format!(
            "-o BatchMode=yes -p 2222 git@git.example.test git-upload-pack '{bare}'"
        )),
        "{logged}"
    );
    assert_eq!(
        lock(&context)["skills"]["csv-tools"]["commit"],
        upstream.head()
    );
    // Without GIT_SSH_COMMAND or GIT_SSH, the `ssh` on PATH, as git runs it.
    let bin = context.temp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(&ssh, bin.join("ssh")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = run(context
        .command()
        .args([
            "add",
            &format!("git@plain.example.test:{bare}"),
            "-s",
            "pdf-forms",
            "-a",
            "claude-code",
            "-y",
        ])
        .env_remove("GIT_SSH_COMMAND")
        .env_remove("GIT_SSH")
        .env("PATH", path));
    ok(&output);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged
            .lines()
            .any(|line| line == format!("git@plain.example.test git-upload-pack '{bare}'")),
        "{logged}"
    );
    assert!(
        context
            .project
            .join(".claude/skills/pdf-forms/SKILL.md")
            .is_file()
    );
}

/// A repository over git's smart HTTP protocol (git's own `http-backend` on loopback) is
/// fetched through the HTTP client: ref advertisement, then a pack by POST, shallow. A moved
/// repository's redirect is followed on the first request, and the rest of the fetch goes to
/// where it led, as git does.
#[test]
fn smart_http_remotes_are_fetched_and_their_redirects_followed_once() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    let server = crate::httpserver::GitHttp::start(&remote.root.join("repos"));
    let url = format!("{}/acme/flat.git", server.url);
    let output =
        run(context
            .command()
            .args(["add", &url, "-s", "csv-tools", "-a", "claude-code", "-y"]));
    ok(&output);
    assert!(
        context
            .project
            .join(".claude/skills/csv-tools/scripts/convert.py")
            .is_file()
    );
    let entry = &lock(&context)["skills"]["csv-tools"];
    assert_eq!(entry["commit"], upstream.head());
    assert_eq!(entry["sourceUrl"], url);
    let requests = server.requests();
    assert!(
        requests.contains(&"GET /acme/flat.git/info/refs?service=git-upload-pack".to_owned()),
        "{requests:?}"
    );
    assert!(
        requests.contains(&"POST /acme/flat.git/git-upload-pack".to_owned()),
        "{requests:?}"
    );
    // A new commit upstream: `check` sees it over the same protocol.
    upstream.commit("more", |work| {
        std::fs::write(work.join("skills/csv-tools/NOTES.md"), "notes\n").unwrap();
    });
    let output = run(context.command().args(["check", "--exit-code"]).env(
        "SKILLS_TRUSTED_HOSTS",
        server.url.trim_start_matches("http://"),
    ));
    assert_eq!(output.code, 1, "{}\n{}", output.stdout, output.stderr);

    server.moved("/old/", "/acme/");
    let moved = format!("{}/old/flat.git", server.url);
    let output =
        run(context
            .command()
            .args(["add", &moved, "-s", "pdf-forms", "-a", "claude-code", "-y"]));
    ok(&output);
    let requests = server.requests();
    assert!(
        requests.contains(&"GET /old/flat.git/info/refs?service=git-upload-pack".to_owned()),
        "{requests:?}"
    );
    assert!(
        !requests.iter().any(|r| r.starts_with("POST /old/")),
        "later requests go where the first one ended: {requests:?}"
    );
    assert!(
        context
            .project
            .join(".claude/skills/pdf-forms/SKILL.md")
            .is_file()
    );
    // The lockfile chose that URL: a fresh machine (an empty cache) follows no redirect for it.
    ok(&run(context.command().args(["remove", "csv-tools", "-y"])));
    std::fs::remove_dir_all(context.project.join(".claude/skills/pdf-forms")).unwrap();
    let before = server.requests().len();
    let output = run(context
        .command()
        .args(["install", "--frozen"])
        .env("SKILLS_CACHE_DIR", context.temp.path().join("fresh-cache"))
        .env(
            "SKILLS_TRUSTED_HOSTS",
            server.url.trim_start_matches("http://"),
        ));
    assert_ne!(output.code, 0, "{}\n{}", output.stdout, output.stderr);
    assert!(output.stderr.contains("302"), "{}", output.stderr);
    let after = server.requests();
    assert!(
        !after[before..].is_empty() && after[before..].iter().all(|r| r.contains("/old/")),
        "the redirect was not followed: {after:?}"
    );
}

/// An HTTPS remote that redirects to plain HTTP is refused, as libgit2 refuses it: the plain
/// HTTP server (a working git host) never gets a request, and nothing is installed.
#[test]
fn a_redirect_from_https_to_plain_http_is_refused() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let plain = crate::httpserver::GitHttp::start(&remote.root.join("repos"));
    let to = plain.url.clone();
    let (https, _) = crate::httpserver::https_handler(move |head| {
        let path = head.split(' ').nth(1).unwrap_or("/");
        format!(
            "HTTP/1.1 302 Found\r\nLocation: {to}{path}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .into_bytes()
    });
    let output = run(context
        .command()
        .args([
            "add",
            &format!("{https}/acme/flat.git"),
            "-s",
            "csv-tools",
            "-a",
            "claude-code",
            "-y",
        ])
        .env(
            "SSL_CERT_FILE",
            crate::common::repo().join("tests/fixtures/tls/ca.pem"),
        ));
    assert_eq!(output.code, 2, "{}\n{}", output.stdout, output.stderr);
    assert!(plain.requests().is_empty(), "{:?}", plain.requests());
    assert!(!context.project.join(".claude/skills/csv-tools").exists());
}

/// Credentials typed into an HTTP(S) remote's URL go with every request of the fetch (the
/// client moves them into a header), not only with the first.
#[test]
fn credentials_in_a_smart_http_url_go_with_every_request() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let server = crate::httpserver::GitHttp::start(&remote.root.join("repos"));
    // `deploy:s3cret` as HTTP basic credentials.
    server.require("Basic ZGVwbG95OnMzY3JldA==");
    let url = server.url.replace("http://", "http://deploy:s3cret@") + "/acme/flat.git";
    let output =
        run(context
            .command()
            .args(["add", &url, "-s", "csv-tools", "-a", "claude-code", "-y"]));
    ok(&output);
    let requests = server.requests();
    assert!(
        requests.contains(&"POST /acme/flat.git/git-upload-pack".to_owned()),
        "{requests:?}"
    );
    assert!(!output.stderr.contains("s3cret") && !output.stdout.contains("s3cret"));
    // Without them: refused, and said so.
    let bare = format!("{}/acme/flat.git", server.url);
    let output =
        run(context
            .command()
            .args(["add", &bare, "-s", "pdf-forms", "-a", "claude-code", "-y"]));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(output.stderr.contains("credentials"), "{}", output.stderr);
}

/// `add` by each of `forms` in turn, each with `-s skill`, over the GitLab mirror.
fn add_forms(
    context: &TestContext,
    remote: &crate::add::Remote,
    forms: &[(&str, &str)],
) -> Vec<String> {
    let mut sources = Vec::new();
    for (form, skill) in forms {
        let output = run(context
            .command()
            .args(["add", form, "-s", skill, "-a", "claude-code", "-y"])
            .env("SKILLS_GITLAB_URL", &remote.daemon.base_url));
        ok(&output);
        assert!(
            !output.stderr.contains("not from"),
            "{form}: {}",
            output.stderr
        );
        sources.push(
            lock(context)["skills"][skill]["source"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    sources
}

#[test]
fn every_form_of_a_gitlab_repository_is_one_source() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    remote.upstream("acme/team/deep", &fixture("flat"));
    let forms = [
        ("gitlab:acme/flat", "csv-tools"),
        ("https://gitlab.com/acme/flat", "csv-tools"),
        ("https://gitlab.com/acme/flat.git", "csv-tools"),
        ("gitlab.com/acme/flat", "csv-tools"),
        (
            "https://gitlab.com/acme/flat/-/tree/main/skills/pdf-forms",
            "pdf-forms",
        ),
        ("gitlab:acme/flat#main", "release-notes"),
    ];
    let sources = add_forms(&context, &remote, &forms);
    assert!(
        sources
            .iter()
            .all(|s| s == "https://gitlab.com/acme/flat.git"),
        "the clone URL, as the reference records it: {sources:?}"
    );
    // Subgroups too.
    let deep = [
        ("gitlab:acme/team/deep", "csv-tools"),
        (
            "https://gitlab.com/acme/team/deep/-/blob/main/skills/csv-tools/SKILL.md",
            "csv-tools",
        ),
    ];
    let other = TestContext::new();
    let sources = add_forms(&other, &remote, &deep);
    assert!(
        sources
            .iter()
            .all(|s| s == "https://gitlab.com/acme/team/deep.git"),
        "{sources:?}"
    );
    // `check` and `update` treat the entries as one source: one ref advertisement.
    let before = remote.daemon.upload_pack_requests_for("acme/flat");
    for command in [&["check", "--exit-code"][..], &["update"][..]] {
        let output = run(context
            .command()
            .args(command)
            .env("SKILLS_GITLAB_URL", &remote.daemon.base_url));
        ok(&output);
    }
    assert_eq!(
        remote.daemon.upload_pack_requests_for("acme/flat"),
        before + 2,
        "{}",
        remote.daemon.log()
    );
}

#[test]
fn every_form_of_a_github_repository_is_one_source() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let base = &remote.daemon.base_url;
    let forms = [
        "acme/flat".to_owned(),
        "github:acme/flat".to_owned(),
        "https://github.com/acme/flat".to_owned(),
        "https://github.com/acme/flat.git".to_owned(),
        "github.com/acme/flat".to_owned(),
        "https://github.com/acme/flat/tree/main/skills/csv-tools".to_owned(),
        "https://github.com/acme/flat/blob/main/skills/csv-tools/SKILL.md".to_owned(),
        format!("{base}/acme/flat/tree/main/skills/csv-tools"),
    ];
    for form in &forms {
        let output = crate::add::add(
            &context,
            Some(&remote),
            &[form, "-s", "csv-tools", "-a", "claude-code", "-y"],
        );
        ok(&output);
        assert!(
            !output.stderr.contains("not from"),
            "{form}: {}",
            output.stderr
        );
        assert_eq!(
            lock(&context)["skills"]["csv-tools"]["source"],
            "acme/flat",
            "{form}"
        );
    }
}

#[test]
fn gitlab_entries_of_older_forms_are_the_same_source() {
    let context = TestContext::new();
    let remote = crate::add::Remote::new(&context);
    remote.upstream("acme/flat", &fixture("flat"));
    let gitlab = |args: &[&str]| {
        run(context
            .command()
            .args(args)
            .env("SKILLS_GITLAB_URL", &remote.daemon.base_url))
    };
    ok(&gitlab(&[
        "add",
        "gitlab:acme/flat",
        "-s",
        "csv-tools",
        "-a",
        "claude-code",
        "-y",
    ]));
    // A lock written before: `gitlab:` as typed; the reference's host-less `acme/flat`.
    let path = context.project.join("skills-lock.json");
    let mut written = lock(&context);
    for (source, keep_url) in [("gitlab:acme/flat", true), ("acme/flat", false)] {
        let entry = &mut written["skills"]["csv-tools"];
        entry["source"] = source.into();
        if !keep_url {
            entry.as_object_mut().unwrap().remove("sourceUrl");
        }
        std::fs::write(&path, serde_json::to_string_pretty(&written).unwrap()).unwrap();
        // Restored from the GitLab repository (not GitHub's `acme/flat`).
        let fresh = context.teammate();
        let output = run(fresh
            .command()
            .args(["install", "--frozen"])
            .env("SKILLS_GITLAB_URL", &remote.daemon.base_url));
        ok(&output);
        // Added again by another form: the same source, no conflict.
        let output = gitlab(&[
            "add",
            "https://gitlab.com/acme/flat/-/tree/main/skills/csv-tools",
            "-a",
            "claude-code",
            "-y",
        ]);
        ok(&output);
        assert!(
            !output.stderr.contains("not from"),
            "{source}: {}",
            output.stderr
        );
        written = lock(&context);
    }
}
