//! The weights hoplite plays a built-in variant with: fitted by `hoplite tune` to its own
//! self-play and kept only where they beat the defaults in a match (data/weights/README.md has
//! the commands and the figures). Weights belong to pieces: a variant that extends a built-in
//! keeps the tuned weights of every piece it leaves as it was, and a piece it adds or changes
//! plays with the defaults derived from it (so the configurations of a balance run differ in
//! their changed pieces only).

use super::{Slot, Weights};
use hoplite_core::{PieceDef, Variant};

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
        let Some(shipped) = v.builtin.as_deref().and_then(hoplite_core::builtin) else {
            return defaults;
        };
        let (name, text) = (shipped.name, shipped.weights);
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
    use crate::eval::linear::{Term, TERMS};

    #[test]
    fn a_tuned_file_may_leave_a_term_out_and_it_plays_its_defaults() {
        for (name, text) in hoplite_core::BUILTINS.iter().map(|b| (b.name, b.weights)) {
            let v = Variant::builtin(name);
            let (tuned, defaults) = (Weights::for_variant(&v), Weights::defaults(&v));
            assert_ne!(tuned, defaults, "{name}");
            // The file without its [threat] and [threat_end] tables.
            let without: String = text
                .split("\n[")
                .filter(|table| !table.starts_with("threat]") && !table.starts_with("threat_end]"))
                .collect::<Vec<_>>()
                .join("\n[");
            let w = Weights::from_toml(&v, name, &without).unwrap();
            for t in v.piece_types() {
                assert_eq!(w.get(Term::Threat, t), defaults.get(Term::Threat, t), "{name}");
                assert_eq!(w.get_end(Term::Threat, t), defaults.get_end(Term::Threat, t), "{name}");
                assert_eq!(w.get(Term::Mobility, t), tuned.get(Term::Mobility, t), "{name}");
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
        for term in TERMS.map(|t| t.term) {
            assert_eq!(w.get(term, q), defaults.get(term, q), "{term:?}");
            assert_eq!(w.get(term, n), tuned.get(term, n), "{term:?}");
        }
        assert_ne!(w.get(Term::Material, n), defaults.get(Term::Material, n), "the horse keeps its tuned value");
        assert_ne!(tuned.get(Term::Material, q), defaults.get(Term::Material, q), "the ferz loses its tuned value");
        let pst = |w: &Weights, t| w.values[w.pst_index(t, 0)];
        assert_eq!((pst(&w, q), pst(&w, n)), (pst(&defaults, q), pst(&tuned, n)));
        let own = "name = \"kr\"\nfiles = 4\nranks = 4\nsetup = \"k3/4/4/K2R w - - 0 1\"\n\
                   [[pieces]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\
                   [[pieces]]\nletter = \"r\"\nbetza = \"R\"\nvalue = 500\n";
        let own = Variant::from_toml("kr.toml", own).unwrap();
        assert_eq!(Weights::for_variant(&own), Weights::defaults(&own), "no built-in behind it");
        let wider = Variant::from_toml(
            "w.toml",
            "extends = \"shatranj\"\nfiles = 10\nsetup = \"rnbkqbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBKQBNRRR w - - 0 1\"\n",
        )
        .unwrap();
        assert_eq!(Weights::for_variant(&wider), Weights::defaults(&wider), "another board: the defaults");
    }
}
