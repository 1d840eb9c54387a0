//! The run directory: games.csv, positions.csv, summary.csv, games.pgn and run.toml (the
//! arguments, so that a resume with other arguments is refused). Games are written in game-id
//! order, each flushed as soon as it and all before it are done; a resume repairs a torn last
//! line and continues.

use crate::error::RunError;
use crate::run::files::{filter_lines, has_more_lines, io, repair_torn_tail};
use crate::run::game::GameRecord;
use crate::run::packed::{PackedOutput, Packing};
use crate::run::pgn::pgn_text;
use crate::stats::quality;
use crate::stats::Wdl;
use hoplite_core::{GameResult, Termination};
use hoplite_formats::csvfile::{self, Appender};
use hoplite_formats::{
    Decimal, GameRow, Manifest, PlayerRecord, PositionRow, SummaryRow, GAMES, MANIFEST, PGN, POSITIONS, SUMMARY,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// What a row of summary.csv is of: its label, the rule configuration, the player and the
/// budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigInfo {
    pub label: String,
    pub base: String,
    pub player: String,
    pub budget: String,
}

impl ConfigInfo {
    /// The label of configuration `base` played by `player` at `budget`: the parts that differ
    /// between the rows of a run (`several`: base, player, budget), joined.
    pub fn new(base: &str, player: &str, budget: &str, several: [bool; 3]) -> ConfigInfo {
        let mut label = base.to_string();
        if several[1] {
            label += &format!(" / {player}");
        }
        if several[2] {
            label += &format!(" @ {budget}");
        }
        ConfigInfo { label, base: base.into(), player: player.into(), budget: budget.into() }
    }
}

/// Per-configuration totals for summary.csv.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub plies: u64,
    pub plies_squared: u64,
    pub terminations: BTreeMap<Termination, u64>,
    /// Sums and counts for the quality measures.
    branching: (f64, u64),
    leads: (u64, u64),
    decided: (f64, u64),
}

impl Tally {
    pub fn add(&mut self, row: &GameRow) {
        self.wdl.add(row.result.white_score());
        self.plies += row.plies as u64;
        self.plies_squared += row.plies as u64 * row.plies as u64;
        *self.terminations.entry(row.termination).or_default() += 1;
        if let Some(b) = row.branching {
            self.branching = (self.branching.0 + b.0, self.branching.1 + 1);
        }
        if let Some(evals) = row.evals.as_deref().and_then(quality::parse_evals) {
            self.leads = (self.leads.0 + quality::lead_changes(&evals) as u64, self.leads.1 + 1);
            if row.result != GameResult::Draw {
                let at = quality::decided_at(&evals, row.result == GameResult::WhiteWins);
                self.decided = (self.decided.0 + at, self.decided.1 + 1);
            }
        }
    }

