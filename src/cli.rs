//! Command-line definitions (clap derive) and nothing else.
//!
//! The doc comments here are the single source of `--help`, the man pages and the shell completions.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Install, validate, pin and serve Agent Skills for every coding agent.
#[derive(Debug, Parser)]
#[command(name = "skills", version, about, long_about = None, propagate_version = true)]
#[command(max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Print only data and errors
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more about what is done (repeat for more)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// When to use color (`NO_COLOR` is honoured)
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Never draw progress bars
    #[arg(long, global = true)]
    pub no_progress: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Install skills from a repository, URL or folder into agent dirs
    #[command(visible_alias = "a")]
    Add(AddArgs),
    /// Remove installed skills and their lock entries
    #[command(visible_aliases = ["rm", "r"])]
    Remove(RemoveArgs),
    /// List installed skills: name, agents, source, path
    #[command(visible_alias = "ls")]
    List(ListArgs),
    /// Search the skills.sh directory
    #[command(visible_aliases = ["search", "f", "s"])]
    Find(FindArgs),
    /// Restore every skill in `skills-lock.json` at its locked commit and hash (like `npm ci`);
    /// with a SOURCE, the same as `skills add SOURCE`
    #[command(visible_alias = "i", alias = "experimental_install")]
    Install(InstallArgs),
    /// Read-only: which locked skills have upstream changes
    Check(CheckArgs),
    /// Apply upstream changes to locked skills, keeping their agents and copy/symlink mode
    #[command(visible_alias = "upgrade")]
    Update(UpdateArgs),
    /// Print the activation prompt of one skill of a source, without installing it
    Use(UseArgs),
    /// Install the skills that packages in `node_modules` ship into agent dirs
    #[command(alias = "experimental_sync")]
    Sync(SyncArgs),
    /// Record (or verify) the files and hashes of every installed skill in `skills-lock.json`
    Manifest(ManifestArgs),
    /// Find what is wrong with installed skills: broken links, lock drift, shadowing, stale cache
    Doctor(DoctorArgs),
    /// Validate skills: the open spec, portability, quality, size and security
    Lint(LintArgs),
    /// Create a new skill that passes `skills lint --strict`
    Init(InitArgs),
    /// Print the `<available_skills>` block (or one skill's activation block) for a system prompt
    Prompt(PromptArgs),
    /// Serve skills to MCP clients over stdio (resources, tools, prompts, the Skills extension)
    Serve(ServeArgs),
    /// Show, clean or prune the cache shared by every project (git clones and the file store)
    Cache(CacheArgs),
    /// Print a shell completion script
    Completions(CompletionsArgs),
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "The cache (`SKILLS_CACHE_DIR`, else the user cache dir + `/skills`) holds the git repositories sources were fetched into and a content-addressed store of every file installed, shared by every project: `skills install` restores from it without the network, and `--offline` from it alone. A CI job that caches this one folder restores a whole project with no network."
)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub command: CacheCommand,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Print the path of the cache
    Dir,
    /// Remove the cached repositories and the store (everything is fetched again when needed)
    Clean,
    /// Remove what was not used for some days: cached repositories, stored skills, and the files
    /// no remaining stored skill uses
    Prune {
        /// Keep what was used within this many days
        #[arg(long, value_name = "DAYS", default_value_t = 30)]
        days: u64,
    },
}

