//! Git's smart HTTP protocol over this crate's HTTP client, for `http://` and `https://`
//! remotes: libgit2 runs the protocol, this transport carries its requests. So the binary has one
//! TLS stack (rustls, with the system's certificates and `SSL_CERT_FILE`) and one set of proxy
//! settings (`HTTPS_PROXY`, `NO_PROXY`, …) for git and for web sources alike, instead of
//! libgit2's OpenSSL beside them.
//!
//! Invariants: only fetches are served (upload-pack, no push); a GitHub token is offered only to
//! the GitHub host (and port) the fetch was started for, only once that host asked for
//! credentials (401), and a redirect to another host drops it (reqwest removes `Authorization`
//! there); the first request of a connection follows redirects as libgit2's own transport does
//! (at most 10, none from a public address to an internal one, none from HTTPS to plain HTTP),
//! later requests go where it ended, and a remote a lockfile chose follows none; each read waits
//! at most `SKILLS_HTTP_TIMEOUT` (the watchdog of [`super::watchdog`] bounds the whole); no error
//! message quotes what a server sent.

use std::cell::{Cell, RefCell};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex, OnceLock};

use git2::transport::{Service, SmartSubtransport, SmartSubtransportStream, Transport};
use reqwest::blocking::{Client, Response};
use reqwest::header::{ACCEPT, CONTENT_TYPE};

use super::http::HttpError;

/// What libgit2's built-in transport calls itself to servers (GitHub serves the smart protocol
/// to `git/` agents).
const USER_AGENT: &str = concat!("git/2.0 (skills ", env!("CARGO_PKG_VERSION"), ")");

thread_local! {
    /// Whether the connections this thread opens follow a redirect of their first request (none
    /// until the caller says so).
    static FOLLOW: Cell<bool> = const { Cell::new(false) };
    /// Why this thread's last request failed, for the caller's error (libgit2 keeps only a
    /// message).
    static FAILURE: RefCell<Option<HttpError>> = const { RefCell::new(None) };
}

/// Sets whether the connections this thread opens from now on follow redirects (a remote a
/// lockfile chose: no), and forgets an earlier failure.
pub fn on_this_thread(follow_redirects: bool) {
    FOLLOW.set(follow_redirects);
    FAILURE.set(None);
}

/// Why the last request of this thread failed, if it was an HTTP failure.
pub fn take_failure() -> Option<HttpError> {
    FAILURE.take()
}

/// The two clients: one that follows redirects, one that follows none; built once.
struct Clients {
    follow: Client,
    stay: Client,
    timeout: u64,
}

fn clients() -> Result<&'static Clients, git2::Error> {
    static CLIENTS: OnceLock<Result<Clients, String>> = OnceLock::new();
    let built = CLIENTS.get_or_init(|| {
        let build = |policy: reqwest::redirect::Policy| {
            super::http::client_builder()?
                .user_agent(USER_AGENT)
                .redirect(policy)
                .build()
                .map_err(HttpError::Setup)
        };
        let follow = build(no_downgrade(super::http::redirect_policy(None)));
        let stay = build(reqwest::redirect::Policy::none());
        match (follow, stay) {
            (Ok(follow), Ok(stay)) => Ok(Clients {
                follow,
                stay,
                timeout: super::http::timeout_secs(),
            }),
            (Err(err), _) | (_, Err(err)) => Err(crate::hint::one_line(&err)),
        }
    });
    built
        .as_ref()
        .map_err(|message| git2::Error::from_str(message))
}

/// `policy`, and no redirect from HTTPS to plain HTTP (libgit2 refuses those too).
fn no_downgrade(policy: reqwest::redirect::Policy) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        let downgrade = attempt.url().scheme() == "http"
            && attempt
                .previous()
                .iter()
                .any(|previous| previous.scheme() == "https");
        if downgrade {
            return attempt.error("a redirect from HTTPS to plain HTTP");
        }
        policy.redirect(attempt)
    })
}

