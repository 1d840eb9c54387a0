//! `Bitboard`: a set of squares on a board of at most 128 squares, in a `u128`, or in a `u64`
//! where the board has at most 64 (the search's and perft's narrow path: half the width of
//! every operation on the squares, the same results).

use crate::types::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The integer a bitboard is kept in: `u128` for any board, `u64` for one of at most 64 squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    const ZERO: Self;
    /// The squares it holds.
    const SQUARES: usize;
    fn bit(index: usize) -> Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    /// `self` without its lowest bit.
    fn clear_lowest(self) -> Self;
    /// The low bits of a `u128` set (the squares of a board that fits).
    fn from_wide(wide: u128) -> Self;
    fn to_wide(self) -> u128;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            const SQUARES: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn bit(index: usize) -> $t {
                1 << index
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn from_wide(wide: u128) -> $t {
                wide as $t
            }
            #[inline(always)]
            fn to_wide(self) -> u128 {
                self as u128
            }
        }
    };
}
bits!(u64);
bits!(u128);

/// One bit per square, square index `rank * files + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<B = u128>(pub B);

impl<B: Bits> Bitboard<B> {
    pub const EMPTY: Bitboard<B> = Bitboard(B::ZERO);

    #[inline(always)]
    pub fn square(sq: Square) -> Bitboard<B> {
        Bitboard(B::bit(sq.index()))
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == B::ZERO
    }
    #[inline(always)]
    pub fn non_empty(self) -> bool {
        self.0 != B::ZERO
    }
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        (self.0 & B::bit(sq.index())) != B::ZERO
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Lowest square; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as usize)
    }
    /// Highest square; the set must not be empty.
    #[inline(always)]
    pub fn msb(self) -> Square {
        Square::new(B::SQUARES - 1 - self.0.leading_zeros() as usize)
    }
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0.clear_lowest() != B::ZERO
    }
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 = self.0 | B::bit(sq.index());
    }
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 = self.0 & !B::bit(sq.index());
    }
    /// The same squares in the full width.
    #[inline(always)]
    pub fn wide(self) -> Bitboard {
        Bitboard(self.0.to_wide())
    }
}

impl Bitboard {
    /// The same squares in width `B`, which must hold the board's (a variant's tables are kept
    /// in `u128` and read this way on the narrow path: a load of their low half).
    #[inline(always)]
    pub fn to<B: Bits>(self) -> Bitboard<B> {
        Bitboard(B::from_wide(self.0))
    }
}

impl<B: Bits> Iterator for Bitboard<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            let sq = self.lsb();
            self.0 = self.0.clear_lowest();
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> FromIterator<Square> for Bitboard<B> {
    fn from_iter<I: IntoIterator<Item = Square>>(it: I) -> Bitboard<B> {
        it.into_iter().fold(Bitboard::EMPTY, |b, sq| b | Bitboard::square(sq))
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<B: Bits> $tr for Bitboard<B> {
            type Output = Bitboard<B>;
            #[inline(always)]
            fn $f(self, o: Bitboard<B>) -> Bitboard<B> {
                Bitboard(self.0 $op o.0)
            }
        }
        impl<B: Bits> $tra for Bitboard<B> {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard<B>) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<B: Bits> Not for Bitboard<B> {
    type Output = Bitboard<B>;
    #[inline(always)]
    fn not(self) -> Bitboard<B> {
        Bitboard(!self.0)
    }
}

impl<B: Bits> std::fmt::Debug for Bitboard<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard({:#x})", self.0.to_wide())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order_across_both_halves() {
        let [a, b, c] = [3, 64, 120].map(Square::new);
        let bb: Bitboard = Bitboard::square(a) | Bitboard::square(b) | Bitboard::square(c);
        assert_eq!(bb.collect::<Vec<_>>(), vec![a, b, c]);
        assert_eq!(bb.lsb(), a);
        assert_eq!(bb.msb(), c);
        assert!(bb.more_than_one());
        assert!(!Bitboard::<u128>::square(Square::new(127)).more_than_one());
    }

    #[test]
    fn the_narrow_width_holds_the_low_64_squares_alike() {
        let [a, b] = [0, 63].map(Square::new);
        let wide: Bitboard = Bitboard::square(a) | Bitboard::square(b);
        let narrow: Bitboard<u64> = wide.to();
        assert_eq!(narrow.collect::<Vec<_>>(), vec![a, b]);
        assert_eq!((narrow.lsb(), narrow.msb(), narrow.count()), (a, b, 2));
        assert_eq!(narrow.wide(), wide);
        assert_eq!(!narrow & Bitboard::square(b), Bitboard::EMPTY);
    }
}
