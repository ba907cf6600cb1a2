//! `SkillIndex`: the skills found under a set of roots, loaded in parallel.
//!
//! Every command that works on installed or local skills (`lint`, `prompt`, `list`, `manifest`,
//! `serve`) builds one. Invariants:
//! - roots are searched in order; inside a folder, entries are visited in byte order of their
//!   names, so the result does not depend on the file system;
//! - a folder holding `SKILL.md` is a skill and is not searched further; `skill.md` is accepted,
//!   a `SKILL.md` differing only in case is recorded as a broken skill for lint to report;
//! - the folders of [`crate::skill::files::SEARCH_SKIPPED`] (`.git`, `node_modules`, `dist`,
//!   `build`, `__pycache__`) are not searched, except as the children of an agent dir (a project
//!   or user root), which are skills whatever their names; depth is bounded, and symlinked
//!   folders are followed once (loops end);
//! - the same folder reached twice (an agent dir symlinking into `.agents/skills`) is one entry
//!   with several locations; two different folders with one name: the first wins (project beats
//!   user scope), the other is kept as shadowed.

use crate::hint::Hint;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::agents;
use crate::skill::{Load, LoadError, SKILL_MD, SKILL_MD_LOWER, Skill};

/// How deep below a root skills are searched.
pub const MAX_DEPTH: usize = 8;

/// Where a root of the index comes from (a command's scope is [`crate::project::Scope`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RootKind {
    /// A path given on the command line.
    Path,
    /// An agent dir of the current project.
    Project,
    /// An agent dir in the user's home.
    Global,
}

#[derive(Debug, Clone)]
pub struct Root {
    pub path: PathBuf,
    pub kind: RootKind,
}

/// How the skill file of a folder is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileName {
    /// `SKILL.md`.
    Upper,
    /// `skill.md` only.
    Lower,
    /// Only a name differing in case, such as `Skill.md`: not a skill for case-sensitive clients.
    Misnamed,
    /// `SKILL.md` exists but is a folder or something else that is not a file.
    NotAFile,
}

#[derive(Debug)]
pub struct Entry {
    /// Where the skill was found first.
    pub dir: PathBuf,
    /// The skill file (`SKILL.md`, `skill.md`, or the misnamed one).
    pub file: PathBuf,
    pub file_name: FileName,
    /// Index into [`SkillIndex::roots`] of the first location.
    pub root: usize,
    /// Every place the same folder was found (symlinks into one canonical folder), first included.
    pub locations: Vec<PathBuf>,
    /// The folder's real (canonical) location.
    pub real: PathBuf,
    pub skill: Result<Skill, LoadError>,
    /// Set when an earlier entry has the same name: the index of that entry.
    pub shadowed_by: Option<usize>,
}

impl Entry {
    /// The skill's name, or its folder name when it could not be loaded.
    pub fn name(&self) -> String {
        self.skill
            .as_ref()
            .ok()
            .and_then(Skill::name)
            .unwrap_or_else(|| {
                self.dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
    }
}

/// Something that stopped the search in one place; the rest of the search went on.
#[derive(Debug)]
pub struct Problem {
    pub path: PathBuf,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("`{}` does not exist", .0.display())]
    NotFound(PathBuf),
    #[error("`{}` is not a skill folder, a SKILL.md or a folder of skills", .0.display())]
    NotASkill(PathBuf),
    #[error("invalid name pattern `{pattern}`")]
    Glob {
        pattern: String,
        #[source]
        source: globset::Error,
    },
    #[error("cannot read `{}`", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Hint for IndexError {
    fn hint(&self) -> Option<String> {
        match self {
            IndexError::NotFound(_) => {
                Some("pass a skill folder, a SKILL.md, or a folder that contains skills".into())
            }
            IndexError::Glob { .. } => Some("patterns use glob syntax: `pdf-*`, `*-review`".into()),
            _ => None,
        }
    }
}

/// Name filters shared by `lint`, `prompt`, `list` and `serve`.
#[derive(Debug, Clone, Default)]
pub struct NameFilter {
    include: Option<globset::GlobSet>,
    exclude: Option<globset::GlobSet>,
}

impl NameFilter {
    pub fn new(include: &[String], exclude: &[String]) -> Result<NameFilter, IndexError> {
        let build = |patterns: &[String]| -> Result<Option<globset::GlobSet>, IndexError> {
            if patterns.is_empty() {
                return Ok(None);
            }
            let mut set = globset::GlobSetBuilder::new();
            for pattern in patterns {
                let glob = globset::Glob::new(pattern).map_err(|source| IndexError::Glob {
                    pattern: pattern.clone(),
                    source,
                })?;
                set.add(glob);
            }
            set.build().map(Some).map_err(|source| IndexError::Glob {
                pattern: patterns.join(","),
                source,
            })
        };
        Ok(NameFilter {
            include: build(include)?,
            exclude: build(exclude)?,
        })
    }

