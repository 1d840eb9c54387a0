//! Board geometry: files × ranks, at most 16 of each and 128 squares in all.

use crate::bitboard::{Bitboard, Bits};
use crate::error::GeometryError;
use crate::types::{Colour, Square};

pub const MAX_SQUARES: usize = 128;
pub const MAX_SIDE: usize = 16;

/// The shape of a board; square index is `rank * files + file`, a1 = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub files: usize,
    pub ranks: usize,
}

impl Geometry {
    /// A geometry, or why the size is not supported.
    pub fn new(files: usize, ranks: usize) -> Result<Geometry, GeometryError> {
        if files == 0 || ranks == 0 {
            return Err(GeometryError::NoSquares { files, ranks });
        }
        if files > MAX_SIDE || ranks > MAX_SIDE {
            return Err(GeometryError::SideTooLong { files, ranks, max: MAX_SIDE });
        }
        if files * ranks > MAX_SQUARES {
            return Err(GeometryError::TooManySquares { files, ranks, max: MAX_SQUARES });
        }
        Ok(Geometry { files, ranks })
    }

    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.files * self.ranks
    }
    /// Whether a bitboard in `B` holds every square of the board.
    pub fn fits<B: Bits>(&self) -> bool {
        self.squares() <= B::SQUARES
    }
    #[inline(always)]
    pub fn file(&self, sq: Square) -> usize {
        sq.index() % self.files
    }
    #[inline(always)]
    pub fn rank(&self, sq: Square) -> usize {
        sq.index() / self.files
    }
    #[inline(always)]
    pub fn square(&self, file: usize, rank: usize) -> Square {
        Square::new(rank * self.files + file)
    }
    /// The square `(df, dr)` away from `sq`, if it is on the board (no wrap-around).
    pub fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + df;
        let r = self.rank(sq) as i32 + dr;
        (f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32)
            .then(|| self.square(f as usize, r as usize))
    }
    /// The square on the same file and the mirrored rank: where the other side has `sq`.
    #[inline]
    /// The squares strictly between two squares on one file, rank or diagonal (none otherwise).
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        let (df, dr) = (self.file(b) as i32 - self.file(a) as i32, self.rank(b) as i32 - self.rank(a) as i32);
        let n = df.abs().max(dr.abs());
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return Bitboard::EMPTY;
        }
        (1..n).filter_map(|k| self.offset(a, df.signum() * k, dr.signum() * k)).collect()
    }

    /// The squares a king's step from `sq`.
    pub fn neighbours(&self, sq: Square) -> Bitboard {
        let steps = (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr))).filter(|&d| d != (0, 0));
        steps.filter_map(|(df, dr)| self.offset(sq, df, dr)).collect()
    }

    /// Two squares and every square between them.
    pub fn span(&self, a: Square, b: Square) -> Bitboard {
        self.between(a, b) | Bitboard::square(a) | Bitboard::square(b)
    }

    pub fn mirror(&self, sq: Square) -> Square {
        self.square(self.file(sq), self.ranks - 1 - self.rank(sq))
    }
    /// The rank of `sq` counted from `colour`'s own back rank (0 there).
    #[inline]
    pub fn relative_rank(&self, colour: Colour, sq: Square) -> usize {
        match colour {
            Colour::White => self.rank(sq),
            Colour::Black => self.ranks - 1 - self.rank(sq),
        }
    }
    /// Every square of the board.
    pub fn all(&self) -> Bitboard {
        let n = self.squares();
        Bitboard(if n == 128 { u128::MAX } else { (1u128 << n) - 1 })
    }
    pub fn rank_bb(&self, rank: usize) -> Bitboard {
        (0..self.files).map(|f| self.square(f, rank)).collect()
    }
    pub fn file_bb(&self, file: usize) -> Bitboard {
        (0..self.ranks).map(|r| self.square(file, r)).collect()
    }
    /// Squares whose file + rank is even (the dark squares, a1 included).
    pub fn dark_squares(&self) -> Bitboard {
        self.all().filter(|&s| (self.file(s) + self.rank(s)).is_multiple_of(2)).collect()
    }
    /// `e4`, `k11`.
    pub fn name(&self, sq: Square) -> String {
        format!("{}{}", (b'a' + self.file(sq) as u8) as char, self.rank(sq) + 1)
    }
    /// Parses a square name at the start of `s`; returns the square and the bytes used.
    pub fn parse_prefix(&self, s: &str) -> Option<(Square, usize)> {
        let b = s.as_bytes();
        let file = (*b.first()?).wrapping_sub(b'a') as usize;
        if file >= self.files {
            return None;
        }
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        // Read as many digits as form a rank on this board ("e10e11" has rank 10 then a file).
        let mut best = None;
        for len in 1..=digits.min(2) {
            let rank: usize = s[1..1 + len].parse().ok()?;
            if rank >= 1 && rank <= self.ranks && !(len == 2 && b[1] == b'0') {
                best = Some((self.square(file, rank - 1), 1 + len));
            }
        }
        best
    }
    /// Parses exactly one square name.
    pub fn parse(&self, s: &str) -> Option<Square> {
        match self.parse_prefix(s) {
            Some((sq, used)) if used == s.len() => Some(sq),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_oversized_boards() {
        assert!(Geometry::new(11, 11).is_ok());
        assert!(Geometry::new(16, 8).is_ok());
        assert!(Geometry::new(12, 11).unwrap_err().to_string().contains("132 squares"));
        assert_eq!(Geometry::new(17, 2), Err(GeometryError::SideTooLong { files: 17, ranks: 2, max: 16 }));
        assert_eq!(Geometry::new(0, 8), Err(GeometryError::NoSquares { files: 0, ranks: 8 }));
    }

    #[test]
    fn offsets_never_wrap() {
        for files in [8, 10, 11, 16] {
            let g = Geometry::new(files, 8).unwrap();
            let h1 = g.square(files - 1, 0);
            assert_eq!(g.offset(h1, 1, 0), None);
            assert_eq!(g.offset(h1, 1, 1), None);
            assert_eq!(g.offset(g.square(0, 3), -1, 1), None);
            assert_eq!(g.offset(g.square(0, 3), 0, 1), Some(g.square(0, 4)));
        }
    }

    #[test]
    fn square_names_round_trip() {
        let g = Geometry::new(11, 11).unwrap();
        for sq in g.all() {
            assert_eq!(g.parse(&g.name(sq)), Some(sq));
        }
        assert_eq!(g.parse_prefix("e10e11"), Some((g.square(4, 9), 3)));
        assert_eq!(g.parse_prefix("a1a2"), Some((Square::new(0), 2)));
        assert_eq!(g.parse("l1"), None);
        assert_eq!(g.parse("a12"), None);
        assert_eq!(g.parse("a0"), None);
    }
}
