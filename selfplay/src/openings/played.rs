//! Openings played, not drawn: every ply is chosen at random, by the opening's own seed, among
//! the moves a searching player scores within a margin of its best at a small budget
//! (multi-PV). Random plies leave blunders that the side to move converts, more often the
//! stronger the search; an evaluation-filtered book selects by its engine's bias; near-best
//! moves leave neither (docs/balance.md has the measurements).
//!
//! A run's openings are made before its games, on every thread, and do not depend on the
//! thread count: opening `i` is the first of its attempts (each from the seed of `(i,
//! attempt)`) whose end position no opening before it has.

use crate::defaults;
use crate::error::{PlayerError, RunError};
use crate::player::{Player, PlayerSpec, Turn};
use hoplite_core::seed::game_seed;
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::manifest::PlayedRecord;
use hoplite_search::Budget;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Salts an opening's seed apart from its game's.
const PLAYED: u64 = 0x504c_4159_4544_4f50;
/// Attempts an index may make at a position no opening before it has.
const ATTEMPTS: u64 = 64;

/// How games open after their start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Plies chosen among the moves a searching player scores near its best.
    Played,
    /// Uniformly random legal plies.
    Random,
}

/// The opening settings a command line or a balance file (`[opening]`) gives; what is left
/// out comes from the variant file's `[openings]`, then from the defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningSettings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// Plies played after each start position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// Centipawns below the best move within which a move may be chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
    /// Who plays them: hoplite, or an engine of engines.toml.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The player's budget a ply: nodes, or a depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Moves ranked a ply (multi-PV).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<usize>,
}

impl OpeningSettings {
    /// The played openings of these settings in `variant`, by `player`: what they leave out
    /// from the variant file's `[openings]`, then from the defaults.
    pub fn played(&self, variant: &Variant, player: PlayerSpec) -> Played {
        Played {
            player,
            plies: self.plies.or(variant.opening_plies).unwrap_or(defaults::OPENING_PLIES),
            margin: self.margin.or(variant.opening_margin).unwrap_or(defaults::OPENING_MARGIN),
            lines: self.lines.unwrap_or(defaults::OPENING_LINES).max(1),
        }
    }

    /// The opening player's budget a ply: `given`, else the default nodes.
    pub fn budget(given: Budget) -> Budget {
        given.or(Budget::nodes(defaults::OPENING_NODES))
    }

    /// These settings, with `other`'s where these leave one out.
    pub fn or(&self, other: &OpeningSettings) -> OpeningSettings {
        OpeningSettings {
            method: self.method.or(other.method),
            plies: self.plies.or(other.plies),
            margin: self.margin.or(other.margin),
            player: self.player.clone().or(other.player.clone()),
            nodes: self.nodes.or(other.nodes),
            depth: self.depth.or(other.depth),
            lines: self.lines.or(other.lines),
        }
    }

    /// Whether a setting of played openings is given.
    pub fn any_played(&self) -> bool {
        self.plies.is_some()
            || self.margin.is_some()
            || self.player.is_some()
            || self.nodes.is_some()
            || self.depth.is_some()
            || self.lines.is_some()
    }
}

/// How openings are played.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Who plays them, at its budget (a small one: it is spent on every ply of every opening).
    pub player: PlayerSpec,
    pub plies: u32,
    /// A move may be chosen if the player scores it at most this many centipawns below its best.
    pub margin: i32,
    /// The moves the player ranks at each ply (its multi-PV).
    pub lines: usize,
}

/// One opening to make: from `start` in `variant`, attempt `attempt` of `index`.
pub struct Task {
    pub variant: Arc<Variant>,
    pub start: Arc<str>,
    pub index: u64,
    pub attempt: u64,
}

/// Where openings are: how many are made, of how many wanted.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

impl Played {
    /// What run.toml records of the openings of a run of `variants`.
    pub fn record(&self, variants: &[&Variant]) -> PlayedRecord {
        PlayedRecord { plies: self.plies, margin: self.margin, lines: self.lines, player: self.player.record(variants) }
    }

