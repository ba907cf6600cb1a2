//! Web sources over a real loopback HTTP server: well-known indexes (v1 and v0.2), direct
//! downloads (SKILL.md, zip, tar, tar.gz), redirects, timeouts, the lock round trip, every refusal
//! — and `skills find` against a search API stub.

use std::io::Write as _;

use expectrl::Expect as _;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use sha2::Digest as _;

use crate::add::tree;
use crate::common::{Output, TestContext, run};
use crate::httpserver::{HttpServer, Route, https_server};
use crate::{snapshot_output, snapshot_text};

fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when asked for {name}.\n---\n# {name}\n\nSteps.\n"
    )
}

fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

fn skills(context: &TestContext, args: &[&str]) -> Output {
    let mut command = context.command();
    command.args(args).env("SKILLS_HTTP_TIMEOUT", "2");
    run(&mut command)
}

/// `skills ARGS` reading a project lock whose sources are on `server`, which the test trusts
/// (`SKILLS_TRUSTED_HOSTS`): a lockfile may not send `skills` to loopback otherwise.
fn trusting(context: &TestContext, server: &HttpServer, args: &[&str]) -> Output {
    let mut command = context.command();
    command
        .args(args)
        .env("SKILLS_HTTP_TIMEOUT", "2")
        .env("SKILLS_TRUSTED_HOSTS", server.authority());
    run(&mut command)
}

/// `add URL --skill '*' -a claude-code -y`.
fn add_all(context: &TestContext, url: &str) -> Output {
    skills(
        context,
        &["add", url, "--skill", "*", "-a", "claude-code", "-y"],
    )
}

fn lock(context: &TestContext) -> Value {
    serde_json::from_slice(&std::fs::read(context.project.join("skills-lock.json")).unwrap())
        .unwrap()
}

/// A zip of `files` (path, bytes, executable).
pub(crate) fn zip(files: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, bytes, executable) in files {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if *executable { 0o755 } else { 0o644 });
        writer.start_file(*path, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A tar of `files`; a path that `tar` itself refuses (`..`) is written into the header raw.
pub(crate) fn tar(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        let executable = Path::new(path).extension().is_some_and(|e| e == "sh");
        header.set_mode(if executable { 0o755 } else { 0o644 });
        let name = &mut header.as_old_mut().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        header.set_cksum();
        builder.append(&header, *bytes).unwrap();
    }
    builder.into_inner().unwrap()
}

pub(crate) fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The server with everything the tests below ask for.
fn site() -> HttpServer {
    let server = HttpServer::start();
    // v1 index at the root.
    server.file(
        "/.well-known/agent-skills/index.json",
        json!({"skills": [
            {"name": "pdf", "description": "Fill PDF forms.", "files": ["SKILL.md", "scripts/fill.py"]},
            {"name": "notes", "description": "Take notes.", "files": ["SKILL.md"]},
        ]})
        .to_string(),
    );
    server.file("/.well-known/agent-skills/pdf/SKILL.md", skill_md("pdf"));
    server.file(
        "/.well-known/agent-skills/pdf/scripts/fill.py",
        "print('fill')\n",
    );
    server.file(
        "/.well-known/agent-skills/notes/SKILL.md",
        skill_md("notes"),
    );
    // v0.2 index under /v2, with a relative skill-md and an archive.
    let alpha = skill_md("alpha");
    let beta = gzip(&tar(&[
        ("beta/SKILL.md", skill_md("beta").as_bytes()),
        ("beta/run.sh", b"echo hi\n"),
    ]));
    server.file(
        "/v2/.well-known/agent-skills/index.json",
        json!({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": [
            {"name": "alpha", "description": "Alpha.", "type": "skill-md", "url": "alpha/SKILL.md", "digest": digest(alpha.as_bytes())},
            {"name": "beta", "description": "Beta.", "type": "archive", "url": "/files/beta.tar.gz", "digest": digest(&beta)},
        ]})
        .to_string(),
    );
    server.file("/v2/.well-known/agent-skills/alpha/SKILL.md", alpha);
    server.file("/files/beta.tar.gz", beta);
    // Direct downloads.
    server.file("/dl/one/SKILL.md", skill_md("solo"));
    let pack = [
        (
            "pack-main/skills/csv/SKILL.md",
            skill_md("csv").into_bytes(),
            false,
        ),
        (
            "pack-main/skills/csv/scripts/run.sh",
            b"echo run\n".to_vec(),
            true,
        ),
        (
            "pack-main/skills/md/SKILL.md",
            skill_md("md").into_bytes(),
            false,
        ),
        ("__MACOSX/pack-main/._junk", b"junk".to_vec(), false),
    ];
    let borrowed: Vec<(&str, &[u8], bool)> = pack
        .iter()
        .map(|(p, b, x)| (*p, b.as_slice(), *x))
        .collect();
    server.file("/dl/pack.zip", zip(&borrowed));
    let tar_files: Vec<(&str, &[u8])> = pack[..3]
        .iter()
        .map(|(p, b, _)| (*p, b.as_slice()))
        .collect();
    server.file("/dl/pack.tar", tar(&tar_files));
    server.file("/dl/pack.tgz", gzip(&tar(&tar_files)));
    // Redirects.
    server.route("/r1/SKILL.md", Route::Redirect("/r2".into()));
    server.route(
        "/r2",
        Route::Redirect(format!("{}/dl/one/SKILL.md", server.url)),
    );
    server.route("/loop/SKILL.md", Route::Redirect("/loop/SKILL.md".into()));
    server
}

