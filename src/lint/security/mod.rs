//! Security rules, one home per behaviour: each file holds its rule(s), its trigger words (the
//! literal prefilter: a file holding none of them is not analysed by the rule), its quotation
//! policy (when a finding is shown as a quotation, a warning, instead of refused), and its
//! positive and negative examples. The engine they read from is `lint::flow`; nothing here
//! parses.
//!
//! Invariant, kept by a test ([`tests`]): every positive example holds one of its rule's trigger
//! words and is found with the prefilter on and with it off; no negative example is refused
//! either way. A rule that silently never fires, or whose trigger misses its own example, fails
//! the build.

use super::flow::Hit;
use super::rules::Rule;

pub mod beacons;
pub mod ci;
pub mod clipper;
pub mod concealment;
pub mod destruction;
pub mod droppers;
pub mod encoded;
pub mod leaks;
pub mod names;
pub mod permissions;
pub mod remote_exec;
pub mod startup;
pub mod webshell;

use std::cell::OnceCell;

use crate::lint::flow::lex::Lang;
use crate::lint::flow::markdown::{self, Unit};
use crate::lint::flow::shell::acts::{self, Act};
use crate::lint::rules;

/// The file a rule reads, as the rule sees it, with what the rules read of it worked out once
/// for all of them: its code and prose units, and the commands of each shell unit.
#[derive(Debug)]
pub struct Input<'a> {
    /// The path inside the skill (`SKILL.md`, `scripts/x.sh`).
    pub rel: &'a str,
    pub text: &'a str,
    /// The skill's SKILL.md, which decides whether a reference is a quotation.
    pub skill_md: &'a str,
    /// Whether the file is prose (Markdown, text) rather than a program.
    pub prose: bool,
    units: OnceCell<(Vec<Unit>, Vec<Unit>)>,
    acts: OnceCell<Vec<OnceCell<Vec<Act>>>>,
    /// Each shell unit parsed, once for the acts and the walk.
    parsed: OnceCell<Vec<OnceCell<crate::lint::flow::shell::syntax::List>>>,
    walk: OnceCell<Walk>,
    /// The homes (bits, in [`HOMES`]' order) whose trigger words the text holds.
    triggered: OnceCell<u32>,
}

/// The shell engine's walk over a file's shell and PowerShell code units in order, with one
/// state: what each rule home that follows data through shell reads ([`Input::walk`]).
#[derive(Debug)]
pub struct Walk {
    /// The code units walked (indices into [`Input::units`]' code units), in order.
    pub units: Vec<usize>,
    /// The flows found; a flow's `unit` is an index into `units`.
    pub flows: Vec<crate::lint::flow::shell::Flow>,
}

impl<'a> Input<'a> {
    pub fn new(rel: &'a str, text: &'a str, skill_md: &'a str, prose: bool) -> Self {
        Input {
            rel,
            text,
            skill_md,
            prose,
            units: OnceCell::new(),
            acts: OnceCell::new(),
            parsed: OnceCell::new(),
            walk: OnceCell::new(),
            triggered: OnceCell::new(),
        }
    }

    /// Its code units and its prose units ([`code_and_prose`]).
    pub fn units(&self) -> (&[Unit], &[Unit]) {
        let (code, prose) = self.units.get_or_init(|| code_and_prose(self));
        (code, prose)
    }

