//! `SkillIndex`: the skills found under a set of roots, loaded in parallel.
//!
//! Every command that works on installed or local skills (`lint`, `prompt`, `list`, `manifest`,
//! `serve`) builds one. Invariants:
//! - roots are searched in order; inside a folder, entries are visited in byte order of their
//!   names, so the result does not depend on the file system;
//! - a folder holding `SKILL.md` is a skill and is not searched further; `skill.md` is accepted,
//!   a `SKILL.md` differing only in case is recorded as a broken skill for lint to report;
//! - `.git`, `node_modules`, `dist`, `build`, `__pycache__` are skipped, depth is bounded, and
//!   symlinked folders are followed once (loops end);
//! - the same folder reached twice (an agent dir symlinking into `.agents/skills`) is one entry
//!   with several locations; two different folders with one name: the first wins (project beats
//!   user scope), the other is kept as shadowed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::agents;
use crate::skill::{LoadError, SKILL_MD, SKILL_MD_LOWER, Skill};

/// Folder names never searched for skills.
pub const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "dist", "build", "__pycache__"];
/// How deep below a root skills are searched.
pub const MAX_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
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
    pub scope: Scope,
}

/// How the skill file of a folder is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileName {
    /// `SKILL.md`; `also_lower` when a `skill.md` sits beside it.
    Upper { also_lower: bool },
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

impl IndexError {
    pub fn hint(&self) -> Option<String> {
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
                    scope: Scope::Path,
                })
            })
            .collect()
    }

    /// Finds and loads the skills under `roots`, keeping those whose name passes `filter`.
    pub fn build(roots: Vec<Root>, filter: &NameFilter) -> Result<SkillIndex, IndexError> {
        let mut walker = Walker::default();
        for (index, root) in roots.iter().enumerate() {
            walker.root(index, &root.path, root.scope == Scope::Path)?;
        }
        let Walker {
            found, problems, ..
        } = walker;
        let entries: Vec<Entry> = found
            .into_par_iter()
            .map(|found| {
                let skill = match found.file_name {
                    FileName::Upper { .. } | FileName::Lower => {
                        Skill::load(&found.dir, &found.file)
                    }
                    FileName::Misnamed | FileName::NotAFile => Err(LoadError::Read {
                        path: found.dir.join(SKILL_MD),
                        source: std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            "no file named exactly SKILL.md",
                        ),
                    }),
                };
                Entry {
                    locations: vec![found.dir.clone()],
                    dir: found.dir,
                    file: found.file,
                    file_name: found.file_name,
                    root: found.root,
                    skill,
                    shadowed_by: None,
                }
            })
            .filter(|entry| filter.matches(&entry.name()))
            .collect();
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
            let canonical = std::fs::canonicalize(&entry.dir).unwrap_or_else(|_| entry.dir.clone());
            if let Some(&first) = by_canonical.get(&canonical) {
                self.entries[first].locations.push(entry.dir);
                continue;
            }
            let position = self.entries.len();
            by_canonical.insert(canonical, position);
            match by_name.get(&entry.name()) {
                Some(&first) => entry.shadowed_by = Some(first),
                None => {
                    by_name.insert(entry.name(), position);
                }
            }
            self.entries.push(entry);
        }
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

/// The project's agent dirs (canonical first), then the user's, keeping those that exist.
pub fn default_roots(project: &Path, global_only: bool) -> Vec<Root> {
    let mut roots = Vec::new();
    if !global_only {
        for dir in agents::project_dirs() {
            let path = project.join(dir);
            if path.is_dir() {
                roots.push(Root {
                    path,
                    scope: Scope::Project,
                });
            }
        }
    }
    for path in agents::global_dirs() {
        if path.is_dir() && !roots.iter().any(|r| r.path == path) {
            roots.push(Root {
                path,
                scope: Scope::Global,
            });
        }
    }
    roots
}

struct Found {
    dir: PathBuf,
    file: PathBuf,
    file_name: FileName,
    root: usize,
}

