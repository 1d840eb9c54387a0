//! `hoplite selfplay`: games of one variant, the same player on both sides.

use crate::error::RunError;
use crate::openings::{game_seed, Openings, SharedCache};
use crate::run::{count_white, Job, Plan, Progress, Run, RunReport};
use crate::{PlayerSpec, RunOptions};
use hoplite_core::Variant;
use hoplite_formats::manifest::RunKind;
use std::sync::Arc;

struct Selfplay {
    variant: Arc<Variant>,
    openings: Openings,
    games: u64,
    seed: u64,
}

impl Plan for Selfplay {
    fn games(&self) -> u64 {
        self.games
    }

    /// Each game draws its own random opening from its seed.
    fn job(&self, id: u64, _: &mut SharedCache) -> Job {
        Job {
            game_id: id,
            config: "default".into(),
            variant: self.variant.clone(),
            seed: game_seed(self.seed, id),
            opening: self.openings.own(&self.variant, id),
            white: 0,
            black: 0,
        }
    }
}

pub fn run(
    variant_arg: &str,
    player: &PlayerSpec,
    opts: &RunOptions,
    progress: impl FnMut(&Progress),
) -> Result<RunReport, RunError> {
    let variant = Variant::load(variant_arg)?;
    player.check(&variant)?;
    let openings = Openings::new(&variant, opts.book.as_deref(), opts.seed, opts.random_plies)?;
    let mut manifest = opts.manifest(RunKind::Selfplay, &[player]);
    manifest.variant = Some(variant_arg.to_string());
    let run = Run {
        settings: opts.settings(),
        manifest,
        players: vec![player.clone()],
        configs: vec!["default".into()],
        variant_name: variant.name.clone(),
    };
    let plan = Selfplay { variant, openings, games: opts.games, seed: opts.seed };
    run.execute(&plan, count_white(), progress)
}
