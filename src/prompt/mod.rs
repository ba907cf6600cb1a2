//! Prompt rendering: the catalog of available skills (level 1 of progressive disclosure) and the
//! activation block of one skill (level 2), in several formats.
//!
//! Every renderer takes the same [`Entry`] list built from the index, so `prompt`, `serve` (the
//! `skill://prompt-xml` resource) and templates agree on names, descriptions and locations.

pub mod activation;
pub mod template;
pub mod write;
pub mod xml;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::index::SkillIndex;
use crate::skill::Skill;

/// One skill in a catalog.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub name: String,
    pub description: String,
    /// Absolute path of SKILL.md, or its `skill://` URI with `--uri`.
    pub location: String,
    /// `skill://<name>/SKILL.md`: where `serve` exposes it.
    pub uri: String,
    /// The `metadata` map of the frontmatter (empty when absent).
    pub metadata: Value,
    /// The whole frontmatter as written (for `--format json`).
    #[serde(skip)]
    pub frontmatter: serde_json::Map<String, Value>,
    #[serde(skip)]
    pub dir: PathBuf,
    #[serde(skip)]
    pub file: PathBuf,
}

/// A skill left out of the catalog because it cannot be read or lacks a required field.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct CatalogOptions {
    /// Locations are `skill://` URIs instead of paths.
    pub uri: bool,
    /// Keep skills hidden from models (`disable-model-invocation: true`, `metadata.internal: true`).
    pub all: bool,
}

/// The URI `serve` gives a skill's SKILL.md.
pub fn skill_uri(name: &str) -> String {
    format!("skill://{name}/SKILL.md")
}

/// An absolute path without resolving symlinks: agents should see the path they were given
/// (`.claude/skills/x`), not where a symlink happens to lead.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Why a loaded skill has no catalog entry: a required field is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error("it has no `name`")]
    NoName,
    #[error("it has no `description`")]
    NoDescription,
}

/// The catalog entry of a loaded skill; an error when a required field is missing.
pub fn entry(skill: &Skill, options: CatalogOptions) -> Result<Entry, EntryError> {
    let name = skill.name().ok_or(EntryError::NoName)?;
    let description = skill.description().ok_or(EntryError::NoDescription)?;
    let uri = skill_uri(&name);
    let location = if options.uri {
        uri.clone()
    } else {
        absolute(&skill.file).to_string_lossy().into_owned()
    };
    let metadata = match skill.frontmatter.map.get("metadata") {
        Some(Value::Object(map)) => Value::Object(map.clone()),
        _ => Value::Object(serde_json::Map::new()),
    };
    Ok(Entry {
        name,
        description,
        location,
        uri,
        metadata,
        frontmatter: skill.frontmatter.map.clone(),
        dir: skill.dir.clone(),
        file: skill.file.clone(),
    })
}

/// The catalog of `index`: visible skills in index order, and those left out with why.
pub fn catalog(index: &SkillIndex, options: CatalogOptions) -> (Vec<Entry>, Vec<Skipped>) {
    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    for item in index.entries.iter().filter(|e| e.shadowed_by.is_none()) {
        match &item.skill {
            Ok(skill) => {
                if !options.all && (skill.disables_model_invocation() || skill.is_internal()) {
                    continue;
                }
                match entry(skill, options) {
                    Ok(entry) => entries.push(entry),
                    Err(reason) => skipped.push(Skipped {
                        path: item.file.clone(),
                        reason: reason.to_string(),
                    }),
                }
            }
            Err(err) => skipped.push(Skipped {
                path: item.file.clone(),
                reason: err.to_string(),
            }),
        }
    }
    (entries, skipped)
}

/// `{"version": 1, "skills": [{name, description, location, uri, frontmatter}]}`: data, so the
/// description and the whole frontmatter are as YAML reads them (a folded description keeps its
/// final newline), unlike the catalogs for models, which trim. A `--write` marker in a string
/// is written `\u003c!-- …`: the same string to a JSON reader, no marker in the text.
pub fn json(entries: &[Entry]) -> String {
    let skills: Vec<JsonEntry<'_>> = entries
        .iter()
        .map(|e| JsonEntry {
            name: &e.name,
            description: match e.frontmatter.get("description") {
                Some(Value::String(text)) => text,
                _ => &e.description,
            },
            location: &e.location,
            uri: &e.uri,
            frontmatter: &e.frontmatter,
        })
        .collect();
    let text = crate::json::pretty(&crate::json::Skills::new(&skills)).unwrap_or_default();
    write::neutralise_json(&text).into_owned()
}

/// An item of the catalog's `--format json`.
#[derive(Serialize)]
struct JsonEntry<'a> {
    name: &'a str,
    description: &'a str,
    location: &'a str,
    uri: &'a str,
    frontmatter: &'a serde_json::Map<String, Value>,
}

/// `- **name**: description` lines (line breaks in descriptions become spaces).
pub fn markdown(entries: &[Entry]) -> String {
    let mut out = String::new();
    for e in entries {
        let description = crate::output::single_line(&e.description, usize::MAX);
        let _ = writeln!(out, "- **{}**: {description}", e.name);
    }
    out
}

/// Byte-identical to `skills-ref to-prompt`: every tag and value on its own line, name and
/// description escaped as Python's `html.escape`, the location the resolved path, unescaped.
pub fn skills_ref(entries: &[Entry]) -> String {
    let mut out = String::from("<available_skills>\n");
    for e in entries {
        let resolved = std::fs::canonicalize(&e.dir).unwrap_or_else(|_| absolute(&e.dir));
        let file = e
            .file
            .file_name()
            .map_or_else(|| "SKILL.md".into(), |n| n.to_string_lossy().into_owned());
        out.push_str("<skill>\n<name>\n");
        out.push_str(&xml::html_escape(&e.name));
        out.push_str("\n</name>\n<description>\n");
        out.push_str(&xml::html_escape(&e.description));
        out.push_str("\n</description>\n<location>\n");
        out.push_str(&resolved.join(file).to_string_lossy());
        out.push_str("\n</location>\n</skill>\n");
    }
    out.push_str("</available_skills>\n");
    out
}
