//! `hoplite selfplay`, `match`, `balance` and `merge`.

use super::players::Registry;
use super::progress::Display;
use super::{CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_core::Variant;
use hoplite_formats::manifest::{BookOrder, PlayerKind};
use hoplite_formats::Manifest;
use hoplite_search::{Budget, Clock};
use hoplite_selfplay::openings::played::{self, Method, OpeningSettings, Played};
use hoplite_selfplay::plans::{balance, matchup, selfplay};
use hoplite_selfplay::run::game::Adjudication;
use hoplite_selfplay::run::merge;
use hoplite_selfplay::stats::control::{control_holds, CONTROL_SCORE};
use hoplite_selfplay::stats::{Sprt, SprtState};
use hoplite_selfplay::{parse_shard, summary_table, EngineFiles, RunError, RunOptions, RunReport};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// A player's budget per move; what is not given here comes from elsewhere (a side's own
/// flags, a balance file), and nothing at all means 1,000 nodes (the same on any machine).
/// A comma list plays a strength ladder: one rung per value (a single value applies to all).
#[derive(Args, Clone, Default)]
pub(crate) struct BudgetArgs {
    /// Nodes per move, or a ladder: 1000,4000,16000.
    #[arg(long, value_delimiter = ',')]
    pub(crate) nodes: Vec<u64>,
    /// Depth per move, or a ladder of depths.
    #[arg(long, value_delimiter = ',')]
    depth: Vec<u32>,
    /// Milliseconds per move (not reproducible).
    #[arg(long, value_delimiter = ',')]
    movetime: Vec<u64>,
    /// A clock per game, BASE+INC in seconds, e.g. 10+0.1 (not reproducible); or a ladder.
    #[arg(long, value_delimiter = ',', value_parser = parse_clock)]
    tc: Vec<Clock>,
}

fn parse_clock(t: &str) -> Result<Clock, String> {
    Clock::parse(t).ok_or_else(|| format!("'{t}': expected BASE+INC in seconds, as 10+0.1"))
}

fn budget(nodes: Option<u64>, depth: Option<u32>, movetime: Option<u64>, tc: Option<Clock>) -> Result<Budget, String> {
    let list = |o: Option<u64>| o.into_iter().collect::<Vec<_>>();
    let one = budgets(&list(nodes), &depth.into_iter().collect::<Vec<_>>(), &list(movetime), tc.as_slice())?;
    Ok(one[0])
}

/// The budgets of the rungs the lists give (lists of one length; a value alone applies to
/// every rung); one empty budget when none is given.
fn budgets(nodes: &[u64], depth: &[u32], movetime: &[u64], clocks: &[Clock]) -> Result<Vec<Budget>, String> {
    let lens = [nodes.len(), depth.len(), movetime.len(), clocks.len()];
    let rungs = lens.iter().copied().max().unwrap_or(0).max(1);
    if lens.iter().any(|&l| l > 1 && l != rungs) {
        return Err(format!("budget lists of different lengths (nodes, depth, movetime, tc: {lens:?})"));
    }
    fn at<T: Copy>(v: &[T], i: usize) -> Option<T> {
        v.get(i).or(v.first()).copied()
    }
    Ok((0..rungs)
        .map(|i| Budget {
            nodes: at(nodes, i),
            depth: at(depth, i),
            movetime: at(movetime, i).map(Duration::from_millis),
            clock: at(clocks, i),
        })
        .collect())
}

impl BudgetArgs {
    fn budgets(&self) -> Result<Vec<Budget>, String> {
        budgets(&self.nodes, &self.depth, &self.movetime, &self.tc)
    }

    /// One budget (a match's): a ladder is refused.
    pub(crate) fn budget(&self) -> Result<Budget, String> {
        match self.budgets()?.as_slice() {
            [one] => Ok(*one),
            _ => Err("a ladder of budgets is for selfplay and balance runs".into()),
        }
    }
}

/// A player's budget and the run's ladder from a list of budgets.
fn ladder(budgets: Vec<Budget>, opts: &mut RunOptions) -> Budget {
    if budgets.len() > 1 {
        opts.ladder = budgets.clone();
    }
    budgets[0]
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Order {
    Shuffled,
    Sequential,
}

#[derive(Args, Clone)]
pub(crate) struct RunArgs {
    /// Number of games (per configuration in a balance run).
    #[arg(long)]
    pub(crate) games: Option<u64>,
    /// Worker threads (default: all cores); each has its own players and engine processes.
    #[arg(long)]
    threads: Option<usize>,
    /// Run seed: each game's randomness comes from (seed, game id).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// How games open after their start position: `played` (each ply chosen at random among
    /// the moves a searching player scores within a margin of its best; the default of
    /// selfplay, balance and values) or `random` (uniformly random legal plies; the default of
    /// match).
    #[arg(long, value_parser = parse_method)]
    opening: Option<Method>,
    /// Random legal plies after each start position (the random method; default 8, none after
    /// a book position).
    #[arg(long)]
    random_plies: Option<u32>,
    /// Plies played (default: the variant file's `[openings]`, else 8).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// A played move is chosen among those within this many centipawns of the best (default:
    /// the variant file's `[openings]`, else 40).
    #[arg(long)]
    opening_margin: Option<i32>,
    /// Who plays the openings: hoplite, or an engine of engines.toml (default hoplite).
    #[arg(long)]
    opening_player: Option<String>,
    /// The opening player's nodes a ply, all ranked moves together (default 4000).
    #[arg(long)]
    opening_nodes: Option<u64>,
    /// The opening player's depth a ply (instead of nodes; xboard engines need one).
    #[arg(long)]
    opening_depth: Option<u32>,
    /// Moves the opening player ranks a ply (multi-PV; default 8).
    #[arg(long)]
    opening_lines: Option<usize>,
    /// Opening book: FEN or EPD lines, or PGN games (their end positions).
    #[arg(long)]
    book: Option<PathBuf>,
    /// The order book positions are taken in: shuffled by the seed, or sequential.
    #[arg(long, value_enum, default_value_t = Order::Shuffled)]
    book_order: Order,
    /// Shuffle the back-rank pieces of each game's setup, the same for both sides and every
    /// configuration (royal pieces, pawns and castling rooks stay; square colours are kept).
    #[arg(long)]
    shuffle: bool,
    /// Output directory.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Also write games.pgn.
    #[arg(long)]
    pgn: bool,
    /// Continue an interrupted run in --out (same arguments).
    #[arg(long)]
    pub(crate) resume: bool,
    /// Play only game ids ≡ K (mod N), as K/N.
    #[arg(long, value_parser = |s: &str| parse_shard(s).map_err(|e| e.to_string()))]
    shard: Option<(u64, u64)>,
    /// Moves after the opening before the game is drawn (default 400).
    #[arg(long)]
    max_plies: Option<u32>,
    /// Resign adjudication: CP:MOVES (score beyond CP for MOVES moves of each side).
    #[arg(long, value_parser = |s: &str| numbers(s, 2).map(|v| (v[0] as i32, v[1] as u32)))]
    resign: Option<(i32, u32)>,
    /// Draw adjudication: CP:MOVES:FROM_PLY.
    #[arg(long, value_parser = |s: &str| numbers(s, 3).map(|v| (v[0] as i32, v[1] as u32, v[2] as u32)))]
    draw: Option<(i32, u32, u32)>,
    /// Keep every move's evaluation in games.csv (for lead changes and decisiveness).
    #[arg(long)]
    evals: bool,
    /// Record each game's wall time in games.csv (runs then differ byte for byte).
    #[arg(long)]
    timing: bool,
    /// Transposition table per hoplite search, MiB.
    #[arg(long, default_value_t = 1)]
    tt_mb: usize,
    /// Outside engines by name (default ./engines.toml, else the built-in configs/engines.toml).
    #[arg(long)]
    engines: Option<PathBuf>,
}

/// `n` non-negative numbers separated by ':', each below 2^31.
fn numbers(s: &str, n: usize) -> Result<Vec<i64>, String> {
    let expected = || format!("'{s}': expected {n} non-negative numbers separated by ':'");
    let v: Vec<i64> = s.split(':').map(|x| x.trim().parse()).collect::<Result<_, _>>().map_err(|_| expected())?;
    if v.len() != n || v.iter().any(|&x| !(0..=i64::from(i32::MAX)).contains(&x)) {
        return Err(expected());
    }
    Ok(v)
}

fn parse_method(s: &str) -> Result<Method, String> {
    match s {
        "played" => Ok(Method::Played),
        "random" => Ok(Method::Random),
        _ => Err(format!("'{s}': expected played or random")),
    }
}

/// What a run uses where neither the command line nor a balance file says.
#[derive(Clone)]
struct Defaults {
    games: u64,
    seed: u64,
    random_plies: Option<u32>,
    max_plies: u32,
    opening: OpeningSettings,
}

/// Selfplay, balance and values open games with played openings; a match with random plies.
fn defaults(method: Method) -> Defaults {
    Defaults {
        games: 100,
        seed: 1,
        random_plies: None,
        max_plies: 400,
        opening: OpeningSettings { method: Some(method), ..Default::default() },
    }
}

impl RunArgs {
    fn opening_settings(&self) -> OpeningSettings {
        OpeningSettings {
            method: self.opening,
            plies: self.opening_plies,
            margin: self.opening_margin,
            player: self.opening_player.clone(),
            nodes: self.opening_nodes,
            depth: self.opening_depth,
            lines: self.opening_lines,
        }
    }

    /// Sets how `opts`' games open in `variant`: the command line's settings, then the
    /// defaults' (a balance file's, then the command's), then the variant's `[openings]`.
    fn set_opening(
        &self,
        defaults: &Defaults,
        variant: &Variant,
        registry: &Registry,
        opts: &mut RunOptions,
    ) -> Result<(), String> {
        let (given, random_plies) = match self.recorded_opening(opts)? {
            Some(recorded) => recorded,
            None => (self.opening_settings(), self.random_plies),
        };
        let random_plies = random_plies.or(defaults.random_plies);
        let implied = if given.any_played() {
            Some(Method::Played)
        } else if random_plies.is_some() || opts.book.is_some() {
            Some(Method::Random)
        } else {
            None
        };
        let s =
            given.or(&OpeningSettings { method: given.method.or(implied), ..Default::default() }).or(&defaults.opening);
        match s.method.unwrap_or(Method::Played) {
            Method::Random => {
                if given.any_played() {
                    return Err("--opening-* settings are of played openings, not --opening random".into());
                }
                let book_alone = if opts.book.is_some() { 0 } else { 8 };
                opts.random_plies = random_plies.unwrap_or(book_alone);
                opts.played = None;
            }
            Method::Played => {
                if self.random_plies.is_some() {
                    return Err("--random-plies is of random openings: played openings take --opening-plies".into());
                }
                let budget = Budget {
                    nodes: s.nodes.or(s.depth.is_none().then_some(played::DEFAULT_NODES)),
                    depth: s.depth,
                    ..Default::default()
                };
                let name = s.player.as_deref().unwrap_or("hoplite");
                let player = registry.player(name, name, budget, EngineFiles::default(), opts.tt_megabytes)?;
                opts.random_plies = 0;
                opts.played = Some(Played {
                    player,
                    plies: s.plies.or(variant.opening_plies).unwrap_or(played::DEFAULT_PLIES),
                    margin: s.margin.or(variant.opening_margin).unwrap_or(played::DEFAULT_MARGIN),
                    lines: s.lines.unwrap_or(played::DEFAULT_LINES).max(1),
                });
            }
        }
        Ok(())
    }

    /// A resumed run's opening, as its run.toml records it, when the command line gives none:
    /// the settings and the random plies.
    fn recorded_opening(&self, opts: &RunOptions) -> Result<Option<(OpeningSettings, Option<u32>)>, String> {
        let path = opts.out.join("run.toml");
        let silent = self.random_plies.is_none() && self.opening_settings() == OpeningSettings::default();
        if !opts.resume || !silent || !path.exists() {
            return Ok(None);
        }
        let m = Manifest::read(&path).map_err(|e| e.to_string())?;
        Ok(Some(match m.played {
            Some(p) => {
                let budget = p.player.budget.unwrap_or_default();
                let player = match p.player.kind {
                    PlayerKind::Engine => p.player.engine_name.clone(),
                    _ => Some("hoplite".into()),
                };
                let settings = OpeningSettings {
                    method: Some(Method::Played),
                    plies: Some(p.plies),
                    margin: Some(p.margin),
                    player,
                    nodes: budget.nodes,
                    depth: budget.depth,
                    lines: Some(p.lines),
                };
                (settings, None)
            }
            None => (OpeningSettings { method: Some(Method::Random), ..Default::default() }, Some(m.random_plies)),
        }))
    }

    /// The options, with these defaults where the command line says nothing.
    fn options(&self, defaults: &Defaults, default_out: &str) -> Result<RunOptions, String> {
        let (resign, draw) = (self.resign, self.draw);
        Ok(RunOptions {
            games: self.games.unwrap_or(defaults.games),
            threads: self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            seed: self.seed.unwrap_or(defaults.seed),
            random_plies: 0,
            played: None,
            book: self.book.clone(),
            book_order: match self.book_order {
                Order::Shuffled => BookOrder::Shuffled,
                Order::Sequential => BookOrder::Sequential,
            },
            shuffle: self.shuffle,
            out: self.out.clone().unwrap_or_else(|| PathBuf::from(default_out)),
            pgn: self.pgn,
            resume: self.resume,
            shard: self.shard,
            adjudication: Adjudication { max_plies: self.max_plies.unwrap_or(defaults.max_plies), resign, draw },
            timing: self.timing,
            tt_megabytes: self.tt_mb.max(1),
            engines: self.engines.as_ref().map(|e| e.display().to_string()),
            evals: self.evals,
            ladder: Vec::new(),
        })
    }
}

fn finish(out: &Path, r: &RunReport, display: &Display) {
    display.finish();
    if !r.incidents.is_empty() {
        eprintln!("{} games ended by a player's failure:", r.incidents.len());
        for i in r.incidents.iter().take(20) {
            eprintln!("  {i}");
        }
    }
    eprintln!("{} games played, {:.1} games/s; results in {}", r.played, r.games_per_second(), out.display());
    eprintln!("a report with plots: hoplite report {}", out.display());
}

#[derive(Args)]
pub struct SelfplayArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// Who plays both sides: hoplite, random, or an engine of engines.toml.
    #[arg(long, default_value = "hoplite")]
    player: String,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run_selfplay(a: SelfplayArgs) -> CmdResult {
    let default_out =
        format!("runs/selfplay-{}", a.variant.trim_end_matches(".toml").rsplit('/').next().unwrap_or("run"));
    let defaults = defaults(Method::Played);
    let mut opts = a.run.options(&defaults, &default_out)?;
    let registry = Registry::load(opts.engines.as_deref().map(Path::new))?;
    a.run.set_opening(&defaults, &*Variant::load(&a.variant)?, &registry, &mut opts)?;
    let budget = ladder(a.budget.budgets()?, &mut opts);
    let player = registry.player(&a.player, &a.player, budget, a.engine.files(), opts.tt_megabytes)?;
    let mut display = Display::new(&a.variant);
    let r = selfplay::run(&a.variant, &player, &opts, |p| display.update(p))?;
    out!("{}", summary_table(&r.tallies));
    finish(&opts.out, &r, &display);
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct BalanceArgs {
    /// Balance experiment (TOML): base variant, engine settings and [[configs]] overrides.
    pub(crate) config: PathBuf,
    /// Who plays both sides (hoplite, random, or engines of engines.toml); a comma list plays
    /// every configuration with each. Default: the file's `players`, else hoplite.
    #[arg(long, value_delimiter = ',')]
    pub(crate) player: Vec<String>,
    /// The budget per move, or a ladder (overrides the file's nodes and depth).
    #[command(flatten)]
    pub(crate) budget: BudgetArgs,
    /// Also play the chess control, whose White score is known, at every budget: the report
    /// marks the verdicts where it reads otherwise.
    #[arg(long)]
    pub(crate) control: bool,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

pub fn run_balance(a: BalanceArgs) -> CmdResult {
    balance_run(a, "balance")?;
    Ok(ExitCode::SUCCESS)
}

/// Runs a balance file and prints its summary; returns the file and the output directory.
pub(crate) fn balance_run(
    a: BalanceArgs,
    kind: &str,
) -> Result<(balance::Balance, PathBuf), Box<dyn std::error::Error>> {
    let b = balance::load_with(&a.config, a.control)?;
    let f = &b.file;
    let default_out =
        format!("runs/{kind}-{}", a.config.file_stem().map_or("run".into(), |s| s.to_string_lossy().to_string()));
    // The command line, then the file, then the defaults.
    let base = defaults(Method::Played);
    let from_file = f.opening.clone().unwrap_or_default();
    let defaults = Defaults {
        games: f.games.unwrap_or(base.games),
        seed: f.seed.unwrap_or(base.seed),
        random_plies: f.random_plies,
        max_plies: f.max_plies.unwrap_or(base.max_plies),
        // A file's random plies or book imply its method, as the command line's do.
        opening: match (&from_file.method, f.random_plies.is_some() || f.book.is_some()) {
            (None, true) => OpeningSettings { method: Some(Method::Random), ..from_file },
            _ => from_file.or(&base.opening),
        },
    };
    let mut opts = a.run.options(&defaults, &default_out)?;
    opts.book = opts.book.or_else(|| b.book());
    let registry = Registry::load(opts.engines.as_deref().map(Path::new))?;
    a.run.set_opening(&defaults, &b.base, &registry, &mut opts)?;
    opts.shuffle |= f.shuffle.unwrap_or(false);
    let given = a.budget.budgets()?;
    let from_file = || {
        let list = |v: Option<Vec<u64>>| v.unwrap_or_default();
        budgets(&list(f.nodes.as_ref().map(|n| n.to_vec())), &f.depth.as_ref().map_or(vec![], |d| d.to_vec()), &[], &[])
    };
    let budget = ladder(if given[0].is_empty() { from_file()? } else { given }, &mut opts);
    let names = match (&a.player, &f.players) {
        (cli, _) if !cli.is_empty() => cli.clone(),
        (_, Some(file)) if !file.is_empty() => file.clone(),
        _ => vec!["hoplite".to_string()],
    };
    let players = names
        .iter()
        .map(|n| registry.player(n, n, budget, EngineFiles::default(), opts.tt_megabytes))
        .collect::<Result<Vec<_>, _>>()?;
    let mut display = Display::new(kind);
    let r = balance::run(&b, &players, &opts, |p| display.update(p))?;
    out!("{}", summary_table(&r.tallies));
    finish(&opts.out, &r, &display);
    let controls: Vec<&str> = b.configs.iter().filter(|c| c.control).map(|c| c.name.as_str()).collect();
    for (info, t) in r.tallies.list().into_iter().filter(|(i, _)| controls.contains(&i.base.as_str())) {
        let (lo, hi) = t.wdl.score_interval();
        if !control_holds(t.wdl.score(), lo, hi) {
            eprintln!(
                "warning: the control reads {:.3} [{lo:.3}, {hi:.3}] ({}): verdicts at that budget are suspect \
                 (White's known score is {CONTROL_SCORE}; docs/balance.md)",
                t.wdl.score(),
                info.label
            );
        }
    }
    Ok((b, opts.out))
}

/// hoplite's engine files (`--weights`, `--params`).
#[derive(Args)]
pub struct EngineArgs {
    /// Evaluation weights file for hoplite's engine (TOML, as `hoplite tune` writes); default:
    /// the built-in's tuned weights (data/weights/), else the variant's derived defaults.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Search parameters file for hoplite's engine (TOML, `name = value`; `hoplite params`
    /// lists them); those it leaves out keep their defaults.
    #[arg(long)]
    params: Option<PathBuf>,
}

impl EngineArgs {
    fn files(&self) -> EngineFiles {
        EngineFiles { weights: self.weights.clone(), params: self.params.clone() }
    }
}

/// One side of a match, as its flags give it.
struct Side {
    player: String,
    name: Option<String>,
    budget: Result<Budget, String>,
    files: EngineFiles,
}

/// The flags of one side of `hoplite match`, `--a-*` or `--b-*`: one definition for both.
macro_rules! side_args {
    ($name:ident, $side:literal, $who:literal) => {
        #[derive(Args)]
        pub struct $name {
            #[arg(id = $side, long = $side, default_value = "hoplite", help = concat!("Player ", $who, ": hoplite, random, or an engine of engines.toml"))]
            player: String,
            #[arg(id = concat!($side, "-nodes"), long = concat!($side, "-nodes"), help = concat!("Player ", $who, "'s nodes per move"))]
            nodes: Option<u64>,
            #[arg(id = concat!($side, "-depth"), long = concat!($side, "-depth"), help = concat!("Player ", $who, "'s depth per move"))]
            depth: Option<u32>,
            #[arg(id = concat!($side, "-movetime"), long = concat!($side, "-movetime"), help = concat!("Player ", $who, "'s milliseconds per move"))]
            movetime: Option<u64>,
            #[arg(id = concat!($side, "-tc"), long = concat!($side, "-tc"), value_parser = parse_clock, help = concat!("Player ", $who, "'s clock, BASE+INC seconds"))]
            tc: Option<Clock>,
            #[arg(id = concat!($side, "-weights"), long = concat!($side, "-weights"), help = concat!("Player ", $who, "'s weights file (hoplite's engine)"))]
            weights: Option<PathBuf>,
            #[arg(id = concat!($side, "-params"), long = concat!($side, "-params"), help = concat!("Player ", $who, "'s search parameters file (hoplite's engine)"))]
            params: Option<PathBuf>,
            #[arg(id = concat!($side, "-random"), long = concat!($side, "-random"), help = concat!("Player ", $who, " plays uniformly random legal moves (the same as --", $side, " random)"))]
            random: bool,
            #[arg(id = concat!($side, "-name"), long = concat!($side, "-name"), help = concat!("Player ", $who, "'s name in games.csv (default: the player's; ", $who, " when both are the same)"))]
            name: Option<String>,
        }

        impl $name {
            fn side(&self) -> Side {
                Side {
                    player: if self.random { "random".into() } else { self.player.clone() },
                    name: self.name.clone(),
                    budget: budget(self.nodes, self.depth, self.movetime, self.tc),
                    files: EngineFiles { weights: self.weights.clone(), params: self.params.clone() },
                }
            }
        }
    };
}
side_args!(SideA, "a", "A");
side_args!(SideB, "b", "B");

#[derive(Args)]
pub struct MatchArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    #[command(flatten)]
    a: SideA,
    #[command(flatten)]
    b: SideB,
    /// Both players' budget per move (a side's own flags win).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Stop early by SPRT: elo0,elo1,alpha,beta in logistic Elo (e.g. 0,10,0.05,0.05), or
    /// nelo:elo0,elo1,alpha,beta in normalized Elo.
    #[arg(long, value_parser = |s: &str| Sprt::parse(s))]
    sprt: Option<Sprt>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run_match(a: MatchArgs) -> CmdResult {
    let defaults = defaults(Method::Random);
    let mut opts = a.run.options(&defaults, "runs/match")?;
    let registry = Registry::load(opts.engines.as_deref().map(Path::new))?;
    a.run.set_opening(&defaults, &*Variant::load(&a.variant)?, &registry, &mut opts)?;
    let shared = a.budget.budget()?;
    let sides = [a.a.side(), a.b.side()];
    let same = sides[0].player == sides[1].player;
    let [pa, pb] = [(&sides[0], "A"), (&sides[1], "B")].map(|(side, letter)| {
        let display = side.name.clone().unwrap_or_else(|| if same { letter.to_string() } else { side.player.clone() });
        let budget = side.budget.clone()?.or(shared);
        registry.player(&side.player, &display, budget, side.files.clone(), opts.tt_megabytes)
    });
    let (pa, pb) = (pa?, pb?);
    if pa.name() == pb.name() {
        return Err(
            RunError::Usage(format!("both players are named '{}': give --a-name or --b-name", pa.name())).into()
        );
    }
    let mut progress = Display::new("match");
    let r = matchup::run(&a.variant, &pa, &pb, a.sprt, &opts, |p| progress.update(p))?;
    let (elo, err) = r.wdl.elo();
    // A side that won every game has no finite Elo estimate.
    let elo_text = if r.wdl.wins == r.wdl.games() || r.wdl.losses == r.wdl.games() {
        "Elo unbounded (one side won every game)".to_string()
    } else {
        format!("Elo {elo:+.1} ± {err:.1}, nElo {:+.1} ± {:.1}", r.nelo.0, r.nelo.1)
    };
    outln!(
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
    outln!("pentanomial (pairs scoring 0, ½, 1, 1½, 2 for {}): {:?}", r.a, r.penta.0);
    if let (Some(llr), Some(state)) = (r.llr, r.sprt) {
        let verdict = match state {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "undecided",
        };
        outln!("SPRT: LLR {llr:.2}, {verdict}");
    }
    finish(&opts.out, &r.run, &progress);
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
    let n = merge::merge(&a.dirs, &a.out)?;
    eprintln!("merged {n} games into {}", a.out.display());
    Ok(ExitCode::SUCCESS)
}
