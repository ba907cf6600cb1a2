//! Skill packages: the scoped MCP tools (`tools.json`) and resources (`resources.json`) a skill
//! folder may carry (the router/specialist design).
//!
//! Loading is tolerant: valid entries are kept, every problem is returned with where it is, so
//! that lint reports all of them and `prompt`/`serve` use what is valid.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

pub const TOOLS_FILE: &str = "tools.json";
pub const RESOURCES_FILE: &str = "resources.json";

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Package {
    pub tools: Vec<Tool>,
    pub resources: Vec<Resource>,
}

/// An MCP tool definition scoped to a skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
}

/// An MCP resource scoped to a skill.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    InvalidJson,
    ToolFields,
    ToolDuplicate,
    ToolSchema,
    ResourceFields,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    /// `tools.json` or `resources.json`.
    pub file: &'static str,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Package {
    /// Loads the package files of the skill folder `dir`; absent files are an empty package.
    pub fn load(dir: &Path) -> (Package, Vec<Problem>) {
        let read = |name: &str| crate::fsutil::read_manifest(&dir.join(name)).ok();
        Package::parse(read(TOOLS_FILE).as_deref(), read(RESOURCES_FILE).as_deref())
    }

    /// Parses the bytes of `tools.json` and `resources.json` when present.
    pub fn parse(tools: Option<&[u8]>, resources: Option<&[u8]>) -> (Package, Vec<Problem>) {
        let mut package = Package::default();
        let mut problems = Vec::new();
        if let Some(bytes) = tools {
            package.tools = parse_tools(bytes, &mut problems);
        }
        if let Some(bytes) = resources {
            package.resources = parse_resources(bytes, &mut problems);
        }
        (package, problems)
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.resources.is_empty()
    }
}

/// The list in `bytes`: a top-level array, or the array under `key` of a top-level object.
fn entries(
    bytes: &[u8],
    file: &'static str,
    key: &str,
    problems: &mut Vec<Problem>,
) -> Option<(Vec<Value>, String)> {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(err) => {
            problems.push(Problem {
                kind: ProblemKind::InvalidJson,
                file,
                line: err.line().max(1),
                col: err.column().max(1),
                message: format!("`{file}` is not valid JSON: {err}"),
            });
            return None;
        }
    };
    let list = match value {
        Value::Array(list) => list,
        Value::Object(mut map) if map.get(key).is_some_and(Value::is_array) => {
            match map.remove(key) {
                Some(Value::Array(list)) => list,
                _ => Vec::new(),
            }
        }
        _ => {
            problems.push(Problem {
                kind: ProblemKind::InvalidJson,
                file,
                line: 1,
                col: 1,
                message: format!("`{file}` must be a list, or an object with a `{key}` list"),
            });
            return None;
        }
    };
    Some((list, text))
}

/// The line of the first occurrence of `"needle"` in `text` (1 when not found).
fn line_of(text: &str, needle: &str) -> usize {
    let quoted = format!("\"{needle}\"");
    text.find(&quoted)
        .map_or(1, |offset| text[..offset].matches('\n').count() + 1)
}

fn is_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn parse_tools(bytes: &[u8], problems: &mut Vec<Problem>) -> Vec<Tool> {
    let Some((list, text)) = entries(bytes, TOOLS_FILE, "tools", problems) else {
        return Vec::new();
    };
    let mut tools: Vec<Tool> = Vec::new();
    for (index, entry) in list.into_iter().enumerate() {
        let name = entry.get("name").and_then(Value::as_str).map(str::to_owned);
        let line = name.as_deref().map_or(1, |n| line_of(&text, n));
        let mut problem = |kind, message: String| {
            problems.push(Problem {
                kind,
                file: TOOLS_FILE,
                line,
                col: 1,
                message,
            });
        };
        let label = name
            .clone()
            .map_or_else(|| format!("tool #{}", index + 1), |n| format!("tool `{n}`"));
        let Some(name) = name.filter(|n| is_tool_name(n)) else {
            problem(
                ProblemKind::ToolFields,
                format!("{label} needs a `name` of 1–128 letters, digits, `_`, `-` or `.`"),
            );
            continue;
        };
        let Some(description) = entry.get("description").and_then(Value::as_str) else {
            problem(
                ProblemKind::ToolFields,
                format!("{label} needs a `description` string"),
            );
            continue;
        };
        let Some(schema) = entry.get("inputSchema") else {
            problem(
                ProblemKind::ToolFields,
                format!("{label} needs an `inputSchema`"),
            );
            continue;
        };
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            problem(
                ProblemKind::ToolSchema,
                format!("{label}: `inputSchema` must be a JSON Schema with `\"type\": \"object\"`"),
            );
            continue;
        }
        if tools.iter().any(|t| t.name == name) {
            problem(
                ProblemKind::ToolDuplicate,
                format!("tool `{name}` is defined twice"),
            );
            continue;
        }
        tools.push(Tool {
            name,
            description: description.to_owned(),
            input_schema: schema.clone(),
        });
    }
    tools
}

