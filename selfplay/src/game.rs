//! One game: an opening, then the engines alternate until a rule or the adjudicator ends it.

use hoplite_core::{GameResult, Move, Position, Termination, Variant, WHITE};
use hoplite_search::{Limits, Search, Weights, MATE_BOUND};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Instant;

/// One side's engine: a name for the CSV, its weights and its per-move limit.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub weights: Weights,
    pub limits: Limits,
    /// Plays uniformly random legal moves instead of searching (a baseline opponent).
    pub random: bool,
}

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

/// Where a game starts.
#[derive(Clone, Debug)]
pub enum Opening {
    /// This many uniformly random legal moves from the position.
    Random(u32),
    /// Exactly this position.
    Fixed,
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
    /// The opening as played from the start FEN, UCI.
    pub opening_moves: Vec<String>,
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
}

/// The seed of one game: the run seed and the game id mixed (splitmix64).
pub fn game_seed(run_seed: u64, game_id: u64) -> u64 {
    let mut z = run_seed ^ game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `plies` random legal moves; an opening that ends the game is drawn again (the same
/// generator continues, so this stays deterministic). Returns the moves.
pub fn random_opening(start: &Position, plies: u32, rng: &mut ChaCha8Rng) -> Vec<Move> {
    let mut moves = Vec::new();
    for _attempt in 0..1000 {
        let mut pos = start.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make(m);
            line.push(m);
        }
        if pos.outcome().is_none() {
            return line;
        }
    }
    Vec::new()
}

/// Replays UCI moves; `None` if one is illegal here or the line ends the game.
pub fn replay(start: &Position, uci: &[String]) -> Option<Vec<Move>> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    for u in uci {
        let m = pos.parse_uci(u).ok()?;
        pos.make(m);
        line.push(m);
    }
    pos.outcome().is_none().then_some(line)
}

pub struct GameSetup<'a> {
    pub variant: &'a Arc<Variant>,
    pub config: &'a str,
    pub game_id: u64,
    pub seed: u64,
    pub start_fen: &'a str,
    pub opening: Opening,
    /// Opening moves to use when legal in this variant (balance runs share openings).
    pub shared_opening: Option<&'a [String]>,
    pub white: &'a EngineSpec,
    pub black: &'a EngineSpec,
    pub adjudication: Adjudication,
    pub record_san: bool,
    pub tt_megabytes: usize,
}

/// Plays one game.
pub fn play(g: &GameSetup) -> Result<GameRecord, String> {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(g.seed);
    let start = Position::from_fen(g.variant, g.start_fen).map_err(|e| e.to_string())?;
    let line = match (&g.opening, g.shared_opening.and_then(|o| replay(&start, o))) {
        (_, Some(line)) => line,
        (Opening::Random(n), None) => random_opening(&start, *n, &mut rng),
        (Opening::Fixed, None) => Vec::new(),
    };
    let mut pos = start.clone();
    let mut opening_san = Vec::new();
    for &m in &line {
        if g.record_san {
            opening_san.push(pos.to_san(m));
        }
        pos.make(m);
    }
    let opening_fen = pos.to_fen();
    let opening_moves = line.iter().map(|&m| g.variant.move_to_uci(m)).collect();
    let engines = [g.white, g.black];
    let mut searches =
        [Search::new(g.white.weights.clone(), g.tt_megabytes), Search::new(g.black.weights.clone(), g.tt_megabytes)];
    let mut positions = Vec::new();
    let mut san = Vec::new();
    let mut nodes = 0;
    let mut plies = 0u32;
    // Consecutive plies in which the scores (White's view) stayed beyond the thresholds.
    let (mut winning_white, mut winning_black, mut drawish) = (0u32, 0u32, 0u32);
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
        let r = if engines[side].random {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let m = moves[rng.gen_range(0..moves.len())];
            hoplite_search::SearchResult { best: Some(m), score: 0, depth: 0, nodes: 0, pv: vec![m] }
        } else {
            searches[side].search(&mut pos, engines[side].limits)
        };
        nodes += r.nodes;
        let m = r.best.expect("a position that has not ended has a move");
        let white_score = if side == WHITE { r.score } else { -r.score };
        if let Some((cp, moves)) = g.adjudication.resign {
            winning_white = if white_score >= cp { winning_white + 1 } else { 0 };
            winning_black = if white_score <= -cp { winning_black + 1 } else { 0 };
            if winning_white >= 2 * moves {
                break (GameResult::WhiteWins, Termination::Adjudication);
            }
            if winning_black >= 2 * moves {
                break (GameResult::BlackWins, Termination::Adjudication);
            }
        }
        if let Some((cp, moves, after)) = g.adjudication.draw {
            let quiet = pos.ply() as u32 >= after && white_score.abs() <= cp && r.score.abs() < MATE_BOUND;
            drawish = if quiet { drawish + 1 } else { 0 };
            if drawish >= 2 * moves {
                break (GameResult::Draw, Termination::Adjudication);
            }
        }
        if g.record_san {
            san.push(pos.to_san(m));
        }
        pos.make(m);
        plies += 1;
    };
    Ok(GameRecord {
        variant: g.variant.clone(),
        game_id: g.game_id,
        config: g.config.to_string(),
        seed: g.seed,
        white: g.white.name.clone(),
        black: g.black.name.clone(),
        opening_fen,
        opening_moves,
        start_fen: g.start_fen.to_string(),
        result,
        termination,
        plies: pos.ply() as u32,
        final_fen: pos.to_fen(),
        nodes,
        duration_ms: started.elapsed().as_millis() as u64,
        positions,
        san,
        opening_san,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: &str, adjudication: Adjudication, fen: Option<&str>) -> GameRecord {
        let v = Variant::builtin(variant);
        let engine =
            EngineSpec { name: "e".into(), weights: Weights::defaults(&v), limits: Limits::nodes(300), random: false };
        let start = fen.map_or(v.setup.clone(), String::from);
        play(&GameSetup {
            variant: &v,
            config: "t",
            game_id: 0,
            seed: 5,
            start_fen: &start,
            opening: Opening::Fixed,
            shared_opening: None,
            white: &engine,
            black: &engine,
            adjudication,
            record_san: true,
            tt_megabytes: 1,
        })
        .unwrap()
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