    /// Why the unit (code or prose) that holds offset `at` is a quotation, if it is one.
    pub fn quoted_at(&self, at: usize) -> Option<&'static str> {
        let (code, prose) = self.units();
        code.iter()
            .chain(prose)
            .find(|u| u.start <= at && at < u.end)
            .and_then(|u| u.quoted)
    }

    /// Why the last unit (code or prose) that starts at or before `at` is a quotation: for a
    /// place no unit holds (a settings block), the prose that leads into it.
    pub fn quoted_before(&self, at: usize) -> Option<&'static str> {
        let (code, prose) = self.units();
        code.iter()
            .chain(prose)
            .filter(|u| u.start <= at)
            .max_by_key(|u| u.start)
            .and_then(|u| u.quoted)
    }

    /// The text of prose unit `unit` as its reader sees it: a line break that only wraps a
    /// sentence (the next line goes on with it) is a space, so that a paragraph hard-wrapped
    /// in the middle of an instruction reads as the one sentence Markdown renders; a break
    /// before a list item, a quote or a table row stays. Offsets are the text's own: each
    /// break is one byte, as the space is.
    pub fn paragraph(&self, unit: &Unit) -> std::borrow::Cow<'a, str> {
        unwrapped(&self.text[unit.start..unit.end])
    }

    /// [`negated_plainly`] at `at`, read in its paragraph as the reader sees it (a line break
    /// that only wraps the sentence is a space) when `at` is in prose; elsewhere on its line.
    pub fn negated_at(&self, at: usize) -> bool {
        let (_, prose) = self.units();
        match prose.iter().find(|u| u.start <= at && at < u.end) {
            Some(unit) => negated_plainly(&self.paragraph(unit), at - unit.start),
            None => negated_plainly(self.text, at),
        }
    }

    /// Whether the text holds one of `home`'s trigger words. The words of every home are looked
    /// for in one pass over the text, the first time a home asks: each home searching its own
    /// words over the whole file was a quarter of the gate's time on skills that hold none.
    pub fn triggered(&self, home: &Home) -> bool {
        let mask = *self.triggered.get_or_init(|| SCREEN.homes_in(self.text));
        HOMES
            .iter()
            .position(|h| std::ptr::eq(*h, home))
            .is_none_or(|bit| mask & (1 << bit) != 0)
    }

    /// The flows of the shell engine through the file's shell and PowerShell code units (its
    /// Markdown blocks and inline commands, or the script), walked once for every rule home.
    pub fn walk(&self) -> &Walk {
        self.walk.get_or_init(|| {
            let (code, _) = self.units();
            let units: Vec<usize> = (0..code.len())
                .filter(|&i| matches!(code[i].lang, Lang::Shell | Lang::PowerShell))
                .collect();
            let mut state = crate::lint::flow::shell::State::new();
            for (walked, &i) in units.iter().enumerate() {
                state.unit_parsed(self.parsed(i), code[i].start, walked);
            }
            Walk {
                units,
                flows: state.flows,
            }
        })
    }

    /// The code unit a flow of [`Input::walk`] runs in.
    pub fn walked_unit(&self, flow: &crate::lint::flow::shell::Flow) -> Option<&Unit> {
        let index = *self.walk().units.get(flow.unit)?;
        self.units().0.get(index)
    }

    /// The commands of code unit `index` (a shell unit; none for other languages).
    pub fn acts(&self, index: usize) -> &[Act] {
        let (code, _) = self.units();
        let cells = self
            .acts
            .get_or_init(|| code.iter().map(|_| OnceCell::new()).collect());
        let Some(cell) = cells.get(index) else {
            return &[];
        };
        cell.get_or_init(|| {
            if code[index].lang == Lang::Shell {
                acts::acts_of(self.parsed(index))
            } else {
                Vec::new()
            }
        })
    }

    /// Code unit `index` parsed as shell (what the acts and the walk read).
    fn parsed(&self, index: usize) -> &crate::lint::flow::shell::syntax::List {
        let (code, _) = self.units();
        let cells = self
            .parsed
            .get_or_init(|| code.iter().map(|_| OnceCell::new()).collect());
        cells[index].get_or_init(|| {
            let unit = &code[index];
            crate::lint::flow::shell::syntax::parse(&self.text[unit.start..unit.end])
        })
    }
}

/// `para` with each line break that wraps a sentence read as a space (see [`Input::paragraph`]).
pub fn unwrapped(para: &str) -> std::borrow::Cow<'_, str> {
    let bytes = para.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    for at in memchr::memchr_iter(b'\n', bytes) {
        let next = &bytes[at + 1..];
        let next = &next[next
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()..];
        if !starts_block(next) {
            out.get_or_insert_with(|| bytes.to_vec())[at] = b' ';
        }
    }
    match out {
        None => std::borrow::Cow::Borrowed(para),
        // One ASCII byte replaced by another: still UTF-8.
        Some(bytes) => std::borrow::Cow::Owned(String::from_utf8(bytes).unwrap_or_default()),
    }
}

