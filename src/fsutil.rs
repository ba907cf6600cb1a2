//! File-system helpers with the house invariant: nothing is written half-way.
//!
//! Every file is written to a temp file beside its target and renamed into place, so a reader
//! (or a crash) sees either the old bytes or the new ones. Permissions of a replaced file are kept.

use std::io::Write as _;
use std::path::Path;

/// Writes `bytes` to `path` atomically (temp file in the same folder, then rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Like [`write_atomic`], the bytes written by `write` as they come (nothing held in memory).
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(".skills-tmp-")
        .tempfile_in(dir)?;
    {
        let mut out = std::io::BufWriter::new(temp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
    }
    temp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        std::fs::set_permissions(temp.path(), meta.permissions())?;
    } else {
        set_default_mode(temp.as_file())?;
    }
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// New files get the usual `0644` (tempfile creates them `0600`).
#[cfg(unix)]
fn set_default_mode(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_default_mode(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Writes `bytes` only when they differ from what `path` holds; returns whether it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_atomically_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o644
            );
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert!(write_if_changed(&path, b"two").unwrap());
        assert!(!write_if_changed(&path, b"two").unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temp file is left behind");
    }
}
