//! `hoplite train`: a network for a variant from nothing, in rounds. Each round generates
//! training positions by self-play (`hoplite datagen`; the first round with the linear
//! evaluation, later ones with the last round's network), trains a network on every round's
//! positions so far, and plays it against the linear evaluation (and the last round's network)
//! in a gauntlet, whose Elo goes to rounds.csv. Every stage resumes where it stopped, so a
//! killed run started again with `--resume` loses nothing.
//!
//! ```text
//! OUT/round-R/data/        positions.bin, games.csv, run.toml (a datagen run; none in round 1
//!                          when the request names data files)
//! OUT/round-R/             network.nnue, loss.csv, checkpoint.bin
//! OUT/round-R/gauntlet-linear/, gauntlet-previous/   match runs
//! OUT/rounds.csv           a row a round
//! OUT/network.nnue         the last round's network
//! ```

use super::{train, Progress as TrainProgress, TrainConfig, NETWORK};
use crate::error::TuneError;
use hoplite_core::Variant;
use hoplite_formats::tune::RoundRow;
use hoplite_formats::{csvfile, packed, Decimal, FormatError, PACKED};
use hoplite_search::eval::network::Layout;
use hoplite_search::{Budget, EvalKind};
use hoplite_selfplay::defaults;
use hoplite_selfplay::player::EngineFiles;
use hoplite_selfplay::request::datagen::DatagenRequest;
use hoplite_selfplay::request::matchup::{MatchRequest, SideRequest};
use hoplite_selfplay::request::{BudgetLists, RunRequest};
use hoplite_selfplay::Progress;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The rounds' file.
pub use hoplite_formats::ROUNDS;

/// What `hoplite train` is asked for: every field optional, the defaults in
/// `hoplite_selfplay::defaults` (and the trainer's in `TrainConfig::default`).
#[derive(Clone, Debug, Default)]
pub struct TrainRequest {
    pub variant: Option<String>,
    pub out: Option<PathBuf>,
    pub rounds: Option<usize>,
    /// Self-play games a round.
    pub games: Option<u64>,
    /// The generator's nodes a move.
    pub nodes: Option<u64>,
    pub gauntlet_games: Option<u64>,
    pub gauntlet_nodes: Option<u64>,
    pub threads: Option<usize>,
    pub seed: Option<u64>,
    pub resume: bool,
    /// Positions files (positions.bin, or run directories that hold one) that are round 1's
    /// data in place of self-play, as a Slurm array of `hoplite datagen` shards makes them.
    pub data: Vec<PathBuf>,
    pub config: TrainConfig,
}

