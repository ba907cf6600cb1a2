//! The rule catalog: every lint rule with its stable code, family, default severity and summary.
//!
//! Codes are `family/slug` and never change meaning once released; a retired rule keeps its code
//! reserved. The long documentation of each rule (`skills lint --explain CODE`) lives in
//! `docs/<family>.md` under a `## CODE` heading; a test keeps both in step.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Spec,
    Compat,
    Quality,
    Size,
    Security,
    Package,
}

impl Family {
    pub const ALL: [Family; 6] = [
        Family::Spec,
        Family::Compat,
        Family::Quality,
        Family::Size,
        Family::Security,
        Family::Package,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Spec => "spec",
            Family::Compat => "compat",
            Family::Quality => "quality",
            Family::Size => "size",
            Family::Security => "security",
            Family::Package => "package",
        }
    }

    /// The documentation of every rule of this family.
    pub fn docs(self) -> &'static str {
        match self {
            Family::Spec => include_str!("docs/spec.md"),
            Family::Compat => include_str!("docs/compat.md"),
            Family::Quality => include_str!("docs/quality.md"),
            Family::Size => include_str!("docs/size.md"),
            Family::Security => include_str!("docs/security.md"),
            Family::Package => include_str!("docs/package.md"),
        }
    }
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub code: &'static str,
    pub family: Family,
    pub severity: Severity,
    pub summary: &'static str,
}

impl Rule {
    /// The `## CODE` section of the family docs, without its heading.
    pub fn explain(&self) -> &'static str {
        let docs = self.family.docs();
        let heading = format!("## {}\n", self.code);
        let Some(start) = docs.find(&heading).map(|i| i + heading.len()) else {
            return "";
        };
        let end = docs[start..]
            .find("\n## ")
            .map_or(docs.len(), |i| start + i + 1);
        docs[start..end].trim()
    }
}

impl Serialize for &'static Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code)
    }
}

macro_rules! catalog {
    ($($ident:ident: $family:ident, $code:literal, $severity:ident, $summary:literal;)*) => {
        $(
            pub static $ident: Rule = Rule {
                code: $code,
                family: Family::$family,
                severity: Severity::$severity,
                summary: $summary,
            };
        )*
        /// Every rule, in documentation order.
        pub static ALL: &[&Rule] = &[$(&$ident),*];
    };
}

