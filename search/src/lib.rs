//! hoplite-search: the evaluation behind one front door (`eval`: the linear evaluation, weights
//! as data), the alpha-beta search (`search`) and its parameters, what a search may spend
//! (`budget`), the transposition table, the UCI front end and the bench.
#![forbid(unsafe_code)]

pub mod bench;
pub mod budget;
pub mod error;
pub mod eval;
pub mod params;
pub mod score;
pub mod search;
pub mod tt;
pub mod uci;

pub use budget::{Budget, Clock};
pub use error::{ParamsError, UciError, WeightsError};
pub use eval::linear::{evaluate, features, Weights};
pub use eval::Evaluator;
pub use params::{ParamSpec, SearchParams, PARAMS};
pub use score::{MATE, MATE_BOUND};
pub use search::{Info, Search, SearchResult};
