//! `hoplite balance CONFIG.toml`: one base variant and named overrides (a piece's Betza, a
//! rule option, the setup), every configuration played with the same seeds and openings.

use crate::defaults::within;
use crate::error::RunError;
use crate::openings::played;
use crate::openings::{Opening, Openings, SharedCache};
use crate::plans::imbalance::Imbalance;
use crate::run::output::ConfigInfo;
use crate::run::{count_white, Plan, Progress, Run, RunReport, Seat};
use crate::{PlayerSpec, RunOptions};
use hoplite_core::seed::game_seed;
use hoplite_core::toml_text::toml_at;
use hoplite_core::{Position, Variant};
use hoplite_formats::manifest::RunKind;
use hoplite_search::Budget;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceFile {
    /// Built-in name or variant file (relative to the config file).
    pub variant: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Nodes per move, or a ladder of them (`[1000, 4000, 16000]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<OneOrMore<u64>>,
    /// Depth per move, or a ladder of depths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<OneOrMore<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_plies: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<u32>,
    /// An opening book (relative to the config file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<String>,
    /// Shuffle each game's back-rank pieces, the same for both sides and every configuration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<bool>,
    /// Who plays every configuration against itself: `hoplite`, `random` or engines of
    /// engines.toml (default: hoplite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
    /// How games open (`[opening]`: method, plies, margin, player, nodes, depth, lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<crate::openings::played::OpeningSettings>,
    pub configs: Vec<ConfigEntry>,
}

/// A value or a list of them.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum OneOrMore<T> {
    One(T),
    More(Vec<T>),
}

impl<T: Copy> OneOrMore<T> {
    pub fn to_vec(&self) -> Vec<T> {
        match self {
            OneOrMore::One(v) => vec![*v],
            OneOrMore::More(v) => v.clone(),
        }
    }
}

#[derive(Default, Deserialize, Serialize)]
pub struct ConfigEntry {
    pub name: String,
    /// Another variant than the file's for this configuration (built-in name or file, relative
    /// to the config file): the chess control beside a variant's configurations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// This configuration is the control: orthodox chess, unchanged, whose White score is known
    /// (`CONTROL_SCORE`); the report marks the verdicts of every budget where it reads otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub control: bool,
    /// The armies exchange colours (the setup's colour mirror, the same side to move), so
    /// that the army that moved second moves first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swap_armies: bool,
    /// Pieces removed from the setup, `WHITE:BLACK` (`b:n`, `pp:`, or `q` from the side that
    /// has it; docs/values.md states which instance goes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imbalance: Option<String>,
    /// Anything a variant file may say, laid over the base variant.
    #[serde(flatten)]
    pub overrides: toml::Table,
}

/// The variant of the control (`hoplite_stats::control::CONTROL_SCORE`: White's known score).
pub const CONTROL_VARIANT: &str = "chess";

/// The control configuration `--control` adds to a balance run.
pub fn control_entry() -> ConfigEntry {
    ConfigEntry {
        name: "chess (control)".into(),
        variant: Some(CONTROL_VARIANT.into()),
        control: true,
        ..Default::default()
    }
}

/// A configuration: its name, its rules, and whether its armies are swapped (book positions
/// are then swapped too).
pub struct Config {
    pub name: String,
    pub variant: Arc<Variant>,
    pub swapped: bool,
    pub control: bool,
    /// The pieces removed from the base setup (before any swap).
    pub imbalance: Option<Imbalance>,
}

pub struct Balance {
    pub file: BalanceFile,
    pub text: String,
    /// The directory of the config file, which its paths are relative to.
    pub dir: PathBuf,
    /// The variant the file names, before any configuration's overrides.
    pub base: Arc<Variant>,
    pub configs: Vec<Config>,
}

/// Reads a balance config and builds each configuration's variant.
pub fn load(path: &Path) -> Result<Balance, RunError> {
    load_with(path, false)
}

/// `load`, with the chess control appended (`--control`) unless the file has a control.
pub fn load_with(path: &Path, control: bool) -> Result<Balance, RunError> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| RunError::Config { at: label.clone(), message: format!("cannot read balance config: {e}") })?;
    from_text(path, text, control)
}

/// The file's numbers in the ranges of the flags they stand for, the error at the key's line.
fn check_numbers(label: &str, text: &str, file: &BalanceFile) -> Result<(), RunError> {
    let err = |key: &str, message: String| {
        let line = text
            .lines()
            .position(|l| l.trim_start().strip_prefix(key).is_some_and(|r| r.trim_start().starts_with('=')));
        RunError::Config { at: line.map_or(label.to_string(), |n| format!("{label}:{}", n + 1)), message }
    };
    if let Some(g) = file.games {
        within("games =", "games", g).map_err(|m| err("games", m))?;
    }
    if let Some(p) = file.random_plies {
        within("random_plies =", "random_plies", u64::from(p)).map_err(|m| err("random_plies", m))?;
    }
    if file.max_plies == Some(0) {
        return Err(err("max_plies", "max_plies = 0 is below 1".into()));
    }
    for n in file.nodes.iter().flat_map(OneOrMore::to_vec) {
        Budget::nodes(n).check().map_err(|m| err("nodes", m))?;
    }
    for d in file.depth.iter().flat_map(OneOrMore::to_vec) {
        Budget::depth(d).check().map_err(|m| err("depth", m))?;
    }
    Ok(())
}

/// A balance config's `text` as if read from `path` (its paths relative to that folder).
pub fn from_text(path: &Path, mut text: String, control: bool) -> Result<Balance, RunError> {
    let label = path.display().to_string();
    let mut file: BalanceFile = toml::from_str(&text)
        .map_err(|e| RunError::Config { at: toml_at(&label, &text, &e), message: e.message().to_string() })?;
    if control && !file.configs.iter().any(|c| c.control) {
        // Appended to the text too: run.toml records the configurations played.
        let entry = toml::to_string(&BalanceFile { configs: vec![control_entry()], ..Default::default() })
            .expect("a configuration is TOML");
        text = format!("{text}\n# --control\n{}", entry.trim_start_matches("variant = \"\"\n"));
        file.configs.push(control_entry());
    }
    if file.configs.is_empty() {
        return Err(RunError::Config { at: label, message: "no [[configs]]".into() });
    }
    check_numbers(&label, &text, &file)?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let named = |v: &str| match hoplite_core::is_builtin(v) {
        true => v.to_string(),
        false => dir.join(v).display().to_string(),
    };
    let base_variant = Variant::from_toml(&label, &format!("extends = {:?}\n", named(&file.variant)))?;
    let mut configs: Vec<Config> = Vec::new();
    for c in &file.configs {
        let bad = |message: String| RunError::Config { at: format!("{label}: config '{}'", c.name), message };
        if configs.iter().any(|k| k.name == c.name) {
            return Err(bad("named twice".into()));
        }
        let base = named(c.variant.as_ref().unwrap_or(&file.variant));
        let unchanged = c.overrides.is_empty() && c.imbalance.is_none() && !c.swap_armies;
        if c.control && !(base == CONTROL_VARIANT && unchanged) {
            return Err(bad(format!(
                "the control plays {CONTROL_VARIANT} unchanged: variant = \"{CONTROL_VARIANT}\" and nothing else"
            )));
        }
        let build = |overrides: &toml::Table| -> Result<Arc<Variant>, RunError> {
            let overlay = toml::to_string(overrides).map_err(|e| bad(e.to_string()))?;
            let src = format!("extends = {base:?}\n{overlay}");
            Ok(Variant::from_toml(&format!("{label} [configs '{}']", c.name), &src)?)
        };
        let mut variant = build(&c.overrides)?;
        let mut overrides = c.overrides.clone();
        let imbalance = c.imbalance.as_deref().map(|spec| Imbalance::parse(&variant, spec)).transpose();
        let imbalance = imbalance.map_err(|e| bad(format!("imbalance: {e}")))?;
        if let Some(i) = &imbalance {
            let setup = i.setup(&variant).map_err(|e| bad(format!("imbalance: {e}")))?;
            overrides.insert("setup".into(), toml::Value::String(setup));
            variant = build(&overrides)?;
        }
        if c.swap_armies {
            // Opening moves need no change: Black's are White's mirrored, as the armies are.
            let swapped = variant.swap_armies(&variant.setup)?;
            overrides.insert("setup".into(), toml::Value::String(swapped));
            variant = build(&overrides)?;
        }
        configs.push(Config { name: c.name.clone(), variant, swapped: c.swap_armies, control: c.control, imbalance });
    }
    Ok(Balance { file, text, dir, base: base_variant, configs })
}

impl Balance {
    /// The book the file names, relative to it.
    pub fn book(&self) -> Option<PathBuf> {
        self.file.book.as_ref().map(|b| self.dir.join(b))
    }

    /// The start of book position `fen` in configuration `c`.
    fn start_in(&self, c: &Config, fen: &str) -> Result<String, hoplite_core::FenError> {
        let fen = if c.swapped { self.configs[0].variant.swap_armies(fen)? } else { fen.to_string() };
        Ok(Position::from_fen(&c.variant, &fen)?.to_fen())
    }

    /// Pairs of configurations that differ only by `swap_armies`: (original, swapped).
    pub fn swaps(&self) -> Vec<(usize, usize)> {
        let entries = &self.file.configs;
        let mut out = Vec::new();
        for (s, e) in entries.iter().enumerate().filter(|(_, e)| e.swap_armies) {
            if let Some(o) =
                entries.iter().position(|o| !o.swap_armies && o.overrides == e.overrides && o.imbalance == e.imbalance)
            {
                out.push((o, s));
            }
        }
        out
    }
}

struct Configurations<'a> {
    balance: &'a Balance,
    openings: Openings,
    /// Book starts per configuration, in file order (none without a book: each
    /// configuration starts from its own setup).
    starts: Vec<Vec<Arc<str>>>,
    labels: Vec<Arc<str>>,
    players: usize,
    rungs: usize,
    games: u64,
    seed: u64,
}

impl Configurations<'_> {
    /// The start position of index `i` in configuration `c`.
    fn start(&self, c: usize, i: u64) -> Arc<str> {
        match self.starts.get(c) {
            Some(starts) => starts[self.openings.book_index(i)].clone(),
            None => self.openings.start(&self.balance.configs[c].variant, i),
        }
    }
}

impl Plan for Configurations<'_> {
    fn games(&self) -> u64 {
        (self.balance.configs.len() * self.players * self.rungs) as u64 * self.games
    }

    /// Game `((c * players + p) * rungs + r) * games + i` is configuration `c` played by
    /// player `p` at rung `r`, with the seed and opening of index `i`. The opening is drawn in
    /// the first configuration; where its moves are not legal under another's rules, that
    /// configuration draws its own from the same seed.
    fn prepare(&mut self, threads: usize, progress: played::Progress) -> Result<(), RunError> {
        let variants: Vec<(Arc<Variant>, Vec<Arc<str>>)> = (0..self.balance.configs.len())
            .map(|c| (self.balance.configs[c].variant.clone(), (0..self.games).map(|i| self.start(c, i)).collect()))
            .collect();
        self.openings.prepare(&variants, self.seed, threads, progress)
    }

    fn seat(&self, id: u64) -> Seat {
        let row = (id / self.games) as usize;
        let player = row % (self.players * self.rungs);
        let c = row / (self.players * self.rungs);
        Seat {
            game_id: id,
            config: self.labels[row].clone(),
            variant: self.balance.configs[c].variant.clone(),
            seed: game_seed(self.seed, id % self.games),
            white: player,
            black: player,
        }
    }

    fn opening(&self, seat: &Seat, cache: &mut SharedCache) -> Opening {
        let i = seat.game_id % self.games;
        let c = (seat.game_id / self.games) as usize / (self.players * self.rungs);
        let mut opening = self.openings.shared(&self.balance.configs[0].variant, i, seat.seed, cache);
        opening.start_fen = self.start(c, i);
        if let Some(own) = self.openings.own_line(c, i) {
            opening.own = own;
        }
        opening
    }
}
/// Runs every configuration with each player on both sides, at each rung of the ladder.
pub fn run(
    b: &Balance,
    players: &[PlayerSpec],
    opts: &RunOptions,
    progress: impl FnMut(&Progress),
) -> Result<RunReport, RunError> {
    for (k, p) in players.iter().enumerate() {
        if players[..k].iter().any(|q| q.name() == p.name()) {
            return Err(RunError::Usage(format!("player '{}' is named twice", p.name())));
        }
        for c in &b.configs {
            p.check(&c.variant)?;
        }
    }
    let first = &b.configs[0].variant;
    let variants: Vec<&Variant> = b.configs.iter().map(|c| &*c.variant).collect();
    let mut manifest = opts.manifest(RunKind::Balance, &players.iter().collect::<Vec<_>>(), &variants);
    manifest.config = Some(b.text.clone());
    manifest.army_swaps =
        b.swaps().iter().map(|&(o, s)| (b.configs[o].name.clone(), b.configs[s].name.clone())).collect();
    manifest.controls = b.configs.iter().filter(|c| c.control).map(|c| c.name.clone()).collect();
    let seats: Vec<(PlayerSpec, String)> = players.iter().flat_map(|p| opts.rungs(p)).collect();
    let rungs = seats.len() / players.len().max(1);
    let several = [b.configs.len() > 1, players.len() > 1, rungs > 1];
    let infos: Vec<ConfigInfo> = b
        .configs
        .iter()
        .flat_map(|c| seats.iter().map(|(p, budget)| ConfigInfo::new(&c.name, p.name(), budget, several)))
        .collect();
    let openings = Openings::new(first, opts)?;
    let mut starts = Vec::new();
    if let Some(path) = opts.book.as_ref().filter(|_| !openings.book().is_empty()) {
        let book = openings.book();
        // A position whose side to move is in check has no swap: its colour mirror with the
        // same side to move leaves the other side in check. A swapped configuration plays the
        // next position of the book that has one.
        let checked: Vec<bool> =
            book.iter().map(|e| Position::from_fen(first, &e.fen).is_ok_and(|p| p.in_check())).collect();
        for c in &b.configs {
            let mut list = Vec::new();
            for k in 0..book.len() {
                let j = (k..k + book.len()).map(|j| j % book.len()).find(|&j| !c.swapped || !checked[j]).ok_or_else(
                    || RunError::Book {
                        path: path.display().to_string(),
                        line: book[k].line,
                        message: format!("in configuration '{}': no position has a swap", c.name),
                    },
                )?;
                let e = &book[j];
                let start = b.start_in(c, &e.fen).map_err(|err| RunError::Book {
                    path: path.display().to_string(),
                    line: e.line,
                    message: format!("in configuration '{}': {err}", c.name),
                })?;
                list.push(start.into());
            }
            starts.push(list);
        }
    }
    let run = Run {
        settings: opts.settings(),
        manifest,
        players: seats.iter().map(|(p, _)| p.clone()).collect(),
        configs: infos.clone(),
        packing: None,
    };
    let mut plan = Configurations {
        balance: b,
        openings,
        starts,
        labels: infos.iter().map(|i| i.label.as_str().into()).collect(),
        players: players.len(),
        rungs,
        games: opts.games,
        seed: opts.seed,
    };
    run.execute(&mut plan, count_white(), progress)
}

#[cfg(test)]
mod tests {
    use hoplite_core::{perft, Position};

    fn load_text(name: &str, text: &str) -> super::Balance {
        let path = std::env::temp_dir().join(format!("hoplite-balance-{name}-{}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let b = super::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_file(&path);
        b
    }

    /// Positions of `variant` reached by a fixed walk from its setup (castling rights,
    /// promotions near, both kings of Spartan chess moved), and the setup itself.
    fn walk(start: &Position, plies: usize) -> Vec<Position> {
        let mut out = vec![start.clone()];
        let mut p = start.clone();
        let mut moves = Vec::new();
        for i in 0..plies {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make(moves[(i * 7 + 3) % moves.len()]);
            out.push(p.clone());
        }
        out
    }

    /// The swapped armies are the colour mirror of the original: the original with the other
    /// side to move has the swapped position's perft, move for move, at every depth.
    #[test]
    fn swapped_armies_are_the_colour_mirror_in_perft() {
        for variant in ["spartan", "chess", "great-shatranj"] {
            let b = load_text(
                variant,
                &format!("variant = \"{variant}\"\n[[configs]]\nname = \"a\"\n[[configs]]\nname = \"b\"\nswap_armies = true\n"),
            );
            assert_eq!(b.swaps(), [(0, 1)]);
            let (orig, swapped) = (&b.configs[0], &b.configs[1]);
            assert!(swapped.swapped && !orig.swapped);
            for p in walk(&Position::startpos(&orig.variant), 12) {
                let fen = p.to_fen();
                let mirrored = Position::from_fen(&swapped.variant, &b.start_in(swapped, &fen).unwrap()).unwrap();
                assert_eq!(mirrored.side_to_move(), p.side_to_move(), "{fen}: the same side moves");
                // The original with the other side to move (and no en passant target).
                let fields: Vec<&str> = fen.split(' ').collect();
                let other = if fields[1] == "w" { "b" } else { "w" };
                let flipped = format!("{} {other} {} - {} {}", fields[0], fields[2], fields[4], fields[5]);
                let Ok(mut flipped) = Position::from_fen(&orig.variant, &flipped) else {
                    continue; // the side not to move would be in check
                };
                let mut mirrored = mirrored.clone();
                for depth in 1..=3 {
                    assert_eq!(
                        perft(&mut flipped, depth),
                        perft(&mut mirrored, depth),
                        "{variant} {fen} depth {depth}"
                    );
                }
            }
        }
    }

    /// Rumi Shatranj's opening moves are the armies' own (Black's mirror White's), so its
    /// armies swap as any: the same setup, and the same opening leaps from it.
    #[test]
    fn armies_with_opening_moves_swap() {
        let b = load_text(
            "rumi",
            "variant = \"rumi-shatranj\"\n[[configs]]\nname = \"a\"\n[[configs]]\nname = \"b\"\nswap_armies = true\n",
        );
        let (a, s) = (&b.configs[0].variant, &b.configs[1].variant);
        assert_eq!(a.setup, s.setup);
        let (mut p, mut q) = (Position::startpos(a), Position::startpos(s));
        for depth in 1..=3 {
            assert_eq!(perft(&mut p, depth), perft(&mut q, depth));
        }
    }

    #[test]
    fn a_config_error_names_its_line() {
        let path = std::env::temp_dir().join(format!("hoplite-balance-{}.toml", std::process::id()));
        std::fs::write(&path, "variant = \"chess\"\n[[configs]]\nname = \"a\"\nname = \"b\"\n").unwrap();
        let e = super::load(&path).err().unwrap().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(e.starts_with(&format!("{}:4:", path.display())), "{e}");
    }
}
