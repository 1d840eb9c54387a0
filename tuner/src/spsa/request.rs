//! `hoplite spsa`'s request: what the command line gives, resolved against the defaults
//! (`hoplite_selfplay::defaults`) into the settings a run records and is resumed with.

use super::{run_in, Spsa, SpsaSettings};
use hoplite_search::Budget;
use hoplite_selfplay::defaults;
use hoplite_selfplay::RunError;
use std::path::PathBuf;

/// An SPSA run as asked for: what is left out comes from the defaults.
#[derive(Clone, Debug, Default)]
pub struct SpsaRequest {
    /// Built-in variant name or variant file.
    pub variant: Option<String>,
    pub games: Option<u64>,
    /// Nodes per move (the default unless a depth is given).
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// The tuned numbers by name (none: every search parameter but the clock's).
    pub tune: Vec<String>,
    pub batch: Option<u64>,
    pub r_end: Option<f64>,
    pub opening_plies: Option<u32>,
    pub max_plies: Option<u32>,
    pub tt_mb: Option<usize>,
    pub threads: Option<usize>,
    pub seed: Option<u64>,
    /// The output directory (default runs/spsa-VARIANT).
    pub out: Option<PathBuf>,
    pub resume: bool,
}

/// A finished run: its state and its directory.
pub struct SpsaOutcome {
    pub spsa: Spsa,
    pub out: PathBuf,
}

impl SpsaRequest {
    /// The settings the run records (spsa.toml): these, then the defaults.
    pub fn settings(&self) -> SpsaSettings {
        let nodes = self.nodes.or(self.depth.is_none().then_some(defaults::NODES));
        SpsaSettings {
            variant: self.variant.clone().unwrap_or_else(|| defaults::VARIANT.into()),
            nodes,
            depth: self.depth,
            games: self.games.unwrap_or(defaults::SPSA_GAMES),
            batch: self.batch.unwrap_or(defaults::SPSA_BATCH),
            seed: self.seed.unwrap_or(defaults::SEED),
            opening_plies: self.opening_plies.unwrap_or(defaults::SPSA_OPENING_PLIES),
            max_plies: self.max_plies.unwrap_or(defaults::MAX_PLIES),
            tt_mb: self.tt_mb.unwrap_or(defaults::TT_MB),
            r_end: self.r_end.unwrap_or(defaults::SPSA_R_END),
            tune: self.tune.clone(),
        }
    }

    /// Plays the run (or continues it), calling `progress` after each batch with the state and
    /// the pairs played before this session.
    pub fn run(&self, progress: impl FnMut(&Spsa, u64)) -> Result<SpsaOutcome, RunError> {
        let settings = self.settings();
        let out = match &self.out {
            Some(out) => out.clone(),
            None => PathBuf::from(format!("runs/spsa-{}", defaults::stem(&settings.variant))),
        };
        let threads = self.threads.unwrap_or_else(defaults::threads);
        check(&settings, threads).map_err(RunError::Usage)?;
        let spsa = run_in(&settings, &out, threads, self.resume, progress)?;
        Ok(SpsaOutcome { spsa, out })
    }
}

/// The run's numbers in their ranges, before any file is written.
fn check(s: &SpsaSettings, threads: usize) -> Result<(), String> {
    defaults::within("--games", "games", s.games)?;
    defaults::within("--threads", "threads", threads as u64)?;
    defaults::within("--tt-mb", "tt_mb", s.tt_mb as u64)?;
    defaults::within("--opening-plies", "opening_plies", u64::from(s.opening_plies))?;
    if s.games < 2 || s.batch == 0 || s.max_plies == 0 {
        return Err(format!(
            "--games {}, --batch {}, --max-plies {}: SPSA plays pairs of games, at least one a batch, of at least a ply",
            s.games, s.batch, s.max_plies
        ));
    }
    if !(s.r_end.is_finite() && s.r_end > 0.0) {
        return Err(format!("--r-end {}: the last step's size must be above 0", s.r_end));
    }
    Budget { nodes: s.nodes, depth: s.depth, ..Default::default() }.check().map_err(|e| format!("the budget's {e}"))
}
