//! `hoplite balance`: rule configurations of one variant with the same seeds.

use super::progress::Display;
use super::run_args::{finish, BudgetArgs, EngineArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_selfplay::request::balance::BalanceRequest;
use hoplite_selfplay::request::Event;
use hoplite_selfplay::stats::control::CONTROL_SCORE;
use hoplite_selfplay::summary_table;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct BalanceArgs {
    /// Balance experiment (TOML): base variant, engine settings and [[configs]] overrides.
    config: PathBuf,
    /// Who plays both sides (hoplite, random, or engines of engines.toml); a comma list plays
    /// every configuration with each. Default: the file's `players`, else hoplite.
    #[arg(long, value_delimiter = ',')]
    player: Vec<String>,
    /// The budget per move, or a ladder (overrides the file's nodes and depth).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Also play the chess control, whose White score is known, at every budget: the report
    /// marks the verdicts where it reads otherwise.
    #[arg(long)]
    control: bool,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// What a balance run (or a values run, `label`) shows as it goes: progress, and each run's
/// summary when it ends.
pub(crate) fn shown(label: &str) -> impl FnMut(Event) + '_ {
    let mut display = Display::new(label);
    move |e| match e {
        Event::Progress(p) => display.update(p),
        Event::Finished(r, out) => {
            out!("{}", summary_table(&r.tallies));
            finish(out, r, &display);
            display = Display::new(label);
        }
        Event::Round { round, games, widths } => {
            let widths: Vec<String> =
                widths.iter().map(|(letter, now, want)| format!("{letter} ±{now:.2} (≤ {want})")).collect();
            eprintln!("round {round}: {games} games in all; {}", widths.join(", "));
        }
        Event::Picks { round, picks } => eprintln!("round {round}: {}", picks.join(", ")),
    }
}

pub fn run(a: BalanceArgs) -> CmdResult {
    let request = BalanceRequest {
        config: a.config,
        players: a.player,
        budget: a.budget.lists(),
        control: a.control,
        files: a.engine.files(),
        run: a.run.request(),
    };
    let done = request.run(shown("balance"))?;
    for c in &done.suspect {
        eprintln!(
            "warning: the control reads {:.3} [{:.3}, {:.3}] ({}): verdicts at that budget are suspect \
             (White's known score is {CONTROL_SCORE}; docs/balance.md)",
            c.score, c.low, c.high, c.label
        );
    }
    Ok(ExitCode::SUCCESS)
}
