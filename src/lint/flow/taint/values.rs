//! What a name of a file holds besides taint: a module (which calls do not write into), a view
//! of another object (writing into the view writes into it), a list of names (iterated one at a
//! time); and which statements of a PowerShell function are its output.

use std::collections::HashSet;
use std::sync::LazyLock;

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
        let mut modules = HashSet::new();
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

    /// Whether `name` holds a module: imported in the file, or a runtime's own.
    pub(super) fn module(&self, name: &str) -> bool {
        BUILTIN_MODULES.contains(&name) || self.modules.contains(name)
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
    static CALL: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("require("));
    static DYNAMIC: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("import("));
    let code = s.code.trim_start();
    if code.starts_with("import ") || (code.starts_with("from ") && code.contains(" import ")) {
        return true;
    }
    let rhs = s.code.get(s.rhs_at..).unwrap_or("").as_bytes();
    CALL.find(rhs).is_some() || DYNAMIC.find(rhs).is_some()
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
    /// variable (`process.env[n]`) reads the names it holds. Only names that hold a list are
    /// looked for, as plain text: most statements name none.
    pub(super) fn bind_iteration(&mut self, s: &Stmt) -> bool {
        if self.lists.is_empty() {
            return false;
        }
        let lists: Vec<&String> = s
            .refs
            .iter()
            .filter(|r| self.lists.contains(r.as_str()))
            .take(4)
            .collect();
        let mut changed = false;
        for list in lists {
            for var in iteration_vars(&s.code, list) {
                if self.consts.contains_key(var) {
                    continue;
                }
                if let Some(value) = self.consts.get(list.as_str()).cloned() {
                    self.add_const(var, value);
                    changed = true;
                }
            }
        }
        changed
    }
}

/// Methods that call a function on each element of a list.
const ITERATORS: &[&str] = &[
    "map", "forEach", "flatMap", "filter", "reduce", "some", "every", "find", "each", "collect",
];

/// The variables that iterate over `list` in `code`: `list.map((v) => …)`,
/// `list.forEach(function (v) …)`, `list.each { |v| … }`, `for v in list`,
/// `for (const v of list)`, `foreach ($v in $list)`.
fn iteration_vars<'c>(code: &'c str, list: &str) -> Vec<&'c str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut vars = Vec::new();
    for (at, _) in code.match_indices(list).take(8) {
        let before = &code[..at];
        let after = &code[at + list.len()..];
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if before.ends_with(word) || after.starts_with(ident) {
            continue;
        }
        // `list.map((v) => …)`
        if let Some(rest) = after.trim_start().strip_prefix('.') {
            let rest = rest.trim_start();
            let method = &rest[..rest.find(|c: char| !ident(c)).unwrap_or(rest.len())];
            if ITERATORS.contains(&method) {
                let mut rest = rest[method.len()..].trim_start();
                for skip in ["(", "{", "async ", "function", "(", "|"] {
                    rest = rest.strip_prefix(skip).unwrap_or(rest).trim_start();
                }
                let var = &rest[..rest.find(|c: char| !ident(c)).unwrap_or(rest.len())];
                if !var.is_empty() {
                    vars.push(var);
                }
            }
            continue;
        }
        // `for v in list`, `for (const v of list)`, `foreach ($v in $list)`
        let head = before.trim_end_matches(['$', '(', ' ', '"', '@', '{']);
        let Some(head) = head
            .strip_suffix(" in")
            .or_else(|| head.strip_suffix(" of"))
        else {
            continue;
        };
        let head = head.trim_end();
        let start = head
            .char_indices()
            .rev()
            .find(|&(_, c)| !ident(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let var = head[start..].trim_start_matches('$');
        let keyword = head[..start]
            .trim_end_matches(['(', ' '])
            .trim_end_matches("const")
            .trim_end_matches("let")
            .trim_end_matches("var")
            .trim_end_matches(['(', ' ']);
        if !var.is_empty() && (keyword.ends_with("for") || keyword.ends_with("foreach")) {
            vars.push(var);
        }
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_that_iterate_over_a_list() {
        for (code, var) in [
            (
                "return Object.fromEntries(names.map((n) => [n, process.env[n]]));",
                "n",
            ),
            (
                "names.forEach(function (k) { out[k] = process.env[k] })",
                "k",
            ),
            ("names.each { |k| out[k] = ENV[k] }", "k"),
            ("vals = {n: os.environ.get(n) for n in names}", "n"),
            ("for (const k of names) {", "k"),
            ("foreach ($k in $names) {", "k"),
            ("for v in \"${names[@]}\"; do", "v"),
        ] {
            assert_eq!(iteration_vars(code, "names"), [var], "{code}");
        }
        for code in [
            "console.log(names.length)",
            "for n in other_names:",
            "x = names",
            "for n in range(len(names)):",
        ] {
            assert!(iteration_vars(code, "names").is_empty(), "{code}");
        }
    }
}
