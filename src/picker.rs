//! The multi-select picker of `add` (skills, then agents), drawn on stderr.
//!
//! Typing filters the list (case-insensitive, on the name and the detail; names that match come
//! first, the exact name at the top); space selects the
//! highlighted entry, `a` selects every entry the filter shows (or unselects them when all
//! are), enter confirms (the highlighted entry when nothing is selected, as fzf does), and esc
//! or ctrl-c cancels. A footer line says so.
//!
//! `a` is both a letter of the filter and the select-all key (as in `npx skills`' picker). With
//! the filter empty, `a` selects all (again: unselects); when the very next key is another
//! letter or a digit, the user was typing a word (`api`): the selection goes back to what it was
//! and the filter reads `a` plus that letter. Inside a filter `a` is a letter. ctrl-a (read as Home by the terminal library,
//! so Home too) selects all at any time.
//! Entries come from sources: they are escaped and cut to the terminal's width, one line each,
//! so that the picker can redraw exactly the lines it drew.

use std::io;

use dialoguer::console::{Key, Term};

use crate::output::{self, escape};

/// Entries shown at once at most (fewer on a short terminal); the list scrolls past them.
const VISIBLE: usize = 15;

/// One entry: a name, and a detail shown after it (a description, a folder).
pub struct Entry {
    pub name: String,
    pub detail: String,
    pub selected: bool,
}

/// What the user answered.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// The indexes of the chosen entries, in list order.
    Picked(Vec<usize>),
    Cancelled,
}

struct State<'a> {
    prompt: &'a str,
    entries: Vec<Entry>,
    /// Lowercased `name detail` of each entry, for the filter.
    haystacks: Vec<String>,
    query: String,
    /// Index into `shown()` of the highlighted entry.
    cursor: usize,
    /// First shown entry drawn (the list scrolls).
    top: usize,
    /// The selection before `a` selected all, while the next key may show it was typed.
    before_a: Option<Vec<bool>>,
}

