//! Where a request may go, by who chose the address.
//!
//! An address the user chose — typed on the command line, or configured (`SKILLS_GITHUB_URL`,
//! `SKILLS_GITLAB_URL`, `GH_HOST`, `SKILLS_TRUSTED_HOSTS`, the user's own lock) — may be
//! anything: a local test server, an intranet mirror. An address a project's lockfile chose
//! (an entry's `source`/`sourceUrl`, and every redirect followed from it) is a stranger's
//! choice: a pull request that edits the lock must not make CI talk to the machine's own
//! services or its cloud's metadata service. So such a request never goes to a loopback,
//! link-local, unspecified, multicast or cloud metadata address, and goes to a private range
//! (`10/8`, `172.16/12`, `192.168/16`, `100.64/10`, `fc00::/7`) only with
//! `SKILLS_ALLOW_PRIVATE_ADDRESSES=1`. A host listed in `SKILLS_TRUSTED_HOSTS` (or a mirror the
//! user configured) is exempt, on the port given (any port when none is).
//!
//! Invariants: an address is judged after every embedded IPv4 address is taken out of its
//! IPv6 wrapping (`::ffff:127.0.0.1`, `64:ff9b::a9fe:a9fe`); a name is judged by every address
//! it resolves to, and one internal address refuses the name (a public address beside it does
//! not launder it); names that are internal by definition (`localhost`, `*.localhost`,
//! `metadata.google.internal`, …) are refused without asking DNS. What this cannot see: a name
//! resolved again, differently, by the program that connects (DNS rebinding between this check
//! and libgit2's own lookup), names a proxy resolves, and ssh host aliases (`~/.ssh/config`).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs as _};

use crate::hint::Hint;

/// Who chose where a request goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chooser {
    /// The user: a source typed on the command line, a mirror configured, the user's own lock.
    User,
    /// A project's lockfile, which came with a clone.
    Lock,
}

/// Why an address is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Loopback,
    LinkLocal,
    Metadata,
    Unspecified,
    /// Multicast, broadcast and the reserved `240/4`: nothing a source is served from.
    NotUnicast,
    /// A private range: allowed with `SKILLS_ALLOW_PRIVATE_ADDRESSES=1`.
    Private,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Loopback => "a loopback address",
            Kind::LinkLocal => "a link-local address",
            Kind::Metadata => "a cloud metadata address",
            Kind::Unspecified => "an unspecified address",
            Kind::NotUnicast => "a multicast, broadcast or reserved address",
            Kind::Private => "a private address",
        }
    }
}

/// A request a lockfile chose, refused before it was sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the lockfile sends `skills` to `{host}`, which is {} (`{address}`): refused", kind.describe())]
pub struct Refused {
    /// The host as the URL names it, with its port when it has one.
    pub host: String,
    /// The address it is (an IP literal) or resolves to; the name itself for names internal by
    /// definition.
    pub address: String,
    pub kind: Kind,
}

impl Hint for Refused {
    fn hint(&self) -> Option<String> {
        let trust = format!(
            "if you trust it, set {}={}",
            crate::env_vars::SKILLS_TRUSTED_HOSTS,
            self.host
        );
        Some(match self.kind {
            Kind::Private => format!(
                "a lockfile reaches private addresses only with {}=1 (an intranet mirror); or, {trust}",
                crate::env_vars::SKILLS_ALLOW_PRIVATE_ADDRESSES
            ),
            _ => format!(
                "a lockfile may not make `skills` reach loopback, link-local or cloud metadata addresses; {trust}"
            ),
        })
    }
}

/// An unusable `SKILLS_TRUSTED_HOSTS` entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{entry}` in {var} is not a host or `host:port`", var = crate::env_vars::SKILLS_TRUSTED_HOSTS)]
pub struct BadTrustedHost {
    pub entry: String,
}

impl Hint for BadTrustedHost {
    fn hint(&self) -> Option<String> {
        Some(format!(
            "write {}=host[:port],… (an IPv6 address in brackets: `[fd00::1]:8080`)",
            crate::env_vars::SKILLS_TRUSTED_HOSTS
        ))
    }
}

/// A host the user trusts, on one port or all.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Trusted {
    /// Lowercase, without brackets or a trailing dot.
    host: String,
    port: Option<u16>,
}

/// Whether the user trusts a host (and port), and what else a lockfile's request may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    allow_private: bool,
    trusted: Vec<Trusted>,
    /// Proxies from the environment: names the HTTP client resolves to reach the proxy, not
    /// the site (the proxy is the user's).
    proxies: Vec<String>,
}

