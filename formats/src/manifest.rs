//! run.toml: what a run was asked to do, so that a resume with other arguments is refused,
//! shards of one run are recognised, and the report can print the command that repeats it.
//! Files written by hoplite 0.1 (flat keys, no `format`) are read and converted.

use crate::engines::EngineConfig;
use crate::error::FormatError;
use hoplite_core::toml_text::toml_at;
use hoplite_search::Budget;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The layout written now.
pub const FORMAT: u32 = 3;

/// Which command made the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    Selfplay,
    Match,
    Balance,
    /// Self-play that keeps training positions for a network (positions.bin).
    Datagen,
}

impl RunKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RunKind::Selfplay => "selfplay",
            RunKind::Match => "match",
            RunKind::Balance => "balance",
            RunKind::Datagen => "datagen",
        }
    }
}

/// The order a run takes its book's positions in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    /// As the file lists them (game `i` starts from position `i`, cycling).
    Sequential,
    /// Shuffled by the run's seed.
    #[default]
    Shuffled,
}

impl BookOrder {
    fn is_shuffled(&self) -> bool {
        *self == BookOrder::Shuffled
    }
}

/// What chooses a side's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// hoplite's own engine.
    #[default]
    Hoplite,
    /// Uniformly random legal moves (a baseline).
    Random,
    /// An outside engine, over UCI or xboard.
    Engine,
}

/// One player as the run used it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRecord {
    /// Its name in games.csv.
    pub name: String,
    pub kind: PlayerKind,
    /// What it may spend on a move (none for a random mover).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// hoplite's evaluation weights file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
    /// hoplite's search parameters file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<String>,
    /// hoplite's network file, and a hash of its bytes (so that a resume with another
    /// network under the same name is refused); a network shipped for the variant, which it
    /// plays by default, is recorded as `data/networks/NAME.nnue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_hash: Option<String>,
    /// An outside engine's name in engines.toml, and all it says of the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineConfig>,
}

/// Openings played by a searching player among its near-best moves (docs/balance.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedRecord {
    /// Plies played from each start position.
    pub plies: u32,
    /// A move may be chosen within this many centipawns of the best.
    pub margin: i32,
    /// The moves ranked at each ply (multi-PV).
    pub lines: usize,
    /// Who plays them, at what budget.
    pub player: PlayerRecord,
}

/// run.toml.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub format: u32,
    pub command: RunKind,
    /// The variant (built-in name or file) of a selfplay or match run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// A balance run's configuration file, whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    pub games: u64,
    pub seed: u64,
    /// Random plies after each start position (0 when they are played).
    pub random_plies: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// The order the book's positions are taken in.
    #[serde(default, skip_serializing_if = "BookOrder::is_shuffled")]
    pub book_order: BookOrder,
    /// Each game's back-rank pieces shuffled, the same for both sides.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shuffle: bool,
    pub max_plies: u32,
    /// (centipawns, moves)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<(i32, u32)>,
    /// (centipawns, moves, from ply)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<(i32, u32, u32)>,
    pub pgn: bool,
    pub timing: bool,
    /// Whether games.csv keeps the players' evaluations.
    #[serde(default)]
    pub evals: bool,
    pub tt_mb: usize,
    /// `K/N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// `elo0,elo1,alpha,beta`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// The engines.toml given on the command line (players record all they took from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<String>,
    /// A strength ladder: every configuration is played at each of these budgets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ladder: Vec<Budget>,
    /// Balance configurations that are another's with the armies' colours swapped:
    /// (original, swapped) names, for the report's first-move and army advantages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub army_swaps: Vec<(String, String)>,
    /// Balance configurations that are the chess control (their White score is known).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<String>,
    /// Plies played after each start position by a searching player (files before format 3
    /// have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<PlayedRecord>,
    /// One player (selfplay, balance) or two (match: A, then B).
    pub players: Vec<PlayerRecord>,
}

/// run.toml as hoplite 0.1 wrote it (unknown keys are refused by `upgrade`).
#[derive(Deserialize)]
struct V1 {
    command: RunKind,
    variant: Option<String>,
    config: Option<String>,
    names: Option<(String, String)>,
    sprt: Option<String>,
    games: u64,
    seed: u64,
    random_plies: u32,
    book: Option<String>,
    max_plies: u32,
    resign: Option<(i32, u32)>,
    draw: Option<(i32, u32, u32)>,
    pgn: bool,
    timing: bool,
    tt_mb: usize,
    shard: Option<String>,
    #[serde(flatten)]
    engines: std::collections::BTreeMap<String, toml::Value>,
}

