//! Alpha-beta search: iterative deepening, principal variation search with aspiration
//! windows, quiescence with static exchange pruning, transposition table, move ordering by
//! hash move, exchange-sound captures, killers, counter moves, history and continuation
//! history; check extension, reverse futility, null move (verified where zugzwang threatens),
//! futility, late move pruning and reductions, internal iterative reduction; the static
//! evaluation corrected by the pawn structure's history. Game ends of every variant are
//! scored inside the tree, by the core's one definition. Nothing here names a variant: the
//! piece values come from the weights, the rules from the position.

use crate::budget::Budget;
use crate::continuation::{nudged, ContinuationHistory, Key, NO_KEY, OFFSETS};
use crate::correction::CorrectionHistory;
use crate::eval::{evaluate, Term, Weights};
use crate::eval_cache::EvalCache;
use crate::params::SearchParams;
use crate::score::{MATE, MATE_BOUND};
use crate::tt::{Bound, TranspositionTable};
use hoplite_core::{Bitboard, Bits, Colour, GameResult, Job, Move, MoveKind, PieceType, Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const INF: i32 = 32_000;
pub const MAX_PLY: usize = 100;
const QUIET_RECAPTURES: usize = 6;
const QUIET_LIMIT: usize = 16;
/// A royal piece in exchanges: worth more than anything it could win.
const ROYAL_VALUE: i32 = 5_000;
/// History scores stay within this (the gravity formula's ceiling).
const HISTORY_MAX: i32 = 1 << 14;
/// Move ordering bands, above any history score: the hash move, captures that do not lose
/// material, then killers and the counter move (losing captures go below, at `-GOOD_CAPTURE`).
const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 26;
const KILLER: i32 = 1 << 25;

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

/// Late move reductions by depth and move number: `base + ln d · ln n / divisor` (0.8 and
/// 2.4 by default).
fn reductions(p: &SearchParams) -> Vec<[i32; 64]> {
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

/// One search value per game or per engine: its own tables, no globals.
pub struct Search {
    weights: Weights,
    params: SearchParams,
    tt: TranspositionTable,
    killers: Vec<[Move; 2]>,
    /// Quiet moves' success, by side, from and to.
    history: Vec<i32>,
    /// The reply that refuted a move, by the moved piece's colour and type and its square.
    counters: Vec<Move>,
    continuation: ContinuationHistory,
    correction: CorrectionHistory,
    /// Evaluations of the weights below, which stay as the search was made with.
    eval_cache: EvalCache,
    /// The move made at each ply of the line searched, as the continuation history names it.
    line: Vec<Key>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    /// Static evaluation per ply (for "improving").
    evals: Vec<i32>,
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
    root_best: Option<(Move, i32)>,
    /// Root moves left out: those of the lines a multi-PV iteration has already found.
    excluded: Vec<Move>,
    /// Whether the quiescence search reads and writes the table (not for the tuner's lines).
    qsearch_tt: bool,
    info: Option<InfoSink>,
}

impl Search {
    pub fn new(weights: Weights, tt_megabytes: usize) -> Search {
        let values = PieceType::first(weights.types).map(|t| weights.get(Term::Material, t).max(1)).collect();
        Search {
            tt: TranspositionTable::new(tt_megabytes),
            killers: vec![[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            counters: vec![Move::NONE; 32 * 128],
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
            weights,
            nodes: 0,
            budget: Budget::default(),
            target: None,
            deadline: None,
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
            root_best: None,
            excluded: Vec::new(),
            qsearch_tt: true,
            info: None,
        }
    }

    /// `pos`'s static evaluation (`eval::evaluate`), from the cache where it is.
    fn evaluate<B: Bits>(&mut self, pos: &Position<B>) -> i32 {
        let weights = &self.weights;
        self.eval_cache.get(pos, || evaluate(pos, weights))
    }

    /// The evaluation's weights (fixed for the search's life: its cache holds their results).
    pub fn weights(&self) -> &Weights {
        &self.weights
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

    /// Tables sized by the variant, ready for `pos`.
    fn fit_tables<B: Bits>(&mut self, pos: &Position<B>) {
        self.continuation.fit(self.weights.types, pos.variant().geometry.squares());
    }

    /// Whether to start no new iteration: half the time per move is gone, or, on a clock,
    /// the target (a settled best move stops sooner, an unsettled one goes on longer).
    fn enough_time_spent(&self, stable: u32) -> bool {
        let elapsed = self.start.elapsed();
        if let Some(target) = self.target {
            let percent = match stable {
                0 => self.params.time_unsettled,
                1..=2 => 100,
                _ => self.params.time_settled,
            };
            let scale = f64::from(percent) / 100.0;
            return elapsed.as_secs_f64() > target.as_secs_f64() * scale;
        }
        self.deadline.is_some_and(|t| elapsed * 2 > t)
    }

    /// The move's target and deadline from its budget and the clock.
    fn plan_time(&mut self) {
        let plan = self.budget.clock.map(|c| c.plan(&self.params));
        self.target = plan.map(|p| p.0);
        self.deadline = [self.budget.movetime, plan.map(|p| p.1)].into_iter().flatten().min();
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
        let out_of_time = self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|t| self.start.elapsed() >= t));
        self.aborted = out_of_nodes || out_of_time;
        self.aborted
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

    /// A piece's value in exchanges.
    fn value<B: Bits>(&self, pos: &Position<B>, ty: PieceType) -> i32 {
        if pos.variant().royal_types.contains(ty) {
            ROYAL_VALUE
        } else {
            self.values[ty]
        }
    }

    fn value_at<B: Bits>(&self, pos: &Position<B>, sq: Square) -> i32 {
        pos.piece_at(sq).map_or(0, |(_, t)| self.value(pos, t))
    }

    /// What a move wins, its piece's promotion included, once every capture on its square has
    /// been traded off in order of least valuable capturer (static exchange evaluation).
    fn see<B: Bits>(&self, pos: &Position<B>, m: Move) -> i32 {
        if m.kind() == MoveKind::Castle {
            return 0;
        }
        let (from, to) = (m.from(), m.to());
        let mut occ = pos.occupied() & !Bitboard::square(from);
        let mut gain = [0i32; 40];
        gain[0] = match (m.kind(), pos.en_passant_victim()) {
            (MoveKind::EnPassant, Some(victim)) => {
                occ &= !Bitboard::square(victim);
                self.value_at(pos, victim)
            }
            _ => self.value_at(pos, to),
        };
        let mover = pos.piece_at(from).map_or(PieceType::default(), |(_, t)| t);
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

    fn history_index(side: Colour, m: Move) -> usize {
        (side.index() * 128 + m.from().index()) * 128 + m.to().index()
    }

    /// The moves one and two plies before `ply` in the line searched.
    fn previous(&self, ply: usize) -> [Key; OFFSETS] {
        std::array::from_fn(|k| if ply > k { self.line[ply - 1 - k] } else { NO_KEY })
    }

    fn continuation_key<B: Bits>(&self, pos: &Position<B>, m: Move) -> Key {
        pos.piece_at(m.from()).map_or(NO_KEY, |(_, t)| self.continuation.key(t, m.to()))
    }

    /// A quiet move's history: by its squares, and after the moves before it.
    fn quiet_score<B: Bits>(&self, pos: &Position<B>, m: Move, ply: usize) -> i32 {
        let side = pos.side_to_move();
        self.history[Self::history_index(side, m)]
            + self.continuation.score(side, self.previous(ply), self.continuation_key(pos, m))
    }

    fn counter_index<B: Bits>(pos: &Position<B>) -> Option<usize> {
        let last = pos.last_move()?;
        let (c, t) = pos.piece_at(last.to())?;
        Some((c.index() * 16 + t.index()) * 128 + last.to().index())
    }

    /// Ordering score: hash move; captures and promotions that do not lose material, by
    /// victim and then attacker; killers; the counter move; quiet moves by history; captures
    /// that lose material last.
    fn order<B: Bits>(&self, pos: &Position<B>, moves: &[Move], hash: Move, ply: usize, scores: &mut Vec<i32>) {
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
    fn keep_noisy<B: Bits>(pos: &Position<B>, moves: &mut [Move], scores: &mut [i32]) -> usize {
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

    /// Moves a history score towards `HISTORY_MAX` (or its negative) by `bonus`.
    fn nudge(h: &mut i32, bonus: i32) {
        *h = nudged(*h, bonus, HISTORY_MAX);
    }

    /// Whether a null move may be tried: one royal piece (a pass may be illegal with more),
    /// and pieces besides pawns and royals (with only those, zugzwang is the rule).
    fn null_move_allowed<B: Bits>(pos: &Position<B>) -> bool {
        let us = pos.side_to_move();
        let royals = pos.royals(us);
        royals.count() == 1 && (pos.colour_bb(us) & !royals & !pos.pawns()).non_empty()
    }

    /// The principal variation search of `pos` to `depth` in (`alpha`, `beta`); `in_check`:
    /// whether the side to move is in check, which the caller has had to find out already
    /// (for its reductions) and does not ask again.
    #[allow(clippy::too_many_arguments)]
    fn pvs<B: Bits>(
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
        let mut hash_move = Move::NONE;
        let mut cached_eval = None;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            cached_eval = Some(hit.eval);
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
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves_in_check(&mut moves, in_check);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return Self::result_score(pos, pos.no_moves_result().0, ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order(pos, &moves, hash_move, ply, &mut scores);
        let us = pos.side_to_move();
        let original_alpha = alpha;
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
            if !is_pv && !in_check && !mating && best_score > -MATE_BOUND && m != hash_move {
                let p = &self.params;
                if quiet {
                    let late = p.lmp_base + depth * depth / (2 - i32::from(improving));
                    let futile = eval + p.futility_base + p.futility_margin * depth <= alpha;
                    if depth <= p.lmp_depth && (nquiets as i32 >= late || futile && scores[i] < KILLER) {
                        // Every quiet move after this one would be pruned too (the count only
                        // grows, alpha only rises, the scores fall): they are dropped unseen.
                        end = i + 1 + Self::keep_noisy(pos, &mut moves[i + 1..end], &mut scores[i + 1..end]);
                        continue;
                    }
                    if depth <= p.lmp_depth && self.see(pos, m) < -p.see_quiet_margin * depth {
                        continue;
                    }
                } else if depth <= p.see_capture_depth
                    && scores[i] < 0
                    && self.see(pos, m) < -p.see_capture_margin * depth
                {
                    continue;
                }
            }
            self.line[ply] = self.continuation_key(pos, m);
            pos.make(m);
            self.nodes += 1;
            // The child is told whether it is in check, and extended if so.
            let check = pos.in_check();
            let next = depth - 1 + i32::from(check && ply + 1 < MAX_PLY / 2);
            let score = if i == 0 {
                -self.pvs(pos, next, -beta, -alpha, ply + 1, is_pv, check)
            } else {
                let p = &self.params;
                let r = match quiet && depth >= p.lmr_depth && i >= p.lmr_moves as usize + usize::from(is_pv) {
                    true => self.reduction(depth, i, scores[i], is_pv, check, improving),
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
            pos.unmake();
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
            return 0;
        }
        if best_score == -INF {
            // Every move was pruned: a fail-low at the static bound.
            return alpha;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
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

    /// The null-move verification: the same node, searched as a principal node (where no
    /// null move is tried) with beta's null window, one ply deep at least.
    fn pvs_no_null<B: Bits>(&mut self, pos: &mut Position<B>, depth: i32, beta: i32, ply: usize) -> i32 {
        self.pvs(pos, depth.max(1), beta - 1, beta, ply, true, false)
    }

    /// Prunings of a quiet node before its moves, on the static evaluation: reverse futility
    /// (far above beta with few plies left, a quiet move will not fall) and the null move
    /// (passing still leaves the side above beta). A score ends the node.
    fn prune_node<B: Bits>(
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
        self.line[ply] = NO_KEY;
        pos.make_null();
        let s = -self.pvs(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false, pos.in_check());
        pos.unmake_null();
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
    fn reduction(&self, depth: i32, i: usize, score: i32, is_pv: bool, check: bool, improving: bool) -> i32 {
        let mut r = self.reductions[depth as usize][i.min(63)];
        r -= i32::from(is_pv) + i32::from(check) + i32::from(score >= KILLER);
        r += i32::from(!improving);
        // The history sum of three tables (squares, one and two plies before), each within ±2^14.
        r -= score / self.params.lmr_history_divisor;
        r.clamp(0, depth - 2)
    }

    /// The quiet move `m` refuted the opponent: it and its killers, counter move and history
    /// gain; the quiet moves tried before it lose history.
    fn reward<B: Bits>(&mut self, pos: &Position<B>, us: Colour, m: Move, tried: &[Move], depth: i32, ply: usize) {
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

    /// Quiescence: captures and promotions that do not lose material (evasions in check).
    /// `qply` counts its plies: past `QUIET_RECAPTURES` only recaptures on the last move's
    /// square are tried, past `QUIET_LIMIT` none, so that capture trees among equal pieces
    /// stay small.
    fn qsearch<B: Bits>(&mut self, pos: &mut Position<B>, alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
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
    fn quiesce<B: Bits>(
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
                let victim = if pos.is_capture(m) { self.value_at(pos, m.to()) } else { 0 };
                let promo = m.promoted().map_or(0, |t| self.values[t]);
                if m.promoted().is_none() && stand_pat + victim + promo + self.params.delta_margin <= alpha {
                    continue;
                }
            }
            self.line[ply] = self.continuation_key(pos, m);
            pos.make(m);
            self.nodes += 1;
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.unmake();
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

    fn quiescence_line_in<B: Bits>(&mut self, pos: &mut Position<B>) -> (i32, Vec<Move>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::Variant;

    fn see(variant: &str, fen: &str, m: &str) -> i32 {
        let v = Variant::builtin(variant);
        let pos = Position::from_fen(&v, fen).unwrap();
        let s = Search::new(Weights::defaults(&v), 1);
        s.see(&pos, pos.parse_uci(m).unwrap())
    }

    #[test]
    fn every_parameter_off_the_clock_moves_the_search() {
        let v = Variant::builtin("chess");
        let fens = [
            v.setup.as_str(),
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 9",
            "8/5pk1/6p1/3R4/8/6P1/r4P1K/8 w - - 0 40",
        ];
        let nodes = |params: &SearchParams| -> Vec<u64> {
            fens.iter()
                .map(|fen| {
                    let mut s = Search::new(Weights::defaults(&v), 1);
                    s.set_params(params.clone());
                    s.search(&mut Position::from_fen(&v, fen).unwrap(), Budget::depth(9)).nodes
                })
                .collect()
        };
        let base = nodes(&SearchParams::default());
        // Each at both ends of its range: neither fails, and at least one searches other trees.
        for spec in crate::params::PARAMS.iter().filter(|p| !p.on_clock()) {
            let at = |value| {
                let mut p = SearchParams::default();
                p.set(spec.name, value).unwrap();
                nodes(&p)
            };
            let (low, high) = (at(spec.min), at(spec.max));
            assert!(low != base || high != base, "{} searched the same trees at both ends", spec.name);
        }
    }

    #[test]
    fn a_node_is_a_move_made() {
        // At depth 1 from the chess start the search makes each of White's 20 moves once and
        // no reply (Black has no capture for the quiescence search): 20 nodes, however often a
        // child is searched or handed over, as Fairy-Stockfish counts them.
        let v = Variant::builtin("chess");
        let mut pos = Position::from_fen(&v, &v.setup).unwrap();
        let mut s = Search::new(Weights::defaults(&v), 1);
        assert_eq!(s.search(&mut pos, Budget::depth(1)).nodes, 20);
    }

    #[test]
    fn the_narrow_path_searches_the_tree_of_the_wide_one() {
        // `search` takes `u64` bitboards on boards of at most 64 squares: the same nodes,
        // scores and moves as the `u128` path larger boards take.
        for (name, fen) in [
            ("chess", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"),
            ("shatranj", ""),
            ("spartan", ""),
        ] {
            let v = Variant::builtin(name);
            let pos = Position::from_fen(&v, if fen.is_empty() { &v.setup } else { fen }).unwrap();
            let run = |narrow: bool| {
                let mut s = Search::new(Weights::defaults(&v), 1);
                let r = match narrow {
                    true => s.iterate(&mut pos.to::<u64>(), Budget::depth(6), 1),
                    false => s.iterate(&mut pos.clone(), Budget::depth(6), 1),
                };
                (r.nodes, r.score, r.pv)
            };
            assert_eq!(run(true), run(false), "{name}");
        }
    }

    #[test]
    fn static_exchanges() {
        // A pawn takes a knight defended by a pawn: wins the knight, loses the pawn.
        assert_eq!(see("chess", "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 320 - 100);
        // A queen takes a pawn defended by a pawn.
        assert_eq!(see("chess", "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5"), 100 - 900);
        // Rooks doubled behind one another: the x-ray recaptures, the pawn is won.
        assert_eq!(see("chess", "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
        // One rook against two: the pawn costs the rook.
        assert_eq!(see("chess", "4k3/4r3/4r3/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"), 100 - 500);
        // En passant takes the pawn beside, not the empty square.
        assert_eq!(see("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // A promotion gains the piece's value over the pawn's.
        assert_eq!(see("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 900 - 100);
        // Spartan hoplites capture straight ahead: e5 is attacked by the e6 hoplite, d6 not.
        assert!(see("spartan", "4k3/8/4h3/8/2N5/8/8/4K3 w - - 0 1", "c4e5") < 0);
        assert_eq!(see("spartan", "4k3/8/4h3/8/2N5/8/8/4K3 w - - 0 1", "c4d6"), 0);
    }

    /// A line through a check: the evasions are quiet moves, ordered by the histories, which
    /// a search that never ran a full iteration has sized too.
    #[test]
    fn quiescence_lines_go_through_checks_from_a_fresh_search() {
        let v = Variant::builtin("chess");
        // The queen takes the pawn with check; the king steps aside.
        let mut pos = Position::from_fen(&v, "k7/8/8/8/8/8/p7/Q5K1 w - - 0 1").unwrap();
        let (_, line) = Search::new(Weights::defaults(&v), 1).quiescence_line(&mut pos);
        let line: Vec<String> = line.iter().map(|&m| pos.move_to_uci(m)).collect();
        assert_eq!(line.len(), 2, "{line:?}");
        assert_eq!(line[0], "a1a2");
    }

    /// The tuner's lines must not depend on what the table holds: a line neither writes an
    /// entry nor reads one (here an entry whose stored evaluation would be the stand-pat).
    #[test]
    fn quiescence_lines_leave_the_table_alone() {
        let v = Variant::builtin("chess");
        // White's pawn takes the knight, the pawn retakes: a line of two captures.
        let mut pos = Position::from_fen(&v, "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1").unwrap();
        let mut s = Search::new(Weights::defaults(&v), 1);
        let (score, line) = s.quiescence_line(&mut pos);
        assert_eq!(line.len(), 2, "{line:?}");
        assert!(s.tt.probe(pos.key()).is_none(), "a line wrote the table");
        s.tt.store(pos.key(), Move::NONE, 3_000, 0, Bound::Upper, 3_000);
        assert_eq!(s.quiescence_line(&mut pos), (score, line), "a line read the table");
    }
}
