//! Rules of the open spec (agentskills.io): required fields, name rules, lengths, field types.
//!
//! Names are judged as `skills-ref` judges them (NFKC-normalized, Unicode letters and digits, equal
//! to their lowercase form) so that both tools agree on every case the reference accepts; the
//! stricter ASCII expectation of some clients is `compat/name-not-ascii`.

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use super::Cx;
use super::rules::{self, Rule};
use crate::skill::frontmatter::SplitError;
use crate::skill::{LoadError, Pos, Skill};

pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The six fields of the spec.
pub const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// The rule that reports why SKILL.md could not be loaded.
pub fn load_error_rule(err: &LoadError) -> &'static Rule {
    match err {
        LoadError::Read { .. } => &rules::UNREADABLE,
        LoadError::NotUtf8 { .. } => &rules::NOT_UTF8,
        LoadError::Split(SplitError::Missing) => &rules::FRONTMATTER_MISSING,
        LoadError::Split(SplitError::Unclosed { .. }) => &rules::FRONTMATTER_UNCLOSED,
        LoadError::Yaml { .. } => &rules::YAML_INVALID,
        LoadError::NotMapping { .. } => &rules::FRONTMATTER_NOT_MAPPING,
    }
}

/// Reports why SKILL.md could not be loaded.
pub fn load_error(cx: &mut Cx<'_>, err: &LoadError) {
    let pos = err.pos();
    match err {
        LoadError::Read { source, .. } => {
            cx.at(
                &rules::UNREADABLE,
                None,
                format!("cannot read SKILL.md: {source}"),
            );
        }
        LoadError::NotUtf8 { .. } => {
            cx.at(&rules::NOT_UTF8, pos, "SKILL.md is not valid UTF-8".into())
                .help("save the file as UTF-8");
        }
        LoadError::Split(SplitError::Missing) => {
            cx.at(&rules::FRONTMATTER_MISSING, pos, "SKILL.md must start with YAML frontmatter (`---`)".into())
                .help("put a line `---`, the `name:` and `description:` fields, and another `---` at the very top");
        }
        LoadError::Split(SplitError::Unclosed { .. }) => {
            cx.at(
                &rules::FRONTMATTER_UNCLOSED,
                pos,
                "the frontmatter is not closed with a `---` line".into(),
            )
            .help("end the frontmatter with a line that is exactly `---`");
        }
        LoadError::Yaml { message, .. } => {
            let finding = cx.at(
                &rules::YAML_INVALID,
                pos,
                format!("invalid YAML in frontmatter: {message}"),
            );
            if message.contains("mapping values are not allowed")
                || message.contains("mapping value")
            {
                finding
                    .help("a value containing `: ` must be quoted: `description: \"Use when: …\"`");
            } else if message.contains("tab") {
                finding.help("indent with spaces, not tabs");
            } else if message.to_ascii_lowercase().contains("duplicate") {
                finding.help("each key may appear once");
            }
        }
        LoadError::NotMapping { found, .. } => {
            cx.at(
                &rules::FRONTMATTER_NOT_MAPPING,
                pos,
                format!("the frontmatter must be a mapping of keys to values, not {found}"),
            );
        }
    }
}

/// Where to point for a missing field: the opening `---` line.
fn top(skill: &Skill) -> Pos {
    Pos {
        line: skill.frontmatter.line.saturating_sub(1).max(1),
        col: 1,
    }
}

fn value_pos(skill: &Skill, key: &str) -> Option<Pos> {
    skill.frontmatter.key(key).map(|k| k.value_pos)
}

/// How a value reads in a message: `a number`, `a list`, `empty`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// Shows invisible and unusual characters so that a message about them can be read.
pub fn show_char(c: char) -> String {
    if c.is_control() || c.is_whitespace() || !c.is_alphanumeric() && !c.is_ascii_graphic() {
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    }
}

/// A text field that YAML typed as a number or boolean: warn, and read it as text.
fn non_string(cx: &mut Cx<'_>, skill: &Skill, key: &str, value: &Value) {
    let pos = value_pos(skill, key);
    cx.at(
        &rules::NON_STRING_SCALAR,
        pos,
        format!("`{key}` is {}, not a string", type_name(value)),
    )
    .help(format!(
        "quote it: `{key}: \"{}\"`",
        skill.frontmatter.text(key).unwrap_or_default()
    ));
}

pub fn check(cx: &mut Cx<'_>, skill: &Skill) {
    check_name(cx, skill);
    check_description(cx, skill);
    check_optional(cx, skill);
}

