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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read `a.txt`: denied")]
    struct Outer {
        #[source]
        source: std::io::Error,
    }

    #[test]
    fn a_cause_is_printed_even_when_the_message_contains_its_text() {
        // The old chain dropped any cause whose text the message contained.
        let err = Outer {
            source: std::io::Error::other("denied"),
        };
        assert_eq!(one_line(&err), "cannot read `a.txt`: denied: denied");
    }

    #[test]
    fn wrappers_that_show_their_inner_error_go_on_with_its_cause() {
        let inner = crate::install::InstallError::Read {
            path: "x/SKILL.md".into(),
            source: std::io::Error::other("boom"),
        };
        let err = crate::install::SkillError::new("x", inner);
        assert_eq!(
            one_line(&err),
            "cannot install `x`: cannot read `x/SKILL.md` from the source: boom"
        );
        assert!(err.hint().is_none());
        let limit = crate::install::InstallError::TooManyFiles { limit: 3 };
        let err = crate::install::SkillError::new("x", limit);
        assert_eq!(
            one_line(&err),
            "cannot install `x`: the skill has more than 3 files"
        );
        assert_eq!(
            err.hint().as_deref(),
            Some("raise the limit with `--max-files` if you trust this skill")
        );
    }
}
