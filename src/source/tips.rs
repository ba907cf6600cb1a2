//! The tips a remote showed when it was last fetched, kept in its cache repository, so that an
//! offline run (`add --offline`, `use --offline`) opens the source as that run saw it: its
//! default branch (`HEAD`), and the branches and tags that pointed at a commit it fetched.
//!
//! Invariants: recorded as refs `refs/skills/tips/<heads|tags>/<name>` and `refs/skills/tips/HEAD`
//! (no fetch refspec writes under `refs/skills/tips/`), only for a commit the cache holds and
//! provenance verified; read back only while the commit is still held and verified. So an
//! offline run opens nothing an online one would have refused, and never a commit of another
//! repository: tips are read from the cache of the URL asked for alone, never from a mirror's
//! (two repositories of one name share a cache name, not their branches). The record is the
//! user's cache, never the project's: a checkout cannot plant one.

use git2::{Oid, Repository};

use super::git::RemoteRef;

/// Where tips are recorded in a cache repository.
const TIPS: &str = "refs/skills/tips/";

/// Records the refs of `advertised` (a remote's advertisement) that point at `oid`, a commit of
/// `repo` just fetched (or found there) and verified. A record that cannot be written costs only
/// an offline run later.
pub fn record(repo: &Repository, advertised: &[RemoteRef], oid: Oid) {
    for tip in advertised.iter().filter(|r| r.oid == oid) {
        let kept = if tip.name == "HEAD" {
            Some("HEAD")
        } else {
            tip.name
                .strip_prefix("refs/")
                .filter(|rest| rest.starts_with("heads/") || rest.starts_with("tags/"))
        };
        if let Some(kept) = kept {
            let _ = repo.reference(
                &format!("{TIPS}{kept}"),
                oid,
                true,
                "skills: a tip of the remote when it was last fetched",
            );
        }
    }
}

/// The recorded tips of `repo` as an advertisement (`HEAD`, `refs/heads/…`, `refs/tags/…`),
/// those whose commit the cache still holds and a run verified.
pub fn read(repo: &Repository) -> Vec<RemoteRef> {
    let Ok(references) = repo.references() else {
        return Vec::new();
    };
    let mut tips: Vec<RemoteRef> = references
        .filter_map(Result::ok)
        .filter_map(|reference| {
            let rest = reference.name().ok()?.strip_prefix(TIPS)?;
            let name = if rest == "HEAD" {
                "HEAD".to_owned()
            } else {
                format!("refs/{rest}")
            };
            let oid: Oid = reference.target()?;
            repo.find_commit(oid).ok()?;
            super::provenance::is_verified(repo, oid).then_some(RemoteRef { name, oid })
        })
        .collect();
    tips.sort_by(|a, b| a.name.cmp(&b.name));
    tips
}