/// Which skills a command works on: paths, or the project's and user's agent dirs.
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// Skill folders, SKILL.md files, or folders to search for skills [default: the project's agent
    /// dirs, then the user's; the project's only for `lint` and `prompt --write`]
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Use only the user's agent dirs (`~/.agents/skills`, `~/.claude/skills`, …)
    #[arg(short, long)]
    pub global: bool,
    /// Only skills whose name matches this glob (repeatable)
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Leave out skills whose name matches this glob (repeatable)
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Exit status: 0 when no errors were found, 1 when some were, 2 when \
the run itself failed (a missing path, bad flags).\n\nRule codes: `skills lint --list-rules`; \
documentation of one rule: `skills lint --explain CODE`."
)]
pub struct LintArgs {
    #[command(flatten)]
    pub index: IndexArgs,
    /// Output format
    #[arg(long, value_enum, default_value_t = LintFormat::Human)]
    pub format: LintFormat,
    /// Treat warnings as errors
    #[arg(long)]
    pub strict: bool,
    /// Turn a rule or a family off (`quality/body-too-long`, `body-too-long`, `quality`; repeatable)
    #[arg(long, short = 'A', value_name = "CODE")]
    pub allow: Vec<String>,
    /// Print the documentation of a rule and exit
    #[arg(long, value_name = "CODE", conflicts_with = "list_rules")]
    pub explain: Option<String>,
    /// Print every rule with its code and default severity and exit
    #[arg(long)]
    pub list_rules: bool,
    /// Largest size of one file, e.g. `1MiB`, `500KB`, `2000`
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "1MiB")]
    pub max_file_size: u64,
    /// Largest total size of one skill folder
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "8MiB")]
    pub max_skill_size: u64,
    /// Largest number of files in one skill folder
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_files: u64,
    /// The PATHs are changed files (as pre-commit passes them): lint each skill that holds one,
    /// and ignore files outside skills
    #[arg(long)]
    pub changed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// Compiler-style diagnostics with a summary
    Human,
    /// One JSON document (`"version": 1`)
    Json,
    /// GitHub Actions workflow annotations
    Github,
    /// SARIF 2.1.0 for code scanning
    Sarif,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Examples:\n  skills prompt > block.xml\n  skills prompt --write AGENTS.md\n  \
skills prompt --skill pdf-processing\n  skills prompt --format router --tools tools.json\n  \
skills prompt --template my-router.jinja2"
)]
pub struct PromptArgs {
    #[command(flatten)]
    pub index: IndexArgs,
    /// Output format
    #[arg(long, value_enum, default_value_t = PromptFormat::Xml, conflicts_with = "template")]
    pub format: PromptFormat,
    /// Show `skill://<name>/SKILL.md` URIs (what `skills serve` exposes) instead of paths
    #[arg(long)]
    pub uri: bool,
    /// Print the activation block of this skill instead of the catalog (repeatable)
    #[arg(long, value_name = "NAME")]
    pub skill: Vec<String>,
    /// Put the output between `<!-- skills:start -->` and `<!-- skills:end -->` in FILE
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Fail when a skill cannot be read (by default it is skipped with a warning)
    #[arg(long)]
    pub strict: bool,
    /// Include skills hidden from models (`disable-model-invocation: true`, `metadata.internal: true`)
    #[arg(long)]
    pub all: bool,
    /// Render this Jinja2 template instead of a built-in format
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// Universal tools for templates: a JSON list of MCP tool definitions
    #[arg(long, value_name = "FILE")]
    pub tools: Option<PathBuf>,
    /// Global resources for templates: a JSON list of MCP resources
    #[arg(long, value_name = "FILE")]
    pub resources: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PromptFormat {
    /// `<available_skills>` as in the agentskills.io client guide
    Xml,
    /// Byte for byte what `skills-ref to-prompt` prints (hidden skills included, as there)
    SkillsRef,
    /// One JSON document (`"version": 1`)
    Json,
    /// `- **name**: description` lines
    Markdown,
    /// Level 1 of the router/specialist design: catalog, `view_skill` tool, routing rules
    Router,
    /// Level 2 of the router/specialist design: one skill with its tools and resources (needs `--skill`)
    Specialist,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// List the user's skills (`~/.agents/skills`, `~/.claude/skills`, …) instead of the project's
    #[arg(short, long)]
    pub global: bool,
    /// Only skills these agents read, by id (`-a claude-code codex`, repeatable, or
    /// comma-separated)
    #[arg(short, long = "agent", value_name = "AGENT", num_args = 1.., value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
}

/// Size limits on what one skill may bring.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Largest file a skill may contain
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "10MiB")]
    pub max_file_size: u64,
    /// Largest total size of a skill
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "50MiB")]
    pub max_skill_size: u64,
    /// Most files a skill (or a downloaded archive) may contain
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_files: usize,
    /// Largest download of a web source (a SKILL.md or an archive)
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "10MiB")]
    pub max_download_size: u64,
    /// Largest total a downloaded archive may unpack to
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "25MiB")]
    pub max_extracted_size: u64,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Checks the project's agent dirs (unless -g) and the user's: symlinks whose \
