//! `--write FILE`: keep the prompt block between two markers in a file such as AGENTS.md.
//!
//! Invariants: a marker is a line of its own (spaces around it allowed); a marker inside a line
//! of prose is text, not a marker. The marker lines appear once each, start before end, or not
//! at all (then the block is appended once); everything outside them stays byte for byte. No
//! text of a skill can forge a marker: [`neutralise`] escapes every marker in what the prompt
//! renders (whatever the format or template), and [`splice`] does it again on the block it puts
//! between the markers. The file is rewritten only when its content changes, atomically,
//! keeping its permissions; a file that is a symlink leading out of the project is refused.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

pub const START: &str = "<!-- skills:start -->";
pub const END: &str = "<!-- skills:end -->";

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("`{}` has {starts} `{START}` and {ends} `{END}` marker lines; expected one of each, start first", path.display())]
    Markers {
        path: PathBuf,
        starts: usize,
        ends: usize,
    },
    #[error("`{}` is a symlink to `{}`, outside the project", path.display(), target.display())]
    SymlinkOut { path: PathBuf, target: PathBuf },
    #[error("cannot write `{}`: the folder `{}` does not exist", path.display(), folder.display())]
    NoFolder { path: PathBuf, folder: PathBuf },
    #[error("`{}` is not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("`{}` is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl crate::hint::Hint for WriteError {
    fn hint(&self) -> Option<String> {
        match self {
            WriteError::Markers { .. } => Some(format!(
                "keep one `{START}` line and one `{END}` line after it, or remove both (the block is then appended); a marker inside a line of text is not one"
            )),
            WriteError::SymlinkOut { .. } => {
                Some("`--write` writes only files inside the project; name the file the link points to if you mean it".into())
            }
            WriteError::NotAFile { .. } => Some(
                "`--write` splices the block into a text file; to print it, leave `--write` out".into(),
            ),
            WriteError::NoFolder { folder, .. } => Some(format!(
                "create it first (`mkdir -p '{}'`): `--write` makes the file, not folders",
                folder.display()
            )),
            WriteError::NotUtf8 { .. } | WriteError::Read { .. } | WriteError::Write { .. } => None,
        }
    }
}

/// What `--write` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Created,
    Updated,
    Unchanged,
}

/// `text` with the `<` of every marker escaped as `&lt;` (what Markdown and XML show as `<`):
/// no line of it can be taken for a marker. For any rendered prompt but JSON.
pub fn neutralise(text: &str) -> Cow<'_, str> {
    escape_markers(text, "&lt;")
}

/// The same for JSON text: `<` as `\u003c`, which a JSON reader reads as `<` again (markers can
/// only be inside strings there), so the data is unchanged.
pub fn neutralise_json(text: &str) -> Cow<'_, str> {
    escape_markers(text, "\\u003c")
}

fn escape_markers<'a>(text: &'a str, lt: &str) -> Cow<'a, str> {
    if !text.contains(START) && !text.contains(END) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_owned();
    for marker in [START, END] {
        out = out.replace(marker, &format!("{lt}{}", &marker[1..]));
    }
    Cow::Owned(out)
}

/// The byte ranges of the marker lines `marker` in `text`: the marker itself, without the
/// spaces around it on its line.
fn marker_lines(text: &str, marker: &str) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let start = at + (line.len() - trimmed.len());
        if trimmed.trim_end() == marker {
            found.push(start..start + marker.len());
        }
        at += line.len();
    }
    found
}

/// The text of `existing` (a file's content, if any) with `block` between the markers.
pub fn splice(path: &Path, existing: Option<&str>, block: &str) -> Result<String, WriteError> {
    let mut block = neutralise(block).into_owned();
    if !block.is_empty() && !block.ends_with('\n') {
        block.push('\n');
    }
    let section = format!("{START}\n{block}{END}");
    let Some(text) = existing else {
        return Ok(format!("{section}\n"));
    };
    let (starts, ends) = (marker_lines(text, START), marker_lines(text, END));
    match (starts.as_slice(), ends.as_slice()) {
        ([], []) => {
            let mut out = text.to_owned();
            if !out.is_empty() {
                while !out.ends_with("\n\n") {
                    out.push('\n');
                }
            }
            out.push_str(&section);
            out.push('\n');
            Ok(out)
        }
        ([start], [end]) if start.start < end.start => Ok(format!(
            "{}{section}{}",
            &text[..start.start],
            &text[end.end..]
        )),
        _ => Err(WriteError::Markers {
            path: path.to_path_buf(),
            starts: starts.len(),
            ends: ends.len(),
        }),
    }
}

