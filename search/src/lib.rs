//! hoplite-search: evaluation (weights as data), alpha-beta search, UCI.
#![forbid(unsafe_code)]

pub mod bench;
pub mod budget;
mod continuation;
mod correction;
pub mod error;
pub mod eval;
mod eval_cache;
pub mod params;
pub mod score;
pub mod search;
pub mod tt;
pub mod tuned;
pub mod uci;

pub use budget::{Budget, Clock};
pub use error::{ParamsError, UciError, WeightsError};
pub use eval::{evaluate, features, Weights};
pub use params::{ParamSpec, SearchParams, PARAMS};
pub use score::{MATE, MATE_BOUND};
pub use search::{Info, Search, SearchResult};
