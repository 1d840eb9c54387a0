//! Alpha-beta search: iterative deepening, principal variation search with aspiration
//! windows, quiescence, transposition table, killers and history, check extension, null move
//! and late-move reductions. Game ends of every variant are scored inside the tree.

use crate::eval::{evaluate, Weights, MATERIAL};
use crate::tt::{Bound, TranspositionTable};
use hoplite_core::{GameResult, Move, Position, WHITE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = 32_000;
pub const MAX_PLY: usize = 100;
const QUIET_RECAPTURES: usize = 6;
const QUIET_LIMIT: usize = 16;

/// When to stop. Under a depth or node limit the search is deterministic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
}

impl Limits {
    /// These limits with time taken from a clock: `left` on it, `increment` a move (and
    /// `moves_to_go` to the next time control, 30 if none is set).
    pub fn with_clock(self, left: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
        let togo = moves_to_go.unwrap_or(30).max(1);
        let spend = (left / togo + increment * 3 / 4).min(left.saturating_sub(Duration::from_millis(50)) / 2);
        Limits { movetime: Some(spend.max(Duration::from_millis(1))), ..self }
    }

    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Default::default() }
    }
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Default::default() }
    }
}

/// One completed iteration, as UCI `info` reports it.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// Receives each completed iteration.
pub type InfoSink = Box<dyn FnMut(&Info) + Send>;

/// One search value per game or per engine: its own tables, no globals.
pub struct Search {
    pub weights: Weights,
    tt: TranspositionTable,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    values: Vec<i32>,
    nodes: u64,
    limits: Limits,
    start: Instant,
    stop: Arc<AtomicBool>,
    aborted: bool,
    root_best: Option<(Move, i32)>,
    info: Option<InfoSink>,
}

impl Search {
    pub fn new(weights: Weights, tt_megabytes: usize) -> Search {
        let values = (0..weights.types).map(|t| weights.get(MATERIAL, t).max(1)).collect();
        Search {
            tt: TranspositionTable::new(tt_megabytes),
            killers: vec![[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            values,
            weights,
            nodes: 0,
            limits: Limits::default(),
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            root_best: None,
            info: None,
        }
    }

    /// A flag that stops the search when set (from another thread). The search does not clear
    /// it: whoever sets it clears it before the next search, so that a stop sent just as a
    /// search starts is not lost.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Called after every completed iteration.
    pub fn set_info(&mut self, f: impl FnMut(&Info) + Send + 'static) {
        self.info = Some(Box::new(f));
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [Move::NONE; 2]);
    }

    pub fn search(&mut self, pos: &mut Position, limits: Limits) -> SearchResult {
        self.limits = limits;
        self.nodes = 0;
        self.start = Instant::now();
        self.aborted = false;
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut root_moves = Vec::new();
        pos.legal_moves(&mut root_moves);
        let mut result =
            SearchResult { best: root_moves.first().copied(), score: 0, depth: 0, nodes: 0, pv: Vec::new() };
        if root_moves.is_empty() {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut score = 0;
        for depth in 1..=max_depth {
            self.root_best = None;
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 4 { (score - delta, score + delta) } else { (-INF, INF) };
            loop {
                let s = self.pvs(pos, depth as i32, alpha, beta, 0, true);
                if self.aborted {
                    break;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-INF);
                } else if s >= beta {
                    beta = (beta + delta).min(INF);
                } else {
                    score = s;
                    break;
                }
                delta *= 2;
            }
            if self.aborted {
                // A move that beat the previous best in a full-window search is trustworthy.
                if let Some((m, s)) = self.root_best.filter(|(m, _)| Some(*m) != result.best) {
                    result.best = Some(m);
                    result.score = s;
                    result.pv = vec![m];
                }
                break;
            }
            result.best = self.pv[0].first().copied().or(result.best);
            result.score = score;
            result.depth = depth;
            result.pv = self.pv[0].clone();
            if let Some(f) = self.info.as_mut() {
                f(&Info { depth, score, nodes: self.nodes, elapsed: self.start.elapsed(), pv: result.pv.clone() });
            }
            if let Some(t) = limits.movetime {
                if self.start.elapsed() * 2 > t {
                    break;
                }
            }
            if score.abs() > MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 2 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        let out_of_time = self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.limits.movetime.is_some_and(|t| self.start.elapsed() >= t));
        self.aborted = out_of_nodes || out_of_time;
        self.aborted
    }

    /// Score of a finished game from the side to move's view, `ply` plies from the root.
    fn result_score(pos: &Position, result: GameResult, ply: usize) -> i32 {
        match result {
            GameResult::Draw => 0,
            r if (r == GameResult::WhiteWins) == (pos.side_to_move() == WHITE) => MATE - ply as i32,
            _ => -(MATE - ply as i32),
        }
    }

    /// The game's end before moves are generated (the core's one definition: a mate on the
    /// hundredth ply is a mate). In the tree a position seen once before is a draw: a side that
    /// could win would not repeat.
    fn early_end(pos: &Position, ply: usize) -> Option<i32> {
        let repetitions = pos.variant().repetitions.min(2) as usize;
        pos.draw_or_decision(repetitions).map(|(r, _)| Self::result_score(pos, r, ply))
    }

    fn tt_score_out(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score + ply as i32
        } else if score < -MATE_BOUND {
            score - ply as i32
        } else {
            score
        }
    }

