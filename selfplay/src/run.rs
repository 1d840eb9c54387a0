//! Runs a list of games in parallel (one search per game, on a rayon pool), writing them in
//! game-id order as they finish, with progress on stderr.

use crate::game::{play, Adjudication, EngineSpec, GameRecord, GameSetup, Opening};
use crate::output::{GameRow, RunOutput};
use crate::stats::Wdl;
use hoplite_core::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, VecDeque};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
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

/// Plays the games `jobs` yields on `threads` threads and writes each through `out` in the
/// order the iterator gives them. Workers take jobs one at a time, in order, so only games
/// finished ahead of an earlier one wait in memory. `on_row` sees every written row and may
/// ask to stop (an SPRT decision): jobs not started then are skipped, started ones finish and
/// are written.
pub fn run_jobs(
    jobs: impl Iterator<Item = Job> + Send,
    threads: usize,
    out: &mut RunOutput,
    progress: &mut Progress,
    mut on_row: impl FnMut(&GameRow) -> (Wdl, bool),
) -> Result<(), String> {
    let threads = threads.max(1);
    let source = Mutex::new(jobs);
    let stop = AtomicBool::new(false);
    let (order_tx, order_rx) = mpsc::channel::<u64>();
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let mut first_error = None;
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let (source, stop, order_tx, tx) = (&source, &stop, order_tx.clone(), tx.clone());
            scope.spawn(move |_| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                // The id goes out under the lock, so the writer learns the order jobs were taken.
                let job = {
                    let mut it = source.lock().unwrap_or_else(|e| e.into_inner());
                    let job = it.next();
                    if let Some(j) = &job {
                        let _ = order_tx.send(j.game_id);
                    }
                    job
                };
                let Some(job) = job else { break };
                if tx.send(job.play()).is_err() {
                    break;
                }
            });
        }
        drop((order_tx, tx));
        let mut expected: VecDeque<u64> = VecDeque::new();
        let mut pending: BTreeMap<u64, GameRecord> = BTreeMap::new();
        let mut done = progress.done;
        for rec in rx {
            let rec = match rec {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            expected.extend(order_rx.try_iter());
            pending.insert(rec.game_id, rec);
            while let Some(rec) = expected.front().and_then(|id| pending.remove(id)) {
                expected.pop_front();
                if first_error.is_some() {
                    continue;
                }
                match out.write(&rec) {
                    Ok(row) => {
                        done += 1;
                        let (wdl, halt) = on_row(&row);
                        if halt {
                            stop.store(true, Ordering::Relaxed);
                        }
                        progress.update(done, 1, &wdl);
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        first_error = Some(e);
                    }
                }
            }
        }
    });
    progress.finish();
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
