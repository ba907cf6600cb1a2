//! Skills shipped in npm packages: the project's `package.json`, the packages it depends on as
//! `node_modules` holds them, and the skills each one ships — what `skills sync` installs.
//!
//! A package ships a root `SKILL.md` (one skill), or `skills/<name>/SKILL.md` and
//! `dist/skills/<name>/SKILL.md`; a `SKILL.md` without a `name` and a `description` is not a skill.
//! Dependencies are the four fields npm knows; a `"skills"` array in a `package.json` may also
//! name packages (`"npm:pkg"`, optionally `{"source": "npm:pkg", "skills": [...]}`) and git
//! sources, which `sync` reports but does not fetch. Packages are found the way Node resolves
//! them: `node_modules/<name>` in the folder, then in each parent. Nothing here writes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::skill::{SKILL_MD, Skill};

/// The dependency fields of a `package.json`, in the reference's order.
const DEPENDENCY_FIELDS: [&str; 4] = [
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
];

/// Where a package keeps its skills, when it has no root `SKILL.md`.
const SKILL_FOLDERS: [&str; 2] = ["skills", "dist/skills"];

/// The prefix of a package reference in a `"skills"` field.
const NPM_PREFIX: &str = "npm:";

/// One skill a package ships.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shipped {
    /// The frontmatter `name`.
    pub name: String,
    pub description: String,
    /// The package name (`@scope/pkg`).
    pub package: String,
    /// The package's `version`.
    pub version: Option<String>,
    /// The package folder, as found under `node_modules` (symlinks kept: they follow reinstalls).
    pub package_dir: PathBuf,
    /// The skill folder inside the package (`skills/pdf`, or `""` for a root skill).
    pub dir: String,
    /// How far from the project: 0 for a direct dependency, more for packages found through
    /// other packages' `"skills"` fields or workspaces.
    pub depth: usize,
    /// The package (or `.` for the project) whose `"skills"` field named this package.
    pub via: Option<String>,
}

impl Shipped {
    /// The skill folder on disk.
    pub fn path(&self) -> PathBuf {
        if self.dir.is_empty() {
            self.package_dir.clone()
        } else {
            self.package_dir.join(&self.dir)
        }
    }

    /// `skillPath` in the lock: the SKILL.md inside the package.
    pub fn skill_path(&self) -> String {
        super::tree::join(&self.dir, SKILL_MD)
    }
}

/// What the packages of a project ship, and what was odd on the way.
#[derive(Debug, Default)]
pub struct Found {
    pub skills: Vec<Shipped>,
    /// Git sources named in `"skills"` fields (not fetched by `sync`).
    pub remote: Vec<String>,
    /// Problems in dependencies' `package.json` files.
    pub warnings: Vec<String>,
    /// Problems in the project's own `package.json`: `sync` stops on them.
    pub errors: Vec<String>,
}

impl Found {
    /// A problem in a `"skills"` field: an error in the project's own, a warning elsewhere.
    fn problem(&mut self, own: bool, text: String) {
        if own {
            self.errors.push(text);
        } else {
            self.warnings.push(text);
        }
    }
}

