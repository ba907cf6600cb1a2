//! Following values from sources (the whole environment, secret-named variables, credential
//! stores) through assignments, string building, function parameters and returns, and across
//! the units of one file, to sinks (HTTP, DNS, raw sockets, world-readable files), and decoded
//! text to `exec`/`eval`. Scopes are not modelled: a name tainted anywhere in a file is tainted
//! everywhere in it, which over-approximates and keeps the analysis linear (a bounded number of
//! passes over the statements).

#![allow(
    clippy::wildcard_imports,
    reason = "the parts of the analysis share their parent's private items"
)]

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::Hit;
use super::decode;
use super::lex::{Kind, Lang, Token};
use crate::lint::exec::ascii_regex;
use crate::lint::rules;

mod sinks;
mod sources;
mod stmt;
mod values;

use sinks::*;
use sources::*;
pub use sources::{bad_host, named_secret_belongs, secret_name};
use stmt::*;
pub use stmt::{Stmt, identity_only, prepare, scope_locals};

/// The text of a string literal without its quotes.
pub fn literal_of(raw: &str) -> &str {
    stmt::literal(raw)
}
use values::*;

/// Where a tainted value came from.
#[derive(Debug, Clone)]
pub struct Source {
    /// What it is, for a message: "the whole environment (`os.environ`)".
    pub what: String,
    /// File offset of the statement that read it.
    pub at: usize,
    pub kind: SourceKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceKind {
    /// Every variable of the environment.
    Environment,
    /// One secret-named variable; the words of its name that name a vendor (`OPENAI_API_KEY` →
    /// `openai`), empty for a generic name (`API_KEY`).
    Secret(Vec<String>),
    /// A credential file, keychain, browser profile or wallet.
    Store,
}

// --- the analysis --------------------------------------------------------------------------

/// A function of the file: its name, parameters, and the statements of its body.
#[derive(Debug)]
struct Func {
    name: String,
    params: Vec<String>,
    unit: usize,
    body: std::ops::Range<usize>,
}

/// A unit's statements.
pub struct UnitStmts {
    pub base: usize,
    pub lang: Lang,
    pub quoted: Option<&'static str>,
    pub stmts: Vec<Stmt>,
}

#[derive(Default)]
struct State {
    taint: HashMap<String, Source>,
    funcs: HashMap<String, Source>,
    decoded: HashMap<String, usize>,
    /// Values of names assigned constant text; `true` when decoded from base64 or hex.
    consts: HashMap<String, (String, bool)>,
    /// The constants whose text names a secret (`"OPENAI_API_KEY"`, a list holding one): a
    /// variable read by their value is a source. Most files have none, and then no lookup by
    /// name is searched for.
    named: HashMap<String, (String, bool)>,
    /// Names assigned a value that holds no source.
    clean: HashSet<String>,
    /// Files a handle name writes to.
    handles: HashMap<String, String>,
    /// Files tainted data was written to.
    files: Vec<(String, Source)>,
    /// Names that hold the home folder itself or a path of the agent's configuration.
    locs: HashMap<String, (Loc, usize)>,
    /// Names that hold a request or connection (`req = https.request(…)`): what is written to
    /// them is sent.
    conns: HashMap<String, String>,
    /// Names that hold a view of another object of the file (`px = img.load()`,
    /// `ctx = canvas.getContext("2d")`), with that object: writing into the view writes into it.
    views: HashMap<String, String>,
    /// Names of constants that are lists (one element a line): iterations over them are bound.
    lists: HashSet<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    Home,
    Agent,
}

static HOME_ROOT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"^[\s(\[{,]*["']?(~/?|\$HOME/?|\$\{HOME\}/?|Path\.home\(\)|pathlib\.Path\.home\(\)|os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|os\.homedir\(\)|homedir\(\)|\$env:USERPROFILE|\$env:HOME|os\.environ\[['"]HOME['"]\]|os\.getenv\(\s*['"]HOME['"]\s*\)|process\.env\.HOME)["']?[\s)\]},;:]*$"#,
    )
});

