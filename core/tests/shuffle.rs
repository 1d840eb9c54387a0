//! The symmetric back-rank shuffle (`Variant::shuffle_back_ranks`) that play-testing may start
//! games from: which pieces move, that square colours and the two sides' symmetry are kept,
//! and that it commutes with swapping the armies.

use hoplite_core::{Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn reversed(v: &Variant, fen: &str) -> String {
    v.shuffle_back_ranks(fen, &mut |files| files.reverse()).unwrap()
}

/// Chess: rooks (they castle), king and pawns stay; the even files c, g and the odd files b,
/// d, f are permuted among themselves, both sides alike, so each bishop keeps its colour.
#[test]
fn a_worked_shuffle_of_chess() {
    let chess = Variant::builtin("chess");
    assert_eq!(reversed(&chess, &chess.setup), "rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1");
    // The identity leaves the setup as it is.
    assert_eq!(chess.shuffle_back_ranks(&chess.setup, &mut |_| {}).unwrap(), chess.setup);
    // A square an imbalance emptied goes along with its file: White's missing b1 knight.
    let no_knight = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1";
    assert_eq!(reversed(&chess, no_knight), "rbnqknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQK1BR w KQkq - 0 1");
}

/// Shatranj has no castling: its rooks shuffle too; its king does not.
#[test]
fn without_castling_the_rooks_shuffle() {
    let shatranj = Variant::builtin("shatranj");
    let fen = reversed(&shatranj, &shatranj.setup);
    let back = fen.rsplit('/').next().unwrap().split(' ').next().unwrap().to_string();
    assert_eq!(back.find('K'), shatranj.setup.rsplit('/').next().unwrap().find('K'), "{fen}");
    assert_ne!(back.find('R'), Some(0), "{fen}");
}

/// For every built-in and many random shuffles: the position is legal or refused for a check
/// only, each side keeps its pieces, and shuffling commutes with swapping the armies (the
/// swapped game is the colour mirror of the game as played).
#[test]
fn shuffles_keep_material_symmetry_and_the_swap() {
    for name in hoplite_core::builtin_names() {
        let v = Variant::builtin(name);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moved = false;
        for _ in 0..50 {
            let seed: u64 = rand::Rng::gen(&mut rng);
            let shuffle = |fen: &str| {
                let mut r = ChaCha8Rng::seed_from_u64(seed);
                v.shuffle_back_ranks(fen, &mut |files| files.shuffle(&mut r)).unwrap()
            };
            let fen = shuffle(&v.setup);
            moved |= fen != v.setup;
            let count = |f: &str| {
                let mut c: Vec<char> = f.split(' ').next().unwrap().chars().filter(|c| c.is_alphabetic()).collect();
                c.sort_unstable();
                c
            };
            assert_eq!(count(&fen), count(&v.setup), "{name}: {fen}");
            let swapped = v.swap_armies(&v.setup).unwrap();
            assert_eq!(shuffle(&swapped), v.swap_armies(&fen).unwrap(), "{name}");
            if let Err(e) = Position::from_fen(&v, &fen) {
                // Only a shuffle that leaves a side in check may be refused.
                assert!(e.to_string().contains("check"), "{name}: {fen}: {e}");
            }
        }
        assert!(moved, "{name}: no shuffle moved a piece");
    }
}
