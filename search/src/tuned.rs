//! The weights hoplite plays a built-in variant with: fitted by `hoplite tune` to its own
//! self-play and kept only where they beat the defaults in a match (data/weights/README.md has
//! the commands and the figures). Weights belong to pieces: a variant that extends a built-in
//! keeps the tuned weights of every piece it leaves as it was, and a piece it adds or changes
//! plays with the defaults derived from it (so the configurations of a balance run differ in
//! their changed pieces only).

use crate::eval::{Slot, Weights};
use hoplite_core::{PieceDef, Variant};

/// Built-in variant name, its tuned weights file.
const TUNED: &[(&str, &str)] = &[
    ("chess", include_str!("../../data/weights/chess.toml")),
    ("shatranj", include_str!("../../data/weights/shatranj.toml")),
    ("spartan", include_str!("../../data/weights/spartan.toml")),
    ("sultan", include_str!("../../data/weights/sultan.toml")),
];

/// The same piece, as far as its weights go: letter, moves, value and kind.
fn same_piece(a: &PieceDef, b: &PieceDef) -> bool {
    (a.letter, &a.betza, a.value, a.royal, a.pawn) == (b.letter, &b.betza, b.value, b.royal, b.pawn)
}

impl Weights {
    /// The weights to play `v` with when none are given: those of the tuned file of the built-in
    /// it is or extends (under any name) for the pieces `v` has unchanged (its rules, setup or
    /// openings may differ), the defaults derived from `v` for the rest.
    pub fn for_variant(v: &Variant) -> Weights {
        let defaults = Weights::defaults(v);
        let Some((name, text)) = TUNED.iter().find(|(name, _)| Some(*name) == v.builtin.as_deref()) else {
            return defaults;
        };
        let builtin = Variant::builtin(name);
        // A file that does not fit `v` (a letter `v` lacks, square tables of another board):
        // nothing of it applies.
        let Ok(mut w) = Weights::from_toml(v, &format!("data/weights/{name}.toml"), text) else { return defaults };
        let changed: Vec<bool> = v.pieces.iter().map(|p| !builtin.pieces.iter().any(|b| same_piece(b, p))).collect();
        for j in 0..w.len() {
            let piece = match w.slot(j) {
                Slot::Table(_, t) | Slot::TableEnd(_, t) | Slot::Pst(t, _) | Slot::PstEnd(t, _) => Some(t),
                Slot::Side(_) => None,
            };
            if piece.is_some_and(|t| changed[t]) {
                w.values[j] = defaults.values[j];
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{GROUPS, MATERIAL};

    #[test]
    fn every_tuned_file_gives_every_table_of_its_variant() {
        for (name, text) in TUNED {
            let v = Variant::builtin(name);
            assert_ne!(Weights::for_variant(&v), Weights::defaults(&v), "{name}");
            let tables = GROUPS.iter().map(|g| g.to_string()).chain(GROUPS[1..].iter().map(|g| format!("{g}_end")));
            for table in tables.chain(["pst".into(), "pst_end".into(), "side".into()]) {
                assert!(text.contains(&format!("\n[{table}]\n")), "{name}: no [{table}]");
            }
        }
    }

    #[test]
    fn a_changed_piece_plays_with_its_defaults_the_others_keep_theirs() {
        let shatranj = Variant::builtin("shatranj");
        let tuned = Weights::for_variant(&shatranj);
        let rule = Variant::from_toml("r.toml", "extends = \"shatranj\"\n[rules]\nstalemate = \"draw\"\n").unwrap();
        assert_eq!(Weights::for_variant(&rule), tuned);
        // Under a name of its own, a variant of the built-in keeps its weights too.
        let renamed = Variant::from_toml("n.toml", "extends = \"shatranj\"\nname = \"my-shatranj\"\n").unwrap();
        assert_eq!(Weights::for_variant(&renamed), tuned);
        let changed =
            Variant::from_toml("p.toml", "extends = \"shatranj\"\n[[pieces]]\nletter = \"q\"\nbetza = \"WF\"\n")
                .unwrap();
        let (w, defaults) = (Weights::for_variant(&changed), Weights::defaults(&changed));
        let (q, n) = (changed.piece_type('q').unwrap(), changed.piece_type('n').unwrap());
        for (g, group) in GROUPS.iter().enumerate() {
            assert_eq!(w.get(g, q), defaults.get(g, q), "{group}");
            assert_eq!(w.get(g, n), tuned.get(g, n), "{group}");
        }
        assert_ne!(w.get(MATERIAL, n), defaults.get(MATERIAL, n), "the horse keeps its tuned value");
        assert_ne!(tuned.get(MATERIAL, q), defaults.get(MATERIAL, q), "the ferz loses its tuned value");
        let pst = |w: &Weights, t| w.values[w.pst_index(t, 0)];
        assert_eq!((pst(&w, q), pst(&w, n)), (pst(&defaults, q), pst(&tuned, n)));
        let rumi = Variant::builtin("rumi-shatranj");
        assert_eq!(Weights::for_variant(&rumi), Weights::defaults(&rumi), "no tuned file");
        let wider = Variant::from_toml(
            "w.toml",
            "extends = \"shatranj\"\nfiles = 10\nsetup = \"rnbkqbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBKQBNRRR w - - 0 1\"\n",
        )
        .unwrap();
        assert_eq!(Weights::for_variant(&wider), Weights::defaults(&wider), "another board: the defaults");
    }
}
