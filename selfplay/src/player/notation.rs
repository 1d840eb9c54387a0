//! Moves between hoplite's notation and an engine's: castling written as the king's move or as
//! the king taking its rook, xboard's `O-O`, a promotion letter left out where only one piece
//! can be chosen. Whatever the engine writes, the move must be one of the position's legal
//! moves: the core is the arbiter.

use crate::error::PlayerError;
use hoplite_core::{Move, MoveKind, Position};
use hoplite_formats::engines::CastlingNotation;

/// hoplite's move `m` as the engine writes it.
pub fn to_engine(pos: &Position, m: Move, castling: CastlingNotation) -> String {
    match pos.castle_rook(m) {
        Some(rook) if castling == CastlingNotation::KingTakesRook => {
            let geo = pos.variant().geometry;
            geo.name(m.from()) + &geo.name(rook)
        }
        _ => pos.move_to_uci(m),
    }
}

/// The legal move the engine's `text` names.
pub fn from_engine(pos: &Position, text: &str, castling: CastlingNotation) -> Result<Move, PlayerError> {
    let illegal = || PlayerError::IllegalMove { mv: text.to_string() };
    let clean = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let castle =
        |king_side: bool| legal.iter().copied().find(|m| m.kind() == MoveKind::Castle && m.queen_side() != king_side);
    match clean.replace('0', "O").as_str() {
        "O-O" => return castle(true).ok_or_else(illegal),
        "O-O-O" => return castle(false).ok_or_else(illegal),
        _ => {}
    }
    // A drop names its piece in upper case (`Q@f4`), whoever drops it; other moves may come
    // in either case.
    let lower = clean.to_ascii_lowercase();
    if let Ok(m) = pos.parse_uci(clean).or_else(|_| pos.parse_uci(&lower)) {
        return Ok(m);
    }
    // The king takes its own rook (Chess960 style), or a promotion without its letter where
    // only one piece can be chosen.
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let uci = pos.move_to_uci(m);
            match m.kind() {
                MoveKind::Castle if castling == CastlingNotation::KingTakesRook => to_engine(pos, m, castling) == lower,
                _ => m.promoted().is_some() && uci.starts_with(&lower) && uci.len() == lower.len() + 1,
            }
        })
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        _ => Err(illegal()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::Variant;

    fn pos(variant: &str, fen: &str) -> Position {
        Position::from_fen(&Variant::builtin(variant), fen).unwrap()
    }

    #[test]
    fn a_drop_keeps_its_upper_case_letter_for_either_side() {
        let p = pos("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Qq] b - - 0 1");
        let m = from_engine(&p, "Q@f4", CastlingNotation::KingMove).unwrap();
        assert_eq!((m.dropped().is_some(), p.move_to_uci(m)), (true, "Q@f4".to_string()));
        assert_eq!(to_engine(&p, m, CastlingNotation::KingMove), "Q@f4");
    }

    #[test]
    fn castling_both_ways_and_promotions() {
        let p = pos("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, style) in [
            ("e1g1", CastlingNotation::KingMove),
            ("O-O", CastlingNotation::KingMove),
            ("0-0", CastlingNotation::KingMove),
            ("e1h1", CastlingNotation::KingTakesRook),
        ] {
            let m = from_engine(&p, text, style).unwrap();
            assert_eq!((m.kind(), p.move_to_uci(m)), (MoveKind::Castle, "e1g1".to_string()), "{text}");
        }
        let long = from_engine(&p, "e1a1", CastlingNotation::KingTakesRook).unwrap();
        assert_eq!(to_engine(&p, long, CastlingNotation::KingTakesRook), "e1a1");
        assert_eq!(to_engine(&p, long, CastlingNotation::KingMove), "e1c1");
        assert!(from_engine(&p, "e1h1", CastlingNotation::KingMove).is_err(), "a king cannot take its rook");
        // Sultan's Game: the king castles four squares.
        let s = pos("sultan", "r4k4r/11/11/11/11/11/11/11/11/11/R4K4R w KQkq - 0 1");
        assert_eq!(s.move_to_uci(from_engine(&s, "f1k1", CastlingNotation::KingTakesRook).unwrap()), "f1j1");
        // A promotion needs its letter unless one piece only can be chosen (Great Shatranj
        // with nothing lost: the General).
        let c = pos("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(from_engine(&c, "a7a8", CastlingNotation::KingMove).is_err());
        assert_eq!(c.move_to_uci(from_engine(&c, "a7a8N", CastlingNotation::KingMove).unwrap()), "a7a8n");
        let g = pos("great-shatranj", "dnegkmhend/1Ppppppppp/10/10/10/10/PP1PPPPPPP/DNEGKMHEND w - - 0 1");
        assert_eq!(g.move_to_uci(from_engine(&g, "b7a8", CastlingNotation::KingMove).unwrap()), "b7a8g");
        for bad in ["e2e5", "", "resign", "(none)", "0000", "e1g1q"] {
            assert!(from_engine(&p, bad, CastlingNotation::KingMove).is_err(), "{bad}");
        }
    }
}
