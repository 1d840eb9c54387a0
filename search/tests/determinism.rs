//! Under a node or depth limit the search is deterministic: same position and limits, same
//! move and node count, in one process or on two threads at once.

use hoplite_core::{Position, Variant};
use hoplite_search::{Budget, Search, Weights};

fn run(variant: &str, fen: Option<&str>, limits: Budget) -> (String, u64, i32) {
    let v = Variant::builtin(variant);
    let mut pos = match fen {
        Some(f) => Position::from_fen(&v, f).unwrap(),
        None => Position::startpos(&v),
    };
    let mut s = Search::new(Weights::defaults(&v), 2);
    let r = s.search(&mut pos, limits);
    (pos.move_to_uci(r.best.unwrap()), r.nodes, r.score)
}

#[test]
fn same_limits_same_move_and_nodes() {
    for (variant, fen) in [
        ("chess", Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")),
        ("spartan", None),
        ("sultan", None),
    ] {
        let a = run(variant, fen, Budget::nodes(20_000));
        let b = run(variant, fen, Budget::nodes(20_000));
        assert_eq!(a, b, "{variant}");
        assert_eq!(a.1, 20_000, "{variant}: the node limit is exact");
        assert_eq!(run(variant, fen, Budget::depth(4)), run(variant, fen, Budget::depth(4)));
    }
}

#[test]
fn two_threads_at_once_agree_with_one() {
    let alone = run("spartan", None, Budget::nodes(30_000));
    let handles: Vec<_> = (0..2).map(|_| std::thread::spawn(|| run("spartan", None, Budget::nodes(30_000)))).collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), alone);
    }
}

#[test]
fn a_cleared_search_repeats_itself() {
    let v = Variant::builtin("chess");
    let mut s = Search::new(Weights::defaults(&v), 2);
    let mut pos = Position::startpos(&v);
    let first = s.search(&mut pos, Budget::nodes(10_000));
    s.clear();
    let second = s.search(&mut pos, Budget::nodes(10_000));
    assert_eq!((first.best, first.nodes, first.score), (second.best, second.nodes, second.score));
}
