//! HTTP(S) for web sources and `skills find`: one blocking `reqwest` client over rustls (ring),
//! trusting the system's certificates plus those of `SSL_CERT_FILE`, with proxies from the
//! environment (`HTTPS_PROXY`, `NO_PROXY`, …), bounded timeouts (`SKILLS_HTTP_TIMEOUT`) and at
//! most 10 redirects. `GITHUB_TOKEN` goes to GitHub hosts only (and is dropped by redirects to
//! other hosts). A redirect from a public address to an internal one (loopback, private,
//! link-local: a cloud's metadata service, an intranet) is refused, unless the request started
//! at an internal address itself (a local test server, an intranet mirror the user typed).
//! A request a lockfile chose goes through [`Http::guarded`]: every address it reaches — the
//! URL's, each redirect's, and each address a name resolves to (the client's resolver judges
//! them) — is held to [`super::address::Policy`].
//! Bodies are read up to a limit, never further.

use crate::hint::Hint;
use std::io::Read as _;
use std::sync::Arc;
use std::time::Duration;

use super::address::Policy;

/// Default for `SKILLS_HTTP_TIMEOUT`: seconds a whole request may take.
const DEFAULT_TIMEOUT_SECS: u64 = 30;
const MAX_REDIRECTS: usize = 10;

#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("cannot reach `{url}`")]
    Connect {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    #[error("`{url}` did not answer within {secs} s")]
    Timeout { url: String, secs: u64 },
    #[error("the TLS connection to `{url}` failed")]
    Tls {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    #[error("`{url}` answered {status}")]
    Status { url: String, status: u16 },
    #[error("`{url}` is larger than the limit of {limit} bytes")]
    TooLarge { url: String, limit: u64 },
    #[error("`{url}` redirects more than {MAX_REDIRECTS} times")]
    Redirects { url: String },
    #[error("`{url}` redirects to the internal address `{to}`, which is refused")]
    InternalRedirect { url: String, to: String },
    #[error("`{url}` is not a valid URL")]
    Url { url: String },
    #[error("`{url}` was not fetched")]
    Refused {
        url: String,
        #[source]
        refused: super::address::Refused,
    },
    #[error("the request to `{url}` failed")]
    Other {
        url: String,
        #[source]
        source: reqwest::Error,
    },
    #[error("reading `{url}` failed")]
    Read {
        url: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read SSL_CERT_FILE `{}`", path.display())]
    CertFile {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("SSL_CERT_FILE `{}` is not a PEM bundle", path.display())]
    CertPem {
        path: std::path::PathBuf,
        #[source]
        source: reqwest::Error,
    },
    #[error("cannot set up HTTPS")]
    Setup(#[source] reqwest::Error),
}

/// What a failed TLS handshake most likely means, from the rustls error behind it.
fn tls_hint(err: &reqwest::Error) -> &'static str {
    match rustls_error(err) {
        Some(rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented) => {
            "a certificate the system does not trust? point SSL_CERT_FILE at a PEM bundle that has it"
        }
        Some(rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. }) => {
            "the server did not answer in TLS: is it plain HTTP (`http://`), or the wrong port?"
        }
        _ => {
            "the server and `skills` agreed on no TLS version or cipher, or the connection broke during the handshake"
        }
    }
}

impl Hint for HttpError {
    fn hint(&self) -> Option<String> {
        match self {
            HttpError::Connect { .. } => {
                Some("check the network (and HTTPS_PROXY / NO_PROXY)".into())
            }
            HttpError::Timeout { .. } => {
                Some("set SKILLS_HTTP_TIMEOUT (seconds) to wait longer".into())
            }
            HttpError::Tls { source, .. } => Some(tls_hint(source).into()),
            HttpError::Status {
                status: 401 | 403,
                url,
            } if is_github_url(url) => {
                Some("for private GitHub content set GITHUB_TOKEN (or GH_TOKEN)".into())
            }
            HttpError::TooLarge { .. } => Some("raise it with --max-download-size".into()),
            HttpError::Refused { refused, .. } => refused.hint(),
            HttpError::InternalRedirect { .. } => Some(
                "a public site may not send `skills` to loopback, private or link-local addresses; give the internal URL yourself if you trust it".into(),
            ),
            _ => None,
        }
    }
}

impl HttpError {
    /// Whether the server said the thing does not exist (so another place may be tried).
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            HttpError::Status {
                status: 404 | 410,
                ..
            }
        )
    }
}

