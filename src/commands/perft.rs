//! `hoplite perft`.

use super::{load_variant, CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_core::Position;
use hoplite_core::{divide, parse_suite, perft};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Start from this FEN instead of the variant's setup.
    #[arg(long)]
    fen: Option<String>,
    /// Moves (UCI) to play from the start position first.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: Option<usize>,
    /// One line per root move, `MOVE: COUNT`.
    #[arg(long)]
    divide: bool,
    /// Check every line of a suite file (`FEN ;D1 n ;D2 n ...`).
    #[arg(long)]
    suite: Option<String>,
    /// With --suite: skip entries whose count exceeds this.
    #[arg(long, default_value_t = 200_000_000)]
    max_nodes: u64,
}

pub fn run(a: PerftArgs) -> CmdResult {
    let variant = load_variant(&a.variant)?;
    if let Some(path) = &a.suite {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read suite '{path}': {e}"))?;
        let lines = parse_suite(path, &text)?;
        let (mut failed, mut checks, mut total, start) = (0, 0, 0u64, Instant::now());
        for l in &lines {
            let mut pos = Position::from_fen(&variant, &l.fen).map_err(|e| format!("{path}:{}: {e}", l.line))?;
            for &(depth, expected) in &l.counts {
                if expected > a.max_nodes || a.depth.is_some_and(|d| depth > d) {
                    continue;
                }
                let got = perft(&mut pos, depth);
                total += got;
                let ok = got == expected;
                failed += usize::from(!ok);
                checks += 1;
                outln!(
                    "{} line {} D{depth}: {got} {}",
                    if ok { "ok  " } else { "FAIL" },
                    l.line,
                    if ok { String::new() } else { format!("(expected {expected})") }
                );
            }
        }
        report_speed(total, start);
        outln!("{failed} of {checks} checks failed");
        outln!("Nodes searched: {total}");
        return Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    let depth = a.depth.ok_or("perft needs --depth N (or --suite FILE)")?;
    let mut pos = match &a.fen {
        Some(f) => Position::from_fen(&variant, f).map_err(|e| e.to_string())?,
        None => Position::startpos(&variant),
    };
    for m in &a.moves {
        let mv = pos.parse_uci(m).map_err(|e| format!("--moves: {e}"))?;
        pos.make(mv);
    }
    let start = Instant::now();
    let nodes = if a.divide {
        let rows = divide(&mut pos, depth);
        for (m, n) in &rows {
            outln!("{m}: {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft(&mut pos, depth)
    };
    report_speed(nodes, start);
    outln!("Nodes searched: {nodes}");
    Ok(ExitCode::SUCCESS)
}

fn report_speed(nodes: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    eprintln!("time {:.3} s, {:.2} Mnodes/s", secs, nodes as f64 / secs.max(1e-9) / 1e6);
}
