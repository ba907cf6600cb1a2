//! The skill model: a folder holding `SKILL.md`, its frontmatter and its body.
//!
//! Loading never panics and never guesses: a file that cannot be read, is not UTF-8, has no or
//! unclosed frontmatter, invalid YAML or a frontmatter that is not a mapping gives a [`LoadError`]
//! with a file position. Field *rules* (name charset, lengths) are lint's business; this module
//! only offers typed access to what is written.

pub mod files;
pub mod frontmatter;
pub mod inventory;
pub mod name;
pub mod package;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{Map, Value};

pub use yaml::{Key, Pos, StyleNote, ValueStyle};

/// The file name the spec gives.
pub const SKILL_MD: &str = "SKILL.md";
/// Accepted with a warning, as by the reference validator.
pub const SKILL_MD_LOWER: &str = "skill.md";

/// A parsed skill.
#[derive(Debug, Clone)]
pub struct Skill {
    /// The skill folder.
    pub dir: PathBuf,
    /// Its SKILL.md (or skill.md).
    pub file: PathBuf,
    /// The whole file; only up to the end of the frontmatter when loaded with
    /// [`Load::Frontmatter`].
    pub text: String,
    /// Whether `text` is the whole file.
    pub complete: bool,
    pub bom: bool,
    pub frontmatter: Frontmatter,
    /// Byte offset of the body in `text`.
    pub body_offset: usize,
    /// File line where the body starts.
    pub body_line: usize,
}

#[derive(Debug, Clone)]
pub struct Frontmatter {
    /// The mapping, keys in written order.
    pub map: Map<String, Value>,
    /// File line of the first YAML line.
    pub line: usize,
    /// The YAML text (line endings normalized), for the layout.
    yaml: String,
    /// Key positions and style notes, found on first use (only lint asks).
    layout: OnceLock<(Vec<Key>, Vec<StyleNote>)>,
}

/// How much of each SKILL.md an index reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Load {
    /// The whole file: bodies are available.
    Full,
    /// Only up to the closing `---`: enough for names and descriptions (catalogs, listings).
    Frontmatter,
}

/// Why a SKILL.md could not be loaded. Positions are file lines and columns.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("SKILL.md is not valid UTF-8 (line {line}, column {col})")]
    NotUtf8 { line: usize, col: usize },
    #[error(transparent)]
    Split(#[from] frontmatter::SplitError),
    #[error("invalid YAML in frontmatter: {message}")]
    Yaml { message: String, pos: Option<Pos> },
    #[error("the frontmatter must be a mapping of keys to values, not {found}")]
    NotMapping { found: &'static str, pos: Pos },
}

impl LoadError {
    /// Where in SKILL.md the problem is, when known.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            LoadError::Read { .. } => None,
            LoadError::NotUtf8 { line, col } => Some(Pos {
                line: *line,
                col: *col,
            }),
            LoadError::Split(frontmatter::SplitError::Missing) => Some(Pos { line: 1, col: 1 }),
            LoadError::Split(frontmatter::SplitError::Unclosed { opened }) => Some(Pos {
                line: *opened,
                col: 1,
            }),
            LoadError::Yaml { pos, .. } => *pos,
            LoadError::NotMapping { pos, .. } => Some(*pos),
        }
    }
}