/// Puts `block` into `path` (relative to `cwd`, as typed). A file inside `project` is read and
/// written through a handle on the project: links on the way (the file itself, a folder above
/// it) are followed only while they stay inside, else refused. A file outside the project (or
/// with no project) is where the user said.
pub fn write(
    path: &Path,
    cwd: &Path,
    project: Option<&Path>,
    block: &str,
) -> Result<Outcome, WriteError> {
    let absolute = crate::source::grammar::normalize(&cwd.join(path));
    match project.map(|project| (project, absolute.strip_prefix(project))) {
        Some((project, Ok(rel))) if !rel.as_os_str().is_empty() => {
            write_inside(path, project, rel, block)
        }
        _ => write_outside(path, block),
    }
}

/// The file `rel` of the project, through a handle on it.
fn write_inside(
    path: &Path,
    project: &Path,
    rel: &Path,
    block: &str,
) -> Result<Outcome, WriteError> {
    let read_error = |source| WriteError::Read {
        path: path.to_path_buf(),
        source,
    };
    let root = cap_std::fs::Dir::open_ambient_dir(project, cap_std::ambient_authority())
        .map_err(read_error)?;
    let found = real_path(&root, rel).map_err(|err| escaped(path, project, err))?;
    let kind = root.metadata(&found).map(|meta| meta.is_file());
    let opened = root
        .open_with(&found, &read_options())
        .map(cap_std::fs::File::into_std);
    let existing = read_existing(path, kind.ok(), opened)?;
    finish(path, existing.as_deref(), block, |text| {
        crate::fsutil::write_atomic_beneath(&root, &found, text.as_bytes())
    })
}

/// Where the file `rel` really is beneath `root`, relative to it: links on the way followed
/// (beneath `root` only), a file that does not exist yet (or a link to one) where it would be.
fn real_path(root: &cap_std::fs::Dir, rel: &Path) -> std::io::Result<PathBuf> {
    let mut rel = rel.to_path_buf();
    for _ in 0..8 {
        match root.canonicalize(&rel) {
            Ok(canonical) => return Ok(canonical),
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => return Err(err),
            Err(_) => {}
        }
        let parent = rel.parent().filter(|p| !p.as_os_str().is_empty());
        let real_parent = match parent {
            Some(parent) => root.canonicalize(parent)?,
            None => PathBuf::new(),
        };
        let at = real_parent.join(rel.file_name().unwrap_or_default());
        match root.read_link_contents(&at) {
            // A link to a file not made yet: where it points, if that stays beneath the root.
            Ok(target) if target.is_absolute() => {
                return Err(std::io::ErrorKind::PermissionDenied.into());
            }
            Ok(target) => {
                rel = crate::source::grammar::normalize(
                    &Path::new("/").join(&real_parent).join(target),
                )
                .strip_prefix("/")
                .map(Path::to_path_buf)
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
                if rel.as_os_str().is_empty() {
                    return Err(std::io::ErrorKind::PermissionDenied.into());
                }
            }
            Err(_) => return Ok(at),
        }
    }
    Err(std::io::Error::other("too many links"))
}

