//! Tools, for hosts that only call tools: `load_skill`, and the skill-to-mcp trio
//! `get_available_skills`, `get_skill_details`, `get_skill_related_file` with its result shapes
//! (`return_type` ∈ `content|file_path|both`, `both` by default as in its code). All read-only;
//! an unknown skill or file is an `isError` result that lists what exists.

use std::fmt::Write as _;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorData, JsonObject, Tool,
    ToolAnnotations,
};
use serde_json::{Value, json};

use super::snapshot::{SkillEntry, Snapshot};
use super::state::Shared;

fn schema(value: &Value) -> Arc<JsonObject> {
    Arc::new(value.as_object().cloned().unwrap_or_default())
}

fn read_only(title: &str) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
}

/// The description of `load_skill`: what it does and which skills there are.
fn load_skill_description(snapshot: &Snapshot) -> String {
    let mut text = String::from(
        "Load the full instructions of a skill (its SKILL.md). Call it when the user's request matches a skill below, then follow what it says.\n\nAvailable skills:",
    );
    for skill in snapshot.skills.iter().take(LISTED) {
        // Cut at a word boundary, with `…`: a definition that ends mid-word reads as a bug.
        let line = crate::output::single_line(&skill.summary(), usize::MAX);
        let short = crate::output::cut(&line, 240);
        let _ = write!(text, "\n- {}: {short}", skill.name);
    }
    if snapshot.skills.len() > LISTED {
        let _ = write!(
            text,
            "\n- … and {} more (see get_available_skills)",
            snapshot.skills.len() - LISTED
        );
    }
    text
}

/// Skills named in `load_skill`'s description and schema: a tool definition goes into every
/// prompt, so it does not grow with thousands of skills.
const LISTED: usize = 200;

const RETURN_TYPE: &str =
    "What to return: `content` (the text), `file_path` (where it is on disk) or `both` (default)";

pub fn list(snapshot: &Snapshot) -> Vec<Tool> {
    let mut skill_name = json!({"type": "string", "description": "Name of the skill"});
    // An enum of every name while they fit; beyond, the description says where the rest are.
    if snapshot.skills.len() <= LISTED {
        skill_name["enum"] = json!(snapshot.names());
    }
    vec![
        Tool::new(
            "load_skill",
            load_skill_description(snapshot),
            schema(&json!({
                "type": "object",
                "properties": {"skillName": skill_name},
                "required": ["skillName"],
            })),
        )
        .with_annotations(read_only("Load a skill")),
        Tool::new(
            "get_available_skills",
            "List every available skill with its name, description and folder.",
            schema(&json!({"type": "object", "properties": {}})),
        )
        .with_raw_output_schema(schema(&json!({
            "type": "object",
            "properties": {"result": {"type": "array", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "description": {"type": "string"}, "path": {"type": "string"}},
                "required": ["name", "description", "path"],
            }}},
            "required": ["result"],
        })))
        .with_annotations(read_only("List skills")),
        Tool::new(
            "get_skill_details",
            "Get a skill's SKILL.md and the list of its files.",
            schema(&json!({
                "type": "object",
                "properties": {
                    "skill_name": {"type": "string", "description": "Name of the skill"},
                    "return_type": {"type": "string", "enum": ["content", "file_path", "both"], "default": "both", "description": RETURN_TYPE},
                },
                "required": ["skill_name"],
            })),
        )
        .with_raw_output_schema(schema(&json!({
            "type": "object",
            "properties": {
                "skill_content": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"content": {"type": "string"}, "file_path": {"type": "string"}}}]},
                "files": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["skill_content", "files"],
        })))
        .with_annotations(read_only("Get a skill")),
        Tool::new(
            "get_skill_related_file",
            "Read one file of a skill (a reference, a script, a template), by its path inside the skill.",
            schema(&json!({
                "type": "object",
                "properties": {
                    "skill_name": {"type": "string", "description": "Name of the skill"},
                    "relative_path": {"type": "string", "description": "Path inside the skill folder, e.g. references/forms.md"},
                    "return_type": {"type": "string", "enum": ["content", "file_path", "both"], "default": "both", "description": RETURN_TYPE},
                },
                "required": ["skill_name", "relative_path"],
            })),
        )
        .with_raw_output_schema(schema(&json!({
            "type": "object",
            "properties": {"result": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"content": {"type": "string"}, "file_path": {"type": "string"}}}]}},
            "required": ["result"],
        })))
        .with_annotations(read_only("Read a skill file")),
    ]
}

/// What a caller got wrong: answered as an `isError` result (the client sees the message; the
/// server keeps serving).
struct Failure(String);

fn failure(message: String) -> Failure {
    Failure(message)
}

fn argument<'a>(request: &'a CallToolRequestParams, name: &str) -> Result<&'a str, Failure> {
    match request.arguments.as_ref().and_then(|a| a.get(name)) {
        Some(Value::String(value)) => Ok(value),
        Some(other) => Err(failure(format!("`{name}` must be a string, not {other}"))),
        None => Err(failure(format!("missing argument `{name}`"))),
    }
}

fn skill<'a>(snapshot: &'a Snapshot, name: &str) -> Result<&'a Arc<SkillEntry>, Failure> {
    snapshot.get(name).ok_or_else(|| {
        let shown: Vec<&str> = snapshot.skills.iter().take(20).map(|s| &*s.name).collect();
        let more = if snapshot.skills.len() > 20 {
            ", …"
        } else {
            ""
        };
        failure(format!(
            "no skill named `{name}`; available: {}{more}",
            shown.join(", ")
        ))
    })
}