    pub fn matches(&self, name: &str) -> bool {
        self.include.as_ref().is_none_or(|set| set.is_match(name))
            && self.exclude.as_ref().is_none_or(|set| !set.is_match(name))
    }
}

#[derive(Debug, Default)]
pub struct SkillIndex {
    pub roots: Vec<Root>,
    pub entries: Vec<Entry>,
    pub problems: Vec<Problem>,
}

impl SkillIndex {
    /// Roots from the command line, or the default agent dirs when none are given.
    pub fn roots(
        paths: &[PathBuf],
        global_only: bool,
        project: &Path,
    ) -> Result<Vec<Root>, IndexError> {
        if paths.is_empty() {
            return Ok(default_roots(project, global_only));
        }
        paths
            .iter()
            .map(|path| {
                if std::fs::symlink_metadata(path).is_err() {
                    return Err(IndexError::NotFound(path.clone()));
                }
                Ok(Root {
                    path: path.clone(),
                    kind: RootKind::Path,
                })
            })
            .collect()
    }

    /// Finds and loads the skills under `roots`, keeping those whose name passes `filter`.
    pub fn build(roots: Vec<Root>, filter: &NameFilter) -> Result<SkillIndex, IndexError> {
        SkillIndex::build_with(roots, filter, Load::Full)
    }

    /// Like [`SkillIndex::build`], reading as much of each SKILL.md as `load` says.
    pub fn build_with(
        roots: Vec<Root>,
        filter: &NameFilter,
        load: Load,
    ) -> Result<SkillIndex, IndexError> {
        let walker = Walker::new(load, &roots);
        let mut entries = Vec::new();
        for (index, root) in roots.iter().enumerate() {
            entries.extend(walker.root(index, &root.path, root.kind == RootKind::Path)?);
        }
        entries.retain(|entry| filter.matches(&entry.name()));
        let problems = walker.problems.into_inner().unwrap_or_default();
        let mut index = SkillIndex {
            roots,
            entries: Vec::new(),
            problems,
        };
        index.merge(entries);
        Ok(index)
    }

    /// Folds entries that are one folder into one, and marks later same-name entries shadowed.
    fn merge(&mut self, entries: Vec<Entry>) {
        let mut by_canonical: HashMap<PathBuf, usize> = HashMap::new();
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for mut entry in entries {
            if let Some(&first) = by_canonical.get(&entry.real) {
                self.entries[first].locations.push(entry.dir);
                continue;
            }
            let position = self.entries.len();
            by_canonical.insert(entry.real.clone(), position);
            match by_name.get(&entry.name()) {
                Some(&first) => entry.shadowed_by = Some(first),
                None => {
                    by_name.insert(entry.name(), position);
                }
            }
            self.entries.push(entry);
        }
    }

