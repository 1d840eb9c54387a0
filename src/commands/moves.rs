//! `hoplite moves`: the legal moves of positions, for scripts (such as the comparison with
//! Fairy-Stockfish in scripts/fsf_compare.py). One FEN a line in, one line out: the legal
//! moves in UCI notation, sorted, separated by spaces (an empty line where the game is over),
//! or `error: ...` for a FEN that cannot be played. Each line is flushed as it is written.
//! `--start` prints the variant's start position instead, so that a script need not read the
//! variant file (its setup may come from the variant it extends).

use super::{load_variant, CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_core::Position;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Args)]
pub struct MovesArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// One position instead of the FEN lines on standard input.
    #[arg(long)]
    fen: Option<String>,
    /// Print the variant's start position (FEN) and stop.
    #[arg(long, conflicts_with = "fen")]
    start: bool,
}

/// The legal moves of `fen`, sorted and joined by spaces.
fn line(variant: &std::sync::Arc<hoplite_core::Variant>, fen: &str) -> String {
    match Position::from_fen(variant, fen) {
        Ok(pos) => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut uci: Vec<String> = moves.iter().map(|&m| pos.move_to_uci(m)).collect();
            uci.sort();
            uci.join(" ")
        }
        Err(e) => format!("error: {e}"),
    }
}

pub fn run(a: MovesArgs) -> CmdResult {
    let variant = load_variant(&a.variant)?;
    if a.start {
        outln!("{}", Position::startpos(&variant).to_fen());
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(fen) = &a.fen {
        outln!("{}", line(&variant, fen));
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = std::io::stdout();
    for fen in std::io::stdin().lock().lines() {
        let fen = fen?;
        let mut out = stdout.lock();
        writeln!(out, "{}", line(&variant, fen.trim()))?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
