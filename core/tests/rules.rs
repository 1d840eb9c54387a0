//! One test per special rule of the built-in variants (docs/variants/), each with concrete
//! move lists, FENs and results, so that a rule implemented wrongly makes its test fail.

use hoplite_core::{Bitboard, Colour, GameResult, Position, Termination, Variant};
use std::sync::Arc;

fn variant(name: &str) -> Arc<Variant> {
    Variant::builtin(name)
}

fn pos(name: &str, fen: &str) -> Position {
    Position::from_fen(&variant(name), fen).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// All legal moves in UCI, sorted.
fn legal(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| p.move_to_uci(m)).collect();
    v.sort();
    v
}

/// The legal moves starting on square `sq` (so that `e1` does not match `e10`).
fn from(p: &Position, sq: &str) -> Vec<String> {
    legal(p).into_iter().filter(|m| m.starts_with(sq) && !m.as_bytes()[sq.len()].is_ascii_digit()).collect()
}

fn set(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("{m} should be legal: {e}"));
        assert_eq!(&p.move_to_uci(mv), m);
        p.make(mv);
    }
}

fn after(name: &str, fen: &str, moves: &[&str]) -> Position {
    let mut p = pos(name, fen);
    play(&mut p, moves);
    p
}

fn ep_field(p: &Position) -> String {
    p.to_fen().split(' ').nth(3).unwrap().to_string()
}

// ---------------------------------------------------------------------------------------------
// Sultan's Game

#[test]
fn sultan_pawn_double_and_triple_step_need_an_empty_path_and_the_second_rank() {
    let v = variant("sultan");
    let start = Position::startpos(&v);
    assert_eq!(from(&start, "e2"), set(&["e2e3", "e2e4", "e2e5"]));
    assert_eq!(legal(&start).len(), 43);
    // A piece on e4 stops the double and the triple step (lame), not the single one.
    let blocked = pos("sultan", "rbnmckqabnr/ppppppppppp/11/11/11/11/11/4n6/11/PPPPPPPPPPP/RBNMCKQABNR w KQkq - 0 1");
    assert_eq!(from(&blocked, "e2"), set(&["e2e3"]));
    // Off the second rank: one step only.
    let moved = pos("sultan", "rbnmckqabnr/ppppppppppp/11/11/11/11/11/11/4P6/PPPP1PPPPPP/RBNMCKQABNR b KQkq - 0 1");
    let mut m = moved.clone();
    play(&mut m, &["e10e7"]);
    assert_eq!(from(&m, "e3"), set(&["e3e4"]));
    // Black's triple step from rank 10.
    assert_eq!(from(&moved, "e10"), set(&["e10e7", "e10e8", "e10e9"]));
}

#[test]
fn sultan_en_passant_on_each_passed_square() {
    // Black pawns on d4 (reaches e3) and f5 (reaches e4).
    let fen = "5k5/11/11/11/11/11/5p5/3p7/11/4P6/5K5 w - - 0 1";
    let p = after("sultan", fen, &["e2e5"]);
    assert_eq!(p.to_fen(), "5k5/11/11/11/11/11/4Pp5/3p7/11/11/5K5 b - e3e4 0 1");
    assert_eq!(from(&p, "d4"), set(&["d4d3", "d4e3"]));
    assert_eq!(from(&p, "f5"), set(&["f5e4", "f5f4"]));
    // Either target square captures the pawn on e5.
    let mut a = p.clone();
    play(&mut a, &["d4e3"]);
    assert_eq!(a.to_fen(), "5k5/11/11/11/11/11/5p5/11/4p6/11/5K5 w - - 0 2");
    let mut b = p.clone();
    play(&mut b, &["f5e4"]);
    assert_eq!(b.to_fen(), "5k5/11/11/11/11/11/11/3pp6/11/11/5K5 w - - 0 2");
    // Unmake restores the e.p. field.
    b.unmake();
    assert_eq!(b.to_fen(), p.to_fen());

    // The writer prints a square only when an enemy pawn can reach it -- and, since the reader
    // finds the pawn one square beyond the last target, every square from there up to the pawn
    // (`e3e4` when only e3 can be taken on; `e3` alone would name a pawn on e4).
    let only_d4 = after("sultan", "5k5/11/11/11/11/11/11/3p7/11/4P6/5K5 w - - 0 1", &["e2e5"]);
    assert_eq!(ep_field(&only_d4), "e3e4");
    assert_eq!(from(&only_d4, "d4"), set(&["d4d3", "d4e3"]));
    let reread = Position::from_fen(only_d4.variant(), &only_d4.to_fen()).unwrap();
    assert_eq!(reread.to_fen(), only_d4.to_fen());
    let mut c = reread.clone();
    play(&mut c, &["d4e3"]);
    assert_eq!(c.to_fen(), "5k5/11/11/11/11/11/11/11/4p6/11/5K5 w - - 0 2");
    let only_f5 = after("sultan", "5k5/11/11/11/11/11/5p5/11/11/4P6/5K5 w - - 0 1", &["e2e5"]);
    assert_eq!(ep_field(&only_f5), "e4");
    assert_eq!(from(&only_f5, "f5"), set(&["f5e4", "f5f4"]));
    let nobody = after("sultan", "5k5/11/11/11/11/11/11/11/11/4P6/5K5 w - - 0 1", &["e2e5"]);
    assert_eq!(ep_field(&nobody), "-");
    // A double step passes one square.
    let double = after("sultan", fen, &["e2e4"]);
    assert_eq!(ep_field(&double), "e3");
    let mut d = double.clone();
    play(&mut d, &["d4e3"]);
    assert_eq!(d.to_fen(), "5k5/11/11/11/11/11/5p5/11/4p6/11/5K5 w - - 0 2");

    // For the very next move only.
    let mut late = p.clone();
    play(&mut late, &["f11e11", "f1e1"]);
    assert_eq!(from(&late, "d4"), set(&["d4d3"]));
    assert_eq!(ep_field(&late), "-");

    // Black's triple step e10-e7: white pawns on d7 (reaches e8) and f8 (reaches e9).
    let bp = after("sultan", "5k5/4p6/11/5P5/3P7/11/11/11/11/11/5K5 b - - 0 1", &["e10e7"]);
    let field = ep_field(&bp);
    assert!(field == "e8e9" || field == "e9e8", "{field}");
    let mut c = bp.clone();
    play(&mut c, &["d7e8"]);
    assert_eq!(c.to_fen(), "5k5/11/11/4PP5/11/11/11/11/11/11/5K5 b - - 0 2");
    let mut c = bp.clone();
    play(&mut c, &["f8e9"]);
    assert_eq!(c.to_fen(), "5k5/11/4P6/11/3P7/11/11/11/11/11/5K5 b - - 0 2");
}

#[test]
fn sultan_en_passant_fen_round_trip() {
    let fen = "5k5/11/11/11/11/11/4Pp5/3p7/11/11/5K5 b - e3e4 0 1";
    let p = pos("sultan", fen);
    assert_eq!(p.to_fen(), fen);
    assert_eq!(from(&p, "d4"), set(&["d4d3", "d4e3"]));
    assert_eq!(from(&p, "f5"), set(&["f5e4", "f5f4"]));
    // The squares in either order.
    assert_eq!(pos("sultan", "5k5/11/11/11/11/11/4Pp5/3p7/11/11/5K5 b - e4e3 0 1").to_fen(), fen);
    // The same capture as after playing the triple step.
    let mut a = p.clone();
    play(&mut a, &["f5e4"]);
    assert_eq!(a.to_fen(), "5k5/11/11/11/11/11/11/3pp6/11/11/5K5 w - - 0 2");
    // The reader accepts targets no pawn can reach; the writer drops them.
    let q = pos("sultan", "5k5/11/11/11/11/11/4P6/11/11/11/5K5 b - e3e4 0 1");
    assert_eq!(ep_field(&q), "-");
    // Two-digit ranks: Black's triple step.
    let b = pos("sultan", "5k5/11/11/5P5/3Pp6/11/11/11/11/11/5K5 w - e8e9 0 2");
    assert_eq!(from(&b, "d7"), set(&["d7d8", "d7e8"]));
    assert_eq!(from(&b, "f8"), set(&["f8e9", "f8f9"]));
    assert_eq!(pos("sultan", "5k5/11/11/5P5/3Pp6/11/11/11/11/11/5K5 w - e9e8 0 2").to_fen(), b.to_fen());
}

