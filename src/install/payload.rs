//! A skill read out of its source into memory ([`Payload`]) and checked before anything is
//! written: symlinks are dereferenced while they stay inside the source and refused when they
//! leave it, files and the whole skill are held to [`Limits`], special files are refused.
//! The reference's `computedHash` is taken over the same walk. Which files are installed,
//! hashed or left out is decided by [`crate::skill::files`], for every kind of source.

use super::InstallError;
use crate::lock;
use crate::skill::files;
use crate::source::tree::{Kind, SourceTree, join};

/// Limits on what one skill may bring.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_file_size: u64,
    pub max_skill_size: u64,
    pub max_files: usize,
}

impl From<&crate::cli::LimitArgs> for Limits {
    fn from(args: &crate::cli::LimitArgs) -> Limits {
        Limits {
            max_file_size: args.max_file_size,
            max_skill_size: args.max_skill_size,
            max_files: args.max_files,
        }
    }
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
    pub rel: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// A skill read out of its source.
#[derive(Debug, Clone)]
pub struct Payload {
    /// What is installed: every file but `.git/` and the top-level `metadata.json`, symlinks
    /// that stay inside the source dereferenced.
    pub files: Vec<PayloadFile>,
    /// The reference's hash of the source folder (regular files only, `.git/` and
    /// `node_modules/` left out, `metadata.json` and dotfiles included).
    pub computed_hash: String,
    /// Things left out, with why (submodules).
    pub notes: Vec<String>,
}

impl Payload {
    /// `relative/path` → `sha256:<hex>` of what is installed.
    pub fn digests(&self) -> std::collections::BTreeMap<String, String> {
        self.files
            .iter()
            .map(|f| (f.rel.clone(), lock::digest(&f.bytes)))
            .collect()
    }
}

struct Collector<'a> {
    tree: &'a dyn SourceTree,
    limits: Limits,
    payload: Payload,
    hashed: Vec<(String, Vec<u8>)>,
    total: u64,
}

/// Reads the skill at `dir` (a folder of `tree`) and checks it against `limits`.
pub fn collect(tree: &dyn SourceTree, dir: &str, limits: Limits) -> Result<Payload, InstallError> {
    let mut collector = Collector {
        tree,
        limits,
        payload: Payload {
            files: Vec::new(),
            computed_hash: String::new(),
            notes: Vec::new(),
        },
        hashed: Vec::new(),
        total: 0,
    };
    collector.walk(dir, "", 0, true)?;
    collector.payload.computed_hash = lock::computed_hash(
        collector
            .hashed
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice())),
    );
    collector.payload.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(collector.payload)
}

impl Collector<'_> {
    /// Walks `dir` of the tree, installing under `prefix`; `hash` is false below a symlinked
    /// folder (the reference's hash does not follow links).
    fn walk(
        &mut self,
        dir: &str,
        prefix: &str,
        depth: usize,
        hash: bool,
    ) -> Result<(), InstallError> {
        if depth > files::MAX_DEPTH {
            return Err(InstallError::TooDeep {
                path: prefix.to_owned(),
                limit: files::MAX_DEPTH,
            });
        }
        let entries = self.tree.list(dir).map_err(|source| InstallError::Read {
            path: dir.to_owned(),
            source,
        })?;
        for entry in entries {
            let source_path = join(dir, &entry.name);
            let rel = join(prefix, &entry.name);
            match entry.kind {
                Kind::Dir => {
                    if !files::is_entered(&entry.name) {
                        continue;
                    }
                    let hash = hash && files::is_hashed(&entry.name);
                    self.walk(&source_path, &rel, depth + 1, hash)?;
                }
                Kind::File { executable } => {
                    let bytes = self.read(&source_path, &rel)?;
                    if hash && files::is_hashed(&rel) {
                        self.hashed.push((rel.clone(), bytes.clone()));
                    }
                    if files::is_installed(&rel) {
                        self.push(rel, bytes, executable)?;
                    }
                }
                Kind::Symlink => self.link(&source_path, &rel, depth)?,
                Kind::Submodule => self.payload.notes.push(format!(
                    "left out `{rel}`: a git submodule (its files live in another repository)"
                )),
                Kind::Special => return Err(InstallError::Special { path: rel }),
            }
        }
        Ok(())
    }

    /// Dereferences a symlink whose target stays inside the source; refuses one that leaves it.
    fn link(&mut self, source_path: &str, rel: &str, depth: usize) -> Result<(), InstallError> {
        let target = self
            .tree
            .read_link(source_path)
            .map_err(|source| InstallError::Read {
                path: rel.to_owned(),
                source,
            })?;
        let parent = source_path.rsplit_once('/').map_or("", |(p, _)| p);
        let escapes = || InstallError::SymlinkEscapes {
            path: rel.to_owned(),
            target: target.clone(),
        };
        let resolved = if target.starts_with('/') || target.contains('\\') {
            return Err(escapes());
        } else {
            crate::fsutil::resolve_within(parent, &target).ok_or_else(escapes)?
        };
        match self.tree.kind(&resolved) {
            Some(Kind::File { executable }) => {
                let bytes = self.read(&resolved, rel)?;
                self.push(rel.to_owned(), bytes, executable)
            }
            Some(Kind::Dir) => self.walk(&resolved, rel, depth + 1, false),
            Some(Kind::Symlink) if depth < 8 => self.link(&resolved, rel, depth + 1),
            None | Some(Kind::Symlink) => Err(InstallError::SymlinkDangles {
                path: rel.to_owned(),
                target: target.clone(),
            }),
            _ => Err(escapes()),
        }
    }

    fn read(&self, path: &str, rel: &str) -> Result<Vec<u8>, InstallError> {
        let bytes = self.tree.read(path).map_err(|source| InstallError::Read {
            path: rel.to_owned(),
            source,
        })?;
        let size = bytes.len() as u64;
        if size > self.limits.max_file_size {
            return Err(InstallError::FileTooLarge {
                path: rel.to_owned(),
                size,
                limit: self.limits.max_file_size,
            });
        }
        Ok(bytes)
    }

    fn push(&mut self, rel: String, bytes: Vec<u8>, executable: bool) -> Result<(), InstallError> {
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
        let tree = LocalTree {
            root: root.to_path_buf(),
        };
        let payload = collect(&tree, "skill", Limits::default()).unwrap();
        let rels: Vec<_> = payload.files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(
            rels,
            ["LICENSE", "SKILL.md"],
            "metadata.json left out, inner link dereferenced"
        );
        std::os::unix::fs::symlink("/etc/passwd", root.join("skill/passwd")).unwrap();
        let err = collect(&tree, "skill", Limits::default()).unwrap_err();
        assert!(matches!(err, InstallError::SymlinkEscapes { .. }), "{err}");
        std::fs::remove_file(root.join("skill/passwd")).unwrap();
        std::os::unix::fs::symlink("missing.md", root.join("skill/dangling")).unwrap();
        let err = collect(&tree, "skill", Limits::default()).unwrap_err();
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
        let tree = LocalTree {
            root: tmp.path().to_path_buf(),
        };
        let err = collect(&tree, "skill", Limits::default()).unwrap_err();
        assert!(
            matches!(err, InstallError::TooDeep { limit: 32, .. }),
            "{err}"
        );
    }
}