/// Whether `host` is GitHub's (or `GH_HOST`, GitHub Enterprise).
pub fn is_github_host(host: &str) -> bool {
    let enterprise = std::env::var("GH_HOST").ok();
    host == "github.com"
        || host.ends_with(".github.com")
        || host == "raw.githubusercontent.com"
        || host.ends_with(".githubusercontent.com")
        || enterprise.as_deref() == Some(host)
}

pub(super) fn is_github_url(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = parsed.host_str() else {
        return false;
    };
    // `GH_HOST` may carry a port, as the git side reads it.
    let authority = match parsed.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    parsed.scheme() == "https" && is_github_host(&authority)
}

/// `GITHUB_TOKEN`, else `GH_TOKEN`.
pub fn github_token() -> Option<String> {
    [crate::env_vars::GITHUB_TOKEN, crate::env_vars::GH_TOKEN]
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|t| !t.is_empty()))
}

/// The rustls error somewhere in the causes of `err`, also inside `io::Error`s (which hide what
/// they wrap from `source()`).
fn rustls_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    if let Some(tls) = err.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    if let Some(tls) = err
        .downcast_ref::<std::io::Error>()
        .and_then(std::io::Error::get_ref)
        .and_then(|inner| rustls_error(inner))
    {
        return Some(tls);
    }
    err.source().and_then(rustls_error)
}

/// `SKILLS_HTTP_TIMEOUT`: the seconds a whole HTTP request may take, and the longest a git
/// transfer may go without progress (or bring less than 1 KiB).
pub fn timeout_secs() -> u64 {
    std::env::var(crate::env_vars::SKILLS_HTTP_TIMEOUT)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&secs| secs > 0)
        .unwrap_or(DEFAULT_TIMEOUT_SECS)
}

/// The refusal of the address policy among the causes of `err` (a redirect it stopped, or the
/// resolver's answer).
fn refused_in(err: &(dyn std::error::Error + 'static)) -> Option<super::address::Refused> {
    let mut cause = Some(err);
    while let Some(err) = cause {
        if let Some(refused) = err.downcast_ref::<super::address::Refused>() {
            return Some(refused.clone());
        }
        cause = err
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .map(|inner| inner as &(dyn std::error::Error + 'static))
            .or_else(|| err.source());
    }
    None
}

/// Whether a timeout is among the causes of `err` (reqwest's body errors wrap it).
fn is_timeout(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(err) = cause {
        if err
            .downcast_ref::<reqwest::Error>()
            .is_some_and(reqwest::Error::is_timeout)
            || err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        cause = err
            .downcast_ref::<std::io::Error>()
            .and_then(std::io::Error::get_ref)
            .map(|inner| inner as &(dyn std::error::Error + 'static))
            .or_else(|| err.source());
    }
    false
}

/// A redirect refused by [`redirect_policy`]: where it led.
#[derive(Debug, thiserror::Error)]
#[error("a redirect to the internal address `{0}`")]
struct ToInternal(String);

/// At most [`MAX_REDIRECTS`] redirects, and none from a public address to an internal one;
/// with a `guard`, none to an address it refuses (a name is left to the resolver).
pub(super) fn redirect_policy(guard: Option<Arc<Policy>>) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error("too many redirects");
        }
        if let Some(guard) = &guard
            && let Err(refused) = guard.check_url(attempt.url())
        {
            return attempt.error(refused);
        }
        let started_inside = attempt.previous().first().is_some_and(is_internal);
        if !started_inside && is_internal(attempt.url()) {
            let to = super::redact(attempt.url().as_str());
            return attempt.error(ToInternal(to));
        }
        attempt.follow()
    })
}

/// Whether `url` names a loopback, private, link-local or unspecified address (by IP literal,
/// or `localhost`). A public name that resolves to such an address is not seen here.
pub fn is_internal(url: &reqwest::Url) -> bool {
    use std::net::IpAddr;
    let Some(host) = url.host_str() else {
        return false;
    };
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    let ip = match literal.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => ip.to_ipv4_mapped().map_or(IpAddr::V6(ip), IpAddr::V4),
        Ok(ip) => ip,
        Err(_) => {
            let name = host.trim_end_matches('.').to_ascii_lowercase();
            return name == "localhost" || name.ends_with(".localhost");
        }
    };
    match ip {
        IpAddr::V4(ip) => {
            ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
        }
        IpAddr::V6(ip) => {
            let unique_local = (ip.segments()[0] & 0xfe00) == 0xfc00;
            let link_local = (ip.segments()[0] & 0xffc0) == 0xfe80;
            ip.is_loopback() || ip.is_unspecified() || unique_local || link_local
        }
    }
}

