//! A network evaluation (NNUE): the board as each side sees it, (colour, piece type, square)
//! one input each, into one hidden layer per perspective, then one output. Sized from the
//! variant (`Layout`), so any variant file gets its own; integer inference with accumulators
//! kept move by move (`accumulator`); a file of its own (`file`) that names the variant it was
//! made for.
//!
//! Output, from the side to move's view: `(Σ σ(a_us)·w_us + Σ σ(a_them)·w_them) / QA + b`,
//! scaled to centipawns by `SCALE / (QA·QB)`, where `a` are the accumulators (feature
//! transformer biases plus the columns of the active inputs, quantised by `QA`), `w` and `b`
//! the output layer (quantised by `QB`, `b` by `QA·QB`) and σ the activation
//! (clipped squared ReLU: `clamp(x, 0, QA)²`, in the float network `clamp(x, 0, 1)²`).

mod accumulator;
mod file;

pub use crate::error::NetworkError;
pub use accumulator::Accumulators;
pub use file::{bytes_hash, file_hash};

use crate::score::MATE_BOUND;
use hoplite_core::{Bits, Colour, PieceType, Position, Square, Variant, MAX_SQUARES, MAX_TYPES};

/// The feature transformer's quantisation: a float weight `x` is stored as `round(x·QA)`.
pub const QA: i32 = 255;
/// The output layer's quantisation: fine enough that rounding the output weights moves a score
/// by well under a centipawn (at 64, the first choice, it moved them by 5 on average).
pub const QB: i32 = 1024;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// The largest float weight the integer network holds: the trainer clips to it, so that 64
/// accumulated inputs stay inside an `i16` (64 · 1.98 · `QA` < 2^15) and an output weight fits
/// one (1.98 · `QB` < 2^15).
pub const WEIGHT_CLIP: f32 = 1.98;

/// Where each (colour, type, square) of a variant goes among a network's inputs, seen from
/// either side: its own pieces first, squares mirrored top to bottom for Black, so that both
/// sides' accumulators read the board alike. With drops, each (colour, type) has after its
/// squares `hand` inputs more: the first, second, … piece of the type in hand (as many as
/// the game can put there; more read as that many).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub files: usize,
    pub ranks: usize,
    pub types: usize,
    /// The pieces' letters, in type order (for messages).
    pub letters: String,
    /// A hash of the board, every piece's letter, moves and kind, and whether pieces are
    /// dropped: a network fits a variant with the same one.
    pub fingerprint: u64,
    /// Inputs per (colour, type) for the pieces in hand: 0 without drops.
    pub hand: usize,
    /// Each square as Black sees it.
    flip: Vec<u8>,
}

impl Layout {
    pub fn of(v: &Variant) -> Layout {
        let g = v.geometry;
        let mut fingerprint = hoplite_core::seed::mix64((g.files as u64) << 8 | g.ranks as u64);
        for p in &v.pieces {
            let text = format!("{}{}{}{}", p.letter, p.betza, u8::from(p.royal), u8::from(p.pawn));
            for b in text.bytes() {
                fingerprint = hoplite_core::seed::mix64(fingerprint ^ u64::from(b));
            }
        }
        // A variant with drops is another game for a network that sees the board only: a
        // chess network does not fit crazyhouse.
        if v.rules.drops {
            fingerprint = hoplite_core::seed::mix64(fingerprint ^ u64::from(b'@'));
        }
        // Every piece of a type, both sides' and the start's hands' together, could be in one hand.
        let hand = match v.rules.drops {
            true => v
                .piece_types()
                .map(|t| (0..2).map(|c| (v.start_counts[c][t] + v.start.hand[c][t]) as usize).sum())
                .max()
                .unwrap_or(0)
                .max(1),
            false => 0,
        };
        let flip = (0..g.squares()).map(|i| ((g.ranks - 1 - i / g.files) * g.files + i % g.files) as u8).collect();
        Layout {
            files: g.files,
            ranks: g.ranks,
            types: v.pieces.len(),
            letters: v.pieces.iter().map(|p| p.letter).collect(),
            fingerprint,
            hand,
            flip,
        }
    }