impl Skill {
    /// The name of its skill file as on disk (`SKILL.md`, or `skill.md`).
    pub fn file_name(&self) -> String {
        self.file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Reads and parses `file` (the SKILL.md of folder `dir`).
    pub fn load(dir: &Path, file: &Path) -> Result<Skill, LoadError> {
        let bytes = read_file(file, None).map_err(|source| LoadError::Read {
            path: file.to_path_buf(),
            source,
        })?;
        Skill::parse(dir, file, bytes)
    }

    /// Parses the bytes of a SKILL.md.
    pub fn parse(dir: &Path, file: &Path, bytes: Vec<u8>) -> Result<Skill, LoadError> {
        let text = String::from_utf8(bytes).map_err(|err| {
            let valid = err.utf8_error().valid_up_to();
            // The prefix up to the bad byte is valid UTF-8 by definition.
            let prefix = String::from_utf8_lossy(&err.as_bytes()[..valid]);
            let (line, col) = frontmatter::position(&prefix, prefix.len());
            LoadError::NotUtf8 { line, col }
        })?;
        let split = frontmatter::split(&text)?;
        let line_offset = split.yaml_line - 1;
        let value = yaml::value(&split.yaml).map_err(|err| LoadError::Yaml {
            message: err.message,
            pos: err.pos.map(|p| Pos {
                line: p.line + line_offset,
                col: p.col,
            }),
        })?;
        let map = match value {
            Value::Object(map) => map,
            other => {
                return Err(LoadError::NotMapping {
                    found: match other {
                        Value::Null => "an empty document",
                        Value::Array(_) => "a list",
                        _ => "a single value",
                    },
                    pos: Pos {
                        line: split.yaml_line,
                        col: 1,
                    },
                });
            }
        };
        let (bom, body_offset, body_line, yaml_line) = (
            split.bom,
            split.body_offset,
            split.body_line,
            split.yaml_line,
        );
        let frontmatter = Frontmatter {
            map,
            line: yaml_line,
            yaml: split.yaml,
            layout: OnceLock::new(),
        };
        Ok(Skill {
            dir: dir.to_path_buf(),
            file: file.to_path_buf(),
            text,
            complete: true,
            bom,
            frontmatter,
            body_offset,
            body_line,
        })
    }

    /// Parses the head of a SKILL.md read by [`read_head`]: `complete` says whether it is the whole
    /// file. A partial text keeps only the frontmatter.
    pub fn parse_head(
        dir: &Path,
        file: &Path,
        bytes: Vec<u8>,
        complete: bool,
    ) -> Result<Skill, LoadError> {
        let mut skill = Skill::parse(dir, file, bytes)?;
        if !complete {
            skill.text.truncate(skill.body_offset);
            skill.text.shrink_to_fit();
            skill.complete = false;
        }
        Ok(skill)
    }

    /// The Markdown after the frontmatter (empty when only the frontmatter was loaded).
    pub fn body(&self) -> &str {
        debug_assert!(
            self.complete,
            "body of a skill loaded with Load::Frontmatter"
        );
        self.text.get(self.body_offset..).unwrap_or_default()
    }

    /// The name as written, trimmed; numbers and booleans read as text. `None` when absent, null
    /// or not a scalar.
    pub fn name(&self) -> Option<String> {
        self.frontmatter
            .text("name")
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    }

    /// The description, trimmed; `None` when absent, empty or not a scalar.
    pub fn description(&self) -> Option<String> {
        self.frontmatter
            .text("description")
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    }

    /// The folder's own name (what installers and the spec compare `name` with).
    ///
    /// A skill found at `.`, `..` or through a bare `SKILL.md` (whose folder is the empty path)
    /// has no name in its path: the folder it names has one, so that `skills lint .` at a skill's
    /// root judges the real folder and not an empty name.
    pub fn dir_name(&self) -> String {
        if let Some(name) = self.dir.file_name() {
            return name.to_string_lossy().into_owned();
        }
        let dir = if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            self.dir.as_path()
        };
        std::fs::canonicalize(dir)
            .ok()
            .and_then(|dir| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default()
    }

    /// `metadata.internal: true`: hidden from listings unless asked for by name.
    pub fn is_internal(&self) -> bool {
        self.frontmatter
            .map
            .get("metadata")
            .and_then(|m| m.get("internal"))
            .is_some_and(|v| v == &Value::Bool(true) || v.as_str() == Some("true"))
    }

    /// `disable-model-invocation: true` (Claude Code): the model may not pick the skill itself.
    pub fn disables_model_invocation(&self) -> bool {
        self.frontmatter
            .map
            .get("disable-model-invocation")
            .is_some_and(|v| v == &Value::Bool(true) || v.as_str() == Some("true"))
    }
}

/// The largest file read whole (a SKILL.md or a file lint scans); larger ones are refused, so a
/// link to `/dev/zero` or a runaway file cannot exhaust memory.
pub const MAX_READ: u64 = 64 << 20;

fn too_large(path: &Path) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("`{}` is larger than {} MiB", path.display(), MAX_READ >> 20),
    )
}

/// Reads a whole file. Unlike `fs::read`, no `stat` or `lseek` is made and no fresh buffer is
/// zeroed: bytes go through a per-thread scratch buffer into a vector of exactly their size, which
/// matters when thousands of small files are read. `size`, when known, sizes the scratch buffer.
/// Reading stops with an error past [`MAX_READ`].
pub fn read_file(path: &Path, size: Option<u64>) -> std::io::Result<Vec<u8>> {
    let file = crate::fsutil::open_nonblocking(path)?;
    read_open(file, size, MAX_READ).map_err(|err| match err {
        ReadOpen::TooLarge => too_large(path),
        ReadOpen::Io(err) => err,
    })
}

