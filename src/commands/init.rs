//! `skills init`: a new skill that passes `skills lint --strict` from its first line.

use std::path::PathBuf;

use crate::cli::InitArgs;
use crate::error::{Error, ExitStatus};
use crate::output::Printer;
use crate::skill::SKILL_MD;
use crate::skill::name::is_portable;

pub fn run(args: &InitArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    let cwd = super::current_dir()?;
    let (name, dir) = if let Some(name) = &args.name {
        (name.clone(), cwd.join(name))
    } else {
        let name = cwd
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        (name, cwd.clone())
    };
    if !is_portable(&name) {
        let suggestion = crate::lint::spec::suggest_name(&name);
        let hint = if is_portable(&suggestion) {
            format!("try `skills init {suggestion}`")
        } else {
            "use 1-64 lowercase letters, digits and single hyphens".to_owned()
        };
        let what = if args.name.is_some() {
            "name"
        } else {
            "current folder's name"
        };
        return Err(
            Error::msg(format!("the {what} `{name}` is not a valid skill name")).with_hint(hint),
        );
    }
    let file: PathBuf = dir.join(SKILL_MD);
    if file.exists() || dir.join(crate::skill::SKILL_MD_LOWER).exists() {
        return Err(Error::msg(format!("`{}` already exists", file.display()))
            .with_hint("`skills init` never overwrites a skill; pick another name"));
    }
    fs_err::create_dir_all(&dir)?;
    crate::fsutil::write_atomic(&file, scaffold(&name).as_bytes())
        .map_err(|err| Error::msg(format!("cannot write `{}`", file.display())).with_source(err))?;
    let shown = file.strip_prefix(&cwd).unwrap_or(&file);
    printer.status(format_args!("Created `{}`", shown.display()));
    printer.status(
        "Next: describe what it does and when to use it, write the steps, then run `skills lint`",
    );
    Ok(ExitStatus::Success)
}

fn scaffold(name: &str) -> String {
    let title: String = name
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "---
name: {name}
description: Describe what {name} does and the tasks it helps with. Use when the user asks to … (replace this sentence with the requests that should trigger it).
---
# {title}

## When to use

- The user asks to …

## Steps

1. Check the inputs the user gave.
2. Do the work, one step per line, in the imperative.
3. Tell the user what was done and what is left.

## Notes

Keep this file short. Put long reference material in `references/`, scripts in `scripts/` and
templates or data in `assets/`, and link each file from here with a relative link.
"
    )
}
