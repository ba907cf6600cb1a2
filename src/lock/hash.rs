//! The hashes the lock records: the reference installer's `computedHash` of a skill folder, and
//! `sha256:<hex>` digests of single files.

/// The reference installer's `computedHash`: sha256 over `path ‖ bytes` of every file, paths
/// `/`-separated and sorted by ICU root collation (JavaScript's `localeCompare`), no separators.
pub fn computed_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    use sha2::{Digest, Sha256};
    let mut files: Vec<(&str, &[u8])> = files.into_iter().collect();
    let collator = icu_collator::Collator::try_new(
        icu_collator::CollatorPreferences::default(),
        icu_collator::options::CollatorOptions::default(),
    );
    match collator {
        Ok(collator) => files.sort_by(|a, b| collator.compare(a.0, b.0)),
        // Compiled-in data cannot be missing; keep a total order anyway.
        Err(_) => files.sort_by(|a, b| a.0.cmp(b.0)),
    }
    let mut hasher = Sha256::new();
    for (path, bytes) in files {
        hasher.update(path.as_bytes());
        hasher.update(bytes);
    }
    hex::encode(hasher.finalize())
}

/// A commit or hash as tables and messages show it: its first 12 characters (all of it when
/// shorter; never cut inside a character).
pub fn short(hex: &str) -> &str {
    hex.char_indices()
        .nth(12)
        .map_or(hex, |(end, _)| &hex[..end])
}

/// `sha256:<hex>` of `bytes`, as in the lock's `files` map and MCP digests.
pub fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    digest_of(&Sha256::digest(bytes).into())
}

/// `sha256:<hex>` of a sha256 already taken.
pub fn digest_of(sha256: &[u8; 32]) -> String {
    format!("sha256:{}", hex::encode(sha256))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::Value;

    use super::*;

    #[test]
    fn short_never_panics() {
        assert_eq!(short("0123456789abcdef0123"), "0123456789ab");
        assert_eq!(short("abc"), "abc");
        assert_eq!(short(""), "");
        assert_eq!(short("ééééééééééééé"), "éééééééééééé");
    }

    #[test]
    fn computed_hash_matches_the_reference() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/computed-hash");
        let expected: Value =
            serde_json::from_slice(&std::fs::read(root.join("expected.json")).unwrap()).unwrap();
        for (name, want) in expected["skills"].as_object().unwrap() {
            let inventory = crate::skill::inventory::Inventory::scan(&root.join(name));
            let files: Vec<(String, Vec<u8>)> = inventory
                .files
                .iter()
                .filter(|f| crate::skill::files::is_hashed(&f.rel))
                .map(|f| (f.rel.clone(), std::fs::read(&f.path).unwrap()))
                .collect();
            let hash = computed_hash(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
            assert_eq!(hash, want["computedHash"].as_str().unwrap(), "{name}");
        }
    }
}
