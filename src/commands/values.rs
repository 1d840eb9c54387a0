//! `hoplite values`: piece values by play-testing, a balance run of material imbalances.

use super::selfplay::{balance_run, BalanceArgs, BudgetArgs, RunArgs};
use super::{CmdResult, DEFAULT_VARIANT};
use clap::Args;
use hoplite_core::Variant;
use hoplite_formats::{csvfile, SummaryRow, ValueRow, SUMMARY, VALUES};
use hoplite_search::eval::linear::{Term, Weights};
use hoplite_selfplay::plans::balance;
use hoplite_selfplay::plans::values::{
    balance_file, default_imbalances, fit_notes, next_round, parse_targets, targets_met, values, FitNote,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The Texel-tuned material of the built-in variants (data/piece-values/), shown beside.
const TEXEL: &[(&str, &str)] = &[
    ("chess", include_str!("../../data/piece-values/chess.toml")),
    ("shatranj", include_str!("../../data/piece-values/shatranj.toml")),
    ("sultan", include_str!("../../data/piece-values/sultan.toml")),
    ("spartan", include_str!("../../data/piece-values/spartan.toml")),
    ("rumi-shatranj", include_str!("../../data/piece-values/rumi-shatranj.toml")),
    ("great-shatranj", include_str!("../../data/piece-values/great-shatranj.toml")),
    ("great-shatranj-r", include_str!("../../data/piece-values/great-shatranj-r.toml")),
];

/// (letter, pawns) of the variant's Texel-tuned material, for the built-in variants (none for
/// a variant file whose pieces do not fit the weights of the built-in it is named after).
fn texel(variant: &Variant) -> Vec<(char, f64)> {
    let Some((name, text)) = TEXEL.iter().find(|(v, _)| *v == variant.name) else { return vec![] };
    let Ok(w) = Weights::from_toml(variant, name, text) else { return vec![] };
    variant.typed_pieces().map(|(t, p)| (p.letter, w.get(Term::Material, t) as f64 / 100.0)).collect()
}

#[derive(Args)]
pub struct ValuesArgs {
    /// A values file: a balance file whose configurations carry `imbalance` (as the one this
    /// command writes to its output directory). Default: every piece of --variant.
    file: Option<PathBuf>,
    /// Built-in variant name or variant file (.toml), when no file is given.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// The imbalances instead of the defaults: letters removed, WHITE:BLACK (`p:,pp:,n:,b:n`).
    #[arg(long, value_delimiter = ',')]
    imbalances: Vec<String>,
    /// Who plays (default hoplite); a comma list values the pieces by each.
    #[arg(long, value_delimiter = ',')]
    player: Vec<String>,
    /// The budget per move, or a ladder: a value at each rung (default 1,000 nodes).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Play on in rounds until each named piece's 95% interval is this narrow (`n:0.5,b:0.5`,
    /// half-widths in pawns): each round gives its games to the imbalances, played or new
    /// near-equal exchanges, that narrow the widest interval most (docs/values.md).
    #[arg(long)]
    until: Option<String>,
    /// Games (both colours) an imbalance is given in a later round.
    #[arg(long, default_value_t = 100)]
    batch: u64,
    /// Imbalances a later round plays.
    #[arg(long, default_value_t = 4)]
    picks: usize,
    /// Stop the rounds after this many games in all, targets met or not.
    #[arg(long, default_value_t = 20_000)]
    max_games: u64,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(mut a: ValuesArgs) -> CmdResult {
    if a.until.is_some() {
        return rounds(a);
    }
    let file = match a.file.take() {
        Some(f) => f,
        None => {
            let variant = super::load_variant(&a.variant)?;
            let imbalances = match a.imbalances.as_slice() {
                [] => default_imbalances(&variant)?,
                given => given.to_vec(),
            };
            let out = a.run.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/values-{}", variant.name)));
            if out.join(SUMMARY).exists() && !a.run.resume {
                return Err(format!("{} holds a run already: --resume it, or another --out", out.display()).into());
            }
            let nodes = if a.budget.nodes.is_empty() { vec![1000] } else { a.budget.nodes.clone() };
            let text =
                balance_file(&a.variant, &imbalances, a.run.games.unwrap_or(200), &nodes, a.run.seed.unwrap_or(1));
            a.run.out = Some(out.clone());
            write_file(&out.join("values.toml"), &text)?
        }
    };
    let (b, out) = balance_run(
        BalanceArgs { config: file, player: a.player, budget: a.budget, control: false, run: a.run },
        "values",
    )?;
    let rows: Vec<SummaryRow> = csvfile::read(&out.join(SUMMARY))?;
    let table = values(&b, &rows, &texel(&b.base))?;
    finish(&out, &table, &fit_notes(&b, &rows)?)
}

/// Writes `text` to `path` (its folder made), and returns the path.
fn write_file(path: &Path, text: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.to_path_buf())
}

/// Writes values.csv and prints the table, how far the model misses the scores (χ² per degree
/// of freedom; above 1 the intervals were widened by its root) and the imbalances left out.
fn finish(out: &Path, table: &[ValueRow], notes: &[FitNote]) -> CmdResult {
    csvfile::write(&out.join(VALUES), table)?;
    outln!("\n{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", "piece", "letter", "budget", "pawns (95% CI)", "texel", "games");
    for r in table {
        let texel = r.texel.map_or("".into(), |t| t.to_string());
        let value = format!("{} [{}, {}]", r.pawns, r.ci95_low, r.ci95_high);
        outln!("{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", r.name, r.letter, r.budget, value, texel, r.games);
    }
    for n in notes {
        let d = n.chi2_per_dof;
        let widened = if d > 1.0 { format!("; intervals widened ×{:.2}", d.sqrt()) } else { String::new() };
        let decided = match (n.decided.as_slice(), n.left_out) {
            ([], _) => String::new(),
            (list, true) => format!("; decided, left out: {}", list.join(" ")),
            (list, false) => format!("; decided, kept (the rest do not determine every value): {}", list.join(" ")),
        };
        outln!("{} at {}: the fit's χ²/dof {d:.2}{widened}{decided}", n.player, n.budget);
    }
    eprintln!("values in {}", out.join(VALUES).display());
    Ok(ExitCode::SUCCESS)
}

/// Rounds until the targets are met: round 1 plays the imbalances (the defaults or the given
/// ones) in DIR/round-1, each later round the imbalances `next_round` picks, with its own seed;
/// the values come from every round's games together (DIR/values.toml lists the imbalances).
fn rounds(a: ValuesArgs) -> CmdResult {
    let variant = super::load_variant(&a.variant)?;
    if a.file.is_some() {
        return Err("--until plays rounds of its own imbalances: give --variant (and --imbalances), not a file".into());
    }
    let targets = parse_targets(&variant, a.until.as_deref().unwrap_or_default())?;
    let budgets = a.budget.budget().map_err(|_| "--until values one budget: give one --nodes")?;
    let nodes = vec![budgets.nodes.unwrap_or(1000)];
    if a.player.len() > 1 {
        return Err("--until values the pieces by one player".into());
    }
    let out = a.run.out.clone().unwrap_or_else(|| PathBuf::from(format!("runs/values-{}", variant.name)));
    let seed = a.run.seed.unwrap_or(1);
    let mut picks = match a.imbalances.as_slice() {
        [] => default_imbalances(&variant)?,
        given => given.to_vec(),
    };
    let mut games = a.run.games.unwrap_or(200);
    // Every imbalance played so far, and each round's rows.
    let mut played: Vec<String> = Vec::new();
    let mut rows: Vec<SummaryRow> = Vec::new();
    for round in 1.. {
        let dir = out.join(format!("round-{round}"));
        let text = balance_file(&a.variant, &picks, games, &nodes, seed + round - 1);
        let file = write_file(&dir.join("values.toml"), &text)?;
        let mut run = a.run.clone();
        (run.out, run.games, run.seed) = (Some(dir.clone()), None, None);
        let args =
            BalanceArgs { config: file, player: a.player.clone(), budget: a.budget.clone(), control: false, run };
        let (_, dir) = balance_run(args, "values")?;
        rows.extend(csvfile::read::<SummaryRow>(&dir.join(SUMMARY))?);
        for p in &picks {
            if !played.contains(p) {
                played.push(p.clone());
            }
        }
        let all = write_file(&out.join("values.toml"), &balance_file(&a.variant, &played, games, &nodes, seed))?;
        let b = balance::load(&all)?;
        let summed = summed(&rows);
        let total: u64 = summed.iter().map(|r| r.games).sum();
        let table = values(&b, &summed, &texel(&b.base))?;
        let widths: Vec<String> = targets
            .iter()
            .filter_map(|t| {
                let r = table.iter().find(|r| r.letter == t.letter.to_string())?;
                Some(format!("{} ±{:.2} (≤ {})", t.letter, (r.ci95_high.0 - r.ci95_low.0) / 2.0, t.half))
            })
            .collect();
        eprintln!("round {round}: {total} games in all; {}", widths.join(", "));
        if targets_met(&b, &summed, &targets)? || total >= a.max_games {
            return finish(&out, &table, &fit_notes(&b, &summed)?);
        }
        picks = next_round(&b, &summed, &targets, a.batch, a.picks)?;
        games = a.batch.div_ceil(2);
        eprintln!("round {}: {}", round + 1, picks.join(", "));
    }
    unreachable!("the rounds end by returning")
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