    /// The number of inputs of one perspective.
    pub fn inputs(&self) -> usize {
        2 * self.types * self.stride()
    }

    /// The inputs of one (colour, type): its squares, then its hand.
    #[inline(always)]
    fn stride(&self) -> usize {
        self.files * self.ranks + self.hand
    }

    /// The input of a `colour` `ty` on `sq`, seen from `perspective`.
    #[inline(always)]
    pub fn index(&self, perspective: Colour, colour: Colour, ty: PieceType, sq: Square) -> usize {
        let (own, square) = match perspective {
            Colour::White => (colour == Colour::White, sq.index()),
            Colour::Black => (colour == Colour::Black, self.flip[sq.index()] as usize),
        };
        (usize::from(!own) * self.types + ty.index()) * self.stride() + square
    }

    /// The input of the `nth` (from 1) `colour` `ty` in hand, seen from `perspective`; none
    /// beyond the layout's `hand`.
    #[inline(always)]
    pub fn hand_index(&self, perspective: Colour, colour: Colour, ty: PieceType, nth: u8) -> Option<usize> {
        let own = perspective == colour;
        let slot = (nth as usize).checked_sub(1).filter(|&s| s < self.hand)?;
        Some((usize::from(!own) * self.types + ty.index()) * self.stride() + self.files * self.ranks + slot)
    }

    /// The active inputs of `pos` from `perspective`.
    pub fn active<B: Bits>(&self, pos: &Position<B>, perspective: Colour) -> Vec<usize> {
        let pieces = pos.men().into_iter().map(|sq| {
            let (colour, ty) = pos.piece_at(sq).expect("an occupied square holds a piece");
            (colour, ty, sq)
        });
        let hands = Colour::BOTH.map(|c| std::array::from_fn(|t| pos.in_hand(c, PieceType::new(t))));
        let mut out = Vec::with_capacity(64);
        self.features(perspective, pieces, &hands, |i| out.push(i));
        out
    }

    /// Each active input from `perspective`, to `out`, of a board's pieces (colour, type,
    /// square) and the hands' counts per colour and type.
    #[inline]
    pub fn features(
        &self,
        perspective: Colour,
        pieces: impl Iterator<Item = (Colour, PieceType, Square)>,
        hands: &[[u8; MAX_TYPES]; 2],
        mut out: impl FnMut(usize),
    ) {
        for (colour, ty, sq) in pieces {
            out(self.index(perspective, colour, ty, sq));
        }
        if self.hand > 0 {
            for colour in Colour::BOTH {
                for t in (0..self.types).map(PieceType::new) {
                    (1..=hands[colour][t]).map_while(|n| self.hand_index(perspective, colour, t, n)).for_each(&mut out);
                }
            }
        }
    }

    /// What a board of this layout is, for messages: `8x8 PNBRQK`.
    pub fn describe(&self) -> String {
        format!("{}x{} {}", self.files, self.ranks, self.letters)
    }
}

/// A quantised network: the feature transformer (`hidden` weights per input, shared by both
/// perspectives) and the output layer (`hidden` weights per perspective).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub layout: Layout,
    pub hidden: usize,
    /// Input `i`'s column: `ft_weights[i·hidden .. (i+1)·hidden]`.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    pub out_weights: Vec<i16>,
    pub out_bias: i32,
}

/// A network in floats, as the trainer makes it, in `Network`'s layout.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    pub ft_weights: Vec<f32>,
    pub ft_bias: Vec<f32>,
    pub out_weights: Vec<f32>,
    pub out_bias: f32,
}

