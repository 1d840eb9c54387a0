//! Zobrist keys: random numbers per piece on a square, castling right, en passant square and
//! side to move, from the seeded mixer (`crate::seed`).

use crate::geometry::MAX_SQUARES;
use crate::seed::{mix64, GOLDEN};
use crate::types::{Colour, PieceType, Square, MAX_TYPES};

/// Random keys per (colour, type, square), castling right, e.p. square and side to move.
pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub castling: [u64; 4],
    pub en_passant: [u64; MAX_SQUARES],
    pub side: u64,
}

impl Zobrist {
    pub(crate) fn new() -> Zobrist {
        let mut state = GOLDEN;
        let mut next = move || {
            state = state.wrapping_add(GOLDEN);
            mix64(state)
        };
        Zobrist {
            pieces: (0..2 * MAX_TYPES * MAX_SQUARES).map(|_| next()).collect(),
            castling: std::array::from_fn(|_| next()),
            en_passant: std::array::from_fn(|_| next()),
            side: next(),
        }
    }
    /// The key of a wall on `sq`.
    pub fn wall(&self, sq: crate::types::Square) -> u64 {
        mix64(self.side ^ (0x1_0000 + sq.index() as u64).wrapping_mul(GOLDEN))
    }
    /// The key of side `colour` holding an `n`th piece (`n` from 1) of type `ty` in hand.
    #[inline(always)]
    pub fn hand(&self, colour: Colour, ty: PieceType, n: u8) -> u64 {
        let slot = (0x2_0000 + colour.index() * MAX_TYPES + ty.index()) as u64;
        mix64(self.side ^ (slot << 8 | n as u64).wrapping_mul(GOLDEN))
    }
    /// The key of side `colour` having `n` checks still to give (n-check).
    pub fn checks(&self, colour: crate::types::Colour, n: u8) -> u64 {
        mix64(self.side ^ ((colour.index() as u64) << 8 | n as u64).wrapping_mul(GOLDEN))
    }
    #[inline(always)]
    pub fn piece(&self, colour: Colour, ty: PieceType, sq: Square) -> u64 {
        self.pieces[(colour.index() * MAX_TYPES + ty.index()) * MAX_SQUARES + sq.index()]
    }
}
