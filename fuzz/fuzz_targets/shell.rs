//! The shell engine, the folding of string building and the script flows on arbitrary bytes
//! read as text: no panic, and every flow points inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skills::lint::flow::{fold, lex::Lang, script, shell};

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let _ = shell::syntax::parse(&text);
    for flow in shell::flows([(text.as_ref(), 0)]) {
        assert!(flow.at <= text.len());
    }
    for lang in [Lang::Python, Lang::Js, Lang::PowerShell] {
        let _ = fold::fold(&text, lang, &std::collections::HashMap::new());
        for flow in script::flows(&text, lang) {
            assert!(flow.at <= text.len());
        }
    }
});
