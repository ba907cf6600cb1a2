//! Which skills a source offers, found in the reference installer's order so that the same
//! repository yields the same skills with both tools.
//!
//! Order: a `SKILL.md` at the search root is the only skill (unless `full_depth`); otherwise the
//! root's children, then `skills/`, `skills/.curated`, `skills/.experimental`, `skills/.system`
//! and every agent project dir (each searched 3 levels deep), then the plugin dirs named by
//! `.claude-plugin/marketplace.json` / `plugin.json`; only when that finds nothing (or with
//! `full_depth`) a recursive search 5 levels deep. Entries are visited in byte order of their
//! names (the reference uses the file system's order). A second skill with a taken name is
//! skipped and reported. Skills a source keeps in its own agent dirs *and* lists in its own
//! `skills-lock.json` are installed copies, not offered skills, and are skipped as there.

use std::collections::HashSet;

use serde_json::Value;

use super::tree::{Kind, SourceTree, join};
use crate::agents;
use crate::relpath::RelPath;
use crate::skill::files::is_searched;
use crate::skill::name::folder_name;
use crate::skill::{SKILL_MD, Skill};

/// Depth of the recursive fallback search.
const MAX_DEPTH: usize = 5;

/// A skill a source offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub name: String,
    pub description: String,
    /// Its folder inside the source (the root for a skill at the top).
    pub path: RelPath,
    /// `metadata.internal: true`: listed only when asked for by name.
    pub internal: bool,
    /// `sha256:<hex>` of what a web index serves for it (v0.2 indexes).
    pub digest: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Discovery {
    pub skills: Vec<Offered>,
    /// Skills left out, with why (unreadable, no name, duplicate name).
    pub warnings: Vec<String>,
    /// Places searched, for "no skills found" messages.
    pub searched: Vec<String>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Search below a root `SKILL.md` too.
    pub full_depth: bool,
}

/// Entries a search may look at in all: a source whose folders share subtrees, or that is
/// simply enormous, is searched this far and no further (with a warning).
const MAX_ENTRIES: usize = 200_000;

/// The largest SKILL.md read while searching (a skill's own limits apply when it is installed).
const MAX_SKILL_MD: u64 = 8 << 20;

struct Search<'a> {
    tree: &'a dyn SourceTree,
    found: Discovery,
    seen_names: HashSet<String>,
    seen_paths: HashSet<RelPath>,
    /// Folders already searched, by identity (a git tree reachable by several paths).
    seen_folders: HashSet<[u8; 20]>,
    locked: HashSet<String>,
    base: RelPath,
    /// Entries looked at so far.
    visited: usize,
    /// Names that cannot be paths, said once each.
    refused: HashSet<String>,
}

/// Finds the skills of `tree` below `base`.
pub fn discover(tree: &dyn SourceTree, base: &RelPath, options: Options) -> Discovery {
    let base = base.clone();
    let mut search = Search {
        tree,
        found: Discovery::default(),
        seen_names: HashSet::new(),
        seen_paths: HashSet::new(),
        seen_folders: HashSet::new(),
        locked: locked_names(tree, &base),
        base: base.clone(),
        visited: 0,
        refused: HashSet::new(),
    };
    if search.has_skill_md(&base) {
        search.found.searched.push(shown(&base));
        search.add(&base);
        if !options.full_depth && !search.found.skills.is_empty() {
            return search.found;
        }
    }
    let mut priority: Vec<(RelPath, usize)> = vec![(base.clone(), 1)];
    let known = [
        "skills",
        "skills/.curated",
        "skills/.experimental",
        "skills/.system",
    ]
    .into_iter()
    .chain(agents::project_dirs());
    for dir in known {
        let Some(dir) = RelPath::new(&join(base.as_str(), dir)).ok() else {
            continue;
        };
        if !priority.iter().any(|(d, _)| *d == dir) {
            priority.push((dir, 3));
        }
    }
    for dir in plugin_dirs(tree, &base) {
        if !priority.iter().any(|(d, _)| *d == dir) {
            priority.push((dir, 1));
        }
    }
    for (dir, depth) in &priority {
        if tree.kind(dir) == Some(Kind::Dir) {
            search.found.searched.push(shown(dir));
            search.walk(dir, *depth, 1);
        }
    }
    if search.found.skills.is_empty() || options.full_depth {
        // The recursive search covers the root's own level: say it once.
        let root = shown(&base);
        search.found.searched.retain(|searched| *searched != root);
        search.found.searched.push(format!(
            "{} (recursively, {MAX_DEPTH} levels)",
            shown(&base)
        ));
        search.seen_folders.clear();
        search.recursive(&base, 0);
    }
    if search.visited > MAX_ENTRIES {
        search.found.warnings.push(format!(
            "stopped searching after {MAX_ENTRIES} entries: the source is too large to search whole; name the folder of the skills (`owner/repo/path`)"
        ));
    }
    search.found
}

fn shown(path: &RelPath) -> String {
    if path.is_root() {
        "the source root".to_owned()
    } else {
        format!("`{path}`")
    }
}

