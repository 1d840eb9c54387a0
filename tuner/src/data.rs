//! Positions from self-play CSV, each resolved to a quiet position by quiescence search and
//! kept as its sparse evaluation features: a few bytes per position.

use crate::error::TuneError;
use hoplite_core::{Position, Variant};
use hoplite_formats::csvfile::{header, Rows};
use hoplite_formats::PositionRow;
use hoplite_search::eval::linear::PHASE;
use hoplite_search::{features, Search, Weights};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// Features of many positions, stored flat: position `i` has entries
/// `offsets[i]..offsets[i + 1]` of `index` (weight index) and `value` (White minus Black), and
/// its game phase; a tapered weight's feature also counts towards its endgame partner.
#[derive(Clone)]
pub struct Dataset {
    pub offsets: Vec<u32>,
    pub index: Vec<u16>,
    pub value: Vec<i16>,
    /// Game phase, 0 to `PHASE`.
    pub phase: Vec<u8>,
    /// The endgame partner of each weight (see `Weights::end`).
    pub end: Vec<u16>,
    /// White's score: a game's result (1, 0.5, 0) or a label between.
    pub result: Vec<f32>,
    /// The game of each position, numbered from 0 in order of appearance (a game's positions
    /// are contiguous): errors are estimated per game, as positions of one game are not
    /// independent.
    pub game: Vec<u32>,
    last_game_id: Option<u64>,
}

impl Dataset {
    /// An empty set for weights whose endgame partners are `end`.
    pub fn new(end: Vec<u16>) -> Dataset {
        Dataset {
            offsets: vec![0],
            index: Vec::new(),
            value: Vec::new(),
            phase: Vec::new(),
            end,
            result: Vec::new(),
            game: Vec::new(),
            last_game_id: None,
        }
    }
    pub fn len(&self) -> usize {
        self.result.len()
    }
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }
    pub fn push(&mut self, f: &[(u16, i16)], phase: u8, result: f32, game_id: u64) {
        let game = match (self.last_game_id, self.game.last()) {
            (Some(id), Some(&g)) if id == game_id => g,
            (_, Some(&g)) => g + 1,
            _ => 0,
        };
        self.game.push(game);
        self.last_game_id = Some(game_id);
        for &(i, v) in f {
            self.index.push(i);
            self.value.push(v);
        }
        self.offsets.push(self.index.len() as u32);
        self.phase.push(phase);
        self.result.push(result);
    }
    /// Calls `f(weight index, feature value)` for each entry of position `i`, a tapered one
    /// split between its middlegame and endgame weight by the phase.
    #[inline(always)]
    pub fn for_each_entry(&self, i: usize, mut f: impl FnMut(usize, f64)) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let mg = self.phase[i] as f64 / PHASE as f64;
        for (&j, &v) in self.index[a..b].iter().zip(&self.value[a..b]) {
            let (j, v) = (j as usize, v as f64);
            let e = self.end[j] as usize;
            if e == j {
                f(j, v);
            } else {
                f(j, v * mg);
                f(e, v * (1.0 - mg));
            }
        }
    }
    /// Heap bytes used.
    pub fn bytes(&self) -> usize {
        self.offsets.capacity() * 4
            + self.index.capacity() * 2
            + self.value.capacity() * 2
            + self.phase.capacity()
            + self.result.capacity()
            + self.game.capacity() * 4
    }
    fn shrink(&mut self) {
        self.offsets.shrink_to_fit();
        self.index.shrink_to_fit();
        self.value.shrink_to_fit();
        self.phase.shrink_to_fit();
        self.result.shrink_to_fit();
        self.game.shrink_to_fit();
    }
}

/// What reading found: the training and validation sets and the rows it skipped.
pub struct Loaded {
    pub train: Dataset,
    pub valid: Dataset,
    pub rows: u64,
    pub skipped: Vec<TuneError>,
}

/// Every tenth game (by a hash of its id) goes to validation, all its positions together.
fn is_validation(game_id: u64) -> bool {
    hoplite_core::seed::id_hash(game_id).is_multiple_of(10)
}