/// Words that turn an instruction into its opposite (`never send`, `do not paste`).
pub const NEGATIONS: &[&str] = &["never", "not", "no", "don't", "nor", "without"];

/// Whether the clause that ends at `at` in `text` negates what follows it: a word of
/// [`NEGATIONS`] (or `avoid`) among the last few words since the clause began ("4. Do not
/// decode-and-run anything", "never pipe it into a shell"). "Don't worry, decode it and run
/// it" negates nothing: the clause starts after the comma.
pub fn negated_before(text: &str, at: usize) -> bool {
    let clause = clause_before(text, at);
    // (Words, not the marks between them: "never handed over as `x`" is four words.)
    let last: Vec<&str> = clause
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .rev()
        .take(4)
        .collect();
    last.iter()
        .any(|w| holds_word(w, NEGATIONS) || holds_word(w, &["avoid", "refuse"]))
}

/// The clause of `text` that ends at `at`: from the last punctuation mark or line break.
fn clause_before(text: &str, at: usize) -> &str {
    let at = floor(text, at.min(text.len()));
    let start = text[..at]
        .rfind(['.', ',', ';', ':', '!', '?', '\n'])
        .map_or(0, |i| i + 1);
    &text[start..at]
}

/// [`negated_before`], unless the clause undoes its negation ("never forget to …", "don't skip
/// …", "do not fail to …"): an order, not a rule against.
pub fn negated_plainly(text: &str, at: usize) -> bool {
    negated_before(text, at)
        && !holds_word(
            clause_before(text, at),
            &[
                "forget", "fail", "skip", "neglect", "omit", "hesitate", "miss", "stop",
            ],
        )
}

/// Whether `text` holds one of `words` as a word (ASCII case folded; `don't` is one word).
pub fn holds_word(text: &str, words: &[&str]) -> bool {
    text.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '\'')
        .any(|w| words.contains(&w))
}

/// Whether a line that begins with `line` starts a block of its own: nothing (the text's or
/// the paragraph's end), a blank line, a list item, a quote, a table row or a heading.
fn starts_block(line: &[u8]) -> bool {
    match line.first() {
        None | Some(b'\n' | b'\r' | b'-' | b'*' | b'+' | b'>' | b'|' | b'#') => true,
        Some(b) if b.is_ascii_digit() => {
            let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
            digits <= 3 && matches!(line.get(digits), Some(b'.' | b')'))
        }
        Some(_) => false,
    }
}

/// An example of a rule: a file (path and text) and the rule that must (or must not) refuse it.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    pub rel: &'static str,
    pub text: &'static str,
}

/// The home of a behaviour's rules.
pub struct Home {
    /// The rules it reports.
    pub rules: &'static [&'static Rule],
    /// Literals one of which every finding's file holds.
    pub triggers: &'static [&'static str],
    /// When a finding is a quotation (a warning) rather than refused.
    pub quotation: &'static str,
    /// Files it must refuse (an error of one of its rules).
    pub positive: &'static [Example],
    /// Files it must not refuse.
    pub negative: &'static [Example],
    /// Its findings in a file; `prefilter` false skips the trigger test.
    pub findings: fn(&Input<'_>, bool) -> Vec<Hit>,
}

/// The findings of one rule home in one file, each with the home's help text (or the one a
/// rule of it has its own).
pub struct Hits {
    found: Vec<Hit>,
    help: &'static str,
    own: Option<(&'static Rule, &'static str)>,
}

impl Hits {
    pub fn new(help: &'static str) -> Self {
        Hits {
            found: Vec::new(),
            help,
            own: None,
        }
    }

    /// `rule`'s findings carry `help` instead of the home's.
    #[must_use]
    pub fn helping(mut self, rule: &'static Rule, help: &'static str) -> Self {
        self.own = Some((rule, help));
        self
    }