fn check_name(cx: &mut Cx<'_>, skill: &Skill) {
    // Positions need a second look at the YAML: taken only when there is something to report.
    let pos = || value_pos(skill, "name");
    let raw = match skill.frontmatter.map.get("name") {
        None => {
            cx.at(
                &rules::NAME_MISSING,
                Some(top(skill)),
                "missing required field `name`".into(),
            )
            .help(format!(
                "add `name: {}` (the folder name)",
                skill.dir_name()
            ));
            return;
        }
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(value @ (Value::Number(_) | Value::Bool(_))) => {
            non_string(cx, skill, "name", value);
            skill.frontmatter.text("name").unwrap_or_default()
        }
        Some(value) => {
            let what = if value.is_string() {
                "empty"
            } else {
                type_name(value)
            };
            cx.at(
                &rules::NAME_TYPE,
                pos().or(Some(top(skill))),
                format!("`name` must be a non-empty string, not {what}"),
            );
            return;
        }
    };
    let trimmed = raw.trim();
    if trimmed != raw {
        cx.at(
            &rules::NAME_WHITESPACE,
            pos(),
            format!("`name` has whitespace around `{trimmed}`"),
        )
        .help(format!("write `name: {trimmed}`"));
    }
    let name: String = trimmed.nfkc().collect();
    let mut valid = true;
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        valid = false;
        cx.at(
            &rules::NAME_TOO_LONG,
            pos(),
            format!("`name` has {count} characters; the limit is {MAX_NAME_CHARS}"),
        );
    }
    let lower = name.to_lowercase();
    if lower != name {
        valid = false;
        cx.at(
            &rules::NAME_UPPERCASE,
            pos(),
            format!("`name` `{name}` must be lowercase"),
        )
        .help(format!("use `{lower}` (and rename the folder)"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        valid = false;
        cx.at(
            &rules::NAME_HYPHENS,
            pos(),
            format!("`name` `{name}` must not start or end with `-`"),
        );
    }
    if name.contains("--") {
        valid = false;
        cx.at(
            &rules::NAME_HYPHENS,
            pos(),
            format!("`name` `{name}` must not contain `--`"),
        );
    }
    // Judge the normalized name (a decomposed `é` is a letter once composed), but show the
    // characters as written (a no-break space as U+00A0, not as the space NFKC makes of it).
    let invalid: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_alphanumeric() || *c == '-'))
        .collect();
    let mut bad: Vec<String> = Vec::new();
    if !invalid.is_empty() {
        for c in trimmed.chars() {
            if c.to_string().nfkc().any(|n| invalid.contains(&n)) && !bad.contains(&show_char(c)) {
                bad.push(show_char(c));
            }
        }
    }
    if !bad.is_empty() {
        valid = false;
        cx.at(
            &rules::NAME_CHARSET,
            pos(),
            format!(
                "`name` may contain only letters, digits and `-`; found {}",
                bad.join(", ")
            ),
        )
        .help(format!("try `{}`", suggest_name(&name)));
    }
    let dir: String = skill.dir_name().nfkc().collect();
    if dir != name {
        cx.at(
            &rules::NAME_DIR_MISMATCH,
            pos(),
            format!(
                "`name` `{name}` differs from the folder name `{}`",
                skill.dir_name()
            ),
        )
        .help("rename the folder or change `name` so that both are equal");
    }
    // A valid name already keeps the hyphen and length rules: what is left of the portable rule
    // is the alphabet.
    if valid && !crate::skill::name::is_portable(trimmed) {
        cx.at(
            &rules::NAME_NOT_ASCII,
            pos(),
            format!("`name` `{trimmed}` is not made of `a-z`, `0-9` and `-` only"),
        )
        .help("Claude Code and several installers accept only ASCII lowercase names");
    }
    for word in ["anthropic", "claude"] {
        if name.contains(word) {
            cx.at(
                &rules::RESERVED_WORD,
                pos(),
                format!("`name` contains the reserved word `{word}`"),
            )
            .help("uploads to Claude reject such names");
        }
    }
}

/// A name close to `name` that passes the spec: lowercase, ASCII-ish, single hyphens.
pub fn suggest_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

fn check_description(cx: &mut Cx<'_>, skill: &Skill) {
    // Positions need a second look at the YAML: taken only when there is something to report.
    let pos = || value_pos(skill, "description");
    let text = match skill.frontmatter.map.get("description") {
        None => {
            cx.at(
                &rules::DESCRIPTION_MISSING,
                Some(top(skill)),
                "missing required field `description`".into(),
            )
            .help("add `description:` saying what the skill does and when to use it");
            return;
        }
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(value @ (Value::Number(_) | Value::Bool(_))) => {
            non_string(cx, skill, "description", value);
            skill.frontmatter.text("description").unwrap_or_default()
        }
        Some(value) => {
            let what = if value.is_string() {
                "empty"
            } else {
                type_name(value)
            };
            cx.at(
                &rules::DESCRIPTION_TYPE,
                pos().or(Some(top(skill))),
                format!("`description` must be a non-empty string, not {what}"),
            );
            return;
        }
    };
    let count = text.chars().count();
    if count > MAX_DESCRIPTION_CHARS {
        cx.at(
            &rules::DESCRIPTION_TOO_LONG,
            pos(),
            format!("`description` has {count} characters; the limit is {MAX_DESCRIPTION_CHARS}"),
        )
        .help("keep what it does and when to use it; move details into the body");
    }
    if has_xml_tag(&text) {
        cx.at(
            &rules::XML_TAG,
            pos(),
            "`description` contains an XML tag".into(),
        )
        .help("uploads to Claude reject tags in descriptions; describe it in words");
    }
}