    /// The row of summary.csv.
    pub fn row(&self, info: &ConfigInfo) -> SummaryRow {
        let (lo, hi) = self.wdl.score_interval();
        let games = self.wdl.games().max(1) as f64;
        let mean = self.plies as f64 / games;
        let by_rule = self.terminations.iter().filter(|(t, _)| t.by_rule()).map(|(_, n)| n).sum::<u64>();
        fn mean_of<const P: usize>((sum, n): (f64, u64)) -> Option<Decimal<P>> {
            (n > 0).then(|| Decimal(sum / n as f64))
        }
        let mut row = SummaryRow {
            config: info.label.clone(),
            base: info.base.clone(),
            player: info.player.clone(),
            budget: info.budget.clone(),
            length_sd: Decimal((self.plies_squared as f64 / games - mean * mean).max(0.0).sqrt()),
            branching: mean_of(self.branching).unwrap_or_default(),
            balance: Decimal(1.0 - 2.0 * (self.wdl.score() - 0.5).abs()),
            drawishness: Decimal(self.wdl.draws as f64 / games),
            completion: Decimal(by_rule as f64 / games),
            lead_changes: mean_of((self.leads.0 as f64, self.leads.1)),
            decisiveness: mean_of(self.decided),
            games: self.wdl.games(),
            white_wins: self.wdl.wins,
            draws: self.wdl.draws,
            black_wins: self.wdl.losses,
            white_score: Decimal(self.wdl.score()),
            ci95_low: Decimal(lo),
            ci95_high: Decimal(hi),
            mean_plies: Decimal(mean),
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
    pub order: Vec<ConfigInfo>,
    by: BTreeMap<String, Tally>,
}

impl Tallies {
    pub fn new(order: &[ConfigInfo]) -> Tallies {
        Tallies { order: order.to_vec(), by: BTreeMap::new() }
    }
    pub fn add(&mut self, row: &GameRow) {
        self.by.entry(row.config.clone()).or_default().add(row);
    }
    pub fn from_rows(rows: &[GameRow], order: &[ConfigInfo]) -> Tallies {
        let mut t = Tallies::new(order);
        rows.iter().for_each(|r| t.add(r));
        t
    }
    /// (configuration, totals) in report order.
    pub fn list(&self) -> Vec<(ConfigInfo, Tally)> {
        let mut by = self.by.clone();
        let mut out: Vec<(ConfigInfo, Tally)> =
            self.order.iter().filter_map(|c| by.remove(&c.label).map(|t| (c.clone(), t))).collect();
        out.extend(by.into_iter().map(|(label, t)| {
            let info = ConfigInfo { base: label.clone(), label, ..Default::default() };
            (info, t)
        }));
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

/// The lines of two manifests that differ, for the message of a refused resume.
fn manifest_diff(now: &Manifest, was: &Manifest) -> String {
    let (now, was) = (now.to_toml(), was.to_toml());
    let added = now.lines().filter(|l| !was.lines().any(|o| o == *l)).map(|l| format!("  now {l}"));
    let removed = was.lines().filter(|o| !now.lines().any(|l| l == *o)).map(|l| format!("  was {l}"));
    added.chain(removed).collect::<Vec<_>>().join("\n")
}

/// A resume with another network than a player began with is refused, naming the file.
fn same_networks(now: &Manifest, was: &Manifest, dir: &Path) -> Result<(), RunError> {
    let show = |p: &PlayerRecord| match (&p.network, &p.network_hash) {
        (None, _) => "no network".to_string(),
        (Some(file), hash) => format!("{file} (hash {})", hash.as_deref().unwrap_or("unreadable")),
    };
    for (n, w) in now.players.iter().zip(&was.players) {
        if (&n.network, &n.network_hash) != (&w.network, &w.network_hash) {
            return Err(RunError::NetworkChanged {
                file: n.network.clone().or(w.network.clone()).unwrap_or_default(),
                dir: dir.display().to_string(),
                was: show(w),
                now: show(n),
            });
        }
    }
    Ok(())
}

/// The open output files of a run.
pub struct RunOutput {
    pub dir: PathBuf,
    games: Appender<File, GameRow>,
    /// positions.csv, unless the run packs its positions (positions.bin) instead.
    positions: Option<Appender<BufWriter<File>, PositionRow>>,
    packed: Option<PackedOutput>,
    pgn: Option<BufWriter<File>>,
    timing: bool,
    evals: bool,
    /// Totals of everything written so far.
    pub tallies: Tallies,
}

/// Files of games without games.csv, which says what games they are of, cannot be continued
/// (nor written over: they may be all that is left of a run).
fn no_orphan_records(dir: &Path) -> Result<(), RunError> {
    let (positions, index, pgn) = (dir.join(POSITIONS), dir.join(hoplite_formats::PACKED_INDEX), dir.join(PGN));
    let used = [
        (&positions, has_more_lines(&positions, 1)),
        (&index, has_more_lines(&index, 1)),
        (&pgn, fs::metadata(&pgn).is_ok_and(|m| m.len() > 0)),
    ];
    match used.iter().find(|(_, used)| *used) {
        Some((file, _)) => Err(RunError::NotOfRun {
            path: dir.join(GAMES).display().to_string(),
            message: format!(
                "missing or empty, but {} holds games' records that only it can place; restore it, or remove the folder",
                file.display()
            ),
        }),
        None => Ok(()),
    }
}

/// Every one of `games` games has its positions in positions.csv (or its records in
/// positions.bin, when `packed`): a file gone would leave the run's first games without them.
fn positions_kept(dir: &Path, packed: bool, games: usize) -> Result<(), RunError> {
    let kept = dir.join(if packed { hoplite_formats::PACKED_INDEX } else { POSITIONS });
    if games > 0 && !kept.exists() {
        let message = format!(
            "missing, but games.csv holds {games} games whose positions it kept; restore it, or remove the folder"
        );
        return Err(RunError::NotOfRun { path: kept.display().to_string(), message });
    }
    Ok(())
}

/// Opens (or, with `resume`, reopens and repairs) a run directory. A resume of a run started
/// with another manifest is refused. Returns the output and the rows of the games already
/// done; `configs` orders the summary; with `packing`, positions.bin takes positions.csv's
/// place.
pub fn open(
    dir: &Path,
    manifest: &Manifest,
    resume: bool,
    configs: &[ConfigInfo],
    packing: Option<&Packing>,
) -> Result<(RunOutput, Vec<GameRow>), RunError> {
    fs::create_dir_all(dir).map_err(|e| io(dir, "create output directory", e))?;
    let games_path = dir.join(GAMES);
    let positions_path = dir.join(POSITIONS);
    let pgn_path = dir.join(PGN);
    let manifest_path = dir.join(MANIFEST);
    let existing = fs::metadata(&games_path).map(|m| m.len() > 0).unwrap_or(false);
    if !existing {
        no_orphan_records(dir)?;
    }
    let mut rows: Vec<GameRow> = Vec::new();
    if existing {
        if !resume {
            return Err(RunError::Exists { dir: dir.display().to_string() });
        }
        let old = Manifest::read(&manifest_path)?;
        same_networks(manifest, &old, dir)?;
        if old != *manifest {
            let diff = manifest_diff(manifest, &old);
            return Err(RunError::Changed { path: manifest_path.display().to_string(), diff });
        }
        repair_torn_tail(&games_path)?;
        rows = csvfile::read(&games_path)?;
        positions_kept(dir, packing.is_some(), rows.len())?;
        // A file of an older version gets today's columns before rows are appended to it.
        let first = fs::read_to_string(&games_path).map_err(|e| io(&games_path, "read", e))?;
        if first.lines().next() != Some(csvfile::header::<GameRow>().join(",").as_str()) {
            csvfile::write(&games_path, &rows)?;
        }
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
    let positions = match packing {
        Some(_) => None,
        None => {
            let new = !existing || fs::metadata(&positions_path).map(|m| m.len() == 0).unwrap_or(true);
            let mut positions = Appender::new(BufWriter::new(open_append(&positions_path)?), &positions_path);
            if new {
                positions.header()?;
            }
            Some(positions)
        }
    };
    let packed = packing.map(|p| PackedOutput::open(dir, p, existing, &done)).transpose()?;
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
        packed,
        pgn,
        timing: manifest.timing,
        evals: manifest.evals,
        tallies: Tallies::from_rows(&rows, configs),
    };
    Ok((out, rows))
}

impl RunOutput {
    /// Training positions written to positions.bin in this session.
    pub fn packed_written(&self) -> u64 {
        self.packed.as_ref().map_or(0, |p| p.written)
    }

    /// Writes one finished game to every file, flushed.
    pub fn write(&mut self, rec: &GameRecord) -> Result<GameRow, RunError> {
        if let Some(packed) = self.packed.as_mut() {
            packed.write(rec)?;
        }
        if let Some(positions) = self.positions.as_mut() {
            for (ply, fen) in &rec.positions {
                let row = PositionRow { game_id: rec.game_id, ply: *ply, fen: fen.clone(), result: rec.result.into() };
                positions.push(&row)?;
            }
            positions.flush()?;
        }
        if let Some(pgn) = self.pgn.as_mut() {
            let path = self.dir.join(PGN);
            pgn.write_all(pgn_text(rec).as_bytes()).map_err(|e| io(&path, "write", e))?;
            pgn.flush().map_err(|e| io(&path, "write", e))?;
        }
        let row = GameRow {
            game_id: rec.game_id,
            variant: rec.variant.name.clone(),
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
            branching: Some(Decimal::rounded(rec.branching)),
            evals: self.evals.then(|| quality::evals_text(&rec.evals)),
        };
        self.games.push(&row)?;
        self.games.flush()?;
        self.tallies.add(&row);
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: GameResult, termination: Termination, plies: u32, branching: f64, evals: &str) -> GameRow {
        GameRow {
            game_id: 0,
            variant: "chess".into(),
            config: "c".into(),
            seed: 0,
            white: "a".into(),
            black: "b".into(),
            opening_fen: String::new(),
            result,
            termination,
            plies,
            final_fen: String::new(),
            nodes: 0,
            duration_ms: None,
            branching: Some(Decimal(branching)),
            evals: Some(evals.into()),
        }
    }

    /// The quality columns of three hand-made games, worked out by hand.
    #[test]
    fn quality_measures_of_hand_made_games() {
        let mut t = Tally::default();
        // White wins: ahead (above 0) for good from the second of its four evaluations; one lead
        // change (Black's lead of 80, then White's past 50).
        t.add(&game(GameResult::WhiteWins, Termination::Checkmate, 10, 20.0, "-80 10 60 400"));
        // A draw at the ply limit: two lead changes, no decision.
        t.add(&game(GameResult::Draw, Termination::MaxPlies, 20, 30.0, "60 -60 70 0"));
        // Black wins, ahead from the start: decided at 0.
        t.add(&game(GameResult::BlackWins, Termination::Checkmate, 30, 40.0, "-70 -90"));
        let r = t.row(&ConfigInfo::new("c", "hoplite", "nodes 1", [false; 3]));
        assert_eq!((r.games, r.white_wins, r.draws, r.black_wins), (3, 1, 1, 1));
        assert_eq!(r.mean_plies.0, 20.0);
        assert!((r.length_sd.0 - (200.0f64 / 3.0).sqrt()).abs() < 1e-9, "population sd of 10, 20, 30");
        assert_eq!(r.branching.0, 30.0);
        assert_eq!(r.balance.0, 1.0, "White scores exactly one half");
        assert!((r.drawishness.0 - 1.0 / 3.0).abs() < 1e-12);
        assert!((r.completion.0 - 2.0 / 3.0).abs() < 1e-12, "the ply limit is not a rule of the game");
        assert_eq!(r.lead_changes.unwrap().0, 1.0, "(1 + 2 + 0) / 3");
        assert_eq!(r.decisiveness.unwrap().0, 0.125, "(1/4 + 0) / 2 decided games");
    }
}
