//! The gate's analysis of one file, as SKILL.md, a reference and scripts of each language, by
//! every rule home: no panic on any input, and every finding at a character of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills::lint::flow;
use skills::lint::security::{HOMES, Input};

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    for rel in ["SKILL.md", "references/a.md", "scripts/a.sh", "scripts/a.py", "a.js", "a.ps1"] {
        let markdown = rel.ends_with(".md");
        let _ = flow::analyse(rel, &text, markdown);
        let input = Input::new(rel, &text, &text, markdown);
        for home in HOMES {
            for hit in (home.findings)(&input, true) {
                // Where a finding is reported: a character of the file, never inside one.
                assert!(text.is_char_boundary(hit.at), "{}", hit.at);
            }
        }
    }
});
