//! The `Printer`: the one owner of stdout and stderr.
//!
//! stdout carries data only (reports, tables, JSON, XML, JSON-RPC); messages, warnings, progress and
//! errors go to stderr. Color is decided once per stream from `--color`, `NO_COLOR` and whether the
//! stream is a terminal, and is never the only signal (every colored word is also spelled out).
//!
//! What reaches a terminal passes through here, and here control characters in it are escaped
//! ([`escape`]): every message on stderr, every table ([`Table`]), every human report
//! ([`Text`], whose only unescaped bytes are our own styles), and any document printed on an
//! interactive stdout. Documents for programs (`--json`, the prompt, SARIF) are written exactly
//! as they are when stdout is not a terminal; JSON never holds a raw control anyway
//! ([`crate::json`]).

use std::fmt::{Display, Write as _};
use std::io::{self, IsTerminal, Write};

use anstyle::{AnsiColor, Style};

use crate::hint::Hint;

pub mod escape;
mod table;

pub use escape::escape;
pub use table::{Table, cut, text_width};

pub const ERROR: Style = AnsiColor::Red.on_default().bold();
pub const WARNING: Style = AnsiColor::Yellow.on_default().bold();
pub const INFO: Style = AnsiColor::Cyan.on_default().bold();
pub const EMPHASIS: Style = Style::new().bold();
pub const DIM: Style = Style::new().dimmed();
pub const SUCCESS: Style = AnsiColor::Green.on_default().bold();

/// When to color output: `--color`, resolved against `NO_COLOR` and the terminal by [`Printer::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// What the printer is asked to do (the global flags, resolved in [`crate::settings`]).
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub quiet: bool,
    pub verbose: u8,
    pub color: ColorChoice,
    /// Progress bars allowed (not `--no-progress`); drawn only on an interactive stderr.
    pub progress: bool,
}

#[derive(Debug, Clone)]
pub struct Printer {
    quiet: bool,
    verbose: u8,
    stdout_color: bool,
    stderr_color: bool,
    stdout_terminal: bool,
    progress: bool,
}