    /// Folds later same-name entries that `same(first, later)` says are copies of the first one
    /// (copies of one locked skill in several agent dirs) into it: their locations join the
    /// first's, as links to one folder do, and they are no longer entries of their own.
    pub fn fold_copies(&mut self, mut same: impl FnMut(&Entry, &Entry) -> bool) {
        let folded: Vec<(usize, usize)> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, entry)| {
                let first = entry.shadowed_by?;
                let first_entry = self.entries.get(first)?;
                same(first_entry, entry).then_some((first, i))
            })
            .collect();
        if folded.is_empty() {
            return;
        }
        for &(first, i) in &folded {
            let locations = std::mem::take(&mut self.entries[i].locations);
            self.entries[first].locations.extend(locations);
        }
        let mut renumbered: Vec<Option<usize>> = Vec::with_capacity(self.entries.len());
        let mut next = 0;
        for i in 0..self.entries.len() {
            if folded.iter().any(|&(_, gone)| gone == i) {
                renumbered.push(None);
            } else {
                renumbered.push(Some(next));
                next += 1;
            }
        }
        let entries = std::mem::take(&mut self.entries);
        self.entries = entries
            .into_iter()
            .zip(&renumbered)
            .filter(|(_, kept)| kept.is_some())
            .map(|(mut entry, _)| {
                entry.shadowed_by = entry.shadowed_by.and_then(|w| renumbered[w]);
                entry
            })
            .collect();
    }

    /// Loaded skills that no earlier skill shadows, in index order.
    pub fn skills(&self) -> impl Iterator<Item = &Skill> {
        self.entries
            .iter()
            .filter(|e| e.shadowed_by.is_none())
            .filter_map(|e| e.skill.as_ref().ok())
    }

    /// Looks up a visible skill by name.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills()
            .find(|skill| skill.name().as_deref() == Some(name))
    }
}

/// The skills under a set of roots in the order [`SkillIndex::build_with`] finds them, a batch at
/// a time: the first skills are at hand long before a large tree is searched to the end (what
/// `serve` answers its first requests with). Entries come as the walk finds them: folders reached
/// twice and names found twice are for the caller to merge, as [`SkillIndex`] does.
pub struct Stream {
    walker: Walker,
    /// What is left, in walk order.
    pending: std::collections::VecDeque<Pending>,
}

enum Pending {
    Root {
        index: usize,
        path: PathBuf,
        explicit: bool,
    },
    Folder {
        root: usize,
        folder: Folder,
    },
    /// Looked at already, in a batch that found folders to search before it.
    Done {
        root: usize,
        step: Step,
    },
}

impl Stream {
    pub fn new(roots: &[Root], load: Load) -> Stream {
        Stream {
            walker: Walker::new(load, roots),
            pending: roots
                .iter()
                .enumerate()
                .map(|(index, root)| Pending::Root {
                    index,
                    path: root.path.clone(),
                    explicit: root.kind == RootKind::Path,
                })
                .collect(),
        }
    }

    /// Whether the walk is over.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty()
    }

    /// The next `want` entries or more (fewer at the end), looking at up to `want` folders at
    /// once in parallel. A root that cannot be read is an error, as for [`SkillIndex::build`].
    pub fn next_batch(&mut self, want: usize) -> Result<Vec<Entry>, IndexError> {
        let want = want.max(1);
        let mut found = Vec::new();
        while found.len() < want && !self.pending.is_empty() {
            let batch: Vec<Pending> = self.pending.drain(..want.min(self.pending.len())).collect();
            let walker = &self.walker;
            let steps: Vec<Result<(usize, Step), IndexError>> = batch
                .into_par_iter()
                .map(|pending| match pending {
                    Pending::Root {
                        index,
                        path,
                        explicit,
                    } => walker
                        .root_step(index, &path, explicit)
                        .map(|step| (index, step)),
                    Pending::Folder { root, folder } => Ok((
                        root,
                        walker.step(root, &folder.path, &folder.real, folder.depth),
                    )),
                    Pending::Done { root, step } => Ok((root, step)),
                })
                .collect();
            let mut steps = steps.into_iter();
            while let Some(step) = steps.next() {
                match step? {
                    (_, Step::Skill(entry)) => found.push(*entry),
                    (_, Step::Nothing) => {}
                    (root, Step::Children(children)) => {
                        // Its folders come before the rest of this batch, already looked at.
                        let rest: Vec<Pending> = steps
                            .by_ref()
                            .map(|step| step.map(|(root, step)| Pending::Done { root, step }))
                            .collect::<Result<_, _>>()?;
                        for pending in rest.into_iter().rev() {
                            self.pending.push_front(pending);
                        }
                        for folder in children.into_iter().rev() {
                            self.pending.push_front(Pending::Folder { root, folder });
                        }
                    }
                }
            }
        }
        Ok(found)
    }

    /// What stopped the search somewhere since the last call.
    pub fn take_problems(&self) -> Vec<Problem> {
        self.walker
            .problems
            .lock()
            .map(|mut problems| std::mem::take(&mut *problems))
            .unwrap_or_default()
    }
}

