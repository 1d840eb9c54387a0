//! Zobrist keys, and the one 64-bit mixer (splitmix64) everything seeded in hoplite uses.

use crate::types::{Colour, PieceType, Square, MAX_TYPES};

/// The splitmix64 finaliser: a well-spread 64-bit hash of `x` (Steele, Lea and Flood 2014).
#[inline]
pub fn mix64(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The golden-ratio increment of splitmix64.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Random keys per (colour, type, square), castling right, e.p. square and side to move.
pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub castling: [u64; 4],
    pub en_passant: [u64; 128],
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
            pieces: (0..2 * MAX_TYPES * 128).map(|_| next()).collect(),
            castling: std::array::from_fn(|_| next()),
            en_passant: std::array::from_fn(|_| next()),
            side: next(),
        }
    }
    /// The key of a wall on `sq`.
    pub fn wall(&self, sq: crate::types::Square) -> u64 {
        mix64(self.side ^ (0x1_0000 + sq.index() as u64).wrapping_mul(GOLDEN))
    }
    /// The key of side `colour` having `n` checks still to give (n-check).
    pub fn checks(&self, colour: crate::types::Colour, n: u8) -> u64 {
        mix64(self.side ^ ((colour.index() as u64) << 8 | n as u64).wrapping_mul(GOLDEN))
    }
    #[inline(always)]
    pub fn piece(&self, colour: Colour, ty: PieceType, sq: Square) -> u64 {
        self.pieces[(colour.index() * MAX_TYPES + ty.index()) * 128 + sq.index()]
    }
}
