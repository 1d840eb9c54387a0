//! Tuning by games: SPSA (Spall's simultaneous perturbation stochastic approximation) as
//! fishtest runs it. Each pair of games perturbs every tuned number at once by ±c_k (signs
//! drawn at random), plays the engine with θ + c_k·δ against the engine with θ − c_k·δ, once
//! with each colour from the same opening, and moves θ by a_k / c_k · R · δ, R being the first
//! engine's wins minus losses. With N pairs in the run, fishtest's schedule:
//! c_k = c_end · N^γ / k^γ and a_k = r_end · c_end² · (A + N)^α / (A + k)^α, A = N / 10,
//! α = 0.602, γ = 0.101; c_end is each number's step, r_end 0.002.
//!
//! Pairs are played in batches of a fixed size, every pair of a batch from the θ the batch
//! started with, the results applied in pair order: the path is the same on any thread count,
//! and a run that was killed continues from its last batch (`spsa.csv`) to the same bytes.

use hoplite_core::seed::game_seed;
use hoplite_core::{Colour, GameResult, Variant};
use hoplite_formats::spsa::{self, PathRow, SpsaPath};
use hoplite_formats::FormatError;
use hoplite_search::Budget;
use hoplite_search::{params, SearchParams, Weights};
use hoplite_selfplay::openings::{Opening, Own};
use hoplite_selfplay::player::{EnginePlayer, Player};
use hoplite_selfplay::run::game::{play, Adjudication, Game};
use hoplite_selfplay::RunError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

mod request;
pub use request::{SpsaOutcome, SpsaRequest};

/// What a tuned number sets in the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A search parameter, by its name in `hoplite_search::PARAMS`.
    Search(&'static str),
    /// An evaluation weight, by its index in `Weights::values`.
    Weight(usize),
}

/// One tuned number: where it starts, its range and its final perturbation (c_end).
#[derive(Clone, Debug, PartialEq)]
pub struct Tunable {
    pub name: String,
    pub target: Target,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
}

/// fishtest's gains (module comment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// N: the pairs the run plays.
    pub pairs: u64,
    pub alpha: f64,
    pub gamma: f64,
    /// A as a share of N.
    pub a_share: f64,
    pub r_end: f64,
}

impl Schedule {
    pub fn new(pairs: u64) -> Schedule {
        Schedule { pairs: pairs.max(1), alpha: 0.602, gamma: 0.101, a_share: 0.1, r_end: 0.002 }
    }

    /// The perturbation of `t` at pair `k` (from 1).
    pub fn c(&self, t: &Tunable, k: u64) -> f64 {
        t.c_end * (self.pairs as f64 / k as f64).powf(self.gamma)
    }

    /// The gain of `t` at pair `k`.
    pub fn a(&self, t: &Tunable, k: u64) -> f64 {
        let big_a = self.a_share * self.pairs as f64;
        self.r_end * t.c_end * t.c_end * ((big_a + self.pairs as f64) / (big_a + k as f64)).powf(self.alpha)
    }
}

/// One pair's perturbation: its number, the signs, and the two engines' numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub k: u64,
    pub flips: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The state of a run: θ and the pairs played.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub tunables: Vec<Tunable>,
    pub schedule: Schedule,
    pub theta: Vec<f64>,
    pub done: u64,
}

impl Spsa {
    pub fn new(tunables: Vec<Tunable>, schedule: Schedule) -> Spsa {
        let theta = tunables.iter().map(|t| t.start).collect();
        Spsa { tunables, schedule, theta, done: 0 }
    }

