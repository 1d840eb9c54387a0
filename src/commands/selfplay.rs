//! `hoplite selfplay`, `match`, `balance` and `merge`.

use super::progress::Display;
use super::CmdResult;
use clap::Args;
use hoplite_formats::Budget;
use hoplite_selfplay::game::Adjudication;
use hoplite_selfplay::stats::{Sprt, SprtState};
use hoplite_selfplay::{balance, matchup, merge, parse_shard, selfplay, summary_table, PlayerSpec, RunOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Clone)]
pub struct EngineArgs {
    /// Nodes per move (the default limit, 1000: reproducible on any machine).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds per move (not reproducible).
    #[arg(long)]
    movetime: Option<u64>,
    /// Evaluation weights file (TOML, as `hoplite tune` writes).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// hoplite's engine with a budget (1,000 nodes when none is given: the same on any machine).
fn hoplite(name: &str, budget: Budget, weights: Option<PathBuf>, run: &RunOptions) -> PlayerSpec {
    PlayerSpec::Hoplite {
        name: name.into(),
        budget: budget.or(Budget::nodes(1000)),
        weights,
        hash_mb: run.tt_megabytes,
    }
}

fn budget(nodes: Option<u64>, depth: Option<u32>, movetime: Option<u64>) -> Budget {
    Budget { nodes, depth, movetime: movetime.map(Duration::from_millis), clock: None }
}

#[derive(Args, Clone)]
pub struct RunArgs {
    /// Number of games (per configuration in a balance run).
    #[arg(long)]
    games: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run seed: each game's randomness comes from (seed, game id).
    #[arg(long)]
    seed: Option<u64>,
    /// Uniformly random legal moves to open each game.
    #[arg(long)]
    random_plies: Option<u32>,
    /// Opening book: one FEN or EPD per line, taken in a seeded order.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write games.pgn.
    #[arg(long)]
    pgn: bool,
    /// Continue an interrupted run in --out (same arguments).
    #[arg(long)]
    resume: bool,
    /// Play only game ids ≡ K (mod N), as K/N.
    #[arg(long)]
    shard: Option<String>,
    /// Moves after the opening before the game is drawn (default 400).
    #[arg(long)]
    max_plies: Option<u32>,
    /// Resign adjudication: CP:MOVES (score beyond CP for MOVES moves of each side).
    #[arg(long)]
    resign: Option<String>,
    /// Draw adjudication: CP:MOVES:FROM_PLY.
    #[arg(long)]
    draw: Option<String>,
    /// Record each game's wall time in games.csv (runs then differ byte for byte).
    #[arg(long)]
    timing: bool,
    /// Transposition table per search, MiB.
    #[arg(long, default_value_t = 1)]
    tt_mb: usize,
}

fn numbers(s: &str, n: usize, flag: &str) -> Result<Vec<i64>, String> {
    let v: Vec<i64> = s
        .split(':')
        .map(|x| x.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{flag} '{s}': expected {n} numbers separated by ':'"))?;
    if v.len() != n || v.iter().any(|&x| x < 0) {
        return Err(format!("{flag} '{s}': expected {n} non-negative numbers separated by ':'"));
    }
    Ok(v)
}

impl RunArgs {
    /// The options, with these defaults where the command line says nothing.
    fn options(&self, defaults: Defaults, default_out: &str) -> Result<RunOptions, String> {
        let resign = match &self.resign {
            Some(s) => numbers(s, 2, "--resign").map(|v| Some((v[0] as i32, v[1] as u32)))?,
            None => None,
        };
        let draw = match &self.draw {
            Some(s) => numbers(s, 3, "--draw").map(|v| Some((v[0] as i32, v[1] as u32, v[2] as u32)))?,
            None => None,
        };
        Ok(RunOptions {
            games: self.games.unwrap_or(defaults.games),
            threads: self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            seed: self.seed.unwrap_or(defaults.seed),
            random_plies: self.random_plies.unwrap_or(defaults.random_plies),
            book: self.book.clone(),
            out: self.out.clone().unwrap_or_else(|| PathBuf::from(default_out)),
            pgn: self.pgn,
            resume: self.resume,
            shard: self.shard.as_deref().map(parse_shard).transpose().map_err(|e| e.to_string())?,
            adjudication: Adjudication { max_plies: self.max_plies.unwrap_or(defaults.max_plies), resign, draw },
            timing: self.timing,
            tt_megabytes: self.tt_mb.max(1),
        })
    }
}

/// What a run uses where neither the command line nor a balance file says.
#[derive(Clone, Copy)]
struct Defaults {
    games: u64,
    seed: u64,
    random_plies: u32,
    max_plies: u32,
}

const DEFAULTS: Defaults = Defaults { games: 100, seed: 1, random_plies: 8, max_plies: 400 };

#[derive(Args)]
pub struct SelfplayArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = "spartan")]
    variant: String,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    run: RunArgs,
}

fn finish_message(out: &std::path::Path, played: u64, gps: f64) {
    eprintln!("{played} games played, {gps:.1} games/s; results in {}", out.display());
    eprintln!("a report with plots: hoplite report {}", out.display());
}

