//! `hoplite merge DIR... --out DIR`: shards of one run combined into the files the unsharded
//! run writes, byte for byte.

use crate::output::{self, read_games, GameRow, GAMES, MANIFEST, PGN, POSITIONS};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

fn manifest_without_shard(dir: &Path) -> Result<(String, Option<String>), String> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let shard = text.lines().find(|l| l.starts_with("shard = ")).map(|l| l.to_string());
    let rest: String = text.lines().filter(|l| !l.starts_with("shard = ")).map(|l| format!("{l}\n")).collect();
    Ok((rest, shard))
}

/// Lines of a CSV file (after the header) with the game id of each.
fn id_lines(path: &Path) -> Result<Vec<(u64, String)>, String> {
    let Ok(f) = File::open(path) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate().skip(1) {
        let line = line.map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let id = line
            .split(',')
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| format!("{}:{}: no game id in the first field", path.display(), i + 1))?;
        out.push((id, line));
    }
    Ok(out)
}

/// PGN games keyed by their `GameId` tag.
fn pgn_games(path: &Path) -> Result<Vec<(u64, String)>, String> {
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
            .ok_or_else(|| format!("{}: a game without a [GameId] tag", path.display()))?;
        out.push((id, game));
    }
    Ok(out)
}

pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<usize, String> {
    if dirs.is_empty() {
        return Err("merge: name at least one run directory".into());
    }
    let (manifest, _) = manifest_without_shard(&dirs[0])?;
    let mut shards = Vec::new();
    for d in dirs {
        let (m, shard) = manifest_without_shard(d)?;
        if m != manifest {
            return Err(format!(
                "{} and {} come from runs with different arguments; only shards of one run merge",
                dirs[0].display(),
                d.display()
            ));
        }
        let parsed = shard
            .as_deref()
            .and_then(|l| l.strip_prefix("shard = \"")?.strip_suffix('"').map(crate::parse_shard))
            .transpose()?;
        shards.push((d, parsed));
    }
    // Every shard of the run, once: a missing one would leave a summary that looks whole.
    if let Some((_, Some((_, n)))) = shards.first() {
        let n = *n;
        for k in 0..n {
            let holders: Vec<_> = shards.iter().filter(|(_, s)| *s == Some((k, n))).collect();
            if holders.len() != 1 {
                return Err(format!(
                    "shard {k}/{n} is given {} times; merge needs each of the {n} shards once",
                    holders.len()
                ));
            }
        }
        if shards.len() as u64 != n {
            return Err(format!("{} directories for a run of {n} shards", shards.len()));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: cannot create output directory: {e}", out.display()))?;
    let mut rows: Vec<GameRow> = Vec::new();
    let mut positions: Vec<(u64, String)> = Vec::new();
    let mut pgn: BTreeMap<u64, String> = BTreeMap::new();
    for d in dirs {
        rows.extend(read_games(&d.join(GAMES))?);
        positions.extend(id_lines(&d.join(POSITIONS))?);
        for (id, g) in pgn_games(&d.join(PGN))? {
            if pgn.insert(id, g).is_some() {
                return Err(format!("{}: game {id} appears in two shards", d.display()));
            }
        }
    }
    rows.sort_by_key(|r| r.game_id);
    if let Some(w) = rows.windows(2).find(|w| w[0].game_id == w[1].game_id) {
        return Err(format!("game {} appears in two shards", w[0].game_id));
    }
    // Stable: the rows of one game keep their order.
    positions.sort_by_key(|(id, _)| *id);
    std::fs::write(out.join(MANIFEST), &manifest).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    let games_path = out.join(GAMES);
    let mut w =
        csv::Writer::from_path(&games_path).map_err(|e| format!("{}: cannot write: {e}", games_path.display()))?;
    for r in &rows {
        w.serialize(r).map_err(|e| format!("{}: cannot write: {e}", games_path.display()))?;
    }
    w.flush().map_err(|e| format!("{}: cannot write: {e}", games_path.display()))?;
    let pos_path = out.join(POSITIONS);
    let mut pw =
        BufWriter::new(File::create(&pos_path).map_err(|e| format!("{}: cannot write: {e}", pos_path.display()))?);
    let write_err = |e: std::io::Error| format!("{}: cannot write: {e}", pos_path.display());
    writeln!(pw, "game_id,ply,fen,result").map_err(write_err)?;
    for (_, l) in &positions {
        writeln!(pw, "{l}").map_err(write_err)?;
    }
    pw.flush().map_err(write_err)?;
    if dirs.iter().any(|d| d.join(PGN).exists()) {
        let text: String = pgn.into_values().collect();
        std::fs::write(out.join(PGN), text).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    }
    let configs = configs_in_order(&rows);
    output::write_summary(out, &output::Tallies::from_rows(&rows, &configs))?;
    Ok(rows.len())
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
