//! Continuation history: how well a quiet move did after a given move one and two plies
//! before it, each move named by its piece type and destination. It orders the quiet moves
//! that answer a particular threat (one ply) or continue a plan (two plies) where the plain
//! history, by squares alone, averages over every position.

use hoplite_core::{Colour, PieceType, Square};

/// A move as the tables see it: piece type and destination, `type * squares + to`.
pub type Key = usize;

/// No move (the root's predecessors, a null move).
pub const NO_KEY: Key = usize::MAX;

/// Plies back that a move is continued from.
pub const OFFSETS: usize = 2;

/// A history score `h` moved towards `max` (or its negative) by `bonus`: the closer it is, the
/// less it moves (the gravity formula), so it never passes `max`.
pub fn nudged(h: i32, bonus: i32, max: i32) -> i32 {
    h + bonus - h * bonus.abs() / max
}

pub struct ContinuationHistory {
    /// `[offset][side][previous][current]`, `keys` keys on each of the last two axes.
    table: Vec<i16>,
    keys: usize,
    squares: usize,
}

impl ContinuationHistory {
    pub fn new() -> ContinuationHistory {
        ContinuationHistory { table: Vec::new(), keys: 0, squares: 0 }
    }

    /// Sizes the tables for a variant's piece types and squares (emptied if they change).
    pub fn fit(&mut self, types: usize, squares: usize) {
        if self.keys != types * squares || self.squares != squares {
            self.keys = types * squares;
            self.squares = squares;
            self.table = vec![0; OFFSETS * 2 * self.keys * self.keys];
        }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
    }

    pub fn key(&self, ty: PieceType, to: Square) -> Key {
        ty.index() * self.squares + to.index()
    }

    fn index(&self, offset: usize, side: Colour, previous: Key, current: Key) -> Option<usize> {
        (previous != NO_KEY && current != NO_KEY)
            .then(|| ((offset * 2 + side.index()) * self.keys + previous) * self.keys + current)
    }

    /// The sum of `current`'s scores after each of `previous` (`previous[k]` is `k + 1` plies back).
    pub fn score(&self, side: Colour, previous: [Key; OFFSETS], current: Key) -> i32 {
        (0..OFFSETS).filter_map(|k| self.index(k, side, previous[k], current)).map(|i| i32::from(self.table[i])).sum()
    }

    /// Moves `current`'s scores after each of `previous` towards `max` (or its negative) by `bonus`.
    pub fn nudge(&mut self, side: Colour, previous: [Key; OFFSETS], current: Key, bonus: i32, max: i32) {
        for (k, &p) in previous.iter().enumerate() {
            if let Some(i) = self.index(k, side, p, current) {
                self.table[i] = nudged(i32::from(self.table[i]), bonus, max) as i16;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_kept_per_predecessor_side_and_offset() {
        let mut h = ContinuationHistory::new();
        h.fit(6, 64);
        let key = |t, sq| h.key(PieceType::new(t), Square::new(sq));
        let (a, b, m) = (key(1, 20), key(2, 30), key(4, 40));
        h.nudge(Colour::White, [a, NO_KEY], m, 400, 1 << 14);
        assert_eq!(h.score(Colour::White, [a, NO_KEY], m), 400);
        // Another predecessor, the other side, or the predecessor two plies back: untouched.
        assert_eq!(h.score(Colour::White, [b, NO_KEY], m), 0);
        assert_eq!(h.score(Colour::Black, [a, NO_KEY], m), 0);
        assert_eq!(h.score(Colour::White, [NO_KEY, a], m), 0);
        // No move to score (no piece on its square): nothing read or written.
        h.nudge(Colour::White, [a, b], NO_KEY, 400, 1 << 14);
        assert_eq!(h.score(Colour::White, [a, b], NO_KEY), 0);
        // Both plies count; a malus pulls back; repeated bonuses stay under the ceiling.
        h.nudge(Colour::White, [a, b], m, 400, 1 << 14);
        assert_eq!(h.score(Colour::White, [a, b], m), 791 + 400);
        for _ in 0..1000 {
            h.nudge(Colour::White, [a, NO_KEY], m, 1600, 1 << 14);
        }
        assert!((16_000..=1 << 14).contains(&h.score(Colour::White, [a, NO_KEY], m)));
        h.nudge(Colour::White, [a, NO_KEY], m, -1600, 1 << 14);
        assert!(h.score(Colour::White, [a, NO_KEY], m) < 16_000);
    }
}
