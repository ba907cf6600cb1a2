//! A skill read out of its source into memory ([`Payload`]) and checked before anything is
//! written: symlinks are dereferenced while they stay inside the source and refused when they
//! leave it, files and the whole skill are held to [`Limits`], special files are refused.
//! The reference's `computedHash` is taken over the same walk. Which files are installed,
//! hashed or left out is decided by [`crate::skill::files`], for every kind of source.

use super::InstallError;
use crate::lock;
use crate::relpath::RelPath;
use crate::skill::files;
use crate::source::tree::{Kind, SourceTree, join};

/// Limits on what one skill may bring.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_file_size: u64,
    pub max_skill_size: u64,
    pub max_files: usize,
}

/// Every limit on what a source may bring: each skill's, and a web source's downloads.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceLimits {
    pub skill: Limits,
    pub web: crate::source::web::WebLimits,
}

impl Limits {
    /// No limits: for reading what is already installed.
    pub fn unbounded() -> Limits {
        Limits {
            max_file_size: u64::MAX,
            max_skill_size: u64::MAX,
            max_files: usize::MAX,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: 10 << 20,
            max_skill_size: 50 << 20,
            max_files: 1000,
        }
    }
}

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayloadFile {
    /// Its path inside the skill folder: validated, never the root.
    pub rel: RelPath,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// A skill read out of its source.
#[derive(Debug, Clone)]
pub struct Payload {
    /// What is installed: every file but `.git` and the top-level `metadata.json`, symlinks
    /// that stay inside the source dereferenced; sorted by path, no path twice (in any case).
    pub files: Vec<PayloadFile>,
    /// The reference's hash of the source folder (regular files only, `.git/` and
    /// `node_modules/` left out, `metadata.json` and dotfiles included).
    pub computed_hash: String,
    /// Things left out, with why (submodules).
    pub notes: Vec<String>,
    /// What the walk found and left out of `files`: a `.git` folder (as `path/`) or file at any
    /// depth, the top-level `metadata.json`. Read back from an installed folder, what replacing
    /// the folder would delete although no lock lists it (a user's `git init` there).
    pub left_out: Vec<String>,
    /// The [`crate::install::store::Store`] the payload was read from, if it was: its files are placed by
    /// reflink from there where the file system can.
    pub store: Option<crate::install::store::Store>,
    /// [`Payload::digests`], computed once (the gate's worker, the transaction's record and the
    /// lock all ask); `files` is not changed once they are.
    pub digested: std::sync::OnceLock<lock::Files>,
}

impl Payload {
    /// No files (what a link placement is compared with: only its target matters).
    pub fn empty() -> Payload {
        Payload {
            files: Vec::new(),
            computed_hash: String::new(),
            notes: Vec::new(),
            left_out: Vec::new(),
            store: None,
            digested: std::sync::OnceLock::new(),
        }
    }

    /// `relative/path` → `sha256:<hex>` of what is installed.
    pub fn digests(&self) -> lock::Files {
        self.digested().clone()
    }

    /// The files as the gate lints them.
    pub fn memory(&self) -> Vec<crate::lint::memory::MemoryFile<'_>> {
        self.files
            .iter()
            .map(|f| crate::lint::memory::MemoryFile {
                rel: &f.rel,
                bytes: &f.bytes,
                executable: f.executable,
            })
            .collect()
    }

    /// The key of the gate's lint of these files as `folder` ([`crate::gate::verdict_key`]).
    pub fn verdict_key(&self, folder: &str) -> Option<String> {
        let digests = self.digested();
        let files: Option<Vec<crate::gate::Keyed<'_>>> = self
            .files
            .iter()
            .map(|f| Some((f.rel.as_str(), digests.get(&f.rel)?.as_str(), f.executable)))
            .collect();
        crate::gate::verdict_key(folder, &files?)
    }

    /// [`Payload::digests`], borrowed.
    pub fn digested(&self) -> &lock::Files {
        self.digested.get_or_init(|| {
            self.files
                .iter()
                .map(|f| (f.rel.clone(), lock::digest(&f.bytes)))
                .collect()
        })
    }
}

struct Collector<'a> {
    tree: &'a dyn SourceTree,
    limits: Limits,
    payload: Payload,
    hashed: Vec<(String, Vec<u8>)>,
    total: u64,
    /// Entries looked at so far, files, folders and links alike: a tree whose folders share
    /// subtrees (or a folder with links to its parents) could otherwise take exponential time.
    visited: usize,
}

