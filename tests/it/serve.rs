//! `skills serve --stdio` driven by rmcp's real client (legacy `initialize` and stateless
//! 2026-07-28), plus raw JSON lines for what a client library would never send.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, CompletionContext,
    GetPromptRequestParams, GetSkillRequestParams, Implementation, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents,
    ResourceUpdatedNotificationParam, ServerNotification, SkillResources, SubscribeRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::Digest as _;
use tokio::sync::mpsc;

use crate::common::{TestContext, write};

/// Records the notifications a legacy client receives.
#[derive(Clone)]
pub struct Recorder(pub mpsc::UnboundedSender<String>);

impl ClientHandler for Recorder {
    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("resources/list_changed".into());
    }
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(format!("resources/updated {}", params.uri));
    }
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("tools/list_changed".into());
    }
    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.0.send("prompts/list_changed".into());
    }
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("skills-test", "0"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }
}

const PNG: &[u8] = &[
    0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0x00,
];

/// Skills to serve, with every kind of file that must or must not be served.
fn fixture(context: &TestContext) -> PathBuf {
    let root = context.project.join("served");
    write(
        &root.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when the user has a form.\nlicense: MIT\nversion: 1.0\nmetadata:\n  author: acme\n---\n# PDF\n\nRead [forms](references/forms.md).\n",
    );
    write(&root.join("pdf/references/forms.md"), "# Forms\n");
    write(&root.join("pdf/references/a b.md"), "spaces\n");
    write(&root.join("pdf/scripts/fill.py"), "print('fill')\n");
    write(&root.join("pdf/assets/logo.png"), PNG);
    write(
        &root.join("pdf/tools.json"),
        r#"[{"name": "fill", "description": "Fills", "inputSchema": {"type": "object"}}]"#,
    );
    write(&root.join("pdf/.env"), "SECRET=1\n");
    write(&root.join("pdf/.hidden/notes.md"), "hidden\n");
    write(&root.join("pdf/secrets.json"), "{}\n");
    write(&root.join("pdf/big.bin"), vec![7u8; 5000]);
    let outside = write(&context.home.join("private.txt"), "private\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, root.join("pdf/leak.txt")).unwrap();
    write(
        &root.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Take notes. Use when asked to write notes.\n---\nWrite notes.\n",
    );
    root
}

fn spawn(context: &TestContext, root: &Path) -> TokioChildProcess {
    serve_process(context, root, &["--max-file-size", "4KB"])
}

/// `skills serve --stdio ARGS ROOT` as a transport for rmcp's client.
pub fn serve_process(context: &TestContext, root: &Path, args: &[&str]) -> TokioChildProcess {
    let command = tokio::process::Command::from(context.std_command()).configure(|c| {
        c.args(["serve", "--stdio"]).args(args).arg(root);
    });
    TokioChildProcess::new(command).unwrap()
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn args(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The next notification. The bound is generous: a notification arrives within the watcher's
/// debounce and roots poll (2 s) on an idle machine, but a test run shares two cores with
/// everything else (one failed at 10 s while three builds ran beside it).
pub async fn next(receiver: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(Duration::from_secs(30), receiver.recv())
        .await
        .expect("a notification in time")
        .unwrap()
}

/// The bytes a resource read carries, text or base64 blob.
pub fn bytes(contents: &ResourceContents) -> Vec<u8> {
    match contents {
        ResourceContents::TextResourceContents { text, .. } => text.as_bytes().to_vec(),
        ResourceContents::BlobResourceContents { blob, .. } => {
            base64::engine::general_purpose::STANDARD
                .decode(blob)
                .unwrap()
        }
        other => panic!("unexpected contents {other:?}"),
    }
}

pub fn text(contents: &ResourceContents) -> &str {
    match contents {
        ResourceContents::TextResourceContents { text, .. } => text,
        other => panic!("not text: {other:?}"),
    }
}

/// Everything a client can ask, in either era.
async fn exercise(client: &RunningService<RoleClient, Recorder>) {
    if let Some(info) = client.peer_info()
        && let Some(server) = &info.server_info
    {
        assert_eq!(server.name, "skills");
        assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    }
    // Skills extension: every promised digest and size matches the bytes served.
    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(
        skills
            .iter()
            .map(|s| s.frontmatter.name.as_str())
            .collect::<Vec<_>>(),
        ["notes", "pdf"]
    );
    let pdf = &skills[1];
    assert_eq!(pdf.frontmatter.extra["license"], "MIT");
    assert_eq!(pdf.frontmatter.extra["version"], json!(1.0));
    assert_eq!(pdf.frontmatter.extra["metadata"], json!({"author": "acme"}));
    let SkillResources::Files(files) = &pdf.resources else {
        panic!("a manifest")
    };
    let uris: Vec<&str> = files.iter().map(|f| f.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "skill://pdf/SKILL.md",
            "skill://pdf/assets/logo.png",
            "skill://pdf/references/a%20b.md",
            "skill://pdf/references/forms.md",
            "skill://pdf/scripts/fill.py",
            "skill://pdf/tools.json",
        ],
        "no dotfiles, secrets, oversized files or escaping links"
    );
    for file in files {
        let read = client
            .read_resource(ReadResourceRequestParams::new(file.uri.clone()))
            .await
            .unwrap();
        let bytes = bytes(&read.contents[0]);
        assert_eq!(bytes.len() as u64, file.size, "{}", file.uri);
        assert_eq!(
            file.digest,
            format!("sha256:{}", hex::encode(sha2::Sha256::digest(&bytes))),
            "{}",
            file.uri
        );
    }
    let png = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://pdf/assets/logo.png",
        ))
        .await
        .unwrap();
    assert!(
        matches!(&png.contents[0], ResourceContents::BlobResourceContents { mime_type: Some(m), .. } if m == "image/png")
    );
    let one = client
        .get_skill(GetSkillRequestParams::new("skill://notes/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(
        one.skill.frontmatter.description,
        "Take notes. Use when asked to write notes."
    );
    let dir = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new("skill://pdf"))
        .await
        .unwrap();
    let names: Vec<&str> = dir.resources.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["assets", "references", "scripts", "SKILL.md", "tools.json"]
    );
    assert!(dir.resources[0].is_directory());
    // Resources: SKILL.md, manifests, the catalog.
    let resources = client.list_all_resources().await.unwrap();
    let listed: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        listed,
        [
            "skill://prompt-xml",
            "skill://notes/SKILL.md",
            "skill://notes/_manifest",
            "skill://pdf/SKILL.md",
            "skill://pdf/_manifest"
        ]
    );
    let manifest = client
        .read_resource(ReadResourceRequestParams::new("skill://pdf/_manifest"))
        .await
        .unwrap();
    let manifest: Value = serde_json::from_str(text(&manifest.contents[0])).unwrap();
    assert_eq!(manifest["skill"], "pdf");
    assert_eq!(manifest["files"].as_array().unwrap().len(), 6);
    let catalog = client
        .read_resource(ReadResourceRequestParams::new("skill://prompt-xml"))
        .await
        .unwrap();
    assert!(text(&catalog.contents[0]).contains("<location>skill://pdf/SKILL.md</location>"));
    let templates = client.list_resource_templates(None).await.unwrap();
    assert_eq!(
        templates.resource_templates[0].uri_template,
        "skill://{skillName}/{+path}"
    );
    let names = client
        .complete_resource_simple("skill://{skillName}/{+path}", "skillName", "p")
        .await
        .unwrap();
    assert_eq!(names, ["pdf"]);
    let in_pdf =
        CompletionContext::with_arguments([("skillName".to_owned(), "pdf".to_owned())].into());
    let paths = client
        .complete_resource_argument("skill://{skillName}/{+path}", "path", "ref", Some(in_pdf))
        .await
        .unwrap();
    assert_eq!(paths.values, ["references/a b.md", "references/forms.md"]);
    assert_eq!(paths.has_more, Some(false));
    let sub = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new(
            "skill://pdf/references",
        ))
        .await
        .unwrap();
    assert_eq!(
        sub.resources
            .iter()
            .map(|r| r.uri.as_str())
            .collect::<Vec<_>>(),
        [
            "skill://pdf/references/a%20b.md",
            "skill://pdf/references/forms.md"
        ]
    );
    for uri in [
        "skill://nope/SKILL.md",
        "skill://pdf/references/forms.md",
        "https://example.com/SKILL.md",
    ] {
        let error = client
            .get_skill(GetSkillRequestParams::new(uri))
            .await
            .unwrap_err();
        assert!(
            format!("{error:?}").contains("-32602"),
            "skills/get {uri}: {error:?}"
        );
    }
    let error = client
        .read_resource_directory(ReadResourceDirectoryRequestParams::new(
            "skill://pdf/../notes",
        ))
        .await
        .unwrap_err();
    assert!(format!("{error:?}").contains("-32602"), "{error:?}");
    // Tools.
    let tools = client.list_all_tools().await.unwrap();
    let load = tools.iter().find(|t| t.name == "load_skill").unwrap();
    assert!(
        load.description
            .as_deref()
            .unwrap()
            .contains("- pdf: Fill PDF forms.")
    );
    assert!(
        tools
            .iter()
            .all(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true))
    );
    let loaded = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skillName": "notes"}))),
        )
        .await
        .unwrap();
    assert_eq!(loaded.is_error, Some(false));
    let available = client
        .call_tool(CallToolRequestParams::new("get_available_skills"))
        .await
        .unwrap();
    assert_eq!(
        available.structured_content.unwrap()["result"][1]["name"],
        "pdf"
    );
    let details = client
        .call_tool(
            CallToolRequestParams::new("get_skill_details")
                .with_arguments(args(json!({"skill_name": "pdf"}))),
        )
        .await
        .unwrap();
    let details = details.structured_content.unwrap();
    assert!(
        details["skill_content"]["content"]
            .as_str()
            .unwrap()
            .starts_with("---\nname: pdf")
    );
    assert!(
        details["skill_content"]["file_path"]
            .as_str()
            .unwrap()
            .ends_with("pdf/SKILL.md")
    );
    let related = client
        .call_tool(CallToolRequestParams::new("get_skill_related_file").with_arguments(args(
            json!({"skill_name": "pdf", "relative_path": "references/forms.md", "return_type": "content"}),
        )))
        .await
        .unwrap();
    assert_eq!(related.structured_content.unwrap()["result"], "# Forms\n");
    let unknown = client
        .call_tool(
            CallToolRequestParams::new("load_skill")
                .with_arguments(args(json!({"skillName": "nope"}))),
        )
        .await
        .unwrap();
    assert_eq!(unknown.is_error, Some(true));
    assert!(format!("{:?}", unknown.content).contains("available: notes, pdf"));
    // Prompts: the activation block.
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("pdf"))
        .await
        .unwrap();
    let rendered = format!("{:?}", prompt.messages[0].content);
    assert!(
        rendered.contains("<skill_content name=\\\"pdf\\\">")
            && rendered.contains("<file>references/forms.md</file>"),
        "{rendered}"
    );
    // Attacks: refused, and the server keeps answering.
    for uri in [
        "skill://pdf/../notes/SKILL.md",
        "skill://pdf/%2e%2e/%2e%2e/etc/passwd",
        "skill:///etc/passwd",
        "skill://pdf/..\\..\\x",
        "skill://pdf/%00",
        "skill://pdf/.env",
        "skill://pdf/.hidden/notes.md",
        "skill://pdf/secrets.json",
        "skill://pdf/big.bin",
        "skill://pdf/leak.txt",
        "file:///etc/passwd",
        "skill://nope/SKILL.md",
    ] {
        let error = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap_err();
        assert!(format!("{error:?}").contains("-32602"), "{uri}: {error:?}");
    }
    assert_eq!(
        client.list_all_skills().await.unwrap().len(),
        2,
        "still serving"
    );
}

