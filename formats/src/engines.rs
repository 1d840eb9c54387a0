//! engines.toml: outside engines by name, with what hoplite must tell them.
//!
//! ```toml
//! [fairymax]
//! protocol = "xboard"
//! command = "fairymax"
//! variant_file_option = "Ini File"
//! variants = { chess = "normal" }
//! variant_files = { great-shatranj = "engines/fairymax-great-shatranj.ini" }
//! ```

use crate::error::FormatError;
use hoplite_core::toml_text::toml_at;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How hoplite talks to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Uci,
    Xboard,
}

/// How an engine writes castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CastlingNotation {
    /// The king's own move (`e1g1`), as UCI and hoplite write it.
    #[default]
    KingMove,
    /// The king takes its own rook (`e1h1`), as UCI_Chess960 writes it.
    KingTakesRook,
}

/// One outside engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub protocol: Protocol,
    /// The program: a name on PATH, or a path (relative paths start from engines.toml's folder).
    pub command: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Options set when the engine starts (`setoption` for UCI, `option` for xboard).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// The engine's names for hoplite's variants, where neither hoplite's name nor the variant
    /// file's `uci_variant` / `xboard_variant` is the engine's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variants: BTreeMap<String, String>,
    /// A file the engine must load to play a variant (a Fairy-Stockfish variants.ini, a
    /// Fairy-Max ini), by hoplite's variant name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variant_files: BTreeMap<String, String>,
    /// The option that loads such a file: `VariantPath` (UCI, the default) or `Ini File`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file_option: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub castling: CastlingNotation,
    /// Seconds to wait for a move under a node or depth budget (default 60).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "seconds")]
    pub timeout: Option<f64>,
    /// Seconds to wait for each step of starting the engine and of setting up a game
    /// (`uciok`, `readyok`, xboard's features and `pong`; default 30).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "seconds")]
    pub handshake: Option<f64>,
}

impl EngineConfig {
    /// How long a step of starting the engine or setting up a game may take.
    pub fn handshake(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64(self.handshake.unwrap_or(30.0))
    }
}

/// The longest wait a `timeout` may ask for: a day.
pub const TIMEOUT_MAX: f64 = 86_400.0;

/// A `timeout`: seconds from a millisecond to `TIMEOUT_MAX`.
fn seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let s = f64::deserialize(d)?;
    if !(s.is_finite() && (0.001..=TIMEOUT_MAX).contains(&s)) {
        return Err(serde::de::Error::custom(format!(
            "timeout: {s} is not a number of seconds from 0.001 to {TIMEOUT_MAX}"
        )));
    }
    Ok(Some(s))
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

impl EngineConfig {
    /// The same engine with its relative paths (command, variant files) made absolute from `dir`.
    pub fn resolved(mut self, dir: &Path) -> EngineConfig {
        let abs = |p: &str| -> String {
            let path = Path::new(p);
            if path.is_absolute() {
                p.to_string()
            } else {
                dir.join(path).display().to_string()
            }
        };
        if self.command.contains('/') {
            self.command = abs(&self.command);
        }
        for f in self.variant_files.values_mut() {
            *f = abs(f);
        }
        self
    }
}

/// The engines of an engines.toml, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Engines {
    pub engines: BTreeMap<String, EngineConfig>,
}

impl Engines {
    /// Reads engines.toml; relative paths in it start from its folder.
    pub fn read(path: &Path) -> Result<Engines, FormatError> {
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, "read", e))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        Engines::from_toml(&path.display().to_string(), &text, &dir)
    }

    /// Parses engines.toml text; relative paths start from `dir`.
    pub fn from_toml(label: &str, text: &str, dir: &Path) -> Result<Engines, FormatError> {
        let engines: BTreeMap<String, EngineConfig> = toml::from_str(text)
            .map_err(|e| FormatError::Toml { at: toml_at(label, text, &e), message: e.message().to_string() })?;
        for reserved in ["hoplite", "random"] {
            if engines.contains_key(reserved) {
                let message = format!("[{reserved}] is a built-in player's name; call the engine otherwise");
                return Err(FormatError::Toml { at: label.to_string(), message });
            }
        }
        Ok(Engines { engines: engines.into_iter().map(|(n, e)| (n, e.resolved(dir))).collect() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_out_of_range_is_refused_with_its_line() {
        for bad in ["-1", "0", "1e12", "nan"] {
            let text = format!("[fsf]\nprotocol = \"uci\"\ncommand = \"fsf\"\ntimeout = {bad}\n");
            let e = Engines::from_toml("engines.toml", &text, Path::new(".")).unwrap_err().to_string();
            assert!(e.starts_with("engines.toml:4: ") && e.contains("timeout"), "{bad}: {e}");
        }
        let text = "[fsf]\nprotocol = \"uci\"\ncommand = \"fsf\"\ntimeout = 2.5\n";
        assert_eq!(Engines::from_toml("e", text, Path::new(".")).unwrap().engines["fsf"].timeout, Some(2.5));
    }

    #[test]
    fn engines_read_with_paths_from_their_folder() {
        let text = "[fm]\nprotocol = \"xboard\"\ncommand = \"fairymax\"\nvariant_files = { great = \"ini/g.ini\" }\n\
                    [mine]\nprotocol = \"uci\"\ncommand = \"./bin/engine\"\noptions = { Hash = \"8\" }\n";
        let e = Engines::from_toml("engines.toml", text, Path::new("/opt/e")).unwrap();
        assert_eq!(e.engines["fm"].command, "fairymax", "a name on PATH stays a name");
        assert_eq!(e.engines["fm"].variant_files["great"], "/opt/e/ini/g.ini");
        assert_eq!(e.engines["mine"].command, "/opt/e/./bin/engine");
        assert_eq!(e.engines["mine"].options["Hash"], "8");
        let bad = Engines::from_toml("engines.toml", "[x]\nprotocol = \"cecp\"\ncommand = \"x\"\n", Path::new("."));
        assert!(bad.unwrap_err().to_string().starts_with("engines.toml:2"));
        let reserved = Engines::from_toml("e.toml", "[hoplite]\nprotocol = \"uci\"\ncommand = \"x\"\n", Path::new("."));
        assert!(reserved.unwrap_err().to_string().contains("built-in player's name"));
    }
}
