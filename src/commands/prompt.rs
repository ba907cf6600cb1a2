//! `skills prompt`: the catalog block (or activation blocks) for a system prompt, on stdout or
//! into a file between markers.

use std::path::Path;

use serde::Serialize;

use crate::cli::{PromptArgs, PromptFormat};
use crate::error::{Error, ExitStatus};
use crate::index::SkillIndex;
use crate::output::Printer;
use crate::prompt::activation::Activation;
use crate::prompt::template::{self, Shared};
use crate::prompt::write::{self, Outcome};
use crate::prompt::{self, CatalogOptions, Entry};
use crate::skill::Load;
use crate::skill::package::Package;

pub fn run(args: &PromptArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    // A catalog needs names and descriptions only; activation blocks need bodies.
    let load = if args.skill.is_empty() {
        Load::Frontmatter
    } else {
        Load::Full
    };
    // A written file is committed: the user's own skills (`~/.claude/skills/…`) are not the
    // project's, and their paths name nothing on another machine.
    let defaults = if args.write.is_some() {
        super::Defaults::ProjectOnly
    } else {
        super::Defaults::ProjectThenUser
    };
    let index = super::build_index(&args.index, load, printer, defaults)?;
    // `skills-ref` knows no hidden skills; its format is a drop-in replacement, so it lists all.
    let all = args.all || (args.format == PromptFormat::SkillsRef && args.template.is_none());
    let options = CatalogOptions { uri: args.uri, all };

    let (mut entries, skipped) = prompt::catalog(&index, options);
    for skip in &skipped {
        printer.warn(format_args!(
            "left out `{}`: {}",
            skip.path.display(),
            skip.reason
        ));
    }
    if args.strict && !skipped.is_empty() {
        let list: Vec<String> = skipped
            .iter()
            .map(|s| format!("`{}`: {}", s.path.display(), s.reason))
            .collect();
        return Err(Error::msg(format!(
            "{} skill(s) cannot be used: {}",
            skipped.len(),
            list.join("; ")
        ))
        .with_hint("`skills lint` shows what is wrong with each"));
    }
    // A file that is written is usually committed: inside the project, locations are relative
    // to its folder, so that they hold on every clone.
    let target = match &args.write {
        Some(file) => {
            let cwd = super::current_dir()?;
            let root = match crate::project::ProjectRoot::locate() {
                Ok(root) => Some(root.path),
                // The skills come from the paths given or the user's dirs: with no project to
                // trust, the file is written where it was named, locations kept absolute.
                Err(crate::project::ProjectError::Untrusted(_))
                    if !args.index.paths.is_empty() || args.index.global =>
                {
                    None
                }
                Err(err) => return Err(err.into()),
            };
            let file = crate::source::grammar::normalize(&cwd.join(file));
            Some((cwd, root, file))
        }
        None => None,
    };
    let relative = |location: &mut String| {
        if let Some((_, Some(root), file)) = target.as_ref().filter(|_| !args.uri)
            && let Some(relative) = write::relative_location(location, file, root)
        {
            *location = relative;
        }
    };
    for entry in &mut entries {
        relative(&mut entry.location);
    }
    let shared = shared(args)?;
    let text = if args.skill.is_empty() {
        catalog_text(args, &entries, &shared)?
    } else {
        let mut activations = activations(&index, &args.skill, options)?;
        for (entry, activation) in &mut activations {
            relative(&mut entry.location);
            relative(&mut activation.directory);
        }
        activation_text(args, &entries, &activations, &shared)?
    };
    // Whatever the format or template, no text of a skill can pose as a `--write` marker (JSON
    // has its own escape, applied where it is rendered).
    let text = write::neutralise(&text);
    match (&args.write, &target) {
        (Some(file), Some((cwd, root, _))) => {
            let outcome = write::write(file, cwd, root.as_deref(), &text)?;
            let file = file.display();
            match outcome {
                Outcome::Created => printer.status(format_args!(
                    "Created `{file}` with {} skill(s)",
                    entries.len()
                )),
                Outcome::Updated => printer.status(format_args!(
                    "Updated `{file}` ({} skill(s))",
                    entries.len()
                )),
                Outcome::Unchanged => printer.status(format_args!("`{file}` is up to date")),
            }
        }
        _ => printer.data(&text)?,
    }
    Ok(ExitStatus::Success)
}

/// Universal tools and global resources from `--tools` / `--resources`.
fn shared(args: &PromptArgs) -> Result<Shared, Error> {
    let read = |path: &Path| -> Result<Vec<u8>, Error> { fs_err::read(path).map_err(Error::from) };
    let tools = args.tools.as_deref().map(read).transpose()?;
    let resources = args.resources.as_deref().map(read).transpose()?;
    let (package, problems) = Package::parse(tools.as_deref(), resources.as_deref());
    if let Some(problem) = problems.first() {
        let file = if problem.file == crate::skill::package::TOOLS_FILE {
            &args.tools
        } else {
            &args.resources
        };
        let shown = file
            .as_deref()
            .map_or_else(String::new, |p| p.display().to_string());
        return Err(Error::msg(format!(
            "`{shown}` line {}: {}",
            problem.line, problem.message
        )));
    }
    Ok(Shared {
        tools: package.tools,
        resources: package.resources,
    })
}

