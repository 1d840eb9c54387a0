//! `hoplite eval`: the static evaluation of positions and the features it weighs, for scripts
//! (such as scripts/fsf_residual.py, which asks what Fairy-Stockfish's evaluation knows that
//! hoplite's features cannot say). One FEN a line in; CSV out: the FEN, the evaluation in
//! centipawns from White's view, the phase (0 with no pieces but pawns and royals, 64 with
//! the start position's), and with `--features` each feature's count, White's minus
//! Black's, named `table:key` as the weights file names its weight (a tapered term's `_end`
//! table weighs the same count, and has no column of its own).

use super::{load_variant, CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_core::Position;
use hoplite_search::eval::linear::Slot;
use hoplite_search::{evaluate, features, Weights};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct EvalArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Weights file (default: the variant's tuned file, or its derived defaults).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Also write every feature's count.
    #[arg(long)]
    features: bool,
}

pub fn run(a: EvalArgs) -> CmdResult {
    let variant = load_variant(&a.variant)?;
    let weights = match &a.weights {
        Some(path) => Weights::load(&variant, path)?,
        None => Weights::for_variant(&variant),
    };
    // The features with a column: every weight but the endgame partners of tapered ones.
    let columns: Vec<usize> = match a.features {
        true => {
            (0..weights.len()).filter(|&j| !matches!(weights.slot(j), Slot::TableEnd(..) | Slot::PstEnd(..))).collect()
        }
        false => Vec::new(),
    };
    // A FEN holds no comma, nor does a weight's name: the fields need no quoting.
    let names = columns.iter().map(|&j| {
        let (table, key) = weights.name(j);
        format!(",{table}:{key}")
    });
    outln!("fen,eval,phase{}", names.collect::<String>());
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        let pos = Position::from_fen(&variant, fen).map_err(|e| format!("standard input, line {}: {e}", n + 1))?;
        let f = features(&pos, &weights);
        let eval = evaluate(&pos, &weights) * pos.side_to_move().sign();
        let values = columns.iter().map(|&j| format!(",{}", f.values[j]));
        outln!("{fen},{eval},{}{}", f.phase, values.collect::<String>());
    }
    Ok(ExitCode::SUCCESS)
}
