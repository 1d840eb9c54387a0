//! Reading a book: one position per line (FEN, with or without move counters, or EPD with its
//! `;` operations) or the end positions of PGN games, taken in file order or shuffled.

use crate::error::RunError;
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::manifest::BookOrder;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
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
