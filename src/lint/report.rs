//! Renderers of a lint [`Report`]: human (compiler-style), JSON, GitHub annotations, SARIF 2.1.0.
//!
//! The JSON and SARIF shapes are public contracts: fields are only ever added.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::rules::{self, Rule, Severity};
use super::{Diagnostic, Report};
use crate::output::{self, Text};

/// Paths are shown relative to the working directory when they lie under it.
pub fn display_path(path: &Path, cwd: &Path) -> String {
    let shown = path
        .strip_prefix(cwd)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path);
    shown.to_string_lossy().replace('\\', "/")
}

fn location(d: &Diagnostic, cwd: &Path) -> String {
    let path = display_path(&d.path, cwd);
    match (d.line, d.col) {
        (Some(line), Some(col)) => format!("{path}:{line}:{col}"),
        (Some(line), None) => format!("{path}:{line}"),
        _ => path,
    }
}

fn style(severity: Severity) -> anstyle::Style {
    match severity {
        Severity::Error => output::ERROR,
        Severity::Warning => output::WARNING,
        Severity::Info => output::INFO,
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `path:line:col: severity[code]: message` lines, `help:` lines, and a summary with per-rule
/// counts. Infos are shown only when `show_info`. What came from the skills (paths, messages
/// quoting them) is escaped as it is written ([`Text`]).
pub fn human(report: &Report, cwd: &Path, color: bool, show_info: bool) -> Text {
    let mut out = Text::new(color);
    let mut hidden = 0;
    for d in report.diagnostics() {
        if d.severity == Severity::Info && !show_info {
            hidden += 1;
            continue;
        }
        out.styled(output::EMPHASIS, location(d, cwd));
        let _ = write!(out, ": ");
        out.styled(
            style(d.severity),
            format_args!("{}[{}]", d.severity.as_str(), d.rule.code),
        );
        let _ = writeln!(out, ": {}", d.message);
        if let Some(help) = &d.help {
            let _ = write!(out, "  ");
            out.styled(output::INFO, "help");
            let _ = writeln!(out, ": {help}");
        }
    }
    let counts = report.counts();
    let skills = plural(report.skills.len(), "skill");
    let shown = counts.errors + counts.warnings + counts.infos - hidden;
    if !out.is_empty() {
        let _ = writeln!(out);
    }
    if shown == 0 {
        let _ = write!(out, "Checked {skills}: ");
        out.styled(output::SUCCESS, "no problems");
    } else {
        let mut parts = vec![
            plural(counts.errors, "error"),
            plural(counts.warnings, "warning"),
        ];
        if show_info {
            parts.push(plural(counts.infos, "note"));
        }
        let failing = report
            .skills
            .iter()
            .filter(|s| s.diagnostics.iter().any(|d| d.severity == Severity::Error))
            .count();
        let _ = write!(
            out,
            "Checked {skills}: {} ({} with errors)",
            parts.join(", "),
            failing
        );
    }
    if hidden > 0 {
        let _ = write!(out, "; {} hidden (-v shows them)", plural(hidden, "note"));
    }
    let _ = writeln!(out);
    let per_rule: Vec<_> = report
        .per_rule()
        .into_iter()
        .filter(|(code, _)| {
            show_info || rules::find(code).is_none_or(|r| r.severity != Severity::Info)
        })
        .collect();
    let width = per_rule
        .iter()
        .map(|(code, _)| code.len())
        .max()
        .unwrap_or(0);
    for (code, count) in per_rule {
        let _ = writeln!(out, "  {code:<width$} {count:>6}");
    }
    out
}

#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    summary: JsonSummary,
    skills: Vec<JsonSkill<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonSummary {
    skills: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    rules: std::collections::BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct JsonSkill<'a> {
    name: &'a str,
    path: String,
    errors: usize,
    warnings: usize,
    infos: usize,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    family: rules::Family,
    severity: Severity,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<&'a str>,
}

fn diagnostic<'a>(d: &'a Diagnostic, skill: Option<&'a str>, cwd: &Path) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        code: d.rule.code,
        family: d.rule.family,
        severity: d.severity,
        message: &d.message,
        help: d.help.as_deref(),
        path: display_path(&d.path, cwd),
        line: d.line,
        column: d.col,
        skill,
    }
}

