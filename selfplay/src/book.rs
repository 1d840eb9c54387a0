//! Opening books: one FEN or EPD position per line, taken in a seeded order.

use crate::error::RunError;
use hoplite_core::{Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// Reads a book; every line must be a position of `variant` (`#` comments and blank lines
/// are skipped). EPD lines (four fields and operations) get counters `0 1`.
pub fn read_book(variant: &Arc<Variant>, path: &Path) -> Result<Vec<String>, RunError> {
    let text = std::fs::read_to_string(path).map_err(|e| RunError::Book {
        path: path.display().to_string(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: String| RunError::Book { path: path.display().to_string(), line: i + 1, message };
        let position_part = line.split(';').next().unwrap_or("");
        let fields: Vec<&str> = position_part.split_whitespace().collect();
        let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
        let fen = if counters {
            fields[..6].join(" ")
        } else {
            let n = fields.len().min(4);
            format!("{} 0 1", fields[..n].join(" "))
        };
        let pos = Position::from_fen(variant, &fen).map_err(|e| bad(e.to_string()))?;
        if pos.outcome().is_some() {
            return Err(bad("the game is already over in this position".into()));
        }
        fens.push(pos.to_fen());
    }
    if fens.is_empty() {
        return Err(RunError::EmptyBook(path.display().to_string()));
    }
    Ok(fens)
}

/// The book order for a run: a shuffle seeded by the run seed.
pub fn book_order(len: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0xB00C));
    order
}
