//! `--write FILE`: keep the prompt block between two markers in a file such as AGENTS.md.
//!
//! Invariants: the markers appear once each, start before end, or not at all (then they are
//! appended once); the file is rewritten only when its content changes, atomically, keeping its
//! permissions; a file that is a symlink leading out of the project is refused.

use std::path::{Path, PathBuf};

pub const START: &str = "<!-- skills:start -->";
pub const END: &str = "<!-- skills:end -->";

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("`{}` has {starts} `{START}` and {ends} `{END}` markers; expected one of each, start first", path.display())]
    Markers {
        path: PathBuf,
        starts: usize,
        ends: usize,
    },
    #[error("`{}` is a symlink to `{}`, outside the project", path.display(), target.display())]
    SymlinkOut { path: PathBuf, target: PathBuf },
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
                "keep one `{START}` line and one `{END}` line after it, or remove both (the block is then appended)"
            )),
            WriteError::SymlinkOut { .. } => {
                Some("`--write` writes only files inside the project; name the file the link points to if you mean it".into())
            }
            WriteError::NotAFile { .. } => Some(
                "`--write` splices the block into a text file; to print it, leave `--write` out".into(),
            ),
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

/// The text of `existing` (a file's content, if any) with `block` between the markers.
pub fn splice(path: &Path, existing: Option<&str>, block: &str) -> Result<String, WriteError> {
    let section = format!("{START}\n{block}{END}");
    let Some(text) = existing else {
        return Ok(format!("{section}\n"));
    };
    let (starts, ends) = (text.matches(START).count(), text.matches(END).count());
    match (starts, ends) {
        (0, 0) => {
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
        (1, 1) => {
            let start = text.find(START).unwrap_or(0);
            let end = text.find(END).unwrap_or(0);
            if end < start {
                return Err(WriteError::Markers {
                    path: path.to_path_buf(),
                    starts,
                    ends,
                });
            }
            Ok(format!(
                "{}{section}{}",
                &text[..start],
                &text[end + END.len()..]
            ))
        }
        _ => Err(WriteError::Markers {
            path: path.to_path_buf(),
            starts,
            ends,
        }),
    }
}

/// Puts `block` into `path`, refusing symlinks that leave `project`.
pub fn write(path: &Path, project: &Path, block: &str) -> Result<Outcome, WriteError> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
            if !target.starts_with(&project) {
                return Err(WriteError::SymlinkOut {
                    path: path.to_path_buf(),
                    target,
                });
            }
            target
        }
        _ => path.to_path_buf(),
    };
    // A device (`/dev/null`), FIFO or socket: the atomic rename would replace it (fsutil refuses
    // that too), and reading a FIFO would block, so it is refused here, before the read.
    if std::fs::metadata(&target).is_ok_and(|meta| !meta.is_file()) {
        return Err(WriteError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    let existing = match std::fs::read(&target) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| WriteError::NotUtf8 {
            path: path.to_path_buf(),
        })?),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(WriteError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let text = splice(path, existing.as_deref(), block)?;
    if existing.as_deref() == Some(text.as_str()) {
        return Ok(Outcome::Unchanged);
    }
    crate::fsutil::write_atomic(&target, text.as_bytes()).map_err(|source| WriteError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(if existing.is_some() {
        Outcome::Updated
    } else {
        Outcome::Created
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(splice(p, Some("<!-- skills:end --><!-- skills:start -->"), "").is_err());
        assert!(splice(p, Some("<!-- skills:start -->"), "").is_err());
        assert!(
            splice(
                p,
                Some("<!-- skills:start --><!-- skills:start --><!-- skills:end -->"),
                ""
            )
            .is_err()
        );
    }
}
