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
            .map(|m| m.as_str())
            .unwrap_or_else(|| panic!("no group at index '{i}'"))
    }
}

impl std::ops::Index<&str> for Captures<'_> {
    type Output = str;

    /// Group `name`'s text; panics if it took no part, as the regex crate does.
    fn index(&self, name: &str) -> &str {
        self.name(name)
            .map(|m| m.as_str())
            .unwrap_or_else(|| panic!("no group named '{name}'"))
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
    /// The regex of `hir` (a pattern parsed and rewritten by `ascii_regex`).
    pub fn from_hir(hir: &regex_syntax::hir::Hir) -> Result<Regex, meta::BuildError> {
        meta::Regex::builder()
            .build_from_hir(hir)
            .map(|re| Regex { re })
    }

    pub fn is_match(&self, haystack: &str) -> bool {
        self.re.is_match(haystack)
    }

    pub fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.re
            .find(haystack)
            .map(|m| Match::of(haystack, m.span()))
    }

    pub fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> + 'r
    where
        'h: 'r,
    {
        self.re
            .find_iter(haystack)
            .map(move |m| Match::of(haystack, m.span()))
    }

    pub fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
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
        self.re
            .captures_iter(haystack)
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
