//! The compatibility baseline: the 75 cases of `skills-ref` 0.1.0 with its verdicts.
//!
//! For every case the reference rejects for a reason the spec states, `skills lint` reports an
//! error; for every case it accepts, no error. The deliberate differences (where the reference
//! contradicts the spec) are warnings, listed here with the rule that documents them.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{TestContext, repo, run};

/// (case, reference exit code, our error codes, our warning codes outside `quality/`).
const TABLE: &[(&str, i32, &[&str], &[&str])] = &[
    ("01-valid-minimal", 0, &[], &[]),
    ("02-valid-all-fields", 0, &[], &[]),
    ("03-name-underscore", 1, &["spec/name-charset"], &[]),
    ("04-name-uppercase", 1, &["spec/name-uppercase"], &[]),
    ("05-name-leading-hyphen", 1, &["spec/name-hyphens"], &[]),
    ("06-name-trailing-hyphen", 1, &["spec/name-hyphens"], &[]),
    (
        "07-name-consecutive-hyphens",
        1,
        &["spec/name-hyphens"],
        &[],
    ),
    ("08-name-65-chars", 1, &["spec/name-too-long"], &[]),
    ("09-name-64-chars", 0, &[], &[]),
    ("10-desc-1024", 0, &[], &[]),
    ("11-desc-1025", 1, &["spec/description-too-long"], &[]),
    ("12-desc-empty-quoted", 1, &["spec/description-type"], &[]),
    ("13-desc-empty-bare", 1, &["spec/description-type"], &[]),
    ("14-desc-missing", 1, &["spec/description-missing"], &[]),
    ("15-name-missing", 1, &["spec/name-missing"], &[]),
    ("16-no-frontmatter", 1, &["spec/frontmatter-missing"], &[]),
    (
        "17-unclosed-frontmatter",
        1,
        &["spec/frontmatter-unclosed"],
        &[],
    ),
    ("18-name-dir-mismatch", 1, &["spec/name-dir-mismatch"], &[]),
    // Difference: the spec allows other keys; `version` and `author` are SISU-style extensions
    // (an info of compat/client-extension).
    ("19-unknown-field-version", 1, &[], &[]),
    ("20-crlf", 0, &[], &[]),
    // Difference: a BOM is accepted (compat/bom).
    ("21-bom", 1, &[], &["compat/bom"]),
    ("22-name-int", 0, &[], &["compat/non-string-scalar"]),
    ("23-desc-list", 1, &["spec/description-type"], &[]),
    (
        "24-desc-flow-list",
        1,
        &["spec/description-type"],
        &["compat/flow-collection"],
    ),
    // Difference: flow sequences are valid YAML (compat/flow-collection).
    (
        "25-allowed-tools-flow-list",
        1,
        &[],
        &["compat/flow-collection", "spec/allowed-tools-type"],
    ),
    (
        "26-allowed-tools-block-list",
        0,
        &[],
        &["spec/allowed-tools-type"],
    ),
    ("27-metadata-string", 0, &[], &["spec/metadata-type"]),
    ("28-metadata-nested", 0, &[], &["spec/metadata-type"]),
    ("29-compat-list", 1, &["spec/compatibility-type"], &[]),
    // Difference: the spec gives 1-500 characters; the reference accepts "" (compat/empty-field).
    ("30-compat-empty", 0, &[], &["compat/empty-field"]),
    ("31-compat-501", 1, &["spec/compatibility-too-long"], &[]),
    ("32-license-list", 0, &[], &["spec/license-type"]),
    ("33-unquoted-colon", 1, &["spec/yaml-invalid"], &[]),
    ("34-duplicate-keys", 1, &["spec/yaml-invalid"], &[]),
    (
        "35-lowercase-filename",
        0,
        &[],
        &["spec/lowercase-file-name"],
    ),
    ("36-mixedcase-filename", 1, &["spec/missing-skill-md"], &[]),
    ("37-unicode-chinese", 0, &[], &["compat/name-not-ascii"]),
    ("38-nfkc-fullwidth", 0, &[], &["compat/name-not-ascii"]),
    ("39-nfkc-decomposed", 0, &[], &["compat/name-not-ascii"]),
    ("40-digits-only", 0, &[], &[]),
    (
        "41-empty-frontmatter",
        1,
        &["spec/frontmatter-not-mapping"],
        &[],
    ),
    // Difference: delimiters are whole lines, so `before---after` stays one value.
    ("42-dashes-in-desc", 0, &[], &[]),
    (
        "43-leading-blank-line",
        1,
        &["spec/frontmatter-missing"],
        &[],
    ),
    ("44-quoted-name-spaces", 0, &[], &["compat/name-whitespace"]),
    ("45-name-with-space", 1, &["spec/name-charset"], &[]),
    ("46-special-chars-desc", 0, &[], &["compat/xml-tag"]),
    ("47-multiline-desc-folded", 0, &[], &[]),
    ("48-multiline-desc-literal", 0, &[], &[]),
    ("49-invalid-utf8", 1, &["spec/not-utf8"], &[]),
    // Difference: anchors and aliases are valid YAML (compat/yaml-anchor).
    ("50-tag-anchor", 1, &[], &["compat/yaml-anchor"]),
    ("51-yaml-bool-null", 0, &[], &["compat/empty-field"]),
    (
        "52-frontmatter-list",
        1,
        &["spec/frontmatter-not-mapping"],
        &[],
    ),
    (
        "53-opening-four-dashes",
        1,
        &["spec/frontmatter-missing"],
        &[],
    ),
    ("54-opening-trailing-space", 0, &[], &[]),
    ("55-closing-dots", 1, &["spec/frontmatter-unclosed"], &[]),
    ("56-tab-indent", 1, &["spec/yaml-invalid"], &[]),
    ("57-comment", 0, &[], &[]),
    ("58-whitespace-desc", 1, &["spec/description-type"], &[]),
    (
        "59-desc-1024-plus-ws",
        1,
        &["spec/description-too-long"],
        &[],
    ),
    (
        "60-multi-errors",
        1,
        &[
            "spec/compatibility-too-long",
            "spec/description-type",
            "spec/name-charset",
            "spec/name-dir-mismatch",
            "spec/name-hyphens",
            "spec/name-uppercase",
        ],
        &["compat/unknown-field"],
    ),
    ("61-metadata-int-values", 0, &[], &["spec/metadata-type"]),
    ("62-name-emoji", 1, &["spec/name-charset"], &[]),
    ("63-name-dot", 1, &["spec/name-charset"], &[]),
    ("64-desc-1024-multibyte", 0, &[], &[]),
    ("65-body-empty", 0, &[], &[]),
    ("66-both-files", 0, &[], &["compat/both-file-names"]),
    ("67-name-german-sharp-s", 0, &[], &["compat/name-not-ascii"]),
    ("68-name-titlecase-digit", 0, &[], &[]),
    // Difference: Claude Code's keys are client extensions (compat/client-extension, info).
    ("69-disable-model-invocation", 1, &[], &[]),
    (
        "70-zero-width-in-name",
        1,
        &["spec/name-charset", "spec/name-dir-mismatch"],
        &["security/hidden-unicode"],
    ),
    (
        "71-hidden-unicode-desc",
        0,
        &[],
        &["security/hidden-unicode"],
    ),
    // Difference: a BOM is accepted (compat/bom).
    ("72-crlf-with-colon-bom", 1, &[], &["compat/bom"]),
    ("73-cr-only", 0, &[], &[]),
    (
        "74-nbsp-in-name",
        1,
        &["spec/name-charset", "spec/name-dir-mismatch"],
        &[],
    ),
    ("75-superscript-name", 0, &[], &["compat/name-not-ascii"]),
];

