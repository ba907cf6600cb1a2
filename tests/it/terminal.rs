//! What reaches a terminal: controls from sources escaped, tables that fit (or TSV when piped),
//! the picker of `add` and the hint of `serve --stdio`, through a real pseudo-terminal.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use expectrl::Expect as _;
use expectrl::process::unix::WaitStatus;
use serde_json::{Value, json};

use crate::common::{TestContext, run, write};
use crate::httpserver::HttpServer;

/// A name and a description with every kind of terminal control a source could hide: CSI
/// (clear screen), OSC 52 (write the clipboard), OSC 8 (a link), BEL, backspace, CR, a C1 CSI
/// and a right-to-left override.
const HOSTILE_NAME: &str = "evil\x1b[2J\x07";
const HOSTILE_DESCRIPTION: &str = "Clears \x1b[2J the screen, writes \x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07 the clipboard, links \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\, rings \x07, erases\x08\x08, returns\r, C1 \u{9b}31m, flips \u{202e}gnp.exe\u{202c}. Use when testing.";

/// The SKILL.md of the hostile skill, written with YAML escapes.
fn hostile_skill_md() -> String {
    format!(
        "---\nname: {}\ndescription: {}\n---\n\n# Evil\n\nBody.\n",
        yaml_quoted(HOSTILE_NAME),
        yaml_quoted(HOSTILE_DESCRIPTION)
    )
}

/// `text` as a YAML double-quoted scalar, every control written as a `\u` escape (YAML does
/// not allow them raw).
fn yaml_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}') => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n\nBody.\n")
}

/// Fails when `text` holds a character a terminal would act on (tab and line feed aside).
fn assert_no_controls(what: &str, text: &str) {
    for c in text.chars() {
        let control = matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        assert!(!control, "{what}: raw {c:?} in:\n{text}");
    }
}

/// A local source with the hostile skill and a plain one.
fn hostile_source(context: &TestContext) -> std::path::PathBuf {
    let source = context.temp.path().join("source");
    write(&source.join("skills/evil/SKILL.md"), hostile_skill_md());
    write(
        &source.join("skills/plain/SKILL.md"),
        skill_md("plain", "A plain skill. Use when plain."),
    );
    source
}

#[test]
fn controls_from_sources_are_escaped_in_every_command() {
    let context = TestContext::new();
    context.write(".claude/skills/evil/SKILL.md", hostile_skill_md());
    let source = hostile_source(&context);
    let source = source.to_str().unwrap();
    let server = HttpServer::start();
    server.file(
        "/api/search",
        json!({"skills": [
            {"id": "x/y/evil", "name": HOSTILE_NAME, "installs": 1, "source": format!("x/{HOSTILE_DESCRIPTION}")},
        ]})
        .to_string(),
    );
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("list", vec!["list"]),
        ("add --list", vec!["add", source, "--list"]),
        ("lint", vec!["lint", ".claude/skills/evil"]),
        ("lint -v", vec!["lint", "-v", ".claude/skills/evil"]),
        (
            "lint github",
            vec!["lint", "--format", "github", ".claude/skills/evil"],
        ),
        (
            "lint sarif",
            vec!["lint", "--format", "sarif", ".claude/skills/evil"],
        ),
        ("find", vec!["find", "evil"]),
        ("add", vec!["add", source, "-s", "*", "-a", "codex", "-y"]),
        ("add --dry-run", vec!["add", source, "-s", "*", "--dry-run"]),
        ("list after add", vec!["list"]),
    ];
    let shows_the_name = ["list", "add --list", "find", "list after add"];
    for (what, args) in runs {
        let mut command = context.command();
        command.args(&args).env("SKILLS_API_URL", &server.url);
        let output = run(&mut command);
        assert_no_controls(&format!("{what}: stdout"), &output.stdout);
        assert_no_controls(&format!("{what}: stderr"), &output.stderr);
        let shown = format!("{}{}", output.stdout, output.stderr);
        if shows_the_name.contains(&what) {
            assert!(
                shown.contains("\\x1b[2J"),
                "{what} shows the escape: {shown}"
            );
        }
    }
    // Our colors are added after escaping: they stay, the source's are shown.
    let output = run(context
        .command()
        .args(["lint", "--color", "always", ".claude/skills/evil"]));
    assert!(output.stdout.contains("\x1b[1m"), "{}", output.stdout);
    assert!(output.stdout.contains("\\x1b[2J"), "{}", output.stdout);
    for raw in ["\x1b[2J", "\x1b]", "\x07", "\u{9b}", "\u{202e}"] {
        assert!(
            !output.stdout.contains(raw),
            "raw {raw:?}: {}",
            output.stdout
        );
    }
    // `--json` stays exact: the escapes are JSON's, and read back as the source wrote them.
    let output = run(context.command().args(["list", "--json"]));
    assert_no_controls("list --json", &output.stdout);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    let evil = document["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == HOSTILE_NAME)
        .expect("the hostile skill is listed by its exact name");
    assert_eq!(evil["description"], HOSTILE_DESCRIPTION);
    let output = run(context.command().args(["add", source, "--list", "--json"]));
    assert_no_controls("add --list --json", &output.stdout);
    let document: Value = serde_json::from_str(&output.stdout).unwrap();
    assert!(
        document["skills"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["description"] == HOSTILE_DESCRIPTION),
        "{document}"
    );
    // An error that quotes a hostile lockfile.
    context.write(
        "skills-lock.json",
        json!({"version": 1, "skills": {"evil": {"source": format!("x/{HOSTILE_DESCRIPTION}"), "sourceType": "weird\x1b[2J", "computedHash": "0"}}}).to_string(),
    );
    let output = run(context.command().args(["install", "--frozen"]));
    assert_ne!(output.code, 0);
    assert_no_controls("install: stderr", &output.stderr);
    assert!(output.stderr.contains("\\x1b"), "{}", output.stderr);
}

