//! `hoplite values` end to end: a small run of pawn and knight odds writes values.csv (the
//! pawn at 1.00, the knight with an interval and its Texel value beside it), resumes, and
//! reports.

use hoplite_formats::{csvfile, ValueRow};
use std::process::Command;

mod common;

#[test]
fn a_small_values_run_writes_values_and_reports_them() {
    let d = common::tmp("run");
    let out = d.display().to_string();
    let args = ["values", "--variant", "chess", "--imbalances", "p:,pp:,n:", "--games", "6", "--nodes", "100"];
    let run = |more: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_hoplite"))
            .args(args.iter().chain(&["--max-plies", "60", "--out", &out]).chain(more))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let stdout = run(&[]);
    assert!(stdout.contains("Knight"), "{stdout}");
    let rows: Vec<ValueRow> = csvfile::read(&d.join("values.csv")).unwrap();
    let letters: Vec<&str> = rows.iter().map(|r| r.letter.as_str()).collect();
    assert_eq!(letters, ["p", "n"]);
    assert_eq!((rows[0].pawns.0, rows[0].games), (1.0, 24), "both pawn imbalances, both colours");
    assert_eq!((rows[1].games, rows[1].texel.map(|t| t.0)), (12, Some(2.83)));
    assert!(rows[1].ci95_low.0 <= rows[1].pawns.0 && rows[1].pawns.0 <= rows[1].ci95_high.0);
    // Six configurations of six games: the imbalances and their colour mirrors.
    let summary = std::fs::read_to_string(d.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 7);
    assert!(summary.contains("\nn: swapped,6,"), "{summary}");
    // Again with --resume: nothing left to play, the same values.
    let before = std::fs::read(d.join("values.csv")).unwrap();
    run(&["--resume"]);
    assert_eq!(std::fs::read(d.join("values.csv")).unwrap(), before);
    let o = Command::new(env!("CARGO_BIN_EXE_hoplite")).args(["report", &out]).output().unwrap();
    assert!(o.status.success());
    let html = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(html.contains("<h2>Piece values by play-testing</h2>") && html.contains("<td>Knight (n)</td>"));
    // A run directory is not overwritten without --resume.
    let o = Command::new(env!("CARGO_BIN_EXE_hoplite")).args(args.iter().chain(&["--out", &out])).output().unwrap();
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--resume"));
}

/// `--shuffle`: each index starts from one shuffle of the back ranks, the same in every
/// imbalance (with its hole) and mirrored in the swapped games; indices differ.
#[test]
fn shuffled_starts_are_shared_by_the_imbalances_and_mirrored() {
    let d = common::tmp("shuffle");
    let o = Command::new(env!("CARGO_BIN_EXE_hoplite"))
        .args(["values", "--variant", "chess", "--imbalances", "p:,n:", "--games", "4", "--nodes", "50"])
        .args(["--random-plies", "0", "--max-plies", "4", "--shuffle", "--out", d.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(d.join("games.csv")).unwrap();
    // (config, opening FEN's board) in game order: four games of each configuration.
    let games: Vec<(String, String)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2].to_string(), f[6].split(' ').next().unwrap().to_string())
        })
        .collect();
    let rank = |board: &str, r: usize| board.split('/').nth(r).unwrap().to_string();
    let of = |config: &str| -> Vec<String> { games.iter().filter(|g| g.0 == config).map(|g| g.1.clone()).collect() };
    let (p, p_swapped, n, n_swapped) = (of("p:"), of("p: swapped"), of("n:"), of("n: swapped"));
    assert_eq!(p.len(), 4);
    for i in 0..4 {
        // Black's back rank is the same in both imbalances (only White gave material) and is
        // White's in the swapped games, upper-cased.
        assert_eq!(rank(&p[i], 0), rank(&n[i], 0));
        assert_eq!(rank(&p[i], 0).to_uppercase(), rank(&p_swapped[i], 7));
        assert_eq!(rank(&n[i], 7).to_lowercase(), rank(&n_swapped[i], 0));
        assert_eq!(rank(&n[i], 7).matches('N').count(), 1, "{}", n[i]);
    }
    assert!(p.iter().any(|b| rank(b, 0) != "rnbqkbnr"), "{p:?}");
    assert!(p.iter().skip(1).any(|b| *b != p[0]), "every index its own shuffle: {p:?}");
}