/// Reads a file of a skill's inventory, only if the file opened is the one the inventory listed:
/// the same device and inode as `stamp` (of the link's target, for a link). A file swapped
/// since the listing — for a link to `/etc/passwd`, a folder on the way for a link elsewhere —
/// is refused with `InvalidData` instead of read, so a scan and a later read can never be
/// about two different files.
pub fn read_listed(
    path: &Path,
    stamp: &inventory::Stamp,
    size: Option<u64>,
) -> std::io::Result<Vec<u8>> {
    let file = crate::fsutil::open_nonblocking(path)?;
    let now = inventory::Stamp::of(&file.metadata()?);
    if (now.dev, now.ino) != (stamp.dev, stamp.ino) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("`{}` was replaced since it was listed", path.display()),
        ));
    }
    read_open(file, size, MAX_READ).map_err(|err| match err {
        ReadOpen::TooLarge => too_large(path),
        ReadOpen::Io(err) => err,
    })
}

/// Why [`read_open`] stopped.
#[derive(Debug)]
pub enum ReadOpen {
    /// More than the limit.
    TooLarge,
    Io(std::io::Error),
}

/// Reads the whole of an open file as [`read_file`] does, at most `limit` bytes (more is
/// [`ReadOpen::TooLarge`], found before more than `limit + 1` bytes are held).
pub fn read_open(
    mut file: std::fs::File,
    size: Option<u64>,
    limit: u64,
) -> Result<Vec<u8>, ReadOpen> {
    use std::cell::RefCell;
    use std::io::Read as _;
    thread_local! {
        static SCRATCH: RefCell<Vec<u8>> = RefCell::new(vec![0; 64 * 1024]);
    }
    let limit = usize::try_from(limit.min(MAX_READ)).unwrap_or(usize::MAX);
    SCRATCH.with_borrow_mut(|scratch| {
        let wanted = size
            .map_or(0, |s| usize::try_from(s).unwrap_or(0).saturating_add(1))
            .min(limit.saturating_add(1));
        if scratch.len() < wanted {
            scratch.resize(wanted, 0);
        }
        let mut len = 0;
        let result = loop {
            if len > limit {
                break Err(ReadOpen::TooLarge);
            }
            if len == scratch.len() {
                scratch.resize((len * 2).clamp(1, limit.saturating_add(1)), 0);
            }
            match file.read(&mut scratch[len..]) {
                Ok(0) => break Ok(scratch[..len].to_vec()),
                Ok(n) => len += n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                    break Ok(scratch[..len].to_vec());
                }
                Err(err) => break Err(ReadOpen::Io(err)),
            }
        };
        // A one-off huge file should not pin its buffer for the rest of the run.
        if scratch.len() > 1 << 20 {
            *scratch = vec![0; 64 * 1024];
        }
        result
    })
}

/// Reads a SKILL.md up to the end of its frontmatter (or all of it when that is not found):
/// returns the bytes read and whether they are the whole file. Each line is looked at once, so
/// a frontmatter that is never closed costs one read of the file, not one scan per chunk.
pub fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, bool)> {
    use std::io::Read as _;
    const CHUNK: usize = 4096;
    let mut file = crate::fsutil::open_nonblocking(path)?;
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = [0u8; CHUNK];
    let mut scan = frontmatter::HeadScan::default();
    loop {
        if bytes.len() as u64 > MAX_READ {
            return Err(too_large(path));
        }
        let n = match file.read(&mut chunk) {
            Ok(n) => n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => 0,
            Err(err) => return Err(err),
        };
        if n == 0 {
            return Ok((bytes, true));
        }
        bytes.extend_from_slice(&chunk[..n]);
        // Stop as soon as the frontmatter is closed, or as soon as there is none.
        match scan.feed(&bytes) {
            frontmatter::Head::More => {}
            frontmatter::Head::End(end) => {
                bytes.truncate(end);
                return Ok((bytes, false));
            }
            frontmatter::Head::None => return Ok((bytes, false)),
        }
    }
}

