//! The run directory: games.csv, positions.csv, summary.csv, games.pgn and run.toml (the
//! arguments, so that a resume with other arguments is refused). Games are written in game-id
//! order, each flushed as soon as it and all before it are done; a resume repairs a torn last
//! line and continues.

use crate::game::GameRecord;
use crate::stats::Wdl;
use hoplite_core::{GameResult, Position, Termination, Variant};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const GAMES: &str = "games.csv";
pub const POSITIONS: &str = "positions.csv";
pub const SUMMARY: &str = "summary.csv";
pub const PGN: &str = "games.pgn";
pub const MANIFEST: &str = "run.toml";

/// One row of games.csv.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    pub game_id: u64,
    pub variant: String,
    pub config: String,
    pub seed: u64,
    pub white: String,
    pub black: String,
    pub opening_fen: String,
    pub result: String,
    pub termination: String,
    pub plies: u32,
    pub final_fen: String,
    pub nodes: u64,
    /// Empty unless timing was asked for: wall time would make runs differ byte for byte.
    pub duration_ms: Option<u64>,
}

/// One row of positions.csv.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionRow {
    pub game_id: u64,
    pub ply: u32,
    pub fen: String,
    pub result: String,
}

pub fn white_score_text(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "1",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0",
    }
}

fn io_err(path: &Path, what: &str, e: impl std::fmt::Display) -> String {
    format!("{}: {what}: {e}", path.display())
}

/// Reads games.csv; a row that does not parse is an error naming the line.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    let file = File::open(path).map_err(|e| io_err(path, "cannot open", e))?;
    let mut rdr = csv::Reader::from_reader(file);
    let mut rows = Vec::new();
    for (i, r) in rdr.deserialize::<GameRow>().enumerate() {
        let row = r.map_err(|e| format!("{}:{}: {}", path.display(), i + 2, csv_message(&e)))?;
        parse_result(&row.result).ok_or_else(|| {
            format!("{}:{}: result '{}' is not 1-0, 0-1 or 1/2-1/2", path.display(), i + 2, row.result)
        })?;
        rows.push(row);
    }
    Ok(rows)
}

fn csv_message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!("field {}: {}", f + 1, err.kind()),
            None => err.kind().to_string(),
        },
        _ => e.to_string(),
    }
}

pub fn parse_result(s: &str) -> Option<GameResult> {
    match s {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Per-configuration totals for summary.csv.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub plies: u64,
    pub terminations: BTreeMap<&'static str, u64>,
}

impl Tally {
    pub fn add(&mut self, result: &str, termination: &str, plies: u32) {
        match parse_result(result) {
            Some(GameResult::WhiteWins) => self.wdl.wins += 1,
            Some(GameResult::BlackWins) => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        self.plies += plies as u64;
        if let Some(t) = Termination::ALL.iter().find(|t| t.as_str() == termination) {
            *self.terminations.entry(t.as_str()).or_default() += 1;
        }
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
        self.by.entry(row.config.clone()).or_default().add(&row.result, &row.termination, row.plies);
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
}

/// Writes summary.csv: one row per configuration, White's score with its 95% interval.
pub fn write_summary(dir: &Path, tallies: &Tallies) -> Result<(), String> {
    let path = dir.join(SUMMARY);
    let mut w = csv::Writer::from_path(&path).map_err(|e| io_err(&path, "cannot write", e))?;
    let mut header: Vec<String> =
        ["config", "games", "white_wins", "draws", "black_wins", "white_score", "ci95_low", "ci95_high", "mean_plies"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    header.extend(Termination::ALL.iter().map(|t| t.as_str().to_string()));
    w.write_record(&header).map_err(|e| io_err(&path, "cannot write", e))?;
    for (config, t) in tallies.list() {
        let (lo, hi) = t.wdl.score_interval();
        let mut rec = vec![
            config,
            t.wdl.games().to_string(),
            t.wdl.wins.to_string(),
            t.wdl.draws.to_string(),
            t.wdl.losses.to_string(),
            format!("{:.4}", t.wdl.score()),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{:.2}", t.plies as f64 / t.wdl.games().max(1) as f64),
        ];
        rec.extend(Termination::ALL.iter().map(|x| t.terminations.get(x.as_str()).copied().unwrap_or(0).to_string()));
        w.write_record(&rec).map_err(|e| io_err(&path, "cannot write", e))?;
    }
    w.flush().map_err(|e| io_err(&path, "cannot write", e))
}

/// Cuts a file after its last newline (a line torn by a kill); returns whether it cut.
fn repair_torn_tail(path: &Path) -> Result<bool, String> {
    let mut f = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_err(path, "cannot open", e)),
    };
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|e| io_err(path, "cannot read", e))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(false);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    f.set_len(keep as u64).map_err(|e| io_err(path, "cannot repair", e))?;
    f.seek(SeekFrom::End(0)).map_err(|e| io_err(path, "cannot repair", e))?;
    Ok(true)
}

/// Rewrites a file keeping the lines `keep` accepts (through a temporary file and a rename).
fn filter_lines(path: &Path, mut keep: impl FnMut(usize, &str) -> bool) -> Result<(), String> {
    let Ok(file) = File::open(path) else {
        return Ok(());
    };
    let tmp = path.with_extension("tmp");
    {
        let mut out = BufWriter::new(File::create(&tmp).map_err(|e| io_err(&tmp, "cannot write", e))?);
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| io_err(path, "cannot read", e))?;
            if keep(i, &line) {
                writeln!(out, "{line}").map_err(|e| io_err(&tmp, "cannot write", e))?;
            }
        }
        out.flush().map_err(|e| io_err(&tmp, "cannot write", e))?;
    }
    fs::rename(&tmp, path).map_err(|e| io_err(path, "cannot replace", e))
}