/// What a training run reports as it goes.
pub enum Event<'a> {
    /// Round `round` begins `stage` (`data`, `training`, `gauntlet`).
    Stage {
        round: usize,
        stage: &'static str,
    },
    /// A game of a data or gauntlet run.
    Games(&'a Progress),
    Training(TrainProgress<'a>),
    Round(&'a RoundRow),
}

impl TrainRequest {
    pub fn variant(&self) -> &str {
        self.variant.as_deref().unwrap_or(defaults::VARIANT)
    }

    /// The output folder.
    pub fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/train-{}", defaults::stem(self.variant()))))
    }

    /// Plays every round; the rows of rounds.csv.
    pub fn run(&self, mut event: impl FnMut(Event)) -> Result<Vec<RoundRow>, TuneError> {
        let variant = Variant::load(self.variant()).map_err(|e| TuneError::TrainSetting(e.to_string()))?;
        self.check()?;
        let out = self.out();
        if !self.resume && out.exists() && out.read_dir().is_ok_and(|mut d| d.next().is_some()) {
            return Err(TuneError::TrainSetting(format!(
                "{} is not empty: give --resume to continue its training, or another --out",
                out.display()
            )));
        }
        let mut rows = Vec::new();
        let mut positions = Vec::new();
        let mut previous: Option<PathBuf> = None;
        for round in 1..=self.rounds.unwrap_or(defaults::TRAIN_ROUNDS) {
            let dir = out.join(format!("round-{round}"));
            event(Event::Stage { round, stage: "data" });
            if round == 1 && !self.data.is_empty() {
                for file in &self.data {
                    let file = if file.is_dir() { file.join(PACKED) } else { file.clone() };
                    positions.extend(packed::read(&file, &variant)?);
                }
            } else {
                let data = self.generate(&dir.join("data"), round, previous.clone(), &mut event)?;
                positions.extend(packed::read(&data, &variant)?);
            }
            event(Event::Stage { round, stage: "training" });
            let layout = Layout::of(&variant);
            let report = train(&layout, &positions, &self.config, &dir, |p| {
                event(Event::Training(p));
                ControlFlow::Continue(())
            })?;
            let network = report.network.clone().unwrap_or_else(|| dir.join(NETWORK));
            event(Event::Stage { round, stage: "gauntlet" });
            let linear = self.gauntlet(&dir.join("gauntlet-linear"), round, &network, None, &mut event)?;
            let against_previous = match &previous {
                Some(p) => Some(self.gauntlet(&dir.join("gauntlet-previous"), round, &network, Some(p), &mut event)?),
                None => None,
            };
            let last = report.curve.last();
            let row = RoundRow {
                round,
                positions: positions.len() as u64,
                train_loss: Decimal(last.map_or(0.0, |e| e.train_loss)),
                valid_loss: last.and_then(|e| e.validation_loss).map(Decimal),
                elo_linear: Decimal(linear.0),
                elo_linear_error: Decimal(linear.1),
                elo_previous: against_previous.map(|e| Decimal(e.0)),
                elo_previous_error: against_previous.map(|e| Decimal(e.1)),
            };
            event(Event::Round(&row));
            rows.push(row);
            csvfile::write(&out.join(ROUNDS), &rows)?;
            std::fs::copy(&network, out.join(NETWORK)).map_err(|e| FormatError::io(&out.join(NETWORK), "write", e))?;
            previous = Some(network);
        }
        Ok(rows)
    }

    /// Every number in range before any game is played: the trainer's settings, the rounds, the
    /// games and the nodes of data and gauntlet.
    fn check(&self) -> Result<(), TuneError> {
        self.config.check()?;
        let bad = TuneError::TrainSetting;
        let rounds = self.rounds.unwrap_or(defaults::TRAIN_ROUNDS);
        if !(1..=1000).contains(&rounds) {
            return Err(bad(format!("--rounds {rounds} is outside 1..=1000")));
        }
        defaults::within("--games", "games", self.games.unwrap_or(defaults::TRAIN_GAMES)).map_err(bad)?;
        let gauntlet = self.gauntlet_games.unwrap_or(defaults::GAUNTLET_GAMES);
        defaults::within("--gauntlet-games", "games", gauntlet).map_err(bad)?;
        for (flag, nodes) in [("--nodes", self.nodes), ("--gauntlet-nodes", self.gauntlet_nodes)] {
            Budget { nodes, ..Default::default() }.check().map_err(|e| bad(format!("{flag}: {e}")))?;
        }
        Ok(())
    }

    /// Round `round`'s positions, generated into `dir` (or resumed there).
    fn generate(
        &self,
        dir: &Path,
        round: usize,
        network: Option<PathBuf>,
        event: &mut impl FnMut(Event),
    ) -> Result<PathBuf, TuneError> {
        let request = DatagenRequest {
            variant: self.variant.clone(),
            nodes: self.nodes,
            // Round 1 plays the linear evaluation, even where a network is shipped: from nothing.
            files: EngineFiles { eval: network.is_none().then_some(EvalKind::Linear), network, ..Default::default() },
            run: self.run_request(dir, round, self.games.unwrap_or(defaults::TRAIN_GAMES)),
        };
        let done = request.run(|p| event(Event::Games(p)))?;
        Ok(done.out.join(PACKED))
    }

    /// The Elo (and its 95% error) of `network` against `opponent` (another network, or the
    /// linear evaluation when none) from games in `dir`.
    fn gauntlet(
        &self,
        dir: &Path,
        round: usize,
        network: &Path,
        opponent: Option<&Path>,
        event: &mut impl FnMut(Event),
    ) -> Result<(f64, f64), TuneError> {
        let side = |name: String, network: Option<&Path>| SideRequest {
            name: Some(name),
            files: EngineFiles {
                network: network.map(Path::to_path_buf),
                eval: network.is_none().then_some(EvalKind::Linear),
                ..Default::default()
            },
            ..Default::default()
        };
        let request = MatchRequest {
            variant: self.variant.clone(),
            a: side(format!("network-{round}"), Some(network)),
            b: match opponent {
                Some(p) => side(format!("network-{}", round - 1), Some(p)),
                None => side("linear".into(), None),
            },
            budget: BudgetLists {
                nodes: vec![self.gauntlet_nodes.unwrap_or(defaults::GAUNTLET_NODES)],
                ..Default::default()
            },
            sprt: None,
            run: self.run_request(dir, round, self.gauntlet_games.unwrap_or(defaults::GAUNTLET_GAMES)),
        };
        let done = request.run(|p| event(Event::Games(p)))?;
        Ok(done.report.wdl.elo())
    }

    /// A run of `games` in `dir`, its seed the round's, resumed when it was begun.
    fn run_request(&self, dir: &Path, round: usize, games: u64) -> RunRequest {
        RunRequest {
            games: Some(games),
            threads: self.threads,
            seed: Some(self.seed.unwrap_or(defaults::SEED) + round as u64 - 1),
            out: Some(dir.to_path_buf()),
            resume: self.resume && dir.join(hoplite_formats::MANIFEST).exists(),
            ..Default::default()
        }
    }
}
