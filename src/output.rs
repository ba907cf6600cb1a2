//! The `Printer`: the one owner of stdout and stderr.
//!
//! stdout carries data only (reports, tables, JSON, XML, JSON-RPC); messages, warnings, progress and
//! errors go to stderr. Color is decided once per stream from `--color`, `NO_COLOR` and whether the
//! stream is a terminal, and is never the only signal (every colored word is also spelled out).

use std::fmt::{Display, Write as _};
use std::io::{self, IsTerminal, Write};

use anstyle::{AnsiColor, Style};

use crate::cli::{ColorChoice, GlobalArgs};
use crate::hint::Hint;

pub const ERROR: Style = AnsiColor::Red.on_default().bold();
pub const WARNING: Style = AnsiColor::Yellow.on_default().bold();
pub const INFO: Style = AnsiColor::Cyan.on_default().bold();
pub const EMPHASIS: Style = Style::new().bold();
pub const DIM: Style = Style::new().dimmed();
pub const SUCCESS: Style = AnsiColor::Green.on_default().bold();

#[derive(Debug, Clone)]
pub struct Printer {
    quiet: bool,
    verbose: u8,
    stdout_color: bool,
    stderr_color: bool,
    progress: bool,
}

impl Printer {
    pub fn new(global: &GlobalArgs) -> Self {
        let no_color = std::env::var_os(crate::env_vars::NO_COLOR).is_some_and(|v| !v.is_empty());
        let decide = |is_terminal: bool| match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !no_color,
        };
        let stderr_tty = io::stderr().is_terminal();
        Printer {
            quiet: global.quiet,
            verbose: global.verbose,
            stdout_color: decide(io::stdout().is_terminal()),
            stderr_color: decide(stderr_tty),
            progress: stderr_tty && !global.quiet && !global.no_progress,
        }
    }

    /// A printer that prints nothing on stderr and no color: for library callers and tests.
    pub fn silent() -> Self {
        Printer {
            quiet: true,
            verbose: 0,
            stdout_color: false,
            stderr_color: false,
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

    /// Writes a whole data document to stdout.
    pub fn data(&self, text: &str) -> io::Result<()> {
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
            let _ = writeln!(io::stderr().lock(), "{message}");
        }
    }

    /// `warning: …` on stderr, silenced by `-q`.
    pub fn warn(&self, message: impl Display) {
        if !self.quiet {
            let label = self.paint_err(WARNING, "warning");
            let _ = writeln!(io::stderr().lock(), "{label}: {message}");
        }
    }

    /// `hint: …` on stderr, silenced by `-q`.
    pub fn hint(&self, message: impl Display) {
        if !self.quiet {
            let label = self.paint_err(INFO, "hint");
            let _ = writeln!(io::stderr().lock(), "{label}: {message}");
        }
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
            let label = self.paint_err(DIM, "debug");
            let _ = writeln!(io::stderr().lock(), "{label}: {message}");
        }
    }

    /// The one place errors are printed: `error: …`, `  caused by: …`, then `hint: …`.
    /// Each cause is printed as it is: no message repeats its source's (see `hint`).
    pub fn error(&self, err: &dyn Hint) {
        let mut text = format!("{}: {err}\n", self.paint_err(ERROR, "error"));
        let mut source = err.source();
        while let Some(cause) = source {
            let _ = writeln!(text, "  caused by: {cause}");
            source = cause.source();
        }
        if let Some(hint) = err.hint() {
            let _ = write!(text, "\n{}: {hint}\n", self.paint_err(INFO, "hint"));
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

/// A table in the house style (condensed UTF-8 borders, wrapped to `COLUMNS` or the terminal).
pub fn table(header: &[&str]) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    if let Some(width) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<u16>().ok())
    {
        table.set_width(width);
    }
    table.set_header(header.iter().copied());
    table
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
    bar.set_message(message.to_owned());
    bar
}