impl Policy {
    /// From the environment: `SKILLS_TRUSTED_HOSTS`, `SKILLS_ALLOW_PRIVATE_ADDRESSES`, the
    /// mirrors (`SKILLS_GITHUB_URL`, `SKILLS_GITLAB_URL`, `GH_HOST`) and the proxies.
    ///
    /// # Errors
    /// An entry of `SKILLS_TRUSTED_HOSTS` that is no host.
    pub fn from_env() -> Result<Policy, BadTrustedHost> {
        let var = |name: &str| std::env::var(name).unwrap_or_default();
        let allow_private = matches!(
            var(crate::env_vars::SKILLS_ALLOW_PRIVATE_ADDRESSES)
                .trim()
                .to_ascii_lowercase()
                .as_str(),
            "1" | "true" | "yes"
        );
        let mut policy = Policy {
            allow_private,
            ..Policy::default()
        };
        for entry in var(crate::env_vars::SKILLS_TRUSTED_HOSTS).split(',') {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let trusted = parse_trusted(entry).ok_or_else(|| BadTrustedHost {
                entry: entry.to_owned(),
            })?;
            policy.trusted.push(trusted);
        }
        let env = super::SourceEnv::from_env(std::path::PathBuf::new());
        for base in [&env.github_base, &env.gitlab_base] {
            if let Some((host, port)) = url_authority(base) {
                policy.trusted.push(Trusted { host, port });
            }
        }
        if let Some(trusted) = env.github_host.as_deref().and_then(parse_trusted) {
            policy.trusted.push(trusted);
        }
        for name in [
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
            "ALL_PROXY",
            "all_proxy",
        ] {
            let value = var(name);
            let value = value.trim();
            let with_scheme = if value.contains("://") {
                value.to_owned()
            } else {
                format!("http://{value}")
            };
            if let Some((host, _)) = url_authority(&with_scheme).filter(|_| !value.is_empty()) {
                policy.proxies.push(host);
            }
        }
        Ok(policy)
    }

    /// Whether `host` (as a URL writes it) on `port` is one the user trusts.
    pub fn trusts(&self, host: &str, port: Option<u16>) -> bool {
        let host = normal_host(host);
        self.trusted
            .iter()
            .any(|t| t.host == host && (t.port.is_none() || t.port == port))
    }

    /// Whether `name` is trusted on some port, or is a proxy's: the HTTP client's resolver sees
    /// names only, after [`Policy::check_url`] has judged the port.
    pub fn trusts_name(&self, name: &str) -> bool {
        let name = normal_host(name);
        self.trusted.iter().any(|t| t.host == name) || self.proxies.contains(&name)
    }

    /// Why `ip` is refused, if it is.
    pub fn judge(&self, ip: IpAddr) -> Option<Kind> {
        classify(ip).filter(|kind| !(self.allow_private && *kind == Kind::Private))
    }

    /// Judges the host of `url` without resolving it: `Ok(Some(name))` when it is a DNS name
    /// that must still be resolved and judged, `Ok(None)` when nothing more is needed.
    ///
    /// # Errors
    /// The host is an internal address, a name internal by definition, or a name the user
    /// trusts on other ports only.
    pub fn check_url(&self, url: &reqwest::Url) -> Result<Option<String>, Refused> {
        let Some(host) = url.host_str() else {
            return Ok(None);
        };
        self.check_host(host, url.port_or_known_default())
    }