impl V1 {
    /// The engine whose keys start with `prefix` (`a_`, `b_`, or none).
    fn player(&self, prefix: &str, name: &str) -> Result<PlayerRecord, String> {
        let get = |k: &str| self.engines.get(&format!("{prefix}{k}"));
        let int = |k: &str| get(k).and_then(|v| v.as_integer()).map(|v| v as u64);
        if get("random").and_then(|v| v.as_bool()) == Some(true) {
            return Ok(PlayerRecord { name: name.into(), kind: PlayerKind::Random, ..PlayerRecord::default() });
        }
        let budget = Budget {
            nodes: int("nodes"),
            depth: int("depth").map(|d| d as u32),
            movetime: int("movetime_ms").map(std::time::Duration::from_millis),
            clock: None,
        };
        Ok(PlayerRecord {
            name: name.into(),
            kind: PlayerKind::Hoplite,
            // 0.1 searched 1,000 nodes when no limit was given.
            budget: Some(budget.or(Budget::nodes(1000))),
            weights: get("weights").and_then(|v| v.as_str()).map(String::from),
            ..PlayerRecord::default()
        })
    }

    fn upgrade(self) -> Result<Manifest, String> {
        let known = ["nodes", "depth", "movetime_ms", "weights", "random"];
        for key in self.engines.keys() {
            let bare = key.strip_prefix("a_").or_else(|| key.strip_prefix("b_")).unwrap_or(key);
            if !known.contains(&bare) {
                return Err(format!("unknown field `{key}`"));
            }
        }
        let players = match (&self.command, &self.names) {
            (RunKind::Match, Some((a, b))) => vec![self.player("a_", a)?, self.player("b_", b)?],
            (RunKind::Match, None) => return Err("a match without `names`".into()),
            _ => vec![self.player("", "hoplite")?],
        };
        Ok(Manifest {
            format: FORMAT,
            command: self.command,
            variant: self.variant,
            config: self.config,
            games: self.games,
            seed: self.seed,
            random_plies: self.random_plies,
            played: None,
            book: self.book,
            book_order: BookOrder::Shuffled,
            shuffle: false,
            max_plies: self.max_plies,
            resign: self.resign,
            draw: self.draw,
            pgn: self.pgn,
            timing: self.timing,
            evals: false,
            tt_mb: self.tt_mb,
            shard: self.shard,
            sprt: self.sprt.filter(|s| !s.is_empty()),
            engines: None,
            ladder: Vec::new(),
            army_swaps: Vec::new(),
            controls: Vec::new(),
            players,
        })
    }
}

