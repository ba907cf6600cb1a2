//! YAML of the frontmatter: the value as JSON plus the positions and styles lint needs.
//!
//! Two passes over a text of a few hundred bytes: `serde-saphyr` builds the value (YAML 1.2 with
//! strict booleans, so `no` stays `"no"`; duplicate keys rejected; alias expansion and nesting
//! bounded by its budget), and its event parser reports where each top-level key sits and which
//! constructs strict loaders reject (flow collections, anchors, aliases, tags). Positions are
//! 1-based line and column within the YAML text.

use serde_json::Value;
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, StructureStyle};

/// Deepest nesting accepted in a frontmatter (real ones use 2 or 3 levels).
const MAX_DEPTH: usize = 64;
/// Most nodes a frontmatter may expand to, aliases included.
const MAX_NODES: usize = 100_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Yaml {
    /// The whole frontmatter as JSON, keys in written order, scalars typed as YAML 1.2 reads them.
    pub value: Value,
    /// Top-level keys in written order.
    pub keys: Vec<Key>,
    /// Constructs that parse but that strict loaders reject.
    pub notes: Vec<StyleNote>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub name: String,
    pub pos: Pos,
    /// Where the value starts; the key's own position when the value is empty.
    pub value_pos: Pos,
    pub value_style: ValueStyle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueStyle {
    /// An unquoted scalar (or nothing at all).
    Plain,
    Quoted,
    /// `|` or `>` block scalar.
    Block,
    /// A block sequence or mapping.
    Collection,
    /// A `[…]` or `{…}` collection.
    Flow,
    Alias,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StyleNote {
    FlowCollection(Pos),
    Anchor(Pos),
    Alias(Pos),
    Tag(Pos, String),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    pub message: String,
    pub pos: Option<Pos>,
}

/// Parses frontmatter YAML (line endings already normalized to `\n`): the value and the layout.
pub fn parse(text: &str) -> Result<Yaml, YamlError> {
    let value = value(text)?;
    let (keys, notes) = layout(text)?;
    Ok(Yaml { value, keys, notes })
}

/// The value of frontmatter YAML, without positions (what every command but lint needs).
pub fn value(text: &str) -> Result<Value, YamlError> {
    // YAML 1.2's core schema, as the SDKs that verify served skills read it: `1_000` is not a
    // number there (a YAML 1.1 spelling), so it stays the string it is written as.
    let options = serde_saphyr::options! {
        strict_booleans: true,
        underscored_numbers_as_strings: true,
        with_snippet: false,
        budget: serde_saphyr::budget! { max_depth: MAX_DEPTH, max_nodes: MAX_NODES },
    };
    serde_saphyr::from_str_with_options(text, options).map_err(|err| convert_error(&err))
}

fn convert_error(err: &serde_saphyr::Error) -> YamlError {
    use serde_saphyr::MessageFormatter;
    let message = serde_saphyr::DefaultMessageFormatter.format_message(err.without_snippet());
    let pos = err.location().map(|loc| Pos {
        line: usize::try_from(loc.line()).unwrap_or(usize::MAX),
        col: usize::try_from(loc.column()).unwrap_or(usize::MAX),
    });
    YamlError {
        message: message.to_string(),
        pos,
    }
}

/// Walks the events once for key positions and style notes.
pub fn layout(text: &str) -> Result<(Vec<Key>, Vec<StyleNote>), YamlError> {
    let mut keys = Vec::new();
    let mut notes = Vec::new();
    let mut depth = 0usize;
    // Inside the root mapping, whether the next node at depth 1 is a key.
    let mut at_key = false;
    let mut pending: Option<(String, Pos)> = None;
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|err| YamlError {
            message: err.info().clone(),
            pos: Some(Pos {
                line: err.marker().line(),
                col: err.marker().col() + 1,
            }),
        })?;
        let pos = Pos {
            line: span.start.line(),
            col: span.start.col() + 1,
        };
        let (is_node, anchor, tag) = match &event {
            Event::Scalar(_, _, anchor, tag)
            | Event::SequenceStart(_, anchor, tag)
            | Event::MappingStart(_, anchor, tag) => {
                (true, *anchor, tag.as_ref().map(ToString::to_string))
            }
            Event::Alias(_) => (true, 0, None),
            _ => (false, 0, None),
        };
        if anchor != 0 {
            notes.push(StyleNote::Anchor(pos));
        }
        if let Some(tag) = tag {
            notes.push(StyleNote::Tag(pos, tag));
        }
        if depth == 1 && is_node {
            if at_key {
                let name = match &event {
                    Event::Scalar(value, ..) => value.to_string(),
                    _ => String::new(),
                };
                pending = Some((name, pos));
            } else if let Some((name, key_pos)) = pending.take() {
                let value_style = match &event {
                    Event::Scalar(_, ScalarStyle::Plain, ..) => ValueStyle::Plain,
                    Event::Scalar(_, ScalarStyle::Literal | ScalarStyle::Folded, ..) => {
                        ValueStyle::Block
                    }
                    Event::Scalar(..) => ValueStyle::Quoted,
                    Event::SequenceStart(StructureStyle::Flow, ..)
                    | Event::MappingStart(StructureStyle::Flow, ..) => ValueStyle::Flow,
                    Event::Alias(_) => ValueStyle::Alias,
                    _ => ValueStyle::Collection,
                };
                // An empty value is reported by the parser at the next token; keep the key's line.
                let value_pos = if value_style == ValueStyle::Plain && pos.line != key_pos.line {
                    key_pos
                } else {
                    pos
                };
                keys.push(Key {
                    name,
                    pos: key_pos,
                    value_pos,
                    value_style,
                });
            }
            at_key = !at_key;
        }
        match event {
            Event::SequenceStart(style, ..) | Event::MappingStart(style, ..) => {
                if style == StructureStyle::Flow {
                    notes.push(StyleNote::FlowCollection(pos));
                }
                if depth == 0 {
                    at_key = matches!(event, Event::MappingStart(..));
                }
                depth += 1;
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            Event::Alias(_) => notes.push(StyleNote::Alias(pos)),
            _ => {}
        }
    }
    Ok((keys, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn values_and_positions() {
        let y = parse("name: my-skill\n'description': \"Does: things\"\ncountry: no\nversion: 1.0\ntags: [a, b]\nempty:\nmeta:\n  k: v\n").unwrap();
        assert_eq!(
            value("a: 1_000\nb: 0x1F\nc: True\n").unwrap(),
            serde_json::json!({"a": "1_000", "b": 31, "c": true})
        );
        assert_eq!(
            y.value,
            serde_json::json!({"name": "my-skill", "description": "Does: things", "country": "no",
                "version": 1.0, "tags": ["a", "b"], "empty": null, "meta": {"k": "v"}})
        );
        let keys: Vec<_> = y.keys.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            keys,
            [
                "name",
                "description",
                "country",
                "version",
                "tags",
                "empty",
                "meta"
            ]
        );
        assert_eq!(y.keys[1].pos, Pos { line: 2, col: 1 });
        assert_eq!(y.keys[1].value_pos, Pos { line: 2, col: 16 });
        assert_eq!(y.keys[1].value_style, ValueStyle::Quoted);
        assert_eq!(y.keys[4].value_style, ValueStyle::Flow);
        assert_eq!(y.keys[5].value_pos.line, 6);
        assert_eq!(y.keys[6].value_style, ValueStyle::Collection);
        assert_eq!(
            y.notes,
            [StyleNote::FlowCollection(Pos { line: 5, col: 7 })]
        );
    }

    #[test]
    fn anchors_aliases_tags() {
        let y = parse("name: &n my-skill\ndescription: *n\nx: !!str 5\n").unwrap();
        assert_eq!(y.value["description"], "my-skill");
        assert_eq!(y.value["x"], "5");
        assert!(
            y.notes
                .iter()
                .any(|n| matches!(n, StyleNote::Anchor(Pos { line: 1, .. })))
        );
        assert!(
            y.notes
                .contains(&StyleNote::Alias(Pos { line: 2, col: 14 }))
        );
        assert!(
            y.notes
                .iter()
                .any(|n| matches!(n, StyleNote::Tag(Pos { line: 3, .. }, _)))
        );
    }

    #[test]
    fn errors_have_positions() {
        let err = parse("name: a\nname: b\n").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(2));
        let err = parse("description: Use this skill when: the user asks\n").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(1));
        let err = parse("a: d\nmetadata:\n\tauthor: me\n").unwrap_err();
        assert_eq!(err.pos.map(|p| p.line), Some(3));
    }

    #[test]
    fn bombs_are_bounded() {
        let mut lol = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            let refs = vec![format!("*a{p}"); 9].join(", ");
            writeln!(lol, "a{i}: &a{i} [{refs}]").unwrap();
        }
        assert!(parse(&lol).is_err());
        assert!(parse(&"[".repeat(100_000)).is_err());
        assert!(parse(&("- ".repeat(100_000) + "x")).is_err());
    }
}
