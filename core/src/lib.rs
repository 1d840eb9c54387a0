//! hoplite-core: bitboards on `u128`, Betza pieces, variants as data, legal moves, perft.
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

pub use bitboard::Bitboard;
pub use error::{FenError, FenErrorKind, MoveError, SetupError, VariantError};
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};
pub use outcome::{GameResult, Termination};
pub use position::Position;
pub use setup::{Placed, Setup};
pub use types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
pub use variant::{PieceDef, Variant};