/// The client's DNS resolver for requests a lockfile chose: resolves as the system does, and
/// refuses a name any of whose addresses the policy refuses (a name the user trusts, or a
/// proxy's, is resolved as it is).
struct GuardedResolver(Arc<Policy>);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = Arc::clone(&self.0);
        let name = name.as_str().to_owned();
        Box::pin(async move {
            type Failure = Box<dyn std::error::Error + Send + Sync>;
            let lookup = name.clone();
            let answer = tokio::task::spawn_blocking(move || {
                use std::net::ToSocketAddrs as _;
                (lookup.as_str(), 0).to_socket_addrs()
            })
            .await
            .map_err(|err| Box::new(err) as Failure)?;
            let addresses = answer.map_err(|err| Box::new(err) as Failure)?;
            let addresses: Vec<std::net::SocketAddr> = if policy.trusts_name(&name) {
                addresses.collect()
            } else {
                policy
                    .judge_all(&name, addresses)
                    .map_err(|refused| Box::new(refused) as Failure)?
            };
            Ok::<reqwest::dns::Addrs, Failure>(Box::new(addresses.into_iter()))
        })
    }
}

/// A client with the settings of this module: rustls with ring, the system's certificates and
/// those of `SSL_CERT_FILE`, proxies from the environment, and `SKILLS_HTTP_TIMEOUT` for
/// connecting and for each read (a whole request is bounded by its caller).
pub(super) fn client_builder() -> Result<reqwest::blocking::ClientBuilder, HttpError> {
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        // Fails only when a provider is installed already, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    let timeout = timeout_secs();
    let mut builder = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(timeout))
        .connect_timeout(Duration::from_secs(timeout.min(10)));
    if let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|p| !p.is_empty()) {
        let path = std::path::PathBuf::from(path);
        let pem = std::fs::read(&path).map_err(|source| HttpError::CertFile {
            path: path.clone(),
            source,
        })?;
        let certificates = reqwest::Certificate::from_pem_bundle(&pem)
            .map_err(|source| HttpError::CertPem { path, source })?;
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    Ok(builder)
}

/// An HTTP client with the settings above.
pub struct Http {
    client: reqwest::blocking::Client,
    timeout: u64,
    progress: bool,
    /// Where requests may go, for a source a lockfile chose.
    guard: Option<Arc<Policy>>,
}

impl Http {
    /// A client for addresses the user chose.
    pub fn new(progress: bool) -> Result<Http, HttpError> {
        Http::build(progress, None)
    }

    /// A client for addresses a lockfile chose: every URL, redirect and resolved address is
    /// held to `policy`.
    pub fn guarded(progress: bool, policy: Arc<Policy>) -> Result<Http, HttpError> {
        Http::build(progress, Some(policy))
    }

    fn build(progress: bool, guard: Option<Arc<Policy>>) -> Result<Http, HttpError> {
        let timeout = timeout_secs();
        let mut builder = client_builder()?
            .user_agent(concat!("skills/", env!("CARGO_PKG_VERSION")))
            .redirect(redirect_policy(guard.clone()));
        if let Some(guard) = &guard {
            builder = builder.dns_resolver(Arc::new(GuardedResolver(Arc::clone(guard))));
        }
        let client = builder.build().map_err(HttpError::Setup)?;
        Ok(Http {
            client,
            timeout,
            progress,
            guard,
        })
    }

