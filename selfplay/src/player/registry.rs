//! Players by name: `hoplite` (the built-in engine), `random`, or an outside engine from
//! engines.toml: the file given, else ./engines.toml, else the one built into the library
//! (configs/engines.toml, its ini files written to a temporary folder).

use crate::defaults;
use crate::error::RunError;
use crate::player::{EngineFiles, PlayerSpec};
use hoplite_formats::engines::Engines;
use hoplite_search::Budget;
use std::path::Path;

const BUILT_IN: &str = include_str!("../../../configs/engines.toml");
/// The files the built-in engines.toml names, relative to its folder.
const BUILT_IN_FILES: &[(&str, &str)] =
    &[("engines/fairymax-great-shatranj.ini", include_str!("../../../configs/engines/fairymax-great-shatranj.ini"))];

pub struct Registry {
    engines: Engines,
}

impl Registry {
    pub fn load(file: Option<&Path>) -> Result<Registry, RunError> {
        let local = Path::new("engines.toml");
        let engines = match file {
            Some(f) => Engines::read(f)?,
            None if local.exists() => Engines::read(local)?,
            None => {
                let dir = std::env::temp_dir().join(format!("hoplite-engines-{}", env!("CARGO_PKG_VERSION")));
                for (name, text) in BUILT_IN_FILES {
                    let path = dir.join(name);
                    let io = |e: std::io::Error| RunError::Usage(e.to_string());
                    std::fs::create_dir_all(path.parent().expect("a file in a folder")).map_err(io)?;
                    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
                        std::fs::write(&path, text).map_err(io)?;
                    }
                }
                Engines::from_toml("configs/engines.toml (built in)", BUILT_IN, &dir)?
            }
        };
        Ok(Registry { engines })
    }

    /// The player `name`, shown as `display`, at `budget` (the default nodes where it is
    /// empty); hoplite's engine gets `files` and `hash_mb`.
    pub fn player(
        &self,
        name: &str,
        display: &str,
        budget: Budget,
        files: EngineFiles,
        hash_mb: usize,
    ) -> Result<PlayerSpec, RunError> {
        let budget = budget.or(Budget::nodes(defaults::NODES));
        let display = display.to_string();
        if files != EngineFiles::default() && name != "hoplite" {
            return Err(RunError::Usage(format!(
                "weights, parameters and network files are for hoplite's engine, not '{name}'"
            )));
        }
        Ok(match name {
            "hoplite" => PlayerSpec::Hoplite { name: display, budget, files, hash_mb },
            "random" => PlayerSpec::Random { name: display },
            _ => match self.engines.engines.get(name) {
                Some(config) => {
                    PlayerSpec::Engine { name: display, engine: name.into(), config: config.clone(), budget }
                }
                None => {
                    let known: Vec<&str> = self.engines.engines.keys().map(String::as_str).collect();
                    return Err(RunError::Usage(format!(
                        "no player '{name}': hoplite, random, or an engine of engines.toml ({})",
                        known.join(", ")
                    )));
                }
            },
        })
    }
}
