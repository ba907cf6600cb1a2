//! Every `--json` / `--format json` document, whole, as a reviewed snapshot: its fields and
//! their order are public contracts (those of `add` and `list` are the reference's), so a change
//! of schema shows as a snapshot change. `list --json`, `lint --format json`, `prompt --format
//! json` and `doctor --json` have theirs next to the other tests of their command.

use serde_json::json;

use crate::add::{Remote, add, fixture};
use crate::common::{Output, TestContext, run, write};
use crate::lifecycle::{lock_vanished_sources, skills};

/// Snapshots the stdout of a run that exited with `code` as `it__json__NAME.snap`, with the
/// temp dir and loopback ports hidden.
fn document(name: &str, context: &TestContext, output: &Output, code: i32) {
    snapshot_with(name, context, output, code, &[]);
}

fn snapshot_with(
    name: &str,
    context: &TestContext,
    output: &Output,
    code: i32,
    more: &[(&str, &str)],
) {
    assert_eq!(output.code, code, "{}\n{}", output.stdout, output.stderr);
    let mut settings = insta::Settings::clone_current();
    for (from, to) in context.filters() {
        settings.add_filter(&from, to);
    }
    for (from, to) in more {
        settings.add_filter(from, *to);
    }
    settings.bind(|| insta::assert_snapshot!(name, output.stdout));
}

/// The `reason` of a failure is an error message, whose wording (and, for a remote, that of
/// git and libgit2) is not the schema's.
const REASON: &[(&str, &str)] = &[(r#""reason": ".+""#, r#""reason": "[REASON]""#)];

/// `add --list`, `add`, `check`, `update`, `install --frozen` and `remove` over `git daemon`.
#[test]
fn lifecycle_documents() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    let upstream = remote.upstream("acme/flat", &fixture("flat"));
    let output = add(&context, Some(&remote), &["acme/flat", "--list", "--json"]);
    document("add_list", &context, &output, 0);
    let output = add(
        &context,
        Some(&remote),
        &[
            "acme/flat",
            "--skill",
            "pdf-forms",
            "--skill",
            "csv-tools",
            "-a",
            "claude-code,cursor",
            "-y",
            "--json",
        ],
    );
    document("add", &context, &output, 0);
    upstream.commit("pdf: better forms", |work| {
        write(
            &work.join("skills/pdf-forms/SKILL.md"),
            "---\nname: pdf-forms\ndescription: Fill PDF forms, better. Use when a form needs filling.\n---\n# PDF forms\n\nNew steps.\n",
        );
    });
    let output = skills(&context, &remote, &["check", "--json"]);
    document("check", &context, &output, 0);
    let output = skills(&context, &remote, &["update", "-y", "--json"]);
    document("update", &context, &output, 0);
    let fresh = TestContext::new();
    std::fs::copy(
        context.project.join("skills-lock.json"),
        fresh.project.join("skills-lock.json"),
    )
    .unwrap();
    let output = skills(&fresh, &remote, &["install", "--frozen", "--json"]);
    document("install", &fresh, &output, 0);
    let output = skills(&context, &remote, &["remove", "pdf-forms", "-y", "--json"]);
    document("remove", &context, &output, 0);
}

#[test]
fn find_document() {
    let context = TestContext::new();
    let server = crate::httpserver::HttpServer::start();
    crate::web::search_api(&server);
    let output = run(context
        .command()
        .args(["find", "pdf", "--json"])
        .env("SKILLS_API_URL", &server.url));
    document("find", &context, &output, 0);
}

#[test]
fn use_document() {
    let context = TestContext::new();
    crate::gitfixture::copy_tree(&fixture("flat"), &context.project.join("src"));
    let output = run(context
        .command()
        .args(["use", "./src", "--skill", "csv-tools", "--json"]));
    document("use", &context, &output, 0);
}

/// The gate's refusal, as `add --json` reports it.
#[test]
fn gate_document() {
    let context = TestContext::new();
    let server = crate::gate::site();
    let output = run(context.command().args([
        "add",
        &server.url,
        "-a",
        "claude-code",
        "-y",
        "--skill",
        "*",
        "--json",
    ]));
    document("gate", &context, &output, 1);
}

#[test]
fn sync_document() {
    let context = TestContext::new();
    let root = context.temp.path();
    let tools = crate::sync::package(root, "pdf-kit", &["pdf-tools", "pdf-forms"]);
    write(
        &context.project.join("package.json"),
        json!({"name": "app", "version": "0.0.0"}).to_string(),
    );
    crate::sync::npm_install(&context, &[&tools]);
    context.skill("src/pdf-forms", "pdf-forms");
    let output = run(context
        .command()
        .args(["add", "./src/pdf-forms", "-a", "claude-code", "-y"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let output = run(context
        .command()
        .args(["sync", "-y", "-a", "claude-code", "--json"]));
    document("sync", &context, &output, 0);
}

#[test]
fn lint_rules_document() {
    let context = TestContext::new();
    let output = run(context
        .command()
        .args(["lint", "--list-rules", "--format", "json"]));
    document("lint_rules", &context, &output, 0);
}

/// The items of failure: `check` with a `reason`, `install` and `update` with `failed` items.
#[test]
fn failure_documents() {
    let context = TestContext::new();
    let remote = Remote::new(&context);
    lock_vanished_sources(&context);
    let output = skills(&context, &remote, &["check", "--json"]);
    snapshot_with("check_failed", &context, &output, 2, REASON);
    let output = skills(&context, &remote, &["install", "--json"]);
    snapshot_with("install_failed", &context, &output, 1, REASON);
    let output = skills(&context, &remote, &["update", "-y", "--json"]);
    snapshot_with("update_failed", &context, &output, 1, REASON);
}

/// `prompt --skill NAME --format json`: the activation of a skill as data.
#[test]
fn prompt_activation_document() {
    let context = TestContext::new();
    context.skill(".claude/skills/pdf", "pdf");
    context.write(".claude/skills/pdf/scripts/fill.py", "print('fill')\n");
    let output = run(context
        .command()
        .args(["prompt", "--skill", "pdf", "--format", "json"]));
    document("prompt_activation", &context, &output, 0);
}
