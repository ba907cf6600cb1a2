//! `skills use SOURCE@SKILL`: the activation prompt of one skill of any source, without
//! installing it — for `skills use owner/repo@pdf | claude`, or to start an agent with it.
//!
//! The skill is read and checked as `add` would (symlinks leaving the source, sizes), goes
//! through the same install gate (`--allow`, `--no-verify`): handing a skill to an agent is what
//! installing it is for, so what `add` refuses is not handed over either. It is then
//! written to the cache under a name that holds its hash, so that the prompt can point at its
//! scripts and references and a second `use` of the same bytes writes nothing. No agent dir and
//! no lockfile is touched.

use serde::Serialize;

use crate::error::{Error, ExitStatus};
use crate::install::{self, Candidate, Done, Fetched, Installer, Placement, Provenance};
use crate::lock::InstallMode;
use crate::offered::{self, Found};
use crate::output::Printer;
use crate::project::Scope;
use crate::prompt::activation::Activation;
use crate::settings;
use crate::skill::{SKILL_MD, Skill};
use crate::source::discover::Offered;

/// Agents `--agent` can start, and their commands (the prompt is their last argument).
const AGENTS: [(&str, &str); 3] = [
    ("claude-code", "claude"),
    ("codex", "codex"),
    ("sarvam-code", "sarvam-code"),
];

/// What precedes the activation block, so that a prompt piped into an agent says what to do.
const PREAMBLE: &str = "Use the following skill for the user's next request: follow its \
instructions, and read its files from the skill directory when it refers to them.\n\n";

/// `use --json`: the skill, the folder its files were written to, and its activation prompt.
#[derive(Serialize)]
struct JsonUse<'a> {
    version: u32,
    name: &'a str,
    directory: String,
    hash: &'a str,
    prompt: &'a str,
}

pub fn run(args: &crate::cli::UseArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let args = &settings::Use::resolve(args);
    let command = args.agent.as_deref().map(agent_command).transpose()?;
    let scope = Scope::open(false, printer)?;
    let Found {
        opened,
        offered,
        settings,
    } = offered::open_offered(
        &args.source,
        &scope,
        args.full_depth,
        args.offline,
        args.limits.web,
        printer,
    )?;
    let selector = selector(opened.skill.as_deref(), args.skill.as_deref())?;
    let skill = select(&offered, selector, &args.source, args.show_internal)?;
    let payload = install::collect(opened.tree.as_ref(), &skill.path, args.limits.skill)
        .map_err(|err| install::SkillError::new(&skill.name, err))?;
    let folder = crate::skill::name::folder_name(&skill.name).ok_or_else(|| {
        Error::msg(format!("`{}` cannot be a folder name", skill.name))
            .with_hint("a skill name has no path separators or `..`")
    })?;
    let provenance = Provenance {
        origin: opened.origin.clone(),
        skill_path: crate::source::tree::join(skill.path.as_str(), SKILL_MD),
        agents: Vec::new(),
        mode: InstallMode::Copy,
        extra: Vec::new(),
        stamp: false,
    };
    let dir = settings
        .cache
        .join("use")
        .join(format!("{folder}-{}", cache_key(&provenance, &payload)));
    let hash = payload.computed_hash.clone();
    let candidate = Candidate {
        name: skill.name.clone(),
        folder,
        placements: vec![Placement {
            path: dir.clone(),
            link: None,
        }],
        provenance,
        dir: skill.path.clone(),
    };
    let mut installer = Installer::cache(settings.cache.clone(), &args.gate, printer)?;
    match installer.plan(candidate)? {
        Ok(planned) => installer.offer(planned, payload, Fetched::Elsewhere)?,
        Err(conflict) => return Err(Error::msg(conflict.why)),
    }
    let committed = installer.commit(false, "writing the skill to the cache")?;
    if !committed
        .outcomes
        .iter()
        .any(|o| matches!(o.done, Done::Written | Done::InPlace))
    {
        // Refused: said by the gate; nothing is printed, written or handed to an agent.
        return Ok(ExitStatus::Failure);
    }
    let loaded = Skill::load(&dir, &dir.join(SKILL_MD))
        .map_err(|err| Error::msg(format!("cannot read `{}`", skill.name)).with_source(err))?;
    let prompt = format!("{PREAMBLE}{}", Activation::new(&loaded, false).render());
    if let Some(command) = command {
        return launch(command, &prompt);
    }
    if args.json {
        let document = JsonUse {
            version: crate::json::VERSION,
            name: &skill.name,
            directory: dir.display().to_string(),
            hash: &hash,
            prompt: &prompt,
        };
        crate::json::print(&document, printer)?;
    } else {
        printer.data(&prompt)?;
    }
    Ok(ExitStatus::Success)
}