#[test]
fn legacy_client() {
    let context = TestContext::new();
    let root = fixture(&context);
    runtime().block_on(async {
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(spawn(&context, &root))
            .await
            .unwrap();
        assert_eq!(
            client.peer_info().unwrap().protocol_version,
            ProtocolVersion::V_2025_11_25
        );
        exercise(&client).await;
        // Freshness: a subscribed SKILL.md changes, a skill appears.
        #[expect(
            deprecated,
            reason = "resources/subscribe is the legacy-era subscription"
        )]
        client
            .subscribe(SubscribeRequestParams::new("skill://notes/SKILL.md"))
            .await
            .unwrap();
        std::fs::write(
            root.join("notes/SKILL.md"),
            "---\nname: notes\ndescription: Changed. Use when asked.\n---\nNew.\n",
        )
        .unwrap();
        let mut seen = Vec::new();
        while !seen
            .iter()
            .any(|n: &String| n == "resources/updated skill://notes/SKILL.md")
        {
            seen.push(next(&mut receiver).await);
        }
        assert!(
            seen.contains(&"resources/list_changed".to_owned()),
            "{seen:?}"
        );
        assert!(seen.contains(&"tools/list_changed".to_owned()), "{seen:?}");
        assert!(
            seen.contains(&"prompts/list_changed".to_owned()),
            "{seen:?}"
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new("skill://notes/SKILL.md"))
            .await
            .unwrap();
        assert!(
            text(&read.contents[0]).contains("New."),
            "the snapshot was rebuilt"
        );
        write(
            &root.join("fresh/SKILL.md"),
            "---\nname: fresh\ndescription: New. Use when new.\n---\nbody\n",
        );
        while next(&mut receiver).await != "resources/list_changed" {}
        assert_eq!(client.list_all_skills().await.unwrap().len(), 3);
        client.cancel().await.unwrap();
    });
}

