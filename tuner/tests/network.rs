//! The network trainer end to end on positions of random chess playouts labelled with their
//! material balance: it learns material, its bytes depend on the seed alone (not the
//! threads), and a training stopped and resumed ends as one never stopped.

use hoplite_core::seed::mix64;
use hoplite_core::{GameResult, Position, Variant};
use hoplite_formats::packed::PackedPosition;
use hoplite_search::eval::network::{Layout, Network};
use hoplite_tuner::network::{CHECKPOINT, CURVE, NETWORK};
use hoplite_tuner::{train, Progress, TrainConfig, TuneError};
use std::ops::ControlFlow;
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("train-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `n` positions of random chess playouts, each scored with its material balance from White's
/// view (pawn 100, knight and bishop 300, rook 500, queen 900), its result the balance's sign.
fn material_positions(n: usize) -> Vec<PackedPosition> {
    let v = Variant::builtin("chess");
    let value = |letter: char| match letter {
        'p' => 100,
        'n' | 'b' => 300,
        'r' => 500,
        'q' => 900,
        _ => 0,
    };
    let mut out = Vec::with_capacity(n);
    let (mut moves, mut game) = (Vec::new(), 0u64);
    while out.len() < n {
        let mut pos = Position::startpos(&v);
        for ply in 0..150u64 {
            let balance: i32 = pos
                .occupied()
                .into_iter()
                .map(|sq| {
                    let (c, t) = pos.piece_at(sq).unwrap();
                    let x = value(v.pieces[t.index()].letter);
                    if c == hoplite_core::Colour::White {
                        x
                    } else {
                        -x
                    }
                })
                .sum();
            let result = match balance.signum() {
                1 => GameResult::WhiteWins,
                0 => GameResult::Draw,
                _ => GameResult::BlackWins,
            };
            // Every fourth position: more games for the same number, less alike.
            if ply % 4 == game % 4 {
                out.push(PackedPosition::new(&pos, balance, result));
            }
            pos.legal_moves(&mut moves);
            if moves.is_empty() || out.len() == n {
                break;
            }
            pos.make(moves[(mix64(game << 16 | ply) % moves.len() as u64) as usize]);
        }
        game += 1;
    }
    out
}

fn small(hidden: usize, epochs: usize, batch: usize, threads: usize) -> TrainConfig {
    TrainConfig { hidden, epochs, batch, lr: 0.01, validation: 0.1, threads, ..TrainConfig::default() }
}

fn go(name: &str, data: &[PackedPosition], config: &TrainConfig) -> (PathBuf, hoplite_tuner::TrainReport) {
    let layout = Layout::of(&Variant::builtin("chess"));
    let out = dir(name);
    let report = train(&layout, data, config, &out, |_| ControlFlow::Continue(())).unwrap();
    (out, report)
}

/// After 12 epochs over 40,000 positions the training loss has fallen to under a fiftieth of
/// the first epoch's (0.048 to 0.0005) and the validation loss to under a third (0.008 to
/// 0.002), and the quantised network scores a queen up as more than 700 cp for the side that
/// has it, whichever is to move (the target's 1,026 cp: 0.75·σ(900/400) + 0.25·1 turned back
/// into centipawns; it gives 1,336), and the start within 50 cp of even.
#[test]
fn the_trainer_learns_material() {
    let data = material_positions(40_000);
    let (out, report) = go("material", &data, &small(32, 12, 1024, 2));
    let (first, last) = (&report.curve[0], report.curve.last().unwrap());
    assert!(last.train_loss < first.train_loss / 50.0, "{:?}", report.curve);
    assert!(last.validation_loss.unwrap() < first.validation_loss.unwrap() / 3.0, "{:?}", report.curve);
    let v = Variant::builtin("chess");
    let net = Network::load(&out.join(NETWORK), &Layout::of(&v), "chess").unwrap();
    let eval = |fen: &str| net.evaluate(&Position::from_fen(&v, fen).unwrap());
    let white_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let white_up_black_moves = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    let black_up = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1");
    let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(white_up > 700 && black_up > 700, "{white_up} {black_up}");
    assert!(white_up_black_moves < -700, "{white_up_black_moves}");
    assert!(start.abs() < 50, "{start}");
    let csv = std::fs::read_to_string(out.join(CURVE)).unwrap();
    assert!(csv.starts_with("epoch,train_loss,validation_loss,seconds\n1,"), "{csv}");
    assert_eq!(csv.lines().count(), 13);
}

/// The same seed gives the same network bytes on one thread and on two.
#[test]
fn the_same_seed_gives_the_same_bytes_on_any_threads() {
    let data = material_positions(6_000);
    let (a, _) = go("seed-a", &data, &small(16, 2, 700, 2));
    let (b, _) = go("seed-b", &data, &small(16, 2, 700, 1));
    let (c, _) = go("seed-c", &data, &TrainConfig { seed: 2, ..small(16, 2, 700, 2) });
    let bytes = |d: &PathBuf| std::fs::read(d.join(NETWORK)).unwrap();
    assert_eq!(bytes(&a), bytes(&b));
    assert_ne!(bytes(&a), bytes(&c));
}

/// A training stopped in its third epoch of four and started again with the same arguments
/// resumes after the second and writes the bytes of a training never stopped; a checkpoint
/// made with other settings is refused.
#[test]
fn a_stopped_training_resumes_to_the_same_bytes() {
    let data = material_positions(6_000);
    let config = small(16, 4, 700, 2);
    let (whole, report) = go("resume-whole", &data, &config);
    let layout = Layout::of(&Variant::builtin("chess"));
    let out = dir("resume-parts");
    let stop = |p: Progress| match p {
        Progress::Batch { epoch: 3, batch: 2, .. } => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    };
    let first = train(&layout, &data, &config, &out, stop).unwrap();
    assert_eq!((first.curve.len(), first.network.clone()), (2, None));
    assert!(out.join(CHECKPOINT).exists() && !out.join(NETWORK).exists());
    let mut starts = Vec::new();
    let second = train(&layout, &data, &config, &out, |p| {
        if let Progress::Start { resumed_from, .. } = p {
            starts.push(resumed_from);
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!((starts, second.resumed_from), (vec![2], 2));
    assert_eq!(std::fs::read(whole.join(NETWORK)).unwrap(), std::fs::read(out.join(NETWORK)).unwrap());
    let losses = |r: &hoplite_tuner::TrainReport| {
        r.curve.iter().map(|e| (e.epoch, e.train_loss, e.validation_loss)).collect::<Vec<_>>()
    };
    assert_eq!(losses(&report), losses(&second));
    let other = TrainConfig { lambda: 0.5, ..config };
    let e = train(&layout, &data, &other, &out, |_| ControlFlow::Continue(())).unwrap_err();
    assert!(matches!(e, TuneError::Checkpoint { .. }), "{e}");
    assert!(e.to_string().contains("made with lambda=1, not lambda=0.5"), "{e}");
}
