//! The MCP handler: resources, the Skills extension (SEP-2640), prompts and completion, all
//! answered from the current [`Snapshot`]; tools are in [`super::tools`].

use std::sync::Arc;

use base64::Engine as _;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, CustomRequest, CustomResult,
    DIRECTORY_MIME_TYPE, ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    GetSkillRequestParams, GetSkillResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, PaginatedRequestParams,
    Prompt, PromptMessage, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference, Resource,
    ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig, Skill,
    SkillFrontmatter, SkillResource, SkillResources, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use super::snapshot::{SkillEntry, Snapshot};
use super::state::{ReadError, Shared};
use super::uri::{parse_uri, uri};

/// Items per page of `skills/list` and `resources/list`.
const PAGE: usize = 200;
/// URI of the catalog resource.
pub const PROMPT_XML: &str = "skill://prompt-xml";
const TEMPLATE: &str = "skill://{skillName}/{+path}";
const MANIFEST: &str = "_manifest";

#[derive(Clone)]
pub struct SkillsServer {
    pub shared: Arc<Shared>,
    /// Where warnings go (stderr).
    pub log: Arc<dyn Fn(String) + Send + Sync>,
}

/// `-32602` naming what is served, for unknown skills and files.
pub fn unknown(what: &str, snapshot: &Snapshot) -> ErrorData {
    let shown: Vec<&str> = snapshot.skills.iter().take(20).map(|s| &*s.name).collect();
    let more = if snapshot.skills.len() > 20 {
        ", …"
    } else {
        ""
    };
    ErrorData::invalid_params(
        format!("{what}; served skills: {}{more}", shown.join(", ")),
        None,
    )
}

/// `-32602` for a resource that does not exist, with its URI in `data` as the 2026-07-28
/// protocol's "resource not found" error carries it.
fn not_found(uri: &str, error: ErrorData) -> ErrorData {
    ErrorData::invalid_params(error.message, Some(serde_json::json!({"uri": uri})))
}

/// One page of `len` items from `cursor` (an offset), item `i` made by `item(i)`, and the next
/// cursor. Only the page is built.
fn page<U>(
    len: usize,
    cursor: Option<&str>,
    item: impl Fn(usize) -> U,
) -> Result<(Vec<U>, Option<String>), ErrorData> {
    let start = start(cursor)?;
    if start > len {
        return Err(invalid_cursor(&start.to_string()));
    }
    let end = start.saturating_add(PAGE).min(len);
    let next = (end < len).then(|| end.to_string());
    Ok(((start..end).map(item).collect(), next))
}

/// Where a page starts: the offset a cursor carries.
fn start(cursor: Option<&str>) -> Result<usize, ErrorData> {
    cursor.map_or(Ok(0), |cursor| {
        cursor.parse::<usize>().map_err(|_| invalid_cursor(cursor))
    })
}

fn invalid_cursor(cursor: &str) -> ErrorData {
    ErrorData::invalid_params(format!("invalid cursor `{cursor}`"), None)
}

/// The SEP-2640 entry of a listed skill: the frontmatter as written, every file with digest and
/// size. (A listed skill's `name` and `description` are strings: see [`super::listing`].)
fn skill_entry(skill: &SkillEntry) -> Skill {
    let mut extra = skill.frontmatter_map();
    // `shift_remove` keeps the order of the other keys as written.
    let mut text = |key: &str| match extra.shift_remove(key) {
        Some(serde_json::Value::String(text)) => text,
        _ => String::new(),
    };
    let (name, description) = (text("name"), text("description"));
    let mut frontmatter = SkillFrontmatter::new(name, description);
    frontmatter.extra = extra;
    let resources = if skill.dynamic {
        SkillResources::Dynamic
    } else {
        SkillResources::Files(
            skill
                .files
                .iter()
                .map(|f| SkillResource::new(uri(&skill.name, &f.rel), f.digest(), f.size()))
                .collect(),
        )
    };
    Skill::new(skill.skill_md_uri(), frontmatter, resources)
}

fn contents(uri: &str, mime: &str, bytes: &[u8]) -> ResourceContents {
    let textual = mime.starts_with("text/")
        || matches!(
            mime,
            "application/json"
                | "application/yaml"
                | "application/xml"
                | "application/toml"
                | "application/sql"
                | "image/svg+xml"
        );
    match std::str::from_utf8(bytes) {
        Ok(text) if textual => ResourceContents::text(text, uri).with_mime_type(mime),
        _ => ResourceContents::blob(base64::engine::general_purpose::STANDARD.encode(bytes), uri)
            .with_mime_type(mime),
    }
}