#[test]
fn stateless_2026_client() {
    let context = TestContext::new();
    let root = fixture(&context);
    runtime().block_on(async {
        let (sender, _receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve_with_lifecycle(
                spawn(&context, &root),
                ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
            )
            .await
            .unwrap();
        exercise(&client).await;
        let mut subscription = client
            .listen(
                SubscriptionFilter::builder()
                    .resources_list_changed()
                    .resource_subscription("skill://pdf/references/forms.md")
                    .build(),
            )
            .await
            .unwrap();
        std::fs::write(root.join("pdf/references/forms.md"), "# Forms, changed\n").unwrap();
        let mut updated = false;
        for _ in 0..4 {
            let notification = tokio::time::timeout(Duration::from_secs(10), subscription.next()).await.unwrap().unwrap().unwrap();
            if matches!(&notification, ServerNotification::ResourceUpdatedNotification(n) if n.params.uri == "skill://pdf/references/forms.md") {
                updated = true;
                break;
            }
        }
        assert!(updated, "resources/updated on the listen stream");
        subscription.cancel().await.unwrap();
        client.cancel().await.unwrap();
    });
}

/// Lines a client library would never send: answered with JSON-RPC errors, and the server keeps
/// serving; stdin EOF ends it cleanly.
#[test]
fn raw_protocol_abuse() {
    let context = TestContext::new();
    let root = fixture(&context);
    let mut command = context.std_command();
    command
        .args(["serve", "--stdio"])
        .arg(&root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let mut receive = || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    };
    // Before the handshake: a stray notification and garbage do not end the session.
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send("this is not json");
    assert_eq!(receive()["error"]["code"], -32700);
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
    );
    assert_eq!(receive()["result"]["serverInfo"]["name"], "skills");
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#);
    assert_eq!(receive()["error"]["code"], -32601);
    send(r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":42}}"#);
    assert_eq!(receive()["error"]["code"], -32602);
    send(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_skill_details","arguments":{"skill_name":7}}}"#,
    );
    assert_eq!(receive()["result"]["isError"], true);
    send(&format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"load_skill","arguments":{{"skillName":"{}"}}}}}}"#,
        "x".repeat(10 << 20)
    ));
    assert_eq!(
        receive()["error"]["code"],
        -32600,
        "a 10 MB line is refused"
    );
    send("{\"jsonrpc\":\"2.0\",");
    assert_eq!(receive()["error"]["code"], -32700);
    send(r#"{"jsonrpc":"2.0","id":6,"method":"skills/list"}"#);
    let reply = receive();
    assert_eq!(reply["id"], 6);
    assert_eq!(
        reply["result"]["skills"].as_array().unwrap().len(),
        2,
        "still serving"
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "stdin EOF ends the server cleanly");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn roots_from_skills_dir_and_eof_before_anything() {
    let context = TestContext::new();
    let root = fixture(&context);
    let mut command = context.std_command();
    command
        .args(["serve", "--stdio"])
        .env(
            "SKILLS_DIR",
            format!(
                "{},{}",
                root.join("notes").display(),
                context.project.join("missing").display()
            ),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let output = command.spawn().unwrap().wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "a missing root is a usage error"
    );
    let mut command = context.std_command();
    command
        .args(["serve", "--stdio"])
        .env("SKILLS_DIR", root.join("notes"))
        .stdin(std::process::Stdio::null());
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "EOF before any request: a clean exit"
    );
    assert!(output.stdout.is_empty(), "nothing but JSON-RPC on stdout");
}

