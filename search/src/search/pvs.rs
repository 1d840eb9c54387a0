//! The principal variation search: the full-width nodes, their prunings and reductions.

use hoplite_core::Bits;

use super::ordering::KILLER;
use super::Search;
use super::INF;
use super::MAX_PLY;
use crate::params::SearchParams;
use crate::score::MATE;
use crate::score::MATE_BOUND;
use crate::tt::Bound;
use hoplite_core::Move;
use hoplite_core::Position;

/// Late move reductions by depth and move number: `base + ln d · ln n / divisor` (0.8 and
/// 2.4 by default).
pub(super) fn reductions(p: &SearchParams) -> Vec<[i32; 64]> {
    // Hundredths divided exactly as the decimals were written: 80 / 100 is the double 0.8.
    let (base, divisor) = (f64::from(p.lmr_base) / 100.0, f64::from(p.lmr_divisor) / 100.0);
    (0..=MAX_PLY)
        .map(|d| {
            std::array::from_fn(|n| {
                if d == 0 || n == 0 {
                    0
                } else {
                    (base + (d as f64).ln() * (n as f64).ln() / divisor) as i32
                }
            })
        })
        .collect()
}

/// What a full-width node knows once it has looked at itself, for its moves.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    is_pv: bool,
    in_check: bool,
    /// The evaluation rose since the side's last move.
    improving: bool,
    /// The opponent is bare, or nearly: no pruning on the evaluation.
    mating: bool,
    eval: i32,
    hash_move: Move,
}

/// What becomes of a move: searched, skipped, or skipped with the quiet moves after it.
enum Prune {
    Search,
    Skip,
    QuietsAfter,
}

impl Search {
    /// Whether a null move may be tried: one royal piece (a pass may be illegal with more),
    /// and pieces besides pawns and royals (with only those, zugzwang is the rule).
    pub(super) fn null_move_allowed<B: Bits>(pos: &Position<B>) -> bool {
        let us = pos.side_to_move();
        let royals = pos.royals(us);
        royals.count() == 1 && (pos.colour_bb(us) & !royals & !pos.pawns()).non_empty()
    }

