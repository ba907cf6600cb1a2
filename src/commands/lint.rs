//! `skills lint`: validate skills and report findings as data on stdout.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::{LintArgs, LintFormat};
use crate::error::{Error, ExitStatus};
use crate::lint::{self, Config, report, rules};
use crate::output::{self, Printer};

pub fn run(args: &LintArgs, printer: &Printer) -> Result<ExitStatus, Error> {
    if let Some(code) = &args.explain {
        return explain(code, printer);
    }
    if args.list_rules {
        return list_rules(args.format, printer);
    }
    let config = config(args)?;
    let mut index_args = args.index.clone();
    if args.changed {
        index_args.paths = owning_skills(&args.index.paths);
        if index_args.paths.is_empty() {
            printer.status("none of the changed files is part of a skill");
            return Ok(ExitStatus::Success);
        }
    }
    let mut index = super::build_index(
        &index_args,
        crate::skill::Load::Full,
        printer,
        super::Defaults::ProjectOnly,
    )?;
    if !index_args.global {
        // Copies of one locked skill for several agents (`add --copy`) are one skill, linted
        // once, whichever paths were given; a lock that cannot be read folds nothing (`install`
        // and `doctor` say why).
        if let Ok(lock) = crate::project::Scope::new(false).and_then(|scope| scope.read_lock()) {
            crate::drift::fold_locked_copies(&mut index, &lock);
        }
    }
    if index.entries.is_empty() && index.problems.is_empty() {
        if args.index.global {
            printer.warn("no skills found in the user's agent dirs");
        } else if args.index.paths.is_empty() {
            printer.warn(
                "no skills found in the project's agent dirs (the user's are linted with `skills lint -g`)",
            );
        } else {
            printer.warn("no skills found under the given paths");
        }
    }
    let report = lint::lint(&index, &config);
    let cwd = super::current_dir()?;
    match args.format {
        LintFormat::Human => printer.text(&report::human(
            &report,
            &cwd,
            printer.stdout_color(),
            printer.is_verbose(),
        ))?,
        LintFormat::Json => printer.data(&report::json(&report, &cwd))?,
        LintFormat::Github => printer.data(&report::github(&report, &cwd))?,
        LintFormat::Sarif => printer.data(&report::sarif(&report, &cwd))?,
    }
    let status = if report.has_errors() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    // The process ends here; freeing tens of thousands of small allocations one by one takes
    // longer than the OS takes to drop the whole heap (~60 ms on 10,000 skills).
    std::mem::forget(index);
    std::mem::forget(report);
    Ok(status)
}

/// The skill folders that hold `files`: for each, the nearest folder at or above it with a
/// `SKILL.md` (or `skill.md`), not climbing out of a git work tree; each folder once.
fn owning_skills(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut skills: Vec<PathBuf> = Vec::new();
    for file in files {
        let mut dir = if file.is_dir() {
            Some(file.as_path())
        } else {
            file.parent()
        };
        while let Some(current) = dir {
            let here = if current.as_os_str().is_empty() {
                Path::new(".")
            } else {
                current
            };
            let is_skill = [crate::skill::SKILL_MD, crate::skill::SKILL_MD_LOWER]
                .iter()
                .any(|name| here.join(name).is_file());
            if is_skill {
                if !skills.iter().any(|s| s == here) {
                    skills.push(here.to_path_buf());
                }
                break;
            }
            if here.join(".git").exists() {
                break;
            }
            dir = current.parent();
        }
    }
    skills
}

fn config(args: &LintArgs) -> Result<Config, Error> {
    let mut allowed = HashSet::new();
    for code in &args.allow {
        if let Some(family) = rules::Family::ALL
            .iter()
            .find(|f| f.as_str() == code.trim())
        {
            allowed.insert(family.as_str());
            continue;
        }
        let rule = rules::find_or_err(code)?;
        allowed.insert(rule.code);
    }
    Ok(Config {
        max_file_size: args.max_file_size,
        max_skill_size: args.max_skill_size,
        max_files: args.max_files,
        strict: args.strict,
        allowed,
    })
}

fn explain(code: &str, printer: &Printer) -> Result<ExitStatus, Error> {
    let rule = rules::find_or_err(code)?;
    let mut text = printer.report();
    text.styled(output::EMPHASIS, rule.code);
    let _ = write!(
        text,
        " ({}, {} by default)\n\n{}\n\n{}\n",
        rule.family.as_str(),
        rule.severity.as_str(),
        rule.summary,
        rule.explain()
    );
    printer.text(&text)?;
    Ok(ExitStatus::Success)
}

/// `lint --list-rules --format json`: the rule catalog.
#[derive(Serialize)]
struct JsonRules {
    version: u32,
    rules: Vec<JsonRule>,
}

#[derive(Serialize)]
struct JsonRule {
    code: &'static str,
    family: rules::Family,
    severity: rules::Severity,
    summary: &'static str,
}

fn list_rules(format: LintFormat, printer: &Printer) -> Result<ExitStatus, Error> {
    let text = if format == LintFormat::Json {
        crate::json::pretty(&JsonRules {
            version: crate::json::VERSION,
            rules: rules::ALL
                .iter()
                .map(|r| JsonRule {
                    code: r.code,
                    family: r.family,
                    severity: r.severity,
                    summary: r.summary,
                })
                .collect(),
        })?
    } else {
        let width = rules::ALL.iter().map(|r| r.code.len()).max().unwrap_or(0);
        let mut text = String::new();
        for rule in rules::ALL {
            let _ = writeln!(
                text,
                "{:<width$}  {:<7}  {}",
                rule.code,
                rule.severity.as_str(),
                rule.summary
            );
        }
        text
    };
    printer.data(&text)?;
    Ok(ExitStatus::Success)
}
