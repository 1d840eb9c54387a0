//! `hoplite book`'s request: an opening book of played or filtered openings, optionally
//! scored deeper, written as EPD (and PGN).

use crate::defaults;
use crate::error::RunError;
use crate::openings::book::{epd_text, make_book, pgn_book, played_book, BookLine, BookSettings};
use crate::openings::played::OpeningSettings;
use crate::player::scoring::{score_all, ScoringJob};
use crate::player::{EngineFiles, PlayerSpec, Registry};
use crate::request::BudgetLists;
use hoplite_core::{Position, Variant};
use hoplite_search::{Budget, EvalKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a book's positions are found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BookMethod {
    /// Openings played among the player's near-best moves (as the runs' played openings).
    Played,
    /// Random openings that the player's search scores near equality.
    Filtered,
}

#[derive(Clone, Debug, Default)]
pub struct BookRequest {
    pub variant: Option<String>,
    /// Default played; filtered when `within` is given.
    pub method: Option<BookMethod>,
    pub plies: Option<u32>,
    /// Distinct positions wanted.
    pub positions: Option<usize>,
    pub margin: Option<i32>,
    pub lines: Option<usize>,
    pub within: Option<i32>,
    pub player: Option<String>,
    /// hoplite's evaluation (`--eval`; without it, the variant's shipped network where it has one).
    pub eval: Option<EvalKind>,
    pub budget: BudgetLists,
    /// Score every position at this many nodes.
    pub score_nodes: Option<u64>,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    pub max_tries: Option<u64>,
    /// The EPD file (default books/VARIANT-PLIES.epd).
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    pub engines: Option<PathBuf>,
}

/// Where the making of a book stands.
pub enum BookProgress {
    /// Openings played, of the distinct positions wanted.
    Played { made: usize, wanted: usize },
    /// Positions kept of the wanted, and candidates tried.
    Filtered { found: usize, wanted: usize, tried: u64 },
    /// The positions are found (before any deeper scoring).
    Made,
}

/// How the positions were found.
pub enum BookMade {
    Played { plies: u32, margin: i32, tried: usize },
    Filtered { within: i32, scored: u64, level: u64 },
}

/// The spread of the deeper scores, from White's view: mean and standard deviation in
/// centipawns and the share within 50 cp of the mean.
pub struct Spread {
    pub nodes: u64,
    pub mean: f64,
    pub sd: f64,
    pub level: f64,
}

/// A book written: its positions, how many were wanted, how they were found, the spread of
/// the deeper scores and the EPD file.
pub struct BookOutcome {
    pub positions: usize,
    pub wanted: usize,
    pub made: BookMade,
    pub spread: Option<Spread>,
    pub out: PathBuf,
}

impl BookRequest {
    fn player(&self, registry: &Registry, budget: Budget) -> Result<PlayerSpec, RunError> {
        let name = self.player.as_deref().unwrap_or(defaults::PLAYER);
        let files = EngineFiles { eval: self.eval, ..Default::default() };
        registry.player(name, name, budget, files, defaults::SCORING_HASH_MB)
    }

    pub fn run(&self, mut progress: impl FnMut(BookProgress)) -> Result<BookOutcome, RunError> {
        let variant = Variant::load(self.variant.as_deref().unwrap_or(defaults::VARIANT))?;
        let registry = Registry::load(self.engines.as_deref())?;
        let filtered = self.within.is_some();
        let method = self.method.unwrap_or(if filtered { BookMethod::Filtered } else { BookMethod::Played });
        let threads = self.threads.unwrap_or_else(defaults::threads);
        let wanted = self.positions.unwrap_or(defaults::BOOK_POSITIONS);
        // A position is an opening played, like a game's: as many as a run may have games.
        defaults::within("--positions", "games", wanted as u64).map_err(RunError::Usage)?;
        let seed = self.seed.unwrap_or(defaults::SEED);
        let given = self.budget.budget()?;
        let usage = |s: &str| Err(RunError::Usage(s.into()));
        let (mut book, plies, made) = match method {
            BookMethod::Played => {
                if self.within.is_some() || self.max_tries.is_some() {
                    return usage("--within and --max-tries are of filtered books (--method filtered)");
                }
                let player = self.player(&registry, OpeningSettings::budget(given))?;
                let settings =
                    OpeningSettings { plies: self.plies, margin: self.margin, lines: self.lines, ..Default::default() };
                let played = settings.played(&variant, player);
                let mut tried = 0;
                let book = played_book(&variant, &played, wanted, seed, threads, &mut |made, wanted| {
                    tried = made;
                    progress(BookProgress::Played { made, wanted });
                })?;
                (book, played.plies, BookMade::Played { plies: played.plies, margin: played.margin, tried })
            }
            BookMethod::Filtered => {
                if self.margin.is_some() || self.lines.is_some() {
                    return usage("--margin and --lines are of played books (--method played)");
                }
                let player = self.player(&registry, given)?;
                let settings = BookSettings {
                    plies: self.plies.unwrap_or(defaults::BOOK_FILTERED_PLIES),
                    positions: wanted,
                    within: self.within.unwrap_or(defaults::BOOK_WITHIN),
                    seed,
                    threads,
                    max_tries: self.max_tries.unwrap_or(wanted as u64 * defaults::BOOK_TRIES_PER_POSITION),
                };
                let made = make_book(&variant, &player, &settings, |found, tried| {
                    progress(BookProgress::Filtered { found, wanted, tried });
                })?;
                let how = BookMade::Filtered { within: settings.within, scored: made.scored, level: made.level };
                (made.lines, settings.plies, how)
            }
        };
        progress(BookProgress::Made);
        let spread = match self.score_nodes {
            Some(nodes) => Some(self.score(&variant, &registry, nodes, threads, &mut book)?),
            None => None,
        };
        let out = self.out.clone().unwrap_or_else(|| PathBuf::from(format!("books/{}-{plies}.epd", variant.name)));
        write(&out, epd_text(&variant, &book))?;
        if let Some(p) = &self.pgn {
            write(p, pgn_book(&variant, &book))?;
        }
        Ok(BookOutcome { positions: book.len(), wanted, made, spread, out })
    }

    /// Scores every position of `book` with the player at `nodes` (its `score`), and the
    /// scores' spread.
    fn score(
        &self,
        variant: &Arc<Variant>,
        registry: &Registry,
        nodes: u64,
        threads: usize,
        book: &mut [BookLine],
    ) -> Result<Spread, RunError> {
        let player = self.player(registry, Budget::nodes(nodes))?;
        let start = Position::startpos(variant);
        let positions: Vec<Position> = book
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
        let scores = score_all(variant, &player, &jobs, threads)?;
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
        for (b, s) in book.iter_mut().zip(scores) {
            b.score = s.score();
        }
        Ok(Spread { nodes, mean, sd, level })
    }
}

/// Writes `text` to `path`, its folder made.
fn write(path: &Path, text: String) -> Result<(), RunError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| RunError::Usage(format!("{}: {e}", dir.display())))?;
    }
    std::fs::write(path, text).map_err(|e| RunError::Usage(format!("{}: {e}", path.display())))
}
