//! hoplite-core: the rules of chess variants as data. Two rooms: `variant` (a variant file
//! read, its Betza pieces parsed, compiled into attack tables, rules, a start placement and
//! Zobrist keys: `Variant`; the registry of built-ins) and `position` (a `Position` of a
//! variant: FEN, legal moves, make and unmake, SAN, game ends, perft), on the shared
//! vocabulary of typed values, bitboards (on `u128`, or `u64` where the board fits), the
//! board's geometry and the errors; `load` finds a variant by name or path and checks its
//! start position, so it stands beside both rooms.
//!
//! ```
//! use hoplite_core::{Position, Variant};
//!
//! let chess = Variant::builtin("chess");
//! let mut pos = Position::startpos(&chess);
//! let mut moves = Vec::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 20);
//! assert_eq!(hoplite_core::perft(&mut pos, 3), 8_902);
//!
//! // A variant is data: Spartan chess, from its TOML file, with two kings a side.
//! let spartan = Variant::load("spartan").unwrap();
//! let mut pos = Position::startpos(&spartan);
//! pos.make(pos.parse_uci("e2e4").unwrap());
//! assert_eq!(pos.to_fen().split(' ').nth(1), Some("b"));
//! ```
#![forbid(unsafe_code)]

mod bitboard;
pub mod error;
mod geometry;
mod load;
mod position;
pub mod seed;
pub mod toml_text;
mod types;
mod variant;

pub use bitboard::{Bitboard, Bits};
pub use error::{FenError, FenErrorKind, MoveError, SetupError, VariantError};
pub use geometry::{Geometry, MAX_SIDE, MAX_SQUARES};
pub use position::moves::{Move, MoveKind};
pub use position::outcome::{GameResult, Termination};
pub use position::perft::{divide, parse_suite, perft, perft_in, SuiteLine};
pub use position::{Changes, HandChange, Job, PieceList, Position};
pub use types::{Colour, PieceType, Square, TypeIter, TypeSet, MAX_TYPES};
pub use variant::betza;
pub use variant::builtins::{
    builtin, builtin_names, fsf_builtin_names, is_builtin, shipped_network, Builtin, BUILTINS,
};
pub use variant::setup::{Placed, Setup};
pub use variant::zobrist::Zobrist;
pub use variant::{
    Attackers, BareKing, Castling, EndValue, Extinction, Flag, MaterialCounting, OpeningMode, OpeningMove, PieceDef,
    PseudoRoyal, Rules, Variant, Walling,
};