#[test]
fn well_known_v1_index_add_list_lock_and_install_frozen() {
    let context = TestContext::new();
    let server = site();
    let output = skills(&context, &["add", &server.url, "--list"]);
    snapshot_output!(context, output);
    assert_eq!(
        server.requests(),
        ["GET /.well-known/agent-skills/index.json"],
        "listing downloads the index only"
    );
    let output = skills(
        &context,
        &[
            "add",
            &server.url,
            "--skill",
            "pdf",
            "-a",
            "claude-code",
            "-y",
        ],
    );
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        tree(&context.project.join(".claude/skills")),
        [
            "pdf/",
            "pdf/SKILL.md",
            "pdf/scripts/",
            "pdf/scripts/fill.py"
        ]
    );
    assert!(
        !server.requests().iter().any(|r| r.contains("/notes/")),
        "skills not chosen are not downloaded"
    );
    let entry = &lock(&context)["skills"]["pdf"];
    assert_eq!(entry["sourceType"], "well-known");
    assert_eq!(entry["source"], server.url.as_str());
    assert_eq!(
        entry["sourceUrl"],
        format!("{}/.well-known/agent-skills/index.json", server.url)
    );
    assert_eq!(entry["skillPath"], "pdf/SKILL.md");

    let fresh = context.teammate();
    let output = trusting(&fresh, &server, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        tree(&fresh.project.join(".claude")),
        tree(&context.project.join(".claude"))
    );

    // The site changes the skill: `check` sees it, `install --frozen` refuses, `update` applies.
    server.file(
        "/.well-known/agent-skills/pdf/scripts/fill.py",
        "print('fill v2')\n",
    );
    let output = trusting(&context, &server, &["check", "--exit-code"]);
    snapshot_output!(context, output);
    // Where a copy is in place as locked, the site is not asked at all (the disk first)...
    let requests = server.requests().len();
    let output = trusting(&fresh, &server, &["install", "--frozen"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(server.requests().len(), requests, "no request");
    // ...elsewhere the lock can no longer be reproduced from its source.
    let other = context.teammate();
    let before = tree(&other.project);
    let output = trusting(&other, &server, &["install", "--frozen"]);
    assert_eq!(output.code, 1, "{}", output.stderr);
    snapshot_output!(other, output);
    assert_eq!(tree(&other.project), before);
    assert_eq!(trusting(&context, &server, &["update"]).code, 0);
    assert_eq!(
        std::fs::read_to_string(context.project.join(".claude/skills/pdf/scripts/fill.py"))
            .unwrap(),
        "print('fill v2')\n"
    );
}

#[test]
fn tokens_stay_home_and_proxies_are_used() {
    let server = site();
    let context = TestContext::new();
    let mut command = context.command();
    command
        .args(["add", &server.url, "--list"])
        .env("GITHUB_TOKEN", "ghp_secret");
    assert_eq!(run(&mut command).code, 0);
    assert!(
        server
            .requests()
            .iter()
            .all(|r| !r.contains("[authorization]")),
        "a GitHub token is not sent to other hosts: {:?}",
        server.requests()
    );
    // The loopback server stands in for a proxy: it sees the absolute URL of the request.
    let proxy = HttpServer::start();
    let mut command = context.command();
    command
        .args(["add", "http://skills.example.invalid/docs", "--list"])
        .env("HTTP_PROXY", &proxy.url)
        .env("SKILLS_HTTP_TIMEOUT", "2");
    let output = run(&mut command);
    assert_eq!(
        output.code, 2,
        "the proxy has no such page: {}",
        output.stderr
    );
    assert_eq!(
        proxy.requests().first().map(String::as_str),
        Some("GET http://skills.example.invalid/docs/.well-known/agent-skills/index.json"),
        "{:?}",
        proxy.requests()
    );
}

#[test]
fn well_known_v0_2_index_with_digests() {
    let context = TestContext::new();
    let server = site();
    let source = format!("{}/v2", server.url);
    let output = add_all(&context, &source);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        tree(&context.project.join(".claude/skills")),
        [
            "alpha/",
            "alpha/SKILL.md",
            "beta/",
            "beta/SKILL.md",
            "beta/run.sh"
        ]
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(context.project.join(".claude/skills/beta/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "modes survive the archive");
    }
    let locked = lock(&context);
    assert!(
        locked["skills"]["beta"]["digest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    // An unchanged digest is an unchanged skill: `check` reads the index and nothing else.
    server.clear_log();
    let output = trusting(&context, &server, &["check", "--exit-code"]);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert!(
        server.requests().iter().all(|r| r.contains("index.json")),
        "{:?}",
        server.requests()
    );
    let fresh = context.teammate();
    assert_eq!(trusting(&fresh, &server, &["install", "--frozen"]).code, 0);
    assert_eq!(
        tree(&fresh.project.join(".claude")),
        tree(&context.project.join(".claude"))
    );
}

#[test]
fn direct_downloads_and_redirects() {
    let server = site();
    for (path, expected) in [
        ("/dl/one/SKILL.md", vec!["solo/", "solo/SKILL.md"]),
        ("/r1/SKILL.md", vec!["solo/", "solo/SKILL.md"]),
        (
            "/dl/pack.zip",
            vec![
                "csv/",
                "csv/SKILL.md",
                "csv/scripts/",
                "csv/scripts/run.sh",
                "md/",
                "md/SKILL.md",
            ],
        ),
        (
            "/dl/pack.tar",
            vec![
                "csv/",
                "csv/SKILL.md",
                "csv/scripts/",
                "csv/scripts/run.sh",
                "md/",
                "md/SKILL.md",
            ],
        ),
        (
            "/dl/pack.tgz",
            vec![
                "csv/",
                "csv/SKILL.md",
                "csv/scripts/",
                "csv/scripts/run.sh",
                "md/",
                "md/SKILL.md",
            ],
        ),
    ] {
        let context = TestContext::new();
        let url = format!("{}{path}", server.url);
        let output = add_all(&context, &url);
        assert_eq!(output.code, 0, "{path}: {}", output.stderr);
        assert_eq!(
            tree(&context.project.join(".claude/skills")),
            expected,
            "{path}"
        );
        let locked = lock(&context);
        let (name, entry) = locked["skills"].as_object().unwrap().iter().next().unwrap();
        assert_eq!(entry["sourceType"], "well-known", "{path}");
        assert!(
            entry["digest"].as_str().unwrap().starts_with("sha256:"),
            "{path}"
        );
        let fresh = context.teammate();
        let output = trusting(&fresh, &server, &["install", "--frozen"]);
        assert_eq!(output.code, 0, "{path} {name}: {}", output.stderr);
        assert_eq!(
            tree(&fresh.project.join(".claude")),
            tree(&context.project.join(".claude")),
            "{path}"
        );
    }
}

/// A skill of an index that fails to download is skipped with the web error's hint: the index
/// tree keeps the typed error, not its text.
#[test]
fn an_index_skill_over_a_limit_keeps_the_web_hint() {
    let server = site();
    let context = TestContext::new();
    let url = format!("{}/v2", server.url);
    let output = skills(
        &context,
        &[
            "add",
            &url,
            "--skill",
            "beta",
            "-a",
            "claude-code",
            "-y",
            "--max-files",
            "1",
        ],
    );
    assert_eq!(output.code, 2, "{}", output.stderr);
    snapshot_output!(context, output);
    assert!(!context.project.join("skills-lock.json").exists());
}

/// Runs `add URL` expecting exit 2 and nothing written; returns the URL and the whole stderr,
/// for a snapshot.
fn refused(server: &HttpServer, path: &str) -> String {
    let context = TestContext::new();
    let url = if path.contains("://") {
        path.to_owned()
    } else {
        format!("{}{path}", server.url)
    };
    let output = add_all(&context, &url);
    assert_eq!(output.code, 2, "{path}: {}", output.stderr);
    assert_eq!(output.stdout, "", "{path}");
    assert_eq!(
        tree(&context.project),
        Vec::<String>::new(),
        "{path}: nothing written"
    );
    ["$ skills add ", &url, "\n", &output.stderr].concat()
}

#[test]
fn bad_downloads_are_refused_and_nothing_is_written() {
    let server = site();
    // A zip bomb: 30 MiB of zeros in a few kilobytes.
    let zeros = vec![0u8; 30 << 20];
    let bomb = zip(&[
        ("SKILL.md", skill_md("bomb").as_bytes(), false),
        ("zeros.bin", &zeros, false),
    ]);
    assert!(bomb.len() < 100 << 10);
    server.file("/bad/bomb.zip", bomb);
    server.file(
        "/bad/climb.tar",
        tar(&[
            ("SKILL.md", skill_md("climb").as_bytes()),
            ("../escape.txt", b"x"),
        ]),
    );
    let mut link = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Symlink);
    header.set_size(0);
    link.append_link(&mut header, "evil", "/etc/passwd")
        .unwrap();
    server.file("/bad/link.tar", link.into_inner().unwrap());
    server.file("/bad/big/SKILL.md", vec![b'a'; 11 << 20]);
    server.file(
        "/badname/.well-known/agent-skills/index.json",
        json!({"skills": [{"name": "../evil", "files": ["SKILL.md"]}]}).to_string(),
    );
    server.file(
        "/baddigest/.well-known/agent-skills/index.json",
        json!({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json", "skills": [
            {"name": "x", "description": "X.", "type": "skill-md", "url": "/dl/one/SKILL.md", "digest": format!("sha256:{}", "0".repeat(64))}]})
        .to_string(),
    );
    server.route(
        "/slow/SKILL.md",
        Route::Slow(Duration::from_secs(5), skill_md("slow").into_bytes()),
    );

    // Every refusal's whole message, with its hint (the bomb's names the limits to raise).
    let mut said = [
        "/bad/bomb.zip",
        "/bad/climb.tar",
        "/bad/link.tar",
        "/bad/big/SKILL.md",
        "/badname",
        "/baddigest",
    ]
    .map(|path| refused(&server, path))
    .concat();
    // A site with no index at all: its page is downloaded, and it is no skill.
    let plain = HttpServer::start();
    plain.route(
        "/",
        Route::Body(
            200,
            "text/html",
            b"<!doctype html><html><body>Hi</body></html>".to_vec(),
        ),
    );
    said.push_str(&refused(&plain, &plain.url));
    for path in ["/missing/SKILL.md", "/loop/SKILL.md", "/slow/SKILL.md"] {
        said.push_str(&refused(&server, path));
    }
    // A server that answers TLS with plain text.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    said.push_str(&refused(
        &server,
        &format!("https://127.0.0.1:{port}/SKILL.md"),
    ));
    snapshot_text!(TestContext::new(), said);
    // The OS's words for a refused connection vary: only ours are checked.
    let said = refused(&server, "http://127.0.0.1:9/SKILL.md");
    assert!(said.contains("cannot reach"), "{said}");
}

