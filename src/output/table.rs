//! Tables that fit where they go.
//!
//! On a terminal a table is drawn with borders (comfy-table) and fitted to the terminal's
//! width: the flexible column (a description) is cut first, then the widest ones, each cell at
//! a word boundary with `…`, measured in display columns (a CJK character or an emoji takes
//! two). Piped, it is one tab-separated line per row with no header, as `gh` and `kubectl` print
//! for scripts (`--json` is the format with names). Every cell is escaped
//! ([`super::escape::field`]) before it is measured, so a hostile cell can neither move the
//! cursor nor make the table lie about its width, and no cell reaches comfy-table wider than
//! the terminal (a one-megabyte description used to overflow its `u16` widths).

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

use super::escape;

/// Columns never cut below this width (or their header's, when narrower content allows).
const MIN_COLUMN: usize = 8;
/// The narrowest and widest terminal a table is fitted to; beyond, borders are pointless or
/// widths stop being sensible.
const WIDTH_RANGE: (usize, usize) = (20, 4096);

/// A table of text cells; [`crate::output::Printer::table`] prints it.
#[derive(Debug, Clone, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    flexible: Option<usize>,
}

impl Table {
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| (*h).to_owned()).collect(),
            rows: Vec::new(),
            flexible: None,
        }
    }

    /// The column given up first when the table is too wide (a description).
    #[must_use]
    pub fn flexible(mut self, column: usize) -> Table {
        self.flexible = Some(column);
        self
    }

    /// Adds a row. A cell may hold several lines on a terminal (they are one line when piped).
    pub fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// One line per row, cells separated by tabs; no header, no padding.
    pub fn tsv(&self) -> String {
        let mut out = String::new();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    out.push('\t');
                }
                out.push_str(&escape::field(cell.trim_end_matches('\n')));
            }
            out.push('\n');
        }
        out
    }

    /// The table with borders, `width` display columns wide at most (unless even the narrowest
    /// columns do not fit), with a final newline.
    pub fn boxed(&self, width: usize) -> String {
        let width = width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1);
        let columns = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        // Each cell as escaped lines.
        let cells: Vec<Vec<Vec<String>>> = self
            .rows
            .iter()
            .map(|row| {
                (0..columns)
                    .map(|i| {
                        row.get(i)
                            .map(|cell| cell.lines().map(escape::field).collect())
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect();
        // `│ a ┆ b │`: one border, then each column's padding, content and border.
        let budget = width.saturating_sub(1 + 3 * columns);
        let header_width = |i: usize| self.header.get(i).map_or(0, |h| text_width(h));
        let natural: Vec<usize> = (0..columns)
            .map(|i| {
                cells
                    .iter()
                    .flat_map(|row| row[i].iter())
                    .map(|line| text_width(line))
                    .chain([header_width(i)])
                    .max()
                    .unwrap_or(0)
                    .min(budget)
            })
            .collect();
        let floors: Vec<usize> = (0..columns)
            .map(|i| natural[i].min(MIN_COLUMN.max(header_width(i))))
            .collect();
        let widths = fit(&natural, &floors, self.flexible, budget);

        let mut table = comfy_table::Table::new();
        table
            .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(comfy_table::ContentArrangement::Disabled);
        table.set_header(
            (0..columns).map(|i| cut(self.header.get(i).map_or("", String::as_str), widths[i])),
        );
        for row in &cells {
            table.add_row(row.iter().zip(&widths).map(|(lines, &w)| {
                lines
                    .iter()
                    .map(|line| cut(line, w))
                    .collect::<Vec<_>>()
                    .join("\n")
            }));
        }
        format!("{table}\n")
    }
}

/// Column widths that add up to `budget` at most: the flexible column shrinks first, down to a
/// third of the budget (a description stays readable beside a long list of agents), then the
/// widest column, one step at a time, never below its floor.
fn fit(natural: &[usize], floors: &[usize], flexible: Option<usize>, budget: usize) -> Vec<usize> {
    let mut widths = natural.to_vec();
    let mut total: usize = widths.iter().sum();
    if let Some(f) = flexible.filter(|&f| f < widths.len())
        && total > budget
    {
        let keep = floors[f].max((budget / 3).min(natural[f]));
        let give = (total - budget).min(widths[f].saturating_sub(keep));
        widths[f] -= give;
        total -= give;
    }
    while total > budget {
        let Some((widest, _)) = widths
            .iter()
            .enumerate()
            .filter(|&(i, &w)| w > floors[i])
            .max_by_key(|&(i, &w)| (w, std::cmp::Reverse(i)))
        else {
            break;
        };
        widths[widest] -= 1;
        total -= 1;
    }
    widths
}

/// Display columns of `text` (a wide character counts two, a combining mark none).
pub fn text_width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// `text` cut to `max` display columns: at the last word boundary when one is in the second
/// half, else inside the word, with `…` in place of what was cut. Linear in the part read.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if max == 0 {
        return Cow::Borrowed("");
    }
    let budget = max - 1; // room for `…`
    let mut width = 0;
    let mut fits = 0; // bytes of the longest prefix within `budget`
    let mut word_end: Option<(usize, usize)> = None; // (bytes, width) before a space
    let mut previous_space = true;
    for (at, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        let space = c.is_whitespace();
        if space && !previous_space && width <= budget {
            word_end = Some((at, width));
        }
        previous_space = space;
        if width + w > max {
            let end = match word_end {
                Some((end, w)) if w * 2 >= budget => end,
                _ => fits,
            };
            let mut kept = text[..end].trim_end().to_owned();
            kept.push('…');
            return Cow::Owned(kept);
        }
        width += w;
        if width <= budget {
            fits = at + c.len_utf8();
        }
    }
    Cow::Borrowed(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_a_word_boundary() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("exactly ten", 11), "exactly ten");
        assert_eq!(cut("Extract text and tables", 14), "Extract text…");
        assert_eq!(cut("Extract text and tables", 13), "Extract text…");
        assert_eq!(cut("Extract text and tables", 12), "Extract…");
        // One long word is cut inside.
        assert_eq!(cut("https://example.com/a/long/path", 12), "https://exa…");
        // A word boundary too early is not worth it.
        assert_eq!(cut("a verylongwordthatgoeson", 12), "a verylongw…");
        assert_eq!(cut("anything", 1), "…");
        assert_eq!(cut("anything", 0), "");
    }

    #[test]
    fn measures_display_columns() {
        assert_eq!(text_width("字字"), 4);
        assert_eq!(cut("字字字字 字字", 7), "字字字…");
        assert_eq!(
            cut("e\u{301}e\u{301}e\u{301}", 3),
            "e\u{301}e\u{301}e\u{301}"
        );
    }

    #[test]
    fn a_megabyte_cell_is_cut_before_the_table() {
        let mut table = Table::new(&["Name", "Description"]).flexible(1);
        table.row(["pdf".to_owned(), "x".repeat(1 << 20)]);
        let text = table.boxed(80);
        assert!(text.lines().all(|l| text_width(l) <= 80), "{text}");
        assert!(text.contains('…'));
    }

    #[test]
    fn fits_the_width_flexible_column_first() {
        let mut table = Table::new(&["Name", "Path", "Description"]).flexible(2);
        table.row([
            "pdf",
            ".agents/skills/pdf",
            "Does pdf things. Use when asked.",
        ]);
        let text = table.boxed(50);
        for line in text.lines() {
            assert!(text_width(line) <= 50, "{line}");
        }
        assert!(text.contains(".agents/skills/pdf"), "{text}");
        assert!(text.contains("Does pdf things.…"), "{text}");
    }

    #[test]
    fn tsv_is_one_line_per_row() {
        let mut table = Table::new(&["A", "B"]);
        table.row(["one\ttab", "two\nlines\x1b[2J"]);
        assert_eq!(table.tsv(), "one tab\ttwo lines\\x1b[2J\n");
    }
}
