//! A real HTTP server on loopback for web-source and `find` tests (`tiny_http`): fixed routes
//! (bodies, redirects, slow answers), every request logged. Stopped on drop.

// Not every test module uses every helper.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone)]
pub enum Route {
    /// Status, content type, body.
    Body(u16, &'static str, Vec<u8>),
    /// A 302 to this location.
    Redirect(String),
    /// Waits this long, then answers 200 with the body.
    Slow(Duration, Vec<u8>),
}

pub struct HttpServer {
    pub url: String,
    routes: Arc<Mutex<HashMap<String, Route>>>,
    log: Arc<Mutex<Vec<String>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HttpServer {
    pub fn start() -> HttpServer {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind loopback"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let routes: Arc<Mutex<HashMap<String, Route>>> = Arc::default();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let thread = {
            let (server, routes, log) =
                (Arc::clone(&server), Arc::clone(&routes), Arc::clone(&log));
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    let (routes, log) = (Arc::clone(&routes), Arc::clone(&log));
                    // One thread per request: a slow route does not hold up the others.
                    std::thread::spawn(move || answer(request, &routes, &log));
                }
            })
        };
        HttpServer {
            url: format!("http://127.0.0.1:{port}"),
            routes,
            log,
            server,
            thread: Some(thread),
        }
    }

    /// `127.0.0.1:PORT`: what `SKILLS_TRUSTED_HOSTS` names to let a project's lockfile reach
    /// this server (the test's own, as an intranet mirror is the user's).
    pub fn authority(&self) -> String {
        self.url.trim_start_matches("http://").to_owned()
    }

    /// Serves `route` at `path` (without the query string).
    pub fn route(&self, path: &str, route: Route) {
        self.routes.lock().unwrap().insert(path.to_owned(), route);
    }

    /// Serves `body` with status 200.
    pub fn file(&self, path: &str, body: impl Into<Vec<u8>>) {
        self.route(
            path,
            Route::Body(200, "application/octet-stream", body.into()),
        );
    }

    /// Every request so far: `GET /path?query`, with ` [authorization]` when it carried one.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    pub fn clear_log(&self) {
        self.log.lock().unwrap().clear();
    }
}

fn answer(
    request: tiny_http::Request,
    routes: &Mutex<HashMap<String, Route>>,
    log: &Mutex<Vec<String>>,
) {
    let url = request.url().to_owned();
    let authorized = request
        .headers()
        .iter()
        .any(|h| h.field.equiv("Authorization"));
    let marker = if authorized { " [authorization]" } else { "" };
    log.lock()
        .unwrap()
        .push(format!("{} {url}{marker}", request.method()));
    let path = url.split('?').next().unwrap_or_default().to_owned();
    let route = routes.lock().unwrap().get(&path).cloned();
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap()
    };
    let response = match route {
        Some(Route::Body(status, content_type, body)) => tiny_http::Response::from_data(body)
            .with_status_code(status)
            .with_header(header("Content-Type", content_type)),
        Some(Route::Redirect(location)) => tiny_http::Response::from_data(Vec::new())
            .with_status_code(302)
            .with_header(header("Location", &location)),
        Some(Route::Slow(delay, body)) => {
            std::thread::sleep(delay);
            tiny_http::Response::from_data(body)
        }
        None => tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404),
    };
    let _ = request.respond(response);
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// An HTTPS server on loopback whose certificate (for `localhost` and `127.0.0.1`) is signed by
/// the test CA in `tests/fixtures/tls/ca.pem`, which no system trusts. Every request gets `body`.
/// Its thread lives until the test process ends.
pub fn https_server(body: Vec<u8>) -> String {
    https_handler(move |_| {
        let mut response = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        response.extend_from_slice(&body);
        response
    })
    .0
}

/// Every request head an [`https_handler`] server received, in order.
pub type Heads = Arc<std::sync::Mutex<Vec<String>>>;

/// An HTTPS server as [`https_server`], answering each request with the bytes `answer` gives
/// for its head (status line and headers included); returns its base URL and the heads it saw.
pub fn https_handler(answer: impl Fn(&str) -> Vec<u8> + Send + Sync + 'static) -> (String, Heads) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use std::io::{Read, Write};

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tls");
    let chain = vec![CertificateDer::from_pem_file(dir.join("server.pem")).unwrap()];
    let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let config = Arc::new(config);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let heads: Heads = Arc::default();
    let seen = Arc::clone(&heads);
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            let (config, seen, answer) =
                (Arc::clone(&config), Arc::clone(&seen), Arc::clone(&answer));
            std::thread::spawn(move || {
                let connection = rustls::ServerConnection::new(config).unwrap();
                let mut tls = rustls::StreamOwned::new(connection, tcp);
                // One request per connection: read its head, answer, close.
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match tls.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        // A client that rejected the certificate hangs up here.
                        _ => return,
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let response = answer(&head);
                seen.lock().unwrap().push(head);
                let _ = tls.write_all(&response);
                tls.conn.send_close_notify();
                let _ = tls.flush();
            });
        }
    });
    (format!("https://127.0.0.1:{port}"), heads)
}

