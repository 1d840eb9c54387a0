//! What the trainer reads of a packed position: its active inputs seen from the side to move
//! and from the other side (as `Layout::active` gives them to the engine), its target from the
//! side to move's view, which positions are held out, and a hash of all of them.

use super::gradient::sigmoid;
use hoplite_core::seed::{id_hash, mix64};
use hoplite_formats::packed::PackedPosition;
use hoplite_search::eval::network::Layout;
use rayon::prelude::*;

/// Positions are held out for validation in runs of this many, as a data file holds a game's
/// positions together: a game split between the sets would let validation see its twin.
const HELD_OUT_RUN: usize = 128;

/// The active inputs of `p` from the side to move (`us`) and from the other side (`them`).
#[inline]
pub fn inputs(layout: &Layout, p: &PackedPosition, us: &mut Vec<u16>, them: &mut Vec<u16>) {
    us.clear();
    them.clear();
    for (side, out) in [(p.side, us), (!p.side, them)] {
        layout.features(side, p.pieces.iter().copied(), &p.hand, |i| out.push(i as u16));
    }
}

/// The side to move's expected score: `lambda`·σ(score/400) + (1 − `lambda`)·result, from
/// White's view and then turned (σ(−x) = 1 − σ(x)).
#[inline]
pub fn target(p: &PackedPosition, lambda: f32) -> f32 {
    let white = lambda * sigmoid(f32::from(p.score) / 400.0) + (1.0 - lambda) * p.white_score();
    match p.side {
        hoplite_core::Colour::White => white,
        hoplite_core::Colour::Black => 1.0 - white,
    }
}

/// The indices of the training and validation positions: runs of `HELD_OUT_RUN` positions
/// go to validation when their hash falls in the first `fraction` of the range; the split
/// depends on the positions' order alone, not on the seed, so losses of runs with other seeds
/// compare.
pub fn split(n: usize, fraction: f64) -> (Vec<u32>, Vec<u32>) {
    let cut = (fraction * 2f64.powi(64)) as u64;
    (0..n as u32).partition(|&i| id_hash((i as usize / HELD_OUT_RUN) as u64) >= cut)
}

/// A hash of the positions in order, so that a checkpoint resumes only on the data it was
/// made from: per block, then the blocks' hashes in order (the same on any threads).
pub fn hash(positions: &[PackedPosition]) -> u64 {
    let blocks: Vec<u64> = positions
        .par_chunks(4096)
        .map(|block| {
            block.iter().fold(0u64, |h, p| {
                let h = p.pieces.iter().fold(h, |h, &(c, t, sq)| {
                    mix64(h ^ (c.index() << 16 | t.index() << 8) as u64 ^ (sq.index() as u64) << 24)
                });
                mix64(h ^ (p.side.index() as u64) << 40 ^ (p.score as u16 as u64) << 8 ^ u64::from(p.result))
            })
        })
        .collect();
    blocks.iter().fold(positions.len() as u64, |h, &b| mix64(h ^ b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::Colour;

    #[test]
    fn the_target_blends_score_and_result_from_the_side_to_move() {
        let p = |side, score, result| PackedPosition { pieces: vec![], hand: Default::default(), side, score, result };
        assert!((target(&p(Colour::White, 0, 2), 0.75) - (0.75 * 0.5 + 0.25)).abs() < 1e-6);
        assert!((target(&p(Colour::Black, 0, 2), 0.75) - (1.0 - 0.625)).abs() < 1e-6);
        let t = target(&p(Colour::White, 400, 1), 1.0);
        assert!((t - 1.0 / (1.0 + (-1f32).exp())).abs() < 1e-6);
        assert!((target(&p(Colour::Black, -400, 1), 1.0) - t).abs() < 1e-6);
    }

    #[test]
    fn the_split_holds_out_about_the_fraction_in_runs() {
        let (train, valid) = split(100_000, 0.1);
        assert_eq!(train.len() + valid.len(), 100_000);
        assert!((8_000..12_000).contains(&valid.len()), "{}", valid.len());
        assert!(valid.iter().all(|&i| valid.contains(&(i / 128 * 128))));
        assert_eq!(split(1000, 0.0).1.len(), 0);
    }

    #[test]
    fn inputs_are_those_the_engine_reads() {
        let v = hoplite_core::Variant::builtin("chess");
        let layout = Layout::of(&v);
        let pos = hoplite_core::Position::from_fen(&v, "4k3/8/8/8/8/8/2q5/4K2R b K - 0 1").unwrap();
        let p = PackedPosition::new(&pos, 0, hoplite_core::GameResult::Draw);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        inputs(&layout, &p, &mut us, &mut them);
        let sorted = |v: Vec<usize>| {
            let mut v = v;
            v.sort();
            v
        };
        let widen = |v: &[u16]| sorted(v.iter().map(|&i| i as usize).collect());
        assert_eq!(widen(&us), sorted(layout.active(&pos, Colour::Black)));
        assert_eq!(widen(&them), sorted(layout.active(&pos, Colour::White)));
    }
}
