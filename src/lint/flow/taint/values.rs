//! What a name of a file holds besides taint: a module (which calls do not write into), a view
//! of another object (writing into the view writes into it), a list of names (iterated one at a
//! time); and which statements of a PowerShell function are its output.

use std::collections::HashSet;

use super::*;

/// What the names of a file are: the ones it assigns a value (`x = …`, not `x.m(…)`), and the
/// ones that hold a module (imported, or a runtime's own).
pub(super) struct Names<'u> {
    pub(super) locals: HashSet<&'u str>,
    pub(super) modules: HashSet<&'u str>,
}

/// Modules and namespaces that scripts use without importing them.
const BUILTIN_MODULES: &[&str] = &[
    "console",
    "JSON",
    "Object",
    "Math",
    "Array",
    "Promise",
    "Buffer",
    "process",
    "os",
    "sys",
    "json",
    "re",
    "subprocess",
    "shutil",
    "logging",
    "time",
    "base64",
    "hashlib",
    "pathlib",
    "requests",
    "httpx",
    "urllib",
    "fs",
    "path",
    "child_process",
];

impl<'u> Names<'u> {
    pub(super) fn of(units: &'u [UnitStmts]) -> Self {
        let mut locals = HashSet::new();
        let mut modules: HashSet<&'u str> = BUILTIN_MODULES.iter().copied().collect();
        for s in units.iter().flat_map(|u| &u.stmts) {
            if is_import(s) {
                modules.extend(s.assigns.iter().map(String::as_str));
                modules.extend(imported(&s.code));
            } else {
                locals.extend(
                    s.assigns
                        .iter()
                        .filter(|n| !mutates(s, n))
                        .map(String::as_str),
                );
            }
        }
        Self { locals, modules }
    }
}

/// The names an import statement binds: `import a, b.c as d` → `a`, `d`;
/// `from m import x, y as z` → `x`, `z`; `import x from "m"`, `import * as x from "m"`,
/// `import { a, b as c } from "m"` → `x`, `a`, `c`.
fn imported(code: &str) -> impl Iterator<Item = &str> {
    let code = code.trim_start();
    let list = if let Some(rest) = code.strip_prefix("from ") {
        rest.split_once(" import ").map_or("", |(_, l)| l)
    } else if let Some(rest) = code.strip_prefix("import ") {
        rest.split_once(" from ").map_or(rest, |(l, _)| l)
    } else {
        ""
    };
    list.split(',').filter_map(|part| {
        let part = part.trim().trim_matches(['{', '}', '(', ')', ' ', '*']);
        let name = part.rsplit(" as ").next()?.trim();
        let name = name.split('.').next()?;
        (!name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$'))
        .then_some(name)
    })
}

/// Whether a statement binds a module (`const fs = require("fs")`, `import x from "y"`): a
/// name that holds a module is not an object that data is written into.
fn is_import(s: &Stmt) -> bool {
    let rhs = s.code.get(s.rhs_at..).unwrap_or("");
    let code = s.code.trim_start();
    rhs.contains("require(")
        || rhs.contains("import(")
        || code.starts_with("import ")
        || (code.starts_with("from ") && code.contains(" import "))
}

/// The object of the file that the value `s` assigns to `name` is a view of: the value is a
/// method called on a name the file assigns (`img.load()`, `$canvas.getContext("2d")`).
pub(super) fn viewed(s: &Stmt, name: &str, locals: &HashSet<&str>) -> Option<String> {
    let rhs = s.code.get(s.rhs_at..)?.trim_start();
    let rhs = rhs
        .strip_prefix("await ")
        .unwrap_or(rhs)
        .trim_start_matches('$');
    let end = rhs
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rhs.len());
    let (parent, rest) = rhs.split_at(end);
    let method = rest.strip_prefix('.')?;
    let called = method
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .is_some_and(|e| method[e..].starts_with('('));
    (called && !parent.is_empty() && parent != name && locals.contains(parent) && !is_import(s))
        .then(|| parent.to_owned())
}

/// Whether `s` writes into `name` rather than replacing it: `name[k] = …`, `name.m(…)`.
pub(super) fn mutates(s: &Stmt, name: &str) -> bool {
    let code = s.code.trim_start().trim_start_matches('$');
    code.strip_prefix(name)
        .is_some_and(|rest| rest.starts_with('[') || rest.starts_with('.'))
}