#[test]
fn sultan_promotion_only_to_lost_types() {
    // White has every piece of the setup: the d10 pawn cannot move or capture onto rank 11.
    let full = pos("sultan", "2r2k5/3P7/11/11/11/11/11/11/11/11/RBNMCKQABNR w - - 0 1");
    assert_eq!(from(&full, "d10"), Vec::<String>::new());
    // Queen lost: only the queen.
    let no_queen = pos("sultan", "2r2k5/3P7/11/11/11/11/11/11/11/11/RBNMCK1ABNR w - - 0 1");
    assert_eq!(from(&no_queen, "d10"), set(&["d10c11q", "d10d11q"]));
    // Queen and a bishop lost.
    let two = pos("sultan", "2r2k5/3P7/11/11/11/11/11/11/11/11/R1NMCK1ABNR w - - 0 1");
    assert_eq!(from(&two, "d10"), set(&["d10c11b", "d10c11q", "d10d11b", "d10d11q"]));
    let mut p = no_queen.clone();
    play(&mut p, &["d10d11q"]);
    assert_eq!(p.to_fen(), "2rQ1k5/11/11/11/11/11/11/11/11/11/RBNMCK1ABNR b - - 0 1");
    // Black the same, on rank 1.
    let black = pos("sultan", "rbnmck1abnr/11/11/11/11/11/11/11/11/3p7/2R2K5 b - - 0 1");
    assert_eq!(from(&black, "d2"), set(&["d2c1q", "d2d1q"]));
}