enum ReturnType {
    Content,
    FilePath,
    Both,
}

fn return_type(request: &CallToolRequestParams) -> Result<ReturnType, Failure> {
    match request
        .arguments
        .as_ref()
        .and_then(|a| a.get("return_type"))
    {
        None | Some(Value::Null) => Ok(ReturnType::Both),
        Some(Value::String(s)) if s == "content" => Ok(ReturnType::Content),
        Some(Value::String(s)) if s == "file_path" => Ok(ReturnType::FilePath),
        Some(Value::String(s)) if s == "both" => Ok(ReturnType::Both),
        Some(other) => Err(failure(format!(
            "Invalid return_type: {other}. Must be 'content', 'file_path', or 'both'"
        ))),
    }
}

fn shaped(kind: &ReturnType, content: &str, path: &str) -> Value {
    match kind {
        ReturnType::Content => json!(content),
        ReturnType::FilePath => json!(path),
        ReturnType::Both => json!({"content": content, "file_path": path}),
    }
}

/// Runs a tool. Protocol errors (unknown tool) are `Err`; everything a caller can get wrong is an
/// `isError` result.
pub async fn call(
    shared: &Arc<Shared>,
    request: &CallToolRequestParams,
    log: &Arc<dyn Fn(String) + Send + Sync>,
) -> Result<CallToolResult, ErrorData> {
    let snapshot = shared.snapshot().await;
    let outcome = match request.name.as_ref() {
        "load_skill" => load_skill(shared, &snapshot, request, log).await,
        "get_available_skills" => Ok(available(&snapshot)),
        "get_skill_details" => details(shared, &snapshot, request, log).await,
        "get_skill_related_file" => related_file(shared, &snapshot, request, log).await,
        other => {
            return Err(ErrorData::invalid_params(
                format!(
                    "no tool `{other}`; tools: load_skill, get_available_skills, get_skill_details, get_skill_related_file"
                ),
                None,
            ));
        }
    };
    Ok(outcome.unwrap_or_else(|Failure(message)| {
        CallToolResult::error(vec![ContentBlock::text(message)])
    }))
}

/// The bytes of a file of `skill`, checked against its digest, as text.
async fn read_text(
    shared: &Arc<Shared>,
    skill: &SkillEntry,
    rel: &str,
    log: &Arc<dyn Fn(String) + Send + Sync>,
) -> Result<String, Failure> {
    let verified = shared
        .read(&skill.name, rel, Arc::clone(log))
        .await
        .map_err(|err| failure(err.to_string()))?;
    Ok(String::from_utf8_lossy(&verified.bytes).into_owned())
}

async fn load_skill(
    shared: &Arc<Shared>,
    snapshot: &Snapshot,
    request: &CallToolRequestParams,
    log: &Arc<dyn Fn(String) + Send + Sync>,
) -> Result<CallToolResult, Failure> {
    let skill = skill(snapshot, argument(request, "skillName")?)?;
    let text = read_text(shared, skill, crate::skill::SKILL_MD, log).await?;
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

fn available(snapshot: &Snapshot) -> CallToolResult {
    let skills: Vec<Value> = snapshot
        .skills
        .iter()
        .map(|s| json!({"name": s.name, "description": s.summary(), "path": s.dir.to_string_lossy()}))
        .collect();
    CallToolResult::structured(json!({"result": skills}))
}

async fn details(
    shared: &Arc<Shared>,
    snapshot: &Snapshot,
    request: &CallToolRequestParams,
    log: &Arc<dyn Fn(String) + Send + Sync>,
) -> Result<CallToolResult, Failure> {
    let skill = skill(snapshot, argument(request, "skill_name")?)?;
    let kind = return_type(request)?;
    let content = match kind {
        ReturnType::FilePath => String::new(),
        _ => read_text(shared, skill, crate::skill::SKILL_MD, log).await?,
    };
    let mut files: Vec<&str> = skill.files.iter().map(|f| &*f.rel).collect();
    files.sort_unstable();
    Ok(CallToolResult::structured(json!({
        "skill_content": shaped(&kind, &content, &skill.skill_md().to_string_lossy()),
        "files": files,
    })))
}

async fn related_file(
    shared: &Arc<Shared>,
    snapshot: &Snapshot,
    request: &CallToolRequestParams,
    log: &Arc<dyn Fn(String) + Send + Sync>,
) -> Result<CallToolResult, Failure> {
    let skill = skill(snapshot, argument(request, "skill_name")?)?;
    let wanted = argument(request, "relative_path")?.trim_start_matches("./");
    let kind = return_type(request)?;
    let file = skill.file(wanted).ok_or_else(|| {
        let files: Vec<&str> = skill.files.iter().map(|f| &*f.rel).collect();
        failure(format!(
            "the skill `{}` has no file `{wanted}`; files: {}",
            skill.name,
            files.join(", ")
        ))
    })?;
    let content = match kind {
        ReturnType::FilePath => String::new(),
        _ => read_text(shared, skill, wanted, log).await?,
    };
    Ok(CallToolResult::structured(
        json!({"result": shaped(&kind, &content, &skill.path(file).to_string_lossy())}),
    ))
}
