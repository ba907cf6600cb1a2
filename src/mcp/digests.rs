//! Digests known before a build, so that a build stats files instead of reading them.
//!
//! As git's index does, a file's digest is reused when its [`Stamp`] (size, modification and
//! change times, inode, device) is what it was when the digest was taken, and that stamp is old
//! enough to trust: a file written in the same tick of a coarse clock as it was hashed could
//! change without changing its stamp ("racily clean"), so stamps younger than [`RACY`] at hashing
//! time are never reused. A build learns digests from the snapshot it replaces and, at the start,
//! from the cache file the last run wrote (`$SKILLS_CACHE_DIR/serve/<roots>.digests`, one per
//! set of roots, postcard-encoded, written atomically). A cache that cannot be read is ignored.
//! Nothing depends on the cache being right: bytes are checked against the digest before they are
//! served (see [`super::state::Shared::read`]).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::snapshot::{FileMeta, Snapshot};
use crate::skill::inventory::Stamp;

/// How young a stamp may be, in nanoseconds, and still prove nothing.
pub const RACY: i64 = 2_000_000_000;
/// Changes whenever the layout of the cache file does.
const VERSION: u32 = 2;

/// The cache file: this header, then one [`Record`] per skill, in walk order.
#[derive(Serialize, Deserialize)]
struct Header {
    version: u32,
    records: u64,
}

#[derive(Deserialize)]
struct Record {
    /// Index of the root the skill was found under.
    root: u32,
    dir: String,
    files: Vec<FileMeta>,
}

/// [`Record`] as written, straight from the snapshot: nothing copied.
#[derive(Serialize)]
struct RecordOut<'a> {
    root: u32,
    dir: std::borrow::Cow<'a, str>,
    files: &'a [FileMeta],
}

/// Nanoseconds since the epoch, now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Where skill folders come in the index's walk: roots in order, then folders in byte order of
/// their names, level by level.
fn walk_order(a: (u32, &Path), b: (u32, &Path)) -> Ordering {
    a.0.cmp(&b.0)
        .then_with(|| a.1.components().cmp(b.1.components()))
}

/// The digests known for each skill folder, each taken at most once.
#[derive(Default)]
pub struct Known {
    source: Mutex<Source>,
}

#[derive(Default)]
enum Source {
    #[default]
    Nothing,
    /// The snapshot being replaced, with the positions of its skills in order of their folders.
    Snapshot {
        snapshot: Arc<Snapshot>,
        by_dir: Vec<usize>,
    },
    /// The cache file, read as the build walks: its records are in walk order, so a record is
    /// asked for soon after it is read, and a folder that comes after the one asked for shows
    /// that the cache has nothing for it. Memory stays that of a batch, not of the whole cache.
    File {
        reader: BufReader<std::fs::File>,
        left: u64,
        /// Records read before they were asked for.
        ahead: HashMap<PathBuf, Vec<FileMeta>>,
        scratch: Vec<u8>,
    },
}

impl Known {
    /// What `snapshot` knows: its files were hashed, or found in a cache, when it was built.
    pub fn from_snapshot(snapshot: Arc<Snapshot>) -> Known {
        let mut by_dir: Vec<usize> = (0..snapshot.skills.len()).collect();
        by_dir.sort_unstable_by(|&a, &b| snapshot.skills[a].dir.cmp(&snapshot.skills[b].dir));
        Known {
            source: Mutex::new(Source::Snapshot { snapshot, by_dir }),
        }
    }

    /// What the cache file says; nothing when it is missing, unreadable or of another version.
    pub fn load(file: &Path) -> Known {
        let Ok(opened) = std::fs::File::open(file) else {
            return Known::default();
        };
        let mut reader = BufReader::new(opened);
        let mut scratch = vec![0; 64 * 1024];
        let source = match postcard::from_io::<Header, _>((&mut reader, &mut scratch)) {
            Ok((header, _)) if header.version == VERSION => Source::File {
                reader,
                left: header.records,
                ahead: HashMap::new(),
                scratch,
            },
            _ => Source::Nothing,
        };
        Known {
            source: Mutex::new(source),
        }
    }

    /// The files known in `dir`, found under root `root` (SKILL.md first, then in path order).
    pub fn take(&self, root: usize, dir: &Path) -> Vec<FileMeta> {
        let Ok(mut source) = self.source.lock() else {
            return Vec::new();
        };
        match &mut *source {
            Source::Nothing => Vec::new(),
            Source::Snapshot { snapshot, by_dir } => by_dir
                .binary_search_by(|&i| snapshot.skills[i].dir.as_path().cmp(dir))
                .map(|at| snapshot.skills[by_dir[at]].files.to_vec())
                .unwrap_or_default(),
            Source::File {
                reader,
                left,
                ahead,
                scratch,
            } => {
                if let Some(files) = ahead.remove(dir) {
                    return files;
                }
                let root = u32::try_from(root).unwrap_or(u32::MAX);
                while *left > 0 {
                    *left -= 1;
                    let Ok((record, _)) =
                        postcard::from_io::<Record, _>((&mut *reader, &mut scratch[..]))
                    else {
                        // A damaged cache: what it still says is not to be trusted either.
                        *left = 0;
                        ahead.clear();
                        break;
                    };
                    let path = PathBuf::from(record.dir);
                    if path == dir {
                        return record.files;
                    }
                    let later = walk_order((record.root, &path), (root, dir)) == Ordering::Greater;
                    ahead.insert(path, record.files);
                    if later {
                        break;
                    }
                }
                Vec::new()
            }
        }
    }
}

