//! Provenance of a remote's commit: a commit read from a git remote must be reachable from one
//! of that remote's branches (`refs/heads/*`) or tags (`refs/tags/*`), or be its `HEAD`.
//!
//! Why: hosts serve commits by id that are no part of a repository's history. A pull request's
//! head is advertised as `refs/pull/N/head` (GitLab: `refs/merge-requests/N/head`), and GitHub
//! serves any commit of any fork through every repository of the fork network, which shares one
//! object store. A pull request that changes only `commit`, `computedHash` and `files` of a lock
//! entry would otherwise make `install --frozen` install the attacker's commit, labelled with
//! the trusted source. Tools that audit pinned GitHub Actions (chainguard's clank, zizmor's
//! `impostor-commit`) call these impostor commits and decide the same question the same way:
//! the tips first, then ancestry.
//!
//! Cost: a commit at the tip of an advertised branch or tag (or `HEAD`) needs nothing more —
//! `add` and `update` pin tips, so this is the common case. Otherwise ancestry is proven in the
//! cache repository, whose history is shallow: first with what it holds, then after fetching the
//! lock entry's ref and the default branch (64 commits deep, then whole), then every branch and
//! tag at once. A commit found so is recorded in the cache repository as the ref
//! `refs/skills/verified/<id>` (no fetch refspec writes under it), so a later run — an offline
//! one included — opens it at once. The record is in the user's cache, never in the project:
//! a checkout cannot plant one.
//!
//! Local repositories (`file://`, paths) are not judged: they have no fork network, and every
//! object in them was put there by someone who can write this machine.

use git2::{Oid, Repository};

use super::git::{FetchError, GitSettings, RemoteRef, Want, fetch_refspecs};

/// Where verified commits are recorded in a cache repository.
const VERIFIED: &str = "refs/skills/verified/";

/// Whether a run found `oid` on a branch or tag of the remote of the cache repository `repo`.
pub fn is_verified(repo: &Repository, oid: Oid) -> bool {
    repo.find_reference(&format!("{VERIFIED}{oid}"))
        .ok()
        .and_then(|reference| reference.target())
        == Some(oid)
}

/// Records that `oid` is on a branch or tag. A record that cannot be written costs only the
/// proof again next time.
fn record(repo: &Repository, oid: Oid) {
    let name = format!("{VERIFIED}{oid}");
    let _ = repo.reference(&name, oid, true, "skills: on a branch or tag of the remote");
}

/// Whether a ref of this name is the repository's history: a branch, a tag or `HEAD`.
fn is_history(name: &str) -> bool {
    name == "HEAD" || name.starts_with("refs/heads/") || name.starts_with("refs/tags/")
}

/// Checks that `oid`, a commit of the cache repository `repo` of `url`, is on a branch or tag
/// of `url` (`refs` its advertisement), fetching history as needed, and records it.
///
/// # Errors
/// [`FetchError::NotOnBranch`], naming the other refs that point at it; a fetch that failed
/// while every branch and tag was fetched.
pub fn verify(
    repo: &Repository,
    url: &str,
    oid: Oid,
    refs: &[RemoteRef],
    wanted: &Want,
    settings: &GitSettings,
) -> Result<(), FetchError> {
    if is_verified(repo, oid) {
        return Ok(());
    }
    if refs.iter().any(|r| r.oid == oid && is_history(&r.name)) {
        record(repo, oid);
        return Ok(());
    }
    let (preferred, candidates) = candidates(refs, wanted);
    let proven = |repo: &Repository| candidates.iter().any(|tip| contains(repo, tip.oid, oid));
    if proven(repo) {
        record(repo, oid);
        return Ok(());
    }
    // The lock entry's ref and the default branch: the commit is most likely a little below one
    // of their tips. 64 commits first, which is cheap; then the whole history.
    let mut whole = Vec::new();
    for tip in candidates.iter().take(preferred) {
        let refspec = local_refspec(&tip.name);
        let depths: &[i32] = if repo.is_shallow() {
            &[64, i32::MAX]
        } else {
            &[0]
        };
        for &depth in depths {
            let depth = (depth > 0).then_some(depth);
            if fetch_refspecs(repo, url, &[refspec.as_str()], depth, settings).is_err() {
                break;
            }
            if contains(repo, tip.oid, oid) {
                record(repo, oid);
                return Ok(());
            }
        }
        whole.push(tip.oid);
    }
    // Every other branch and tag, whole, in one fetch.
    if candidates.iter().any(|tip| !whole.contains(&tip.oid)) {
        let refspecs = [
            "+refs/heads/*:refs/skills/heads/*",
            "+refs/tags/*:refs/skills/tags/*",
        ];
        let depth = repo.is_shallow().then_some(i32::MAX);
        fetch_refspecs(repo, url, &refspecs, depth, settings)?;
        if proven(repo) {
            record(repo, oid);
            return Ok(());
        }
    }
    let holders = refs
        .iter()
        .filter(|r| r.oid == oid && r.name.starts_with("refs/") && !is_history(&r.name))
        .map(|r| r.name.clone())
        .collect();
    Err(FetchError::NotOnBranch {
        url: super::redact(url),
        oid: oid.to_string(),
        holders,
    })
}