impl State<'_> {
    /// The entries the filter keeps, best match first: the name equal to the filter, then names
    /// that begin with it, names that hold it, and last entries that hold it only in their
    /// detail; list order within each. Enter on a typed `pdf` takes the skill named `pdf`, not
    /// the first one whose description mentions PDFs.
    fn shown(&self) -> Vec<usize> {
        let needle = self.query.to_lowercase();
        if needle.is_empty() {
            return (0..self.entries.len()).collect();
        }
        let mut ranked: Vec<(u8, usize)> = (0..self.entries.len())
            .filter(|&i| self.haystacks[i].contains(&needle))
            .map(|i| {
                let name = self.entries[i].name.to_lowercase();
                let rank = if name == needle {
                    0
                } else if name.starts_with(&needle) {
                    1
                } else if name.contains(&needle) {
                    2
                } else {
                    3
                };
                (rank, i)
            })
            .collect();
        ranked.sort_unstable();
        ranked.into_iter().map(|(_, i)| i).collect()
    }

    /// The lines to draw on a terminal `width` columns wide and `height` lines high.
    fn lines(&mut self, width: usize, height: usize) -> Vec<String> {
        // The header, the footer and a line for the cursor stay on screen with the entries, or
        // the redraw would leave lines scrolled out of reach.
        let visible = VISIBLE.min(height.saturating_sub(3)).max(1);
        let shown = self.shown();
        self.cursor = self.cursor.min(shown.len().saturating_sub(1));
        if self.cursor < self.top {
            self.top = self.cursor;
        } else if self.cursor >= self.top + visible {
            self.top = self.cursor + 1 - visible;
        }
        let selected = self.entries.iter().filter(|e| e.selected).count();
        let mut lines = vec![format!(
            "{}  [{selected} selected, {} of {} shown]  filter: {}",
            self.prompt,
            shown.len(),
            self.entries.len(),
            escape::field(&self.query),
        )];
        if shown.is_empty() {
            lines.push("  (nothing matches the filter; backspace removes letters)".to_owned());
        }
        for (row, &i) in shown.iter().enumerate().skip(self.top).take(visible) {
            let entry = &self.entries[i];
            let pointer = if row == self.cursor { '>' } else { ' ' };
            let mark = if entry.selected { 'x' } else { ' ' };
            lines.push(format!(
                "{pointer} [{mark}] {}  {}",
                escape::field(&entry.name),
                escape::field(&entry.detail)
            ));
        }
        lines.push(
            "  type to filter · ↑↓ move · space select · a select all · enter confirm · esc cancel"
                .to_owned(),
        );
        // One terminal line each, or the redraw would erase the wrong lines.
        let width = width.saturating_sub(1).max(10);
        lines
            .into_iter()
            .map(|line| output::cut(&line, width).into_owned())
            .collect()
    }

    /// Handles one key; `Some` when the question is answered.
    fn key(&mut self, key: &Key) -> Option<Answer> {
        if let Some(before) = self.before_a.take()
            && let Key::Char(c) = *key
            && c.is_alphanumeric()
            && c != 'a'
        {
            // `a` began a word: it goes to the filter, and the selection is as it was.
            for (entry, selected) in self.entries.iter_mut().zip(before) {
                entry.selected = selected;
            }
            self.query.push('a');
        }
        let shown = self.shown();
        match *key {
            Key::Escape | Key::CtrlC => return Some(Answer::Cancelled),
            Key::Enter => {
                let mut picked: Vec<usize> = (0..self.entries.len())
                    .filter(|&i| self.entries[i].selected)
                    .collect();
                if picked.is_empty() {
                    picked.extend(shown.get(self.cursor));
                }
                if !picked.is_empty() {
                    return Some(Answer::Picked(picked));
                }
            }
            Key::ArrowUp | Key::BackTab if !shown.is_empty() => {
                self.cursor = self.cursor.checked_sub(1).unwrap_or(shown.len() - 1);
            }
            Key::ArrowDown | Key::Tab if !shown.is_empty() => {
                self.cursor = (self.cursor + 1) % shown.len();
            }
            Key::PageUp => self.cursor = self.cursor.saturating_sub(VISIBLE),
            Key::PageDown => self.cursor += VISIBLE,
            Key::End => self.cursor = shown.len().saturating_sub(1),
            Key::Char(' ') => {
                if let Some(&i) = shown.get(self.cursor) {
                    self.entries[i].selected = !self.entries[i].selected;
                }
            }
            Key::Char('a') if self.query.is_empty() => {
                self.before_a = Some(self.entries.iter().map(|e| e.selected).collect());
                self.toggle_all(&shown);
            }
            // `console` reads ctrl-a as Home (readline's meaning), so the Home key selects all too.
            Key::Home | Key::Char('\u{1}') => self.toggle_all(&shown),
            Key::Backspace => {
                self.query.pop();
                self.cursor = 0;
            }
            Key::Char(c) if !c.is_control() => {
                self.query.push(c);
                self.cursor = 0;
            }
            _ => {}
        }
        None
    }
}

impl State<'_> {
    /// Selects every entry of `shown`, or unselects them when all are selected.
    fn toggle_all(&mut self, shown: &[usize]) {
        let all = shown.iter().all(|&i| self.entries[i].selected);
        for &i in shown {
            self.entries[i].selected = !all;
        }
    }
}

/// Asks on `term` which of `entries` to take.
pub fn pick(term: &Term, prompt: &str, entries: Vec<Entry>) -> io::Result<Answer> {
    let haystacks = entries
        .iter()
        .map(|e| format!("{} {}", e.name, e.detail).to_lowercase())
        .collect();
    let mut state = State {
        prompt,
        entries,
        haystacks,
        query: String::new(),
        cursor: 0,
        top: 0,
        before_a: None,
    };
    term.hide_cursor()?;
    let answer = run(term, &mut state);
    let _ = term.show_cursor();
    let answer = answer?;
    // What was chosen stays on screen, on one line.
    let summary = match &answer {
        Answer::Picked(picked) => picked
            .iter()
            .map(|&i| escape::field(&state.entries[i].name))
            .collect::<Vec<_>>()
            .join(", "),
        Answer::Cancelled => "(cancelled)".to_owned(),
    };
    let width = term.size().1.into();
    term.write_line(&output::cut(&format!("{prompt}: {summary}"), width))?;
    Ok(answer)
}

