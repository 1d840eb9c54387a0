//! The one run driver behind selfplay, match and balance: it opens the run directory (or
//! resumes it), asks a `Plan` for the games still to play, plays them on a pool of threads,
//! each with its own players kept across its games, and writes them in game-id order as they
//! finish. What differs between commands is the plan (which game has which players, variant
//! and opening) and the hook that watches the games go by.

mod files;
pub mod game;
pub mod merge;
pub mod output;
pub mod packed;
pub mod pgn;

use crate::error::{PlayerError, RunError};
use crate::openings::played;
use crate::openings::{Opening, SharedCache};
use crate::player::{Player, PlayerSpec};
use crate::run::game::{forfeit, play, Adjudication, Game, GameRecord};
use crate::stats::Wdl;
use hoplite_core::{Colour, Variant};
use hoplite_formats::{GameRow, Manifest};
use output::{ConfigInfo, RunOutput, Tallies};
use packed::Packing;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

/// Who plays a game of a run, in what, from which seed: what its row of games.csv says
/// before the game is played, so that a resume can check the rows it continues.
#[derive(Clone)]
pub struct Seat {
    pub game_id: u64,
    pub config: Arc<str>,
    pub variant: Arc<Variant>,
    pub seed: u64,
    /// Indices into the run's players.
    pub white: usize,
    pub black: usize,
}

/// One game of a run, owned, so that it can go to a worker thread.
#[derive(Clone)]
pub struct GameJob {
    pub seat: Seat,
    pub opening: Opening,
}

/// Which games a run has.
pub trait Plan: Sync {
    /// Game ids run from 0 to this.
    fn games(&self) -> u64;
    /// Who plays the game with this id, in what, from which seed.
    fn seat(&self, id: u64) -> Seat;
    /// The opening of a game. Asked for one at a time in increasing id order, so a plan may
    /// draw an opening once for the games that share it (`cache`).
    fn opening(&self, seat: &Seat, cache: &mut SharedCache) -> Opening;
    /// Games that belong together (a match's colour-swapped pair): a run that stops still
    /// plays the rest of a group it has begun.
    fn group(&self, id: u64) -> u64 {
        id
    }
    /// Makes what the games need before they start (played openings), on `threads` threads;
    /// `progress(made, wanted)`.
    fn prepare(&mut self, _threads: usize, _progress: played::Progress) -> Result<(), RunError> {
        Ok(())
    }
}

/// What the hook says after each game: the score to show (White's, or engine A's), and
/// whether to stop (an SPRT has decided).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tick {
    pub wdl: Wdl,
    pub stop: bool,
}

/// A hook that counts White's score (selfplay, balance): it never stops the run.
pub fn count_white() -> impl FnMut(&GameRow) -> Tick {
    let mut wdl = Wdl::default();
    move |row| {
        wdl.add(row.result.white_score());
        Tick { wdl, stop: false }
    }
}

/// Where a run stands, for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
    /// Games that were done before this session (a resume).
    pub already: u64,
    pub wdl: Wdl,
    /// While the openings are being played, before the games: (made, wanted).
    pub openings: Option<(usize, usize)>,
}

/// How a run is carried out (what does not change its games).
#[derive(Clone, Debug)]
pub struct Execution {
    pub out: PathBuf,
    pub threads: usize,
    pub resume: bool,
    /// (K, N): play only game ids ≡ K (mod N).
    pub shard: Option<(u64, u64)>,
    pub adjudication: Adjudication,
}

impl Execution {
    pub fn in_shard(&self, id: u64) -> bool {
        self.shard.is_none_or(|(k, n)| id % n == k)
    }

    fn shard_text(&self) -> String {
        self.shard.map_or(String::new(), |(k, n)| format!(" of shard {k}/{n}"))
    }
}

pub struct Run {
    pub settings: Execution,
    pub manifest: Manifest,
    pub players: Vec<PlayerSpec>,
    /// Configurations in the order summary.csv lists them.
    pub configs: Vec<ConfigInfo>,
    /// Training positions to keep in positions.bin (instead of positions.csv).
    pub packing: Option<Packing>,
}

pub struct RunReport {
    pub tallies: Tallies,
    pub played: u64,
    pub seconds: f64,
    /// The games a player's failure ended: `game 12: fairymax (Black) crash: ...`.
    pub incidents: Vec<String>,
    /// Training positions written to positions.bin in this session.
    pub positions: u64,
}

impl RunReport {
    pub fn games_per_second(&self) -> f64 {
        self.played as f64 / self.seconds.max(1e-9)
    }
}

/// The players of one worker thread, started when first needed and kept across its games.
/// Slot 1 is for a player that plays itself (both sides need their own).
struct Seats<'a> {
    specs: &'a [PlayerSpec],
    seats: BTreeMap<(usize, usize), Box<dyn Player>>,
}

