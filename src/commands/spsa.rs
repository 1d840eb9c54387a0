//! `hoplite spsa`: tuning the search parameters and evaluation weights by games.

use super::{CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_selfplay::plans::spsa::{run_in, Spsa, SpsaSettings, PATH_FILE};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SpsaArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Games in all, in colour-swapped pairs of a perturbed engine against its mirror.
    #[arg(long, default_value_t = 2000)]
    games: u64,
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
    /// Pairs played from one point (the same path on any thread count).
    #[arg(long, default_value_t = 16)]
    batch: u64,
    /// The learning rate at the end of the run (fishtest's R_end).
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Random plies that open each pair's games.
    #[arg(long, default_value_t = 8)]
    opening_plies: u32,
    /// Moves after the opening before a game is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Transposition table per engine, MiB.
    #[arg(long, default_value_t = 1)]
    tt_mb: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run seed: each pair's perturbation and opening come from (seed, pair).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory (default runs/spsa-VARIANT): spsa.toml, spsa.csv, params.toml.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted run in --out (same arguments).
    #[arg(long)]
    resume: bool,
}

pub fn run(a: SpsaArgs) -> CmdResult {
    let stem = a.variant.trim_end_matches(".toml").rsplit('/').next().unwrap_or("run").to_string();
    let out = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/spsa-{stem}")));
    let settings = SpsaSettings {
        variant: a.variant,
        nodes: a.nodes.or(a.depth.is_none().then_some(1000)),
        depth: a.depth,
        games: a.games,
        batch: a.batch,
        seed: a.seed,
        opening_plies: a.opening_plies,
        max_plies: a.max_plies,
        tt_mb: a.tt_mb,
        r_end: a.r_end,
        tune: a.tune,
    };
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (start, mut last) = (Instant::now(), Instant::now());
    let mut first: Option<u64> = None;
    let show = |s: &Spsa| -> String {
        let theta: Vec<String> =
            s.tunables.iter().zip(&s.theta).take(6).map(|(t, x)| format!("{} {x:.1}", t.name)).collect();
        let more = if s.tunables.len() > 6 { ", …" } else { "" };
        format!("{}/{} pairs; {}{more}", s.done, s.schedule.pairs, theta.join(", "))
    };
    let spsa = run_in(&settings, &out, threads, a.resume, |s| {
        let from = *first.get_or_insert(s.done.saturating_sub(settings.batch));
        if last.elapsed() >= Duration::from_secs(5) || s.done == s.schedule.pairs {
            last = Instant::now();
            let rate = (s.done - from) as f64 / start.elapsed().as_secs_f64().max(1e-9);
            eprintln!("spsa: {}, {rate:.1} pairs/s", show(s));
        }
    })?;
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