/// Reads `dir/package.json`; `None` when there is none or it is not a JSON object.
pub fn read_package_json(dir: &Path) -> Option<serde_json::Map<String, Value>> {
    let bytes = crate::fsutil::read_manifest(&dir.join("package.json")).ok()?;
    match serde_json::from_slice(&bytes).ok()? {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

/// The folder of package `name` as Node would resolve it from `from`: `node_modules/<name>`
/// there or in a parent folder, holding a `package.json`.
pub fn find_installed(from: &Path, name: &str) -> Option<PathBuf> {
    if !is_package_name(name) {
        return None;
    }
    from.ancestors()
        .map(|dir| dir.join("node_modules").join(name))
        .find(|candidate| candidate.join("package.json").is_file())
}

/// npm's rules, loosely: `name` or `@scope/name`, no `..`, no backslash, nothing absolute.
fn is_package_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    let shape_ok = match parts.as_slice() {
        [one] => !one.starts_with('@'),
        [scope, _] => scope.starts_with('@') && scope.len() > 1,
        _ => false,
    };
    shape_ok
        && parts.iter().all(|p| {
            !p.is_empty()
                && *p != "."
                && *p != ".."
                && !p.contains(['\\', '\0'])
                && !p.starts_with('.')
        })
}

/// The skills package `package` (in `dir`) ships: a root skill, else those of `skills/` and
/// `dist/skills/`.
pub fn package_skills(dir: &Path, package: &str, depth: usize) -> Vec<Shipped> {
    let Some(manifest) = read_package_json(dir) else {
        return Vec::new();
    };
    let version = manifest
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let shipped = |rel: &str| {
        let folder = if rel.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(rel)
        };
        let skill = Skill::load(&folder, &folder.join(SKILL_MD)).ok()?;
        Some(Shipped {
            name: skill.name()?,
            description: skill.description()?,
            package: package.to_owned(),
            version: version.clone(),
            package_dir: dir.to_path_buf(),
            dir: rel.to_owned(),
            depth,
            via: None,
        })
    };
    if dir.join(SKILL_MD).is_file() {
        return shipped("").into_iter().collect();
    }
    let mut found = Vec::new();
    for base in SKILL_FOLDERS {
        let Ok(entries) = std::fs::read_dir(dir.join(base)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        found.extend(
            names
                .iter()
                .filter_map(|name| shipped(&format!("{base}/{name}"))),
        );
    }
    found
}

/// A folder whose `package.json` declares dependencies (the project or a workspace).
struct Declarer {
    name: String,
    dir: PathBuf,
    depth: usize,
}

/// Everything the packages of the project at `root` ship; with `recursive`, its workspaces'
/// dependencies too.
pub fn discover(root: &Path, recursive: bool) -> Found {
    let mut found = Found::default();
    let Some(manifest) = read_package_json(root) else {
        return found;
    };
    let mut projects = vec![Declarer {
        name: ".".into(),
        dir: root.to_path_buf(),
        depth: 0,
    }];
    if recursive {
        for dir in workspaces(root, &manifest) {
            let name = read_package_json(&dir)
                .and_then(|m| m.get("name").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_else(|| {
                    crate::fsutil::relative_path(root, &dir)
                        .display()
                        .to_string()
                });
            projects.push(Declarer {
                name,
                dir,
                depth: 1,
            });
        }
    }
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut add = |found: &mut Found, skills: Vec<Shipped>| {
        for skill in skills {
            let real = std::fs::canonicalize(skill.path()).unwrap_or_else(|_| skill.path());
            if !seen.contains(&real) {
                seen.push(real);
                found.skills.push(skill);
            }
        }
    };
    let mut declarers: Vec<Declarer> = Vec::new();
    for project in projects {
        let Some(manifest) = read_package_json(&project.dir) else {
            continue;
        };
        for name in dependencies(&manifest) {
            if let Some(dir) = find_installed(&project.dir, &name) {
                add(&mut found, package_skills(&dir, &name, project.depth));
                declarers.push(Declarer {
                    name,
                    dir,
                    depth: project.depth + 1,
                });
            }
        }
        declarers.insert(0, project);
    }
    // `"skills"` fields: of the project, its workspaces and the packages they depend on.
    let mut visited: Vec<PathBuf> = Vec::new();
    let mut index = 0;
    while let Some(declarer) = declarers.get(index) {
        index += 1;
        let real = std::fs::canonicalize(&declarer.dir).unwrap_or_else(|_| declarer.dir.clone());
        if visited.contains(&real) {
            continue;
        }
        visited.push(real);
        let Some(field) = read_package_json(&declarer.dir).and_then(|m| m.get("skills").cloned())
        else {
            continue;
        };
        let own = declarer.name == ".";
        let Value::Array(entries) = field else {
            if own {
                found
                    .errors
                    .push("package.json: \"skills\" must be an array".into());
            }
            continue;
        };
        let (name, dir, depth) = (declarer.name.clone(), declarer.dir.clone(), declarer.depth);
        for entry in &entries {
            let problem = |what: String| format!("{name}: {what}");
            let Some((source, only)) = skills_entry(entry) else {
                found.problem(own, problem(format!("invalid \"skills\" entry {entry}")));
                continue;
            };
            let Some(package) = source.strip_prefix(NPM_PREFIX) else {
                found.remote.push(source);
                continue;
            };
            let Some(target) = find_installed(&dir, package) else {
                found.problem(
                    own,
                    problem(format!(
                        "cannot find \"npm:{package}\" in node_modules; is it a dependency?"
                    )),
                );
                continue;
            };
            let skills: Vec<Shipped> = package_skills(&target, package, depth)
                .into_iter()
                .filter(|s| {
                    only.is_empty()
                        || only.iter().any(|o| {
                            s.dir.rsplit('/').next() == Some(o.as_str())
                                || crate::skill::name::folder_name(&s.name).as_deref()
                                    == Some(o.as_str())
                        })
                })
                .map(|s| Shipped {
                    via: Some(name.clone()),
                    ..s
                })
                .collect();
            add(&mut found, skills);
            declarers.push(Declarer {
                name: package.to_owned(),
                dir: target,
                depth: depth + 1,
            });
        }
    }
    found
}

/// The names in the dependency fields of a `package.json`, each once.
fn dependencies(manifest: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for field in DEPENDENCY_FIELDS {
        if let Some(Value::Object(deps)) = manifest.get(field) {
            for name in deps.keys() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}

/// One `"skills"` entry: `"source"`, or `{"source", "skills"?}`; `None` when malformed.
fn skills_entry(entry: &Value) -> Option<(String, Vec<String>)> {
    match entry {
        Value::String(source) => Some((source.clone(), Vec::new())),
        Value::Object(map) => {
            let source = map.get("source")?.as_str()?.to_owned();
            let only = match map.get("skills") {
                None => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()?,
                Some(_) => return None,
            };
            if map.get("ref").is_some_and(|r| !r.is_string()) {
                return None;
            }
            Some((source, only))
        }
        _ => None,
    }
}

/// Workspace folders of the project: `workspaces` (an array, or `{"packages": [...]}`), globs
/// relative to `root`, `!` to leave some out; each must hold a `package.json`.
fn workspaces(root: &Path, manifest: &serde_json::Map<String, Value>) -> Vec<PathBuf> {
    let patterns: Vec<&str> = match manifest.get("workspaces") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        Some(Value::Object(map)) => map
            .get("packages")
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let build = |negated: bool| {
        let mut set = globset::GlobSetBuilder::new();
        for pattern in &patterns {
            let (is_negated, glob) = match pattern.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, *pattern),
            };
            if is_negated == negated
                && let Ok(glob) = globset::Glob::new(glob.trim_end_matches('/'))
            {
                set.add(glob);
            }
        }
        set.build().ok()
    };
    let (Some(included), Some(excluded)) = (build(false), build(true)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name();
            let skipped = !name.to_str().is_some_and(crate::skill::files::is_searched);
            if skipped || !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let rel = crate::fsutil::relative_path(root, &path);
            let rel = rel.to_string_lossy().replace('\\', "/");
            if included.is_match(&rel)
                && !excluded.is_match(&rel)
                && path.join("package.json").is_file()
            {
                out.push(path.clone());
            }
            if depth < 4 {
                stack.push((path, depth + 1));
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names() {
        assert!(is_package_name("agent-browser"));
        assert!(is_package_name("@scope/pkg"));
        assert!(!is_package_name("../x"));
        assert!(!is_package_name("@scope"));
        assert!(!is_package_name("a/b"));
        assert!(!is_package_name("@s/.."));
        assert!(!is_package_name(""));
    }

    #[test]
    fn skills_entries() {
        let entry = serde_json::json!({"source": "npm:x", "skills": ["a"]});
        assert_eq!(
            skills_entry(&entry),
            Some(("npm:x".into(), vec!["a".into()]))
        );
        assert_eq!(
            skills_entry(&serde_json::json!("o/r")),
            Some(("o/r".into(), vec![]))
        );
        assert_eq!(skills_entry(&serde_json::json!({"skills": []})), None);
        assert_eq!(skills_entry(&serde_json::json!(3)), None);
    }
}
