//! Material imbalances: a variant's setup with pieces removed, for piece values by
//! play-testing (docs/values.md) and any balance configuration that asks for one.

use hoplite_core::{Colour, PieceType, Placed, Square, Variant};

/// Piece types removed from each side's setup (a type twice for two of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imbalance {
    pub removed: [Vec<PieceType>; 2],
}

/// The letters' piece types; `side` must have each in its setup.
fn types(variant: &Variant, letters: &str, side: Colour) -> Result<Vec<PieceType>, String> {
    letters
        .chars()
        .map(|c| match variant.piece_type(c) {
            Some(t) if variant.start.pieces.iter().any(|p| p.colour == side && p.ty == t) => Ok(t),
            Some(_) => Err(format!("'{c}': {side} has none in the setup")),
            None => Err(format!("'{c}' is not a piece of {}", variant.name)),
        })
        .collect()
}

impl Imbalance {
    /// Reads `WHITE:BLACK`, the letters removed from each side (either may be empty): `b:n`
    /// is White without a bishop against Black without a knight, `pp:` White two pawns down.
    /// Letters alone (`q`) are removed from the side whose setup has them, White if both do.
    pub fn parse(variant: &Variant, spec: &str) -> Result<Imbalance, String> {
        let spec = spec.trim();
        let removed = match spec.split_once(':') {
            Some((w, b)) => [types(variant, w.trim(), Colour::White)?, types(variant, b.trim(), Colour::Black)?],
            None => match types(variant, spec, Colour::White) {
                Ok(t) => [t, vec![]],
                Err(white) => [vec![], types(variant, spec, Colour::Black).map_err(|_| white)?],
            },
        };
        Ok(Imbalance { removed })
    }

    /// Per piece type: the count removed from Black minus the count removed from White (what
    /// White is ahead by).
    pub fn balance_of(&self, ty: PieceType) -> f64 {
        let count = |side: Colour| self.removed[side].iter().filter(|&&t| t == ty).count() as f64;
        count(Colour::Black) - count(Colour::White)
    }

    /// Per piece type: whether White still has two or more of it, minus whether Black has
    /// (the pair's worth counts apart from the pieces': a bishop pair is 2 B + the pair).
    pub fn pair_of(&self, variant: &Variant, ty: PieceType) -> f64 {
        let pair = |side: Colour| {
            let removed = self.removed[side].iter().filter(|&&t| t == ty).count();
            let left = (variant.start_counts[side][ty] as usize).saturating_sub(removed);
            (left >= 2) as u8 as f64
        };
        pair(Colour::White) - pair(Colour::Black)
    }

    /// The setup's FEN without the pieces. Of several of a type, a side gives the one nearest
    /// the a-file (pawns: from the b-file on, the a-pawn last); a rook that castles takes its
    /// castling right with it. A side keeps at least one royal piece.
    pub fn setup(&self, variant: &Variant) -> Result<String, String> {
        let geo = &variant.geometry;
        let mut setup = variant.start.clone();
        for side in Colour::BOTH {
            for &ty in &self.removed[side] {
                let piece = variant.piece(ty);
                let key = |sq: Square| (piece.pawn && geo.file(sq) == 0, geo.file(sq), geo.relative_rank(side, sq));
                let (i, &Placed { square, .. }) = setup
                    .pieces
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.colour == side && p.ty == ty)
                    .min_by_key(|(_, p)| key(p.square))
                    .ok_or_else(|| format!("{side} has no {} left to remove", piece.name))?;
                let royal_of_side = |p: &&Placed| p.colour == side && variant.piece(p.ty).royal;
                if piece.royal && setup.pieces.iter().filter(royal_of_side).count() == 1 {
                    return Err(format!("{side} cannot give its last royal piece"));
                }
                setup.pieces.remove(i);
                if variant.castling.as_ref().is_some_and(|c| c.rooks.contains(ty)) {
                    let king = setup.pieces.iter().find(royal_of_side).map(|p| geo.file(p.square));
                    let queen_side = king.is_some_and(|k| geo.file(square) < k);
                    setup.castling &= !(1 << (2 * side.index() + queen_side as usize));
                }
            }
        }
        Ok(setup.to_fen(geo, &variant.letters()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_leave_by_the_stated_rule() {
        let chess = Variant::builtin("chess");
        let fen = |spec: &str| Imbalance::parse(&chess, spec).and_then(|i| i.setup(&chess));
        assert_eq!(fen("n").unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert_eq!(fen("b:n").unwrap(), "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
        // The rook nearest the a-file, with its castling right.
        assert_eq!(fen(":r").unwrap(), "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
        assert_eq!(fen("rr:").unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w kq - 0 1");
        // Pawns from the b-file on.
        assert_eq!(fen("pp").unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/P2PPPPP/RNBQKBNR w KQkq - 0 1");
        for spec in ["n", "b:n", ":r", "rr:", "pp", "q:rr", "pppppppp:"] {
            let f = fen(spec).unwrap();
            hoplite_core::Position::from_fen(&chess, &f).unwrap_or_else(|e| panic!("{spec}: {e}"));
        }
        let [p, n, b] = ['p', 'n', 'b'].map(|l| chess.piece_type(l).unwrap());
        let bb_nn = Imbalance::parse(&chess, "bb:nn").unwrap();
        assert_eq!((bb_nn.balance_of(b), bb_nn.balance_of(n)), (-2.0, 2.0));
        // White lost its bishop pair, Black its knight pair; a single pawn keeps the pawns' pair.
        assert_eq!((bb_nn.pair_of(&chess, b), bb_nn.pair_of(&chess, n), bb_nn.pair_of(&chess, p)), (-1.0, 1.0, 0.0));
        assert_eq!(Imbalance::parse(&chess, "b:").unwrap().pair_of(&chess, b), -1.0);
        assert!(fen("k").unwrap_err().contains("last royal"));
        assert!(fen("x").unwrap_err().contains("'x' is not a piece of chess"));
        assert!(fen("nnn").unwrap_err().contains("no Knight left"));
    }

    #[test]
    fn each_army_gives_its_own_pieces() {
        let spartan = Variant::builtin("spartan");
        let i = Imbalance::parse(&spartan, "g").unwrap();
        assert!(
            i.removed[Colour::White].is_empty() && i.removed[Colour::Black].len() == 1,
            "the General is a Spartan piece"
        );
        // A Spartan king is not the last one: it may be given.
        let two = Imbalance::parse(&spartan, ":k").unwrap().setup(&spartan).unwrap();
        assert_eq!(two.split('/').next().unwrap().matches('k').count(), 1, "{two}");
        assert!(Imbalance::parse(&spartan, "g:").unwrap_err().contains("White has none"));
    }
}