    fn tt_score_in(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score - ply as i32
        } else if score < -MATE_BOUND {
            score + ply as i32
        } else {
            score
        }
    }

    fn value_of(&self, pos: &Position, sq: usize) -> i32 {
        pos.piece_at(sq).map_or(
            100,
            |(_, t)| {
                if pos.variant().royal_mask >> t & 1 != 0 {
                    5_000
                } else {
                    self.values[t]
                }
            },
        )
    }

    /// Ordering score: hash move, then captures by MVV-LVA and promotions, killers, history.
    fn order(&self, pos: &Position, moves: &[Move], hash: Move, ply: usize, scores: &mut Vec<i32>) {
        scores.clear();
        let side = pos.side_to_move();
        for &m in moves {
            let s = if m == hash {
                1 << 30
            } else if pos.is_capture(m) || m.promoted().is_some() {
                let victim = if pos.is_capture(m) { self.value_of(pos, m.to()) } else { 0 };
                let promo = m.promoted().map_or(0, |t| self.values[t]);
                (1 << 24) + 16 * (victim + promo) - self.value_of(pos, m.from()) / 16
            } else if m == self.killers[ply][0] {
                (1 << 23) + 1
            } else if m == self.killers[ply][1] {
                1 << 23
            } else {
                self.history[(side * 128 + m.from()) * 128 + m.to()]
            };
            scores.push(s);
        }
    }

    fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
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

    fn pvs(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        is_pv: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
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
        let in_check = pos.in_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let key = pos.key();
        let mut hash_move = Move::NONE;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            let s = Self::tt_score_in(hit.score, ply);
            if !is_pv && hit.depth >= depth {
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return Self::result_score(pos, pos.no_moves_result().0, ply);
        }
        // Null move: not in check, not with several royals (a pass may be illegal there), not
        // with pawns and royals only (zugzwang).
        let us = pos.side_to_move();
        if !is_pv && !in_check && depth >= 3 && ply > 0 && pos.last_move().is_some() && beta.abs() < MATE_BOUND {
            let royals = pos.royals(us);
            let pieces = pos.colour_bb(us) & !royals & !pos.pawns();
            if royals.count() == 1 && pieces.non_empty() && evaluate(pos, &self.weights) >= beta {
                let r = 2 + depth / 4;
                pos.make_null();
                let s = -self.pvs(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                pos.unmake_null();
                if self.aborted {
                    self.moves[ply] = moves;
                    return 0;
                }
                if s >= beta {
                    self.moves[ply] = moves;
                    return beta;
                }
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order(pos, &moves, hash_move, ply, &mut scores);
        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            let m = Self::pick(&mut moves, &mut scores, i);
            let quiet = !pos.is_capture(m) && m.promoted().is_none();
            pos.make(m);
            let score = if i == 0 {
                -self.pvs(pos, depth - 1, -beta, -alpha, ply + 1, is_pv)
            } else {
                let r = if depth >= 3 && i >= 3 && quiet && !in_check && !pos.in_check() {
                    (1 + i32::from(i >= 8) + depth / 8).min(depth - 2)
                } else {
                    0
                };
                let mut s = -self.pvs(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 {
                    s = -self.pvs(pos, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && is_pv {
                    s = -self.pvs(pos, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            pos.unmake();
            if self.aborted {
                break;
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
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let h = &mut self.history[(us * 128 + m.from()) * 128 + m.to()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, Self::tt_score_out(best_score, ply), depth, bound);
        best_score
    }

    /// Quiescence: captures and promotions (evasions in check). `qply` counts its plies: past
    /// `QUIET_RECAPTURES` only recaptures on the last move's square are tried, past
    /// `QUIET_LIMIT` none, so that capture trees among equal pieces stay small.
    fn qsearch(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.pv[ply].clear();
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        if let Some(s) = Self::early_end(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 || (qply >= QUIET_LIMIT && !pos.in_check()) {
            return evaluate(pos, &self.weights);
        }
        let in_check = pos.in_check();
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut best = -INF;
        if in_check {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                self.moves[ply] = moves;
                return Self::result_score(pos, pos.no_moves_result().0, ply);
            }
        } else {
            // Stand pat. Stalemate is left to the full-width search.
            best = evaluate(pos, &self.weights);
            if best >= beta {
                self.moves[ply] = moves;
                return best;
            }
            alpha = alpha.max(best);
            pos.legal_captures(&mut moves);
            if qply >= QUIET_RECAPTURES {
                if let Some(last) = pos.last_move() {
                    moves.retain(|m| m.to() == last.to());
                }
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order(pos, &moves, Move::NONE, ply, &mut scores);
        for i in 0..moves.len() {
            let m = Self::pick(&mut moves, &mut scores, i);
            pos.make(m);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.unmake();
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        best
    }

    /// `m` followed by the child's line becomes the line at `ply`.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The quiescence search's principal line from `pos` (captures and promotions, or
    /// evasions): playing it out gives the quiet position whose static evaluation the
    /// quiescence score is, as Texel tuning prescribes.
    pub fn quiescence_line(&mut self, pos: &mut Position) -> (i32, Vec<Move>) {
        self.limits = Limits::default();
        self.aborted = false;
        self.nodes = 0;
        let score = self.qsearch(pos, -INF, INF, 0, 0);
        (score, self.pv[0].clone())
    }
}
