//! The search's tunable numbers, one table: each parameter's name (its UCI option and its key
//! in a parameters file), default, range and tuning step. The search reads them by field; a
//! tuner moves them by name within their ranges.

use crate::error::ParamsError;
use hoplite_core::toml_text::{toml_at, Lines};
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// One row of the table: what a tuner and a UCI GUI need to know of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// A perturbation that moves play measurably (SPSA's `c` at its start).
    pub step: i32,
    pub help: &'static str,
}

macro_rules! params {
    ($($field:ident = $default:literal in $min:literal ..= $max:literal step $step:literal: $help:literal;)*) => {
        /// The search's parameters, by field.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(#[doc = $help] pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every parameter, in the order of the struct.
        pub const PARAMS: &[ParamSpec] = &[
            $(ParamSpec { name: stringify!($field), default: $default, min: $min, max: $max, step: $step, help: $help },)*
        ];

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// The value of parameter `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

params! {
    aspiration_delta = 25 in 5..=200 step 5: "Aspiration window half-width around the last score (cp).";
    aspiration_depth = 4 in 1..=10 step 1: "Aspiration windows: the first iteration searched in one.";
    rfp_depth = 7 in 1..=12 step 1: "Reverse futility: the deepest node it applies to.";
    rfp_margin = 80 in 10..=300 step 10: "Reverse futility margin per ply (cp): static eval this far above beta ends the node.";
    nmp_depth = 3 in 1..=8 step 1: "Null move: the shallowest node it applies to.";
    nmp_reduction = 3 in 1..=6 step 1: "Null move: the depth reduction before its depth and eval terms.";
    nmp_depth_divisor = 4 in 2..=8 step 1: "Null move: one more ply of reduction per this many plies of depth.";
    nmp_eval_divisor = 200 in 50..=800 step 25: "Null move: one more ply per this many cp of eval above beta (three at most).";
    nmp_verify_depth = 10 in 4..=20 step 1: "Null move: from this depth (and with three pieces or fewer) a cutoff is checked by a search without one.";
    iir_depth = 4 in 2..=10 step 1: "Internal iterative reduction: nodes without a hash move this deep lose a ply.";
    lmp_base = 3 in 1..=10 step 1: "Late move pruning: quiet moves tried before the rest go, plus depth² (halved when not improving).";
    lmp_depth = 6 in 1..=12 step 1: "Late move, futility and exchange pruning: the deepest node they apply to.";
    futility_base = 100 in 0..=400 step 15: "Futility pruning of quiet moves: margin at depth 0 (cp).";
    futility_margin = 90 in 20..=300 step 10: "Futility pruning of quiet moves: margin per ply (cp).";
    see_quiet_margin = 60 in 10..=300 step 10: "A quiet move losing more than this per ply in exchanges is pruned (cp).";
    see_capture_margin = 120 in 20..=400 step 15: "A losing capture losing more than this per ply is pruned (cp).";
    see_capture_depth = 5 in 1..=12 step 1: "Exchange pruning of losing captures: the deepest node it applies to.";
    delta_margin = 200 in 0..=600 step 25: "Quiescence: a capture is skipped if winning its victim clean leaves the score this far below alpha (cp).";
    lmr_depth = 3 in 3..=8 step 1: "Late move reductions: the shallowest node they apply to (below 3 they have no ply to take).";
    lmr_moves = 2 in 1..=8 step 1: "Late move reductions: the moves searched first without one (one more at principal nodes).";
    lmr_base = 80 in 0..=200 step 10: "Late move reductions: hundredths of a ply before the log term.";
    lmr_divisor = 240 in 100..=500 step 15: "Late move reductions: ln depth · ln move number divided by this in hundredths.";
    lmr_history_divisor = 12000 in 2000..=40000 step 1000: "Late move reductions: one ply less per this much history.";
    history_bonus = 16 in 4..=64 step 2: "History bonus per depth² of a quiet move that refuted the opponent.";
    history_bonus_max = 1600 in 200..=6000 step 100: "History bonus ceiling.";
    time_moves = 25 in 10..=60 step 3: "Clock: the moves the time left is shared over (the moves to the control, when fewer).";
    time_increment = 80 in 0..=100 step 5: "Clock: percent of the increment a move's target adds.";
    time_most = 400 in 150..=800 step 25: "Clock: percent of its target a move may take while unsettled (a third of the clock at most).";
    time_unsettled = 160 in 100..=300 step 10: "Clock: percent of the target time an iteration may start within while the best move changes.";
    time_settled = 60 in 20..=100 step 5: "Clock: the same once the best move held three iterations.";
}

impl SearchParams {
    /// Sets parameter `name`, refusing a name not in the table or a value outside its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let spec = spec(name).ok_or_else(|| format!("'{name}' is not a search parameter"))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(format!("{name}: {value} is outside {}..={}", spec.min, spec.max));
        }
        *self.slot(name).expect("in the table") = value;
        Ok(())
    }

    /// Parameters from a file of `name = value` lines (TOML); those it leaves out keep their
    /// defaults.
    pub fn load(path: &Path) -> Result<SearchParams, ParamsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParamsError::Read { path: file.clone(), message: e.to_string() })?;
        SearchParams::parse(&text, &file)
    }

    /// `load` of text already read; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SearchParams, ParamsError> {
        let table: BTreeMap<Spanned<String>, toml::Value> = toml::from_str(text)
            .map_err(|e| ParamsError::Toml { at: toml_at(file, text, &e), message: e.message().to_string() })?;
        let mut params = SearchParams::default();
        let lines = Lines::new(text);
        for (key, value) in &table {
            let at = format!("{file}:{}", lines.line_of(key.span().start));
            let key = key.get_ref();
            let value = value.as_integer().and_then(|v| i32::try_from(v).ok());
            let Some(v) = value else {
                return Err(ParamsError::Value { at, message: format!("{key}: expected an integer") });
            };
            params.set(key, v).map_err(|message| ParamsError::Value { at, message })?;
        }
        Ok(params)
    }

    /// The parameters as a file `load` reads back: every one, with its range as a comment.
    pub fn to_toml(&self) -> String {
        let mut out =
            String::from("# hoplite search parameters (hoplite uci: ParamsFile; selfplay, match: --params)\n");
        for p in PARAMS {
            out += &format!(
                "{} = {}  # {}..={}, default {}\n",
                p.name,
                self.get(p.name).unwrap(),
                p.min,
                p.max,
                p.default
            );
        }
        out
    }
}

