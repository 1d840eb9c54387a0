//! `hoplite book`: an opening book of balanced positions for balance runs.

use super::run_args::BudgetArgs;
use super::CmdResult;
use clap::Args;
use hoplite_search::EvalKind;
use hoplite_selfplay::request::book::{BookMade, BookMethod, BookProgress, BookRequest};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum Method {
    /// Openings played among the player's near-best moves (as the runs' played openings).
    Played,
    /// Random openings that the player's search scores near equality.
    Filtered,
}

#[derive(Args)]
pub struct BookArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    /// How the positions are found (default played; filtered when --within is given).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Plies from the setup to each position (default: played, the variant file's
    /// `[openings]`, else 8; filtered, 8).
    #[arg(long)]
    plies: Option<u32>,
    /// Distinct positions wanted [default: 500].
    #[arg(long, alias = "positions")]
    games: Option<usize>,
    /// Played: a move is chosen among those within this many centipawns of the best (default:
    /// the variant file's `[openings]`, else 40).
    #[arg(long)]
    margin: Option<i32>,
    /// Played: the moves the player ranks a ply (multi-PV; default 8).
    #[arg(long)]
    lines: Option<usize>,
    /// Filtered: keep a position only if the player's search scores it within ± this many
    /// centipawns (side to move's view; default 60).
    #[arg(long)]
    within: Option<i32>,
    /// Who plays or scores: hoplite, or an engine of engines.toml that reports scores
    /// [default: hoplite].
    #[arg(long)]
    player: Option<String>,
    /// hoplite's evaluation: linear (its weights), or network (the variant's shipped one).
    /// Default: the network where the variant has one.
    #[arg(long)]
    eval: Option<EvalKind>,
    /// The player's budget a ply (played, default 4,000 nodes) or a position (filtered,
    /// default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Scores every position with the player at this many nodes (a deep look: how level the
    /// book is), writes the scores as `ce` and prints their spread.
    #[arg(long)]
    score_nodes: Option<u64>,
    /// Seed of the random openings [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Threads scoring positions (default: all cores); the book does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Give up after this many candidate openings (default 100 per position wanted).
    #[arg(long)]
    max_tries: Option<u64>,
    /// The EPD file to write (default books/VARIANT-PLIES.epd).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the book as PGN here.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Outside engines by name (default ./engines.toml, else the built-in configs/engines.toml).
    #[arg(long)]
    engines: Option<PathBuf>,
}

pub fn run(a: BookArgs) -> CmdResult {
    let request = BookRequest {
        variant: a.variant,
        method: a.method.map(|m| match m {
            Method::Played => BookMethod::Played,
            Method::Filtered => BookMethod::Filtered,
        }),
        plies: a.plies,
        positions: a.games,
        margin: a.margin,
        lines: a.lines,
        within: a.within,
        player: a.player,
        eval: a.eval,
        budget: a.budget.lists(),
        score_nodes: a.score_nodes,
        seed: a.seed,
        threads: a.threads,
        max_tries: a.max_tries,
        out: a.out,
        pgn: a.pgn,
        engines: a.engines,
    };
    let done = request.run(|p| match p {
        BookProgress::Played { made, wanted } => eprint!("\r{made} openings played for {wanted} distinct positions"),
        BookProgress::Filtered { found, wanted, tried } => {
            eprint!("\r{found}/{wanted} positions kept of {tried} tried")
        }
        BookProgress::Made => eprintln!(),
    })?;
    if let Some(s) = &done.spread {
        outln!(
            "scores at {} nodes, White's view: mean {:+.1} cp, sd {:.1} cp, {:.0}% within 50 cp of the mean",
            s.nodes,
            s.mean,
            s.sd,
            100.0 * s.level
        );
    }
    let summary = match done.made {
        // Openings that ended where one before them did were played again.
        BookMade::Played { plies, margin, tried } => format!(
            "{} positions played {plies} plies among moves within {margin} cp of the best ({tried} openings tried)",
            done.positions
        ),
        BookMade::Filtered { within, scored, level } => {
            let share = 100.0 * level as f64 / scored.max(1) as f64;
            format!(
                "{} positions within ±{within} cp ({share:.0}% of {scored} distinct openings scored were)",
                done.positions
            )
        }
    };
    outln!("{summary}: {}", done.out.display());
    if done.positions < done.wanted {
        eprintln!("warning: only {} of {} positions found; raise --max-tries or --within", done.positions, done.wanted);
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
