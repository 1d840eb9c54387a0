use super::*;
use crate::eval::linear::Weights;
use crate::tt::Bound;
use hoplite_core::Variant;

fn see(variant: &str, fen: &str, m: &str) -> i32 {
    let v = Variant::builtin(variant);
    let pos = Position::from_fen(&v, fen).unwrap();
    let s = Search::new(Weights::defaults(&v), 1);
    s.see(&pos, pos.parse_uci(m).unwrap())
}

#[test]
fn every_parameter_off_the_clock_moves_the_search() {
    let v = Variant::builtin("chess");
    let fens = [
        v.setup.as_str(),
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 9",
        "8/5pk1/6p1/3R4/8/6P1/r4P1K/8 w - - 0 40",
    ];
    let nodes = |params: &SearchParams| -> Vec<u64> {
        fens.iter()
            .map(|fen| {
                let mut s = Search::new(Weights::defaults(&v), 1);
                s.set_params(params.clone());
                s.search(&mut Position::from_fen(&v, fen).unwrap(), Budget::depth(9)).nodes
            })
            .collect()
    };
    let base = nodes(&SearchParams::default());
    // Each at both ends of its range: neither fails, and at least one searches other trees.
    for spec in crate::params::PARAMS.iter().filter(|p| !p.on_clock()) {
        let at = |value| {
            let mut p = SearchParams::default();
            p.set(spec.name, value).unwrap();
            nodes(&p)
        };
        let (low, high) = (at(spec.min), at(spec.max));
        assert!(low != base || high != base, "{} searched the same trees at both ends", spec.name);
    }
}

#[test]
fn a_node_is_a_move_made() {
    // At depth 1 from the chess start the search makes each of White's 20 moves once and
    // no reply (Black has no capture for the quiescence search): 20 nodes, however often a
    // child is searched or handed over, as Fairy-Stockfish counts them.
    let v = Variant::builtin("chess");
    let mut pos = Position::from_fen(&v, &v.setup).unwrap();
    let mut s = Search::new(Weights::defaults(&v), 1);
    assert_eq!(s.search(&mut pos, Budget::depth(1)).nodes, 20);
}

#[test]
fn the_narrow_path_searches_the_tree_of_the_wide_one() {
    // `search` takes `u64` bitboards on boards of at most 64 squares: the same nodes,
    // scores and moves as the `u128` path larger boards take.
    for (name, fen) in [
        ("chess", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"),
        ("shatranj", ""),
        ("spartan", ""),
    ] {
        let v = Variant::builtin(name);
        let pos = Position::from_fen(&v, if fen.is_empty() { &v.setup } else { fen }).unwrap();
        let run = |narrow: bool| {
            let mut s = Search::new(Weights::defaults(&v), 1);
            let r = match narrow {
                true => s.iterate(&mut pos.to::<u64>(), Budget::depth(6), 1),
                false => s.iterate(&mut pos.clone(), Budget::depth(6), 1),
            };
            (r.nodes, r.score, r.pv)
        };
        assert_eq!(run(true), run(false), "{name}");
    }
}

#[test]
fn static_exchanges() {
    // A pawn takes a knight defended by a pawn: wins the knight, loses the pawn.
    assert_eq!(see("chess", "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 320 - 100);
    // A queen takes a pawn defended by a pawn.
    assert_eq!(see("chess", "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5"), 100 - 900);
    // Rooks doubled behind one another: the x-ray recaptures, the pawn is won.
    assert_eq!(see("chess", "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5"), 100);
    // One rook against two: the pawn costs the rook.
    assert_eq!(see("chess", "4k3/4r3/4r3/4p3/8/8/8/4R1K1 w - - 0 1", "e1e5"), 100 - 500);
    // En passant takes the pawn beside, not the empty square.
    assert_eq!(see("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    // A promotion gains the piece's value over the pawn's.
    assert_eq!(see("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 900 - 100);
    // Spartan hoplites capture straight ahead: e5 is attacked by the e6 hoplite, d6 not.
    assert!(see("spartan", "4k3/8/4h3/8/2N5/8/8/4K3 w - - 0 1", "c4e5") < 0);
    assert_eq!(see("spartan", "4k3/8/4h3/8/2N5/8/8/4K3 w - - 0 1", "c4d6"), 0);
}

/// A line through a check: the evasions are quiet moves, ordered by the histories, which
/// a search that never ran a full iteration has sized too.
#[test]
fn quiescence_lines_go_through_checks_from_a_fresh_search() {
    let v = Variant::builtin("chess");
    // The queen takes the pawn with check; the king steps aside.
    let mut pos = Position::from_fen(&v, "k7/8/8/8/8/8/p7/Q5K1 w - - 0 1").unwrap();
    let (_, line) = Search::new(Weights::defaults(&v), 1).quiescence_line(&mut pos);
    let line: Vec<String> = line.iter().map(|&m| pos.move_to_uci(m)).collect();
    assert_eq!(line.len(), 2, "{line:?}");
    assert_eq!(line[0], "a1a2");
}

/// The tuner's lines must not depend on what the table holds: a line neither writes an
/// entry nor reads one (here an entry whose stored evaluation would be the stand-pat).
#[test]
fn quiescence_lines_leave_the_table_alone() {
    let v = Variant::builtin("chess");
    // White's pawn takes the knight, the pawn retakes: a line of two captures.
    let mut pos = Position::from_fen(&v, "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1").unwrap();
    let mut s = Search::new(Weights::defaults(&v), 1);
    let (score, line) = s.quiescence_line(&mut pos);
    assert_eq!(line.len(), 2, "{line:?}");
    assert!(s.tt.probe(pos.key()).is_none(), "a line wrote the table");
    s.tt.store(pos.key(), Move::NONE, 3_000, 0, Bound::Upper, 3_000);
    assert_eq!(s.quiescence_line(&mut pos), (score, line), "a line read the table");
}

#[test]
fn a_multi_pv_search_ranks_its_lines_whatever_the_node_budget() {
    // The position where 2,000 nodes for eight lines ranked none (a `hoplite datagen` opening).
    let v = Variant::builtin("chess");
    let fen = "r1bqkbnr/ppp3pp/2n2p2/4p1B1/3Pp3/2N2N2/PPP2PPP/R2QKB1R w KQkq - 0 6";
    for nodes in [1, 100, 2000] {
        let mut s = Search::new(Weights::defaults(&v), 1);
        let r = s.search_lines(&mut Position::from_fen(&v, fen).unwrap(), Budget::nodes(nodes), 8);
        assert_eq!(r.lines.len(), 8, "{nodes} nodes");
        // The next single-line search is held to its budget again.
        let one = s.search(&mut Position::from_fen(&v, fen).unwrap(), Budget::nodes(nodes));
        assert!(one.best.is_some() && one.nodes <= nodes + 1, "{} of {nodes}", one.nodes);
    }
}
