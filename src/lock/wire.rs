//! The lock as it is on disk: serde structs whose fields are in the alphabetical order of
//! their JSON names (so serializing writes sorted keys), the validation that turns an entry into
//! the model with a problem that names what is wrong, and canonical JSON for what has unknown
//! fields.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::LockKind;
use super::model::{InstallMode, LockEntry, SourceType};
use crate::relpath::RelPath;

/// A lock as it is on disk (fields in the alphabetical order of their JSON names).
#[derive(Debug, Serialize, Deserialize)]
pub struct LockWire {
    #[serde(default)]
    pub skills: BTreeMap<String, EntryWire>,
    pub version: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One entry on disk. Fields are listed in the alphabetical order of their JSON names, so that
/// serializing writes sorted keys without an intermediate `Value`.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryWire {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub installed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub git_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_folder_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_path: Option<String>,
    pub source: Option<String>,
    pub source_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn is_hex(text: &str, len: usize) -> bool {
    text.len() == len
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// What is wrong with one entry of a lockfile (the message follows "entry `name`").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryProblem {
    #[error("has no `source`")]
    NoSource,
    #[error("has no `sourceType`")]
    NoSourceType,
    #[error("has an unknown `sourceType` `{0}`")]
    UnknownSourceType(String),
    /// `field` is `computedHash` or `skillFolderHash`.
    #[error("has no `{field}`")]
    NoHash { field: &'static str },
    #[error("has a `{field}` that is not 64 hex digits: `{value}`")]
    BadHash { field: &'static str, value: String },
    #[error("has a `commit` that is not 40 hex digits: `{0}`")]
    BadCommit(String),
    #[error("has an unknown `mode` `{0}`")]
    UnknownMode(String),
    #[error("has a `digest` that is not `sha256:<hex>`: `{0}`")]
    BadDigest(String),
    #[error("lists `{file}` with a digest that is not `sha256:<hex>`: `{digest}`")]
    BadFileDigest { file: String, digest: String },
    #[error("lists an unsafe file path `{}`", .0.escape_debug())]
    UnsafePath(String),
    #[error("has an `allow` entry that is not a rule code: `{0}`")]
    BadAllow(String),
}

/// Checks one entry of the wire format and turns it into the model.
pub(super) fn validate(entry: EntryWire, kind: LockKind) -> Result<LockEntry, EntryProblem> {
    let source = entry.source.ok_or(EntryProblem::NoSource)?;
    let source_type = match entry.source_type {
        Some(text) => Some(
            SourceType::parse(&text)
                .ok_or_else(|| EntryProblem::UnknownSourceType(text.clone()))?,
        ),
        None if kind == LockKind::Global => None,
        None => return Err(EntryProblem::NoSourceType),
    };
    let field = kind.hash_field();
    let computed_hash = match kind {
        LockKind::Project => entry.computed_hash,
        LockKind::Global => entry.skill_folder_hash,
    }
    .ok_or(EntryProblem::NoHash { field })?;
    if !is_hex(&computed_hash, 64) {
        return Err(EntryProblem::BadHash {
            field,
            value: computed_hash,
        });
    }
    if let Some(commit) = &entry.commit
        && !is_hex(commit, 40)
    {
        return Err(EntryProblem::BadCommit(commit.clone()));
    }
    let mode = match entry.mode.as_deref() {
        None => None,
        Some("copy") => Some(InstallMode::Copy),
        Some("symlink") => Some(InstallMode::Symlink),
        Some("link") => Some(InstallMode::Link),
        Some(other) => return Err(EntryProblem::UnknownMode(other.to_owned())),
    };
    if let Some(digest) = &entry.digest
        && !digest
            .strip_prefix("sha256:")
            .is_some_and(|h| is_hex(h, 64))
    {
        return Err(EntryProblem::BadDigest(digest.clone()));
    }
    if let Some((file, digest)) = entry
        .files
        .iter()
        .flatten()
        .find(|(_, d)| !d.strip_prefix("sha256:").is_some_and(|h| is_hex(h, 64)))
    {
        return Err(EntryProblem::BadFileDigest {
            file: file.clone(),
            digest: digest.clone(),
        });
    }
    // Every path a validated relative path, as install writes it: never the root, never `..`,
    // `.git` or a name some system cannot hold.
    let mut files = BTreeMap::new();
    for (path, digest) in entry.files.unwrap_or_default() {
        let rel = RelPath::file(&path).map_err(|_| EntryProblem::UnsafePath(path.clone()))?;
        files.insert(rel, digest);
    }
    let mut allow = entry.allow.unwrap_or_default();
    if let Some(code) = allow
        .iter()
        .find(|c| c.is_empty() || c.contains(char::is_whitespace))
    {
        return Err(EntryProblem::BadAllow(code.clone()));
    }
    allow = sorted_codes(&allow);
    Ok(LockEntry {
        source,
        source_type,
        source_url: entry.source_url,
        git_ref: entry.git_ref,
        skill_path: entry.skill_path,
        computed_hash,
        commit: entry.commit,
        digest: entry.digest,
        agents: entry.agents.unwrap_or_default(),
        mode,
        files,
        allow,
        installed_at: entry.installed_at,
        updated_at: entry.updated_at,
        extra: entry.extra,
    })
}

/// Codes sorted and without repeats, as the lock keeps them.
pub(super) fn sorted_codes(codes: &[String]) -> Vec<String> {
    let mut codes = codes.to_vec();
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// JSON with object keys sorted at every level, two-space indent and a final newline.
pub fn canonical_json(value: &Value) -> Vec<u8> {
    to_canonical_bytes(value.clone())
}

/// [`canonical_json`], consuming the value: keys are sorted in place, without a second copy
/// (a lock of a thousand skills is megabytes as a `Value`).
pub(super) fn to_canonical_bytes(value: Value) -> Vec<u8> {
    fn sort(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.sort_keys();
                map.values_mut().for_each(sort);
            }
            Value::Array(items) => items.iter_mut().for_each(sort),
            _ => {}
        }
    }
    let mut value = value;
    sort(&mut value);
    let mut bytes = serde_json::to_vec_pretty(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
