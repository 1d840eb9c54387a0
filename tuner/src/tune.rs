//! `hoplite tune`: load, fit K, fit the weights, estimate their errors, write the files.

use crate::data::{load, Loaded};
use crate::error::TuneError;
use crate::fit::{fit_k, loss, standard_errors, Adam};
use hoplite_core::{PieceType, Variant};
use hoplite_formats::tune::{companions, LossRow, WeightRow};
use hoplite_formats::{csvfile, Decimal, FormatError};
use hoplite_search::eval::linear::{Slot, Term, SIDE};
use hoplite_search::Weights;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Which weights move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    Material,
    All,
}

/// Where the weights start.
#[derive(Clone, Debug)]
pub enum Start {
    /// The variant's defaults.
    Defaults,
    /// Every non-royal piece worth a pawn (to show the values come from the data).
    Equal,
    /// A weights file.
    File(PathBuf),
}

/// The ridge of `--fit all`. Chosen by play, not by loss: fitted freely (ridge 0) the positional
/// weights predict results best (chess validation loss 0.1172 against 0.1211 at this ridge),
/// but they learn what the winners of weak games do rather than what wins, and lost 58 Elo
/// to the defaults; 1e-7, 1e-6, 1e-5, 3e-5 and 1e-4 gave -32, +6, +50, +35 and +5 Elo
/// (chess, 1,600 games at 1,000 nodes each; data/piece-values/README.md).
pub const DEFAULT_RIDGE: f64 = 1e-5;

#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub fit: Fit,
    pub start: Start,
    pub max_epochs: usize,
    /// Epochs without a better validation loss before stopping.
    pub patience: usize,
    pub batch: usize,
    /// Ridge penalty per squared centipawn that holds the positional weights (every table but
    /// `material`) near their start values.
    pub ridge: f64,
    pub strict: bool,
    pub max_positions: Option<u64>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            fit: Fit::Material,
            start: Start::Defaults,
            max_epochs: 300,
            patience: 15,
            batch: 16384,
            ridge: DEFAULT_RIDGE,
            strict: false,
            max_positions: None,
        }
    }
}

pub struct TuneReport {
    pub weights: Weights,
    pub k: f64,
    /// (epoch, train loss, validation loss, seconds).
    pub epochs: Vec<(usize, f64, f64, f64)>,
    pub errors: Vec<Option<f64>>,
    pub fitted: Vec<bool>,
    pub loaded: Loaded,
    pub load_secs: f64,
}

/// The pawn that anchors the scale at 100: the pawn-type piece lettered `p`, else the first.
pub fn anchor(v: &Variant) -> Option<PieceType> {
    let pawns = || v.typed_pieces().filter(|(_, p)| p.pawn);
    pawns().find(|(_, p)| p.letter == 'p').or_else(|| pawns().next()).map(|(t, _)| t)
}

pub fn tune(
    variant: &Arc<Variant>,
    files: &[PathBuf],
    o: &TuneOptions,
    mut on_load: impl FnMut(u64),
    mut on_epoch: impl FnMut(usize, f64, f64),
) -> Result<TuneReport, TuneError> {
    if !(o.ridge >= 0.0 && o.ridge.is_finite()) {
        return Err(TuneError::Ridge(o.ridge));
    }
    let mut start = match &o.start {
        Start::Defaults => Weights::defaults(variant),
        Start::File(p) => Weights::load(variant, p)?,
        Start::Equal => {
            let mut w = Weights::defaults(variant);
            for (t, p) in variant.typed_pieces() {
                w.set(Term::Material, t, if p.royal { 0 } else { 100 });
            }
            w
        }
    };
    let pawn = anchor(variant);
    if let Some(p) = pawn {
        start.set(Term::Material, p, 100);
    }
    let t0 = Instant::now();
    let loaded = load(variant, &start, files, o.strict, o.max_positions, &mut on_load)?;
    let load_secs = t0.elapsed().as_secs_f64();
    // Material and White's balance are always fitted, the positional weights with `--fit all`,
    // the bare king's terms never (`SideTerm::fitted`). (A single royal piece's material
    // feature is always zero: its weight stays put; a second Spartan king is worth something.)
    let material = |j: usize| matches!(start.slot(j), Slot::Table(Term::Material, _) | Slot::Side(_));
    let fitted: Vec<bool> = (0..start.values.len())
        .map(|j| match start.slot(j) {
            Slot::Table(Term::Material, t) => Some(t) != pawn,
            Slot::Side(k) => SIDE[k].fitted,
            _ => o.fit == Fit::All,
        })
        .collect();
    let rate: Vec<f64> = (0..fitted.len())
        .map(|j| match (fitted[j], material(j)) {
            (false, _) => 0.0,
            (true, true) => 5.0,
            (true, false) => 0.3,
        })
        .collect();
    let mut w: Vec<f64> = start.values.iter().map(|&x| x as f64).collect();
    let (train, valid) = (&loaded.train, &loaded.valid);
    let k = fit_k(train, &w);
    let mut adam = Adam::new(rate);
    adam.prior = w.clone();
    adam.ridge = (0..w.len()).map(|j| if fitted[j] && !material(j) { o.ridge } else { 0.0 }).collect();
    let mut epochs = Vec::new();
    let score = |w: &[f64]| if valid.is_empty() { loss(train, w, k) } else { loss(valid, w, k) };
    let (mut best, mut best_w, mut since) = (score(&w), w.clone(), 0);
    for e in 1..=o.max_epochs {
        let t = Instant::now();
        adam.epoch(train, &mut w, k, o.batch);
        let secs = t.elapsed().as_secs_f64();
        let (tl, vl) = (loss(train, &w, k), score(&w));
        epochs.push((e, tl, vl, secs));
        on_epoch(e, tl, vl);
        if vl < best - 1e-9 {
            best = vl;
            best_w = w.clone();
            since = 0;
        } else {
            since += 1;
            if since >= o.patience {
                break;
            }
        }
    }
    let errors = standard_errors(train, &best_w, k, &fitted, &adam.ridge);
    let mut weights = start.clone();
    for (j, x) in best_w.iter().enumerate() {
        weights.values[j] = x.round() as i32;
    }
    Ok(TuneReport { weights, k, epochs, errors, fitted, loaded, load_secs })
}