impl Seats<'_> {
    fn take(&mut self, player: usize, slot: usize) -> Box<dyn Player> {
        self.seats.remove(&(player, slot)).unwrap_or_else(|| self.specs[player].start())
    }

    /// Plays a job with its two players. A player that fails loses the game and is dropped
    /// (its process ends); the next game starts it afresh.
    fn play(&mut self, job: &GameJob, settings: &Execution, record: (bool, bool)) -> GameRecord {
        let seat = &job.seat;
        let ids = [seat.white, seat.black];
        let slots = [0, usize::from(seat.black == seat.white)];
        let mut players = [self.take(ids[0], slots[0]), self.take(ids[1], slots[1])];
        let specs = [&self.specs[ids[0]], &self.specs[ids[1]]];
        let game = Game {
            variant: &seat.variant,
            config: &seat.config,
            game_id: seat.game_id,
            seed: seat.seed,
            opening: &job.opening,
            names: specs.map(|s| s.name()),
            clocks: specs.map(|s| s.budget().and_then(|b| b.clock)),
            adjudication: settings.adjudication,
            record_san: record.0,
            record_evals: record.1,
        };
        let [white, black] = &mut players;
        let record = match (white.new_game(&seat.variant), black.new_game(&seat.variant)) {
            (Err(e), _) => forfeit(&game, Colour::White, e),
            (_, Err(e)) => forfeit(&game, Colour::Black, e),
            _ => play(&game, [white.as_mut(), black.as_mut()]),
        };
        for (side, p) in Colour::BOTH.into_iter().zip(players) {
            if record.failure.as_ref().is_none_or(|(failed, _)| *failed != side) {
                self.seats.insert((ids[side], slots[side]), p);
            }
        }
        record
    }
}

impl Run {
    /// Plays the plan's games that are in this shard and not done yet. `hook` sees every game,
    /// those of an earlier session first, and may stop the run: games not started then are
    /// skipped, started ones finish and are written. `progress` hears of each game written.
    pub fn execute(
        &self,
        plan: &mut dyn Plan,
        mut hook: impl FnMut(&GameRow) -> Tick,
        mut progress: impl FnMut(&Progress),
    ) -> Result<RunReport, RunError> {
        let s = &self.settings;
        let (mut out, previous) = output::open(&s.out, &self.manifest, s.resume, &self.configs, self.packing.as_ref())?;
        self.check_rows(&previous, plan)?;
        let done: BTreeSet<u64> = previous.iter().map(|r| r.game_id).collect();
        let mut tick = Tick::default();
        for row in &previous {
            tick = hook(row);
        }
        drop(previous);
        let total = (0..plan.games()).filter(|&id| s.in_shard(id)).count() as u64;
        let started = Instant::now();
        let mut state =
            Progress { done: done.len() as u64, total, already: done.len() as u64, wdl: tick.wdl, openings: None };
        let mut played = 0;
        let mut incidents = Vec::new();
        if !tick.stop && state.done < total {
            plan.prepare(s.threads, &mut |made, wanted| {
                progress(&Progress { openings: Some((made, wanted)), ..state })
            })?;
            let plan = &*plan;
            let mut cache = None;
            let todo = (0..plan.games()).filter(|&id| s.in_shard(id) && !done.contains(&id));
            let jobs = todo.map(|id| {
                let seat = plan.seat(id);
                GameJob { opening: plan.opening(&seat, &mut cache), seat }
            });
            played = self.play_jobs(jobs, &|id| plan.group(id), &mut out, |row, incident| {
                incidents.extend(incident);
                let t = hook(row);
                state.done += 1;
                state.wdl = t.wdl;
                progress(&state);
                t.stop
            })?;
        }
        out.tallies.write_summary(&s.out)?;
        let positions = out.packed_written();
        let seconds = started.elapsed().as_secs_f64();
        Ok(RunReport { tallies: out.tallies, played, seconds, incidents, positions })
    }

