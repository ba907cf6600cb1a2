//! Building snapshots: the skills under the roots, a batch at a time, in walk order.
//!
//! Each skill found by the index ([`index::Stream`]) is loaded once: its SKILL.md frontmatter
//! (the index read only that far), its servable files with their stamps, and the digest of each
//! file, taken from what is already known ([`Known`]) when the stamp is unchanged, otherwise read
//! and hashed. Nothing keeps the bytes. A folder reached twice is served once; of two skills with
//! one name, the first in walk order is served (project dirs come before the user's). Whatever is
//! left out, or served but not listed, is said once in [`Snapshot::skipped`].

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use sha2::{Digest as _, Sha256};

use super::digests::{self, Known};
use super::listing;
use super::snapshot::{FileMeta, Limits, SkillEntry, Snapshot};
use super::uri::unreserved;
use crate::index::{self, IndexError, NameFilter, Root};
use crate::lint::{rules, spec};
use crate::skill::inventory::Inventory;
use crate::skill::package::{Package, RESOURCES_FILE, TOOLS_FILE};
use crate::skill::{Load, SKILL_MD};

/// Folders looked at, at most, per batch after the first.
pub const BATCH: usize = 1024;

/// Builds a snapshot a batch at a time.
pub struct Builder {
    stream: index::Stream,
    filter: NameFilter,
    limits: Limits,
    known: Known,
    /// Real locations of the folders seen, and the names taken.
    seen: HashSet<PathBuf>,
    names: HashSet<String>,
    skills: Vec<Arc<SkillEntry>>,
    skipped: Vec<String>,
}

