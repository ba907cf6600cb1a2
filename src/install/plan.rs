//! A skill on its way in from a source: where it is in the source and where it goes
//! ([`Planned`]), then what the lock records about it once it is staged ([`Staged`]). `add`
//! plans, the install gate checks what is planned, the transaction stages it.

use super::Placement;

/// One skill on its way in.
#[derive(Debug, Clone)]
pub struct Planned {
    pub name: String,
    pub folder: String,
    /// Its folder inside the source tree.
    pub source_dir: crate::relpath::RelPath,
    /// The SKILL.md inside the source.
    pub skill_path: String,
    /// What a web index says its bytes hash to.
    pub digest: Option<String>,
    pub placements: Vec<Placement>,
}

/// A skill staged for installing: what the lock records about it. Its bytes are written and
/// dropped as soon as it is staged, so memory stays flat however many skills come.
#[derive(Debug, Clone)]
pub struct Staged {
    pub planned: Planned,
    pub computed_hash: String,
    pub digests: crate::lock::Files,
}
