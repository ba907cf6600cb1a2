//! Sources of skills: the source-string grammar, trees to read them, git fetching and the
//! discovery of the skills they offer.

pub mod added;
pub mod address;
pub mod discover;
pub mod git;
pub mod grammar;
pub mod http;
pub mod identity;
pub mod npm;
pub mod open;
pub mod provenance;
pub mod smart_http;
pub mod ssh;
pub mod tips;
pub mod tree;
pub mod watchdog;
pub mod web;

/// `url` as it may be shown or recorded: without the credentials typed into it
/// (`https://user:token@host/…`, `file://user:token@…`). An ssh user without a password
/// (`ssh://git@host`) is an address, not a secret, and stays.
pub fn redact(url: &str) -> String {
    match secret_of(url) {
        Some(userinfo) => url.replacen(&format!("{userinfo}@"), "", 1),
        None => url.to_owned(),
    }
}

/// The userinfo of `url` when it is a secret: any userinfo of an `http(s)` URL (a token alone
/// is a common form), one with a password elsewhere.
pub fn secret_of(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@')?;
    let userinfo = &rest[..at];
    let web = scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https");
    (web || userinfo.contains(':')).then_some(userinfo)
}

pub use grammar::{
    GitSource, Outside, Provider, Selector, Source, SourceEnv, SourceError, WebKind, parse,
};