/// Entries a walk may look at: as many as a skill may have files, four times over (folders,
/// links and left-out files count too).
fn entry_budget(limits: Limits) -> usize {
    limits.max_files.saturating_mul(4).max(64)
}

/// Reads the skill at `dir` (a folder of `tree`) and checks it against `limits`.
pub fn collect(
    tree: &dyn SourceTree,
    dir: &RelPath,
    limits: Limits,
) -> Result<Payload, InstallError> {
    let mut collector = Collector {
        tree,
        limits,
        payload: Payload::empty(),
        hashed: Vec::new(),
        total: 0,
        visited: 0,
    };
    collector.walk(dir, &RelPath::ROOT, 0, true)?;
    collector.payload.computed_hash = lock::computed_hash(
        collector
            .hashed
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice())),
    );
    collector.payload.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    refuse_clashes(&collector.payload.files)?;
    Ok(collector.payload)
}

/// Two files whose paths are equal, or equal but for case (one file on macOS and Windows), are
/// refused: which one lands would depend on the system.
fn refuse_clashes(files: &[PayloadFile]) -> Result<(), InstallError> {
    let mut seen: std::collections::HashMap<String, &RelPath> =
        std::collections::HashMap::with_capacity(files.len());
    for file in files {
        if let Some(first) = seen.insert(file.rel.to_lowercase(), &file.rel) {
            return Err(InstallError::Clash {
                first: first.to_string(),
                second: file.rel.to_string(),
            });
        }
    }
    Ok(())
}

