//! Opening books. A run reads one position per line (FEN, with or without move counters, or
//! EPD with its `;` operations) or the end positions of PGN games; `hoplite book` makes one
//! from random openings that a search scores near equality.

use crate::error::RunError;
use crate::openings::{game_seed, random_opening};
use crate::player::{PlayerSpec, Turn};
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::manifest::BookOrder;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A book position and the line of the file it came from (for errors found later).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub line: usize,
    pub fen: String,
}

/// Reads a book of `variant`: PGN if a line starts with a tag (`[`), else one FEN or EPD per
/// line (`#` comments and blank lines skipped). Every position must be legal and not over.
pub fn read_book(variant: &Arc<Variant>, path: &Path) -> Result<Vec<BookEntry>, RunError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RunError::Book {
        path: name.clone(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    let bad = |line: usize, message: String| RunError::Book { path: name.clone(), line, message };
    let positions = if text.lines().any(|l| l.trim_start().starts_with('[')) {
        read_pgn(variant, &text).map_err(|(line, m)| bad(line, m))?
    } else {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = Position::from_fen(variant, &epd_to_fen(line)).map_err(|e| bad(i + 1, e.to_string()))?;
            out.push((i + 1, pos));
        }
        out
    };
    let mut entries = Vec::new();
    for (line, pos) in positions {
        if pos.outcome().is_some() {
            return Err(bad(line, "the game is already over in this position".into()));
        }
        entries.push(BookEntry { line, fen: pos.to_fen() });
    }
    if entries.is_empty() {
        return Err(RunError::EmptyBook(name));
    }
    Ok(entries)
}

/// A FEN from a FEN or EPD line: the first four fields, then the counters as FEN fields or as
/// the EPD operations `hmvc` and `fmvn` (other operations are ignored), else `0 1`.
pub fn epd_to_fen(line: &str) -> String {
    let (position, ops) = line.split_once(';').map_or((line, ""), |(p, o)| (p, o));
    let fields: Vec<&str> = position.split_whitespace().collect();
    let numeric = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    if fields.len() == 6 && numeric(4) && numeric(5) {
        return fields.join(" ");
    }
    let n = fields.len().min(4);
    // The operations: after the fourth field, separated by ';'.
    let rest = format!("{};{ops}", fields[n..].join(" "));
    let op = |code: &str| {
        rest.split(';').find_map(|o| {
            let mut words = o.split_whitespace();
            (words.next() == Some(code)).then(|| words.next().and_then(|v| v.parse::<u32>().ok())).flatten()
        })
    };
    let (half, full) = (op("hmvc").unwrap_or(0), op("fmvn").unwrap_or(1));
    format!("{} {half} {full}", fields[..n].join(" "))
}

/// The position each PGN game ends in, with the line its movetext starts on. A `[Variant]`
/// tag must name this variant; `[FEN]` gives the start. Comments, variations, move numbers,
/// annotations and results are skipped. Errors are (line, message).
fn read_pgn(variant: &Arc<Variant>, text: &str) -> Result<Vec<(usize, Position)>, (usize, String)> {
    let names: Vec<String> = [Some(&variant.name), variant.uci_variant.as_ref(), variant.xboard_variant.as_ref()]
        .into_iter()
        .flatten()
        .map(|n| n.to_lowercase())
        .collect();
    let mut out = Vec::new();
    // The game being read: its first line, start, and whether movetext has begun.
    let mut game: Option<(usize, Position, bool)> = None;
    let (mut depth_comment, mut depth_variation) = (false, 0usize);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if !depth_comment && depth_variation == 0 && line.starts_with('[') {
            let (key, value) = tag(line).ok_or((n, format!("not a PGN tag: {line}")))?;
            if game.as_ref().is_some_and(|g| g.2) {
                out.push(finish(game.take().expect("checked")));
            }
            let (_, pos, _) = game.get_or_insert_with(|| (n, Position::startpos(variant), false));
            match key.as_str() {
                "Variant" if !names.contains(&value.to_lowercase()) => {
                    return Err((n, format!("a game of '{value}', not of {}", variant.name)));
                }
                "FEN" => *pos = Position::from_fen(variant, &value).map_err(|e| (n, e.to_string()))?,
                _ => {}
            }
            continue;
        }
        for word in line.split_whitespace() {
            let mut word = word;
            // Comments and variations may touch a move: peel them off character by character.
            while !word.is_empty() {
                if depth_comment {
                    match word.find('}') {
                        Some(k) => (depth_comment, word) = (false, &word[k + 1..]),
                        None => word = "",
                    }
                    continue;
                }
                if let Some(w) = word.strip_prefix('{') {
                    (depth_comment, word) = (true, w);
                    continue;
                }
                if let Some(w) = word.strip_prefix('(') {
                    (depth_variation, word) = (depth_variation + 1, w);
                    continue;
                }
                if let Some(w) = word.strip_prefix(')') {
                    (depth_variation, word) = (depth_variation.saturating_sub(1), w);
                    continue;
                }
                let end = word.find(['{', '(', ')']).unwrap_or(word.len());
                let token = &word[..end];
                word = &word[end..];
                if depth_variation > 0 || token.is_empty() {
                    continue;
                }
                let g = game.get_or_insert_with(|| (n, Position::startpos(variant), false));
                g.2 = true;
                // A move number may be glued to its move: `12.e4`, `12...e5`.
                let san = token.rfind('.').map_or(token, |k| &token[k + 1..]);
                if san.is_empty() || san.starts_with('$') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&san) {
                    continue;
                }
                let m: Move = g.1.parse_san(san).map_err(|e| (n, e.to_string()))?;
                g.1.make(m);
            }
        }
    }
    if let Some(g) = game {
        out.push(finish(g));
    }
    Ok(out)
}

