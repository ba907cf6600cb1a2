//! The top-level error and the exit status.
//!
//! Each concept has its own error type; this enum wraps them so that `run` renders any failure the
//! same way, once: `error: …`, `  caused by: …` for each source, then `hint: …` when one helps.

use std::io;
use std::process::ExitCode;

/// How a command ended. `Failure` is an expected "no" (lint errors, drift, a frozen mismatch);
/// `Error` is usage, I/O, network or an internal error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    Failure,
    Error,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        match status {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
        }
    }
}

/// The error chain of `err` on one line: ``cannot reach `x`: connection refused``.
pub fn one_line(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let message = cause.to_string();
        if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        source = cause.source();
    }
    text
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O error; `fs_err` already names the path in the message.
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    Index(#[from] crate::index::IndexError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A message of our own, with an optional hint.
    #[error("{message}")]
    Message {
        message: String,
        hint: Option<String>,
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

impl Error {
    pub fn msg(message: impl Into<String>) -> Self {
        Error::Message {
            message: message.into(),
            hint: None,
            source: None,
        }
    }

    #[must_use]
    pub fn with_hint(self, hint: impl Into<String>) -> Self {
        match self {
            Error::Message {
                message, source, ..
            } => Error::Message {
                message,
                hint: Some(hint.into()),
                source,
            },
            other => other,
        }
    }

    #[must_use]
    pub fn with_source(self, err: impl std::error::Error + Send + Sync + 'static) -> Self {
        match self {
            Error::Message { message, hint, .. } => Error::Message {
                message,
                hint,
                source: Some(Box::new(err)),
            },
            other => other,
        }
    }

    /// A suggestion for the user, printed after the error.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::Message { hint, .. } => hint.clone(),
            Error::Index(err) => err.hint(),
            Error::Io(_) | Error::Json(_) => None,
        }
    }

    /// Writing to a closed pipe (`skills prompt | head`) is how pipelines end, not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        // `transparent` variants hand out their inner error's *source*, so look at the inner one.
        if let Error::Io(err) = self {
            return err.kind() == io::ErrorKind::BrokenPipe;
        }
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(err) = source {
            if let Some(io) = err.downcast_ref::<io::Error>()
                && io.kind() == io::ErrorKind::BrokenPipe
            {
                return true;
            }
            source = err.source();
        }
        false
    }
}
