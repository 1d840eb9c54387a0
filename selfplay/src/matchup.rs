//! `hoplite match`: engine A against engine B in colour-swapped pairs from the same openings;
//! Elo ± error, LOS, pentanomial counts and an optional SPRT that stops the match.

use crate::game::game_seed;
use crate::output::{self, GameRow};
use crate::run::{Job, Progress};
use crate::stats::{Pentanomial, Sprt, SprtState, Wdl};
use crate::{EngineOptions, Openings, RunOptions};
use hoplite_core::Variant;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::Arc;

/// Running totals from A's view, and the SPRT trace.
#[derive(Default)]
struct Tracker {
    sprt: Option<Sprt>,
    wdl: Wdl,
    penta: Pentanomial,
    /// The first game of a pair whose second is not in yet: (id, A's score).
    pending: Option<(u64, f64)>,
    trace: String,
    state: SprtState,
    llr: Option<f64>,
}

impl Tracker {
    /// Counts a game; true when the SPRT has decided.
    fn take(&mut self, row: &GameRow) -> bool {
        let s = a_score(row);
        match s {
            1.0 => self.wdl.wins += 1,
            0.0 => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        match self.pending.take() {
            Some((id, first)) if id / 2 == row.game_id / 2 => self.penta.add(first, s),
            _ => self.pending = Some((row.game_id, s)),
        }
        let Some(t) = self.sprt.filter(|_| self.pending.is_none()) else {
            return false;
        };
        let l = t.llr_pairs(&self.penta);
        let (lo, hi) = t.bounds();
        let _ = writeln!(self.trace, "{},{l:.4},{lo:.4},{hi:.4}", self.penta.pairs());
        self.llr = Some(l);
        self.state = t.state(l);
        self.state != SprtState::Continue
    }
}

pub struct MatchReport {
    pub a: String,
    pub b: String,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    pub llr: Option<f64>,
    pub sprt: Option<SprtState>,
    pub games_per_second: f64,
}

/// Engine A's score in a row (A plays White in even games).
fn a_score(row: &GameRow) -> f64 {
    let white = match row.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    if row.game_id.is_multiple_of(2) {
        white
    } else {
        1.0 - white
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    variant_arg: &str,
    a: &EngineOptions,
    b: &EngineOptions,
    names: (&str, &str),
    sprt: Option<Sprt>,
    opts: &RunOptions,
) -> Result<MatchReport, String> {
    let variant = Variant::load(variant_arg).map_err(|e| e.to_string())?;
    let spec_a = Arc::new(a.engine(names.0, &variant)?);
    let spec_b = Arc::new(b.engine(names.1, &variant)?);
    let manifest = format!(
        "command = \"match\"\nvariant = {variant_arg:?}\nnames = [{:?}, {:?}]\nsprt = {:?}\n{}{}{}",
        names.0,
        names.1,
        sprt.map(|s| format!("{},{},{},{}", s.elo0, s.elo1, s.alpha, s.beta)).unwrap_or_default(),
        opts.manifest(),
        a.manifest("a_"),
        b.manifest("b_")
    );
    let config: Arc<str> = format!("{} vs {}", names.0, names.1).into();
    let configs = vec![config.to_string()];
    let (mut out, previous) =
        output::open(&opts.out, &manifest, opts.resume, opts.pgn, opts.timing, &variant.name, &configs)?;
    let done: BTreeSet<u64> = previous.iter().map(|r| r.game_id).collect();
    let mut t = Tracker { sprt, trace: String::from("pairs,llr,lower,upper\n"), ..Default::default() };
    previous.iter().for_each(|r| {
        t.take(r);
    });
    drop(previous);
    let openings = Openings::new(&variant, opts)?;
    let games = opts.games + opts.games % 2;
    let todo = |id: &u64| opts.in_shard(*id) && !done.contains(id);
    // Both games of a pair start from the same opening, drawn when the pair's first game is taken.
    let mut last = None;
    let jobs = (0..games).filter(todo).map(|id| {
        let pair = id / 2;
        let seed = game_seed(opts.seed, pair);
        let (start_fen, line) = openings.shared(&variant, pair, seed, &mut last);
        let (white, black) = if id.is_multiple_of(2) { (&spec_a, &spec_b) } else { (&spec_b, &spec_a) };
        Job {
            game_id: id,
            variant: variant.clone(),
            config: config.clone(),
            seed,
            start_fen,
            opening: openings.opening(),
            shared_opening: Some(line),
            white: white.clone(),
            black: black.clone(),
            adjudication: opts.adjudication,
            record_san: opts.pgn,
            tt_megabytes: opts.tt_megabytes,
        }
    });
    let total = (0..games).filter(|&id| opts.in_shard(id)).count() as u64;
    let mut progress = Progress::new("match", total, done.len() as u64);
    if t.state == SprtState::Continue {
        crate::run::run_jobs(jobs, opts.threads, &mut out, &mut progress, |row| {
            let halt = t.take(row);
            (t.wdl, halt)
        })?;
    }
    let Tracker { wdl, penta, trace, state, llr, .. } = t;
    output::write_summary(&opts.out, &out.tallies)?;
    let (elo, err) = wdl.elo();
    let mut m = String::from("a,b,games,a_wins,draws,b_wins,a_score,elo,elo_error,los,draw_rate,penta_0,penta_1,penta_2,penta_3,penta_4,llr,sprt\n");
    let _ = writeln!(
        m,
        "{},{},{},{},{},{},{:.4},{:.2},{:.2},{:.4},{:.4},{},{},{},{},{},{},{}",
        names.0,
        names.1,
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score(),
        elo,
        err,
        wdl.los(),
        wdl.draw_rate(),
        penta.0[0],
        penta.0[1],
        penta.0[2],
        penta.0[3],
        penta.0[4],
        llr.map(|l| format!("{l:.4}")).unwrap_or_default(),
        match (sprt, state) {
            (None, _) => "",
            (_, SprtState::AcceptH1) => "H1",
            (_, SprtState::AcceptH0) => "H0",
            _ => "continue",
        }
    );
    let write = |name: &str, text: &str| {
        std::fs::write(opts.out.join(name), text)
            .map_err(|e| format!("{}: cannot write: {e}", opts.out.join(name).display()))
    };
    write("match.csv", &m)?;
    if sprt.is_some() {
        write("sprt.csv", &trace)?;
    }
    Ok(MatchReport {
        a: names.0.into(),
        b: names.1.into(),
        wdl,
        penta,
        llr,
        sprt: sprt.map(|_| state),
        games_per_second: progress.games_per_second(),
    })
}
