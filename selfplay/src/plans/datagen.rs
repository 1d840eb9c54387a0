//! `hoplite datagen`: training positions for a network from hoplite's self-play. The games
//! are a selfplay run's (the same openings, seeds, shards and resume); what it keeps of each
//! is every position after the opening where the side to move is not in check and its search
//! chose a quiet move (no capture or promotion pending, so that the score is the position's
//! own and not an exchange's midpoint), with that search's score from White's view and the
//! game's result, in positions.bin (`hoplite_formats::packed`).

use crate::run::game::GameRecord;
use crate::run::packed::Packing;
use hoplite_core::{Position, Variant};
use hoplite_formats::packed::PackedPosition;
use std::sync::Arc;

/// The training positions of a finished game, replayed from its opening position through the
/// moves its players' searches chose.
pub fn training_positions(rec: &GameRecord) -> Vec<PackedPosition> {
    let mut pos = Position::from_fen(&rec.variant, &rec.opening_fen).expect("the arbiter wrote this FEN");
    let mut out = Vec::new();
    for &(mv, score) in &rec.searched {
        if let Some(score) = score.filter(|_| !pos.in_check() && pos.is_quiet(mv)) {
            out.push(PackedPosition::new(&pos, pos.side_to_move().sign() * score, rec.result));
        }
        pos.make(mv);
    }
    out
}

/// What a datagen run keeps of its games in `variant`: their training positions. Its games
/// are a selfplay run's (`plans::selfplay::play`), recorded as a datagen run.
pub fn packing(variant: &Arc<Variant>) -> Packing {
    Packing { variant: variant.clone(), select: training_positions }
}
