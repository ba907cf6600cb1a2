//! Flags and environment resolved once, at the top, into plain settings (as uv's settings layer):
//! the commands get these, and nothing below `commands/` ever sees a clap type
//! (`tests/it/architecture.rs` checks it). Each domain owns the type of its settings
//! ([`crate::output::Options`], [`crate::gate::Policy`], [`crate::install::SourceLimits`]); this
//! module only fills them in from the command line and the environment.

use crate::cli;
use crate::gate;
use crate::install::{Limits, SourceLimits};
use crate::output;
use crate::source::web::WebLimits;

/// The global flags: what the printer does.
pub fn output(global: &cli::GlobalArgs) -> output::Options {
    output::Options {
        quiet: global.quiet,
        verbose: global.verbose,
        color: match global.color {
            cli::ColorChoice::Auto => output::ColorChoice::Auto,
            cli::ColorChoice::Always => output::ColorChoice::Always,
            cli::ColorChoice::Never => output::ColorChoice::Never,
        },
        progress: !global.no_progress,
    }
}

/// `--allow` and `--no-verify`.
pub fn gate(args: &cli::GateArgs) -> gate::Policy {
    gate::Policy {
        allow: args.allow.clone(),
        no_verify: args.no_verify,
    }
}

/// The size limits on what a source may bring.
pub fn limits(args: &cli::LimitArgs) -> SourceLimits {
    SourceLimits {
        skill: Limits {
            max_file_size: args.max_file_size,
            max_skill_size: args.max_skill_size,
            max_files: args.max_files,
        },
        web: WebLimits {
            download: args.max_download_size,
            extracted: args.max_extracted_size,
            files: args.max_files,
        },
    }
}

/// Whether `INSTALL_INTERNAL_SKILLS` asks to list `metadata.internal` skills.
pub fn show_internal() -> bool {
    std::env::var_os(crate::env_vars::INSTALL_INTERNAL_SKILLS)
        .is_some_and(|v| v == "1" || v == "true")
}

/// `skills add SOURCE` (and `skills install SOURCE`), resolved.
#[derive(Debug, Clone)]
pub struct Add {
    pub source: String,
    /// `--skill`, plus `*` for `--all`.
    pub skills: Vec<String>,
    pub agents: Vec<String>,
    pub subagents: Vec<String>,
    pub global: bool,
    pub copy: bool,
    pub yes: bool,
    pub all: bool,
    pub list: bool,
    pub dry_run: bool,
    pub force: bool,
    pub full_depth: bool,
    /// `--offline` or `SKILLS_OFFLINE`: the source from this machine only.
    pub offline: bool,
    pub json: bool,
    pub limits: SourceLimits,
    pub gate: gate::Policy,
    pub show_internal: bool,
}

impl Add {
    /// The settings of `add` with the source `source`, or `None` when no source is given.
    /// `--skill` and `--agent` take several values (`-a claude-code codex`, as the reference),
    /// so `skills add -a claude-code owner/repo` hands the source to `-a`. Skill names and
    /// agent ids never hold `/`, `:` or a leading `.`/`~`; a value that does is the source.
    pub fn resolve(
        source: Option<&String>,
        options: &cli::AddOptions,
        offline: bool,
    ) -> Option<Add> {
        let mut options = options.clone();
        let looks_like_source =
            |v: &String| v.contains(['/', ':', '\\']) || v.starts_with(['.', '~']);
        let source = match source {
            Some(source) => source.clone(),
            None => {
                if let Some(index) = options.agents.iter().rposition(looks_like_source) {
                    options.agents.remove(index)
                } else if let Some(index) = options.skills.iter().rposition(looks_like_source) {
                    options.skills.remove(index)
                } else {
                    return None;
                }
            }
        };
        Some(Add {
            source,
            skills: options.skills,
            agents: options.agents,
            subagents: options.subagents,
            global: options.global,
            copy: options.copy,
            yes: options.yes,
            all: options.all,
            list: options.list,
            dry_run: options.dry_run,
            force: options.force,
            full_depth: options.full_depth,
            offline: offline || crate::env_vars::offline(),
            json: options.json,
            limits: limits(&options.limits),
            gate: gate(&options.gate),
            show_internal: show_internal(),
        })
    }
}

/// `skills install` without a source: the lock restored.
#[derive(Debug, Clone)]
pub struct Restore {
    pub frozen: bool,
    /// `--offline` or `SKILLS_OFFLINE`.
    pub offline: bool,
    pub global: bool,
    pub force: bool,
    pub json: bool,
    pub limits: SourceLimits,
    pub gate: gate::Policy,
}

impl Restore {
    pub fn resolve(args: &cli::InstallArgs) -> Restore {
        Restore {
            frozen: args.frozen,
            offline: args.offline || crate::env_vars::offline(),
            global: args.options.global,
            force: args.options.force,
            json: args.options.json,
            limits: limits(&args.options.limits),
            gate: gate(&args.options.gate),
        }
    }
}

/// `skills update`.
#[derive(Debug, Clone)]
pub struct Update {
    pub names: Vec<String>,
    pub global: bool,
    pub project: bool,
    pub force: bool,
    pub json: bool,
    pub limits: SourceLimits,
    pub gate: gate::Policy,
}

impl Update {
    pub fn resolve(args: &cli::UpdateArgs) -> Update {
        Update {
            names: args.names.clone(),
            global: args.global,
            project: args.project,
            force: args.force,
            json: args.json,
            limits: limits(&args.limits),
            gate: gate(&args.gate),
        }
    }
}

/// `skills use`.
#[derive(Debug, Clone)]
pub struct Use {
    pub source: String,
    pub skill: Option<String>,
    pub agent: Option<String>,
    pub full_depth: bool,
    /// `--offline` or `SKILLS_OFFLINE`: the source from this machine only.
    pub offline: bool,
    pub json: bool,
    pub limits: SourceLimits,
    pub gate: gate::Policy,
    pub show_internal: bool,
}

impl Use {
    pub fn resolve(args: &cli::UseArgs) -> Use {
        Use {
            source: args.source.clone(),
            skill: args.skill.clone(),
            agent: args.agent.clone(),
            full_depth: args.full_depth,
            offline: args.offline || crate::env_vars::offline(),
            json: args.json,
            limits: limits(&args.limits),
            gate: gate(&args.gate),
            show_internal: show_internal(),
        }
    }
}

/// `skills sync`.
#[derive(Debug, Clone)]
pub struct Sync {
    pub agents: Vec<String>,
    pub yes: bool,
    pub copy: bool,
    pub dry_run: bool,
    pub no_cleanup: bool,
    pub no_remote: bool,
    pub recursive: bool,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub force: bool,
    pub json: bool,
    pub limits: SourceLimits,
    pub gate: gate::Policy,
}

impl Sync {
    pub fn resolve(args: &cli::SyncArgs) -> Sync {
        Sync {
            agents: args.agents.clone(),
            yes: args.yes,
            copy: args.copy,
            dry_run: args.dry_run,
            no_cleanup: args.no_cleanup,
            no_remote: args.no_remote,
            recursive: args.recursive,
            include: args.include.clone(),
            exclude: args.exclude.clone(),
            force: args.force,
            json: args.json,
            limits: limits(&args.limits),
            gate: gate(&args.gate),
        }
    }
}