/// Registers this transport for `http://` and `https://` remotes.
///
/// # Safety
/// libgit2's transport registry is global and unsynchronized: call this once, before any thread
/// creates a remote.
#[expect(
    unsafe_code,
    reason = "libgit2's global transport registry; called once, before any thread uses libgit2"
)]
pub unsafe fn register() {
    for scheme in ["http", "https"] {
        // SAFETY: the caller guarantees that no other thread uses libgit2 yet.
        let _ = unsafe {
            git2::transport::register(scheme, |remote| {
                let origin = remote.url().unwrap_or_default().to_owned();
                let follow = FOLLOW.get();
                Transport::smart(
                    remote,
                    true,
                    Subtransport {
                        origin,
                        follow,
                        connection: Arc::default(),
                    },
                )
            })
        };
    }
}

/// One connection to a remote: its URL, and what its first request learnt.
struct Subtransport {
    /// The remote's URL, as the fetch was started for it.
    origin: String,
    follow: bool,
    connection: Arc<Mutex<Connection>>,
}

#[derive(Default)]
struct Connection {
    /// Where the first request ended after redirects: the base of the later ones.
    base: Option<String>,
    /// Whether the host asked for credentials and was given the token.
    authorized: bool,
}

impl SmartSubtransport for Subtransport {
    fn action(
        &self,
        url: &str,
        action: Service,
    ) -> Result<Box<dyn SmartSubtransportStream>, git2::Error> {
        let base = lock(&self.connection)
            .base
            .clone()
            .unwrap_or_else(|| url.trim_end_matches('/').to_owned());
        let (post, url) = match action {
            Service::UploadPackLs => (false, format!("{base}/info/refs?service=git-upload-pack")),
            Service::UploadPack => (true, format!("{base}/git-upload-pack")),
            Service::ReceivePackLs | Service::ReceivePack => {
                return Err(git2::Error::from_str("skills only fetches"));
            }
        };
        Ok(Box::new(Stream {
            post,
            url,
            origin: self.origin.clone(),
            // Only the first request of a connection follows redirects, as libgit2's does.
            follow: self.follow && !post,
            body: Vec::new(),
            response: None,
            connection: Arc::clone(&self.connection),
        }))
    }

    fn close(&self) -> Result<(), git2::Error> {
        Ok(())
    }
}

fn lock(connection: &Mutex<Connection>) -> std::sync::MutexGuard<'_, Connection> {
    connection
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One request: what libgit2 writes is its body, sent at the first read.
struct Stream {
    post: bool,
    url: String,
    origin: String,
    follow: bool,
    body: Vec<u8>,
    response: Option<Response>,
    connection: Arc<Mutex<Connection>>,
}

