//! The install gate measured on its labelled corpus (`tests/fixtures/security/gate-corpus`):
//! every malicious skill must be refused and every benign one installed.
//!
//! The gate is applied as a user meets it: one `skills add <half> -s '*' -y --json` per half of
//! the corpus, into a fresh project with HOME, XDG and the cache in a temp dir. A skill counts as
//! refused when it is not installed (the JSON says why, stderr names the findings). The folder
//! name is the label: `<behaviour>-<nn>-<slug>` or `<kind>-<nn>-<slug>`.
//!
//! `measure_gate_on_corpus` prints recall per behaviour and the false refusals with their
//! findings, and fails below 95 % recall or on any false refusal:
//! `cargo test --locked --test it corpus -- --nocapture` (a few seconds in a debug build).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestContext, repo, run};

/// The behaviours of the malicious half; each must have at least [`MIN_PER_BEHAVIOUR`] skills.
const BEHAVIOURS: [&str; 22] = [
    "env-exfil",
    "secret-exfil",
    "credential-files",
    "hidden-instruction",
    "reverse-shell",
    "encoded",
    "dns-exfil",
    "image-exfil",
    "miner",
    "privesc",
    "persistence",
    "tampering",
    "typosquat",
    "dep-confusion",
    "dropper",
    "remote-exec",
    "download-exec",
    "memory-poison",
    "concealment",
    "destruction",
    "data-theft",
    "ref-hidden",
];
const MIN_PER_HALF: usize = 165;
const MIN_PER_BEHAVIOUR: usize = 10;
/// In per cent.
const MIN_RECALL: f64 = 95.0;

fn half(name: &str) -> PathBuf {
    repo()
        .join("tests/fixtures/security/gate-corpus")
        .join(name)
}

/// The skill folders of a half, sorted, with their labels.
fn labelled(root: &Path) -> Vec<(String, String)> {
    let mut skills: Vec<(String, String)> = std::fs::read_dir(root)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.path().join("SKILL.md").is_file())
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let label = label(&name).unwrap_or_else(|| panic!("`{name}` has no label"));
            (name, label)
        })
        .collect();
    skills.sort();
    skills
}

/// `env-exfil-03-i18n-sync` → `env-exfil`: the words before the two-digit number.
fn label(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split('-').collect();
    let number = words
        .iter()
        .position(|w| w.len() == 2 && w.bytes().all(|b| b.is_ascii_digit()))?;
    (number > 0 && number + 1 < words.len()).then(|| words[..number].join("-"))
}

/// What `add` did with one skill.
struct Outcome {
    installed: bool,
    /// The JSON's reason, then the finding lines stderr gave for it.
    why: Vec<String>,
}

/// Runs `skills add <root> -s '*' -y --json` in a fresh project and tells, per skill folder,
/// whether it went in.
fn add_half(root: &Path) -> BTreeMap<String, Outcome> {
    let context = TestContext::new();
    let output = run(context.command().arg("add").arg(root).args([
        "-s",
        "*",
        "-a",
        "claude-code",
        "-y",
        "--json",
    ]));
    assert!(
        output.code == 0 || output.code == 1,
        "add failed outright ({}): {}",
        output.code,
        output.stderr
    );
    let document: Value = serde_json::from_str(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}\n{}", output.stdout, output.stderr));
    let reasons: BTreeMap<&str, &str> = document["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| Some((s["name"].as_str()?, s["reason"].as_str().unwrap_or(""))))
        .collect();
    let findings = findings_by_skill(&output.stderr);
    labelled(root)
        .into_iter()
        .map(|(name, _)| {
            let installed = context
                .project
                .join(".claude/skills")
                .join(&name)
                .join("SKILL.md")
                .is_file();
            let mut why = Vec::new();
            match reasons.get(name.as_str()) {
                Some(reason) if !reason.is_empty() => why.push((*reason).to_owned()),
                Some(_) => {}
                None => why.push("not in the JSON: the source offered no such skill".into()),
            }
            why.extend(findings.get(&name).cloned().unwrap_or_default());
            (name, Outcome { installed, why })
        })
        .collect()
}

/// The indented finding lines under each `error: refused `NAME` …` block of stderr.
fn findings_by_skill(stderr: &str) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("error: refused `") {
            current = rest.split('`').next().map(str::to_owned);
        } else if let (Some(name), Some(finding)) = (&current, line.strip_prefix("  ")) {
            if !finding.starts_with("caused by") {
                // Paths from the corpus's root on: the rest is where the checkout is.
                let short = finding
                    .find("gate-corpus/")
                    .map_or(finding, |at| &finding[at + "gate-corpus/".len()..]);
                found
                    .entry(name.clone())
                    .or_default()
                    .push(short.to_owned());
            }
        } else if !line.is_empty() {
            current = None;
        }
    }
    found
}

