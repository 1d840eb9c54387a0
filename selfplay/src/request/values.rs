//! `hoplite values`' request: piece values by play-testing, a balance run of material
//! imbalances, or (`until`) rounds of them until the values are as narrow as asked, played
//! here, each round's balance file built in memory.

use super::balance::{play, Players};
use super::{BudgetLists, Event, RunRequest};
use crate::defaults;
use crate::error::RunError;
use crate::plans::balance;
use crate::plans::values::{
    balance_file, default_imbalances, fit_notes, next_round, parse_targets, targets_met, values, FitNote,
};
use crate::player::EngineFiles;
use hoplite_core::Variant;
use hoplite_formats::{csvfile, SummaryRow, ValueRow, SUMMARY, VALUES};
use hoplite_search::eval::linear::{Term, Weights};
use std::path::{Path, PathBuf};

/// (letter, pawns) of the variant's Texel-tuned material (data/piece-values/), shown beside,
/// for the built-in variants (none for a variant file whose pieces do not fit the weights of
/// the built-in it is named after).
fn texel(variant: &Variant) -> Vec<(char, f64)> {
    let Some(builtin) = hoplite_core::builtin(&variant.name) else { return vec![] };
    let Ok(w) = Weights::from_toml(variant, builtin.name, builtin.values) else { return vec![] };
    variant.typed_pieces().map(|(t, p)| (p.letter, w.get(Term::Material, t) as f64 / 100.0)).collect()
}

#[derive(Clone, Debug, Default)]
pub struct ValuesRequest {
    /// A values file (a balance file whose configurations carry `imbalance`); none: every
    /// piece of the variant.
    pub file: Option<PathBuf>,
    pub variant: Option<String>,
    /// The imbalances instead of the defaults.
    pub imbalances: Vec<String>,
    pub players: Vec<String>,
    pub budget: BudgetLists,
    /// Rounds until each named piece's 95% interval is this narrow (`n:0.5,b:0.5`).
    pub until: Option<String>,
    /// Games an imbalance is given in a later round.
    pub batch: Option<u64>,
    /// Imbalances a later round plays.
    pub picks: Option<usize>,
    /// Games in all after which the rounds stop.
    pub max_games: Option<u64>,
    pub run: RunRequest,
}

/// The values: the table (as values.csv, written), the fits' notes and the directory.
pub struct ValuesOutcome {
    pub table: Vec<ValueRow>,
    pub notes: Vec<FitNote>,
    pub out: PathBuf,
}

fn usage(e: String) -> RunError {
    RunError::Usage(e)
}

/// Writes `text` to `path` (its folder made): the balance file a run played, to edit and run
/// again.
fn write_file(path: &Path, text: &str) -> Result<(), RunError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    }
    std::fs::write(path, text).map_err(|e| usage(format!("{}: {e}", path.display())))
}

