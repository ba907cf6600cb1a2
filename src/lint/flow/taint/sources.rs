//! Sources (the environment, secret-named variables, credential stores) and what tells where a
//! value goes (sinks, hosts, whose host a secret belongs to).

use crate::lint::exec::ascii_regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::*;

// --- sources -------------------------------------------------------------------------------

pub(super) static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?i)(^|_)(token|tokens|secret|secrets|password|passwd|passphrase|pwd|apikey|api_key|private_key|access_key|secret_key|credentials?|session|cookie|cookies|jwt|auth|mnemonic|seed)(_|$)|_key$|^key$|_pat$",
    )
});

/// Whether a variable name says it holds a secret.
pub fn secret_name(name: &str) -> bool {
    SECRET_NAME.is_match(name) && !name.eq_ignore_ascii_case("TOKENIZERS_PARALLELISM")
}

pub(super) const GENERIC_WORDS: &[&str] = &[
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
pub(super) const NEVER_SENT: &[&str] = &[
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

pub(super) fn vendor_words(name: &str) -> Vec<String> {
    name.split(['_', '-', ':'])
        .map(str::to_ascii_lowercase)
        .filter(|w| w.len() >= 2 && !GENERIC_WORDS.contains(&w.as_str()))
        .collect()
}

pub(super) fn secret(name: &str, at: usize) -> Source {
    Source {
        what: format!("`{name}`"),
        at,
        kind: SourceKind::Secret(vendor_words(name)),
    }
}

/// Commands that print a credential the user is logged in with: the token of `gh`, `gcloud`,
/// `az`, `heroku`, the keys of `aws configure`, and whatever `git credential fill` returns.
static PRINTED: LazyLock<Regex> = LazyLock::new(|| {
    // Words apart on a command line, or items of an argument list (`["gh", "auth", "token"]`).
    let sep = r#"(\s+|['"]\s*,\s*['"])"#;
    let printed = r"(?x)(?P<github>\bgh SEP auth SEP (token\b|status SEP (-\w+ SEP )*(-t|--show-token)\b))
        |(?P<google>\bgcloud SEP (auth SEP (application-default SEP )?print-(access|identity)-token|config SEP config-helper)\b)
        |(?P<aws>\baws SEP (configure SEP (get SEP aws_(secret_access_key|access_key_id|session_token)|export-credentials)|sts SEP get-session-token)\b)
        |(?P<azure>\baz SEP account SEP get-access-token\b)
        |(?P<heroku>\bheroku SEP auth:token\b)
        |(?P<store>\bgit SEP credential(-\w+)? SEP (fill|get)\b|\bkubectl SEP config SEP view\b[^|;\n`]{0,40}--raw\b)";
    ascii_regex(&printed.replace(" SEP ", sep))
});

/// The credential a command of [`PRINTED`] in `code` prints, a secret of the service it logs in
/// to (the credential of `git credential fill` is any host's: a store's).
fn printed_credential(code: &str, at: usize) -> Option<Source> {
    let m = PRINTED.captures(code)?;
    let found = m
        .get(0)
        .map_or("", |x| x.as_str())
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ','))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let vendor = ["github", "google", "aws", "azure", "heroku"]
        .into_iter()
        .find(|v| m.name(v).is_some());
    Some(Source {
        what: format!("the credential `{found}` prints"),
        at,
        kind: match vendor {
            Some(v) => SourceKind::Secret(vec![v.to_owned()]),
            None => SourceKind::Store,
        },
    })
}

/// A password the user types at a prompt that hides it (`getpass()`, `Read-Host
/// -AsSecureString`, the shell's `read -s`), and `osascript`'s dialog `with hidden answer`: the
/// password prompt macOS stealers show in the name of the system.
static TYPED: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)(?P<prompt>\bgetpass\.getpass\s*\(|\bgetpass\s*\(\s*['"]|(?i:\bread-host\b[^;|\n]*-assecurestring)
        |(^|[;&|({]\s*)read\s+([^;&|\n]*\s)?-[A-Za-z]*s[A-Za-z]*(\s|$))
        |(?P<dialog>(?i:\bwith\s+hidden\s+answer\b))"#,
    )
});

/// The password typed at a hidden prompt that `code` reads, if any. A typed password is a
/// secret of no one service: as `$PASSWORD` is, it may go to the server it logs in to, not to
/// a raw socket, a lookup or a drop site. An `osascript` dialog is not how a skill asks:
/// what it answers is judged as a credential store is.
pub(super) fn typed(code: &str, at: usize) -> Option<Source> {
    let m = TYPED.captures(code)?;
    let dialog = m.name("dialog").is_some();
    let found = m
        .get(0)
        .map_or("", |x| x.as_str())
        .trim_matches(|c: char| c.is_whitespace() || "'\"`(;&|{".contains(c));
    Some(Source {
        what: if dialog {
            "a password asked in a dialog that hides the answer (`with hidden answer`)".to_owned()
        } else {
            format!("a password typed at a hidden prompt (`{found}`)")
        },
        at,
        kind: if dialog {
            SourceKind::Store
        } else {
            SourceKind::Secret(Vec::new())
        },
    })
}

pub(super) static NAMED_ENV: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"os\.environ\s*\[\s*['"](\w+)|os\.environ\.get\(\s*['"](\w+)|os\.getenv\(\s*['"](\w+)|process\.env\.(\w+)|process\.env\[\s*['"](\w+)|Deno\.env\.get\(\s*['"](\w+)|import\.meta\.env\.(\w+)|ENV\[\s*['"](\w+)|ENV\.fetch\(\s*['"](\w+)|(?i:\$env:)(\w+)|getenv\(\s*['"](\w+)|GetEnvironmentVariable\(\s*['"](\w+)"#,
    )
});

/// A variable read by a name held in another (`os.environ[name]`, `process.env[n]`, `${!v}`,
/// `printenv "$v"`, `[Environment]::GetEnvironmentVariable($n)`, `Get-Item "env:$n"`): the
/// name is what the holder's constant says.
pub(super) static NAMED_BY_CONST: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?:os\.environ\.get|os\.getenv|getenv|os\.environ\[|process\.env\[|ENV\[|ENV\.fetch\()\(?\s*([A-Za-z_]\w*)\s*[,)\]]",
    )
});

/// The shell and PowerShell forms of [`NAMED_BY_CONST`], which all hold a `$`: only code with
/// one is searched, and the literals of the pattern let the search skip the rest.
pub(super) static NAMED_BY_VAR: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"GetEnvironmentVariable\(\s*\$([A-Za-z_]\w*)\s*[,)]|\$\{!([A-Za-z_]\w*)\}|\bprintenv\s+["']?\$\{?([A-Za-z_]\w*)|\b(?:Get-Item|Get-ChildItem|get-item|get-childitem|gci|gi)\s+["']?[Ee]nv:\$([A-Za-z_]\w*)"#,
    )
});

pub(super) static WHOLE_ENV: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\bos\.environ\b(\s*\.\s*(\w+))?|\bprocess\.env\b(\s*[.\[])?|/proc/(self|\d+|\$\w+|\*)/environ
        |(^|[|;&`]|(^|[^\w.\])])\(|\$\(|\bdo\s|\bthen\s|\bxargs\s)\s*(env|printenv|export\s+-p|declare\s+-x|set)\s*($|[|;&)>`])
        |(?i:\b(get-childitem|gci|dir|ls|get-item)\s+env:)|(?i:\[(system\.)?environment\]::getenvironmentvariables)
        |\bENV\.(to_h|to_a|to_hash|each|map|inspect|keys|select)\b|\bos\.Environ\(\)|\bgetattr\(\s*os\s*,\s*['"]environ['"]\s*\)
        |\b(execSync|exec|check_output|getoutput|popen|run|spawnSync)\(\s*\[?\s*['"](env|printenv|set|export\s+-p)['"]
        |\bdotenv_values\s*\(|\bdotenv\.parse\s*\(|\bdotenv\.config\(\s*\)\.parsed\b"#,
    )
});

pub(super) static STORE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?ix)(?P<file>\.aws[/\\]+(credentials|config)\b|\.ssh[/\\]+(id_[a-z0-9_]+|identity|[a-z0-9_.-]*(rsa|ed25519|ecdsa|dsa|_key|\.pem))\b|\.ssh\b[/\\]*(\*|["'`\s)\],;]|$)
        |\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.kube[/\\]+config\b|\.gem[/\\]+credentials\b
        |['"]\.(aws|gem)['"]\s*,\s*['"]credentials['"]|['"]\.(kube|docker)['"]\s*,\s*['"]config(\.json)?['"]|['"]\.ssh['"]\s*,\s*['"]id_\w+['"]|\.docker[/\\]+config\.json|gcloud[/\\]+(credentials|application_default|access_tokens|legacy_credentials)
        |application_default_credentials\.json|\.azure[/\\]+\w|\.gnupg\b|/etc/shadow\b|\.config[/\\]+gh[/\\]+hosts\.yml|\.terraform\.d[/\\]+credentials
        |\.claude\.json\b|\.claude[/\\]+\.credentials\.json|\.codex[/\\]+auth\.json|\.gemini[/\\]+oauth_creds\.json|Microsoft[/\\]+(Credentials|Protect)\b
        |(^|[\s'"/(=])\.env(\.local|\.production)?($|[\s'"`)]))
        |(?P<keychain>\bsecurity\s+(find-generic-password|find-internet-password|dump-keychain)\b|login\.keychain|Library[/\\]+Keychains|\bkeyring\.get_password\b)
        |(?P<browser>Login\s+Data|[/\\]Cookies\b|cookies\.sqlite|logins\.json|key4\.db|Local\s+State|browser_cookie3|Chrome[/\\]+User\s+Data|Google[/\\]+Chrome|\.mozilla[/\\]+firefox|BraveSoftware|Microsoft[/\\]+Edge)
        |(?P<wallet>wallet\.dat|\.electrum\b|\bexodus\b|keystore[/\\]+UTC--|metamask|nkbihfbeogaeaoehlefnkodbefgpgknn|solana[/\\]+id\.json|\.bitcoin\b|\.ethereum[/\\]+keystore)"#,
    )
});

/// Using a key or a file as configured (`ssh -i`, `curl --netrc`) is not reading it.
pub(super) fn uses_store(code: &str) -> bool {
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
/// the file never assigned; `named` are the constants whose text names a secret.
pub(super) fn source_in(
    code: &str,
    refs: &[String],
    clean: &HashSet<String>,
    named: &HashMap<String, (String, bool)>,
    at: usize,
) -> Option<Source> {
    source_in_with(
        code,
        refs,
        clean,
        named,
        at,
        || plain_source(code, at),
        || named_env(code, at),
    )
}

/// [`source_in`] with its two checks that read `code` alone (the regex searches, the same on
/// every propagation pass) given as `plain` ([`plain_source`]) and `env` ([`named_env`]), so
/// that the caller can keep their answers per statement.
pub(super) fn source_in_with(
    code: &str,
    refs: &[String],
    clean: &HashSet<String>,
    named: &HashMap<String, (String, bool)>,
    at: usize,
    plain: impl FnOnce() -> Option<Source>,
    env: impl FnOnce() -> Option<Source>,
) -> Option<Source> {
    if let Some(src) = plain() {
        return Some(src);
    }
    // A lookup by a name held in a constant: only when a constant of the file names a secret.
    if !named.is_empty() {
        let by_var = memchr::memchr(b'$', code.as_bytes())
            .is_some()
            .then(|| NAMED_BY_VAR.captures_iter(code))
            .into_iter()
            .flatten();
        for c in NAMED_BY_CONST.captures_iter(code).chain(by_var) {
            let holder = c.iter().skip(1).flatten().next().map_or("", |m| m.as_str());
            // A list of names (one a line) is read one element at a time: the first secret
            // counts.
            if let Some((value, _)) = named.get(holder)
                && let Some(name) = value.lines().map(str::trim).find(|n| secret_name(n))
            {
                return Some(secret(name, at));
            }
        }
    }
    if let Some(src) = env() {
        return Some(src);
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

/// The tools an agent's permission rules name (`Read(./.env)`, `Bash(curl:*)`).
const PERMISSION_TOOLS: &str =
    "Read|Edit|Write|MultiEdit|NotebookEdit|Glob|Grep|Bash|WebFetch|WebSearch";

/// Whether a string is an agent's permission rule (`Read(./.env)`, `Bash(curl:*)`).
pub(super) fn permission_rule(text: &str) -> bool {
    static RULE: LazyLock<Regex> =
        LazyLock::new(|| ascii_regex(&format!(r"^({PERMISSION_TOOLS})\([^()\n]*\)$")));
    RULE.is_match(text)
}

/// An agent's permission rule, quoted (`"Read(./.env)"`, `"Bash(curl:*)"`).
static PERMISSION_RULE: LazyLock<Regex> =
    LazyLock::new(|| ascii_regex(&format!(r#"["']({PERMISSION_TOOLS})\([^()\n"']*\)["']"#)));

/// The sources `code` reads whatever the rest of the file holds, in the order [`source_in`]
/// looks for them: the whole environment, a credential store, a password typed at a hidden
/// prompt, a credential a command prints.
pub(super) fn plain_source(code: &str, at: usize) -> Option<Source> {
    // `"Read(./.env)"`, `"Read(~/.ssh/**)"` in an agent's permission list (a data block read as
    // shell): a rule about the place, which reads nothing.
    let without_rules;
    let code = if PERMISSION_RULE.is_match(code) {
        without_rules = PERMISSION_RULE.replace_all(code, "\"\"");
        &*without_rules
    } else {
        code
    };
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
                whole.trim_matches(['(', ')', '|', ';', '&', '`', '$', ' '])
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
        // A path given as parts (`".gem", "credentials"`) is shown as the path.
        let parts;
        let found = if found.contains(',') {
            parts = found
                .split(',')
                .map(|p| p.trim().trim_matches(['"', '\'']))
                .collect::<Vec<_>>()
                .join("/");
            parts.as_str()
        } else {
            found
        };
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
    if let Some(src) = typed(code, at) {
        return Some(src);
    }
    if let Some(src) = printed_credential(code, at) {
        return Some(src);
    }
    None
}

/// A secret-named variable `code` reads by its name ([`NAMED_ENV`]).
pub(super) fn named_env(code: &str, at: usize) -> Option<Source> {
    for c in NAMED_ENV.captures_iter(code) {
        let name = c.iter().skip(1).flatten().next().map_or("", |m| m.as_str());
        if secret_name(name) {
            return Some(secret(name, at));
        }
    }
    None
}

// --- sinks ---------------------------------------------------------------------------------

pub(super) static NET_SINK: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?x)(?P<http>\b(curl|wget|xh|aria2c)\b|\bhttp\s+(post|put|get|-f)\b|(?i:\b(invoke-webrequest|invoke-restmethod|iwr|irm)\b|net\.webclient|\.upload(string|file|data)\b)
        |\brequests\.(post|get|put|patch|request)\b|\bhttpx\.(post|get|put|patch|request|stream)\b|\b(session|client|http|sess|s)\.(post|put|patch)\s*\(
        |\burllib\.request\b|\burlopen\s*\(|\burllib\.request\.Request\b|http\.client|HTTPS?Connection|\baiohttp\b|\burllib3\b|\bpycurl\b
        |\bfetch\s*\(|\baxios\b|XMLHttpRequest|sendBeacon|\bhttps?\.(request|get)\s*\(|\bgot\s*[.(]|\bsuperagent\b|\$\.(ajax|post)\b|\bky\.(post|get)\b
        |Net::HTTP|HTTParty|Faraday|RestClient|URI\.open|LWP::UserAgent|LWP::Simple|HTTP::Tiny|\bsmtplib\b|\bsendmail\b|\bmail\s+-s\b|\bgh\s+gist\s+create\b|\bscp\b|\brsync\b|\bftp\b)
        |(?P<raw>\b(nc|ncat|netcat|socat|telnet)\b|IO::Socket::(INET6?|IP|SSL)\b|\bTCPSocket\.(new|open)\b|/dev/(tcp|udp)/|\bsocket\.(socket|create_connection)\b|\.send(all|to)\s*\(|\b(s|sk|sock\w*|\w*[Ss]ocket\w*|conn\w*|\w*_conn|ws|tcp\w*|udp\w*|peer)\.send\s*\(|\bnet\.(connect|Socket|createConnection)\b|\bdgram\b|(?i:tcpclient|udpclient))
        |(?P<dns>\b(dig|nslookup|drill|resolvectl|ping)\s|(^|[|;&]\s*|\$\()host\s+[^=\s]|\bgetaddrinfo\b|\bgethostbyname(_ex)?\b|\bdns\.(resolve\w*|lookup)\b|\bresolver\.(resolve|query)\b|(?i:resolve-dnsname)|\bdns\.resolver\b)",
    )
});

pub(super) static EXEC_SINK: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?x)\b(exec|eval|execfile|compile)\s*\(|\bFunction\s*\(|\beval\s|\b(ba|z|da|k)?sh\s+-c\b|\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\|\s*python[0-9.]*\b|(?i:\b(iex|invoke-expression)\b)
        |\bsource\s|\bsubprocess\.(run|call|Popen|check_output|check_call)|\bos\.(system|popen)|\bexecSync\b|\bspawnSync\b|\bsystem\s*\(|\bvm\.run\w*|\binstance_eval\b",
    )
});

pub(super) static DECODE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?x)\b(b64decode|b32decode|b16decode|a85decode|b85decode|decodebytes|decodestring|unhexlify|fromhex|atob|decode64|strict_decode64|decode_base64)\b|(?i:frombase64string)
        |\bbase64\s+(-\w+\s+)*(-d|--decode|-D)\b|\bxxd\s+(-\w+\s+)*-r|\bBuffer\.from\s*\([^)]*['"](base64|hex)['"]|\bcodecs\.decode\b|\bzlib\.decompress\b|\bmarshal\.loads\b"#,
    )
});

pub(super) static WRITE_READABLE: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(>>?\s*|\btee\s+(-a\s+)?|open\(\s*|writeFile(Sync)?\(\s*|write_text|Out-File\s+|Set-Content\s+|Add-Content\s+|\.save\(\s*|\bcp\s+(-\w+\s+)*\S+\s+|\bshutil\.copy\w*\([^,]*,\s*|Copy-Item\s+\S+\s+(-Destination\s+)?)['"]?(?P<path>(/tmp|/var/tmp|/dev/shm|/var/www|/srv/www|\$TMPDIR|\$env:TEMP|C:\\Users\\Public|~/Public|\$HOME/Public|\./public/|public/|www/|static/)[^\s'")]*)"#,
    )
});

/// A host a stranger controls or that hides who runs it: paste sites, request bins, webhooks,
/// tunnels.
pub(super) const DROP_HOSTS: &[&str] = &[
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
    if crate::lint::flow::reputation::under_any(&host, DROP_HOSTS) {
        return Some(format!("`{host}`, where anyone can receive"));
    }
    let ip = host.bytes().all(|b| b.is_ascii_digit() || b == b'.') && host.contains('.');
    if (ip && !host.starts_with("127.")) || host.starts_with('[') {
        return Some(format!("the bare address `{host}`"));
    }
    None
}

pub(super) static URL: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(r#"(?i)\b(https?|wss?|ftp|tcp|udp)://([^/\s'"`)\]>:?#@]+@)?([^/\s'"`)\]>:?#,;]+)"#)
});

pub(super) static RAW_HOST: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"/dev/(?:tcp|udp)/([^/\s]+)/|\b(?:nc|ncat|netcat|telnet)\s+(?:-\w+\s+)*([A-Za-z0-9][\w.-]*\.[A-Za-z]{2,}|\d+\.\d+\.\d+\.\d+)\s",
    )
});

/// Services where anyone may read what a bot or webhook posts: known services, but no place for
/// another service's credential.
pub(super) fn chat_service(host: &str) -> bool {
    matches!(
        owner_label(&host.to_ascii_lowercase()),
        "telegram" | "discord" | "discordapp" | "slack" | "ntfy" | "pushover" | "pushbullet"
    )
}

/// Hosts named in `text`.
pub(super) fn hosts(text: &str) -> Vec<String> {
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
pub(super) const ALIASES: &[(&str, &[&str])] = &[
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
pub(super) fn owner_label(host: &str) -> &str {
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

/// Whether the secret named `name` (`EXAMPLE_API_TOKEN`) belongs at `host` by its vendor words.
pub fn named_secret_belongs(name: &str, host: &str) -> bool {
    let vendors = vendor_words(name);
    !vendors.is_empty() && belongs(&vendors, host)
}

/// Whether a secret whose name has the vendor words `vendors` belongs at `host`.
pub(super) fn belongs(vendors: &[String], host: &str) -> bool {
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
            || abbreviates(v, owner)
    })
}

/// Whether `word` abbreviates the domain label `owner`: its letters in order, the first one
/// first, at least four of them, and most of the label's consonants (`APCA` is Alpaca's;
/// `GH` is no one's by this).
fn abbreviates(word: &str, owner: &str) -> bool {
    if word.len() < 4 || word.len() >= owner.len() || !owner.starts_with(&word[..1]) {
        return false;
    }
    let mut letters = owner.chars();
    word.chars().all(|c| letters.any(|o| o == c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_belong_to_their_vendor() {
        assert!(belongs(&vendor_words("OPENAI_API_KEY"), "api.openai.com"));
        // An abbreviation of the vendor's name: Alpaca's keys are `APCA_…`.
        assert!(belongs(
            &vendor_words("APCA_API_KEY_ID"),
            "paper-api.alpaca.markets"
        ));
        assert!(!belongs(
            &vendor_words("APCA_API_KEY_ID"),
            "collector.example"
        ));
        assert!(!belongs(&vendor_words("GITHUB_TOKEN"), "hub.example"));
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

    #[test]
    fn passwords_typed_and_credentials_printed_are_sources() {
        let kind =
            |code: &str| source_in(code, &[], &HashSet::new(), &HashMap::new(), 0).map(|s| s.kind);
        assert_eq!(
            kind(r#"pw = getpass.getpass("Password: ")"#),
            Some(SourceKind::Secret(Vec::new()))
        );
        assert_eq!(
            kind("$p = Read-Host 'Password' -AsSecureString"),
            Some(SourceKind::Secret(Vec::new()))
        );
        // `osascript`'s password dialog is no way for a skill to ask: judged as a store.
        assert_eq!(
            kind(
                r#"$(osascript -e 'display dialog "Update" default answer "" with hidden answer')"#
            ),
            Some(SourceKind::Store)
        );
        assert!(typed(r#"read -r -s -p "Password: " pass"#, 0).is_some());
        assert!(typed("read -r line < file", 0).is_none());
        assert_eq!(
            kind("t=$(gh auth token)"),
            Some(SourceKind::Secret(vec!["github".into()]))
        );
        assert_eq!(
            kind(r#"subprocess.run(["gh", "auth", "token"], capture_output=True)"#),
            Some(SourceKind::Secret(vec!["github".into()]))
        );
        assert_eq!(
            kind("a=$(gcloud auth print-access-token)"),
            Some(SourceKind::Secret(vec!["google".into()]))
        );
        assert_eq!(
            kind("printf 'host=x\n' | git credential fill"),
            Some(SourceKind::Store)
        );
        assert_eq!(kind("gh auth status"), None);
        // A chat is a known service, but no place for GitHub's token.
        assert!(chat_service("api.telegram.org") && chat_service("discord.com"));
        assert!(!chat_service("api.github.com"));
    }
}
