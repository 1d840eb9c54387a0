//! Alpha-beta search: iterative deepening, principal variation search with aspiration
//! windows, quiescence with static exchange pruning, transposition table, move ordering by
//! hash move, exchange-sound captures, killers, counter moves, history and continuation
//! history; check extension, reverse futility, null move (verified where zugzwang threatens),
//! futility, late move pruning and reductions, internal iterative reduction; the static
//! evaluation corrected by the pawn structure's history. Game ends of every variant are
//! scored inside the tree, by the core's one definition. Nothing here names a variant: the
//! scores and the pieces' exchange values come from the evaluator, the rules from the position.
//!
//! The rooms: this one drives the search (iterative deepening, aspiration, the root's lines)
//! and makes and unmakes its moves; `pvs` holds the full-width nodes, `qsearch` the
//! quiescence search, `ordering` move ordering and exchanges, `time` when to stop, and
//! `continuation` and `correction` the histories the search learns.

use pvs::reductions;

mod continuation;
mod correction;
mod ordering;
mod pvs;
mod qsearch;
mod time;

#[cfg(test)]
mod tests;

use crate::budget::Budget;
use crate::eval::{EvalCache, EvalState, Evaluator};
use crate::params::SearchParams;
use crate::score::{MATE, MATE_BOUND};
use crate::tt::TranspositionTable;
use continuation::{ContinuationHistory, Key, NO_KEY};
use correction::CorrectionHistory;
use hoplite_core::{Bits, GameResult, Job, Move, Position};
use hoplite_core::{MAX_SQUARES, MAX_TYPES};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

const INF: i32 = 32_000;
pub const MAX_PLY: usize = 100;
const QUIET_RECAPTURES: usize = 6;
const QUIET_LIMIT: usize = 16;

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
    /// The root moves scored, best first (one, or as many as a multi-PV search asked for).
    pub lines: Vec<Line>,
}

/// A root move, its score and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// Receives each line (numbered from 1) of each completed iteration.
pub type InfoSink = Box<dyn FnMut(usize, &Info) + Send>;

/// One search value per game or per engine: its own tables, no globals.
pub struct Search {
    evaluator: Evaluator,
    /// What the evaluator keeps move by move, in step with the position searched.
    eval_state: EvalState,
    params: SearchParams,
    tt: TranspositionTable,
    killers: Vec<[Move; 2]>,
    /// Quiet moves' success, by side, from and to.
    history: Vec<i32>,
    /// The reply that refuted a move, by the moved piece's colour and type and its square.
    counters: Vec<Move>,
    continuation: ContinuationHistory,
    correction: CorrectionHistory,
    /// Evaluations of the evaluator below, which stays as the search was made with.
    eval_cache: EvalCache,
    /// The move made at each ply of the line searched, as the continuation history names it.
    line: Vec<Key>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    /// Static evaluation per ply (for "improving").
    evals: Vec<i32>,
    /// Each piece type's value in exchanges, from the evaluator.
    values: Vec<i32>,
    reductions: Vec<[i32; 64]>,
    /// The moves the search has made (null moves aside): a node is a position reached by a
    /// move, counted once however often it is searched, as Stockfish counts them, so that a
    /// node budget or nodes a second mean the same for hoplite and an outside engine.
    nodes: u64,
    budget: Budget,
    /// The time this move should take, from the clock: no iteration starts once it is well
    /// spent.
    target: Option<Duration>,
    /// The most it may: the move time, or the clock's limit.
    deadline: Option<Duration>,
    start: Instant,
    stop: Arc<AtomicBool>,
    aborted: bool,
    /// Whether the node budget may stop the search: not before a multi-PV search has ranked
    /// its lines once (depth 1), so that it always ranks some; a single line always returns a
    /// move anyway.
    nodes_bind: bool,
    root_best: Option<(Move, i32)>,
    /// Root moves left out: those of the lines a multi-PV iteration has already found.
    excluded: Vec<Move>,
    /// Whether the quiescence search reads and writes the table (not for the tuner's lines).
    qsearch_tt: bool,
    info: Option<InfoSink>,
}

