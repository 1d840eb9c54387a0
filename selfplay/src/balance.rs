//! `hoplite balance CONFIG.toml`: one base variant and named overrides (a piece's Betza, a
//! rule option, the setup), every configuration played with the same seeds and openings.

use crate::error::RunError;
use crate::openings::{game_seed, Openings, SharedCache};
use crate::run::{count_white, Job, Plan, Progress, Run, RunReport};
use crate::{PlayerSpec, RunOptions};
use hoplite_core::spec::toml_at;
use hoplite_core::Variant;
use hoplite_formats::manifest::RunKind;
use serde::Deserialize;
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
pub fn load(path: &Path) -> Result<Balance, RunError> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| RunError::Config { at: label.clone(), message: format!("cannot read balance config: {e}") })?;
    let file: BalanceFile = toml::from_str(&text)
        .map_err(|e| RunError::Config { at: toml_at(&label, &text, &e), message: e.message().to_string() })?;
    if file.configs.is_empty() {
        return Err(RunError::Config { at: label, message: "no [[configs]]".into() });
    }
    let base = if hoplite_core::variant::builtin_names().contains(&file.variant.as_str()) {
        file.variant.clone()
    } else {
        path.parent().unwrap_or(Path::new(".")).join(&file.variant).display().to_string()
    };
    let mut configs = Vec::new();
    for c in &file.configs {
        let bad = |message: String| RunError::Config { at: format!("{label}: config '{}'", c.name), message };
        if configs.iter().any(|(n, _)| n == &c.name) {
            return Err(bad("named twice".into()));
        }
        let overlay = toml::to_string(&c.overrides).map_err(|e| bad(e.to_string()))?;
        let src = format!("extends = {base:?}\n{overlay}");
        let v = Variant::from_toml(&format!("{label} [configs '{}']", c.name), &src)?;
        configs.push((c.name.clone(), v));
    }
    Ok(Balance { file, text, configs })
}

struct Configurations<'a> {
    balance: &'a Balance,
    openings: Openings,
    games: u64,
    seed: u64,
}

impl Plan for Configurations<'_> {
    fn games(&self) -> u64 {
        self.balance.configs.len() as u64 * self.games
    }

    /// Game `c * games + i` of configuration `c` uses the seed and opening of index `i`. The
    /// opening is drawn in the first configuration; where it is not legal under another's
    /// rules, that configuration draws its own from the same seed.
    fn job(&self, id: u64, cache: &mut SharedCache) -> Job {
        let (c, i) = ((id / self.games) as usize, id % self.games);
        let seed = game_seed(self.seed, i);
        let (name, variant) = &self.balance.configs[c];
        Job {
            game_id: id,
            config: name.as_str().into(),
            variant: variant.clone(),
            seed,
            opening: self.openings.shared(&self.balance.configs[0].1, i, seed, cache),
            white: 0,
            black: 0,
        }
    }
}

/// Runs every configuration with the same player on both sides.
pub fn run(
    b: &Balance,
    player: &PlayerSpec,
    opts: &RunOptions,
    progress: impl FnMut(&Progress),
) -> Result<RunReport, RunError> {
    let first = &b.configs[0].1;
    for (_, v) in &b.configs {
        player.check(v)?;
    }
    let mut manifest = opts.manifest(RunKind::Balance, &[player]);
    manifest.config = Some(b.text.clone());
    let run = Run {
        settings: opts.settings(),
        manifest,
        players: vec![player.clone()],
        configs: b.configs.iter().map(|(n, _)| n.clone()).collect(),
        variant_name: first.name.clone(),
    };
    let openings = Openings::new(first, opts.book.as_deref(), opts.seed, opts.random_plies)?;
    let plan = Configurations { balance: b, openings, games: opts.games, seed: opts.seed };
    run.execute(&plan, count_white(), progress)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_config_error_names_its_line() {
        let path = std::env::temp_dir().join(format!("hoplite-balance-{}.toml", std::process::id()));
        std::fs::write(&path, "variant = \"chess\"\n[[configs]]\nname = \"a\"\nname = \"b\"\n").unwrap();
        let e = super::load(&path).err().unwrap().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(e.starts_with(&format!("{}:4:", path.display())), "{e}");
    }
}
