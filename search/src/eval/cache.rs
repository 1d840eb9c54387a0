//! Static evaluations by position key. The full-width search finds a position's evaluation in
//! the transposition table, but most evaluations are of quiescence nodes, which the table keeps
//! only when they stand pat; the same positions recur through move orders and iterations, and
//! the evaluation is half the search's time, so a small table of its own pays.

use hoplite_core::{Bits, Position};

/// Entries (a power of two), 1 MiB: from the chess start, side by side, 2^16 entries searched
/// 4% more nodes a second than none, 2^14 only 1%, and 2^17 or 2^18 no more than 2^16
/// (docs/performance.md).
const SIZE: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    eval: i32,
    filled: bool,
}

pub struct EvalCache {
    entries: Vec<Entry>,
}

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache { entries: vec![Entry::default(); SIZE] }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// `pos`'s evaluation: the one kept, or `evaluate`'s, kept. The evaluation is a function of
    /// the position alone, so a hit gives exactly what `evaluate` would.
    #[inline]
    pub fn get<B: Bits>(&mut self, pos: &Position<B>, evaluate: impl FnOnce() -> i32) -> i32 {
        let key = pos.key();
        let e = &mut self.entries[key as usize & (SIZE - 1)];
        if e.filled && e.key == key {
            return e.eval;
        }
        let eval = evaluate();
        *e = Entry { key, eval, filled: true };
        eval
    }
}
