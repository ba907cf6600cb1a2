//! Files generated from the code are committed and must not go stale: shell completions, man
//! pages, and the rule reference of the bundled `writing-skills` skill.
//! `SKILLS_BLESS=1 cargo test` rewrites them.

use std::fmt::Write as _;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::common::repo;

/// Compares `expected` with the file at `rel`, or rewrites it when blessing.
fn check(rel: &str, expected: &[u8], stale: &mut Vec<String>) {
    let path = repo().join(rel);
    if std::env::var_os("SKILLS_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, expected).unwrap();
        return;
    }
    if std::fs::read(&path).ok().as_deref() != Some(expected) {
        stale.push(rel.to_owned());
    }
}

fn report(stale: &[String]) {
    assert!(
        stale.is_empty(),
        "stale generated files (run `SKILLS_BLESS=1 cargo test --test it generated`): {stale:?}"
    );
}

#[test]
fn completions() {
    let mut stale = Vec::new();
    for (shell, file) in [
        (Shell::Bash, "skills.bash"),
        (Shell::Zsh, "_skills"),
        (Shell::Fish, "skills.fish"),
        (Shell::PowerShell, "_skills.ps1"),
        (Shell::Elvish, "skills.elv"),
    ] {
        let mut buffer = Vec::new();
        clap_complete::generate(
            shell,
            &mut skills::commands::completions::command(),
            "skills",
            &mut buffer,
        );
        check(&format!("completions/{file}"), &buffer, &mut stale);
    }
    report(&stale);
}

#[test]
fn man_pages() {
    let temp = tempfile::tempdir().unwrap();
    clap_mangen::generate_to(skills::cli::Cli::command(), temp.path()).unwrap();
    let mut stale = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for name in &names {
        let name = name.to_string_lossy();
        check(
            &format!("man/{name}"),
            &std::fs::read(temp.path().join(&*name)).unwrap(),
            &mut stale,
        );
    }
    // A page of a removed command is stale too.
    for entry in std::fs::read_dir(repo().join("man")).into_iter().flatten() {
        let name = entry.unwrap().file_name();
        if !names.contains(&name) && std::env::var_os("SKILLS_BLESS").is_none() {
            stale.push(format!("man/{} (no such command)", name.to_string_lossy()));
        }
    }
    report(&stale);
}

/// The rule list in the `writing-skills` skill, generated from the catalog.
pub fn rule_reference() -> String {
    let mut text = String::from(
        "# Lint rules\n\nEvery rule `skills lint` checks, generated from its rule catalog (a test keeps this file in\n\
         sync). `skills lint --explain CODE` prints the full documentation of one rule.\n",
    );
    for family in skills::lint::Family::ALL {
        let _ = write!(
            text,
            "\n## {}\n\n| code | default | what it finds |\n|---|---|---|\n",
            family.as_str()
        );
        for rule in skills::lint::rules::ALL
            .iter()
            .filter(|r| r.family == family)
        {
            let _ = writeln!(
                text,
                "| `{}` | {} | {} |",
                rule.code,
                rule.severity.as_str(),
                rule.summary.replace('|', "\\|")
            );
        }
    }
    text
}

#[test]
fn skill_rule_reference() {
    let mut stale = Vec::new();
    check(
        "skills/writing-skills/references/lint-rules.md",
        rule_reference().as_bytes(),
        &mut stale,
    );
    report(&stale);
    assert!(Path::new(&repo().join("skills/writing-skills/SKILL.md")).exists());
}

/// The agents page the README links to lists every agent `-a` accepts.
#[test]
fn readme_lists_every_agent() {
    let readme = std::fs::read_to_string(repo().join("docs/agents.md")).unwrap();
    for agent in skills::agents::AGENTS {
        assert!(
            readme.contains(&format!("| `{}` | `{}` |", agent.id, agent.project_dir)),
            "{}",
            agent.id
        );
    }
}
