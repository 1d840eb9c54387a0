//! The flags that runs share (budget, run settings, engine files), filled into the library's
//! requests, and the lines a finished run prints.

use super::progress::Display;
use clap::Args;
use hoplite_formats::manifest::BookOrder;
use hoplite_search::{Clock, EvalKind};
use hoplite_selfplay::openings::played::{Method, OpeningSettings};
use hoplite_selfplay::request::{BudgetLists, RunRequest};
use hoplite_selfplay::{parse_shard, EngineFiles, RunReport};
use std::path::{Path, PathBuf};

/// A player's budget per move; what is not given here comes from elsewhere (a side's own
/// flags, a balance file), and nothing at all means 1,000 nodes (the same on any machine).
/// A comma list plays a strength ladder: one rung per value (a single value applies to all).
#[derive(Args, Clone, Default)]
pub(crate) struct BudgetArgs {
    /// Nodes per move, or a ladder: 1000,4000,16000.
    #[arg(long, value_delimiter = ',')]
    nodes: Vec<u64>,
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

impl BudgetArgs {
    pub(crate) fn lists(self) -> BudgetLists {
        BudgetLists { nodes: self.nodes, depth: self.depth, movetime: self.movetime, tc: self.tc }
    }
}

pub(crate) fn parse_clock(t: &str) -> Result<Clock, String> {
    Clock::parse(t).ok_or_else(|| format!("'{t}': expected BASE+INC in seconds, as 10+0.1"))
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Order {
    Shuffled,
    Sequential,
}

#[derive(Args, Clone)]
pub(crate) struct RunArgs {
    /// Number of games (per configuration in a balance run; default 100).
    #[arg(long)]
    games: Option<u64>,
    /// Worker threads (default: all cores); each has its own players and engine processes.
    #[arg(long)]
    threads: Option<usize>,
    /// Run seed: each game's randomness comes from (seed, game id) (default 1).
    #[arg(long)]
    seed: Option<u64>,
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
    /// The order book positions are taken in: shuffled by the seed (the default), or sequential.
    #[arg(long, value_enum)]
    book_order: Option<Order>,
    /// Shuffle the back-rank pieces of each game's setup, the same for both sides and every
    /// configuration (royal pieces, pawns and castling rooks stay; square colours are kept).
    #[arg(long)]
    shuffle: bool,
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
    /// Transposition table per hoplite search, MiB (default 1).
    #[arg(long)]
    tt_mb: Option<usize>,
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

impl RunArgs {
    pub(crate) fn request(self) -> RunRequest {
        RunRequest {
            games: self.games,
            threads: self.threads,
            seed: self.seed,
            opening: OpeningSettings {
                method: self.opening,
                plies: self.opening_plies,
                margin: self.opening_margin,
                player: self.opening_player,
                nodes: self.opening_nodes,
                depth: self.opening_depth,
                lines: self.opening_lines,
            },
            random_plies: self.random_plies,
            book: self.book,
            book_order: match self.book_order {
                None => BookOrder::default(),
                Some(Order::Shuffled) => BookOrder::Shuffled,
                Some(Order::Sequential) => BookOrder::Sequential,
            },
            shuffle: self.shuffle,
            out: self.out,
            pgn: self.pgn,
            resume: self.resume,
            shard: self.shard,
            max_plies: self.max_plies,
            resign: self.resign,
            draw: self.draw,
            evals: self.evals,
            timing: self.timing,
            tt_mb: self.tt_mb,
            engines: self.engines,
        }
    }
}

/// hoplite's engine files (`--weights`, `--params`, `--network`).
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
    /// A network file for hoplite's engine to evaluate with instead of weights (as `hoplite
    /// train` writes; made for this variant). run.toml records it with a hash of its bytes.
    #[arg(long)]
    network: Option<PathBuf>,
    /// hoplite's evaluation when no file gives one: linear (its weights), or network (the
    /// variant's shipped one, data/networks/). Default: the network where the variant has one.
    #[arg(long)]
    eval: Option<EvalKind>,
}

impl EngineArgs {
    pub(crate) fn files(self) -> EngineFiles {
        EngineFiles { weights: self.weights, params: self.params, network: self.network, eval: self.eval }
    }
}

/// The lines a finished run prints on stderr.
pub(crate) fn finish(out: &Path, r: &RunReport, display: &Display) {
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
