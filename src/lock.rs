//! `skills-lock.json`: what is installed, from where, at which commit, with which hashes.
//!
//! The project lock is the reference installer's version-1 schema (so `npx skills` reads ours
//! and we read theirs) plus our own fields, which the reference ignores: `commit`, `agents`,
//! `mode`, `files`, `allow`. The user's lock (`~/.agents/.skill-lock.json`, or under `$XDG_STATE_HOME`)
//! is the reference's version-3 schema: the hash is `skillFolderHash` and entries carry
//! `installedAt`/`updatedAt`. The on-disk struct ([`LockWire`]) is converted into a validated
//! model ([`Lock`]) with errors that name the entry; unknown fields are kept as written, and a
//! file that cannot be read is refused, never emptied.
//! The writer is canonical: keys sorted at every level, two-space indent, final newline, no
//! timestamps in the project lock, rewritten only when the content changed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const PROJECT_LOCK: &str = "skills-lock.json";
pub const PROJECT_LOCK_VERSION: u64 = 1;
pub const GLOBAL_LOCK_VERSION: u64 = 3;

/// Which of the two lockfiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockKind {
    /// `skills-lock.json` of a project (version 1).
    #[default]
    Project,
    /// The user's `.skill-lock.json` (version 3).
    Global,
}

impl LockKind {
    fn version(self) -> u64 {
        match self {
            LockKind::Project => PROJECT_LOCK_VERSION,
            LockKind::Global => GLOBAL_LOCK_VERSION,
        }
    }

    fn hash_field(self) -> &'static str {
        match self {
            LockKind::Project => "computedHash",
            LockKind::Global => "skillFolderHash",
        }
    }
}

/// Where the user's lock lives: `$XDG_STATE_HOME/skills/.skill-lock.json`, else
/// `~/.agents/.skill-lock.json` (as the reference installer).
pub fn global_lock_path() -> Option<PathBuf> {
    if let Some(state) = std::env::var_os(crate::env_vars::XDG_STATE_HOME).filter(|v| !v.is_empty())
    {
        return Some(PathBuf::from(state).join("skills/.skill-lock.json"));
    }
    dirs::home_dir().map(|home| home.join(".agents/.skill-lock.json"))
}

/// Where a skill came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceType {
    Github,
    Gitlab,
    Git,
    Local,
    WellKnown,
    /// A package in `node_modules` (`skills sync`); `source` is the package name.
    #[serde(rename = "node_modules")]
    NodeModules,
}

impl SourceType {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceType::Github => "github",
            SourceType::Gitlab => "gitlab",
            SourceType::Git => "git",
            SourceType::Local => "local",
            SourceType::WellKnown => "well-known",
            SourceType::NodeModules => "node_modules",
        }
    }

    fn parse(text: &str) -> Option<SourceType> {
        [
            SourceType::Github,
            SourceType::Gitlab,
            SourceType::Git,
            SourceType::Local,
            SourceType::WellKnown,
            SourceType::NodeModules,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }
}

/// How a skill was placed in agent dirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InstallMode {
    /// A copy in each agent dir.
    Copy,
    /// One copy in `.agents/skills`, relative symlinks elsewhere.
    Symlink,
    /// `.agents/skills/<name>` is a symlink to the source folder itself (a package in
    /// `node_modules`, by `skills sync`), other dirs link to it.
    Link,
}

impl InstallMode {
    pub fn as_str(self) -> &'static str {
        match self {
            InstallMode::Copy => "copy",
            InstallMode::Symlink => "symlink",
            InstallMode::Link => "link",
        }
    }
}