    /// The body of `url`, at most `limit` bytes (more is an error, not a truncation).
    pub fn get(&self, url: &str, limit: u64) -> Result<Vec<u8>, HttpError> {
        let parsed = reqwest::Url::parse(url).map_err(|_| HttpError::Url {
            url: super::redact(url),
        })?;
        if let Some(guard) = &self.guard {
            guard
                .check_url(&parsed)
                .map_err(|refused| HttpError::Refused {
                    url: super::redact(url),
                    refused,
                })?;
        }
        // One deadline for the whole request, body included: the client's own timeout bounds
        // each read, and a body that trickles a byte at a time would never end.
        let deadline = std::time::Instant::now() + Duration::from_secs(self.timeout);
        let mut request = self
            .client
            .get(parsed)
            .timeout(Duration::from_secs(self.timeout));
        if is_github_url(url)
            && let Some(token) = github_token()
        {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .map_err(|err| classify(url, err, self.timeout))?;
        let status = response.status();
        if !status.is_success() {
            return Err(HttpError::Status {
                url: super::redact(url),
                status: status.as_u16(),
            });
        }
        let length = response.content_length();
        if length.is_some_and(|n| n > limit) {
            return Err(HttpError::TooLarge {
                url: super::redact(url),
                limit,
            });
        }
        let bar = (self.progress && length.is_some_and(|n| n > 256 << 10)).then(|| {
            let template = "  downloading {msg} {bar:30} {bytes}/{total_bytes}";
            crate::output::progress_bar(template, &super::redact(url), length.unwrap_or(0))
        });
        let mut body = Vec::new();
        let mut reader = response.take(limit.saturating_add(1));
        let mut chunk = vec![0u8; 64 << 10];
        loop {
            let read = match reader.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(read_error(url, err, self.timeout)),
            };
            body.extend_from_slice(&chunk[..read]);
            if std::time::Instant::now() > deadline {
                return Err(HttpError::Timeout {
                    url: super::redact(url),
                    secs: self.timeout,
                });
            }
            if let Some(bar) = &bar {
                bar.set_position(body.len() as u64);
            }
        }
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        if body.len() as u64 > limit {
            return Err(HttpError::TooLarge {
                url: super::redact(url),
                limit,
            });
        }
        Ok(body)
    }
}

/// What a failed read of the body of `url` means: a timeout, or a broken transfer.
pub(super) fn read_error(url: &str, err: std::io::Error, timeout: u64) -> HttpError {
    let url = super::redact(url);
    if err.kind() == std::io::ErrorKind::TimedOut || is_timeout(&err) {
        HttpError::Timeout { url, secs: timeout }
    } else {
        HttpError::Read { url, source: err }
    }
}

/// What went wrong with a request to `url`, from reqwest's error.
pub(super) fn classify(url: &str, err: reqwest::Error, timeout: u64) -> HttpError {
    let url = super::redact(url);
    // reqwest's message quotes the URL, credentials and all: the error names it already.
    let err = err.without_url();
    if let Some(refused) = refused_in(&err) {
        return HttpError::Refused { url, refused };
    }
    if err.is_timeout() {
        return HttpError::Timeout { url, secs: timeout };
    }
    if err.is_redirect() {
        use std::error::Error as _;
        if let Some(ToInternal(to)) = err.source().and_then(|e| e.downcast_ref::<ToInternal>()) {
            let to = to.clone();
            return HttpError::InternalRedirect { url, to };
        }
        return HttpError::Redirects { url };
    }
    if rustls_error(&err).is_some() {
        return HttpError::Tls { url, source: err };
    }
    if err.is_connect() {
        return HttpError::Connect { url, source: err };
    }
    HttpError::Other { url, source: err }
}

#[cfg(test)]
mod tests {
    use super::is_internal;

    #[test]
    fn internal_addresses() {
        let internal = [
            "http://127.0.0.1:8080/",
            "http://127.9.9.9/",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://172.31.255.255/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data/",
            "http://0.0.0.0/",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://localhost:3000/",
            "http://api.localhost/",
        ];
        let public = [
            "https://example.com/",
            "http://172.32.0.1/",
            "http://8.8.8.8/",
            "http://[2001:db8::1]/",
            "https://github.com/o/r",
        ];
        for url in internal {
            assert!(is_internal(&reqwest::Url::parse(url).unwrap()), "{url}");
        }
        for url in public {
            assert!(!is_internal(&reqwest::Url::parse(url).unwrap()), "{url}");
        }
    }
}
