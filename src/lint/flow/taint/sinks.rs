//! What reaches a sink: findings of exfiltration, decoded text run, and tampering.

use crate::lint::exec::ascii_regex;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::*;

/// Deleting the home folder, or writing or deleting the agent's configuration or other skills,
/// through names that hold them.
pub(super) fn tamper(state: &State, unit: &UnitStmts, s: &Stmt, hits: &mut Vec<Hit>, text: &str) {
    if hits.len() >= crate::lint::flow::MAX_HITS {
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
            "`{}` deletes `{}`, the home folder (line {line})",
            op.as_str().trim(),
            shown(name)
        )
    } else if let Some(name) = held(Loc::Agent) {
        let line = line_of(text, state.locs[name.as_str()].1);
        format!(
            "`{}` changes `{}`, the agent's configuration or its skills (line {line})",
            op.as_str().trim(),
            shown(name)
        )
    } else if agent_config(&s.code)
        && (s.code.contains("settings")
            || s.code.contains("mcp")
            || s.code.contains("*/SKILL.md")
            || s.code.contains("hooks"))
        && !s.code.trim_start().starts_with("cat ")
        && !crate::lint::flow::behaviour::copies_from_agent_dir_only(&s.code)
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

/// A name as the file spells it: a Python function's local without its function
/// (`stmt::scope_locals`).
pub(super) fn shown(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

pub(super) fn line_of(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..at.min(text.len())]).count() + 1
}

pub(super) fn sinks(state: &State, unit: &UnitStmts, s: &Stmt, hits: &mut Vec<Hit>, text: &str) {
    if hits.len() >= crate::lint::flow::MAX_HITS {
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
                    "`{}`, decoded at line {}, is run by `{}`",
                    shown(name),
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
            let tail = s.code.split_once(&format!("{}.", shown(r)))?.1;
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
            && !(unit.lang == Lang::Shell && output_holds_no_secret(&s.code))
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
    let Some(mut src) = state.taint_of(s, 0, at) else {
        static SUBDOMAIN_DATA: LazyLock<Regex> = LazyLock::new(|| {
            ascii_regex(r"(\$\w+|\$\{\w+\}|\$\([^)]*\)|\{[^}]+\})\.[A-Za-z0-9-]+\.[A-Za-z]{2,}")
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
    // A `.env` file read for the line of one named key (`line.startswith("OPENROUTER_API_KEY=")`)
    // gives that key: sent to its own service, it is the service's credential going home.
    if src.kind == SourceKind::Store
        && src.what.contains(".env")
        && let Some(name) = selected_env_key(text, |name| {
            let vendors = vendor_words(name);
            dest.iter().any(|(h, _)| belongs(&vendors, h))
        })
    {
        src = sources::secret(name, src.at);
    }
    // A bot's own token sent to its chat (`TELEGRAM_BOT_TOKEN` to `api.telegram.org`) is the
    // service's credential going home, even where anyone may receive what is posted.
    // Only when nothing else the statement reads is a secret of another kind.
    let owned = |kind: &SourceKind, h: &str| matches!(kind, SourceKind::Secret(v) if !v.is_empty() && belongs(v, h));
    let own = |h: &str| {
        owned(&src.kind, h)
            && s.refs.iter().all(|r| {
                let name = r.strip_prefix("env:").unwrap_or(r);
                (!secret_name(name) || owned(&SourceKind::Secret(vendor_words(name)), h))
                    && state
                        .taint
                        .get(r.as_str())
                        .is_none_or(|t| owned(&t.kind, h))
            })
    };
    let bad = dest
        .iter()
        .find_map(|(h, _)| bad_host(h).filter(|_| !own(h)));
    if let SourceKind::Secret(vendors) = &src.kind
        && kind == "request"
        && bad.is_none()
    {
        let known: Vec<&String> = dest.iter().map(|(h, _)| h).collect();
        let fits = if known.is_empty() {
            !vendors.iter().any(|v| NEVER_SENT.contains(&v.as_str()))
        } else {
            // Its vendor's host, a known service, or an address the user configures.
            // A vendor's secret posted to a chat (a Telegram bot, a Discord webhook) is not
            // that chat's.
            known.iter().any(|h| {
                belongs(vendors, h)
                    || (crate::lint::flow::reputation::service(h)
                        && (vendors.is_empty() || !chat_service(h)))
                    || h.starts_with('$')
            })
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

/// A secret's name `text` selects a line of a `.env` file by (`"NAME="`, quoted, with its
/// equals sign) that `fits`.
fn selected_env_key(text: &str, fits: impl Fn(&str) -> bool) -> Option<&str> {
    static SELECTED: LazyLock<Regex> =
        LazyLock::new(|| ascii_regex(r#"["'`]([A-Z][A-Z0-9_]{2,63})=["'`]"#));
    SELECTED
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .find(|name| secret_name(name) && fits(name))
}

pub(super) const EXFIL_HELP: &str = "a skill sends a secret only to the service it belongs to, and never the environment, credential files or keychains";

/// Whether a shell command's redirected output cannot hold the secret it is given: the secret
/// is only the value of a credential option (`vercel deploy --token "$T" > url.txt`,
/// `curl -H "Authorization: Bearer $T" … > out.json`), and the program is not one that prints
/// its arguments or runs code it is given (`echo`, `printf`, `python -c`).
fn output_holds_no_secret(code: &str) -> bool {
    static CREDENTIAL_OPTION: LazyLock<Regex> = LazyLock::new(|| {
        ascii_regex(
            r#"(?i)(--?(token|auth|auth-token|api-key|apikey|key|secret|password|passwd|pass|user|header|H|u|p)(=|\s+)|\bauthorization:\s*(bearer|token|basic)?\s*)["']?\$\{?\w+\}?["']?"#,
        )
    });
    let Some((command, _)) = code.split_once('>') else {
        return false;
    };
    let program = command
        .split_whitespace()
        .find(|w| !w.contains('='))
        .unwrap_or("")
        .rsplit('/')
        .next()
        .unwrap_or("");
    let prints = matches!(
        program,
        "echo"
            | "printf"
            | "cat"
            | "env"
            | "printenv"
            | "print"
            | "set"
            | "export"
            | "declare"
            | "tee"
            | "eval"
            | "sh"
            | "bash"
            | "zsh"
            | "dash"
            | "ksh"
            | "python"
            | "python3"
            | "node"
            | "perl"
            | "ruby"
            | "php"
            | "deno"
            | "bun"
            | "pwsh"
            | "powershell"
    );
    !prints && command.contains('$') && !CREDENTIAL_OPTION.replace_all(command, "").contains('$')
}
