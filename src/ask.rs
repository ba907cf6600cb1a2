//! Questions asked at a terminal (skills to pick, agents, a confirmation), and the rule that
//! nothing is ever asked elsewhere: without a terminal a command either has the answer from its
//! flags or stops and names the flag to pass.

use std::io::IsTerminal;

use dialoguer::console::Term;

use crate::hint::Hint;
use crate::output::Printer;
use crate::picker::{self, Answer, Entry};
use crate::project::{Scope, Target, shown};
use crate::source::discover::Offered;

pub fn terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// A question that could not be asked or was not answered; nothing was installed.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// `what` is asked for (`answer`, `query`).
    #[error("cannot read the {what}")]
    Terminal {
        what: &'static str,
        #[source]
        source: dialoguer::Error,
    },
    #[error("no skill selected; nothing was installed")]
    NoSkill,
    #[error("no agent selected; nothing was installed")]
    NoAgent,
    #[error("not installing without confirmation, and there is no terminal to ask on")]
    NoTerminal,
    /// `what` did not happen: `installed`, `removed`, `synced`.
    #[error("cancelled; nothing was {0}")]
    Cancelled(&'static str),
    /// Esc (or ctrl-c) in a picker: not an error, the user's choice (exit status 130).
    #[error("cancelled, nothing installed")]
    Escaped,
    #[error(transparent)]
    Targets(#[from] crate::project::ProjectError),
}

impl Hint for AskError {
    fn hint(&self) -> Option<String> {
        match self {
            AskError::NoTerminal => Some(
                "pass `-y` to confirm (with `--skill` and `-a` to choose skills and agents)".into(),
            ),
            AskError::Targets(err) => err.hint(),
            _ => None,
        }
    }
}

fn prompt_io(source: std::io::Error) -> AskError {
    prompt_error(dialoguer::Error::IO(source))
}

fn prompt_error(source: dialoguer::Error) -> AskError {
    AskError::Terminal {
        what: "answer",
        source,
    }
}

/// Asks which of the offered skills to install (one offered skill is not asked about).
pub fn pick_skills(offered: &[Offered], show_internal: bool) -> Result<Vec<Offered>, AskError> {
    let visible: Vec<&Offered> = offered
        .iter()
        .filter(|s| show_internal || !s.internal)
        .collect();
    if let [one] = visible.as_slice() {
        return Ok(vec![(*one).clone()]);
    }
    let entries = visible
        .iter()
        .map(|s| Entry {
            name: s.name.clone(),
            detail: crate::output::single_line(&s.description, usize::MAX),
            selected: false,
        })
        .collect();
    match picker::pick(&Term::stderr(), "Skills to install", entries).map_err(prompt_io)? {
        Answer::Picked(indexes) if !indexes.is_empty() => {
            Ok(indexes.into_iter().map(|i| visible[i].clone()).collect())
        }
        Answer::Picked(_) => Err(AskError::NoSkill),
        Answer::Cancelled => Err(AskError::Escaped),
    }
}

/// Asks which installed skills to remove (`skills remove` with no names at a terminal, as the
/// reference does): `(name, where)` pairs, the chosen names in list order.
pub fn pick_installed(installed: &[(String, String)]) -> Result<Vec<String>, AskError> {
    let entries = installed
        .iter()
        .map(|(name, detail)| Entry {
            name: name.clone(),
            detail: detail.clone(),
            selected: false,
        })
        .collect();
    match picker::pick(&Term::stderr(), "Skills to remove", entries).map_err(prompt_io)? {
        Answer::Picked(indexes) if !indexes.is_empty() => Ok(indexes
            .into_iter()
            .map(|i| installed[i].0.clone())
            .collect()),
        Answer::Picked(_) | Answer::Cancelled => Err(AskError::Cancelled("removed")),
    }
}

/// Asks which agents to install for; the ones `add` would pick by itself are preselected.
pub fn pick_agents(scope: &Scope) -> Result<Vec<Target>, AskError> {
    let defaults: Vec<&str> = scope
        .default_targets()
        .iter()
        .flat_map(|t| t.agents.clone())
        .collect();
    let agents: Vec<&crate::agents::Agent> = crate::agents::AGENTS
        .iter()
        .filter(|a| (!a.hidden || defaults.contains(&a.id)) && scope.agent_dir(a).is_some())
        .collect();
    let entries = agents
        .iter()
        .map(|a| Entry {
            name: a.display_name.to_owned(),
            detail: scope
                .agent_dir(a)
                .map(|d| shown(&d, scope))
                .unwrap_or_default(),
            selected: defaults.contains(&a.id),
        })
        .collect();
    match picker::pick(&Term::stderr(), "Agents to install for", entries).map_err(prompt_io)? {
        Answer::Picked(indexes) if !indexes.is_empty() => {
            let ids: Vec<String> = indexes
                .into_iter()
                .map(|i| agents[i].id.to_owned())
                .collect();
            Ok(scope.targets_for(&ids)?)
        }
        Answer::Picked(_) => Err(AskError::NoAgent),
        Answer::Cancelled => Err(AskError::Escaped),
    }
}

pub fn confirm_install(
    yes: bool,
    planned: &[&crate::install::Candidate],
    targets: &[Target],
    scope: &Scope,
    printer: &Printer,
) -> Result<(), AskError> {
    if yes {
        return Ok(());
    }
    if !terminal() {
        return Err(AskError::NoTerminal);
    }
    let dirs: Vec<String> = targets.iter().map(|t| shown(&t.dir, scope)).collect();
    let names: Vec<&str> = planned.iter().map(|p| p.name.as_str()).collect();
    printer.status(format_args!(
        "Install {} into {}?",
        names.join(", "),
        dirs.join(", ")
    ));
    if yes_no("Proceed", true)? {
        Ok(())
    } else {
        Err(AskError::Cancelled("installed"))
    }
}

/// Asks a yes/no question on stderr.
pub fn yes_no(question: &str, default: bool) -> Result<bool, AskError> {
    dialoguer::Confirm::new()
        .with_prompt(question)
        .default(default)
        .interact_on(&dialoguer::console::Term::stderr())
        .map_err(prompt_error)
}