catalog! {
    // The open spec (agentskills.io).
    UNREADABLE: Spec, "spec/unreadable", Error, "a file of the skill cannot be read";
    NOT_UTF8: Spec, "spec/not-utf8", Error, "SKILL.md is not valid UTF-8";
    MISSING_SKILL_MD: Spec, "spec/missing-skill-md", Error, "the folder has no file named exactly SKILL.md";
    LOWERCASE_FILE_NAME: Spec, "spec/lowercase-file-name", Warning, "the file is named skill.md instead of SKILL.md";
    FRONTMATTER_MISSING: Spec, "spec/frontmatter-missing", Error, "SKILL.md does not start with `---` frontmatter";
    FRONTMATTER_UNCLOSED: Spec, "spec/frontmatter-unclosed", Error, "the frontmatter has no closing `---` line";
    YAML_INVALID: Spec, "spec/yaml-invalid", Error, "the frontmatter is not valid YAML";
    FRONTMATTER_NOT_MAPPING: Spec, "spec/frontmatter-not-mapping", Error, "the frontmatter is not a mapping of keys to values";
    NAME_MISSING: Spec, "spec/name-missing", Error, "the required field `name` is missing";
    NAME_TYPE: Spec, "spec/name-type", Error, "`name` is empty or not a string";
    NAME_TOO_LONG: Spec, "spec/name-too-long", Error, "`name` is longer than 64 characters";
    NAME_UPPERCASE: Spec, "spec/name-uppercase", Error, "`name` has uppercase letters";
    NAME_HYPHENS: Spec, "spec/name-hyphens", Error, "`name` starts or ends with `-` or has `--`";
    NAME_CHARSET: Spec, "spec/name-charset", Error, "`name` has characters other than letters, digits and `-`";
    NAME_DIR_MISMATCH: Spec, "spec/name-dir-mismatch", Error, "`name` differs from the folder name";
    DESCRIPTION_MISSING: Spec, "spec/description-missing", Error, "the required field `description` is missing";
    DESCRIPTION_TYPE: Spec, "spec/description-type", Error, "`description` is empty or not a string";
    DESCRIPTION_TOO_LONG: Spec, "spec/description-too-long", Error, "`description` is longer than 1024 characters";
    COMPATIBILITY_TYPE: Spec, "spec/compatibility-type", Error, "`compatibility` is not a string";
    COMPATIBILITY_TOO_LONG: Spec, "spec/compatibility-too-long", Error, "`compatibility` is longer than 500 characters";
    LICENSE_TYPE: Spec, "spec/license-type", Warning, "`license` is not a string";
    METADATA_TYPE: Spec, "spec/metadata-type", Warning, "`metadata` is not a map of strings to strings";
    ALLOWED_TOOLS_TYPE: Spec, "spec/allowed-tools-type", Warning, "`allowed-tools` is not a space-separated string";

    // Portability across clients.
    UNKNOWN_FIELD: Compat, "compat/unknown-field", Warning, "a frontmatter key that no known client reads";
    CLIENT_EXTENSION: Compat, "compat/client-extension", Info, "a frontmatter key only some clients read";
    NON_STRING_SCALAR: Compat, "compat/non-string-scalar", Warning, "a text field that YAML reads as a number or boolean";
    EMPTY_FIELD: Compat, "compat/empty-field", Warning, "an optional field that is present but empty";
    FLOW_COLLECTION: Compat, "compat/flow-collection", Warning, "a `[…]` or `{…}` flow collection that strict loaders reject";
    YAML_ANCHOR: Compat, "compat/yaml-anchor", Warning, "an anchor, alias or tag that strict loaders reject";
    BOM: Compat, "compat/bom", Warning, "SKILL.md starts with a byte order mark";
    NAME_NOT_ASCII: Compat, "compat/name-not-ascii", Warning, "`name` is valid for the spec but not `[a-z0-9-]`";
    NAME_WHITESPACE: Compat, "compat/name-whitespace", Warning, "`name` has leading or trailing whitespace";
    LISTING_TOO_LONG: Compat, "compat/listing-too-long", Warning, "description and when_to_use pass Claude Code's 1,536-character listing cap";
    RESERVED_WORD: Compat, "compat/reserved-word", Warning, "`name` contains `anthropic` or `claude`";
    XML_TAG: Compat, "compat/xml-tag", Warning, "`name` or `description` contains an XML tag";
    DUPLICATE_NAME: Compat, "compat/duplicate-name", Warning, "another skill in the same run has this name";
    BOTH_FILE_NAMES: Compat, "compat/both-file-names", Warning, "the folder has both SKILL.md and skill.md";

    // Quality of the instructions.
    BODY_TOO_LONG: Quality, "quality/body-too-long", Warning, "the body is longer than 500 lines";
    BODY_TOO_MANY_TOKENS: Quality, "quality/body-too-many-tokens", Warning, "the body is longer than about 5,000 tokens";
    EMPTY_BODY: Quality, "quality/empty-body", Warning, "SKILL.md has no instructions after the frontmatter";
    DESCRIPTION_NO_TRIGGER: Quality, "quality/description-no-trigger", Warning, "the description never says when to use the skill";
    BROKEN_LINK: Quality, "quality/broken-link", Warning, "a relative link points to a file that does not exist";
    LINK_ESCAPES: Quality, "quality/link-escapes", Warning, "a relative link points outside the skill folder";
    NESTED_REFERENCE: Quality, "quality/nested-reference", Info, "a referenced file links on to further files";

    // Size limits.
    FILE_TOO_LARGE: Size, "size/file-too-large", Error, "a file is larger than --max-file-size";
    SKILL_TOO_LARGE: Size, "size/skill-too-large", Error, "the skill folder is larger than --max-skill-size";
    TOO_MANY_FILES: Size, "size/too-many-files", Error, "the skill folder has more files than --max-files";

    // Security.
    SECRET_FILE: Security, "security/secret-file", Error, "a file whose name says it holds a secret";
    SECRET_CONTENT: Security, "security/secret-content", Error, "content shaped like a private key or an access token";
    SYMLINK_ESCAPE: Security, "security/symlink-escape", Error, "a symlink that leaves the skill folder";
    GIT_METADATA: Security, "security/git-metadata", Error, "a `.git` file, or a name git reads as `.git`, inside the skill";
    SPECIAL_FILE: Security, "security/special-file", Error, "a socket, FIFO or device file";
    HIDDEN_UNICODE: Security, "security/hidden-unicode", Warning, "invisible Unicode: tag characters, zero-width or bidi controls";
    HIDDEN_INSTRUCTIONS: Security, "security/hidden-instructions", Error, "instructions reviewers cannot see: HTML comments addressed to the model, text in invisible characters";
    MODEL_COMMENT: Security, "security/model-comment", Error, "an HTML comment that speaks to the model without a command, address or secret in it";
    PROMPT_INJECTION: Security, "security/prompt-injection", Error, "text that overrides the model's other instructions or hides what it does from the user";
    REMOTE_EXEC: Security, "security/remote-exec", Error, "a download piped into an interpreter";
    REMOTE_EXEC_DOC: Security, "security/remote-exec-doc", Info, "Markdown that shows a download from an HTTPS host piped into a shell";
    ENCODED_EXEC: Security, "security/encoded-exec", Error, "an encoded payload (base64, hex, compressed) decoded and run";
    CREDENTIAL_ACCESS: Security, "security/credential-access", Error, "code that reads SSH keys, cloud credentials, browser profiles, wallets or the whole environment";
    EXFILTRATION: Security, "security/exfiltration", Error, "a secret, the environment or a credential store flows to the network or a world-readable file";
    REVERSE_SHELL: Security, "security/reverse-shell", Error, "a shell handed to a remote host (nc -e, /dev/tcp, socat exec:, socket + dup2)";
    MINER: Security, "security/miner", Error, "a cryptocurrency miner (xmrig, stratum+tcp://, mining pools)";
    PRIVILEGE_ESCALATION: Security, "security/privilege-escalation", Error, "setuid bits, sudoers writes, capabilities, the Administrators group, UAC: the skill grants itself root";
    PERSISTENCE: Security, "security/persistence", Error, "cron jobs, shell start-up files, login items, systemd/launchd units or git hooks";
    TAMPERING: Security, "security/tampering", Error, "deleting home or system folders, editing other skills or the agent's settings";
    DROPPER: Security, "security/dropper", Error, "a program fetched from a paste site, a password-protected archive or a host that is no registry, or quarantine removed";
    COVERT_INSTRUCTION: Security, "security/covert-instruction", Error, "instructions that demand a hidden or unskippable action sending data";
    CONCEALMENT: Security, "security/concealment", Error, "instructions that keep a step from the user: left unmentioned, done in silence, or denied when asked";
    AGENT_MEMORY: Security, "security/agent-memory", Error, "standing instructions written into an agent's memory or policy files (CLAUDE.md, AGENTS.md, .cursorrules, settings) that widen its permissions, run code or send data";
    DESTRUCTION: Security, "security/destruction", Error, "deleting, overwriting or encrypting data outside the skill's folder and the project's build outputs";
    DATA_THEFT: Security, "security/data-theft", Error, "the repository, shell history, screenshots, clipboard, transcripts or system details sent to a host";
    TYPOSQUAT: Security, "security/typosquat", Error, "a package one edit away from a popular one and not popular itself";
    DEPENDENCY_CONFUSION: Security, "security/dependency-confusion", Error, "a package index or registry on a host that is not a public registry";
    EXECUTABLE_OUTSIDE_SCRIPTS: Security, "security/executable-outside-scripts", Info, "an executable file outside scripts/";

    // Skill packages (tools.json, resources.json).
    PACKAGE_JSON: Package, "package/invalid-json", Error, "tools.json or resources.json is not valid JSON of the expected shape";
    TOOL_FIELDS: Package, "package/tool-fields", Error, "a tool lacks `name`, `description` or `inputSchema`";
    TOOL_DUPLICATE: Package, "package/tool-duplicate", Error, "two tools have the same name";
    TOOL_SCHEMA: Package, "package/tool-schema", Error, "a tool's `inputSchema` is not an object schema";
    RESOURCE_FIELDS: Package, "package/resource-fields", Error, "a resource lacks `uri` or `name`, or has an invalid one";
}

