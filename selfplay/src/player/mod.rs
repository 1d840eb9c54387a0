//! Players: who chooses the moves of a side. hoplite's engine and a random mover live in this
//! process; an outside engine speaks UCI or xboard through a pipe. A player is described by a
//! `PlayerSpec` (what the run records), started once per worker thread and kept across its
//! games; the game's arbiter checks every move it returns, and a player that fails (crashes,
//! returns an illegal move, answers too late) loses that game and is started afresh.

mod engine;
pub use engine::EnginePlayer;
mod external;
mod notation;
mod process;
mod random;
mod registry;
pub use registry::Registry;
pub mod scoring;
mod uci;
mod xboard;

use crate::error::{PlayerError, RunError};
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::engines::{EngineConfig, Protocol};
use hoplite_formats::manifest::PlayerKind;
use hoplite_formats::PlayerRecord;
use hoplite_search::MATE;
use hoplite_search::{Budget, EvalKind};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use external::CLOCK_MARGIN;
pub use notation::{from_engine, to_engine};

/// Both sides' clocks before a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, White's then Black's.
    pub remaining: [Duration; 2],
    pub increment: [Duration; 2],
}

/// One move to make.
pub struct Turn<'a> {
    /// The position, with the game's moves in its history (repetitions count).
    pub position: &'a Position,
    /// The game's start (before its opening) and every move since.
    pub start: &'a Position,
    pub moves: &'a [Move],
    /// The clocks, when this side plays on one.
    pub clock: Option<Clocks>,
    /// The game's random generator.
    pub rng: &'a mut ChaCha8Rng,
}

/// A player's answer.
#[derive(Clone, Copy, Debug)]
pub struct Reply {
    pub mv: Move,
    /// Its score of the position in centipawns, from its own side's view, if it gives one.
    pub score: Option<i32>,
    pub nodes: u64,
}

/// A player's answer to a position when only its score is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It would play a move, with this score (its side's view, centipawns) if it gives one.
    Scored(Option<i32>),
    /// It has no move there: an outside engine whose rules end the game where hoplite's go on
    /// (Fairy-Stockfish's bared king in Great Shatranj).
    NoMove,
}

impl Answer {
    pub fn score(self) -> Option<i32> {
        match self {
            Answer::Scored(s) => s,
            Answer::NoMove => None,
        }
    }
}

pub trait Player: Send {
    /// A new game of `variant` starts: forget the last one.
    fn new_game(&mut self, variant: &Arc<Variant>) -> Result<(), PlayerError>;
    /// The move for the side to move.
    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError>;

    /// Its score of the position, as its answer to it gives it. The move is not asked for: an
    /// outside engine's rules may differ from hoplite's in places (docs/engines.md) and it may
    /// name a move hoplite's rules do not allow, where its score still holds.
    fn score(&mut self, turn: Turn) -> Result<Answer, PlayerError> {
        match self.play(turn) {
            Ok(reply) => Ok(Answer::Scored(reply.score)),
            Err(PlayerError::NoMove) => Ok(Answer::NoMove),
            Err(e) => Err(e),
        }
    }

    /// The `lines` best moves for the side to move with their scores (its view, centipawns),
    /// best first, as a multi-PV search at the player's budget finds them. A player without
    /// one scores every legal move by its answer to it, each from a fresh game; a player that
    /// gives no scores cannot.
    fn scored_moves(&mut self, turn: Turn, lines: usize) -> Result<Vec<(Move, i32)>, PlayerError> {
        let pos = turn.position;
        let variant = pos.variant().clone();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let mut out = Vec::with_capacity(legal.len());
        for m in legal {
            let mut child = pos.clone();
            child.make(m);
            let score = match child.outcome() {
                Some((result, _)) => match result.score_for(pos.side_to_move()) {
                    1.0 => MATE - 1,
                    0.0 => -(MATE - 1),
                    _ => 0,
                },
                None => {
                    self.new_game(&variant)?;
                    let mut moves = turn.moves.to_vec();
                    moves.push(m);
                    let answer =
                        Turn { position: &child, start: turn.start, moves: &moves, clock: None, rng: turn.rng };
                    -self.play(answer)?.score.ok_or(PlayerError::NoScore)?
                }
            };
            out.push((m, score));
        }
        // Stable: moves of equal score keep the generator's order.
        out.sort_by_key(|&(_, s)| -s);
        out.truncate(lines);
        Ok(out)
    }
}

/// The files that set hoplite's engine up; without them, the variant's weights and the
/// default search parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineFiles {
    /// Evaluation weights (TOML, as `hoplite tune` writes).
    pub weights: Option<PathBuf>,
    /// Search parameters (TOML, `name = value`, as `hoplite_search::SearchParams` reads).
    pub params: Option<PathBuf>,
    /// A network to evaluate with instead of weights (as `hoplite train` writes).
    pub network: Option<PathBuf>,
    /// The evaluation when no file gives one (`--eval`): without a choice, the variant's
    /// shipped network where it has one, else its weights (`Evaluator::for_variant`).
    pub eval: Option<EvalKind>,
}