    /// [`Policy::check_url`] for a host and port taken apart already.
    ///
    /// # Errors
    /// As [`Policy::check_url`].
    pub fn check_host(&self, host: &str, port: Option<u16>) -> Result<Option<String>, Refused> {
        let shown = match port {
            Some(port) if host.contains(':') && !host.starts_with('[') => {
                format!("[{host}]:{port}")
            }
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        if self.trusts(host, port) {
            return Ok(None);
        }
        let name = normal_host(host);
        let refused = |address: String, kind| Refused {
            host: shown.clone(),
            address,
            kind,
        };
        if let Ok(ip) = name.parse::<IpAddr>() {
            return match self.judge(ip) {
                Some(kind) => Err(refused(ip.to_string(), kind)),
                None => Ok(None),
            };
        }
        if let Some(kind) = internal_name(&name) {
            return Err(refused(name, kind));
        }
        if self.trusted.iter().any(|t| t.host == name) {
            // Trusted on another port only: a redirect to another service of that host is
            // not what the user allowed. Judged by its addresses, as any other name.
            return self
                .resolve_and_judge(&name, port.unwrap_or(0), &shown)
                .map(|()| None);
        }
        Ok(Some(name))
    }

    /// Resolves `name` (as the system would) and judges every address it has. A name that
    /// does not resolve passes: the connection will fail on its own.
    ///
    /// # Errors
    /// One of its addresses is refused.
    pub fn resolve_and_judge(&self, name: &str, port: u16, shown: &str) -> Result<(), Refused> {
        let Ok(addresses) = (name, port).to_socket_addrs() else {
            return Ok(());
        };
        self.judge_all(shown, addresses).map(drop)
    }

    /// Judges each of `addresses` (a name's answer); all of them back when none is refused.
    ///
    /// # Errors
    /// The first address refused.
    pub fn judge_all(
        &self,
        shown: &str,
        addresses: impl IntoIterator<Item = SocketAddr>,
    ) -> Result<Vec<SocketAddr>, Refused> {
        let mut out = Vec::new();
        for address in addresses {
            if let Some(kind) = self.judge(address.ip()) {
                return Err(Refused {
                    host: shown.to_owned(),
                    address: address.ip().to_string(),
                    kind,
                });
            }
            out.push(address);
        }
        Ok(out)
    }

    /// Judges the host of a git remote (`https://`, `http://`, `git://`, `ssh://`, scp-like
    /// `user@host:path`), resolving a name; a local repository (`file://`, a path) has none.
    ///
    /// # Errors
    /// As [`Policy::check_host`], and an address the name resolves to is refused.
    pub fn check_git_url(&self, url: &str) -> Result<(), Refused> {
        for (host, port) in git_authorities(url) {
            let shown = match port {
                Some(port) => format!("{host}:{port}"),
                None => host.clone(),
            };
            if let Some(name) = self.check_host(&host, port)? {
                self.resolve_and_judge(&name, port.unwrap_or(0), &shown)?;
            }
        }
        Ok(())
    }
}

/// `host[:port]` of `SKILLS_TRUSTED_HOSTS` (or `GH_HOST`).
fn parse_trusted(entry: &str) -> Option<Trusted> {
    let entry = entry.trim();
    let (host, port) = if let Some(rest) = entry.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        host.parse::<Ipv6Addr>().ok()?;
        match after.strip_prefix(':') {
            Some(port) => (host, Some(port)),
            None if after.is_empty() => (host, None),
            None => return None,
        }
    } else if entry.parse::<Ipv6Addr>().is_ok() {
        (entry, None)
    } else {
        match entry.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (entry, None),
        }
    };
    let host = normal_host(host);
    let name_ok = !host.is_empty()
        && !host.starts_with(['-', '.'])
        && (host.parse::<IpAddr>().is_ok()
            || host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_'));
    let port = match port {
        Some(port) => Some(port.parse::<u16>().ok().filter(|p| *p != 0)?),
        None => None,
    };
    name_ok.then_some(Trusted { host, port })
}

/// The host (normalised) and port (the scheme's default when none is written) of `url`.
fn url_authority(url: &str) -> Option<(String, Option<u16>)> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let host = parsed.host_str()?;
    let port = parsed.port_or_known_default().or(match parsed.scheme() {
        "git" => Some(9418),
        "ssh" | "git+ssh" | "ssh+git" => Some(22),
        _ => None,
    });
    Some((normal_host(host), port))
}

/// Every host a git remote URL may be read to name, with its port: the one libgit2 (and the
/// ssh transport) connects to, and — where a URL parser reads another host out of the same text
/// — that one too; none for a local repository. libgit2 takes the authority up to the first `/`
/// only (a `\`, `?` or `#` before it does not end it, as it does for the WHATWG parser), the
/// host after its last `@`, and percent-decodes it: `git://203.0.113.9#@127.0.0.1:9418/r` and
/// `git://127.0.0.%31/r` connect to loopback. A host judged is the host connected to.
pub fn git_authorities(url: &str) -> Vec<(String, Option<u16>)> {
    let mut hosts: Vec<(String, Option<u16>)> = Vec::with_capacity(2);
    if url.contains("://") {
        hosts.extend(connected_authority(url));
        if let Some(parsed) = url_authority(url)
            && !hosts.contains(&parsed)
        {
            hosts.push(parsed);
        }
    } else {
        hosts.extend(git_authority(url));
    }
    hosts
}