    pub fn push(
        &mut self,
        rule: &'static Rule,
        at: usize,
        message: String,
        quoted: Option<&'static str>,
    ) {
        let help = match self.own {
            Some((own, help)) if std::ptr::eq(own, rule) => help,
            _ => self.help,
        };
        self.found.push(Hit {
            rule,
            at,
            message,
            help,
            quoted,
        });
    }

    pub fn into_vec(self) -> Vec<Hit> {
        self.found
    }
}

/// Every home, for the examples test and `--explain`.
pub static HOMES: &[&Home] = &[
    &remote_exec::HOME,
    &concealment::HOME,
    &startup::HOME,
    &destruction::HOME,
    &encoded::HOME,
    &droppers::HOME,
    &names::HOME,
    &leaks::HOME,
    &permissions::HOME,
    &beacons::HOME,
    &webshell::HOME,
    &ci::HOME,
    &clipper::HOME,
];

/// Every home's trigger words in one automaton, each word with the homes it triggers.
struct Screen {
    words: aho_corasick::AhoCorasick,
    /// For each word of `words`, the bits of the homes whose word it is.
    homes: Vec<u32>,
    /// Every home's bit.
    all: u32,
}

static SCREEN: std::sync::LazyLock<Screen> = std::sync::LazyLock::new(|| {
    let mut words: Vec<&str> = Vec::new();
    let mut homes: Vec<u32> = Vec::new();
    for (bit, home) in HOMES.iter().enumerate() {
        for word in home.triggers {
            if let Some(at) = words.iter().position(|w| w == word) {
                homes[at] |= 1 << bit;
            } else {
                words.push(word);
                homes.push(1 << bit);
            }
        }
    }
    Screen {
        words: aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(&words)
            .expect("static literals build"),
        homes,
        all: (1 << HOMES.len()) - 1,
    }
});

impl Screen {
    /// The bits of the homes one of whose words `text` holds.
    fn homes_in(&self, text: &str) -> u32 {
        let mut found = 0;
        for word in self.words.find_overlapping_iter(text) {
            found |= self.homes[word.pattern().as_usize()];
            if found == self.all {
                break;
            }
        }
        found
    }
}

