//! An outside engine over xboard (CECP, protocol 2). The engine keeps the game itself: each
//! turn puts it in force mode, sends the moves it has not seen (`usermove` where it asks for
//! it), the clocks (`time`, `otim`) and `go`, and reads `move`. Without `setboard` the game
//! starts from the variant's own start and the opening is sent as moves. Result claims after
//! a move are read past: the arbiter decides.

use super::external::{deadline, variant_name, Session};
use super::notation::from_engine;
use super::process::{starting, unanswered, Process};
use super::{Answer, Player, Reply, Turn};
use crate::error::PlayerError;
use hoplite_core::{Position, Variant};
use hoplite_formats::engines::{EngineConfig, Protocol};
use hoplite_search::Budget;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct XboardPlayer {
    config: EngineConfig,
    budget: Budget,
    session: Option<Session>,
    /// The engine's `feature`s.
    features: BTreeMap<String, String>,
}

/// The `key=value` pairs of a `feature` line (values quoted or bare).
fn features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value = if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            rest = quoted.get(end + 1..).unwrap_or("");
            quoted[..end].to_string()
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            let v = rest[..end].to_string();
            rest = &rest[end..];
            v
        };
        out.push((key, value));
        rest = rest.trim_start();
    }
    out
}

/// `M:SS` as xboard's `level` writes a base time.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

impl XboardPlayer {
    pub fn new(config: EngineConfig, budget: Budget) -> XboardPlayer {
        XboardPlayer { config, budget, session: None, features: BTreeMap::new() }
    }

    /// Starts the engine and reads its features until `done=1`.
    fn start(&mut self) -> Result<Session, PlayerError> {
        let mut p = Process::spawn(&self.config.command, &self.config.args).map_err(starting)?;
        p.send_all(&["xboard", "protover 2"]).map_err(starting)?;
        let until = Instant::now() + self.config.handshake();
        self.features.clear();
        loop {
            let line =
                p.recv(until).map_err(|e| unanswered(e, "protover 2", "feature done=1", self.config.handshake()))?;
            if !line.starts_with("feature") {
                continue;
            }
            let mut done = false;
            for (k, v) in features(&line) {
                p.send(&format!("accepted {k}"))?;
                done |= k == "done" && v == "1";
                self.features.insert(k, v);
            }
            if done {
                break;
            }
        }
        for (name, value) in &self.config.options {
            p.send(&format!("option {name}={value}"))?;
        }
        let variants = self.features.get("variants").map_or(vec![], |v| v.split(',').map(String::from).collect());
        let options = self.features.iter().filter(|(_, v)| *v == "1").map(|(k, _)| k.clone()).collect();
        Ok(Session { process: p, options, variants, loaded_file: None, variant: None, sent: 0, written: None })
    }

    /// Waits until the engine has read everything sent so far (`ping`), where it can say so
    /// (returned), dropping what it said before but a refusal of a move sent.
    fn sync(s: &mut Session, wait: Duration) -> Result<bool, PlayerError> {
        if !s.offers("ping") {
            return Ok(false);
        }
        s.process.send("ping 1")?;
        let until = Instant::now() + wait;
        loop {
            let line = s.process.recv(until)?;
            if line.trim() == "pong 1" {
                return Ok(true);
            }
            refusal(&line)?;
        }
    }
}

impl Player for XboardPlayer {
    fn new_game(&mut self, variant: &Arc<Variant>) -> Result<(), PlayerError> {
        let file = self.config.variant_files.get(&variant.name).cloned();
        if self.session.as_ref().is_some_and(|s| s.loaded_file.is_some() && s.loaded_file != file) {
            self.session = None;
        }
        if self.session.is_none() {
            let s = self.start()?;
            self.session = Some(s);
        }
        let b = self.budget;
        let name = variant_name(&self.config, variant, Protocol::Xboard);
        let s = self.session.as_mut().expect("started above");
        if let Some(f) = &file {
            let option = self.config.variant_file_option.as_deref().ok_or_else(|| {
                PlayerError::Setup("engines.toml names a variant file but no variant_file_option to load it".into())
            })?;
            if s.loaded_file.as_ref() != Some(f) {
                s.process.send(&format!("option {option}={f}"))?;
                s.loaded_file = Some(f.clone());
            }
        }
        s.process.send("new")?;
        if name != "normal" {
            if file.is_none() && !s.variants.contains(&name) {
                return Err(PlayerError::Setup(format!(
                    "it does not play '{name}' (its variants: {})",
                    s.variants.join(",")
                )));
            }
            s.process.send(&format!("variant {name}"))?;
        }
        s.process.send("easy")?;
        s.process.send("post")?;
        if let Some(c) = b.clock {
            s.process.send(&format!("level 0 {} {}", minutes(c.left), c.increment.as_secs_f64()))?;
        }
        if let Some(t) = b.movetime {
            if t.subsec_millis() != 0 || t.is_zero() {
                return Err(PlayerError::Setup("xboard's st takes whole seconds a move".into()));
            }
            s.process.send(&format!("st {}", t.as_secs()))?;
        }
        if let Some(d) = b.depth {
            s.process.send(&format!("sd {d}"))?;
        }
        if b.nodes.is_some() {
            return Err(PlayerError::Setup(
                "xboard has no node limit: give it a depth, a time per move or a clock".into(),
            ));
        }
        s.process.send("force")?;
        s.variant = Some(name);
        s.sent = 0;
        let wait = self.config.handshake();
        Self::sync(s, wait).map(|_| ()).map_err(|e| unanswered(e, "ping 1", "pong 1", wait))
    }

    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError> {
        let (text, score, nodes) = self.think(&turn)?;
        let mv = from_engine(turn.position, &text, self.config.castling)?;
        Ok(Reply { mv, score, nodes })
    }

