//! What the two protocols share: the running engine, the engine's name for a variant, the
//! game's moves in the engine's notation, and how long to wait for a move.

use super::notation::to_engine;
use super::process::Process;
use super::{Clocks, Turn};
use hoplite_core::{Colour, Move, Position, Variant};
use hoplite_formats::engines::{CastlingNotation, EngineConfig, Protocol};
use hoplite_search::Budget;
use std::time::{Duration, Instant};

/// A running engine and what it told us.
pub struct Session {
    pub process: Process,
    /// The options it offers (UCI) or its features (xboard).
    pub options: Vec<String>,
    /// The variants it names (UCI_Variant's values, xboard's `variants` feature).
    pub variants: Vec<String>,
    /// The variant file it has loaded.
    pub loaded_file: Option<String>,
    /// The engine's name of the variant being played.
    pub variant: Option<String>,
    /// Moves of the current game already sent (xboard keeps the game itself).
    pub sent: usize,
    /// The current game's moves in the engine's notation, and the position after them.
    pub written: Option<(Vec<Move>, Vec<String>, Position)>,
}

impl Session {
    pub fn offers(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }
}

/// The engine's name for a variant: engines.toml's, else the variant file's `uci_variant` or
/// `xboard_variant`, else hoplite's own name.
pub fn variant_name(config: &EngineConfig, variant: &Variant, protocol: Protocol) -> String {
    let own = match protocol {
        Protocol::Uci => &variant.uci_variant,
        Protocol::Xboard => &variant.xboard_variant,
    };
    config.variants.get(&variant.name).or(own.as_ref()).cloned().unwrap_or_else(|| variant.name.clone())
}

impl Session {
    /// The game's moves from its start, as the engine writes them: written out once, each
    /// turn adding the moves since the last.
    pub fn engine_moves(&mut self, turn: &Turn, castling: CastlingNotation) -> &[String] {
        let fresh = match &self.written {
            Some((moves, _, _)) => moves.len() > turn.moves.len() || moves[..] != turn.moves[..moves.len()],
            None => true,
        };
        if fresh {
            self.written = Some((Vec::new(), Vec::new(), turn.start.clone()));
        }
        let (moves, texts, pos) = self.written.as_mut().expect("set above");
        for &m in &turn.moves[moves.len()..] {
            texts.push(to_engine(pos, m, castling));
            pos.make(m);
            moves.push(m);
        }
        texts
    }
}

/// The most a clock may be overstepped before the side loses on time, for the pipe's delay.
pub const CLOCK_MARGIN: Duration = Duration::from_millis(50);

/// When to stop waiting for a move: the clock (with a second's grace, the arbiter judges the
/// overstep), the time per move with half as much again and a second, or engines.toml's
/// timeout (60 s by default) under a node or depth budget.
pub fn deadline(config: &EngineConfig, budget: &Budget, clock: Option<&Clocks>, side: Colour) -> Instant {
    let wait = match (clock, budget.movetime) {
        (Some(c), _) => c.remaining[side] + CLOCK_MARGIN + Duration::from_secs(1),
        (None, Some(t)) => t + t / 2 + Duration::from_secs(1),
        (None, None) => Duration::from_secs_f64(config.timeout.unwrap_or(60.0)),
    };
    Instant::now() + wait
}
