//! hoplite-search: the evaluation behind one front door (`eval`: the linear evaluation, weights
//! as data), the alpha-beta search (`search`) and its parameters, what a search may spend
//! (`budget`), the transposition table, the UCI front end and the bench.
//!
//! ```
//! use hoplite_core::{Position, Variant};
//! use hoplite_search::{Budget, Search, Weights, MATE_BOUND};
//!
//! let chess = Variant::builtin("chess");
//! // White mates on the back rank.
//! let mut pos = Position::from_fen(&chess, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
//! let result = Search::new(Weights::for_variant(&chess), 1).search(&mut pos, Budget::depth(3));
//! assert_eq!(pos.move_to_uci(result.best.unwrap()), "a1a8");
//! assert!(result.score > MATE_BOUND);
//! ```
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
pub use eval::{EvalKind, Evaluator};
pub use params::{ParamSpec, SearchParams, PARAMS};
pub use score::{MATE, MATE_BOUND};
pub use search::{Info, Search, SearchResult};