/// Whether `text` has something shaped like `<tag>`, `</tag>` or `<tag attr>`.
pub fn has_xml_tag(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'<', bytes).any(|i| {
        let rest = &bytes[i + 1..];
        let rest = rest.strip_prefix(b"/").unwrap_or(rest);
        rest.first().is_some_and(u8::is_ascii_alphabetic)
            && rest
                .iter()
                .position(|&b| b == b'>' || b == b'<' || b == b'\n')
                .is_some_and(|end| rest[end] == b'>')
    })
}

fn check_optional(cx: &mut Cx<'_>, skill: &Skill) {
    let map = &skill.frontmatter.map;
    let empty = |cx: &mut Cx<'_>, key: &str| {
        cx.at(
            &rules::EMPTY_FIELD,
            value_pos(skill, key),
            format!("`{key}` is present but empty"),
        )
        .help(format!("remove `{key}` or give it a value"));
    };
    let wrong_type =
        |cx: &mut Cx<'_>, rule: &'static Rule, key: &str, value: &Value, want: &str| {
            cx.at(
                rule,
                value_pos(skill, key),
                format!("`{key}` must be {want}, not {}", type_name(value)),
            );
        };
    match map.get("compatibility") {
        None => {}
        Some(Value::Null) => empty(cx, "compatibility"),
        Some(Value::String(s)) if s.is_empty() => empty(cx, "compatibility"),
        Some(Value::String(s)) => {
            let count = s.chars().count();
            if count > MAX_COMPATIBILITY_CHARS {
                cx.at(&rules::COMPATIBILITY_TOO_LONG, value_pos(skill, "compatibility"), format!("`compatibility` has {count} characters; the limit is {MAX_COMPATIBILITY_CHARS}"));
            }
        }
        Some(value @ (Value::Number(_) | Value::Bool(_))) => {
            non_string(cx, skill, "compatibility", value);
        }
        Some(value) => wrong_type(
            cx,
            &rules::COMPATIBILITY_TYPE,
            "compatibility",
            value,
            "a string",
        ),
    }
    match map.get("license") {
        None | Some(Value::String(_)) => {}
        Some(Value::Null) => empty(cx, "license"),
        Some(value @ (Value::Number(_) | Value::Bool(_))) => {
            non_string(cx, skill, "license", value);
        }
        Some(value) => wrong_type(cx, &rules::LICENSE_TYPE, "license", value, "a string"),
    }
    match map.get("metadata") {
        None => {}
        Some(Value::Null) => empty(cx, "metadata"),
        Some(Value::Object(entries)) => {
            let odd: Vec<String> = entries
                .iter()
                // `internal: true` is the installers' convention for hidden skills, a boolean.
                .filter(|(k, v)| !(v.is_string() || (k.as_str() == "internal" && v.is_boolean())))
                .map(|(k, v)| format!("`{k}` is {}", type_name(v)))
                .collect();
            if !odd.is_empty() {
                cx.at(
                    &rules::METADATA_TYPE,
                    value_pos(skill, "metadata"),
                    format!("`metadata` values must be strings: {}", odd.join(", ")),
                )
                .help("quote numbers and booleans; flatten nested values into strings");
            }
        }
        Some(value) => wrong_type(
            cx,
            &rules::METADATA_TYPE,
            "metadata",
            value,
            "a mapping of strings to strings",
        ),
    }
    match map.get("allowed-tools") {
        None | Some(Value::String(_)) => {}
        Some(Value::Null) => empty(cx, "allowed-tools"),
        Some(Value::Array(items)) => {
            let joined: Vec<String> = items
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect();
            cx.at(
                &rules::ALLOWED_TOOLS_TYPE,
                value_pos(skill, "allowed-tools"),
                "`allowed-tools` must be a space-separated string, not a list".into(),
            )
            .help(format!("write `allowed-tools: {}`", joined.join(" ")));
        }
        Some(value) => wrong_type(
            cx,
            &rules::ALLOWED_TOOLS_TYPE,
            "allowed-tools",
            value,
            "a space-separated string",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_tags() {
        assert!(has_xml_tag("use <foo> here"));
        assert!(has_xml_tag("</end>"));
        assert!(!has_xml_tag("a < b and c > d"));
        assert!(!has_xml_tag("x <3"));
        assert!(!has_xml_tag("<"));
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest_name("Bad--Name_"), "bad-name");
        assert_eq!(suggest_name("my skill"), "my-skill");
        assert_eq!(show_char('\u{200b}'), "U+200B");
        assert_eq!(show_char('_'), "`_`");
    }
}
