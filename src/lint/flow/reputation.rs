//! Hosts by reputation, not by scheme: the official installers of well-known tools, a reviewed
//! list kept as data (`popular/installers.txt`), and the addresses that cannot be tied to
//! anyone (plain HTTP, a bare IP, paste sites, tunnels, link shorteners).
//!
//! Invariant: an address is an official installer only over HTTPS, on exactly the listed host
//! (no subdomain of it, no look-alike), under the listed path prefix (compared case-sensitively,
//! as servers do, after the host is lowercased).

use std::sync::LazyLock;

/// `(host, path prefix, tool)` of every reviewed installer.
static INSTALLERS: LazyLock<Vec<(String, String, String)>> = LazyLock::new(|| {
    include_str!("popular/installers.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (address, tool) = l.split_once(' ')?;
            let (host, path) = address.split_once('/').unwrap_or((address, ""));
            Some((
                host.to_ascii_lowercase(),
                format!("/{path}"),
                tool.trim().to_owned(),
            ))
        })
        .collect()
});

/// Hosts that serve whatever anyone uploaded, tunnels and link shorteners.
const ANYONE: &[&str] = &[
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "ghostbin.com",
    "dpaste.org",
    "dpaste.com",
    "termbin.com",
    "ix.io",
    "0x0.st",
    "transfer.sh",
    "glot.io",
    "rentry.co",
    "rentry.org",
    "gist.githubusercontent.com",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok.app",
    "trycloudflare.com",
    "bit.ly",
    "tinyurl.com",
    "is.gd",
    "t.co",
    "rb.gy",
    "cutt.ly",
    "temp.sh",
    "file.io",
    "catbox.moe",
    "bashupload.com",
];

/// What an address is worth as the origin of code that runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The official installer of the named tool.
    Installer(String),
    /// This machine (a local development server).
    Local,
    /// Any other host: nobody has reviewed it; the string says which, or why it is worse.
    Unknown(String),
}

/// The scheme, lowercased host and path of `url` (`https://Host:443/p?q` → `https`, `host`,
/// `/p`).
fn split(url: &str) -> Option<(String, String, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]"))?
    } else {
        host.split(':').next().unwrap_or(host).to_owned()
    };
    let path = rest[end..].split(['?', '#']).next().unwrap_or("");
    Some((
        scheme.to_ascii_lowercase(),
        host.trim_end_matches('.').to_ascii_lowercase(),
        path,
    ))
}

/// The origin of code fetched from `url` (`""` when the text does not spell the address out).
pub fn origin(url: &str) -> Origin {
    let Some((scheme, host, path)) = split(url) else {
        return Origin::Unknown("an address the text does not spell out".into());
    };
    if host.is_empty() || host.contains('…') {
        return Origin::Unknown("an address the text does not spell out".into());
    }
    if host == "localhost" || host.starts_with("127.") || host == "[::1]" {
        return Origin::Local;
    }
    if host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Origin::Unknown(format!("the bare address `{host}`"));
    }
    if under_any(&host, ANYONE) {
        return Origin::Unknown(format!("`{host}`, where anyone can publish"));
    }
    if scheme != "https" {
        return Origin::Unknown(format!(
            "`{host}` over plain {}",
            scheme.to_ascii_uppercase()
        ));
    }
    let path = if path.is_empty() { "/" } else { path };
    if let Some((_, _, tool)) = INSTALLERS
        .iter()
        .find(|(h, prefix, _)| *h == host && path.starts_with(prefix.as_str()))
    {
        return Origin::Installer(tool.clone());
    }
    Origin::Unknown(format!("`{host}`, which is not a reviewed installer host"))
}

/// Whether `host` is one of `domains` or a subdomain of one (`api.github.com` under
/// `github.com`; not `evilgithub.com`). Both sides as the caller cased them.
pub fn under_any(host: &str, domains: &[&str]) -> bool {
    domains.iter().any(|d| {
        host.strip_suffix(d)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
    })
}

