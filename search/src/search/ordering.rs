//! Move ordering and exchanges: static exchange evaluation, the ordering scores (hash move,
//! captures, killers, counter moves, histories) and how a cutoff rewards the histories.

use hoplite_core::Bits;
use hoplite_core::{MAX_SQUARES, MAX_TYPES};

use super::continuation::nudged;
use super::continuation::Key;
use super::continuation::NO_KEY;
use super::continuation::OFFSETS;
use super::Search;
use hoplite_core::Bitboard;
use hoplite_core::Colour;
use hoplite_core::Move;
use hoplite_core::MoveKind;
use hoplite_core::PieceType;
use hoplite_core::Position;
use hoplite_core::Square;

/// A royal piece in exchanges: worth more than anything it could win.
const ROYAL_VALUE: i32 = 5_000;
/// History scores stay within this (the gravity formula's ceiling).
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Move ordering bands, above any history score: the hash move, captures that do not lose
/// material, then killers and the counter move (losing captures go below, at `-GOOD_CAPTURE`).
const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 26;
pub(super) const KILLER: i32 = 1 << 25;

impl Search {
    /// A piece's value in exchanges.
    pub(super) fn value<B: Bits>(&self, pos: &Position<B>, ty: PieceType) -> i32 {
        if pos.variant().royal_types.contains(ty) {
            ROYAL_VALUE
        } else {
            self.values[ty]
        }
    }

    pub(super) fn value_at<B: Bits>(&self, pos: &Position<B>, sq: Square) -> i32 {
        pos.piece_at(sq).map_or(0, |(_, t)| self.value(pos, t))
    }

