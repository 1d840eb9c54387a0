//! Correction history: how far searched scores have fallen from the static evaluation in
//! positions of one pawn structure, learned during the game and added to the evaluation. A
//! structure the evaluation misjudges (a blocked chain, a weak square it has no term for) keeps
//! misjudging it in the positions that share it, so the search's own results correct it.

use hoplite_core::{Bits, Colour, Position};

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;
/// Entries hold centipawns in these fractions, so that small weights still move them.
const GRAIN: i32 = 256;
/// A correction stays within this many centipawns.
const LIMIT: i32 = 64;
/// The weight of one result, in 256ths, grows with the depth that found it up to this.
const MAX_WEIGHT: i32 = 16;

pub struct CorrectionHistory {
    /// `[side][structure]`, centipawns times `GRAIN`.
    table: Vec<i32>,
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * SIZE] }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = 0);
    }

    /// The entry of `pos`'s side to move and pawns of each colour.
    fn index<B: Bits>(pos: &Position<B>) -> usize {
        let pawns = pos.pawns();
        let fold = |colour: Colour, k: u64| {
            let b = (pawns & pos.colour_bb(colour)).0.to_wide();
            (b as u64 ^ (b >> 64) as u64 ^ (b >> 96) as u64).wrapping_mul(k)
        };
        let h = fold(Colour::White, 0x9e37_79b9_7f4a_7c15) ^ fold(Colour::Black, 0xc2b2_ae3d_27d4_eb4f).rotate_left(29);
        usize::from(pos.side_to_move() == Colour::Black) * SIZE + (h >> (64 - SIZE.trailing_zeros())) as usize
    }

    /// The correction to `pos`'s static evaluation, in centipawns.
    pub fn get<B: Bits>(&self, pos: &Position<B>) -> i32 {
        self.table[Self::index(pos)] / GRAIN
    }

    /// A search to `depth` scored `pos` `error` centipawns above its static evaluation: the
    /// entry moves towards it, the more the deeper the search.
    pub fn learn<B: Bits>(&mut self, pos: &Position<B>, error: i32, depth: i32) {
        let weight = (depth + 1).min(MAX_WEIGHT);
        let e = &mut self.table[Self::index(pos)];
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::Variant;

    fn position(fen: &str) -> Position {
        Position::from_fen(&Variant::builtin("chess"), fen).unwrap()
    }

    #[test]
    fn corrections_follow_the_searched_error_within_their_limit() {
        let mut c = CorrectionHistory::new();
        let pos = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(c.get(&pos), 0);
        // One shallow result moves the entry a little; deep ones draw it to the error.
        c.learn(&pos, 40, 0);
        assert_eq!(c.get(&pos), 0, "1/256 of 40 cp");
        (0..200).for_each(|_| c.learn(&pos, 40, 20));
        assert!((38..=40).contains(&c.get(&pos)), "{}", c.get(&pos));
        (0..200).for_each(|_| c.learn(&pos, 1000, 20));
        assert!((LIMIT - 1..=LIMIT).contains(&c.get(&pos)), "{}", c.get(&pos));
        (0..400).for_each(|_| c.learn(&pos, -1000, 20));
        assert!((-LIMIT..=1 - LIMIT).contains(&c.get(&pos)), "{}", c.get(&pos));
    }

    #[test]
    fn a_correction_belongs_to_one_pawn_structure_and_side() {
        let mut c = CorrectionHistory::new();
        let pos = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        (0..100).for_each(|_| c.learn(&pos, 30, 20));
        // The same pawns with other pieces share it.
        assert_eq!(c.get(&position("r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2")), c.get(&pos));
        // Other pawns, or the other side to move, do not.
        assert_eq!(c.get(&position("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")), 0);
        assert_eq!(c.get(&position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")), 0);
    }
}