#[test]
fn piped_tables_are_one_tab_separated_line_per_row() {
    let context = TestContext::new();
    context.write(
        ".claude/skills/pdf/SKILL.md",
        skill_md("pdf", "Fill\tPDF forms. Use when the user asks for pdf."),
    );
    // A one-megabyte, one-word description used to overflow comfy-table's u16 widths.
    context.write(
        ".claude/skills/huge/SKILL.md",
        skill_md("huge", &"x".repeat(1 << 20)),
    );
    let output = run(context.command().arg("list"));
    assert_eq!(output.code, 0, "{}", output.stderr);
    let lines: Vec<&str> = output.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "one line per skill, no header");
    let huge: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(
        huge[..4],
        ["huge", "claude-code", "local", ".claude/skills/huge"]
    );
    assert_eq!(huge[4].len(), 1 << 20, "piped, nothing is cut");
    assert_eq!(
        lines[1].split('\t').collect::<Vec<_>>(),
        [
            "pdf",
            "claude-code",
            "local",
            ".claude/skills/pdf",
            "Fill PDF forms. Use when the user asks for pdf."
        ]
    );
    assert!(!output.stdout.contains('│'));
    let output = run(context.command().args(["list", "--json"]));
    assert_eq!(output.code, 0);

    let source = context.temp.path().join("source");
    write(
        &source.join("skills/a/SKILL.md"),
        skill_md("a", "First. Use when a."),
    );
    write(
        &source.join("skills/b/SKILL.md"),
        skill_md("b", "Second. Use when b."),
    );
    let output = run(context
        .command()
        .args(["add", source.to_str().unwrap(), "--list"]));
    assert_eq!(output.code, 0, "{}", output.stderr);
    assert_eq!(
        output.stdout,
        "a\tskills/a\tFirst. Use when a.\nb\tskills/b\tSecond. Use when b.\n"
    );
}