static AGENT_PATH: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(^|[/\\'"\s])\.(claude|cursor|codex|gemini|codeium|windsurf|continue)([/\\'"]|$)|\.claude\.json|mcp(_config)?\.json"#,
    )
});

/// The agent's own records under its folder: session transcripts, to-dos, logs, caches. Copying
/// them (a dev container's helper syncing its sessions back to the host) changes neither what the
/// agent is allowed to do nor the skills it loads.
static AGENT_DATA: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"\.(claude|cursor|codex|gemini)[/\\]+(projects|todos|logs|statsig|shell-snapshots|sessions|history\.jsonl|cache)([/\\'"]|$)"#,
    )
});

/// Whether `text` names a path of an agent's configuration or skills, not only its records.
fn agent_config(text: &str) -> bool {
    AGENT_PATH.is_match(text) && !AGENT_DATA.is_match(text)
}

static DELETE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?x)\brm\s+(-\w+\s+)*-\w*[rRf]|\bshutil\.rmtree\b|\bos\.(remove|unlink|removedirs)\b|\.unlink\s*\(|\.rmdir\s*\(|(?i:\bremove-item\b)|\brmSync\b|\brimraf\b|\bunlinkSync\b|\bfs\.rm\b|\s-delete\b|-exec\s+rm\b",
    )
});

static WRITE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\bwriteFile(Sync)?\b|\bappendFile(Sync)?\b|\bwrite_text\b|\bwrite_bytes\b|\bopen\([^)]*['"][wa]\+?['"]|\bjson\.dump\b|(?i:\b(set-content|add-content|out-file)\b)|>>|\s>\s*["'$~/]|\btee\b|\bsed\s+-i|\bcp\s|\bmv\s"#,
    )
});

/// Whether `name` stands in `code` as a whole argument (`"$name"`, `$name/*`, `name,`), not as
/// the start of a longer path.
fn whole_arg(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let rest = code[at + name.len()..].trim_start_matches(['}', '"', '\'']);
        let rest = rest
            .strip_prefix("/*")
            .or_else(|| rest.strip_prefix("/.[!.]*"))
            .or_else(|| rest.strip_prefix("\\*"))
            .or_else(|| rest.strip_prefix('/'))
            .unwrap_or(rest)
            .trim_start_matches(['"', '\'']);
        rest.is_empty() || rest.starts_with([' ', ',', ')', ';', '\n', '\t', ']', '|', '&'])
    })
}

static DEF: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"^\s*(?:async\s+)?(?:def|function)\s+([A-Za-z_$][\w$-]*)\s*\(([^)]*)\)|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\s*)?\(([^)]*)\)|^\s*([A-Za-z_][\w]*)\s*\(\)\s*\{|^\s*function\s+([A-Za-z_][\w-]*)\s*\{",
    )
});

fn param_names(params: &str) -> Vec<String> {
    params
        .split(',')
        .filter_map(|p| {
            let p = p.trim().trim_start_matches(['*', '$', '.']);
            let name: String = p
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty() && name != "self").then_some(name)
        })
        .collect()
}

/// The functions of a file, by name, and for each statement the innermost function holding it.
struct Funcs {
    list: Vec<Func>,
    by_name: HashMap<String, Vec<usize>>,
    owners: Vec<Vec<Option<usize>>>,
}

fn index_functions(units: &[UnitStmts]) -> Funcs {
    let list = functions(units);
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    let mut owners: Vec<Vec<Option<usize>>> =
        units.iter().map(|u| vec![None; u.stmts.len()]).collect();
    for (k, f) in list.iter().enumerate() {
        by_name.entry(f.name.clone()).or_default().push(k);
        // Later (inner) definitions overwrite: the innermost owns the statement.
        for i in f.body.clone() {
            if let Some(slot) = owners.get_mut(f.unit).and_then(|o| o.get_mut(i)) {
                *slot = Some(k);
            }
        }
    }
    Funcs {
        list,
        by_name,
        owners,
    }
}