impl Collector<'_> {
    fn unsafe_path(err: crate::relpath::UnsafePath) -> InstallError {
        InstallError::UnsafePath(err)
    }

    /// Walks `dir` of the tree, installing under `prefix`; `hash` is false below a symlinked
    /// folder (the reference's hash does not follow links).
    fn walk(
        &mut self,
        dir: &RelPath,
        prefix: &RelPath,
        depth: usize,
        hash: bool,
    ) -> Result<(), InstallError> {
        if depth > files::MAX_DEPTH {
            return Err(InstallError::TooDeep {
                path: prefix.to_string(),
                limit: files::MAX_DEPTH,
            });
        }
        let entries = self.tree.list(dir).map_err(|source| InstallError::Read {
            path: dir.to_string(),
            source,
        })?;
        for entry in entries {
            self.visited += 1;
            if self.visited > entry_budget(self.limits) {
                return Err(InstallError::TooManyEntries {
                    limit: entry_budget(self.limits),
                });
            }
            if crate::relpath::is_dot_git(&entry.name) {
                // A repository's own metadata is never part of a skill; a `.git` file (a
                // `gitdir:` pointer) would make git run what the folder it names configures.
                let path = join(prefix, &entry.name);
                if entry.kind == Kind::Dir {
                    self.payload.left_out.push(format!("{path}/"));
                } else {
                    self.payload
                        .notes
                        .push(format!("left out `{path}`: git metadata, never installed"));
                    self.payload.left_out.push(path);
                }
                continue;
            }
            let source_path = dir.join(&entry.name).map_err(Self::unsafe_path)?;
            let rel = prefix.join(&entry.name).map_err(Self::unsafe_path)?;
            match entry.kind {
                Kind::Dir => {
                    let hash = hash && files::is_hashed(&entry.name);
                    self.walk(&source_path, &rel, depth + 1, hash)?;
                }
                Kind::File { executable } => {
                    let bytes = self.read(&source_path, &rel)?;
                    if hash && files::is_hashed(&rel) {
                        self.hashed.push((rel.to_string(), bytes.clone()));
                    }
                    if files::is_installed(&rel) {
                        self.push(rel, bytes, executable)?;
                    } else {
                        self.payload.left_out.push(rel.to_string());
                    }
                }
                Kind::Symlink => self.link(&source_path, &rel, depth)?,
                Kind::Submodule => self.payload.notes.push(format!(
                    "left out `{rel}`: a git submodule (its files live in another repository)"
                )),
                Kind::Special => {
                    return Err(InstallError::Special {
                        path: rel.to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Dereferences a symlink whose target stays inside the source; refuses one that leaves it.
    fn link(
        &mut self,
        source_path: &RelPath,
        rel: &RelPath,
        depth: usize,
    ) -> Result<(), InstallError> {
        let target = self
            .tree
            .read_link(source_path)
            .map_err(|source| InstallError::Read {
                path: rel.to_string(),
                source,
            })?;
        let escapes = || InstallError::SymlinkEscapes {
            path: rel.to_string(),
            target: target.clone(),
        };
        if target.contains('\\') {
            return Err(escapes());
        }
        let resolved = source_path.resolve_link(&target).ok_or_else(escapes)?;
        match self.tree.kind(&resolved) {
            Some(Kind::File { executable }) => {
                let bytes = self.read(&resolved, rel)?;
                self.push(rel.clone(), bytes, executable)
            }
            Some(Kind::Dir) => self.walk(&resolved, rel, depth + 1, false),
            Some(Kind::Symlink) if depth < 8 => self.link(&resolved, rel, depth + 1),
            None | Some(Kind::Symlink) => Err(InstallError::SymlinkDangles {
                path: rel.to_string(),
                target: target.clone(),
            }),
            _ => Err(escapes()),
        }
    }

    fn read(&self, path: &RelPath, rel: &RelPath) -> Result<Vec<u8>, InstallError> {
        let limit = self.limits.max_file_size;
        self.tree.read(path, limit).map_err(|source| {
            match crate::source::tree::TooLarge::of(&source) {
                Some(too_large) => InstallError::FileTooLarge {
                    path: rel.to_string(),
                    size: too_large.size,
                    limit,
                },
                None => InstallError::Read {
                    path: rel.to_string(),
                    source,
                },
            }
        })
    }

    fn push(&mut self, rel: RelPath, bytes: Vec<u8>, executable: bool) -> Result<(), InstallError> {
        self.total += bytes.len() as u64;
        if self.total > self.limits.max_skill_size {
            return Err(InstallError::SkillTooLarge {
                size: self.total,
                limit: self.limits.max_skill_size,
            });
        }
        if self.payload.files.len() >= self.limits.max_files {
            return Err(InstallError::TooManyFiles {
                limit: self.limits.max_files,
            });
        }
        self.payload.files.push(PayloadFile {
            rel,
            bytes,
            executable,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::tree::LocalTree;

    #[cfg(unix)]
    #[test]
    fn collects_and_refuses_escaping_links() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("skill/scripts")).unwrap();
        std::fs::write(root.join("skill/SKILL.md"), "x").unwrap();
        std::fs::write(root.join("skill/metadata.json"), "{}").unwrap();
        std::fs::write(root.join("LICENSE"), "MIT").unwrap();
        std::os::unix::fs::symlink("../LICENSE", root.join("skill/LICENSE")).unwrap();
        let tree = LocalTree::open(root.to_path_buf()).unwrap();
        let skill = RelPath::new("skill").unwrap();
        let payload = collect(&tree, &skill, Limits::default()).unwrap();
        let rels: Vec<&str> = payload.files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(
            rels,
            ["LICENSE", "SKILL.md"],
            "metadata.json left out, inner link dereferenced"
        );
        std::os::unix::fs::symlink("/etc/passwd", root.join("skill/passwd")).unwrap();
        let err = collect(&tree, &skill, Limits::default()).unwrap_err();
        assert!(matches!(err, InstallError::SymlinkEscapes { .. }), "{err}");
        std::fs::remove_file(root.join("skill/passwd")).unwrap();
        std::os::unix::fs::symlink("missing.md", root.join("skill/dangling")).unwrap();
        let err = collect(&tree, &skill, Limits::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`dangling` is a symlink to `missing.md`, which leads nowhere (missing, or a loop)"
        );
    }

    #[test]
    fn too_deep_is_said() {
        let tmp = tempfile::tempdir().unwrap();
        let deep: std::path::PathBuf = (0..40).map(|_| "d").collect();
        std::fs::create_dir_all(tmp.path().join("skill").join(&deep)).unwrap();
        std::fs::write(tmp.path().join("skill/SKILL.md"), "x").unwrap();
        let tree = LocalTree::open(tmp.path().to_path_buf()).unwrap();
        let skill = RelPath::new("skill").unwrap();
        let err = collect(&tree, &skill, Limits::default()).unwrap_err();
        assert!(
            matches!(err, InstallError::TooDeep { limit: 32, .. }),
            "{err}"
        );
    }
}
