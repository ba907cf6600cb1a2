//! The activation block of one skill (level 2): its instructions, where it lives, the files it
//! can read on demand, and the tools and resources of its package.
//!
//! The body is given verbatim (models read Markdown, not XML entities), except that a
//! `<skill_content` or `</skill_content` inside it is escaped: a skill cannot close its own
//! element and pose as another. Everything else that is text is XML-escaped.

use std::fmt::Write as _;

use super::absolute;
use super::xml::escape;
use crate::skill::Skill;
use crate::skill::inventory::Inventory;
use crate::skill::package::Package;

/// The parts of an activation block, shared by the block itself and by templates.
#[derive(Debug, Clone)]
pub struct Activation {
    pub name: String,
    pub body: String,
    /// Absolute folder path, or `skill://<name>/` with URIs.
    pub directory: String,
    /// Files the agent may read, relative to the folder (SKILL.md itself excluded).
    pub files: Vec<String>,
    pub package: Package,
}

impl Activation {
    pub fn new(skill: &Skill, uri: bool) -> Activation {
        let name = skill.name().unwrap_or_else(|| skill.dir_name());
        let inventory = Inventory::scan(&skill.dir);
        let own = skill.file_name();
        let files = inventory
            .servable()
            .filter(|f| f.rel != own)
            .map(|f| f.rel.clone())
            .collect();
        let directory = if uri {
            format!("skill://{name}/")
        } else {
            absolute(&skill.dir).to_string_lossy().into_owned()
        };
        let (package, _) = Package::load(&skill.dir);
        Activation {
            name,
            body: skill.body().trim_matches(['\n', '\r']).to_owned(),
            directory,
            files,
            package,
        }
    }

    /// `<skill_content name="…">…</skill_content>` with a final newline.
    pub fn render(&self) -> String {
        let mut out = format!("<skill_content name=\"{}\">\n", escape(&self.name));
        let body = neutralize(&self.body);
        if !body.is_empty() {
            out.push_str(&body);
            out.push_str("\n\n");
        }
        let _ = writeln!(out, "Skill directory: {}", escape(&self.directory));
        out.push_str("Relative paths in this skill are relative to the skill directory.\n");
        if !self.files.is_empty() {
            out.push_str("\n<skill_resources>\n");
            for file in &self.files {
                let _ = writeln!(out, "  <file>{}</file>", escape(file));
            }
            out.push_str("</skill_resources>\n");
        }
        if !self.package.tools.is_empty() {
            out.push_str("\n<skill_tools>\n");
            for tool in &self.package.tools {
                let schema = serde_json::to_string(&tool.input_schema).unwrap_or_default();
                let _ = write!(
                    out,
                    "  <tool>\n    <name>{}</name>\n    <description>{}</description>\n    <input_schema>{}</input_schema>\n  </tool>\n",
                    escape(&tool.name),
                    escape(&tool.description),
                    escape(&schema)
                );
            }
            out.push_str("</skill_tools>\n");
        }
        if !self.package.resources.is_empty() {
            out.push_str("\n<skill_mcp_resources>\n");
            for resource in &self.package.resources {
                let _ = write!(
                    out,
                    "  <resource>\n    <uri>{}</uri>\n    <name>{}</name>\n",
                    escape(&resource.uri),
                    escape(&resource.name)
                );
                if let Some(description) = &resource.description {
                    let _ = writeln!(
                        out,
                        "    <description>{}</description>",
                        escape(description)
                    );
                }
                if let Some(mime) = &resource.mime_type {
                    let _ = writeln!(out, "    <mime_type>{}</mime_type>", escape(mime));
                }
                out.push_str("  </resource>\n");
            }
            out.push_str("</skill_mcp_resources>\n");
        }
        out.push_str("</skill_content>\n");
        out
    }
}

/// Escapes the `<` of every `<skill_content` / `</skill_content` (any case) in `body`.
fn neutralize(body: &str) -> String {
    let lower = body.to_ascii_lowercase();
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for (i, _) in lower.match_indices('<') {
        let rest = &lower[i + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        if rest.starts_with("skill_content") {
            out.push_str(&body[last..i]);
            out.push_str("&lt;");
            last = i + 1;
        }
    }
    out.push_str(&body[last..]);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn bodies_cannot_close_their_element() {
        assert_eq!(
            super::neutralize("a </skill_content><SKILL_CONTENT name=\"x\"> <b>"),
            "a &lt;/skill_content>&lt;SKILL_CONTENT name=\"x\"> <b>"
        );
    }
}
