//! The domain's small values: `Colour`, `PieceType` (an index into a variant's pieces),
//! `TypeSet` and `Square`. Plain integers would mix them up unnoticed; these cost nothing
//! more (each is one byte or a `u32`, every method inlined) and index the tables kept per
//! colour, type and square directly.

use std::ops::{BitAnd, BitOr, Index, IndexMut, Not};

/// The most piece types a variant may have (a `TypeSet` has a bit for each, and a board cell
/// stores one in four bits).
pub const MAX_TYPES: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Colour {
    #[default]
    White = 0,
    Black = 1,
}

impl Colour {
    /// White, then Black.
    pub const BOTH: [Colour; 2] = [Colour::White, Colour::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// White for 0, Black for anything else.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Colour {
        if i == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }
    #[inline(always)]
    pub const fn opposite(self) -> Colour {
        Colour::from_index(1 - self.index())
    }
    /// "White" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
    /// +1 for White, -1 for Black: a score from White's view made this side's, and back.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        1 - 2 * self as i32
    }
}

impl Not for Colour {
    type Output = Colour;
    #[inline(always)]
    fn not(self) -> Colour {
        self.opposite()
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece type: an index into the variant's pieces (`Variant::piece`), below `MAX_TYPES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PieceType(u8);

impl PieceType {
    #[inline(always)]
    pub const fn new(index: usize) -> PieceType {
        debug_assert!(index < MAX_TYPES);
        PieceType(index as u8)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The first `n` types, in order.
    pub fn first(n: usize) -> impl ExactSizeIterator<Item = PieceType> + DoubleEndedIterator + Clone {
        (0..n).map(PieceType::new)
    }
}

/// A set of piece types, a bit each.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u32);

impl TypeSet {
    pub const EMPTY: TypeSet = TypeSet(0);
    /// Every type there can be.
    pub const ALL: TypeSet = TypeSet(u32::MAX);

    #[inline(always)]
    pub const fn single(t: PieceType) -> TypeSet {
        TypeSet(1 << t.0)
    }
    #[inline(always)]
    pub const fn contains(self, t: PieceType) -> bool {
        self.0 >> t.0 & 1 != 0
    }
    #[inline(always)]
    pub fn insert(&mut self, t: PieceType) {
        self.0 |= 1 << t.0;
    }
    /// This set and `t`.
    #[inline(always)]
    pub const fn with(self, t: PieceType) -> TypeSet {
        TypeSet(self.0 | 1 << t.0)
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// The types in increasing order.
    #[inline(always)]
    pub const fn iter(self) -> TypeIter {
        TypeIter(self.0)
    }
}

/// The types of a `TypeSet`, lowest first.
#[derive(Clone, Debug)]
pub struct TypeIter(u32);

impl Iterator for TypeIter {
    type Item = PieceType;
    #[inline(always)]
    fn next(&mut self) -> Option<PieceType> {
        if self.0 == 0 {
            return None;
        }
        let t = PieceType(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(t)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TypeIter {}

impl IntoIterator for TypeSet {
    type Item = PieceType;
    type IntoIter = TypeIter;
    #[inline(always)]
    fn into_iter(self) -> TypeIter {
        self.iter()
    }
}

impl FromIterator<PieceType> for TypeSet {
    fn from_iter<I: IntoIterator<Item = PieceType>>(it: I) -> TypeSet {
        it.into_iter().fold(TypeSet::EMPTY, TypeSet::with)
    }
}

impl BitOr for TypeSet {
    type Output = TypeSet;
    #[inline(always)]
    fn bitor(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 | o.0)
    }
}

impl BitAnd for TypeSet {
    type Output = TypeSet;
    #[inline(always)]
    fn bitand(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 & o.0)
    }
}

impl std::fmt::Debug for TypeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter().map(PieceType::index)).finish()
    }
}

/// A square, `rank * files + file` on its board (`Geometry` names and parses them), below 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: usize) -> Square {
        debug_assert!(index < 128);
        Square(index as u8)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// `Index` and `IndexMut` of a table by one of these values: the element at `$at`.
macro_rules! index_by {
    ($key:ty, $table:ty, |$k:ident| $at:expr) => {
        impl<T> Index<$key> for $table {
            type Output = T;
            #[inline(always)]
            fn index(&self, $k: $key) -> &T {
                &self[$at]
            }
        }
        impl<T> IndexMut<$key> for $table {
            #[inline(always)]
            fn index_mut(&mut self, $k: $key) -> &mut T {
                &mut self[$at]
            }
        }
    };
}

index_by!(Colour, [T; 2], |c| c.index());
// On slices (so on arrays of any length too) and vectors: the per-type tables are of both kinds.
index_by!(PieceType, [T], |t| t.index());
index_by!(PieceType, Vec<T>, |t| t.index());
// The per-square tables have 128 entries, so that masking the index leaves no bounds check;
// others are as long as the board.
index_by!(Square, [T; 128], |sq| sq.index() & 127);
index_by!(Square, Vec<T>, |sq| sq.index());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_index_pairs_and_flip() {
        let mut pair = [10, 20];
        assert_eq!((pair[Colour::White], pair[Colour::Black]), (10, 20));
        pair[Colour::Black] += 1;
        assert_eq!(pair, [10, 21]);
        // Integer indices still work beside the typed ones.
        assert_eq!(pair[1], 21);
        assert_eq!(!Colour::White, Colour::Black);
        assert_eq!(Colour::Black.opposite(), Colour::White);
        assert_eq!((Colour::White.sign(), Colour::Black.sign()), (1, -1));
        assert_eq!(Colour::BOTH.map(Colour::name), ["White", "Black"]);
        assert_eq!(Colour::from_index(1), Colour::Black);
    }

    #[test]
    fn piece_types_index_vectors_slices_and_arrays() {
        let t = PieceType::new(2);
        let mut v = vec![0u8; 4];
        v[t] = 7;
        let mut a = [0u8; MAX_TYPES];
        a[t] = 8;
        let s: &[u8] = &v;
        assert_eq!((v[t], a[t], s[t], v[2]), (7, 8, 7, 7));
        assert_eq!(PieceType::first(3).map(PieceType::index).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn type_sets_hold_and_yield_types_in_order() {
        let [a, b, c] = [0, 3, 15].map(PieceType::new);
        let s: TypeSet = [c, a].into_iter().collect();
        assert!(s.contains(a) && s.contains(c) && !s.contains(b));
        assert_eq!(s.count(), 2);
        assert_eq!(s.iter().collect::<Vec<_>>(), [a, c]);
        assert_eq!(s | TypeSet::single(b), s.with(b));
        assert_eq!(s & TypeSet::single(c), TypeSet::single(c));
        assert!((s & TypeSet::single(b)).is_empty());
        let mut t = TypeSet::EMPTY;
        t.insert(b);
        assert_eq!(format!("{t:?}"), "{3}");
    }

    #[test]
    fn squares_index_board_tables() {
        let sq = Square::new(127);
        let mut board = [0u8; 128];
        board[sq] = 1;
        assert_eq!(board[127], 1);
        let v = vec![5; 64];
        assert_eq!(v[Square::new(63)], 5);
    }
}
