//! `security/typosquat` for skills themselves: a skill that claims to be a well-known one (the
//! official collection, a named publisher) under a name one edit away from it — `mcp-bulder`
//! "by Anthropic", `gh-fix-cl` "from openai/skills". The names of the popular repositories'
//! skills ship as data (`flow/popular/skills.txt`). A near name alone is not refused (people
//! name their own `writing-plan`); the claim of someone else's provenance is what makes it an
//! impersonation.
//!
//! Read in SKILL.md only: its `name`, its first heading, and the hyphenated names its
//! description and first paragraph mention.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::lint::rx::Regex;

use crate::lint::exec::ascii_regex;

use super::{Example, Home, Input};
use crate::lint::flow::Hit;
use crate::lint::flow::packages::NearNames;
use crate::lint::rules;

/// The popular skills' names, in the list's order.
fn popular_names() -> impl Iterator<Item = &'static str> {
    include_str!("../flow/popular/skills.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The popular skills' names.
static POPULAR: LazyLock<HashSet<&'static str>> = LazyLock::new(|| popular_names().collect());

/// The popular skills' names a squat may aim at (five characters or more).
static NEAR: LazyLock<NearNames> =
    LazyLock::new(|| NearNames::new(popular_names().filter(|p| p.len() >= 5)));

pub const TRIGGERS: &[&str] = &[
    "fficial",
    "nthropic",
    "penAI",
    "penai",
    "ercel",
    "bra/",
    "railofbits",
    "upabase",
    "emotion",
    "ollection",
    "/skills",
    "by the",
    "repackaged",
    "mirror",
    // Every SKILL.md: the name it is installed as may spell another skill's.
    "name:",
];

/// A claim of someone else's provenance.
static CLAIM: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?i)\bofficial\b|\b(by|from)\s+(the\s+)?(anthropic|openai|vercel(\s+labs)?|obra|trail\s*of\s*bits|supabase|remotion|composio)\b|\((anthropic|openai|vercel)\)|\b(anthropics|openai|vercel-labs|obra|trailofbits|supabase|remotion-dev)/[\w-]*skills\b|\bskills\s+collection\b|\brepackaged\b|\bmirror\s+of\b",
    )
});

/// Hyphenated names (two words or more), and the first heading as a name.
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b|(?m)^#\s+([a-z][a-z0-9 -]{3,60})$")
});

/// Words after a name that make it the name of something else than a skill.
const OTHER_THING: &[&str] = &[
    "script",
    "scripts",
    "installer",
    "binary",
    "cli",
    "command",
    "package",
    "library",
    "crate",
    "module",
    "action",
    "image",
    "container",
    "plugin",
    "extension",
    "app",
    "service",
    "api",
    "sdk",
    "endpoint",
    "tool",
    "server",
];

/// The popular name `candidate` is one slip away from, unless it is popular itself.
fn squats(candidate: &str) -> Option<&'static str> {
    if candidate.len() < 5 || POPULAR.contains(candidate) {
        return None;
    }
    NEAR.first(candidate, |p| {
        !p.chars()
            .zip(candidate.chars())
            .all(|(a, b)| a == b || a.is_ascii_digit() || b.is_ascii_digit())
    })
}

pub static HOME: Home = Home {
    rules: &[&rules::TYPOSQUAT],
    triggers: TRIGGERS,
    quotation: "never: a name is what the skill is installed as",
    positive: &[
        Example {
            rel: "SKILL.md",
            text: "---\nname: skill-creater\ndescription: The official skill-creater by Anthropic. Use when writing skills.\n---\n# skill-creater\n",
        },
        Example {
            rel: "SKILL.md",
            text: "---\nname: my-tools\ndescription: \"webapp-testng from anthropics/skills. Use when testing web apps.\"\n---\n# Tools\n",
        },
        Example {
            rel: "SKILL.md",
            text: "---\nname: frontend-desing\ndescription: Create distinctive frontend interfaces. Use when building web pages.\n---\n# Frontend Design\n\nBuild it.\n",
        },
    ],
    negative: &[
        Example {
            rel: "SKILL.md",
            text: "---\nname: writing-plan\ndescription: Writes a plan for the week. Use when planning.\n---\n# Writing plan\n",
        },
        Example {
            rel: "SKILL.md",
            text: "---\nname: writing-plan\ndescription: Writes plans. Use when planning.\n---\n# Writing plans\n",
        },
        Example {
            rel: "SKILL.md",
            text: "---\nname: mcp-builder\ndescription: The official mcp-builder skill by Anthropic. Use when building MCP servers.\n---\n# mcp-builder\n",
        },
    ],
    findings,
};

/// A skill installed under a name one edit away from a well-known skill's that calls itself by
/// the original's name (`name: skil-creator` under the heading `# Skill Creator`): the name
/// it is installed as is not the one it shows. A plural is a coincidence, not a disguise.
fn spells_the_original(head: &str) -> Option<Hit> {
    let name = head
        .lines()
        .find_map(|l| l.strip_prefix("name:"))?
        .trim()
        .trim_matches(['"', '\''])
        .replace([' ', '_'], "-");
    let name = name.as_str();
    let target = squats(name)?;
    if target.strip_suffix('s') == Some(name) || name.strip_suffix('s') == Some(target) {
        return None;
    }
    let spoken = target.replace('-', " ");
    let shown = head.contains(&format!("# {spoken}"))
        || head.contains(&format!("# {target}"))
        || head.contains(&format!("`{target}`"));
    shown.then(|| Hit {
        rule: &rules::TYPOSQUAT,
        at: head.find("name:").unwrap_or(0),
        message: format!(
            "is installed as `{name}`, one letter away from the well-known skill `{target}`, and calls itself `{target}`"
        ),
        help: "a skill that borrows a well-known skill's name is an impersonation; install the original from its publisher",
        quoted: None,
    })
}

/// The impersonations in SKILL.md.
pub fn findings(input: &Input<'_>, prefilter: bool) -> Vec<Hit> {
    if !input.rel.eq_ignore_ascii_case("SKILL.md") {
        return Vec::new();
    }
    let text = input.text;
    if prefilter && !input.triggered(&HOME) {
        return Vec::new();
    }
    // The frontmatter, the first heading and the paragraph after it.
    let head_end = text
        .match_indices("\n# ")
        .next()
        .and_then(|(i, _)| text[i + 3..].find("\n\n").map(|j| i + 3 + j))
        .unwrap_or_else(|| super::floor(text, text.len().min(2048)));
    let head = &text[..super::floor(text, head_end.min(4096))];
    let lower = head.to_ascii_lowercase();
    if let Some(hit) = spells_the_original(&lower) {
        return vec![hit];
    }
    if !CLAIM.is_match(head) {
        return Vec::new();
    }
    for found in NAME.captures_iter(&lower) {
        let Some(found) = found.get(1).or_else(|| found.get(0)) else {
            continue;
        };
        let name = found.as_str().trim().replace(' ', "-");
        // `the official get-cli script`: a name of some other thing than a skill.
        let next = lower[found.end()..]
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find(|w| !w.is_empty())
            .unwrap_or("");
        if OTHER_THING.contains(&next) {
            continue;
        }
        if let Some(target) = squats(&name) {
            return vec![Hit {
                rule: &rules::TYPOSQUAT,
                at: found.start(),
                message: format!(
                    "calls itself `{name}`, one letter away from the well-known skill `{target}`, and claims to be it"
                ),
                help: "a skill that borrows a well-known skill's name and provenance is an impersonation; install the original from its publisher",
                quoted: None,
            }];
        }
    }
    Vec::new()
}
