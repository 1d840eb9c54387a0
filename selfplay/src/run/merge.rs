//! `hoplite merge DIR... --out DIR`: shards of one run combined into the files the unsharded
//! run writes, byte for byte (positions.bin too, interleaved game by game by its index).

use crate::error::RunError;
use crate::run::output::{ConfigInfo, Tallies};
use crate::run::parse_shard;
use hoplite_formats::packed::HEADER_LEN;
use hoplite_formats::{
    csvfile, FormatError, GameRow, Manifest, PackedIndexRow, SummaryRow, GAMES, MANIFEST, PACKED, PACKED_INDEX, PGN,
    POSITIONS, SUMMARY,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Lines of a positions file (after the header) with the game id of each: the rows are
/// carried over as they are, not parsed.
fn id_lines(path: &Path) -> Result<Vec<(u64, String)>, RunError> {
    let Ok(f) = File::open(path) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate().skip(1) {
        let line = line.map_err(|e| FormatError::io(path, "read", e))?;
        let id = line.split(',').next().and_then(|x| x.parse().ok()).ok_or_else(|| FormatError::Row {
            path: path.display().to_string(),
            line: i as u64 + 1,
            message: "no game id in the first field".into(),
        })?;
        out.push((id, line));
    }
    Ok(out)
}

/// PGN games keyed by their `GameId` tag.
fn pgn_games(path: &Path) -> Result<Vec<(u64, String)>, RunError> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for chunk in text.split("[Event ").filter(|c| !c.trim().is_empty()) {
        let game = format!("[Event {chunk}");
        let id = game
            .lines()
            .find_map(|l| l.strip_prefix("[GameId \"").and_then(|r| r.strip_suffix("\"]")))
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| RunError::Merge(format!("{}: a game without a [GameId] tag", path.display())))?;
        out.push((id, game));
    }
    Ok(out)
}

/// Checks that `dirs` are each shard of one run, once; returns the run's manifest unsharded.
fn one_run(dirs: &[PathBuf]) -> Result<Manifest, RunError> {
    let first = Manifest::read(&dirs[0].join(MANIFEST))?;
    let run = first.unsharded();
    let mut shards = Vec::new();
    for d in dirs {
        let m = Manifest::read(&d.join(MANIFEST))?;
        if m.unsharded() != run {
            return Err(RunError::Merge(format!(
                "{} and {} come from runs with different arguments; only shards of one run merge",
                dirs[0].display(),
                d.display()
            )));
        }
        shards.push(m.shard.as_deref().map(parse_shard).transpose()?);
    }
    // Every shard of the run, once: a missing one would leave a summary that looks whole.
    if let Some(Some((_, n))) = shards.first().copied() {
        for k in 0..n {
            let holders = shards.iter().filter(|s| **s == Some((k, n))).count();
            if holders != 1 {
                return Err(RunError::Merge(format!(
                    "shard {k}/{n} is given {holders} times; merge needs each of the {n} shards once"
                )));
            }
        }
        if shards.len() as u64 != n {
            return Err(RunError::Merge(format!("{} directories for a run of {n} shards", shards.len())));
        }
    }
    Ok(run)
}

/// What a merge joined: the games, and the training positions when the shards keep them.
pub struct Merged {
    pub games: usize,
    pub positions: Option<u64>,
}

pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, RunError> {
    if dirs.is_empty() {
        return Err(RunError::Usage("merge: name at least one run directory".into()));
    }
    // Nothing is written over, and no shard is merged short of a file the others have.
    if out.read_dir().is_ok_and(|mut d| d.next().is_some()) {
        return Err(RunError::Merge(format!("{}: not empty; merge into a new directory", out.display())));
    }
    if let Some(short) = dirs.iter().find(|d| !d.join(POSITIONS).exists()) {
        if dirs.iter().any(|d| d.join(POSITIONS).exists()) {
            return Err(RunError::Merge(format!(
                "{}: no {POSITIONS}, which the other shards have: this shard is incomplete (run it again with --resume)",
                short.display()
            )));
        }
    }
    let manifest = one_run(dirs)?;
    let mut rows: Vec<GameRow> = Vec::new();
    let mut positions: Vec<(u64, String)> = Vec::new();
    let mut pgn: BTreeMap<u64, String> = BTreeMap::new();
    for d in dirs {
        let shard = Manifest::read(&d.join(MANIFEST))?.shard.as_deref().map(parse_shard).transpose()?;
        let its = csvfile::read::<GameRow>(&d.join(GAMES))?;
        if let Some((k, n)) = shard {
            if let Some(r) = its.iter().find(|r| r.game_id % n != k) {
                let message =
                    format!("{}: game {} is not of shard {k}/{n}, as its run.toml says", d.display(), r.game_id);
                return Err(RunError::Merge(message));
            }
        }
        let ids: BTreeSet<u64> = its.iter().map(|r| r.game_id).collect();
        let its_positions = id_lines(&d.join(POSITIONS))?;
        let its_pgn = pgn_games(&d.join(PGN))?;
        let indexed = match d.join(PACKED_INDEX).exists() {
            true => csvfile::read::<PackedIndexRow>(&d.join(PACKED_INDEX))?.iter().map(|r| r.game_id).collect(),
            false => Vec::new(),
        };
        // Records of a game games.csv does not hold: a shard killed and not resumed since.
        let stray = its_positions.iter().map(|(id, _)| id).chain(its_pgn.iter().map(|(id, _)| id)).chain(&indexed);
        if let Some(id) = stray.copied().find(|id| !ids.contains(id)) {
            return Err(RunError::Merge(format!(
                "{}: records of game {id}, which its games.csv does not hold: the shard was stopped in the middle; run it again with --resume",
                d.display()
            )));
        }
        rows.extend(its);
        positions.extend(its_positions);
        for (id, g) in its_pgn {
            if pgn.insert(id, g).is_some() {
                return Err(RunError::Merge(format!("{}: game {id} appears in two shards", d.display())));
            }
        }
    }
    rows.sort_by_key(|r| r.game_id);
    if let Some(w) = rows.windows(2).find(|w| w[0].game_id == w[1].game_id) {
        return Err(RunError::Merge(format!("game {} appears in two shards", w[0].game_id)));
    }
    // Stable: the rows of one game keep their order.
    positions.sort_by_key(|(id, _)| *id);
    std::fs::create_dir_all(out).map_err(|e| FormatError::io(out, "create output directory", e))?;
    manifest.write(&out.join(MANIFEST))?;
    csvfile::write(&out.join(GAMES), &rows)?;
    // A datagen run keeps positions.bin instead.
    if dirs.iter().any(|d| d.join(POSITIONS).exists()) {
        let pos_path = out.join(POSITIONS);
        let write_err = |e: std::io::Error| FormatError::io(&pos_path, "write", e);
        let mut pw = BufWriter::new(File::create(&pos_path).map_err(write_err)?);
        writeln!(pw, "{}", csvfile::header::<hoplite_formats::PositionRow>().join(",")).map_err(write_err)?;
        for (_, l) in &positions {
            writeln!(pw, "{l}").map_err(write_err)?;
        }
        pw.flush().map_err(write_err)?;
    }
    let packed = merge_packed(dirs, out)?;
    if dirs.iter().any(|d| d.join(PGN).exists()) {
        let text: String = pgn.into_values().collect();
        std::fs::write(out.join(PGN), text).map_err(|e| FormatError::io(&out.join(PGN), "write", e))?;
    }
    let infos = summaries(dirs)?;
    let order: Vec<ConfigInfo> = configs_in_order(&rows)
        .into_iter()
        .map(|label| {
            infos.get(&label).cloned().unwrap_or(ConfigInfo { base: label.clone(), label, ..Default::default() })
        })
        .collect();
    Tallies::from_rows(&rows, &order).write_summary(out)?;
    Ok(Merged { games: rows.len(), positions: packed })
}