/// The open output files of a run.
pub struct RunOutput {
    pub dir: PathBuf,
    games: csv::Writer<File>,
    positions: csv::Writer<BufWriter<File>>,
    pgn: Option<BufWriter<File>>,
    timing: bool,
    variant_name: String,
    /// Totals of everything written so far.
    pub tallies: Tallies,
}

/// Opens (or, with `resume`, reopens and repairs) a run directory. `manifest` is run.toml's
/// text; a resume with another manifest is refused. Returns the output and the rows of the
/// games already done; `configs` orders the summary.
pub fn open(
    dir: &Path,
    manifest: &str,
    resume: bool,
    pgn: bool,
    timing: bool,
    variant_name: &str,
    configs: &[String],
) -> Result<(RunOutput, Vec<GameRow>), String> {
    fs::create_dir_all(dir).map_err(|e| io_err(dir, "cannot create output directory", e))?;
    let games_path = dir.join(GAMES);
    let positions_path = dir.join(POSITIONS);
    let pgn_path = dir.join(PGN);
    let manifest_path = dir.join(MANIFEST);
    let existing = fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false);
    let mut rows = Vec::new();
    if existing {
        if !resume {
            return Err(format!(
                "{} already holds a run ({GAMES}); pass --resume to continue it, or choose another --out",
                dir.display()
            ));
        }
        let old = fs::read_to_string(&manifest_path).map_err(|e| io_err(&manifest_path, "cannot read", e))?;
        if old != manifest {
            let diff: Vec<String> = manifest
                .lines()
                .filter(|l| !old.lines().any(|o| o == *l))
                .map(|l| format!("  now {l}"))
                .chain(old.lines().filter(|o| !manifest.lines().any(|l| l == *o)).map(|l| format!("  was {l}")))
                .collect();
            return Err(format!(
                "{}: the run was started with other arguments; resume with the same ones:\n{}",
                manifest_path.display(),
                diff.join("\n")
            ));
        }
        repair_torn_tail(&games_path)?;
        rows = read_games(&games_path)?;
    } else {
        fs::write(&manifest_path, manifest).map_err(|e| io_err(&manifest_path, "cannot write", e))?;
    }
    let done: BTreeSet<u64> = rows.iter().map(|r| r.game_id).collect();
    let open_append =
        |p: &Path| OpenOptions::new().create(true).append(true).open(p).map_err(|e| io_err(p, "cannot write", e));
    if existing {
        // Keep only what belongs to finished games.
        repair_torn_tail(&positions_path)?;
        filter_lines(&positions_path, |i, l| {
            i == 0 || l.split(',').next().and_then(|id| id.parse().ok()).is_some_and(|id: u64| done.contains(&id))
        })?;
        if pgn {
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
    let games_file = open_append(&games_path)?;
    let mut games = csv::WriterBuilder::new().has_headers(false).from_writer(games_file);
    if !existing {
        games
            .write_record([
                "game_id",
                "variant",
                "config",
                "seed",
                "white",
                "black",
                "opening_fen",
                "result",
                "termination",
                "plies",
                "final_fen",
                "nodes",
                "duration_ms",
            ])
            .map_err(|e| io_err(&games_path, "cannot write", e))?;
    }
    let positions_new = !existing || fs::metadata(&positions_path).map(|m| m.len() == 0).unwrap_or(true);
    let mut positions =
        csv::WriterBuilder::new().has_headers(false).from_writer(BufWriter::new(open_append(&positions_path)?));
    if positions_new {
        positions
            .write_record(["game_id", "ply", "fen", "result"])
            .map_err(|e| io_err(&positions_path, "cannot write", e))?;
    }
    if !existing {
        // The header goes out now, so that an empty run is still a valid CSV.
        games.flush().map_err(|e| io_err(&games_path, "cannot write", e))?;
    }
    let pgn = if pgn {
        if !existing {
            File::create(&pgn_path).map_err(|e| io_err(&pgn_path, "cannot write", e))?;
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
        timing,
        variant_name: variant_name.to_string(),
        tallies: Tallies::from_rows(&rows, configs),
    };
    Ok((out, rows))
}

impl RunOutput {
    /// Writes one finished game to every file, flushed.
    pub fn write(&mut self, rec: &GameRecord) -> Result<GameRow, String> {
        let err = |what: &str, e: &dyn std::fmt::Display| format!("{}: {what}: {e}", self.dir.display());
        let result = white_score_text(rec.result);
        for (ply, fen) in &rec.positions {
            self.positions
                .serialize(PositionRow {
                    game_id: rec.game_id,
                    ply: *ply,
                    fen: fen.clone(),
                    result: result.to_string(),
                })
                .map_err(|e| err("cannot write positions.csv", &e))?;
        }
        self.positions.flush().map_err(|e| err("cannot write positions.csv", &e))?;
        if let Some(pgn) = self.pgn.as_mut() {
            pgn.write_all(pgn_text(rec, &rec.variant).as_bytes()).map_err(|e| err("cannot write games.pgn", &e))?;
            pgn.flush().map_err(|e| err("cannot write games.pgn", &e))?;
        }
        let row = GameRow {
            game_id: rec.game_id,
            variant: self.variant_name.clone(),
            config: rec.config.clone(),
            seed: rec.seed,
            white: rec.white.clone(),
            black: rec.black.clone(),
            opening_fen: rec.opening_fen.clone(),
            result: rec.result.as_str().to_string(),
            termination: rec.termination.as_str().to_string(),
            plies: rec.plies,
            final_fen: rec.final_fen.clone(),
            nodes: rec.nodes,
            duration_ms: self.timing.then_some(rec.duration_ms),
        };
        self.games.serialize(&row).map_err(|e| err("cannot write games.csv", &e))?;
        self.games.flush().map_err(|e| err("cannot write games.csv", &e))?;
        self.tallies.add(&row);
        Ok(row)
    }
}

/// One game in PGN, moves in SAN from the start position (the opening included).
pub fn pgn_text(rec: &GameRecord, variant: &Arc<Variant>) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")))
    };
    tag(&mut s, "Event", &format!("hoplite {}", rec.config));
    tag(&mut s, "Site", "hoplite");
    tag(&mut s, "Date", "????.??.??");
    tag(&mut s, "Round", &(rec.game_id + 1).to_string());
    tag(&mut s, "White", &rec.white);
    tag(&mut s, "Black", &rec.black);
    tag(&mut s, "Result", rec.result.as_str());
    tag(&mut s, "Variant", &variant.name);
    if rec.start_fen != variant.setup {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &rec.start_fen);
    }
    tag(&mut s, "Termination", rec.termination.as_str());
    tag(&mut s, "GameId", &rec.game_id.to_string());
    s.push('\n');
    let start = Position::from_fen(variant, &rec.start_fen).expect("the game's own start");
    let mut number = start.fullmove_number();
    let mut black = start.side_to_move() == hoplite_core::BLACK;
    let mut text = String::new();
    for (i, m) in rec.opening_san.iter().chain(&rec.san).enumerate() {
        if !black {
            text += &format!("{number}. ");
        } else if i == 0 {
            text += &format!("{number}... ");
        }
        text += m;
        text.push(' ');
        if black {
            number += 1;
        }
        black = !black;
    }
    text += rec.result.as_str();
    // Wrap at about 80 columns.
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + word.len() >= 80 {
            s += &line;
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += word;
    }
    s += &line;
    s += "\n\n";
    s
}
