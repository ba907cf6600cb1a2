//! The snapshot `serve` answers from: for every served skill its frontmatter and, for every
//! served file, its path, size and digest — metadata only, so memory grows with the number of
//! files, not with their bytes. Bytes are read when asked for and checked against the digest
//! listed here before they are sent ([`super::state::Shared::read`]): what `skills/list`
//! promises is exactly what `resources/read` returns, or the skill is reloaded first.
//!
//! Invariants: a URI is looked up in the snapshot, never turned into a path; only files of
//! the served view of [`crate::skill::files`] are in it (no dotfiles, no secret-named files, no
//! `node_modules/`, no links leaving the skill), each at most [`Limits::max_file`]; a skill
//! over the SEP-2640 limits (512 files, 16 MiB) is served with `resources: "dynamic"`. Skills are
//! in the order the index walks the roots (roots in order, folders in byte order of their names),
//! the order in which the first build finds them, so pages handed out while it runs stay valid.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::listing;
use super::uri::{mime, uri};
use crate::prompt::activation::Activation;
use crate::skill::files::ManifestFile;
use crate::skill::inventory::Stamp;
use crate::skill::package::Package;

/// What one skill and one file may weigh.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_file: u64,
    pub max_skill_files: usize,
    pub max_skill_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        // The skills extension's manifest limits; files beyond 4 MiB are not served at all.
        Limits {
            max_file: crate::skill::files::MAX_SERVED_FILE,
            max_skill_files: 512,
            max_skill_bytes: 16 << 20,
        }
    }
}

/// A served file: what the listing promises about it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileMeta {
    /// Path inside the skill, `/`-separated (`SKILL.md` even when the file is `skill.md`).
    pub rel: Box<str>,
    /// The metadata of the file when it was hashed; `stamp.size` is the size of the bytes hashed.
    pub stamp: Stamp,
    /// sha256 of those bytes.
    pub digest: [u8; 32],
    /// Whether a later build may take the digest for a file with the same stamp: not when the
    /// stamp was too young to prove anything when the file was hashed (see [`super::digests`]).
    pub reusable: bool,
}

impl FileMeta {
    pub fn size(&self) -> u64 {
        self.stamp.size
    }

    /// `sha256:<hex>`, as the listing gives it.
    pub fn digest(&self) -> String {
        crate::lock::hash::digest_of(&self.digest)
    }

    pub fn mime(&self) -> &'static str {
        mime(&self.rel)
    }
}

/// A served skill.
#[derive(Debug)]
pub struct SkillEntry {
    /// The URI segment: the name, as [`crate::skill::Skill::name`] reads it.
    pub name: Box<str>,
    pub dir: PathBuf,
    /// Index of the root it was found under (for the order of the digest cache).
    pub root: u32,
    /// SKILL.md is `skill.md` on disk.
    pub lowercase: bool,
    /// The frontmatter as written, as JSON: what YAML reads, nothing trimmed or added.
    pub frontmatter: Box<RawValue>,
    /// Where the body starts in the bytes of SKILL.md.
    pub body_offset: usize,
    /// SKILL.md first, then the others in path order.
    pub files: Box<[FileMeta]>,
    /// Over the manifest limits: `resources: "dynamic"`.
    pub dynamic: bool,
    /// Its `tools.json` and `resources.json`, when it has either.
    pub package: Option<Box<Package>>,
    /// Why `skills/list` does not show it (empty: it does).
    pub unlisted: Box<[listing::Problem]>,
}

impl SkillEntry {
    pub fn skill_md_uri(&self) -> String {
        uri(&self.name, crate::skill::SKILL_MD)
    }

    pub fn file(&self, rel: &str) -> Option<&FileMeta> {
        self.files.iter().find(|f| &*f.rel == rel)
    }

    /// Where SKILL.md is on disk.
    pub fn skill_md(&self) -> PathBuf {
        let name = if self.lowercase {
            crate::skill::SKILL_MD_LOWER
        } else {
            crate::skill::SKILL_MD
        };
        self.dir.join(name)
    }

    /// Where the file is on disk.
    pub fn path(&self, file: &FileMeta) -> PathBuf {
        if &*file.rel == crate::skill::SKILL_MD {
            self.skill_md()
        } else {
            self.dir.join(&*file.rel)
        }
    }

    pub fn is_listed(&self) -> bool {
        self.unlisted.is_empty()
    }

    /// The frontmatter as a JSON object.
    pub fn frontmatter_map(&self) -> Map<String, Value> {
        serde_json::from_str(self.frontmatter.get()).unwrap_or_default()
    }