/// Sets the modification time of `path` and everything under it.
pub fn backdate(path: &Path, to: std::time::SystemTime) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            backdate(&entry.unwrap().path(), to);
        }
    }
    std::fs::File::open(path).unwrap().set_modified(to).unwrap();
}

/// The first snapshot is built while the watch is set up: a change in between (after the build
/// read the folder, before the watch covered it) is found by modification time and served as
/// soon as the snapshot is ready, not only after the next change. Without that look, a skill
/// written 10–30 ms after spawn was missed for good on a 2-core VM.
#[test]
fn changes_during_the_first_build_are_not_missed() {
    let context = TestContext::new();
    let root = context.project.join("many");
    for i in 0..400 {
        write(
            &root.join(format!("s{i:03}/SKILL.md")),
            format!("---\nname: s{i:03}\ndescription: Skill {i}. Use when testing.\n---\nbody\n"),
        );
        write(
            &root.join(format!("s{i:03}/references/notes.md")),
            "notes\n",
        );
    }
    runtime().block_on(async {
        for (round, delay) in [0u64, 10, 20, 30].into_iter().enumerate() {
            // Written an hour ago, as far as the server can tell: only the late skill is new.
            backdate(
                &root,
                std::time::SystemTime::now() - Duration::from_secs(3600),
            );
            let (sender, mut receiver) = mpsc::unbounded_channel();
            let transport = spawn(&context, &root);
            // While the server starts and builds its first snapshot, a skill appears and a file
            // of another one changes.
            let (late, notes) = (
                root.join(format!("late{delay}/SKILL.md")),
                root.join("s399/references/notes.md"),
            );
            let writer = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(delay));
                write(
                    &late,
                    format!(
                        "---\nname: late{delay}\ndescription: Late. Use when late.\n---\nbody\n"
                    ),
                );
                std::fs::write(notes, format!("round {round}\n")).unwrap();
            });
            let client = Recorder(sender).serve(transport).await.unwrap();
            writer.join().unwrap();
            let expected = (401 + round, format!("round {round}\n"));
            let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
            loop {
                let count = client.list_all_skills().await.unwrap().len();
                let read = client
                    .read_resource(ReadResourceRequestParams::new(
                        "skill://s399/references/notes.md",
                    ))
                    .await
                    .unwrap();
                let served = (count, text(&read.contents[0]).to_owned());
                if served == expected {
                    break;
                }
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "written {delay} ms after spawn: {served:?} served, {expected:?} on disk"
                );
                let _ = tokio::time::timeout(Duration::from_millis(200), receiver.recv()).await;
            }
            client.cancel().await.unwrap();
        }
    });
}