/// Reports the findings of every home in one file: at most one per rule and line, ten per
/// rule; a quoted error is a warning that says why.
pub fn scan(cx: &mut crate::lint::Cx<'_>, path: &std::path::Path, input: &Input<'_>) {
    let mut seen: Vec<(&'static str, usize)> = Vec::new();
    for home in HOMES {
        let mut reported = 0;
        for hit in (home.findings)(input, true) {
            let (line, col) =
                crate::skill::frontmatter::position(input.text, floor(input.text, hit.at));
            if seen.contains(&(hit.rule.code, line)) {
                continue;
            }
            seen.push((hit.rule.code, line));
            reported += 1;
            if reported > 10 {
                break;
            }
            let pos = Some(crate::skill::Pos { line, col });
            match hit.quoted {
                Some(why) if hit.rule.severity == rules::Severity::Error => {
                    cx.report_as(
                        hit.rule,
                        rules::Severity::Warning,
                        path,
                        pos,
                        format!("{} (not refused: {why})", hit.message),
                    )
                    .help(hit.help);
                }
                _ => cx.report(hit.rule, path, pos, hit.message).help(hit.help),
            }
        }
    }
}

/// The code of a file as the rules read it: a Markdown file's blocks and inline commands (with
/// their quotation status), a script whole; and the prose paragraphs of a Markdown or text
/// file.
fn code_and_prose(input: &Input<'_>) -> (Vec<Unit>, Vec<Unit>) {
    let (mut code, prose) = file_units(input);
    // Scripts handed to a shell inside an argument list are shell wherever they sit; one
    // inside a block is quoted as its block is.
    let scripts = crate::lint::flow::yaml::argv_scripts(input.text);
    if !scripts.is_empty() {
        for mut script in scripts {
            if code
                .iter()
                .any(|u| u.start == script.start && u.end == script.end)
            {
                continue;
            }
            script.quoted = code
                .iter()
                .chain(&prose)
                .find(|u| u.start <= script.start && script.end <= u.end)
                .and_then(|u| u.quoted);
            code.push(script);
        }
        code.sort_by_key(|u| u.start);
    }
    (code, prose)
}

/// [`code_and_prose`] before the scripts of argument lists.
fn file_units(input: &Input<'_>) -> (Vec<Unit>, Vec<Unit>) {
    if crate::lint::content::is_markdown(input.rel) {
        return markdown::units(input.text);
    }
    let whole = |lang| Unit {
        start: 0,
        end: input.text.len(),
        lang,
        quoted: None,
    };
    if let Some(lang) = Lang::of_script(input.rel, input.text) {
        return (vec![whole(lang)], Vec::new());
    }
    if input.prose {
        return (Vec::new(), vec![whole(Lang::Shell)]);
    }
    if crate::lint::flow::yaml::is_yaml(input.rel) {
        return (crate::lint::flow::yaml::shell_units(input.text), Vec::new());
    }
    (Vec::new(), Vec::new())
}

/// The largest char boundary at or before `i`.
pub fn floor(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether `text` holds one of `triggers`.
pub fn triggered(text: &str, triggers: &[&str]) -> bool {
    triggers
        .iter()
        .any(|t| memchr::memmem::find(text.as_bytes(), t.as_bytes()).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negation_undone_by_its_verb_is_no_negation() {
        let rule = "Never put secrets in CLAUDE.md.";
        assert!(negated_plainly(rule, rule.find("put").unwrap()));
        let order = "Never forget to put these rules in CLAUDE.md.";
        assert!(!negated_plainly(order, order.find("put").unwrap()));
        let skip = "Don't skip the upload silently.";
        assert!(!negated_plainly(skip, skip.find("the").unwrap()));
    }

    #[test]
    fn a_wrapped_sentence_is_one_line_and_a_list_is_not() {
        let para = "Fetch it from https://x.example/i and\nrun it now.\n- a list item\n2. another\n> quoted\r\nend";
        let flat = unwrapped(para);
        assert_eq!(flat.len(), para.len());
        assert_eq!(
            flat,
            "Fetch it from https://x.example/i and run it now.\n- a list item\n2. another\n> quoted\r end"
        );
        assert!(matches!(
            unwrapped("one line\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    proptest::proptest! {
        /// Any text unwrapped keeps its length and every offset: only line breaks change, and
        /// only into spaces.
        #[test]
        fn unwrapping_keeps_every_offset(text in "(?s).{0,300}") {
            let flat = unwrapped(&text);
            proptest::prop_assert_eq!(flat.len(), text.len());
            for (a, b) in text.bytes().zip(flat.bytes()) {
                proptest::prop_assert!(a == b || (a == b'\n' && b == b' '));
            }
        }
    }
    use crate::lint::rules::Severity;

    fn refused(home: &Home, example: &Example, prefilter: bool) -> bool {
        let input = Input::new(
            example.rel,
            example.text,
            if example.rel == "SKILL.md" {
                example.text
            } else {
                ""
            },
            crate::lint::content::is_prose(example.rel, false, example.text),
        );
        (home.findings)(&input, prefilter).iter().any(|h| {
            h.quoted.is_none()
                && h.rule.severity == Severity::Error
                && home.rules.iter().any(|r| std::ptr::eq(*r, h.rule))
        })
    }

    #[test]
    fn every_example_with_the_prefilter_on_and_off() {
        for home in HOMES {
            assert!(!home.positive.is_empty() && !home.negative.is_empty());
            for example in home.positive {
                assert!(
                    triggered(example.text, home.triggers),
                    "{}: no trigger word in its own example {:?}",
                    home.rules[0].code,
                    example.text
                );
                for prefilter in [true, false] {
                    assert!(
                        refused(home, example, prefilter),
                        "{} (prefilter {prefilter}) misses {:?}",
                        home.rules[0].code,
                        example.text
                    );
                }
            }
            for example in home.negative {
                for prefilter in [true, false] {
                    assert!(
                        !refused(home, example, prefilter),
                        "{} (prefilter {prefilter}) refuses {:?}",
                        home.rules[0].code,
                        example.text
                    );
                }
            }
        }
    }
}
