//! The shape of the code, checked so that it stays: the top-level modules depend on each other
//! without a cycle, nothing outside `commands/` uses a command, no command uses another
//! (what two commands share lives in a module of its own), no clap type reaches below
//! `commands/` (flags are resolved into settings at the top), and only the install pipeline
//! stages writes into agent dirs. Read from the sources: every
//! `crate::<module>` path outside comments and test modules is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::repo;

/// Every `.rs` file under `dir`, with its path relative to `src/`.
fn sources(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The code of a file without its test module and comments.
fn code(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names that follow `prefix` in `code` (`crate::` → `lock`, `index`, …).
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(at, _)| {
            // `crate::x`, not `mycrate::x`.
            !code[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// The top-level module of a file (`lock/wire.rs` → `lock`); `None` for the crate roots.
fn module(rel: &str) -> Option<&str> {
    let first = rel.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then_some(name)
}

fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_owned());
            found.push(cycle);
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, found);
        }
        stack.pop();
        done.insert(node.to_owned());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, graph, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn modules_form_no_cycle_and_commands_stand_alone() {
    let src = repo().join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let modules: BTreeSet<&str> = files.iter().filter_map(|(rel, _)| module(rel)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for (rel, text) in &files {
        let Some(from) = module(rel) else { continue };
        let code = code(text);
        for to in paths_after(&code, "crate::") {
            if to != from && modules.contains(to) {
                graph
                    .entry(from.to_owned())
                    .or_default()
                    .insert(to.to_owned());
            }
        }
        if from != "commands" && paths_after(&code, "crate::").contains(&"commands") {
            problems.push(format!("{rel} uses a command"));
        }
        // Flags and environment become settings at the top (`settings.rs`): below `commands/`
        // nothing knows the command line.
        let above = matches!(from, "cli" | "settings" | "commands");
        if !above
            && (paths_after(&code, "crate::").contains(&"cli")
                || code.contains("clap::")
                || code.contains("use clap"))
        {
            problems.push(format!(
                "{rel} uses a clap type (resolve it in settings.rs)"
            ));
        }
        if from == "commands" && rel != "commands/mod.rs" {
            // `commands/add/output.rs` belongs to `add`; `commands/list.rs` to `list`.
            let own = rel
                .trim_start_matches("commands/")
                .split(['/', '.'])
                .next()
                .unwrap();
            let nested = rel.matches('/').count() > 1;
            let mut used: Vec<&str> = paths_after(&code, "crate::commands::");
            if !nested {
                used.extend(paths_after(&code, "super::"));
            }
            for other in used {
                let is_command = files.iter().any(|(r, _)| {
                    r == &format!("commands/{other}.rs") || r == &format!("commands/{other}/mod.rs")
                });
                if is_command && other != own {
                    problems.push(format!("{rel} uses the command `{other}`"));
                }
            }
        }
    }
    // The one way to stage a write into an agent dir is the install pipeline.
    for (rel, text) in &files {
        let code = code(text);
        let stages = code.contains(".stage(") || code.contains("fn stage(");
        if stages
            && !matches!(
                rel.as_str(),
                "install/pipeline.rs" | "install/transaction.rs"
            )
        {
            problems.push(format!(
                "{rel} stages a write outside the install pipeline (`install::Installer`)"
            ));
        }
    }
    for cycle in cycles(&graph) {
        problems.push(format!("cycle: {}", cycle.join(" → ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
