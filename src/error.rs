//! The top-level error and the exit status.
//!
//! Each concept has its own error type, with its hint ([`Hint`]); this enum wraps each through
//! `#[from]` so that `run` renders any failure the same way, once: `error: …`, `  caused by: …`
//! for each source, then `hint: …` when one helps.

use std::io;
use std::process::ExitCode;

use crate::hint::Hint;

/// How a command ended. `Failure` is an expected "no" (lint errors, drift, a frozen mismatch);
/// `Error` is usage, I/O, network or an internal error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    Failure,
    Error,
    /// The user cancelled a question (esc in a picker): 130, as a shell reports ctrl-c and as
    /// fzf and gum report esc.
    Cancelled,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        match status {
            ExitStatus::Success => ExitCode::SUCCESS,
            ExitStatus::Failure => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
            ExitStatus::Cancelled => ExitCode::from(130),
        }
    }
}

/// Every failure a command can end with: one variant per concept error, each with its hint.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O error; `fs_err` already names the path in the message.
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Index(#[from] crate::index::IndexError),
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    #[error(transparent)]
    Project(#[from] crate::project::ProjectError),
    #[error(transparent)]
    Source(#[from] crate::source::grammar::SourceError),
    #[error(transparent)]
    Open(#[from] crate::source::open::OpenError),
    #[error(transparent)]
    Fetch(#[from] crate::source::git::FetchError),
    #[error(transparent)]
    Web(#[from] crate::source::web::WebError),
    #[error(transparent)]
    Http(#[from] crate::source::http::HttpError),
    #[error(transparent)]
    Install(#[from] crate::install::SkillError),
    /// Placing or reading installed folders, not tied to one skill (an agent dir that leads
    /// out of the project).
    #[error(transparent)]
    Placement(#[from] crate::install::InstallError),
    #[error(transparent)]
    Transaction(#[from] crate::install::TransactionError),
    #[error(transparent)]
    PromptWrite(#[from] crate::prompt::write::WriteError),
    #[error(transparent)]
    Template(#[from] crate::prompt::template::TemplateError),
    #[error(transparent)]
    Serve(#[from] crate::mcp::ServeError),
    /// A failed search (`skills find`): the cause says how.
    #[error("the search failed")]
    Search(#[source] crate::source::http::HttpError),
    #[error(transparent)]
    Ask(#[from] crate::ask::AskError),
    #[error(transparent)]
    Offer(#[from] crate::offered::OfferError),
    #[error(transparent)]
    Gate(#[from] crate::gate::GateError),
    #[error(transparent)]
    UnknownRule(#[from] crate::lint::rules::UnknownRule),
    #[error(transparent)]
    Select(#[from] crate::upstream::SelectError),
    /// The answer is no, said as an error: printed like one, the exit status is 1 (local edits
    /// that `--force` would overwrite).
    #[error(transparent)]
    No(Box<Error>),
    /// An error of one command, with an optional hint and an optional cause (never a copy of
    /// the cause's message: that one is printed as the cause).
    #[error("{message}")]
    Message {
        message: String,
        hint: Option<String>,
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

impl From<crate::install::PipelineError> for Error {
    fn from(err: crate::install::PipelineError) -> Error {
        use crate::install::PipelineError;
        match err {
            PipelineError::Gate(err) => Error::Gate(err),
            PipelineError::Project(err) => Error::Project(err),
            PipelineError::Install(err) => Error::Install(err),
            PipelineError::Read(err) => Error::Placement(err),
            PipelineError::Transaction(err) => Error::Transaction(err),
        }
    }
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

    /// The cause of a message: context first (`cannot write x`), then the cause's own text.
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

    /// This error as an expected "no": exit status 1 instead of 2.
    #[must_use]
    pub fn answer_no(self) -> Self {
        Error::No(Box::new(self))
    }

    /// The exit status this error ends a run with.
    pub fn status(&self) -> ExitStatus {
        match self {
            Error::No(_) => ExitStatus::Failure,
            Error::Ask(crate::ask::AskError::Escaped) => ExitStatus::Cancelled,
            _ => ExitStatus::Error,
        }
    }

    /// The concept error inside, to ask for its hint.
    fn concept(&self) -> Option<&dyn Hint> {
        Some(match self {
            Error::Io(_) | Error::Json(_) | Error::Message { .. } => {
                return None;
            }
            Error::No(err) => err.as_ref(),
            Error::Index(err) => err,
            Error::Lock(err) => err,
            Error::Project(err) => err,
            Error::Source(err) => err,
            Error::Open(err) => err,
            Error::Fetch(err) => err,
            Error::Web(err) => err,
            Error::Http(err) | Error::Search(err) => err,
            Error::Install(err) => err,
            Error::Placement(err) => err,
            Error::Transaction(err) => err,
            Error::PromptWrite(err) => err,
            Error::Template(err) => err,
            Error::Serve(err) => err,
            Error::Ask(err) => err,
            Error::Offer(err) => err,
            Error::Gate(err) => err,
            Error::UnknownRule(err) => err,
            Error::Select(err) => err,
        })
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

impl Hint for Error {
    /// A suggestion for the user, printed after the error.
    fn hint(&self) -> Option<String> {
        match self {
            Error::Message { hint, .. } => hint.clone(),
            other => other.concept().and_then(Hint::hint),
        }
    }
}
