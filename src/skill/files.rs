//! The files of a skill: one model, its decisions written down once, and the views taken of it.
//!
//! Two walkers read a skill folder: [`Inventory::scan`] (a folder on disk, with stamps and link
//! verdicts: lint, serve, activation, doctor, `manifest --json`) and `install::collect` (any
//! `SourceTree` — git, web or local — with the bytes: add, install, use, sync, the lock, drift).
//! Both take every decision below from this module; nothing else in the crate decides which
//! files a skill has.
//!
//! Decisions:
//! - **`.git/`** is never entered, at any depth ([`NEVER_ENTERED`]): it is the history of a
//!   repository, not part of a skill.
//! - **`node_modules/`** ([`DEPENDENCIES`]) is a skill's installed dependencies: it is installed
//!   and pinned in the lock's `files` (every installed byte is), but left out of `computedHash`
//!   (the reference installer leaves it out, and the hash must stay identical to the reference's)
//!   and out of the served view. [`Inventory::scan`] does not enter it at all: nothing it feeds
//!   (lint, serve, activation) looks inside dependencies.
//! - **top-level `metadata.json`** ([`METADATA_JSON`]) is the reference installer's bookkeeping of
//!   a source: it is part of `computedHash` but not installed ([`is_installed`]). A folder that
//!   has one anyway serves it like any file.
//! - **Symlinks**: in a source, a link is followed while its target stays inside the source
//!   (the installed copy holds the target's bytes; files reached through a link are not part of
//!   `computedHash`, which does not follow links), and refused when it leaves the source, is
//!   absolute or dangles. In an installed folder (the served view), a link is served only when
//!   its target is a file inside the skill folder; a link leaving the folder, a dangling one and
//!   a link to a folder are not served.
//! - **Special files** (sockets, FIFOs, devices) are never part of a skill: install refuses them,
//!   the served view leaves them out.
//! - **Depth**: folders nested deeper than [`MAX_DEPTH`] are not read: install refuses the
//!   skill, the inventory reports them.
//! - **Sizes**: install holds a skill to its limits (`--max-file-size`, …); the served view leaves
//!   out files over [`MAX_SERVED_FILE`] (`serve --max-file-size`).
//! - **Order**: by byte order of the `/`-separated path; the served view lists `SKILL.md` first,
//!   under that name even when the file is `skill.md` on disk.
//!
//! Views, each rule written once:
//! - *installed* ([`is_installed`]): everything the walk reaches but the top-level
//!   `metadata.json`; the lock's `files` records exactly this.
//! - *hashed* ([`is_hashed`]): `computedHash`, the reference's set: regular files (not reached
//!   through a link) outside `node_modules/`, `metadata.json` included.
//! - *served* ([`is_served`], [`served`]): what `serve` lists in `skill://<name>/_manifest` and
//!   `skills manifest --json` prints: no dotfiles or files in dot-folders, no secret-named files
//!   ([`is_secret_name`]), nothing under `node_modules/`, links only as said above.
//!
//! Who reads which view: install, the lock, drift (`manifest --check`, `doctor`), `sync`, `use`
//! and the install gate read the *installed* view through `install::collect` — the gate scans
//! every byte that will be written, `node_modules/` included; lint, activation and `doctor`'s
//! file checks read [`Inventory::scan`] (an author's skill, without its dependencies); `serve`
//! and `manifest --json` read the *served* view.
//!
//! Searching for skill folders (the index, source discovery, npm workspaces, `serve`'s watcher)
//! is another walk with its own list, [`SEARCH_SKIPPED`]: folders that are never searched *for*
//! skills. It applies to folders that may hold skills, never to the skill folders themselves —
//! a skill may be called `build`.

pub use super::inventory::is_secret_name;
use super::inventory::{FileEntry, FileKind, Inventory};

/// Folders never entered when reading a skill.
pub const NEVER_ENTERED: &str = ".git";
/// A skill's installed dependencies: installed, not hashed, not served.
pub const DEPENDENCIES: &str = "node_modules";
/// The reference installer's bookkeeping file at the top of a skill: hashed, not installed.
pub const METADATA_JSON: &str = "metadata.json";
/// Folders whose files nothing reads in an installed skill folder ([`Inventory::scan`], `serve`'s
/// watcher): what is never entered, and dependencies.
pub const NOT_INSPECTED: &[&str] = &[NEVER_ENTERED, DEPENDENCIES];
/// Deepest folder nesting read inside one skill: deeper folders are reported, not read.
pub const MAX_DEPTH: usize = 32;
/// Files over this size are not served (the default of `serve --max-file-size`).
pub const MAX_SERVED_FILE: u64 = 4 << 20;

