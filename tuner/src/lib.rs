//! hoplite-tuner: Texel tuning of the evaluation weights from self-play positions.

pub mod data;
pub mod fit;
pub mod tune;

pub use data::{load, Dataset, Loaded};
pub use tune::{tune, Fit, Start, TuneOptions, TuneReport};
