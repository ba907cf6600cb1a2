//! The content-addressed store: every file `skills` installed, kept once by its sha256 in the
//! cache and shared by every project on the machine (as pnpm's and uv's stores are), so that a
//! locked skill can be put back without its source.
//!
//! Layout, under `<cache>/store/v1/`:
//! - `objects/<2 hex>/<62 hex>`: the bytes of one file, named by their sha256, read-only;
//! - `entries/<key>.json`: what one skill installs — each file's path, length, digest and
//!   executable bit, and the folder of its source it was read from — filed under its
//!   [`StoreKey`]: a digest of its source's identity and of every file's path and digest, each
//!   field length-prefixed, so that no two file sets (and no two sources) share a key. The
//!   reference's `computedHash` is never a key: it runs names and bytes together without
//!   separators, and two different folders can share it (a fork's SKILL.md would then be
//!   restored for the original). Its modification time is its last use: every restore from the
//!   store touches it, and [`Store::prune`] goes by it. (`skills/`, the folder of the first
//!   layout, keyed by `computedHash`, is never read; `prune` and `clean` remove it.)
//!
//! Invariants: every write is a temp file renamed into place (a crash leaves a stray temp file,
//! never a short object); every object read is hashed again and a mismatch is removed and
//! reported as a miss, so a corrupted or hostile store can cost a download but never install
//! other bytes than the lock names. Files are placed from the store by reflink where the file
//! system can (`FICLONE`), else copied; never hard-linked: a project file that is a hard link
//! into the store would turn a user's edit in the project into an edit of every other project.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::install::{Payload, PayloadFile};
use crate::lock::Files;
use crate::relpath::RelPath;

const MANIFEST_VERSION: u32 = 2;

/// The store in a cache dir.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
    /// Cleared when the file system said it cannot reflink: the rest of the run copies, without
    /// asking again for every skill.
    reflinks: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Its two folders, opened on the first read of a run (`None`: not there then).
    dirs: std::sync::Arc<std::sync::OnceLock<Option<Dirs>>>,
}

/// A folder of the store.
#[derive(Debug, Clone, Copy)]
enum Folder {
    Objects,
    Skills,
}

impl Folder {
    fn name(self) -> &'static str {
        match self {
            Folder::Objects => "objects",
            Folder::Skills => "entries",
        }
    }

    fn of(self, dirs: &Dirs) -> &std::fs::File {
        match self {
            Folder::Objects => &dirs.objects,
            Folder::Skills => &dirs.skills,
        }
    }
}

/// The store's folders as handles: an object or a manifest is then read as one or two names
/// beneath a handle, not by walking the cache's whole path again for every file.
#[derive(Debug)]
struct Dirs {
    objects: std::fs::File,
    skills: std::fs::File,
}

/// What one skill installs, as the store keeps it.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    version: u32,
    /// The skill's folder in its source (for messages).
    dir: String,
    files: Vec<ManifestFile>,
    /// Keys of install-gate lints of these files that found nothing
    /// ([`crate::gate::verdict_key`]), the latest last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    passed: Vec<String>,
}

/// The most gate verdicts kept per stored skill (one per folder name and build in use).
const MAX_VERDICTS: usize = 4;

/// A skill the store gave back.
#[derive(Debug)]
pub struct Stored {
    /// Its folder in its source.
    pub dir: String,
    /// Its files, each verified against its digest (which the payload holds).
    pub payload: Payload,
    /// Keys of gate lints that found nothing in these files ([`crate::gate::verdict_key`]).
    pub passed: Vec<String>,
    /// Where it is filed.
    pub key: StoreKey,
}

/// Where a stored skill is filed: sha256 over a tag, the source's identity, then every file's
/// path and digest in path order, each field preceded by its length, so that no two (source,
/// file set) pairs share a key, however their names and bytes run together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreKey(String);

