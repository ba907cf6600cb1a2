//! What MCP clients check of `skills serve`: every `skills/list` entry passes the rules the
//! official SDK's `SkillsClient` applies (an entry that breaks one would make it refuse the whole
//! page), every file verifies against its entry (size, sha256, and for SKILL.md the frontmatter
//! as an independent YAML parser reads it), and bytes served always match the digest listed —
//! also when a file changes between the listing and the read. Served over fixture skills shaped
//! like real ones (`tests/fixtures/serve/`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::model::{
    ClientCapabilities, GetSkillRequestParams, ProtocolVersion, ReadResourceRequestParams, Skill,
    SkillResources,
};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::Digest as _;
use tokio::sync::mpsc;

use crate::common::{TestContext, repo, write};
use crate::frontmatter::normalized;
use crate::serve::{Recorder, bytes, next, runtime};

/// The fixtures, copied where the test may change them.
fn fixtures(context: &TestContext) -> PathBuf {
    let root = context.project.join("served");
    copy_dir(&repo().join("tests/fixtures/serve"), &root);
    root
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The server on `root` with `args`, its stderr kept.
fn spawn(
    context: &TestContext,
    root: &Path,
    args: &[&str],
) -> (TokioChildProcess, tokio::process::ChildStderr) {
    let command = tokio::process::Command::from(context.std_command()).configure(|c| {
        c.args(["serve", "--stdio"]).args(args).arg(root);
    });
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    (transport, stderr.unwrap())
}

async fn connect(
    transport: TokioChildProcess,
    modern: bool,
) -> (
    RunningService<RoleClient, Recorder>,
    mpsc::UnboundedReceiver<String>,
) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let client = if modern {
        Recorder(sender)
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
    } else {
        Recorder(sender).serve(transport).await
    };
    (client.unwrap(), receiver)
}

/// The rules `SkillsClient` (`@modelcontextprotocol/client` 2.4, `validateSkillEntry`) checks of
/// every entry, written again from its documentation: a failing entry makes it refuse the page.
fn sdk_problems(skill: &Skill) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(root) = skill.uri.strip_suffix("/SKILL.md") else {
        return vec![format!("{} is not a SKILL.md URI", skill.uri)];
    };
    let last = root.rsplit('/').next().unwrap_or_default();
    let name = &skill.frontmatter.name;
    let name_ok = (1..=64).contains(&name.len())
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !name_ok {
        problems.push(format!("name {name:?}"));
    } else if last != name {
        problems.push(format!("name {name:?} is not the last segment {last:?}"));
    }
    let description = skill.frontmatter.description.chars().count();
    if !(1..=1024).contains(&description) {
        problems.push(format!("description of {description} characters"));
    }
    match skill.frontmatter.extra.get("compatibility") {
        None => {}
        Some(Value::String(c)) if (1..=500).contains(&c.chars().count()) => {}
        Some(other) => problems.push(format!("compatibility {other}")),
    }
    match skill.frontmatter.extra.get("metadata") {
        None => {}
        Some(Value::Object(map)) if map.values().all(Value::is_string) => {}
        Some(other) => problems.push(format!("metadata {other}")),
    }
    if let SkillResources::Files(files) = &skill.resources {
        let mut seen = std::collections::HashSet::new();
        for file in files {
            if !seen.insert(&file.uri) {
                problems.push(format!("{} twice", file.uri));
            }
            if file.uri.contains(['?', '#']) || !file.uri.starts_with(&format!("{root}/")) {
                problems.push(format!("{} outside the skill", file.uri));
            }
            let hex = file.digest.strip_prefix("sha256:").unwrap_or_default();
            if hex.len() != 64
                || !hex
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                problems.push(format!("digest {}", file.digest));
            }
        }
        if !files.iter().any(|f| f.uri == skill.uri) {
            problems.push("SKILL.md not listed".into());
        }
    }
    problems
}

/// The frontmatter of a SKILL.md as a client reads it: split as the SDK splits (BOM and CRLF
/// removed, closed by the first `---` line), parsed by libyaml.
fn client_frontmatter(markdown: &str) -> Value {
    let text = markdown.replace("\r\n", "\n");
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rest = text.strip_prefix("---\n").expect("opens with ---");
    let mut yaml = String::new();
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches('\n').trim_end_matches([' ', '\t']) == "---" {
            return normalized(yaml_serde::from_str(&yaml).unwrap());
        }
        yaml.push_str(line);
    }
    panic!("unclosed frontmatter in {markdown:?}")
}

fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

/// Reads every file of `skill` and checks it as `SkillsClient.read` does.
async fn verify(client: &RunningService<RoleClient, Recorder>, skill: &Skill) {
    let SkillResources::Files(files) = &skill.resources else {
        panic!("{} is dynamic", skill.uri)
    };
    for file in files {
        let read = client
            .read_resource(ReadResourceRequestParams::new(file.uri.clone()))
            .await
            .unwrap();
        let got = bytes(&read.contents[0]);
        assert_eq!(got.len() as u64, file.size, "size of {}", file.uri);
        assert_eq!(digest(&got), file.digest, "digest of {}", file.uri);
        if file.uri == skill.uri {
            let entry = normalized(serde_json::to_value(&skill.frontmatter).unwrap());
            let markdown = String::from_utf8(got).unwrap();
            assert_eq!(
                entry,
                client_frontmatter(&markdown),
                "frontmatter of {}",
                skill.uri
            );
        }
    }
}

const LISTED: [&str; 6] = [
    "crlf",
    "folded",
    "folded-last",
    "keep-chomp",
    "literal-last",
    "pdf-tools",
];
const UNLISTED: [(&str, &str); 3] = [
    ("internal", "spec/metadata-type"),
    ("overlong", "spec/description-too-long"),
    ("typed", "spec/metadata-type"),
];

#[test]
fn real_world_shapes_pass_the_sdk_rules_and_verify() {
    let context = TestContext::new();
    let root = fixtures(&context);
    runtime().block_on(async {
        for modern in [false, true] {
            let (transport, stderr) = spawn(&context, &root, &["--no-watch"]);
            let (client, _) = connect(transport, modern).await;
            let skills = client.list_all_skills().await.unwrap();
            let mut names: Vec<&str> = skills.iter().map(|s| s.frontmatter.name.as_str()).collect();
            names.sort_unstable();
            assert_eq!(names, LISTED, "modern: {modern}");
            for skill in &skills {
                assert_eq!(sdk_problems(skill), Vec::<String>::new(), "{}", skill.uri);
                verify(&client, skill).await;
            }
            let folded = skills.iter().find(|s| s.frontmatter.name == "folded-last").unwrap();
            assert_eq!(
                folded.frontmatter.description,
                "Fold the lines of a description into one. Use when a folded description is the last key of the frontmatter.\n",
                "a block scalar keeps its final newline"
            );
            let renamed = skills.iter().find(|s| s.frontmatter.name == "pdf-tools").unwrap();
            assert_eq!(renamed.uri, "skill://pdf-tools/SKILL.md", "the URI segment is the name");
            // Not listed, still served as resources; skills/get says why.
            for (name, code) in UNLISTED {
                let read = client
                    .read_resource(ReadResourceRequestParams::new(format!("skill://{name}/SKILL.md")))
                    .await
                    .unwrap();
                assert!(!bytes(&read.contents[0]).is_empty());
                let error = client
                    .get_skill(GetSkillRequestParams::new(format!("skill://{name}/SKILL.md")))
                    .await
                    .unwrap_err();
                let error = format!("{error:?}");
                assert!(error.contains("-32602") && error.contains(code), "{error}");
            }
            client.cancel().await.unwrap();
            let mut log = String::new();
            tokio::io::AsyncReadExt::read_to_string(&mut { stderr }, &mut log)
                .await
                .unwrap();
            for (name, code) in UNLISTED {
                let said = log
                    .lines()
                    .filter(|l| l.contains(&format!("`{name}` is left out of skills/list")))
                    .collect::<Vec<_>>();
                assert_eq!(said.len(), 1, "said once: {log}");
                assert!(said[0].contains(code), "{}", said[0]);
            }
        }
    });
}

