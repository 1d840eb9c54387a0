//! Runs a list of games in parallel (one search per game, on a rayon pool), writing them in
//! game-id order as they finish, with progress on stderr.

use crate::game::{play, Adjudication, EngineSpec, GameRecord, GameSetup, Opening};
use crate::output::{GameRow, RunOutput};
use crate::stats::Wdl;
use hoplite_core::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Everything one game needs, owned, so that it can go to a worker thread.
#[derive(Clone)]
pub struct Job {
    pub game_id: u64,
    pub variant: Arc<Variant>,
    pub config: Arc<str>,
    pub seed: u64,
    pub start_fen: Arc<str>,
    pub opening: Opening,
    pub shared_opening: Option<Arc<Vec<String>>>,
    pub white: Arc<EngineSpec>,
    pub black: Arc<EngineSpec>,
    pub adjudication: Adjudication,
    pub record_san: bool,
    pub tt_megabytes: usize,
}

impl Job {
    pub fn play(&self) -> Result<GameRecord, String> {
        play(&GameSetup {
            variant: &self.variant,
            config: &self.config,
            game_id: self.game_id,
            seed: self.seed,
            start_fen: &self.start_fen,
            opening: self.opening.clone(),
            shared_opening: self.shared_opening.as_deref().map(|v| v.as_slice()),
            white: &self.white,
            black: &self.black,
            adjudication: self.adjudication,
            record_san: self.record_san,
            tt_megabytes: self.tt_megabytes,
        })
    }
}

/// Progress on stderr: a bar on a terminal, a plain line every few seconds otherwise.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    already: u64,
    start: Instant,
    last_line: Instant,
    label: String,
}

impl Progress {
    pub fn new(label: &str, total: u64, already: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta} {msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            b.set_prefix(label.to_string());
            b.set_position(already);
            b
        });
        Progress {
            bar,
            total,
            done: already,
            already,
            start: Instant::now(),
            last_line: Instant::now(),
            label: label.to_string(),
        }
    }

    /// `wdl` from the reported side's view (White, or engine A in a match).
    pub fn update(&mut self, done: u64, new: u64, wdl: &Wdl) {
        self.done = done;
        let (lo, hi) = wdl.score_interval();
        let msg = format!(
            "W/D/L {}/{}/{}  score {:.3} ± {:.3}",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.score(),
            (hi - lo) / 2.0
        );
        if let Some(b) = &self.bar {
            b.inc(new);
            b.set_message(msg);
        } else if self.last_line.elapsed() >= Duration::from_secs(5) || done == self.total {
            self.last_line = Instant::now();
            let rate = self.games_per_second();
            eprintln!("{}: {done}/{} games, {rate:.1} games/s, {msg}", self.label, self.total);
        }
    }

    /// Games per second in this session.
    pub fn games_per_second(&self) -> f64 {
        (self.done - self.already) as f64 / self.start.elapsed().as_secs_f64().max(1e-9)
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish();
        }
    }
}

/// Plays `jobs` on `threads` threads and writes each through `out` in the order of `jobs`.
/// `on_row` sees every written row and may ask to stop (an SPRT decision); jobs not started
/// then are skipped, started ones finish and are written.
pub fn run_jobs(
    jobs: Vec<Job>,
    threads: usize,
    out: &mut RunOutput,
    progress: &mut Progress,
    mut on_row: impl FnMut(&GameRow) -> (Wdl, bool),
) -> Result<(), String> {
    out.expect(jobs.iter().map(|j| j.game_id));
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    for _ in 0..threads.max(1) {
        let (jobs, next, stop, tx) = (jobs.clone(), next.clone(), stop.clone(), tx.clone());
        pool.spawn(move || loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            if tx.send(job.play()).is_err() {
                break;
            }
        });
    }
    drop(tx);
    let index: std::collections::HashMap<u64, usize> = jobs.iter().enumerate().map(|(i, j)| (j.game_id, i)).collect();
    let mut done = progress.done;
    let mut first_error = None;
    for rec in rx {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
                continue;
            }
        };
        let variant = jobs[index[&rec.game_id]].variant.clone();
        let written = match out.submit(rec, &variant) {
            Ok(w) => w,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
                continue;
            }
        };
        for row in &written {
            done += 1;
            let (wdl, halt) = on_row(row);
            if halt {
                stop.store(true, Ordering::Relaxed);
            }
            progress.update(done, 1, &wdl);
        }
    }
    progress.finish();
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
