//! One source identity per repository: whether a lock entry's source and a `source` string
//! name the same place.
//!
//! [`super::grammar`] records one `source` for every form that names a repository (`owner/repo`
//! for GitHub, the clone URL for GitLab). Locks written before that — by an older `skills`, by
//! the reference installer, or by hand — hold other forms (`gitlab:g/r`, a GitLab `/-/tree/…`
//! URL, `O/R`, the reference's host-less `g/s/r` with `sourceType: gitlab`); [`same`] reads both
//! sides through the grammar with no mirror set, so an old entry and a new `add` of its
//! repository are one source, not a conflict.
//!
//! Invariants: pure (no network, file system or environment); a string the grammar does not
//! read as a git repository (a local path, a web source) is only ever the same as itself; the
//! ref, subpath and `@skill` of a form are not part of the identity.

use std::path::PathBuf;

use super::grammar::{Provider, Source, SourceEnv};
use crate::lock::{LockEntry, SourceType};

/// The public hosts, no mirror: what a recorded `source` means anywhere.
fn neutral() -> SourceEnv {
    SourceEnv {
        github_base: "https://github.com".into(),
        github_host: None,
        gitlab_base: "https://gitlab.com".into(),
        cwd: PathBuf::from("/"),
        home: None,
        bound: None,
        outside: super::Outside::default(),
    }
}

/// The identity of the recorded `source`: what the grammar records for it, with GitHub and
/// gitlab.com names lowercased (those hosts ignore case in paths).
fn identity(source: &str) -> String {
    match super::parse(source, &neutral()) {
        Ok(Source::Git(git)) => {
            let case_free = git.provider == Provider::Github
                || (git.provider == Provider::Gitlab
                    && git.display.starts_with("https://gitlab.com/"));
            if case_free {
                git.display.to_ascii_lowercase()
            } else {
                git.display
            }
        }
        _ => source.to_owned(),
    }
}

/// What `entry` names: its `source`, or — for the reference's host-less GitLab and git entries
/// (`g/s/r`, which reads as a GitHub shorthand) — its `sourceUrl`, else `gitlab:g/s/r`.
fn entry_identity(entry: &LockEntry) -> String {
    let hostless = entry.source_type() != SourceType::Github
        && matches!(super::parse(&entry.source, &neutral()),
            Ok(Source::Git(git)) if git.provider == Provider::Github);
    if !hostless {
        return identity(&entry.source);
    }
    match (&entry.source_url, entry.source_type()) {
        (Some(url), _) => identity(url),
        (None, SourceType::Gitlab) => identity(&format!("gitlab:{}", entry.source)),
        (None, _) => identity(&entry.source),
    }
}

/// Whether `entry` is of the repository (or the folder, or the site) `source` names.
pub fn same(entry: &LockEntry, source: &str) -> bool {
    entry.source == source || entry_identity(entry) == identity(source)
}

#[cfg(test)]
mod tests {
    use crate::lock::{LockEntry, SourceType};

    fn same(recorded: &str, source: &str) -> bool {
        let entry = LockEntry {
            source: recorded.to_owned(),
            ..LockEntry::default()
        };
        super::same(&entry, source)
    }

    #[test]
    fn every_form_of_a_repository_is_one_source() {
        let gitlab = [
            "https://gitlab.com/g/s/r.git",
            "gitlab:g/s/r",
            "gitlab:g/s/r#v1@x",
            "https://gitlab.com/g/s/r",
            "https://gitlab.com/G/S/R/",
            "https://gitlab.com/g/s/r/-/tree/main/skills/x",
            "https://gitlab.com/g/s/r/-/blob/main/skills/x/SKILL.md",
        ];
        for form in gitlab {
            assert!(same(form, "https://gitlab.com/g/s/r.git"), "{form}");
        }
        assert!(!same("gitlab:g/s/r", "gitlab:g/s/other"));
        assert!(!same("gitlab:g/r", "g/r"), "GitLab's g/r is not GitHub's");
        let github = [
            "o/r",
            "O/R",
            "github:o/r",
            "https://github.com/o/r.git",
            "https://github.com/o/r/tree/main/skills/x",
        ];
        for form in github {
            assert!(same(form, "o/r"), "{form}");
        }
        assert!(same(
            "https://gl.example/g/r/-/tree/main/x",
            "https://gl.example/g/r.git"
        ));
        assert!(!same("./skills", "./other"));
        assert!(same("./skills", "./skills"));
    }

    #[test]
    fn the_references_host_less_entries_are_read_by_their_type() {
        let gitlab = LockEntry {
            source: "g/s/r".into(),
            source_type: Some(SourceType::Gitlab),
            ..LockEntry::default()
        };
        assert!(super::same(&gitlab, "https://gitlab.com/g/s/r.git"));
        assert!(!super::same(&gitlab, "g/s"));
        let git = LockEntry {
            source: "x/o/r".into(),
            source_type: Some(SourceType::Git),
            source_url: Some("https://git.example/x/o/r.git".into()),
            ..LockEntry::default()
        };
        assert!(super::same(&git, "https://git.example/x/o/r.git"));
    }
}