fn functions(units: &[UnitStmts]) -> Vec<Func> {
    let mut out = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        for (i, s) in unit.stmts.iter().enumerate() {
            let Some(c) = DEF.captures(&s.code) else {
                continue;
            };
            let (name, params) = match (c.get(1), c.get(3), c.get(5), c.get(6)) {
                (Some(n), ..) => (n.as_str(), param_names(c.get(2).map_or("", |m| m.as_str()))),
                (_, Some(n), ..) => (n.as_str(), param_names(c.get(4).map_or("", |m| m.as_str()))),
                (_, _, Some(n), _) | (_, _, _, Some(n)) => (
                    n.as_str(),
                    (1..=9)
                        .map(|d| d.to_string())
                        .chain(["@".into(), "*".into()])
                        .collect(),
                ),
                _ => continue,
            };
            let mut end = i + 1;
            let limit = (i + 4096).min(unit.stmts.len());
            if unit.lang == Lang::Python {
                while end < limit && unit.stmts[end].indent > s.indent {
                    end += 1;
                }
            } else {
                let mut depth = s.braces;
                while end < limit && depth > 0 {
                    depth += unit.stmts[end].braces;
                    end += 1;
                }
            }
            if out.len() >= MAX_FUNCS {
                return out;
            }
            // A Python function's parameters are scoped to it (`stmt::scope_parameters`).
            let params = if unit.lang == Lang::Python {
                params.into_iter().map(|p| format!("{name}::{p}")).collect()
            } else {
                params
            };
            out.push(Func {
                name: name.to_owned(),
                params,
                unit: u,
                body: i + 1..end,
            });
        }
    }
    out
}

/// Arguments of calls to `name` in `code`: `name(a, b)` or, in shell, `name a b`.
///
/// At most [`MAX_CALLS`] calls, found among the first 256 mentions of the name, each read over
/// at most [`MAX_CALL_LEN`] bytes: a statement that names a function a hundred thousand times
/// costs no more than one that calls it eight times.
fn call_args<'c>(code: &'c str, name: &str, lang: Lang) -> Vec<Vec<&'c str>> {
    let mut calls = Vec::new();
    for (at, _) in code.match_indices(name).take(256) {
        if calls.len() >= MAX_CALLS {
            break;
        }
        let before_ok = code[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
        let rest = &code[at + name.len()..];
        if !before_ok || rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &rest[..crate::lint::security::floor(rest, MAX_CALL_LEN)];
        let rest_t = rest.trim_start();
        if let Some(inner) = rest_t.strip_prefix('(') {
            let mut depth = 1;
            let mut end = inner.len();
            for (i, c) in inner.char_indices() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            calls.push(split_args(&inner[..end]));
        } else if lang == Lang::Shell && rest.starts_with(' ') {
            calls.push(shell_words(rest));
        }
    }
    calls
}

/// Most calls of one function read per statement.
const MAX_CALLS: usize = 8;
/// Longest call read, from the function's name.
const MAX_CALL_LEN: usize = 4096;