fn parse_resources(bytes: &[u8], problems: &mut Vec<Problem>) -> Vec<Resource> {
    let Some((list, text)) = entries(bytes, RESOURCES_FILE, "resources", problems) else {
        return Vec::new();
    };
    let mut resources = Vec::new();
    for (index, entry) in list.into_iter().enumerate() {
        let uri = entry.get("uri").and_then(Value::as_str).map(str::to_owned);
        let line = uri.as_deref().map_or(1, |u| line_of(&text, u));
        let label = uri.clone().map_or_else(
            || format!("resource #{}", index + 1),
            |u| format!("resource `{u}`"),
        );
        let mut problem = |message: String| {
            problems.push(Problem {
                kind: ProblemKind::ResourceFields,
                file: RESOURCES_FILE,
                line,
                col: 1,
                message,
            });
        };
        let Some(uri) = uri.filter(|u| has_scheme(u)) else {
            problem(format!(
                "{label} needs a `uri` with a scheme, such as `file:///…` or `docs://…`"
            ));
            continue;
        };
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            problem(format!("{label} needs a `name` string"));
            continue;
        };
        let optional = |key: &str| -> Result<Option<String>, ()> {
            match entry.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(()),
            }
        };
        let (Ok(description), Ok(mime_type)) = (optional("description"), optional("mimeType"))
        else {
            problem(format!(
                "{label}: `description` and `mimeType` must be strings"
            ));
            continue;
        };
        resources.push(Resource {
            uri,
            name: name.to_owned(),
            description,
            mime_type,
        });
    }
    resources
}

/// `scheme:rest` with a scheme of RFC 3986 characters.
fn has_scheme(uri: &str) -> bool {
    uri.split_once(':').is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_shapes() {
        let tools = br#"{"tools": [{"name": "convert", "description": "d", "inputSchema": {"type": "object"}}]}"#;
        let resources = br#"[{"uri": "docs://a", "name": "A", "mimeType": "text/plain"}]"#;
        let (package, problems) = Package::parse(Some(tools), Some(resources));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(package.tools[0].name, "convert");
        assert_eq!(
            package.resources[0].mime_type.as_deref(),
            Some("text/plain")
        );
    }

    #[test]
    fn reports_every_problem() {
        let tools = br#"[
  {"name": "a", "description": "d", "inputSchema": {"type": "object"}},
  {"name": "a", "description": "d", "inputSchema": {"type": "object"}},
  {"name": "b", "inputSchema": {}},
  {"name": "c", "description": "d", "inputSchema": {"type": "string"}},
  {"description": "no name"}
]"#;
        let (package, problems) = Package::parse(Some(tools), Some(b"[{\"uri\": \"nope\"}]"));
        let kinds: Vec<_> = problems.iter().map(|p| (&p.kind, p.line)).collect();
        assert_eq!(
            kinds,
            [
                (&ProblemKind::ToolDuplicate, 2),
                (&ProblemKind::ToolFields, 4),
                (&ProblemKind::ToolSchema, 5),
                (&ProblemKind::ToolFields, 1),
                (&ProblemKind::ResourceFields, 1),
            ]
        );
        assert_eq!(package.tools.len(), 1);
        let (_, problems) = Package::parse(Some(b"{\"tools\": 1"), None);
        assert_eq!(problems[0].kind, ProblemKind::InvalidJson);
    }
}