    /// The description as written (empty when it is not a string).
    pub fn description(&self) -> String {
        #[derive(serde::Deserialize)]
        struct Described {
            description: Option<Value>,
        }
        match serde_json::from_str::<Described>(self.frontmatter.get()) {
            Ok(Described {
                description: Some(Value::String(text)),
            }) => text,
            _ => String::new(),
        }
    }

    /// The description for people and catalogs: trimmed, as `skills prompt` shows it.
    pub fn summary(&self) -> String {
        self.description().trim().to_owned()
    }

    /// The activation block (level 2) of this skill, with `skill://` locations, from the bytes of
    /// its SKILL.md (checked against the digest by the caller).
    pub fn activation(&self, skill_md: &[u8]) -> String {
        let body = std::str::from_utf8(skill_md)
            .ok()
            .and_then(|text| text.get(self.body_offset..))
            .unwrap_or_default();
        Activation {
            name: self.name.to_string(),
            body: body.trim_matches(['\n', '\r']).to_owned(),
            directory: format!("skill://{}/", self.name),
            files: self
                .files
                .iter()
                .skip(1)
                .map(|f| f.rel.to_string())
                .collect(),
            package: self.package.as_deref().cloned().unwrap_or_default(),
        }
        .render()
    }

    /// `{"skill": name, "files": [{"path","size","hash"}]}`, the `_manifest` resource.
    pub fn manifest(&self) -> Value {
        let files: Vec<ManifestFile> = self
            .files
            .iter()
            .map(|f| ManifestFile {
                path: f.rel.to_string(),
                size: f.size(),
                hash: f.digest(),
            })
            .collect();
        serde_json::json!({"skill": self.name, "files": files})
    }
}

/// Everything served, at one moment.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// In walk order.
    pub skills: Vec<Arc<SkillEntry>>,
    /// Positions in `skills` of what `skills/list` shows.
    listed: Vec<usize>,
    /// Positions in `skills`, in order of their names.
    by_name: Vec<u32>,
    /// Skills not served (or not listed), with why (logged on stderr).
    pub skipped: Vec<String>,
}

impl Snapshot {
    /// The snapshot of `skills` (in walk order, names unique).
    pub fn new(skills: Vec<Arc<SkillEntry>>, skipped: Vec<String>) -> Snapshot {
        let listed = (0..skills.len())
            .filter(|&i| skills[i].is_listed())
            .collect();
        let mut by_name: Vec<u32> = (0..skills.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        by_name.sort_unstable_by(|&a, &b| skills[a as usize].name.cmp(&skills[b as usize].name));
        Snapshot {
            skills,
            listed,
            by_name,
            skipped,
        }
    }

    /// This snapshot with the skills of the same names replaced by `fresh`.
    #[must_use]
    pub fn replacing(&self, fresh: Vec<Arc<SkillEntry>>) -> Snapshot {
        let mut skills = self.skills.clone();
        for skill in fresh {
            if let Some(i) = self.position(&skill.name) {
                skills[i] = skill;
            }
        }
        Snapshot::new(skills, self.skipped.clone())
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.by_name
            .binary_search_by(|&i| (*self.skills[i as usize].name).cmp(name))
            .ok()
            .map(|at| self.by_name[at] as usize)
    }

    pub fn get(&self, name: &str) -> Option<&Arc<SkillEntry>> {
        self.position(name).map(|i| &self.skills[i])
    }

    /// What `skills/list` shows, in order.
    pub fn listed(&self) -> impl ExactSizeIterator<Item = &Arc<SkillEntry>> {
        self.listed.iter().map(|&i| &self.skills[i])
    }

    pub fn listed_len(&self) -> usize {
        self.listed.len()
    }

    pub fn listed_at(&self, i: usize) -> &Arc<SkillEntry> {
        &self.skills[self.listed[i]]
    }

    /// Names of all served skills, for error messages.
    pub fn names(&self) -> Vec<String> {
        self.skills.iter().map(|s| s.name.to_string()).collect()
    }

    /// `skill://prompt-xml`: the catalog with URI locations, as `skills prompt --uri` prints it.
    pub fn catalog_xml(&self) -> String {
        let entries: Vec<crate::prompt::Entry> = self
            .skills
            .iter()
            .map(|s| crate::prompt::Entry {
                name: s.name.to_string(),
                description: s.summary(),
                location: s.skill_md_uri(),
                uri: s.skill_md_uri(),
                metadata: Value::Null,
                frontmatter: Map::new(),
                dir: s.dir.clone(),
                file: s.skill_md(),
            })
            .collect();
        crate::prompt::xml::catalog(&entries)
    }
}
