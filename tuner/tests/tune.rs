//! The tuner end to end on small inputs: it writes weights the engine loads, reports malformed
//! rows with file and line, and refuses empty or all-draw input clearly.

use hoplite_core::Variant;
use hoplite_search::Weights;
use hoplite_tuner::{tune, Start, TuneOptions};
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hoplite-tuner-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const HEADER: &str = "game_id,ply,fen,result\n";
// White is a rook up / Black is a rook up, in quiet positions.
const WHITE_UP: &str = "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1";
const BLACK_UP: &str = "r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";

fn rows(n: usize) -> String {
    let mut s = String::from(HEADER);
    for i in 0..n {
        // The side a rook up wins four games in five.
        let white_up = i % 2 == 0;
        let fen = if white_up { WHITE_UP } else { BLACK_UP };
        let won = i % 10 < 8;
        let r = match (white_up, won) {
            (true, true) | (false, false) => "1",
            _ => "0",
        };
        s += &format!("{i},10,{fen},{r}\n");
    }
    s
}

#[test]
fn a_rook_is_worth_what_the_results_say() {
    let d = dir("rook");
    let file = d.join("positions.csv");
    std::fs::write(&file, rows(4000)).unwrap();
    let v = Variant::builtin("chess");
    let o = TuneOptions { start: Start::Equal, max_epochs: 400, patience: 50, batch: 512, ..Default::default() };
    let r = tune(&v, &[file], &o, |_| {}, |_, _, _| {}).unwrap();
    // P(win) = 0.8 = 1 / (1 + 10^(-K·E/400)) for the evaluation E of the rook-up position:
    // K·E = 400·log10(4) ≈ 240.8.
    let pos = hoplite_core::Position::from_fen(&v, WHITE_UP).unwrap();
    let e = hoplite_search::evaluate(&pos, &r.weights) as f64;
    assert!((r.k * e - 240.8).abs() < 12.0, "K = {}, E = {e}", r.k);
    assert!(r.weights.get(0, v.piece_index('r').unwrap()) > 50);
    let out = d.join("w.toml");
    let (loss, values) = hoplite_tuner::tune::write(&v, &r, &out).unwrap();
    let back = Weights::load(&v, &out).unwrap();
    assert_eq!(back, r.weights);
    assert!(std::fs::read_to_string(loss).unwrap().starts_with("epoch,train_loss,valid_loss"));
    assert!(std::fs::read_to_string(values).unwrap().contains("material,r,Rook,"));
}

#[test]
fn malformed_rows_are_reported_with_file_and_line() {
    let d = dir("bad");
    let file = d.join("positions.csv");
    let mut s = rows(100);
    s += "100,3,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKXNR w KQkq - 0 1,1\n";
    s += &format!("101,3,{WHITE_UP},2\n");
    s += "102,3\n";
    std::fs::write(&file, s).unwrap();
    let v = Variant::builtin("chess");
    let r = tune(&v, std::slice::from_ref(&file), &TuneOptions::default(), |_| {}, |_, _, _| {}).unwrap();
    assert_eq!(r.loaded.skipped.len(), 3);
    let name = file.display().to_string();
    assert!(r.loaded.skipped[0].starts_with(&format!("{name}:102:")) && r.loaded.skipped[0].contains("'X'"));
    assert!(r.loaded.skipped[1].starts_with(&format!("{name}:103:")) && r.loaded.skipped[1].contains("result '2'"));
    assert!(r.loaded.skipped[2].starts_with(&format!("{name}:104:")));
    let strict = TuneOptions { strict: true, ..Default::default() };
    let e = tune(&v, std::slice::from_ref(&file), &strict, |_| {}, |_, _, _| {}).err().unwrap();
    assert!(e.starts_with(&format!("{name}:102:")), "{e}");
}

#[test]
fn empty_and_all_draw_inputs_get_a_clear_message() {
    let d = dir("empty");
    let v = Variant::builtin("chess");
    let empty = d.join("empty.csv");
    std::fs::write(&empty, HEADER).unwrap();
    let e = tune(&v, &[empty], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(e.contains("no rows"), "{e}");
    let draws = d.join("draws.csv");
    std::fs::write(&draws, format!("{HEADER}1,5,{WHITE_UP},0.5\n2,5,{BLACK_UP},0.5\n")).unwrap();
    let e = tune(&v, &[draws], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(e.contains("drawn games"), "{e}");
    let e = tune(&v, &[d.join("missing.csv")], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(e.contains("missing.csv"), "{e}");
}