impl StoreKey {
    /// The key of the files `files` (path → `sha256:…`) of the source `identity`; `None` when
    /// there are no files to key by.
    pub fn new(identity: &str, files: &Files) -> Option<StoreKey> {
        use sha2::{Digest as _, Sha256};
        if files.is_empty() {
            return None;
        }
        let mut hasher = Sha256::new();
        let mut field = |bytes: &[u8]| {
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        field(b"skills store entry v2");
        field(identity.as_bytes());
        for (path, digest) in files {
            field(path.as_str().as_bytes());
            field(digest.as_bytes());
        }
        Some(StoreKey(hex::encode(hasher.finalize())))
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct ManifestFile {
    path: String,
    size: u64,
    digest: String,
    executable: bool,
}

/// Why the store could not give a skill back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Miss {
    #[error("it is not in the cache")]
    Absent,
    #[error("the cache holds other files for it than the lock names")]
    Differs,
    /// A stored file whose bytes do not hash to its name (it was removed).
    #[error("the cached file `{0}` is corrupted (removed from the cache)")]
    Corrupt(String),
}

/// What [`Store::prune`] removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    pub skills: usize,
    pub objects: usize,
    pub bytes: u64,
}

impl Store {
    /// The store of the cache dir `cache`.
    pub fn new(cache: &Path) -> Store {
        Store {
            root: cache.join("store").join("v1"),
            reflinks: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)),
            dirs: std::sync::Arc::default(),
        }
    }

    /// The store of the cache dir the environment names.
    pub fn from_env() -> Store {
        Store::new(&crate::env_vars::cache_dir())
    }

    fn objects(&self) -> PathBuf {
        self.root.join("objects")
    }

    fn skills(&self) -> PathBuf {
        self.root.join(Folder::Skills.name())
    }

    /// The name of the object of `digest` (`sha256:<hex>`) in `objects/`: `<2 hex>/<62 hex>`;
    /// `None` for anything else.
    fn object_name(digest: &str) -> Option<String> {
        let hex = digest.strip_prefix("sha256:")?;
        if hex.len() != 64
            || !hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return None;
        }
        Some(format!("{}/{}", &hex[..2], &hex[2..]))
    }

    /// Where the object of `digest` lives.
    fn object_path(&self, digest: &str) -> Option<PathBuf> {
        Some(self.objects().join(Store::object_name(digest)?))
    }

    /// The name of the manifest filed under `key` in `entries/`.
    fn manifest_name(key: &StoreKey) -> String {
        format!("{}.json", key.0)
    }

    fn manifest_path(&self, key: &StoreKey) -> PathBuf {
        self.skills().join(Store::manifest_name(key))
    }

    /// The handles of the store's folders, opened once.
    fn dirs(&self) -> Option<&Dirs> {
        self.dirs
            .get_or_init(|| {
                Some(Dirs {
                    objects: open_dir(&self.objects()).ok()?,
                    skills: open_dir(&self.skills()).ok()?,
                })
            })
            .as_ref()
    }

    /// The bytes of `name` in the store folder `folder`, read beneath its handle.
    fn read(&self, folder: Folder, name: &str) -> std::io::Result<Vec<u8>> {
        match self.dirs() {
            Some(dirs) => read_beneath(folder.of(dirs), name),
            None => std::fs::read(self.root.join(folder.name()).join(name)),
        }
    }

    /// Keeps `payload` (read from the folder `dir` of the source `identity`): the objects it
    /// lacks, then its manifest, with `passed` (the key of a gate lint that found nothing in it).
    /// A failure leaves the store as it was, less a temp file.
    pub fn put(
        &self,
        identity: &str,
        dir: &str,
        payload: &Payload,
        passed: Option<&str>,
    ) -> std::io::Result<()> {
        let Some(key) = StoreKey::new(identity, payload.digested()) else {
            return Ok(());
        };
        let manifest_path = self.manifest_path(&key);
        let mut files = Vec::with_capacity(payload.files.len());
        let digests = payload.digested();
        for file in &payload.files {
            let digest = digests
                .get(&file.rel)
                .cloned()
                .unwrap_or_else(|| crate::lock::digest(&file.bytes));
            if let Some(path) = self.object_path(&digest)
                && std::fs::symlink_metadata(&path).is_err()
            {
                write_new(&path, &file.bytes, true)?;
            }
            files.push(ManifestFile {
                path: file.rel.to_string(),
                size: file.bytes.len() as u64,
                digest,
                executable: file.executable,
            });
        }
        let manifest = Manifest {
            version: MANIFEST_VERSION,
            dir: dir.to_owned(),
            files,
            passed: passed.into_iter().map(str::to_owned).collect(),
        };
        let bytes = serde_json::to_vec(&manifest).map_err(std::io::Error::other)?;
        write_new(&manifest_path, &bytes, false)
    }

    /// Records beside the stored skill filed under `entry` that a gate lint keyed `key` found
    /// nothing in it (the key names the files it looked at: a manifest replaced meanwhile never
    /// matches it). A failure only costs a lint next time.
    pub fn pass(&self, entry: &StoreKey, key: &str) -> std::io::Result<()> {
        let path = self.manifest_path(entry);
        let bytes = std::fs::read(&path)?;
        let mut manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
        if manifest.version != MANIFEST_VERSION || manifest.passed.iter().any(|k| k == key) {
            return Ok(());
        }
        manifest.passed.push(key.to_owned());
        let over = manifest.passed.len().saturating_sub(MAX_VERDICTS);
        manifest.passed.drain(..over);
        let bytes = serde_json::to_vec(&manifest).map_err(std::io::Error::other)?;
        write_new(&path, &bytes, false)
    }

    /// The skill of the source `identity` whose installed files are exactly `files` (a lock's
    /// `files`), with the folder of its source; every file's length and digest checked on the
    /// way, once. A lock entry that lists no files (as the reference writes them) is never
    /// restored from here: its `computedHash` alone does not tell two file sets apart.
    pub fn get(&self, identity: &str, computed_hash: &str, files: &Files) -> Result<Stored, Miss> {
        let key = StoreKey::new(identity, files).ok_or(Miss::Absent)?;
        let name = Store::manifest_name(&key);
        let bytes = self.read(Folder::Skills, &name).map_err(|_| Miss::Absent)?;
        let manifest: Manifest = serde_json::from_slice(&bytes).map_err(|_| Miss::Absent)?;
        if manifest.version != MANIFEST_VERSION || files.len() != manifest.files.len() {
            return Err(Miss::Differs);
        }
        let mut read: Vec<PayloadFile> = Vec::with_capacity(manifest.files.len());
        // The digests of the files, each taken once, here: the payload hands them on to the
        // transaction and the lock, and the placement finds each file's object by them.
        let mut digests = Files::new();
        for file in manifest.files {
            let rel = RelPath::file(&file.path).map_err(|_| Miss::Absent)?;
            if files.get(&rel) != Some(&file.digest) {
                return Err(Miss::Differs);
            }
            let object = Store::object_name(&file.digest).ok_or(Miss::Absent)?;
            let bytes = self
                .read(Folder::Objects, &object)
                .map_err(|_| Miss::Absent)?;
            if bytes.len() as u64 != file.size || crate::lock::digest(&bytes) != file.digest {
                let _ = std::fs::remove_file(self.objects().join(&object));
                return Err(Miss::Corrupt(file.path));
            }
            // A manifest naming one path twice is not one this store wrote.
            if digests.insert(rel.clone(), file.digest).is_some() {
                return Err(Miss::Absent);
            }
            read.push(PayloadFile {
                rel,
                bytes,
                executable: file.executable,
            });
        }
        read.sort_by(|a, b| a.rel.cmp(&b.rel));
        if files.len() != read.len() {
            return Err(Miss::Differs);
        }
        let payload = Payload {
            files: read,
            computed_hash: computed_hash.to_owned(),
            notes: Vec::new(),
            left_out: Vec::new(),
            store: Some(self.clone()),
            digested: std::sync::OnceLock::from(digests),
        };
        let _ = match self.dirs() {
            Some(dirs) => touch(&dirs.skills, &name, SystemTime::now()),
            None => touch_path(&self.skills().join(&name), SystemTime::now()),
        };
        Ok(Stored {
            dir: manifest.dir,
            payload,
            passed: manifest.passed,
            key,
        })
    }

    /// Removes the skills of the store unused for `unused` (by their last-use stamp), then the
    /// objects no remaining skill names.
    pub fn prune(&self, unused: Duration, now: SystemTime) -> std::io::Result<Pruned> {
        let mut pruned = Pruned::default();
        // The first layout's manifests, keyed by `computedHash`, are never read again.
        for entry in read_dir(&self.root.join("skills"))? {
            std::fs::remove_file(entry.path())?;
            pruned.skills += 1;
        }
        let _ = std::fs::remove_dir(self.root.join("skills"));
        let mut kept: std::collections::HashSet<String> = std::collections::HashSet::new();
        for entry in read_dir(&self.skills())? {
            let path = entry.path();
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .map_or(true, |used| {
                    now.duration_since(used).unwrap_or(Duration::ZERO) >= unused
                });
            let manifest = std::fs::read(&path)
                .ok()
                .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok());
            match manifest {
                Some(manifest) if !stale => {
                    kept.extend(manifest.files.into_iter().map(|f| f.digest));
                }
                _ => {
                    std::fs::remove_file(&path)?;
                    pruned.skills += 1;
                }
            }
        }
        for fan in read_dir(&self.objects())? {
            let fan_path = fan.path();
            let prefix = fan.file_name().to_string_lossy().into_owned();
            for object in read_dir(&fan_path)? {
                let name = object.file_name().to_string_lossy().into_owned();
                if !kept.contains(&format!("sha256:{prefix}{name}")) {
                    pruned.bytes += object.metadata().map_or(0, |m| m.len());
                    std::fs::remove_file(object.path())?;
                    pruned.objects += 1;
                }
            }
            let _ = std::fs::remove_dir(&fan_path);
        }
        Ok(pruned)
    }
}

