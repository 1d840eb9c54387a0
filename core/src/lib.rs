//! hoplite-core: bitboards on `u128`, Betza pieces, variants as data, legal moves, perft.

pub mod betza;
pub mod bitboard;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod san;
pub mod spec;
pub mod tables;
pub mod variant;

pub use bitboard::Bitboard;
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};
pub use outcome::{GameResult, Termination};
pub use position::{FenError, Position};
pub use variant::{Variant, VariantError, BLACK, WHITE};
