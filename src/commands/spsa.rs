//! `hoplite spsa`: tuning the search parameters and evaluation weights by games.

use super::CmdResult;
use clap::Args;
use hoplite_tuner::spsa::{Spsa, SpsaRequest, PATH_FILE};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SpsaArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    /// Games in all, in colour-swapped pairs of a perturbed engine against its mirror [default:
    /// 2000].
    #[arg(long)]
    games: Option<u64>,
    /// Nodes per move (default 1,000 unless --depth is given).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// What to tune, a comma list: search parameters by name (`hoplite params`) and evaluation
    /// weights as TABLE.LETTER (`mobility.n`), each optionally NAME=MIN..MAX/STEP. Default:
    /// every search parameter but the clock's (`time_*`, which do nothing at a node budget).
    #[arg(long, value_delimiter = ',')]
    tune: Vec<String>,
    /// Pairs played from one point (the same path on any thread count) [default: 16].
    #[arg(long)]
    batch: Option<u64>,
    /// The learning rate at the end of the run (fishtest's R_end) [default: 0.002].
    #[arg(long)]
    r_end: Option<f64>,
    /// Random plies that open each pair's games [default: 8].
    #[arg(long)]
    opening_plies: Option<u32>,
    /// Moves after the opening before a game is drawn [default: 400].
    #[arg(long)]
    max_plies: Option<u32>,
    /// Transposition table per engine, MiB [default: 1].
    #[arg(long)]
    tt_mb: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run seed: each pair's perturbation and opening come from (seed, pair) [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Output directory (default runs/spsa-VARIANT): spsa.toml, spsa.csv, params.toml.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted run in --out (same arguments).
    #[arg(long)]
    resume: bool,
}

pub fn run(a: SpsaArgs) -> CmdResult {
    let request = SpsaRequest {
        variant: a.variant,
        games: a.games,
        nodes: a.nodes,
        depth: a.depth,
        tune: a.tune,
        batch: a.batch,
        r_end: a.r_end,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        tt_mb: a.tt_mb,
        threads: a.threads,
        seed: a.seed,
        out: a.out,
        resume: a.resume,
    };
    let (start, mut last) = (Instant::now(), Instant::now());
    let show = |s: &Spsa| -> String {
        let theta: Vec<String> =
            s.tunables.iter().zip(&s.theta).take(6).map(|(t, x)| format!("{} {x:.1}", t.name)).collect();
        let more = if s.tunables.len() > 6 { ", …" } else { "" };
        format!("{}/{} pairs; {}{more}", s.done, s.schedule.pairs, theta.join(", "))
    };
    let done = request.run(|s, started| {
        if last.elapsed() >= Duration::from_secs(5) || s.done == s.schedule.pairs {
            last = Instant::now();
            let rate = (s.done - started) as f64 / start.elapsed().as_secs_f64().max(1e-9);
            eprintln!("spsa: {}, {rate:.1} pairs/s", show(s));
        }
    })?;
    let (spsa, out) = (done.spsa, done.out);
    outln!("{:<20} {:>9} {:>9}  range", "tuned", "start", "final");
    for (t, x) in spsa.tunables.iter().zip(&spsa.theta) {
        outln!("{:<20} {:>9} {:>9.1}  {}..={}", t.name, t.start, x, t.min, t.max);
    }
    eprintln!(
        "{} pairs; the path in {}, the parameters in {} (--params, UCI ParamsFile)",
        spsa.done,
        out.join(PATH_FILE).display(),
        out.join("params.toml").display()
    );
    Ok(ExitCode::SUCCESS)
}
