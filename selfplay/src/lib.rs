//! hoplite-selfplay: parallel self-play, match and balance runs, CSV/PGN output, statistics,
//! shards and merge. The library does not print: runs report progress through a callback.
//!
//! A command's request (`request`) resolves what it was given, then its file, then the
//! defaults (`defaults`), loads the variant once and hands a plan (`plans`) its players and
//! `RunOptions`; the runner (`run`) plays the games on worker threads and writes the run
//! directory. Four games of Spartan chess at 200 nodes a move, as `hoplite selfplay` plays them:
//!
//! ```
//! use hoplite_selfplay::request::{selfplay::SelfplayRequest, BudgetLists, RunRequest};
//!
//! let out = std::env::temp_dir().join(format!("hoplite-doc-selfplay-{}", std::process::id()));
//! let request = SelfplayRequest {
//!     variant: Some("spartan".into()),
//!     budget: BudgetLists { nodes: vec![200], ..Default::default() },
//!     run: RunRequest { games: Some(4), threads: Some(2), out: Some(out.clone()), ..Default::default() },
//!     ..Default::default()
//! };
//! let done = request.run(|_progress| {}).unwrap();
//! assert_eq!(done.report.played, 4);
//! let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
//! assert_eq!(games.lines().count(), 1 + 4); // the header and a row a game
//! # std::fs::remove_dir_all(&out).unwrap();
//! ```
#![forbid(unsafe_code)]

pub mod defaults;
pub mod error;
pub mod openings;
pub mod plans;
pub mod player;
pub mod request;
pub mod run;

pub use error::RunError;
/// The statistics of games (a crate of their own, which the tuner shares).
pub use hoplite_stats as stats;
pub use player::{EngineFiles, PlayerSpec};
pub use run::{parse_shard, Progress, RunReport};

use hoplite_core::Variant;
use hoplite_formats::manifest::{BookOrder, RunKind, FORMAT};
use hoplite_formats::Manifest;
use hoplite_search::Budget;
use run::game::Adjudication;
use run::output::Tallies;
use std::path::PathBuf;

/// Options shared by selfplay, match and balance runs.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub games: u64,
    pub threads: usize,
    pub seed: u64,
    /// Random plies after each start position (none when `played` is given).
    pub random_plies: u32,
    /// Plies played by a searching player after each start position.
    pub played: Option<openings::played::Played>,
    pub book: Option<PathBuf>,
    pub book_order: BookOrder,
    /// Shuffle each game's back-rank pieces, the same for both sides (`Variant::shuffle_back_ranks`).
    pub shuffle: bool,
    pub out: PathBuf,
    pub pgn: bool,
    pub resume: bool,
    /// (K, N): play only game ids ≡ K (mod N).
    pub shard: Option<(u64, u64)>,
    pub adjudication: Adjudication,
    pub timing: bool,
    pub tt_megabytes: usize,
    /// The engines.toml given on the command line, for run.toml.
    pub engines: Option<String>,
    /// Keep the players' evaluations in games.csv (for the quality measures).
    pub evals: bool,
    /// A strength ladder: the budgets to play every configuration at (empty: the players' own).
    pub ladder: Vec<Budget>,
}

impl RunOptions {
    /// hoplite's played openings with the kind of evaluation the run's player has: the one
    /// `--eval` chose, linear for a weights file (unless the openings' player is another).
    fn openings_eval(&mut self, player: &EngineFiles) {
        let eval = player.eval.or(player.weights.as_ref().map(|_| hoplite_search::EvalKind::Linear));
        if let Some(PlayerSpec::Hoplite { files, .. }) = self.played.as_mut().map(|p| &mut p.player) {
            if *files == EngineFiles::default() {
                files.eval = eval;
            }
        }
    }

    /// run.toml for a run of `command` with these options and players.
    fn manifest(&self, command: RunKind, players: &[&PlayerSpec], variants: &[&Variant]) -> Manifest {
        let a = &self.adjudication;
        Manifest {
            format: FORMAT,
            command,
            variant: None,
            config: None,
            games: self.games,
            seed: self.seed,
            random_plies: if self.played.is_some() { 0 } else { self.random_plies },
            played: self.played.as_ref().map(|p| p.record(variants)),
            book: self.book.as_ref().map(|b| b.display().to_string()),
            book_order: self.book_order,
            shuffle: self.shuffle,
            max_plies: a.max_plies,
            resign: a.resign,
            draw: a.draw,
            pgn: self.pgn,
            timing: self.timing,
            evals: self.evals,
            tt_mb: self.tt_megabytes,
            shard: self.shard.map(|(k, n)| format!("{k}/{n}")),
            sprt: None,
            engines: self.engines.clone(),
            ladder: self.ladder.clone(),
            army_swaps: Vec::new(),
            controls: Vec::new(),
            players: players.iter().map(|p| p.record(variants)).collect(),
        }
    }

    /// A player at each rung of the ladder (or as it is, without a ladder), and the rungs'
    /// budgets as the summary names them.
    fn rungs(&self, player: &PlayerSpec) -> Vec<(PlayerSpec, String)> {
        match self.ladder.as_slice() {
            [] => {
                let budget = player.budget().map(|b| b.to_string()).unwrap_or_default();
                vec![(player.clone(), budget)]
            }
            ladder => ladder.iter().map(|b| (player.with_budget(*b), b.to_string())).collect(),
        }
    }

    fn settings(&self) -> run::Execution {
        run::Execution {
            out: self.out.clone(),
            threads: self.threads,
            resume: self.resume,
            shard: self.shard,
            adjudication: self.adjudication,
        }
    }
}

/// A table of the summary for the terminal: each side's score with its 95% interval.
pub fn summary_table(tallies: &Tallies) -> String {
    let list = tallies.list();
    let w = list.iter().map(|(info, _)| info.label.chars().count()).max().unwrap_or(0).max(24);
    let mut s = format!(
        "{:<w$} {:>6} {:>6} {:>6} {:>6}  {:>22}  {:>22}  {:>6}\n",
        "config", "games", "white", "draws", "black", "white score (95% CI)", "black score (95% CI)", "plies"
    );
    for (info, t) in list {
        let config = info.label;
        let (lo, hi) = t.wdl.score_interval();
        let sc = t.wdl.score();
        s += &format!(
            "{:<w$} {:>6} {:>6} {:>6} {:>6}  {:>6.3} [{:.3}, {:.3}]  {:>6.3} [{:.3}, {:.3}]  {:>6.1}\n",
            config,
            t.wdl.games(),
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses,
            sc,
            lo,
            hi,
            1.0 - sc,
            1.0 - hi,
            1.0 - lo,
            t.plies as f64 / t.wdl.games().max(1) as f64
        );
    }
    s
}
