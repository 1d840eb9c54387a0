//! hoplite-core: bitboards on `u128` (on `u64` where the board fits), Betza pieces, variants as data, legal moves, perft.
#![forbid(unsafe_code)]

pub mod betza;
pub mod bitboard;
pub mod compile;
pub mod error;
pub mod geometry;
pub mod load;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod san;
pub mod setup;
pub mod spec;
pub mod tables;
pub mod types;
pub mod variant;
pub mod zobrist;

pub use bitboard::{Bitboard, Bits};
pub use error::{FenError, FenErrorKind, MoveError, SetupError, VariantError};
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};
pub use outcome::{GameResult, Termination};
pub use position::{Job, Position};
pub use setup::{Placed, Setup};
pub use types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
pub use variant::{PieceDef, Variant};