/// One shard's positions.bin, read in step with its index.
struct PackedShard {
    path: PathBuf,
    reader: BufReader<File>,
    rows: std::iter::Peekable<std::vec::IntoIter<PackedIndexRow>>,
}

impl PackedShard {
    fn open(dir: &Path) -> Result<(PackedShard, [u8; HEADER_LEN]), RunError> {
        let path = dir.join(PACKED);
        let mut reader = BufReader::new(File::open(&path).map_err(|e| FormatError::io(&path, "open", e))?);
        let mut header = [0u8; HEADER_LEN];
        reader.read_exact(&mut header).map_err(|e| FormatError::io(&path, "read its header", e))?;
        let rows: Vec<PackedIndexRow> = csvfile::read(&dir.join(PACKED_INDEX))?;
        Ok((PackedShard { path, reader, rows: rows.into_iter().peekable() }, header))
    }
}

/// Joins the shards' positions.bin into the unsharded run's, game by game in game-id order as
/// their indexes divide them, streaming; the positions, or none when the shards keep none.
fn merge_packed(dirs: &[PathBuf], out: &Path) -> Result<Option<u64>, RunError> {
    if !dirs.iter().any(|d| d.join(PACKED).exists()) {
        return Ok(None);
    }
    let mut shards: Vec<PackedShard> = Vec::new();
    let mut header = [0u8; HEADER_LEN];
    for d in dirs {
        let (shard, its) = PackedShard::open(d)?;
        if let Some(first) = shards.first().filter(|_| its != header) {
            return Err(RunError::Merge(format!(
                "{} and {}: their headers differ (positions of another variant or format)",
                first.path.display(),
                shard.path.display()
            )));
        }
        header = its;
        shards.push(shard);
    }
    let out_path = out.join(PACKED);
    let write_err = |e: std::io::Error| FormatError::io(&out_path, "write", e);
    let mut w = BufWriter::new(File::create(&out_path).map_err(write_err)?);
    w.write_all(&header).map_err(write_err)?;
    let mut index: Vec<PackedIndexRow> = Vec::new();
    while let Some((id, i)) = shards.iter_mut().enumerate().filter_map(|(i, s)| Some((s.rows.peek()?.game_id, i))).min()
    {
        let shard = &mut shards[i];
        let row = shard.rows.next().expect("peeked");
        if index.last().is_some_and(|r| r.game_id >= id) {
            return Err(RunError::Merge(format!("{}: game {id} appears twice or out of order", shard.path.display())));
        }
        let copied = std::io::copy(&mut shard.reader.by_ref().take(row.bytes), &mut w).map_err(write_err)?;
        if copied != row.bytes {
            let cut =
                format!("{}: cut short: its index lists game {id}'s records beyond its end", shard.path.display());
            return Err(RunError::Merge(cut));
        }
        index.push(row);
    }
    for s in &mut shards {
        if !s.reader.fill_buf().map_err(|e| FormatError::io(&s.path, "read", e))?.is_empty() {
            return Err(RunError::Merge(format!("{}: records beyond those its index lists", s.path.display())));
        }
    }
    w.flush().map_err(write_err)?;
    csvfile::write(&out.join(PACKED_INDEX), &index)?;
    Ok(Some(index.iter().map(|r| r.positions).sum()))
}

/// What each configuration is of, from the shards' summaries.
fn summaries(dirs: &[PathBuf]) -> Result<BTreeMap<String, ConfigInfo>, RunError> {
    let mut infos = BTreeMap::new();
    for d in dirs {
        let path = d.join(SUMMARY);
        if path.exists() {
            for r in csvfile::read::<SummaryRow>(&path)? {
                let info = ConfigInfo { label: r.config.clone(), base: r.base, player: r.player, budget: r.budget };
                infos.insert(r.config, info);
            }
        }
    }
    Ok(infos)
}

/// Configurations in the order their first game appears.
pub fn configs_in_order(rows: &[GameRow]) -> Vec<String> {
    let mut seen = Vec::new();
    for r in rows {
        if !seen.contains(&r.config) {
            seen.push(r.config.clone());
        }
    }
    seen
}
