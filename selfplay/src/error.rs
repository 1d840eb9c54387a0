//! What can stop a run, each naming the file, line or argument at fault, and why a player
//! could not answer.

use hoplite_core::{FenError, Termination, VariantError};
use hoplite_formats::FormatError;
use hoplite_search::WeightsError;
use std::time::Duration;
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
    #[error("{path}: {message}")]
    Packed { path: String, message: String },
    /// A file a resume continues holds what this run would not have written.
    #[error("{path}: {message}; a resume continues only its own run: remove what is not of it, or start again in another --out")]
    NotOfRun { path: String, message: String },
    #[error(
        "network {file}: the run in {dir} began with {was}, and it is now {now}; a resumed run plays \
         with the network it began with"
    )]
    NetworkChanged { file: String, dir: String, was: String, now: String },
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

/// Why a player could not answer: each ends the game against it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    #[error("it cannot play this game: {0}")]
    Setup(String),
    #[error("it returned no move in a position that has one")]
    NoMove,
    #[error("it played '{mv}', which is not a legal move here")]
    IllegalMove { mv: String },
    #[error("it refused a legal move: {message}")]
    Refused { message: String },
    #[error("{0}")]
    Crash(String),
    #[error("no answer within {0:.1?}")]
    Timeout(Duration),
    #[error("it gives no score of a position, so it cannot rank moves")]
    NoScore,
    /// An xboard engine gave the game up (`resign`): not a fault, a result.
    #[error("it resigned")]
    Resigned,
}

impl PlayerError {
    /// How a game that this failure ends is recorded.
    pub fn termination(&self) -> Termination {
        match self {
            PlayerError::NoMove | PlayerError::IllegalMove { .. } | PlayerError::Refused { .. } => {
                Termination::IllegalMove
            }
            PlayerError::Timeout(_) => Termination::Timeout,
            PlayerError::Resigned => Termination::Adjudication,
            PlayerError::Setup(_) | PlayerError::Crash(_) | PlayerError::NoScore => Termination::Crash,
        }
    }
}
