//! `hoplite tune`.

use super::{load_variant, CmdResult};
use clap::{Args, ValueEnum};
use hoplite_tuner::tune::{values_table, write};
use hoplite_tuner::{tune, Fit, Start, TuneOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum FitArg {
    /// Piece values (and the White-balance term).
    Material,
    /// Every weight: material, the positional tables (centre, advance, mobility, passed, each
    /// with its endgame table) and the White-balance term.
    All,
}

#[derive(Args)]
pub struct TuneArgs {
    /// Built-in variant name or variant file (.toml).
    #[arg(long)]
    variant: String,
    /// positions.csv files from self-play runs.
    #[arg(long, num_args = 1.., required = true)]
    positions: Vec<PathBuf>,
    /// The weights file to write (the engine's format); STEM-loss.csv and STEM-values.csv go beside it.
    #[arg(long)]
    out: PathBuf,
    /// Which weights to fit.
    #[arg(long, value_enum, default_value = "material")]
    fit: FitArg,
    /// Start from these weights instead of the variant's derived defaults (which a tuned
    /// built-in's data/weights/ file replaces in play: give it here to refine it).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Start with every piece worth a pawn.
    #[arg(long, conflicts_with = "start")]
    equal_start: bool,
    /// Ridge penalty per squared centipawn holding the positional weights (all tables but
    /// material) near their start values; 0 fits them freely. With --fit all only.
    #[arg(long, default_value_t = hoplite_tuner::tune::DEFAULT_RIDGE)]
    ridge: f64,
    /// Most epochs.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = 15)]
    patience: usize,
    /// Reject the input at the first malformed row (default: skip it and report it).
    #[arg(long)]
    strict: bool,
    /// Read at most this many rows.
    #[arg(long)]
    max_positions: Option<u64>,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn bar(len: Option<u64>, template: &str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = len.map_or_else(ProgressBar::new_spinner, ProgressBar::new);
        b.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        b
    })
}

pub fn run(a: TuneArgs) -> CmdResult {
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().map_err(|e| format!("--threads: {e}"))?;
    }
    let variant = load_variant(&a.variant)?;
    // Fail now, not after the fit, if the output cannot be written.
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create directory: {e}", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&a.out)
        .map_err(|e| format!("{}: cannot write: {e}", a.out.display()))?;
    let opts = TuneOptions {
        fit: match a.fit {
            FitArg::Material => Fit::Material,
            FitArg::All => Fit::All,
        },
        start: match (&a.start, a.equal_start) {
            (Some(p), _) => Start::File(p.clone()),
            (None, true) => Start::Equal,
            (None, false) => Start::Defaults,
        },
        max_epochs: a.epochs,
        patience: a.patience,
        ridge: a.ridge,
        strict: a.strict,
        max_positions: a.max_positions,
        ..Default::default()
    };
    let loading = bar(None, "{spinner} reading positions: {pos} rows, {per_sec}");
    let epochs = bar(Some(a.epochs as u64), "epoch {pos}/{len} [{bar:30}] {msg}");
    let mut last_line = std::time::Instant::now();
    let r = tune(
        &variant,
        &a.positions,
        &opts,
        |rows| {
            if let Some(b) = &loading {
                b.set_position(rows);
            }
        },
        |e, train, valid| {
            if let Some(b) = &epochs {
                b.set_position(e as u64);
                b.set_message(format!("train {train:.6}  validation {valid:.6}"));
            } else if last_line.elapsed().as_secs() >= 5 || e == 1 {
                last_line = std::time::Instant::now();
                eprintln!("epoch {e}: train {train:.6}, validation {valid:.6}");
            }
        },
    )?;
    if let Some(b) = &loading {
        b.finish_and_clear();
    }
    if let Some(b) = &epochs {
        b.finish_and_clear();
    }
    for s in r.loaded.skipped.iter().take(10) {
        eprintln!("skipped {s}");
    }
    if r.loaded.skipped.len() > 10 {
        eprintln!("... and {} more malformed rows skipped", r.loaded.skipped.len() - 10);
    }
    let (train, valid) = (r.loaded.train.len(), r.loaded.valid.len());
    let per_epoch = r.epochs.iter().map(|e| e.3).sum::<f64>() / r.epochs.len().max(1) as f64;
    let (loss_path, values_path) = write(&variant, &r, &a.out)?;
    let last = r.epochs.last().copied().unwrap_or((0, 0.0, 0.0, 0.0));
    outln!(
        "{} positions read in {:.1} s ({} training, {} validation, {} skipped); {:.1} bytes per position",
        r.loaded.rows,
        r.load_secs,
        train,
        valid,
        r.loaded.skipped.len(),
        (r.loaded.train.bytes() + r.loaded.valid.bytes()) as f64 / (train + valid).max(1) as f64
    );
    outln!(
        "K = {:.4}; {} epochs, {:.3} s each ({:.2} M positions/s); loss: train {:.6}, validation {:.6}",
        r.k,
        r.epochs.len(),
        per_epoch,
        train as f64 / per_epoch.max(1e-9) / 1e6,
        last.1,
        last.2
    );
    out!("{}", values_table(&variant, &r));
    eprintln!("wrote {}, {} and {}", a.out.display(), loss_path.display(), values_path.display());
    let dir = a.out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    eprintln!("a report with plots: hoplite report {}", dir.display());
    Ok(ExitCode::SUCCESS)
}
