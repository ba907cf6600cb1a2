//! Following values from sources (the whole environment, secret-named variables, credential
//! stores) through assignments, string building, function parameters and returns, and across
//! the units of one file, to sinks (HTTP, DNS, raw sockets, world-readable files), and decoded
//! text to `exec`/`eval`. Scopes are not modelled: a name tainted anywhere in a file is tainted
//! everywhere in it, which over-approximates and keeps the analysis linear (a bounded number of
//! passes over the statements).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::Hit;
use super::decode;
use super::lex::{Kind, Lang, Token};
use crate::lint::exec::ascii_regex;
use crate::lint::rules;

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
    /// Refs passed as a child process's environment (`env=…`): not sent anywhere by that.
    pub env_args: Vec<String>,
    /// Column of its first token (Python blocks), and braces opened minus closed.
    pub indent: usize,
    pub braces: i32,
}

/// Strips the quotes (and a Python prefix) of a string literal.
fn literal(raw: &str) -> &str {
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
fn interpolated(body: &str, lang: Lang, refs: &mut Vec<String>) {
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
const MAX_NAMES: usize = 64;
/// Longest constant text followed.
const MAX_CONST: usize = 4096;
/// Most functions followed per file.
const MAX_FUNCS: usize = 256;

const ASSIGN_KEYWORDS: &[&str] = &[
    "const", "let", "var", "export", "local", "readonly", "declare", "typeset", "my", "our",
    "global", "static", "final", "auto", "val",
];

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
    let env_args = env_arguments(&code);
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
    })
}

static ENV_ARG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(env|environ|extra_env)\s*[=:]\s*\$?\{?\s*(\*\*)?\$?(\w+)")
        .expect("static regex builds")
});

fn env_arguments(code: &str) -> Vec<String> {
    ENV_ARG
        .captures_iter(code)
        .map(|c| c[3].to_owned())
        .collect()
}

/// The names a statement assigns (`x = …`, `const x = …`, `export X=…`, `$x = …`, `for x in …`,
/// `with … as x`, `x.append(…)`, `x[k] = …`, `read X`), and where the value starts in its code.
fn assignment(text: &str, toks: &[Token], lang: Lang, base: usize) -> (Vec<String>, usize) {
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
        return (Vec::new(), 0);
    }
    // `with open(p) as f:`
    if let Some(i) = code.iter().position(|t| word(t) == Some("as"))
        && code.first().and_then(|t| word(t)) == Some("with")
        && let Some(name) = code.get(i + 1).and_then(|t| word(t))
    {
        return (vec![name.to_owned()], code[0].end - base);
    }
    // `read X < file`
    if lang == Lang::Shell && code.get(k).and_then(|t| word(t)) == Some("read") {
        let names = code[k + 1..]
            .iter()
            .filter_map(|t| word(t))
            .filter(|w| !w.starts_with('-'))
            .take(1)
            .map(str::to_owned)
            .collect();
        return (names, code[k].end - base);
    }
    // `lhs = rhs`: the lhs is words, `.`, `,`, `[…]`, `:` (annotations), `$`.
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

// --- sources -------------------------------------------------------------------------------

static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(^|_)(token|tokens|secret|secrets|password|passwd|passphrase|pwd|apikey|api_key|private_key|access_key|secret_key|credentials?|session|cookie|cookies|jwt|auth|mnemonic|seed)(_|$)|_key$|^key$|_pat$",
    )
    .expect("static regex builds")
});

/// Whether a variable name says it holds a secret.
pub fn secret_name(name: &str) -> bool {
    SECRET_NAME.is_match(name) && !name.eq_ignore_ascii_case("TOKENIZERS_PARALLELISM")
}

const GENERIC_WORDS: &[&str] = &[
    "api",
    "key",
    "keys",
    "token",
    "tokens",
    "secret",
    "secrets",
    "access",
    "auth",
    "password",
    "passwd",
    "pass",
    "pwd",
    "client",
    "id",
    "the",
    "my",
    "app",
    "bearer",
    "user",
    "prod",
    "dev",
    "personal",
    "pat",
    "oauth",
    "refresh",
    "service",
    "account",
    "env",
    "value",
    "apikey",
    "credential",
    "credentials",
    "default",
    "read",
    "write",
    "admin",
    "url",
    "org",
    "bot",
    "live",
    "test",
    "v1",
    "v2",
];

/// Words of a secret's name that no API would be sent: a flow of them anywhere is a leak.
const NEVER_SENT: &[&str] = &[
    "jwt",
    "database",
    "db",
    "session",
    "cookie",
    "cookies",
    "private",
    "signing",
    "encryption",
    "master",
    "root",
    "ssh",
    "wallet",
    "mnemonic",
    "seed",
    "passphrase",
    "postgres",
    "mysql",
    "redis",
    "mongo",
    "django",
    "flask",
    "rails",
    "nextauth",
];

