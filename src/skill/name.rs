//! Skill names: the one home of the rules that turn a skill's `name` into a folder name and that
//! say whether a name is portable.
//!
//! Invariants: [`folder_name`] never returns a path separator, `..`, an empty string or more
//! than 255 bytes, so joining it to an agent dir stays inside that dir; [`is_portable`] is the
//! strict rule of the open spec (1–64 ASCII `a-z`/`0-9`, single inner hyphens) that every client
//! accepts (lint's `spec/name-not-ascii` is this rule, on a name the spec accepts). What lint
//! says beyond it (Unicode, NFKC, reserved words) is lint's business (`lint/spec.rs`). Two names
//! with one [`folder_name`] (`PDF`, `pdf`) are one skill to install: source discovery keeps the
//! first, as for equal names.

/// The folder name a skill gets: lowercased, runs outside `[a-z0-9._]` become `-`, `.`/`-`
/// trimmed from both ends, at most 255 bytes (as the reference installer). `None` when nothing
/// is left or the name holds a path separator or `..`.
pub fn folder_name(name: &str) -> Option<String> {
    if name.contains(['/', '\\']) || name.split(['/', '\\']).any(|p| p == "..") {
        return None;
    }
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches(['.', '-']);
    let mut end = trimmed.len().min(255);
    while !trimmed.is_char_boundary(end) {
        end -= 1;
    }
    let folder = &trimmed[..end];
    (!folder.is_empty()).then(|| folder.to_owned())
}

/// Whether `name` is 1–64 characters of `a-z`, `0-9` and single inner hyphens: valid for the
/// spec and every client, and what the well-known index formats allow (`^[a-z0-9-]{1,64}$`, no
/// leading, trailing or double `-`).
pub fn is_portable(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names() {
        assert_eq!(
            folder_name("PDF Processing").as_deref(),
            Some("pdf-processing")
        );
        assert_eq!(folder_name("my_skill.v2").as_deref(), Some("my_skill.v2"));
        assert_eq!(folder_name("..hidden--"), Some("hidden".into()));
        assert_eq!(folder_name("../../x"), None);
        assert_eq!(folder_name("a/b"), None);
        assert_eq!(folder_name("技能"), None);
        assert_eq!(folder_name(&"a".repeat(300)).map(|f| f.len()), Some(255));
    }

    #[test]
    fn portable_names() {
        assert!(is_portable("pdf-processing"));
        assert!(is_portable("a1"));
        assert!(!is_portable("Bad"));
        assert!(!is_portable("a--b"));
        assert!(!is_portable("-a"));
        assert!(!is_portable(""));
        assert!(!is_portable(&"a".repeat(65)));
        for bad in ["a-", "a_b", "../x", "a/b"] {
            assert!(!is_portable(bad), "{bad}");
        }
    }
}
