//! `hoplite values` end to end: a small run of pawn and knight odds writes values.csv (the
//! pawn at 1.00, the knight with an interval and its Texel value beside it), resumes, and
//! reports.

use hoplite_formats::{csvfile, ValueRow};
use std::process::Command;

#[test]
fn a_small_values_run_writes_values_and_reports_them() {
    let d = std::env::temp_dir().join(format!("hoplite-values-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
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
