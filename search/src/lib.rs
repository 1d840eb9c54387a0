//! hoplite-search: evaluation (weights as data), alpha-beta search, UCI.

pub mod bench;
pub mod eval;
pub mod search;
pub mod tt;
pub mod uci;

pub use eval::{evaluate, features, Weights};
pub use search::{Info, Limits, Search, SearchResult, MATE, MATE_BOUND};
