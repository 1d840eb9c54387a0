//! positions.bin, when a run keeps training positions for a network (`hoplite datagen`):
//! each game's records are written as the game is, in game-id order, and its share of them
//! goes to positions-index.csv, both flushed before the game's row of games.csv. A resume cuts
//! both back to the games that games.csv holds, so that a run killed and resumed writes the
//! bytes of a run never stopped; a merge interleaves shards' records by the index.

use crate::error::RunError;
use crate::run::files::{io, repair_torn_tail};
use crate::run::game::GameRecord;
use hoplite_core::Variant;
use hoplite_formats::csvfile::{self, Appender};
use hoplite_formats::packed::{self, PackedPosition, PackedWriter, HEADER_LEN};
use hoplite_formats::{PackedIndexRow, PACKED, PACKED_INDEX};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a run keeps of its games for a network: the variant (the file's header) and the
/// training positions of a finished game.
#[derive(Clone)]
pub struct Packing {
    pub variant: Arc<Variant>,
    pub select: fn(&GameRecord) -> Vec<PackedPosition>,
}

/// positions.bin and its index, open for appending.
pub(crate) struct PackedOutput {
    select: fn(&GameRecord) -> Vec<PackedPosition>,
    writer: PackedWriter<BufWriter<File>>,
    index: Appender<File, PackedIndexRow>,
    path: PathBuf,
    /// Positions written in this session.
    pub written: u64,
}

fn damaged(path: &Path, message: String) -> RunError {
    RunError::Packed { path: path.display().to_string(), message }
}

impl PackedOutput {
    /// Opens positions.bin and its index in `dir`: new, or (a resumed run whose games.csv
    /// holds the games `done`) cut back to those games' records.
    pub fn open(dir: &Path, packing: &Packing, resumed: bool, done: &BTreeSet<u64>) -> Result<PackedOutput, RunError> {
        let (path, index_path) = (dir.join(PACKED), dir.join(PACKED_INDEX));
        let kept = resumed && cut_back(&path, &index_path, &packing.variant, done)?;
        let writer = if kept {
            let file = OpenOptions::new().append(true).open(&path).map_err(|e| io(&path, "write", e))?;
            PackedWriter::append(BufWriter::new(file), &packing.variant)
        } else {
            PackedWriter::create(&path, &packing.variant)?
        };
        if !kept {
            csvfile::write::<PackedIndexRow>(&index_path, &[])?;
        }
        let file = OpenOptions::new().append(true).open(&index_path).map_err(|e| io(&index_path, "write", e))?;
        let index = Appender::new(file, &index_path);
        Ok(PackedOutput { select: packing.select, writer, index, path, written: 0 })
    }

    /// Writes a finished game's training positions and its row of the index, flushed.
    pub fn write(&mut self, rec: &GameRecord) -> Result<(), RunError> {
        let positions = (self.select)(rec);
        let mut bytes = 0;
        for p in &positions {
            bytes += self.writer.write(p).map_err(|e| io(&self.path, "write", e))?;
        }
        self.writer.flush().map_err(|e| io(&self.path, "write", e))?;
        let row = PackedIndexRow { game_id: rec.game_id, positions: positions.len() as u64, bytes: bytes as u64 };
        self.index.push(&row)?;
        self.index.flush()?;
        self.written += row.positions;
        Ok(())
    }
}

/// Cuts positions.bin and its index back to the records of the games `done` (those of
/// games.csv, which are written after their records); false when there is no file to go on
/// with (a run killed before its first game), so that a new one is started.
fn cut_back(path: &Path, index_path: &Path, variant: &Variant, done: &BTreeSet<u64>) -> Result<bool, RunError> {
    repair_torn_tail(index_path)?;
    let rows: Vec<PackedIndexRow> = if index_path.exists() { csvfile::read(index_path)? } else { Vec::new() };
    // Games are written in the order they are listed: those of games.csv come first.
    let kept = rows.iter().take_while(|r| done.contains(&r.game_id)).count();
    if kept != done.len() {
        let message = format!(
            "lists {kept} of the {} games of games.csv before one it does not hold; it belongs to another run",
            done.len()
        );
        return Err(damaged(index_path, message));
    }
    let want = HEADER_LEN as u64 + rows[..kept].iter().map(|r| r.bytes).sum::<u64>();
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && kept == 0 => return Ok(false),
        Err(e) => return Err(io(path, "open", e)),
        Ok(f) => f,
    };
    let len = file.metadata().map_err(|e| io(path, "read", e))?.len();
    if len < HEADER_LEN as u64 && kept == 0 {
        return Ok(false);
    }
    let mut head = [0u8; HEADER_LEN];
    file.read_exact(&mut head).map_err(|e| io(path, "read", e))?;
    if head != packed::header(variant) {
        return Err(damaged(path, format!("not the packed positions of {} that this run writes", variant.name)));
    }
    if len < want {
        let message = format!("{len} bytes, but the games of {} need {want}: the file was cut", index_path.display());
        return Err(damaged(path, message));
    }
    file.set_len(want).map_err(|e| io(path, "repair", e))?;
    csvfile::write(index_path, &rows[..kept])?;
    Ok(true)
}
