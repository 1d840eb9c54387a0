//! One definition of a game's end: where two rules meet, the search scores a move as
//! `Position::outcome` ends the game after it. Each case names the rule that must win.

use hoplite_core::{GameResult, Position, Termination, Variant};
use hoplite_search::{Budget, Search, Weights, MATE};
use std::sync::Arc;

/// The search's move and score from `fen` after `moves`, at `depth`.
fn search(v: &Arc<Variant>, fen: &str, moves: &[&str], depth: u32) -> (String, i32, Position) {
    let mut pos = Position::from_fen(v, fen).unwrap();
    for m in moves {
        pos.make(pos.parse_uci(m).unwrap());
    }
    let r = Search::new(Weights::defaults(v), 4).search(&mut pos, Budget::depth(depth));
    (pos.move_to_uci(r.best.unwrap()), r.score, pos)
}

fn outcome_after(pos: &Position, m: &str) -> Option<(GameResult, Termination)> {
    let mut p = pos.clone();
    p.make(p.parse_uci(m).unwrap());
    p.outcome()
}

#[test]
fn mate_beats_the_move_rule() {
    // The hundredth quiet ply mates: a mate, not a draw (Fairy-Stockfish plays Ra8# too).
    let v = Variant::builtin("chess");
    let (best, score, pos) = search(&v, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", &[], 3);
    assert_eq!(outcome_after(&pos, "a1a8"), Some((GameResult::WhiteWins, Termination::Checkmate)));
    assert_eq!(outcome_after(&pos, "a1b1"), Some((GameResult::Draw, Termination::FiftyMoves)));
    assert_eq!((best.as_str(), score), ("a1a8", MATE - 1));
}

#[test]
fn stalemate_beats_the_move_rule() {
    // Shatranj: the stalemated side loses. Nd7 or Nc6 on the hundredth quiet ply stalemates
    // Black (its pawn is blocked); any other move draws by the move rule.
    let v = Variant::builtin("shatranj");
    let (best, score, pos) = search(&v, "k7/8/1K6/4N3/7p/7P/8/8 w - - 99 80", &[], 3);
    for m in ["e5d7", "e5c6"] {
        assert_eq!(outcome_after(&pos, m), Some((GameResult::WhiteWins, Termination::Stalemate)), "{m}");
    }
    assert_eq!(outcome_after(&pos, "b6c7"), Some((GameResult::Draw, Termination::FiftyMoves)));
    assert!(["e5d7", "e5c6"].contains(&best.as_str()), "{best}");
    assert_eq!(score, MATE - 1);
}

#[test]
fn a_bare_king_beats_the_move_rule() {
    // Great Shatranj: Black is bare and replies on the hundredth ply without baring White: it
    // has lost, whatever the move rule says.
    let v = Variant::builtin("great-shatranj");
    let (_, score, pos) = search(&v, "10/10/10/10/k9/10/2N7/K9 b - - 99 80", &[], 3);
    for m in ["a4a5", "a4b5", "a4b3"] {
        assert_eq!(outcome_after(&pos, m), Some((GameResult::WhiteWins, Termination::BareKing)), "{m}");
    }
    assert_eq!(score, -(MATE - 1));
    // Shatranj's immediate rule: a bare side to move has lost, at any halfmove count.
    let v = Variant::builtin("shatranj");
    let pos = Position::from_fen(&v, "8/8/8/3k4/8/8/2R5/3K4 b - - 120 90").unwrap();
    assert_eq!(pos.outcome(), Some((GameResult::WhiteWins, Termination::BareKing)));
}

#[test]
fn repetition_ends_the_game_before_a_mate_can_be_played() {
    // From S (Black to move, Qxg2 mates) both sides shuffle; White's Nb1 brings S back a third
    // time, which draws at once: Black's mate never comes. The search sees the same draw and
    // prefers it to every other move, after which Black mates or wins the knight.
    let v = Variant::builtin("chess");
    let s = "7k/8/8/8/6q1/5p2/6PP/1N5K b - - 0 1";
    let mut mate = Position::from_fen(&v, s).unwrap();
    assert_eq!(outcome_after(&mate, "g4g2"), Some((GameResult::BlackWins, Termination::Checkmate)));
    let shuffle = ["h8g8", "b1c3", "g8h8", "c3b1", "h8g8", "b1c3", "g8h8"];
    let (best, score, pos) = search(&v, s, &shuffle, 3);
    assert_eq!(outcome_after(&pos, "c3b1"), Some((GameResult::Draw, Termination::Repetition)));
    assert_eq!((best.as_str(), score), ("c3b1", 0));
    // The same position without the history is no draw.
    mate.make(mate.parse_uci("h8g8").unwrap());
    assert_eq!(outcome_after(&mate, "b1c3"), None);
}

#[test]
fn mate_beats_insufficient_material() {
    // A variant file that (wrongly) calls king and rook against king a draw: the mate still
    // counts, in the game and in the search.
    let src = "extends = \"chess\"\n[rules]\ninsufficient_material = [\"K v K\", \"KR v K\"]\n";
    let v = Variant::from_toml("kr.toml", src).unwrap();
    let (best, score, pos) = search(&v, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", &[], 3);
    assert_eq!(outcome_after(&pos, "a1a8"), Some((GameResult::WhiteWins, Termination::Checkmate)));
    assert_eq!(outcome_after(&pos, "a1a2"), Some((GameResult::Draw, Termination::InsufficientMaterial)));
    assert_eq!((best.as_str(), score), ("a1a8", MATE - 1));
}