    fn score(&mut self, turn: Turn) -> Result<Answer, PlayerError> {
        match self.think(&turn) {
            Ok((_, score, _)) => Ok(Answer::Scored(score)),
            Err(PlayerError::NoMove) => Ok(Answer::NoMove),
            Err(e) => Err(e),
        }
    }
}

impl XboardPlayer {
    /// Sends the moves the engine has not seen and `go`, and reads its thinking until its
    /// move: the move as it wrote it, its last score and its nodes.
    fn think(&mut self, turn: &Turn) -> Result<(String, Option<i32>, u64), PlayerError> {
        let usermove = self.features.get("usermove").is_some_and(|v| v == "1");
        let s = self.session.as_mut().expect("new_game comes first");
        s.process.send("force")?;
        if s.sent == 0 {
            let setup = Position::startpos(turn.start.variant()).to_fen();
            let fen = turn.start.to_fen();
            if fen != setup {
                if !s.offers("setboard") {
                    return Err(PlayerError::Setup(format!("it cannot start from a FEN (setboard=0): {fen}")));
                }
                s.process.send(&format!("setboard {fen}"))?;
            }
        }
        let sent = s.sent;
        let moves: Vec<String> = s.engine_moves(turn, self.config.castling)[sent..].to_vec();
        for m in &moves {
            s.process.send(&if usermove { format!("usermove {m}") } else { m.clone() })?;
        }
        s.sent += moves.len();
        // What the engine said before (a draw claim after its last move) is dropped, so that
        // a result line after `go` is its answer to this position.
        let fresh = Self::sync(s, self.config.handshake())?;
        let side = turn.position.side_to_move();
        if let Some(c) = &turn.clock {
            let cs = |d: Duration| d.as_millis() / 10;
            s.process.send(&format!("time {}", cs(c.remaining[side])))?;
            s.process.send(&format!("otim {}", cs(c.remaining[!side])))?;
        }
        s.process.send("go")?;
        let until = deadline(&self.config, &self.budget, turn.clock.as_ref(), side);
        let (mut score, mut nodes) = (None, 0);
        let text = loop {
            let line = s.process.recv(until)?;
            refusal(&line)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["move", m, ..] => break m.to_string(),
                ["resign", ..] => return Err(PlayerError::Resigned),
                // A result where a move was asked for: by its rules the game is over here.
                [result, ..] if fresh && matches!(*result, "1-0" | "0-1" | "1/2-1/2") => {
                    return Err(PlayerError::NoMove);
                }
                // Thinking output: ply, score, time, nodes, line.
                [ply, sc, _, n, ..] if ply.parse::<u32>().is_ok() => {
                    score = sc.parse().ok().or(score);
                    nodes = n.parse().unwrap_or(nodes);
                }
                _ => {}
            }
        };
        // The engine has made its move on its board.
        s.sent += 1;
        Ok((text, score, nodes))
    }
}

/// An `Illegal move` or `Error` reply: the engine refused one of hoplite's moves.
fn refusal(line: &str) -> Result<(), PlayerError> {
    match line.starts_with("Illegal") || line.starts_with("Error") {
        true => Err(PlayerError::Refused { message: line.to_string() }),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn feature_lines_split_into_pairs() {
        let f =
            super::features("feature myname=\"Fairy-Max 5.0b\" setboard=0 ping=1 variants=\"normal,spartan\" done=0");
        let want = [
            ("myname", "Fairy-Max 5.0b"),
            ("setboard", "0"),
            ("ping", "1"),
            ("variants", "normal,spartan"),
            ("done", "0"),
        ];
        assert_eq!(f, want.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(super::minutes(std::time::Duration::from_secs(65)), "1:05");
    }
}
