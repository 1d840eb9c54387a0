//! Each command's request: what its command line gives, every field optional, resolved here
//! against the command's file (a balance or values file) and then the defaults
//! (`crate::defaults`). A command fills a request and calls its one function; what comes back
//! is data to print.

pub mod balance;
pub mod book;
pub mod datagen;
pub mod label;
pub mod matchup;
pub mod selfplay;
pub mod values;

use crate::defaults;
use crate::error::RunError;
use crate::openings::played::{Method, OpeningSettings};
use crate::player::{EngineFiles, Registry};
use crate::run::game::Adjudication;
use crate::{Progress, RunOptions, RunReport};
use hoplite_core::Variant;
use hoplite_formats::manifest::{BookOrder, PlayerKind};
use hoplite_formats::Manifest;
use hoplite_search::{Budget, Clock};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a run of several parts (balance, values) tells its caller as it goes.
pub enum Event<'a> {
    /// A run's games (or openings) go by.
    Progress(&'a Progress),
    /// A run has ended: its report and its output directory.
    Finished(&'a RunReport, &'a Path),
    /// A round of `values --until` has ended: its number, the games in all so far, and each
    /// target's (letter, half-width now, half-width wanted).
    Round { round: u64, games: u64, widths: Vec<(char, f64, f64)> },
    /// The imbalances the next round plays.
    Picks { round: u64, picks: &'a [String] },
}

/// A player's budget per move as lists: one value, or a ladder (one rung per value; a single
/// value applies to every rung). What is not given comes from elsewhere (a side's own
/// budget, a balance file), and nothing at all means the default nodes.
#[derive(Clone, Debug, Default)]
pub struct BudgetLists {
    pub nodes: Vec<u64>,
    pub depth: Vec<u32>,
    /// Milliseconds per move.
    pub movetime: Vec<u64>,
    pub tc: Vec<Clock>,
}

impl BudgetLists {
    /// The budgets of the rungs the lists give (lists of one length; a value alone applies to
    /// every rung); one empty budget when none is given.
    pub fn budgets(&self) -> Result<Vec<Budget>, RunError> {
        let lens = [self.nodes.len(), self.depth.len(), self.movetime.len(), self.tc.len()];
        let rungs = lens.iter().copied().max().unwrap_or(0).max(1);
        if lens.iter().any(|&l| l > 1 && l != rungs) {
            return Err(RunError::Usage(format!(
                "budget lists of different lengths (nodes, depth, movetime, tc: {lens:?})"
            )));
        }
        fn at<T: Copy>(v: &[T], i: usize) -> Option<T> {
            v.get(i).or(v.first()).copied()
        }
        let budgets: Vec<Budget> = (0..rungs)
            .map(|i| Budget {
                nodes: at(&self.nodes, i),
                depth: at(&self.depth, i),
                movetime: at(&self.movetime, i).map(Duration::from_millis),
                clock: at(&self.tc, i),
            })
            .collect();
        for b in &budgets {
            b.check().map_err(|e| RunError::Usage(format!("the budget's {e}")))?;
        }
        Ok(budgets)
    }

    /// One budget (a match's): a ladder is refused.
    pub fn budget(&self) -> Result<Budget, RunError> {
        match self.budgets()?.as_slice() {
            [one] => Ok(*one),
            _ => Err(RunError::Usage("a ladder of budgets is for selfplay and balance runs".into())),
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

/// What a run of games is asked for, beside its players: every field optional.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    /// Games (per configuration in a balance run).
    pub games: Option<u64>,
    pub threads: Option<usize>,
    pub seed: Option<u64>,
    /// How games open after their start position (`played` or `random`) and the played
    /// openings' settings.
    pub opening: OpeningSettings,
    /// Random legal plies after each start position (random openings).
    pub random_plies: Option<u32>,
    pub book: Option<PathBuf>,
    pub book_order: BookOrder,
    pub shuffle: bool,
    pub out: Option<PathBuf>,
    pub pgn: bool,
    pub resume: bool,
    pub shard: Option<(u64, u64)>,
    pub max_plies: Option<u32>,
    pub resign: Option<(i32, u32)>,
    pub draw: Option<(i32, u32, u32)>,
    pub evals: bool,
    pub timing: bool,
    pub tt_mb: Option<usize>,
    pub engines: Option<PathBuf>,
}

/// What a run uses where its request says nothing: a file's (a balance file), then the
/// command's defaults.
#[derive(Clone)]
struct RunDefaults {
    games: u64,
    seed: u64,
    random_plies: Option<u32>,
    max_plies: u32,
    opening: OpeningSettings,
}

impl RunDefaults {
    /// Selfplay, balance and values open games with played openings; a match with random plies.
    fn of(method: Method) -> RunDefaults {
        RunDefaults {
            games: defaults::GAMES,
            seed: defaults::SEED,
            random_plies: None,
            max_plies: defaults::MAX_PLIES,
            opening: OpeningSettings { method: Some(method), ..Default::default() },
        }
    }
}

impl RunRequest {
    /// Sets how `opts`' games open in `variant`: the request's settings, then the defaults'
    /// (a balance file's, then the command's), then the variant's `[openings]`.
    fn set_opening(
        &self,
        defaults: &RunDefaults,
        variant: &Variant,
        registry: &Registry,
        opts: &mut RunOptions,
    ) -> Result<(), RunError> {
        let usage = |s: &str| Err(RunError::Usage(s.into()));
        let (given, random_plies) = match self.recorded_opening(opts)? {
            Some(recorded) => recorded,
            None => (self.opening.clone(), self.random_plies),
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
                    return usage("--opening-* settings are of played openings, not --opening random");
                }
                let book_alone =
                    if opts.book.is_some() { defaults::RANDOM_PLIES_AFTER_BOOK } else { defaults::RANDOM_PLIES };
                opts.random_plies = random_plies.unwrap_or(book_alone);
                opts.played = None;
            }
            Method::Played => {
                if self.random_plies.is_some() {
                    return usage("--random-plies is of random openings: played openings take --opening-plies");
                }
                let budget = OpeningSettings::budget(Budget { nodes: s.nodes, depth: s.depth, ..Default::default() });
                budget.check().map_err(|e| RunError::Usage(format!("the opening player's {e}")))?;
                let name = s.player.as_deref().unwrap_or(defaults::PLAYER);
                let player = registry.player(name, name, budget, EngineFiles::default(), opts.tt_megabytes)?;
                opts.random_plies = 0;
                opts.played = Some(s.played(variant, player));
            }
        }
        Ok(())
    }

    /// A resumed run's opening, as its run.toml records it, when the request gives none: the
    /// settings and the random plies.
    fn recorded_opening(&self, opts: &RunOptions) -> Result<Option<(OpeningSettings, Option<u32>)>, RunError> {
        let path = opts.out.join("run.toml");
        let silent = self.random_plies.is_none() && self.opening == OpeningSettings::default();
        if !opts.resume || !silent || !path.exists() {
            return Ok(None);
        }
        let m = Manifest::read(&path)?;
        Ok(Some(match m.played {
            Some(p) => {
                let budget = p.player.budget.unwrap_or_default();
                let player = match p.player.kind {
                    PlayerKind::Engine => p.player.engine_name.clone(),
                    _ => Some(defaults::PLAYER.into()),
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

    /// The options, with these defaults where the request says nothing.
    fn options(&self, defaults: &RunDefaults, default_out: &str) -> RunOptions {
        RunOptions {
            games: self.games.unwrap_or(defaults.games),
            threads: self.threads.unwrap_or_else(defaults::threads),
            seed: self.seed.unwrap_or(defaults.seed),
            random_plies: 0,
            played: None,
            book: self.book.clone(),
            book_order: self.book_order,
            shuffle: self.shuffle,
            out: self.out.clone().unwrap_or_else(|| PathBuf::from(default_out)),
            pgn: self.pgn,
            resume: self.resume,
            shard: self.shard,
            adjudication: Adjudication {
                max_plies: self.max_plies.unwrap_or(defaults.max_plies),
                resign: self.resign,
                draw: self.draw,
            },
            timing: self.timing,
            tt_megabytes: self.tt_mb.unwrap_or(defaults::TT_MB).max(1),
            engines: self.engines.as_ref().map(|e| e.display().to_string()),
            evals: self.evals,
            ladder: Vec::new(),
        }
    }

    /// The options and the registry of a run in `variant`, its openings set; `book` where
    /// the request names none (a balance file's).
    fn prepare(
        &self,
        defaults: &RunDefaults,
        default_out: &str,
        variant: &Variant,
        book: Option<PathBuf>,
    ) -> Result<(RunOptions, Registry), RunError> {
        let mut opts = self.options(defaults, default_out);
        opts.book = opts.book.or(book);
        let registry = Registry::load(opts.engines.as_deref().map(Path::new))?;
        self.set_opening(defaults, variant, &registry, &mut opts)?;
        within_limits(&opts)?;
        Ok((opts, registry))
    }
}

/// A run's numbers within their declared ranges (`defaults::LIMITS`), checked before any
/// file is written: a run too large for the machine or an opening longer than any game is a
/// message, not an abort or an endless retry.
fn within_limits(opts: &RunOptions) -> Result<(), RunError> {
    let values = [
        ("--games", "games", opts.games),
        ("--threads", "threads", opts.threads as u64),
        ("--tt-mb", "tt_mb", opts.tt_megabytes as u64),
        ("--random-plies", "random_plies", u64::from(opts.random_plies)),
        ("--opening-plies", "opening_plies", opts.played.as_ref().map_or(0, |p| u64::from(p.plies))),
    ];
    for (flag, name, value) in values {
        defaults::within(flag, name, value).map_err(RunError::Usage)?;
    }
    // Each thread's player has a table of its own: together they must fit the machine.
    let tables = opts.tt_megabytes as u64 * opts.threads as u64;
    if let Some(memory) = defaults::memory_mib().filter(|&m| tables > m / 2) {
        return Err(RunError::Usage(format!(
            "--tt-mb {} × --threads {} is {tables} MiB of tables, more than half of this machine's {memory} MiB",
            opts.tt_megabytes, opts.threads
        )));
    }
    // A game ends by adjudication after at least a ply, and a score held for no moves decides
    // nothing.
    let a = &opts.adjudication;
    let moves =
        [("--max-plies", Some(a.max_plies)), ("--resign", a.resign.map(|r| r.1)), ("--draw", a.draw.map(|d| d.1))];
    if let Some((flag, _)) = moves.iter().find(|(_, n)| *n == Some(0)) {
        return Err(RunError::Usage(format!("{flag}: a count of 0 plies or moves; it must be at least 1")));
    }
    Ok(())
}
