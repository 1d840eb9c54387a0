//! `hoplite balance CONFIG.toml`: one base variant and named overrides (a piece's Betza, a
//! rule option, the setup), every configuration played with the same seeds and openings.

use crate::game::{game_seed, EngineSpec};
use crate::run::{Job, Progress};
use crate::{output, EngineOptions, Openings, RunOptions, RunReport};
use hoplite_core::spec::line_of;
use hoplite_core::Variant;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceFile {
    /// Built-in name or variant file (relative to the config file).
    pub variant: String,
    pub games: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub random_plies: Option<u32>,
    pub seed: Option<u64>,
    pub max_plies: Option<u32>,
    pub configs: Vec<ConfigEntry>,
}

#[derive(Deserialize)]
pub struct ConfigEntry {
    pub name: String,
    /// Anything a variant file may say, laid over the base variant.
    #[serde(flatten)]
    pub overrides: toml::Table,
}

pub struct Balance {
    pub file: BalanceFile,
    pub text: String,
    pub configs: Vec<(String, Arc<Variant>)>,
}

/// Reads a balance config and builds each configuration's variant.
pub fn load(path: &Path) -> Result<Balance, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read balance config '{}': {e}", path.display()))?;
    let file: BalanceFile = toml::from_str(&text).map_err(|e| {
        let line = e.span().map(|s| format!(":{}", line_of(&text, s.start))).unwrap_or_default();
        format!("{}{line}: {}", path.display(), e.message())
    })?;
    if file.configs.is_empty() {
        return Err(format!("{}: no [[configs]]", path.display()));
    }
    let base = if hoplite_core::variant::builtin_names().contains(&file.variant.as_str()) {
        file.variant.clone()
    } else {
        path.parent().unwrap_or(Path::new(".")).join(&file.variant).display().to_string()
    };
    let mut configs = Vec::new();
    for c in &file.configs {
        if configs.iter().any(|(n, _)| n == &c.name) {
            return Err(format!("{}: config '{}' is named twice", path.display(), c.name));
        }
        let overlay =
            toml::to_string(&c.overrides).map_err(|e| format!("{}: config '{}': {e}", path.display(), c.name))?;
        let src = format!("extends = {base:?}\n{overlay}");
        let label = format!("{} [configs '{}']", path.display(), c.name);
        let v = Variant::from_toml(&label, &src).map_err(|e| e.to_string())?;
        configs.push((c.name.clone(), v));
    }
    Ok(Balance { file, text, configs })
}

/// Runs every configuration; game `c * games + i` of configuration `c` uses the seed and
/// opening of index `i`. The opening comes from the first configuration; where it is not
/// legal under another's rules, that configuration draws its own from the same seed.
pub fn run(b: &Balance, engine: &EngineOptions, opts: &RunOptions) -> Result<RunReport, String> {
    let first = b.configs[0].1.clone();
    let manifest = format!("command = \"balance\"\nconfig = {:?}\n{}{}", b.text, opts.manifest(), engine.manifest(""));
    let configs: Vec<String> = b.configs.iter().map(|(n, _)| n.clone()).collect();
    let (mut out, previous) =
        output::open(&opts.out, &manifest, opts.resume, opts.pgn, opts.timing, &first.name, &configs)?;
    let done: BTreeSet<u64> = previous.iter().map(|r| r.game_id).collect();
    let mut wdl = crate::stats::Wdl::default();
    previous.iter().for_each(|r| crate::add_white(&mut wdl, &r.result));
    drop(previous);
    let openings = Openings::new(&first, opts)?;
    let games = opts.games;
    let n = b.configs.len() as u64;
    let todo = |id: &u64| opts.in_shard(*id) && !done.contains(id);
    let total = (0..n * games).filter(|&id| opts.in_shard(id)).count() as u64;
    let played = (0..n * games).filter(todo).count() as u64;
    let engines: Vec<Arc<EngineSpec>> =
        b.configs.iter().map(|(_, v)| engine.engine("hoplite", v).map(Arc::new)).collect::<Result<_, _>>()?;
    // Game ids in order: configuration-major. Each index's opening is drawn once, in the first
    // configuration, when its first game is taken.
    let mut last = None;
    let jobs = (0..n * games).filter(todo).map(move |id| {
        let (c, i) = ((id / games) as usize, id % games);
        let seed = game_seed(opts.seed, i);
        let (start_fen, line) = openings.shared(&first, i, seed, &mut last);
        let (name, variant) = &b.configs[c];
        Job {
            game_id: id,
            variant: variant.clone(),
            config: name.as_str().into(),
            seed,
            start_fen,
            opening: openings.opening(),
            shared_opening: Some(line),
            white: engines[c].clone(),
            black: engines[c].clone(),
            adjudication: opts.adjudication,
            record_san: opts.pgn,
            tt_megabytes: opts.tt_megabytes,
        }
    });
    let mut progress = Progress::new("balance", total, done.len() as u64);
    crate::run::run_jobs(jobs, opts.threads, &mut out, &mut progress, |row| {
        crate::add_white(&mut wdl, &row.result);
        (wdl, false)
    })?;
    output::write_summary(&opts.out, &out.tallies)?;
    Ok(RunReport { tallies: out.tallies, played, games_per_second: progress.games_per_second() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_config_error_names_its_line() {
        let path = std::env::temp_dir().join(format!("hoplite-balance-{}.toml", std::process::id()));
        std::fs::write(&path, "variant = \"chess\"\n[[configs]]\nname = \"a\"\nname = \"b\"\n").unwrap();
        let e = super::load(&path).err().unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(e.starts_with(&format!("{}:4:", path.display())), "{e}");
    }
}
