//! The run directory: games.csv, positions.csv, summary.csv, games.pgn and run.toml (the
//! arguments, so that a resume with other arguments is refused). Games are written in game-id
//! order, each flushed as soon as it and all before it are done; a resume repairs a torn last
//! line and continues.

use crate::error::RunError;
use crate::game::GameRecord;
use crate::pgn::pgn_text;
use crate::stats::Wdl;
use hoplite_core::{GameResult, Termination};
use hoplite_formats::csvfile::{self, Appender};
use hoplite_formats::{
    Decimal, FormatError, GameRow, Manifest, PositionRow, SummaryRow, WhiteScore, GAMES, MANIFEST, PGN, POSITIONS,
    SUMMARY,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

fn io(path: &Path, action: &'static str, e: impl std::fmt::Display) -> RunError {
    FormatError::io(path, action, e).into()
}

/// Per-configuration totals for summary.csv.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub plies: u64,
    pub terminations: BTreeMap<Termination, u64>,
}

impl Tally {
    pub fn add(&mut self, result: GameResult, termination: Termination, plies: u32) {
        self.wdl.add(result.white_score());
        self.plies += plies as u64;
        *self.terminations.entry(termination).or_default() += 1;
    }

    /// The row of summary.csv.
    pub fn row(&self, config: &str) -> SummaryRow {
        let (lo, hi) = self.wdl.score_interval();
        let mut row = SummaryRow {
            config: config.to_string(),
            games: self.wdl.games(),
            white_wins: self.wdl.wins,
            draws: self.wdl.draws,
            black_wins: self.wdl.losses,
            white_score: Decimal(self.wdl.score()),
            ci95_low: Decimal(lo),
            ci95_high: Decimal(hi),
            mean_plies: Decimal(self.plies as f64 / self.wdl.games().max(1) as f64),
            ..Default::default()
        };
        for (&t, &n) in &self.terminations {
            *row.ended_by(t) = n;
        }
        row
    }
}

/// Totals per configuration: what the summary needs, kept instead of the rows so that
/// memory does not grow with the number of games.
#[derive(Clone, Debug, Default)]
pub struct Tallies {
    /// Configurations in the order to report them (others follow by name).
    pub order: Vec<String>,
    by: BTreeMap<String, Tally>,
}

impl Tallies {
    pub fn new(order: &[String]) -> Tallies {
        Tallies { order: order.to_vec(), by: BTreeMap::new() }
    }
    pub fn add(&mut self, row: &GameRow) {
        self.by.entry(row.config.clone()).or_default().add(row.result, row.termination, row.plies);
    }
    pub fn from_rows(rows: &[GameRow], order: &[String]) -> Tallies {
        let mut t = Tallies::new(order);
        rows.iter().for_each(|r| t.add(r));
        t
    }
    /// (configuration, totals) in report order.
    pub fn list(&self) -> Vec<(String, Tally)> {
        let mut by = self.by.clone();
        let mut out: Vec<(String, Tally)> =
            self.order.iter().filter_map(|c| by.remove(c).map(|t| (c.clone(), t))).collect();
        out.extend(by);
        out
    }
    pub fn games(&self) -> u64 {
        self.by.values().map(|t| t.wdl.games()).sum()
    }
    /// Writes summary.csv: one row per configuration.
    pub fn write_summary(&self, dir: &Path) -> Result<(), RunError> {
        let rows: Vec<SummaryRow> = self.list().iter().map(|(c, t)| t.row(c)).collect();
        Ok(csvfile::write(&dir.join(SUMMARY), &rows)?)
    }
}

/// Cuts a file after its last newline (a line torn by a kill); returns whether it cut.
fn repair_torn_tail(path: &Path) -> Result<bool, RunError> {
    let mut f = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(path, "open", e)),
    };
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|e| io(path, "read", e))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(false);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    f.set_len(keep as u64).map_err(|e| io(path, "repair", e))?;
    f.seek(SeekFrom::End(0)).map_err(|e| io(path, "repair", e))?;
    Ok(true)
}

/// Rewrites a file keeping the lines `keep` accepts (through a temporary file and a rename).
fn filter_lines(path: &Path, mut keep: impl FnMut(usize, &str) -> bool) -> Result<(), RunError> {
    let Ok(file) = File::open(path) else {
        return Ok(());
    };
    let tmp = path.with_extension("tmp");
    {
        let mut out = BufWriter::new(File::create(&tmp).map_err(|e| io(&tmp, "write", e))?);
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| io(path, "read", e))?;
            if keep(i, &line) {
                writeln!(out, "{line}").map_err(|e| io(&tmp, "write", e))?;
            }
        }
        out.flush().map_err(|e| io(&tmp, "write", e))?;
    }
    fs::rename(&tmp, path).map_err(|e| io(path, "replace", e))
}

