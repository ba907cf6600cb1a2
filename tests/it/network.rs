//! Hostile servers: a git remote that trickles, an HTTP body that never ends, a server that
//! redirects a token to another host, credentials typed into URLs. Each run must end within
//! its deadline with a clear error, and no secret may reach another host or the output.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use crate::common::{TestContext, run};

/// A TCP server on loopback that reads a request, sends `first`, then one byte (`drip`) a
/// second, forever. Returns its port.
fn trickler(first: &'static [u8], drip: u8) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                if stream.write_all(first).is_err() {
                    return;
                }
                while stream.write_all(&[drip]).is_ok() {
                    std::thread::sleep(Duration::from_millis(500));
                }
            });
        }
    });
    port
}

#[test]
fn a_trickling_git_remote_is_given_up() {
    let context = TestContext::new();
    // A pkt-line that announces 255 bytes, then sends them one at a time: no callback of
    // libgit2 runs while it waits for them.
    let port = trickler(b"00ff", b'x');
    let start = Instant::now();
    let output = run(context
        .command()
        .args(["add", "acme/tools", "-y"])
        .env("SKILLS_GITHUB_URL", format!("git://127.0.0.1:{port}"))
        .env("SKILLS_HTTP_TIMEOUT", "2"));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(start.elapsed() < Duration::from_secs(30), "it ended");
    insta::assert_snapshot!(output.stderr.replace(&port.to_string(), "[PORT]"));
}

#[test]
fn a_body_that_never_ends_meets_the_deadline() {
    let context = TestContext::new();
    let port = trickler(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: 1000000\r\n\r\nPK",
        b'x',
    );
    let start = Instant::now();
    let output = run(context
        .command()
        .args(["add", &format!("http://127.0.0.1:{port}/skills.zip"), "-y"])
        .env("SKILLS_HTTP_TIMEOUT", "2"));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(start.elapsed() < Duration::from_secs(30), "it ended");
    insta::assert_snapshot!(output.stderr.replace(&port.to_string(), "[PORT]"));
}

/// `x-access-token:s3cret-token` as HTTP basic credentials.
const BASIC: &str = "eC1hY2Nlc3MtdG9rZW46czNjcmV0LXRva2Vu";
const TOKEN: &str = "s3cret-token";

fn ca() -> std::path::PathBuf {
    crate::common::repo().join("tests/fixtures/tls/ca.pem")
}

/// A git-over-HTTPS host that asks for credentials.
fn asks_credentials(_: &str) -> Vec<u8> {
    b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"git\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
}

#[test]
fn a_token_goes_only_to_its_github_host() {
    let context = TestContext::new();
    // The token's own host asks for credentials: it gets the token (the test sees it).
    let (home, heads) = crate::httpserver::https_handler(asks_credentials);
    let host = home.trim_start_matches("https://").to_owned();
    let output = run(context
        .command()
        .args(["add", "acme/tools", "--list"])
        .env("GH_HOST", &host)
        .env("GITHUB_TOKEN", TOKEN)
        .env("SSL_CERT_FILE", ca()));
    assert_eq!(output.code, 2, "{}", output.stderr);
    assert!(
        heads.lock().unwrap().iter().any(|h| h.contains(BASIC)),
        "the control: the host itself gets the token"
    );
    // That host redirects to another one, which asks for credentials: it gets nothing.
    let (elsewhere, stolen) = crate::httpserver::https_handler(asks_credentials);
    let elsewhere = elsewhere.replace("127.0.0.1", "localhost");
    let (home, _) = crate::httpserver::https_handler(move |head| {
        let path = head.split(' ').nth(1).unwrap_or("/");
        format!(
            "HTTP/1.1 302 Found\r\nLocation: {elsewhere}{path}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .into_bytes()
    });
    let host = home.trim_start_matches("https://").to_owned();
    let output = run(context
        .command()
        .args(["add", "acme/tools", "--list"])
        .env("GH_HOST", &host)
        .env("GITHUB_TOKEN", TOKEN)
        .env("SSL_CERT_FILE", ca()));
    assert_eq!(output.code, 2, "{}", output.stderr);
    let stolen = stolen.lock().unwrap();
    assert!(!stolen.is_empty(), "the redirect was followed");
    assert!(
        stolen
            .iter()
            .all(|h| !h.contains(BASIC) && !h.contains(TOKEN)),
        "the other host got the token: {stolen:?}"
    );
    assert!(!output.stderr.contains(TOKEN));
}

#[test]
fn credentials_in_urls_never_reach_the_output() {
    let context = TestContext::new();
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    for url in [
        "file://user:s3cret-token@/nonexistent/repo.git".to_owned(),
        format!("https://s3cret-token@127.0.0.1:{port}/o/r.git"),
        format!("https://user:s3cret-token@127.0.0.1:{port}/o/r.git"),
        format!("http://user:s3cret-token@127.0.0.1:{port}/skills/SKILL.md"),
    ] {
        for args in [&["add", &url, "-y"][..], &["add", &url, "--list", "--json"]] {
            let output = run(context.command().args(args));
            assert_eq!(output.code, 2, "{url}: {}", output.stderr);
            assert!(
                !output.stderr.contains(TOKEN) && !output.stdout.contains(TOKEN),
                "{url}: {}{}",
                output.stdout,
                output.stderr
            );
        }
    }
}
