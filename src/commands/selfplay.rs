//! `hoplite selfplay` and `merge`.

use super::progress::Display;
use super::run_args::{finish, BudgetArgs, EngineArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_selfplay::request::selfplay::SelfplayRequest;
use hoplite_selfplay::run::merge;
use hoplite_selfplay::summary_table;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SelfplayArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    /// Who plays both sides: hoplite, random, or an engine of engines.toml [default: hoplite].
    #[arg(long)]
    player: Option<String>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run_selfplay(a: SelfplayArgs) -> CmdResult {
    let request = SelfplayRequest {
        variant: a.variant,
        player: a.player,
        budget: a.budget.lists(),
        files: a.engine.files(),
        run: a.run.request(),
    };
    let mut display = Display::new(request.variant());
    let done = request.run(|p| display.update(p))?;
    out!("{}", summary_table(&done.report.tallies));
    finish(&done.out, &done.report, &display);
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard output directories of one run.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where the merged run goes.
    #[arg(long)]
    out: PathBuf,
}

pub fn run_merge(a: MergeArgs) -> CmdResult {
    let merged = merge::merge(&a.dirs, &a.out)?;
    let positions = merged.positions.map(|p| format!(" and {p} training positions")).unwrap_or_default();
    eprintln!("merged {} games{positions} into {}", merged.games, a.out.display());
    Ok(ExitCode::SUCCESS)
}
