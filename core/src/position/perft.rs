//! Perft: counts of legal move sequences, the last ply counted in bulk; suite files.

use crate::bitboard::Bits;
use crate::position::moves::Move;
use crate::position::{Job, Position};

/// Leaf count at `depth`, in the narrowest bitboards that hold the board.
pub fn perft(pos: &mut Position, depth: usize) -> u64 {
    struct Perft(usize);
    impl Job for Perft {
        type Output = u64;
        fn run<B: Bits>(self, pos: &mut Position<B>) -> u64 {
            perft_in(pos, self.0)
        }
    }
    pos.in_narrowest(Perft(depth))
}

/// Leaf count at `depth` in the position's own width, reusing one move buffer per ply.
pub fn perft_in<B: Bits>(pos: &mut Position<B>, depth: usize) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    count(pos, depth, &mut buffers)
}

fn count<B: Bits>(pos: &mut Position<B>, depth: usize, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        nodes += count(pos, depth - 1, rest);
        pos.unmake();
    }
    nodes
}

/// Per root move: (UCI move, leaf count), in generation order.
pub fn divide(pos: &mut Position, depth: usize) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let name = pos.move_to_uci(m);
            pos.make(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake();
            (name, n)
        })
        .collect()
}

/// One line of a perft suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLine {
    pub line: usize,
    pub fen: String,
    pub counts: Vec<(usize, u64)>,
}

/// Parses a suite; `#` comments and blank lines are skipped. Errors name the line.
pub fn parse_suite(label: &str, text: &str) -> Result<Vec<SuiteLine>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for p in parts {
            let p = p.trim();
            let bad = || format!("{label}:{}: '{p}' is not of the form 'D<depth> <nodes>'", i + 1);
            let (d, n) = p.split_once(char::is_whitespace).ok_or_else(bad)?;
            let depth: usize = d.strip_prefix('D').and_then(|d| d.parse().ok()).ok_or_else(bad)?;
            let nodes: u64 = n.trim().parse().map_err(|_| bad())?;
            counts.push((depth, nodes));
        }
        if counts.is_empty() {
            return Err(format!("{label}:{}: no ';D<depth> <nodes>' entries", i + 1));
        }
        out.push(SuiteLine { line: i + 1, fen, counts });
    }
    Ok(out)
}