/// The project's agent dirs (canonical first), then the user's, keeping those that exist.
pub fn default_roots(project: &Path, global_only: bool) -> Vec<Root> {
    let mut roots = if global_only {
        Vec::new()
    } else {
        project_roots(project)
    };
    for root in global_roots() {
        if !roots.iter().any(|r| r.path == root.path) {
            roots.push(root);
        }
    }
    roots
}

/// The project's agent dirs that exist, canonical dir first.
pub fn project_roots(project: &Path) -> Vec<Root> {
    agents::project_dirs()
        .into_iter()
        .map(|dir| project.join(dir))
        .filter(|path| path.is_dir())
        .map(|path| Root {
            path,
            kind: RootKind::Project,
        })
        .collect()
}

/// The user's agent dirs that exist, canonical dir first.
pub fn global_roots() -> Vec<Root> {
    agents::global_dirs()
        .into_iter()
        .filter(|path| path.is_dir())
        .map(|path| Root {
            path,
            kind: RootKind::Global,
        })
        .collect()
}

/// The index entry of the skill in `dir`, from the bytes of its skill file (or why they could
/// not be had).
fn entry(
    dir: PathBuf,
    real: PathBuf,
    file: PathBuf,
    file_name: FileName,
    root: usize,
    bytes: std::io::Result<(Vec<u8>, bool)>,
) -> Entry {
    let skill = match (file_name, bytes) {
        (FileName::Upper | FileName::Lower, Ok((bytes, complete))) => {
            Skill::parse_head(&dir, &file, bytes, complete)
        }
        (_, Err(source)) => Err(LoadError::Read {
            path: file.clone(),
            source,
        }),
        (FileName::Misnamed | FileName::NotAFile, Ok(_)) => Err(LoadError::Read {
            path: dir.join(SKILL_MD),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no file named exactly SKILL.md",
            ),
        }),
    };
    Entry {
        locations: vec![dir.clone()],
        real,
        dir,
        file,
        file_name,
        root,
        skill,
        shadowed_by: None,
    }
}

/// A folder still to be searched.
#[derive(Clone)]
struct Folder {
    path: PathBuf,
    real: Real,
    depth: usize,
}

/// What one look at a folder found.
enum Step {
    Skill(Box<Entry>),
    /// Folders to search next, in order.
    Children(Vec<Folder>),
    Nothing,
}

impl Step {
    fn skill(entry: Entry) -> Step {
        Step::Skill(Box::new(entry))
    }
}

/// The search: folders are listed and skills loaded in parallel; results keep the order of a
/// sequential walk.
struct Walker {
    load: Load,
    problems: std::sync::Mutex<Vec<Problem>>,
    /// Real locations of folders already searched: ends symlink loops.
    visited: std::sync::Mutex<HashSet<PathBuf>>,
    /// By root: whether it is an agent dir (its children are skills, whatever their names).
    agent_dirs: Vec<bool>,
}

/// Where a folder really is. Below a canonical root and without crossing a symlink, that is the
/// root joined with the names walked (no system call); after a symlink, the file system is asked.
#[derive(Clone)]
enum Real {
    Known(PathBuf),
    ViaLink,
}

impl Real {
    fn child(&self, name: &str, is_link: bool) -> Real {
        match self {
            Real::Known(path) if !is_link => Real::Known(path.join(name)),
            _ => Real::ViaLink,
        }
    }

    fn resolve(&self, dir: &Path) -> PathBuf {
        match self {
            Real::Known(path) => path.clone(),
            Real::ViaLink => std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        }
    }
}