/// The piece values in pawns with their standard errors, as a table.
pub fn values_table(v: &Variant, r: &TuneReport) -> String {
    let mut s = format!("{:<16} {:>6} {:>8} {:>8}\n", "piece", "letter", "pawns", "± s.e.");
    for (t, p) in v.typed_pieces() {
        let se = r.errors[r.weights.index(Term::Material, t)];
        if p.royal && se.is_none() {
            continue;
        }
        let val = r.weights.get(Term::Material, t) as f64 / 100.0;
        let se = se.map_or("fixed".into(), |e| format!("{:.2}", e / 100.0));
        let _ = writeln!(s, "{:<16} {:>6} {:>8.2} {:>8}", p.name, p.letter, val, se);
    }
    for (k, term) in SIDE.iter().enumerate() {
        let name = term.name;
        let j = r.weights.side_index(k);
        let se = r.errors[j].map_or("-".into(), |e| format!("{:.2}", e / 100.0));
        let _ =
            writeln!(s, "{:<16} {:>6} {:>8.2} {:>8}", format!("({name})"), "", r.weights.values[j] as f64 / 100.0, se);
    }
    s
}

/// Writes WEIGHTS.toml and, beside it, `STEM-loss.csv` (per epoch) and `STEM-values.csv`
/// (every weight with its standard error).
pub fn write(v: &Variant, r: &TuneReport, out: &Path) -> Result<(PathBuf, PathBuf), TuneError> {
    let header = format!(
        "# hoplite tune: {} positions for training, {} for validation, K = {:.4}\n",
        r.loaded.train.len(),
        r.loaded.valid.len(),
        r.k
    );
    std::fs::write(out, header + &r.weights.to_toml()).map_err(|e| FormatError::io(out, "write", e))?;
    let (loss_path, values_path) = companions(out);
    let loss: Vec<LossRow> = r
        .epochs
        .iter()
        .map(|&(epoch, t, va, s)| LossRow {
            epoch,
            train_loss: Decimal(t),
            valid_loss: Decimal(va),
            seconds: Decimal(s),
        })
        .collect();
    csvfile::write(&loss_path, &loss)?;
    let values: Vec<WeightRow> = r
        .weights
        .values
        .iter()
        .enumerate()
        .map(|(j, &value)| {
            let (table, key) = r.weights.name(j);
            WeightRow {
                table,
                letter: key,
                name: match r.weights.slot(j) {
                    Slot::Table(_, t) | Slot::TableEnd(_, t) => v.piece(t).name.clone(),
                    Slot::Pst(t, c) | Slot::PstEnd(t, c) => {
                        format!("{} {}", v.piece(t).name, r.weights.class_square(v, c))
                    }
                    Slot::Side(_) => String::new(),
                },
                value,
                stderr: r.errors[j].map(Decimal),
                fitted: r.fitted[j],
            }
        })
        .collect();
    csvfile::write(&values_path, &values)?;
    Ok((loss_path, values_path))
}
