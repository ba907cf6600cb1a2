//! `skills manifest`: `--json` lists, for every installed skill, exactly what `skills serve`
//! lists in `skill://<name>/_manifest` (read here through rmcp's client), and the files the lock
//! records beyond that are named in `unserved`.

use std::path::Path;

use rmcp::ServiceExt;
use rmcp::model::ReadResourceRequestParams;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::common::{TestContext, run, write};
use crate::serve::{Recorder, runtime, serve_process, text};
use crate::snapshot_output;

/// The layout of the audit: every kind of file on which the two used to disagree.
fn demo(context: &TestContext) -> std::path::PathBuf {
    let dir = context.project.join(".agents/skills/demo");
    write(
        &dir.join("skill.md"),
        "---\nname: demo\ndescription: Demonstrates files. Use when testing.\n---\n# Demo\n",
    );
    write(&dir.join("LICENSE"), "MIT\n");
    write(&dir.join("metadata.json"), "{}\n");
    write(&dir.join(".env"), "SECRET=1\n");
    write(&dir.join(".github/ci.yml"), "on: push\n");
    write(&dir.join("credentials.json"), "{}\n");
    write(
        &dir.join("node_modules/dep/index.js"),
        "module.exports = 1;\n",
    );
    write(&dir.join("references/guide.md"), "# Guide\n");
    write(&dir.join("build/out.txt"), "built\n");
    write(&dir.join("big.bin"), vec![7u8; 5_000_000]);
    #[cfg(unix)]
    std::os::unix::fs::symlink("references", dir.join("docs")).unwrap();
    dir
}

/// `skill://<name>/_manifest` as `skills serve` serves the project's `.agents/skills`.
fn served_manifest(context: &TestContext, name: &str) -> Value {
    let root = context.project.join(".agents/skills");
    runtime().block_on(async {
        let (sender, _receiver) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(serve_process(context, &root, &[]))
            .await
            .unwrap();
        let read = client
            .read_resource(ReadResourceRequestParams::new(format!(
                "skill://{name}/_manifest"
            )))
            .await
            .unwrap();
        let manifest: Value = serde_json::from_str(text(&read.contents[0])).unwrap();
        client.cancel().await.unwrap();
        manifest
    })
}

fn manifest_json(context: &TestContext) -> Value {
    let output = run(context.command().args(["manifest", "--json"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    serde_json::from_str(&output.stdout).unwrap()
}

fn lock_files(project: &Path, name: &str) -> Vec<String> {
    let lock: Value =
        serde_json::from_slice(&std::fs::read(project.join("skills-lock.json")).unwrap()).unwrap();
    lock["skills"][name]["files"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

#[cfg(unix)]
#[test]
fn json_lists_exactly_what_serve_lists() {
    let context = TestContext::new();
    let dir = demo(&context);
    let listed = manifest_json(&context);
    let served = served_manifest(&context, "demo");
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let demo = &listed[0];
    assert_eq!(demo["skill"], served["skill"]);
    assert_eq!(
        demo["files"], served["files"],
        "same paths, order, sizes, digests"
    );
    insta::assert_json_snapshot!(demo);
    // The lock pins every installed byte: what is not served is named, not dropped.
    assert_eq!(
        lock_files(&context.project, "demo"),
        [
            ".env",
            ".github/ci.yml",
            "LICENSE",
            "big.bin",
            "build/out.txt",
            "credentials.json",
            "docs/guide.md",
            "node_modules/dep/index.js",
            "references/guide.md",
            "skill.md"
        ]
    );

    // A dangling link: the folder cannot be recorded (and says why), but it is installed and
    // served all the same.
    std::os::unix::fs::symlink("missing.md", dir.join("dangling")).unwrap();
    let output = run(context.command().args(["manifest"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    snapshot_output!(context, output);
    let listed = manifest_json(&context);
    let served = served_manifest(&context, "demo");
    assert_eq!(listed[0]["files"], served["files"]);
}
