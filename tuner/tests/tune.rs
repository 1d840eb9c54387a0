//! The tuner end to end on small inputs: it writes weights the engine loads, reports malformed
//! rows with file and line, and refuses empty or all-draw input clearly.

use hoplite_core::Variant;
use hoplite_search::Weights;
use hoplite_tuner::{tune, Fit, Start, TuneOptions};
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    // In cargo's scratch folder under target/: nothing is left in the system's temporary folder.
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `positions.csv` in a fresh directory `name`, holding `text`.
fn positions(name: &str, text: &str) -> PathBuf {
    let file = dir(name).join("positions.csv");
    std::fs::write(&file, text).unwrap();
    file
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
    let file = positions("rook", &rows(4000));
    let v = Variant::builtin("chess");
    let o = TuneOptions { start: Start::Equal, max_epochs: 400, patience: 50, batch: 512, ..Default::default() };
    let r = tune(&v, std::slice::from_ref(&file), &o, |_| {}, |_, _, _| {}).unwrap();
    // P(win) = 0.8 = 1 / (1 + 10^(-K·E/400)) for the evaluation E of the rook-up position:
    // K·E = 400·log10(4) ≈ 240.8.
    let pos = hoplite_core::Position::from_fen(&v, WHITE_UP).unwrap();
    let e = hoplite_search::evaluate(&pos, &r.weights) as f64;
    assert!((r.k * e - 240.8).abs() < 12.0, "K = {}, E = {e}", r.k);
    assert!(r.weights.get(hoplite_search::eval::linear::Term::Material, v.piece_type('r').unwrap()) > 50);
    let out = file.with_file_name("w.toml");
    let (loss, values) = hoplite_tuner::tune::write(&v, &r, &out).unwrap();
    let back = Weights::load(&v, &out).unwrap();
    assert_eq!(back, r.weights);
    assert!(std::fs::read_to_string(loss).unwrap().starts_with("epoch,train_loss,valid_loss"));
    assert!(std::fs::read_to_string(values).unwrap().contains("material,r,Rook,"));
}

/// Pawn endings (game phase 0) in mirrored pairs: an advanced passed pawn wins nine games in
/// ten, one on its start square six in ten, which no single scale K can fit with the defaults.
fn endings(n: usize) -> String {
    let kinds = [
        ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1", 9),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "4k3/3p4/8/8/8/8/8/4K3 w - - 0 1", 6),
    ];
    let mut s = String::from(HEADER);
    for i in 0..n {
        let (white_up, black_up, wins) = kinds[i % 2];
        let up_won = (i / 4) % 10 < wins;
        let (fen, white_won) = if (i / 2) % 2 == 0 { (white_up, up_won) } else { (black_up, !up_won) };
        s += &format!("{i},10,{fen},{}\n", if white_won { 1 } else { 0 });
    }
    s
}

#[test]
fn endings_move_only_endgame_weights_and_the_ridge_holds_them() {
    let file = positions("endings", &endings(4000));
    let v = Variant::builtin("chess");
    let start = Weights::defaults(&v);
    let fit = |ridge: f64| {
        let o = TuneOptions { fit: Fit::All, ridge, max_epochs: 400, patience: 50, batch: 512, ..Default::default() };
        tune(&v, std::slice::from_ref(&file), &o, |_| {}, |_, _, _| {}).unwrap()
    };
    let free = fit(0.0);
    let moved = |w: &Weights, j: usize| w.values[j] != start.values[j];
    let tapered: Vec<usize> = (0..start.len()).filter(|&j| start.end(j) != j).collect();
    // No middlegame weight sees a position of phase > 0; endgame ones explain the results.
    assert!(tapered.iter().all(|&j| !moved(&free.weights, j)));
    assert!(tapered.iter().any(|&j| moved(&free.weights, start.end(j))));
    let eval = |fen: &str, w: &Weights| {
        free.k * hoplite_search::evaluate(&hoplite_core::Position::from_fen(&v, fen).unwrap(), w) as f64
    };
    // The fitted win probabilities 1 / (1 + 10^(-K·E/400)) come near 0.9 and 0.6 (the
    // validation split, which early stopping follows, draws its own games).
    let p = |fen: &str| 1.0 / (1.0 + 10f64.powf(-eval(fen, &free.weights) / 400.0));
    let (far, near) = (p("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1"), p("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"));
    assert!((far - 0.9).abs() < 0.05 && (near - 0.6).abs() < 0.05, "P = {far}, {near}");
    // A heavy ridge keeps every positional weight at its start.
    let held = fit(1.0);
    assert!(tapered.iter().all(|&j| !moved(&held.weights, j) && !moved(&held.weights, start.end(j))));
}