impl Stream {
    fn send(&mut self) -> Result<Response, Failure> {
        let clients = clients().map_err(|err| Failure::Other(err.message().to_owned()))?;
        let client = if self.follow {
            &clients.follow
        } else {
            &clients.stay
        };
        let token = super::http::github_token().filter(|_| {
            super::http::is_github_url(&self.origin) && same_authority(&self.url, &self.origin)
        });
        let authorized = lock(&self.connection).authorized;
        let request = |with_token: bool| {
            let mut request = if self.post {
                client
                    .post(&self.url)
                    .header(CONTENT_TYPE, "application/x-git-upload-pack-request")
                    .header(ACCEPT, "application/x-git-upload-pack-result")
                    .body(self.body.clone())
            } else {
                client.get(&self.url).header(ACCEPT, "*/*")
            };
            if let (true, Some(token)) = (with_token, &token) {
                request = request.basic_auth("x-access-token", Some(token));
            }
            request
                .send()
                .map_err(|err| super::http::classify(&self.url, err, clients.timeout))
        };
        let mut response = request(authorized && token.is_some())?;
        if response.status() == reqwest::StatusCode::UNAUTHORIZED && !authorized && token.is_some()
        {
            response = request(true)?;
            lock(&self.connection).authorized = true;
        }
        let status = response.status();
        if !status.is_success() {
            return Err(Failure::Http(HttpError::Status {
                url: super::redact(&self.url),
                status: status.as_u16(),
            }));
        }
        let expected = if self.post {
            "application/x-git-upload-pack-result"
        } else {
            "application/x-git-upload-pack-advertisement"
        };
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        // `application/x-git-…; charset=…` is the same type, as git reads it.
        let media_type = content_type.split(';').next().unwrap_or_default().trim();
        if !media_type.eq_ignore_ascii_case(expected) {
            return Err(Failure::Other(format!(
                "`{}` is not a git repository: it does not answer git's smart HTTP protocol",
                super::redact(&self.url)
            )));
        }
        // The client moves credentials typed into the URL into a header: the URL it reports
        // lacks them even when no redirect happened.
        let typed = reqwest::Url::parse(&self.url).ok();
        let asked = typed.clone().map(|mut url| {
            let _ = url.set_username("");
            let _ = url.set_password(None);
            url
        });
        if !self.post && asked.as_ref() != Some(response.url()) {
            // Later requests of this connection go where the first one ended, with the
            // credentials typed into the URL when that is the same host.
            let mut base = response.url().clone();
            base.set_query(None);
            let path = base.path().trim_end_matches("/info/refs").to_owned();
            base.set_path(&path);
            if same_authority(base.as_str(), &self.url)
                && let Some(typed) = &typed
            {
                let _ = base.set_username(typed.username());
                let _ = base.set_password(typed.password());
            }
            lock(&self.connection).base = Some(base.as_str().trim_end_matches('/').to_owned());
        }
        Ok(response)
    }
}

/// Why a request failed.
enum Failure {
    Http(HttpError),
    Other(String),
}

impl Failure {
    /// The error libgit2 gets (its message only: the failure itself is kept for the caller).
    fn into_io(self) -> std::io::Error {
        let message = match self {
            Failure::Http(err) => {
                let message = crate::hint::one_line(&err);
                FAILURE.set(Some(err));
                message
            }
            Failure::Other(message) => message,
        };
        // libgit2 takes a C string.
        std::io::Error::other(message.replace('\0', ""))
    }
}

impl From<HttpError> for Failure {
    fn from(err: HttpError) -> Failure {
        Failure::Http(err)
    }
}

/// Whether two URLs name the same scheme, host and port.
fn same_authority(a: &str, b: &str) -> bool {
    let authority = |u: &str| {
        reqwest::Url::parse(u).ok().map(|p| {
            (
                p.scheme().to_owned(),
                p.host_str().map(str::to_ascii_lowercase),
                p.port_or_known_default(),
            )
        })
    };
    authority(a).is_some_and(|a| Some(a) == authority(b))
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.response.is_none() {
            let response = self.send().map_err(Failure::into_io)?;
            self.response = Some(response);
        }
        let Some(response) = self.response.as_mut() else {
            return Ok(0);
        };
        response.read(buf).map_err(|err| {
            let timeout = clients().map_or(0, |c| c.timeout);
            Failure::Http(super::http::read_error(&self.url, err, timeout)).into_io()
        })
    }
}

impl Write for Stream {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.response.is_some() {
            return Err(std::io::Error::other("the request was sent already"));
        }
        self.body.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::same_authority;

    #[test]
    fn authorities() {
        assert!(same_authority(
            "https://github.com/o/r/info/refs",
            "https://GitHub.com/o/r"
        ));
        assert!(same_authority(
            "https://h:443/o/r/git-upload-pack",
            "https://h/o/r"
        ));
        assert!(!same_authority("https://h:8443/o/r", "https://h/o/r"));
        assert!(!same_authority("http://h/o/r", "https://h/o/r"));
        assert!(!same_authority("https://other/o/r", "https://h/o/r"));
    }
}