/// What to render: a built-in format or a template.
enum Shape {
    Xml,
    SkillsRef,
    Json,
    Markdown,
    Template {
        name: String,
        source: String,
        per_skill: bool,
    },
}

fn shape(args: &PromptArgs) -> Result<Shape, Error> {
    if let Some(path) = &args.template {
        let source = fs_err::read_to_string(path)?;
        let per_skill = !args.skill.is_empty();
        return Ok(Shape::Template {
            name: path.display().to_string(),
            source,
            per_skill,
        });
    }
    Ok(match args.format {
        PromptFormat::Xml => Shape::Xml,
        PromptFormat::SkillsRef => Shape::SkillsRef,
        PromptFormat::Json => Shape::Json,
        PromptFormat::Markdown => Shape::Markdown,
        PromptFormat::Router => {
            if !args.skill.is_empty() {
                return Err(
                    Error::msg("`--format router` renders the catalog (level 1)")
                        .with_hint("use `--format specialist` for one skill, or drop `--skill`"),
                );
            }
            Shape::Template {
                name: "router".into(),
                source: template::ROUTER.into(),
                per_skill: false,
            }
        }
        PromptFormat::Specialist => {
            if args.skill.is_empty() {
                return Err(
                    Error::msg("`--format specialist` renders one skill (level 2)")
                        .with_hint("add `--skill NAME`"),
                );
            }
            Shape::Template {
                name: "specialist".into(),
                source: template::SPECIALIST.into(),
                per_skill: true,
            }
        }
    })
}

fn render(
    name: &str,
    source: &str,
    entries: &[Entry],
    activations: &[(Entry, Activation)],
    shared: &Shared,
) -> Result<String, Error> {
    let mut text = template::render(name, source, entries, activations, shared)?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

fn catalog_text(args: &PromptArgs, entries: &[Entry], shared: &Shared) -> Result<String, Error> {
    Ok(match shape(args)? {
        Shape::Xml => prompt::xml::catalog(entries),
        Shape::SkillsRef => prompt::skills_ref(entries),
        Shape::Json => prompt::json(entries),
        Shape::Markdown => prompt::markdown(entries),
        Shape::Template { name, source, .. } => render(&name, &source, entries, &[], shared)?,
    })
}

/// The skills named by `--skill`, with their activation blocks.
fn activations(
    index: &SkillIndex,
    names: &[String],
    options: CatalogOptions,
) -> Result<Vec<(Entry, Activation)>, Error> {
    names
        .iter()
        .map(|name| {
            let skill = index.get(name).ok_or_else(|| {
                let mut known: Vec<String> = index
                    .skills()
                    .filter_map(crate::skill::Skill::name)
                    .collect();
                known.sort();
                let hint = if known.is_empty() {
                    "no skills were found; pass the folder that holds them".to_owned()
                } else {
                    format!("available: {}", known.join(", "))
                };
                Error::msg(format!("no skill named `{name}`")).with_hint(hint)
            })?;
            let entry = prompt::entry(
                skill,
                CatalogOptions {
                    all: true,
                    ..options
                },
            )
            .map_err(|reason| Error::msg(format!("skill `{name}` cannot be used: {reason}")))?;
            Ok((entry, Activation::new(skill, options.uri)))
        })
        .collect()
}

/// An item of `prompt --skill … --format json`: the catalog entry and its activation.
#[derive(Serialize)]
struct JsonActivation<'a> {
    name: &'a str,
    description: &'a str,
    location: &'a str,
    uri: &'a str,
    directory: &'a str,
    body: &'a str,
    files: &'a [String],
    tools: &'a [crate::skill::package::Tool],
    resources: &'a [crate::skill::package::Resource],
}

fn activation_text(
    args: &PromptArgs,
    entries: &[Entry],
    activations: &[(Entry, Activation)],
    shared: &Shared,
) -> Result<String, Error> {
    Ok(match shape(args)? {
        Shape::Xml | Shape::Markdown => activations
            .iter()
            .map(|(_, a)| a.render())
            .collect::<Vec<_>>()
            .join("\n"),
        Shape::Json => {
            let skills: Vec<JsonActivation<'_>> = activations
                .iter()
                .map(|(e, a)| JsonActivation {
                    name: &e.name,
                    description: &e.description,
                    location: &e.location,
                    uri: &e.uri,
                    directory: &a.directory,
                    body: &a.body,
                    files: &a.files,
                    tools: &a.package.tools,
                    resources: &a.package.resources,
                })
                .collect();
            let text = crate::json::pretty(&crate::json::Skills::new(&skills))?;
            write::neutralise_json(&text).into_owned()
        }
        Shape::SkillsRef => {
            return Err(Error::msg("`--format skills-ref` prints the catalog only")
                .with_hint("drop `--skill`, or use the default format for activation blocks"));
        }
        Shape::Template {
            name,
            source,
            per_skill,
        } => {
            let activations = if per_skill { activations } else { &[] };
            render(&name, &source, entries, activations, shared)?
        }
    })
}
