//! hoplite-tuner: Texel tuning of the evaluation weights from self-play positions.
#![forbid(unsafe_code)]

pub mod data;
pub mod error;
pub mod fit;
pub mod tune;

pub use data::{load, Dataset, Loaded};
pub use error::TuneError;
pub use tune::{tune, Fit, Start, TuneOptions, TuneReport};
