//! `hoplite match`'s request: player A against player B, each side's own budget and files.

use super::{BudgetLists, RunDefaults, RunRequest};
use crate::defaults;
use crate::error::RunError;
use crate::openings::played::Method;
use crate::plans::matchup::{self, MatchReport};
use crate::player::{EngineFiles, PlayerSpec, Registry};
use crate::stats::Sprt;
use crate::Progress;
use hoplite_core::Variant;
use hoplite_search::{Budget, Clock};
use std::path::PathBuf;
use std::time::Duration;

/// One side of a match.
#[derive(Clone, Debug, Default)]
pub struct SideRequest {
    /// Who plays: hoplite, random, or an engine of engines.toml.
    pub player: Option<String>,
    /// Plays uniformly random legal moves (the same as the player `random`).
    pub random: bool,
    /// The name in games.csv (default: the player's; the side's letter when both are the same).
    pub name: Option<String>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Milliseconds per move.
    pub movetime: Option<u64>,
    pub tc: Option<Clock>,
    pub files: EngineFiles,
}

impl SideRequest {
    fn player(&self) -> String {
        if self.random {
            "random".into()
        } else {
            self.player.clone().unwrap_or_else(|| defaults::PLAYER.into())
        }
    }

    fn budget(&self) -> Budget {
        Budget {
            nodes: self.nodes,
            depth: self.depth,
            movetime: self.movetime.map(Duration::from_millis),
            clock: self.tc,
        }
    }

    /// The side's player, shown as its name, else as `letter` when both sides are `same`.
    fn spec(
        &self,
        letter: &str,
        same: bool,
        shared: Budget,
        registry: &Registry,
        hash_mb: usize,
    ) -> Result<PlayerSpec, RunError> {
        let player = self.player();
        let display = self.name.clone().unwrap_or_else(|| if same { letter.to_string() } else { player.clone() });
        let own = self.budget();
        own.check().map_err(|e| RunError::Usage(format!("player {letter}'s budget: {e}")))?;
        registry.player(&player, &display, own.or(shared), self.files.clone(), hash_mb)
    }
}

#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    pub variant: Option<String>,
    pub a: SideRequest,
    pub b: SideRequest,
    /// Both players' budget per move (a side's own wins).
    pub budget: BudgetLists,
    pub sprt: Option<Sprt>,
    pub run: RunRequest,
}

/// A finished match: its report and its directory.
pub struct MatchOutcome {
    pub report: MatchReport,
    pub out: PathBuf,
}

impl MatchRequest {
    pub fn run(&self, progress: impl FnMut(&Progress)) -> Result<MatchOutcome, RunError> {
        let name = self.variant.as_deref().unwrap_or(defaults::VARIANT);
        let defaults = RunDefaults::of(Method::Random);
        let variant = Variant::load(name)?;
        let (opts, registry) = self.run.prepare(&defaults, "runs/match", &variant, None)?;
        let shared = self.budget.budget()?;
        let same = self.a.player() == self.b.player();
        let pa = self.a.spec("A", same, shared, &registry, opts.tt_megabytes);
        let pb = self.b.spec("B", same, shared, &registry, opts.tt_megabytes);
        let (pa, pb) = (pa?, pb?);
        if pa.name() == pb.name() {
            return Err(RunError::Usage(format!("both players are named '{}': give --a-name or --b-name", pa.name())));
        }
        let report = matchup::run(&variant, name, &pa, &pb, self.sprt, &opts, progress)?;
        Ok(MatchOutcome { report, out: opts.out })
    }
}