/// One locked skill, validated.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LockEntry {
    /// As the user typed it (`owner/repo`, a path relative to the lock, a URL).
    pub source: String,
    pub source_type: Option<SourceType>,
    pub source_url: Option<String>,
    /// The ref asked for (branch or tag), when one was.
    pub git_ref: Option<String>,
    /// The SKILL.md inside the source (`skills/pdf/SKILL.md`).
    pub skill_path: Option<String>,
    /// The reference installer's hash of the skill folder (64 hex digits): `computedHash` in the
    /// project lock, `skillFolderHash` in the user's.
    pub computed_hash: String,
    /// The resolved commit (40 hex digits), for git sources.
    pub commit: Option<String>,
    /// `sha256:<hex>` of what a web source served (a v0.2 index's digest, or the download).
    pub digest: Option<String>,
    /// Agent ids the skill was installed for.
    pub agents: Vec<String>,
    pub mode: Option<InstallMode>,
    /// `relative/path` → `sha256:<hex>` of every installed file.
    pub files: BTreeMap<String, String>,
    /// Lint codes whose findings the install gate lets through for this skill (`--allow`), so
    /// that every machine that installs it decides the same.
    pub allow: Vec<String>,
    /// `installedAt` / `updatedAt` (user's lock only).
    pub installed_at: Option<String>,
    pub updated_at: Option<String>,
    /// Fields neither we nor the reference know, kept as written.
    pub extra: Map<String, Value>,
}

impl LockEntry {
    pub fn source_type(&self) -> SourceType {
        self.source_type.unwrap_or(SourceType::Local)
    }
}

/// A lockfile, validated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    pub kind: LockKind,
    pub skills: BTreeMap<String, LockEntry>,
    /// Top-level fields we do not know, kept as written.
    pub extra: Map<String, Value>,
}

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

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is not valid JSON", path.display())]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("`{}` has lockfile version {found}; this `skills` understands version {expected}", path.display())]
    Version {
        path: PathBuf,
        found: u64,
        expected: u64,
    },
    #[error("`{}`: entry `{name}` {problem}", path.display())]
    Entry {
        path: PathBuf,
        name: String,
        problem: String,
    },
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl LockError {
    pub fn hint(&self) -> Option<String> {
        match self {
            LockError::Json { .. } | LockError::Entry { .. } => Some(
                "fix the file by hand or restore it from version control; `skills` never drops entries it cannot read"
                    .into(),
            ),
            LockError::Version { found, expected, .. } if found > expected => {
                Some("a newer `skills` wrote it; upgrade `skills`".into())
            }
            _ => None,
        }
    }
}

