//! One game: the opening, then the players alternate, the arbiter checking every move and
//! keeping the clocks, until a rule of the variant (`Position::outcome`), the ply limit, the
//! adjudicator or a player's failure (an illegal move, a crash, no answer in time, a fallen
//! flag: the game is lost) ends it.

use crate::error::PlayerError;
use crate::openings::Opening;
use crate::player::{Clocks, Player, Turn, CLOCK_MARGIN};
use hoplite_core::{Colour, GameResult, Move, Position, Termination, Variant};
use hoplite_search::Clock;
use hoplite_search::MATE_BOUND;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;

/// When the adjudicator ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub max_plies: u32,
    /// (centipawns, moves): a side whose score is at most `-cp` for `moves` consecutive own
    /// moves, its opponent agreeing, loses.
    pub resign: Option<(i32, u32)>,
    /// (centipawns, moves, from ply): both sides' scores within `cp` for `moves` moves each.
    pub draw: Option<(i32, u32, u32)>,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication { max_plies: 400, resign: None, draw: None }
    }
}

/// One game to play.
pub struct Game<'a> {
    pub variant: &'a Arc<Variant>,
    pub config: &'a str,
    pub game_id: u64,
    pub seed: u64,
    pub opening: &'a Opening,
    /// The players' names, White first.
    pub names: [&'a str; 2],
    /// The sides' clocks, for players whose budget is one.
    pub clocks: [Option<Clock>; 2],
    pub adjudication: Adjudication,
    /// Keep the moves in SAN (for PGN).
    pub record_san: bool,
    /// Keep the players' evaluations, a ply each.
    pub record_evals: bool,
}

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: Arc<Variant>,
    pub game_id: u64,
    pub config: String,
    pub seed: u64,
    pub white: String,
    pub black: String,
    pub opening_fen: String,
    pub start_fen: String,
    pub result: GameResult,
    pub termination: Termination,
    pub plies: u32,
    pub final_fen: String,
    pub nodes: u64,
    pub duration_ms: u64,
    /// (ply, FEN) of positions after the opening where the side to move was not in check.
    pub positions: Vec<(u32, String)>,
    /// Moves after the opening, SAN (only when asked for).
    pub san: Vec<String>,
    /// The opening moves in SAN (only when asked for).
    pub opening_san: Vec<String>,
    /// The side whose player failed, and how (it lost the game).
    pub failure: Option<(Colour, PlayerError)>,
    /// The mean number of legal moves in the positions the players moved in.
    pub branching: f64,
    /// The players' evaluations after each move, centipawns from White's view (when asked).
    pub evals: Vec<i32>,
    /// Each move a player chose after the opening and its score (its side's view), in order;
    /// the last may be one the adjudicator ended the game before making. Kept always (a few
    /// bytes a ply): training positions are read from it (`plans::datagen`).
    pub searched: Vec<(Move, Option<i32>)>,
}

/// Counts the plies in a row that the scores stayed beyond the adjudicator's thresholds.
#[derive(Default)]
struct Adjudicator {
    winning_white: u32,
    winning_black: u32,
    drawish: u32,
}

impl GameRecord {
    /// The name of the player of `side`.
    pub fn player(&self, side: Colour) -> &str {
        match side {
            Colour::White => &self.white,
            Colour::Black => &self.black,
        }
    }
}

impl Adjudicator {
    /// The adjudicated end, if any, after a move whose score (White's view) is `white_score`.
    fn after(&mut self, a: &Adjudication, ply: u32, white_score: i32) -> Option<GameResult> {
        if let Some((cp, moves)) = a.resign {
            self.winning_white = if white_score >= cp { self.winning_white + 1 } else { 0 };
            self.winning_black = if white_score <= -cp { self.winning_black + 1 } else { 0 };
            if self.winning_white >= 2 * moves {
                return Some(GameResult::WhiteWins);
            }
            if self.winning_black >= 2 * moves {
                return Some(GameResult::BlackWins);
            }
        }
        if let Some((cp, moves, after)) = a.draw {
            let quiet = ply >= after && white_score.abs() <= cp && white_score.abs() < MATE_BOUND;
            self.drawish = if quiet { self.drawish + 1 } else { 0 };
            if self.drawish >= 2 * moves {
                return Some(GameResult::Draw);
            }
        }
        None
    }
}