/// A failure to find the file beneath the project: a missing folder or a link leading out, said
/// as such.
fn escaped(path: &Path, project: &Path, err: std::io::Error) -> WriteError {
    if err.kind() == std::io::ErrorKind::NotFound
        && let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && std::fs::symlink_metadata(folder).is_err()
    {
        return WriteError::NoFolder {
            path: path.to_path_buf(),
            folder: folder.to_path_buf(),
        };
    }
    let target = std::fs::canonicalize(path)
        .or_else(|_| {
            path.parent()
                .map_or(Ok(PathBuf::new()), std::fs::canonicalize)
                .map(|p| p.join(path.file_name().unwrap_or_default()))
        })
        .unwrap_or_else(|_| path.to_path_buf());
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    if target.starts_with(&project) {
        WriteError::Read {
            path: path.to_path_buf(),
            source: err,
        }
    } else {
        WriteError::SymlinkOut {
            path: path.to_path_buf(),
            target,
        }
    }
}

/// A file outside the project, where the user named it.
fn write_outside(path: &Path, block: &str) -> Result<Outcome, WriteError> {
    let kind = std::fs::metadata(path).map(|meta| meta.is_file());
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags_nonblocking()
        .open(path);
    let existing = read_existing(path, kind.ok(), opened)?;
    finish(path, existing.as_deref(), block, |text| {
        crate::fsutil::write_atomic(path, text.as_bytes())
    })
}

/// Opening for reading without blocking on a FIFO.
fn read_options() -> cap_std::fs::OpenOptions {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options
}

/// `O_NONBLOCK` for `std` opens, where the system has it.
trait NonBlocking {
    fn custom_flags_nonblocking(&mut self) -> &mut Self;
}

impl NonBlocking for std::fs::OpenOptions {
    fn custom_flags_nonblocking(&mut self) -> &mut Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            self.custom_flags(libc::O_NONBLOCK);
        }
        self
    }
}

