//! Lint: checks skills against the rule catalog and collects diagnostics.
//!
//! Each rule family has its own file; [`lint`] runs them over every entry of a [`SkillIndex`] in
//! parallel and returns a [`Report`] whose order is that of the index, whatever the scheduling.
//! Findings are data: rendering them is the reporters' job ([`report`]).

pub mod compat;
pub mod content;
pub mod exec;
pub mod flow;
pub mod injection;
pub mod links;
pub mod memory;
pub mod package;
pub mod placement;
pub mod quality;
pub mod report;
pub mod rules;
pub mod rx;
pub mod security;
pub mod size;
pub mod spec;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::index::{Entry, FileName, SkillIndex};
use crate::skill::inventory::Inventory;
use crate::skill::{Pos, Skill};
pub use rules::{Family, Rule, Severity};

/// What lint checks, resolved from the command line.
#[derive(Debug, Clone)]
pub struct Config {
    pub max_file_size: u64,
    pub max_skill_size: u64,
    pub max_files: u64,
    /// Warnings count as errors.
    pub strict: bool,
    /// Rules turned off.
    pub allowed: HashSet<&'static str>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_file_size: 1 << 20,
            max_skill_size: 8 << 20,
            max_files: 512,
            strict: false,
            allowed: HashSet::new(),
        }
    }
}

/// One finding.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    #[serde(rename = "code")]
    pub rule: &'static Rule,
    /// The severity after `--strict`.
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(rename = "column", skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
}

/// The findings of one skill folder.
#[derive(Debug, Clone, Serialize)]
pub struct SkillReport {
    pub name: String,
    pub path: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub skills: Vec<SkillReport>,
    /// Findings that belong to no skill (a folder that could not be searched).
    pub other: Vec<Diagnostic>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Report {
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.skills
            .iter()
            .flat_map(|s| &s.diagnostics)
            .chain(&self.other)
    }

    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for d in self.diagnostics() {
            match d.severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Info => counts.infos += 1,
            }
        }
        counts
    }

    /// How often each rule fired, by code.
    pub fn per_rule(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for d in self.diagnostics() {
            *counts.entry(d.rule.code).or_insert(0) += 1;
        }
        counts
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics().any(|d| d.severity == Severity::Error)
    }
}

/// Lints every entry of `index`.
pub fn lint(index: &SkillIndex, config: &Config) -> Report {
    let duplicates = duplicate_names(index);
    let skills = index
        .entries
        .par_iter()
        .map(|entry| {
            let mut cx = Cx::new(entry, config);
            check_entry(&mut cx, &duplicates);
            cx.finish()
        })
        .collect();
    let other = index
        .problems
        .iter()
        .map(|problem| {
            let rule = &rules::UNREADABLE;
            Diagnostic {
                rule,
                severity: config.strict_of(rule.severity),
                message: format!("cannot search this folder: {}", problem.message),
                help: None,
                path: problem.path.clone(),
                line: None,
                col: None,
            }
        })
        .filter(|d| !config.is_allowed(d.rule))
        .collect();
    Report { skills, other }
}

impl Config {
    /// Whether findings of `rule` are dropped (`-A CODE` or `-A FAMILY`).
    pub fn is_allowed(&self, rule: &Rule) -> bool {
        self.allowed.contains(rule.code) || self.allowed.contains(rule.family.as_str())
    }

    /// Whether a whole family is off, so that its checks (and their I/O) can be skipped.
    pub fn family_allowed(&self, family: Family) -> bool {
        self.allowed.contains(family.as_str())
    }

    /// `severity` as reported: `--strict` makes a warning an error.
    fn strict_of(&self, severity: Severity) -> Severity {
        if self.strict && severity == Severity::Warning {
            Severity::Error
        } else {
            severity
        }
    }
}

/// For each name used by more than one folder, the folders that use it.
fn duplicate_names(index: &SkillIndex) -> HashMap<String, Vec<PathBuf>> {
    let mut by_name: HashMap<String, Vec<PathBuf>> = HashMap::new();
    for entry in &index.entries {
        if entry.skill.is_ok() {
            by_name
                .entry(entry.name())
                .or_default()
                .push(entry.dir.clone());
        }
    }
    by_name.retain(|_, dirs| dirs.len() > 1);
    by_name
}