impl EngineFiles {
    /// The network played in a run of `variants`, as run.toml records it: the file and the
    /// hash of its bytes (no hash when it cannot be read: `PlayerSpec::check` says why before
    /// any game), or without files and choice the networks shipped for them (each
    /// `data/networks/NAME.nnue`, hashes in the same order). The linear evaluation records
    /// none, as runs of every release have.
    fn network_record(&self, variants: &[&Variant]) -> (Option<String>, Option<String>) {
        if let Some(path) = &self.network {
            let hash = hoplite_search::eval::network::file_hash(path).ok().map(|h| format!("{h:016x}"));
            return (Some(path.display().to_string()), hash);
        }
        if self.weights.is_some() || self.eval == Some(EvalKind::Linear) {
            return (None, None);
        }
        let mut shipped: Vec<(String, String)> = Vec::new();
        for v in variants {
            if let Some((name, _, hash)) = hoplite_search::eval::shipped_network(v) {
                let entry = (format!("data/networks/{name}.nnue"), format!("{hash:016x}"));
                if !shipped.contains(&entry) {
                    shipped.push(entry);
                }
            }
        }
        if shipped.is_empty() {
            return (None, None);
        }
        let (names, hashes): (Vec<String>, Vec<String>) = shipped.into_iter().unzip();
        (Some(names.join(" ")), Some(hashes.join(" ")))
    }
}

/// A player as the command line and run.toml describe it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// hoplite's engine: its budget per move, its files and transposition table size.
    Hoplite { name: String, budget: Budget, files: EngineFiles, hash_mb: usize },
    /// Uniformly random legal moves, drawn from the game's generator (a baseline).
    Random { name: String },
    /// An outside engine from engines.toml (`engine`: its name there).
    Engine { name: String, engine: String, config: EngineConfig, budget: Budget },
}

impl PlayerSpec {
    pub fn name(&self) -> &str {
        match self {
            PlayerSpec::Hoplite { name, .. } | PlayerSpec::Random { name } | PlayerSpec::Engine { name, .. } => name,
        }
    }

    /// What it may spend on a move (none for the random mover).
    pub fn budget(&self) -> Option<Budget> {
        match self {
            PlayerSpec::Hoplite { budget, .. } | PlayerSpec::Engine { budget, .. } => Some(*budget),
            PlayerSpec::Random { .. } => None,
        }
    }

    /// The same player with another budget (a ladder's rung); a random mover has none.
    pub fn with_budget(&self, b: Budget) -> PlayerSpec {
        let mut p = self.clone();
        match &mut p {
            PlayerSpec::Hoplite { budget, .. } | PlayerSpec::Engine { budget, .. } => *budget = b,
            PlayerSpec::Random { .. } => {}
        }
        p
    }

    /// What run.toml records of it in a run of `variants`.
    pub fn record(&self, variants: &[&Variant]) -> PlayerRecord {
        let name = self.name().to_string();
        match self {
            PlayerSpec::Hoplite { budget, files, .. } => {
                let (network, network_hash) = files.network_record(variants);
                PlayerRecord {
                    name,
                    kind: PlayerKind::Hoplite,
                    budget: Some(*budget),
                    weights: files.weights.as_ref().map(|w| w.display().to_string()),
                    params: files.params.as_ref().map(|w| w.display().to_string()),
                    network,
                    network_hash,
                    ..Default::default()
                }
            }
            PlayerSpec::Random { .. } => PlayerRecord { name, kind: PlayerKind::Random, ..Default::default() },
            PlayerSpec::Engine { engine, config, budget, .. } => PlayerRecord {
                name,
                kind: PlayerKind::Engine,
                budget: Some(*budget),
                engine_name: Some(engine.clone()),
                engine: Some(config.clone()),
                ..Default::default()
            },
        }
    }

    /// Checks, before any game, that the player can play `variant`: its files load, or the
    /// engine starts and takes the variant and the budget.
    pub fn check(&self, variant: &Arc<Variant>) -> Result<(), RunError> {
        let fail = |error| RunError::Player { name: self.name().to_string(), error };
        match self {
            PlayerSpec::Hoplite { files, .. } => {
                if files.weights.is_some() && files.network.is_some() {
                    return Err(RunError::Usage(
                        "--weights and --network are two evaluations for hoplite's engine: give one".into(),
                    ));
                }
                if files.eval.is_some() && (files.weights.is_some() || files.network.is_some()) {
                    return Err(RunError::Usage(
                        "--eval chooses among the variant's own evaluations; a --weights or --network file is \
                         another: give one"
                            .into(),
                    ));
                }
                if files.eval.is_some() {
                    hoplite_search::Evaluator::of_kind(variant, files.eval)
                        .map_err(|e| fail(PlayerError::Setup(e.to_string())))?;
                }
                if let Some(n) = &files.network {
                    hoplite_search::Evaluator::load_network(variant, n)
                        .map_err(|e| fail(PlayerError::Setup(e.to_string())))?;
                }
                if let Some(w) = &files.weights {
                    hoplite_search::Weights::load(variant, w)?;
                }
                if let Some(p) = &files.params {
                    hoplite_search::SearchParams::load(p).map_err(|e| fail(PlayerError::Setup(e.to_string())))?;
                }
            }
            PlayerSpec::Engine { .. } => self.start().new_game(variant).map_err(fail)?,
            _ => {}
        }
        Ok(())
    }

    /// A player to play games with (an engine process starts at its first game).
    pub fn start(&self) -> Box<dyn Player> {
        match self {
            PlayerSpec::Hoplite { budget, files, hash_mb, .. } => {
                Box::new(engine::EnginePlayer::new(*budget, files.clone(), *hash_mb))
            }
            PlayerSpec::Random { .. } => Box::new(random::RandomPlayer),
            PlayerSpec::Engine { config, budget, .. } => match config.protocol {
                Protocol::Uci => Box::new(uci::UciPlayer::new(config.clone(), *budget)),
                Protocol::Xboard => Box::new(xboard::XboardPlayer::new(config.clone(), *budget)),
            },
        }
    }
}
