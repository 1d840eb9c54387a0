//! Making a book (`hoplite book`): distinct openings played among a player's near-best moves,
//! or distinct random openings that a search scores near equality, written as EPD and PGN.

use crate::error::RunError;
use crate::openings::played::Played;
use crate::openings::random_opening;
use crate::player::scoring::{score_all, ScoringJob};
use crate::player::Answer;
use crate::player::PlayerSpec;
use hoplite_core::seed::game_seed;
use hoplite_core::{Move, Position, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::sync::Arc;

/// What `hoplite book` is asked for.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Random plies from the setup.
    pub plies: u32,
    /// Positions wanted.
    pub positions: usize,
    /// Keep a position only if the player scores it within ± this many centipawns.
    pub within: i32,
    pub seed: u64,
    pub threads: usize,
    /// Give up after this many candidate openings.
    pub max_tries: u64,
}

/// A book position: its opening line and, for a filtered book, the player's score of it (side
/// to move's view).
#[derive(Clone, Debug)]
pub struct BookLine {
    pub moves: Vec<Move>,
    pub fen: String,
    pub score: Option<i32>,
}

/// Candidates scored at once; every thread takes from a batch, and they are accepted in
/// index order, so the book does not depend on the thread count.
const BATCH: usize = 256;

/// A book and what it took: distinct candidates scored, and how many of them were level
/// (the book keeps the first `positions` of those).
pub struct Book {
    pub lines: Vec<BookLine>,
    pub scored: u64,
    pub level: u64,
}

/// Draws distinct random openings (candidate `j` from the seed of `j`), scores each with the
/// player's search from a fresh start, and keeps those within the bound, in candidate order.
pub fn make_book(
    variant: &Arc<Variant>,
    player: &PlayerSpec,
    s: &BookSettings,
    mut progress: impl FnMut(usize, u64),
) -> Result<Book, RunError> {
    player.check(variant)?;
    let start = Position::startpos(variant);
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let (mut tried, mut scored, mut level) = (0u64, 0u64, 0u64);
    while book.len() < s.positions && tried < s.max_tries {
        let mut batch = Vec::new();
        while batch.len() < BATCH && tried < s.max_tries {
            let mut rng = ChaCha8Rng::seed_from_u64(game_seed(s.seed, tried));
            tried += 1;
            let moves = random_opening(&start, s.plies, &mut rng);
            let mut pos = start.clone();
            moves.iter().for_each(|&m| pos.make(m));
            if seen.insert(pos.to_fen()) {
                batch.push((moves, pos));
            }
        }
        let jobs: Vec<ScoringJob> =
            batch.iter().map(|(moves, pos)| ScoringJob { start: &start, moves, position: pos }).collect();
        let scores = score_all(variant, player, &jobs, s.threads)?;
        scored += batch.len() as u64;
        for ((moves, pos), answer) in batch.into_iter().zip(scores) {
            // A line the player has no move after is over by its rules: no opening.
            let Answer::Scored(score) = answer else { continue };
            let score = score.unwrap_or(0);
            if score.abs() <= s.within {
                level += 1;
                if book.len() < s.positions {
                    book.push(BookLine { moves, fen: pos.to_fen(), score: Some(score) });
                }
            }
        }
        progress(book.len(), tried);
    }
    Ok(Book { lines: book, scored, level })
}

/// Distinct openings played from the setup (`Played::distinct`), as a book.
pub fn played_book(
    variant: &Arc<Variant>,
    played: &Played,
    positions: usize,
    seed: u64,
    threads: usize,
    progress: crate::openings::played::Progress,
) -> Result<Vec<BookLine>, RunError> {
    played.player.check(variant)?;
    let start = Position::startpos(variant);
    let setup: Arc<str> = variant.setup.as_str().into();
    let lines = played.distinct(variant, &|_| setup.clone(), positions as u64, seed, threads, progress)?;
    Ok(lines
        .iter()
        .map(|uci| {
            let moves = crate::openings::replay(&start, uci).unwrap_or_default();
            let mut pos = start.clone();
            moves.iter().for_each(|&m| pos.make(m));
            BookLine { moves, fen: pos.to_fen(), score: None }
        })
        .collect())
}

/// The book as EPD: four FEN fields and the operations `hmvc`, `fmvn`, `ce` (the score, where
/// there is one) and `c0` (the opening in SAN).
pub fn epd_text(variant: &Arc<Variant>, book: &[BookLine]) -> String {
    let mut s = String::new();
    for b in book {
        let fields: Vec<&str> = b.fen.split_whitespace().collect();
        let san = san_line(variant, &b.moves).join(" ");
        let ce = b.score.map_or(String::new(), |c| format!(" ce {c};"));
        s += &format!("{} hmvc {}; fmvn {};{ce} c0 \"{san}\";\n", fields[..4].join(" "), fields[4], fields[5]);
    }
    s
}

/// The book as PGN: one game per position, its opening in SAN, the score as a comment.
pub fn pgn_book(variant: &Arc<Variant>, book: &[BookLine]) -> String {
    let mut s = String::new();
    for (i, b) in book.iter().enumerate() {
        s += &format!(
            "[Event \"hoplite book\"]\n[Round \"{}\"]\n[Variant \"{}\"]\n[Result \"*\"]\n\n",
            i + 1,
            variant.name
        );
        let mut text = String::new();
        let first = Position::startpos(variant).side_to_move().index();
        for (k, san) in san_line(variant, &b.moves).iter().enumerate() {
            match (k + first) % 2 {
                0 => text += &format!("{}. ", (k + first) / 2 + 1),
                _ if k == 0 => text += "1... ",
                _ => {}
            }
            text += san;
            text.push(' ');
        }
        let ce = b.score.map_or(String::new(), |c| format!("{{ce {c}}} "));
        s += &format!("{text}{ce}*\n\n");
    }
    s
}

fn san_line(variant: &Arc<Variant>, moves: &[Move]) -> Vec<String> {
    let mut pos = Position::startpos(variant);
    moves
        .iter()
        .map(|&m| {
            let s = pos.to_san(m);
            pos.make(m);
            s
        })
        .collect()
}