fn run(term: &Term, state: &mut State) -> io::Result<Answer> {
    let mut drawn = 0;
    loop {
        let (rows, columns) = term.size();
        let lines = state.lines(columns.into(), rows.into());
        term.clear_last_lines(drawn)?;
        for line in &lines {
            term.write_line(line)?;
        }
        drawn = lines.len();
        let key = term.read_key_raw()?;
        if let Some(answer) = state.key(&key) {
            term.clear_last_lines(drawn)?;
            return Ok(answer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(entries: &[(&str, &str)]) -> State<'static> {
        let entries: Vec<Entry> = entries
            .iter()
            .map(|(name, detail)| Entry {
                name: (*name).to_owned(),
                detail: (*detail).to_owned(),
                selected: false,
            })
            .collect();
        State {
            prompt: "Skills",
            haystacks: entries
                .iter()
                .map(|e| format!("{} {}", e.name, e.detail).to_lowercase())
                .collect(),
            entries,
            query: String::new(),
            cursor: 0,
            top: 0,
            before_a: None,
        }
    }

    #[test]
    fn typing_filters_and_enter_takes_the_highlighted_entry() {
        let mut s = state(&[
            ("pdf", "Read PDFs"),
            ("notes", "Take notes"),
            ("api", "APIs"),
        ]);
        for c in "NO".chars() {
            assert_eq!(s.key(&Key::Char(c)), None);
        }
        assert_eq!(s.shown(), vec![1]);
        assert_eq!(s.key(&Key::Enter), Some(Answer::Picked(vec![1])));
    }

    #[test]
    fn a_selects_all_unless_it_begins_a_word() {
        let mut s = state(&[("pdf", ""), ("notes", ""), ("api", "")]);
        s.key(&Key::Char('a'));
        assert!(s.entries.iter().all(|e| e.selected), "`a` selects all");
        assert!(s.query.is_empty());
        s.key(&Key::Char('a'));
        assert!(s.entries.iter().all(|e| !e.selected), "and again unselects");
        // `a` then `p`: the user is typing `api`. The selection is as before `a`.
        s.key(&Key::Char(' '));
        s.key(&Key::Char('a'));
        s.key(&Key::Char('p'));
        assert_eq!(s.query, "ap");
        assert_eq!(s.shown(), vec![2]);
        let selected: Vec<bool> = s.entries.iter().map(|e| e.selected).collect();
        assert_eq!(selected, [true, false, false]);
        // Inside a filter `a` is a letter.
        s.key(&Key::Backspace);
        s.key(&Key::Char('a'));
        assert_eq!(s.query, "aa");
        // `a`, then a key that is not a letter: all stay selected.
        let mut s = state(&[("pdf", ""), ("notes", "")]);
        s.key(&Key::Char('a'));
        s.key(&Key::ArrowDown);
        assert_eq!(s.key(&Key::Enter), Some(Answer::Picked(vec![0, 1])));
    }

    #[test]
    fn ctrl_a_selects_what_is_shown_and_selections_survive_the_filter() {
        let mut s = state(&[("pdf", ""), ("notes", ""), ("api", "")]);
        for c in "ap".chars() {
            s.key(&Key::Char(c));
        }
        assert_eq!(s.shown(), vec![2]);
        s.key(&Key::Char(' '));
        s.key(&Key::Backspace);
        s.key(&Key::Backspace);
        s.key(&Key::Char('\u{1}'));
        assert_eq!(s.key(&Key::Enter), Some(Answer::Picked(vec![0, 1, 2])));
        s.key(&Key::Char('\u{1}'));
        assert!(s.entries.iter().all(|e| !e.selected));
    }

    #[test]
    fn escape_cancels_and_lines_fit_the_width() {
        let mut s = state(&[("evil\x1b[2J", &"x".repeat(500))]);
        let lines = s.lines(40, 24);
        assert!(
            lines.iter().all(|l| output::text_width(l) < 40),
            "{lines:?}"
        );
        assert!(lines[1].contains("\\x1b"), "{lines:?}");
        assert!(lines.iter().all(|l| !l.contains('\x1b')));
        assert_eq!(s.key(&Key::Escape), Some(Answer::Cancelled));
    }
}
