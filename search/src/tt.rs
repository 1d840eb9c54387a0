//! Transposition table: clusters of four entries, one cache line, a key's entry replacing the
//! cluster's shallowest (an older search's first).

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

/// One position's entry: 16 bytes, four to a cache line.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The key's high half (its low bits chose the cluster).
    check: u32,
    mv: u32,
    /// Scores fit: they stay within the mate scores (30,000 and a ply count).
    score: i16,
    /// The position's static evaluation (it fits: evaluations stay below the mate scores).
    eval: i16,
    depth: i16,
    /// 0 for an empty entry, else 1 + the `Bound`.
    bound: u8,
    age: u8,
}

/// The entries one key may use: one cache line, read at once.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Cluster([Entry; 4]);

pub struct Hit {
    pub mv: Move,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub eval: i32,
}

pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least 1024 entries).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let want = (megabytes << 20) / std::mem::size_of::<Cluster>();
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - want.max(256).leading_zeros());
        TranspositionTable { clusters: vec![Cluster::default(); n], mask: n - 1, age: 0 }
    }

    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.age = 0;
    }

    /// Marks a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The cluster of `key` and the check its entry carries.
    #[inline(always)]
    fn place(&self, key: u64) -> (usize, u32) {
        (key as usize & self.mask, (key >> 32) as u32)
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let (i, check) = self.place(key);
        let e = self.clusters[i].0.iter().find(|e| e.check == check && e.bound != 0)?;
        Some(Hit {
            mv: Move(e.mv),
            score: e.score as i32,
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
        let (i, check) = self.place(key);
        let age = self.age;
        let cluster = &mut self.clusters[i].0;
        // This position's own entry gives way to any but a much shallower one (a quiescence
        // entry does not erase a searched one); otherwise the cluster's least worth keeping
        // goes: an empty entry, else the shallowest, an older search's counted 8 plies less.
        let own = cluster.iter().position(|e| e.check == check && e.bound != 0);
        let slot = match own {
            Some(j) if depth + 3 < cluster[j].depth as i32 => return,
            Some(j) => j,
            None => (0..cluster.len())
                .min_by_key(|&j| {
                    let e = &cluster[j];
                    match e.bound {
                        0 => i32::MIN,
                        _ => e.depth as i32 - 8 * i32::from(e.age != age),
                    }
                })
                .expect("a cluster has entries"),
        };
        let e = &mut cluster[slot];
        let mv = if mv == Move::NONE && own.is_some() { Move(e.mv) } else { mv };
        debug_assert!(score.abs() <= i16::MAX as i32, "{score}");
        *e = Entry {
            check,
            mv: mv.0,
            score: score as i16,
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

    #[test]
    fn a_cluster_keeps_four_positions_and_drops_the_least_worth_keeping() {
        let mut tt = TranspositionTable::new(1);
        // Keys of one cluster: the same low bits, different high halves.
        let key = |n: u64| n << 40 | 0x77;
        for (n, depth) in [(1, 5), (2, 2), (3, 7), (4, 4)] {
            tt.store(key(n), Move::NONE, n as i32, depth, Bound::Exact, 0);
        }
        assert!((1..=4).all(|n| tt.probe(key(n)).is_some_and(|h| h.score == n as i32)));
        // A fifth takes the shallowest's place.
        tt.store(key(5), Move::NONE, 5, 1, Bound::Lower, 0);
        assert!(tt.probe(key(2)).is_none());
        assert!([1, 3, 4, 5].iter().all(|&n| tt.probe(key(n)).is_some()));
        // In a new search the older entries go first, however deep: the shallowest of them.
        tt.new_search();
        tt.store(key(5), Move::NONE, 5, 1, Bound::Lower, 0);
        tt.store(key(6), Move::NONE, 6, 3, Bound::Upper, 0);
        assert!(tt.probe(key(5)).is_some(), "this search's entry stays, the shallowest");
        assert!(tt.probe(key(4)).is_none(), "the shallowest of the last search's goes");
        assert_eq!(tt.probe(key(6)).map(|h| (h.depth, h.bound)), Some((3, Bound::Upper)));
    }
}
