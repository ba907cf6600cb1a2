//! `skills serve --stdio`: the MCP server on the project's (or given) skills.

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::cli::ServeArgs;
use crate::error::{Error, ExitStatus};
use crate::index::{NameFilter, SkillIndex};
use crate::mcp::{self, Roots, Settings, snapshot::Limits};
use crate::output::Printer;

pub fn run(args: &ServeArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let cwd = super::current_dir()?;
    // Roots: the paths given, else SKILLS_DIR (comma-separated, as skill-to-mcp), else the
    // default agent dirs.
    let mut paths = args.index.paths.clone();
    if paths.is_empty()
        && let Some(dirs) = std::env::var_os(crate::env_vars::SKILLS_DIR).filter(|v| !v.is_empty())
    {
        paths = dirs
            .to_string_lossy()
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .collect();
    }
    let roots = if paths.is_empty() {
        Roots::Default {
            project: super::project_of(&args.index, printer)?,
            global_only: args.index.global,
        }
    } else {
        Roots::Given(SkillIndex::roots(&paths, args.index.global, &cwd)?)
    };
    let filter = NameFilter::new(&args.index.include, &args.index.exclude)?;
    let settings = Settings {
        roots,
        filter,
        watch: !args.no_watch,
        limits: Limits {
            max_file: args.max_file_size,
            ..Limits::default()
        },
    };
    if std::io::stdin().is_terminal() {
        // Started by hand: nothing will come until a client writes, which looks like a hang.
        printer.status(
            "waiting for an MCP client on stdin (an MCP client starts this command; ctrl-c stops it)",
        );
        printer.hint(
            r#"wire it into a client's MCP config: `"skills": {"command": "skills", "args": ["serve", "--stdio"]}`"#,
        );
    }
    mcp::run(settings, printer)?;
    Ok(ExitStatus::Success)
}