/// Waits until the server says its lists changed.
async fn list_changed(receiver: &mut mpsc::UnboundedReceiver<String>) {
    while next(receiver).await != "resources/list_changed" {}
}

/// Roots come and go while the server runs: a default agent dir made after it started is
/// served; a given folder deleted and made again, or a given SKILL.md replaced by a rename, is
/// watched again.
#[test]
fn roots_that_appear_later_are_served() {
    let context = TestContext::new();
    let given = context.project.join("given");
    write(
        &given.join("one/SKILL.md"),
        "---\nname: one\ndescription: One. Use when one.\n---\nbody\n",
    );
    runtime().block_on(async {
        // No agent dir yet: the default roots are empty.
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let command = tokio::process::Command::from(context.std_command()).configure(|c| {
            c.args(["serve", "--stdio"]);
        });
        let client = Recorder(sender)
            .serve(TokioChildProcess::new(command).unwrap())
            .await
            .unwrap();
        assert!(client.list_all_skills().await.unwrap().is_empty());
        write(
            &context.project.join(".claude/skills/late/SKILL.md"),
            "---\nname: late\ndescription: Late. Use when late.\n---\nbody\n",
        );
        list_changed(&mut receiver).await;
        let names: Vec<_> = client
            .list_all_skills()
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.frontmatter.name)
            .collect();
        assert_eq!(names, ["late"]);
        client.cancel().await.unwrap();

        // A given root deleted, then made again with other skills.
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(spawn(&context, &given))
            .await
            .unwrap();
        assert_eq!(client.list_all_skills().await.unwrap().len(), 1);
        std::fs::remove_dir_all(&given).unwrap();
        list_changed(&mut receiver).await;
        assert!(client.list_all_skills().await.unwrap().is_empty());
        write(
            &given.join("two/SKILL.md"),
            "---\nname: two\ndescription: Two. Use when two.\n---\nbody\n",
        );
        list_changed(&mut receiver).await;
        assert_eq!(client.list_all_skills().await.unwrap().len(), 1);
        // And it is watched again.
        write(
            &given.join("three/SKILL.md"),
            "---\nname: three\ndescription: Three. Use when three.\n---\nbody\n",
        );
        list_changed(&mut receiver).await;
        assert_eq!(client.list_all_skills().await.unwrap().len(), 2);
        client.cancel().await.unwrap();

        // A SKILL.md given as the root, saved the way editors save: a new file renamed over
        // it. Every save is seen, not only the first.
        let skill_md = given.join("two/SKILL.md");
        let (sender, mut receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(spawn(&context, &skill_md))
            .await
            .unwrap();
        for version in 1..=3 {
            let temp = given.join("two/.SKILL.md.swp");
            write(
                &temp,
                format!(
                    "---\nname: two\ndescription: Version {version}. Use when two.\n---\nbody\n"
                ),
            );
            std::fs::rename(&temp, &skill_md).unwrap();
            list_changed(&mut receiver).await;
            let skills = client.list_all_skills().await.unwrap();
            assert_eq!(
                skills[0].frontmatter.description,
                format!("Version {version}. Use when two.")
            );
        }
        client.cancel().await.unwrap();
    });
}

