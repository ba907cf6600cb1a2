//! The immutable snapshot `serve` answers from: every served file's bytes, size and digest,
//! taken at one moment, so what `skills/list` promises is exactly what `resources/read` returns.
//!
//! Invariants: a URI is looked up in the snapshot, never turned into a path; only files of
//! [`Inventory::servable`] are in it (no dotfiles, no secret-named files, no links leaving the
//! skill), each at most [`Limits::max_file`]; a skill over the SEP-2640 limits (512 files,
//! 16 MiB) is served with `resources: "dynamic"`: its files can still be read one by one, but no
//! manifest is promised. A skill whose name cannot be a URI segment is not served (and logged).

use std::collections::HashMap;
use std::path::PathBuf;

use rayon::prelude::*;
use serde_json::{Map, Value};

use crate::index::SkillIndex;
use crate::prompt::activation::Activation;
use crate::skill::Skill;
use crate::skill::inventory::Inventory;
use crate::skill::package::{Package, RESOURCES_FILE, TOOLS_FILE};

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
            max_file: 4 << 20,
            max_skill_files: 512,
            max_skill_bytes: 16 << 20,
        }
    }
}

/// A served file.
#[derive(Debug, Clone)]
pub struct File {
    /// Path inside the skill, `/`-separated.
    pub rel: String,
    pub uri: String,
    pub size: u64,
    /// `sha256:<hex>`.
    pub digest: String,
    pub mime: &'static str,
    pub bytes: Box<[u8]>,
    /// Where it is on disk (for the `file_path` answers of the skill-to-mcp tools).
    pub path: PathBuf,
}

/// A served skill.
#[derive(Debug, Clone)]
pub struct SkillEntry {
    pub name: String,
    pub description: String,
    pub dir: PathBuf,
    /// The frontmatter as written, as JSON.
    pub frontmatter: Map<String, Value>,
    /// Where the body starts in the bytes of SKILL.md (`files[0]`).
    body_offset: usize,
    /// SKILL.md first, then the others in path order.
    pub files: Vec<File>,
    /// Over the manifest limits: `resources: "dynamic"`.
    pub dynamic: bool,
    pub package: Package,
}

impl SkillEntry {
    pub fn skill_md_uri(&self) -> String {
        uri(&self.name, crate::skill::SKILL_MD)
    }

    pub fn file(&self, rel: &str) -> Option<&File> {
        self.files.iter().find(|f| f.rel == rel)
    }

    /// SKILL.md after its frontmatter, from the bytes served.
    pub fn body(&self) -> &str {
        std::str::from_utf8(&self.files[0].bytes)
            .ok()
            .and_then(|text| text.get(self.body_offset..))
            .unwrap_or_default()
    }

    /// The activation block (level 2) of this skill, with `skill://` locations.
    pub fn activation(&self) -> String {
        Activation {
            name: self.name.clone(),
            body: self.body().trim_matches(['\n', '\r']).to_owned(),
            directory: format!("skill://{}/", self.name),
            files: self.files.iter().skip(1).map(|f| f.rel.clone()).collect(),
            package: self.package.clone(),
        }
        .render()
    }

    /// `{"skill": name, "files": [{"path","size","hash"}]}`, the `_manifest` resource.
    pub fn manifest(&self) -> Value {
        let files: Vec<Value> = self
            .files
            .iter()
            .map(|f| serde_json::json!({"path": f.rel, "size": f.size, "hash": f.digest}))
            .collect();
        serde_json::json!({"skill": self.name, "files": files})
    }
}

/// Everything served, at one moment.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// By name.
    pub skills: Vec<SkillEntry>,
    by_name: HashMap<String, usize>,
    /// `skill://prompt-xml`: the catalog with URI locations.
    pub catalog_xml: String,
    /// Skills not served, with why (logged on stderr).
    pub skipped: Vec<String>,
}