/// Cases the reference rejects where `skills` follows the spec instead, and the rule whose
/// `--explain` documents the difference.
const DIFFERENCES: &[(&str, &str)] = &[
    ("19-unknown-field-version", "compat/unknown-field"),
    ("21-bom", "compat/bom"),
    ("25-allowed-tools-flow-list", "compat/flow-collection"),
    ("50-tag-anchor", "compat/yaml-anchor"),
    ("69-disable-model-invocation", "compat/unknown-field"),
    ("72-crlf-with-colon-bom", "compat/bom"),
];

#[test]
fn skills_ref_cases() {
    let context = TestContext::new();
    let fixtures = repo().join("tests/fixtures/skills-ref");
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("expected.json")).unwrap())
            .unwrap();
    let cases = expected["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 75);
    assert_eq!(TABLE.len(), cases.len());
    let mut failures = Vec::new();
    for (case, (name, reference_rc, errors, warnings)) in cases.iter().zip(TABLE) {
        assert_eq!(case["case"], *name, "table order");
        assert_eq!(
            case["validate"]["rc"], *reference_rc,
            "{name}: reference verdict"
        );
        let dir = fixtures
            .join("cases")
            .join(name)
            .join(case["dir"].as_str().unwrap());
        let output = run(context.command().arg("lint").arg("--format=json").arg(&dir));
        let report: Value = serde_json::from_str(&output.stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{output:?}", output = output.stderr));
        let codes = |severity: &str| -> BTreeSet<String> {
            report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] == severity)
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .filter(|code| severity == "error" || !code.starts_with("quality/"))
                .collect()
        };
        let (our_errors, our_warnings) = (codes("error"), codes("warning"));
        let want_errors: BTreeSet<String> = errors.iter().map(|s| (*s).to_owned()).collect();
        let want_warnings: BTreeSet<String> = warnings.iter().map(|s| (*s).to_owned()).collect();
        if our_errors != want_errors || our_warnings != want_warnings {
            failures.push(format!(
                "{name}: errors {our_errors:?} warnings {our_warnings:?}"
            ));
        }
        // The baseline itself: reference accepts → no error; rejects → an error, unless listed.
        let difference = DIFFERENCES.iter().find(|(case, _)| case == name);
        match (reference_rc, difference) {
            (0, _) => assert!(our_errors.is_empty(), "{name}: the reference accepts it"),
            (_, None) => assert!(!our_errors.is_empty(), "{name}: the reference rejects it"),
            (_, Some((_, rule))) => {
                assert!(our_errors.is_empty(), "{name}: a documented difference");
                let explain = run(context.command().args(["lint", "--explain", rule]));
                // The rule's whole page is its doc's business; that it names the difference is ours.
                assert!(
                    explain.stdout.contains("Difference from `skills-ref`"),
                    "{rule} documents the difference"
                );
            }
        }
        assert_eq!(
            output.code,
            i32::from(!our_errors.is_empty()),
            "{name}: exit code"
        );
    }
    assert!(
        failures.is_empty(),
        "verdicts changed:\n{}",
        failures.join("\n")
    );
}
