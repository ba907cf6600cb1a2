//! Which served skills `skills/list` and `skills/get` may show: the rules the Skills extension
//! (SEP-2640) gives an entry, as the official SDK's `SkillsClient` checks them.
//!
//! That client refuses a whole `skills/list` page when one entry breaks a rule, so one skill with
//! an overlong description would hide every skill from it. An entry that breaks one is therefore
//! not listed (its files are still served as resources), and the reason is logged once, with the
//! lint code that reports the same problem. The rules: `name` a string of 1–64 lowercase ASCII
//! letters, digits and single hyphens, equal to the last segment of the skill's URI;
//! `description` a string of 1–1,024 characters; `compatibility`, when present, a string of
//! 1–500 characters; `metadata`, when present, a mapping of strings to strings; no `__proto__`
//! key (JavaScript clients cannot read one). Characters are Unicode scalar values, as the spec
//! counts them. Resource URIs are unique, inside the skill and include `SKILL.md` by
//! construction (see [`super::snapshot`]).

use serde_json::{Map, Value};

use crate::lint::spec::{
    MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, type_name,
};

/// One rule an entry breaks: the lint code that reports it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

fn problem(code: &'static str, message: impl Into<String>) -> Problem {
    Problem {
        code,
        message: message.into(),
    }
}

/// What keeps the entry of the skill served at `skill://<segment>/SKILL.md` with `frontmatter`
/// out of `skills/list`; empty when nothing does.
pub fn problems(segment: &str, frontmatter: &Map<String, Value>) -> Vec<Problem> {
    let mut found = Vec::new();
    match frontmatter.get("name") {
        None => found.push(problem("spec/name-missing", "`name` is missing")),
        Some(Value::String(name)) => {
            if let Some(problem) = name_problem(name) {
                found.push(problem);
            } else if name != segment {
                found.push(problem(
                    "spec/name-charset",
                    format!("`name` `{name}` is not the URI segment `{segment}`"),
                ));
            }
        }
        Some(other) => found.push(problem(
            "spec/name-type",
            format!("`name` is {}, not a string", type_name(other)),
        )),
    }
    match frontmatter.get("description") {
        None => found.push(problem(
            "spec/description-missing",
            "`description` is missing",
        )),
        Some(Value::String(text)) if text.is_empty() => found.push(problem(
            "spec/description-missing",
            "`description` is empty",
        )),
        Some(Value::String(text)) => {
            let count = text.chars().count();
            if count > MAX_DESCRIPTION_CHARS {
                found.push(problem(
                    "spec/description-too-long",
                    format!("`description` has {count} characters, over {MAX_DESCRIPTION_CHARS}"),
                ));
            }
        }
        Some(other) => found.push(problem(
            "spec/description-type",
            format!("`description` is {}, not a string", type_name(other)),
        )),
    }
    match frontmatter.get("compatibility") {
        None => {}
        Some(Value::String(text)) if text.is_empty() => {
            found.push(problem("compat/empty-field", "`compatibility` is empty"));
        }
        Some(Value::String(text)) => {
            let count = text.chars().count();
            if count > MAX_COMPATIBILITY_CHARS {
                found.push(problem(
                    "spec/compatibility-too-long",
                    format!(
                        "`compatibility` has {count} characters, over {MAX_COMPATIBILITY_CHARS}"
                    ),
                ));
            }
        }
        Some(other) => found.push(problem(
            "spec/compatibility-type",
            format!("`compatibility` is {}, not a string", type_name(other)),
        )),
    }
    match frontmatter.get("metadata") {
        None => {}
        Some(Value::Object(entries)) => {
            let odd: Vec<String> = entries
                .iter()
                .filter(|(_, value)| !value.is_string())
                .map(|(key, value)| format!("`{key}` is {}", type_name(value)))
                .collect();
            if !odd.is_empty() {
                found.push(problem(
                    "spec/metadata-type",
                    format!("`metadata` values must be strings: {}", odd.join(", ")),
                ));
            }
        }
        Some(other) => found.push(problem(
            "spec/metadata-type",
            format!("`metadata` is {}, not a mapping", type_name(other)),
        )),
    }
    if frontmatter.contains_key("__proto__") {
        found.push(problem(
            "compat/unknown-field",
            "a `__proto__` key, which JavaScript clients cannot read",
        ));
    }
    found
}