/// The record of game `g` from `opening_fen` before a move of it: who, where, nothing played.
fn unplayed(g: &Game, opening_fen: String, result: GameResult, termination: Termination) -> GameRecord {
    GameRecord {
        variant: g.variant.clone(),
        game_id: g.game_id,
        config: g.config.to_string(),
        seed: g.seed,
        white: g.names[0].to_string(),
        black: g.names[1].to_string(),
        final_fen: opening_fen.clone(),
        opening_fen,
        start_fen: g.opening.start_fen.to_string(),
        result,
        termination,
        plies: 0,
        nodes: 0,
        duration_ms: 0,
        positions: Vec::new(),
        san: Vec::new(),
        opening_san: Vec::new(),
        failure: None,
        branching: 0.0,
        evals: Vec::new(),
        searched: Vec::new(),
    }
}

/// The record of a game that side `side` lost before it began: its player could not start
/// or take the game.
pub fn forfeit(g: &Game, side: Colour, error: PlayerError) -> GameRecord {
    let start = Position::from_fen(g.variant, &g.opening.start_fen).expect("start positions are checked");
    let termination = error.termination();
    GameRecord { failure: Some((side, error)), ..unplayed(g, start.to_fen(), GameResult::win_for(!side), termination) }
}

/// Plays one game between `players` (White first), each already told of the new game.
pub fn play(g: &Game, mut players: [&mut dyn Player; 2]) -> GameRecord {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(g.seed);
    let start = Position::from_fen(g.variant, &g.opening.start_fen).expect("start positions are checked");
    let mut moves = g.opening.line(&start, &mut rng);
    let mut pos = start.clone();
    let mut opening_san = Vec::new();
    for &m in &moves {
        if g.record_san {
            opening_san.push(pos.to_san(m));
        }
        pos.make(m);
    }
    let opening_fen = pos.to_fen();
    let mut positions = Vec::new();
    let mut san = Vec::new();
    let mut nodes = 0;
    let mut plies = 0u32;
    let mut adjudicator = Adjudicator::default();
    let mut legal = Vec::new();
    let mut failure = None;
    let (mut legal_total, mut evals, mut searched) = (0usize, Vec::new(), Vec::new());
    let mut remaining = g.clocks.map(|c| c.map(|c| c.left));
    let (result, termination) = loop {
        if let Some(end) = pos.outcome() {
            break end;
        }
        if plies >= g.adjudication.max_plies {
            break (GameResult::Draw, Termination::MaxPlies);
        }
        let side = pos.side_to_move();
        if !pos.in_check() {
            positions.push((pos.ply() as u32, pos.to_fen()));
        }
        let clock = remaining[side].map(|_| Clocks {
            remaining: remaining.map(|r| r.unwrap_or_default()),
            increment: g.clocks.map(|c| c.map_or(Default::default(), |c| c.increment)),
        });
        let asked = Instant::now();
        let turn = Turn { position: &pos, start: &start, moves: &moves, clock, rng: &mut rng };
        let reply = players[side].play(turn).and_then(|r| {
            pos.legal_moves(&mut legal);
            match legal.contains(&r.mv) {
                true => Ok(r),
                false => Err(PlayerError::IllegalMove { mv: pos.move_to_uci(r.mv) }),
            }
        });
        let spent = asked.elapsed();
        let flag_fell = remaining[side].is_some_and(|left| spent > left + CLOCK_MARGIN);
        let reply = match reply {
            Ok(r) if !flag_fell => r,
            // A resignation in time is a result, not a failure.
            Err(PlayerError::Resigned) if !flag_fell => break (GameResult::win_for(!side), Termination::Adjudication),
            late_or_failed => {
                // A move after the flag fell loses on time, whatever the move.
                let error = match late_or_failed {
                    Err(e) if !flag_fell => e,
                    _ => PlayerError::Timeout(spent),
                };
                let termination = match &error {
                    PlayerError::Timeout(_) if remaining[side].is_some() => Termination::TimeForfeit,
                    e => e.termination(),
                };
                failure = Some((side, error));
                break (GameResult::win_for(!side), termination);
            }
        };
        if let (Some(left), Some(c)) = (remaining[side].as_mut(), g.clocks[side]) {
            *left = left.saturating_sub(spent) + c.increment;
        }
        nodes += reply.nodes;
        legal_total += legal.len();
        // A player that gives no score (the random mover) counts as calling it level.
        let score = reply.score.unwrap_or(0);
        let white_score = side.sign() * score;
        if g.record_evals {
            evals.push(white_score);
        }
        searched.push((reply.mv, reply.score));
        if let Some(r) = adjudicator.after(&g.adjudication, pos.ply() as u32, white_score) {
            break (r, Termination::Adjudication);
        }
        if g.record_san {
            san.push(pos.to_san(reply.mv));
        }
        pos.make(reply.mv);
        moves.push(reply.mv);
        plies += 1;
    };
    GameRecord {
        plies: pos.ply() as u32,
        final_fen: pos.to_fen(),
        nodes,
        duration_ms: started.elapsed().as_millis() as u64,
        positions,
        san,
        opening_san,
        failure,
        branching: legal_total as f64 / plies.max(1) as f64,
        evals,
        searched,
        ..unplayed(g, opening_fen, result, termination)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerSpec;
    use hoplite_search::Budget;

    fn game(variant: &str, adjudication: Adjudication, fen: Option<&str>) -> GameRecord {
        let v = Variant::builtin(variant);
        let spec =
            PlayerSpec::Hoplite { name: "e".into(), budget: Budget::nodes(300), files: Default::default(), hash_mb: 1 };
        let (mut w, mut b) = (spec.start(), spec.start());
        w.new_game(&v).unwrap();
        b.new_game(&v).unwrap();
        let opening =
            Opening { start_fen: fen.unwrap_or(&v.setup).into(), moves: None, own: crate::openings::Own::Random(0) };
        let g = Game {
            variant: &v,
            config: "t",
            game_id: 0,
            seed: 5,
            opening: &opening,
            names: ["e", "e"],
            clocks: [None, None],
            adjudication,
            record_san: true,
            record_evals: true,
        };
        play(&g, [w.as_mut(), b.as_mut()])
    }

    #[test]
    fn resign_adjudication_gives_the_game_to_the_side_far_ahead() {
        // White is a queen up: once both engines have said so twice each (the fourth search),
        // White is given the game, three plies in.
        let adj = Adjudication { max_plies: 400, resign: Some((500, 2)), draw: None };
        let r = game("chess", adj, Some("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1"));
        assert_eq!((r.result, r.termination), (GameResult::WhiteWins, Termination::Adjudication));
        assert_eq!(r.plies, 3);
    }

    #[test]
    fn draw_adjudication_and_max_plies() {
        let level = "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";
        let adj = Adjudication { max_plies: 400, resign: None, draw: Some((50, 3, 0)) };
        let r = game("chess", adj, Some(level));
        assert_eq!((r.result, r.termination, r.plies), (GameResult::Draw, Termination::Adjudication, 5));
        let r = game("chess", Adjudication { max_plies: 10, resign: None, draw: None }, None);
        assert_eq!((r.result, r.termination, r.plies), (GameResult::Draw, Termination::MaxPlies, 10));
        assert_eq!(r.san.len(), 10);
    }
}