fn read_dir(dir: &Path) -> std::io::Result<Vec<std::fs::DirEntry>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries.filter_map(Result::ok).collect()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(err) => Err(err),
    }
}

/// Opens the folder `path` as a handle to read beneath.
#[cfg(unix)]
fn open_dir(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY)
        .open(path)
}

/// Elsewhere every file is read by its path.
#[cfg(not(unix))]
fn open_dir(_path: &Path) -> std::io::Result<std::fs::File> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Reads the file `name` beneath the folder `dir`: opened, its length asked, that many bytes
/// read. A file that grows meanwhile is cut at that length: what is read is hashed and
/// compared with its name anyway.
#[cfg(unix)]
fn read_beneath(dir: &std::fs::File, name: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let file = read_only_beneath(dir, name)?;
    let len = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(not(unix))]
fn read_beneath(_dir: &std::fs::File, _name: &str) -> std::io::Result<Vec<u8>> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Opens the file `name` beneath the folder `dir` for reading.
#[cfg(unix)]
fn read_only_beneath(dir: &std::fs::File, name: &str) -> std::io::Result<std::fs::File> {
    let fd = rustix::fs::openat(
        dir,
        name,
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    Ok(std::fs::File::from(fd))
}

/// Sets the modification time of `name` beneath `dir` (its last use): one system call.
#[cfg(unix)]
fn touch(dir: &std::fs::File, name: &str, when: SystemTime) -> std::io::Result<()> {
    use rustix::fs::{AtFlags, Timespec, Timestamps, UTIME_OMIT, utimensat};
    let since = when
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    let times = Timestamps {
        last_access: Timespec {
            tv_sec: 0,
            tv_nsec: UTIME_OMIT,
        },
        last_modification: Timespec {
            tv_sec: i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(since.subsec_nanos()),
        },
    };
    utimensat(dir, name, &times, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(())
}

#[cfg(not(unix))]
fn touch(_dir: &std::fs::File, _name: &str, _when: SystemTime) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Sets the modification time of `path` (its last use).
fn touch_path(path: &Path, when: SystemTime) -> std::io::Result<()> {
    std::fs::File::options()
        .append(true)
        .open(path)?
        .set_modified(when)
}

/// Writes `bytes` to `path` through a temp file beside it, renamed into place (read-only when
/// `read_only`). No `fsync`: a cache entry lost in a crash is fetched again, and every object is
/// verified when read.
fn write_new(path: &Path, bytes: &[u8], read_only: bool) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(&format!("{}tmp-", crate::fsutil::TEMP_PREFIX))
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    #[cfg(unix)]
    if read_only {
        use std::os::unix::fs::PermissionsExt as _;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o444))?;
    }
    #[cfg(not(unix))]
    let _ = read_only;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