fn vendor_words(name: &str) -> Vec<String> {
    name.split(|c: char| c == '_' || c == '-' || c == ':')
        .map(str::to_ascii_lowercase)
        .filter(|w| w.len() >= 2 && !GENERIC_WORDS.contains(&w.as_str()))
        .collect()
}

fn secret(name: &str, at: usize) -> Source {
    Source {
        what: format!("`{name}`"),
        at,
        kind: SourceKind::Secret(vendor_words(name)),
    }
}

static NAMED_ENV: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"os\.environ\s*\[\s*['"](\w+)|os\.environ\.get\(\s*['"](\w+)|os\.getenv\(\s*['"](\w+)|process\.env\.(\w+)|process\.env\[\s*['"](\w+)|Deno\.env\.get\(\s*['"](\w+)|import\.meta\.env\.(\w+)|ENV\[\s*['"](\w+)|ENV\.fetch\(\s*['"](\w+)|(?i:\$env:)(\w+)|getenv\(\s*['"](\w+)|GetEnvironmentVariable\(\s*['"](\w+)"#,
    )
    .expect("static regex builds")
});

static NAMED_BY_CONST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:os\.environ\.get|os\.getenv|getenv|os\.environ\[|process\.env\[|ENV\[|ENV\.fetch\()\(?\s*([A-Za-z_]\w*)\s*[,)\]]")
        .expect("static regex builds")
});

static WHOLE_ENV: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\bos\.environ\b(\s*\.\s*(\w+))?|\bprocess\.env\b(\s*[.\[])?|/proc/(self|\d+|\$\w+|\*)/environ
        |(^|[|;&(`]|\$\(|\bdo\s|\bthen\s|\bxargs\s)\s*(env|printenv|export\s+-p|declare\s+-x|set)\s*($|[|;&)>`])
        |(?i:\b(get-childitem|gci|dir|ls|get-item)\s+env:)|(?i:\[(system\.)?environment\]::getenvironmentvariables)
        |\bENV\.(to_h|to_a|to_hash|each|map|inspect|keys|select)\b|\bos\.Environ\(\)|\bgetattr\(\s*os\s*,\s*['"]environ['"]\s*\)
        |\b(execSync|exec|check_output|getoutput|popen|run|spawnSync)\(\s*\[?\s*['"](env|printenv|set|export\s+-p)['"]"#,
    )
});

static STORE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?ix)(?P<file>\.aws[/\\]+(credentials|config)\b|\.ssh[/\\]+(id_[a-z0-9_]+|identity)\b|\.ssh\b[/\\]*(\*|["'`\s)\],;]|$)
        |\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.kube[/\\]+config\b|\.docker[/\\]+config\.json|gcloud[/\\]+(credentials|application_default|access_tokens|legacy_credentials)
        |application_default_credentials\.json|\.azure[/\\]+\w|\.gnupg\b|/etc/shadow\b|\.config[/\\]+gh[/\\]+hosts\.yml|\.terraform\.d[/\\]+credentials
        |(^|[\s'"/(=])\.env(\.local|\.production)?($|[\s'"`)]))
        |(?P<keychain>\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain)\b|login\.keychain|Library[/\\]+Keychains|\bkeyring\.get_password\b)
        |(?P<browser>Login\s+Data|[/\\]Cookies\b|cookies\.sqlite|logins\.json|key4\.db|Local\s+State|browser_cookie3|Chrome[/\\]+User\s+Data|Google[/\\]+Chrome|\.mozilla[/\\]+firefox|BraveSoftware|Microsoft[/\\]+Edge)
        |(?P<wallet>wallet\.dat|\.electrum\b|\bexodus\b|keystore[/\\]+UTC--|metamask|nkbihfbeogaeaoehlefnkodbefgpgknn|solana[/\\]+id\.json|\.bitcoin\b|\.ethereum[/\\]+keystore)"#,
    )
});

/// Using a key or a file as configured (`ssh -i`, `curl --netrc`) is not reading it.
fn uses_store(code: &str) -> bool {
    [
        " -i ",
        "IdentityFile",
        "ssh-add",
        "ssh-keygen",
        "--netrc",
        "--userconfig",
        "GIT_SSH_COMMAND",
        ".pub",
    ]
    .iter()
    .any(|s| code.contains(s))
}

/// The first source read in `code` (of the language `lang`), with shell variables `refs` that
/// the file never assigned.
fn source_in(
    code: &str,
    refs: &[String],
    clean: &HashSet<String>,
    consts: &HashMap<String, (String, bool)>,
    at: usize,
) -> Option<Source> {
    for m in WHOLE_ENV.captures_iter(code) {
        let whole = m.get(0).map_or("", |x| x.as_str()).trim();
        if whole.starts_with("os.environ") {
            // `os.environ.get(…)`, `os.environ[…]`: one variable, read below.
            let method = m.get(2).map(|x| x.as_str());
            if code[m.get(0).map_or(0, |x| x.end())..]
                .trim_start()
                .starts_with('[')
                || matches!(method, Some("get" | "setdefault" | "pop" | "__getitem__"))
            {
                continue;
            }
        }
        if whole.starts_with("process.env") && m.get(3).is_some() {
            continue;
        }
        return Some(Source {
            what: format!(
                "the whole environment (`{}`)",
                whole.trim_matches(['(', '|', ';', '&', '`', '$', ' '])
            ),
            at,
            kind: SourceKind::Environment,
        });
    }
    if let Some(m) = STORE.captures(code)
        && !uses_store(code)
    {
        let found = m
            .get(0)
            .map_or("", |x| x.as_str())
            .trim_matches(|c: char| c.is_whitespace() || "'\"`()=,;]".contains(c));
        let what = if m.name("keychain").is_some() {
            "the keychain"
        } else if m.name("browser").is_some() {
            "a browser profile"
        } else if m.name("wallet").is_some() {
            "a wallet"
        } else {
            "the credential file"
        };
        return Some(Source {
            what: format!("{what} `{found}`"),
            at,
            kind: SourceKind::Store,
        });
    }
    for c in NAMED_BY_CONST.captures_iter(code) {
        if let Some((value, _)) = consts.get(&c[1])
            && secret_name(value)
        {
            return Some(secret(value, at));
        }
    }
    for c in NAMED_ENV.captures_iter(code) {
        let name = c.iter().skip(1).flatten().next().map_or("", |m| m.as_str());
        if secret_name(name) {
            return Some(secret(name, at));
        }
    }
    for r in refs {
        let name = r.strip_prefix("env:").unwrap_or(r);
        if name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && secret_name(name)
            && !clean.contains(name)
        {
            return Some(secret(name, at));
        }
    }
    None
}

// --- sinks ---------------------------------------------------------------------------------

static NET_SINK: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)(?P<http>\b(curl|wget|xh|aria2c)\b|\bhttp\s+(post|put|get|-f)\b|(?i:\b(invoke-webrequest|invoke-restmethod|iwr|irm)\b|net\.webclient|\.upload(string|file|data)\b)
        |\brequests\.(post|get|put|patch|request)\b|\bhttpx\.(post|get|put|patch|request|stream)\b|\b(session|client|http|sess|s)\.(post|put|patch)\s*\(
        |\burllib\.request\b|\burlopen\s*\(|\burllib\.request\.Request\b|http\.client|HTTPS?Connection|\baiohttp\b|\burllib3\b|\bpycurl\b
        |\bfetch\s*\(|\baxios\b|XMLHttpRequest|sendBeacon|\bhttps?\.(request|get)\s*\(|\bgot\s*[.(]|\bsuperagent\b|\$\.(ajax|post)\b|\bky\.(post|get)\b
        |Net::HTTP|HTTParty|Faraday|RestClient|URI\.open|\bsmtplib\b|\bsendmail\b|\bmail\s+-s\b|\bgh\s+gist\s+create\b|\bscp\b|\brsync\b|\bftp\b)
        |(?P<raw>\b(nc|ncat|netcat|socat|telnet)\b|/dev/(tcp|udp)/|\bsocket\.(socket|create_connection)\b|\.send(all|to)?\s*\(|\bnet\.(connect|Socket|createConnection)\b|\bdgram\b|(?i:tcpclient|udpclient))
        |(?P<dns>\b(dig|nslookup|drill|resolvectl|ping)\s|(^|[|;&]\s*|\$\()host\s|\bgetaddrinfo\b|\bgethostbyname(_ex)?\b|\bdns\.(resolve\w*|lookup)\b|\bresolver\.(resolve|query)\b|(?i:resolve-dnsname)|\bdns\.resolver\b)"#,
    )
});

static EXEC_SINK: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\b(exec|eval|execfile|compile)\s*\(|\bFunction\s*\(|\beval\s|\b(ba|z|da|k)?sh\s+-c\b|\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\|\s*python[0-9.]*\b|(?i:\b(iex|invoke-expression)\b)
        |\bsource\s|\bsubprocess\.(run|call|Popen|check_output|check_call)|\bos\.(system|popen)|\bexecSync\b|\bspawnSync\b|\bsystem\s*\(|\bvm\.run\w*|\binstance_eval\b"#,
    )
});

static DECODE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\b(b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|unhexlify|fromhex|atob|decode64|strict_decode64|decode_base64)\b|(?i:frombase64string)
        |\bbase64\s+(-\w+\s+)*(-d|--decode|-D)\b|\bxxd\s+(-\w+\s+)*-r|\bBuffer\.from\s*\([^)]*['"](base64|hex)['"]|\bcodecs\.decode\b|\bzlib\.decompress\b|\bmarshal\.loads\b"#,
    )
});

static WRITE_READABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(>>?\s*|\btee\s+(-a\s+)?|open\(\s*|writeFile(Sync)?\(\s*|write_text|Out-File\s+|Set-Content\s+|Add-Content\s+|\.save\(\s*|\bcp\s+(-\w+\s+)*\S+\s+|\bshutil\.copy\w*\([^,]*,\s*|Copy-Item\s+\S+\s+(-Destination\s+)?)['"]?(?P<path>(/tmp|/var/tmp|/dev/shm|/var/www|/srv/www|\$TMPDIR|\$env:TEMP|C:\\Users\\Public|~/Public|\$HOME/Public|\./public/|public/|www/|static/)[^\s'")]*)"#,
    )
    .expect("static regex builds")
});

/// A host a stranger controls or that hides who runs it: paste sites, request bins, webhooks,
/// tunnels.
const DROP_HOSTS: &[&str] = &[
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "ghostbin.com",
    "termbin.com",
    "ix.io",
    "0x0.st",
    "transfer.sh",
    "webhook.site",
    "requestbin.com",
    "requestbin.net",
    "pipedream.net",
    "hookbin.com",
    "beeceptor.com",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok.app",
    "trycloudflare.com",
    "interact.sh",
    "oast.fun",
    "oast.pro",
    "oast.live",
    "burpcollaborator.net",
    "canarytokens.com",
    "discord.com",
    "discordapp.com",
    "api.telegram.org",
    "rentry.co",
    "dpaste.org",
    "dpaste.com",
    "glot.io",
    "serveo.net",
    "localtunnel.me",
    "loca.lt",
    "requestcatcher.com",
    "postb.in",
    "ptsv2.com",
    "ptsv3.com",
    "mockbin.org",
    "file.io",
    "temp.sh",
    "bashupload.com",
];

/// Whether `host` is one of [`DROP_HOSTS`], an IP address, or given over plain HTTP.
pub fn bad_host(host: &str) -> Option<String> {
    let host = host.to_ascii_lowercase();
    if DROP_HOSTS
        .iter()
        .any(|h| host == *h || host.ends_with(&format!(".{h}")))
    {
        return Some(format!("`{host}`, where anyone can receive"));
    }
    let ip = host.bytes().all(|b| b.is_ascii_digit() || b == b'.') && host.contains('.');
    if (ip && !host.starts_with("127.")) || host.starts_with('[') {
        return Some(format!("the bare address `{host}`"));
    }
    None
}

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(https?|wss?|ftp|tcp|udp)://([^/\s'"`)\]>:?#@]+@)?([^/\s'"`)\]>:?#,;]+)"#)
        .expect("static regex builds")
});

static RAW_HOST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"/dev/(?:tcp|udp)/([^/\s]+)/|\b(?:nc|ncat|netcat|telnet)\s+(?:-\w+\s+)*([A-Za-z0-9][\w.-]*\.[A-Za-z]{2,}|\d+\.\d+\.\d+\.\d+)\s")
        .expect("static regex builds")
});

/// Hosts named in `text`.
fn hosts(text: &str) -> Vec<String> {
    let mut out: Vec<String> = URL
        .captures_iter(text)
        .filter_map(|c| c.get(3).map(|m| m.as_str().to_ascii_lowercase()))
        .collect();
    for c in RAW_HOST.captures_iter(text) {
        if let Some(m) = c.get(1).or_else(|| c.get(2)) {
            out.push(m.as_str().to_ascii_lowercase());
        }
    }
    out
}

/// Vendor aliases: a variable word and the host words that belong to it.
const ALIASES: &[(&str, &[&str])] = &[
    ("aws", &["amazonaws", "aws"]),
    ("gh", &["github"]),
    ("github", &["github", "githubusercontent"]),
    ("gcp", &["googleapis", "google"]),
    ("google", &["googleapis", "google"]),
    ("gemini", &["googleapis", "google"]),
    ("hf", &["huggingface", "hf"]),
    ("huggingface", &["huggingface", "hf"]),
    ("azure", &["azure", "microsoft", "windows"]),
    ("claude", &["anthropic"]),
    ("npm", &["npmjs"]),
    ("cf", &["cloudflare"]),
    ("gitlab", &["gitlab"]),
    ("jira", &["atlassian"]),
    ("confluence", &["atlassian"]),
    ("bitbucket", &["bitbucket", "atlassian"]),
    ("firebase", &["googleapis", "firebaseio", "firebase"]),
    ("datadog", &["datadoghq"]),
    ("dd", &["datadoghq"]),
    ("shopify", &["myshopify", "shopify"]),
    ("twitter", &["twitter", "x"]),
    ("do", &["digitalocean"]),
    ("digitalocean", &["digitalocean"]),
    ("mapbox", &["mapbox"]),
];

/// The label of `host` that names who runs it: `openai` in `api.openai.com`, `npm-audit-plus`
/// in `advisories.npm-audit-plus.com` (the label before the public suffix, `co.uk`-style
/// suffixes skipped).
fn owner_label(host: &str) -> &str {
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    match labels.len() {
        0 => "",
        1 => labels[0],
        n => {
            let second = labels[n - 2];
            if n >= 3
                && matches!(second, "co" | "com" | "net" | "org" | "ac" | "gov")
                && labels[n - 1].len() == 2
            {
                labels[n - 3]
            } else {
                second
            }
        }
    }
}

/// Whether a secret whose name has the vendor words `vendors` belongs at `host`.
fn belongs(vendors: &[String], host: &str) -> bool {
    if vendors.iter().any(|v| NEVER_SENT.contains(&v.as_str())) {
        return false;
    }
    if vendors.is_empty() {
        return true;
    }
    let owner = owner_label(host);
    vendors.iter().any(|v| {
        let aliases = ALIASES
            .iter()
            .find(|(w, _)| w == v)
            .map_or(&[][..], |(_, a)| *a);
        owner == v.as_str()
            || aliases.contains(&owner)
            || (owner.starts_with(v.as_str()) && owner.len() <= v.len() + 2)
            || (v.starts_with(owner) && owner.len() >= 4)
    })
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loc {
    Home,
    Agent,
}

static HOME_ROOT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^[\s(\[{,]*["']?(~/?|\$HOME/?|\$\{HOME\}/?|Path\.home\(\)|pathlib\.Path\.home\(\)|os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|os\.homedir\(\)|homedir\(\)|\$env:USERPROFILE|\$env:HOME|os\.environ\[['"]HOME['"]\]|os\.getenv\(\s*['"]HOME['"]\s*\)|process\.env\.HOME)["']?[\s)\]},;:]*$"#,
    )
    .expect("static regex builds")
});

static AGENT_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(^|[/\\'"\s])\.(claude|cursor|codex|gemini|codeium|windsurf|continue)([/\\'"]|$)|\.claude\.json|mcp(_config)?\.json"#)
        .expect("static regex builds")
});

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
    Regex::new(
        r"^\s*(?:async\s+)?(?:def|function)\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\s*)?\(([^)]*)\)|^\s*([A-Za-z_][\w]*)\s*\(\)\s*\{|^\s*function\s+([A-Za-z_][\w-]*)\s*\{",
    )
    .expect("static regex builds")
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
fn call_args<'c>(code: &'c str, name: &str, lang: Lang) -> Vec<Vec<&'c str>> {
    let mut calls = Vec::new();
    for (at, _) in code.match_indices(name) {
        let before_ok = code[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
        let rest = &code[at + name.len()..];
        if !before_ok || rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
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
            let end = rest.find(['|', ';', '&', ')', '\n']).unwrap_or(rest.len());
            calls.push(rest[..end].split_whitespace().collect());
        }
    }
    calls
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
        // Names the file assigned come first: `KEY="$SLACK_BOT_TOKEN"` is Slack's token.
        for r in &s.refs {
            if let Some(src) = self.taint.get(r.as_str())
                && !s.env_args.contains(r)
                && contains_word(code, r)
            {
                return Some(src.clone());
            }
        }
        if let Some(src) = source_in(code, &s.refs, &self.clean, &self.consts, at) {
            return Some(src);
        }
        // Paths built from pieces: `Path.home() / ".aws" / "credentials"`.
        if s.strings.len() > 1 {
            let joined = format!("/{}", s.strings.join("/"));
            if let Some(src) = source_in(&joined, &[], &self.clean, &self.consts, at)
                && src.kind == SourceKind::Store
            {
                return Some(src);
            }
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
    fn propagate(&mut self, units: &[UnitStmts], funcs: &Funcs) -> bool {
        let mut changed = false;
        for (u, unit) in units.iter().enumerate() {
            for (i, s) in unit.stmts.iter().enumerate() {
                let at = unit.base + s.start;
                let taint = self.taint_of(s, s.rhs_at, at);
                let decoded = DECODE.is_match(&s.code)
                    || s.refs.iter().any(|r| self.decoded.contains_key(r.as_str()));
                for name in &s.assigns {
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
                        self.consts.insert(name.clone(), value);
                        changed = true;
                    }
                    if let Some(path) = opened_path(&s.code) {
                        self.handles.entry(name.clone()).or_insert(path);
                    }
                    if !self.conns.contains_key(name)
                        && !s.code.contains(&format!("{name}."))
                        && let Some(m) = NET_SINK.find(s.code.get(s.rhs_at..).unwrap_or(""))
                        && s.rhs_at > 0
                    {
                        let _ = m;
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
                }
                // Tainted data written to a file taints the file.
                if let Some(src) = &taint
                    && !NET_SINK.is_match(&s.code)
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
                                .any(|p| trimmed.starts_with(p)));
                    if returns
                        && !self.funcs.contains_key(&f.name)
                        && let Some(src) = self.taint_of(s, 0, at)
                    {
                        self.funcs.insert(f.name.clone(), src);
                        changed = true;
                    }
                }
                // Parameters of the functions it calls.
                for w in &s.words {
                    let Some(called) = funcs.by_name.get(w.as_str()) else {
                        continue;
                    };
                    for f in called.iter().map(|k| &funcs.list[*k]) {
                        if owner.is_some_and(|o| std::ptr::eq(&funcs.list[o], f)) {
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
        for args in call_args(&s.code, &f.name, lang).into_iter().take(8) {
            for (arg, param) in args.iter().zip(&f.params) {
                if self.taint.contains_key(param) {
                    continue;
                }
                let src = source_in(arg, &[], &self.clean, &self.consts, at).or_else(|| {
                    s.words
                        .iter()
                        .filter(|r| contains_word(arg, r))
                        .find_map(|r| {
                            let var = s.refs.contains(r);
                            var.then(|| self.taint.get(r.as_str()))
                                .flatten()
                                .or_else(|| self.funcs.get(r.as_str()))
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
        let rhs = s.code.get(s.rhs_at..).unwrap_or("");
        if HOME_ROOT.is_match(rhs) {
            return Some(Loc::Home);
        }
        if AGENT_PATH.is_match(rhs) || s.strings.iter().any(|p| AGENT_PATH.is_match(p)) {
            return Some(Loc::Agent);
        }
        s.refs
            .iter()
            .filter(|r| !s.assigns.contains(r))
            .find_map(|r| match self.locs.get(r.as_str()) {
                Some((Loc::Agent, _)) => Some(Loc::Agent),
                _ => None,
            })
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
        for piece in &s.strings {
            joined.push_str(piece);
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
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            && after.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

static OPENED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\bopen\(\s*['"]([^'"]+)['"]\s*,\s*['"][wa]"#).expect("static regex builds")
});

fn opened_path(code: &str) -> Option<String> {
    OPENED.captures(code).map(|c| c[1].to_owned())
}

static WRITTEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:>>?\s*|\btee\s+(?:-a\s+)?|writeFile(?:Sync)?\(\s*|appendFile(?:Sync)?\(\s*|\.save\(\s*|Out-File\s+(?:-FilePath\s+)?|Set-Content\s+(?:-Path\s+)?|Add-Content\s+(?:-Path\s+)?|\bcp\s+(?:-\w+\s+)*\S+\s+|\bshutil\.copy\w*\([^,]*\),?\s*|\bshutil\.copy\w*\([^,]*,\s*)['"]?([~$\w./\\:-]*[./][\w-]+)"#,
    )
    .expect("static regex builds")
});

/// Files a statement writes to, and files it names with a data extension (the tool that
/// holds the secret embeds it there: `exiftool -Comment=… shot.png`).
fn written_paths(code: &str) -> Vec<String> {
    static FILE_ARG: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"[\w./~-]+\.(png|jpe?g|gif|bmp|svg|webp|ico|tiff?|pdf|txt|json|zip|tar|gz|tgz|mp4|mov|csv|xlsx|docx|log|dat|bin)\b")
            .expect("static regex builds")
    });
    let mut out: Vec<String> = WRITTEN
        .captures_iter(code)
        .map(|c| c[1].to_owned())
        .filter(|p| p.len() >= 3 && !p.starts_with("/dev/null") && !p.starts_with('&'))
        .collect();
    out.extend(FILE_ARG.find_iter(code).map(|m| m.as_str().to_owned()));
    out
}

/// Deleting the home folder, or writing or deleting the agent's configuration or other skills,
/// through names that hold them.
fn tamper(state: &State, unit: &UnitStmts, s: &Stmt, hits: &mut Vec<Hit>, text: &str) {
    if hits.len() >= super::MAX_HITS {
        return;
    }
    let deletes = DELETE.find(&s.code);
    let writes = WRITE.find(&s.code);
    let Some(op) = deletes.or(writes) else {
        return;
    };
    let at = unit.base + s.start;
    let held = |loc: Loc| {
        s.refs
            .iter()
            .chain(&s.words)
            .filter(|r| !s.assigns.contains(r))
            .find(|r| state.locs.get(r.as_str()).is_some_and(|(l, _)| *l == loc))
    };
    let message = if deletes.is_some()
        && let Some(name) = held(Loc::Home).filter(|n| whole_arg(&s.code, n))
    {
        let line = line_of(text, state.locs[name.as_str()].1);
        format!(
            "`{}` deletes `{name}`, the home folder (line {line})",
            op.as_str().trim()
        )
    } else if let Some(name) = held(Loc::Agent) {
        let line = line_of(text, state.locs[name.as_str()].1);
        format!(
            "`{}` changes `{name}`, the agent's configuration or its skills (line {line})",
            op.as_str().trim()
        )
    } else if AGENT_PATH.is_match(&s.code)
        && (s.code.contains("settings")
            || s.code.contains("mcp")
            || s.code.contains("*/SKILL.md")
            || s.code.contains("hooks"))
        && !s.code.trim_start().starts_with("cat ")
    {
        format!(
            "`{}` changes the agent's configuration or other skills",
            op.as_str().trim()
        )
    } else {
        return;
    };
    hits.push(Hit {
        rule: &rules::TAMPERING,
        at,
        message,
        help: "a skill never deletes the user's home and never edits the agent's settings or other skills",
        quoted: unit.quoted,
    });
}

/// Runs the analysis over the units of one file and returns what reaches a sink.
pub fn analyse(units: &[UnitStmts], hits: &mut Vec<Hit>, text: &str) {
    let funcs = index_functions(units);
    let mut state = State::default();
    for _ in 0..4 {
        if !state.propagate(units, &funcs) {
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

fn line_of(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..at.min(text.len())]).count() + 1
}

fn sinks(state: &State, unit: &UnitStmts, s: &Stmt, hits: &mut Vec<Hit>, text: &str) {
    if hits.len() >= super::MAX_HITS {
        return;
    }
    let at = unit.base + s.start;
    let exec = EXEC_SINK.find(&s.code);
    if let Some(exec) = exec {
        let decoded = s
            .refs
            .iter()
            .chain(&s.words)
            .find(|r| state.decoded.contains_key(r.as_str()) && !s.assigns.contains(r));
        if let Some(name) = decoded {
            let from = state.decoded[name.as_str()];
            hits.push(Hit {
                rule: &rules::ENCODED_EXEC,
                at,
                message: format!(
                    "`{name}`, decoded at line {}, is run by `{}`",
                    line_of(text, from),
                    exec.as_str().trim()
                ),
                help: "decode it and review what it does; ship readable code instead",
                quoted: unit.quoted,
            });
            return;
        }
    }
    // `req.write(…)`, `conn.send(…)` on a request or connection opened earlier: its statement
    // stands for the sink.
    let conn_code = s
        .refs
        .iter()
        .chain(&s.words)
        .filter(|r| !s.assigns.contains(r))
        .find_map(|r| {
            let opened = state.conns.get(r.as_str())?;
            let tail = s.code.split_once(&format!("{r}."))?.1;
            ["write", "send", "end", "sendall", "post", "put"]
                .iter()
                .any(|m| tail.starts_with(m))
                .then_some(opened)
        });
    let joined;
    let sink_code = match conn_code {
        Some(opened) => {
            joined = format!("{}\n{}", opened, s.code);
            joined.as_str()
        }
        None => s.code.as_str(),
    };
    let Some(sink) = NET_SINK.captures(sink_code) else {
        if let Some(c) = WRITE_READABLE.captures(&s.code)
            && let Some(src) = state.taint_of(s, 0, at)
            && src.kind != SourceKind::Secret(Vec::new())
            && !s.code.contains("2>")
        {
            hits.push(Hit {
                rule: &rules::EXFILTRATION,
                at,
                message: format!(
                    "{} (line {}) is written to `{}`, where any program can read it",
                    src.what,
                    line_of(text, src.at),
                    &c["path"]
                ),
                help: EXFIL_HELP,
                quoted: unit.quoted,
            });
        }
        return;
    };
    let call = sink
        .get(0)
        .map_or("", |m| m.as_str())
        .trim()
        .trim_end_matches('(');
    let kind = if sink.name("dns").is_some() {
        "DNS lookup"
    } else if sink.name("raw").is_some() {
        "raw socket"
    } else {
        "request"
    };
    // Where it goes: URLs in the statement and in the constants it reads.
    let mut dest: Vec<(String, bool)> = hosts(sink_code).into_iter().map(|h| (h, false)).collect();
    for r in &s.refs {
        if let Some((value, hidden)) = state.consts.get(r.as_str()) {
            dest.extend(hosts(value).into_iter().map(|h| (h, *hidden)));
        }
    }
    for piece in &s.strings {
        if let Some(decoded) = decode::decode(piece)
            && s.code.contains(piece.as_str())
            && DECODE.is_match(&s.code)
        {
            dest.extend(hosts(&decoded).into_iter().map(|h| (h, true)));
        }
    }
    if let Some((host, _)) = dest.iter().find(|(_, hidden)| *hidden) {
        hits.push(Hit {
            rule: &rules::EXFILTRATION,
            at,
            message: format!("`{call}` sends to `{host}`, an address hidden in encoded text"),
            help: EXFIL_HELP,
            quoted: unit.quoted,
        });
        return;
    }
    let Some(src) = state.taint_of(s, 0, at) else {
        static SUBDOMAIN_DATA: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(\$\w+|\$\{\w+\}|\$\([^)]*\)|\{[^}]+\})\.[A-Za-z0-9-]+\.[A-Za-z]{2,}")
                .expect("static regex builds")
        });
        if kind == "DNS lookup"
            && let Some(m) = SUBDOMAIN_DATA.find(&s.code)
        {
            hits.push(Hit {
                rule: &rules::EXFILTRATION,
                at,
                message: format!(
                    "`{call}` looks up `{}`: data from this machine sent in a subdomain",
                    crate::lint::exec::excerpt(m.as_str())
                ),
                help: EXFIL_HELP,
                quoted: unit.quoted,
            });
        }
        return;
    };
    let bad = dest.iter().find_map(|(h, _)| bad_host(h));
    if let SourceKind::Secret(vendors) = &src.kind
        && kind == "request"
        && bad.is_none()
    {
        let known: Vec<&String> = dest.iter().map(|(h, _)| h).collect();
        let fits = if known.is_empty() {
            !vendors.iter().any(|v| NEVER_SENT.contains(&v.as_str()))
        } else {
            known.iter().any(|h| belongs(vendors, h))
        };
        if fits {
            return;
        }
    }
    let to = match (dest.first(), &bad) {
        (_, Some(bad)) => format!(" to {bad}"),
        (Some((h, _)), None) => format!(" to `{h}`"),
        (None, None) => String::new(),
    };
    let line = line_of(text, src.at);
    let here = line_of(text, at);
    let from = if line == here {
        String::new()
    } else {
        format!(" (line {line})")
    };
    hits.push(Hit {
        rule: &rules::EXFILTRATION,
        at,
        message: format!("{}{from} flows to `{call}`, a {kind}{to}", src.what),
        help: EXFIL_HELP,
        quoted: unit.quoted,
    });
}

const EXFIL_HELP: &str = "a skill sends a secret only to the service it belongs to, and never the environment, credential files or keychains";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_belong_to_their_vendor() {
        assert!(belongs(&vendor_words("OPENAI_API_KEY"), "api.openai.com"));
        assert!(belongs(&vendor_words("GITHUB_TOKEN"), "api.github.com"));
        assert!(belongs(
            &vendor_words("AWS_SECRET_ACCESS_KEY"),
            "s3.amazonaws.com"
        ));
        assert!(!belongs(
            &vendor_words("AWS_SECRET_ACCESS_KEY"),
            "collect.example"
        ));
        assert!(!belongs(&vendor_words("JWT_SECRET"), "api.example.com"));
        assert!(belongs(&vendor_words("API_KEY"), "api.weather.example"));
        assert!(!belongs(
            &vendor_words("NPM_TOKEN"),
            "advisories.npm-audit-plus.com"
        ));
        assert!(belongs(&vendor_words("NPM_TOKEN"), "registry.npmjs.org"));
        assert!(belongs(&vendor_words("HF_TOKEN"), "huggingface.co"));
        assert!(secret_name("ANTHROPIC_API_KEY"));
        assert!(secret_name("JWT_SECRET"));
        assert!(!secret_name("HOME"));
        assert!(!secret_name("KEYBOARD"));
    }
}
