//! The frontmatter as `skills` reads it equals what a second, independent YAML implementation
//! (libyaml, through `yaml_serde`) reads, over frontmatters shaped like real ones: plain, quoted,
//! folded and literal values with every chomping, as the last key or not, blank lines and
//! comments, nested mappings and lists, LF or CRLF, with or without a BOM. MCP clients verify a
//! served `SKILL.md` by parsing it themselves and comparing with the entry, so a single lost or
//! added newline makes them refuse the skill.

use std::fmt::Write as _;
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;

use skills::skill::Skill;

/// A value as written after `key:`, starting with a space or a line break.
fn value() -> impl Strategy<Value = String> {
    let word = "[a-z]{1,8}";
    let words = proptest::collection::vec(word, 1..6).prop_map(|w| w.join(" "));
    let line = proptest::collection::vec("[a-zA-Z0-9.,()]{1,8}", 1..6).prop_map(|w| w.join(" "));
    let block = (
        prop_oneof![Just('>'), Just('|')],
        prop_oneof![Just(""), Just("-"), Just("+")],
        proptest::collection::vec(
            prop_oneof![
                4 => line.clone(),
                1 => Just(String::new()),
                1 => line.clone().prop_map(|l| format!("  {l}")),
            ],
            1..6,
        ),
        0..3usize,
    )
        .prop_map(|(style, chomp, lines, trailing)| {
            let mut text = format!(" {style}{chomp}\n");
            // A block cannot start with a more-indented line without an indentation indicator.
            let first = lines
                .iter()
                .position(|l| !l.is_empty() && !l.starts_with(' '));
            let Some(first) = first else {
                return " plain\n".to_owned();
            };
            for l in &lines[first..] {
                if l.is_empty() {
                    text.push('\n');
                } else {
                    let _ = writeln!(text, "  {l}");
                }
            }
            text.push_str(&"\n".repeat(trailing));
            text
        });
    prop_oneof![
        3 => words.clone().prop_map(|w| format!(" {w}\n")),
        1 => words.clone().prop_map(|w| format!(" '{w}''s'\n")),
        1 => words.clone().prop_map(|w| format!(" \"{w}: \\\"x\\\" \\u00e9\\t#\"\n")),
        1 => words.clone().prop_map(|w| format!(" {w}\n  {w} more\n")),
        4 => block,
        1 => Just(" 42\n".to_owned()),
        1 => Just(" 1_000\n".to_owned()),
        1 => Just(" 1.5\n".to_owned()),
        1 => Just(" true\n".to_owned()),
        1 => Just(" ~\n".to_owned()),
        1 => Just("\n".to_owned()),
        1 => words.clone().prop_map(|w| format!("\n  author: {w}\n  version: \"1.0\"\n")),
        1 => words.prop_map(|w| format!("\n  - {w}\n  - second\n")),
    ]
}

/// A SKILL.md: keys in any order (the description often last), comments, LF or CRLF, maybe a BOM.
fn skill_md() -> impl Strategy<Value = (String, String)> {
    let keys = [
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
        "when_to_use",
    ];
    (
        proptest::collection::vec(value(), keys.len()),
        Just(keys).prop_shuffle(),
        proptest::collection::vec(any::<bool>(), keys.len()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(move |(values, order, comments, crlf, bom)| {
            let mut yaml = String::new();
            for ((key, value), comment) in order.iter().zip(&values).zip(&comments) {
                if *comment {
                    yaml.push_str("# a comment\n");
                }
                let _ = write!(yaml, "{key}:{value}");
            }
            let mut text = format!("---\n{yaml}---\n# Body\n");
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            if bom {
                text.insert(0, '\u{feff}');
            }
            (text, yaml)
        })
}

/// Numbers compared by value (`1.0` and `1` are one number to a JSON reader).
pub fn normalized(value: Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(normalized).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, normalized(v))).collect())
        }
        other => other,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn frontmatter_is_what_libyaml_reads((text, yaml) in skill_md()) {
        let theirs: Value = yaml_serde::from_str(&yaml).map_err(|err| TestCaseError::fail(format!("{err} in {yaml}")))?;
        let skill = Skill::parse(Path::new("d"), Path::new("d/SKILL.md"), text.clone().into_bytes())
            .map_err(|err| TestCaseError::fail(format!("{err} in {text:?}")))?;
        prop_assert_eq!(
            normalized(Value::Object(skill.frontmatter.map.clone())),
            normalized(theirs),
            "{:?}",
            text
        );
    }
}

#[test]
fn block_scalars_keep_their_final_newline() {
    for (text, description) in [
        (
            "---\nname: a\ndescription: >\n  Does\n  things.\n---\n",
            "Does things.\n",
        ),
        (
            "---\nname: a\ndescription: |\n  Does\n  things.\n---\n",
            "Does\nthings.\n",
        ),
        (
            "---\nname: a\ndescription: >-\n  Does\n  things.\n---\n",
            "Does things.",
        ),
        (
            "---\nname: a\ndescription: |+\n  Does.\n\n---\n",
            "Does.\n\n",
        ),
        (
            "---\r\nname: a\r\ndescription: >\r\n  Does.\r\n---\r\n",
            "Does.\n",
        ),
        (
            "---\nname: a\ndescription: >\n  Does.\nlicense: MIT\n---\n",
            "Does.\n",
        ),
    ] {
        let skill = Skill::parse(Path::new("d"), Path::new("d/SKILL.md"), text.into()).unwrap();
        assert_eq!(
            skill.frontmatter.map["description"], description,
            "{text:?}"
        );
    }
}
