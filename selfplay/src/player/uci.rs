//! An outside engine over UCI: `position fen ... moves ...`, `go` with the player's budget,
//! `bestmove`; the score and nodes from the last `info` line.

use super::external::{deadline, variant_name, Session};
use super::notation::from_engine;
use super::process::{starting, unanswered, Process};
use super::{Answer, Player, Reply, Turn};
use crate::error::PlayerError;
use hoplite_core::{Move, Variant};
use hoplite_formats::engines::{EngineConfig, Protocol};
use hoplite_search::Budget;
use hoplite_search::MATE;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct UciPlayer {
    config: EngineConfig,
    budget: Budget,
    session: Option<Session>,
}

impl UciPlayer {
    pub fn new(config: EngineConfig, budget: Budget) -> UciPlayer {
        UciPlayer { config, budget, session: None }
    }

    /// Starts the engine: `uci`, its options, our options (one thread unless told otherwise).
    fn start(&self) -> Result<Session, PlayerError> {
        let mut p = Process::spawn(&self.config.command, &self.config.args).map_err(starting)?;
        p.send("uci").map_err(starting)?;
        let until = Instant::now() + self.config.handshake();
        let mut options = Vec::new();
        let mut variants = Vec::new();
        loop {
            let line = p.recv(until).map_err(|e| unanswered(e, "uci", "uciok", self.config.handshake()))?;
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or("").to_string();
                if name == "UCI_Variant" {
                    variants = rest.split(" var ").skip(1).map(|v| v.trim().to_string()).collect();
                }
                options.push(name);
            }
        }
        let mut session =
            Session { process: p, options, variants, loaded_file: None, variant: None, sent: 0, written: None };
        if session.offers("Threads") && !self.config.options.contains_key("Threads") {
            session.process.send("setoption name Threads value 1")?;
        }
        for (name, value) in &self.config.options {
            session.process.send(&format!("setoption name {name} value {value}"))?;
        }
        Ok(session)
    }

    /// The engine has read everything: a game cannot be set up without it.
    fn ready(p: &mut Process, wait: Duration) -> Result<(), PlayerError> {
        p.send("isready")?;
        p.until(Instant::now() + wait, |l| l == "readyok")
            .map(|_| ())
            .map_err(|e| unanswered(e, "isready", "readyok", wait))
    }
}

impl Player for UciPlayer {
    fn new_game(&mut self, variant: &Arc<Variant>) -> Result<(), PlayerError> {
        let file = self.config.variant_files.get(&variant.name).cloned();
        // A file loaded for another variant may not be unloaded: start afresh.
        if self.session.as_ref().is_some_and(|s| s.loaded_file.is_some() && s.loaded_file != file) {
            self.session = None;
        }
        if self.session.is_none() {
            self.session = Some(self.start()?);
        }
        let option = self.config.variant_file_option.clone().unwrap_or_else(|| "VariantPath".into());
        let name = variant_name(&self.config, variant, Protocol::Uci);
        let s = self.session.as_mut().expect("started above");
        if let Some(f) = &file {
            if s.loaded_file.as_ref() != Some(f) {
                s.process.send(&format!("setoption name {option} value {f}"))?;
                s.loaded_file = Some(f.clone());
            }
        }
        if s.offers("UCI_Variant") {
            if file.is_none() && !s.variants.is_empty() && !s.variants.contains(&name) {
                return Err(PlayerError::Setup(format!(
                    "it does not play '{name}' (its UCI_Variant: {})",
                    s.variants.join(" ")
                )));
            }
            s.process.send(&format!("setoption name UCI_Variant value {name}"))?;
        } else if name != "chess" {
            return Err(PlayerError::Setup(format!(
                "it has no UCI_Variant option, so it plays chess only, not '{name}'"
            )));
        }
        s.variant = Some(name);
        s.process.send("ucinewgame")?;
        Self::ready(&mut s.process, self.config.handshake())
    }

    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError> {
        let found = self.go(&turn, None)?;
        if found.no_move() {
            return Err(PlayerError::NoMove);
        }
        let mv = from_engine(turn.position, &found.best, self.config.castling)?;
        Ok(Reply { mv, score: found.score(), nodes: found.nodes })
    }

