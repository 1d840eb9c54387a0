//! hoplite-import: Fairy-Stockfish's variants.ini and built-in variants as hoplite variant files.
//!
//! `hoplite import`: each section is written in the rule kit's keys, or refused with the file,
//! line and key of every rule the kit cannot express.
#![forbid(unsafe_code)]

pub mod betza;
#[cfg(test)]
mod dialect_tests;
pub mod ini;
pub mod rules;
pub mod translate;

pub use ini::IniError;
pub use translate::Refusal;

use rules::{Origin, Rules};
use std::collections::BTreeMap;
use std::sync::Arc;

/// FSF's built-in variants, resolved, in FSF's ini syntax (generated from FSF c19b5f6).
pub const BUILTINS_INI: &str = include_str!("../../data/fsf/builtins.ini");
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
        let mut s =
            format!("{} sections: {} converted, {} refused", self.sections.len(), self.converted(), self.refused());
        if !tally.is_empty() {
            s.push_str(&format!("; refusals by key: {}", tally.join(", ")));
        }
        s
    }
}

/// A section's header line and its resolved rules, or why FSF would not define it.
pub type Resolved = (usize, Result<Rules, Refusal>);

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
pub fn resolve(file: &str, text: &str) -> Result<Vec<Resolved>, ImportError> {
    let sections = ini::parse(text).map_err(|error| ImportError { file: file.into(), error })?;
    let mut known: BTreeMap<String, Rules> = builtins(false).into_iter().map(|(_, r)| (r.name.clone(), r)).collect();
    let label: Arc<str> = file.into();
    let mut out = Vec::new();
    for s in &sections {
        let refusal = |key: &str, why: String| Refusal {
            key: key.into(),
            message: format!("{file}:{}: [{}] {why}", s.line, s.name),
        };
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
                    out.push((
                        s.line,
                        Err(refusal("parent", format!("parent '{p}' is neither a built-in nor an earlier section"))),
                    ));
                    continue;
                }
            },
        };
        let origin = |line: usize| Origin::File { file: label.clone(), section: s.name.clone(), line };
        let r = Rules::apply(&base, s, &origin);
        if r.files() as u8 > rules::MAX_FILES || r.ranks() as u8 > rules::MAX_RANKS || r.files() == 0 || r.ranks() == 0
        {
            let why = format!("a {}x{} board: FSF drops sections beyond 12x10", r.files(), r.ranks());
            out.push((s.line, Err(refusal("maxRank", why))));
            continue;
        }
        known.insert(s.name.clone(), r.clone());
        out.push((s.line, Ok(r)));
    }
    Ok(out)
}

