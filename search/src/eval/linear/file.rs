//! Weights files: TOML, one table per term (`NAME`, `NAME_end`), the piece-square tables and
//! `[side]`; reading names the file, line and field of what is wrong.

use super::terms::Term;
use super::terms::SIDE;
use super::terms::TERMS;
use super::weights::Weights;
use crate::error::WeightsError;
use hoplite_core::toml_text::toml_at;
use hoplite_core::toml_text::Lines;
use hoplite_core::PieceType;
use hoplite_core::Variant;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

impl Weights {
    /// Reads a weights file; tables or letters it leaves out keep the variant's defaults, but
    /// an endgame weight left out follows the file's middlegame weight of the same piece.
    pub fn load(v: &Variant, path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| WeightsError::Read { path: path.display().to_string(), message: e.to_string() })?;
        Weights::from_toml(v, &path.display().to_string(), &text)
    }

    pub fn from_toml(v: &Variant, label: &str, text: &str) -> Result<Weights, WeightsError> {
        type Table = BTreeMap<Spanned<String>, Spanned<toml::Value>>;
        let file: BTreeMap<Spanned<String>, Table> = toml::from_str(text)
            .map_err(|e| WeightsError::Toml { at: toml_at(label, text, &e), message: e.message().to_string() })?;
        let lines = Lines::new(text);
        let at = |span: std::ops::Range<usize>| format!("{label}:{}", lines.line_of(span.start));
        let mut w = Weights::defaults(v);
        let mut given = vec![false; w.len()];
        let tables: Vec<String> = TERMS
            .iter()
            .map(|t| t.name.to_string())
            .chain(Term::tapered().map(|t| format!("{}_end", t.name())))
            .chain(["pst".into(), "pst_end".into()])
            .collect();
        for (table, entries) in &file {
            let name = table.get_ref();
            let number = |value: &Spanned<toml::Value>| -> Result<i32, WeightsError> {
                value.get_ref().as_integer().and_then(|x| i32::try_from(x).ok()).ok_or_else(|| WeightsError::Toml {
                    at: at(value.span()),
                    message: format!("[{name}]: expected a whole number of centipawns"),
                })
            };
            if name == "side" {
                for (key, value) in entries {
                    let k =
                        SIDE.iter().position(|s| s.name == key.get_ref()).ok_or_else(|| WeightsError::SideTerm {
                            at: at(key.span()),
                            key: key.get_ref().clone(),
                            options: SIDE.map(|s| s.name).join(", "),
                        })?;
                    let j = w.side_index(k);
                    w.values[j] = number(value)?;
                }
                continue;
            }
            let g = tables.iter().position(|t| t == name).ok_or_else(|| WeightsError::Table {
                at: at(table.span()),
                table: name.clone(),
                options: tables.join(", "),
            })?;
            for (key, value) in entries {
                let letter = key.get_ref();
                let t = letter
                    .chars()
                    .next()
                    .filter(|_| letter.chars().count() == 1)
                    .and_then(|c| v.piece_type(c))
                    .ok_or_else(|| WeightsError::Letter {
                        at: at(key.span()),
                        table: name.clone(),
                        letter: letter.clone(),
                        variant: v.name.clone(),
                    })?;
                if name.starts_with("pst") {
                    let list = value.get_ref().as_array().filter(|a| a.len() == w.classes()).ok_or_else(|| {
                        WeightsError::Toml {
                            at: at(value.span()),
                            message: format!("[{name}]: '{letter}' needs {} numbers, a square class each", w.classes()),
                        }
                    })?;
                    for (c, x) in list.iter().enumerate() {
                        let x =
                            x.as_integer().and_then(|x| i32::try_from(x).ok()).ok_or_else(|| WeightsError::Toml {
                                at: at(value.span()),
                                message: format!("[{name}]: '{letter}': not a number"),
                            })?;
                        let j = w.pst_index(t, c);
                        let j = if name == "pst" { j } else { w.end(j) };
                        w.values[j] = x;
                        given[j] = true;
                    }
                } else {
                    let j = match TERMS.get(g) {
                        Some(term) => w.index(term.term, t),
                        None => w.end(w.index(TERMS[g - TERMS.len() + 1].term, t)),
                    };
                    w.values[j] = number(value)?;
                    given[j] = true;
                }
            }
        }
        for j in 0..w.len() {
            let e = w.end(j);
            if e != j && given[j] && !given[e] {
                w.values[e] = w.values[j];
            }
        }
        Ok(w)
    }

    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        let tables = TERMS.iter().map(|t| (t.name.to_string(), t.term, false));
        let ends = Term::tapered().map(|t| (format!("{}_end", t.name()), t, true));
        for (name, g, end) in tables.chain(ends) {
            s += &format!("[{name}]\n");
            for (t, l) in PieceType::first(self.types).zip(&self.letters) {
                let j = self.index(g, t);
                s += &format!("{l} = {}\n", self.values[if end { self.end(j) } else { j }]);
            }
            s += "\n";
        }
        let half = self.tables.half;
        for (name, end) in [("pst", false), ("pst_end", true)] {
            s += &format!(
                "# square classes from White's a1 along the rank to the middle file, rank by rank\n[{name}]\n"
            );
            for (t, l) in PieceType::first(self.types).zip(&self.letters) {
                let row = |r: usize| -> Vec<String> {
                    (0..half)
                        .map(|f| {
                            let j = self.pst_index(t, r * half + f);
                            self.values[if end { self.end(j) } else { j }].to_string()
                        })
                        .collect()
                };
                let rows: Vec<String> = (0..self.classes() / half).map(|r| row(r).join(", ")).collect();
                s += &format!("{l} = [\n    {},\n]\n", rows.join(",\n    "));
            }
            s += "\n";
        }
        s += "[side]\n";
        for (k, term) in SIDE.iter().enumerate() {
            s += &format!("{} = {}\n", term.name, self.values[self.side_index(k)]);
        }
        s
    }
}