impl SkillsServer {
    /// Listed resource `i`: the catalog, then each skill's SKILL.md and `_manifest`.
    fn resource(snapshot: &Snapshot, i: usize) -> Resource {
        let Some(i) = i.checked_sub(1) else {
            return Resource::new(PROMPT_XML, "prompt-xml")
                .with_description(
                    "The <available_skills> catalog for a system prompt, with skill:// locations",
                )
                .with_mime_type("application/xml");
        };
        let skill = &snapshot.skills[i / 2];
        if i % 2 == 0 {
            Resource::new(skill.skill_md_uri(), skill.name.to_string())
                .with_description(skill.summary())
                .with_mime_type("text/markdown")
                .with_size(skill.files[0].size())
        } else {
            Resource::new(
                uri(&skill.name, MANIFEST),
                format!("{} manifest", skill.name),
            )
            .with_description(format!(
                "Files of the `{}` skill with sizes and sha256 digests",
                skill.name
            ))
            .with_mime_type("application/json")
        }
    }
}

impl ServerHandler for SkillsServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_completions()
            .enable_skills_with_directory_read()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("skills", env!("CARGO_PKG_VERSION")))
            .with_instructions(super::INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let len = 1 + 2 * snapshot.skills.len();
        let (items, next) = page(
            len,
            request.as_ref().and_then(|r| r.cursor.as_deref()),
            |i| Self::resource(&snapshot, i),
        )?;
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(TEMPLATE, "skill file").with_description(
                "Any file of a skill: skill://<skill name>/<path inside the skill>",
            ),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let uri = request.uri.as_str();
        if uri == PROMPT_XML {
            let text = ResourceContents::text(snapshot.catalog_xml(), uri)
                .with_mime_type("application/xml");
            return Ok(ReadResourceResult::new(vec![text]).into());
        }
        let Some((name, rel)) = parse_uri(uri) else {
            return Err(not_found(
                uri,
                unknown(&format!("`{uri}` is not a skill:// URI"), &snapshot),
            ));
        };
        let skill = snapshot.get(&name).ok_or_else(|| {
            not_found(uri, unknown(&format!("no skill named `{name}`"), &snapshot))
        })?;
        if rel == MANIFEST {
            let text = serde_json::to_string_pretty(&skill.manifest()).unwrap_or_default();
            let contents = ResourceContents::text(text, uri).with_mime_type("application/json");
            return Ok(ReadResourceResult::new(vec![contents]).into());
        }
        let read = self.shared.read(&name, &rel, Arc::clone(&self.log)).await;
        let verified = read.map_err(|err| match err {
            ReadError::Unsettled(_) => ErrorData::internal_error(err.to_string(), None),
            _ => not_found(uri, ErrorData::invalid_params(err.to_string(), None)),
        })?;
        let mime = verified
            .skill
            .file(&rel)
            .map_or("application/octet-stream", |f| f.mime());
        Ok(ReadResourceResult::new(vec![contents(uri, mime, &verified.bytes)]).into())
    }

    // Legacy era only (2026-07-28 clients use `subscriptions/listen`).
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut subscribed) = self.shared.subscribed.lock() {
            subscribed.insert(request.uri);
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut subscribed) = self.shared.subscribed.lock() {
            subscribed.remove(&request.uri);
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        if let Ok(mut sinks) = self.shared.sinks.lock() {
            sinks.push(sink.clone());
        }
        let mut eof = self.shared.eof.clone();
        tokio::select! {
            () = context.cancelled() => {}
            _ = eof.wait_for(|done| *done) => {}
        }
        if let Ok(mut sinks) = self.shared.sinks.lock() {
            sinks.retain(|s| s.id() != sink.id());
        }
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let typed = request.argument.value.as_str();
        let values: Vec<String> = match (&request.r#ref, request.argument.name.as_str()) {
            (Reference::Resource(r), "skillName") if r.uri == TEMPLATE => snapshot
                .skills
                .iter()
                .map(|s| s.name.to_string())
                .filter(|n| n.starts_with(typed))
                .collect(),
            (Reference::Resource(r), "path") if r.uri == TEMPLATE => {
                let skill = request
                    .context
                    .as_ref()
                    .and_then(|c| c.arguments.as_ref())
                    .and_then(|a| a.get("skillName"))
                    .and_then(|name| snapshot.get(name));
                match skill {
                    Some(skill) => skill
                        .files
                        .iter()
                        .map(|f| f.rel.to_string())
                        .filter(|p| p.starts_with(typed))
                        .collect(),
                    None => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        let total = values.len();
        let values: Vec<String> = values
            .into_iter()
            .take(CompletionInfo::MAX_VALUES)
            .collect();
        let more = total > values.len();
        let info = CompletionInfo::with_pagination(values, u32::try_from(total).ok(), more)
            .map_err(|e| ErrorData::internal_error(e, None))?;

        Ok(CompleteResult::new(info))
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(
            super::tools::list(&*self.shared.snapshot().await),
        ))
    }

    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        super::tools::call(&self.shared, &request, &self.log)
            .await
            .map(Into::into)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let (items, next) = page(
            snapshot.skills.len(),
            request.as_ref().and_then(|r| r.cursor.as_deref()),
            |i| {
                let skill = &snapshot.skills[i];
                Prompt::new(skill.name.to_string(), Some(skill.summary()), None)
            },
        )?;
        let mut result = ListPromptsResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        if snapshot.get(&request.name).is_none() {
            return Err(unknown(
                &format!("no prompt named `{}`", request.name),
                &snapshot,
            ));
        }
        let read = self
            .shared
            .read(&request.name, crate::skill::SKILL_MD, Arc::clone(&self.log))
            .await;
        let verified = read.map_err(|err| ErrorData::internal_error(err.to_string(), None))?;
        let skill = &verified.skill;
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            skill.activation(&verified.bytes),
        )])
        .with_description(skill.summary())
        .into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        // Pages are answered as soon as the first build has loaded their skills.
        let start = start(request.as_ref().and_then(|r| r.cursor.as_deref()))?;
        let (skills, more) = self
            .shared
            .listed(start, PAGE)
            .await
            .ok_or_else(|| invalid_cursor(&start.to_string()))?;
        let next = more.then(|| (start + skills.len()).to_string());
        let mut result =
            ListSkillsResult::with_all_items(skills.iter().map(|s| skill_entry(s)).collect());
        result.next_cursor = next;
        Ok(result)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let skill = parse_uri(&request.uri)
            .filter(|(_, rel)| rel == crate::skill::SKILL_MD)
            .and_then(|(name, _)| snapshot.get(&name))
            .ok_or_else(|| unknown(&format!("no skill at `{}`", request.uri), &snapshot))?;
        if !skill.is_listed() {
            let why: Vec<String> = skill.unlisted.iter().map(ToString::to_string).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "the skill `{}` breaks rules of the Skills extension ({}); its files are served as resources",
                    skill.name,
                    why.join("; ")
                ),
                None,
            ));
        }
        Ok(GetSkillResult::new(skill_entry(skill)))
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let snapshot = self.shared.snapshot().await;
        let (name, dir) = parse_uri(&request.uri).ok_or_else(|| {
            unknown(
                &format!("`{}` is not a skill:// URI", request.uri),
                &snapshot,
            )
        })?;
        let skill = snapshot
            .get(&name)
            .ok_or_else(|| unknown(&format!("no skill named `{name}`"), &snapshot))?;
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut children: Vec<Resource> = Vec::new();
        let mut folders: Vec<String> = Vec::new();
        for file in skill.files.iter().filter(|f| f.rel.starts_with(&prefix)) {
            let rest = &file.rel[prefix.len()..];
            match rest.split_once('/') {
                Some((folder, _)) => {
                    if !folders.iter().any(|f| f == folder) {
                        folders.push(folder.to_owned());
                    }
                }
                None => children.push(
                    Resource::new(uri(&name, &file.rel), rest.to_owned())
                        .with_mime_type(file.mime())
                        .with_size(file.size()),
                ),
            }
        }
        if children.is_empty() && folders.is_empty() {
            return Err(ErrorData::invalid_params(
                format!("`{}` is not a folder of the skill `{name}`", request.uri),
                None,
            ));
        }
        let mut resources: Vec<Resource> = folders
            .into_iter()
            .map(|folder| {
                Resource::new(uri(&name, &format!("{prefix}{folder}")), folder)
                    .with_mime_type(DIRECTORY_MIME_TYPE)
            })
            .collect();
        resources.extend(children);
        let (items, next) = page(resources.len(), request.cursor.as_deref(), |i| {
            resources[i].clone()
        })?;
        let mut result = ReadResourceDirectoryResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // rmcp hands a known method whose params did not parse to this fallback: that is a
        // params error, not an unknown method.
        if KNOWN_METHODS.contains(&request.method.as_str()) {
            return Err(ErrorData::invalid_params(
                format!("invalid params for `{}`", request.method),
                None,
            ));
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: `{}`", request.method),
            None,
        ))
    }
}

const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/directory/read",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "skills/list",
    "skills/get",
    "server/discover",
];