#[test]
fn extra_certificates_come_from_ssl_cert_file() {
    let url = format!(
        "{}/tls/SKILL.md",
        https_server(skill_md("secure").into_bytes())
    );
    // The test CA is in no system store: a TLS error that names the way out, nothing written.
    let context = TestContext::new();
    let output = add_all(&context, &url);
    assert_eq!(output.code, 2, "{}", output.stderr);
    snapshot_output!(context, output);
    assert_eq!(tree(&context.project), Vec::<String>::new());
    // With the CA in SSL_CERT_FILE the same download installs.
    let ca = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls/ca.pem");
    let mut command = context.command();
    command
        .args(["add", &url, "--skill", "*", "-a", "claude-code", "-y"])
        .env("SKILLS_HTTP_TIMEOUT", "2")
        .env("SSL_CERT_FILE", &ca);
    let output = run(&mut command);
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        std::fs::read_to_string(context.project.join(".claude/skills/secure/SKILL.md")).unwrap(),
        skill_md("secure")
    );
    // An SSL_CERT_FILE that is not there is an error of its own, not a silent fallback.
    let context = TestContext::new();
    let mut command = context.command();
    command
        .args(["add", &url, "--skill", "*", "-a", "claude-code", "-y"])
        .env("SSL_CERT_FILE", context.temp.path().join("missing.pem"));
    let output = run(&mut command);
    assert_eq!(output.code, 2, "{}", output.stderr);
    // The OS's words for a missing file vary: only ours are checked.
    assert!(
        output.stderr.contains("cannot read SSL_CERT_FILE"),
        "{}",
        output.stderr
    );
    assert_eq!(tree(&context.project), Vec::<String>::new());
}