/// One JSON document, `"version": 1`.
pub fn json(report: &Report, cwd: &Path) -> String {
    let counts = report.counts();
    let count = |ds: &[Diagnostic], severity| ds.iter().filter(|d| d.severity == severity).count();
    let document = JsonReport {
        version: 1,
        summary: JsonSummary {
            skills: report.skills.len(),
            errors: counts.errors,
            warnings: counts.warnings,
            infos: counts.infos,
            rules: report.per_rule(),
        },
        skills: report
            .skills
            .iter()
            .map(|s| JsonSkill {
                name: &s.name,
                path: display_path(&s.path, cwd),
                errors: count(&s.diagnostics, Severity::Error),
                warnings: count(&s.diagnostics, Severity::Warning),
                infos: count(&s.diagnostics, Severity::Info),
            })
            .collect(),
        diagnostics: report
            .skills
            .iter()
            .flat_map(|s| {
                s.diagnostics
                    .iter()
                    .map(|d| diagnostic(d, Some(&s.name), cwd))
            })
            .chain(report.other.iter().map(|d| diagnostic(d, None, cwd)))
            .collect(),
    };
    crate::json::pretty(&document).unwrap_or_default()
}

/// Escapes data of a workflow command (`%`, CR, LF), and properties (also `:` and `,`).
fn escape_github(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            // The workflow log renders ANSI sequences: a skill's text must not style or hide it.
            c if output::escape::is_control(c) => {
                output::escape::push_escaped(&mut out, c.encode_utf8(&mut [0; 4]));
            }
            c => out.push(c),
        }
    }
    out
}

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`.
pub fn github(report: &Report, cwd: &Path) -> String {
    let mut out = String::new();
    for d in report.diagnostics() {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = vec![format!(
            "file={}",
            escape_github(&display_path(&d.path, cwd), true)
        )];
        if let Some(line) = d.line {
            props.push(format!("line={line}"));
        }
        if let Some(col) = d.col {
            props.push(format!("col={col}"));
        }
        props.push(format!("title={}", escape_github(d.rule.code, true)));
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(help);
        }
        let _ = writeln!(
            out,
            "::{command} {}::{}",
            props.join(","),
            escape_github(&message, false)
        );
    }
    out
}

/// SARIF 2.1.0 with every rule of the catalog in the driver, for code scanning.
pub fn sarif(report: &Report, cwd: &Path) -> String {
    let level = |severity: Severity| match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    };
    let rule_json = |rule: &Rule| {
        serde_json::json!({
            "id": rule.code,
            "name": rule.code.split_once('/').map_or(rule.code, |(_, slug)| slug),
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.summary},
            "help": {"text": rule.explain(), "markdown": rule.explain()},
            "defaultConfiguration": {"level": level(rule.severity)},
            "properties": {"tags": [rule.family.as_str()]},
        })
    };
    let results: Vec<_> = report
        .diagnostics()
        .map(|d| {
            let index = rules::ALL
                .iter()
                .position(|r| std::ptr::eq(*r, d.rule))
                .unwrap_or(0);
            let mut region = serde_json::Map::new();
            if let Some(line) = d.line {
                region.insert("startLine".into(), line.into());
            }
            if let Some(col) = d.col {
                region.insert("startColumn".into(), col.into());
            }
            let mut physical = serde_json::json!({
                "artifactLocation": {"uri": display_path(&d.path, cwd), "uriBaseId": "%SRCROOT%"},
            });
            if !region.is_empty() {
                physical["region"] = serde_json::Value::Object(region);
            }
            let mut text = d.message.clone();
            if let Some(help) = &d.help {
                text.push_str(" (help: ");
                text.push_str(help);
                text.push(')');
            }
            serde_json::json!({
                "ruleId": d.rule.code,
                "ruleIndex": index,
                "level": level(d.severity),
                "message": {"text": text},
                "locations": [{"physicalLocation": physical}],
            })
        })
        .collect();
    let document = serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skills",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules::ALL.iter().map(|r| rule_json(r)).collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    });
    crate::json::pretty(&document).unwrap_or_default()
}
