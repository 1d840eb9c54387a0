//! `hoplite datagen`'s request: a selfplay run of hoplite at a node budget that keeps its
//! games' training positions (`plans::datagen`).

use super::selfplay::SelfplayRequest;
use super::{BudgetLists, RunRequest};
use crate::defaults;
use crate::error::RunError;
use crate::openings::played::{Method, OpeningSettings};
use crate::plans::{datagen, selfplay};
use crate::player::EngineFiles;
use crate::{Progress, RunReport};
use hoplite_formats::manifest::RunKind;
use hoplite_formats::{csvfile, PackedIndexRow, PACKED, PACKED_INDEX};
use std::path::PathBuf;

#[derive(Clone, Debug, Default)]
pub struct DatagenRequest {
    /// Built-in variant name or variant file.
    pub variant: Option<String>,
    /// hoplite's nodes per move.
    pub nodes: Option<u64>,
    /// Its files: a network to play with, weights, search parameters.
    pub files: EngineFiles,
    pub run: RunRequest,
}

/// A finished datagen run: its report (`positions`: those written in this session), its
/// directory, and what positions.bin holds now.
pub struct DatagenOutcome {
    pub report: RunReport,
    pub out: PathBuf,
    pub positions: u64,
    pub bytes: u64,
}

impl DatagenRequest {
    /// The variant played, as named.
    pub fn variant(&self) -> &str {
        self.variant.as_deref().unwrap_or(defaults::VARIANT)
    }

    pub fn run(&self, progress: impl FnMut(&Progress)) -> Result<DatagenOutcome, RunError> {
        let games = SelfplayRequest {
            variant: self.variant.clone(),
            player: None,
            budget: BudgetLists { nodes: vec![self.nodes.unwrap_or(defaults::DATAGEN_NODES)], ..Default::default() },
            files: self.files.clone(),
            run: self.run.clone(),
        };
        // Many distinct openings, cheaply: at selfplay's 8 plies and 4,000 nodes, 10,000 chess
        // games needed over 60,000 openings played (each one ending where another did is
        // played again) and more time than their games; at 12 plies and 1,000 nodes, 10,500.
        let opening = OpeningSettings {
            method: Some(Method::Played),
            plies: Some(defaults::DATAGEN_OPENING_PLIES),
            nodes: Some(defaults::DATAGEN_OPENING_NODES),
            ..Default::default()
        };
        let (variant, opts, player) = games.prepare("datagen", opening)?;
        let packing = Some(datagen::packing(&variant));
        let report = selfplay::play(&variant, self.variant(), &player, &opts, RunKind::Datagen, packing, progress)?;
        let index: Vec<PackedIndexRow> = csvfile::read(&opts.out.join(PACKED_INDEX))?;
        let bytes = std::fs::metadata(opts.out.join(PACKED)).map_or(0, |m| m.len());
        let positions = index.iter().map(|r| r.positions).sum();
        Ok(DatagenOutcome { report, out: opts.out, positions, bytes })
    }
}
