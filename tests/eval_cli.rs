//! `hoplite eval`: the evaluation and feature counts of FEN lines, as CSV.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `hoplite eval ARGS` on `input`: whether it succeeded, its stdout and stderr.
fn eval(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoplite"))
        .arg("eval")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run refused before it reads (a bad weights file) may close its input first: the write
    // then meets a broken pipe, and what counts is its exit and its error.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let o = child.wait_with_output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

/// The CSV's rows as (column name, value) pairs.
fn rows(csv: &str) -> Vec<Vec<(String, String)>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines.map(|l| header.iter().map(|h| h.to_string()).zip(l.split(',').map(String::from)).collect()).collect()
}

fn field<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(h, _)| h == name).unwrap_or_else(|| panic!("no column {name}")).1
}

#[test]
fn features_count_from_whites_view_and_the_evaluation_turns_with_the_board() {
    // White: king e1, queen d1, pawns a2 b2; Black: king e8, pawn h7. Then the same position
    // with the colours exchanged and the board turned, Black to move.
    let white_up = "4k3/7p/8/8/8/8/PP6/3QK3 w - - 0 1";
    let turned = "3qk3/pp6/8/8/8/8/7P/4K3 b - - 0 1";
    let (ok, out, err) = eval(&["--variant", "chess", "--features"], &format!("{white_up}\n\n{turned}\n"));
    assert!(ok, "{err}");
    let rows = rows(&out);
    assert_eq!(rows.len(), 2, "the empty line is skipped: {out}");
    let (a, b) = (&rows[0], &rows[1]);
    assert_eq!(field(a, "fen"), white_up);
    // White's queen and a pawn more; the queen on d1 reaches 17 squares (e1 is its own king's),
    // Black has no piece to move but its king and pawn.
    assert_eq!(field(a, "material:q"), "1");
    assert_eq!(field(a, "material:p"), "1");
    assert_eq!(field(a, "mobility:q"), "17");
    assert_eq!(field(b, "material:q"), "-1");
    assert_eq!(field(b, "mobility:q"), "-17");
    let (ea, eb): (i32, i32) = (field(a, "eval").parse().unwrap(), field(b, "eval").parse().unwrap());
    assert!(ea > 800, "a queen and a pawn up: {ea}");
    assert_eq!(eb, -ea, "the evaluation is White's, whoever moves");
    // A queen left of the start position's pieces: the phase is a queen's share of 64.
    let phase: i32 = field(a, "phase").parse().unwrap();
    assert!(0 < phase && phase < 32, "{phase}");
}

#[test]
fn the_start_position_is_level_and_without_features_only_the_evaluation_is_written() {
    let (ok, out, _) =
        eval(&["--variant", "great-shatranj"], "dnegkmhend/pppppppppp/10/10/10/10/PPPPPPPPPP/DNEGKMHEND w - - 0 1\n");
    assert!(ok);
    assert_eq!(out, "fen,eval,phase\ndnegkmhend/pppppppppp/10/10/10/10/PPPPPPPPPP/DNEGKMHEND w - - 0 1,0,64\n");
}

#[test]
fn a_bad_line_is_named_and_nothing_is_lost_before_it() {
    let (ok, out, err) = eval(&["--variant", "chess"], "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nnot a fen\n");
    assert!(!ok);
    assert!(err.contains("standard input, line 2") && err.contains("not a fen"), "{err}");
    assert_eq!(out.lines().count(), 2, "the header and the first position: {out}");
}

#[test]
fn another_weights_file_weighs_the_same_features() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("eval_cli-weights");
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let (light, heavy) = (file("light.toml", "[material]\nq = 1000\n"), file("heavy.toml", "[material]\nq = 5000\n"));
    let fen = "4k3/7p/8/8/8/8/PP6/3QK3 w - - 0 1\n";
    let score = |w: &str| -> i32 {
        let (ok, out, err) = eval(&["--variant", "chess", "--weights", w], fen);
        assert!(ok, "{err}");
        field(&rows(&out)[0], "eval").parse().unwrap()
    };
    // Material is not tapered: White's one queen more moves the evaluation by the difference.
    assert_eq!(score(&heavy) - score(&light), 4000);
    let bad = file("bad.toml", "[material]\nq = \"x\"\n");
    let (ok, _, err) = eval(&["--variant", "chess", "--weights", &bad], fen);
    assert!(!ok && err.contains("bad.toml:2"), "{err}");
}