impl FloatNetwork {
    /// A network of `hidden` units for `layout` whose weights are drawn uniformly from
    /// [-scale, scale] by `seed` (its biases shifted up by `scale`, so that units start active).
    pub fn seeded(layout: &Layout, hidden: usize, seed: u64, scale: f32) -> FloatNetwork {
        let mut state = seed;
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| {
                    state = hoplite_core::seed::mix64(state.wrapping_add(1));
                    ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
                })
                .collect()
        };
        FloatNetwork {
            hidden,
            ft_weights: draw(layout.inputs() * hidden),
            ft_bias: draw(hidden).into_iter().map(|b| b + scale).collect(),
            out_weights: draw(2 * hidden),
            out_bias: draw(1)[0],
        }
    }

    /// The output (in units of `SCALE` centipawns) for these active inputs of the side to
    /// move and of the other side.
    pub fn forward(&self, us: &[usize], them: &[usize]) -> f32 {
        let h = self.hidden;
        let mut out = self.out_bias;
        for (k, inputs) in [us, them].into_iter().enumerate() {
            let mut acc = self.ft_bias.clone();
            for &i in inputs {
                for (a, w) in acc.iter_mut().zip(&self.ft_weights[i * h..(i + 1) * h]) {
                    *a += w;
                }
            }
            for (a, w) in acc.iter().zip(&self.out_weights[k * h..(k + 1) * h]) {
                let x = a.clamp(0.0, 1.0);
                out += x * x * w;
            }
        }
        out
    }
}

impl Network {
    /// The integer network of a float one (weights clipped to `WEIGHT_CLIP`).
    pub fn quantise(layout: Layout, f: &FloatNetwork) -> Network {
        let q = |x: f32, scale: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16;
        Network {
            layout,
            hidden: f.hidden,
            ft_weights: f.ft_weights.iter().map(|&x| q(x, QA)).collect(),
            ft_bias: f.ft_bias.iter().map(|&x| q(x, QA)).collect(),
            out_weights: f.out_weights.iter().map(|&x| q(x, QB)).collect(),
            out_bias: (f.out_bias * (QA * QB) as f32).round() as i32,
        }
    }

    /// The evaluation in centipawns from the side to move's view of accumulators `us` (the
    /// side to move's) and `them`, kept below the mate scores.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let h = self.hidden;
        let mut sum: i64 = 0;
        for (acc, weights) in [(us, &self.out_weights[..h]), (them, &self.out_weights[h..])] {
            // Each term, clamp(a)² · w, fits an i32 (255² · 2^15 < 2^31); their sum an i64.
            let part: i64 = acc
                .iter()
                .zip(weights)
                .map(|(&a, &w)| {
                    let x = i32::from(a).clamp(0, QA);
                    i64::from(x * i32::from(w) * x)
                })
                .sum();
            sum += part;
        }
        let out = (sum / i64::from(QA) + i64::from(self.out_bias)) * i64::from(SCALE) / i64::from(QA * QB);
        out.clamp(-i64::from(MATE_BOUND - 1), i64::from(MATE_BOUND - 1)) as i32
    }

    /// `pos`'s evaluation from scratch (no accumulators kept): for tests and one-off scores.
    pub fn evaluate<B: Bits>(&self, pos: &Position<B>) -> i32 {
        let us = pos.side_to_move();
        let [a, b] = [us, !us].map(|side| self.refresh(&self.layout.active(pos, side)));
        self.output(&a, &b)
    }

    /// An accumulator from the biases and these active inputs.
    pub fn refresh(&self, active: &[usize]) -> Vec<i16> {
        let mut acc = self.ft_bias.clone();
        for &i in active {
            self.add(&mut acc, i);
        }
        acc
    }

    /// Adds input `i`'s column to `acc`.
    #[inline(always)]
    pub fn add(&self, acc: &mut [i16], i: usize) {
        let column = &self.ft_weights[i * self.hidden..(i + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(column) {
            *a = a.wrapping_add(w);
        }
    }

    /// Takes input `i`'s column from `acc`.
    #[inline(always)]
    pub fn sub(&self, acc: &mut [i16], i: usize) {
        let column = &self.ft_weights[i * self.hidden..(i + 1) * self.hidden];
        for (a, &w) in acc.iter_mut().zip(column) {
            *a = a.wrapping_sub(w);
        }
    }
}

/// The squares of a board of at most `MAX_SQUARES`: every layout indexes below it.
const _: () = assert!(MAX_SQUARES <= u8::MAX as usize + 1);

#[cfg(test)]
mod tests;
