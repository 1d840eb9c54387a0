//! `hoplite label`: positions.csv rows relabelled with a player's evaluation, for the tuner.

use super::players::Registry;
use super::selfplay::BudgetArgs;
use super::{load_variant, CmdResult};
use clap::Args;
use hoplite_core::Position;
use hoplite_formats::csvfile::{header, Appender, Rows};
use hoplite_formats::{FormatError, PositionRow};
use hoplite_selfplay::player::scoring::label;
use hoplite_selfplay::EngineFiles;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct LabelArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long)]
    variant: String,
    /// positions.csv files (from selfplay or match runs).
    #[arg(long, num_args = 1.., required = true)]
    positions: Vec<PathBuf>,
    /// Who scores the positions: an engine of engines.toml that reports scores, or hoplite.
    #[arg(long)]
    player: String,
    /// The scoring search's budget (default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
    /// The label's share that is the player's win probability; the rest is the game's result.
    #[arg(long, default_value_t = 1.0)]
    blend: f64,
    /// The positions.csv to write.
    #[arg(long)]
    out: PathBuf,
    /// Threads scoring positions (default: all cores); the labels do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Outside engines by name (default ./engines.toml, else the built-in configs/engines.toml).
    #[arg(long)]
    engines: Option<PathBuf>,
}

/// Rows scored at once (and written before the next are read).
const BATCH: usize = 4096;

pub fn run(a: LabelArgs) -> CmdResult {
    if !(0.0..=1.0).contains(&a.blend) {
        return Err(format!("--blend {}: a share from 0 to 1", a.blend).into());
    }
    let variant = load_variant(&a.variant)?;
    let registry = Registry::load(a.engines.as_deref())?;
    let player = registry.player(&a.player, &a.player, a.budget.budget()?, EngineFiles::default(), 16)?;
    player.check(&variant)?;
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let file = std::fs::File::create(&a.out).map_err(|e| FormatError::io(&a.out, "write", e))?;
    let mut out = Appender::<_, PositionRow>::new(std::io::BufWriter::new(file), &a.out);
    out.header()?;
    let (mut done, mut kept) = (0u64, 0usize);
    for path in &a.positions {
        let mut rows = Rows::<PositionRow>::open(path)?;
        rows.require(header::<PositionRow>())?;
        loop {
            let mut batch = Vec::with_capacity(BATCH);
            let mut positions = Vec::with_capacity(BATCH);
            for (line, row) in rows.by_ref().take(BATCH) {
                let row = row?;
                let pos = Position::from_fen(&variant, &row.fen)
                    .map_err(|e| format!("{}:{line}: fen: {e}", path.display()))?;
                batch.push(row);
                positions.push(pos);
            }
            if batch.is_empty() {
                break;
            }
            let (labelled, no_move) = label(&variant, &player, &batch, &positions, a.blend, threads)?;
            for row in labelled {
                out.push(&row)?;
            }
            kept += no_move;
            done += batch.len() as u64;
            eprint!("\r{done} positions labelled");
        }
    }
    out.flush()?;
    eprintln!();
    outln!("{done} positions labelled by {} in {}", a.player, a.out.display());
    if kept > 0 {
        outln!("{kept} of them keep their game's result: {} has no move there by its rules", a.player);
    }
    Ok(ExitCode::SUCCESS)
}
