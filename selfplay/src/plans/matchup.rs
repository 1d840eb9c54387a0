//! `hoplite match`: player A against player B in colour-swapped pairs from the same openings;
//! Elo ± error, LOS, pentanomial counts and an optional SPRT that stops the match.

use crate::error::RunError;
use crate::openings::played;
use crate::openings::{Opening, Openings, SharedCache};
use crate::run::output::ConfigInfo;
use crate::run::{Plan, Progress, Run, RunReport, Seat, Tick};
use crate::stats::{Pentanomial, Sprt, SprtState, Wdl};
use crate::{PlayerSpec, RunOptions};
use hoplite_core::seed::game_seed;
use hoplite_core::{Colour, Variant};
use hoplite_formats::manifest::RunKind;
use hoplite_formats::{csvfile, Decimal, GameRow, MatchRow, SprtRow, SprtVerdict, MATCH, SPRT};
use std::sync::Arc;

/// Running totals from A's view, and the SPRT trace.
#[derive(Default)]
struct Tracker {
    sprt: Option<Sprt>,
    wdl: Wdl,
    penta: Pentanomial,
    /// The first game of a pair whose second is not in yet: (id, A's score).
    pending: Option<(u64, f64)>,
    trace: Vec<SprtRow>,
    state: SprtState,
    llr: Option<f64>,
}

/// Engine A's score in a game: A plays White in even games.
fn a_score(row: &GameRow) -> f64 {
    row.result.score_for(if row.game_id.is_multiple_of(2) { Colour::White } else { Colour::Black })
}

impl Tracker {
    /// Counts a game; true when the SPRT has decided. A decision stands: the games still
    /// under way when it was taken are counted, not tested again.
    fn take(&mut self, row: &GameRow) -> bool {
        let s = a_score(row);
        self.wdl.add(s);
        match self.pending.take() {
            Some((id, first)) if id / 2 == row.game_id / 2 => self.penta.add(first, s),
            _ => self.pending = Some((row.game_id, s)),
        }
        if self.state != SprtState::Continue {
            return true;
        }
        let Some(t) = self.sprt.filter(|_| self.pending.is_none()) else {
            return false;
        };
        let l = t.llr_pairs(&self.penta);
        let (lo, hi) = t.bounds();
        self.trace.push(SprtRow { pairs: self.penta.pairs(), llr: Decimal(l), lower: Decimal(lo), upper: Decimal(hi) });
        self.llr = Some(l);
        self.state = t.state(l);
        self.state != SprtState::Continue
    }

    /// nElo from the pairs, or from the games while no pair is complete.
    fn nelo(&self) -> (f64, f64) {
        if self.penta.pairs() > 0 {
            self.penta.nelo()
        } else {
            self.wdl.nelo()
        }
    }

    fn row(&self, a: &str, b: &str) -> MatchRow {
        let (wdl, p) = (&self.wdl, &self.penta.0);
        let (elo, err) = wdl.elo();
        let (nelo, nelo_err) = self.nelo();
        MatchRow {
            a: a.into(),
            b: b.into(),
            games: wdl.games(),
            a_wins: wdl.wins,
            draws: wdl.draws,
            b_wins: wdl.losses,
            a_score: Decimal(wdl.score()),
            elo: Decimal(elo),
            elo_error: Decimal(err),
            nelo: Some(Decimal(nelo)),
            nelo_error: Some(Decimal(nelo_err)),
            los: Decimal(wdl.los()),
            draw_rate: Decimal(wdl.draw_rate()),
            penta_0: p[0],
            penta_1: p[1],
            penta_2: p[2],
            penta_3: p[3],
            penta_4: p[4],
            llr: self.llr.map(Decimal),
            sprt: self.sprt.map(|_| match self.state {
                SprtState::AcceptH1 => SprtVerdict::H1,
                SprtState::AcceptH0 => SprtVerdict::H0,
                SprtState::Continue => SprtVerdict::Continue,
            }),
        }
    }
}

pub struct MatchReport {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Normalized Elo and its 95% error.
    pub nelo: (f64, f64),
    pub llr: Option<f64>,
    pub sprt: Option<SprtState>,
    pub run: RunReport,
}

struct Pairs {
    config: Arc<str>,
    variant: Arc<Variant>,
    openings: Openings,
    games: u64,
    seed: u64,
}

impl Plan for Pairs {
    fn games(&self) -> u64 {
        self.games
    }

    /// Both games of a pair start from the same opening, drawn when the pair's first game is
    /// taken; A (player 0) is White in the first.
    fn seat(&self, id: u64) -> Seat {
        let (white, black) = if id.is_multiple_of(2) { (0, 1) } else { (1, 0) };
        Seat {
            game_id: id,
            config: self.config.clone(),
            variant: self.variant.clone(),
            seed: game_seed(self.seed, id / 2),
            white,
            black,
        }
    }

    fn opening(&self, seat: &Seat, cache: &mut SharedCache) -> Opening {
        self.openings.shared(&self.variant, seat.game_id / 2, seat.seed, cache)
    }

    fn group(&self, id: u64) -> u64 {
        id / 2
    }

    fn prepare(&mut self, threads: usize, progress: played::Progress) -> Result<(), RunError> {
        let starts = self.openings.starts(&self.variant, self.games / 2);
        self.openings.prepare(&[(self.variant.clone(), starts)], self.seed, threads, progress)
    }
}

/// Plays `variant` (named `variant_arg`, as run.toml records it): `a` against `b`.
pub fn run(
    variant: &Arc<Variant>,
    variant_arg: &str,
    a: &PlayerSpec,
    b: &PlayerSpec,
    sprt: Option<Sprt>,
    opts: &RunOptions,
    progress: impl FnMut(&Progress),
) -> Result<MatchReport, RunError> {
    a.check(variant)?;
    b.check(variant)?;
    let mut manifest = opts.manifest(RunKind::Match, &[a, b], &[variant]);
    manifest.variant = Some(variant_arg.to_string());
    manifest.sprt = sprt.map(|s| s.to_string());
    let config = format!("{} vs {}", a.name(), b.name());
    let run = Run {
        settings: opts.settings(),
        manifest,
        players: vec![a.clone(), b.clone()],
        configs: vec![ConfigInfo { label: config.clone(), base: config.clone(), ..Default::default() }],
        packing: None,
    };
    let openings = Openings::new(variant, opts)?;
    let games = opts.games + opts.games % 2;
    let mut plan = Pairs { config: config.into(), variant: variant.clone(), openings, games, seed: opts.seed };
    let mut t = Tracker { sprt, ..Default::default() };
    let report = run.execute(
        &mut plan,
        |row| {
            let stop = t.take(row);
            Tick { wdl: t.wdl, stop }
        },
        progress,
    )?;
    csvfile::write(&opts.out.join(MATCH), &[t.row(a.name(), b.name())])?;
    if sprt.is_some() {
        csvfile::write(&opts.out.join(SPRT), &t.trace)?;
    }
    Ok(MatchReport {
        a: a.name().into(),
        b: b.name().into(),
        nelo: t.nelo(),
        wdl: t.wdl,
        penta: t.penta,
        llr: t.llr,
        sprt: sprt.map(|_| t.state),
        run: report,
    })
}
