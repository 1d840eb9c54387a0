//! `Bitboard`: a set of squares on a board of at most 128 squares.

use crate::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// One bit per square, square index `rank * files + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    #[inline(always)]
    pub const fn square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn non_empty(self) -> bool {
        self.0 != 0
    }
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as usize)
    }
    /// Highest square; the set must not be empty.
    #[inline(always)]
    pub const fn msb(self) -> Square {
        Square::new(127 - self.0.leading_zeros() as usize)
    }
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(it: I) -> Bitboard {
        it.into_iter().fold(Bitboard::EMPTY, |b, sq| b | Bitboard::square(sq))
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_across_both_halves() {
        let [a, b, c] = [3, 64, 120].map(Square::new);
        let bb = Bitboard::square(a) | Bitboard::square(b) | Bitboard::square(c);
        assert_eq!(bb.collect::<Vec<_>>(), vec![a, b, c]);
        assert_eq!(bb.lsb(), a);
        assert_eq!(bb.msb(), c);
        assert!(bb.more_than_one());
        assert!(!Bitboard::square(Square::new(127)).more_than_one());
    }
}
