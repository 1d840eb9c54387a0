//! The random mover: a uniformly random legal move, from the game's own generator.

use super::{Player, Reply, Turn};
use crate::error::PlayerError;
use hoplite_core::Variant;
use rand::Rng;
use std::sync::Arc;

pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn new_game(&mut self, _: &Arc<Variant>) -> Result<(), PlayerError> {
        Ok(())
    }

    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError> {
        let mut moves = Vec::new();
        turn.position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let mv = moves[turn.rng.gen_range(0..moves.len())];
        Ok(Reply { mv, score: None, nodes: 0 })
    }
}