/// `skills args…` in a pseudo-terminal `columns` wide (set by `stty` in the terminal itself,
/// so that the width is there before `skills` starts), with the context's environment.
pub fn in_terminal(
    context: &TestContext,
    columns: u16,
    args: &[&str],
) -> expectrl::session::OsSession {
    let skills = context.std_command();
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("stty cols {columns} rows 40 && exec \"$0\" \"$@\""))
        .arg(skills.get_program())
        .args(args)
        .current_dir(&context.project)
        .env_remove("COLUMNS");
    for (key, value) in skills.get_envs() {
        match value {
            Some(value) if key != "COLUMNS" => command.env(key, value),
            _ => command.env_remove(key),
        };
    }
    command.env("TERM", "xterm");
    let mut session = expectrl::Session::spawn(command).expect("spawn in a pty");
    session.set_expect_timeout(Some(Duration::from_secs(30)));
    session
}

/// Everything the session prints until it ends, and its exit code.
pub fn until_exit(session: &mut expectrl::session::OsSession) -> (String, i32) {
    let found = session.expect(expectrl::Eof).expect("the command ends");
    let text = String::from_utf8_lossy(found.get(0).unwrap_or_default()).replace("\r\n", "\n");
    let code = match session.get_process().wait().expect("wait") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("ended with {other:?}"),
    };
    (text, code)
}

#[test]
fn tables_fit_the_terminal_and_cut_descriptions_at_a_word() {
    let context = TestContext::new();
    context.write(
        ".claude/skills/pdf/SKILL.md",
        skill_md(
            "pdf",
            "Fill PDF forms and extract tables from scanned documents. Use when the user asks for pdf.",
        ),
    );
    context.write(
        ".claude/skills/wide/SKILL.md",
        skill_md(
            "wide",
            "字字字字字字字字 字字字字字字字字字字 字字字字字字字字字字字字字字",
        ),
    );
    context.write(
        ".claude/skills/huge/SKILL.md",
        skill_md("huge", &"x".repeat(1 << 20)),
    );
    let mut session = in_terminal(&context, 80, &["list"]);
    let (text, code) = until_exit(&mut session);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("┌"), "{text}");
    for line in text.lines() {
        assert!(
            skills::output::text_width(line) <= 80,
            "wider than the terminal ({}): {line}",
            skills::output::text_width(line)
        );
    }
    assert!(
        text.contains("Fill PDF forms and…"),
        "cut at a word with `…`:\n{text}"
    );
    assert!(text.contains("字字字字字字字字…"), "{text}");
    assert!(
        text.contains("Description"),
        "a header on a terminal:\n{text}"
    );
}

#[test]
fn serve_on_a_terminal_says_it_waits_for_a_client() {
    let context = TestContext::new();
    context.write(
        ".claude/skills/pdf/SKILL.md",
        skill_md("pdf", "Pdf. Use when pdf."),
    );
    let mut session = in_terminal(&context, 100, &["serve", "--stdio", "--no-watch"]);
    session
        .expect("waiting for an MCP client on stdin")
        .unwrap();
    session
        .expect("\"args\": [\"serve\", \"--stdio\"]")
        .unwrap();
    // The end of input ends the server.
    session.send("\x04").unwrap();
    let (text, code) = until_exit(&mut session);
    assert_eq!(code, 0, "{text}");
    assert!(
        !text.contains("waiting for an MCP client"),
        "said once: {text}"
    );
}

/// A local source with two skills, in the index order `pdf`, `notes`.
fn two_skills(context: &TestContext) -> String {
    let source = context.temp.path().join("two");
    write(
        &source.join("skills/pdf/SKILL.md"),
        skill_md("pdf", "Fill PDF forms. Use when pdf."),
    );
    write(
        &source.join("skills/notes/SKILL.md"),
        skill_md("notes", "Take notes. Use when notes."),
    );
    source.to_str().unwrap().to_owned()
}

