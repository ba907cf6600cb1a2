//! `skills completions <shell>`: a completion script generated from the clap definitions.
//!
//! The script completes the agent ids `-a/--agent` takes (and `*`), from the agent table: they
//! are possible values of the command the script is generated from, not of the one that parses
//! (which says "did you mean" itself, with its own exit code). Installed skill names change with
//! every `add`, so a static script cannot hold them: the dynamic completion does
//! (`source <(SKILLS_COMPLETE=bash skills)`), clap's `CompleteEnv` protocol on the same command
//! line, where the arguments that take installed names (`remove`, `check`, `update`, `prompt
//! --skill`) ask the disk for them at each Tab. The static scripts stay for packagers
//! (`completions/`), and are the same files with or without the dynamic one.

use std::collections::BTreeSet;
use std::ffi::OsString;

use clap::CommandFactory;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use crate::cli::{Cli, CompletionsArgs};
use crate::error::{Error, ExitStatus};
use crate::output::Printer;

/// Answers a completion request when `SKILLS_COMPLETE` is set (`true`: the run is over), printing
/// the shell's registration script or the candidates for the words the shell passed.
/// An error is clap's (an unknown shell), printed as clap prints its own.
pub fn dynamic(args: &[OsString]) -> Result<bool, clap::Error> {
    let cwd = std::env::current_dir().ok();
    clap_complete::CompleteEnv::with_factory(dynamic_command)
        .var(crate::env_vars::SKILLS_COMPLETE)
        .try_complete(args.iter().cloned(), cwd.as_deref())
}

pub fn run(args: &CompletionsArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, &mut command(), "skills", &mut buffer);
    printer.data(&String::from_utf8_lossy(&buffer))?;
    Ok(ExitStatus::Success)
}

/// The command line completion scripts are generated from: the CLI, with the agent ids as the
/// values of every `--agent`.
pub fn command() -> clap::Command {
    let ids: Vec<&'static str> = std::iter::once("*")
        .chain(crate::agents::AGENTS.iter().map(|a| a.id))
        .collect();
    let with_agents = |mut command: clap::Command| {
        if command.get_arguments().any(|a| a.get_id() == "agents") {
            command = command.mut_arg("agents", |arg| {
                arg.value_parser(clap::builder::PossibleValuesParser::new(ids.clone()))
                    .hide_possible_values(true)
            });
        }
        command
    };
    let mut cli = Cli::command();
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        cli = cli.mut_subcommand(name, with_agents);
    }
    cli
}

/// The command line of the dynamic completion: [`command`], with installed skill names as the
/// candidates of the arguments that name installed skills. Kept apart from the static scripts'
/// command, whose files stay as they are (clap moves a changed argument to the end).
fn dynamic_command() -> clap::Command {
    let mut cli = command();
    for (subcommand, arg) in INSTALLED_NAMES {
        cli = cli.mut_subcommand(subcommand, |command| {
            command.mut_arg(arg, |arg| arg.add(ArgValueCandidates::new(installed_names)))
        });
    }
    cli
}

/// The arguments whose values are installed skill names: (subcommand, argument id).
const INSTALLED_NAMES: &[(&str, &str)] = &[
    ("remove", "names"),
    ("remove", "skills"),
    ("check", "names"),
    ("update", "names"),
    ("prompt", "skill"),
];

/// The names of the skills installed in the project (found from the working directory, as every
/// command finds it) and the user's, and of those their lockfiles list, with each skill's
/// description where it has one. Quiet and best effort: a Tab never prints an error.
fn installed_names() -> Vec<CompletionCandidate> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut described: Vec<CompletionCandidate> = Vec::new();
    for global in [false, true] {
        let Ok(scope) = crate::project::Scope::new(global) else {
            continue;
        };
        if let Ok(index) = crate::index::SkillIndex::build_with(
            scope.roots(),
            &crate::index::NameFilter::default(),
            crate::skill::Load::Frontmatter,
        ) {
            for entry in &index.entries {
                let name = entry.name();
                if names.insert(name.clone()) {
                    let help = entry
                        .skill
                        .as_ref()
                        .ok()
                        .and_then(crate::skill::Skill::description);
                    described.push(
                        CompletionCandidate::new(name).help(help.map(|h| first_line(&h).into())),
                    );
                }
            }
        }
        if let Ok(lock) = scope.read_lock() {
            for name in lock.skills.into_keys() {
                if names.insert(name.clone()) {
                    described.push(CompletionCandidate::new(name));
                }
            }
        }
    }
    described.sort_by(|a, b| a.get_value().cmp(b.get_value()));
    described
}

/// The first line of a description, cut to what fits beside a name in a completion menu.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}