    /// What a move wins, its piece's promotion included, once every capture on its square has
    /// been traded off in order of least valuable capturer (static exchange evaluation).
    pub(super) fn see<B: Bits>(&self, pos: &Position<B>, m: Move) -> i32 {
        if m.kind() == MoveKind::Castle {
            return 0;
        }
        if pos.variant().rules.blast.is_some() && pos.is_capture(m) {
            return self.blast_see(pos, m);
        }
        let to = m.to();
        // A drop leaves no square empty behind it.
        let mut occ = match m.is_drop() {
            true => pos.occupied(),
            false => pos.occupied() & !Bitboard::square(m.from()),
        };
        let mut gain = [0i32; 40];
        gain[0] = match (m.kind(), pos.en_passant_victim()) {
            (MoveKind::EnPassant, Some(victim)) => {
                occ &= !Bitboard::square(victim);
                self.value_at(pos, victim)
            }
            _ => self.value_at(pos, to),
        };
        let mover = pos.moved_type(m).unwrap_or_default();
        let mut on_square = match m.promoted() {
            Some(p) => {
                gain[0] += self.value(pos, p) - self.value(pos, mover);
                self.value(pos, p)
            }
            None => self.value(pos, mover),
        };
        let mut side = !pos.side_to_move();
        let mut d = 0;
        loop {
            let attackers = pos.attackers_to(to, side, occ);
            let Some((sq, v)) = attackers.into_iter().map(|s| (s, self.value_at(pos, s))).min_by_key(|&(_, v)| v)
            else {
                break;
            };
            d += 1;
            if d >= gain.len() {
                break;
            }
            gain[d] = on_square - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            occ &= !Bitboard::square(sq);
            on_square = v;
            side = !side;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    /// A capture with a blast: no piece is left on the square to take back, so what it wins
    /// is what it removes, the opponent's pieces counted for and the mover's against.
    fn blast_see<B: Bits>(&self, pos: &Position<B>, m: Move) -> i32 {
        let us = pos.side_to_move();
        let victim = match (m.kind(), pos.en_passant_victim()) {
            (MoveKind::EnPassant, Some(victim)) => victim,
            _ => m.to(),
        };
        let blasted = pos.blasted(m).into_iter().map(|sq| match pos.piece_at(sq) {
            Some((c, t)) if c == us => -self.value(pos, t),
            _ => self.value_at(pos, sq),
        });
        self.value_at(pos, victim) + blasted.sum::<i32>()
    }

    /// By side and squares; a drop by its square alone (the slot of a move from `to` to `to`,
    /// which no board move takes).
    pub(super) fn history_index(side: Colour, m: Move) -> usize {
        let from = if m.is_drop() { m.to() } else { m.from() };
        (side.index() * MAX_SQUARES + from.index()) * MAX_SQUARES + m.to().index()
    }

    /// The moves one and two plies before `ply` in the line searched.
    pub(super) fn previous(&self, ply: usize) -> [Key; OFFSETS] {
        std::array::from_fn(|k| if ply > k { self.line[ply - 1 - k] } else { NO_KEY })
    }

    pub(super) fn continuation_key<B: Bits>(&self, pos: &Position<B>, m: Move) -> Key {
        pos.moved_type(m).map_or(NO_KEY, |t| self.continuation.key(t, m.to()))
    }

    /// A quiet move's history: by its squares, and after the moves before it.
    pub(super) fn quiet_score<B: Bits>(&self, pos: &Position<B>, m: Move, ply: usize) -> i32 {
        let side = pos.side_to_move();
        self.history[Self::history_index(side, m)]
            + self.continuation.score(side, self.previous(ply), self.continuation_key(pos, m))
    }

    pub(super) fn counter_index<B: Bits>(pos: &Position<B>) -> Option<usize> {
        let last = pos.last_move()?;
        let (c, t) = pos.piece_at(last.to())?;
        Some((c.index() * MAX_TYPES + t.index()) * MAX_SQUARES + last.to().index())
    }

    /// Ordering score: hash move; captures and promotions that do not lose material, by
    /// victim and then attacker; killers; the counter move; quiet moves by history; captures
    /// that lose material last.
    pub(super) fn order<B: Bits>(
        &self,
        pos: &Position<B>,
        moves: &[Move],
        hash: Move,
        ply: usize,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let counter = Self::counter_index(pos).map_or(Move::NONE, |i| self.counters[i]);
        for &m in moves {
            let s = if m == hash {
                HASH_MOVE
            } else if pos.is_capture(m) || m.promoted().is_some() {
                let victim = if pos.is_capture(m) { self.value_at(pos, m.to()).min(ROYAL_VALUE) } else { 0 };
                let promo = m.promoted().map_or(0, |t| self.values[t]);
                let attacker = self.value_at(pos, m.from());
                let mvv = 16 * (victim + promo) - attacker / 16;
                // Taking a piece worth as much as the taker cannot lose: no exchange to count.
                if victim + promo >= attacker || self.see(pos, m) >= 0 {
                    GOOD_CAPTURE + mvv
                } else {
                    -GOOD_CAPTURE + mvv
                }
            } else if m == self.killers[ply][0] {
                KILLER + 2
            } else if m == self.killers[ply][1] {
                KILLER + 1
            } else if m == counter {
                KILLER
            } else {
                self.quiet_score(pos, m, ply)
            };
            scores.push(s);
        }
    }

    /// Moves the captures and promotions of `moves` (and their scores) to its front, in their
    /// order; returns how many there are.
    pub(super) fn keep_noisy<B: Bits>(pos: &Position<B>, moves: &mut [Move], scores: &mut [i32]) -> usize {
        let mut kept = 0;
        for j in 0..moves.len() {
            if !pos.is_quiet(moves[j]) {
                moves.swap(kept, j);
                scores.swap(kept, j);
                kept += 1;
            }
        }
        kept
    }

    pub(super) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
        moves[i]
    }

    /// Moves a history score towards `HISTORY_MAX` (or its negative) by `bonus`.
    pub(super) fn nudge(h: &mut i32, bonus: i32) {
        *h = nudged(*h, bonus, HISTORY_MAX);
    }

    /// The quiet move `m` refuted the opponent: it and its killers, counter move and history
    /// gain; the quiet moves tried before it lose history.
    pub(super) fn reward<B: Bits>(
        &mut self,
        pos: &Position<B>,
        us: Colour,
        m: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if let Some(i) = Self::counter_index(pos) {
            self.counters[i] = m;
        }
        let bonus = (depth * depth * self.params.history_bonus).min(self.params.history_bonus_max);
        let previous = self.previous(ply);
        for (q, b) in tried.iter().filter(|&&q| q != m).map(|&q| (q, -bonus)).chain([(m, bonus)]) {
            Self::nudge(&mut self.history[Self::history_index(us, q)], b);
            let key = self.continuation_key(pos, q);
            self.continuation.nudge(us, previous, key, b, HISTORY_MAX);
        }
    }
}