/// The name of the cache folder of `payload` from the source of `provenance`: a digest of the
/// source's identity and of every file's path, mode, length and bytes, each field
/// length-prefixed (no two sources or file sets share it), cut to 32 hex digits.
fn cache_key(provenance: &Provenance, payload: &install::Payload) -> String {
    use sha2::{Digest as _, Sha256};
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(b"skills use v2");
    field(provenance.identity().as_bytes());
    let digests = payload.digested();
    for file in &payload.files {
        field(file.rel.as_str().as_bytes());
        field(if file.executable { b"755" } else { b"644" });
        field(&(file.bytes.len() as u64).to_le_bytes());
        field(digests.get(&file.rel).map_or(&b""[..], |d| d.as_bytes()));
    }
    hex::encode(hasher.finalize())[..32].to_owned()
}

/// The command that starts `agent`.
fn agent_command(agent: &str) -> Result<&'static str, Error> {
    if let Some((_, command)) = AGENTS.iter().find(|(id, _)| *id == agent) {
        return Ok(command);
    }
    let supported: Vec<String> = AGENTS.iter().map(|(id, _)| format!("`{id}`")).collect();
    let message = match crate::agents::find(agent) {
        Some(known) => format!("`skills use` cannot start {} yet", known.display_name),
        None => format!("unknown agent `{agent}`"),
    };
    Err(Error::msg(message).with_hint(format!(
        "`--agent` takes {}; without it the prompt is printed (`skills use … | AGENT`)",
        supported.join(", ")
    )))
}

/// The skill asked for: `@skill` of the source, or `--skill`; both must agree.
fn selector<'a>(
    from_source: Option<&'a str>,
    from_flag: Option<&'a str>,
) -> Result<Option<&'a str>, Error> {
    match (from_source, from_flag) {
        (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b) => Err(Error::msg(format!(
            "the source asks for `{a}` and `--skill` for `{b}`"
        ))
        .with_hint("name one skill")),
        (a, b) => Ok(b.or(a)),
    }
}

/// The one skill to use: the one named, or the only one the source offers.
fn select<'a>(
    offered: &'a [Offered],
    selector: Option<&str>,
    source: &str,
    show_internal: bool,
) -> Result<&'a Offered, Error> {
    let visible: Vec<&Offered> = offered
        .iter()
        .filter(|s| show_internal || !s.internal)
        .collect();
    let names = || {
        visible
            .iter()
            .map(|s| format!("`{}`", s.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(name) = selector {
        return offered::find_offered(offered, name).ok_or_else(|| {
            Error::msg(format!("`{source}` has no skill named `{name}`"))
                .with_hint(format!("available: {}", names()))
        });
    }
    if let [one] = visible.as_slice() {
        return Ok(one);
    }
    let first = visible.first().map_or("NAME", |s| s.name.as_str());
    Err(Error::msg(format!(
        "`{source}` has {} skills; which one?",
        visible.len()
    ))
    .with_hint(format!(
        "`skills use {source}@{first}` or `--skill {first}`; available: {}",
        names()
    )))
}

/// Starts `command` with `prompt` as its last argument, on this terminal, and ends as it does.
fn launch(command: &str, prompt: &str) -> Result<ExitStatus, Error> {
    let status = std::process::Command::new(command)
        .arg(prompt)
        .status()
        .map_err(|err| {
            let error = Error::msg(format!("cannot start `{command}`"));
            if err.kind() == std::io::ErrorKind::NotFound {
                error.with_hint(format!("`{command}` is not on PATH; install it, or pipe the prompt: `skills use … | {command}`"))
            } else {
                error.with_source(err)
            }
        })?;
    Ok(if status.success() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    })
}