/// The branches and tags to look for `oid` below, most likely first, one per commit: the ref
/// the lock entry (or the source) names, the default branch, the other branches, the tags. The
/// count of the first two kinds found comes first.
fn candidates<'a>(refs: &'a [RemoteRef], wanted: &Want) -> (usize, Vec<&'a RemoteRef>) {
    let named = match wanted {
        Want::Commit {
            fallback: Some(name),
            ..
        }
        | Want::Ref(name) => Some(name.as_str()),
        _ => None,
    };
    let find = |full: &str| refs.iter().find(|r| r.name == full);
    let mut out: Vec<&RemoteRef> = Vec::new();
    let push = |tip: Option<&'a RemoteRef>, out: &mut Vec<&'a RemoteRef>| {
        if let Some(tip) = tip
            && is_history(&tip.name)
            && !out.iter().any(|known| known.oid == tip.oid)
        {
            out.push(tip);
        }
    };
    if let Some(name) = named {
        let tip = find(&format!("refs/heads/{name}"))
            .or_else(|| find(&format!("refs/tags/{name}")))
            .or_else(|| find(name));
        push(tip, &mut out);
    }
    let head_target = refs
        .iter()
        .find_map(|r| r.name.strip_prefix("HEAD->"))
        .and_then(find);
    push(head_target.or_else(|| find("HEAD")), &mut out);
    let preferred = out.len();
    for kind in ["refs/heads/", "refs/tags/"] {
        for tip in refs.iter().filter(|r| r.name.starts_with(kind)) {
            push(Some(tip), &mut out);
        }
    }
    (preferred, out)
}

/// The refspec that fetches the remote ref `name` into the cache's own namespace.
fn local_refspec(name: &str) -> String {
    match name.strip_prefix("refs/") {
        Some(rest) => format!("+{name}:refs/skills/{rest}"),
        None => format!("+{name}:refs/skills/{}", name.to_ascii_lowercase()),
    }
}

/// Whether `oid` is the commit `tip` (a tag peeled) or one of its ancestors, as far as `repo`
/// holds the history.
fn contains(repo: &Repository, tip: Oid, oid: Oid) -> bool {
    let Ok(tip) = repo.find_object(tip, None).and_then(|o| o.peel_to_commit()) else {
        return false;
    };
    tip.id() == oid || repo.graph_descendant_of(tip.id(), oid).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remote(name: &str, byte: u8) -> RemoteRef {
        RemoteRef {
            name: name.to_owned(),
            oid: Oid::from_bytes(&[byte; 20]).unwrap(),
        }
    }

    #[test]
    fn candidates_put_the_named_ref_and_the_default_branch_first() {
        let refs = [
            remote("HEAD", 1),
            remote("HEAD->refs/heads/main", 1),
            remote("refs/heads/dev", 2),
            remote("refs/heads/main", 1),
            remote("refs/pull/1/head", 9),
            remote("refs/tags/v1", 3),
            remote("refs/tags/v0", 2),
        ];
        let names = |wanted: &Want| {
            let (preferred, tips) = candidates(&refs, wanted);
            let names: Vec<&str> = tips.iter().map(|t| t.name.as_str()).collect();
            (preferred, names)
        };
        let pinned = Want::exactly(&"9".repeat(40), Some("v1".into()));
        assert_eq!(
            names(&pinned),
            (2, vec!["refs/tags/v1", "refs/heads/main", "refs/heads/dev"])
        );
        assert_eq!(
            names(&Want::exactly(&"9".repeat(40), None)),
            (1, vec!["refs/heads/main", "refs/heads/dev", "refs/tags/v1"])
        );
        // A pull request's ref is never a place to prove a commit on.
        let pull = Want::Ref("refs/pull/1/head".into());
        assert_eq!(names(&pull).1.first(), Some(&"refs/heads/main"));
        assert_eq!(
            local_refspec("refs/heads/a/b"),
            "+refs/heads/a/b:refs/skills/heads/a/b"
        );
        assert_eq!(local_refspec("HEAD"), "+HEAD:refs/skills/head");
    }
}