impl Store {
    /// Clones the object `digest` (`sha256:<hex>`, of bytes verified when the store gave them)
    /// into the new, empty file `to` (a reflink: the blocks are shared until either file is
    /// written). `false` where the file system cannot (said once a run), or the object is not
    /// there: the caller writes the bytes.
    #[cfg(target_os = "linux")]
    pub fn reflink(&self, digest: &str, to: &std::fs::File) -> bool {
        use std::sync::atomic::Ordering;
        if !self.reflinks.load(Ordering::Relaxed) {
            return false;
        }
        let Some(name) = Store::object_name(digest) else {
            return false;
        };
        let source = match self.dirs() {
            Some(dirs) => read_only_beneath(&dirs.objects, &name),
            None => std::fs::File::open(self.objects().join(&name)),
        };
        let Ok(source) = source else {
            return false;
        };
        match rustix::fs::ioctl_ficlone(to, &source) {
            Ok(()) => true,
            Err(err) => {
                // Not this file system (or not across these two): copy from now on.
                if matches!(
                    err,
                    rustix::io::Errno::OPNOTSUPP
                        | rustix::io::Errno::XDEV
                        | rustix::io::Errno::INVAL
                        | rustix::io::Errno::NOTTY
                        | rustix::io::Errno::NOSYS
                ) {
                    self.reflinks.store(false, Ordering::Relaxed);
                }
                false
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn reflink(&self, _digest: &str, _to: &std::fs::File) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload() -> Payload {
        let files: Vec<PayloadFile> = [("SKILL.md", "x", false), ("scripts/run.sh", "echo", true)]
            .into_iter()
            .map(|(rel, text, executable)| PayloadFile {
                rel: RelPath::file(rel).unwrap(),
                bytes: text.as_bytes().to_vec(),
                executable,
            })
            .collect();
        let computed_hash =
            crate::lock::computed_hash(files.iter().map(|f| (f.rel.as_str(), f.bytes.as_slice())));
        Payload {
            files,
            computed_hash,
            notes: Vec::new(),
            left_out: Vec::new(),
            store: None,
            digested: std::sync::OnceLock::new(),
        }
    }

    const SOURCE: &str = "github\nowner/repo\n";

    #[test]
    fn put_get_verify_and_prune() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path());
        let original = payload();
        let hash = original.computed_hash.clone();
        let files = original.digests();
        store.put(SOURCE, "skills/x", &original, None).unwrap();
        let got = store.get(SOURCE, &hash, &files).unwrap();
        assert_eq!(got.dir, "skills/x");
        assert_eq!(got.payload.files, original.files);
        assert_eq!(got.payload.digests(), files, "verified digests kept");
        assert!(got.passed.is_empty());
        // Another source's entry, or no `files` to key by, is never given back.
        assert_eq!(
            store.get("github\nfork/repo\n", &hash, &files).unwrap_err(),
            Miss::Absent
        );
        assert_eq!(
            store.get(SOURCE, &hash, &Files::new()).unwrap_err(),
            Miss::Absent
        );
        // The lock's `files` must match exactly.
        let mut other = files.clone();
        other.insert(RelPath::file("more.md").unwrap(), crate::lock::digest(b"m"));
        assert_eq!(store.get(SOURCE, &hash, &other).unwrap_err(), Miss::Absent);
        // A changed object is refused and removed.
        let object = store.object_path(&crate::lock::digest(b"echo")).unwrap();
        std::fs::remove_file(&object).unwrap();
        std::fs::write(&object, "rm -rf ~").unwrap();
        assert_eq!(
            store.get(SOURCE, &hash, &files).unwrap_err(),
            Miss::Corrupt("scripts/run.sh".into())
        );
        assert!(!object.exists());
        // Gate verdicts are kept beside the files, the latest few.
        store
            .put(SOURCE, "skills/x", &original, Some("k0"))
            .unwrap();
        let key = StoreKey::new(SOURCE, &files).unwrap();
        for verdict in ["k1", "k2", "k1", "k3", "k4"] {
            store.pass(&key, verdict).unwrap();
        }
        let got = store.get(SOURCE, &hash, &files).unwrap();
        assert_eq!(got.passed, ["k1", "k2", "k3", "k4"]);
        // Used just now: kept; unused for 0 days: everything goes.
        store.put(SOURCE, "skills/x", &original, None).unwrap();
        let now = SystemTime::now();
        let kept = store.prune(Duration::from_secs(3600), now).unwrap();
        assert_eq!(kept, Pruned::default());
        let pruned = store
            .prune(Duration::ZERO, now + Duration::from_secs(1))
            .unwrap();
        assert_eq!((pruned.skills, pruned.objects, pruned.bytes), (1, 2, 5));
        assert!(store.get(SOURCE, &hash, &files).is_err());
    }

    #[test]
    fn keys_tell_apart_what_computed_hash_runs_together() {
        // `a` + `bc` and `ab` + `c`: one `computedHash`-style concatenation, two keys.
        let files = |pairs: &[(&str, &str)]| -> Files {
            pairs
                .iter()
                .map(|(p, d)| (RelPath::file(p).unwrap(), (*d).to_owned()))
                .collect()
        };
        let one = StoreKey::new(SOURCE, &files(&[("a", "bc")])).unwrap();
        let two = StoreKey::new(SOURCE, &files(&[("ab", "c")])).unwrap();
        assert_ne!(one, two);
        let other_source = StoreKey::new("github\nowner/repo2\n", &files(&[("a", "bc")]));
        assert_ne!(Some(one), other_source);
    }
}