/// `dir/SKILL.md`.
fn skill_md(dir: &RelPath) -> Option<RelPath> {
    dir.join(SKILL_MD).ok()
}

impl Search<'_> {
    fn has_skill_md(&self, dir: &RelPath) -> bool {
        matches!(
            skill_md(dir).and_then(|file| self.tree.kind(&file)),
            Some(Kind::File { .. })
        )
    }

    /// Children of `dir` that are folders (symlinked folders are not followed in sources), as
    /// paths; a name that cannot be a path is left out and said once. Empty past the budget,
    /// and for a folder already searched by another path.
    fn subdirs(&mut self, dir: &RelPath) -> Vec<(String, RelPath)> {
        if self.visited > MAX_ENTRIES {
            return Vec::new();
        }
        if let Some(id) = self.tree.folder_id(dir)
            && !self.seen_folders.insert(id)
        {
            return Vec::new();
        }
        let entries = self.tree.list(dir).unwrap_or_default();
        self.visited += entries.len();
        let mut out = Vec::new();
        for entry in entries.into_iter().filter(|e| e.kind == Kind::Dir) {
            match dir.join(&entry.name) {
                Ok(child) => out.push((entry.name, child)),
                Err(err) => {
                    if crate::relpath::is_dot_git(&entry.name) {
                        continue;
                    }
                    if self.refused.insert(err.path.clone()) {
                        self.found.warnings.push(format!("skipped a folder: {err}"));
                    }
                }
            }
        }
        out
    }

    fn walk(&mut self, dir: &RelPath, max_depth: usize, depth: usize) {
        for (name, child) in self.subdirs(dir) {
            if self.has_skill_md(&child) {
                self.add(&child);
                continue;
            }
            if depth < max_depth && is_searched(&name) {
                self.walk(&child, max_depth, depth + 1);
            }
        }
    }

    fn recursive(&mut self, dir: &RelPath, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if self.has_skill_md(dir) {
            self.add(dir);
        }
        for (name, child) in self.subdirs(dir) {
            if is_searched(&name) {
                self.recursive(&child, depth + 1);
            }
        }
    }

    fn add(&mut self, dir: &RelPath) {
        if !self.seen_paths.insert(dir.clone()) {
            return;
        }
        let Some(file) = skill_md(dir) else {
            return;
        };
        let shown_file = format!("`{file}`");
        let bytes = match self.tree.read(&file, MAX_SKILL_MD) {
            Ok(bytes) => bytes,
            Err(err) => {
                self.found
                    .warnings
                    .push(format!("skipped {shown_file}: cannot read it: {err}"));
                return;
            }
        };
        let skill = match Skill::parse(
            std::path::Path::new(dir.as_str()),
            std::path::Path::new(file.as_str()),
            bytes,
        ) {
            Ok(skill) => skill,
            Err(err) => {
                self.found
                    .warnings
                    .push(format!("skipped {shown_file}: {err}"));
                return;
            }
        };
        let (Some(name), Some(description)) = (skill.name(), skill.description()) else {
            self.found.warnings.push(format!(
                "skipped {shown_file}: it needs a `name` and a `description`"
            ));
            return;
        };
        if self.is_installed_copy(dir, &name) {
            return;
        }
        // Two names that become one folder (`PDF`, `pdf`) clash as two equal names do: the
        // first wins.
        let folder = folder_name(&name).unwrap_or_else(|| name.clone());
        if !self.seen_names.insert(folder.clone()) {
            let first = self
                .found
                .skills
                .iter()
                .find(|s| folder_name(&s.name).unwrap_or_else(|| s.name.clone()) == folder);
            let by = first.map_or_else(
                || "the source root".to_owned(),
                |s| {
                    if s.path.is_root() {
                        "the source root".to_owned()
                    } else {
                        s.path.to_string()
                    }
                },
            );
            let why = match first {
                Some(s) if s.name != name => format!(
                    "the name `{name}` is installed in the folder `{folder}`, as `{}` of `{by}`",
                    s.name
                ),
                _ => format!("the name `{name}` is already taken by `{by}`"),
            };
            self.found
                .warnings
                .push(format!("skipped {shown_file}: {why}"));
            return;
        }
        self.found.skills.push(Offered {
            name,
            description,
            path: dir.clone(),
            internal: skill.is_internal(),
            digest: None,
        });
    }

    /// A skill in one of the source's own agent dirs that its own lock lists was installed there.
    fn is_installed_copy(&self, dir: &RelPath, name: &str) -> bool {
        if self.locked.is_empty() {
            return false;
        }
        let relative = dir.strip_prefix(&self.base).unwrap_or_else(|| dir.clone());
        let relative = relative.as_str();
        let in_agent_dir = agents::project_dirs().iter().any(|d| {
            relative
                .strip_prefix(d)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        });
        let folder = relative.rsplit('/').next().unwrap_or(relative);
        in_agent_dir && (self.locked.contains(name) || self.locked.contains(folder))
    }
}