    /// Pair `k` (from 1): its signs from (seed, k) alone.
    pub fn pair(&self, seed: u64, k: u64) -> Pair {
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed(seed, k) ^ 0x5b5a_5053);
        let flips: Vec<f64> = self.tunables.iter().map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 }).collect();
        let shifted = |sign: f64| -> Vec<f64> {
            self.tunables
                .iter()
                .zip(&self.theta)
                .zip(&flips)
                .map(|((t, x), f)| (x + sign * f * self.schedule.c(t, k)).clamp(t.min, t.max))
                .collect()
        };
        Pair { k, plus: shifted(1.0), minus: shifted(-1.0), flips }
    }

    /// Applies a pair's result: the `plus` engine's wins minus losses over its games.
    pub fn update(&mut self, pair: &Pair, result: i32) {
        for ((t, x), f) in self.tunables.iter().zip(&mut self.theta).zip(&pair.flips) {
            let (a, c) = (self.schedule.a(t, pair.k), self.schedule.c(t, pair.k));
            *x = (*x + a / c * f64::from(result) * f).clamp(t.min, t.max);
        }
        self.done = self.done.max(pair.k);
    }

    /// Plays the pairs left in batches of `batch` on `threads` threads: `play_pair(pair)` gives
    /// the plus engine's result; `after` sees the state and the batch's results after each.
    pub fn run<E: Send + From<RunError>>(
        &mut self,
        seed: u64,
        batch: u64,
        threads: usize,
        play_pair: impl Fn(&Pair) -> Result<i32, E> + Sync,
        mut after: impl FnMut(&Spsa, &[i32]) -> Result<(), E>,
    ) -> Result<(), E> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| RunError::Threads { threads, message: e.to_string() })?;
        while self.done < self.schedule.pairs {
            let last = (self.done + batch.max(1)).min(self.schedule.pairs);
            let pairs: Vec<Pair> = (self.done + 1..=last).map(|k| self.pair(seed, k)).collect();
            let results: Vec<i32> = pool.install(|| pairs.par_iter().map(&play_pair).collect::<Result<Vec<_>, E>>())?;
            for (pair, &r) in pairs.iter().zip(&results) {
                self.update(pair, r);
            }
            after(self, &results)?;
        }
        Ok(())
    }
}

/// The tunables named in `names`: a search parameter by its name (its range, its step as
/// c_end), an evaluation weight as `TABLE.LETTER` (`mobility.n`, `material_end.r`), optionally
/// with `=MIN..MAX/STEP` (for weights the default range is the value ± max(50, |value|), the
/// step a tenth of that). No names: every search parameter but the clock's (the games are at
/// a node or depth budget, where those do nothing).
pub fn tunables(names: &[String], weights: &Weights) -> Result<Vec<Tunable>, String> {
    if names.is_empty() {
        return Ok(params::PARAMS.iter().filter(|p| !p.on_clock()).map(search_tunable).collect());
    }
    let mut out: Vec<Tunable> = Vec::new();
    for item in names {
        let (name, range) = match item.split_once('=') {
            Some((n, r)) => (n.trim(), Some(r.trim())),
            None => (item.trim(), None),
        };
        let mut t = match params::spec(name) {
            Some(spec) => search_tunable(spec),
            None => weight_tunable(name, weights).ok_or_else(|| {
                format!("'{name}' is neither a search parameter (hoplite params) nor a weight TABLE.LETTER")
            })?,
        };
        if let Some(r) = range {
            let bad = || format!("'{item}': expected NAME=MIN..MAX/STEP");
            let (bounds, step) = r.split_once('/').ok_or_else(bad)?;
            let (lo, hi) = bounds.split_once("..").ok_or_else(bad)?;
            let num = |s: &str| s.trim().parse::<f64>().map_err(|_| bad());
            (t.min, t.max, t.c_end) = (num(lo)?, num(hi)?, num(step)?);
            if !(t.min <= t.start && t.start <= t.max && t.c_end > 0.0) {
                return Err(format!("'{item}': the range must hold the start ({}) and the step be positive", t.start));
            }
        }
        if out.iter().any(|o| o.target == t.target) {
            return Err(format!("'{name}' is named twice"));
        }
        out.push(t);
    }
    Ok(out)
}

fn search_tunable(p: &params::ParamSpec) -> Tunable {
    Tunable {
        name: p.name.to_string(),
        target: Target::Search(p.name),
        start: p.default as f64,
        min: p.min as f64,
        max: p.max as f64,
        c_end: p.step as f64,
    }
}

fn weight_tunable(name: &str, w: &Weights) -> Option<Tunable> {
    let (table, key) = name.split_once('.')?;
    let j = (0..w.len()).find(|&j| w.name(j) == (table.to_string(), key.to_string()))?;
    let start = f64::from(w.values[j]);
    let span = start.abs().max(50.0);
    Some(Tunable {
        name: name.to_string(),
        target: Target::Weight(j),
        start,
        min: start - span,
        max: start + span,
        c_end: (span / 10.0).round().max(1.0),
    })
}