/// A file edited after `skills/list` and before `resources/read`: the server never sends bytes
/// that disagree with the digest it lists. It reloads the skill, tells the client, and answers
/// with the new bytes, which the new listing describes. Without the watch, so that only the
/// read notices.
#[test]
fn an_edit_between_list_and_read_never_breaks_the_digest() {
    let context = TestContext::new();
    let root = fixtures(&context);
    runtime().block_on(async {
        for modern in [false, true] {
            let (transport, _stderr) = spawn(&context, &root, &["--no-watch"]);
            let (client, mut notes) = connect(transport, modern).await;
            let before = client.list_all_skills().await.unwrap();
            let skill_md = root.join("literal-last/SKILL.md");
            let reference = root.join("overlong/references/checklist.md");
            let edited = format!("---\nname: literal-last\ndescription: Changed while served ({modern}).\n---\n# New body\n");
            std::fs::write(&skill_md, &edited).unwrap();
            std::fs::write(&reference, format!("# Checklist, edited ({modern})\n")).unwrap();
            for (uri, expected) in [
                ("skill://literal-last/SKILL.md", edited.clone()),
                ("skill://overlong/references/checklist.md", format!("# Checklist, edited ({modern})\n")),
            ] {
                let read = client
                    .read_resource(ReadResourceRequestParams::new(uri))
                    .await
                    .unwrap();
                let got = bytes(&read.contents[0]);
                assert_eq!(String::from_utf8_lossy(&got), expected, "{uri}: the bytes on disk");
                let listed = client
                    .get_skill(GetSkillRequestParams::new("skill://literal-last/SKILL.md"))
                    .await
                    .unwrap()
                    .skill;
                if uri.starts_with("skill://literal-last") {
                    let SkillResources::Files(files) = &listed.resources else { panic!() };
                    let entry = files.iter().find(|f| f.uri == uri).unwrap();
                    assert_eq!((entry.size, entry.digest.clone()), (got.len() as u64, digest(&got)), "listed as served");
                    assert_eq!(listed.frontmatter.description, format!("Changed while served ({modern})."));
                }
            }
            let after = client.list_all_skills().await.unwrap();
            assert_ne!(before, after, "the listing moved on");
            for skill in &after {
                verify(&client, skill).await;
            }
            if !modern {
                assert_eq!(next(&mut notes).await, "resources/list_changed", "the client is told");
            }
            client.cancel().await.unwrap();
        }
    });
}

/// A digest cache that cannot be read (or lies) changes nothing a client sees: reads are checked
/// against what is on disk. And the cache is written for the next start.
#[test]
fn the_digest_cache_is_a_cache() {
    let context = TestContext::new();
    let root = fixtures(&context);
    let cache = context.temp.path().join("cache/serve");
    runtime().block_on(async {
        for round in 0..3 {
            if round == 2 {
                for entry in std::fs::read_dir(&cache).unwrap() {
                    std::fs::write(entry.unwrap().path(), b"\x01\x02garbage").unwrap();
                }
            }
            let (transport, _stderr) = spawn(&context, &root, &["--no-watch"]);
            let (client, _) = connect(transport, false).await;
            for skill in client.list_all_skills().await.unwrap() {
                verify(&client, &skill).await;
            }
            client.cancel().await.unwrap();
            let written: Vec<_> = std::fs::read_dir(&cache).unwrap().collect();
            assert_eq!(written.len(), 1, "one cache file for one set of roots");
        }
    });
}

