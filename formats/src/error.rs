//! Errors reading or writing a run's files: each names the file, and the line where there is one.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum FormatError {
    #[error("{path}: cannot {action}: {message}")]
    Io { path: String, action: &'static str, message: String },
    #[error("{path}:{line}: {message}")]
    Row { path: String, line: u64, message: String },
    #[error("{path}:{line}: no '{column}' column (expected {expected})")]
    Header { path: String, line: u64, column: String, expected: String },
    #[error("{at}: {message}")]
    Toml { at: String, message: String },
}

impl FormatError {
    pub fn io(path: &std::path::Path, action: &'static str, e: impl std::fmt::Display) -> FormatError {
        FormatError::Io { path: path.display().to_string(), action, message: e.to_string() }
    }
}