fn convert(file: &str, resolved: Vec<Resolved>) -> Import {
    let sections = resolved
        .into_iter()
        .map(|(line, r)| match r {
            Ok(r) => {
                let outcome = translate::translate(&r, &translate::Place { file, line })
                    .and_then(|toml| loadable(&r.name, toml, &translate::Place { file, line }));
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

/// Whether `name` can name a file in the output folder and nothing else: letters, digits,
/// `-`, `_` and `.`, not beginning with `.` (no path, no `..`).
fn is_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A converted section's variant file, if it can be written under its name and loads as
/// written; else the reason it is refused.
fn loadable(name: &str, toml: String, at: &translate::Place) -> Result<String, Vec<Refusal>> {
    let refuse = |key: &str, why: String| {
        Err(vec![Refusal { key: key.into(), message: format!("{}:{}: [{name}] {why}", at.file, at.line) }])
    };
    if !is_file_name(name) {
        return refuse("name", "is not a file name (letters, digits, '-', '_' and '.', not first)".into());
    }
    match hoplite_core::Variant::from_toml(name, &toml) {
        Ok(_) => Ok(toml),
        Err(e) => refuse("section", format!("converts to a variant file that does not load: {e}")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Imported {
        let mut i = import("test.ini", text).unwrap();
        i.sections.pop().unwrap()
    }

    #[test]
    fn inherits_from_a_builtin() {
        // makruk's ranks 6-8 promotion zone and counting come from the built-in.
        let text = "[mine:makruk]\nnMoveRule = 30\n";
        let r = resolve("t.ini", text).unwrap().pop().unwrap().1.unwrap();
        assert_eq!(r.val("countingRule").text(), "makruk");
        assert_eq!(r.get("countingRule").origin, Origin::Builtin("makruk".into()));
        assert_eq!(r.val("nMoveRule").int(), 30);
        // Makruk's counting, inherited: converted with the roles of its pieces.
        let toml = one(text).outcome.unwrap();
        assert!(
            toml.contains("counting = { rule = \"makruk\", pawn = \"p\", rook = \"r\", khon = \"s\", knight = \"n\" }"),
            "{toml}"
        );
        // Cambodian counting is not in the kit: refused, naming the built-in it comes from.
        let Err(rs) = one("[mine:cambodian]\ncambodianMoves = false\ngating = false\n").outcome else {
            panic!("Cambodian counting converted")
        };
        assert!(rs.iter().any(|r| r.message.contains("inherited from FSF's built-in 'cambodian': countingRule")));
        let toml = one("[hill:kingofthehill]\nnMoveRule = 30\n").outcome.unwrap();
        assert!(toml.contains("flag = { piece = \"k\", region = \"d4 e4 d5 e5\" }"), "{toml}");
        assert!(toml.contains("move_rule = 60"), "FSF counts full moves: {toml}");
    }

    #[test]
    fn inherits_from_an_earlier_section_and_pieces_follow_fsf() {
        let text = "[base]\npawn = p\nknight = n\nking = k\nstartFen = 4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K3 w - - 0 1\n\
                    promotionPieceTypes = n\n\n[child:base]\n# a letter already in use removes the earlier type\n\
                    customPiece1 = n:fhN\nknight = -\n";
        let rs = resolve("t.ini", text).unwrap();
        let child = rs[1].1.as_ref().unwrap();
        assert_eq!(child.letter("knight"), None);
        assert_eq!(child.letter("customPiece1"), Some('n'));
        // FSF drops a removed type from the promotion types.
        assert!(child.val("promotionPieceTypesWhite").types().is_empty());
        assert_eq!(child.val("startFen").text(), rs[0].1.as_ref().unwrap().val("startFen").text());
        let out = import("t.ini", text).unwrap();
        let toml = out.sections[0].outcome.as_ref().unwrap();
        assert!(toml.contains("promotes_to = \"n\""), "{toml}");
        // The child's pawns must promote and have nothing to promote to: kept out of the zone.
        let toml = out.sections[1].outcome.as_ref().unwrap();
        assert!(toml.contains("promotes_to = \"-\""), "{toml}");
    }

    #[test]
    fn refusals_name_file_line_and_key() {
        let text = "[arrows:chess]\nwallingRule = edge\n\n[xq:xiangqi]\n\n[fine:chess]\n";
        let out = import("variants.ini", text).unwrap();
        let Err(r) = &out.sections[0].outcome else { panic!() };
        assert_eq!(
            r[0].message,
            "variants.ini:2: [arrows] wallingRule = edge: walls on the board's edge (Atlantis) are not in hoplite's rule kit"
        );
        let Err(r) = &out.sections[1].outcome else { panic!() };
        assert!(
            r[0].message.starts_with("variants.ini:4: [xq] inherited from FSF's built-in 'xiangqi': chasingRule"),
            "{}",
            r[0].message
        );
        assert!(out.sections[2].outcome.is_ok());
        assert_eq!(out.summary(), "3 sections: 1 converted, 2 refused; refusals by key: chasingRule 1, wallingRule 1");
        let dup = import("v.ini", "[chess]\n").unwrap();
        assert!(dup.sections[0].outcome.as_ref().unwrap_err()[0].message.contains("keeps the first definition"));
        assert_eq!(
            import("v.ini", "[x]\nbroken line\n").unwrap_err().to_string(),
            "v.ini:2: 'broken line' is not 'key = value'"
        );
    }

    #[test]
    fn gui_keys_are_skipped() {
        let text = "[gui:chess]\npieceToCharTable = PNBRQ\nvariantTemplate = fairy\npocketSize = 2\n";
        assert!(one(text).outcome.is_ok());
        assert!(one("[typo:chess]\nmaxRnk = 9\n").outcome.is_err());
    }

    /// Sections that need no new key load in today's core with Fairy-Stockfish's perft
    /// (`go perft 2` of fairy-stockfish-largeboards c19b5f6).
    #[test]
    fn todays_keys_load_with_fsf_perft() {
        let builtins = import_builtins();
        for (name, fsf) in [("amazon", 484u64), ("nightrider", 576), ("chess", 400), ("capablanca", 784)] {
            let s = builtins.sections.iter().find(|s| s.name == name).unwrap();
            let toml = s.outcome.as_ref().unwrap();
            let v = hoplite_core::Variant::from_toml(name, toml).unwrap_or_else(|e| panic!("{name}: {e}\n{toml}"));
            let mut pos = hoplite_core::Position::from_setup(&v, &v.start).unwrap();
            assert_eq!(hoplite_core::perft(&mut pos, 2), fsf, "{name}");
        }
    }

    #[test]
    fn every_builtin_resolves_and_the_import_keeps_its_count() {
        let i = import_builtins();
        assert_eq!(i.sections.len(), 121);
        assert!(i.converted() >= 69, "{}", i.summary());
    }
}
