//! What an error of `skills` says besides its message: a next step for the user, and the whole
//! chain on one line.
//!
//! Every concept error implements [`Hint`]; `error::Error` asks its inner error, and the
//! `Printer` prints the hint after the `caused by:` lines. A message never repeats its source's
//! text: a type whose `Display` includes the cause does not also return it from `source()`, so
//! the chain is printed as it is, with no de-duplication.

/// A next step for the user, where one helps.
pub trait Hint: std::error::Error {
    fn hint(&self) -> Option<String> {
        None
    }
}

/// The error chain of `err` on one line: ``cannot reach `x`: connection refused``.
pub fn one_line(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