impl Search {
    /// A search with this evaluation (linear `Weights` or an `Evaluator`) and a transposition
    /// table of this many MiB.
    pub fn new(evaluator: impl Into<Evaluator>, tt_megabytes: usize) -> Search {
        let evaluator = evaluator.into();
        let values = evaluator.exchange_values();
        Search {
            tt: TranspositionTable::new(tt_megabytes),
            killers: vec![[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * MAX_SQUARES * MAX_SQUARES],
            counters: vec![Move::NONE; 2 * MAX_TYPES * MAX_SQUARES],
            continuation: ContinuationHistory::new(),
            correction: CorrectionHistory::new(),
            eval_cache: EvalCache::new(),
            line: vec![NO_KEY; MAX_PLY + 1],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            evals: vec![0; MAX_PLY + 1],
            values,
            reductions: reductions(&SearchParams::default()),
            params: SearchParams::default(),
            eval_state: evaluator.state(),
            evaluator,
            nodes: 0,
            budget: Budget::default(),
            target: None,
            deadline: None,
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            nodes_bind: true,
            root_best: None,
            excluded: Vec::new(),
            qsearch_tt: true,
            info: None,
        }
    }

    /// `pos`'s static evaluation (`Evaluator::evaluate`), from the cache where it is.
    fn evaluate<B: Bits>(&mut self, pos: &Position<B>) -> i32 {
        let (evaluator, state) = (&self.evaluator, &self.eval_state);
        self.eval_cache.get(pos, || evaluator.evaluate(state, pos))
    }

    /// The evaluator (fixed for the search's life: its cache holds its results).
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Makes `m`, `ply` plies from the root: the one place the search moves, so that what
    /// follows a move (the evaluation's state, the line the histories read, the node count)
    /// keeps in step with it.
    #[inline]
    fn make<B: Bits>(&mut self, pos: &mut Position<B>, m: Move, ply: usize) {
        self.evaluator.push(&mut self.eval_state, pos, m);
        self.line[ply] = self.continuation_key(pos, m);
        pos.make(m);
        self.nodes += 1;
    }

    /// Takes back the move `make` made.
    #[inline]
    fn unmake<B: Bits>(&mut self, pos: &mut Position<B>) {
        self.evaluator.pop(&mut self.eval_state);
        pos.unmake();
    }

    /// Passes, `ply` plies from the root (the null move: no node, no move in the line).
    #[inline]
    fn make_null<B: Bits>(&mut self, pos: &mut Position<B>, ply: usize) {
        self.line[ply] = NO_KEY;
        pos.make_null();
    }

    /// Takes back the pass `make_null` made.
    #[inline]
    fn unmake_null<B: Bits>(&mut self, pos: &mut Position<B>) {
        pos.unmake_null();
    }

    /// The search's parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Searches from now on with these parameters.
    pub fn set_params(&mut self, params: SearchParams) {
        self.reductions = reductions(&params);
        self.params = params;
    }

    /// A flag that stops the search when set (from another thread). The search does not clear
    /// it: whoever sets it clears it before the next search, so that a stop sent just as a
    /// search starts is not lost.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Called after every completed iteration.
    pub fn set_info(&mut self, f: impl FnMut(usize, &Info) + Send + 'static) {
        self.info = Some(Box::new(f));
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.iter_mut().for_each(|c| *c = Move::NONE);
        self.continuation.clear();
        self.correction.clear();
        self.eval_cache.clear();
        self.killers.iter_mut().for_each(|k| *k = [Move::NONE; 2]);
    }

    pub fn search(&mut self, pos: &mut Position, budget: Budget) -> SearchResult {
        self.search_lines(pos, budget, 1)
    }

    /// A search that scores the `lines` best root moves (multi-PV): each iteration searches
    /// the root once per line, the moves of the lines before it left out. `SearchResult::lines`
    /// holds them, best first, from the last iteration that completed every line.
    pub fn search_lines(&mut self, pos: &mut Position, budget: Budget, lines: usize) -> SearchResult {
        struct Lines<'a>(&'a mut Search, Budget, usize);
        impl Job for Lines<'_> {
            type Output = SearchResult;
            fn run<B: Bits>(self, pos: &mut Position<B>) -> SearchResult {
                self.0.iterate(pos, self.1, self.2)
            }
        }
        pos.in_narrowest(Lines(self, budget, lines))
    }

    /// `search_lines` in the position's own bitboard width.
    fn iterate<B: Bits>(&mut self, pos: &mut Position<B>, budget: Budget, lines: usize) -> SearchResult {
        self.budget = budget;
        self.plan_time();
        self.nodes = 0;
        self.start = Instant::now();
        self.aborted = false;
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.fit_tables(pos);
        let mut root_moves = Vec::new();
        pos.legal_moves(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        if root_moves.is_empty() {
            return result;
        }
        let lines = lines.clamp(1, root_moves.len());
        self.nodes_bind = lines == 1;
        let max_depth = budget.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        // Iterations in a row whose best move stayed, for the time control.
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.excluded.clear();
            let mut found: Vec<Line> = Vec::with_capacity(lines);
            for k in 0..lines {
                // Each line's window centres on its own score of the iteration before.
                let previous = result.lines.get(k).map_or(result.score, |l| l.score);
                let score = self.aspiration(pos, depth, previous);
                if self.aborted {
                    break;
                }
                let best = self.pv[0].first().copied().or(result.best).expect("a root move");
                found.push(Line { mv: best, score, pv: self.pv[0].clone() });
                self.excluded.push(best);
            }
            if self.aborted {
                // A move that beat the previous best in a full-window search is trustworthy
                // (with one line; several keep the last iteration's, all of one depth).
                if let Some((m, s)) = self.root_best.filter(|(m, _)| lines == 1 && Some(*m) != result.best) {
                    result.best = Some(m);
                    result.score = s;
                    result.pv = vec![m];
                    result.lines = vec![Line { mv: m, score: s, pv: vec![m] }];
                }
                break;
            }
            self.nodes_bind = true;
            found.sort_by_key(|l| -l.score);
            let first = &found[0];
            stable = if Some(first.mv) == result.best { stable + 1 } else { 0 };
            result.best = Some(first.mv);
            result.score = first.score;
            result.depth = depth;
            result.pv = first.pv.clone();
            result.lines = found;
            if let Some(f) = self.info.as_mut() {
                for (k, l) in result.lines.iter().enumerate() {
                    let info = Info {
                        depth,
                        score: l.score,
                        nodes: self.nodes,
                        elapsed: self.start.elapsed(),
                        pv: l.pv.clone(),
                    };
                    f(k + 1, &info);
                }
            }
            if self.enough_time_spent(stable) {
                break;
            }
            let score = result.score;
            if score.abs() > MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 2 {
                break;
            }
        }
        self.nodes_bind = true;
        result.nodes = self.nodes;
        result
    }

    /// One root search at `depth` in an aspiration window around `previous` (full width for the
    /// first iterations), widened until the score falls inside; the score, unless aborted.
    fn aspiration<B: Bits>(&mut self, pos: &mut Position<B>, depth: u32, previous: i32) -> i32 {
        self.root_best = None;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= self.params.aspiration_depth as u32 {
            (previous - delta, previous + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.pvs(pos, depth as i32, alpha, beta, 0, true, pos.in_check());
            if self.aborted {
                return 0;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (alpha - delta).max(-INF);
            } else if s >= beta {
                beta = (beta + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2;
        }
    }

    /// Tables sized by the variant and the evaluation's state, ready for `pos`, the root.
    fn fit_tables<B: Bits>(&mut self, pos: &Position<B>) {
        self.continuation.fit(pos.variant().pieces.len(), pos.variant().geometry.squares());
        self.evaluator.start(&mut self.eval_state, pos);
    }

    /// Score of a finished game from the side to move's view, `ply` plies from the root.
    fn result_score<B: Bits>(pos: &Position<B>, result: GameResult, ply: usize) -> i32 {
        match result {
            GameResult::Draw => 0,
            r if r == GameResult::win_for(pos.side_to_move()) => MATE - ply as i32,
            _ => -(MATE - ply as i32),
        }
    }

    /// The game's end before moves are generated (the core's one definition: a mate on the
    /// hundredth ply is a mate). In the tree a position seen once before is a draw: a side that
    /// could win would not repeat.
    fn early_end<B: Bits>(pos: &Position<B>, ply: usize) -> Option<i32> {
        let repetitions = pos.variant().rules.repetitions.min(2) as usize;
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
        struct Line<'a>(&'a mut Search);
        impl Job for Line<'_> {
            type Output = (i32, Vec<Move>);
            fn run<B: Bits>(self, pos: &mut Position<B>) -> (i32, Vec<Move>) {
                self.0.quiescence_line_in(pos)
            }
        }
        pos.in_narrowest(Line(self))
    }
}
