//! The search finds mates (and the variants' other wins) in 1 and 2 in every built-in
//! variant. Each position is also checked by brute force over the core's legal moves and game
//! ends, independently of the search.

use hoplite_core::{Colour, GameResult, Position, Variant};
use hoplite_search::{Budget, Search, Weights, MATE, MATE_BOUND};

/// Whether the side to move can force a win within `plies` plies (odd), by brute force.
fn forced_win(pos: &mut Position, plies: u32) -> bool {
    let us = pos.side_to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        pos.make(m);
        let won = match pos.outcome() {
            Some((r, _)) => r == GameResult::win_for(us),
            None if plies >= 3 => {
                let mut replies = Vec::new();
                pos.legal_moves(&mut replies);
                replies.into_iter().all(|r| {
                    pos.make(r);
                    let w = match pos.outcome() {
                        Some((res, _)) => res == GameResult::win_for(us),
                        None => forced_win(pos, plies - 2),
                    };
                    pos.unmake();
                    w
                })
            }
            None => false,
        };
        pos.unmake();
        won
    })
}

/// Whether the side to move, whatever it plays, loses within `plies` more plies (even).
fn forced_loss(pos: &mut Position, plies: u32) -> bool {
    let them = !pos.side_to_move();
    if let Some((r, _)) = pos.outcome() {
        return r == GameResult::win_for(them);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    plies >= 2
        && moves.into_iter().all(|m| {
            pos.make(m);
            let lost = forced_win(pos, plies - 1);
            pos.unmake();
            lost
        })
}

/// (variant, FEN, moves to the win, the winning move, what it shows)
const CASES: &[(&str, &str, u32, &str, &str)] = &[
    ("chess", "6k1/2R5/1R6/8/1P4K1/8/8/8 w - - 11 70", 1, "b6b8", "back-rank mate"),
    ("chess", "2R5/6k1/1R6/8/1P4K1/8/8/8 w - - 7 68", 2, "c8c7", "rook roller"),
    ("shatranj", "4q3/5p2/8/r7/8/PK2k3/8/8 b - - 1 54", 1, "a5a3", "bare king, immediate"),
    ("shatranj", "4q3/2r2p2/8/1K6/P3k3/8/8/8 b - - 0 57", 2, "c7a7", "bare king in 2"),
    (
        "sultan",
        "kr9/pp9/4C6/11/11/11/11/11/11/11/10K w - - 0 1",
        1,
        "e9c10",
        "smothered mate by the Commander's knight move",
    ),
    ("sultan", "11/11/11/11/11/8R2/3P7/11/7P3/11/R3K4k1 w - - 27 68", 2, "a1a2", "two rooks on 11x11"),
    ("spartan", "k6k/hh2Q2h/8/8/8/8/8/4K3 w - - 0 1", 1, "e7f8", "duple-check mate of both kings"),
    ("spartan", "7k/6N1/R7/8/3PP3/8/4KP2/6R1 w - - 15 77", 2, "g7f5", "mate of the last Spartan king"),
    ("rumi-shatranj", "7k/5K2/8/5Q2/8/8/8/8 w - - 0 1", 1, "f5g6", "stalemate wins"),
    ("rumi-shatranj", "4n3/8/5p2/8/p3r1kp/P6p/7P/6K1 b - - 6 50", 2, "e4f4", "mate in 2"),
    (
        "great-shatranj",
        "d1egk1h2d/pppppppppp/n6M2/10/D2P6/2P6P/PP1PHPP1P1/1NEGK2END w - - 5 13",
        1,
        "h6g8",
        "Minister mate",
    ),
    ("great-shatranj", "1n2k1h1d1/E4p1p1p/3p2p2e/9p/6e3/2NPPP4/1PPG2P3/3HK3m1 b - - 0 26", 2, "i1g2", "mate in 2"),
    (
        "great-shatranj-r",
        "r1egk2mn1/ppppppp1p1/2n4p2/7h1r/10/1P1PP1PP1P/P1PM4P1/RNEGK2ENR b - - 1 12",
        1,
        "h5g3",
        "High Priestess mate",
    ),
    ("great-shatranj-r", "4k4r/2gppp2p1/n6n1p/10/10/1PK6N/1PP1Pm3P/2G4E2 b - - 3 26", 2, "f2e4", "mate in 2"),
];

#[test]
fn finds_mates_in_one_and_two_in_every_variant() {
    for &(name, fen, n, best, what) in CASES {
        let v = Variant::builtin(name);
        let mut pos = Position::from_fen(&v, fen).unwrap();
        assert!(forced_win(&mut pos, 2 * n - 1), "{name} {what}: brute force finds no win in {n}");
        if n == 2 {
            assert!(!forced_win(&mut pos, 1), "{name} {what}: already a win in 1");
        }
        let mut search = Search::new(Weights::defaults(&v), 4);
        // The prunings may hide a mate at its exact depth: a few plies more.
        let r = search.search(&mut pos, Budget::depth(2 * n + 5));
        assert_eq!(r.score, MATE - (2 * n as i32 - 1), "{name} {what}: score");
        // The move found wins as fast (the known one, or another win in n).
        let m = r.best.unwrap();
        let text = pos.move_to_uci(m);
        pos.make(m);
        let wins = text == best || (n == 2 && forced_loss(&mut pos, 2));
        pos.unmake();
        assert!(wins, "{name} {what}: {text} does not win in {n} (the known win is {best})");
    }
}

#[test]
fn duple_check_mate_attacks_both_kings() {
    let v = Variant::builtin("spartan");
    let mut pos = Position::from_fen(&v, "k6k/hh2Q2h/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    pos.make(pos.parse_uci("e7f8").unwrap());
    assert_eq!(pos.royals(Colour::Black).count(), 2);
    assert!(pos.in_check());
    assert_eq!(pos.outcome(), Some((GameResult::WhiteWins, hoplite_core::Termination::Checkmate)));
}

#[test]
fn great_shatranj_bare_king_win_takes_the_reply_into_account() {
    // Nxb5 bares the black king; Black's one reply cannot bare White, so White wins.
    let v = Variant::builtin("great-shatranj");
    let mut pos = Position::from_fen(&v, "7k2/10/10/1g8/10/2N7/10/K9 w - - 0 1").unwrap();
    let mut search = Search::new(Weights::defaults(&v), 4);
    let r = search.search(&mut pos, Budget::depth(4));
    assert_eq!(pos.move_to_uci(r.best.unwrap()), "c3b5");
    assert_eq!(r.score, MATE - 2, "won after Black's reply, two plies from the root");
    // With a reply that bares White back, the same capture only draws.
    let mut pos = Position::from_fen(&v, "10/10/k9/1g8/10/2N7/10/K9 w - - 0 1").unwrap();
    pos.make(pos.parse_uci("c3b5").unwrap());
    let r = Search::new(Weights::defaults(&v), 4).search(&mut pos, Budget::depth(3));
    assert_eq!(pos.move_to_uci(r.best.unwrap()), "a6b5");
    assert_eq!(r.score, 0);
    assert!(r.score.abs() < MATE_BOUND);
}