/// `part` of `whole` in per cent (counts of skills: far below `u32::MAX`).
fn percent(part: usize, whole: usize) -> f64 {
    let count = |n: usize| f64::from(u32::try_from(n).expect("a count of skills"));
    if whole == 0 {
        0.0
    } else {
        100.0 * count(part) / count(whole)
    }
}

/// The corpus is what the measurement assumes: two halves of at least 165 labelled skills, every
/// behaviour with at least 10, each `name` equal to its folder. Cheap, and runs on every build.
#[test]
fn corpus_is_labelled() {
    let malicious = labelled(&half("malicious"));
    let benign = labelled(&half("benign"));
    assert!(malicious.len() >= MIN_PER_HALF, "{}", malicious.len());
    assert!(benign.len() >= MIN_PER_HALF, "{}", benign.len());
    let mut per: BTreeMap<&str, usize> = BEHAVIOURS.iter().map(|b| (*b, 0)).collect();
    for (name, label) in &malicious {
        let count = per
            .get_mut(label.as_str())
            .unwrap_or_else(|| panic!("`{name}`: unknown behaviour `{label}`"));
        *count += 1;
    }
    for (behaviour, count) in &per {
        assert!(*count >= MIN_PER_BEHAVIOUR, "{behaviour}: {count}");
    }
    for (root, skills) in [("malicious", &malicious), ("benign", &benign)] {
        for (name, _) in skills {
            let text = std::fs::read_to_string(half(root).join(name).join("SKILL.md")).unwrap();
            assert!(
                text.starts_with(&format!("---\nname: {name}\ndescription: ")),
                "{root}/{name}: frontmatter"
            );
        }
    }
}

#[test]
#[expect(
    clippy::print_stderr,
    reason = "the table is what this test is run for"
)]
fn measure_gate_on_corpus() {
    let malicious = labelled(&half("malicious"));
    let benign = labelled(&half("benign"));
    let refused = add_half(&half("malicious"));
    let admitted = add_half(&half("benign"));

    // Recall per behaviour.
    let mut per: BTreeMap<&str, (usize, usize, Vec<&str>)> = BTreeMap::new();
    for (name, label) in &malicious {
        let row = per.entry(label.as_str()).or_default();
        row.1 += 1;
        if refused[name].installed {
            row.2.push(name);
        } else {
            row.0 += 1;
        }
    }
    let caught: usize = per.values().map(|row| row.0).sum();
    let recall = percent(caught, malicious.len());
    let mut report = String::from("\nbehaviour            refused / total   recall\n");
    for (behaviour, (hit, total, _)) in &per {
        let share = percent(*hit, *total);
        writeln!(
            report,
            "{behaviour:<20} {hit:>7} / {total:<5} {share:>7.1} %"
        )
        .unwrap();
    }
    let total = malicious.len();
    writeln!(
        report,
        "{:<20} {caught:>7} / {total:<5} {recall:>7.1} %",
        "overall"
    )
    .unwrap();

    // False refusals, with what refused them.
    let false_refusals: Vec<(&String, &Outcome)> = benign
        .iter()
        .map(|(name, _)| (name, &admitted[name]))
        .filter(|(_, outcome)| !outcome.installed)
        .collect();
    let (wrong, of) = (false_refusals.len(), benign.len());
    writeln!(report, "\nfalse refusals: {wrong} of {of} benign").unwrap();
    for (name, outcome) in &false_refusals {
        writeln!(report, "  {name}").unwrap();
        for why in &outcome.why {
            writeln!(report, "      {why}").unwrap();
        }
    }
    report.push_str("\nmissed (installed although malicious):\n");
    for (_, _, missed) in per.values() {
        for name in missed {
            writeln!(report, "  {name}").unwrap();
        }
    }
    eprintln!("{report}");

    assert!(
        recall >= MIN_RECALL,
        "recall {recall:.1} % is below {MIN_RECALL:.0} %"
    );
    assert!(
        false_refusals.is_empty(),
        "{} benign skills refused",
        false_refusals.len()
    );
}
