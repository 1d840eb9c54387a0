//! `hoplite selfplay`'s request: one variant, the same player on both sides.

use super::{ladder, BudgetLists, RunDefaults, RunRequest};
use crate::defaults;
use crate::error::RunError;
use crate::openings::played::{Method, OpeningSettings};
use crate::plans::selfplay;
use crate::player::EngineFiles;
use crate::{PlayerSpec, Progress, RunOptions, RunReport};
use hoplite_core::Variant;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct SelfplayRequest {
    /// Built-in variant name or variant file.
    pub variant: Option<String>,
    /// Who plays both sides.
    pub player: Option<String>,
    pub budget: BudgetLists,
    pub files: EngineFiles,
    pub run: RunRequest,
}

/// A finished selfplay run: its report and its directory.
pub struct SelfplayOutcome {
    pub report: RunReport,
    pub out: PathBuf,
}

impl SelfplayRequest {
    /// The variant played, as named.
    pub fn variant(&self) -> &str {
        self.variant.as_deref().unwrap_or(defaults::VARIANT)
    }

    pub fn run(&self, progress: impl FnMut(&Progress)) -> Result<SelfplayOutcome, RunError> {
        let (variant, opts, player) = self.prepare("selfplay", OpeningSettings::default())?;
        let report = selfplay::run(&variant, self.variant(), &player, &opts, progress)?;
        Ok(SelfplayOutcome { report, out: opts.out })
    }

    /// The variant, options and player of a run of `command` (whose name the default output
    /// directory takes): a selfplay run's, or a datagen run's, which plays the same games.
    /// The variant, options and player of a run of `command`, its openings `opening` where the
    /// request and the variant say nothing.
    pub(super) fn prepare(
        &self,
        command: &str,
        opening: OpeningSettings,
    ) -> Result<(Arc<Variant>, RunOptions, PlayerSpec), RunError> {
        let name = self.variant();
        let default_out = format!("runs/{command}-{}", defaults::stem(name));
        let played = RunDefaults::of(Method::Played);
        let defaults = RunDefaults { opening: opening.or(&played.opening), ..played };
        let variant = Variant::load(name)?;
        let (mut opts, registry) = self.run.prepare(&defaults, &default_out, &variant, None)?;
        opts.openings_eval(&self.files);
        let budget = ladder(self.budget.budgets()?, &mut opts);
        let player = self.player.as_deref().unwrap_or(defaults::PLAYER);
        let player = registry.player(player, player, budget, self.files.clone(), opts.tt_megabytes)?;
        Ok((variant, opts, player))
    }
}
