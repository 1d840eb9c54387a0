//! The quiescence search: captures and promotions that do not lose material, evasions in
//! check, and the principal line of it that Texel tuning plays out.

use hoplite_core::Bits;

use super::Search;
use super::INF;
use super::MAX_PLY;
use super::QUIET_LIMIT;
use super::QUIET_RECAPTURES;
use crate::budget::Budget;
use crate::tt::Bound;
use hoplite_core::Move;
use hoplite_core::Position;

impl Search {
    /// Quiescence: captures and promotions that do not lose material (evasions in check).
    /// `qply` counts its plies: past `QUIET_RECAPTURES` only recaptures on the last move's
    /// square are tried, past `QUIET_LIMIT` none, so that capture trees among equal pieces
    /// stay small.
    pub(super) fn qsearch<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if self.out_of_budget() {
            return 0;
        }
        if let Some(s) = Self::early_end(pos, ply) {
            return s;
        }
        let in_check = pos.in_check();
        self.quiesce(pos, alpha, beta, ply, qply, in_check)
    }

    /// `qsearch` once the node's budget, its end by the rules and its check are known (as the
    /// full-width search knows them when it hands a node over).
    pub(super) fn quiesce<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        in_check: bool,
    ) -> i32 {
        if ply >= MAX_PLY - 1 || (qply >= QUIET_LIMIT && !in_check) {
            return self.evaluate(pos);
        }
        // The table's bounds end a node off the principal line; the tuner's lines (which must
        // not depend on the positions resolved before) use none of it.
        let key = pos.key();
        let hit = if self.qsearch_tt { self.tt.probe(key) } else { None };
        let is_pv = beta - alpha > 1;
        if let Some(h) = hit.as_ref().filter(|_| !is_pv) {
            let s = Self::tt_score_in(h.score, ply);
            match h.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let original_alpha = alpha;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut raw_eval = -INF;
        let mut stand_pat = -INF;
        if in_check {
            pos.legal_moves_in_check(&mut moves, true);
            if moves.is_empty() {
                self.moves[ply] = moves;
                return Self::result_score(pos, pos.no_moves_result().0, ply);
            }
        } else {
            // Stand pat. Stalemate is left to the full-width search.
            raw_eval = match &hit {
                Some(h) => h.eval,
                None => self.evaluate(pos),
            };
            // Corrected as in the full-width search, except in the tuner's lines, which must
            // not depend on what was searched before.
            stand_pat = raw_eval + if self.qsearch_tt { self.correction.get(pos) } else { 0 };
            best = stand_pat;
            if best >= beta {
                self.moves[ply] = moves;
                if self.qsearch_tt && hit.is_none() {
                    self.tt.store(key, Move::NONE, Self::tt_score_out(best, ply), 0, Bound::Lower, raw_eval);
                }
                return best;
            }
            alpha = alpha.max(best);
            pos.legal_captures(&mut moves, false);
            if qply >= QUIET_RECAPTURES {
                if let Some(last) = pos.last_move() {
                    moves.retain(|m| m.to() == last.to());
                }
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order(pos, &moves, hit.as_ref().map_or(Move::NONE, |h| h.mv), ply, &mut scores);
        for i in 0..moves.len() {
            let m = Self::pick(&mut moves, &mut scores, i);
            if !in_check {
                // A capture that loses material, or that cannot lift the score to alpha even
                // if it wins its victim clean (delta pruning), is not tried; those that lose
                // material come last.
                if scores[i] < 0 {
                    break;
                }
                // A blast's capture wins all it removes.
                let victim = match pos.is_capture(m) {
                    true if pos.variant().rules.blast.is_some() => self.see(pos, m),
                    true => self.value_at(pos, m.to()),
                    false => 0,
                };
                let promo = m.promoted().map_or(0, |t| self.values[t]);
                if m.promoted().is_none() && stand_pat + victim + promo + self.params.delta_margin <= alpha {
                    continue;
                }
            }
            self.make(pos, m, ply);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            self.unmake(pos);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = m;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.qsearch_tt && !self.aborted && qply < QUIET_RECAPTURES {
            let bound = Bound::of(best, original_alpha, beta);
            self.tt.store(key, best_move, Self::tt_score_out(best, ply), 0, bound, raw_eval);
        }
        best
    }

    pub(super) fn quiescence_line_in<B: Bits>(&mut self, pos: &mut Position<B>) -> (i32, Vec<Move>) {
        self.budget = Budget::default();
        self.plan_time();
        self.aborted = false;
        self.nodes = 0;
        self.qsearch_tt = false;
        self.fit_tables(pos);
        let score = self.qsearch(pos, -INF, INF, 0, 0);
        self.qsearch_tt = true;
        (score, self.pv[0].clone())
    }
}