impl Walker {
    fn new(load: Load, roots: &[Root]) -> Walker {
        Walker {
            load,
            problems: std::sync::Mutex::default(),
            visited: std::sync::Mutex::default(),
            agent_dirs: roots.iter().map(|r| r.kind != RootKind::Path).collect(),
        }
    }

    /// Whether the folder `name`, a child of a folder `depth` below root `root`, is searched.
    fn searches(&self, root: usize, depth: usize, name: &str) -> bool {
        let agent_dir = depth == 0 && self.agent_dirs.get(root).copied().unwrap_or(false);
        !name.starts_with(crate::fsutil::TEMP_PREFIX)
            && (agent_dir || crate::skill::files::is_searched(name))
    }

    /// The bytes of a skill file, as much as `load` asks for, and whether that is all of it.
    fn read(&self, path: &Path) -> std::io::Result<(Vec<u8>, bool)> {
        match self.load {
            Load::Full => crate::skill::read_file(path, None).map(|bytes| (bytes, true)),
            Load::Frontmatter => crate::skill::read_head(path),
        }
    }

    fn root(&self, root: usize, path: &Path, explicit: bool) -> Result<Vec<Entry>, IndexError> {
        Ok(match self.root_step(root, path, explicit)? {
            Step::Skill(entry) => vec![*entry],
            Step::Nothing => Vec::new(),
            Step::Children(_) => {
                let real = Real::Known(Real::ViaLink.resolve(path));
                self.dir(root, path, &real, 0)
            }
        })
    }

    /// The first look at a root: a `SKILL.md` given directly is a skill; a folder is searched
    /// ([`Step::Children`] holds the root itself, at depth 0).
    fn root_step(&self, root: usize, path: &Path, explicit: bool) -> Result<Step, IndexError> {
        let meta = std::fs::metadata(path).map_err(|source| IndexError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if meta.is_file() {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !name.eq_ignore_ascii_case(SKILL_MD) {
                return Err(IndexError::NotASkill(path.to_path_buf()));
            }
            let dir = match path.parent() {
                Some(parent) if parent.as_os_str().is_empty() => PathBuf::from("."),
                Some(parent) => parent.to_path_buf(),
                None => PathBuf::from("."),
            };
            let file_name = match name {
                SKILL_MD => FileName::Upper,
                SKILL_MD_LOWER => FileName::Lower,
                _ => FileName::Misnamed,
            };
            let real = Real::ViaLink.resolve(&dir);
            let bytes = self.read(path);
            return Ok(Step::skill(entry(
                dir,
                real,
                path.to_path_buf(),
                file_name,
                root,
                bytes,
            )));
        }
        if !meta.is_dir() && explicit {
            return Err(IndexError::NotASkill(path.to_path_buf()));
        }
        Ok(Step::Children(vec![Folder {
            path: path.to_path_buf(),
            real: Real::Known(Real::ViaLink.resolve(path)),
            depth: 0,
        }]))
    }

    fn dir(&self, root: usize, dir: &Path, real: &Real, depth: usize) -> Vec<Entry> {
        match self.step(root, dir, real, depth) {
            Step::Skill(entry) => vec![*entry],
            Step::Nothing => Vec::new(),
            Step::Children(children) => {
                // Collecting an indexed parallel iterator keeps the children's order.
                let found: Vec<Vec<Entry>> = children
                    .par_iter()
                    .map(|child| self.dir(root, &child.path, &child.real, child.depth))
                    .collect();
                found.into_iter().flatten().collect()
            }
        }
    }

    /// Looks at one folder: a skill, folders to search next (in order), or nothing.
    fn step(&self, root: usize, dir: &Path, real: &Real, depth: usize) -> Step {
        // Most folders searched are skills: opening SKILL.md straight away costs one system call
        // where listing the folder first costs five. Only folders without one are listed.
        let file = dir.join(SKILL_MD);
        match self.read(&file) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) if err.kind() == std::io::ErrorKind::IsADirectory => {
                return Step::skill(entry(
                    dir.to_path_buf(),
                    real.resolve(dir),
                    file,
                    FileName::NotAFile,
                    root,
                    Ok((Vec::new(), true)),
                ));
            }
            bytes => {
                return Step::skill(entry(
                    dir.to_path_buf(),
                    real.resolve(dir),
                    file,
                    FileName::Upper,
                    root,
                    bytes,
                ));
            }
        }
        let mut names: Vec<(String, std::fs::DirEntry)> = match std::fs::read_dir(dir) {
            Ok(listing) => listing
                .filter_map(|entry| match entry {
                    Ok(entry) => Some((entry.file_name().to_string_lossy().into_owned(), entry)),
                    Err(err) => {
                        self.problem(dir, &err);
                        None
                    }
                })
                .collect(),
            Err(err) => {
                self.problem(dir, &err);
                return Step::Nothing;
            }
        };
        names.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some((file, file_name)) = skill_file(dir, &names) {
            // A skill folder reached twice is loaded twice and merged later.
            let bytes = match file_name {
                FileName::Lower => self.read(&file),
                _ => Ok((Vec::new(), true)),
            };
            return Step::skill(entry(
                dir.to_path_buf(),
                real.resolve(dir),
                file,
                file_name,
                root,
                bytes,
            ));
        }
        // A plain folder is searched once, which ends symlink loops.
        let first_visit = self
            .visited
            .lock()
            .is_ok_and(|mut visited| visited.insert(real.resolve(dir)));

