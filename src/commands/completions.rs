//! `skills completions <shell>`: a completion script generated from the clap definitions.

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::{Error, ExitStatus};
use crate::output::Printer;

pub fn run(args: &CompletionsArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "skills", &mut buffer);
    printer.data(&String::from_utf8_lossy(&buffer))?;
    Ok(ExitStatus::Success)
}