/// What a URI path segment escapes: everything but RFC 3986's unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Whether `name` can be a URI path segment as it is (nothing in it needs escaping).
fn unreserved(name: &str) -> bool {
    let encoded = std::borrow::Cow::from(percent_encoding::utf8_percent_encode(name, SEGMENT));
    matches!(encoded, std::borrow::Cow::Borrowed(_))
}

/// `skill://<name>/<rel>` with every segment of `rel` percent-encoded as needed.
pub fn uri(name: &str, rel: &str) -> String {
    let segments: Vec<String> = rel
        .split('/')
        .map(|segment| percent_encoding::utf8_percent_encode(segment, SEGMENT).to_string())
        .collect();
    format!("skill://{name}/{}", segments.join("/"))
}

/// Splits `skill://<name>/<rest>` into the name and the decoded path; `None` for anything else,
/// including a `%` not followed by two hex digits and escapes that do not decode to UTF-8.
pub fn parse_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix("skill://")?;
    let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
    let escapes_valid = path.split('%').skip(1).all(|after| {
        after
            .get(..2)
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if !escapes_valid {
        return None;
    }
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    Some((name.to_owned(), path.trim_end_matches('/').to_owned()))
}

/// A MIME type from the file name.
pub fn mime(rel: &str) -> &'static str {
    let extension = rel
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" | "text" => "text/plain",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "xml" => "application/xml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "py" => "text/x-python",
        "sh" | "bash" | "zsh" => "text/x-shellscript",
        "rb" => "text/x-ruby",
        "rs" => "text/x-rust",
        "go" => "text/x-go",
        "java" => "text/x-java",
        "sql" => "application/sql",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "" if rel
            .rsplit('/')
            .next()
            .is_some_and(|n| n == "LICENSE" || n == "Makefile" || n == "Dockerfile") =>
        {
            "text/plain"
        }
        _ => "application/octet-stream",
    }
}

impl Snapshot {
    /// Builds the snapshot of the skills `index` found.
    /// Takes the skills of `index` (their SKILL.md bytes move into the snapshot).
    pub fn build(index: SkillIndex, limits: Limits) -> Snapshot {
        let mut snapshot = Snapshot::default();
        let mut skills = Vec::new();
        for entry in index
            .entries
            .into_iter()
            .filter(|e| e.shadowed_by.is_none())
        {
            match entry.skill {
                Ok(skill) => skills.push(skill),
                Err(err) => snapshot
                    .skipped
                    .push(format!("`{}` is not served: {err}", entry.file.display())),
            }
        }
        let built: Vec<Result<SkillEntry, String>> = skills
            .into_par_iter()
            .map(|skill| entry(skill, limits))
            .collect();
        for item in built {
            match item {
                Ok(entry) => snapshot.skills.push(entry),
                Err(why) => snapshot.skipped.push(why),
            }
        }

        snapshot.skills.sort_by(|a, b| a.name.cmp(&b.name));
        snapshot.by_name = snapshot
            .skills
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), i))
            .collect();
        let entries: Vec<crate::prompt::Entry> = snapshot
            .skills
            .iter()
            .map(|s| crate::prompt::Entry {
                name: s.name.clone(),
                description: s.description.clone(),
                location: s.skill_md_uri(),
                uri: s.skill_md_uri(),
                metadata: Value::Null,
                dir: s.dir.clone(),
                file: s.dir.join(crate::skill::SKILL_MD),
            })
            .collect();
        snapshot.catalog_xml = crate::prompt::xml::catalog(&entries);
        snapshot
    }

    pub fn get(&self, name: &str) -> Option<&SkillEntry> {
        self.by_name.get(name).map(|&i| &self.skills[i])
    }

    /// The skill and file a `skill://` URI names.
    pub fn resolve(&self, uri: &str) -> Option<(&SkillEntry, &File)> {
        let (name, rel) = parse_uri(uri)?;
        let skill = self.get(&name)?;
        Some((skill, skill.file(&rel)?))
    }

    /// Names of all served skills, for error messages.
    pub fn names(&self) -> Vec<String> {
        self.skills.iter().map(|s| s.name.clone()).collect()
    }
}