impl Manifest {
    /// Reads run.toml, of either layout.
    pub fn read(path: &Path) -> Result<Manifest, FormatError> {
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, "read", e))?;
        Manifest::from_toml(&path.display().to_string(), &text)
    }

    pub fn from_toml(label: &str, text: &str) -> Result<Manifest, FormatError> {
        let toml_err =
            |e: toml::de::Error| FormatError::Toml { at: toml_at(label, text, &e), message: e.message().into() };
        let table: toml::Table = toml::from_str(text).map_err(toml_err)?;
        if table.contains_key("format") {
            return toml::from_str(text).map_err(toml_err);
        }
        let v1: V1 = toml::from_str(text).map_err(toml_err)?;
        v1.upgrade().map_err(|message| FormatError::Toml { at: label.into(), message })
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a manifest is plain TOML")
    }

    pub fn write(&self, path: &Path) -> Result<(), FormatError> {
        std::fs::write(path, self.to_toml()).map_err(|e| FormatError::io(path, "write", e))
    }

    /// The same run without its shard: what the shards of one run share.
    pub fn unsharded(&self) -> Manifest {
        Manifest { shard: None, ..self.clone() }
    }

    /// The command that repeats the run (a balance run's file as `CONFIG.toml`).
    pub fn command_line(&self, out: &Path) -> String {
        let mut s = format!("hoplite {}", self.command.as_str());
        let mut flag = |name: &str, value: String| s.push_str(&format!(" --{name} {}", quote(&value)));
        if let Some(v) = &self.variant {
            flag("variant", v.clone());
        }
        // A side's budget, or the run's ladder of budgets.
        let budgets = |p: &PlayerRecord| match self.ladder.as_slice() {
            [] => p.budget.into_iter().collect(),
            ladder => ladder.to_vec(),
        };
        match (self.command, self.players.as_slice()) {
            (RunKind::Match, [a, b]) => {
                for (side, p) in [("a", a), ("b", b)] {
                    player_flags(&mut flag, &format!("{side}-"), p, &budgets(p));
                    flag(&format!("{side}-name"), p.name.clone());
                }
            }
            (_, [p]) => player_flags(&mut flag, "", p, &budgets(p)),
            (_, [p, ..]) => {
                let names: Vec<String> =
                    self.players.iter().map(|p| p.engine_name.clone().unwrap_or(p.name.clone())).collect();
                flag("player", names.join(","));
                budget_flags(&mut flag, "", &budgets(p));
            }
            _ => {}
        }
        flag("games", self.games.to_string());
        flag("seed", self.seed.to_string());
        if let Some(b) = &self.book {
            flag("book", b.clone());
            if self.book_order == BookOrder::Sequential {
                flag("book-order", "sequential".into());
            }
        }
        match &self.played {
            Some(p) => {
                flag("opening", "played".into());
                flag("opening-plies", p.plies.to_string());
                flag("opening-margin", p.margin.to_string());
                flag("opening-lines", p.lines.to_string());
                if let (PlayerKind::Engine, Some(e)) = (p.player.kind, &p.player.engine_name) {
                    flag("opening-player", e.clone());
                }
                let budget = p.player.budget.unwrap_or_default();
                if let Some(n) = budget.nodes {
                    flag("opening-nodes", n.to_string());
                }
                if let Some(d) = budget.depth {
                    flag("opening-depth", d.to_string());
                }
            }
            None if self.book.is_some() && self.random_plies == 0 => {}
            None => {
                flag("opening", "random".into());
                flag("random-plies", self.random_plies.to_string());
            }
        }
        flag("max-plies", self.max_plies.to_string());
        if let Some((cp, n)) = self.resign {
            flag("resign", format!("{cp}:{n}"));
        }
        if let Some((cp, n, ply)) = self.draw {
            flag("draw", format!("{cp}:{n}:{ply}"));
        }
        if let Some(t) = &self.sprt {
            flag("sprt", t.clone());
        }
        flag("tt-mb", self.tt_mb.to_string());
        if let Some(e) = &self.engines {
            flag("engines", e.clone());
        }
        if let Some(k) = &self.shard {
            flag("shard", k.clone());
        }
        flag("out", out.display().to_string());
        if self.command == RunKind::Balance {
            s = s.replacen("hoplite balance", "hoplite balance CONFIG.toml", 1);
        }
        for (on, name) in [(self.shuffle, "shuffle"), (self.pgn, "pgn"), (self.timing, "timing"), (self.evals, "evals")]
        {
            if on {
                s.push_str(&format!(" --{name}"));
            }
        }
        s
    }
}

/// A side's flags: who plays, its budgets and weights (`prefix` `a-`, `b-` or none).
fn player_flags(flag: &mut impl FnMut(&str, String), prefix: &str, p: &PlayerRecord, budgets: &[Budget]) {
    let who = match prefix {
        "" => "player",
        side => side.trim_end_matches('-'),
    };
    match (p.kind, &p.engine_name) {
        (PlayerKind::Random, _) => flag(who, "random".into()),
        (PlayerKind::Engine, Some(e)) => flag(who, e.clone()),
        _ => {}
    }
    budget_flags(flag, prefix, budgets);
    if let Some(w) = &p.weights {
        flag(&format!("{prefix}weights"), w.clone());
    }
    if let Some(w) = &p.params {
        flag(&format!("{prefix}params"), w.clone());
    }
    if let Some(n) = &p.network {
        flag(&format!("{prefix}network"), n.clone());
    }
}

