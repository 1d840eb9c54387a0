//! `hoplite bench`: a fixed search over fixed positions of every built-in variant. The total
//! node count is a signature that changes only when search behaviour changes.

use crate::budget::Budget;
use crate::eval::linear::Weights;
use crate::search::Search;
use hoplite_core::builtin_names;
use hoplite_core::{Position, Variant};
use std::time::{Duration, Instant};

/// Positions besides each start position: (variant, FEN).
const POSITIONS: &[(&str, &str)] = &[
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("shatranj", "2bkq2r/1rpnnp1p/3b2p1/pN2p3/8/1PPP1P1B/P3P1PP/R2KQ1BR w - - 0 13"),
    ("spartan", "lgkc1k1B/2c5/2P1w3/8/2N4Q/6PN/P1hPPP1P/3RKB1R b K - 0 22"),
    ("sultan", "rbn1ckqab1r/pppp1pppppp/2m7n/11/4p6/11/8P2/7A3/11/PPPPPPPP1PP/RBNMCKQ1BNR w KQkq - 3 4"),
    ("great-shatranj", "d3k4d/1P8/10/10/10/10/1p8/2N1K5 w - - 0 1"),
];

pub struct BenchLine {
    pub variant: String,
    pub fen: String,
    pub nodes: u64,
    pub best: String,
}

/// Runs the bench at `depth`; returns one line per position and the time taken.
pub fn run(depth: u32) -> (Vec<BenchLine>, Duration) {
    let mut cases: Vec<(String, String)> = Vec::new();
    for name in builtin_names() {
        let v = Variant::builtin(name);
        cases.push((name.to_string(), v.setup.clone()));
        for (n, fen) in POSITIONS.iter().filter(|(n, _)| *n == name) {
            cases.push((n.to_string(), fen.to_string()));
        }
    }
    let start = Instant::now();
    let lines = cases
        .into_iter()
        .map(|(name, fen)| {
            let v = Variant::builtin(&name);
            let mut pos = Position::from_fen(&v, &fen).expect("bench positions are valid");
            let mut search = Search::new(Weights::for_variant(&v), 16);
            let r = search.search(&mut pos, Budget::depth(depth));
            let best = r.best.map_or("(none)".into(), |m| pos.move_to_uci(m));
            BenchLine { variant: name, fen, nodes: r.nodes, best }
        })
        .collect();
    (lines, start.elapsed())
}