/// The 2026-07-28 fields, on the wire: `resultType`, `ttlMs` and `cacheScope` on listings and
/// reads, `server/discover`, and `-32602` with the URI for a resource that does not exist.
#[test]
fn stateless_results_carry_their_caching_fields() {
    let context = TestContext::new();
    let root = fixtures(&context);
    let mut child = context
        .std_command()
        .args(["serve", "--stdio", "--no-watch"])
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": serde_json::to_value(ClientCapabilities::default()).unwrap(),
    });
    let mut call = |id: u64, method: &str, mut params: Value| -> Value {
        params["_meta"] = meta.clone();
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap()
    };
    let discover = call(1, "server/discover", json!({}));
    assert!(
        discover["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("2026-07-28"))),
        "{discover}"
    );
    assert_eq!(
        discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "skills"
    );
    assert_eq!(discover["result"]["ttlMs"], 0);
    assert!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"]
            .is_object()
    );
    for (id, method, params) in [
        (2, "skills/list", json!({})),
        (
            3,
            "skills/get",
            json!({"uri": "skill://folded-last/SKILL.md"}),
        ),
        (
            4,
            "resources/read",
            json!({"uri": "skill://folded-last/SKILL.md"}),
        ),
        (5, "resources/list", json!({})),
        (
            6,
            "resources/directory/read",
            json!({"uri": "skill://folded"}),
        ),
    ] {
        let reply = call(id, method, params);
        let result = &reply["result"];
        assert_eq!(result["resultType"], "complete", "{method}: {reply}");
        assert_eq!(result["ttlMs"], 0, "{method}: {reply}");
        assert_eq!(result["cacheScope"], "private", "{method}: {reply}");
    }
    for (id, uri) in [
        (7, "skill://nope/SKILL.md"),
        (8, "skill://folded/nope.md"),
        (9, "file:///etc/passwd"),
    ] {
        let reply = call(id, "resources/read", json!({"uri": uri}));
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(reply["error"]["data"]["uri"], uri, "{reply}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// `skills prompt --format json` carries the frontmatter as written, as `skills/list` does.
#[test]
fn prompt_json_has_the_frontmatter_verbatim() {
    let context = TestContext::new();
    let root = fixtures(&context);
    write(&root.join("unused"), "");
    let output = context
        .command()
        .args(["prompt", "--format", "json", "--all"])
        .arg(root.join("folded-last"))
        .arg(root.join("keep-chomp"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let skills = json["skills"].as_array().unwrap();
    assert_eq!(
        skills[0]["frontmatter"]["description"],
        "Fold the lines of a description into one. Use when a folded description is the last key of the frontmatter.\n"
    );
    assert_eq!(
        skills[1]["frontmatter"]["description"],
        "Keep trailing blank lines. Use when chomping keeps them.\n\n"
    );
    assert_eq!(
        skills[1]["frontmatter"]["compatibility"],
        "Any agent with a shell."
    );
}

/// Every skill left out is said once on stderr with the lint code that reports it: one that
/// cannot be read, one whose name cannot be a URI, and one whose name an earlier skill took (even
/// when that earlier one is not listed). Keys keep the order they are written in.
#[test]
fn what_is_left_out_is_said_with_its_code() {
    let context = TestContext::new();
    let root = context.project.join("odd");
    write(
        &root.join("a-first/SKILL.md"),
        "---\nname: twin\ndescription: First. Use when first.\nmetadata:\n  version: 1\n---\n",
    );
    write(
        &root.join("b-second/SKILL.md"),
        "---\nname: twin\ndescription: Second. Use when second.\n---\n",
    );
    write(
        &root.join("spaced/SKILL.md"),
        "---\nname: Condition-Based Waiting\ndescription: Old style. Use when waiting.\n---\n",
    );
    write(
        &root.join("broken/SKILL.md"),
        "---\nname: broken\ndescription: Trigger: '/x', when asked\n---\n",
    );
    write(
        &root.join("ordered/SKILL.md"),
        "---\nname: ordered\ndescription: Ordered. Use when ordering.\nversion: 1.0\nlast_updated: 2026-09-11\nmetadata:\n  author: me\n---\n",
    );
    runtime().block_on(async {
        let (transport, stderr) = spawn(&context, &root, &["--no-watch"]);
        let (client, _) = connect(transport, false).await;
        let skills = client.list_all_skills().await.unwrap();
        let names: Vec<&str> = skills.iter().map(|s| s.frontmatter.name.as_str()).collect();
        assert_eq!(names, ["ordered"]);
        let keys: Vec<&str> = skills[0]
            .frontmatter
            .extra
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["version", "last_updated", "metadata"], "as written");
        client.cancel().await.unwrap();
        let mut log = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut { stderr }, &mut log)
            .await
            .unwrap();
        for (what, code) in [
            (
                "b-second/SKILL.md` is not served",
                "(compat/duplicate-name)",
            ),
            ("spaced/SKILL.md` is not served", "(spec/name-charset)"),
            ("broken/SKILL.md` is not served", "(spec/yaml-invalid)"),
            ("`twin` is left out of skills/list", "(spec/metadata-type)"),
        ] {
            let said: Vec<&str> = log.lines().filter(|l| l.contains(what)).collect();
            assert_eq!(said.len(), 1, "{what} said once in:\n{log}");
            assert!(said[0].contains(code), "{}", said[0]);
        }
    });
}