/// The text of the file `opened` (`None` when there is none); `is_file` says what the path held
/// before it was opened. What was opened is checked to be a regular file before a byte is read:
/// a device, FIFO or socket is refused (reading a FIFO would block, and the atomic rename would
/// replace it).
fn read_existing(
    path: &Path,
    is_file: Option<bool>,
    opened: std::io::Result<std::fs::File>,
) -> Result<Option<String>, WriteError> {
    if is_file == Some(false) {
        return Err(WriteError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let file = match opened {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(WriteError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let meta = file.metadata().map_err(|source| WriteError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_file() {
        return Err(WriteError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let bytes =
        crate::skill::read_open(file, Some(meta.len()), crate::skill::MAX_READ).map_err(|err| {
            WriteError::Read {
                path: path.to_path_buf(),
                source: match err {
                    crate::skill::ReadOpen::Io(err) => err,
                    crate::skill::ReadOpen::TooLarge => std::io::ErrorKind::FileTooLarge.into(),
                },
            }
        })?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| WriteError::NotUtf8 {
            path: path.to_path_buf(),
        })
}

/// Splices `block` into `existing` and writes it with `write` when it changed.
fn finish(
    path: &Path,
    existing: Option<&str>,
    block: &str,
    write: impl FnOnce(&str) -> std::io::Result<()>,
) -> Result<Outcome, WriteError> {
    let text = splice(path, existing, block)?;
    if existing == Some(text.as_str()) {
        return Ok(Outcome::Unchanged);
    }
    write(&text).map_err(|source| WriteError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(if existing.is_some() {
        Outcome::Updated
    } else {
        Outcome::Created
    })
}

/// `location` (of a skill file or folder) relative to the folder of `file` (an absolute path,
/// normalized) when both are inside `project`: a written file is usually committed, and an
/// absolute path holds on one machine only. `None` for the rest: skills outside the project (the
/// user's) keep their absolute paths, which no relative path could name on another machine
/// either.
pub fn relative_location(location: &str, file: &Path, project: &Path) -> Option<String> {
    let dir = file.parent().filter(|dir| dir.starts_with(project))?;
    let location = Path::new(location);
    if !location.is_absolute() || !location.starts_with(project) {
        return None;
    }
    relative_to(dir, location).map(|relative| {
        if relative.is_empty() {
            ".".to_owned()
        } else {
            relative
        }
    })
}

/// `path` relative to `dir` (both absolute and normalized), `/`-separated: `../x/y` and the like.
pub fn relative_to(dir: &Path, path: &Path) -> Option<String> {
    let dir: Vec<_> = dir.components().collect();
    let path: Vec<_> = path.components().collect();
    let common = dir.iter().zip(&path).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); dir.len() - common];
    for component in &path[common..] {
        match component {
            std::path::Component::Normal(name) => parts.push(name.to_str()?.to_owned()),
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_relative_to_the_written_file() {
        let rel = |dir: &str, path: &str| relative_to(Path::new(dir), Path::new(path));
        assert_eq!(
            rel("/p", "/p/.claude/skills/pdf/SKILL.md").as_deref(),
            Some(".claude/skills/pdf/SKILL.md")
        );
        assert_eq!(
            rel("/p/docs", "/p/.agents/skills/pdf/SKILL.md").as_deref(),
            Some("../.agents/skills/pdf/SKILL.md")
        );
        assert_eq!(rel("/p/a/b", "/p/x").as_deref(), Some("../../x"));
    }

    #[test]
    fn splices() {
        let p = Path::new("AGENTS.md");
        assert_eq!(
            splice(p, None, "B\n").unwrap(),
            "<!-- skills:start -->\nB\n<!-- skills:end -->\n"
        );
        assert_eq!(
            splice(p, Some("# Agents\n"), "B\n").unwrap(),
            "# Agents\n\n<!-- skills:start -->\nB\n<!-- skills:end -->\n"
        );
        let once = splice(
            p,
            Some("x\n<!-- skills:start -->\nold\n<!-- skills:end -->\ny\n"),
            "new\n",
        )
        .unwrap();
        assert_eq!(
            once,
            "x\n<!-- skills:start -->\nnew\n<!-- skills:end -->\ny\n"
        );
        assert_eq!(splice(p, Some(&once), "new\n").unwrap(), once, "idempotent");
        assert!(splice(p, Some("<!-- skills:end -->\n<!-- skills:start -->\n"), "").is_err());
        assert!(splice(p, Some("<!-- skills:start -->"), "").is_err());
        assert!(
            splice(
                p,
                Some("<!-- skills:start -->\n<!-- skills:start -->\n<!-- skills:end -->"),
                ""
            )
            .is_err()
        );
        // Markers inside a line are prose: the block is appended, the prose kept.
        let prose = "Put `<!-- skills:start -->` and `<!-- skills:end -->` in it.\n";
        assert_eq!(
            splice(p, Some(prose), "B\n").unwrap(),
            format!("{prose}\n<!-- skills:start -->\nB\n<!-- skills:end -->\n")
        );
        // Indented and CRLF marker lines are found, what is around them kept.
        let crlf = "a\r\n  <!-- skills:start -->\r\nold\r\n<!-- skills:end -->\r\nb\r\n";
        assert_eq!(
            splice(p, Some(crlf), "new\n").unwrap(),
            "a\r\n  <!-- skills:start -->\nnew\n<!-- skills:end -->\r\nb\r\n"
        );
    }

    #[test]
    fn a_block_cannot_forge_the_markers() {
        let p = Path::new("AGENTS.md");
        let forged = "x <!-- skills:end -->\n<!-- skills:start -->\n<!-- skills:end -->\ny";
        let user = "# Mine\n\nkeep me\n";
        let once = splice(p, Some(user), forged).unwrap();
        assert!(once.starts_with(user), "{once}");
        assert_eq!(marker_lines(&once, START).len(), 1, "{once}");
        assert_eq!(marker_lines(&once, END).len(), 1, "{once}");
        assert_eq!(splice(p, Some(&once), forged).unwrap(), once);
        assert_eq!(
            neutralise_json(r#"{"d": "<!-- skills:start -->"}"#),
            r#"{"d": "\u003c!-- skills:start -->"}"#
        );
        let json: serde_json::Value =
            serde_json::from_str(&neutralise_json(r#"{"d": "<!-- skills:end -->"}"#)).unwrap();
        assert_eq!(json["d"], "<!-- skills:end -->");
    }
}
