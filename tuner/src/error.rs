//! What stops a tuning, each naming the file and line at fault.

use hoplite_formats::FormatError;
use hoplite_search::eval::network::NetworkError;
use hoplite_search::WeightsError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum TuneError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// A row whose position cannot be used.
    #[error("{path}:{line}: {message}")]
    Row { path: String, line: u64, message: String },
    #[error("the positions files hold no rows: nothing to tune")]
    NoRows,
    #[error("none of the {rows} rows could be used (first problem: {first})")]
    NothingUsable { rows: u64, first: String },
    #[error("all {rows} positions come from drawn games: they say nothing about piece values")]
    AllDrawn { rows: u64 },
    #[error("{variant} has {weights} weights: the tuner handles at most 65535")]
    TooManyWeights { variant: String, weights: usize },
    #[error("the ridge must be a number ≥ 0, not {0}")]
    Ridge(f64),
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// A network training setting out of its range.
    #[error("{0}")]
    TrainSetting(String),
    /// A run of games (a training's data or gauntlet) that failed.
    #[error(transparent)]
    Run(#[from] hoplite_selfplay::RunError),
    /// A checkpoint that cannot be resumed from.
    #[error("{path}: {message}")]
    Checkpoint { path: String, message: String },
}