impl ValuesRequest {
    /// Who plays: the players named, hoplite with its own evaluation.
    fn players(&self) -> Players<'_> {
        const NO_FILES: &EngineFiles = &EngineFiles { weights: None, params: None, network: None, eval: None };
        Players { names: &self.players, files: NO_FILES }
    }

    pub fn run(&self, events: impl FnMut(Event)) -> Result<ValuesOutcome, RunError> {
        if self.until.is_some() {
            return self.rounds(events);
        }
        let variant_arg = self.variant.as_deref().unwrap_or(defaults::VARIANT);
        let (b, run) = match &self.file {
            Some(file) => {
                let stem = file.file_stem().map_or("run".into(), |s| s.to_string_lossy().to_string());
                let out = self.run.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/values-{stem}")));
                (balance::load(file)?, RunRequest { out: Some(out), ..self.run.clone() })
            }
            None => {
                let variant = Variant::load(variant_arg)?;
                let imbalances = self.imbalances(&variant)?;
                let out = self.out(&variant);
                if out.join(SUMMARY).exists() && !self.run.resume {
                    return Err(usage(format!("{} holds a run already: --resume it, or another --out", out.display())));
                }
                let nodes =
                    if self.budget.nodes.is_empty() { vec![defaults::NODES] } else { self.budget.nodes.clone() };
                let games = self.run.games.unwrap_or(defaults::VALUES_GAMES);
                let text =
                    balance_file(variant_arg, &imbalances, games, &nodes, self.run.seed.unwrap_or(defaults::SEED));
                let path = out.join("values.toml");
                write_file(&path, &text)?;
                (balance::from_text(&path, text, false)?, RunRequest { out: Some(out), ..self.run.clone() })
            }
        };
        let done = play(b, self.players(), &self.budget, &run, "", events)?;
        let rows: Vec<SummaryRow> = csvfile::read(&done.out.join(SUMMARY))?;
        let b = &done.balance;
        let table = values(b, &rows, &texel(&b.base)).map_err(usage)?;
        finish(table, fit_notes(b, &rows).map_err(usage)?, done.out)
    }

    fn imbalances(&self, variant: &Variant) -> Result<Vec<String>, RunError> {
        match self.imbalances.as_slice() {
            [] => default_imbalances(variant).map_err(usage),
            given => Ok(given.to_vec()),
        }
    }

    fn out(&self, variant: &Variant) -> PathBuf {
        self.run.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/values-{}", variant.name)))
    }

    /// Rounds until the targets are met: round 1 plays the imbalances (the defaults or the
    /// given ones) in DIR/round-1, each later round the imbalances `next_round` picks, with its
    /// own seed; the values come from every round's games together (DIR/values.toml lists the
    /// imbalances).
    fn rounds(&self, mut events: impl FnMut(Event)) -> Result<ValuesOutcome, RunError> {
        let variant_arg = self.variant.as_deref().unwrap_or(defaults::VARIANT);
        let variant = Variant::load(variant_arg)?;
        if self.file.is_some() {
            return Err(usage(
                "--until plays rounds of its own imbalances: give --variant (and --imbalances), not a file".into(),
            ));
        }
        let targets = parse_targets(&variant, self.until.as_deref().unwrap_or_default()).map_err(usage)?;
        let budget = self.budget.budget().map_err(|_| usage("--until values one budget: give one --nodes".into()))?;
        let nodes = vec![budget.nodes.unwrap_or(defaults::NODES)];
        if self.players.len() > 1 {
            return Err(usage("--until values the pieces by one player".into()));
        }
        let out = self.out(&variant);
        let seed = self.run.seed.unwrap_or(defaults::SEED);
        let (batch, max_games) =
            (self.batch.unwrap_or(defaults::VALUES_BATCH), self.max_games.unwrap_or(defaults::VALUES_MAX_GAMES));
        let mut picks = self.imbalances(&variant)?;
        let mut games = self.run.games.unwrap_or(defaults::VALUES_GAMES);
        // Every imbalance played so far, and each round's rows.
        let mut played: Vec<String> = Vec::new();
        let mut rows: Vec<SummaryRow> = Vec::new();
        for round in 1.. {
            let dir = out.join(format!("round-{round}"));
            let text = balance_file(variant_arg, &picks, games, &nodes, seed + round - 1);
            let path = dir.join("values.toml");
            write_file(&path, &text)?;
            let run = RunRequest { out: Some(dir.clone()), games: None, seed: None, ..self.run.clone() };
            let b = balance::from_text(&path, text, false)?;
            let done = play(b, self.players(), &self.budget, &run, "", &mut events)?;
            rows.extend(csvfile::read::<SummaryRow>(&done.out.join(SUMMARY))?);
            for p in &picks {
                if !played.contains(p) {
                    played.push(p.clone());
                }
            }
            let (path, text) = (out.join("values.toml"), balance_file(variant_arg, &played, games, &nodes, seed));
            write_file(&path, &text)?;
            let b = balance::from_text(&path, text, false)?;
            let summed = summed(&rows);
            let total: u64 = summed.iter().map(|r| r.games).sum();
            let table = values(&b, &summed, &texel(&b.base)).map_err(usage)?;
            let widths = widths(&table, &targets);
            events(Event::Round { round, games: total, widths });
            if targets_met(&b, &summed, &targets).map_err(usage)? || total >= max_games {
                return finish(table, fit_notes(&b, &summed).map_err(usage)?, out);
            }
            picks = next_round(&b, &summed, &targets, batch, self.picks.unwrap_or(defaults::VALUES_PICKS))
                .map_err(usage)?;
            games = batch.div_ceil(2);
            events(Event::Picks { round: round + 1, picks: &picks });
        }
        unreachable!("the rounds end by returning")
    }
}

/// Each target's (letter, half-width now, half-width wanted), where the table has it.
fn widths(table: &[ValueRow], targets: &[crate::plans::values::Target]) -> Vec<(char, f64, f64)> {
    targets
        .iter()
        .filter_map(|t| {
            let r = table.iter().find(|r| r.letter == t.letter.to_string())?;
            Some((t.letter, (r.ci95_high.0 - r.ci95_low.0) / 2.0, t.half))
        })
        .collect()
}

/// Writes values.csv.
fn finish(table: Vec<ValueRow>, notes: Vec<FitNote>, out: PathBuf) -> Result<ValuesOutcome, RunError> {
    csvfile::write(&out.join(VALUES), &table)?;
    Ok(ValuesOutcome { table, notes, out })
}

/// Rows of the same configuration, player and budget from several rounds, added up.
fn summed(rows: &[SummaryRow]) -> Vec<SummaryRow> {
    let mut out: Vec<SummaryRow> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|o| o.base == r.base && o.player == r.player && o.budget == r.budget) {
            Some(o) => {
                o.white_wins += r.white_wins;
                o.draws += r.draws;
                o.black_wins += r.black_wins;
                o.games += r.games;
            }
            None => out.push(SummaryRow {
                config: r.config.clone(),
                base: r.base.clone(),
                player: r.player.clone(),
                budget: r.budget.clone(),
                white_wins: r.white_wins,
                draws: r.draws,
                black_wins: r.black_wins,
                games: r.games,
                ..Default::default()
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_built_in_has_texel_values() {
        for v in hoplite_core::builtin_names() {
            let t = super::texel(&hoplite_core::Variant::builtin(v));
            assert_eq!(t.iter().find(|(l, _)| *l == 'p').map(|x| x.1), Some(1.0), "{v}: the pawn is 1.00");
        }
    }

    /// A variant file named after a built-in whose pieces do not fit that built-in's weights
    /// gets no Texel column, not a panic.
    #[test]
    fn a_variant_under_a_built_ins_name_without_its_pieces_has_no_texel_values() {
        let v = hoplite_core::Variant::from_toml("test", "extends = \"great-shatranj\"\nname = \"chess\"\n").unwrap();
        assert_eq!(v.name, "chess");
        assert!(super::texel(&v).is_empty());
    }
}
