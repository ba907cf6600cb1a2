//! The validated lock: its entries as the rest of `skills` reads them, read from and written
//! to disk through the wire format (unknown fields kept as written; a file that cannot be read
//! is refused, never emptied; the bytes written are canonical and only when they change).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::relpath::RelPath;

use super::wire::{EntryWire, LockWire, sorted_codes, to_canonical_bytes, validate};
use super::{LockError, LockKind};

/// `relative/path` → `sha256:<hex>` of every file of an installed skill.
pub type Files = BTreeMap<RelPath, String>;

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

    pub(super) fn parse(text: &str) -> Option<SourceType> {
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
    pub files: Files,
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

    /// The identity of this entry's source ([`source_identity`]).
    pub fn identity(&self) -> String {
        source_identity(self.source_type(), &self.source, self.source_url.as_deref())
    }
}

/// What tells one source from another, for the content store: its kind, `source` and
/// `sourceUrl`, as a JSON array (unambiguous whatever the strings hold).
pub fn source_identity(source_type: SourceType, source: &str, source_url: Option<&str>) -> String {
    serde_json::json!([source_type.as_str(), source, source_url.unwrap_or_default()]).to_string()
}

/// A lockfile, validated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    pub kind: LockKind,
    pub skills: BTreeMap<String, LockEntry>,
    /// Top-level fields we do not know, kept as written.
    pub extra: Map<String, Value>,
    /// The file as it was read, so that a write changes only the entries that changed.
    pub written: Written,
}

/// A lock as it was read: its top-level key order and each entry as written, with what it
/// validated to. Another tool's entries (`npx skills` writes `source` first, not sorted) are
/// written back byte for byte while they are what was read; only entries that changed (and new
/// ones) are written in the canonical form. Provenance, not content: two locks that differ only
/// in it are equal.
#[derive(Debug, Clone, Default)]
pub struct Written {
    order: Vec<String>,
    entries: BTreeMap<String, (LockEntry, Value)>,
}

impl PartialEq for Written {
    fn eq(&self, _other: &Written) -> bool {
        true
    }
}

impl Written {
    /// What `value` (the whole file) holds, with `skills` the validated entries.
    fn of(value: Value, skills: &BTreeMap<String, LockEntry>) -> Written {
        let Value::Object(mut top) = value else {
            return Written::default();
        };
        let order = top.keys().cloned().collect();
        let mut entries = BTreeMap::new();
        if let Some(Value::Object(raw)) = top.remove("skills") {
            for (name, raw) in raw {
                if let Some(entry) = skills.get(&name) {
                    entries.insert(name, (entry.clone(), raw));
                }
            }
        }
        Written { order, entries }
    }

    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
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
        let bytes = match crate::fsutil::read_manifest(path) {
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
        // Read again as it is written (key order and all), to write it back so.
        let written = serde_json::from_slice::<Value>(bytes)
            .map(|value| Written::of(value, &skills))
            .unwrap_or_default();
        Ok(Lock {
            kind,
            skills,
            extra: wire.extra,
            written,
        })
    }

    /// The bytes of this lock: canonical, except that what another tool wrote is kept as it
    /// was written while it is unchanged (the top-level key order, and each unchanged entry).
    pub fn to_bytes(&self) -> Vec<u8> {
        let canonical = self.canonical_bytes();
        if self.written.is_empty() {
            return canonical;
        }
        let Ok(Value::Object(mut top)) = serde_json::from_slice::<Value>(&canonical) else {
            return canonical;
        };
        if let Some(Value::Object(skills)) = top.get_mut("skills") {
            for (name, value) in skills.iter_mut() {
                if let (Some((read, raw)), Some(now)) =
                    (self.written.entries.get(name), self.skills.get(name))
                    && read == now
                {
                    value.clone_from(raw);
                }
            }
        }
        let mut ordered = Map::new();
        for key in &self.written.order {
            if let Some(value) = top.remove(key) {
                ordered.insert(key.clone(), value);
            }
        }
        ordered.extend(top);
        let mut bytes = serde_json::to_vec_pretty(&Value::Object(ordered)).unwrap_or(canonical);
        if bytes.last() != Some(&b'\n') {
            bytes.push(b'\n');
        }
        bytes
    }

    /// The canonical bytes of this lock: keys sorted at every level.
    fn canonical_bytes(&self) -> Vec<u8> {
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
                        files: (!e.files.is_empty()).then(|| {
                            e.files
                                .iter()
                                .map(|(k, v)| (k.to_string(), v.clone()))
                                .collect()
                        }),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::canonical_json;

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
        let bytes = String::from_utf8(lock.canonical_bytes()).unwrap();
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
        let direct = plain.canonical_bytes();
        let value: Value = serde_json::from_slice(&direct).unwrap();
        assert_eq!(direct, canonical_json(&value));
    }

    #[test]
    fn unchanged_entries_are_written_as_read() {
        // As `npx skills` writes: `version` first, each entry's fields in its own order.
        let text = "{\n  \"version\": 1,\n  \"skills\": {\n    \"a\": {\n      \"source\": \"o/r\",\n      \"sourceUrl\": \"https://github.com/o/r.git\",\n      \"sourceType\": \"github\",\n      \"skillPath\": \"skills/a/SKILL.md\",\n      \"computedHash\": \"799cb59755eb15ba60969619c8f0334ea22fb555783bc2b7f78c2c869c770c11\",\n      \"via\": {\"z\": 1, \"y\": 2}\n    }\n  }\n}\n";
        let lock = Lock::parse(Path::new("l.json"), text.as_bytes()).unwrap();
        let unchanged = String::from_utf8(lock.to_bytes()).unwrap();
        let reread = Lock::parse(Path::new("l.json"), unchanged.as_bytes()).unwrap();
        assert_eq!(reread, lock);
        assert!(unchanged.starts_with("{\n  \"version\": 1,\n  \"skills\": {\n    \"a\": {\n      \"source\": \"o/r\",\n      \"sourceUrl\""), "{unchanged}");
        assert!(
            unchanged.contains("\"z\": 1,\n        \"y\": 2"),
            "{unchanged}"
        );
        // A new entry is canonical; the old one stays as it was written.
        let mut more = lock.clone();
        let mut added = lock.skills["a"].clone();
        added.extra.clear();
        added.commit = Some("1".repeat(40));
        more.skills.insert("b".into(), added);
        let both = String::from_utf8(more.to_bytes()).unwrap();
        let (first, second) = both.split_once("    \"b\": {").unwrap();
        assert!(
            unchanged.starts_with(first.trim_end_matches(",\n").trim_end_matches('}')),
            "{both}"
        );
        assert!(second.trim_start().starts_with("\"commit\""), "{both}");
        // A changed entry is canonical again.
        let mut changed = lock.clone();
        changed.skills.get_mut("a").unwrap().commit = Some("2".repeat(40));
        let bytes = String::from_utf8(changed.to_bytes()).unwrap();
        assert!(bytes.contains("\"a\": {\n      \"commit\""), "{bytes}");
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
        let bytes = String::from_utf8(lock.canonical_bytes()).unwrap();
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