fn is_hex(text: &str, len: usize) -> bool {
    text.len() == len
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Lock {
    /// An empty lock of `kind`.
    pub fn new(kind: LockKind) -> Lock {
        Lock {
            kind,
            ..Lock::default()
        }
    }

    /// Reads the project lock at `path`; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Lock>, LockError> {
        Lock::read_kind(path, LockKind::Project)
    }

    /// Reads the lock of `kind` at `path`; `Ok(None)` when there is none.
    pub fn read_kind(path: &Path, kind: LockKind) -> Result<Option<Lock>, LockError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(LockError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        Lock::parse_kind(path, &bytes, kind).map(Some)
    }

    /// Parses and validates the bytes of a project lock (`path` names it in errors).
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Lock, LockError> {
        Lock::parse_kind(path, bytes, LockKind::Project)
    }

    /// Parses and validates the bytes of a lock of `kind`.
    pub fn parse_kind(path: &Path, bytes: &[u8], kind: LockKind) -> Result<Lock, LockError> {
        let wire: LockWire = serde_json::from_slice(bytes).map_err(|source| LockError::Json {
            path: path.to_path_buf(),
            source,
        })?;
        if wire.version != kind.version() {
            return Err(LockError::Version {
                path: path.to_path_buf(),
                found: wire.version,
                expected: kind.version(),
            });
        }
        let mut skills = BTreeMap::new();
        for (name, entry) in wire.skills {
            let entry = validate(entry, kind).map_err(|problem| LockError::Entry {
                path: path.to_path_buf(),
                name: name.clone(),
                problem,
            })?;
            skills.insert(name, entry);
        }
        Ok(Lock {
            kind,
            skills,
            extra: wire.extra,
        })
    }

    /// The canonical bytes of this lock.
    pub fn to_bytes(&self) -> Vec<u8> {
        let global = self.kind == LockKind::Global;
        let wire = LockWire {
            version: self.kind.version(),
            skills: self
                .skills
                .iter()
                .map(|(name, e)| {
                    let entry = EntryWire {
                        source: Some(e.source.clone()),
                        source_type: e.source_type.map(|t| t.as_str().to_owned()),
                        source_url: e.source_url.clone(),
                        git_ref: e.git_ref.clone(),
                        skill_path: e.skill_path.clone(),
                        computed_hash: (!global).then(|| e.computed_hash.clone()),
                        skill_folder_hash: global.then(|| e.computed_hash.clone()),
                        installed_at: if global { e.installed_at.clone() } else { None },
                        updated_at: if global { e.updated_at.clone() } else { None },
                        commit: e.commit.clone(),
                        digest: e.digest.clone(),
                        agents: (!e.agents.is_empty()).then(|| e.agents.clone()),
                        mode: e.mode.map(|m| m.as_str().to_owned()),
                        files: (!e.files.is_empty()).then(|| e.files.clone()),
                        allow: (!e.allow.is_empty()).then(|| sorted_codes(&e.allow)),
                        extra: e.extra.clone(),
                    };
                    (name.clone(), entry)
                })
                .collect(),
            extra: self.extra.clone(),
        };
        let has_extra = !wire.extra.is_empty() || wire.skills.values().any(|e| !e.extra.is_empty());
        if has_extra {
            // Unknown fields must be merged into the sorted order: go through a `Value`.
            return to_canonical_bytes(serde_json::to_value(&wire).unwrap_or(Value::Null));
        }
        let mut bytes = serde_json::to_vec_pretty(&wire).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Writes the lock to `path` atomically, only when its bytes change; returns whether it wrote.
    pub fn write(&self, path: &Path) -> Result<bool, LockError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| LockError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        }
        crate::fsutil::write_if_changed(path, &self.to_bytes()).map_err(|source| LockError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Checks one entry of the wire format and turns it into the model.
fn validate(entry: EntryWire, kind: LockKind) -> Result<LockEntry, String> {
    let source = entry.source.ok_or("has no `source`")?;
    let source_type = match entry.source_type {
        Some(text) => {
            Some(SourceType::parse(&text).ok_or(format!("has an unknown `sourceType` `{text}`"))?)
        }
        None if kind == LockKind::Global => None,
        None => return Err("has no `sourceType`".into()),
    };
    let field = kind.hash_field();
    let computed_hash = match kind {
        LockKind::Project => entry.computed_hash,
        LockKind::Global => entry.skill_folder_hash,
    }
    .ok_or(format!("has no `{field}`"))?;
    if !is_hex(&computed_hash, 64) {
        return Err(format!(
            "has a `{field}` that is not 64 hex digits: `{computed_hash}`"
        ));
    }
    if let Some(commit) = &entry.commit
        && !is_hex(commit, 40)
    {
        return Err(format!(
            "has a `commit` that is not 40 hex digits: `{commit}`"
        ));
    }
    let mode = match entry.mode.as_deref() {
        None => None,
        Some("copy") => Some(InstallMode::Copy),
        Some("symlink") => Some(InstallMode::Symlink),
        Some("link") => Some(InstallMode::Link),
        Some(other) => return Err(format!("has an unknown `mode` `{other}`")),
    };
    if let Some(digest) = &entry.digest
        && !digest
            .strip_prefix("sha256:")
            .is_some_and(|h| is_hex(h, 64))
    {
        return Err(format!(
            "has a `digest` that is not `sha256:<hex>`: `{digest}`"
        ));
    }
    let files = entry.files.unwrap_or_default();
    if let Some((file, digest)) = files
        .iter()
        .find(|(_, d)| !d.strip_prefix("sha256:").is_some_and(|h| is_hex(h, 64)))
    {
        return Err(format!(
            "lists `{file}` with a digest that is not `sha256:<hex>`: `{digest}`"
        ));
    }
    if let Some(unsafe_path) = files
        .keys()
        .find(|p| p.split('/').any(|part| part == ".." || part.is_empty()) || p.starts_with('/'))
    {
        return Err(format!("lists an unsafe file path `{unsafe_path}`"));
    }
    let mut allow = entry.allow.unwrap_or_default();
    if let Some(code) = allow
        .iter()
        .find(|c| c.is_empty() || c.contains(char::is_whitespace))
    {
        return Err(format!(
            "has an `allow` entry that is not a rule code: `{code}`"
        ));
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
fn sorted_codes(codes: &[String]) -> Vec<String> {
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
fn to_canonical_bytes(value: Value) -> Vec<u8> {
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

/// The reference installer's `computedHash`: sha256 over `path ‖ bytes` of every file, paths
/// `/`-separated and sorted by ICU root collation (JavaScript's `localeCompare`), no separators.
pub fn computed_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    use sha2::{Digest, Sha256};
    let mut files: Vec<(&str, &[u8])> = files.into_iter().collect();
    let collator = icu_collator::Collator::try_new(
        icu_collator::CollatorPreferences::default(),
        icu_collator::options::CollatorOptions::default(),
    );
    match collator {
        Ok(collator) => files.sort_by(|a, b| collator.compare(a.0, b.0)),
        // Compiled-in data cannot be missing; keep a total order anyway.
        Err(_) => files.sort_by(|a, b| a.0.cmp(b.0)),
    }
    let mut hasher = Sha256::new();
    for (path, bytes) in files {
        hasher.update(path.as_bytes());
        hasher.update(bytes);
    }
    hex::encode(hasher.finalize())
}

/// `sha256:<hex>` of `bytes`, as in the lock's `files` map and MCP digests.
pub fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// An advisory lock held while a lockfile is read, changed and written, so that concurrent runs
/// on one project take turns. It lives in the cache dir (nothing is added to the project), keyed
/// by the lockfile's real path; the OS releases it if the process dies.
pub struct Guard {
    _file: std::fs::File,
}

impl Guard {
    /// Takes the lock of the lockfile `lock_path`; `on_wait` is called once, before blocking,
    /// when another run holds it (so the caller can say why nothing happens).
    pub fn acquire(
        lock_path: &Path,
        cache: &Path,
        on_wait: impl FnOnce(),
    ) -> std::io::Result<Guard> {
        use sha2::{Digest, Sha256};
        let real = lock_path
            .parent()
            .and_then(|dir| {
                std::fs::canonicalize(if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                })
                .ok()
            })
            .map_or_else(
                || lock_path.to_path_buf(),
                |dir| dir.join(lock_path.file_name().unwrap_or_default()),
            );
        let key = hex::encode(Sha256::digest(real.to_string_lossy().as_bytes()));
        let dir = cache.join("locks");
        std::fs::create_dir_all(&dir)?;
        let file = std::fs::File::create(dir.join(format!("{}.lock", &key[..24])))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                on_wait();
                file.lock()?;
            }
            Err(std::fs::TryLockError::Error(err)) => return Err(err),
        }
        Ok(Guard { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFERENCE: &str = r#"{
  "version": 1,
  "skills": {
    "beta": { "source": "../src3", "sourceType": "local", "computedHash": "f81cd4930000000000000000000000000000000000000000000000000000c42f" },
    "alpha": {
      "source": "file:///tmp/gitsrc", "sourceUrl": "file:///tmp/gitsrc", "sourceType": "git",
      "skillPath": "skills/alpha/SKILL.md", "computedHash": "799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11",
      "futureField": {"b": 1, "a": 2}
    }
  }
}"#;

    #[test]
    fn reads_the_reference_and_writes_canonical_bytes() {
        let lock = Lock::parse(Path::new("l.json"), REFERENCE.as_bytes()).unwrap();
        assert_eq!(lock.kind, LockKind::Project);
        assert_eq!(lock.skills["alpha"].source_type, Some(SourceType::Git));
        let bytes = String::from_utf8(lock.to_bytes()).unwrap();
        assert_eq!(
            bytes,
            r#"{
  "skills": {
    "alpha": {
      "computedHash": "799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11",
      "futureField": {
        "a": 2,
        "b": 1
      },
      "skillPath": "skills/alpha/SKILL.md",
      "source": "file:///tmp/gitsrc",
      "sourceType": "git",
      "sourceUrl": "file:///tmp/gitsrc"
    },
    "beta": {
      "computedHash": "f81cd4930000000000000000000000000000000000000000000000000000c42f",
      "source": "../src3",
      "sourceType": "local"
    }
  },
  "version": 1
}
"#
        );
        let again = Lock::parse(Path::new("l.json"), bytes.as_bytes()).unwrap();
        assert_eq!(again, lock, "round trip");
        // Without unknown fields the direct writer is used: same canonical bytes.
        let mut plain = lock.clone();
        plain.skills.get_mut("alpha").unwrap().extra.clear();
        plain.skills.get_mut("alpha").unwrap().agents = vec!["claude-code".into()];
        plain.skills.get_mut("alpha").unwrap().installed_at =
            Some("ignored in a project lock".into());
        let direct = plain.to_bytes();
        let value: Value = serde_json::from_slice(&direct).unwrap();
        assert_eq!(direct, canonical_json(&value));
    }

    #[test]
    fn allow_is_sorted_and_omitted_when_empty() {
        let text = r#"{"version": 1, "skills": {"x": {"source": "o/r", "sourceType": "github",
            "computedHash": "799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11",
            "allow": ["security/remote-exec", "security/encoded-exec", "security/remote-exec"]}}}"#;
        let lock = Lock::parse(Path::new("l.json"), text.as_bytes()).unwrap();
        assert_eq!(
            lock.skills["x"].allow,
            ["security/encoded-exec", "security/remote-exec"]
        );
        let bytes = String::from_utf8(lock.to_bytes()).unwrap();
        assert!(
            bytes.contains(
                "\"allow\": [\n        \"security/encoded-exec\",\n        \"security/remote-exec\"\n      ],\n      \"computedHash\""
            ),
            "{bytes}"
        );
        let mut none = lock.clone();
        none.skills.get_mut("x").unwrap().allow.clear();
        assert!(
            !String::from_utf8(none.to_bytes())
                .unwrap()
                .contains("allow")
        );
        let bad = text.replace("\"security/encoded-exec\"", "\"two words\"");
        let err = Lock::parse(Path::new("l.json"), bad.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("not a rule code"), "{err}");
    }

    #[test]
    fn computed_hash_matches_the_reference() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/computed-hash");
        let expected: Value =
            serde_json::from_slice(&std::fs::read(root.join("expected.json")).unwrap()).unwrap();
        for (name, want) in expected["skills"].as_object().unwrap() {
            let inventory = crate::skill::inventory::Inventory::scan(&root.join(name));
            let files: Vec<(String, Vec<u8>)> = inventory
                .files
                .iter()
                .map(|f| (f.rel.clone(), std::fs::read(&f.path).unwrap()))
                .collect();
            let hash = computed_hash(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
            assert_eq!(hash, want["computedHash"].as_str().unwrap(), "{name}");
        }
    }

    #[test]
    fn global_lock_v3() {
        let text = r#"{"version": 3, "skills": {"alpha": {"source": "/src", "sourceType": "local", "sourceUrl": "/src",
            "skillFolderHash": "799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11",
            "installedAt": "2026-11-22T05:18:22.445Z", "updatedAt": "2026-11-22T05:18:22.445Z"}}, "dismissed": {}}"#;
        let lock =
            Lock::parse_kind(Path::new("g.json"), text.as_bytes(), LockKind::Global).unwrap();
        assert_eq!(
            lock.skills["alpha"].installed_at.as_deref(),
            Some("2026-11-22T05:18:22.445Z")
        );
        let bytes = String::from_utf8(lock.to_bytes()).unwrap();
        assert!(
            bytes.contains("\"skillFolderHash\"")
                && !bytes.contains("computedHash")
                && bytes.contains("\"dismissed\": {}"),
            "{bytes}"
        );
        assert_eq!(
            Lock::parse_kind(Path::new("g.json"), bytes.as_bytes(), LockKind::Global).unwrap(),
            lock
        );
        let err =
            Lock::parse_kind(Path::new("g.json"), text.as_bytes(), LockKind::Project).unwrap_err();
        assert!(err.to_string().contains("version 3"), "{err}");
    }

    #[test]
    fn errors_name_the_entry() {
        let bad = |text: &str| {
            Lock::parse(Path::new("l.json"), text.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert!(bad("{").contains("not valid JSON"));
        assert!(bad(r#"{"version": 2, "skills": {}}"#).contains("version 2"));
        let entry = r#"{"version": 1, "skills": {"x": {"source": "a", "sourceType": "svn", "computedHash": "00"}}}"#;
        assert_eq!(
            bad(entry),
            "`l.json`: entry `x` has an unknown `sourceType` `svn`"
        );
        let entry = r#"{"version": 1, "skills": {"x": {"source": "a", "sourceType": "git", "computedHash": "00"}}}"#;
        assert!(bad(entry).contains("entry `x` has a `computedHash` that is not 64 hex digits"));
    }
}