/// The state of linting one skill: what rules look at and where findings go.
pub struct Cx<'a> {
    pub entry: &'a Entry,
    pub skill: Option<&'a Skill>,
    pub config: &'a Config,
    inventory: Option<Arc<Inventory>>,
    /// The bytes of every file, sorted by path, when the skill is linted from memory (what an
    /// installer is about to write) instead of from disk.
    memory: Option<&'a [memory::MemoryFile<'a>]>,
    /// Markdown files SKILL.md links to (skill-relative), for `quality/nested-reference`.
    pub linked_markdown: Vec<String>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Cx<'a> {
    fn new(entry: &'a Entry, config: &'a Config) -> Self {
        Cx {
            entry,
            skill: entry.skill.as_ref().ok(),
            config,
            inventory: None,
            memory: None,
            linked_markdown: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Whether the skill is linted from memory: nothing is read from disk.
    pub fn in_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// The bytes of `file` (an entry of the inventory): from memory, or read from disk.
    pub fn read(
        &self,
        file: &crate::skill::inventory::FileEntry,
    ) -> std::io::Result<std::borrow::Cow<'a, [u8]>> {
        match self.memory {
            Some(files) => files
                .binary_search_by(|f| f.rel.cmp(&file.rel))
                .map(|i| std::borrow::Cow::Borrowed(files[i].bytes))
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::NotFound)),
            None => crate::skill::read_listed(&file.path, &file.stamp, Some(file.size))
                .map(std::borrow::Cow::Owned),
        }
    }

    /// The skill folder.
    pub fn dir(&self) -> &'a Path {
        &self.entry.dir
    }

    /// The files of the skill folder, listed on first use.
    pub fn inventory(&mut self) -> Arc<Inventory> {
        let dir = &self.entry.dir;
        Arc::clone(
            self.inventory
                .get_or_insert_with(|| Arc::new(Inventory::scan(dir))),
        )
    }

    /// Records a finding at `pos` of `path` (a line and column of that file), unless the rule is
    /// turned off.
    pub fn report(
        &mut self,
        rule: &'static Rule,
        path: &Path,
        pos: Option<Pos>,
        message: String,
    ) -> Finding<'_> {
        self.report_as(rule, rule.severity, path, pos, message)
    }

    /// Records a finding of `rule` at `severity` instead of the rule's own (a quoted attack is a
    /// warning); `--strict` still makes a warning an error.
    pub fn report_as(
        &mut self,
        rule: &'static Rule,
        severity: Severity,
        path: &Path,
        pos: Option<Pos>,
        message: String,
    ) -> Finding<'_> {
        if self.config.is_allowed(rule) {
            return Finding(None);
        }
        // One finding per security rule and line: the engines that read a file (the rule
        // homes, the flow analysis) may see the same behaviour twice.
        let severity = self.config.strict_of(severity);
        let line = pos.map(|p| p.line);
        if rule.family == Family::Security
            && line.is_some()
            && self.diagnostics.iter().any(|d| {
                std::ptr::eq(d.rule, rule)
                    && d.line == line
                    && d.path == path
                    && d.severity >= severity
            })
        {
            return Finding(None);
        }
        self.diagnostics.push(Diagnostic {
            rule,
            severity,
            message,
            help: None,
            path: path.to_path_buf(),
            line,
            col: pos.map(|p| p.col),
        });
        Finding(self.diagnostics.last_mut())
    }

    /// Makes the errors of the rules that judge what a file runs, recorded since `from`,
    /// warnings, saying `why` (the file is a quotation or data that nothing runs).
    pub fn soften(&mut self, from: usize, why: &str) {
        const RUN_RULES: [&Rule; 12] = [
            &rules::REMOTE_EXEC,
            &rules::REVERSE_SHELL,
            &rules::ENCODED_EXEC,
            &rules::HIDDEN_INSTRUCTIONS,
            &rules::PROMPT_INJECTION,
            &rules::CREDENTIAL_ACCESS,
            &rules::EXFILTRATION,
            &rules::DATA_THEFT,
            &rules::CONCEALMENT,
            &rules::AGENT_MEMORY,
            &rules::DESTRUCTION,
            &rules::PERSISTENCE,
        ];
        self.soften_rules(from, &RUN_RULES, why);
    }

    /// [`Cx::soften`] for the findings of `rules` only.
    pub fn soften_rules(&mut self, from: usize, rules: &[&Rule], why: &str) {
        for d in self.diagnostics.iter_mut().skip(from) {
            if d.severity == Severity::Error
                && !self.config.strict
                && rules.iter().any(|r| std::ptr::eq(*r, d.rule))
            {
                d.severity = Severity::Warning;
                d.message = format!("{} (not refused: {why})", d.message);
            }
        }
    }

    /// Records a finding in SKILL.md.
    pub fn at(&mut self, rule: &'static Rule, pos: Option<Pos>, message: String) -> Finding<'_> {
        let file = self.entry.file.clone();
        self.report(rule, &file, pos, message)
    }

    fn finish(mut self) -> SkillReport {
        self.diagnostics.sort_by(|a, b| {
            (&a.path, a.line, a.col, a.rule.code).cmp(&(&b.path, b.line, b.col, b.rule.code))
        });
        SkillReport {
            name: self.entry.name(),
            path: self.entry.dir.clone(),
            diagnostics: self.diagnostics,
        }
    }
}