#[derive(Default)]
struct Walker {
    found: Vec<Found>,
    problems: Vec<Problem>,
    /// Canonical folders already searched: ends symlink loops.
    visited: HashSet<PathBuf>,
}

impl Walker {
    fn root(&mut self, root: usize, path: &Path, explicit: bool) -> Result<(), IndexError> {
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
                SKILL_MD => FileName::Upper {
                    also_lower: dir.join(SKILL_MD_LOWER).is_file(),
                },
                SKILL_MD_LOWER => FileName::Lower,
                _ => FileName::Misnamed,
            };
            self.found.push(Found {
                dir,
                file: path.to_path_buf(),
                file_name,
                root,
            });
            return Ok(());
        }
        if !meta.is_dir() && explicit {
            return Err(IndexError::NotASkill(path.to_path_buf()));
        }
        self.dir(root, path, 0);
        Ok(())
    }

    fn dir(&mut self, root: usize, dir: &Path, depth: usize) {
        let mut names: Vec<(String, std::fs::DirEntry)> = match std::fs::read_dir(dir) {
            Ok(read) => read
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
                return;
            }
        };
        names.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(found) = skill_file(dir, &names) {
            self.found.push(Found {
                dir: dir.to_path_buf(),
                file: found.0,
                file_name: found.1,
                root,
            });
            return;
        }
        // A skill folder reached twice is recorded twice (merged later); a plain folder is searched
        // once, which ends symlink loops.
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if depth >= MAX_DEPTH || !self.visited.insert(canonical) {
            return;
        }
        for (name, entry) in &names {
            if SKIPPED_DIRS.contains(&name.as_str()) {
                continue;
            }
            let path = entry.path();
            let is_dir = match entry.file_type() {
                Ok(t) if t.is_dir() => true,
                Ok(t) if t.is_symlink() => path.is_dir(),
                _ => false,
            };
            if is_dir {
                self.dir(root, &path, depth + 1);
            }
        }
    }

    fn problem(&mut self, path: &Path, err: &std::io::Error) {
        self.problems.push(Problem {
            path: path.to_path_buf(),
            message: err.to_string(),
        });
    }
}

/// The skill file of a folder, judged from its sorted entries.
fn skill_file(dir: &Path, names: &[(String, std::fs::DirEntry)]) -> Option<(PathBuf, FileName)> {
    let has = |wanted: &str| {
        names
            .iter()
            .find(|(name, _)| name == wanted)
            .map(|(_, e)| e)
    };
    let is_file = |entry: &std::fs::DirEntry| entry.path().is_file();
    if let Some(entry) = has(SKILL_MD) {
        if is_file(entry) {
            let also_lower = has(SKILL_MD_LOWER).is_some_and(is_file);
            return Some((entry.path(), FileName::Upper { also_lower }));
        }
        return Some((entry.path(), FileName::NotAFile));
    }
    if let Some(entry) = has(SKILL_MD_LOWER).filter(|e| is_file(e)) {
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
                scope: Scope::Path,
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
                scope: Scope::Project,
            },
            Root {
                path: g,
                scope: Scope::Global,
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
                scope: Scope::Path,
            }]
        };
        let index = SkillIndex::build(root(), &NameFilter::default()).unwrap();
        let kinds: Vec<_> = index.entries.iter().map(|e| e.file_name).collect();
        assert_eq!(
            kinds,
            [
                FileName::NotAFile,
                FileName::Upper { also_lower: false },
                FileName::Misnamed,
                FileName::Upper { also_lower: false }
            ]
        );
        let filter = NameFilter::new(&["*-a".into(), "*-b".into()], &["doc-*".into()]).unwrap();
        let index = SkillIndex::build(root(), &filter).unwrap();
        assert_eq!(names(&index), ["pdf-a"]);
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
                scope: Scope::Path,
            }],
            &NameFilter::default(),
        )
        .unwrap();
        assert_eq!(names(&index), ["s"]);
    }
}