/// A row's quiet position as sparse features, its phase and its result, or why the row is bad.
type Resolved = Result<(Vec<(u16, i16)>, u8, f32), TuneError>;

/// The quiet position's sparse features (`line`: where the row is, for an error).
fn resolve(
    variant: &Arc<Variant>,
    weights: &Weights,
    search: &mut Search,
    row: &PositionRow,
    path: &Path,
    line: u64,
) -> Resolved {
    let r = row.result.get() as f32;
    let mut pos = Position::from_fen(variant, &row.fen).map_err(|e| TuneError::Row {
        path: path.display().to_string(),
        line,
        message: e.to_string(),
    })?;
    let (_, line) = search.quiescence_line(&mut pos);
    for m in line {
        pos.make(m);
    }
    let f = features(&pos, weights);
    let sparse = f
        .values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v != 0)
        .map(|(i, &v)| (i as u16, v.clamp(-32768, 32767) as i16))
        .collect();
    Ok((sparse, f.phase as u8, r))
}

/// Reads positions.csv files. Malformed rows are skipped and listed (`strict`: the first is an
/// error); either way each names file and line.
pub fn load(
    variant: &Arc<Variant>,
    weights: &Weights,
    files: &[impl AsRef<Path>],
    strict: bool,
    max_positions: Option<u64>,
    mut progress: impl FnMut(u64),
) -> Result<Loaded, TuneError> {
    // Weight indices are stored in 16 bits.
    if weights.len() > u16::MAX as usize {
        return Err(TuneError::TooManyWeights { variant: variant.name.clone(), weights: weights.len() });
    }
    let end: Vec<u16> = (0..weights.len()).map(|j| weights.end(j) as u16).collect();
    let mut out = Loaded { train: Dataset::new(end.clone()), valid: Dataset::new(end), rows: 0, skipped: Vec::new() };
    const BATCH: usize = 8192;
    for path in files {
        let path = path.as_ref();
        let mut rows = Rows::<PositionRow>::open(path)?;
        rows.require(header::<PositionRow>())?;
        loop {
            let batch: Vec<(u64, Result<PositionRow, _>)> = rows.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                break;
            }
            let resolved: Vec<(u64, Resolved)> = batch
                .into_par_iter()
                .with_min_len(256)
                .map_init(
                    || Search::new(weights.clone(), 0),
                    |search, (line, row)| match row {
                        Ok(row) => (row.game_id, resolve(variant, weights, search, &row, path, line)),
                        Err(e) => (0, Err(e.into())),
                    },
                )
                .collect();
            for (game_id, r) in resolved {
                out.rows += 1;
                match r {
                    Ok((f, phase, result)) => {
                        let set = if is_validation(game_id) { &mut out.valid } else { &mut out.train };
                        set.push(&f, phase, result, game_id);
                    }
                    Err(e) if strict => return Err(e),
                    Err(e) => out.skipped.push(e),
                }
            }
            progress(out.rows);
            if max_positions.is_some_and(|m| out.rows >= m) {
                break;
            }
        }
    }
    out.train.shrink();
    out.valid.shrink();
    if out.train.is_empty() {
        return Err(match out.skipped.first() {
            None => TuneError::NoRows,
            Some(first) => TuneError::NothingUsable { rows: out.rows, first: first.to_string() },
        });
    }
    let decisive = out.train.result.iter().chain(&out.valid.result).filter(|&&r| r != 0.5).count();
    if decisive == 0 {
        return Err(TuneError::AllDrawn { rows: out.rows });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tapered_feature_splits_between_its_two_weights_by_the_phase() {
        // Weight 1 is tapered with weight 2 as its endgame partner; weight 0 is not.
        let mut d = Dataset::new(vec![0, 2, 2]);
        d.push(&[(0, 3), (1, 4)], (PHASE / 4) as u8, 1.0, 7);
        let mut e = Vec::new();
        d.for_each_entry(0, |j, v| e.push((j, v)));
        assert_eq!(e, [(0, 3.0), (1, 1.0), (2, 3.0)]);
    }
}