/// Git's smart HTTP protocol on loopback: `git http-backend` (git's own CGI program) serving
/// every repository under `root`, behind a `tiny_http` server. Paths under a prefix given to
/// [`GitHttp::moved`] are redirected (302) to another prefix. Every request is logged as
/// `METHOD /path?query`. Stopped on drop.
pub struct GitHttp {
    pub url: String,
    moved: Arc<Mutex<Vec<(String, String)>>>,
    /// The `Authorization` header every request must carry (else 401), when set.
    required: Arc<Mutex<Option<String>>>,
    log: Arc<Mutex<Vec<String>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl GitHttp {
    pub fn start(root: &std::path::Path) -> GitHttp {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind loopback"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let moved: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let required: Arc<Mutex<Option<String>>> = Arc::default();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let root = root.to_path_buf();
        let thread = {
            let (server, moved, required, log) = (
                Arc::clone(&server),
                Arc::clone(&moved),
                Arc::clone(&required),
                Arc::clone(&log),
            );
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    let (moved, required, log, root) = (
                        Arc::clone(&moved),
                        Arc::clone(&required),
                        Arc::clone(&log),
                        root.clone(),
                    );
                    std::thread::spawn(move || {
                        git_answer(request, &root, &moved, &required, &log);
                    });
                }
            })
        };
        GitHttp {
            url: format!("http://127.0.0.1:{port}"),
            moved,
            required,
            log,
            server,
            thread: Some(thread),
        }
    }

    /// Redirects every path that starts with `from` to the same path under `to`.
    pub fn moved(&self, from: &str, to: &str) {
        self.moved
            .lock()
            .unwrap()
            .push((from.to_owned(), to.to_owned()));
    }

    /// Answers 401 to every request without this `Authorization` header.
    pub fn require(&self, authorization: &str) {
        *self.required.lock().unwrap() = Some(authorization.to_owned());
    }

    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for GitHttp {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn git_answer(
    mut request: tiny_http::Request,
    root: &std::path::Path,
    moved: &Mutex<Vec<(String, String)>>,
    required: &Mutex<Option<String>>,
    log: &Mutex<Vec<String>>,
) {
    use std::io::Write;
    let url = request.url().to_owned();
    let method = request.method().to_string();
    log.lock().unwrap().push(format!("{method} {url}"));
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap()
    };
    if let Some(required) = required.lock().unwrap().clone() {
        let given = request
            .headers()
            .iter()
            .any(|h| h.field.equiv("Authorization") && h.value.as_str() == required);
        if !given {
            let response = tiny_http::Response::from_data(Vec::new())
                .with_status_code(401)
                .with_header(header("WWW-Authenticate", "Basic realm=\"git\""));
            let _ = request.respond(response);
            return;
        }
    }
    let redirect = moved.lock().unwrap().iter().find_map(|(from, to)| {
        url.strip_prefix(from.as_str())
            .map(|rest| format!("{to}{rest}"))
    });
    if let Some(location) = redirect {
        let response = tiny_http::Response::from_data(Vec::new())
            .with_status_code(302)
            .with_header(header("Location", &location));
        let _ = request.respond(response);
        return;
    }
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let content_type = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Content-Type"))
        .map(|h| h.value.as_str().to_owned())
        .unwrap_or_default();
    let mut body = Vec::new();
    let _ = request.as_reader().read_to_end(&mut body);
    let mut child = std::process::Command::new("git")
        .arg("http-backend")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", root)
        .env("REQUEST_METHOD", &method)
        .env("PATH_INFO", path)
        .env("QUERY_STRING", query)
        .env("CONTENT_TYPE", content_type)
        .env("CONTENT_LENGTH", body.len().to_string())
        .env("REMOTE_ADDR", "127.0.0.1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run git http-backend");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&body);
    });
    let output = child.wait_with_output().expect("git http-backend output");
    let _ = writer.join();
    // CGI: headers, a blank line, the body.
    let out = output.stdout;
    let split = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| (at, 4))
        .or_else(|| out.windows(2).position(|w| w == b"\n\n").map(|at| (at, 2)));
    let Some((at, gap)) = split else {
        let _ = request.respond(tiny_http::Response::from_data(out).with_status_code(500));
        return;
    };
    let head = String::from_utf8_lossy(&out[..at]).into_owned();
    let mut response = tiny_http::Response::from_data(out[at + gap..].to_vec());
    for line in head.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("Status") {
            let code = value
                .split(' ')
                .next()
                .and_then(|c| c.parse().ok())
                .unwrap_or(500);
            response = response.with_status_code(code);
        } else {
            response = response.with_header(header(name, value));
        }
    }
    let _ = request.respond(response);
}
