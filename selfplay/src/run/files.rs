//! Repairs of a run's files on resume: what a kill in the middle of a write leaves.

use crate::error::RunError;
use hoplite_formats::FormatError;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// A failure to `action` `path`, naming the file.
pub(crate) fn io(path: &Path, action: &'static str, e: impl std::fmt::Display) -> RunError {
    FormatError::io(path, action, e).into()
}

/// Cuts a file after its last newline (a line torn by a kill); returns whether it cut.
pub(crate) fn repair_torn_tail(path: &Path) -> Result<bool, RunError> {
    let mut f = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(path, "open", e)),
    };
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|e| io(path, "read", e))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(false);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    f.set_len(keep as u64).map_err(|e| io(path, "repair", e))?;
    f.seek(SeekFrom::End(0)).map_err(|e| io(path, "repair", e))?;
    Ok(true)
}

/// Whether `path` exists with more than `lines` lines (a header) in it.
pub(crate) fn has_more_lines(path: &Path, lines: usize) -> bool {
    File::open(path).is_ok_and(|f| BufReader::new(f).lines().nth(lines).is_some())
}

/// Rewrites a file keeping the lines `keep` accepts (through a temporary file and a rename).
pub(crate) fn filter_lines(path: &Path, mut keep: impl FnMut(usize, &str) -> bool) -> Result<(), RunError> {
    let Ok(file) = File::open(path) else {
        return Ok(());
    };
    let tmp = path.with_extension("tmp");
    {
        let mut out = BufWriter::new(File::create(&tmp).map_err(|e| io(&tmp, "write", e))?);
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| io(path, "read", e))?;
            if keep(i, &line) {
                writeln!(out, "{line}").map_err(|e| io(&tmp, "write", e))?;
            }
        }
        out.flush().map_err(|e| io(&tmp, "write", e))?;
    }
    fs::rename(&tmp, path).map_err(|e| io(path, "replace", e))
}