fn finish((line, pos, _): (usize, Position, bool)) -> (usize, Position) {
    (line, pos)
}

/// `[Key "value"]` with `\"` and `\\` escapes.
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((key.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// The order a run takes `len` book positions in.
pub fn book_order(len: usize, seed: u64, order: BookOrder) -> Vec<usize> {
    let mut v: Vec<usize> = (0..len).collect();
    if order == BookOrder::Shuffled {
        v.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0xB00C));
    }
    v
}

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

/// A book position: its opening line and the player's score of it (side to move's view).
#[derive(Clone, Debug)]
pub struct BookLine {
    pub moves: Vec<Move>,
    pub fen: String,
    pub score: i32,
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
        let scores = score_all(variant, player, &start, &batch, s.threads)?;
        scored += batch.len() as u64;
        for ((moves, pos), score) in batch.into_iter().zip(scores) {
            if score.abs() <= s.within {
                level += 1;
                if book.len() < s.positions {
                    book.push(BookLine { moves, fen: pos.to_fen(), score });
                }
            }
        }
        progress(book.len(), tried);
    }
    Ok(Book { lines: book, scored, level })
}

/// The player's score of each position, scored on `threads` threads.
fn score_all(
    variant: &Arc<Variant>,
    player: &PlayerSpec,
    start: &Position,
    batch: &[(Vec<Move>, Position)],
    threads: usize,
) -> Result<Vec<i32>, RunError> {
    let next = AtomicUsize::new(0);
    let fail = |error| RunError::Player { name: player.name().to_string(), error };
    let results: Vec<Result<Vec<(usize, i32)>, RunError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut p = player.start();
                    let mut rng = ChaCha8Rng::seed_from_u64(0);
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some((moves, pos)) = batch.get(k) else { break };
                        p.new_game(variant).map_err(fail)?;
                        let turn = Turn { position: pos, start, moves, clock: None, rng: &mut rng };
                        let reply = p.play(turn).map_err(fail)?;
                        out.push((k, reply.score.unwrap_or(0)));
                    }
                    Ok(out)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a book worker panicked")).collect()
    });
    let mut scores = vec![0; batch.len()];
    for r in results {
        for (k, s) in r? {
            scores[k] = s;
        }
    }
    Ok(scores)
}

/// The book as EPD: four FEN fields and the operations `hmvc`, `fmvn`, `ce` (the score) and
/// `c0` (the opening in SAN).
pub fn epd_text(variant: &Arc<Variant>, book: &[BookLine]) -> String {
    let mut s = String::new();
    for b in book {
        let fields: Vec<&str> = b.fen.split_whitespace().collect();
        let san = san_line(variant, &b.moves).join(" ");
        s += &format!(
            "{} hmvc {}; fmvn {}; ce {}; c0 \"{san}\";\n",
            fields[..4].join(" "),
            fields[4],
            fields[5],
            b.score
        );
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
        let first = Position::startpos(variant).side_to_move();
        for (k, san) in san_line(variant, &b.moves).iter().enumerate() {
            match (k + first) % 2 {
                0 => text += &format!("{}. ", (k + first) / 2 + 1),
                _ if k == 0 => text += "1... ",
                _ => {}
            }
            text += san;
            text.push(' ');
        }
        s += &format!("{text}{{ce {}}} *\n\n", b.score);
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