impl Builder {
    pub fn new(roots: &[Root], filter: NameFilter, limits: Limits, known: Known) -> Builder {
        Builder {
            stream: index::Stream::new(roots, Load::Frontmatter),
            filter,
            limits,
            known,
            seen: HashSet::new(),
            names: HashSet::new(),
            skills: Vec::new(),
            skipped: Vec::new(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.stream.is_done()
    }

    /// Loads the next skills of the walk (looking at about `want` folders); returns how many
    /// skills were added and the reasons newly skipped.
    pub fn step(&mut self, want: usize) -> Result<(usize, Vec<String>), IndexError> {
        let found = self.stream.next_batch(want)?;
        let mut fresh = Vec::new();
        let mut shadowed = Vec::new();
        for entry in found {
            if !self.seen.insert(entry.real.clone()) {
                continue;
            }
            let name = entry.name();
            // Filtered out: as if it were not there.
            if !self.filter.matches(&name) {
                continue;
            }
            if self.names.contains(&name) {
                shadowed.push((entry, name));
                continue;
            }
            self.names.insert(name);
            fresh.push(entry);
        }
        let (limits, known) = (self.limits, &self.known);
        let loaded: Vec<Result<SkillEntry, NotServed>> = fresh
            .into_par_iter()
            .map(|entry| load(entry, limits, known))
            .collect();
        let mut skipped = Vec::new();
        let before = self.skills.len();
        for item in loaded {
            match item {
                Ok(skill) => {
                    if !skill.is_listed() {
                        skipped.push(unlisted(&skill));
                    }
                    self.skills.push(Arc::new(skill));
                }
                Err(why) => skipped.push(why.to_string()),
            }
        }
        // Said after loading: the skill that comes first may be in this very batch.
        for (entry, name) in shadowed {
            let found = self.skills.iter().find(|s| *s.name == name);
            let file = entry.file.clone();
            // A copy of the same skill in another agent's dir (`add --copy` for several agents)
            // hides nothing: the same bytes are served once, without a word.
            if let Some(first) = found
                && let Ok(copy) = load(entry, limits, known)
                && same_files(first, &copy)
            {
                continue;
            }
            let first = found.map_or_else(
                || "an earlier skill of that name, which is not served either".to_owned(),
                |s| format!("`{}`, found first,", s.dir.display()),
            );
            skipped.push(
                NotServed {
                    path: file,
                    code: rules::DUPLICATE_NAME.code,
                    why: format!("{first} has the name `{name}` too"),
                }
                .to_string(),
            );
        }
        self.skipped.extend(skipped.iter().cloned());
        Ok((self.skills.len() - before, skipped))
    }

    /// The skills loaded so far, from position `from`.
    pub fn skills_from(&self, from: usize) -> &[Arc<SkillEntry>] {
        &self.skills[from.min(self.skills.len())..]
    }

    /// Walks to the end and returns the snapshot.
    pub fn finish(mut self) -> Result<Snapshot, IndexError> {
        while !self.is_done() {
            self.step(BATCH)?;
        }
        Ok(Snapshot::new(self.skills, self.skipped))
    }
}

/// A whole snapshot of `roots`.
pub fn build(
    roots: &[Root],
    filter: &NameFilter,
    limits: Limits,
    known: Known,
) -> Result<Snapshot, IndexError> {
    Builder::new(roots, filter.clone(), limits, known).finish()
}

fn unlisted(skill: &SkillEntry) -> String {
    let why: Vec<String> = skill.unlisted.iter().map(ToString::to_string).collect();
    format!(
        "`{}` is left out of skills/list (MCP clients refuse a page with such an entry): {}; its files are still served as resources",
        skill.name,
        why.join("; ")
    )
}

/// Reloads the skill in `dir` as it is now, for a snapshot that serves it as `name`: `None`
/// when it is gone, no longer loads, or is no longer called `name` (then only a whole build
/// places it right).
pub fn reload(
    dir: &std::path::Path,
    name: &str,
    limits: Limits,
    known: &Known,
) -> Option<SkillEntry> {
    let roots = [Root {
        path: dir.to_path_buf(),
        kind: index::RootKind::Path,
    }];
    let mut stream = index::Stream::new(&roots, Load::Frontmatter);
    let entry = stream.next_batch(1).ok()?.into_iter().next()?;
    if entry.dir != dir || entry.name() != name {
        return None;
    }
    load(entry, limits, known).ok()
}

/// A skill the snapshot leaves out, and why, with the lint code that reports it.
#[derive(Debug, thiserror::Error)]
#[error("`{}` is not served: {why} ({code})", path.display())]
pub struct NotServed {
    path: PathBuf,
    code: &'static str,
    why: String,
}

/// Loads one skill found by the index.
/// Whether two folders are copies of one skill: the same frontmatter, the same files with the
/// same bytes.
fn same_files(a: &SkillEntry, b: &SkillEntry) -> bool {
    a.frontmatter.get() == b.frontmatter.get()
        && a.files.len() == b.files.len()
        && a.files
            .iter()
            .zip(b.files.iter())
            .all(|(x, y)| x.rel == y.rel && x.digest == y.digest)
}

fn load(entry: index::Entry, limits: Limits, known: &Known) -> Result<SkillEntry, NotServed> {
    let skill = entry.skill.map_err(|err| NotServed {
        code: spec::load_error_rule(&err).code,
        why: err.to_string(),
        path: entry.file.clone(),
    })?;
    let name = skill.name().ok_or_else(|| NotServed {
        path: skill.file.clone(),
        code: rules::NAME_MISSING.code,
        why: "it has no name".into(),
    })?;
    if !unreserved(&name) {
        return Err(NotServed {
            path: skill.file.clone(),
            code: rules::NAME_CHARSET.code,
            why: format!("its name `{name}` cannot be a URI segment (use a-z, 0-9 and `-`)"),
        });
    }
    let stat_time = digests::now();
    let inventory = Inventory::scan(&skill.dir);
    let own = skill.file_name();
    let known = known.take(entry.root, &skill.dir);
    let mut package_bytes: HashMap<&str, Vec<u8>> = HashMap::new();
    let mut files: Vec<FileMeta> = Vec::new();
    for served in crate::skill::files::served(&inventory, &own, limits.max_file) {
        let (item, rel) = (served.entry, served.rel);
        let package = [TOOLS_FILE, RESOURCES_FILE].into_iter().find(|p| *p == rel);
        let mut stamp = item.stamp;
        let cached = digests::lookup(&known, rel, &stamp).filter(|_| package.is_none());
        let (digest, reusable) = if let Some(digest) = cached {
            (digest, true)
        } else {
            let Ok(bytes) = crate::skill::read_listed(&item.path, &item.stamp, Some(item.size))
            else {
                continue;
            };
            // The size is that of the bytes hashed, even if the file changed since it was stat'ed.
            stamp.size = bytes.len() as u64;
            let digest: [u8; 32] = Sha256::digest(&bytes).into();
            if let Some(package) = package {
                package_bytes.insert(package, bytes);
            }
            (digest, digests::reusable(&item.stamp, stat_time))
        };
        files.push(FileMeta {
            rel: rel.into(),
            stamp,
            digest,
            reusable,
        });
    }
    // SKILL.md first (the order of `files::served`): the manifest lists its own entry point
    // before anything else.
    if files.first().is_none_or(|f| &*f.rel != SKILL_MD) {
        return Err(NotServed {
            path: skill.file.clone(),
            code: rules::UNREADABLE.code,
            why: "it cannot be read".into(),
        });
    }
    let total: u64 = files.iter().map(FileMeta::size).sum();
    let dynamic = files.len() > limits.max_skill_files || total > limits.max_skill_bytes;
    let (package, _) = Package::parse(
        package_bytes.get(TOOLS_FILE).map(Vec::as_slice),
        package_bytes.get(RESOURCES_FILE).map(Vec::as_slice),
    );
    let unlisted = listing::problems(&name, &skill.frontmatter.map);
    let frontmatter =
        serde_json::value::to_raw_value(&skill.frontmatter.map).map_err(|err| NotServed {
            path: skill.file.clone(),
            code: rules::YAML_INVALID.code,
            why: err.to_string(),
        })?;
    Ok(SkillEntry {
        name: name.into(),
        lowercase: own == crate::skill::SKILL_MD_LOWER,
        dir: skill.dir,
        root: u32::try_from(entry.root).unwrap_or(u32::MAX),
        frontmatter,
        body_offset: skill.body_offset,
        files: files.into_boxed_slice(),
        dynamic,
        package: (package != Package::default()).then(|| Box::new(package)),
        unlisted: unlisted.into_boxed_slice(),
    })
}
