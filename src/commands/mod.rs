//! Dispatch: one file per subcommand, each `run(args, &Printer) -> Result<ExitStatus>`; the
//! commands that install resolve their arguments into [`crate::settings`] first.

pub mod add;
pub mod cache;
pub mod check;
pub mod completions;
pub mod doctor;
pub mod find;
pub mod init;
pub mod install;
pub mod lint;
pub mod list;
pub mod manifest;
pub mod prompt;
pub mod remove;
pub mod serve;
pub mod sync;
pub mod update;
pub mod use_skill;

use crate::cli::{Cli, Command, IndexArgs};
use crate::error::{Error, ExitStatus};
use crate::index::{NameFilter, SkillIndex};
use crate::output::Printer;
use crate::skill::Load;

pub fn dispatch(cli: Cli, printer: &Printer) -> Result<ExitStatus, Error> {
    match cli.command {
        Command::Lint(args) => lint::run(&args, printer),
        Command::Prompt(args) => prompt::run(&args, printer),
        Command::List(args) => list::run(&args, printer),
        Command::Init(args) => init::run(&args, printer),
        Command::Serve(args) => serve::run(&args, printer),
        Command::Add(args) => add::run(&args, printer),
        Command::Remove(args) => remove::run(&args, printer),
        Command::Find(args) => find::run(&args, printer),
        Command::Install(args) => match install::as_add(&args)? {
            Some(settings) => add::install_from(&settings, printer),
            None => install::run(&args, printer),
        },
        Command::Check(args) => check::run(&args, printer),
        Command::Update(args) => update::run(&args, printer),
        Command::Manifest(args) => manifest::run(&args, printer),
        Command::Use(args) => use_skill::run(&args, printer),
        Command::Sync(args) => sync::run(&args, printer),
        Command::Doctor(args) => doctor::run(&args, printer),
        Command::Cache(args) => cache::run(&args, printer),
        Command::Completions(args) => completions::run(&args, printer),
    }
}

pub use crate::project::current_dir;

/// The project whose agent dirs are the default roots: found from the working directory (and
/// said, when it is another folder) unless paths are given or only the user's dirs are searched.
pub fn project_of(args: &IndexArgs, printer: &Printer) -> Result<std::path::PathBuf, Error> {
    if !args.paths.is_empty() || args.global {
        return Ok(current_dir()?);
    }
    let root = crate::project::ProjectRoot::locate()?;
    root.announce(printer);
    Ok(root.path)
}

/// What a command searches when no path is given and `-g` is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defaults {
    /// The project's agent dirs, then the user's (what the agents see: `prompt` on stdout).
    ProjectThenUser,
    /// The project's agent dirs only: a project's check (`lint` in CI) or a committed file
    /// (`prompt --write`) is about the project, never about one user's `-g` skills.
    ProjectOnly,
}

/// Builds the index the command line asks for, and says on stderr what was shadowed or could not
/// be searched.
pub fn build_index(
    args: &IndexArgs,
    load: Load,
    printer: &Printer,
    defaults: Defaults,
) -> Result<SkillIndex, Error> {
    let filter = NameFilter::new(&args.include, &args.exclude)?;
    let project = project_of(args, printer)?;
    let roots = if args.paths.is_empty() && !args.global && defaults == Defaults::ProjectOnly {
        crate::index::project_roots(&project)
    } else {
        SkillIndex::roots(&args.paths, args.global, &project)?
    };
    printer.debug(format_args!(
        "searching {}",
        roots
            .iter()
            .map(|r| format!("`{}`", r.path.display()))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let index = SkillIndex::build_with(roots, &filter, load)?;
    for entry in index.entries.iter().filter(|e| e.shadowed_by.is_some()) {
        if let Some(winner) = entry.shadowed_by.and_then(|i| index.entries.get(i)) {
            printer.debug(format_args!(
                "`{}` is shadowed by `{}`",
                entry.dir.display(),
                winner.dir.display()
            ));
        }
    }
    Ok(index)
}
