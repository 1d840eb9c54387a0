//! Every line of `data/perft/*.epd`, at each depth whose count is small enough for CI.

use hoplite_core::{parse_suite, perft, perft_in};
use hoplite_core::{Position, Variant};

const SUITES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/");
/// Depths with more leaves than this are skipped to keep the test short.
const MAX_NODES: u64 = 2_000_000;

#[test]
fn every_suite_line_matches_up_to_two_million_nodes() {
    let checked = check_suites(SUITES, 7, MAX_NODES, perft);
    assert!(checked > 20, "only {checked} counts checked");
}

/// `perft` takes the narrow (`u64`) path on boards of at most 64 squares; the wide one, which
/// larger boards take, must count the same there (up to smaller counts, for time).
#[test]
fn the_wide_path_counts_the_same_on_small_boards() {
    let checked = check_suites(SUITES, 7, MAX_NODES / 10, perft_in::<u128>)
        + check_suites(&format!("{SUITES}fsf/"), 1, MAX_NODES / 100, perft_in::<u128>);
    assert!(checked > 100, "only {checked} counts checked");
}

/// Fairy-Stockfish's variants shipped as built-ins, against Fairy-Stockfish's own counts
/// (scripts/fsf_perft_suite.py): one suite per file of configs/variants/fsf/.
#[test]
fn fairy_stockfish_builtins_match_its_counts() {
    let shipped = hoplite_core::fsf_builtin_names();
    let checked = check_suites(&format!("{SUITES}fsf/"), shipped.len(), MAX_NODES, perft);
    assert!(checked >= 3 * shipped.len(), "only {checked} counts checked");
}

/// Checks every suite in `dir` (at least `least` of them) by `count`, up to `max_nodes`; returns
/// the counts checked.
fn check_suites(dir: &str, least: usize, max_nodes: u64, count: fn(&mut Position, usize) -> u64) -> usize {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the suites' folder exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    files.sort();
    assert!(files.len() >= least, "one suite per built-in variant");
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let variant = Variant::load(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = std::fs::read_to_string(&path).unwrap();
        let suite = parse_suite(&path.display().to_string(), &text).unwrap();
        assert!(!suite.is_empty(), "{name}: empty suite");
        for line in suite {
            let mut pos =
                Position::from_fen(&variant, &line.fen).unwrap_or_else(|e| panic!("{name}:{}: {e}", line.line));
            let before = pos.to_fen();
            for &(depth, expected) in &line.counts {
                if expected > max_nodes {
                    continue;
                }
                let got = count(&mut pos, depth);
                checked += 1;
                if got != expected {
                    failures
                        .push(format!("{name}:{} D{depth}: expected {expected}, got {got} ({})", line.line, line.fen));
                }
                assert_eq!(pos.to_fen(), before, "perft restores the position");
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    checked
}