fn entry(skill: Skill, limits: Limits) -> Result<SkillEntry, String> {
    let name = skill
        .name()
        .ok_or_else(|| format!("`{}` is not served: it has no name", skill.file.display()))?;
    if !unreserved(&name) {
        return Err(format!(
            "`{name}` is not served: its name cannot be a URI segment (use a-z, 0-9 and `-`)"
        ));
    }
    let description = skill.description().unwrap_or_default();
    let inventory = Inventory::scan(&skill.dir);
    let own = skill.file_name();
    let (frontmatter, body_offset) = (skill.frontmatter.map.clone(), skill.body_offset);
    let mut text = skill.complete.then_some(skill.text);
    let mut files: Vec<File> = Vec::new();
    for item in inventory.servable() {
        if item.size > limits.max_file {
            continue;
        }
        let main = item.rel == own;
        // The index read SKILL.md whole already: those are its bytes.
        let bytes = if main && let Some(text) = text.take() {
            text.into_bytes()
        } else {
            let Ok(bytes) = crate::skill::read_file(&item.path, Some(item.size)) else {
                continue;
            };
            bytes
        };
        // A SKILL.md that is `skill.md` on disk is served under the name the spec gives.
        let rel = if main {
            crate::skill::SKILL_MD.to_owned()
        } else {
            item.rel.clone()
        };

        files.push(File {
            uri: uri(&name, &rel),
            size: bytes.len() as u64,
            digest: crate::lock::digest(&bytes),
            mime: mime(&rel),
            bytes: bytes.into_boxed_slice(),
            path: item.path.clone(),
            rel,
        });
    }
    // SKILL.md first: the manifest lists its own entry point before anything else.
    files.sort_by(|a, b| {
        (a.rel != crate::skill::SKILL_MD, &a.rel).cmp(&(b.rel != crate::skill::SKILL_MD, &b.rel))
    });
    if files
        .first()
        .is_none_or(|f| f.rel != crate::skill::SKILL_MD)
    {
        return Err(format!(
            "`{name}` is not served: its SKILL.md cannot be read"
        ));
    }
    let total: u64 = files.iter().map(|f| f.size).sum();
    let dynamic = files.len() > limits.max_skill_files || total > limits.max_skill_bytes;
    // The package as served: from the snapshot's bytes, no second read.
    let served = |name: &str| files.iter().find(|f| f.rel == name).map(|f| &*f.bytes);
    let (package, _) = Package::parse(served(TOOLS_FILE), served(RESOURCES_FILE));
    Ok(SkillEntry {
        name,
        description,
        dir: skill.dir,
        frontmatter,
        body_offset,

        files,
        dynamic,
        package,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_and_refuse_oddities() {
        assert_eq!(
            uri("pdf", "references/a b.md"),
            "skill://pdf/references/a%20b.md"
        );
        assert_eq!(
            parse_uri("skill://pdf/references/a%20b.md"),
            Some(("pdf".into(), "references/a b.md".into()))
        );
        assert_eq!(
            parse_uri("skill://pdf/%2e%2e/x"),
            Some(("pdf".into(), "../x".into())),
            "decoded, then not found"
        );
        assert_eq!(parse_uri("skill://pdf/%zz"), None);
        assert_eq!(parse_uri("skill://pdf/%+1"), None);
        assert_eq!(parse_uri("skill://pdf/%ff"), None, "not UTF-8");
        assert_eq!(uri("pdf", "r/é~_-.md"), "skill://pdf/r/%C3%A9~_-.md");
        assert_eq!(
            parse_uri(&uri("pdf", "r/é (1)#?.md")),
            Some(("pdf".into(), "r/é (1)#?.md".into()))
        );
        assert!(unreserved("my-skill_2.0~x") && !unreserved("my skill") && !unreserved("é"));
        assert_eq!(parse_uri("file:///etc/passwd"), None);
        assert_eq!(mime("SKILL.md"), "text/markdown");
        assert_eq!(mime("logo.PNG"), "image/png");
    }
}
