//! `skills-lock.json`: what is installed, from where, at which commit, with which hashes.
//!
//! The project lock is the reference installer's version-1 schema (so `npx skills` reads ours
//! and we read theirs) plus our own fields, which the reference ignores: `commit`, `agents`,
//! `mode`, `files`. The on-disk struct ([`ProjectLockWire`]) is converted into a validated
//! model ([`Lock`]) with errors that name the entry; unknown fields are kept as written.
//! The writer is canonical: keys sorted at every level, two-space indent, final newline, no
//! timestamps, rewritten only when the content changed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const PROJECT_LOCK: &str = "skills-lock.json";
pub const PROJECT_LOCK_VERSION: u64 = 1;

/// Where a skill came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceType {
    Github,
    Gitlab,
    Git,
    Local,
    WellKnown,
}

impl SourceType {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceType::Github => "github",
            SourceType::Gitlab => "gitlab",
            SourceType::Git => "git",
            SourceType::Local => "local",
            SourceType::WellKnown => "well-known",
        }
    }

    fn parse(text: &str) -> Option<SourceType> {
        [
            SourceType::Github,
            SourceType::Gitlab,
            SourceType::Git,
            SourceType::Local,
            SourceType::WellKnown,
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
}

impl InstallMode {
    pub fn as_str(self) -> &'static str {
        match self {
            InstallMode::Copy => "copy",
            InstallMode::Symlink => "symlink",
        }
    }
}

/// One locked skill, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct LockEntry {
    /// As the user typed it (`owner/repo`, a path relative to the lock, a URL).
    pub source: String,
    pub source_type: SourceType,
    pub source_url: Option<String>,
    /// The ref asked for (branch or tag), when one was.
    pub git_ref: Option<String>,
    /// The SKILL.md inside the source (`skills/pdf/SKILL.md`).
    pub skill_path: Option<String>,
    /// The reference installer's hash of the skill folder (64 hex digits).
    pub computed_hash: String,
    /// The resolved commit (40 hex digits), for git sources.
    pub commit: Option<String>,
    /// Agent ids the skill was installed for.
    pub agents: Vec<String>,
    pub mode: Option<InstallMode>,
    /// `relative/path` → `sha256:<hex>` of every installed file.
    pub files: BTreeMap<String, String>,
    /// Fields neither we nor the reference know, kept as written.
    pub extra: Map<String, Value>,
}

/// A project lockfile, validated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    pub skills: BTreeMap<String, LockEntry>,
    /// Top-level fields we do not know, kept as written.
    pub extra: Map<String, Value>,
}

/// The project lock as it is on disk.
#[derive(Debug, Serialize, Deserialize)]
pub struct ProjectLockWire {
    pub version: u64,
    #[serde(default)]
    pub skills: BTreeMap<String, EntryWire>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryWire {
    pub source: Option<String>,
    pub source_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub git_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_path: Option<String>,
    pub computed_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, String>>,
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
    /// Reads the lock at `path`; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Lock>, LockError> {
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
        Lock::parse(path, &bytes).map(Some)
    }

    /// Parses and validates the bytes of a project lock (`path` names it in errors).
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Lock, LockError> {
        let wire: ProjectLockWire =
            serde_json::from_slice(bytes).map_err(|source| LockError::Json {
                path: path.to_path_buf(),
                source,
            })?;
        if wire.version != PROJECT_LOCK_VERSION {
            return Err(LockError::Version {
                path: path.to_path_buf(),
                found: wire.version,
                expected: PROJECT_LOCK_VERSION,
            });
        }
        let mut skills = BTreeMap::new();
        for (name, entry) in wire.skills {
            let problem = |problem: String| LockError::Entry {
                path: path.to_path_buf(),
                name: name.clone(),
                problem,
            };
            let source = entry
                .source
                .ok_or_else(|| problem("has no `source`".into()))?;
            let source_type = entry
                .source_type
                .ok_or_else(|| problem("has no `sourceType`".into()))?;
            let source_type = SourceType::parse(&source_type)
                .ok_or_else(|| problem(format!("has an unknown `sourceType` `{source_type}`")))?;
            let computed_hash = entry
                .computed_hash
                .ok_or_else(|| problem("has no `computedHash`".into()))?;
            if !is_hex(&computed_hash, 64) {
                return Err(problem(format!(
                    "has a `computedHash` that is not 64 hex digits: `{computed_hash}`"
                )));
            }
            if let Some(commit) = &entry.commit
                && !is_hex(commit, 40)
            {
                return Err(problem(format!(
                    "has a `commit` that is not 40 hex digits: `{commit}`"
                )));
            }
            let mode = match entry.mode.as_deref() {
                None => None,
                Some("copy") => Some(InstallMode::Copy),
                Some("symlink") => Some(InstallMode::Symlink),
                Some(other) => return Err(problem(format!("has an unknown `mode` `{other}`"))),
            };
            let files = entry.files.unwrap_or_default();
            if let Some((file, digest)) = files
                .iter()
                .find(|(_, d)| !d.strip_prefix("sha256:").is_some_and(|h| is_hex(h, 64)))
            {
                return Err(problem(format!(
                    "lists `{file}` with a digest that is not `sha256:<hex>`: `{digest}`"
                )));
            }
            skills.insert(
                name.clone(),
                LockEntry {
                    source,
                    source_type,
                    source_url: entry.source_url,
                    git_ref: entry.git_ref,
                    skill_path: entry.skill_path,
                    computed_hash,
                    commit: entry.commit,
                    agents: entry.agents.unwrap_or_default(),
                    mode,
                    files,
                    extra: entry.extra,
                },
            );
        }
        Ok(Lock {
            skills,
            extra: wire.extra,
        })
    }

    /// The canonical bytes of this lock.
    pub fn to_bytes(&self) -> Vec<u8> {
        let wire = ProjectLockWire {
            version: PROJECT_LOCK_VERSION,
            skills: self
                .skills
                .iter()
                .map(|(name, e)| {
                    let entry = EntryWire {
                        source: Some(e.source.clone()),
                        source_type: Some(e.source_type.as_str().to_owned()),
                        source_url: e.source_url.clone(),
                        git_ref: e.git_ref.clone(),
                        skill_path: e.skill_path.clone(),
                        computed_hash: Some(e.computed_hash.clone()),
                        commit: e.commit.clone(),
                        agents: (!e.agents.is_empty()).then(|| e.agents.clone()),
                        mode: e.mode.map(|m| m.as_str().to_owned()),
                        files: (!e.files.is_empty()).then(|| e.files.clone()),
                        extra: e.extra.clone(),
                    };
                    (name.clone(), entry)
                })
                .collect(),
            extra: self.extra.clone(),
        };
        canonical_json(&serde_json::to_value(&wire).unwrap_or(Value::Null))
    }

    /// Writes the lock to `path` atomically, only when its bytes change; returns whether it wrote.
    pub fn write(&self, path: &Path) -> Result<bool, LockError> {
        crate::fsutil::write_if_changed(path, &self.to_bytes()).map_err(|source| LockError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// JSON with object keys sorted at every level, two-space indent and a final newline.
pub fn canonical_json(value: &Value) -> Vec<u8> {
    fn sort(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sort(&map[k])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sort).collect()),
            other => other.clone(),
        }
    }
    let mut bytes = serde_json::to_vec_pretty(&sort(value)).unwrap_or_default();
    bytes.push(b'\n');
    bytes
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
        assert_eq!(lock.skills["alpha"].source_type, SourceType::Git);
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