#[test]
fn sultan_castling_four_squares_rook_passes_king() {
    let base = "r4k4r/11/11/11/11/11/11/11/11/11/R4K4R w KQkq - 0 1";
    let p = pos("sultan", base);
    assert_eq!(from(&p, "f1"), set(&["f1b1", "f1e1", "f1e2", "f1f2", "f1g1", "f1g2", "f1j1"]));
    assert_eq!(after("sultan", base, &["f1j1"]).to_fen(), "r4k4r/11/11/11/11/11/11/11/11/11/R5R2K1 b kq - 1 1");
    assert_eq!(after("sultan", base, &["f1b1"]).to_fen(), "r4k4r/11/11/11/11/11/11/11/11/11/1K2R5R b kq - 1 1");
    // Black on rank 11.
    let b = "r4k4r/11/11/11/11/11/11/11/11/11/R4K4R b KQkq - 0 1";
    assert_eq!(after("sultan", b, &["f11j11"]).to_fen(), "r5r2k1/11/11/11/11/11/11/11/11/11/R4K4R w KQ - 1 2");
    assert_eq!(after("sultan", b, &["f11b11"]).to_fen(), "1k2r5r/11/11/11/11/11/11/11/11/11/R4K4R w KQ - 1 2");
    // Unmake puts king and rooks back.
    let mut u = pos("sultan", base);
    play(&mut u, &["f1j1"]);
    u.unmake();
    assert_eq!(u.to_fen(), base);

    let castles = |fen: &str| -> Vec<String> {
        from(&pos("sultan", fen), "f1").into_iter().filter(|m| m == "f1j1" || m == "f1b1").collect()
    };
    let with_rook_on = |sq: usize| {
        let rank6 = match (sq, 10 - sq) {
            (0, n) => format!("r{n}"),
            (n, 0) => format!("{n}r"),
            (a, b) => format!("{a}r{b}"),
        };
        format!("r4k4r/11/11/11/11/{rank6}/11/11/11/11/R4K4R w KQkq - 0 1")
    };
    // In check (rook on f6): neither.
    assert_eq!(castles(&with_rook_on(5)), Vec::<String>::new());
    // King passes an attacked square: h1 (rook h6), d1 (rook d6).
    assert_eq!(castles(&with_rook_on(7)), set(&["f1b1"]));
    assert_eq!(castles(&with_rook_on(3)), set(&["f1j1"]));
    // King lands on an attacked square: j1, b1.
    assert_eq!(castles(&with_rook_on(9)), set(&["f1b1"]));
    assert_eq!(castles(&with_rook_on(1)), set(&["f1j1"]));
    // Attacks on squares outside the king's path do not matter (a1 itself, k1 itself).
    assert_eq!(castles(&with_rook_on(0)), set(&["f1b1", "f1j1"]));
    // A piece between king and rook.
    assert_eq!(castles("r4k4r/11/11/11/11/11/11/11/11/11/R1B2K4R w KQkq - 0 1"), set(&["f1j1"]));
    assert_eq!(castles("r4k4r/11/11/11/11/11/11/11/11/11/R4K3NR w KQkq - 0 1"), set(&["f1b1"]));
    // Rights come from the FEN.
    assert_eq!(castles("r4k4r/11/11/11/11/11/11/11/11/11/R4K4R w Qkq - 0 1"), set(&["f1b1"]));
    // The same rules in chess, where b1 lies between king and rook but off the king's path.
    let c = pos("chess", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
    assert_eq!(from(&c, "e1").into_iter().filter(|m| m == "e1g1" || m == "e1c1").collect::<Vec<_>>(), set(&["e1g1"]));
    // Moving a rook loses its right.
    let p = after("sultan", base, &["k1k2", "a11a10"]);
    assert_eq!(p.to_fen().split(' ').nth(2), Some("Qk"));
}

// ---------------------------------------------------------------------------------------------
// Spartan chess

#[test]
fn spartan_duple_check() {
    // Black kings a8 (attacked by Ra1) and h8 (not attacked): not in check; a move that leaves
    // both attacked (h8g8, h8g7 into the g1 rook's file) is illegal, one attacked is fine.
    let p = pos("spartan", "k6k/8/8/8/8/8/8/R5RK b - - 0 1");
    assert!(!p.in_check());
    assert_eq!(legal(&p), set(&["a8a7", "a8b7", "a8b8", "h8h7"]));
    assert_eq!(p.outcome(), None);
    // Both attacked: in check; every move must leave one king unattacked.
    let p = pos("spartan", "k6k/8/8/8/8/8/4K3/R6R b - - 0 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), set(&["a8b7", "a8b8", "h8g7", "h8g8"]));
    // The Persians may capture one of two kings; then the other is an ordinary king.
    let mut w = pos("spartan", "k6k/8/8/8/8/8/8/R5RK w - - 0 1");
    assert!(legal(&w).contains(&"a1a8".to_string()));
    play(&mut w, &["a1a8"]);
    assert_eq!(w.to_fen(), "R6k/8/8/8/8/8/8/6RK b - - 0 1");
    assert!(w.in_check());
    assert_eq!(legal(&w), set(&["h8h7"]));
    // Stalemate is a draw even when one of two kings is attacked: a8 is attacked by the c7
    // knight, a7 is not; a7's squares are covered, the hoplites are blocked. (A hoplite never
    // reaches b8 in a game, so the position is the start of a variant whose setup puts it there,
    // with the pawn on d6 against its initial leap: a king blocked in this way needs more
    // hoplites than the Spartans have.)
    let setup = "kh6/khN5/P1RP4/3P4/8/8/8/4K3 b - - 0 1";
    let v = Variant::from_toml("stale.toml", &format!("extends = \"spartan\"\nsetup = \"{setup}\"\n")).unwrap();
    assert!(Position::from_fen(&Variant::builtin("spartan"), setup).is_err());
    let stale = Position::startpos(&v);
    assert!(!stale.in_check());
    assert_eq!(legal(&stale), Vec::<String>::new());
    assert_eq!(stale.outcome(), Some((GameResult::Draw, Termination::Stalemate)));
    // Both kings attacked, no move saves either: the Persians win.
    let mate = pos("spartan", "k6k/8/8/8/8/4K3/1R4R1/R6R b - - 0 1");
    assert!(mate.in_check());
    assert_eq!(legal(&mate), Vec::<String>::new());
    assert_eq!(mate.outcome(), Some((GameResult::WhiteWins, Termination::Checkmate)));
}

#[test]
fn spartan_hoplite_promotes_to_second_king_while_in_check() {
    // The only king e8 is in check from Re4; promoting b2 to a king on a1 or c1 leaves one
    // king unattacked. Other promotions leave the only king in check.
    let p = pos("spartan", "4k3/8/8/8/4R3/8/1h6/6K1 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(legal(&p), set(&["b2a1k", "b2c1k", "e8d7", "e8d8", "e8f7", "e8f8"]));
    let mut q = p.clone();
    play(&mut q, &["b2a1k"]);
    assert_eq!(q.to_fen(), "4k3/8/8/8/4R3/8/8/k5K1 w - - 0 2");
    assert_eq!(q.royals(Colour::Black).count(), 2);
    // Not onto a square that is attacked (the knight on b3 covers a1 and c1).
    let p = pos("spartan", "4k3/8/8/8/4R3/1N6/1h6/6K1 b - - 0 1");
    assert_eq!(legal(&p), set(&["e8d7", "e8d8", "e8f7", "e8f8"]));
    // Not in check, one king: the king is among the choices.
    let p = pos("spartan", "4k3/8/8/8/8/8/1h6/6K1 b - - 0 1");
    assert_eq!(
        from(&p, "b2"),
        set(&["b2a1c", "b2a1g", "b2a1k", "b2a1l", "b2a1w", "b2c1c", "b2c1g", "b2c1k", "b2c1l", "b2c1w"])
    );
    // Two kings: no third.
    let p = pos("spartan", "k3k3/8/8/8/8/8/1h6/6K1 b - - 0 1");
    assert_eq!(from(&p, "b2"), set(&["b2a1c", "b2a1g", "b2a1l", "b2a1w", "b2c1c", "b2c1g", "b2c1l", "b2c1w"]));
}

#[test]
fn spartan_hoplite_moves() {
    // d7 (starting rank): diagonal step onto an empty square (e6; c6 is occupied and is not
    // captured), straight capture (d6), two-square diagonal leap over c6 to b5, not onto the
    // occupied f5 (a leap never captures), no straight step to an empty square.
    let p = pos("spartan", "4k3/3h4/2NP4/5P2/8/8/8/4K3 b - - 0 1");
    assert_eq!(from(&p, "d7"), set(&["d7b5", "d7d6", "d7e6"]));
    // Off the starting rank: no leap; straight ahead only captures.
    let p = pos("spartan", "4k3/8/4h3/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(from(&p, "e6"), set(&["e6d5", "e6f5"]));
    let p = pos("spartan", "4k3/8/4h3/3NPN2/8/8/8/4K3 b - - 0 1");
    assert_eq!(from(&p, "e6"), set(&["e6e5"]));
    // The hoplite attacks straight ahead only: a king in front of it is in check, beside it
    // diagonally is not.
    assert!(pos("spartan", "4k3/8/4h3/4K3/8/8/8/8 w - - 0 1").in_check());
    assert!(!pos("spartan", "4k3/8/4h3/3K4/8/8/8/8 w - - 0 1").in_check());
    // The start position: 8 hoplites, each with up to 2 steps and 2 leaps.
    let mut s = Position::startpos(&variant("spartan"));
    play(&mut s, &["e2e4"]);
    assert_eq!(from(&s, "a7"), set(&["a7b6", "a7c5"]));
    assert_eq!(from(&s, "d7"), set(&["d7b5", "d7c6", "d7e6", "d7f5"]));
}

#[test]
fn spartan_has_no_en_passant() {
    // A hoplite on d4 beside the double-stepping pawn: the field stays '-', and d4-e3 is the
    // hoplite's ordinary step, capturing nothing.
    let p = after("spartan", "lgkcckwl/hhhhhhhh/8/8/3h4/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", &["e2e4"]);
    assert_eq!(p.to_fen(), "lgkcckwl/hhhhhhhh/8/8/3hP3/8/PPPP1PPP/RNBQKBNR b KQ - 0 1");
    assert_eq!(from(&p, "d4"), set(&["d4c3", "d4e3"]));
    let mut q = p.clone();
    play(&mut q, &["d4e3"]);
    assert_eq!(q.to_fen(), "lgkcckwl/hhhhhhhh/8/8/4P3/4h3/PPPP1PPP/RNBQKBNR w KQ - 0 2");
    // A Persian pawn beside a hoplite's leap: no e.p. either.
    let p = after("spartan", "lgkcckwl/hhhhhhhh/8/2P5/8/8/PP1PPPPP/RNBQKBNR b KQ - 0 1", &["c7e5"]);
    assert_eq!(ep_field(&p), "-");
    // A FEN e.p. field is read and dropped.
    let p = pos("spartan", "lgkcckwl/hhhhhhhh/8/8/3hP3/8/PPPP1PPP/RNBQKBNR b KQ e3 0 1");
    assert_eq!(ep_field(&p), "-");
    assert_eq!(from(&p, "d4"), set(&["d4c3", "d4e3"]));
}

// ---------------------------------------------------------------------------------------------
// Rumi Shatranj

#[test]
fn rumi_elephant_cannot_capture_an_elephant() {
    let fen = "4k3/8/8/8/8/4b3/8/2B1K3 w - - 0 5";
    assert_eq!(from(&pos("rumi-shatranj", fen), "c1"), set(&["c1a3"]));
    assert_eq!(from(&pos("shatranj", fen), "c1"), set(&["c1a3", "c1e3"]));
    let black = "4k3/8/8/8/8/4b3/8/2B1K3 b - - 0 5";
    assert_eq!(from(&pos("rumi-shatranj", black), "e3"), set(&["e3c5", "e3g1", "e3g5"]));
    assert_eq!(from(&pos("shatranj", black), "e3"), set(&["e3c1", "e3c5", "e3g1", "e3g5"]));
    // Any other piece it may capture.
    let knight = "4k3/8/8/8/8/4n3/8/2B1K3 w - - 0 5";
    assert_eq!(from(&pos("rumi-shatranj", knight), "c1"), set(&["c1a3", "c1e3"]));
}

#[test]
fn rumi_counselor_leap_and_soldier_follow_up() {
    let v = variant("rumi-shatranj");
    let start = Position::startpos(&v);
    assert_eq!(legal(&start).len(), 17);
    assert_eq!(from(&start, "d1"), set(&["d1d3"]));
    let mut p = start.clone();
    play(&mut p, &["d1d3"]);
    assert_eq!(from(&p, "d8"), set(&["d8d6"]));
    assert_eq!(legal(&p).len(), 17);
    play(&mut p, &["d8d6"]);
    assert_eq!(from(&p, "d2"), set(&["d2d4"]));
    play(&mut p, &["d2d4"]);
    assert_eq!(from(&p, "d7"), set(&["d7d5"]));
    play(&mut p, &["d7d5"]);
    assert_eq!(p.to_fen(), "rnb1kbnr/ppp1pppp/3q4/3p4/3P4/3Q4/PPP1PPPP/RNB1KBNR w - - 0 3");

    // Black may leap on its first move whatever White did.
    let mut p = start.clone();
    play(&mut p, &["e2e3"]);
    assert_eq!(from(&p, "d8"), set(&["d8d6"]));
    // No leap on a player's second move, no follow-up without the leap.
    play(&mut p, &["e7e6"]);
    assert!(from(&p, "d1").iter().all(|m| m != "d1d3"), "{:?}", legal(&p));
    assert_eq!(from(&p, "d2"), set(&["d2d3"]));
    play(&mut p, &["a2a3"]);
    assert_eq!(from(&p, "d7"), set(&["d7d6"]));
    // The follow-up only on the second move.
    let mut p = start.clone();
    play(&mut p, &["d1d3", "a7a6", "a2a3", "a6a5"]);
    assert_eq!(from(&p, "d2"), Vec::<String>::new());
    // Everything is in the FEN: the start placement on move 2 has no leap.
    let p = pos("rumi-shatranj", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 2");
    assert_eq!(from(&p, "d1"), Vec::<String>::new());
    assert_eq!(legal(&p).len(), 16);
    // Only onto an empty square.
    let p = pos("rumi-shatranj", "rnbqkbnr/pppppppp/8/8/8/3N4/PPPPPPPP/R1BQKBNR w - - 0 1");
    assert_eq!(from(&p, "d1"), Vec::<String>::new());
    let p = pos("rumi-shatranj", "rnb1kbnr/pppppppp/3q4/8/3n4/3Q4/PPPPPPPP/RNB1KBNR w - - 0 2");
    assert_eq!(from(&p, "d2"), Vec::<String>::new());
    // Not in shatranj.
    let s = Position::startpos(&variant("shatranj"));
    assert_eq!(legal(&s).len(), 16);
}

#[test]
fn rumi_forced_opening_reading() {
    let forced =
        Variant::from_toml("forced.toml", "extends = \"rumi-shatranj\"\n[rules]\nrumi_opening = \"forced\"\n").unwrap();
    let mut p = Position::startpos(&forced);
    for m in ["d1d3", "d8d6", "d2d4", "d7d5"] {
        assert_eq!(legal(&p), set(&[m]));
        play(&mut p, &[m]);
    }
    // Then the game goes on normally.
    assert!(legal(&p).len() > 10, "{:?}", legal(&p));
    // When the leap is impossible, the ordinary moves remain.
    let blocked = Position::from_fen(&forced, "rnbqkbnr/pppppppp/8/8/8/3N4/PPPPPPPP/R1BQKBNR w - - 0 1").unwrap();
    assert!(legal(&blocked).len() > 10);
    assert!(!legal(&blocked).contains(&"d1d3".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Stalemate, checkmate

#[test]
fn stalemate_wins_in_rumi_draws_in_great_shatranj_and_chess() {
    // Black (king a8, blocked pawn a2) has no move and is not in check.
    let fen = "k7/2K5/2N5/8/8/8/p7/N7 b - - 0 1";
    for name in ["rumi-shatranj", "shatranj", "chess"] {
        let p = pos(name, fen);
        assert!(!p.in_check());
        assert_eq!(legal(&p), Vec::<String>::new(), "{name}");
    }
    assert_eq!(pos("rumi-shatranj", fen).outcome(), Some((GameResult::WhiteWins, Termination::Stalemate)));
    assert_eq!(pos("shatranj", fen).outcome(), Some((GameResult::WhiteWins, Termination::Stalemate)));
    assert_eq!(pos("chess", fen).outcome(), Some((GameResult::Draw, Termination::Stalemate)));
    let gs = pos("great-shatranj", "k9/2K7/2N7/10/10/10/p9/N9 b - - 0 1");
    assert_eq!(legal(&gs), Vec::<String>::new());
    assert_eq!(gs.outcome(), Some((GameResult::Draw, Termination::Stalemate)));
    // White stalemated in Rumi: Black wins.
    let w = pos("rumi-shatranj", "n7/P7/8/8/8/2n5/2k5/K7 w - - 0 1");
    assert_eq!(legal(&w), Vec::<String>::new());
    assert_eq!(w.outcome(), Some((GameResult::BlackWins, Termination::Stalemate)));
}

#[test]
fn checkmate_wins_stalemate_is_not_checkmate() {
    let mut p = Position::startpos(&variant("chess"));
    play(&mut p, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(p.in_check());
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), Some((GameResult::BlackWins, Termination::Checkmate)));
    // Back rank mate of Black.
    let m = pos("chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(m.outcome(), Some((GameResult::WhiteWins, Termination::Checkmate)));
    // Checkmate counts in Rumi and Sultan too (mate is a win, whatever the stalemate rule).
    let r = pos("rumi-shatranj", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 9");
    assert_eq!(r.outcome(), Some((GameResult::WhiteWins, Termination::Checkmate)));
    // Chess stalemate: a draw.
    let s = pos("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!s.in_check());
    assert_eq!(s.outcome(), Some((GameResult::Draw, Termination::Stalemate)));
    // Checkmate outranks the move rule.
    let mut f = pos("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    play(&mut f, &["a1a8"]);
    assert_eq!(f.halfmove_clock(), 100);
    assert_eq!(f.outcome(), Some((GameResult::WhiteWins, Termination::Checkmate)));
}

// ---------------------------------------------------------------------------------------------
// Bare king

#[test]
fn shatranj_bare_king_immediate() {
    // After Rxa7 Black is bare and has lost at once, even though Kxa7 would be possible.
    let mut p = pos("shatranj", "1k6/q7/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.outcome(), None);
    play(&mut p, &["a1a7"]);
    assert_eq!(legal(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), Some((GameResult::WhiteWins, Termination::BareKing)));
    // The same for White.
    let w = pos("shatranj", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(legal(&w), Vec::<String>::new());
    assert_eq!(w.outcome(), Some((GameResult::BlackWins, Termination::BareKing)));
    // Both bare: a draw, no moves.
    let d = pos("shatranj", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(legal(&d), Vec::<String>::new());
    assert_eq!(d.outcome(), Some((GameResult::Draw, Termination::BareKing)));
    // No bare-king rule in Rumi Shatranj: K+R v K goes on.
    let r = after("rumi-shatranj", "1k6/q7/8/8/8/8/8/R3K3 w - - 0 9", &["a1a7"]);
    assert_eq!(r.outcome(), None);
    assert!(legal(&r).contains(&"b8a7".to_string()));
}

#[test]
fn great_shatranj_bare_king_with_reply() {
    // White's knight takes Black's last piece; Black is bare but gets one move.
    let fen = "1k8/g9/10/1N8/10/10/10/4K5 w - - 0 1";
    let p = after("great-shatranj", fen, &["b5a7"]);
    assert_eq!(p.outcome(), None);
    assert_eq!(legal(&p), set(&["b8a7", "b8a8", "b8b7", "b8c7"]));
    // Baring White back: a draw.
    let mut d = p.clone();
    play(&mut d, &["b8a7"]);
    assert_eq!(legal(&d), Vec::<String>::new());
    assert_eq!(d.outcome(), Some((GameResult::Draw, Termination::BareKing)));
    // Any other move: Black has lost, and the game has no moves.
    let mut l = p.clone();
    play(&mut l, &["b8c7"]);
    assert_eq!(legal(&l), Vec::<String>::new());
    assert_eq!(l.outcome(), Some((GameResult::WhiteWins, Termination::BareKing)));
    // A bared side without a legal move loses (not a stalemate draw).
    let s = pos("great-shatranj", "k9/2K7/2N7/10/10/10/10/10 b - - 0 1");
    assert_eq!(legal(&s), Vec::<String>::new());
    assert_eq!(s.outcome(), Some((GameResult::WhiteWins, Termination::BareKing)));
    // Under the immediate rule (shatranj) the same capture ends the game at once.
    let i = after("shatranj", "1k6/q7/8/1N6/8/8/8/4K3 w - - 0 1", &["b5a7"]);
    assert_eq!(i.outcome(), Some((GameResult::WhiteWins, Termination::BareKing)));
}

// ---------------------------------------------------------------------------------------------
// Great Shatranj promotion

#[test]
fn great_shatranj_promotion_general_always_elephant_by_colour() {
    // White has every piece: only the General. (Black keeps a Dabbaba: not bare.)
    let p = pos("great-shatranj", "3k5d/1P8/10/10/10/10/10/DNEGKMHEND w - - 0 1");
    assert_eq!(from(&p, "b7"), set(&["b7b8g"]));
    // White has K + one Elephant on a1 (dark): every type is lost, but an Elephant only on a
    // light square (a8, c8), not on b8 (dark).
    let p = pos("great-shatranj", "n1n2k4/1P8/10/10/10/10/10/E3K5 w - - 0 1");
    let mut want = Vec::new();
    for (to, types) in [("b8", "gdnmh"), ("a8", "gdnemh"), ("c8", "gdnemh")] {
        for t in types.chars() {
            want.push(format!("b7{to}{t}"));
        }
    }
    want.sort();
    assert_eq!(from(&p, "b7"), want);
    // Its Elephant on b1 (light): the other way round.
    let p = pos("great-shatranj", "n1n2k4/1P8/10/10/10/10/10/1E2K5 w - - 0 1");
    let b7 = from(&p, "b7");
    assert!(b7.contains(&"b7b8e".to_string()), "{b7:?}");
    assert!(!b7.contains(&"b7a8e".to_string()), "{b7:?}");
    assert!(!b7.contains(&"b7c8e".to_string()), "{b7:?}");
    // No Elephant left: any square.
    let p = pos("great-shatranj", "n1n2k4/1P8/10/10/10/10/10/4K5 w - - 0 1");
    let b7 = from(&p, "b7");
    for m in ["b7a8e", "b7b8e", "b7c8e"] {
        assert!(b7.contains(&m.to_string()), "{m} in {b7:?}");
    }
    // Two Elephants (none lost): never.
    let p = pos("great-shatranj", "n1n2k4/1P8/10/10/10/10/10/E1E1K5 w - - 0 1");
    assert!(from(&p, "b7").iter().all(|m| !m.ends_with('e')));
}

// ---------------------------------------------------------------------------------------------
// Draws

#[test]
fn threefold_repetition_draws() {
    let mut p = Position::startpos(&variant("chess"));
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    play(&mut p, &shuffle);
    assert_eq!(p.repetitions(), 1);
    assert_eq!(p.outcome(), None);
    play(&mut p, &shuffle[..3]);
    assert_eq!(p.outcome(), None);
    play(&mut p, &shuffle[3..]);
    assert_eq!(p.repetitions(), 2);
    assert_eq!(p.outcome(), Some((GameResult::Draw, Termination::Repetition)));
    // Any three occurrences, not necessarily by the same shuffle.
    let mut q = Position::startpos(&variant("chess"));
    play(&mut q, &["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8"]);
    assert_eq!(q.outcome(), Some((GameResult::Draw, Termination::Repetition)));
    // Castling rights are part of the position: king out and back loses them.
    let mut r = pos("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut r, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(r.repetitions(), 0);
    play(&mut r, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert_eq!(r.repetitions(), 1);
    assert_eq!(r.outcome(), None);
}

#[test]
fn hundred_ply_rule_draws() {
    let mut p = pos("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 70");
    assert_eq!(p.outcome(), None);
    play(&mut p, &["a1a2"]);
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.outcome(), Some((GameResult::Draw, Termination::FiftyMoves)));
    // A pawn move or a capture resets the count.
    let mut q = pos("chess", "4k3/8/8/8/8/8/P7/R3K3 w - - 99 70");
    play(&mut q, &["a2a3"]);
    assert_eq!(q.halfmove_clock(), 0);
    assert_eq!(q.outcome(), None);
    let mut c = pos("chess", "4k3/r7/8/8/8/8/8/R3K1N1 w - - 99 70");
    play(&mut c, &["a1a7"]);
    assert_eq!(c.halfmove_clock(), 0);
    // Hoplite and soldier moves reset it too.
    let mut h = pos("spartan", "4k3/3h4/8/8/8/8/8/R3K3 b - - 99 70");
    play(&mut h, &["d7c6"]);
    assert_eq!(h.halfmove_clock(), 0);
    let mut s = pos("rumi-shatranj", "4k3/3p4/8/8/8/8/8/R3K3 b - - 99 70");
    play(&mut s, &["d7d6"]);
    assert_eq!(s.halfmove_clock(), 0);
    // In a FEN.
    assert_eq!(
        pos("great-shatranj", "4k4d/10/10/10/10/10/10/D3K5 w - - 100 90").outcome(),
        Some((GameResult::Draw, Termination::FiftyMoves))
    );
}

#[test]
fn insufficient_material() {
    let draw = Some((GameResult::Draw, Termination::InsufficientMaterial));
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "1b2k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert_eq!(pos("chess", fen).outcome(), draw, "chess {fen}");
    }
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1B2KB2 w - - 0 1",
    ] {
        assert_eq!(pos("chess", fen).outcome(), None, "chess {fen}");
    }
    // Spartan: one king each, or a Persian bishop or knight against one Spartan king, draws;
    // two Spartan kings against a lone Persian king do not.
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1"] {
        assert_eq!(pos("spartan", fen).outcome(), draw, "spartan {fen}");
    }
    for fen in [
        "k3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "k3k3/8/8/8/8/8/8/4K3 b - - 0 1",
        "k3k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1",
    ] {
        assert_eq!(pos("spartan", fen).outcome(), None, "spartan {fen}");
    }
    // Sultan lists the same patterns.
    assert_eq!(pos("sultan", "5k5/11/11/11/11/11/11/11/11/11/2B2K5 w - - 0 1").outcome(), draw);
    // Shatranj-family variants have none (shatranj decides bare kings instead).
    assert_eq!(pos("rumi-shatranj", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").outcome(), None);
}

#[test]
fn pawns_are_the_pawn_types_of_both_armies() {
    // Spartan: Persian pawns (p) for White, hoplites (h) for Black; kings and pieces are not.
    let p = pos("spartan", "k3k3/hh6/8/8/8/8/2P5/R3K3 w - - 0 1");
    let g = p.variant().geometry;
    let names: Vec<String> = p.pawns().map(|sq| g.name(sq)).collect();
    assert_eq!(names, ["c2", "a7", "b7"]);
}

/// `attackers_to` agrees with `attacked_by`, square by square, and finds the x-ray behind a
/// capturer once it leaves the board.
#[test]
fn attackers_to_lists_the_attackers() {
    for (variant, fen) in [
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ("spartan", "lgkc1k1B/2c5/2P1w3/8/2N4Q/6PN/P1hPPP1P/3RKB1R b K - 0 22"),
        ("sultan", "rbn1ckqab1r/pppp1pppppp/2m7n/11/4p6/11/8P2/7A3/11/PPPPPPPP1PP/RBNMCKQ1BNR w KQkq - 3 4"),
        ("great-shatranj", "d1egk1h2d/pppppppppp/n6M2/10/D2P6/2P6P/PP1PHPP1P1/1NEGK2END w - - 5 13"),
    ] {
        let p = pos(variant, fen);
        let occ = p.occupied();
        let geo = p.variant().geometry;
        for sq in geo.all() {
            for by in Colour::BOTH {
                let listed = p.attackers_to(sq, by, occ);
                let name = geo.name(sq);
                assert_eq!(listed.non_empty(), p.attacked_by(sq, by, occ, p.colour_bb(by)), "{variant} {name}");
                for a in listed {
                    let alone = Bitboard::square(a);
                    assert!(p.attacked_by(sq, by, occ, alone), "{variant}: {} does not attack {name}", geo.name(a));
                }
            }
        }
    }
    // Rooks doubled on the a-file: with the front one gone, the one behind attacks a8.
    let p = pos("chess", "r3k3/8/8/8/8/8/R7/R3K3 w - - 0 1");
    let square = |name| p.variant().geometry.parse(name).unwrap();
    assert_eq!(p.attackers_to(square("a8"), Colour::White, p.occupied()).count(), 1);
    let without_a2 = p.occupied() & !Bitboard::square(square("a2"));
    assert_eq!(p.attackers_to(square("a8"), Colour::White, without_a2).into_iter().collect::<Vec<_>>(), [square("a1")]);
}

/// A FEN is written as six fields with one space between them, and reads back to itself.
#[test]
fn fens_are_written_canonically() {
    for name in hoplite_core::builtin_names() {
        let v = variant(name);
        let mut p = Position::startpos(&v);
        let mut moves = Vec::new();
        for i in 0..6 {
            let fen = p.to_fen();
            assert_eq!(fen.split(' ').count(), 6, "{name}: {fen}");
            assert!(!fen.contains("  "), "{name}: {fen}");
            assert_eq!(Position::from_fen(&v, &fen).unwrap().to_fen(), fen, "{name}");
            p.legal_moves(&mut moves);
            p.make(moves[(i * 5) % moves.len()]);
        }
    }
    assert_eq!(pos("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80").to_fen(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
}

/// Pass on stalemate (Fairy-Stockfish's andersanti: antichess with `passOnStalemate`): a side
/// without a move passes with its first piece; after two passes in a row the game is drawn.
/// Counts by pyffish 0.0.90: perft 1, 1, 0 from this position.
#[test]
fn pass_on_stalemate_passes_then_two_passes_draw() {
    let v = Variant::from_toml(
        "pass.toml",
        "extends = \"antichess\"\nname = \"pass\"\n[rules]\npass_on_stalemate = true\n",
    )
    .unwrap();
    let mut p = Position::from_fen(&v, "8/8/8/8/8/1p6/1P6/B7 w - - 5 9").unwrap();
    assert_eq!(legal(&p), set(&["a1a1"]));
    assert_eq!([1, 2, 3].map(|d| hoplite_core::perft(&mut p, d)), [1, 1, 0]);
    play(&mut p, &["a1a1"]);
    assert_eq!(p.to_fen(), "8/8/8/8/8/1p6/1P6/B7 b - - 6 9", "a pass by a bishop counts toward the move rule");
    assert_eq!(legal(&p), set(&["b3b3"]));
    play(&mut p, &["b3b3"]);
    assert!(legal(&p).is_empty());
    assert_eq!(p.outcome(), Some((GameResult::Draw, Termination::Stalemate)));
    // Without the rule the side without a move is stalemated (a win for it in antichess).
    let plain = Position::from_fen(&Variant::builtin("antichess"), "8/8/8/8/8/1p6/1P6/B7 w - - 5 9").unwrap();
    assert!(legal(&plain).is_empty());
    assert_eq!(plain.outcome(), Some((GameResult::WhiteWins, Termination::Stalemate)));
}

#[test]
fn quiet_moves_neither_capture_nor_promote() {
    // White: en passant on d6, a capture on b8 with promotion, a plain promotion on h8,
    // castling, a plain step.
    let p = pos("chess", "rn2k3/P6P/8/3pP3/8/8/8/4K2R w K d6 0 1");
    let quiet = |m: &str| p.is_quiet(p.parse_uci(m).unwrap());
    assert!(!quiet("e5d6"), "en passant captures");
    assert!(!quiet("a7b8q"), "a capture that promotes");
    assert!(!quiet("h7h8n"), "a promotion");
    assert!(quiet("e1g1"), "castling captures nothing");
    assert!(quiet("e5e6"));
}

#[test]
fn en_passant_squares_no_initial_move_passed_over_give_no_capture() {
    // Squares a FEN names that no piece of the side that moved passed over by an initial move
    // from a square it has left (found by fuzzing): a king, a rook or a queen on the square
    // beyond or on one of them is no victim; before, an en passant capture took it.
    for (fen, m) in [
        ("8/4b3/Kp1pr3/8/1R3p2/8/4Pk2/8 w - f3f4f5 4 9", "e2f3"),
        ("rn3br1/p2p2pp/3qpp1k/4P3/RQP3P1/3P4/1P1n1P1P/1N1NK3 w - h5h6h7 4 27", "g4h5"),
        ("N3r3/2p1q1b1/3kp1p1/p2P3B/PP6/2pP3p/1n1n1P1P/4K1R1 b - g1g2g3 0 27", "h3g2"),
        ("1r6/p1pp3r/6pN/3P4/1p4n1/kPb2Pn1/P1qB3R/2R2K2 w - c2c3c4 92 18", "b3c4"),
    ] {
        let p = pos("chess", fen);
        assert_eq!(ep_field(&p), "-", "{fen}");
        assert!(!from(&p, &m[..2]).contains(&m.to_string()), "{fen}: {m} is no capture");
    }
    // A pawn's double step still gives its right, and the writer keeps it.
    let p = pos("chess", "4k3/8/8/8/4pP2/8/8/4K3 b - f3 0 1");
    assert_eq!((ep_field(&p), from(&p, "e4").contains(&"e4f3".to_string())), ("f3".to_string(), true));
}

// ---------------------------------------------------------------------------------------------
// The hand: crazyhouse (Fairy-Stockfish's rules, imported)

/// The drops in UCI (`P@e4`), sorted.
fn drops(p: &Position) -> Vec<String> {
    legal(p).into_iter().filter(|m| m.contains('@')).collect()
}

#[test]
fn holdings_and_promoted_marks_round_trip_through_the_fen() {
    for fen in [
        "r1b1k2r/ppp2ppp/2n5/3q4/8/8/PPP2PPP/R1BQK2R[BNbnp] w KQkq - 0 10",
        "1r2k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ] {
        assert_eq!(pos("crazyhouse", fen).to_fen(), fen);
    }
    // Any order in, Fairy-Stockfish's order out: White's first, the last type first.
    let p = pos("crazyhouse", "4k3/8/8/8/8/8/8/4K3[pPnQ] w - - 0 1");
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3[QPnp] w - - 0 1");
}

#[test]
fn bad_holdings_are_refused_naming_the_field() {
    let v = variant("crazyhouse");
    let error = |fen: &str| Position::from_fen(&v, fen).unwrap_err().to_string();
    assert!(error("4k3/8/8/8/8/8/8/4K3[Px] w - - 0 1").contains("holdings: 'x' in '[Px]'"));
    assert!(error("4k3/8/8/8/8/8/8/4K3[P w - - 0 1").contains("holdings: '4k3/8/8/8/8/8/8/4K3[P' opens '['"));
    assert!(error("4k3/8/8/8/8/8/8/4K3[k] w - - 0 1").contains("holdings: 'k' in hand, a royal piece"));
    let chess = variant("chess");
    let e = Position::from_fen(&chess, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1").unwrap_err().to_string();
    assert!(e.contains("this variant has no drops"), "{e}");
    // An empty hand is no hand: chess reads `[]` and `[-]`.
    assert!(Position::from_fen(&chess, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").is_ok());
}

#[test]
fn a_pawn_is_never_dropped_on_the_first_or_last_rank() {
    let p = pos("crazyhouse", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1");
    let ranks: Vec<char> = drops(&p).iter().map(|m| m.chars().last().unwrap()).collect();
    assert_eq!(drops(&p).len(), 6 * 8);
    assert!(ranks.iter().all(|r| ('2'..='7').contains(r)), "{ranks:?}");
    // A knight goes anywhere empty.
    let p = pos("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    assert_eq!(drops(&p).len(), 62);
}

#[test]
fn under_check_a_drop_must_block() {
    // The rook on a1 checks along the first rank: knights may land between, nowhere else;
    // against a knight's check no drop helps.
    let p = pos("crazyhouse", "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    assert_eq!(drops(&p), set(&["N@b1", "N@c1", "N@d1"]));
    let p = pos("crazyhouse", "4k3/8/8/8/8/3n4/8/4K3[N] w - - 0 1");
    assert!(drops(&p).is_empty());
}

#[test]
fn a_capture_fills_the_capturers_hand_and_a_promoted_piece_returns_as_a_pawn() {
    // Black takes a knight: it becomes Black's.
    let p = after("crazyhouse", "4k3/8/8/8/1q6/2N5/8/4K3[] b - - 0 1", &["b4c3"]);
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/2q5/8/4K3[n] w - - 0 2");
    // A promoted queen (`~`) goes back as a pawn; a born one as a queen.
    let p = after("crazyhouse", "1r2k3/8/8/8/8/8/8/1Q~2K3[] b - - 0 1", &["b8b1"]);
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/1r2K3[p] w - - 0 2");
    let p = after("crazyhouse", "1r2k3/8/8/8/8/8/8/1Q2K3[] b - - 0 1", &["b8b1"]);
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/1r2K3[q] w - - 0 2");
    // A promotion marks its piece, and the mark moves with it.
    let p = after("crazyhouse", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", &["a7a8q", "e8d7", "a8a5"]);
    assert_eq!(p.to_fen(), "8/3k4/8/Q~7/8/8/8/4K3[] b - - 2 2");
}

#[test]
fn a_drop_resets_the_move_rule_and_unmake_restores_hand_key_and_marks() {
    let start = "1r2k3/8/8/8/8/8/8/1Q~2K3[Nn] b - - 7 20";
    let mut p = pos("crazyhouse", start);
    let key = p.key();
    play(&mut p, &["N@d6"]);
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.to_fen(), "1r2k3/8/3n4/8/8/8/8/1Q~2K3[N] w - - 0 21");
    // The key follows the hand: the same board with other hands is another position.
    assert_eq!(p.key(), Position::from_fen(p.variant(), &p.to_fen()).unwrap().key());
    play(&mut p, &["N@h3", "b8b1"]);
    assert_eq!(p.key(), Position::from_fen(p.variant(), &p.to_fen()).unwrap().key());
    for _ in 0..3 {
        p.unmake();
    }
    assert_eq!((p.to_fen(), p.key()), (start.to_string(), key));
}

#[test]
fn a_repetition_counts_back_past_drops_and_captures() {
    // A knight dropped, taken, dropped by the other side and taken back: the same board and
    // hands recur eight plies on, three after the last capture.
    let start = "4k3/8/8/8/8/8/8/R3K3[n] b - - 0 1";
    let p = after("crazyhouse", start, &["N@a2", "a1a2", "e8d8", "N@d7", "d8d7", "a2a3", "d7e8", "a3a1"]);
    assert_eq!((p.to_fen(), p.repetitions()), ("4k3/8/8/8/8/8/8/R3K3[n] b - - 3 5".to_string(), 1));
}

// ---------------------------------------------------------------------------------------------
// The hand in shogi (Fairy-Stockfish's rules, imported)

#[test]
fn no_pawn_is_dropped_on_a_file_that_holds_an_own_unpromoted_pawn() {
    // Nifu: Black's pawns stand on every file but a and i; White's on none. A promoted pawn
    // (tokin) does not count.
    let p = pos("shogi", "4k4/1pppppp+p1/9/9/9/9/9/9/4K4[Pp] b - - 0 1");
    let black: Vec<String> = drops(&p).into_iter().map(|m| m[2..3].to_string()).collect();
    assert!(black.iter().all(|f| f == "a" || f == "h" || f == "i"), "{black:?}");
    assert_eq!(black.len(), 3 * 8 - 1, "files a, h and i, all but the last rank and the tokin's h8");
}

#[test]
fn a_doubled_count_of_zero_closes_every_file() {
    // Fairy-Stockfish's dragonfly: `dropNoDoubledCount = 0` forbids pawn drops, even on files
    // without a pawn (a playout position in CI found hoplite dropping there).
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/variants/fsf/crazyhouse.toml"))
        .unwrap()
        .replace("[rules]", "[rules]\ndrop_no_doubled = { types = \"p\", count = 0 }");
    let v = Variant::from_toml("crazyhouse-no-pawn-drops.toml", &text).unwrap();
    let p = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[PN] w - - 0 1").unwrap();
    assert!(drops(&p).iter().all(|m| m.starts_with("N@")), "{:?}", drops(&p));
    assert_eq!(drops(&p).len(), 62);
}

#[test]
fn a_pawn_dropped_to_mate_loses_and_another_piece_may_mate_so() {
    // The king in the corner, a8 covered by the gold, b9 by the bishop: a pawn dropped on a8
    // mates, which the rule turns into a loss for the side that dropped it; a lance wins.
    let mated = |hand: &str, drop: &str| {
        let p = after("shogi", &format!("k8/9/1G1B5/9/9/9/9/9/4K4[{hand}] w - - 0 1"), &[drop]);
        (p.outcome().map(|o| o.0), legal(&p).len())
    };
    assert_eq!(mated("P", "P@a8"), (Some(GameResult::BlackWins), 0));
    assert_eq!(mated("L", "L@a8"), (Some(GameResult::WhiteWins), 0));
}

#[test]
fn drops_keep_to_the_drop_region() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/variants/fsf/crazyhouse.toml"))
        .unwrap()
        .replace("[rules]", "[rules]\ndrop_region = \"*1 *2 *3\"");
    let v = Variant::from_toml("crazyhouse-low.toml", &text).unwrap();
    let p = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1").unwrap();
    let ranks: std::collections::BTreeSet<char> = drops(&p).iter().map(|m| m.chars().last().unwrap()).collect();
    assert_eq!(ranks, ['1', '2', '3'].into());
    // Black's region is White's mirrored: ranks 6 to 8.
    let p = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[Nn] b - - 0 1").unwrap();
    let ranks: std::collections::BTreeSet<char> = drops(&p).iter().map(|m| m.chars().last().unwrap()).collect();
    assert_eq!(ranks, ['6', '7', '8'].into());
}

#[test]
fn a_promoted_piece_is_written_plus_and_returns_demoted_a_born_one_as_itself() {
    // A pawn promoted in play is written `+P`; taken, a tokin goes to the hand as a pawn, a
    // gold that started as one as a gold (counts and FENs as pyffish gives them).
    let p = after("shogi", "4k4/9/4P4/9/9/9/9/9/4K4[] w - - 0 1", &["e7e8+"]);
    assert_eq!(p.to_fen(), "4k4/4+P4/9/9/9/9/9/9/4K4[] b - - 0 1");
    let p = after("shogi", "4k4/9/9/9/4+P4/4g4/9/9/4K4[] b - - 0 1", &["e4e5"]);
    assert_eq!(p.to_fen(), "4k4/9/9/9/4g4/9/9/9/4K4[p] w - - 0 2");
    let p = after("shogi", "4k4/9/9/9/4G4/4g4/9/9/4K4[] b - - 0 1", &["e4e5"]);
    assert_eq!(p.to_fen(), "4k4/9/9/9/4g4/9/9/9/4K4[g] w - - 0 2");
}

#[test]
fn san_disambiguates_only_among_moves_that_promote_alike() {
    // Two bishops can take on f4; only the one in the zone can promote doing so (a game of
    // 100 shogi games replayed in pyffish: Fairy-Stockfish writes `Bxf4=H`, not `Bexf4=H`).
    let mut p = pos("shogi", "lns1kgsnl/1r7/1pp1gp1p1/p5pbp/3N1P3/2P1PGP1P/PP1Pb1NP1/1S4R2/L3KGS1L[PP] b - - 1 21");
    let sans: Vec<String> = ["e3f4+", "e3f4", "h6f4"]
        .iter()
        .map(|u| {
            let m = p.parse_uci(u).unwrap();
            p.to_san(m)
        })
        .collect();
    assert_eq!(sans, ["Bxf4=H", "Bexf4", "Bhxf4"]);
}

// ---------------------------------------------------------------------------------------------
// Atomic's blast (Fairy-Stockfish's rules, imported; each answer is pyffish's)

#[test]
fn a_capture_blows_up_the_capturer_and_its_neighbours_but_pawns() {
    // The knight takes the queen on d4: the knight, the d5 knight, the e4 bishop and White's own
    // e3 rook go; the c4 pawn stays. Unmake brings all back.
    let start = "r3k2r/6p1/8/1N1n4/2pqb3/4R3/8/4K3 w kq - 0 1";
    let mut p = pos("atomic", start);
    let key = p.key();
    play(&mut p, &["b5d4"]);
    assert_eq!(p.to_fen(), "r3k2r/6p1/8/8/2p5/8/8/4K3 b kq - 0 1");
    assert_eq!(p.key(), Position::from_fen(p.variant(), &p.to_fen()).unwrap().key());
    p.unmake();
    assert_eq!((p.to_fen(), p.key()), (start.to_string(), key));
    // A blast that takes a castling rook takes its right.
    let p = after("atomic", "r3k2r/6p1/8/8/8/8/1B6/4K3 w kq - 0 1", &["b2g7"]);
    assert_eq!(p.to_fen(), "r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
}

#[test]
fn a_king_may_not_blow_itself_up_and_touching_kings_are_never_in_check() {
    // The king may not take the pawn that checks it: the blast would take the king.
    assert_eq!(legal(&pos("atomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")), set(&["e1d1", "e1e2", "e1f1", "e1f2"]));
    // Without the check rule (nocheckatomic) it may, and loses.
    let p = pos("nocheckatomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    assert!(legal(&p).contains(&"e1d2".to_string()));
    assert_eq!(
        after("nocheckatomic", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", &["e1d2"]).outcome().map(|o| o.0),
        Some(GameResult::BlackWins)
    );
    // Next to the other king, the rook's attack on e1 is no check (taking the king would
    // blow up its own), and squares next to it are safe: f1 alone is not.
    let p = pos("atomic", "8/8/8/8/8/8/3k4/r3K3 w - - 0 1");
    assert!(!p.in_check());
    assert_eq!(legal(&p), set(&["e1d1", "e1e2", "e1f2"]));
}

#[test]
fn blowing_up_the_other_king_wins_even_from_check() {
    // White is in check from the rook, yet the queen may take next to Black's king.
    let start = "4k3/3p4/8/8/8/7Q/8/r3K3 w - - 0 1";
    assert_eq!(legal(&pos("atomic", start)), set(&["e1d2", "e1e2", "e1f2", "h3d7"]));
    let p = after("atomic", start, &["h3d7"]);
    assert_eq!(p.to_fen(), "8/8/8/8/8/8/8/r3K3 b - - 0 1");
    assert_eq!(p.outcome(), Some((GameResult::WhiteWins, Termination::Extinction)));
}

#[test]
fn in_atomar_kings_survive_blasts_and_do_not_take_each_other() {
    let start = "8/8/8/8/8/3kn3/4K3/8 w - - 0 1";
    let p = pos("atomar", start);
    assert!(!legal(&p).contains(&"e2d3".to_string()));
    assert_eq!(after("atomar", start, &["e2e3"]).to_fen(), "8/8/8/8/8/3kK3/8/8 b - - 0 1");
}

#[test]
fn a_repetition_in_minishogi_loses_for_the_first_player_whoever_is_to_move() {
    // Fairy-Stockfish's minishogi: the fourth occurrence ends the game, lost for White (sente)
    // whether White or Black is to move then (pyffish: -32000 for White to move, +32000 for
    // Black to move).
    let p = after("minishogi", "4k/5/5/5/K4[] w - - 0 1", &["a1a2", "e5e4", "a2a1", "e4e5"].repeat(3));
    assert_eq!(p.outcome(), Some((GameResult::BlackWins, Termination::Repetition)));
    let p = after("minishogi", "4k/5/5/5/K4[] b - - 0 1", &["e5e4", "a1a2", "e4e5", "a2a1"].repeat(3));
    assert_eq!(p.outcome(), Some((GameResult::BlackWins, Termination::Repetition)));
    // One ply short, the game goes on.
    let p = after("minishogi", "4k/5/5/5/K4[] w - - 0 1", &["a1a2", "e5e4", "a2a1", "e4e5"].repeat(3)[..11]);
    assert_eq!(p.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Connect-N (Fairy-Stockfish's tictactoe and all-queens chess, imported; results are pyffish's)

fn connect_variant(name: &str, text: &str) -> Arc<Variant> {
    Variant::from_toml(name, text).unwrap_or_else(|e| panic!("{e}"))
}

const TICTACTOE: &str = "name = \"tictactoe\"\nfiles = 3\nranks = 3\nsetup = \"3/3/3[PPPPPpppp] w - - 0 1\"\n\
    [[pieces]]\nletter = \"p\"\nbetza = \"\"\n[rules]\nconnect = { count = 3 }\ndrops = true\n";

#[test]
fn a_line_of_n_wins_for_the_side_that_made_it() {
    let v = connect_variant("tictactoe.toml", TICTACTOE);
    let play_out = |moves: &[&str]| {
        let mut p = Position::startpos(&v);
        play(&mut p, moves);
        p
    };
    // A file, a diagonal: White wins; two in a row do not.
    for line in [&["P@a1", "P@b1", "P@a2", "P@b2", "P@a3"], &["P@a1", "P@b1", "P@b2", "P@c1", "P@c3"]] {
        let p = play_out(line);
        assert_eq!(p.outcome(), Some((GameResult::WhiteWins, Termination::Connect)), "{line:?}");
        assert!(legal(&p).is_empty());
    }
    let p = play_out(&["P@a1", "P@b1", "P@b2", "P@c1"]);
    assert_eq!((p.outcome(), legal(&p).len()), (None, 5));
    // Collinear (three musketeers): three on a rank with gaps between them make a line, here
    // one that loses for the side that made it (pyffish: +32000 for Black to move).
    let musketeers = "name = \"musketeers\"\nfiles = 5\nranks = 5\nsetup = \"ppppM/ppppp/ppMpp/ppppp/Mpppp w - - 0 1\"\n\
        [[pieces]]\nletter = \"m\"\nbetza = \"cW\"\n[[pieces]]\nletter = \"p\"\nbetza = \"mW\"\n[rules]\nstalemate = \"win\"\n\
        connect = { count = 3, collinear = true, pieces = \"m\", diagonal = false, value = \"loss\" }\n";
    let v3 = connect_variant("musketeers.toml", musketeers);
    let mut p = Position::from_fen(&v3, "p4/5/5/4M/M1M1p w - - 0 1").unwrap();
    play(&mut p, &["e2e1"]);
    assert_eq!(p.outcome(), Some((GameResult::BlackWins, Termination::Connect)));
    // Without diagonals, the diagonal is no line.
    let v = connect_variant("straight.toml", &TICTACTOE.replace("count = 3", "count = 3, diagonal = false"));
    let mut p = Position::startpos(&v);
    play(&mut p, &["P@a1", "P@b1", "P@b2", "P@c1", "P@c3"]);
    assert_eq!(p.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Shatar's mate (Fairy-Stockfish's rules, imported; results are pyffish's)

#[test]
fn a_shatar_mate_needs_a_shak_and_no_knight_mates_alone() {
    let mated = |fen: &str, m: &str| {
        let p = after("shatar", fen, &[m]);
        assert!(legal(&p).is_empty());
        p.outcome()
    };
    // A knight's smothered mate loses for the side that gave it.
    assert_eq!(
        mated("6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1", "g5f7"),
        Some((GameResult::BlackWins, Termination::Checkmate))
    );
    // A bishop's mate with no shak (a check by knight, rook or bers) in the run: a draw.
    assert_eq!(mated("6bk/7p/8/8/8/8/5B2/4K3 w - - 0 1", "f2d4"), Some((GameResult::Draw, Termination::Checkmate)));
    // The bers's mate is a shak: it wins.
    assert_eq!(mated("7k/6pp/8/8/8/8/8/K3J3 w - - 0 1", "e1e8"), Some((GameResult::WhiteWins, Termination::Checkmate)));
}

// ---------------------------------------------------------------------------------------------
// Makruk's counting (Fairy-Stockfish's rules, imported; FENs and results are pyffish's)

#[test]
fn makruk_counts_a_bare_king_by_the_pieces_and_the_board_by_its_honour() {
    // Black is bared against a rook: 16 moves (32 plies), counted from the pieces on the board.
    let p = after("makruk", "8/8/4k3/8/8/8/3R4/3K4 b - - 0 1", &["e6e5", "d2d3"]);
    assert_eq!(p.to_fen(), "8/8/8/4k3/8/3R4/8/3K4 b - 32 6 2");
    // No pawn left and both sides with pieces: the board's honour, 64 moves, from 0.
    let p = after("makruk", "8/8/4k3/4n3/8/8/3R4/3K4 w - - 0 1", &["d2d3", "e5c4"]);
    assert_eq!(p.to_fen(), "8/8/4k3/8/2n5/3R4/8/3K4 w - 128 1 2");
    // The FEN's limit and count are read back as they were written.
    let fen = "8/8/8/4k3/8/3R4/8/3K4 b - 32 32 2";
    assert_eq!(pos("makruk", fen).to_fen(), fen);
}

#[test]
fn a_count_that_runs_out_draws_but_a_mate_on_it_still_wins() {
    let fen = "8/8/8/4k3/8/3R4/8/3K4 b - 32 32 2";
    assert_eq!(pos("makruk", fen).outcome(), None);
    let p = after("makruk", fen, &["e5e4"]);
    assert_eq!(p.to_fen(), "8/8/8/8/4k3/3R4/8/3K4 w - 32 33 3");
    assert_eq!(p.outcome(), Some((GameResult::Draw, Termination::Counting)));
    let p = after("makruk", "k7/8/1K6/8/8/8/8/7R w - 32 32 40", &["h1h8"]);
    assert_eq!(p.outcome(), Some((GameResult::WhiteWins, Termination::Checkmate)));
    // A counting limit in a variant without counting is refused, naming the field.
    let e = Position::from_fen(&variant("chess"), "4k3/8/8/8/8/8/8/4K3 w - 32 3 2").unwrap_err().to_string();
    assert!(e.contains("counting limit: '32'"), "{e}");
}

#[test]
fn in_makpong_a_king_in_check_may_only_take_its_checker() {
    // Makruk lets the king step away; makpong only lets it take the rook, and against a rook it
    // cannot reach the king is mated (pyffish's move lists).
    let near = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
    assert_eq!(legal(&pos("makruk", near)), set(&["e1d1", "e1e2", "e1f1"]));
    assert_eq!(legal(&pos("makpong", near)), set(&["e1e2"]));
    let far = pos("makpong", "4k3/8/8/8/8/4r3/8/4K3 w - - 0 1");
    assert_eq!(far.outcome(), Some((GameResult::BlackWins, Termination::Checkmate)));
}

// ---------------------------------------------------------------------------------------------
// Castle chess (Fairy-Stockfish's `castle` section: castlingWins = q; results are pyffish's)

#[test]
fn castling_with_a_winning_right_wins_and_losing_it_loses() {
    let v =
        Variant::from_toml("castle.toml", "extends = \"chess\"\nname = \"castle\"\n[rules]\ncastling_wins = \"q\"\n")
            .unwrap_or_else(|e| panic!("{e}"));
    let end = |moves: &[&str]| {
        let mut p = Position::from_fen(&v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        play(&mut p, moves);
        p.outcome()
    };
    assert_eq!(end(&["e8c8"]), Some((GameResult::BlackWins, Termination::Castling)));
    // Castling the other way gives up the winning right; so does moving its rook.
    assert_eq!(end(&["e8g8"]), Some((GameResult::WhiteWins, Termination::Castling)));
    assert_eq!(end(&["a8b8"]), Some((GameResult::WhiteWins, Termination::Castling)));
    assert_eq!(end(&["h8g8"]), None);
}

#[test]
fn a_compulsory_drop_leaves_no_board_move_while_a_drop_is_legal() {
    // Fairy-Stockfish's nineholes: White holds two more pieces, so its piece on a1 may not
    // move (pyffish lists the seven drops alone).
    let text = "name = \"nineholes\"\nfiles = 3\nranks = 3\nsetup = \"3/3/3[PPPppp] w - - 0 1\"\n\
        [[pieces]]\nletter = \"p\"\nbetza = \"mKmDmNmA\"\n[rules]\nconnect = { count = 3, diagonal = false }\n\
        drops = true\nmust_drop = true\n";
    let v = connect_variant("nineholes.toml", text);
    let mut p = Position::startpos(&v);
    play(&mut p, &["P@a1", "P@c3"]);
    assert_eq!(legal(&p), set(&["P@a2", "P@a3", "P@b1", "P@b2", "P@b3", "P@c1", "P@c2"]));
    // Without the rule, the piece on a1 may move.
    let v = connect_variant("free.toml", &text.replace("must_drop = true", "must_drop = false"));
    let mut p = Position::startpos(&v);
    play(&mut p, &["P@a1", "P@c3"]);
    assert!(legal(&p).iter().any(|m| m.starts_with("a1")));
}

#[test]
fn drops_that_fall_land_on_the_first_rank_or_a_piece() {
    // Fairy-Stockfish's cfour and cfour-anyside after a first drop on d1 (pyffish's lists).
    let text = "name = \"cfour\"\nfiles = 7\nranks = 6\nsetup = \"7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1\"\n\
        [[pieces]]\nletter = \"p\"\nbetza = \"\"\n[rules]\nconnect = { count = 4 }\ndrops = true\ndrop_fall = \"top\"\n";
    let after_d1 = |v: &Arc<Variant>| {
        let mut p = Position::startpos(v);
        play(&mut p, &["P@d1"]);
        legal(&p)
    };
    let top = connect_variant("cfour.toml", text);
    assert_eq!(after_d1(&top), set(&["P@a1", "P@b1", "P@c1", "P@d2", "P@e1", "P@f1", "P@g1"]));
    // From any side: along every line whose first square is empty, from each edge.
    let anyside = connect_variant(
        "anyside.toml",
        &text
            .replace("ranks = 6", "ranks = 7")
            .replace("7/7/7/7/7/7[", "7/7/7/7/7/7/7[")
            .replace("\"top\"", "\"anyside\""),
    );
    let expected = [
        "P@a1", "P@b1", "P@c1", "P@e1", "P@f1", "P@g1", "P@a2", "P@d2", "P@g2", "P@a3", "P@g3", "P@a4", "P@g4", "P@a5",
        "P@g5", "P@a6", "P@g6", "P@a7", "P@b7", "P@c7", "P@e7", "P@f7", "P@g7",
    ];
    assert_eq!(after_d1(&anyside), set(&expected));
}