/// The digest of `rel` among `known` (a skill's files: SKILL.md first, then in path order) when
/// its stamp is unchanged and was old enough, when it was hashed, to be trusted.
pub fn lookup(known: &[FileMeta], rel: &str, stamp: &Stamp) -> Option<[u8; 32]> {
    let found = match known.split_first() {
        Some((first, _)) if &*first.rel == rel => first,
        Some((_, rest)) => rest
            .binary_search_by(|f| (*f.rel).cmp(rel))
            .ok()
            .map(|i| &rest[i])?,
        None => return None,
    };
    (found.reusable && found.stamp == *stamp).then_some(found.digest)
}

/// Whether a digest taken of a file with `stamp`, stat'ed at `stat_time`, may be reused later.
pub fn reusable(stamp: &Stamp, stat_time: i64) -> bool {
    !stamp.is_racy(stat_time, RACY)
}

/// The cache file for a set of roots.
pub fn cache_file(roots: &[PathBuf]) -> PathBuf {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for root in roots {
        hasher.update(root.as_os_str().as_encoded_bytes());
        hasher.update([0]);
    }
    let key = hex::encode(&hasher.finalize()[..8]);
    crate::env_vars::cache_dir()
        .join("serve")
        .join(format!("{key}.digests"))
}

/// Writes what `snapshot` knows to `file`, record by record (at 50,000 skills it is 12 MB).
pub fn save(file: &Path, snapshot: &Snapshot) -> std::io::Result<()> {
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    crate::fsutil::write_atomic_with(file, |out| {
        let header = Header {
            version: VERSION,
            records: snapshot.skills.len() as u64,
        };
        postcard::to_io(&header, &mut *out).map_err(std::io::Error::other)?;
        for skill in &snapshot.skills {
            let record = RecordOut {
                root: skill.root,
                dir: skill.dir.to_string_lossy(),
                files: &skill.files,
            };
            postcard::to_io(&record, &mut *out).map_err(std::io::Error::other)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(rel: &str, mtime: i64, reusable: bool) -> FileMeta {
        FileMeta {
            reusable,
            rel: rel.into(),
            stamp: Stamp {
                size: 3,
                mtime,
                ctime: mtime,
                ino: 7,
                dev: 1,
            },
            digest: [u8::try_from(rel.len()).unwrap(); 32],
        }
    }

    #[test]
    fn stamps_must_match_and_be_old_enough() {
        let now = 100 * RACY;
        let young = meta("new.md", now - 1, false).stamp;
        assert!(!reusable(&young, now) && reusable(&meta("a", 10, true).stamp, now));
        let known = vec![
            meta("SKILL.md", 10, true),
            meta("a.md", 10, true),
            meta("new.md", now - 1, false),
        ];
        let stamp = known[1].stamp;
        assert_eq!(lookup(&known, "a.md", &stamp), Some(known[1].digest));
        let touched = Stamp { mtime: 11, ..stamp };
        assert_eq!(lookup(&known, "a.md", &touched), None);
        let replaced = Stamp { ino: 8, ..stamp };
        assert_eq!(lookup(&known, "a.md", &replaced), None);
        assert_eq!(lookup(&known, "b.md", &stamp), None);
        assert_eq!(lookup(&known, "new.md", &young), None, "racy");
    }

    #[test]
    fn a_broken_cache_is_no_cache() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("x.digests");
        std::fs::write(&file, b"\xff\xff\xff garbage").unwrap();
        assert!(Known::load(&file).take(0, Path::new("/any")).is_empty());
        assert!(
            Known::load(&temp.path().join("missing"))
                .take(0, Path::new("/any"))
                .is_empty()
        );
    }

    #[test]
    fn what_is_saved_is_loaded() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("pdf");
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: pdf\ndescription: d\n---\n",
        )
        .unwrap();
        std::fs::write(dir.join("references/a.md"), "a").unwrap();
        let roots = [crate::index::Root {
            path: temp.path().to_path_buf(),
            kind: crate::index::RootKind::Path,
        }];
        let limits = super::super::snapshot::Limits::default();
        let filter = crate::index::NameFilter::default();
        let snapshot =
            super::super::build::build(&roots, &filter, limits, Known::default()).unwrap();
        let file = temp.path().join("cache/x.digests");
        save(&file, &snapshot).unwrap();
        let known = Known::load(&file).take(0, &dir);
        assert_eq!(known, snapshot.skills[0].files.to_vec());
    }
}
