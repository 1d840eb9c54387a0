//! The tuner's files beside a weights file: STEM-loss.csv (per epoch) and STEM-values.csv
//! (every weight with its standard error).

use crate::decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One epoch of training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossRow {
    pub epoch: usize,
    pub train_loss: Decimal<6>,
    pub valid_loss: Decimal<6>,
    pub seconds: Decimal<4>,
}

/// One round of `hoplite train` (rounds.csv): the positions trained on, the last epoch's
/// losses, and the network's Elo (with its 95% error) against the linear evaluation and against
/// the previous round's network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRow {
    pub round: usize,
    pub positions: u64,
    pub train_loss: Decimal<6>,
    pub valid_loss: Option<Decimal<6>>,
    pub elo_linear: Decimal<1>,
    pub elo_linear_error: Decimal<1>,
    pub elo_previous: Option<Decimal<1>>,
    pub elo_previous_error: Option<Decimal<1>>,
}

/// One row of a network training's loss curve (`loss.csv` of each round of `hoplite train`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochRow {
    pub epoch: usize,
    /// The mean loss over the epoch's batches, each before its step.
    pub train_loss: f64,
    /// The loss on the held-out positions after the epoch.
    pub validation_loss: Option<f64>,
    /// The epoch's wall time.
    pub seconds: f64,
}

/// One weight: its table (`material`, `mobility_end`, ..., or `side`), the piece letter or
/// term, the piece's name, the value in centipawns, its standard error and whether it was fitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightRow {
    /// Called `group` in files written before the tapered evaluation (`read_values` reads both).
    pub table: String,
    pub letter: String,
    pub name: String,
    pub value: i32,
    pub stderr: Option<Decimal<2>>,
    pub fitted: bool,
}

/// Reads a values file, of either header.
pub fn read_values(path: &std::path::Path) -> Result<Vec<WeightRow>, crate::FormatError> {
    crate::csvfile::Rows::open_renamed(path, &[("group", "table")])?.map(|(_, r)| r).collect()
}

/// The files of a tune run beside `weights`: (loss, values).
pub fn companions(weights: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let stem = weights.with_extension("").display().to_string();
    (format!("{stem}-loss.csv").into(), format!("{stem}-values.csv").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_either_header_and_write_the_new_one() {
        assert_eq!(crate::csvfile::header::<WeightRow>()[..2], ["table", "letter"]);
        let dir = std::env::temp_dir().join(format!("hoplite-values-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for first in ["table", "group"] {
            let p = dir.join(format!("{first}.csv"));
            std::fs::write(&p, format!("{first},letter,name,value,stderr,fitted\nmaterial,n,Knight,277,7.00,true\n"))
                .unwrap();
            let rows = read_values(&p).unwrap();
            assert_eq!((rows[0].table.as_str(), rows[0].value, rows[0].stderr), ("material", 277, Some(Decimal(7.0))));
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