    /// The player's ranking of the moves of `pos` (reached by `line` from `start`), from a
    /// fresh game.
    pub fn rank(
        &self,
        player: &mut dyn Player,
        pos: &Position,
        start: &Position,
        line: &[Move],
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<(Move, i32)>, PlayerError> {
        player.new_game(start.variant())?;
        player.scored_moves(Turn { position: pos, start, moves: line, clock: None, rng }, self.lines)
    }

    /// The moves a ply may be: those scored within the margin of the best, in the player's order.
    pub fn near_best(&self, scored: &[(Move, i32)]) -> Vec<Move> {
        let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
        scored.iter().filter(|&&(_, s)| s >= best - self.margin).map(|&(m, _)| m).collect()
    }

    /// One opening from `start`: `plies` moves, each drawn from the near-best moves (`rank`).
    /// `None` if the game ends on the way (the index tries again).
    pub fn line(
        &self,
        player: &mut dyn Player,
        start: &Position,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Vec<Move>>, PlayerError> {
        let mut pos = start.clone();
        let mut line = Vec::with_capacity(self.plies as usize);
        for _ in 0..self.plies {
            if pos.outcome().is_some() {
                return Ok(None);
            }
            let near = self.near_best(&self.rank(player, &pos, start, &line, rng)?);
            if near.is_empty() {
                return Err(PlayerError::Setup(format!(
                    "it ranked no move of {} at its budget: give it more (--opening-nodes)",
                    pos.to_fen()
                )));
            }
            let m = near[rng.gen_range(0..near.len())];
            pos.make(m);
            line.push(m);
        }
        Ok(pos.outcome().is_none().then_some(line))
    }

    /// The tasks' openings (as UCI moves), on `threads` threads, each player started once a
    /// thread; `None` where the game ended on the way.
    pub fn make(
        &self,
        tasks: &[Task],
        seed: u64,
        threads: usize,
        progress: Progress,
    ) -> Result<Vec<Option<Vec<String>>>, RunError> {
        let next = AtomicUsize::new(0);
        let fail = |error| RunError::Player { name: self.player.name().to_string(), error };
        let mut lines = vec![None; tasks.len()];
        let mut first_error = None;
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<Result<(usize, Option<Vec<String>>), RunError>>();
            for _ in 0..threads.max(1) {
                let (tx, next) = (tx.clone(), &next);
                scope.spawn(move || {
                    let mut player = self.player.start();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(t) = tasks.get(k) else { break };
                        let start = Position::from_fen(&t.variant, &t.start).expect("start positions are checked");
                        let salt = game_seed(seed ^ PLAYED, t.index);
                        let mut rng = ChaCha8Rng::seed_from_u64(game_seed(salt, t.attempt));
                        let made = self.line(player.as_mut(), &start, &mut rng).map_err(fail).map(|line| {
                            let uci = line.map(|l| l.iter().map(|&m| t.variant.move_to_uci(m)).collect());
                            (k, uci)
                        });
                        let failed = made.is_err();
                        if tx.send(made).is_err() || failed {
                            // Stop the others at once: the run cannot go on.
                            next.store(tasks.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (n, made) in rx.into_iter().enumerate() {
                match made {
                    Ok((k, line)) => lines[k] = line,
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
                progress(n + 1, tasks.len());
            }
        });
        match first_error {
            Some(e) => Err(e),
            None => Ok(lines),
        }
    }

    /// Openings `0..count` of `variant` from `start(i)`, each ending in a position none before
    /// it ends in (where the variant has so many within the margin: an index that finds none
    /// in `ATTEMPTS` keeps its last).
    pub fn distinct(
        &self,
        variant: &Arc<Variant>,
        start: &dyn Fn(u64) -> Arc<str>,
        count: u64,
        seed: u64,
        threads: usize,
        progress: Progress,
    ) -> Result<Vec<Arc<Vec<String>>>, RunError> {
        let mut attempts = vec![0u64; count as usize];
        let mut lines: Vec<Option<Vec<String>>> = vec![None; count as usize];
        let mut todo: Vec<u64> = (0..count).collect();
        let mut made = 0;
        while !todo.is_empty() {
            let tasks: Vec<Task> = todo
                .iter()
                .map(|&i| Task { variant: variant.clone(), start: start(i), index: i, attempt: attempts[i as usize] })
                .collect();
            let found = self.make(&tasks, seed, threads, &mut |n, _| progress(made + n, count as usize))?;
            made += tasks.len();
            for (&i, line) in todo.iter().zip(found) {
                lines[i as usize] = line;
            }
            // In index order: an opening that ends where one before it ends tries again.
            todo.clear();
            let mut seen = HashSet::new();
            for (i, line) in lines.iter().enumerate() {
                let end = line.as_ref().map(|l| end_position(variant, &start(i as u64), l));
                let fresh = end.is_some_and(|e| seen.insert(e));
                if !fresh && attempts[i] + 1 < ATTEMPTS {
                    attempts[i] += 1;
                    todo.push(i as u64);
                }
            }
        }
        Ok(lines.into_iter().map(|l| Arc::new(l.unwrap_or_default())).collect())
    }
}

/// The placement, side, castling and en-passant fields after `line` from `start`.
fn end_position(variant: &Arc<Variant>, start: &str, line: &[String]) -> String {
    let mut pos = Position::from_fen(variant, start).expect("start positions are checked");
    for m in line {
        pos.make(pos.parse_uci(m).expect("a line the player made here"));
    }
    pos.to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_search::Budget;

    fn played(nodes: u64, plies: u32, margin: i32) -> Played {
        let player = PlayerSpec::Hoplite {
            name: "h".into(),
            budget: Budget::nodes(nodes),
            files: Default::default(),
            hash_mb: 1,
        };
        Played { player, plies, margin, lines: 8 }
    }

    /// Each ply of an opening is one of the moves the player ranks within the margin of its
    /// best, ranking that ply's position afresh at the same budget: from the setups of chess
    /// and Spartan chess and from a middlegame position.
    #[test]
    fn every_ply_is_within_the_margin_of_the_best_at_its_budget() {
        let fixture = [
            ("chess", None),
            ("spartan", None),
            ("chess", Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")),
        ];
        let p = played(3000, 6, 40);
        for (name, fen) in fixture {
            let v = Variant::builtin(name);
            let start = Position::from_fen(&v, fen.unwrap_or(&v.setup)).unwrap();
            let (mut player, mut checker) = (p.player.start(), p.player.start());
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let line = p.line(player.as_mut(), &start, &mut rng).unwrap().expect("the game goes on");
                assert_eq!(line.len(), 6);
                let mut pos = start.clone();
                for (k, &m) in line.iter().enumerate() {
                    let ranked = p.rank(checker.as_mut(), &pos, &start, &line[..k], &mut rng).unwrap();
                    let best = ranked[0].1;
                    let score = ranked.iter().find(|r| r.0 == m).map(|r| r.1);
                    assert!(score.is_some_and(|s| s >= best - 40), "{name} ply {k}: {m:?} {score:?}, best {best}");
                    pos.make(m);
                }
            }
        }
    }

    /// A margin of zero leaves only the moves tied with the best, and a large one lets more in.
    #[test]
    fn the_margin_bounds_the_choice() {
        let v = Variant::builtin("chess");
        let start = Position::startpos(&v);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (narrow, wide) = (played(3000, 1, 0), played(3000, 1, 1000));
        let ranked = narrow.rank(narrow.player.start().as_mut(), &start, &start, &[], &mut rng).unwrap();
        assert_eq!(ranked.len(), 8, "eight moves ranked");
        let tied = ranked.iter().filter(|r| r.1 == ranked[0].1).count();
        assert_eq!(narrow.near_best(&ranked).len(), tied);
        assert_eq!(wide.near_best(&ranked).len(), 8);
    }

    /// Openings end in distinct positions, and are the same on one thread and on three.
    #[test]
    fn openings_are_distinct_and_the_same_on_any_thread_count() {
        let v = Variant::builtin("shatranj");
        let setup: Arc<str> = v.setup.as_str().into();
        // Two plies among near-best moves: few end positions, so index after index collides.
        let p = played(800, 2, 30);
        let make = |threads| p.distinct(&v, &|_| setup.clone(), 12, 7, threads, &mut |_, _| {}).unwrap();
        let one = make(1);
        assert_eq!(one, make(3));
        let ends: HashSet<String> = one.iter().map(|l| end_position(&v, &setup, l)).collect();
        assert_eq!(ends.len(), 12, "{one:?}");
    }
}
