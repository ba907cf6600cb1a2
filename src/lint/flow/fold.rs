//! String building folded where it is constant, so that rules read the name a program calls and
//! not the way it was spelled: `"sy" + "stem"` is `"system"`, `getattr(os, "system")` is
//! `os.system`, `__import__("os")` is `os`, `chr(105)+chr(101)` and PowerShell's
//! `[char]105+[char]101+[char]120` are text, `("i","e","x") -join ""` is `"iex"`, `& ("iex")`
//! and `.("iex")` call `iex`, `[scriptblock]::Create(…)` and
//! `$ExecutionContext.InvokeCommand.InvokeScript(…)` run their text as `iex` does, `obj["name"]`
//! is `obj.name`, and names assigned constant text are replaced by it.
//!
//! Invariant: folding only rewrites constant pieces into the text they denote and keeps every
//! other token as written; it is linear in the statement (one token pass, then a fixed number of
//! regex rewrites whose patterns have no nested repetition).

use crate::lint::exec::ascii_regex;
use std::collections::HashMap;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::lex::{self, Kind, Lang, Token};

/// The constant text of a token, when it is one: a plain string literal, a number given to
/// `chr`/`[char]` (read by the caller), or a name assigned constant text.
fn piece(
    code: &str,
    toks: &[Token],
    k: usize,
    lang: Lang,
    consts: &HashMap<String, String>,
) -> Option<(String, usize)> {
    let tok = toks.get(k)?;
    let text = &code[tok.start..tok.end];
    match tok.kind {
        Kind::Str { interp } => {
            let body = super::taint::literal_of(text);
            if interp && (body.contains('$') || body.contains('{') || body.contains('`')) {
                return None;
            }
            // A Python prefix (`b"…"`, `r"…"`) was a word token before it: the caller kept it.
            Some((body.to_owned(), k + 1))
        }
        // `chr(105)`, `String.fromCharCode(105)`
        Kind::Word { .. } if matches!(text, "chr" | "fromCharCode") => {
            let open = toks.get(k + 1)?;
            let number = toks.get(k + 2)?;
            let close = toks.get(k + 3)?;
            if open.kind != Kind::Punct(b'(') || close.kind != Kind::Punct(b')') {
                return None;
            }
            let n: u32 = code[number.start..number.end].parse().ok()?;
            Some((char::from_u32(n)?.to_string(), k + 4))
        }
        // `[char]105`
        Kind::Punct(b'[') if lang == Lang::PowerShell => {
            let word = toks.get(k + 1)?;
            let close = toks.get(k + 2)?;
            let number = toks.get(k + 3)?;
            if !code[word.start..word.end].eq_ignore_ascii_case("char")
                || close.kind != Kind::Punct(b']')
            {
                return None;
            }
            let n: u32 = code[number.start..number.end].parse().ok()?;
            Some((char::from_u32(n)?.to_string(), k + 4))
        }
        Kind::Word { .. } => {
            let value = consts.get(text)?;
            // A name being assigned, called or indexed is not its value.
            let next = toks.get(k + 1).map(|t| t.kind);
            if matches!(next, Some(Kind::Punct(b'=' | b'(' | b'.' | b'['))) {
                return None;
            }
            Some((value.clone(), k + 1))
        }
        _ => None,
    }
}

/// `code` (one statement of `lang`) with its constant string building folded.
#[expect(
    clippy::implicit_hasher,
    reason = "its callers hold constants in std's HashMap"
)]
pub fn fold(code: &str, lang: Lang, consts: &HashMap<String, String>) -> String {
    let decoded = char_codes(code);
    let code = decoded.as_ref();
    let toks = lex::tokens(code, lang);
    let mut out = String::with_capacity(code.len());
    let mut last = 0;
    let mut k = 0;
    while k < toks.len() {
        let tok = toks[k];
        if let Some((first, mut next)) = piece(code, &toks, k, lang, consts) {
            let mut joined = first;
            let mut pieces = 1;
            // `+` and another piece, or (Python) a literal right after a literal.
            loop {
                let plus = toks.get(next).is_some_and(|t| t.kind == Kind::Punct(b'+'));
                let at = if plus { next + 1 } else { next };
                let adjacent = !plus
                    && lang == Lang::Python
                    && toks
                        .get(at)
                        .is_some_and(|t| matches!(t.kind, Kind::Str { .. }));
                if !(plus || adjacent) {
                    break;
                }
                match piece(code, &toks, at, lang, consts) {
                    Some((more, after)) if joined.len() + more.len() <= 4096 => {
                        joined.push_str(&more);
                        next = after;
                        pieces += 1;
                    }
                    _ => break,
                }
            }
            let is_name = matches!(tok.kind, Kind::Word { .. });
            if pieces > 1 || !is_name || consts.contains_key(&code[tok.start..tok.end]) {
                out.push_str(&code[last..tok.start]);
                out.push('"');
                out.push_str(&joined.replace('"', "'"));
                out.push('"');
                last = toks[next - 1].end;
                k = next;
                continue;
            }
        }
        k += 1;
    }
    out.push_str(&code[last..]);
    rewrite(&out, lang)
}

