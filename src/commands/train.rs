//! `hoplite train`: a network for a variant from its own games, in rounds of data, training
//! and a gauntlet against the linear evaluation.

use super::progress::Display;
use super::CmdResult;
use clap::Args;
use hoplite_tuner::network::rounds::{Event, TrainRequest};
use hoplite_tuner::{Progress, TrainConfig};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct TrainArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    /// Output directory [default: runs/train-VARIANT].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rounds of data, training and gauntlet; each later round's data is played by the last
    /// round's network [default: 1].
    #[arg(long)]
    rounds: Option<usize>,
    /// Self-play games of training data a round [default: 20000].
    #[arg(long)]
    games: Option<u64>,
    /// The data's nodes a move [default: 1000].
    #[arg(long)]
    nodes: Option<u64>,
    /// Gauntlet games a round against the linear evaluation (and the last network) [default: 200].
    #[arg(long)]
    gauntlet_games: Option<u64>,
    /// The gauntlet's nodes a move [default: 1000].
    #[arg(long)]
    gauntlet_nodes: Option<u64>,
    /// Worker threads for games and training (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the first round's games (a round's is one more than the last's) and of training.
    #[arg(long)]
    seed: Option<u64>,
    /// Continue an interrupted training in --out (same arguments).
    #[arg(long)]
    resume: bool,
    /// Round 1's data from these positions files (positions.bin, or datagen run directories,
    /// such as merged shards) instead of self-play; later rounds play their own.
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Hidden units per perspective [default: 128].
    #[arg(long)]
    hidden: Option<usize>,
    /// Epochs of training a round [default: 20].
    #[arg(long)]
    epochs: Option<usize>,
    /// The search score's weight in the target, the game's result having the rest [default: 1].
    #[arg(long)]
    lambda: Option<f32>,
    /// Positions an optimiser step [default: 4096; fewer for small data, so that it takes
    /// enough steps].
    #[arg(long)]
    batch: Option<usize>,
    /// The starting learning rate [default: 0.001].
    #[arg(long)]
    lr: Option<f32>,
}

pub fn run(a: TrainArgs) -> CmdResult {
    let defaults = TrainConfig::default();
    let config = TrainConfig {
        hidden: a.hidden.unwrap_or(defaults.hidden),
        epochs: a.epochs.unwrap_or(defaults.epochs),
        lambda: a.lambda.unwrap_or(defaults.lambda),
        batch: a.batch.unwrap_or(defaults.batch),
        lr: a.lr.unwrap_or(defaults.lr),
        seed: a.seed.unwrap_or(defaults.seed),
        threads: a.threads.unwrap_or(defaults.threads),
        ..defaults
    };
    let request = TrainRequest {
        variant: a.variant,
        out: a.out,
        rounds: a.rounds,
        games: a.games,
        nodes: a.nodes,
        gauntlet_games: a.gauntlet_games,
        gauntlet_nodes: a.gauntlet_nodes,
        threads: a.threads,
        seed: a.seed,
        resume: a.resume,
        data: a.data,
        config,
    };
    let out = request.out();
    let mut display = Display::new(request.variant());
    let rows = request.run(|e| match e {
        Event::Stage { round, stage } => {
            display.finish();
            display = Display::new(&format!("round {round}: {stage}"));
        }
        Event::Games(p) => display.update(p),
        Event::Training(Progress::Epoch(row)) => eprintln!(
            "epoch {}: train loss {:.6}, validation loss {}, {:.1} s",
            row.epoch,
            row.train_loss,
            row.validation_loss.map_or("-".into(), |v| format!("{v:.6}")),
            row.seconds
        ),
        Event::Training(_) => {}
        Event::Round(r) => {
            display.finish();
            outln!(
                "round {}: {} positions, validation loss {}, Elo against the linear evaluation {:+.1} ± {:.1}{}",
                r.round,
                r.positions,
                r.valid_loss.map_or("-".into(), |v| format!("{:.6}", v.0)),
                r.elo_linear.0,
                r.elo_linear_error.0,
                match (r.elo_previous, r.elo_previous_error) {
                    (Some(e), Some(err)) => format!(", against round {}'s {:+.1} ± {:.1}", r.round - 1, e.0, err.0),
                    _ => String::new(),
                }
            );
        }
    })?;
    eprintln!("{} rounds; the network: {}", rows.len(), out.join(hoplite_tuner::network::NETWORK).display());
    Ok(ExitCode::SUCCESS)
}
