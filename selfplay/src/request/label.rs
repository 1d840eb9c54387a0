//! `hoplite label`'s request: positions.csv rows relabelled with a player's evaluation.

use crate::defaults;
use crate::error::RunError;
use crate::player::scoring::label;
use crate::player::{EngineFiles, Registry};
use crate::request::BudgetLists;
use hoplite_core::{Position, Variant};
use hoplite_formats::csvfile::{header, Appender, Rows};
use hoplite_formats::{FormatError, PositionRow};
use hoplite_search::EvalKind;
use std::path::PathBuf;

#[derive(Clone, Debug, Default)]
pub struct LabelRequest {
    pub variant: String,
    pub positions: Vec<PathBuf>,
    /// Who scores the positions.
    pub player: String,
    /// hoplite's evaluation (`--eval`; without it, the variant's shipped network where it has one).
    pub eval: Option<EvalKind>,
    pub budget: BudgetLists,
    /// The label's share that is the player's win probability.
    pub blend: Option<f64>,
    /// The positions.csv to write.
    pub out: PathBuf,
    pub threads: Option<usize>,
    pub engines: Option<PathBuf>,
}

/// Rows scored at once (and written before the next are read).
const BATCH: usize = 4096;

impl LabelRequest {
    /// Labels every row, calling `progress` with the rows done after each batch; returns the
    /// rows labelled and how many of them kept their game's result (the player has no move
    /// there by its rules).
    pub fn run(&self, mut progress: impl FnMut(u64)) -> Result<(u64, usize), RunError> {
        let blend = self.blend.unwrap_or(defaults::LABEL_BLEND);
        if !(0.0..=1.0).contains(&blend) {
            return Err(RunError::Usage(format!("--blend {blend}: a share from 0 to 1")));
        }
        let variant = Variant::load(&self.variant)?;
        let registry = Registry::load(self.engines.as_deref())?;
        let budget = self.budget.budget()?;
        let files = EngineFiles { eval: self.eval, ..Default::default() };
        let player = registry.player(&self.player, &self.player, budget, files, defaults::SCORING_HASH_MB)?;
        player.check(&variant)?;
        let threads = self.threads.unwrap_or_else(defaults::threads);
        let file = std::fs::File::create(&self.out).map_err(|e| FormatError::io(&self.out, "write", e))?;
        let mut out = Appender::<_, PositionRow>::new(std::io::BufWriter::new(file), &self.out);
        out.header()?;
        let (mut done, mut kept) = (0u64, 0usize);
        for path in &self.positions {
            let mut rows = Rows::<PositionRow>::open(path)?;
            rows.require(header::<PositionRow>())?;
            loop {
                let mut batch = Vec::with_capacity(BATCH);
                let mut positions = Vec::with_capacity(BATCH);
                for (line, row) in rows.by_ref().take(BATCH) {
                    let row = row?;
                    let pos = Position::from_fen(&variant, &row.fen)
                        .map_err(|e| RunError::Usage(format!("{}:{line}: fen: {e}", path.display())))?;
                    batch.push(row);
                    positions.push(pos);
                }
                if batch.is_empty() {
                    break;
                }
                let (labelled, no_move) = label(&variant, &player, &batch, &positions, blend, threads)?;
                for row in labelled {
                    out.push(&row)?;
                }
                kept += no_move;
                done += batch.len() as u64;
                progress(done);
            }
        }
        out.flush()?;
        Ok((done, kept))
    }
}