static PY_GETATTR: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r#"\bgetattr\(\s*([A-Za-z_][\w.]*)\s*,\s*"([A-Za-z_]\w*)"\s*\)"#));
static PY_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(r#"\b(?:__import__|importlib\.import_module)\(\s*"([A-Za-z_][\w.]*)"\s*\)"#)
});
static INDEX_NAME: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r#"([\w)\]])\[\s*"([A-Za-z_$][\w$]*)"\s*\]"#));
static JOIN_LIST: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?:""|'')\s*\.join\(\s*[\[(]\s*((?:"[^"]*"\s*,\s*)*"[^"]*")\s*,?\s*[\])]\s*\)|\(?\s*((?:"[^"]*"\s*,\s*)+"[^"]*")\s*\)?\s*-join\s*(?:""|'')|-join\s*\(?\s*((?:"[^"]*"\s*,\s*)+"[^"]*")\s*\)?"#,
    )
});
static PS_CALL: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(r#"(?i)(?:^|[\s;|({])[&.]\s*\(?\s*"([A-Za-z][\w-]*)"\s*\)?"#));
static PS_SCRIPTBLOCK: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?i)\[(?:System\.Management\.Automation\.)?scriptblock\]::Create\s*\(|\$ExecutionContext\.InvokeCommand\.(?:InvokeScript|NewScriptBlock)\s*\(|\bInvoke-Command\s+(?:-ScriptBlock\s+)?",
    )
});

fn rewrite(code: &str, lang: Lang) -> String {
    let mut code = std::borrow::Cow::Borrowed(code);
    if matches!(lang, Lang::Python | Lang::PowerShell) && (code.contains("join")) {
        let joined = JOIN_LIST.replace_all(&code, |c: &crate::lint::rx::Captures<'_>| {
            let list = c
                .get(1)
                .or(c.get(2))
                .or(c.get(3))
                .map_or("", |m| m.as_str());
            let text: String = list
                .split('"')
                .enumerate()
                .filter(|(i, _)| i % 2 == 1)
                .map(|(_, s)| s)
                .collect();
            format!("\"{text}\"")
        });
        code = std::borrow::Cow::Owned(joined.into_owned());
    }
    match lang {
        Lang::Python => {
            if code.contains("import") {
                code = std::borrow::Cow::Owned(PY_IMPORT.replace_all(&code, "$1").into_owned());
            }
            if code.contains("getattr") {
                code = std::borrow::Cow::Owned(PY_GETATTR.replace_all(&code, "$1.$2").into_owned());
            }
        }
        Lang::Js | Lang::Ruby | Lang::Shell => {}
        Lang::PowerShell => {
            if code.contains('"') {
                code = std::borrow::Cow::Owned(
                    PS_CALL
                        .replace_all(&code, |c: &crate::lint::rx::Captures<'_>| {
                            let whole = c.get(0).map_or("", |m| m.as_str());
                            let lead = &whole[..whole.find(['&', '.']).unwrap_or(0)];
                            format!("{lead}{} ", &c[1])
                        })
                        .into_owned(),
                );
            }
            code = std::borrow::Cow::Owned(PS_SCRIPTBLOCK.replace_all(&code, "iex (").into_owned());
        }
    }
    if code.contains("[\"") || code.contains("[ \"") {
        code = std::borrow::Cow::Owned(INDEX_NAME.replace_all(&code, "$1.$2").into_owned());
    }
    // Ruby's `recv.send(:eval, src)` is `recv.eval(src)`.
    if lang == Lang::Ruby && code.contains("send") {
        code = std::borrow::Cow::Owned(RUBY_SEND.replace_all(&code, "$1$2(").into_owned());
    }
    aliases(&code)
}