/// A finding just recorded (empty when its rule is turned off), to add a `help:` line to.
pub struct Finding<'a>(Option<&'a mut Diagnostic>);

impl Finding<'_> {
    pub fn help(self, help: impl Into<String>) {
        if let Some(diagnostic) = self.0 {
            diagnostic.help = Some(help.into());
        }
    }
}

fn check_entry(cx: &mut Cx<'_>, duplicates: &HashMap<String, Vec<PathBuf>>) {
    match cx.entry.file_name {
        FileName::Misnamed => {
            let found = cx
                .entry
                .file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let dir = cx.dir().to_path_buf();
            cx.report(
                &rules::MISSING_SKILL_MD,
                &dir,
                None,
                format!("no file named exactly `SKILL.md` (found `{found}`)"),
            )
            .help(format!("rename `{found}` to `SKILL.md`"));
        }
        FileName::NotAFile => {
            let file = cx.entry.file.clone();
            cx.report(
                &rules::MISSING_SKILL_MD,
                &file,
                None,
                "`SKILL.md` is not a file".into(),
            );
        }
        FileName::Lower => {
            cx.at(
                &rules::LOWERCASE_FILE_NAME,
                None,
                "the skill file is named `skill.md`".into(),
            )
            .help("rename it to `SKILL.md`");
        }
        FileName::Upper => {
            // One `stat` answers "no" cheaply; the listing confirms a "yes" (on a
            // case-insensitive file system `skill.md` *is* `SKILL.md`).
            if !cx.config.is_allowed(&rules::BOTH_FILE_NAMES)
                && (cx.in_memory() || cx.dir().join(crate::skill::SKILL_MD_LOWER).exists())
                && cx.inventory().get(crate::skill::SKILL_MD_LOWER).is_some()
            {
                let lower = cx.dir().join(crate::skill::SKILL_MD_LOWER);
                cx.report(
                    &rules::BOTH_FILE_NAMES,
                    &lower,
                    None,
                    "both `SKILL.md` and `skill.md` exist; clients read `SKILL.md`".into(),
                )
                .help("delete `skill.md`");
            }
        }
    }
    match &cx.entry.skill {
        Ok(skill) => {
            spec::check(cx, skill);
            if !cx.config.family_allowed(Family::Compat) {
                compat::check(cx, skill);
            }
            if !cx.config.family_allowed(Family::Quality) {
                quality::check(cx, skill);
            }

            if let Some(others) = duplicates.get(&cx.entry.name()) {
                let others: Vec<_> = others
                    .iter()
                    .filter(|d| **d != cx.entry.dir)
                    .map(|d| format!("`{}`", d.display()))
                    .collect();
                let pos = skill.frontmatter.key("name").map(|k| k.value_pos);
                let name = cx.entry.name();
                cx.at(
                    &rules::DUPLICATE_NAME,
                    pos,
                    format!("the name `{name}` is also used by {}", others.join(", ")),
                );
            }
        }
        Err(err) if matches!(cx.entry.file_name, FileName::Upper | FileName::Lower) => {
            spec::load_error(cx, err);
        }
        Err(_) => {}
    }
    // Families that are off entirely are not run: they are what reads the other files.
    let off = |family| cx.config.family_allowed(family);
    if !off(Family::Size) {
        size::check(cx);
    }
    if !(off(Family::Security) && off(Family::Quality)) {
        content::check(cx);
    }
    // Packages are read from disk; from memory, they are not checked.
    if !off(Family::Package) && !cx.in_memory() {
        package::check(cx);
    }
}