/// The engine's weights and parameters at `theta` (each number rounded).
pub fn engine_at(tunables: &[Tunable], theta: &[f64], base: &Weights) -> (Weights, SearchParams) {
    let (mut w, mut p) = (base.clone(), SearchParams::default());
    for (t, x) in tunables.iter().zip(theta) {
        let v = x.round() as i32;
        match t.target {
            Target::Search(name) => p.set(name, v).expect("tunables keep to the table's ranges"),
            Target::Weight(j) => w.values[j] = v,
        }
    }
    (w, p)
}

/// How the games of an SPSA run are played.
#[derive(Clone, Debug)]
pub struct Games {
    pub variant: Arc<Variant>,
    pub budget: Budget,
    pub hash_mb: usize,
    /// Random plies after the setup, the same for both games of a pair.
    pub opening_plies: u32,
    pub adjudication: Adjudication,
    pub seed: u64,
    /// The weights the tuned ones start from (and the others keep).
    pub base: Weights,
}

impl Games {
    /// Pair `pair`'s result: the plus engine's wins minus losses, White in the first game.
    pub fn play_pair(&self, tunables: &[Tunable], pair: &Pair) -> Result<i32, RunError> {
        let engine = |theta: &[f64]| -> Box<dyn Player> {
            let (w, p) = engine_at(tunables, theta, &self.base);
            Box::new(EnginePlayer::with(self.budget, w, p, self.hash_mb))
        };
        let (mut plus, mut minus) = (engine(&pair.plus), engine(&pair.minus));
        let opening = Opening {
            start_fen: self.variant.setup.as_str().into(),
            moves: None,
            own: Own::Random(self.opening_plies),
        };
        let seed = game_seed(self.seed, pair.k);
        let mut result = 0;
        for plus_colour in Colour::BOTH {
            for p in [&mut plus, &mut minus] {
                p.new_game(&self.variant).map_err(|error| RunError::Player { name: "hoplite".into(), error })?;
            }
            let names = match plus_colour {
                Colour::White => ["plus", "minus"],
                Colour::Black => ["minus", "plus"],
            };
            let game = Game {
                variant: &self.variant,
                config: "spsa",
                game_id: 2 * pair.k + plus_colour.index() as u64,
                seed,
                opening: &opening,
                names,
                clocks: [None, None],
                adjudication: self.adjudication,
                record_san: false,
                record_evals: false,
            };
            let players: [&mut dyn Player; 2] = match plus_colour {
                Colour::White => [plus.as_mut(), minus.as_mut()],
                Colour::Black => [minus.as_mut(), plus.as_mut()],
            };
            let record = play(&game, players);
            if let Some((_, error)) = record.failure {
                return Err(RunError::Player { name: "hoplite".into(), error });
            }
            result += match (record.result, plus_colour) {
                (GameResult::Draw, _) => 0,
                (GameResult::WhiteWins, Colour::White) | (GameResult::BlackWins, Colour::Black) => 1,
                _ => -1,
            };
        }
        Ok(result)
    }
}

pub use hoplite_formats::spsa::{PATH_FILE, SETTINGS_FILE};

/// The header of the path file.
pub fn path_header(tunables: &[Tunable]) -> String {
    spsa::header(&tunables.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
}

/// A row of the path file: the state after a batch with these results.
pub fn path_row(s: &Spsa, results: &[i32]) -> String {
    let count = |f: fn(&i32) -> bool| results.iter().filter(|r| f(r)).count() as u64;
    spsa::line(&PathRow {
        pairs: s.done,
        won: count(|r| *r > 0),
        level: count(|r| *r == 0),
        lost: count(|r| *r < 0),
        theta: s.theta.clone(),
    })
}

/// Restores `spsa` from its path file: the last whole row's pairs and θ. A row cut short by a
/// kill is dropped (the file is cut back to the rows kept).
pub fn resume_from(s: &mut Spsa, path: &Path) -> Result<(), RunError> {
    let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, "read", e))?;
    let file = SpsaPath::parse(path, &text)?;
    let names: Vec<String> = s.tunables.iter().map(|t| t.name.clone()).collect();
    if file.names != names {
        let diff = format!("tuned: {}\nnow:   {}", file.names.join(","), names.join(","));
        return Err(RunError::Changed { path: path.display().to_string(), diff });
    }
    if let Some(last) = file.rows.last() {
        (s.done, s.theta) = (last.pairs, last.theta.clone());
    }
    let whole = file.text();
    if whole != text {
        std::fs::write(path, whole).map_err(|e| FormatError::io(path, "write", e))?;
    }
    Ok(())
}