#[test]
fn many_skills_paginate() {
    let context = TestContext::new();
    let root = context.project.join("many");
    for i in 0..450 {
        write(
            &root.join(format!("s{i:03}/SKILL.md")),
            format!("---\nname: s{i:03}\ndescription: Skill {i}. Use when testing.\n---\nbody\n"),
        );
    }
    // Over the extension's 512-file manifest limit: served with `resources: "dynamic"`.
    write(
        &root.join("big/SKILL.md"),
        "---\nname: big\ndescription: Big. Use when big.\n---\nbody\n",
    );
    for i in 0..520 {
        write(&root.join(format!("big/data/{i:03}.txt")), format!("{i}\n"));
    }
    runtime().block_on(async {
        let (sender, _receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(spawn(&context, &root))
            .await
            .unwrap();
        let first = client.list_skills(None).await.unwrap();
        assert_eq!(first.skills.len(), 200);
        assert!(first.next_cursor.is_some());
        let all = client.list_all_skills().await.unwrap();
        assert_eq!(all.len(), 451);
        assert!(
            matches!(all[0].resources, SkillResources::Dynamic),
            "{:?}",
            all[0].frontmatter.name
        );
        assert!(
            all[1..]
                .iter()
                .all(|s| matches!(&s.resources, SkillResources::Files(f) if f.len() == 1))
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new("skill://big/data/519.txt"))
            .await
            .unwrap();
        assert_eq!(
            text(&read.contents[0]),
            "519\n",
            "a dynamic skill's files are still served"
        );
        assert_eq!(client.list_all_resources().await.unwrap().len(), 903);
        let completed = client.complete_resource_argument(
            "skill://{skillName}/{+path}",
            "path",
            "data/",
            Some(CompletionContext::with_arguments(
                [("skillName".to_owned(), "big".to_owned())].into(),
            )),
        );
        let completed = completed.await.unwrap();
        assert_eq!(
            (completed.values.len(), completed.total, completed.has_more),
            (100, Some(520), Some(true))
        );

        client.cancel().await.unwrap();
    });
}
