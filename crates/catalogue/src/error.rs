//! One error type for the library, with messages written for the person at the terminal.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug)]
pub enum Error {
    /// No usable source: no snapshot, or one the reader cannot interpret (content/method.md#unavailable).
    /// Distinct from an empty answer, which is a success.
    SourceUnavailable { what: String, fix: String },
    /// A filter value that cannot be used: the message says which and what is expected
    /// (made by `method::query::FilterError`, which converts into this).
    Filter(String),
    /// Reading or writing a file failed.
    Io { path: PathBuf, source: std::io::Error },
    /// A file is not valid JSON, or not of the expected shape.
    Input { path: PathBuf, message: String },
    /// A content file (pattern list, segment rules, asset table) is malformed.
    Content { file: String, line: usize, message: String },
    /// Refused to do something that would lose or overwrite data.
    Refused(String),
    /// A page template failed to render (a bug in a template, never bad input).
    Template(String),
    /// The preview server could not listen on its port.
    Listen(String),
    /// A catalogue walk failed or was incomplete; nothing was stored.
    Walk(String),
}

impl Error {
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Error {
        Error::Io { path: path.as_ref().to_path_buf(), source }
    }

    pub fn input(path: impl AsRef<Path>, message: impl Into<String>) -> Error {
        Error::Input { path: path.as_ref().to_path_buf(), message: message.into() }
    }

    pub fn content(file: &str, line: usize, message: &str) -> Error {
        Error::Content { file: file.to_owned(), line, message: message.to_owned() }
    }

    /// What would fix the error, where the error knows (SOURCE_UNAVAILABLE does).
    pub fn fix(&self) -> Option<&str> {
        match self {
            Error::SourceUnavailable { fix, .. } => Some(fix),
            _ => None,
        }
    }

    /// The error without its code prefix or fix: for structured output.
    pub fn message(&self) -> String {
        match self {
            Error::SourceUnavailable { what, .. } => what.clone(),
            other => other.to_string(),
        }
    }

    /// The code an answer envelope or exit status uses for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::SourceUnavailable { .. } => "SOURCE_UNAVAILABLE",
            Error::Filter(_) => "INVALID_FILTER",
            Error::Io { .. } => "IO_ERROR",
            Error::Input { .. } => "INVALID_INPUT",
            Error::Content { .. } => "INVALID_CONTENT",
            Error::Refused(_) => "REFUSED",
            Error::Template(_) => "TEMPLATE_FAILED",
            Error::Listen(_) => "LISTEN_FAILED",
            Error::Walk(_) => "WALK_FAILED",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::SourceUnavailable { what, fix } => write!(f, "SOURCE_UNAVAILABLE: {what}; {fix}"),
            Error::Filter(e) => write!(f, "{e}"),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Input { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Content { file, line: 0, message } => write!(f, "{file}: {message}"),
            Error::Content { file, line, message } => write!(f, "{file}:{line}: {message}"),
            Error::Refused(message) | Error::Listen(message) => write!(f, "{message}"),
            Error::Template(message) => write!(f, "template failed: {message}"),
            Error::Walk(message) => write!(f, "walk failed: {message}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
