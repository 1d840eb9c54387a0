//! `hoplite label`: positions.csv rows relabelled with a player's evaluation, for the tuner.

use super::run_args::BudgetArgs;
use super::CmdResult;
use clap::Args;
use hoplite_search::EvalKind;
use hoplite_selfplay::request::label::LabelRequest;
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
    /// hoplite's evaluation: linear (its weights), or network (the variant's shipped one).
    /// Default: the network where the variant has one.
    #[arg(long)]
    eval: Option<EvalKind>,
    /// The scoring search's budget (default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
    /// The label's share that is the player's win probability; the rest is the game's result
    /// [default: 1].
    #[arg(long)]
    blend: Option<f64>,
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

pub fn run(a: LabelArgs) -> CmdResult {
    let request = LabelRequest {
        variant: a.variant,
        positions: a.positions,
        player: a.player,
        eval: a.eval,
        budget: a.budget.lists(),
        blend: a.blend,
        out: a.out,
        threads: a.threads,
        engines: a.engines,
    };
    let (done, kept) = request.run(|done| eprint!("\r{done} positions labelled"))?;
    eprintln!();
    outln!("{done} positions labelled by {} in {}", request.player, request.out.display());
    if kept > 0 {
        outln!("{kept} of them keep their game's result: {} has no move there by its rules", request.player);
    }
    Ok(ExitCode::SUCCESS)
}
