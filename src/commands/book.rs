//! `hoplite book`: an opening book of balanced positions for balance runs.

use super::players::Registry;
use super::selfplay::BudgetArgs;
use super::{CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_search::Budget;
use hoplite_selfplay::openings::book::{epd_text, make_book, pgn_book, played_book, BookSettings};
use hoplite_selfplay::openings::played::{self, Played};
use hoplite_selfplay::player::scoring::{score_all, ScoringJob};
use hoplite_selfplay::EngineFiles;
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
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// How the positions are found (default played; filtered when --within is given).
    #[arg(long, value_enum)]
    method: Option<Method>,
    /// Plies from the setup to each position (default: played, the variant file's
    /// `[openings]`, else 8; filtered, 8).
    #[arg(long)]
    plies: Option<u32>,
    /// Distinct positions wanted.
    #[arg(long, alias = "positions", default_value_t = 500)]
    games: usize,
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
    /// Who plays or scores: hoplite, or an engine of engines.toml that reports scores.
    #[arg(long, default_value = "hoplite")]
    player: String,
    /// The player's budget a ply (played, default 4,000 nodes) or a position (filtered,
    /// default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Scores every position with the player at this many nodes (a deep look: how level the
    /// book is), writes the scores as `ce` and prints their spread.
    #[arg(long)]
    score_nodes: Option<u64>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    let variant = super::load_variant(&a.variant)?;
    let registry = Registry::load(a.engines.as_deref())?;
    let method = a.method.unwrap_or(if a.within.is_some() { Method::Filtered } else { Method::Played });
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let given = a.budget.budget()?;
    let (book, plies, summary) = match method {
        Method::Played => {
            if a.within.is_some() || a.max_tries.is_some() {
                return Err("--within and --max-tries are of filtered books (--method filtered)".into());
            }
            let budget = given.or(Budget::nodes(played::DEFAULT_NODES));
            let played = Played {
                player: registry.player(&a.player, &a.player, budget, EngineFiles::default(), 16)?,
                plies: a.plies.or(variant.opening_plies).unwrap_or(played::DEFAULT_PLIES),
                margin: a.margin.or(variant.opening_margin).unwrap_or(played::DEFAULT_MARGIN),
                lines: a.lines.unwrap_or(played::DEFAULT_LINES).max(1),
            };
            let mut tried = 0;
            let book = played_book(&variant, &played, a.games, a.seed, threads, &mut |made, wanted| {
                tried = made;
                eprint!("\r{made} openings played for {wanted} distinct positions");
            })?;
            // Openings that ended where one before them did were played again.
            let summary = format!(
                "{} positions played {} plies among moves within {} cp of the best ({tried} openings tried)",
                book.len(),
                played.plies,
                played.margin
            );
            (book, played.plies, summary)
        }
        Method::Filtered => {
            if a.margin.is_some() || a.lines.is_some() {
                return Err("--margin and --lines are of played books (--method played)".into());
            }
            let player = registry.player(&a.player, &a.player, given, EngineFiles::default(), 16)?;
            let settings = BookSettings {
                plies: a.plies.unwrap_or(8),
                positions: a.games,
                within: a.within.unwrap_or(60),
                seed: a.seed,
                threads,
                max_tries: a.max_tries.unwrap_or(a.games as u64 * 100),
            };
            let made = make_book(&variant, &player, &settings, |found, tried| {
                eprint!("\r{found}/{} positions kept of {tried} tried", settings.positions);
            })?;
            let level = 100.0 * made.level as f64 / made.scored.max(1) as f64;
            let summary = format!(
                "{} positions within ±{} cp ({level:.0}% of {} distinct openings scored were)",
                made.lines.len(),
                settings.within,
                made.scored
            );
            (made.lines, settings.plies, summary)
        }
    };
    eprintln!();
    let mut book = book;
    if let Some(nodes) = a.score_nodes {
        let player = registry.player(&a.player, &a.player, Budget::nodes(nodes), EngineFiles::default(), 16)?;
        let start = hoplite_core::Position::startpos(&variant);
        let positions: Vec<hoplite_core::Position> = book
            .iter()
            .map(|b| {
                let mut p = start.clone();
                b.moves.iter().for_each(|&m| p.make(m));
                p
            })
            .collect();
        let jobs: Vec<ScoringJob> = book
            .iter()
            .zip(&positions)
            .map(|(b, position)| ScoringJob { start: &start, moves: &b.moves, position })
            .collect();
        let scores = score_all(&variant, &player, &jobs, threads)?;
        // From White's view, so that the first move's advantage shows as a mean above zero.
        let white: Vec<f64> = scores
            .iter()
            .zip(&positions)
            .filter_map(|(s, p)| s.score().map(|s| (p.side_to_move().sign() * s) as f64))
            .collect();
        let n = white.len().max(1) as f64;
        let mean = white.iter().sum::<f64>() / n;
        let sd = (white.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        let level = white.iter().filter(|x| (*x - mean).abs() <= 50.0).count() as f64 / n;
        outln!(
            "scores at {nodes} nodes, White's view: mean {mean:+.1} cp, sd {sd:.1} cp, {:.0}% within 50 cp of the mean",
            100.0 * level
        );
        for (b, s) in book.iter_mut().zip(scores) {
            b.score = s.score();
        }
    }
    let out = a.out.unwrap_or_else(|| PathBuf::from(format!("books/{}-{plies}.epd", variant.name)));
    let write = |path: &PathBuf, text: String| -> Result<(), Box<dyn std::error::Error>> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()).into())
    };
    write(&out, epd_text(&variant, &book))?;
    if let Some(p) = &a.pgn {
        write(p, pgn_book(&variant, &book))?;
    }
    outln!("{summary}: {}", out.display());
    if book.len() < a.games {
        eprintln!("warning: only {} of {} positions found; raise --max-tries or --within", book.len(), a.games);
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
