//! Opening books: `hoplite book` writes balanced positions as EPD and PGN that read back as
//! the same positions, whatever the thread count; books in FEN, EPD and PGN are read, and a
//! bad line is named by its number.

use hoplite_core::{Position, Variant};
use hoplite_formats::{csvfile, GameRow};
use std::path::{Path, PathBuf};

mod common;
use common::{hoplite, ok};

/// A fresh folder for this test.
fn tmp(name: &str) -> PathBuf {
    common::tmp_dir(&format!("book-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The start positions of a run's games, in game order.
fn starts(run: &Path) -> Vec<String> {
    let rows: Vec<GameRow> = csvfile::read(&run.join("games.csv")).unwrap();
    rows.into_iter().map(|r| r.opening_fen).collect()
}

/// Plays the book's positions in order, one game each, from the position itself.
fn play_book(book: &Path, out: &Path, games: usize) -> Vec<String> {
    let n = games.to_string();
    ok(&["selfplay", "--variant", "chess", "--book", s(book), "--book-order", "sequential", "--random-plies", "0"]
        .into_iter()
        .chain(["--games", &n, "--nodes", "50", "--max-plies", "2", "--out", s(out)])
        .collect::<Vec<_>>());
    starts(out)
}

#[test]
fn a_book_is_written_and_read_back_as_the_same_positions() {
    let d = tmp("round-trip");
    let (epd, pgn) = (d.join("book.epd"), d.join("book.pgn"));
    let args = ["book", "--variant", "chess", "--plies", "6", "--games", "12", "--nodes", "300", "--within", "80"];
    let o = ok(&args.iter().copied().chain(["--threads", "2", "--out", s(&epd), "--pgn", s(&pgn)]).collect::<Vec<_>>());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("12 positions within ±80 cp"));
    // The same book on one thread: the book does not depend on the thread count.
    let one = d.join("one.epd");
    ok(&args.iter().copied().chain(["--threads", "1", "--out", s(&one)]).collect::<Vec<_>>());
    assert_eq!(std::fs::read(&epd).unwrap(), std::fs::read(&one).unwrap());

    let chess = Variant::builtin("chess");
    let text = std::fs::read_to_string(&epd).unwrap();
    let mut fens = Vec::new();
    for line in text.lines() {
        // Four FEN fields, then hmvc, fmvn, ce (within the bound) and c0 (the line in SAN).
        let (fields, ops) = line.split_once(" hmvc ").unwrap();
        let ce: i32 = ops.split("; ce ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap();
        assert!(ce.abs() <= 80, "{line}");
        let (half, rest) = ops.split_once("; fmvn ").unwrap();
        let full = rest.split(';').next().unwrap();
        let fen = format!("{fields} {half} {full}");
        // Six random plies from the setup: White to move at move 4.
        assert_eq!(Position::from_fen(&chess, &fen).unwrap().to_fen(), fen);
        assert!(fen.ends_with(" w KQkq - 0 4") || fen.contains(" w ") && fen.ends_with(" 4"), "{fen}");
        fens.push(fen);
    }
    assert_eq!(fens.len(), 12);
    let distinct: std::collections::BTreeSet<&String> = fens.iter().collect();
    assert_eq!(distinct.len(), 12, "distinct positions");
    // Read back as EPD and as PGN (the games' end positions): the same positions, in order.
    assert_eq!(play_book(&epd, &d.join("from-epd"), 12), fens);
    assert_eq!(play_book(&pgn, &d.join("from-pgn"), 12), fens);
}

#[test]
fn fen_epd_and_pgn_books_are_read_and_bad_lines_named() {
    let d = tmp("formats");
    let book = d.join("mixed.epd");
    std::fs::write(
        &book,
        "# a FEN without counters, a FEN with them, an EPD with operations\n\
         4k3/pppp4/8/8/8/8/PPPP4/R3K3 w Q -\n\
         4k3/pppp4/8/8/8/8/PPPP4/4K2R b K - 3 40\n\
         4k3/pppp4/8/8/8/8/PPPP4/2KR4 w - - hmvc 7; fmvn 12; bm Re7; id \"x\";\n",
    )
    .unwrap();
    assert_eq!(
        play_book(&book, &d.join("run"), 3),
        [
            "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w Q - 0 1",
            "4k3/pppp4/8/8/8/8/PPPP4/4K2R b K - 3 40",
            "4k3/pppp4/8/8/8/8/PPPP4/2KR4 w - - 7 12"
        ]
    );
    let pgn = d.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n[Variant \"chess\"]\n\n1. e4 {a comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 *\n\n\
         [Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. O-O-O Kf7 1/2-1/2\n",
    )
    .unwrap();
    assert_eq!(
        play_book(&pgn, &d.join("pgn"), 2),
        ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "8/5k2/8/8/8/8/8/2KR4 w - - 2 2"]
    );

    // A bad line is named by file and number.
    let cases = [
        ("bad.epd", "4k3/8/8/8/8/8/8/4K3 w - -\n\n4k3/8/8/8/8/8/8/4K3 x - -\n", 3),
        ("bad.pgn", "[Event \"a\"]\n\n1. e4 e5\n2. Ke3 *\n", 4),
        ("other.pgn", "[Event \"a\"]\n[Variant \"spartan\"]\n\n1. e4 *\n", 2),
        ("over.fen", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1\n", 1),
    ];
    for (name, text, line) in cases {
        let path = d.join(name);
        std::fs::write(&path, text).unwrap();
        let o =
            hoplite(&["selfplay", "--variant", "chess", "--book", s(&path), "--games", "1", "--out", s(&d.join("x"))]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(err.contains(&format!("{}:{line}", path.display())), "{name}: {err}");
    }
}

/// A book position whose side to move is in check has no army swap (its mirror with the same
/// side to move would leave the other side in check): the swapped configuration plays the
/// book's next position there, the others play it as it is.
#[test]
fn a_checked_book_position_is_replaced_in_the_swapped_configuration() {
    let d = tmp("swap-check");
    let check = "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2";
    let level = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let book = d.join("book.fen");
    std::fs::write(&book, format!("{check}\n{level}\n")).unwrap();
    let config = d.join("swap.toml");
    let text =
        "variant = \"chess\"\n[[configs]]\nname = \"as is\"\n[[configs]]\nname = \"swapped\"\nswap_armies = true\n";
    std::fs::write(&config, text).unwrap();
    let out = d.join("run");
    ok(&["balance", s(&config), "--book", s(&book), "--book-order", "sequential", "--random-plies", "0"]
        .into_iter()
        .chain(["--games", "2", "--nodes", "50", "--max-plies", "2", "--out", s(&out)])
        .collect::<Vec<_>>());
    let board = |fen: &str| fen.split(' ').next().unwrap().to_string();
    let boards: Vec<String> = starts(&out).iter().map(|f| board(f)).collect();
    // Games 0 and 1 as they are; games 2 and 3 swapped: the level position (its own mirror).
    assert_eq!(boards, [board(check), board(level), board(level), board(level)]);
}