pub fn run_selfplay(a: SelfplayArgs) -> CmdResult {
    let default_out =
        format!("runs/selfplay-{}", a.variant.trim_end_matches(".toml").rsplit('/').next().unwrap_or("run"));
    let opts = a.run.options(DEFAULTS, &default_out)?;
    let e = &a.engine;
    let player = hoplite("hoplite", budget(e.nodes, e.depth, e.movetime), e.weights.clone(), &opts);
    let mut display = Display::new(&a.variant);
    let r = selfplay::run(&a.variant, &player, &opts, |p| display.update(p)).map_err(|e| e.to_string())?;
    display.finish();
    print!("{}", summary_table(&r.tallies));
    finish_message(&opts.out, r.played, r.games_per_second());
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct BalanceArgs {
    /// Balance experiment (TOML): base variant, engine settings and [[configs]] overrides.
    config: PathBuf,
    /// Nodes per move (overrides the file).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move (overrides the file).
    #[arg(long)]
    depth: Option<u32>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run_balance(a: BalanceArgs) -> CmdResult {
    let b = balance::load(&a.config).map_err(|e| e.to_string())?;
    let f = &b.file;
    let default_out =
        format!("runs/balance-{}", a.config.file_stem().map_or("run".into(), |s| s.to_string_lossy().to_string()));
    // The command line, then the file, then the defaults.
    let defaults = Defaults {
        games: f.games.unwrap_or(DEFAULTS.games),
        seed: f.seed.unwrap_or(DEFAULTS.seed),
        random_plies: f.random_plies.unwrap_or(DEFAULTS.random_plies),
        max_plies: f.max_plies.unwrap_or(DEFAULTS.max_plies),
    };
    let opts = a.run.options(defaults, &default_out)?;
    let player = hoplite("hoplite", budget(a.nodes.or(f.nodes), a.depth.or(f.depth), None), None, &opts);
    let mut display = Display::new("balance");
    let r = balance::run(&b, &player, &opts, |p| display.update(p)).map_err(|e| e.to_string())?;
    display.finish();
    print!("{}", summary_table(&r.tallies));
    finish_message(&opts.out, r.played, r.games_per_second());
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct MatchArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Engine A's weights file.
    #[arg(long)]
    a_weights: Option<PathBuf>,
    /// Engine B's weights file.
    #[arg(long)]
    b_weights: Option<PathBuf>,
    /// Engine A's nodes per move.
    #[arg(long)]
    a_nodes: Option<u64>,
    /// Engine B's nodes per move.
    #[arg(long)]
    b_nodes: Option<u64>,
    /// Engine A's depth per move.
    #[arg(long)]
    a_depth: Option<u32>,
    /// Engine B's depth per move.
    #[arg(long)]
    b_depth: Option<u32>,
    /// Engine A plays uniformly random legal moves (a baseline).
    #[arg(long)]
    a_random: bool,
    /// Engine B plays uniformly random legal moves (a baseline).
    #[arg(long)]
    b_random: bool,
    /// Names in games.csv.
    #[arg(long, default_value = "A")]
    a_name: String,
    #[arg(long, default_value = "B")]
    b_name: String,
    /// Stop early by SPRT: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05).
    #[arg(long)]
    sprt: Option<String>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run_match(a: MatchArgs) -> CmdResult {
    let opts = a.run.options(DEFAULTS, "runs/match")?;
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    let side = |name: &str, random: bool, nodes, depth, weights: &Option<PathBuf>| match random {
        true => PlayerSpec::Random { name: name.into() },
        false => hoplite(name, budget(nodes, depth, None), weights.clone(), &opts),
    };
    let pa = side(&a.a_name, a.a_random, a.a_nodes, a.a_depth, &a.a_weights);
    let pb = side(&a.b_name, a.b_random, a.b_nodes, a.b_depth, &a.b_weights);
    let mut display = Display::new("match");
    let r = matchup::run(&a.variant, &pa, &pb, sprt, &opts, |p| display.update(p)).map_err(|e| e.to_string())?;
    display.finish();
    let (elo, err) = r.wdl.elo();
    // A side that won every game has no finite Elo estimate.
    let elo_text = if r.wdl.wins == r.wdl.games() || r.wdl.losses == r.wdl.games() {
        "Elo unbounded (one side won every game)".to_string()
    } else {
        format!("Elo {elo:+.1} ± {err:.1}")
    };
    println!(
        "{} vs {}: {} games, +{} ={} -{}, score {:.3}, {elo_text}, LOS {:.1}%, draws {:.1}%",
        r.a,
        r.b,
        r.wdl.games(),
        r.wdl.wins,
        r.wdl.draws,
        r.wdl.losses,
        r.wdl.score(),
        100.0 * r.wdl.los(),
        100.0 * r.wdl.draw_rate()
    );
    println!("pentanomial (pairs scoring 0, ½, 1, 1½, 2 for {}): {:?}", r.a, r.penta.0);
    if let (Some(llr), Some(state)) = (r.llr, r.sprt) {
        let verdict = match state {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "undecided",
        };
        println!("SPRT: LLR {llr:.2}, {verdict}");
    }
    finish_message(&opts.out, r.wdl.games(), r.games_per_second);
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
    let n = merge::merge(&a.dirs, &a.out).map_err(|e| e.to_string())?;
    eprintln!("merged {n} games into {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}