/// Known services that may receive a credential or data meant for them.
pub const SERVICES: &[&str] = &[
    "github.com",
    "githubusercontent.com",
    "githubcopilot.com",
    "gitlab.com",
    "bitbucket.org",
    "amazonaws.com",
    "aws.amazon.com",
    "googleapis.com",
    "google.com",
    "azure.com",
    "azure-api.net",
    "windows.net",
    "microsoft.com",
    "microsoftonline.com",
    "openai.com",
    "anthropic.com",
    "claude.ai",
    "perplexity.ai",
    "mistral.ai",
    "cohere.ai",
    "cohere.com",
    "groq.com",
    "together.xyz",
    "openrouter.ai",
    "fireworks.ai",
    "deepinfra.com",
    "portkey.ai",
    "helicone.ai",
    "z.ai",
    "bigmodel.cn",
    "moonshot.ai",
    "moonshot.cn",
    "minimax.io",
    "aliyuncs.com",
    "ollama.com",
    "replicate.com",
    "huggingface.co",
    "deepseek.com",
    "x.ai",
    "slack.com",
    "discord.com",
    "telegram.org",
    "atlassian.net",
    "atlassian.com",
    "notion.com",
    "notion.so",
    "linear.app",
    "stripe.com",
    "vercel.com",
    "vercel.sh",
    "netlify.com",
    "cloudflare.com",
    "supabase.co",
    "supabase.com",
    "firebaseio.com",
    "npmjs.org",
    "npmjs.com",
    "pypi.org",
    "sentry.io",
    "datadoghq.com",
    "twilio.com",
    "sendgrid.com",
    "sendgrid.net",
    "mailgun.net",
    "postmarkapp.com",
    "figma.com",
    "airtable.com",
    "hubspot.com",
    "shopify.com",
    "salesforce.com",
    "zendesk.com",
    "pagerduty.com",
    "elastic.co",
    "mongodb.net",
    "planetscale.com",
    "neon.tech",
    "upstash.io",
    "pinecone.io",
    "docker.com",
    "docker.io",
    "heroku.com",
    "digitalocean.com",
    "fly.io",
    "render.com",
    "railway.app",
    "exa.ai",
    "tavily.com",
    "serpapi.com",
    "firecrawl.dev",
    "elevenlabs.io",
    "assemblyai.com",
    "deepgram.com",
    "brave.com",
    "wolframalpha.com",
    "openweathermap.org",
    "weatherapi.com",
    "mapbox.com",
    "jina.ai",
    "browserbase.com",
    "resend.com",
    "posthog.com",
    "segment.io",
    "mixpanel.com",
    "amplitude.com",
    "algolia.net",
    "algolia.io",
    "youtube.com",
    "trello.com",
    "asana.com",
    "monday.com",
    "clickup.com",
    "todoist.com",
    "dropboxapi.com",
    "dropbox.com",
    "box.com",
    "zoom.us",
    "intercom.io",
    "freshdesk.com",
    "airtable.com",
    "cal.com",
    "calendly.com",
    "spotify.com",
    "twitter.com",
    "x.com",
    "reddit.com",
    "medium.com",
    "wordpress.com",
];

/// Whether `host` is a known service (or a subdomain of one): an API that may receive the
/// credentials and data meant for it.
pub fn service(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    under_any(&host, SERVICES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_under_a_domain_or_its_subdomains_only() {
        assert!(under_any("github.com", &["github.com"]));
        assert!(under_any("api.github.com", &["gitlab.com", "github.com"]));
        assert!(!under_any("evilgithub.com", &["github.com"]));
        assert!(!under_any("github.com.evil.example", &["github.com"]));
        assert!(!under_any("com", &["github.com"]));
    }

    #[test]
    fn installers_by_host_and_path() {
        assert_eq!(
            origin("https://sh.rustup.rs"),
            Origin::Installer("rustup".into())
        );
        assert_eq!(
            origin("https://astral.sh/uv/install.sh"),
            Origin::Installer("uv".into())
        );
        assert_eq!(
            origin("https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh"),
            Origin::Installer("Homebrew".into())
        );
        assert_eq!(
            origin("https://get.docker.com/"),
            Origin::Installer("Docker".into())
        );
        // Not over HTTP, not on another path of a shared host, not on a look-alike.
        assert!(matches!(origin("http://sh.rustup.rs"), Origin::Unknown(_)));
        assert!(matches!(
            origin("https://raw.githubusercontent.com/evil/install/main/x.sh"),
            Origin::Unknown(_)
        ));
        assert!(matches!(
            origin("https://sh.rustup.rs.evil.example/"),
            Origin::Unknown(_)
        ));
        assert!(matches!(
            origin("https://evil.example/sh.rustup.rs"),
            Origin::Unknown(_)
        ));
        assert!(matches!(
            origin("https://astral.sh.example/uv"),
            Origin::Unknown(_)
        ));
        assert!(matches!(origin(""), Origin::Unknown(_)));
        assert!(matches!(
            origin("https://203.0.113.7/x"),
            Origin::Unknown(_)
        ));
        assert!(matches!(
            origin("https://pastebin.com/raw/x"),
            Origin::Unknown(_)
        ));
        assert_eq!(origin("http://localhost:8080/setup.sh"), Origin::Local);
    }

    #[test]
    fn the_list_parses() {
        assert!(INSTALLERS.len() > 40);
        for (host, prefix, tool) in INSTALLERS.iter() {
            assert!(!host.is_empty() && prefix.starts_with('/') && !tool.is_empty());
            assert!(!host.contains(' ') && host.contains('.'), "{host}");
        }
    }
}