fn name_problem(name: &str) -> Option<Problem> {
    if name.is_empty() {
        return Some(problem("spec/name-missing", "`name` is empty"));
    }
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Some(problem(
            "spec/name-too-long",
            format!("`name` has {count} characters, over {MAX_NAME_CHARS}"),
        ));
    }
    if crate::skill::name::is_portable(name) {
        return None;
    }
    if name.chars().any(char::is_uppercase) {
        return Some(problem(
            "spec/name-uppercase",
            format!("`name` `{name}` is not lowercase"),
        ));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Some(problem(
            "spec/name-hyphens",
            format!("`name` `{name}` has a leading, trailing or double `-`"),
        ));
    }
    Some(problem(
        "spec/name-charset",
        format!("`name` `{name}` is not made of `a-z`, `0-9` and `-` only"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(segment: &str, frontmatter: Value) -> Vec<&'static str> {
        let Value::Object(map) = frontmatter else {
            panic!("a mapping")
        };
        problems(segment, &map).iter().map(|p| p.code).collect()
    }

    #[test]
    fn the_sdk_rules() {
        let ok = json!({"name": "pdf-2", "description": "d", "compatibility": "c", "metadata": {"a": "b"}});
        assert!(codes("pdf-2", ok).is_empty());
        let long = "x".repeat(1025);
        assert_eq!(
            codes("pdf", json!({"name": "pdf", "description": long})),
            ["spec/description-too-long"]
        );
        // Characters, not bytes: 1,024 two-byte characters are allowed.
        let wide = "é".repeat(1024);
        assert!(codes("pdf", json!({"name": "pdf", "description": wide})).is_empty());
        assert_eq!(
            codes(
                "pdf",
                json!({"name": "pdf", "description": "d", "metadata": {"internal": true}})
            ),
            ["spec/metadata-type"]
        );
        assert_eq!(
            codes(
                "pdf",
                json!({"name": "pdf", "description": "d", "metadata": "x"})
            ),
            ["spec/metadata-type"]
        );
        assert_eq!(
            codes(
                "pdf",
                json!({"name": "pdf", "description": "d", "compatibility": ""})
            ),
            ["compat/empty-field"]
        );
        assert_eq!(
            codes(
                "pdf",
                json!({"name": "pdf", "description": "d", "compatibility": 3})
            ),
            ["spec/compatibility-type"]
        );
        assert_eq!(
            codes("x", json!({"name": "PDF", "description": ""})),
            ["spec/name-uppercase", "spec/description-missing"]
        );
        assert_eq!(
            codes("1", json!({"name": 1, "description": "d"})),
            ["spec/name-type"]
        );
        assert_eq!(
            codes("a", json!({"name": "a--b", "description": "d"})),
            ["spec/name-hyphens"]
        );
        assert_eq!(
            codes("é", json!({"name": "é", "description": "d"})),
            ["spec/name-charset"]
        );
        assert_eq!(
            codes("a", json!({"name": "b", "description": "d"})),
            ["spec/name-charset"]
        );
        assert_eq!(
            codes(
                "a",
                json!({"name": "a", "description": "d", "__proto__": {}})
            ),
            ["compat/unknown-field"]
        );
        assert_eq!(
            codes("a", json!({"description": "d"})),
            ["spec/name-missing"]
        );
        assert!(
            crate::skill::name::is_portable(&"a".repeat(64))
                && !crate::skill::name::is_portable(&"a".repeat(65))
        );
    }
}