        if depth >= MAX_DEPTH || !first_visit {
            return Step::Nothing;
        }
        let children = names
            .iter()
            .filter(|(name, _)| self.searches(root, depth, name))
            .filter_map(|(name, entry)| {
                let path = entry.path();
                let (is_dir, is_link) = match entry.file_type() {
                    Ok(t) if t.is_dir() => (true, false),
                    Ok(t) if t.is_symlink() => (path.is_dir(), true),
                    _ => (false, false),
                };
                is_dir.then(|| Folder {
                    path,
                    real: real.child(name, is_link),
                    depth: depth + 1,
                })
            })
            .collect();
        Step::Children(children)
    }

    fn problem(&self, path: &Path, err: &std::io::Error) {
        if let Ok(mut problems) = self.problems.lock() {
            problems.push(Problem {
                path: path.to_path_buf(),
                message: err.to_string(),
            });
        }
    }
}

/// The skill file of a folder that has no readable `SKILL.md`, judged from its sorted entries.
fn skill_file(dir: &Path, names: &[(String, std::fs::DirEntry)]) -> Option<(PathBuf, FileName)> {
    let is_file = |entry: &std::fs::DirEntry| match entry.file_type() {
        Ok(t) if t.is_file() => true,
        Ok(t) if t.is_symlink() => entry.path().is_file(),
        _ => false,
    };
    if let Some((_, entry)) = names.iter().find(|(name, _)| name == SKILL_MD) {
        // There but not readable as a file: a dangling link, or something else.
        return Some((entry.path(), FileName::NotAFile));
    }
    if let Some((_, entry)) = names
        .iter()
        .find(|(name, e)| name == SKILL_MD_LOWER && is_file(e))
    {
        return Some((entry.path(), FileName::Lower));
    }
    names
        .iter()
        .find(|(name, entry)| name.eq_ignore_ascii_case(SKILL_MD) && is_file(entry))
        .map(|(_, entry)| (dir.join(entry.file_name()), FileName::Misnamed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn skill(dir: &Path, name: &str) {
        fs::create_dir_all(dir).unwrap();
        fs::write(
            dir.join(SKILL_MD),
            format!("---\nname: {name}\ndescription: d\n---\n"),
        )
        .unwrap();
    }

    fn names(index: &SkillIndex) -> Vec<String> {
        index.entries.iter().map(Entry::name).collect()
    }

    #[test]
    fn finds_sorted_and_skips() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        skill(&d.join("b"), "b");
        skill(&d.join("a/nested"), "nested");
        skill(&d.join("node_modules/x"), "x");
        skill(&d.join("b/inner"), "inner");
        let index = SkillIndex::build(
            vec![Root {
                path: d.into(),
                kind: RootKind::Path,
            }],
            &NameFilter::default(),
        )
        .unwrap();
        assert_eq!(names(&index), ["nested", "b"]);
    }

    #[test]
    fn shadowing_and_locations() {
        let tmp = tempfile::tempdir().unwrap();
        let (p, g) = (tmp.path().join("p"), tmp.path().join("g"));
        skill(&p.join("x"), "x");
        skill(&g.join("x"), "x");
        #[cfg(unix)]
        std::os::unix::fs::symlink(p.join("x"), g.join("y")).unwrap();
        let roots = vec![
            Root {
                path: p.clone(),
                kind: RootKind::Project,
            },
            Root {
                path: g,
                kind: RootKind::Global,
            },
        ];
        let index = SkillIndex::build(roots, &NameFilter::default()).unwrap();
        assert_eq!(index.entries.len(), 2);
        assert_eq!(index.entries[1].shadowed_by, Some(0));
        #[cfg(unix)]
        assert_eq!(index.entries[0].locations.len(), 2);
        assert_eq!(index.skills().count(), 1);
        assert_eq!(index.get("x").unwrap().dir, p.join("x"));
    }

    #[test]
    fn misnamed_and_filters() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        fs::create_dir_all(d.join("m")).unwrap();
        fs::write(d.join("m/Skill.md"), "---\nname: m\n---\n").unwrap();
        fs::create_dir_all(d.join("dir/SKILL.md")).unwrap();
        skill(&d.join("pdf-a"), "pdf-a");
        skill(&d.join("doc-b"), "doc-b");
        let root = || {
            vec![Root {
                path: d.into(),
                kind: RootKind::Path,
            }]
        };
        let index = SkillIndex::build(root(), &NameFilter::default()).unwrap();
        let kinds: Vec<_> = index.entries.iter().map(|e| e.file_name).collect();
        assert_eq!(
            kinds,
            [
                FileName::NotAFile,
                FileName::Upper,
                FileName::Misnamed,
                FileName::Upper
            ]
        );
        let filter = NameFilter::new(&["*-a".into(), "*-b".into()], &["doc-*".into()]).unwrap();
        let index = SkillIndex::build(root(), &filter).unwrap();
        assert_eq!(names(&index), ["pdf-a"]);
    }

    #[test]
    fn stream_keeps_the_order_of_the_whole_walk() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        for name in ["c", "a/x", "a/y/deep", "b", "e/f/g", "d"] {
            skill(&d.join(name), &name.replace('/', "-"));
        }
        fs::create_dir_all(d.join("empty/more")).unwrap();
        skill(&d.join("zz"), "zz");
        let roots = vec![
            Root {
                path: d.join("zz"),
                kind: RootKind::Path,
            },
            Root {
                path: d.into(),
                kind: RootKind::Path,
            },
        ];
        let whole = names(&SkillIndex::build(roots.clone(), &NameFilter::default()).unwrap());
        for want in [1, 2, 3, 100] {
            let mut stream = Stream::new(&roots, Load::Frontmatter);
            let (mut streamed, mut seen) = (Vec::new(), HashSet::new());
            while !stream.is_done() {
                let batch = stream.next_batch(want).unwrap();
                assert!(batch.len() >= want || stream.is_done(), "{want}");
                // The same folder reached twice is for the caller to merge.
                streamed.extend(
                    batch
                        .iter()
                        .filter(|entry| seen.insert(entry.real.clone()))
                        .map(Entry::name),
                );
            }
            assert_eq!(streamed, whole, "batches of {want}");
        }
        let missing = [Root {
            path: d.join("missing"),
            kind: RootKind::Path,
        }];
        assert!(Stream::new(&missing, Load::Full).next_batch(1).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_end() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        fs::create_dir_all(d.join("a")).unwrap();
        std::os::unix::fs::symlink(d, d.join("a/loop")).unwrap();
        skill(&d.join("s"), "s");
        let index = SkillIndex::build(
            vec![Root {
                path: d.into(),
                kind: RootKind::Path,
            }],
            &NameFilter::default(),
        )
        .unwrap();
        assert_eq!(names(&index), ["s"]);
    }
}
