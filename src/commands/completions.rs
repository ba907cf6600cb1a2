//! `skills completions <shell>`: a completion script generated from the clap definitions.
//!
//! The script completes the agent ids `-a/--agent` takes (and `*`), from the agent table: they
//! are possible values of the command the script is generated from, not of the one that parses
//! (which says "did you mean" itself, with its own exit code). Installed skill names change with
//! every `add`, so a static script cannot hold them.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::{Error, ExitStatus};
use crate::output::Printer;

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
