//! `hoplite values`: piece values by play-testing, a balance run of material imbalances.

use super::selfplay::{balance_run, BalanceArgs, BudgetArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_core::Variant;
use hoplite_formats::{csvfile, SummaryRow, SUMMARY, VALUES};
use hoplite_search::eval::{Weights, MATERIAL};
use hoplite_selfplay::values::{balance_file, default_imbalances, values};
use std::path::PathBuf;
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
    variant.pieces.iter().enumerate().map(|(t, p)| (p.letter, w.get(MATERIAL, t) as f64 / 100.0)).collect()
}

#[derive(Args)]
pub struct ValuesArgs {
    /// A values file: a balance file whose configurations carry `imbalance` (as the one this
    /// command writes to its output directory). Default: every piece of --variant.
    file: Option<PathBuf>,
    /// Built-in variant name or variant file (.toml), when no file is given.
    #[arg(long, default_value = "chess")]
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
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(mut a: ValuesArgs) -> CmdResult {
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
            std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            let path = out.join("values.toml");
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            a.run.out = Some(out);
            path
        }
    };
    let (b, out) = balance_run(
        BalanceArgs { config: file, player: a.player, budget: a.budget, control: false, run: a.run },
        "values",
    )?;
    let rows: Vec<SummaryRow> = csvfile::read(&out.join(SUMMARY))?;
    let table = values(&b, &rows, &texel(&b.base))?;
    csvfile::write(&out.join(VALUES), &table)?;
    outln!("\n{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", "piece", "letter", "budget", "pawns (95% CI)", "texel", "games");
    for r in &table {
        let texel = r.texel.map_or("".into(), |t| t.to_string());
        let value = format!("{} [{}, {}]", r.pawns, r.ci95_low, r.ci95_high);
        outln!("{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", r.name, r.letter, r.budget, value, texel, r.games);
    }
    eprintln!("values in {}", out.join(VALUES).display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_built_in_has_texel_values() {
        for v in hoplite_core::variant::builtin_names() {
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