target is gone, folders left by an interrupted run, drift between the lockfile and the disk (where a \
lockfile exists), user skills hidden by a project skill of the same name, agent dirs that no agent \
installed on this machine reads, and cached repositories unused for 30 days or broken. Each problem \
comes with a fix; nothing is changed.\n\nExit status: 0 when nothing is wrong, 1 when problems were \
found, 2 when the run failed."
)]
pub struct DoctorArgs {
    /// Check only the user's skills and lock (`~/.agents/skills`, …), not the project's
    #[arg(short, long)]
    pub global: bool,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
}

/// The install gate: the `security` and `spec` lint rules run on every skill before it is written.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Install gate")]
pub struct GateArgs {
    /// Install even with findings of this rule (`security/remote-exec`; repeatable, or
    /// comma-separated); recorded per skill in `skills-lock.json`
    ///
    /// Every skill is checked with the `security` and `spec` lint rules before anything of it is
    /// written; a skill with an error finding is not written and the command exits 1. The codes
    /// that let findings through are recorded in its lock entry (`allow`), so that `install
    /// --frozen` on another machine decides the same.
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Do not check skills before writing them (for this run only; not recorded)
    #[arg(long)]
    pub no_verify: bool,
}

#[derive(Debug, Clone, Args)]
#[command(
    after_long_help = "Sources:\n  owner/repo, owner/repo/sub/path, owner/repo@skill, owner/repo#ref\n  \
https://github.com/owner/repo/tree/<ref>/<path>, https://gitlab.com/group/repo\n  \
git@host:owner/repo.git, ssh://…, https://host/repo.git, file:///path/repo.git#ref\n  \
./local/folder, /abs/path\n\nExamples:\n  skills add owner/repo --list\n  \
skills add owner/repo --skill pdf -a claude-code -y\n  skills add ./my-skills --skill '*' -y --copy"
)]
pub struct AddArgs {
    /// Where the skills are (see the forms below)
    #[arg(value_name = "SOURCE")]
    pub source: Option<String>,
    /// Open the source from this machine only, never the network: a git repository as the last
    /// run that fetched it saw it (its default branch, or the `#ref`), or a folder (also
    /// `SKILLS_OFFLINE=1`)
    #[arg(long)]
    pub offline: bool,
    #[command(flatten)]
    pub options: AddOptions,
}