/// A rule code no rule has (`--allow`, `--explain`, `lint --allow`), with the codes near it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown lint rule `{code}`")]
pub struct UnknownRule {
    pub code: String,
    pub near: Vec<&'static str>,
}

impl UnknownRule {
    pub fn new(code: &str) -> UnknownRule {
        let code = code.trim();
        let slug = code.rsplit('/').next().unwrap_or(code);
        UnknownRule {
            code: code.to_owned(),
            near: ALL
                .iter()
                .filter(|r| {
                    strsim::levenshtein(r.code.rsplit('/').next().unwrap_or(r.code), slug) <= 3
                })
                .map(|r| r.code)
                .collect(),
        }
    }
}

impl crate::hint::Hint for UnknownRule {
    fn hint(&self) -> Option<String> {
        Some(if self.near.is_empty() {
            "`skills lint --list-rules` lists every rule".to_owned()
        } else {
            format!("did you mean `{}`?", self.near.join("` or `"))
        })
    }
}

/// Looks up a rule by code, or an [`UnknownRule`] error.
pub fn find_or_err(code: &str) -> Result<&'static Rule, UnknownRule> {
    find(code).ok_or_else(|| UnknownRule::new(code))
}

/// Finds a rule by code (`spec/name-charset`) or by its slug alone (`name-charset`).
pub fn find(code: &str) -> Option<&'static Rule> {
    let code = code.trim();
    ALL.iter().copied().find(|rule| {
        rule.code.eq_ignore_ascii_case(code)
            || rule
                .code
                .split_once('/')
                .is_some_and(|(_, slug)| slug.eq_ignore_ascii_case(code))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_documented() {
        let mut codes: Vec<_> = ALL.iter().map(|r| r.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ALL.len());
        for rule in ALL {
            assert!(rule.code.starts_with(rule.family.as_str()), "{}", rule.code);
            assert!(
                !rule.explain().is_empty(),
                "`{}` has no section in docs",
                rule.code
            );
        }
        for family in Family::ALL {
            for heading in family.docs().lines().filter_map(|l| l.strip_prefix("## ")) {
                assert!(
                    find(heading).is_some(),
                    "docs section `{heading}` has no rule"
                );
            }
        }
    }

    #[test]
    fn find_by_slug() {
        assert_eq!(find("name-charset"), Some(&NAME_CHARSET));
        assert_eq!(find("SPEC/NAME-CHARSET"), Some(&NAME_CHARSET));
        assert_eq!(find("nope"), None);
    }
}