/// The words of a shell command's arguments, up to the end of the command: quotes and `$( … )`
/// keep their spaces and operators inside one word (`report "$(env)"` passes one argument).
fn shell_words(rest: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = None;
    let mut quote = None;
    let mut depth = 0usize;
    let mut escaped = false;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => escaped = true,
            (None, '"' | '\'') => quote = Some(c),
            (_, '(') => depth += 1,
            (_, ')') if depth > 0 => depth -= 1,
            (None, '|' | ';' | '&' | ')' | '\n') if depth == 0 => {
                end = i;
                break;
            }
            (None, ' ' | '\t') if depth == 0 => {
                if let Some(from) = start.take() {
                    words.push(&rest[from..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(from) = start {
        words.push(&rest[from..end]);
    }
    words
}

fn split_args(inner: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out
}

impl State {
    /// The taint of `text` (a piece of a statement's code) given what is tainted so far.
    fn taint_of(&self, s: &Stmt, from: usize, at: usize) -> Option<Source> {
        let code = s.code.get(from..).unwrap_or("");
        // The checks that read the code alone are kept per statement: every pass asks again.
        let slot = if from == s.rhs_at {
            Some(0)
        } else {
            (from == 0).then_some(1)
        };
        let kept = |cell: Option<&std::cell::OnceCell<Option<Source>>>,
                    find: &dyn Fn() -> Option<Source>| {
            let mut src = match cell {
                Some(cell) => cell.get_or_init(find).clone(),
                None => find(),
            };
            if let Some(src) = &mut src {
                src.at = at;
            }
            src
        };
        // Names the file assigned come first: `KEY="$SLACK_BOT_TOKEN"` is Slack's token.
        for r in &s.refs {
            if let Some(src) = self.taint.get(r.as_str())
                && !s.env_args.contains(r)
                && contains_word(code, sinks::shown(r))
            {
                // A variable looked up by its name in an environment a `.env` file filled
                // (`os.environ.get("STRIPE_SECRET_KEY")` after loading it) is that named
                // secret, whose service may receive it; the rest of the file is not read.
                if src.kind == SourceKind::Store
                    && src.what.contains(".env")
                    && let Some(named) = kept(slot.map(|i| &s.memo.env[i]), &|| named_env(code, at))
                {
                    return Some(named);
                }
                return Some(src.clone());
            }
        }
        if let Some(src) = source_in_with(
            code,
            &s.refs,
            &self.clean,
            &self.named,
            at,
            || kept(slot.map(|i| &s.memo.plain[i]), &|| plain_source(code, at)),
            || kept(slot.map(|i| &s.memo.env[i]), &|| named_env(code, at)),
        ) {
            return Some(src);
        }
        // `read -s -p "Password: " P`: the value starts after `read`, its options before it.
        if from > 0
            && s.code.trim_start().starts_with("read")
            && let Some(src) = sources::typed(&s.code, at)
        {
            return Some(src);
        }
        // Paths built from pieces: `Path.home() / ".aws" / "credentials"`.
        // (Only a store counts here, and a store is found by the code alone.)
        if s.strings.len() > 1
            && let Some(mut src) = s
                .memo
                .joined
                .get_or_init(|| {
                    // (Not an agent's permission rules: `"Read(./.env)"` names no path.)
                    let pieces: Vec<&str> = s
                        .strings
                        .iter()
                        .map(String::as_str)
                        .filter(|p| !sources::permission_rule(p))
                        .collect();
                    let joined = format!("/{}", pieces.join("/"));
                    plain_source(&joined, at).filter(|src| src.kind == SourceKind::Store)
                })
                .clone()
        {
            src.at = at;
            return Some(src);
        }
        for r in &s.refs {
            if s.env_args.contains(r) {
                continue;
            }
            if let Some(src) = self.taint.get(r.as_str()) {
                return Some(src.clone());
            }
        }
        for w in &s.words {
            if let Some(src) = self.funcs.get(w.as_str()) {
                return Some(src.clone());
            }
        }
        for (path, src) in &self.files {
            if code.contains(path.as_str()) {
                return Some(src.clone());
            }
        }
        None
    }

    /// One pass of propagation; whether anything new was learnt.
    fn propagate(&mut self, units: &[UnitStmts], funcs: &Funcs, names: &Names<'_>) -> bool {
        let mut changed = false;
        for (u, unit) in units.iter().enumerate() {
            for (i, s) in unit.stmts.iter().enumerate() {
                let at = unit.base + s.start;
                let taint = self.taint_of(s, s.rhs_at, at);
                let decoded = *s.memo.decodes.get_or_init(|| DECODE.is_match(&s.code))
                    || s.refs.iter().any(|r| self.decoded.contains_key(r.as_str()));
                for name in &s.assigns {
                    // `json.dump(cfg, f)` calls a module; it does not write into it.
                    if mutates(s, name) && names.module(name) {
                        continue;
                    }
                    match &taint {
                        Some(src) if !self.taint.contains_key(name) => {
                            self.taint.insert(name.clone(), src.clone());
                            changed = true;
                        }
                        None if !self.clean.contains(name) && !self.taint.contains_key(name) => {
                            self.clean.insert(name.clone());
                        }
                        _ => {}
                    }
                    if decoded && !self.decoded.contains_key(name) {
                        self.decoded.insert(name.clone(), at);
                        changed = true;
                    }
                    if !self.consts.contains_key(name)
                        && let Some(value) = self.constant(s)
                    {
                        if value.0.contains('\n') {
                            self.lists.insert(name.clone());
                        }
                        self.add_const(name, value);
                        changed = true;
                    }
                    if let Some(path) = s.memo.opened.get_or_init(|| opened_path(&s.code)) {
                        self.handles
                            .entry(name.clone())
                            .or_insert_with(|| path.clone());
                    }
                    if !self.conns.contains_key(name)
                        && !s.code.contains(&format!("{}.", sinks::shown(name)))
                        && *s
                            .memo
                            .value_sends
                            .get_or_init(|| NET_SINK.is_match(s.code.get(s.rhs_at..).unwrap_or("")))
                        && s.rhs_at > 0
                    {
                        let mut opened = s.code.clone();
                        for r in &s.refs {
                            if let Some((value, _)) = self.consts.get(r.as_str()) {
                                opened.push(' ');
                                opened.push_str(value);
                            }
                        }
                        self.conns.insert(name.clone(), opened);
                        changed = true;
                    }
                    if !self.locs.contains_key(name)
                        && let Some(loc) = self.location(s)
                    {
                        self.locs.insert(name.clone(), (loc, at));
                        changed = true;
                    }
                    if let Some(parent) = viewed(s, name, &names.locals)
                        && !self.views.contains_key(name)
                    {
                        self.views.insert(name.clone(), parent);
                        changed = true;
                    }
                    if let Some(src) = &taint
                        && mutates(s, name)
                    {
                        changed |= self.taint_viewed(name, src);
                    }
                }
                changed |= self.bind_iteration(s);
                // Tainted data written to a file taints the file.
                if let Some(src) = &taint
                    && !*s.memo.sends.get_or_init(|| NET_SINK.is_match(&s.code))
                {
                    let mut written: Vec<String> = s
                        .refs
                        .iter()
                        .chain(&s.assigns)
                        .filter_map(|r| self.handles.get(r.as_str()).cloned())
                        .collect();
                    written.extend(written_paths(&s.code));
                    for path in written {
                        if self.files.len() < 64 && !self.files.iter().any(|(p, _)| *p == path) {
                            self.files.push((path, src.clone()));
                            changed = true;
                        }
                    }
                }
                // Functions that return taint: the innermost function holding the statement.
                let owner = funcs
                    .owners
                    .get(u)
                    .and_then(|o| o.get(i))
                    .copied()
                    .flatten();
                if let Some(f) = owner.map(|k| &funcs.list[k]) {
                    let trimmed = s.code.trim_start();
                    let returns = trimmed.starts_with("return ")
                        || (unit.lang == Lang::Shell
                            && ["echo ", "printf ", "cat "]
                                .iter()
                                .any(|p| trimmed.starts_with(p)))
                        || (unit.lang == Lang::PowerShell && outputs(s));
                    if returns
                        && !self.funcs.contains_key(&f.name)
                        && let Some(src) = self.taint_of(s, 0, at)
                    {
                        self.funcs.insert(f.name.clone(), src);
                        changed = true;
                    }
                }
                // Parameters of the functions it calls (each name once).
                for (n, w) in s.words.iter().enumerate() {
                    let Some(called) = funcs.by_name.get(w.as_str()) else {
                        continue;
                    };
                    if s.words[..n].contains(w) {
                        continue;
                    }
                    for f in called.iter().map(|k| &funcs.list[*k]) {
                        if owner.is_some_and(|o| {
                            funcs.list[o].name == f.name && funcs.list[o].body == f.body
                        }) {
                            continue;
                        }
                        changed |= self.pass_arguments(s, f, unit.lang, at);
                    }
                }
            }
        }
        changed
    }

    /// Taints the parameters of `f` that a call in `s` passes tainted values to.
    fn pass_arguments(&mut self, s: &Stmt, f: &Func, lang: Lang, at: usize) -> bool {
        let mut changed = false;
        for args in call_args(&s.code, &f.name, lang) {
            for (arg, param) in args.iter().zip(&f.params) {
                if self.taint.contains_key(param) {
                    continue;
                }
                let src = source_in(arg, &[], &self.clean, &self.named, at).or_else(|| {
                    s.words
                        .iter()
                        .filter(|w| contains_word(arg, w))
                        .find_map(|w| {
                            // The variable the word is (a function's local is scoped).
                            let var = s.refs.iter().find(|r| sinks::shown(r) == w.as_str());
                            var.and_then(|r| self.taint.get(r.as_str()))
                                .or_else(|| self.funcs.get(w.as_str()))
                                .cloned()
                        })
                });
                if let Some(src) = src {
                    self.taint.insert(param.clone(), src);
                    changed = true;
                }
            }
        }
        changed
    }

    /// What location a statement assigns: the home folder itself, or a path of the agent's
    /// configuration (directly or through names that hold one).
    fn location(&self, s: &Stmt) -> Option<Loc> {
        let own = *s.memo.location.get_or_init(|| {
            let rhs = s.code.get(s.rhs_at..).unwrap_or("");
            if HOME_ROOT.is_match(rhs) {
                Some(Loc::Home)
            } else if agent_config(rhs) || s.strings.iter().any(|p| agent_config(p)) {
                Some(Loc::Agent)
            } else {
                None
            }
        });
        if own.is_some() {
            return own;
        }
        s.refs
            .iter()
            .filter(|r| !s.assigns.contains(r))
            .find_map(|r| match self.locs.get(r.as_str()) {
                Some((Loc::Agent, _)) => Some(Loc::Agent),
                _ => None,
            })
    }

    /// Records the constant `value` of `name`.
    fn add_const(&mut self, name: &str, value: (String, bool)) {
        if value.0.lines().any(|l| secret_name(l.trim())) {
            self.named.insert(name.to_owned(), value.clone());
        }
        self.consts.insert(name.to_owned(), value);
    }

    /// The constant text a statement assigns: its string literals joined, with the values of
    /// constants it reads, decoded when it decodes.
    fn constant(&self, s: &Stmt) -> Option<(String, bool)> {
        let rhs = s.code.get(s.rhs_at..).unwrap_or("");
        if rhs.is_empty() {
            return None;
        }
        let mut joined = String::new();
        let mut hidden = false;
        // A list of strings (`["A_KEY", "B_TOKEN"]`, `for v in A_KEY B_TOKEN`) keeps one element
        // a line; pieces of one string (`"ANTHROP" + "IC_API"`) are joined.
        let list = is_list(rhs, s);
        for piece in list_words(s)
            .iter()
            .map(String::as_str)
            .chain(s.strings.iter().map(String::as_str))
        {
            joined.push_str(piece);
            if list {
                joined.push('\n');
            }
        }
        for r in &s.refs {
            if let Some((v, h)) = self.consts.get(r.as_str())
                && !s.assigns.contains(r)
            {
                joined.push_str(v);
                hidden |= h;
            }
        }
        if joined.is_empty() || joined.len() > MAX_CONST {
            return None;
        }
        if rhs.contains("[::-1]") || rhs.contains(".reverse()") {
            joined = joined.chars().rev().collect();
        }
        if DECODE.is_match(rhs)
            && let Some(text) = decode::decode(joined.trim())
        {
            return Some((text, true));
        }
        Some((joined, hidden))
    }
}

fn contains_word(text: &str, word: &str) -> bool {
    stmt::word_at(text, word).next().is_some()
}

static OPENED: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r#"\bopen\(\s*['"]([^'"]+)['"]\s*,\s*['"][wa]"#));

fn opened_path(code: &str) -> Option<String> {
    OPENED.captures(code).map(|c| c[1].to_owned())
}

static WRITTEN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?:>>?\s*|\btee\s+(?:-a\s+)?|writeFile(?:Sync)?\(\s*|appendFile(?:Sync)?\(\s*|\.save\(\s*|Out-File\s+(?:-FilePath\s+)?|Set-Content\s+(?:-Path\s+)?|Add-Content\s+(?:-Path\s+)?|\bcp\s+(?:-\w+\s+)*\S+\s+|\bshutil\.copy\w*\([^,]*\),?\s*|\bshutil\.copy\w*\([^,]*,\s*)['"]?([~$\w./\\:-]*[./][\w-]+)"#,
    )
});

/// Files a statement writes to, and files it names with a data extension (the tool that
/// holds the secret embeds it there: `exiftool -Comment=… shot.png`).
fn written_paths(code: &str) -> Vec<String> {
    static FILE_ARG: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(
            r"[\w./~-]+\.(png|jpe?g|gif|bmp|svg|webp|ico|tiff?|pdf|txt|json|zip|tar|gz|tgz|mp4|mov|csv|xlsx|docx|log|dat|bin)\b",
        )
    });
    let mut out: Vec<String> = WRITTEN
        .captures_iter(code)
        .map(|c| c[1].to_owned())
        .filter(|p| p.len() >= 3 && !p.starts_with("/dev/null") && !p.starts_with('&'))
        .collect();
    out.extend(FILE_ARG.find_iter(code).map(|m| m.as_str().to_owned()));
    out
}

/// Runs the analysis over the units of one file and returns what reaches a sink.
pub fn analyse(units: &[UnitStmts], hits: &mut Vec<Hit>, text: &str) {
    let funcs = index_functions(units);
    let names = Names::of(units);
    let mut state = State::default();
    for _ in 0..4 {
        if !state.propagate(units, &funcs, &names) {
            break;
        }
    }
    for unit in units {
        for s in &unit.stmts {
            sinks(&state, unit, s, hits, text);
            tamper(&state, unit, s, hits, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_call_keeps_quoted_and_substituted_arguments_whole() {
        assert_eq!(
            call_args(
                r#"report "$(env | sort)" now; echo done"#,
                "report",
                Lang::Shell
            ),
            [vec![r#""$(env | sort)""#, "now"]]
        );
        assert_eq!(
            call_args(r"put 'a b' c\ d | tee log", "put", Lang::Shell),
            [vec!["'a b'", r"c\ d"]]
        );
        assert_eq!(
            call_args("(ship $x) && ok", "ship", Lang::Shell),
            [vec!["$x"]]
        );
    }

    #[test]
    fn a_name_said_a_hundred_thousand_times_is_read_a_few_times() {
        // Unbalanced, so that each call would run to the end of the statement.
        let code = "f (".repeat(100_000);
        let calls = call_args(&code, "f", Lang::Shell);
        assert_eq!(calls.len(), MAX_CALLS);
        assert!(
            calls
                .iter()
                .all(|words| words.concat().len() <= MAX_CALL_LEN)
        );
        let code = "g(".repeat(100_000);
        assert_eq!(call_args(&code, "g", Lang::Python).len(), MAX_CALLS);
    }
}
