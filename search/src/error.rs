//! The search crate's errors.

use hoplite_core::{FenError, MoveError, VariantError};
use thiserror::Error;

/// A weights file that cannot be used, naming file and line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightsError {
    #[error("cannot read weights file '{path}': {message}")]
    Read { path: String, message: String },
    #[error("{at}: {message}")]
    Toml { at: String, message: String },
    #[error("{at}: [side]: '{key}' is not one of {options}")]
    SideTerm { at: String, key: String, options: String },
    #[error("{at}: [{table}] is not a table of weights (one of {options}, side)")]
    Table { at: String, table: String, options: String },
    #[error("{at}: [{table}]: '{letter}' is not a piece letter of {variant}")]
    Letter { at: String, table: String, letter: String, variant: String },
}

/// A search parameters file that cannot be used, naming file and line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParamsError {
    #[error("cannot read parameters file '{path}': {message}")]
    Read { path: String, message: String },
    #[error("{at}: {message}")]
    Toml { at: String, message: String },
    #[error("{at}: {message}")]
    Value { at: String, message: String },
}

/// A UCI command that could not be carried out (reported as `info string error: ...`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UciError {
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    #[error("{command}: {message}")]
    Syntax { command: &'static str, message: String },
    #[error("{0}")]
    Variant(#[from] VariantError),
    #[error("{0}")]
    Fen(#[from] FenError),
    #[error("{0}")]
    Move(#[from] MoveError),
    #[error("{0}")]
    Weights(#[from] WeightsError),
    #[error("{0}")]
    Params(#[from] ParamsError),
    #[error("{0}")]
    Network(#[from] NetworkError),
}

/// A network file that cannot be used, naming the file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetworkError {
    #[error("cannot read network file '{path}': {message}")]
    Read { path: String, message: String },
    #[error("{path}: not a hoplite network file (it does not begin with HOPLNNUE)")]
    NotANetwork { path: String },
    #[error("{path}: network format version {found}; this hoplite reads version {expected}")]
    Version { path: String, found: u32, expected: u32 },
    #[error(
        "{path}: a network for another variant: made for {network} (fingerprint {found:016x}), \
         {variant} is {wanted} (fingerprint {expected:016x})"
    )]
    OtherVariant { path: String, network: String, found: u64, variant: String, wanted: String, expected: u64 },
    #[error("{path}: {what} is {found}; this hoplite has {expected}")]
    Architecture { path: String, what: &'static str, found: u64, expected: u64 },
    #[error("{path}: truncated inside its header")]
    ShortHeader { path: String },
    #[error("{path}: truncated or padded: {found} bytes, the header says {expected}")]
    Truncated { path: String, found: usize, expected: usize },
    #[error("{path}: damaged: the checksum does not match its contents")]
    Checksum { path: String },
    #[error("no network is shipped for {variant} (data/networks/ has one per built-in it was trained for; a variant that changes a piece has none): give a network file, or the linear evaluation")]
    NoneShipped { variant: String },
}