impl ParamSpec {
    /// Whether it plans a move's time from a clock (the `time_` rows), and so does nothing at
    /// a node or depth budget.
    pub fn on_clock(&self) -> bool {
        self.name.starts_with("time_")
    }
}

/// The table's row for `name`.
pub fn spec(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_its_defaults_in_range() {
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max && p.step > 0, "{p:?}");
            assert_eq!(SearchParams::default().get(p.name), Some(p.default));
        }
    }

    #[test]
    fn set_refuses_unknown_names_and_values_out_of_range() {
        let mut p = SearchParams::default();
        p.set("rfp_margin", 120).unwrap();
        assert_eq!(p.rfp_margin, 120);
        assert!(p.set("rfp_margin", 5).unwrap_err().contains("outside 10..=300"));
        assert!(p.set("rfp", 100).unwrap_err().contains("not a search parameter"));
        assert_eq!(p.rfp_margin, 120);
    }

    #[test]
    fn files_round_trip_and_errors_name_the_line() {
        let mut p = SearchParams::default();
        p.set("lmr_divisor", 300).unwrap();
        assert_eq!(SearchParams::parse(&p.to_toml(), "p.toml").unwrap(), p);
        let partial = SearchParams::parse("aspiration_delta = 40\n", "p.toml").unwrap();
        assert_eq!(partial, SearchParams { aspiration_delta: 40, ..SearchParams::default() });
        let e = SearchParams::parse("aspiration_delta = 40\nfutility_base = 9999\n", "p.toml").unwrap_err();
        assert_eq!(e.to_string(), "p.toml:2: futility_base: 9999 is outside 0..=400");
        let e = SearchParams::parse("# x\nnull = 3\n", "p.toml").unwrap_err();
        assert_eq!(e.to_string(), "p.toml:2: 'null' is not a search parameter");
        let e = SearchParams::parse("lmp_base = \"3\"\n", "p.toml").unwrap_err();
        assert_eq!(e.to_string(), "p.toml:1: lmp_base: expected an integer");
    }
}