/// Numbers as a list of char codes (`101, 120, 0x65`).
const CODES: &str = r"(?:0[xX][0-9a-fA-F]+|\d+)(?:\s*,\s*(?:0[xX][0-9a-fA-F]+|\d+))*";

/// Text spelled as a list of char codes, in the ways languages spell it: Python's
/// `''.join(map(chr, (101, 120)))` and `bytes([101, 120]).decode()`, JavaScript's
/// `String.fromCharCode(101, 120)` (also spread from a list), Lua's `string.char(101, 120)`,
/// Ruby's `[101, 120].pack('c*')`, PowerShell's `[char[]](101, 120) -join ''`.
static CHAR_CODES: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(&format!(
        r#"(?x)(?:''|"")\s*\.join\(\s*map\(\s*chr\s*,\s*[\[(]\s*(?P<a>{CODES})\s*,?\s*[\])]\s*\)\s*\)
        |\b(?:bytes|bytearray)\(\s*\[\s*(?P<b>{CODES})\s*,?\s*\]\s*\)\s*\.decode\(\s*(?:['"][\w-]+['"])?\s*\)
        |\bString\.fromCharCode\(\s*(?:\.\.\.\s*\[\s*)?(?P<c>{CODES})\s*,?\s*\]?\s*\)
        |\bstring\.char\(\s*(?P<d>{CODES})\s*\)
        |\[\s*(?P<e>{CODES})\s*,?\s*\]\s*\.pack\(\s*['"][cCU]\*['"]\s*\)
        |\[char\[\]\]\s*\(\s*(?P<f>{CODES})\s*\)\s*-join\s*(?:''|"")
        |-join\s*\[char\[\]\]\s*\(\s*(?P<g>{CODES})\s*\)"#
    ))
});

/// `code` with each list of char codes written as the string it spells (when every code is a
/// printable character): the name a program calls is then read, not its codes.
fn char_codes(code: &str) -> std::borrow::Cow<'_, str> {
    if !code.contains("chr")
        && !code.contains("fromCharCode")
        && !code.contains("decode")
        && !code.contains("char")
        && !code.contains("pack")
    {
        return std::borrow::Cow::Borrowed(code);
    }
    CHAR_CODES.replace_all(code, |c: &crate::lint::rx::Captures<'_>| {
        let whole = c.get(0).map_or("", |m| m.as_str());
        let list = ["a", "b", "c", "d", "e", "f", "g"]
            .iter()
            .find_map(|g| c.name(g))
            .map_or("", |m| m.as_str());
        let text: Option<String> = list
            .split(',')
            .map(|n| {
                let n = n.trim();
                let value = match n.strip_prefix("0x").or_else(|| n.strip_prefix("0X")) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => n.parse().ok()?,
                };
                char::from_u32(value).filter(|ch| !ch.is_control() || *ch == '\n')
            })
            .collect();
        match text {
            Some(text) if text.len() <= 4096 => format!("\"{}\"", text.replace('"', "'")),
            _ => whole.to_owned(),
        }
    })
}

/// `recv.send(:name, …)`, `public_send`, `__send__`.
static RUBY_SEND: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(r"(\.|\b)(?:send|public_send|__send__)\(\s*:([A-Za-z_]\w*[!?]?)\s*,?\s*")
});

/// A name given a code-running callable (`fn = b.exec`, `const run = eval`, `local x =
/// os.execute`).
static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?m)^\s*(?:(?:const|let|var|local)\s+)?([A-Za-z_$][\w$]*)\s*=\s*((?:[A-Za-z_$][\w$]*\.)*(?:exec|eval|system|popen|Function|execSync|spawnSync|execute|loadstring|load|compile|instance_eval|class_eval))\s*;?\s*$",
    )
});

/// Whether `code` gives a name a code-running callable ([`ALIAS`]).
pub fn has_alias(code: &str) -> bool {
    ALIAS.is_match(code)
}

/// `code` with the calls of names that hold a code-running callable written as calls of it:
/// `fn = b.exec` then `fn(blob)` is `b.exec(blob)`.
fn aliases(code: &str) -> String {
    let found: Vec<(usize, String, String)> = ALIAS
        .captures_iter(code)
        .take(16)
        .filter_map(|c| {
            let end = c.get(0)?.end();
            let (name, target) = (c[1].to_owned(), c[2].to_owned());
            (name != target && !target.ends_with(&format!(".{name}")))
                .then_some((end, name, target))
        })
        .collect();
    if found.is_empty() {
        return code.to_owned();
    }
    let mut out = code.to_owned();
    // From the last alias back, so the offsets of earlier ones stay right.
    for (end, name, target) in found.into_iter().rev() {
        let tail = calls_renamed(&out[end..], &name, &target);
        out.truncate(end);
        out.push_str(&tail);
    }
    out
}

