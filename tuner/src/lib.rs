//! hoplite-tuner: tuning, in one place: Texel tuning of the evaluation weights from self-play
//! positions (`tune`), SPSA of search parameters and weights by games (`spsa`), and the
//! training of networks (NNUE) from packed positions (`network`).
#![forbid(unsafe_code)]

pub mod data;
pub mod error;
pub mod fit;
pub mod network;
pub mod spsa;
pub mod tune;

pub use data::{load, Dataset, Loaded};
pub use error::TuneError;
pub use network::{train, EpochRow, Progress, TrainConfig, TrainReport};
pub use tune::{tune, Fit, Start, TuneOptions, TuneReport};
