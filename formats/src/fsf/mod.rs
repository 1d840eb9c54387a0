//! `hoplite import`: Fairy-Stockfish's variants.ini sections (and FSF's built-in variants)
//! turned into hoplite variant files written in the rule kit's keys, or refused with the file,
//! line and key of every rule the kit cannot express.

pub mod betza;
pub mod ini;
pub mod rules;
pub mod translate;

pub use ini::IniError;
pub use translate::Refusal;

use rules::{Origin, Rules};
use std::collections::BTreeMap;
use std::sync::Arc;

/// FSF's built-in variants, resolved, in FSF's ini syntax (generated from FSF c19b5f6).
pub const BUILTINS_INI: &str = include_str!("../../../data/fsf/builtins.ini");
/// How `--builtins` names the embedded file in messages.
pub const BUILTINS_LABEL: &str = "data/fsf/builtins.ini";

/// One section's outcome: a variant file, or the reasons it is refused.
#[derive(Clone, Debug)]
pub struct Imported {
    pub name: String,
    pub line: usize,
    pub outcome: Result<String, Vec<Refusal>>,
}

/// A whole file's outcome.
#[derive(Clone, Debug, Default)]
pub struct Import {
    pub sections: Vec<Imported>,
}

impl Import {
    pub fn converted(&self) -> usize {
        self.sections.iter().filter(|s| s.outcome.is_ok()).count()
    }
    pub fn refused(&self) -> usize {
        self.sections.len() - self.converted()
    }
    /// Refused sections per key (a section counts once per key), most frequent first.
    pub fn tally(&self) -> Vec<(String, usize)> {
        let mut t: BTreeMap<String, usize> = BTreeMap::new();
        for s in &self.sections {
            if let Err(rs) = &s.outcome {
                // One rule, one entry: `passWhite` and `passBlack` count as `pass`.
                let mut keys: Vec<&str> =
                    rs.iter().map(|r| r.key.trim_end_matches("White").trim_end_matches("Black")).collect();
                keys.sort();
                keys.dedup();
                for k in keys {
                    *t.entry(k.to_string()).or_default() += 1;
                }
            }
        }
        let mut v: Vec<(String, usize)> = t.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
    /// `N sections: C converted, R refused; refusals by key: k n, ...`
    pub fn summary(&self) -> String {
        let tally: Vec<String> = self.tally().iter().map(|(k, n)| format!("{k} {n}")).collect();
        let mut s = format!("{} sections: {} converted, {} refused", self.sections.len(), self.converted(), self.refused());
        if !tally.is_empty() {
            s.push_str(&format!("; refusals by key: {}", tally.join(", ")));
        }
        s
    }
}

/// An ini syntax error, with the file it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub file: String,
    pub error: IniError,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.error.line, self.error.message)
    }
}

impl std::error::Error for ImportError {}

/// FSF's built-in variants, resolved; origins name the built-in (for inheriting sections) or,
/// with `as_file`, the lines of builtins.ini (for `--builtins`).
pub fn builtins(as_file: bool) -> Vec<(usize, Rules)> {
    let sections = ini::parse(BUILTINS_INI).expect("data/fsf/builtins.ini parses");
    let label: Arc<str> = BUILTINS_LABEL.into();
    sections
        .iter()
        .map(|s| {
            let origin = |line: usize| {
                if as_file {
                    Origin::File { file: label.clone(), section: s.name.clone(), line }
                } else {
                    Origin::Builtin(s.name.clone())
                }
            };
            (s.line, Rules::apply(&Rules::defaults(&s.name), s, &origin))
        })
        .collect()
}

/// Resolves every section of an ini file as FSF does: parent rules first, a name that already
/// exists is not redefined, boards beyond 12x10 are dropped.
pub fn resolve(file: &str, text: &str) -> Result<Vec<(usize, Result<Rules, Refusal>)>, ImportError> {
    let sections = ini::parse(text).map_err(|error| ImportError { file: file.into(), error })?;
    let mut known: BTreeMap<String, Rules> = builtins(false).into_iter().map(|(_, r)| (r.name.clone(), r)).collect();
    let label: Arc<str> = file.into();
    let mut out = Vec::new();
    for s in &sections {
        let refusal = |key: &str, why: String| Refusal { key: key.into(), message: format!("{file}:{}: [{}] {why}", s.line, s.name) };
        if known.contains_key(&s.name) {
            let why = "FSF already has a variant of this name and keeps the first definition".to_string();
            out.push((s.line, Err(refusal("name", why))));
            continue;
        }
        let base = match &s.parent {
            None => Rules::defaults(&s.name),
            Some(p) => match known.get(p) {
                Some(b) => b.clone(),
                None => {
                    out.push((s.line, Err(refusal("parent", format!("parent '{p}' is neither a built-in nor an earlier section")))));
                    continue;
                }
            },
        };
        let origin = |line: usize| Origin::File { file: label.clone(), section: s.name.clone(), line };
        let r = Rules::apply(&base, s, &origin);
        if r.files() as u8 > rules::MAX_FILES || r.ranks() as u8 > rules::MAX_RANKS || r.files() == 0 || r.ranks() == 0 {
            let why = format!("a {}x{} board: FSF drops sections beyond 12x10", r.files(), r.ranks());
            out.push((s.line, Err(refusal("maxRank", why))));
            continue;
        }
        known.insert(s.name.clone(), r.clone());
        out.push((s.line, Ok(r)));
    }
    Ok(out)
}

fn convert(file: &str, resolved: Vec<(usize, Result<Rules, Refusal>)>) -> Import {
    let sections = resolved
        .into_iter()
        .map(|(line, r)| match r {
            Ok(r) => {
                let outcome = translate::translate(&r, &translate::Place { file, line });
                Imported { name: r.name.clone(), line, outcome }
            }
            Err(e) => {
                let name = e.message.split('[').nth(1).and_then(|s| s.split(']').next()).unwrap_or("").to_string();
                Imported { name, line, outcome: Err(vec![e]) }
            }
        })
        .collect();
    Import { sections }
}

/// Imports the sections of an ini file; `file` names it in messages.
pub fn import(file: &str, text: &str) -> Result<Import, ImportError> {
    Ok(convert(file, resolve(file, text)?))
}

/// Imports FSF's built-in variants.
pub fn import_builtins() -> Import {
    let resolved = builtins(true).into_iter().map(|(line, r)| (line, Ok(r))).collect();
    convert(BUILTINS_LABEL, resolved)
}
