//! hoplite-formats: every file a run writes or reads, as a serde type: run.toml (the
//! manifest), games.csv, positions.csv, summary.csv, match.csv, sprt.csv and the tuner's
//! loss and values files, the path of an SPSA run. Writers and readers both go through these types, so a column is
//! named in one place, and the numbers keep a fixed number of decimals (`Decimal`).
#![forbid(unsafe_code)]

pub mod csvfile;
pub mod decimal;
pub mod engines;
pub mod error;
pub mod manifest;
pub mod packed;
pub mod records;
pub mod spsa;
pub mod tune;

pub use decimal::Decimal;
pub use error::FormatError;
pub use manifest::{Manifest, PlayerRecord, RunKind};
pub use records::{
    GameRow, MatchRow, PackedIndexRow, PositionRow, SprtRow, SprtVerdict, SummaryRow, ValueRow, WhiteScore,
};

/// The files of a run directory.
pub const GAMES: &str = "games.csv";
pub const POSITIONS: &str = "positions.csv";
/// Training positions for a network (`packed`), and each game's share of them.
pub const PACKED: &str = "positions.bin";
pub const PACKED_INDEX: &str = "positions-index.csv";
pub const SUMMARY: &str = "summary.csv";
pub const PGN: &str = "games.pgn";
pub const MANIFEST: &str = "run.toml";
pub const MATCH: &str = "match.csv";
pub const SPRT: &str = "sprt.csv";
pub const VALUES: &str = "values.csv";
/// The files of a `hoplite train` directory: a row a round, and each round's loss curve
/// (`tune::RoundRow`, `tune::EpochRow`).
pub const ROUNDS: &str = "rounds.csv";
pub const CURVE: &str = "loss.csv";