/// Folders a search for skill folders does not enter: they hold repositories' history, build
/// output and dependencies, never skills of their own. Applied when looking for skills, not to
/// the children of an agent's skills dir (every folder there is a skill, whatever its name).
pub const SEARCH_SKIPPED: &[&str] = &[".git", "node_modules", "dist", "build", "__pycache__"];

/// Whether a folder called `name` is entered when reading a skill's files.
pub fn is_entered(name: &str) -> bool {
    name != NEVER_ENTERED
}

/// Whether a folder called `name` is searched for skills.
pub fn is_searched(name: &str) -> bool {
    !SEARCH_SKIPPED.contains(&name)
}

/// Whether the file at `rel` (relative to the skill folder) is installed.
pub fn is_installed(rel: &str) -> bool {
    rel != METADATA_JSON
}

/// Whether the regular file at `rel` is part of `computedHash` (a file reached through a
/// link never is).
pub fn is_hashed(rel: &str) -> bool {
    !rel.split('/').any(|part| part == DEPENDENCIES)
}

/// Whether the path `rel` may be served (its kind is judged by [`served`]).
pub fn is_served(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    !rel.split('/')
        .any(|part| part.starts_with('.') || part == DEPENDENCIES)
        && !is_secret_name(name)
}

/// Whether `entry` is of a kind that is served: a file, or a link to a file inside the skill.
pub fn is_served_kind(entry: &FileEntry) -> bool {
    match &entry.kind {
        FileKind::File => true,
        FileKind::Symlink(link) => !link.escapes && !link.to_dir && link.resolved.is_some(),
        FileKind::Special => false,
    }
}

/// One file of the served view.
#[derive(Debug, Clone, Copy)]
pub struct Served<'a> {
    /// The path it is served under (`SKILL.md` for a `skill.md` on disk).
    pub rel: &'a str,
    pub entry: &'a FileEntry,
}

/// The served view of `inventory`: `SKILL.md` first, then the others in byte order of their
/// paths, files over `max_file` bytes left out. `own` is the skill file's name on disk.
pub fn served<'a>(inventory: &'a Inventory, own: &str, max_file: u64) -> Vec<Served<'a>> {
    let mut files: Vec<Served<'a>> = inventory
        .files
        .iter()
        .filter(|f| is_served(&f.rel) && is_served_kind(f) && f.size <= max_file)
        .map(|entry| Served {
            rel: if entry.rel == own {
                super::SKILL_MD
            } else {
                entry.rel.as_str()
            },
            entry,
        })
        .collect();
    files.sort_by(|a, b| (a.rel != super::SKILL_MD, a.rel).cmp(&(b.rel != super::SKILL_MD, b.rel)));
    files
}

/// The skill file of a folder as its inventory lists it: `SKILL.md`, else `skill.md`.
pub fn skill_file(inventory: &Inventory) -> Option<&'static str> {
    [super::SKILL_MD, super::SKILL_MD_LOWER]
        .into_iter()
        .find(|name| inventory.get(name).is_some())
}

/// One file of a `_manifest`: `{"path", "size", "hash"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ManifestFile {
    pub path: String,
    pub size: u64,
    /// `sha256:<hex>`.
    pub hash: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views() {
        assert!(!is_entered(".git") && is_entered("node_modules") && is_entered("build"));
        assert!(!is_searched("build") && !is_searched("node_modules") && is_searched("pdf"));
        assert!(!is_installed("metadata.json") && is_installed("a/metadata.json"));
        assert!(!is_hashed("node_modules/x/i.js") && !is_hashed("a/node_modules/y"));
        assert!(is_hashed("metadata.json") && is_hashed(".env"));
        for rel in [
            ".env",
            ".github/ci.yml",
            "credentials.json",
            "node_modules/d/i.js",
        ] {
            assert!(!is_served(rel), "{rel}");
        }
        for rel in [
            "SKILL.md",
            "metadata.json",
            "build/out.txt",
            "references/guide.md",
        ] {
            assert!(is_served(rel), "{rel}");
        }
    }

    #[test]
    fn served_view_puts_skill_md_first() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        std::fs::write(d.join("skill.md"), "x").unwrap();
        std::fs::write(d.join("LICENSE"), "l").unwrap();
        std::fs::write(d.join("big.bin"), [0u8; 10]).unwrap();
        std::fs::write(d.join(".env"), "s").unwrap();
        let inventory = Inventory::scan(d);
        let own = skill_file(&inventory).unwrap();
        let rels: Vec<&str> = served(&inventory, own, 5).iter().map(|f| f.rel).collect();
        assert_eq!(rels, ["SKILL.md", "LICENSE"]);
    }
}