impl Frontmatter {
    /// A scalar field as text: strings as they are, numbers and booleans formatted.
    pub fn text(&self, key: &str) -> Option<String> {
        match self.map.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// Top-level keys with their positions in the file, in written order.
    pub fn keys(&self) -> &[Key] {
        &self.layout().0
    }

    /// Constructs that strict YAML loaders reject, with positions in the file.
    pub fn notes(&self) -> &[StyleNote] {
        &self.layout().1
    }

    pub fn key(&self, name: &str) -> Option<&Key> {
        self.keys().iter().find(|k| k.name == name)
    }

    fn layout(&self) -> &(Vec<Key>, Vec<StyleNote>) {
        self.layout.get_or_init(|| {
            // The value parsed, so the events do too; positions move to file lines.
            let (keys, notes) = yaml::layout(&self.yaml).unwrap_or_default();
            let offset = self.line - 1;
            let shift = |p: Pos| Pos {
                line: p.line + offset,
                col: p.col,
            };
            let keys = keys
                .into_iter()
                .map(|k| Key {
                    pos: shift(k.pos),
                    value_pos: shift(k.value_pos),
                    ..k
                })
                .collect();
            let notes = notes
                .into_iter()
                .map(|note| match note {
                    StyleNote::FlowCollection(p) => StyleNote::FlowCollection(shift(p)),
                    StyleNote::Anchor(p) => StyleNote::Anchor(shift(p)),
                    StyleNote::Alias(p) => StyleNote::Alias(shift(p)),
                    StyleNote::Tag(p, tag) => StyleNote::Tag(shift(p), tag),
                })
                .collect();
            (keys, notes)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Skill, LoadError> {
        Skill::parse(
            Path::new("/s/my-skill"),
            Path::new("/s/my-skill/SKILL.md"),
            text.into(),
        )
    }

    #[test]
    fn loads_fields_and_positions() {
        let skill =
            parse("---\nname: my-skill\ndescription: >\n  Does things.\n---\n# Body\n").unwrap();
        assert_eq!(skill.name().as_deref(), Some("my-skill"));
        assert_eq!(skill.description().as_deref(), Some("Does things."));
        assert_eq!(skill.body(), "# Body\n");
        assert_eq!(skill.body_line, 6);
        let desc = skill.frontmatter.key("description").unwrap();
        assert_eq!((desc.pos.line, desc.pos.col), (3, 1));
        assert_eq!(skill.dir_name(), "my-skill");
    }

    #[test]
    fn errors_carry_positions() {
        let err = parse("---\nname: a\nname: b\n---\n").unwrap_err();
        assert!(matches!(err, LoadError::Yaml { .. }), "{err:?}");
        assert_eq!(err.pos().map(|p| p.line), Some(3));
        let err = parse("---\n- a\n---\n").unwrap_err();
        assert!(matches!(
            err,
            LoadError::NotMapping {
                found: "a list",
                ..
            }
        ));
        let err = parse("---\n---\n").unwrap_err();
        assert!(matches!(
            err,
            LoadError::NotMapping {
                found: "an empty document",
                ..
            }
        ));
        let err = Skill::parse(
            Path::new("d"),
            Path::new("d/SKILL.md"),
            b"---\nname: caf\xe9\n".to_vec(),
        )
        .unwrap_err();
        assert!(
            matches!(err, LoadError::NotUtf8 { line: 2, col: 10 }),
            "{err:?}"
        );
    }

    #[test]
    fn scalars_read_as_text() {
        let skill =
            parse("---\nname: 123\ndescription: yes\nmetadata:\n  internal: true\n---\n").unwrap();
        assert_eq!(skill.name().as_deref(), Some("123"));
        assert_eq!(skill.description().as_deref(), Some("yes"));
        assert!(skill.is_internal());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_after_the_listing_is_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("skill");
        std::fs::create_dir_all(skill.join("refs")).unwrap();
        std::fs::write(skill.join("refs/a.md"), "listed\n").unwrap();
        std::fs::write(tmp.path().join("secret"), "outside\n").unwrap();
        let inventory = inventory::Inventory::scan(&skill);
        let entry = inventory.get("refs/a.md").unwrap();
        assert_eq!(
            read_listed(&entry.path, &entry.stamp, Some(entry.size)).unwrap(),
            b"listed\n"
        );
        // The file becomes a link out of the skill; then the folder on the way does.
        std::fs::remove_file(skill.join("refs/a.md")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), skill.join("refs/a.md")).unwrap();
        let err = read_listed(&entry.path, &entry.stamp, Some(entry.size)).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        std::fs::rename(skill.join("refs"), tmp.path().join("old-refs")).unwrap();
        std::fs::create_dir(tmp.path().join("elsewhere")).unwrap();
        std::fs::write(tmp.path().join("elsewhere/a.md"), "listed\n").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("elsewhere"), skill.join("refs")).unwrap();
        assert!(read_listed(&entry.path, &entry.stamp, Some(entry.size)).is_err());
    }
}