    /// The rows a resume continues are this run's: each game once, of this shard, and as the
    /// plan seats it (variant, configuration, seed, players); games.csv's line names the first
    /// that is not.
    fn check_rows(&self, rows: &[GameRow], plan: &dyn Plan) -> Result<(), RunError> {
        let s = &self.settings;
        let mut seen = BTreeSet::new();
        for (k, row) in rows.iter().enumerate() {
            let id = row.game_id;
            let differs = |what: &str, was: &str, wanted: &str| {
                format!("game {id} has {what} '{was}', but this run's game {id} has '{wanted}'")
            };
            let wrong = if !seen.insert(id) {
                Some(format!("game {id} is there twice"))
            } else if id >= plan.games() || !s.in_shard(id) {
                Some(format!("game {id} is not among this run's {} games{}", plan.games(), s.shard_text()))
            } else {
                let seat = plan.seat(id);
                let names = [seat.white, seat.black].map(|p| self.players[p].name());
                if row.variant != seat.variant.name {
                    Some(differs("variant", &row.variant, &seat.variant.name))
                } else if *row.config != *seat.config {
                    Some(differs("configuration", &row.config, &seat.config))
                } else if row.seed != seat.seed {
                    Some(differs("seed", &row.seed.to_string(), &seat.seed.to_string()))
                } else if [&*row.white, &*row.black] != names {
                    let was = format!("{} against {}", row.white, row.black);
                    Some(differs("players", &was, &format!("{} against {}", names[0], names[1])))
                } else {
                    None
                }
            };
            if let Some(message) = wrong {
                let path = s.out.join(hoplite_formats::GAMES).display().to_string();
                return Err(RunError::NotOfRun { path, message: format!("line {}: {message}", k + 2) });
            }
        }
        Ok(())
    }

    /// Plays `jobs` on the thread pool and writes each through `out` in the order the iterator
    /// gives them. Workers take jobs one at a time, in order, so only games finished ahead of
    /// an earlier one wait in memory. Returns the number of games written.
    fn play_jobs(
        &self,
        jobs: impl Iterator<Item = GameJob> + Send,
        group: &(dyn Fn(u64) -> u64 + Sync),
        out: &mut RunOutput,
        mut on_row: impl FnMut(&GameRow, Option<String>) -> bool,
    ) -> Result<u64, RunError> {
        let threads = self.settings.threads.max(1);
        // The jobs, and the group of the last one taken.
        let source = Mutex::new((jobs.peekable(), None));
        let stop = AtomicBool::new(false);
        let (order_tx, order_rx) = mpsc::channel::<u64>();
        let (tx, rx) = mpsc::channel::<GameRecord>();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| RunError::Threads { threads, message: e.to_string() })?;
        let mut first_error = None;
        let mut written = 0;
        pool.in_place_scope(|scope| {
            for _ in 0..threads {
                let (source, stop, order_tx, tx) = (&source, &stop, order_tx.clone(), tx.clone());
                let mut seats = Seats { specs: &self.players, seats: BTreeMap::new() };
                let (settings, record) = (&self.settings, (self.manifest.pgn, self.manifest.evals));
                scope.spawn(move |_| loop {
                    // The id goes out under the lock, so the writer learns the order jobs were
                    // taken. Once stopped, only the rest of a begun group is taken.
                    let job = {
                        let mut guard = source.lock().unwrap_or_else(|e| e.into_inner());
                        let (jobs, last) = &mut *guard;
                        let job = match jobs.peek() {
                            Some(j) if !stop.load(Ordering::Relaxed) || Some(group(j.seat.game_id)) == *last => {
                                jobs.next()
                            }
                            _ => None,
                        };
                        if let Some(j) = &job {
                            *last = Some(group(j.seat.game_id));
                            let _ = order_tx.send(j.seat.game_id);
                        }
                        job
                    };
                    let Some(job) = job else { break };
                    if tx.send(seats.play(&job, settings, record)).is_err() {
                        break;
                    }
                });
            }
            drop((order_tx, tx));
            let mut expected: VecDeque<u64> = VecDeque::new();
            let mut pending: BTreeMap<u64, GameRecord> = BTreeMap::new();
            for rec in rx {
                expected.extend(order_rx.try_iter());
                pending.insert(rec.game_id, rec);
                while let Some(rec) = expected.front().and_then(|id| pending.remove(id)) {
                    expected.pop_front();
                    if first_error.is_some() {
                        continue;
                    }
                    // A player that cannot play this run's games at all (a FEN it cannot set
                    // up, weights it cannot read) would lose every game: stop and say so.
                    if let Some((side, e @ PlayerError::Setup(_))) = &rec.failure {
                        stop.store(true, Ordering::Relaxed);
                        first_error = Some(RunError::Player { name: rec.player(*side).to_string(), error: e.clone() });
                        continue;
                    }
                    let incident = rec.failure.as_ref().map(|(side, e)| {
                        let name = rec.player(*side);
                        format!("game {}: {name} ({side}) lost by {}: {e}", rec.game_id, rec.termination)
                    });
                    match out.write(&rec) {
                        Ok(row) => {
                            written += 1;
                            if on_row(&row, incident) {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            first_error = Some(e);
                        }
                    }
                }
            }
        });
        match first_error {
            Some(e) => Err(e),
            None => Ok(written),
        }
    }
}

/// Parses `K/N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), RunError> {
    let bad = || RunError::Usage(format!("--shard '{s}': expected K/N with 0 <= K < N"));
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}
