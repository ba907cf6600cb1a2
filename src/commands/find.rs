//! `skills find [QUERY]`: the skills.sh directory search, as a table with the command that
//! installs each result. Network and API failures are errors (the reference prints "No skills
//! found" on any error).

use std::io::IsTerminal;

use serde::{Deserialize, Serialize};

use crate::cli::FindArgs;
use crate::error::{Error, ExitStatus};
use crate::output::Printer;
use crate::source::http::Http;

const DEFAULT_API: &str = "https://skills.sh";

/// One search result as the API gives it.
#[derive(Debug, Deserialize)]
struct Found {
    #[serde(default)]
    id: Option<String>,
    name: String,
    #[serde(default)]
    installs: Option<u64>,
    source: String,
}

/// `find --json`: the query and each result with the command that installs it.
#[derive(Serialize)]
struct JsonFound<'a> {
    version: u32,
    query: &'a str,
    skills: Vec<JsonFoundSkill<'a>>,
}

#[derive(Serialize)]
struct JsonFoundSkill<'a> {
    id: Option<&'a str>,
    name: &'a str,
    source: &'a str,
    installs: Option<u64>,
    install: String,
}

#[derive(Debug, Deserialize)]
struct Response {
    skills: Vec<Found>,
}

/// The query: the arguments, else asked for on a terminal.
fn query(args: &FindArgs) -> Result<String, Error> {
    let typed = args.query.join(" ").trim().to_owned();
    if !typed.is_empty() {
        return Ok(typed);
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(Error::msg("no query given").with_hint("`skills find pdf`"));
    }
    Ok(dialoguer::Input::<String>::new()
        .with_prompt("Search skills")
        .interact_text_on(&dialoguer::console::Term::stderr())
        .map_err(|source| crate::ask::AskError::Terminal {
            what: "query",
            source,
        })?)
}

pub fn run(args: &FindArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let query = query(args)?;
    let base = std::env::var(crate::env_vars::SKILLS_API_URL)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_API.to_owned());
    let mut url = reqwest::Url::parse(&format!("{}/api/search", base.trim_end_matches('/')))
        .map_err(|_| Error::msg(format!("SKILLS_API_URL `{base}` is not a URL")))?;
    url.query_pairs_mut()
        .append_pair("q", &query)
        .append_pair("limit", &args.limit.to_string());
    if let Some(owner) = &args.owner {
        url.query_pairs_mut().append_pair("owner", owner);
    }
    let http = Http::new(false).map_err(Error::Search)?;
    let body = http.get(url.as_str(), 8 << 20).map_err(Error::Search)?;
    let response: Response = serde_json::from_slice(&body).map_err(|err| {
        let head = String::from_utf8_lossy(&body[..body.len().min(60)]).replace('\n', " ");
        Error::msg(format!(
            "the search API at `{base}` did not answer with its JSON"
        ))
        .with_hint(format!("it answered `{head}…` ({err})"))
    })?;
    let install = |found: &Found| format!("skills add {}@{}", found.source, found.name);
    if args.json {
        let document = JsonFound {
            version: crate::json::VERSION,
            query: &query,
            skills: response
                .skills
                .iter()
                .map(|f| JsonFoundSkill {
                    id: f.id.as_deref(),
                    name: &f.name,
                    source: &f.source,
                    installs: f.installs,
                    install: install(f),
                })
                .collect(),
        };
        crate::json::print(&document, printer)?;
        return Ok(ExitStatus::Success);
    }
    if response.skills.is_empty() {
        printer.status(format_args!("no skills match `{query}`"));
        return Ok(ExitStatus::Success);
    }
    let mut table = crate::output::Table::new(&["Name", "Source", "Installs", "Install with"]);
    for found in &response.skills {
        table.row([
            found.name.clone(),
            found.source.clone(),
            found.installs.map_or_else(String::new, |n| n.to_string()),
            install(found),
        ]);
    }
    printer.table(&table)?;
    printer.status(format_args!(
        "{} result(s) for `{query}`",
        response.skills.len()
    ));
    Ok(ExitStatus::Success)
}