/// Whether the value `rhs` of `s` is a list of separate strings or words rather than one string
/// built from pieces.
pub(super) fn is_list(rhs: &str, s: &Stmt) -> bool {
    let t = rhs.trim_start();
    let bracketed =
        t.starts_with('[') || t.starts_with("@(") || t.starts_with('(') || t.starts_with('{');
    (bracketed && s.strings.len() > 1 && t.contains(',') && !t.contains('+'))
        || !list_words(s).is_empty()
}

/// The bare words a shell `for` loop iterates over: `for v in A_KEY B_TOKEN; do`.
pub(super) fn list_words(s: &Stmt) -> Vec<String> {
    let code = s.code.trim_start();
    let Some(rest) = code.strip_prefix("for ") else {
        return Vec::new();
    };
    let Some((_, list)) = rest.split_once(" in ") else {
        return Vec::new();
    };
    let end = list.find([';', '\n']).unwrap_or(list.len());
    list[..end]
        .split_whitespace()
        .take_while(|w| *w != "do")
        .filter(|w| w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .take(MAX_NAMES)
        .map(str::to_owned)
        .collect()
}

/// Whether a statement of a PowerShell function writes to its output (what the function
/// returns): any expression that is not an assignment, a keyword's statement, a write to the
/// host, or a request (whose output is the reply, not what was sent).
pub(super) fn outputs(s: &Stmt) -> bool {
    const NOT_OUTPUT: &[&str] = &[
        "if",
        "elseif",
        "else",
        "for",
        "foreach",
        "while",
        "do",
        "switch",
        "try",
        "catch",
        "finally",
        "param",
        "function",
        "write-host",
        "write-verbose",
        "write-debug",
        "write-warning",
        "write-error",
        "write-information",
        "throw",
        "break",
        "continue",
        "}",
        "{",
        "[cmdletbinding",
    ];
    let lower = s.code.trim_start().to_ascii_lowercase();
    s.assigns.is_empty()
        && !NOT_OUTPUT.iter().any(|k| {
            lower.starts_with(k)
                && lower[k.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        })
        && !NET_SINK.is_match(&s.code)
}

impl State {
    /// Taints what `name` is a view of, and what that is a view of, with `src`.
    pub(super) fn taint_viewed(&mut self, name: &str, src: &Source) -> bool {
        let mut changed = false;
        let mut at = name;
        for _ in 0..4 {
            let Some(parent) = self.views.get(at) else {
                break;
            };
            if !self.taint.contains_key(parent) {
                self.taint.insert(parent.clone(), src.clone());
                changed = true;
            }
            at = parent;
        }
        changed
    }

    /// Binds the variables of iterations in `s` over a constant list (`for n in NAMES`,
    /// `names.map((n) => …)`, `foreach ($n in $names)`) to that list, so that a lookup by the
    /// variable (`process.env[n]`) reads the names it holds.
    pub(super) fn bind_iteration(&mut self, s: &Stmt) -> bool {
        static ITERATION: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(
                r"\b([A-Za-z_$][\w$]*)\s*\.\s*(?:map|forEach|flatMap|filter|reduce|some|every|find|each|each_with_object|collect)\s*[({]\s*(?:async\s+)?(?:function\s*)?\(?\s*\|?\s*([A-Za-z_$][\w$]*)|\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+|\$)?([A-Za-z_]\w*)\s+(?:in|of)\s+\$?([A-Za-z_]\w*)",
            )
            .expect("static regex builds")
        });
        const ITERATES: &[&str] = &[
            "for", ".map", ".forEach", ".flatMap", ".filter", ".reduce", ".some", ".every",
            ".find", ".each", ".collect",
        ];
        if !self.lists || !ITERATES.iter().any(|w| s.code.contains(w)) {
            return false;
        }
        let mut changed = false;
        for c in ITERATION.captures_iter(&s.code).take(8) {
            let (list, var) = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
                (Some(l), Some(v), ..) | (.., Some(v), Some(l)) => (l.as_str(), v.as_str()),
                _ => continue,
            };
            if self.consts.contains_key(var) {
                continue;
            }
            if let Some(value) = self.consts.get(list).filter(|(v, _)| v.contains('\n')) {
                self.consts.insert(var.to_owned(), value.clone());
                changed = true;
            }
        }
        changed
    }
}