/// The lines of two manifests that differ, for the message of a refused resume.
fn manifest_diff(now: &Manifest, was: &Manifest) -> String {
    let (now, was) = (now.to_toml(), was.to_toml());
    let added = now.lines().filter(|l| !was.lines().any(|o| o == *l)).map(|l| format!("  now {l}"));
    let removed = was.lines().filter(|o| !now.lines().any(|l| l == *o)).map(|l| format!("  was {l}"));
    added.chain(removed).collect::<Vec<_>>().join("\n")
}

/// The open output files of a run.
pub struct RunOutput {
    pub dir: PathBuf,
    games: Appender<File, GameRow>,
    positions: Appender<BufWriter<File>, PositionRow>,
    pgn: Option<BufWriter<File>>,
    timing: bool,
    variant_name: String,
    /// Totals of everything written so far.
    pub tallies: Tallies,
}

/// Opens (or, with `resume`, reopens and repairs) a run directory. A resume of a run started
/// with another manifest is refused. Returns the output and the rows of the games already
/// done; `configs` orders the summary.
pub fn open(
    dir: &Path,
    manifest: &Manifest,
    resume: bool,
    variant_name: &str,
    configs: &[String],
) -> Result<(RunOutput, Vec<GameRow>), RunError> {
    fs::create_dir_all(dir).map_err(|e| io(dir, "create output directory", e))?;
    let games_path = dir.join(GAMES);
    let positions_path = dir.join(POSITIONS);
    let pgn_path = dir.join(PGN);
    let manifest_path = dir.join(MANIFEST);
    let existing = fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false);
    let mut rows: Vec<GameRow> = Vec::new();
    if existing {
        if !resume {
            return Err(RunError::Exists { dir: dir.display().to_string() });
        }
        let old = Manifest::read(&manifest_path)?;
        if old != *manifest {
            let diff = manifest_diff(manifest, &old);
            return Err(RunError::Changed { path: manifest_path.display().to_string(), diff });
        }
        repair_torn_tail(&games_path)?;
        rows = csvfile::read(&games_path)?;
    } else {
        manifest.write(&manifest_path)?;
    }
    let done: BTreeSet<u64> = rows.iter().map(|r| r.game_id).collect();
    let open_append = |p: &Path| OpenOptions::new().create(true).append(true).open(p).map_err(|e| io(p, "write", e));
    if existing {
        // Keep only what belongs to finished games.
        repair_torn_tail(&positions_path)?;
        filter_lines(&positions_path, |i, l| {
            i == 0 || l.split(',').next().and_then(|id| id.parse().ok()).is_some_and(|id: u64| done.contains(&id))
        })?;
        if manifest.pgn {
            let mut seen = 0usize;
            let mut keeping = false;
            filter_lines(&pgn_path, |_, l| {
                if l.starts_with("[Event ") {
                    seen += 1;
                    keeping = seen <= done.len();
                }
                keeping
            })?;
        }
    }
    let mut games = Appender::new(open_append(&games_path)?, &games_path);
    if !existing {
        // The header goes out now, so that an empty run is still a valid CSV.
        games.header()?;
        games.flush()?;
    }
    let positions_new = !existing || fs::metadata(&positions_path).map(|m| m.len() == 0).unwrap_or(true);
    let mut positions = Appender::new(BufWriter::new(open_append(&positions_path)?), &positions_path);
    if positions_new {
        positions.header()?;
    }
    let pgn = if manifest.pgn {
        if !existing {
            File::create(&pgn_path).map_err(|e| io(&pgn_path, "write", e))?;
        }
        Some(BufWriter::new(open_append(&pgn_path)?))
    } else {
        None
    };
    let out = RunOutput {
        dir: dir.to_path_buf(),
        games,
        positions,
        pgn,
        timing: manifest.timing,
        variant_name: variant_name.to_string(),
        tallies: Tallies::from_rows(&rows, configs),
    };
    Ok((out, rows))
}

impl RunOutput {
    /// Writes one finished game to every file, flushed.
    pub fn write(&mut self, rec: &GameRecord) -> Result<GameRow, RunError> {
        for (ply, fen) in &rec.positions {
            let row = PositionRow { game_id: rec.game_id, ply: *ply, fen: fen.clone(), result: WhiteScore(rec.result) };
            self.positions.push(&row)?;
        }
        self.positions.flush()?;
        if let Some(pgn) = self.pgn.as_mut() {
            let path = self.dir.join(PGN);
            pgn.write_all(pgn_text(rec).as_bytes()).map_err(|e| io(&path, "write", e))?;
            pgn.flush().map_err(|e| io(&path, "write", e))?;
        }
        let row = GameRow {
            game_id: rec.game_id,
            variant: self.variant_name.clone(),
            config: rec.config.clone(),
            seed: rec.seed,
            white: rec.white.clone(),
            black: rec.black.clone(),
            opening_fen: rec.opening_fen.clone(),
            result: rec.result,
            termination: rec.termination,
            plies: rec.plies,
            final_fen: rec.final_fen.clone(),
            nodes: rec.nodes,
            duration_ms: self.timing.then_some(rec.duration_ms),
        };
        self.games.push(&row)?;
        self.games.flush()?;
        self.tallies.add(&row);
        Ok(row)
    }
}
