//! `hoplite book`: an opening book of balanced positions for balance runs.

use super::players::Registry;
use super::selfplay::BudgetArgs;
use super::CmdResult;
use clap::Args;
use hoplite_selfplay::book::{epd_text, make_book, pgn_book, BookSettings};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct BookArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long, default_value = "spartan")]
    variant: String,
    /// Random plies from the setup to each position.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// Distinct positions wanted.
    #[arg(long, alias = "positions", default_value_t = 500)]
    games: usize,
    /// Keep a position only if the player's search scores it within ± this many centipawns
    /// (side to move's view).
    #[arg(long, default_value_t = 60)]
    within: i32,
    /// Who scores the positions: hoplite, or an engine of engines.toml that reports scores.
    #[arg(long, default_value = "hoplite")]
    player: String,
    /// The scoring search's budget (default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
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
    let player = registry.player(&a.player, &a.player, a.budget.budget()?, None, 16)?;
    let settings = BookSettings {
        plies: a.plies,
        positions: a.games,
        within: a.within,
        seed: a.seed,
        threads: a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        max_tries: a.max_tries.unwrap_or(a.games as u64 * 100),
    };
    let made = make_book(&variant, &player, &settings, |found, tried| {
        eprint!("\r{found}/{} positions kept of {tried} tried", settings.positions);
    })?;
    eprintln!();
    let out = a.out.unwrap_or_else(|| PathBuf::from(format!("books/{}-{}.epd", variant.name, a.plies)));
    let write = |path: &PathBuf, text: String| -> Result<(), Box<dyn std::error::Error>> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()).into())
    };
    let book = &made.lines;
    write(&out, epd_text(&variant, book))?;
    if let Some(p) = &a.pgn {
        write(p, pgn_book(&variant, book))?;
    }
    let level = 100.0 * made.level as f64 / made.scored.max(1) as f64;
    outln!(
        "{} positions within ±{} cp in {} ({level:.0}% of {} distinct openings scored were)",
        book.len(),
        a.within,
        out.display(),
        made.scored
    );
    if book.len() < a.games {
        eprintln!("warning: only {} of {} positions found; raise --max-tries or --within", book.len(), a.games);
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
