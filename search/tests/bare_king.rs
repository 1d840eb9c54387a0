//! A bare king is mated by a rook or a queen at 1,000 nodes a move, with the weights hoplite
//! plays, before the fifty-move rule: each of these starts was drawn by the rule (50 moves
//! without a capture) by hoplite 0.2.4, whose evaluation had no bare-king terms.

use hoplite_core::{GameResult, Position, Termination, Variant};
use hoplite_search::{Budget, Search, Weights};

/// The game from `fen` at `nodes` a move, hoplite against itself: its end and its plies.
fn play(variant: &str, fen: &str, nodes: u64) -> (Option<(GameResult, Termination)>, usize) {
    let v = Variant::builtin(variant);
    let mut pos = Position::from_fen(&v, fen).unwrap();
    let mut search = Search::new(Weights::for_variant(&v), 4);
    let mut plies = 0;
    while pos.outcome().is_none() && plies < 300 {
        let best = search.search(&mut pos, Budget::nodes(nodes)).best.expect("a move");
        pos.make(best);
        plies += 1;
    }
    (pos.outcome(), plies)
}

#[test]
fn a_rook_or_a_queen_mates_a_bare_king_at_a_thousand_nodes() {
    for (variant, fen) in [
        ("chess", "8/8/5R2/K7/8/8/8/3k4 w - - 0 1"),
        ("chess", "3K4/8/8/8/7R/8/8/6k1 w - - 0 1"),
        ("chess", "8/5k2/8/8/K7/8/8/4Q3 w - - 0 1"),
        ("chess", "8/8/7Q/8/8/8/6K1/4k3 w - - 0 1"),
        ("sultan", "11/11/11/11/11/5k5/11/11/11/11/R4K5 w - - 0 1"),
        ("sultan", "11/11/11/2k8/11/11/11/11/8K2/11/1Q9 w - - 0 1"),
    ] {
        let (end, plies) = play(variant, fen, 1000);
        assert_eq!(end, Some((GameResult::WhiteWins, Termination::Checkmate)), "{variant} {fen}: {plies} plies");
    }
}
