//! The gate's analysis of one file, as SKILL.md, a reference and scripts of each language: no
//! panic on any input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills::lint::flow;
use skills::lint::security::{Input, remote_exec};

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    for rel in ["SKILL.md", "references/a.md", "scripts/a.sh", "scripts/a.py", "a.js", "a.ps1"] {
        let markdown = rel.ends_with(".md");
        let _ = flow::analyse(rel, &text, markdown);
        let input = Input { rel, text: &text, skill_md: &text, prose: markdown };
        let _ = remote_exec::findings(&input, true);
    }
});
