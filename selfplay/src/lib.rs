//! hoplite-selfplay: parallel self-play, match and balance runs, CSV/PGN output, statistics,
//! shards and merge.

pub mod balance;
pub mod book;
pub mod game;
pub mod matchup;
pub mod merge;
pub mod output;
pub mod run;
pub mod stats;

use game::{game_seed, random_opening, Adjudication, EngineSpec, Opening};
use hoplite_core::Position;
use hoplite_core::Variant;
use hoplite_search::{Limits, Weights};
use output::Tallies;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use run::{Job, Progress};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How an engine searches each move, and with which weights.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    pub weights: Option<PathBuf>,
    /// Uniformly random legal moves (a baseline).
    pub random: bool,
}

impl EngineOptions {
    /// The per-move limit; nodes (1,000 by default) keep runs reproducible on any machine.
    pub fn limits(&self) -> Limits {
        let mut l =
            Limits { depth: self.depth, nodes: self.nodes, movetime: self.movetime_ms.map(Duration::from_millis) };
        if l.depth.is_none() && l.nodes.is_none() && l.movetime.is_none() {
            l.nodes = Some(1000);
        }
        l
    }

    pub fn weights(&self, v: &Variant) -> Result<Weights, String> {
        match &self.weights {
            Some(p) => Weights::load(v, p).map_err(|e| e.to_string()),
            None => Ok(Weights::defaults(v)),
        }
    }

    pub fn engine(&self, name: &str, v: &Variant) -> Result<EngineSpec, String> {
        Ok(EngineSpec { name: name.to_string(), weights: self.weights(v)?, limits: self.limits(), random: self.random })
    }

    /// The manifest lines for this engine.
    fn manifest(&self, prefix: &str) -> String {
        let l = self.limits();
        let mut s = String::new();
        let mut line = |k: &str, v: String| s.push_str(&format!("{prefix}{k} = {v}\n"));
        if self.random {
            line("random", "true".into());
            return s;
        }
        if let Some(n) = l.nodes {
            line("nodes", n.to_string());
        }
        if let Some(d) = l.depth {
            line("depth", d.to_string());
        }
        if let Some(t) = self.movetime_ms {
            line("movetime_ms", t.to_string());
        }
        if let Some(w) = &self.weights {
            line("weights", format!("{:?}", w.display().to_string()));
        }
        s
    }
}

/// Options shared by selfplay, match and balance runs.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub games: u64,
    pub threads: usize,
    pub seed: u64,
    pub random_plies: u32,
    pub book: Option<PathBuf>,
    pub out: PathBuf,
    pub pgn: bool,
    pub resume: bool,
    /// (K, N): play only game ids ≡ K (mod N).
    pub shard: Option<(u64, u64)>,
    pub adjudication: Adjudication,
    pub timing: bool,
    pub tt_megabytes: usize,
}

impl RunOptions {
    fn manifest(&self) -> String {
        let mut s = String::new();
        s += &format!("games = {}\nseed = {}\nrandom_plies = {}\n", self.games, self.seed, self.random_plies);
        if let Some(b) = &self.book {
            s += &format!("book = {:?}\n", b.display().to_string());
        }
        let a = &self.adjudication;
        s += &format!("max_plies = {}\n", a.max_plies);
        if let Some((cp, n)) = a.resign {
            s += &format!("resign = [{cp}, {n}]\n");
        }
        if let Some((cp, n, after)) = a.draw {
            s += &format!("draw = [{cp}, {n}, {after}]\n");
        }
        s += &format!("pgn = {}\ntiming = {}\ntt_mb = {}\n", self.pgn, self.timing, self.tt_megabytes);
        if let Some((k, n)) = self.shard {
            s += &format!("shard = \"{k}/{n}\"\n");
        }
        s
    }

    fn in_shard(&self, id: u64) -> bool {
        self.shard.is_none_or(|(k, n)| id % n == k)
    }
}

/// Parses `K/N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard '{s}': expected K/N with 0 <= K < N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// What a finished run reports.
pub struct RunReport {
    pub tallies: Tallies,
    pub played: u64,
    pub games_per_second: f64,
}

/// A start FEN and the opening moves (UCI) played from it.
pub(crate) type SharedOpening = (Arc<str>, Arc<Vec<String>>);

/// Start positions and openings for game `index` (shared across configurations).
pub(crate) struct Openings {
    book: Option<(Vec<String>, Vec<usize>)>,
    random_plies: u32,
}

impl Openings {
    pub(crate) fn new(variant: &Arc<Variant>, opts: &RunOptions) -> Result<Openings, String> {
        let book = match &opts.book {
            Some(p) => {
                let fens = book::read_book(variant, p)?;
                let order = book::book_order(fens.len(), opts.seed);
                Some((fens, order))
            }
            None => None,
        };
        Ok(Openings { book, random_plies: opts.random_plies })
    }