    /// The principal variation search of `pos` to `depth` in (`alpha`, `beta`); `in_check`:
    /// whether the side to move is in check, which the caller has had to find out already
    /// (for its reductions) and does not ask again.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        is_pv: bool,
        in_check: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.out_of_budget() {
            return 0;
        }
        if ply > 0 {
            if let Some(s) = Self::early_end(pos, ply) {
                return s;
            }
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        // A node in check is searched a ply deeper: its parent extends it, the root itself.
        if ply == 0 && in_check {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply, 0, in_check);
        }
        let key = pos.key();
        let (hash_move, cached_eval) = match self.probe(key, depth, alpha, beta, ply, is_pv) {
            Ok(found) => found,
            Err(score) => return score,
        };
        // The table keeps the evaluation as computed; the search uses it corrected.
        let raw_eval = match (in_check, cached_eval) {
            (true, _) => -INF,
            (false, Some(e)) => e,
            (false, None) => self.evaluate(pos),
        };
        let eval = if in_check { -INF } else { raw_eval + self.correction.get(pos) };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        // Against a king bare or nearly (one piece left, whose capture may end the game) the
        // static evaluation says little of the win to find: the prunings stay off there.
        let them = !pos.side_to_move();
        let mating = (pos.colour_bb(them) & !pos.royals(them)).count() <= 1;
        let quiet_node = !is_pv && !in_check && beta.abs() < MATE_BOUND && !mating;
        if quiet_node {
            if let Some(s) = self.prune_node(pos, depth, beta, eval, improving, ply) {
                return s;
            }
        }
        // Internal iterative reduction: without a hash move, this node was not searched deep.
        if hash_move == Move::NONE && depth >= self.params.iir_depth && !in_check {
            depth -= 1;
        }
        let node = Node { depth, ply, is_pv, in_check, improving, mating, eval, hash_move };
        let (best_score, best_move) = match self.search_moves(pos, node, alpha, beta) {
            Ok(best) => best,
            Err(score) => return score,
        };
        let bound = Bound::of(best_score, alpha, beta);
        // A score the bound pins on the far side of the evaluation says how wrong it was
        // (not after a capture, which the evaluation is not asked to foresee).
        if !in_check
            && best_score.abs() < MATE_BOUND
            && bound.beyond(best_score, eval)
            && (best_move == Move::NONE || pos.is_quiet(best_move))
        {
            self.correction.learn(pos, best_score - raw_eval, depth);
        }
        self.tt.store(key, best_move, Self::tt_score_out(best_score, ply), depth, bound, raw_eval);
        best_score
    }

    /// The table's entry for `key`: its move and stored evaluation, or (`Err`) the score that
    /// ends the node, off the principal line when the entry was searched deep enough.
    fn probe(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
    ) -> Result<(Move, Option<i32>), i32> {
        let Some(hit) = self.tt.probe(key) else { return Ok((Move::NONE, None)) };
        let s = Self::tt_score_in(hit.score, ply);
        if !is_pv && hit.depth >= depth {
            match hit.bound {
                Bound::Exact => return Err(s),
                Bound::Lower if s >= beta => return Err(s),
                Bound::Upper if s <= alpha => return Err(s),
                _ => {}
            }
        }
        Ok((hit.mv, Some(hit.eval)))
    }

    /// The node's moves, in order, each pruned or searched: the best score and move, or
    /// (`Err`) the node's score without one (no legal move, every move pruned, aborted).
    fn search_moves<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Move), i32> {
        let Node { depth, ply, is_pv, in_check, .. } = node;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves_in_check(&mut moves, in_check);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return Err(Self::result_score(pos, pos.no_moves_result().0, ply));
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order(pos, &moves, node.hash_move, ply, &mut scores);
        let us = pos.side_to_move();
        let mut best_score = -INF;
        let mut best_move = Move::NONE;
        let mut quiets_tried: [Move; 64] = [Move::NONE; 64];
        let mut nquiets = 0;
        // The moves still to look at are those before `end`.
        let mut end = moves.len();
        for i in 0..moves.len() {
            if i >= end {
                break;
            }
            let m = Self::pick(&mut moves[..end], &mut scores[..end], i);
            if ply == 0 && self.excluded.contains(&m) {
                continue;
            }
            let quiet = pos.is_quiet(m);
            // Pruning of moves that are unlikely to matter, once a move has been found.
            if !is_pv && !in_check && !node.mating && best_score > -MATE_BOUND && m != node.hash_move {
                match self.prune_move(pos, &node, m, quiet, scores[i], nquiets, alpha) {
                    Prune::Search => {}
                    Prune::Skip => continue,
                    Prune::QuietsAfter => {
                        // Every quiet move after this one would be pruned too (the count only
                        // grows, alpha only rises, the scores fall): they are dropped unseen.
                        end = i + 1 + Self::keep_noisy(pos, &mut moves[i + 1..end], &mut scores[i + 1..end]);
                        continue;
                    }
                }
            }
            let score = self.search_move(pos, &node, m, i, quiet, scores[i], alpha, beta);
            if self.aborted {
                break;
            }
            if quiet && nquiets < quiets_tried.len() {
                quiets_tried[nquiets] = m;
                nquiets += 1;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if ply == 0 {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(pos, us, m, &quiets_tried[..nquiets], depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return Err(0);
        }
        if best_score == -INF {
            // Every move was pruned: a fail-low at the static bound.
            return Err(alpha);
        }
        Ok((best_score, best_move))
    }

    /// Whether the `score`-ordered move `m` is pruned: late quiet moves and futile ones (with
    /// every quiet move after them), and moves that lose too much in exchanges.
    #[allow(clippy::too_many_arguments)]
    fn prune_move<B: Bits>(
        &self,
        pos: &Position<B>,
        node: &Node,
        m: Move,
        quiet: bool,
        score: i32,
        nquiets: usize,
        alpha: i32,
    ) -> Prune {
        let (p, depth) = (&self.params, node.depth);
        if quiet {
            let late = p.lmp_base + depth * depth / (2 - i32::from(node.improving));
            let futile = node.eval + p.futility_base + p.futility_margin * depth <= alpha;
            if depth <= p.lmp_depth && (nquiets as i32 >= late || futile && score < KILLER) {
                return Prune::QuietsAfter;
            }
            if depth <= p.lmp_depth && self.see(pos, m) < -p.see_quiet_margin * depth {
                return Prune::Skip;
            }
        } else if depth <= p.see_capture_depth && score < 0 && self.see(pos, m) < -p.see_capture_margin * depth {
            return Prune::Skip;
        }
        Prune::Search
    }

    /// The score of the `i`-th move `m` (ordered by `score`): the first with the full window,
    /// the others with a null window, reduced if late and quiet, searched again when they
    /// beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_move<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        node: &Node,
        m: Move,
        i: usize,
        quiet: bool,
        score: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let Node { depth, ply, is_pv, .. } = *node;
        self.make(pos, m, ply);
        // The child is told whether it is in check, and extended if so.
        let check = pos.in_check();
        let next = depth - 1 + i32::from(check && ply + 1 < MAX_PLY / 2);
        let s = if i == 0 {
            -self.pvs(pos, next, -beta, -alpha, ply + 1, is_pv, check)
        } else {
            let p = &self.params;
            let r = match quiet && depth >= p.lmr_depth && i >= p.lmr_moves as usize + usize::from(is_pv) {
                true => self.reduction(depth, i, score, is_pv, check, node.improving),
                false => 0,
            };
            let mut s = -self.pvs(pos, next - r, -alpha - 1, -alpha, ply + 1, false, check);
            if s > alpha && r > 0 {
                s = -self.pvs(pos, next, -alpha - 1, -alpha, ply + 1, false, check);
            }
            if s > alpha && s < beta && is_pv {
                s = -self.pvs(pos, next, -beta, -alpha, ply + 1, true, check);
            }
            s
        };
        self.unmake(pos);
        s
    }

    /// The null-move verification: the same node, searched as a principal node (where no
    /// null move is tried) with beta's null window, one ply deep at least.
    pub(super) fn pvs_no_null<B: Bits>(&mut self, pos: &mut Position<B>, depth: i32, beta: i32, ply: usize) -> i32 {
        self.pvs(pos, depth.max(1), beta - 1, beta, ply, true, false)
    }

    /// Prunings of a quiet node before its moves, on the static evaluation: reverse futility
    /// (far above beta with few plies left, a quiet move will not fall) and the null move
    /// (passing still leaves the side above beta). A score ends the node.
    pub(super) fn prune_node<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        depth: i32,
        beta: i32,
        eval: i32,
        improving: bool,
        ply: usize,
    ) -> Option<i32> {
        let p = &self.params;
        if depth <= p.rfp_depth && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta {
            return Some(eval);
        }
        if depth < p.nmp_depth || eval < beta || pos.last_move().is_none() || !Self::null_move_allowed(pos) {
            return None;
        }
        let r = p.nmp_reduction + depth / p.nmp_depth_divisor + ((eval - beta) / p.nmp_eval_divisor).min(3);
        self.make_null(pos, ply);
        let s = -self.pvs(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false, pos.in_check());
        self.unmake_null(pos);
        if self.aborted {
            return Some(0);
        }
        if s < beta {
            return None;
        }
        // Where zugzwang threatens (deep, or few pieces left) the pass is checked by a reduced
        // search without one.
        let pieces = (pos.colour_bb(pos.side_to_move()) & !pos.pawns()).count();
        if depth < self.params.nmp_verify_depth && pieces > 3 {
            return Some(if s > MATE_BOUND { beta } else { s });
        }
        (self.pvs_no_null(pos, depth - 1 - r, beta, ply) >= beta).then_some(beta)
    }

    /// Late move reduction of the `i`-th quiet move (ordered by `score`): log-shaped in depth
    /// and move number, less at principal nodes, for checks and for moves with good history.
    pub(super) fn reduction(&self, depth: i32, i: usize, score: i32, is_pv: bool, check: bool, improving: bool) -> i32 {
        let mut r = self.reductions[depth as usize][i.min(63)];
        r -= i32::from(is_pv) + i32::from(check) + i32::from(score >= KILLER);
        r += i32::from(!improving);
        // The history sum of three tables (squares, one and two plies before), each within ±2^14.
        r -= score / self.params.lmr_history_divisor;
        r.clamp(0, depth - 2)
    }
}
