//! `skills`: install, validate, pin and serve Agent Skills for every coding agent.
//!
//! The binary is a thin wrapper over [`run`]; every command works on the same [`index::SkillIndex`].
//! Nothing in this library prints directly: all output goes through [`output::Printer`], which keeps
//! stdout for data (and for JSON-RPC in `serve --stdio`).

pub mod agents;
pub mod ask;
pub mod cli;
pub mod commands;
pub mod drift;
pub mod env_vars;
pub mod error;
pub mod fsutil;
pub mod gate;
pub mod hint;
pub mod index;
pub mod install;
pub mod json;
pub mod lint;
pub mod lock;
pub mod mcp;
pub mod offered;
pub mod output;
pub mod picker;
pub mod project;
pub mod prompt;
pub mod relpath;
pub mod settings;
pub mod skill;
pub mod source;
pub mod trust;
pub mod upstream;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;

pub use error::{Error, ExitStatus};

/// Parses `args`, runs the command, prints the error (once) and maps the outcome to an exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    // A Tab in a shell with the dynamic completion loaded: answer it and nothing else.
    match commands::completions::dynamic(&args) {
        Ok(true) => return ExitStatus::Success.into(),
        Ok(false) => {}
        Err(err) => {
            let _ = err.print();
            return ExitStatus::Error.into();
        }
    }
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // `--help` and `--version` are not errors; clap prints them to stdout.
            let code = if err.use_stderr() {
                ExitStatus::Error
            } else {
                ExitStatus::Success
            };
            let _ = err.print();
            return code.into();
        }
    };
    let printer = output::Printer::new(&settings::output(&cli.global));
    match commands::dispatch(cli, &printer) {
        Ok(status) => status.into(),
        Err(err) if err.is_broken_pipe() => ExitStatus::Success.into(),
        // The user's own choice, said once, not as an error.
        Err(err) if err.status() == ExitStatus::Cancelled => {
            printer.status(&err);
            ExitStatus::Cancelled.into()
        }
        Err(err) => {
            printer.error(&err);
            err.status().into()
        }
    }
}