/// Rook against bare king, the bare king in the middle or in a corner, each drawn as often as
/// won: results the bare-king terms (which count where the bare king stands) would be bent to.
fn bare_kings(n: usize) -> String {
    let fens = ["8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "7k/8/8/8/8/8/8/R3K3 w - - 0 1"];
    let mut s = String::from(HEADER);
    for i in 0..n {
        let fen = fens[i % 2];
        // In the middle the rook wins, in the corner it draws: the reverse of what mates.
        let r = if i % 2 == 0 { "1" } else { "0.5" };
        s += &format!("{i},10,{fen},{r}\n");
    }
    s
}

#[test]
fn a_fit_leaves_the_bare_king_terms_alone() {
    let file = positions("bare", &bare_kings(2000));
    let v = Variant::builtin("chess");
    let start = Weights::defaults(&v);
    let o = TuneOptions { fit: Fit::All, ridge: 0.0, max_epochs: 200, patience: 50, batch: 512, ..Default::default() };
    let r = tune(&v, std::slice::from_ref(&file), &o, |_| {}, |_, _, _| {}).unwrap();
    for (k, term) in hoplite_search::eval::linear::SIDE.iter().enumerate().filter(|(_, t)| !t.fitted) {
        let j = start.side_index(k);
        assert_eq!(r.weights.values[j], start.values[j], "{} moved", term.name);
        assert!(r.errors[j].is_none(), "{} has a standard error", term.name);
    }
    // The fit did run: the rook's value moved.
    let rook = v.piece_type('r').unwrap();
    assert_ne!(
        r.weights.get(hoplite_search::eval::linear::Term::Material, rook),
        start.get(hoplite_search::eval::linear::Term::Material, rook)
    );
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
    let skipped: Vec<String> = r.loaded.skipped.iter().map(|e| e.to_string()).collect();
    assert!(skipped[0].starts_with(&format!("{name}:102:")) && skipped[0].contains("'X'"), "{}", skipped[0]);
    assert!(skipped[1].starts_with(&format!("{name}:103:")) && skipped[1].contains("result '2'"), "{}", skipped[1]);
    assert!(skipped[2].starts_with(&format!("{name}:104:")), "{}", skipped[2]);
    let strict = TuneOptions { strict: true, ..Default::default() };
    let e = tune(&v, std::slice::from_ref(&file), &strict, |_| {}, |_, _, _| {}).err().unwrap().to_string();
    assert!(e.starts_with(&format!("{name}:102:")), "{e}");
}

#[test]
fn empty_and_all_draw_inputs_get_a_clear_message() {
    let d = dir("empty");
    let v = Variant::builtin("chess");
    let empty = d.join("empty.csv");
    std::fs::write(&empty, HEADER).unwrap();
    let e = tune(&v, &[empty], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(matches!(e, hoplite_tuner::TuneError::NoRows), "{e}");
    let draws = d.join("draws.csv");
    std::fs::write(&draws, format!("{HEADER}1,5,{WHITE_UP},0.5\n2,5,{BLACK_UP},0.5\n")).unwrap();
    let e = tune(&v, &[draws], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(matches!(e, hoplite_tuner::TuneError::AllDrawn { rows: 2 }), "{e}");
    let e = tune(&v, &[d.join("missing.csv")], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap();
    assert!(e.to_string().contains("missing.csv"), "{e}");
    // A file without the positions' columns.
    let games = d.join("games.csv");
    std::fs::write(&games, "game_id,variant,config\n0,chess,default\n").unwrap();
    let e = tune(&v, &[games], &TuneOptions::default(), |_| {}, |_, _, _| {}).err().unwrap().to_string();
    assert!(e.contains("games.csv:1: no 'ply' column"), "{e}");
    for ridge in [-1.0, f64::NAN] {
        let o = TuneOptions { ridge, ..Default::default() };
        let e = tune(&v, &[d.join("draws.csv")], &o, |_| {}, |_, _, _| {}).err().unwrap();
        assert!(e.to_string().contains("ridge must be a number ≥ 0"), "{e}");
    }
}