/// What `add` (and `install SOURCE`) does with a source.
#[derive(Debug, Clone, Args)]
pub struct AddOptions {
    /// Skills to install (repeatable, or comma-separated; `*` for all)
    #[arg(short, long = "skill", value_name = "NAME", num_args = 1.., value_delimiter = ',')]
    pub skills: Vec<String>,
    /// Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the
    /// agents whose dirs exist in the project, plus `.agents/skills`]
    #[arg(short, long = "agent", value_name = "AGENT", num_args = 1.., value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Eve subagents to install for (`agent/subagents/NAME/skills`; `root` for `agent/skills`)
    #[arg(long = "subagent", value_name = "NAME", num_args = 1.., value_delimiter = ',')]
    pub subagents: Vec<String>,
    /// Work on the user's skills (`~/.agents/skills`, …) instead of the project's
    #[arg(short, long)]
    pub global: bool,
    /// Copy into every agent dir instead of one copy in `.agents/skills` plus symlinks
    #[arg(long)]
    pub copy: bool,
    /// Do not ask for confirmation
    #[arg(short, long)]
    pub yes: bool,
    /// Shorthand for `--skill '*' --agent '*' --yes`
    #[arg(long)]
    pub all: bool,
    /// List the skills the source offers and install nothing
    #[arg(short, long)]
    pub list: bool,
    /// Print what would be installed where, and install nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Replace skill folders that `skills-lock.json` does not know (they may hold your edits)
    #[arg(long)]
    pub force: bool,
    /// Search the whole source even when its root is a skill
    #[arg(long)]
    pub full_depth: bool,
    /// Accepted for `npx skills` scripts and ignored: it only feeds telemetry, and `skills`
    /// sends none (the value must still be JSON)
    #[arg(long, value_name = "JSON", value_parser = parse_json)]
    pub metadata: Option<String>,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub gate: GateArgs,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Roots: the PATHs, else SKILLS_DIR (comma-separated), else the project's \
and the user's agent dirs.\n\nMCP client configuration:\n  {\"mcpServers\": {\"skills\": \
{\"command\": \"skills\", \"args\": [\"serve\", \"--stdio\"]}}}"
)]
pub struct ServeArgs {
    /// Speak MCP over stdin and stdout (the only transport; accepted for clarity)
    #[arg(long)]
    pub stdio: bool,
    #[command(flatten)]
    pub index: IndexArgs,
    /// Do not watch the roots for changes
    #[arg(long)]
    pub no_watch: bool,
    /// Largest file served
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "4MiB")]
    pub max_file_size: u64,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// Skills to remove, by name (any case), or every skill of a source (`owner/repo`)
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Skills to remove, as with NAME (repeatable, or comma-separated; `*` for all)
    #[arg(short, long = "skill", value_name = "NAME", num_args = 1.., value_delimiter = ',')]
    pub skills: Vec<String>,
    /// Remove every skill the lockfile lists, with its links (implies `--yes`); a folder no lock
    /// lists is removed only by name
    #[arg(long, conflicts_with_all = ["names", "skills"])]
    pub all: bool,
    /// Remove only from these agents (repeatable, or comma-separated)
    #[arg(short, long = "agent", value_name = "AGENT", num_args = 1.., value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Remove from the user's dirs instead of the project's
    #[arg(short, long)]
    pub global: bool,
    /// Do not ask for confirmation
    #[arg(short, long)]
    pub yes: bool,
    /// Print what would be removed, and remove nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Every skill is fetched at the `commit` the lock records (entries without one, \
