//! Where one skill goes: a copy in each agent dir, or one copy in the canonical dir with
//! relative symlinks to it from the others (or, for a packaged skill, the canonical entry a
//! link to the source folder itself).

use std::path::{Path, PathBuf};

use crate::fsutil::relative_path;
use crate::lock::InstallMode;

/// Where one skill goes in one agent dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The skill folder (or link) to create: `<agent dir>/<folder>`.
    pub path: PathBuf,
    /// `None`: a copy of the payload; `Some(text)`: a symlink with this (relative) target.
    pub link: Option<PathBuf>,
}

/// Where one skill goes, given the agent dirs chosen (first one canonical in symlink mode).
pub fn placements(
    folder: &str,
    dirs: &[PathBuf],
    canonical: &Path,
    mode: InstallMode,
) -> Vec<Placement> {
    match mode {
        InstallMode::Copy => dirs
            .iter()
            .map(|dir| Placement {
                path: dir.join(folder),
                link: None,
            })
            .collect(),
        InstallMode::Symlink | InstallMode::Link => {
            let real = canonical.join(folder);
            let mut out = vec![Placement {
                path: real.clone(),
                link: None,
            }];
            for dir in dirs.iter().filter(|d| d.as_path() != canonical) {
                out.push(Placement {
                    path: dir.join(folder),
                    link: Some(relative_path(dir, &real)),
                });
            }
            out
        }
    }
}

/// Where one skill goes in [`InstallMode::Link`]: `.agents/skills/<folder>` a symlink to the
/// source folder `source` itself, the other dirs symlinks to that.
pub fn link_placements(
    folder: &str,
    dirs: &[PathBuf],
    canonical: &Path,
    source: &Path,
) -> Vec<Placement> {
    let mut out = placements(folder, dirs, canonical, InstallMode::Link);
    if let Some(first) = out.first_mut() {
        first.link = Some(relative_path(canonical, source));
    }
    out
}