    fn score(&mut self, turn: Turn) -> Result<Answer, PlayerError> {
        let found = self.go(&turn, None)?;
        Ok(if found.no_move() { Answer::NoMove } else { Answer::Scored(found.score()) })
    }

    fn scored_moves(&mut self, turn: Turn, lines: usize) -> Result<Vec<(Move, i32)>, PlayerError> {
        if !self.session.as_ref().expect("new_game comes first").offers("MultiPV") {
            return Err(PlayerError::Setup("it has no MultiPV option to rank moves with".into()));
        }
        let found = self.go(&turn, Some(lines))?;
        let mut out = Vec::new();
        for (first, score) in found.lines.into_iter().filter(|(first, _)| !first.is_empty()) {
            let mv = from_engine(turn.position, &first, self.config.castling)?;
            if !out.iter().any(|&(m, _)| m == mv) {
                out.push((mv, score));
            }
        }
        // An engine stopped mid-iteration may list lines of two depths: best first all the same.
        out.sort_by_key(|&(_, s)| -s);
        Ok(out)
    }
}

/// What a `go` found: the best move as the engine wrote it, each line's first move and score
/// (by line, the last reported), and the nodes searched.
struct Found {
    best: String,
    lines: Vec<(String, i32)>,
    nodes: u64,
}

impl Found {
    /// UCI's answer where the engine, by its own rules, has no move.
    fn no_move(&self) -> bool {
        matches!(self.best.as_str(), "(none)" | "0000")
    }

    /// The first line's score.
    fn score(&self) -> Option<i32> {
        self.lines.first().map(|l| l.1)
    }
}

impl UciPlayer {
    /// Sends the game and `go` with the budget (and `MultiPV` when `lines` is given), and reads
    /// the engine's lines until `bestmove`.
    fn go(&mut self, turn: &Turn, lines: Option<usize>) -> Result<Found, PlayerError> {
        let s = self.session.as_mut().expect("new_game comes first");
        let mut position = format!("position fen {}", turn.start.to_fen());
        let moves = s.engine_moves(turn, self.config.castling);
        if !moves.is_empty() {
            position += " moves ";
            position += &moves.join(" ");
        }
        let b = &self.budget;
        let mut go = String::from("go");
        if let Some(n) = b.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(d) = b.depth {
            go += &format!(" depth {d}");
        }
        if let Some(t) = b.movetime {
            go += &format!(" movetime {}", t.as_millis());
        }
        if let Some(c) = &turn.clock {
            let ms = |d: Duration| d.as_millis();
            go += &format!(
                " wtime {} btime {} winc {} binc {}",
                ms(c.remaining[0]),
                ms(c.remaining[1]),
                ms(c.increment[0]),
                ms(c.increment[1])
            );
        }
        if s.offers("MultiPV") {
            s.process.send(&format!("setoption name MultiPV value {}", lines.unwrap_or(1)))?;
        }
        s.process.send_all(&[&position, &go])?;
        let until = deadline(&self.config, b, turn.clock.as_ref(), turn.position.side_to_move());
        let mut found = Found { best: String::new(), lines: Vec::new(), nodes: 0 };
        loop {
            let line = s.process.recv(until)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"bestmove") => {
                    found.best = words.get(1).copied().unwrap_or("").to_string();
                    return Ok(found);
                }
                Some(&"info") => {
                    let after = |key: &str| words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1));
                    if let Some(n) = after("nodes").and_then(|n| n.parse().ok()) {
                        found.nodes = n;
                    }
                    let score = if let Some(v) = after("cp").and_then(|v| v.parse::<i32>().ok()) {
                        Some(v)
                    } else {
                        after("mate").and_then(|v| v.parse::<i32>().ok()).map(|m| match m > 0 {
                            true => MATE - (2 * m - 1),
                            false => -MATE - 2 * m,
                        })
                    };
                    let k = after("multipv").and_then(|k| k.parse::<usize>().ok()).unwrap_or(1);
                    if let (Some(score), Some(first), true) = (score, after("pv"), k >= 1) {
                        if found.lines.len() < k {
                            found.lines.resize(k, (String::new(), 0));
                        }
                        found.lines[k - 1] = (first.to_string(), score);
                    } else if let (Some(score), 1) = (score, k) {
                        // A score without a line still is the engine's view of the position.
                        match found.lines.first_mut() {
                            Some(l) => l.1 = score,
                            None => found.lines.push((String::new(), score)),
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