impl Printer {
    pub fn new(global: &Options) -> Self {
        let no_color = std::env::var_os(crate::env_vars::NO_COLOR).is_some_and(|v| !v.is_empty());
        let decide = |is_terminal: bool| match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !no_color,
        };
        let stderr_tty = io::stderr().is_terminal();
        let stdout_tty = io::stdout().is_terminal();
        Printer {
            quiet: global.quiet,
            verbose: global.verbose,
            stdout_color: decide(stdout_tty),
            stderr_color: decide(stderr_tty),
            stdout_terminal: stdout_tty,
            progress: stderr_tty && !global.quiet && global.progress,
        }
    }

    /// A printer that prints nothing on stderr and no color: for library callers and tests.
    pub fn silent() -> Self {
        Printer {
            quiet: true,
            verbose: 0,
            stdout_color: false,
            stderr_color: false,
            stdout_terminal: false,
            progress: false,
        }
    }

    pub fn stdout_color(&self) -> bool {
        self.stdout_color
    }

    pub fn stderr_color(&self) -> bool {
        self.stderr_color
    }

    /// Whether progress bars may be drawn (interactive stderr, not quiet, not `--no-progress`).
    pub fn progress(&self) -> bool {
        self.progress
    }

    pub fn is_verbose(&self) -> bool {
        self.verbose > 0
    }

    /// The data stream. Callers propagate write errors so that a closed pipe ends the run quietly.
    pub fn out(&self) -> io::StdoutLock<'static> {
        io::stdout().lock()
    }

    /// Whether stdout is a terminal (tables are drawn for a person, else printed for a program).
    pub fn stdout_terminal(&self) -> bool {
        self.stdout_terminal
    }

    /// Writes a whole data document to stdout: exactly, for a program; with its control
    /// characters escaped when stdout is a terminal.
    pub fn data(&self, text: &str) -> io::Result<()> {
        if self.stdout_terminal {
            self.write_out(&escape(text))
        } else {
            self.write_out(text)
        }
    }

    /// Writes human text without styles to stdout (a plan, a report), its controls escaped.
    pub fn plain(&self, text: &str) -> io::Result<()> {
        self.write_out(&escape(text))
    }

    /// Writes a human report to stdout (escaped as it was built).
    pub fn text(&self, text: &Text) -> io::Result<()> {
        self.write_out(&text.buf)
    }

    /// An empty human report in stdout's colors.
    pub fn report(&self) -> Text {
        Text::new(self.stdout_color)
    }

    /// Writes `table` to stdout: fitted to the terminal, or one tab-separated line per row.
    pub fn table(&self, table: &Table) -> io::Result<()> {
        if self.stdout_terminal {
            self.write_out(&table.boxed(terminal_width()))
        } else {
            self.write_out(&table.tsv())
        }
    }

    fn write_out(&self, text: &str) -> io::Result<()> {
        let mut out = self.out();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(())
    }

    /// `text` in `style` when stderr is colored.
    pub fn paint_err(&self, style: Style, text: impl Display) -> String {
        paint(self.stderr_color, style, text)
    }

    /// A status line on stderr (`Installed 3 skills …`), silenced by `-q`.
    pub fn status(&self, message: impl Display) {
        if !self.quiet {
            let message = message.to_string();
            let _ = writeln!(io::stderr().lock(), "{}", escape(&message));
        }
    }

    /// `warning: …` on stderr, silenced by `-q`.
    pub fn warn(&self, message: impl Display) {
        if !self.quiet {
            self.labelled(WARNING, "warning", message);
        }
    }

    /// `hint: …` on stderr, silenced by `-q`.
    pub fn hint(&self, message: impl Display) {
        if !self.quiet {
            self.labelled(INFO, "hint", message);
        }
    }

    /// `label: message` on stderr, the message escaped, then the label painted.
    fn labelled(&self, style: Style, label: &str, message: impl Display) {
        let message = message.to_string();
        let label = self.paint_err(style, label);
        let _ = writeln!(io::stderr().lock(), "{label}: {}", escape(&message));
    }

    /// `hint: …` on stderr for each distinct hint of `errors` (after their warnings), silenced
    /// by `-q`.
    pub fn hints<'a>(&self, errors: impl IntoIterator<Item = &'a dyn Hint>) {
        let mut seen: Vec<String> = Vec::new();
        for hint in errors.into_iter().filter_map(Hint::hint) {
            if !seen.contains(&hint) {
                seen.push(hint);
            }
        }
        for hint in seen {
            self.hint(hint);
        }
    }

    /// Details shown only with `-v`.
    pub fn debug(&self, message: impl Display) {
        if self.verbose > 0 {
            self.labelled(DIM, "debug", message);
        }
    }

    /// The one place errors are printed: `error: …`, `  caused by: …`, then `hint: …`.
    /// Each cause is printed as it is: no message repeats its source's (see `hint`).
    pub fn error(&self, err: &dyn Hint) {
        let message = err.to_string();
        let mut text = format!("{}: {}\n", self.paint_err(ERROR, "error"), escape(&message));
        let mut source = err.source();
        while let Some(cause) = source {
            let cause_text = cause.to_string();
            let _ = writeln!(text, "  caused by: {}", escape(&cause_text));
            source = cause.source();
        }
        if let Some(hint) = err.hint() {
            let label = self.paint_err(INFO, "hint");
            let _ = write!(text, "\n{label}: {}\n", escape(&hint));
        }
        let _ = io::Write::write_all(&mut io::stderr().lock(), text.as_bytes());
    }
}

/// Wraps `text` in ANSI codes of `style` when `color` is on.
pub fn paint(color: bool, style: Style, text: impl Display) -> String {
    if color {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// The width tables are fitted to on a terminal: `COLUMNS` when set, else the terminal's, else 80.
pub fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(|| {
            dialoguer::console::Term::stdout()
                .size_checked()
                .map(|(_, cols)| usize::from(cols))
        })
        .unwrap_or(80)
}

/// A human report for a terminal: everything written into it (`write!`) is escaped; only
/// [`Text::styled`] adds bytes that are not, and those are our own styles.
#[derive(Debug, Default)]
pub struct Text {
    buf: String,
    color: bool,
}

impl Text {
    pub fn new(color: bool) -> Text {
        Text {
            buf: String::new(),
            color,
        }
    }

    /// Appends `text`, escaped, in `style` when color is on.
    pub fn styled(&mut self, style: Style, text: impl Display) -> &mut Text {
        let text = text.to_string();
        if self.color {
            let _ = write!(self.buf, "{style}");
            escape::push_escaped(&mut self.buf, &text);
            let _ = write!(self.buf, "{style:#}");
        } else {
            escape::push_escaped(&mut self.buf, &text);
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The text as it will be printed.
    pub fn as_str(&self) -> &str {
        &self.buf
    }
}

impl std::fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        escape::push_escaped(&mut self.buf, s);
        Ok(())
    }
}

/// `text` on one line (runs of whitespace, line breaks included, become one space), cut to at
/// most `max` characters.
pub fn single_line(text: &str, max: usize) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.char_indices().nth(max) {
        Some((cut, _)) => joined[..cut].to_owned(),
        None => joined,
    }
}

/// A progress bar on stderr in the house style; `template` is indicatif's.
pub fn progress_bar(template: &str, message: &str, length: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(length);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // A source's URL (from a lockfile, say) is shown as it is, not obeyed.
    bar.set_message(escape(message).into_owned());
    bar
}
