//! What can stop a run, each naming the file, line or argument at fault.

use crate::player::PlayerError;
use hoplite_core::{FenError, VariantError};
use hoplite_formats::FormatError;
use hoplite_search::WeightsError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("{0}")]
    Variant(#[from] VariantError),
    #[error("{0}")]
    Weights(#[from] WeightsError),
    #[error("{path}:{line}: {message}")]
    Book { path: String, line: usize, message: String },
    #[error("book '{0}' has no positions")]
    EmptyBook(String),
    #[error("{at}: {message}")]
    Config { at: String, message: String },
    #[error("{dir} already holds a run (games.csv); pass --resume to continue it, or choose another --out")]
    Exists { dir: String },
    #[error("{path}: the run was started with other arguments; resume with the same ones:\n{diff}")]
    Changed { path: String, diff: String },
    #[error("{0}")]
    Merge(String),
    #[error("cannot start {threads} threads: {message}")]
    Threads { threads: usize, message: String },
    #[error("player '{name}': {error}")]
    Player { name: String, error: PlayerError },
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Fen(#[from] FenError),
    #[error("player '{name}' gave no score for {fen}: a label needs one (an engine that reports `info ... score`)")]
    NoScore { name: String, fen: String },
}