/// The flags of a budget, or of a ladder of budgets as comma lists.
fn budget_flags(flag: &mut impl FnMut(&str, String), prefix: &str, budgets: &[Budget]) {
    fn list<T>(budgets: &[Budget], f: impl Fn(&Budget) -> Option<T>, show: impl Fn(T) -> String) -> Option<String> {
        let v: Vec<String> = budgets.iter().filter_map(|b| f(b).map(&show)).collect();
        (!v.is_empty()).then(|| v.join(","))
    }
    let lists = [
        ("nodes", list(budgets, |b| b.nodes, |n| n.to_string())),
        ("depth", list(budgets, |b| b.depth, |d| d.to_string())),
        ("movetime", list(budgets, |b| b.movetime, |t| t.as_millis().to_string())),
        ("tc", list(budgets, |b| b.clock, |c| c.to_string())),
    ];
    for (name, value) in lists {
        if let Some(v) = value {
            flag(&format!("{prefix}{name}"), v);
        }
    }
}

/// A shell word: quoted when it holds anything but plain characters.
fn quote(s: &str) -> String {
    let plain = !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:,+=@".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(run: &str) -> Manifest {
        let path = format!("{}/../tests/fixtures/runs-0.1/{run}/run.toml", env!("CARGO_MANIFEST_DIR"));
        Manifest::read(Path::new(&path)).unwrap()
    }

    #[test]
    fn version_1_manifests_are_read() {
        let m = fixture("match");
        assert_eq!((m.command, m.variant.as_deref(), m.games, m.max_plies), (RunKind::Match, Some("shatranj"), 4, 40));
        assert_eq!(m.resign, Some((600, 3)));
        assert_eq!(m.sprt.as_deref(), Some("0,10,0.05,0.05"));
        let names: Vec<(&str, Option<Budget>)> = m.players.iter().map(|p| (p.name.as_str(), p.budget)).collect();
        assert_eq!(names, [("A", Some(Budget::nodes(300))), ("B", Some(Budget::nodes(200)))]);
        let b = fixture("balance");
        assert!(b.config.as_deref().unwrap().contains("name = \"RN, 2009\""));
        assert_eq!(b.players[0].budget, Some(Budget::nodes(200)));
        let s = fixture("selfplay");
        assert!(s.pgn);
        // What reads back from the new layout is the same run.
        for m in [m, b, s] {
            assert_eq!(Manifest::from_toml("run.toml", &m.to_toml()).unwrap(), m);
        }
    }

    #[test]
    fn the_command_line_repeats_the_run() {
        let m = fixture("match");
        assert_eq!(
            m.command_line(Path::new("runs/m")),
            "hoplite match --variant shatranj --a-nodes 300 --a-name A --b-nodes 200 --b-name B --games 4 --seed 1 \
             --opening random --random-plies 8 --max-plies 40 --resign 600:3 --sprt 0,10,0.05,0.05 --tt-mb 1 --out runs/m"
        );
        let mut s = fixture("selfplay");
        s.players[0].weights = Some("my weights.toml".into());
        s.book = Some("book.epd".into());
        assert_eq!(
            s.command_line(Path::new("out")),
            "hoplite selfplay --variant chess --nodes 200 --weights 'my weights.toml' --games 4 --seed 3 \
             --book book.epd --opening random --random-plies 8 --max-plies 40 --tt-mb 1 --out out --pgn"
        );
        s.book = None;
        s.shuffle = true;
        assert!(s
            .command_line(Path::new("out"))
            .ends_with("--opening random --random-plies 8 --max-plies 40 --tt-mb 1 --out out --shuffle --pgn"));
        assert_eq!(Manifest::from_toml("run.toml", &s.to_toml()).unwrap(), s);
    }

    #[test]
    fn bad_manifests_name_file_and_line() {
        let text = fixture("selfplay").to_toml().replace("games = 4", "games = \"ten\"");
        let line = text.lines().position(|l| l.starts_with("games")).unwrap() + 1;
        let e = Manifest::from_toml("run.toml", &text).unwrap_err();
        assert!(e.to_string().starts_with(&format!("run.toml:{line}: invalid type")), "{e}");
        let path = format!("{}/../tests/fixtures/runs-0.1/selfplay/run.toml", env!("CARGO_MANIFEST_DIR"));
        let old = std::fs::read_to_string(path).unwrap() + "colour = 1\n";
        let e = Manifest::from_toml("run.toml", &old).unwrap_err();
        assert_eq!(e.to_string(), "run.toml: unknown field `colour`");
    }
}
