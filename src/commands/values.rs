//! `hoplite values`: piece values by play-testing, a balance run of material imbalances.

use super::balance::shown;
use super::run_args::{BudgetArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_formats::VALUES;
use hoplite_selfplay::request::values::ValuesRequest;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ValuesArgs {
    /// A values file: a balance file whose configurations carry `imbalance` (as the one this
    /// command writes to its output directory). Default: every piece of --variant.
    file: Option<PathBuf>,
    /// Built-in variant name or variant file (.toml), when no file is given [default: spartan].
    #[arg(long)]
    variant: Option<String>,
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
    /// Games (both colours) an imbalance is given in a later round [default: 100].
    #[arg(long)]
    batch: Option<u64>,
    /// Imbalances a later round plays [default: 4].
    #[arg(long)]
    picks: Option<usize>,
    /// Stop the rounds after this many games in all, targets met or not [default: 20000].
    #[arg(long)]
    max_games: Option<u64>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(a: ValuesArgs) -> CmdResult {
    let request = ValuesRequest {
        file: a.file,
        variant: a.variant,
        imbalances: a.imbalances,
        players: a.player,
        budget: a.budget.lists(),
        until: a.until,
        batch: a.batch,
        picks: a.picks,
        max_games: a.max_games,
        run: a.run.request(),
    };
    let done = request.run(shown("values"))?;
    // The table, how far the model misses the scores (χ² per degree of freedom; above 1 the
    // intervals were widened by its root) and the imbalances left out.
    outln!("\n{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", "piece", "letter", "budget", "pawns (95% CI)", "texel", "games");
    for r in &done.table {
        let texel = r.texel.map_or("".into(), |t| t.to_string());
        let value = format!("{} [{}, {}]", r.pawns, r.ci95_low, r.ci95_high);
        outln!("{:<14} {:<6} {:<18} {:>22} {:>7} {:>7}", r.name, r.letter, r.budget, value, texel, r.games);
    }
    for n in &done.notes {
        let d = n.chi2_per_dof;
        let widened = if d > 1.0 { format!("; intervals widened ×{:.2}", d.sqrt()) } else { String::new() };
        let decided = match (n.decided.as_slice(), n.left_out) {
            ([], _) => String::new(),
            (list, true) => format!("; decided, left out: {}", list.join(" ")),
            (list, false) => format!("; decided, kept (the rest do not determine every value): {}", list.join(" ")),
        };
        outln!("{} at {}: the fit's χ²/dof {d:.2}{widened}{decided}", n.player, n.budget);
    }
    eprintln!("values in {}", done.out.join(VALUES).display());
    Ok(ExitCode::SUCCESS)
}