/// The host and port libgit2 connects to for `scheme://authority/path` (its `git_net_url_parse`):
/// the authority ends at the first `/`, the host follows its last `@`, a port is the digits
/// after its last `:` (after `]` for an IPv6 address), and the host is percent-decoded. `None`
/// for `file://`.
fn connected_authority(url: &str) -> Option<(String, Option<u16>)> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme == "file" {
        return None;
    }
    let authority = rest.split('/').next().unwrap_or(rest);
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let (host, port) = match host_port.strip_prefix('[') {
        Some(inner) => match inner.split_once(']') {
            Some((host, after)) => (host, after.strip_prefix(':')),
            None => (host_port, None),
        },
        None => match host_port.rsplit_once(':') {
            Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => (host, Some(port)),
            _ => (host_port, None),
        },
    };
    let host = percent_encoding::percent_decode_str(host).decode_utf8_lossy();
    let port = port
        .and_then(|port| port.parse::<u16>().ok())
        .or(match scheme.as_str() {
            "http" => Some(80),
            "https" => Some(443),
            "git" => Some(9418),
            "ssh" | "git+ssh" | "ssh+git" => Some(22),
            _ => None,
        });
    Some((normal_host(&host), port))
}

/// The host and port of a git remote URL as a URL parser reads it; `None` for a local
/// repository.
pub fn git_authority(url: &str) -> Option<(String, Option<u16>)> {
    if url.contains("://") {
        if url.starts_with("file://") {
            return None;
        }
        return url_authority(url);
    }
    // scp-like `user@host:path` (`user@[::1]:path`), as the grammar accepts it.
    let after_user = url.split_once('@').map_or(url, |(_, rest)| rest);
    let host = match after_user.strip_prefix('[') {
        Some(rest) => rest.split_once(']')?.0,
        None => after_user.split_once(':')?.0,
    };
    (!host.is_empty() && !host.contains('/')).then(|| (normal_host(host), Some(22)))
}

/// `host` lowercased, without IPv6 brackets or a trailing dot.
fn normal_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

/// Names that are internal whatever DNS says: loopback by RFC 6761, and the names clouds give
/// their metadata services.
fn internal_name(name: &str) -> Option<Kind> {
    const METADATA: [&str; 6] = [
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.tencentyun.com",
    ];
    if name == "localhost" || name.ends_with(".localhost") {
        return Some(Kind::Loopback);
    }
    METADATA.contains(&name).then_some(Kind::Metadata)
}

/// Why a request a lockfile chose may not go to `ip`, if it may not.
pub fn classify(ip: IpAddr) -> Option<Kind> {
    match ip {
        IpAddr::V4(ip) => classify_v4(ip),
        IpAddr::V6(ip) => match embedded_v4(ip) {
            Some(v4) => classify_v4(v4),
            None => classify_v6(ip),
        },
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<Kind> {
    const METADATA: [Ipv4Addr; 5] = [
        // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack…
        Ipv4Addr::new(169, 254, 169, 254),
        // AWS ECS task metadata and EKS pod identity.
        Ipv4Addr::new(169, 254, 170, 2),
        Ipv4Addr::new(169, 254, 170, 23),
        // Alibaba Cloud.
        Ipv4Addr::new(100, 100, 100, 200),
        // Azure's WireServer, a public address only its VMs reach.
        Ipv4Addr::new(168, 63, 129, 16),
    ];
    let [a, b, ..] = ip.octets();
    if METADATA.contains(&ip) {
        Some(Kind::Metadata)
    } else if ip.is_loopback() {
        Some(Kind::Loopback)
    } else if ip.is_link_local() {
        Some(Kind::LinkLocal)
    } else if a == 0 {
        // `0.0.0.0/8`: "this network"; connecting to it reaches the machine itself.
        Some(Kind::Unspecified)
    } else if ip.is_multicast() || ip.is_broadcast() || a >= 240 {
        Some(Kind::NotUnicast)
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some(Kind::Private)
    } else {
        None
    }
}

fn classify_v6(ip: Ipv6Addr) -> Option<Kind> {
    const METADATA: [Ipv6Addr; 3] = [
        // AWS's IMDS and EKS pod identity over IPv6.
        Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254),
        Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x23),
        // GCP's metadata server over IPv6.
        Ipv6Addr::new(0xfd20, 0xce, 0, 0, 0, 0, 0, 0x254),
    ];
    let first = ip.segments()[0];
    if METADATA.contains(&ip) {
        Some(Kind::Metadata)
    } else if ip.is_loopback() {
        Some(Kind::Loopback)
    } else if ip.is_unspecified() {
        Some(Kind::Unspecified)
    } else if first & 0xffc0 == 0xfe80 {
        Some(Kind::LinkLocal)
    } else if ip.is_multicast() {
        Some(Kind::NotUnicast)
    } else if first & 0xfe00 == 0xfc00 || first & 0xffc0 == 0xfec0 {
        // Unique local, and the deprecated site-local `fec0::/10`.
        Some(Kind::Private)
    } else {
        None
    }
}