/// Names in the source's own `skills-lock.json`, if it has one.
fn locked_names(tree: &dyn SourceTree, base: &RelPath) -> HashSet<String> {
    let Some(Ok(bytes)) = base
        .join(crate::lock::PROJECT_LOCK)
        .ok()
        .map(|file| tree.read(&file, MAX_SKILL_MD))
    else {
        return HashSet::new();
    };
    let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
        return HashSet::new();
    };
    value["skills"]
        .as_object()
        .map(|skills| skills.keys().cloned().collect())
        .unwrap_or_default()
}

/// A relative path inside the plugin manifest: `./x` only, never leaving the source.
fn plugin_path(base: &str, path: &str) -> Option<String> {
    let rest = path.strip_prefix("./")?;
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    let depth = parts.len();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.len() <= depth {
                    return None;
                }
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Folders named by `.claude-plugin/marketplace.json` and `.claude-plugin/plugin.json`, as
/// paths (a named folder that cannot be one is left out).
fn plugin_dirs(tree: &dyn SourceTree, base: &RelPath) -> Vec<RelPath> {
    plugin_dir_names(tree, base.as_str())
        .iter()
        .filter_map(|dir| RelPath::new(dir).ok())
        .collect()
}

/// The folders of [`plugin_dirs`], as the manifests name them.
fn plugin_dir_names(tree: &dyn SourceTree, base: &str) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut add_plugin = |plugin_base: &str, skills: Option<&Value>| {
        for skill in skills.and_then(Value::as_array).into_iter().flatten() {
            if let Some(path) = skill.as_str().and_then(|p| plugin_path(plugin_base, p)) {
                // The reference searches the folder that holds the named skill.
                let parent = path
                    .rsplit_once('/')
                    .map_or(String::new(), |(p, _)| p.to_owned());
                dirs.push(parent);
            }
        }
        dirs.push(join(plugin_base, "skills"));
    };
    let read = |file: &str| -> Option<Value> {
        let path = RelPath::new(&join(base, file)).ok()?;
        serde_json::from_slice(&tree.read(&path, MAX_SKILL_MD).ok()?).ok()
    };
    if let Some(manifest) = read(".claude-plugin/marketplace.json") {
        let root = manifest["metadata"]["pluginRoot"].as_str();
        let root = match root {
            None => Some(base.to_owned()),
            Some(root) => plugin_path(base, root),
        };
        if let Some(root) = root {
            for plugin in manifest["plugins"].as_array().into_iter().flatten() {
                let source = match &plugin["source"] {
                    Value::Null => Some(root.clone()),
                    Value::String(source) => plugin_path(&root, source),
                    _ => None,
                };
                if let Some(source) = source.filter(|s| s.starts_with(base)) {
                    add_plugin(&source, plugin.get("skills"));
                }
            }
        }
    }
    if let Some(manifest) = read(".claude-plugin/plugin.json") {
        add_plugin(base, manifest.get("skills"));
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::tree::LocalTree;

    fn skill(root: &std::path::Path, dir: &str, name: &str) {
        let path = root.join(dir);
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(
            path.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n"),
        )
        .unwrap();
    }

    fn local(root: &std::path::Path) -> LocalTree {
        LocalTree::open(root.to_path_buf()).unwrap()
    }

    fn names(d: &Discovery) -> Vec<&str> {
        d.skills.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn reference_order() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        skill(r, "skills/b", "b");
        skill(r, "skills/.curated/a", "a");
        skill(r, "top", "top");
        skill(r, ".claude/skills/c", "c");
        skill(r, "plugins/p/skills/d", "d");
        skill(r, "deep/x/y/z/e", "e");
        std::fs::create_dir_all(r.join(".claude-plugin")).unwrap();
        std::fs::write(r.join(".claude-plugin/marketplace.json"), r#"{"plugins": [{"name": "p", "source": "./plugins/p"}, {"name": "bad", "source": "../outside"}]}"#).unwrap();
        let d = discover(&local(r), &RelPath::ROOT, Options::default());
        assert_eq!(names(&d), ["top", "a", "b", "c", "d"], "{:?}", d.warnings);
        let d = discover(&local(r), &RelPath::ROOT, Options { full_depth: true });
        assert_eq!(names(&d), ["top", "a", "b", "c", "d", "e"]);
    }

    #[test]
    fn root_skill_alone_and_duplicates() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        skill(r, "", "root");
        skill(r, "skills/inner", "inner");
        let d = discover(&local(r), &RelPath::ROOT, Options::default());
        assert_eq!(names(&d), ["root"]);
        skill(r, "skills/again", "inner");
        let d = discover(&local(r), &RelPath::ROOT, Options { full_depth: true });
        assert_eq!(names(&d), ["root", "inner"]);
        assert!(
            d.warnings
                .iter()
                .any(|w| w.contains("already taken by `skills/again`")
                    || w.contains("already taken")),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn fallback_is_recursive_and_skips() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        skill(r, "a/b/c/deep", "deep");
        skill(r, "node_modules/x/y", "ignored");
        skill(r, "a/b/c/d/e/f/too-deep", "too-deep");
        let d = discover(&local(r), &RelPath::ROOT, Options::default());
        assert_eq!(names(&d), ["deep"]);
        assert!(d.searched.iter().any(|s| s.contains("recursively")));
    }
}