/// `code` with each call of `name` (`name(`, `name (`; not `x.name(` nor `other_name(`) written
/// as a call of `target`.
fn calls_renamed(code: &str, name: &str, target: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut last = 0;
    for (at, _) in code.match_indices(name) {
        if at < last {
            continue;
        }
        let before = code[..at].chars().next_back();
        let call = code[at + name.len()..].trim_start().starts_with('(');
        if call && before.is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))) {
            out.push_str(&code[last..at]);
            out.push_str(target);
            last = at + name.len();
        }
    }
    out.push_str(&code[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(code: &str, lang: Lang) -> String {
        fold(code, lang, &HashMap::new())
    }

    #[test]
    fn char_codes_aliases_and_sends_are_read_as_what_they_call() {
        let py = "    b = __builtins__.__dict__\n    fn = b[\"\".join(map(chr, (101, 120, 101, 99)))]\n    fn(zlib.decompress(blob), {})\n";
        assert!(
            f(py, Lang::Python).contains("b.exec(zlib.decompress(blob)"),
            "{}",
            f(py, Lang::Python)
        );
        assert_eq!(
            f("x = bytes([0x6f, 0x73]).decode()", Lang::Python),
            "x = \"os\""
        );
        assert_eq!(
            f(
                "const k = String.fromCharCode(101, 118, 97, 108);",
                Lang::Js
            ),
            "const k = \"eval\";"
        );
        assert_eq!(
            f("TOPLEVEL_BINDING.receiver.send(:eval, src)", Lang::Ruby),
            "TOPLEVEL_BINDING.receiver.eval(src)"
        );
        assert!(f("const run = eval;\nrun(payload)", Lang::Js).ends_with("eval(payload)"));
        // Codes that spell no printable text are left as they are.
        assert_eq!(
            f("x = bytes([0, 1]).decode()", Lang::Python),
            "x = bytes([0, 1]).decode()"
        );
        // A method of the same name is no alias of it.
        assert_eq!(
            f("exec = self.exec\nexec(x)", Lang::Python),
            "exec = self.exec\nexec(x)"
        );
    }

    #[test]
    fn folds_constant_building() {
        assert_eq!(
            f(
                "getattr(__builtins__, \"ex\" + \"ec\")(\"\".join(map(chr, K)))",
                Lang::Python
            ),
            "__builtins__.exec(\"\".join(map(chr, K)))"
        );
        assert_eq!(
            f("getattr(os, \"sy\"+\"stem\")(cmd)", Lang::Python),
            "os.system(cmd)"
        );
        assert_eq!(
            f("__import__('o' 's').popen(c)", Lang::Python),
            "os.popen(c)"
        );
        assert_eq!(f("x = chr(115) + chr(104)", Lang::Python), "x = \"sh\"");
        assert_eq!(f("''.join(['e', 'x', 'e', 'c'])", Lang::Python), "\"exec\"");
        assert_eq!(
            f(
                "require('child_' + 'process')[\"exec\" + \"Sync\"](c)",
                Lang::Js
            ),
            "require(\"child_process\").execSync(c)"
        );
        let words = |s: String| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            words(f("& ([char]105+[char]101+[char]120) $p", Lang::PowerShell)),
            "iex $p"
        );
        assert_eq!(
            words(f("& (('i','e','x') -join '') $p", Lang::PowerShell)),
            "iex $p"
        );
        assert!(f("[ScriptBlock]::Create($t).Invoke()", Lang::PowerShell).starts_with("iex ("));
        let mut consts = HashMap::new();
        consts.insert("n".to_owned(), "system".to_owned());
        assert_eq!(
            fold("getattr(os, n)(c)", Lang::Python, &consts),
            "os.system(c)"
        );
    }

    #[test]
    fn leaves_the_rest_as_written() {
        for (code, lang) in [
            ("print(f\"{a}\" + b)", Lang::Python),
            ("const s = `${x}` + y;", Lang::Js),
            ("Write-Host \"$name\"", Lang::PowerShell),
            ("a = b + c", Lang::Python),
        ] {
            assert_eq!(f(code, lang), code);
        }
    }
}