/// The IPv4 address an IPv6 address carries: mapped (`::ffff:a.b.c.d`), compatible
/// (`::a.b.c.d`, deprecated but still routed to IPv4 by some stacks) or NAT64 (`64:ff9b::/96`).
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let tail = Ipv4Addr::new(
        (s[6] >> 8) as u8,
        (s[6] & 0xff) as u8,
        (s[7] >> 8) as u8,
        (s[7] & 0xff) as u8,
    );
    let compatible = s[..6].iter().all(|&x| x == 0) && !ip.is_loopback() && !ip.is_unspecified();
    let nat64 = s[0] == 0x64 && s[1] == 0xff9b && s[2..6].iter().all(|&x| x == 0);
    (compatible || nat64).then_some(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<Kind> {
        classify(text.parse().unwrap())
    }

    #[test]
    fn addresses_are_classified() {
        let cases = [
            ("127.0.0.1", Some(Kind::Loopback)),
            ("127.255.0.9", Some(Kind::Loopback)),
            ("::1", Some(Kind::Loopback)),
            ("::ffff:127.0.0.1", Some(Kind::Loopback)),
            ("::127.0.0.1", Some(Kind::Loopback)),
            ("64:ff9b::7f00:1", Some(Kind::Loopback)),
            ("169.254.169.254", Some(Kind::Metadata)),
            ("::ffff:169.254.169.254", Some(Kind::Metadata)),
            ("fd00:ec2::254", Some(Kind::Metadata)),
            ("100.100.100.200", Some(Kind::Metadata)),
            ("168.63.129.16", Some(Kind::Metadata)),
            ("169.254.1.2", Some(Kind::LinkLocal)),
            ("fe80::1", Some(Kind::LinkLocal)),
            ("febf::1", Some(Kind::LinkLocal)),
            ("0.0.0.0", Some(Kind::Unspecified)),
            ("0.1.2.3", Some(Kind::Unspecified)),
            ("::", Some(Kind::Unspecified)),
            ("224.0.0.1", Some(Kind::NotUnicast)),
            ("255.255.255.255", Some(Kind::NotUnicast)),
            ("ff02::1", Some(Kind::NotUnicast)),
            ("10.1.2.3", Some(Kind::Private)),
            ("172.16.0.1", Some(Kind::Private)),
            ("172.31.255.255", Some(Kind::Private)),
            ("192.168.1.1", Some(Kind::Private)),
            ("100.64.0.1", Some(Kind::Private)),
            ("100.127.255.254", Some(Kind::Private)),
            ("fd12::1", Some(Kind::Private)),
            ("fc00::1", Some(Kind::Private)),
            ("8.8.8.8", None),
            ("172.32.0.1", None),
            ("100.128.0.1", None),
            ("140.82.112.3", None),
            ("2606:50c0:8000::153", None),
            ("2001:db8::1", None),
        ];
        for (text, want) in cases {
            assert_eq!(kind(text), want, "{text}");
        }
    }

    fn policy(trusted: &[&str], allow_private: bool) -> Policy {
        Policy {
            allow_private,
            trusted: trusted.iter().filter_map(|t| parse_trusted(t)).collect(),
            proxies: Vec::new(),
        }
    }

    fn check(policy: &Policy, url: &str) -> Result<Option<String>, Kind> {
        policy
            .check_url(&reqwest::Url::parse(url).unwrap())
            .map_err(|r| r.kind)
    }

    #[test]
    fn urls_are_judged_by_host_and_port() {
        let none = policy(&[], false);
        assert_eq!(check(&none, "http://127.0.0.1:8080/x"), Err(Kind::Loopback));
        assert_eq!(check(&none, "http://[::1]/x"), Err(Kind::Loopback));
        assert_eq!(check(&none, "http://LOCALHOST./x"), Err(Kind::Loopback));
        assert_eq!(check(&none, "http://a.localhost/x"), Err(Kind::Loopback));
        assert_eq!(
            check(&none, "http://metadata.google.internal/x"),
            Err(Kind::Metadata)
        );
        assert_eq!(check(&none, "http://10.0.0.1/x"), Err(Kind::Private));
        assert_eq!(
            check(&none, "https://example.com/x"),
            Ok(Some("example.com".into()))
        );
        assert_eq!(check(&none, "https://8.8.8.8/x"), Ok(None));
        let private = policy(&[], true);
        assert_eq!(check(&private, "http://10.0.0.1/x"), Ok(None));
        assert_eq!(check(&private, "http://127.0.0.1/x"), Err(Kind::Loopback));
        let trusted = policy(&["127.0.0.1:8080", "LocalHost", "[::1]:9"], false);
        assert_eq!(check(&trusted, "http://127.0.0.1:8080/x"), Ok(None));
        assert_eq!(
            check(&trusted, "http://127.0.0.1:8081/x"),
            Err(Kind::Loopback)
        );
        assert_eq!(check(&trusted, "http://localhost:1/x"), Ok(None));
        assert_eq!(check(&trusted, "http://[::1]:9/x"), Ok(None));
        assert_eq!(check(&trusted, "http://[::1]:10/x"), Err(Kind::Loopback));
    }

    #[test]
    fn trusted_hosts_parse() {
        let parsed = |t: &str| parse_trusted(t).map(|t| (t.host, t.port));
        assert_eq!(
            parsed("Mirror.Example:8443"),
            Some(("mirror.example".into(), Some(8443)))
        );
        assert_eq!(parsed("10.0.0.5"), Some(("10.0.0.5".into(), None)));
        assert_eq!(parsed("[fd00::1]:80"), Some(("fd00::1".into(), Some(80))));
        assert_eq!(parsed("fd00::1"), Some(("fd00::1".into(), None)));
        for bad in [
            "", ":80", "host:", "host:x", "host:0", "-x", "a/b", "[fd00::1", "http://h",
        ] {
            assert_eq!(parsed(bad), None, "{bad}");
        }
    }

    #[test]
    fn git_remotes_have_hosts() {
        let authority = |u: &str| git_authority(u);
        assert_eq!(
            authority("git://127.0.0.1:9418/o/r.git"),
            Some(("127.0.0.1".into(), Some(9418)))
        );
        assert_eq!(
            authority("git://example.com/o/r.git"),
            Some(("example.com".into(), Some(9418)))
        );
        assert_eq!(
            authority("https://github.com/o/r.git"),
            Some(("github.com".into(), Some(443)))
        );
        assert_eq!(
            authority("ssh://git@[::1]:2222/o/r.git"),
            Some(("::1".into(), Some(2222)))
        );
        assert_eq!(
            authority("git@169.254.169.254:o/r.git"),
            Some(("169.254.169.254".into(), Some(22)))
        );
        assert_eq!(authority("file:///srv/repo"), None);
        let none = policy(&[], false);
        assert!(none.check_git_url("git@localhost:o/r.git").is_err());
        assert!(none.check_git_url("ssh://git@[::1]/o/r.git").is_err());
        assert!(none.check_git_url("file:///srv/repo").is_ok());
    }

    #[test]
    fn a_git_remote_is_judged_by_the_host_libgit2_connects_to() {
        let none = policy(&[], false);
        // libgit2 reads the authority up to the first `/`, the host after the last `@`, and
        // percent-decodes it; the WHATWG parser stops at `\`, `?` and `#`.
        for url in [
            "git://203.0.113.9#@127.0.0.1:9418/o/r.git",
            "git://203.0.113.9?@127.0.0.1:9418/o/r.git",
            "http://203.0.113.9\\@127.0.0.1:8080/o/r.git",
            "https://203.0.113.9#@169.254.169.254/o/r.git",
            "ssh://203.0.113.9#@[::1]:22/o/r.git",
            "git://127.0.0.%31:9418/o/r.git",
        ] {
            assert!(none.check_git_url(url).is_err(), "{url}");
        }
        assert_eq!(
            connected_authority("git://203.0.113.9#@127.0.0.1:9418/o/r.git"),
            Some(("127.0.0.1".into(), Some(9418)))
        );
        assert_eq!(
            connected_authority("ssh://git@[::1]:2222/o/r.git"),
            Some(("::1".into(), Some(2222)))
        );
        assert_eq!(
            git_authorities("https://github.com/o/r.git"),
            [("github.com".to_owned(), Some(443))]
        );
        assert!(none.check_git_url("https://203.0.113.9/o/r.git").is_ok());
    }
}
