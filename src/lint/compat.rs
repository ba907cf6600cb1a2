//! Portability across clients: keys only some clients read, YAML that strict loaders reject,
//! and limits of particular clients.

use super::Cx;
use super::rules;
use super::spec::SPEC_FIELDS;
use crate::skill::{Pos, Skill, StyleNote};

/// Keys that known clients read beyond the spec: Claude Code's, then SISU-style top-level ones.
pub const CLIENT_EXTENSIONS: &[(&str, &str)] = &[
    ("when_to_use", "Claude Code"),
    ("argument-hint", "Claude Code"),
    ("arguments", "Claude Code"),
    ("disable-model-invocation", "Claude Code"),
    ("user-invocable", "Claude Code"),
    ("disallowed-tools", "Claude Code"),
    ("model", "Claude Code"),
    ("effort", "Claude Code"),
    ("context", "Claude Code"),
    ("agent", "Claude Code"),
    ("hooks", "Claude Code"),
    ("paths", "Claude Code"),
    ("shell", "Claude Code"),
    ("version", "SISU-style skills"),
    ("author", "SISU-style skills"),
    ("tags", "SISU-style skills"),
];

/// Claude Code's cap on description + `when_to_use` in its skill listing.
pub const LISTING_CAP: usize = 1536;

pub fn check(cx: &mut Cx<'_>, skill: &Skill) {
    if skill.bom {
        cx.at(&rules::BOM, Some(Pos { line: 1, col: 1 }), "SKILL.md starts with a byte order mark".into())
            .help("save it as UTF-8 without BOM; `skills-ref` and other loaders find no frontmatter otherwise");
    }
    for key in skill.frontmatter.keys() {
        if SPEC_FIELDS.contains(&key.name.as_str()) {
            continue;
        }
        if let Some((_, client)) = CLIENT_EXTENSIONS.iter().find(|(k, _)| *k == key.name) {
            cx.at(
                &rules::CLIENT_EXTENSION,
                Some(key.pos),
                format!("`{}` is read by {client} only", key.name),
            );
            continue;
        }
        let finding = cx.at(
            &rules::UNKNOWN_FIELD,
            Some(key.pos),
            format!("unknown field `{}`", key.name),
        );
        match closest(&key.name) {
            Some(known) => finding.help(format!("did you mean `{known}`?")),
            None => finding.help("custom data belongs under `metadata:`"),
        }
    }
    for note in skill.frontmatter.notes() {
        match note {
            StyleNote::FlowCollection(pos) => {
                cx.at(&rules::FLOW_COLLECTION, Some(*pos), "flow collection (`[…]` or `{…}`) in frontmatter".into())
                    .help("strict YAML loaders such as skills-ref's reject it; use a block list or a plain string");
            }
            StyleNote::Anchor(pos) => {
                cx.at(
                    &rules::YAML_ANCHOR,
                    Some(*pos),
                    "YAML anchor in frontmatter".into(),
                )
                .help("write the value out; strict loaders reject anchors");
            }
            StyleNote::Alias(pos) => {
                cx.at(
                    &rules::YAML_ANCHOR,
                    Some(*pos),
                    "YAML alias in frontmatter".into(),
                )
                .help("write the value out; strict loaders reject aliases");
            }
            StyleNote::Tag(pos, tag) => {
                cx.at(
                    &rules::YAML_ANCHOR,
                    Some(*pos),
                    format!("YAML tag `{tag}` in frontmatter"),
                )
                .help("quote the value instead; strict loaders reject tags");
            }
        }
    }
    let listing = skill
        .frontmatter
        .text("description")
        .map_or(0, |d| d.chars().count())
        + skill
            .frontmatter
            .text("when_to_use")
            .map_or(0, |w| w.chars().count());
    if listing > LISTING_CAP {
        let pos = skill.frontmatter.key("description").map(|k| k.value_pos);
        cx.at(&rules::LISTING_TOO_LONG, pos, format!("description and when_to_use have {listing} characters; Claude Code shows {LISTING_CAP}"))
            .help("put what matters first; the rest is cut from the listing");
    }
}

/// The spec field or client extension closest to a misspelled key, if any is close.
fn closest(key: &str) -> Option<&'static str> {
    SPEC_FIELDS
        .iter()
        .copied()
        .chain(CLIENT_EXTENSIONS.iter().map(|(k, _)| *k))
        .map(|known| (strsim::levenshtein(key, known), known))
        .filter(|(distance, known)| *distance <= 2.max(known.len() / 4) && *distance > 0)
        .min()
        .map(|(_, known)| known)
}

#[cfg(test)]
mod tests {
    #[test]
    fn suggestions() {
        assert_eq!(super::closest("descripton"), Some("description"));
        assert_eq!(super::closest("allowed_tools"), Some("allowed-tools"));
        assert_eq!(super::closest("foo"), None);
    }
}