as the reference installer writes them, at their `ref`), checked against its `computedHash` (and `files`), \
and placed for the recorded agents in the recorded mode. Skills already in place are left alone.\n\n\
In CI:\n  skills install --frozen && skills manifest --check\n\n\
With a SOURCE, `skills install` (and `skills i`) is `skills add SOURCE`, as in `npx skills`; the options \
other than `--global`, `--json` and the limits only apply then."
)]
pub struct InstallArgs {
    /// Install from this source, exactly as `skills add SOURCE` [default: restore the lock]
    #[arg(value_name = "SOURCE")]
    pub source: Option<String>,
    /// Fail (exit 1, nothing written) unless every skill is reproduced exactly as locked
    #[arg(long, conflicts_with = "source")]
    pub frozen: bool,
    /// Restore from this machine only (the shared cache), never the network; name what cannot be
    /// restored (also `SKILLS_OFFLINE=1`). With a SOURCE, as `skills add --offline`
    #[arg(long)]
    pub offline: bool,
    #[command(flatten)]
    pub options: AddOptions,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "One ref advertisement per remote and no download when the locked commit is \
still the tip; when it moved, the skill's folder is compared, so a commit that does not touch the skill is \
not an update. Local sources are compared with the folder as it is now.\n\n\
Exit status: 0, or 1 with `--exit-code` when updates exist; 2 when a source could not be checked \
or there is no lockfile."
)]
pub struct CheckArgs {
    /// Skills to check [default: all locked skills]
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Exit 1 when updates exist
    #[arg(long)]
    pub exit_code: bool,
    /// Check the user's skills instead of the project's
    #[arg(short, long)]
    pub global: bool,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// Skills to update [default: every locked skill with an update]
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Update the user's skills [default: the project's when it has skills, else the user's]
    #[arg(short, long)]
    pub global: bool,
    /// Update the project's skills (with `--global`: both)
    #[arg(short, long)]
    pub project: bool,
    /// Accepted for `npx skills` scripts: `skills update` never asks
    #[arg(short, long)]
    pub yes: bool,
    /// Replace installed copies that were edited since they were installed
    #[arg(long)]
    pub force: bool,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub gate: GateArgs,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Skills found in the project's agent dirs that the lock does not know \
(made by hand, or copied in) are recorded as `sourceType: \"local\"` with their folder as the source. \
Entries of skills that are not installed are kept.\n\n\
`--json` prints each skill's files as `{\"skill\": NAME, \"files\": [{\"path\", \"size\", \"hash\"}], \
\"unserved\": [PATH]}`: `skill` and `files` are exactly what `skills serve` lists in `skill://NAME/_manifest` \
(no dotfiles, secret-named files, node_modules or files over 4 MiB); `unserved` names the files the lock \
records beyond them."
)]
pub struct ManifestArgs {
    /// Verify instead of writing: exit 1 when an installed skill differs from the lock
    #[arg(long)]
    pub check: bool,
    /// Work on the user's skills and lock instead of the project's
    #[arg(short, long)]
    pub global: bool,
    /// Print JSON instead of a summary
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Asks `$SKILLS_API_URL/api/search` (default https://skills.sh). Network and API \
errors are reported as errors (exit 2), never as \"no skills found\".\n\nExamples:\n  skills find pdf\n  \
skills find review --owner vercel-labs --limit 5 --json"
)]
pub struct FindArgs {
    /// What to look for [asked for on a terminal when not given]
    #[arg(value_name = "QUERY")]
    pub query: Vec<String>,
    /// Only skills of this GitHub owner
    #[arg(long, value_name = "OWNER")]
    pub owner: Option<String>,
    /// Most results
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub limit: u16,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "The skill is read from the source (any form `skills add` takes) and written \
to the cache, never into agent dirs; the prompt names that folder, so its scripts and references \
can be read.\n\nExamples:\n  skills use owner/repo@pdf | claude\n  \
skills use ./my-skills --skill pdf\n  skills use owner/repo@pdf --agent claude-code"
)]
pub struct UseArgs {
    /// Where the skill is: `SOURCE@SKILL`, or any source with `--skill`
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The skill to use, when the source has several
    #[arg(short, long, value_name = "NAME")]
    pub skill: Option<String>,
    /// Start this agent with the prompt instead of printing it (`claude-code`, `codex`,
    /// `sarvam-code`)
    #[arg(short, long, value_name = "AGENT")]
    pub agent: Option<String>,
    /// Search the whole source even when its root is a skill
    #[arg(long)]
    pub full_depth: bool,
    /// Open the source from this machine only, never the network: a git repository as the last
    /// run that fetched it saw it, or a folder (also `SKILLS_OFFLINE=1`)
    #[arg(long)]
    pub offline: bool,
    /// Print one JSON document (`"version": 1`) with the prompt and the skill's folder
    #[arg(long, conflicts_with = "agent")]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub gate: GateArgs,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "Reads the `dependencies`, `devDependencies`, `optionalDependencies` and \
`peerDependencies` of `./package.json` (and its `\"skills\": [\"npm:pkg\"]` entries), finds each \
package in `node_modules`, and installs the skills it ships: a root `SKILL.md`, or \
`skills/<name>/SKILL.md` and `dist/skills/<name>/SKILL.md`. `.agents/skills/<name>` links into the \
package (so it follows `npm update`), other agent dirs link to it; `--copy` copies instead. Every \
skill goes through the install gate first, as with `skills add`: a refused skill is not installed, and \
its links are taken out if an earlier sync made them. Skills \
are recorded in `skills-lock.json` as `sourceType: \"node_modules\"`; a skill no package ships any \
more is removed, and skills installed with `skills add` are never touched.\n\nIn package.json:\n  \
\"scripts\": {\"prepare\": \"skills sync -y\"}"
)]
pub struct SyncArgs {
    /// Agents to install for, by id (repeatable, or comma-separated; `*` for all) [default: the
    /// agents whose dirs exist in the project, plus `.agents/skills`]
    #[arg(short, long = "agent", value_name = "AGENT", num_args = 1.., value_delimiter = ',')]
    pub agents: Vec<String>,
    /// Do not ask for confirmation
    #[arg(short, long)]
    pub yes: bool,
    /// Copy the skills instead of linking them into `node_modules`
    #[arg(long)]
    pub copy: bool,
    /// Print what would change, and change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Keep skills that no package ships any more
    #[arg(long)]
    pub no_cleanup: bool,
    /// Accepted for `npx skills` scripts: git sources in a `skills` field are reported, not
    /// fetched (use `skills add` for them)
    #[arg(long)]
    pub no_remote: bool,
    /// Also read the workspace packages (`workspaces` in package.json) and their dependencies
    #[arg(short, long)]
    pub recursive: bool,
    /// Only these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)
    #[arg(long, value_name = "PATTERN", num_args = 1..)]
    pub include: Vec<String>,
    /// Leave out these packages (`pkg`) or skills (`pkg#skill`); globs allowed (repeatable)
    #[arg(long, value_name = "PATTERN", num_args = 1..)]
    pub exclude: Vec<String>,
    /// Replace synced copies that were edited since they were synced (the edits are lost)
    #[arg(long)]
    pub force: bool,
    /// Print one JSON document (`"version": 1`)
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub gate: GateArgs,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Name of the new skill: creates `NAME/SKILL.md` [default: `./SKILL.md` named after the
    /// current folder]
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_long_help = "The script completes commands, flags, values and agent ids; install it where \
your shell looks (`skills completions bash > ~/.local/share/bash-completion/completions/skills`).\n\n\
Installed skill names (for `remove`, `update`, `check` and `prompt --skill`) change with every \
`add`, so no script can hold them: the dynamic completion asks `skills` at each Tab, and completes \
everything else as the script does. Load it instead of the script:\n  \
bash: echo 'source <(SKILLS_COMPLETE=bash skills)' >> ~/.bashrc\n  \
zsh:  echo 'source <(SKILLS_COMPLETE=zsh skills)' >> ~/.zshrc\n  \
fish: echo 'SKILLS_COMPLETE=fish skills | source' > ~/.config/fish/completions/skills.fish"
)]
pub struct CompletionsArgs {
    /// The shell to print a completion script for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// A command-line value that does not parse (clap prints it after the option's name).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// `why` is `serde_json`'s message (its position in the text).
    #[error("not valid JSON: {why}")]
    Json { why: String },
    #[error("`{0}` is not a size (try `1MiB` or `500000`)")]
    NotASize(String),
    #[error("unknown size unit `{0}` (use B, KB, KiB, MB, MiB, GB, GiB)")]
    UnknownUnit(String),
    #[error("`{0}` is too large")]
    TooLarge(String),
}

/// Checks that `text` is JSON (what `npx skills add --metadata` demands) and keeps it as given.
pub fn parse_json(text: &str) -> Result<String, ValueError> {
    serde_json::from_str::<serde_json::Value>(text)
        .map(|_| text.to_owned())
        .map_err(|err| ValueError::Json {
            why: err.to_string(),
        })
}

/// Parses `1MiB`, `512KiB`, `2MB`, `10k`, `4096` into bytes.
pub fn parse_size(text: &str) -> Result<u64, ValueError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let number: u64 = digits
        .parse()
        .map_err(|_| ValueError::NotASize(text.to_owned()))?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "kib" => 1 << 10,
        "m" | "mb" => 1_000_000,
        "mib" => 1 << 20,
        "g" | "gb" => 1_000_000_000,
        "gib" => 1 << 30,
        other => {
            return Err(ValueError::UnknownUnit(other.to_owned()));
        }
    };
    number
        .checked_mul(factor)
        .ok_or_else(|| ValueError::TooLarge(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1MiB"), Ok(1 << 20));
        assert_eq!(parse_size("500KB"), Ok(500_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("1XB").is_err());
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("99999999999999999999GiB").is_err());
    }
}
