//! Players: who chooses the moves of a side. hoplite's engine and a random mover live in this
//! process; an outside engine speaks UCI or xboard through a pipe. A player is described by a
//! `PlayerSpec` (what the run records), started once per worker thread and kept across its
//! games; the game's arbiter checks every move it returns.

mod engine;
mod random;

use crate::error::RunError;
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::manifest::PlayerKind;
use hoplite_formats::{Budget, PlayerRecord};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// One move to make: the game so far and the game's random generator.
pub struct Turn<'a> {
    /// The position, with the game's moves in its history (repetitions count).
    pub position: &'a Position,
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

/// Why a player could not answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayerError {
    #[error("it cannot play this variant: {0}")]
    Setup(String),
    #[error("it returned no move in a position that has one")]
    NoMove,
}

pub trait Player: Send {
    /// A new game of `variant` starts: forget the last one.
    fn new_game(&mut self, variant: &Arc<Variant>) -> Result<(), PlayerError>;
    /// The move for the side to move.
    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError>;
}

/// A player as the command line and run.toml describe it.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// hoplite's engine: its budget per move, weights file (the variant's defaults without),
    /// and transposition table size.
    Hoplite { name: String, budget: Budget, weights: Option<PathBuf>, hash_mb: usize },
    /// Uniformly random legal moves, drawn from the game's generator (a baseline).
    Random { name: String },
}

impl PlayerSpec {
    pub fn name(&self) -> &str {
        match self {
            PlayerSpec::Hoplite { name, .. } | PlayerSpec::Random { name } => name,
        }
    }

    /// What run.toml records.
    pub fn record(&self) -> PlayerRecord {
        match self {
            PlayerSpec::Hoplite { name, budget, weights, .. } => PlayerRecord {
                name: name.clone(),
                kind: PlayerKind::Hoplite,
                budget: Some(*budget),
                weights: weights.as_ref().map(|w| w.display().to_string()),
            },
            PlayerSpec::Random { name } => {
                PlayerRecord { name: name.clone(), kind: PlayerKind::Random, budget: None, weights: None }
            }
        }
    }

    /// Checks, before any game, that the player can play `variant` (its weights load).
    pub fn check(&self, variant: &Variant) -> Result<(), RunError> {
        if let PlayerSpec::Hoplite { weights: Some(w), .. } = self {
            hoplite_search::Weights::load(variant, w)?;
        }
        Ok(())
    }

    /// A player to play games with.
    pub fn start(&self) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Hoplite { budget, weights, hash_mb, .. } => {
                Box::new(engine::EnginePlayer::new(*budget, weights.clone(), *hash_mb))
            }
            PlayerSpec::Random { .. } => Box::new(random::RandomPlayer),
        })
    }
}
