//! `hoplite perft` as the README documents it: `MOVE: COUNT` lines with --divide, the last
//! stdout line `Nodes searched: N`, suites that fail loudly, clear errors for bad input.

mod common;
use common::outcome as hoplite;

#[test]
fn divide_and_the_last_line() {
    let (ok, out, _) = hoplite(&["perft", "--variant", "sultan", "--moves", "e2e5", "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    // After the triple step Black has 43 moves (the e.p. captures need a pawn on d5/f5).
    assert_eq!(lines.len(), 44);
    assert!(lines.iter().take(43).all(|l| l.split_once(": ").is_some_and(|(_, n)| n.parse::<u64>().is_ok())));
    let total: u64 = lines[..43].iter().map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(lines[43], format!("Nodes searched: {total}"));
    let (_, plain, _) = hoplite(&["perft", "--variant", "chess", "--depth", "3"]);
    assert_eq!(plain.trim_end(), "Nodes searched: 8902");
}

#[test]
fn a_suite_with_a_wrong_count_fails() {
    let dir = common::tmp_dir("suite");
    let suite = dir.join("s.epd");
    std::fs::write(&suite, "# comment\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n")
        .unwrap();
    let (ok, out, _) = hoplite(&["perft", "--variant", "chess", "--suite", suite.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("FAIL line 2 D2: 400 (expected 401)"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "Nodes searched: 420");
    std::fs::write(&suite, "8/8/8/8/8/8/8/8 w - - 0 1 ;D1 x\n").unwrap();
    let (ok, _, err) = hoplite(&["perft", "--variant", "chess", "--suite", suite.to_str().unwrap()]);
    assert!(!ok && err.contains("s.epd:1"), "{err}");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for (args, want) in [
        (vec!["perft", "--variant", "nosuch", "--depth", "1"], "unknown variant 'nosuch'"),
        (vec!["perft", "--variant", "chess", "--moves", "e2e5", "--depth", "1"], "'e2e5' is not a legal move"),
        (vec!["perft", "--variant", "chess", "--fen", "8/8/8 w - - 0 1", "--depth", "1"], "3 ranks, expected 8"),
        (vec!["perft", "--variant", "/nonexistent/v.toml", "--depth", "1"], "cannot read variant file"),
    ] {
        let (ok, _, err) = hoplite(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// configs/engines/shatranj-fsf.toml plays shatranj's game ends as Fairy-Stockfish does: after
/// `a1a7` bares Black's king, Black still replies (its two king moves), so that depth 2 counts
/// Fairy-Stockfish's 91 (`go perft 2`, docs/engines.md), where the built-in ends the game (89).
#[test]
fn shatranj_with_fairy_stockfish_game_ends_counts_its_perft() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/engines/shatranj-fsf.toml");
    let fen = "4k3/q7/8/8/8/8/8/R3K3 w - - 0 1";
    for (variant, nodes) in [(file, "91"), ("shatranj", "89")] {
        let (ok, out, err) = hoplite(&["perft", "--variant", variant, "--fen", fen, "--depth", "2"]);
        assert!(ok, "{err}");
        assert_eq!(out.lines().last(), Some(format!("Nodes searched: {nodes}").as_str()), "{variant}");
    }
}

#[test]
fn moves_prints_the_start_and_the_legal_moves() {
    // A variant that takes its setup from the one it extends.
    let file = common::tmp("extends.toml");
    std::fs::write(&file, "extends = \"shatranj\"\nname = \"s2\"\n").unwrap();
    let (ok, out, _) = hoplite(&["moves", "--variant", file.to_str().unwrap(), "--start"]);
    assert!(ok);
    assert_eq!(out.trim(), "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1");
    let (ok, out, _) = hoplite(&["moves", "--variant", "shatranj", "--fen", "7k/8/8/8/8/8/P7/K7 w - - 0 1"]);
    assert!(ok);
    assert_eq!(out.trim(), "a1b1 a1b2 a2a3");
}
