//! `hoplite selfplay`: games of one variant, the same player on both sides, at one budget or
//! at each rung of a strength ladder (the same openings at every rung).

use crate::error::RunError;
use crate::openings::played;
use crate::openings::{Opening, Openings, SharedCache};
use crate::run::output::ConfigInfo;
use crate::run::packed::Packing;
use crate::run::{count_white, Plan, Progress, Run, RunReport, Seat};
use crate::{PlayerSpec, RunOptions};
use hoplite_core::seed::game_seed;
use hoplite_core::Variant;
use hoplite_formats::manifest::RunKind;
use std::sync::Arc;

struct Selfplay {
    variant: Arc<Variant>,
    openings: Openings,
    configs: Vec<Arc<str>>,
    games: u64,
    seed: u64,
}

impl Plan for Selfplay {
    fn games(&self) -> u64 {
        self.configs.len() as u64 * self.games
    }

    /// Game `r * games + i` plays rung `r` from opening `i`: each game draws its own random
    /// opening from the seed of `i`, so every rung opens alike.
    fn prepare(&mut self, threads: usize, progress: played::Progress) -> Result<(), RunError> {
        let starts = self.openings.starts(&self.variant, self.games);
        self.openings.prepare(&[(self.variant.clone(), starts)], self.seed, threads, progress)
    }

    fn seat(&self, id: u64) -> Seat {
        let (rung, i) = ((id / self.games) as usize, id % self.games);
        Seat {
            game_id: id,
            config: self.configs[rung].clone(),
            variant: self.variant.clone(),
            seed: game_seed(self.seed, i),
            white: rung,
            black: rung,
        }
    }

    fn opening(&self, seat: &Seat, _: &mut SharedCache) -> Opening {
        self.openings.own(&self.variant, seat.game_id % self.games)
    }
}

/// Plays `variant` (named `variant_arg`, as run.toml records it) with `player` on both sides.
pub fn run(
    variant: &Arc<Variant>,
    variant_arg: &str,
    player: &PlayerSpec,
    opts: &RunOptions,
    progress: impl FnMut(&Progress),
) -> Result<RunReport, RunError> {
    play(variant, variant_arg, player, opts, RunKind::Selfplay, None, progress)
}

/// The games of `run`, recorded in run.toml as a run of `kind`, keeping `packing`'s training
/// positions (a datagen run's: the same games as a selfplay run's).
pub(crate) fn play(
    variant: &Arc<Variant>,
    variant_arg: &str,
    player: &PlayerSpec,
    opts: &RunOptions,
    kind: RunKind,
    packing: Option<Packing>,
    progress: impl FnMut(&Progress),
) -> Result<RunReport, RunError> {
    player.check(variant)?;
    let openings = Openings::new(variant, opts)?;
    let mut manifest = opts.manifest(kind, &[player], &[variant]);
    manifest.variant = Some(variant_arg.to_string());
    let rungs = opts.rungs(player);
    let ladder = rungs.len() > 1;
    let infos: Vec<ConfigInfo> =
        rungs.iter().map(|(p, b)| ConfigInfo::new("default", p.name(), b, [false, false, ladder])).collect();
    let run = Run {
        settings: opts.settings(),
        manifest,
        players: rungs.into_iter().map(|(p, _)| p).collect(),
        configs: infos.clone(),
        packing,
    };
    let configs = infos.iter().map(|c| c.label.as_str().into()).collect();
    let mut plan = Selfplay { variant: variant.clone(), openings, configs, games: opts.games, seed: opts.seed };
    run.execute(&mut plan, count_white(), progress)
}