pub fn search_api(server: &HttpServer) {
    server.file(
        "/api/search",
        json!({"skills": [
            {"id": "anthropics/skills/pdf", "name": "pdf", "installs": 1234, "source": "anthropics/skills"},
            {"id": "acme/tools/pdf-forms", "name": "pdf-forms", "installs": 7, "source": "acme/tools"},
        ]})
        .to_string(),
    );
    server.route(
        "/broken/api/search",
        Route::Body(200, "text/html", b"<html>maintenance</html>".to_vec()),
    );
    server.route(
        "/down/api/search",
        Route::Body(503, "text/plain", b"down".to_vec()),
    );
}

#[test]
fn find_searches_the_directory_and_reports_errors() {
    let context = TestContext::new();
    let server = HttpServer::start();
    search_api(&server);
    let find = |base: &str, args: &[&str]| {
        let mut command = context.command();
        command.arg("find").args(args).env("SKILLS_API_URL", base);
        run(&mut command)
    };
    let output = find(&server.url, &["pdf", "--owner", "acme", "--limit", "5"]);
    snapshot_output!(context, output);
    assert_eq!(
        server.requests(),
        ["GET /api/search?q=pdf&limit=5&owner=acme"]
    );
    let output = find(&server.url, &["pdf", "forms", "--json"]);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert_eq!(
        document["skills"][1]["install"],
        "skills add acme/tools@pdf-forms"
    );
    assert_eq!(
        server.requests().last().unwrap(),
        "GET /api/search?q=pdf+forms&limit=20"
    );
    for base in [
        format!("{}/broken", server.url),
        format!("{}/down", server.url),
    ] {
        snapshot_output!(context, find(&base, &["pdf"]));
    }
    // The OS's words for a refused connection vary: only ours are checked.
    let output = find("http://127.0.0.1:9", &["pdf"]);
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert_eq!(output.stdout, "");
    assert!(output.stderr.contains("cannot reach"), "{}", output.stderr);
    let output = find(&server.url, &[]);
    assert_eq!(
        output.code, 2,
        "no query and no terminal: {}",
        output.stderr
    );
}

#[test]
fn interactive_add_on_a_terminal() {
    let context = TestContext::new();
    let server = site();
    let mut command = context.std_command();
    command
        .args(["add", &server.url])
        .env("TERM", "xterm")
        .env("COLUMNS", "120");
    let mut session = expectrl::Session::spawn(command).expect("spawn in a pty");
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    session.expect("Skills to install").unwrap();
    // The index order: pdf, notes. Space selects pdf.
    session.send(" ").unwrap();
    session.send("\r").unwrap();
    session.expect("Agents to install for").unwrap();
    session.send("\r").unwrap(); // the preselected defaults
    session.expect("Proceed").unwrap();
    session.send("y").unwrap();
    session.expect("Installed 1 skill").unwrap();
    assert!(
        context
            .project
            .join(".agents/skills/pdf/SKILL.md")
            .is_file()
    );
    assert!(!context.project.join(".agents/skills/notes").exists());

    // Without a terminal: nothing asked, nothing installed, the flags named.
    let other = TestContext::new();
    let output = skills(&other, &["add", &server.url]);
    assert_eq!(output.code, 2);
    snapshot_output!(other, output);
    assert!(!other.project.join(".agents").exists());
}
