//! Transposition table: one per search value, always-replace with a depth preference.

use hoplite_core::Move;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a node's best score says of its true value, searched with the window (alpha, beta).
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a score with this bound says the true value lies beyond `guess` (or is exact):
    /// a lower bound above it, an upper bound below it.
    pub fn beyond(self, score: i32, guess: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > guess,
            Bound::Upper => score < guess,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u32,
    score: i32,
    depth: i16,
    /// The position's static evaluation (it fits: evaluations stay below the mate scores).
    eval: i16,
    bound: u8,
    age: u8,
}

pub struct Hit {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub eval: i32,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least 1024 entries).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let want = (megabytes << 20) / std::mem::size_of::<Entry>();
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - want.max(1024).leading_zeros());
        TranspositionTable { entries: vec![Entry::default(); n], mask: n - 1, age: 0 }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.age = 0;
    }

    /// Marks a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[key as usize & self.mask];
        (e.key == key && e.bound != 0).then_some(Hit {
            mv: Move(e.mv),
            score: e.score,
            depth: e.depth as i32,
            bound: match e.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            eval: e.eval as i32,
        })
    }

    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound, eval: i32) {
        let age = self.age;
        let e = &mut self.entries[key as usize & self.mask];
        // Another position's entry gives way to one as deep or older; this position's own to
        // any but a much shallower one (a quiescence entry does not erase a searched one).
        let replace = match e.key == key {
            true => depth + 3 >= e.depth as i32,
            false => e.age != age || depth >= e.depth as i32 || (bound == Bound::Exact && depth > 0),
        };
        if replace {
            let mv = if mv == Move::NONE && e.key == key { Move(e.mv) } else { mv };
            *e = Entry {
                key,
                mv: mv.0,
                score,
                depth: depth as i16,
                eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                bound: match bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
                age,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_on_the_window_edge_is_a_bound() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower, "at beta: fails high");
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper, "at alpha: fails low");
        assert_eq!(Bound::of(11, 10, 50), Bound::Exact);
    }

    #[test]
    fn a_bound_lies_beyond_a_guess_on_its_own_side() {
        assert!(Bound::Lower.beyond(30, 20) && !Bound::Lower.beyond(10, 20));
        assert!(Bound::Upper.beyond(10, 20) && !Bound::Upper.beyond(30, 20));
        assert!(Bound::Exact.beyond(10, 20) && Bound::Exact.beyond(30, 20));
    }

    #[test]
    fn a_position_keeps_its_deep_entry_against_a_much_shallower_one() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def1;
        tt.store(key, Move::NONE, 30, 6, Bound::Exact, 5);
        // A quiescence entry (depth 0) of the same position does not erase the searched one.
        tt.store(key, Move::NONE, -40, 0, Bound::Lower, 5);
        assert_eq!(tt.probe(key).map(|h| (h.depth, h.score)), Some((6, 30)));
        // Three plies shallower does.
        tt.store(key, Move::NONE, 20, 3, Bound::Upper, 5);
        let h = tt.probe(key).unwrap();
        assert_eq!((h.depth, h.score, h.bound), (3, 20, Bound::Upper));
    }
}