/// Appends a row to the path file.
pub fn append(path: &Path, row: &str) -> Result<(), RunError> {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| FormatError::io(path, "open", e))?;
    f.write_all(row.as_bytes()).map_err(|e| FormatError::io(path, "write", e))?;
    Ok(())
}

/// What an SPSA run is started with (`spsa.toml` in its directory): a resumed run must be
/// given the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaSettings {
    pub variant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Games in all (two a pair).
    pub games: u64,
    /// Pairs played from one θ.
    pub batch: u64,
    pub seed: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub tt_mb: usize,
    pub r_end: f64,
    /// The tuned numbers as named on the command line (none: every search parameter but the
    /// clock's).
    pub tune: Vec<String>,
}

/// Plays an SPSA run into `out` (or continues it, `resume`), calling `progress` after each
/// batch with the state and the pairs played before this session; writes the path file, and at the end `params.toml` (the search parameters at the
/// final θ) and, where weights were tuned, `weights.toml`. Returns the final state.
pub fn run_in(
    settings: &SpsaSettings,
    out: &Path,
    threads: usize,
    resume: bool,
    mut progress: impl FnMut(&Spsa, u64),
) -> Result<Spsa, RunError> {
    let variant = Variant::load(&settings.variant)?;
    let base = Weights::for_variant(&variant);
    let (settings_file, path_file) = (out.join(SETTINGS_FILE), out.join(PATH_FILE));
    // A run started without names goes on with the set the table gave it then (its path
    // file's), which a later version's table may have changed.
    let names = match resume && settings.tune.is_empty() && path_file.exists() {
        true => {
            let text = std::fs::read_to_string(&path_file).map_err(|e| FormatError::io(&path_file, "read", e))?;
            SpsaPath::parse(&path_file, &text)?.names
        }
        false => settings.tune.clone(),
    };
    let tunables = tunables(&names, &base).map_err(RunError::Usage)?;
    let mut spsa = Spsa::new(tunables, Schedule { r_end: settings.r_end, ..Schedule::new(settings.games / 2) });
    let text = toml::to_string(settings).expect("settings serialize");
    if settings_file.exists() {
        if !resume {
            return Err(RunError::Usage(format!(
                "{} already holds an SPSA run; pass --resume to continue it, or choose another --out",
                out.display()
            )));
        }
        let before = std::fs::read_to_string(&settings_file).map_err(|e| FormatError::io(&settings_file, "read", e))?;
        if before != text {
            return Err(RunError::Changed {
                path: settings_file.display().to_string(),
                diff: format!("started with:\n{before}now:\n{text}"),
            });
        }
        resume_from(&mut spsa, &path_file)?;
    } else {
        std::fs::create_dir_all(out).map_err(|e| FormatError::io(out, "create", e))?;
        std::fs::write(&settings_file, &text).map_err(|e| FormatError::io(&settings_file, "write", e))?;
        // The header and the start, as a row of no pairs.
        let start = path_header(&spsa.tunables) + &path_row(&spsa, &[]);
        std::fs::write(&path_file, start).map_err(|e| FormatError::io(&path_file, "write", e))?;
    }
    let games = Games {
        variant,
        budget: Budget { nodes: settings.nodes, depth: settings.depth, ..Budget::default() },
        hash_mb: settings.tt_mb,
        opening_plies: settings.opening_plies,
        adjudication: Adjudication { max_plies: settings.max_plies, ..Adjudication::default() },
        seed: settings.seed,
        base,
    };
    let tunables = spsa.tunables.clone();
    let started = spsa.done;
    spsa.run(
        settings.seed,
        settings.batch,
        threads,
        |pair| games.play_pair(&tunables, pair),
        |s, results| {
            append(&path_file, &path_row(s, results))?;
            progress(s, started);
            Ok(())
        },
    )?;
    let (weights, params) = engine_at(&spsa.tunables, &spsa.theta, &games.base);
    let write = |name: &str, text: String| {
        let f = out.join(name);
        std::fs::write(&f, text).map_err(|e| FormatError::io(&f, "write", e))
    };
    write("params.toml", params.to_toml())?;
    if spsa.tunables.iter().any(|t| matches!(t.target, Target::Weight(_))) {
        write("weights.toml", weights.to_toml())?;
    }
    Ok(spsa)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy(start: f64) -> Tunable {
        Tunable { name: "x".into(), target: Target::Search("rfp_margin"), start, min: -100.0, max: 100.0, c_end: 4.0 }
    }

    /// A toy match: each of the pair's two games is won by the plus engine with a logistic
    /// probability of the two engines' strength, a parabola peaking at x = 37.
    fn toy_pair(pair: &Pair) -> Result<i32, RunError> {
        let strength = |x: f64| -((x - 37.0) / 25.0).powi(2);
        let p = 1.0 / (1.0 + (strength(pair.minus[0]) - strength(pair.plus[0])).exp());
        let mut rng = ChaCha8Rng::seed_from_u64(pair.k);
        Ok((0..2).map(|_| if rng.gen_bool(p) { 1 } else { -1 }).sum())
    }

    #[test]
    fn spsa_finds_a_known_optimum_from_either_side() {
        for start in [-40.0, 90.0] {
            let mut s = Spsa::new(vec![toy(start)], Schedule { r_end: 0.02, ..Schedule::new(40_000) });
            s.run(7, 64, 2, toy_pair, |_, _| Ok::<(), RunError>(())).unwrap();
            assert!((s.theta[0] - 37.0).abs() < 6.0, "from {start}: {}", s.theta[0]);
        }
    }

    #[test]
    fn the_path_is_the_same_on_any_thread_count_and_after_a_resume() {
        let schedule = Schedule::new(300);
        let path = |threads: usize, stop_at: Option<u64>| {
            let mut s = Spsa::new(vec![toy(0.0), toy(10.0)], schedule);
            let mut rows = path_header(&s.tunables);
            let r = s.run(3, 16, threads, toy_pair, |s, results| {
                rows += &path_row(s, results);
                match stop_at {
                    Some(n) if s.done >= n => Err(RunError::Usage("killed".into())),
                    _ => Ok(()),
                }
            });
            (s, rows, r.is_ok())
        };
        let (whole, rows, _) = path(1, None);
        assert_eq!(path(2, None).1, rows);
        // Killed after 96 pairs with half a row written, then resumed from the file.
        let (_, cut, finished) = path(2, Some(96));
        assert!(!finished);
        let dir = std::env::temp_dir().join(format!("hoplite-spsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(PATH_FILE);
        std::fs::write(&file, format!("{cut}112,3,4")).unwrap();
        let mut again = Spsa::new(vec![toy(0.0), toy(10.0)], schedule);
        resume_from(&mut again, &file).unwrap();
        assert_eq!(again.done, 96);
        again.run(3, 16, 2, toy_pair, |s, results| append(&file, &path_row(s, results))).unwrap();
        let written = std::fs::read_to_string(&file).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(written, rows);
        assert_eq!(again, whole);
    }

    #[test]
    fn tunables_are_named_with_their_ranges() {
        let v = Variant::builtin("chess");
        let w = Weights::for_variant(&v);
        // By default every search parameter that acts at a node budget: all but the clock's.
        let all: Vec<String> = tunables(&[], &w).unwrap().into_iter().map(|t| t.name).collect();
        let clock = ["time_moves", "time_increment", "time_most", "time_unsettled", "time_settled"];
        assert_eq!(all.len(), params::PARAMS.len() - clock.len());
        assert!(params::PARAMS.iter().all(|p| all.contains(&p.name.to_string()) != clock.contains(&p.name)));
        assert!(tunables(&["time_moves".into()], &w).is_ok());
        let some = tunables(&["rfp_margin".into(), "mobility.n=-500..500/3".into()], &w).unwrap();
        assert_eq!((some[0].start, some[0].min, some[0].max, some[0].c_end), (80.0, 10.0, 300.0, 10.0));
        assert_eq!((some[1].min, some[1].max, some[1].c_end), (-500.0, 500.0, 3.0));
        let (tuned, p) = engine_at(&some, &[120.4, 7.0], &w);
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(
            tuned.name(match some[1].target {
                Target::Weight(j) => j,
                _ => unreachable!(),
            }),
            ("mobility".into(), "n".into())
        );
        assert!(tunables(&["nosuch".into()], &w).unwrap_err().contains("neither"));
        assert!(tunables(&["rfp_margin=0..5/1".into()], &w).unwrap_err().contains("must hold the start"));
    }
}
