//! The path file of an SPSA run (`spsa.csv`): a row per batch of pairs, the pairs played so
//! far, the batch's results for the plus engine (pairs won, level, lost) and θ after it. The
//! columns of θ are named by the tuned numbers, so the file has no fixed header; each number
//! is written as Rust writes an f64 (the shortest text that reads back to the same number), so
//! that a resumed run continues exactly.

use crate::error::FormatError;
use std::path::Path;

pub const PATH_FILE: &str = "spsa.csv";
/// The settings of the run, beside it.
pub const SETTINGS_FILE: &str = "spsa.toml";

/// One row: after `pairs` pairs, θ.
#[derive(Clone, Debug, PartialEq)]
pub struct PathRow {
    pub pairs: u64,
    pub won: u64,
    pub level: u64,
    pub lost: u64,
    pub theta: Vec<f64>,
}

/// The file's rows and the names of θ's columns.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaPath {
    pub names: Vec<String>,
    pub rows: Vec<PathRow>,
}

const FIXED: [&str; 4] = ["pairs", "won", "level", "lost"];

/// The header line for these tuned numbers.
pub fn header(names: &[String]) -> String {
    format!("{},{}\n", FIXED.join(","), names.join(","))
}

/// A row's line.
pub fn line(r: &PathRow) -> String {
    let theta: Vec<String> = r.theta.iter().map(|x| x.to_string()).collect();
    format!("{},{},{},{},{}\n", r.pairs, r.won, r.level, r.lost, theta.join(","))
}

impl SpsaPath {
    /// Reads the file's text; `complete` keeps only whole lines (a row cut short by a kill is
    /// left out, not an error).
    pub fn parse(path: &Path, text: &str) -> Result<SpsaPath, FormatError> {
        let at = |line: usize, message: String| FormatError::Row {
            path: path.display().to_string(),
            line: line as u64,
            message,
        };
        let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut lines = complete.lines();
        let head: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
        if head.len() < FIXED.len() || head[..FIXED.len()] != FIXED {
            return Err(at(1, format!("expected the columns {} and the tuned numbers", FIXED.join(","))));
        }
        let names: Vec<String> = head[FIXED.len()..].iter().map(|s| s.to_string()).collect();
        let mut rows = Vec::new();
        for (i, l) in lines.enumerate() {
            let f: Vec<&str> = l.split(',').collect();
            let bad = || at(i + 2, format!("expected {} numbers", FIXED.len() + names.len()));
            if f.len() != FIXED.len() + names.len() {
                return Err(bad());
            }
            let int = |s: &str| s.parse::<u64>().map_err(|_| bad());
            let theta =
                f[FIXED.len()..].iter().map(|s| s.parse::<f64>().map_err(|_| bad())).collect::<Result<_, _>>()?;
            rows.push(PathRow { pairs: int(f[0])?, won: int(f[1])?, level: int(f[2])?, lost: int(f[3])?, theta });
        }
        Ok(SpsaPath { names, rows })
    }

    pub fn read(path: &Path) -> Result<SpsaPath, FormatError> {
        let text = std::fs::read_to_string(path).map_err(|e| FormatError::io(path, "read", e))?;
        SpsaPath::parse(path, &text)
    }

    /// The file's text of its whole rows.
    pub fn text(&self) -> String {
        let mut s = header(&self.names);
        self.rows.iter().for_each(|r| s += &line(r));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_exactly_and_a_cut_row_is_dropped() {
        let p = SpsaPath {
            names: vec!["a".into(), "b".into()],
            rows: vec![PathRow { pairs: 8, won: 3, level: 2, lost: 3, theta: vec![80.14897855789437, 0.1 + 0.2] }],
        };
        let text = p.text();
        assert_eq!(SpsaPath::parse(Path::new("s.csv"), &text).unwrap(), p);
        assert_eq!(SpsaPath::parse(Path::new("s.csv"), &format!("{text}16,1,2")).unwrap(), p);
        let e = SpsaPath::parse(Path::new("s.csv"), "pairs,won,level,lost,a\n8,1,2,3,x\n").unwrap_err();
        assert_eq!(e.to_string(), "s.csv:2: expected 5 numbers");
    }
}