    pub(crate) fn start(&self, variant: &Variant, index: u64) -> Arc<str> {
        match &self.book {
            Some((fens, order)) => fens[order[(index % fens.len() as u64) as usize]].as_str().into(),
            None => variant.setup.as_str().into(),
        }
    }

    /// The start FEN and random opening (UCI) of opening `index`, drawn in `variant` from
    /// `seed`; the same index asked again in a row reuses the draw in `last`.
    pub(crate) fn shared(
        &self,
        variant: &Arc<Variant>,
        index: u64,
        seed: u64,
        last: &mut Option<(u64, SharedOpening)>,
    ) -> SharedOpening {
        if last.as_ref().is_none_or(|l| l.0 != index) {
            let start_fen = self.start(variant, index);
            let start = Position::from_fen(variant, &start_fen).expect("book and setup positions are checked");
            let line = random_opening(&start, self.random_plies, &mut ChaCha8Rng::seed_from_u64(seed));
            *last = Some((index, (start_fen, Arc::new(line.iter().map(|&m| variant.move_to_uci(m)).collect()))));
        }
        last.as_ref().expect("set above").1.clone()
    }

    pub(crate) fn opening(&self) -> Opening {
        if self.random_plies > 0 {
            Opening::Random(self.random_plies)
        } else {
            Opening::Fixed
        }
    }
}

/// `hoplite selfplay`: `games` games of one variant, the same engine on both sides.
pub fn selfplay(variant_arg: &str, engine: &EngineOptions, opts: &RunOptions) -> Result<RunReport, String> {
    let variant = Variant::load(variant_arg).map_err(|e| e.to_string())?;
    let spec = Arc::new(engine.engine("hoplite", &variant)?);
    let openings = Openings::new(&variant, opts)?;
    let manifest =
        format!("command = \"selfplay\"\nvariant = {:?}\n{}{}", variant_arg, opts.manifest(), engine.manifest(""));
    let config: Arc<str> = "default".into();
    let configs = vec![config.to_string()];
    let (mut out, previous) =
        output::open(&opts.out, &manifest, opts.resume, opts.pgn, opts.timing, &variant.name, &configs)?;
    let done: BTreeSet<u64> = previous.iter().map(|r| r.game_id).collect();
    let mut wdl = stats::Wdl::default();
    previous.iter().for_each(|r| add_white(&mut wdl, &r.result));
    drop(previous);
    let todo = |id: &u64| opts.in_shard(*id) && !done.contains(id);
    let played = (0..opts.games).filter(todo).count() as u64;
    let jobs = (0..opts.games).filter(todo).map(|id| Job {
        game_id: id,
        variant: variant.clone(),
        config: config.clone(),
        seed: game_seed(opts.seed, id),
        start_fen: openings.start(&variant, id),
        opening: openings.opening(),
        shared_opening: None,
        white: spec.clone(),
        black: spec.clone(),
        adjudication: opts.adjudication,
        record_san: opts.pgn,
        tt_megabytes: opts.tt_megabytes,
    });
    let total = (0..opts.games).filter(|&id| opts.in_shard(id)).count() as u64;
    let mut progress = Progress::new(&variant.name, total, done.len() as u64);
    run::run_jobs(jobs, opts.threads, &mut out, &mut progress, |row| {
        add_white(&mut wdl, &row.result);
        (wdl, false)
    })?;
    output::write_summary(&opts.out, &out.tallies)?;
    Ok(RunReport { tallies: out.tallies, played, games_per_second: progress.games_per_second() })
}

pub(crate) fn add_white(wdl: &mut stats::Wdl, result: &str) {
    match result {
        "1-0" => wdl.wins += 1,
        "0-1" => wdl.losses += 1,
        _ => wdl.draws += 1,
    }
}

/// A table of the summary for the terminal: each side's score with its 95% interval.
pub fn summary_table(tallies: &Tallies) -> String {
    let mut s = format!(
        "{:<24} {:>6} {:>6} {:>6} {:>6}  {:>22}  {:>22}  {:>6}\n",
        "config", "games", "white", "draws", "black", "white score (95% CI)", "black score (95% CI)", "plies"
    );
    for (config, t) in tallies.list() {
        let (lo, hi) = t.wdl.score_interval();
        let sc = t.wdl.score();
        s += &format!(
            "{:<24} {:>6} {:>6} {:>6} {:>6}  {:>6.3} [{:.3}, {:.3}]  {:>6.3} [{:.3}, {:.3}]  {:>6.1}\n",
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