fn installed(project: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(project.join(".agents/skills"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Answers the agents question with its defaults and confirms.
pub fn confirm(session: &mut expectrl::session::OsSession) {
    session.expect("Agents to install for").unwrap();
    session.send("\r").unwrap();
    session.expect("Proceed").unwrap();
    session.send("y").unwrap();
}

#[test]
fn picker_typing_filters_and_enter_takes_the_match() {
    let context = TestContext::new();
    let source = two_skills(&context);
    let mut session = in_terminal(&context, 100, &["add", &source]);
    session.expect("Skills to install").unwrap();
    session.expect("a select all").unwrap();
    session.expect("enter confirm").unwrap();
    session.send("NOT").unwrap();
    session.expect("1 of 2 shown").unwrap();
    session.send("\r").unwrap();
    session.expect("Skills to install: notes").unwrap();
    confirm(&mut session);
    session.expect("Installed 1 skill").unwrap();
    let (_, code) = until_exit(&mut session);
    assert_eq!(code, 0);
    assert_eq!(installed(&context.project), ["notes"]);
}

/// `a` selects all with the filter empty; ctrl-a does at any time; `a` followed by a letter is
/// typed into the filter, and the selection is as before it.
#[test]
fn picker_a_selects_all() {
    for keys in ["a", "\x01", "NOT\x01"] {
        let context = TestContext::new();
        let source = two_skills(&context);
        let mut session = in_terminal(&context, 100, &["add", &source]);
        session.expect("enter confirm").unwrap();
        session.send(keys).unwrap();
        if keys.starts_with("NOT") {
            session.expect("1 selected").unwrap();
            session.send("\x7f\x7f\x7f").unwrap();
            session.expect("2 of 2 shown").unwrap();
            session.send("\x01").unwrap();
        }
        session.expect("2 selected").unwrap();
        session.send("\r").unwrap();
        session.expect("Skills to install: notes, pdf").unwrap();
        confirm(&mut session);
        session.expect("Installed 2 skill(s)").unwrap();
        let (_, code) = until_exit(&mut session);
        assert_eq!(code, 0, "{keys:?}");
        assert_eq!(installed(&context.project), ["notes", "pdf"], "{keys:?}");
    }
    // `a` then `p`: a word, not select-all.
    let context = TestContext::new();
    let source = two_skills(&context);
    let mut session = in_terminal(&context, 100, &["add", &source]);
    session.expect("enter confirm").unwrap();
    session.send("a").unwrap();
    session.expect("2 selected").unwrap();
    session.send("t").unwrap();
    session.expect("0 selected").unwrap();
    session.expect("filter: at").unwrap();
}

#[test]
fn picker_esc_cancels_and_writes_nothing() {
    let context = TestContext::new();
    let source = two_skills(&context);
    let mut session = in_terminal(&context, 100, &["add", &source]);
    session.expect("enter confirm").unwrap();
    session.send(" ").unwrap(); // a selection, then a change of mind
    session.send("\x1b").unwrap();
    let (text, code) = until_exit(&mut session);
    assert!(text.contains("cancelled, nothing installed"), "{text}");
    assert!(!text.contains("error"), "a cancel is not an error: {text}");
    assert_eq!(code, 130);
    let mut left: Vec<String> = std::fs::read_dir(&context.project)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert!(left.is_empty(), "nothing written: {left:?}");
}

#[test]
fn load_skill_description_cuts_at_a_word() {
    use std::io::{BufRead as _, BufReader, Write as _};
    let context = TestContext::new();
    let long = format!(
        "Fill PDF forms. {}Use when the user asks for pdf.",
        "Reads every field of every page and writes them back carefully. ".repeat(6)
    );
    context.write(".claude/skills/pdf/SKILL.md", skill_md("pdf", &long));
    let mut child = context
        .std_command()
        .args(["serve", "--stdio", "--no-watch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let tools = loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the server ended");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == 2 {
            break message["result"]["tools"].clone();
        }
    };
    drop(stdin);
    let _ = child.wait();
    let description = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "load_skill")
        .unwrap()["description"]
        .as_str()
        .unwrap()
        .to_owned();
    let entry = description
        .lines()
        .find(|l| l.starts_with("- pdf: "))
        .unwrap();
    let shown = entry.trim_start_matches("- pdf: ");
    assert!(shown.ends_with('…'), "{entry}");
    let kept = shown.trim_end_matches('…');
    assert!(long.starts_with(kept), "{entry}");
    assert_eq!(
        long[kept.len()..].chars().next(),
        Some(' '),
        "cut before a space, not inside a word: {entry}"
    );
    assert!(kept.chars().count() < 240, "{entry}");
}
