//! Standard algebraic notation with the variant's letters: piece letter (none for the pawn,
//! letter `p`), disambiguation, `x`, destination, `=` promotion, `+` or `#`; castling `O-O` (towards
//! the h side) and `O-O-O`.

use crate::error::MoveError;
use crate::position::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::Square;

impl Position {
    /// SAN without the check suffix; a wall placed with the move follows a comma
    /// (Fairy-Stockfish's `e4,e5`).
    fn san_body(&self, m: Move, legal: &[Move]) -> String {
        let mut s = self.san_move(m, legal);
        if let Some(wall) = m.wall() {
            s = s + "," + &self.variant.geometry.name(wall);
        }
        s
    }

    fn san_move(&self, m: Move, legal: &[Move]) -> String {
        let v = &*self.variant;
        let geo = v.geometry;
        if m.kind() == MoveKind::Castle {
            return if m.queen_side() { "O-O-O".into() } else { "O-O".into() };
        }
        if let Some(t) = m.dropped() {
            return format!("{}@{}", v.piece(t).letter.to_ascii_uppercase(), geo.name(m.to()));
        }
        let (_, ty) = self.piece_at(m.from()).expect("a piece moves");
        let capture = self.is_capture(m);
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|&&o| {
                // A rival makes the same kind of move (promoting alike), as Fairy-Stockfish
                // counts them: `Bxf4=H` where only one bishop can promote there.
                o.to() == m.to()
                    && !o.is_drop()
                    && o.promoted() == m.promoted()
                    && o.is_plus() == m.is_plus()
                    && o.from() != m.from()
                    && o.kind() != MoveKind::Castle
                    && self.piece_at(o.from()).map(|p| p.1) == Some(ty)
            })
            .map(|o| o.from())
            .collect();
        let name = geo.name(m.from());
        let file_unique = rivals.iter().all(|&r| geo.file(r) != geo.file(m.from()));
        let rank_unique = rivals.iter().all(|&r| geo.rank(r) != geo.rank(m.from()));
        let mut s = String::new();
        let piece = v.piece(ty);
        if piece.pawn && piece.letter == 'p' {
            // The pawn goes without a letter (as in PGN and Fairy-Stockfish; other pawn-type
            // pieces such as hoplites keep theirs); captures, and moves another pawn could make,
            // name the file.
            if capture || !rivals.is_empty() {
                s.push_str(if file_unique { &name[..1] } else { &name });
            }
        } else {
            s.push(piece.letter.to_ascii_uppercase());
            if !rivals.is_empty() {
                if file_unique {
                    s.push_str(&name[..1]);
                } else if rank_unique {
                    s.push_str(&name[1..]);
                } else {
                    s.push_str(&name);
                }
            }
        }
        if capture {
            s.push('x');
        }
        s += &geo.name(m.to());
        if let Some(p) = m.promoted() {
            s.push('=');
            s.push(v.piece(p).letter.to_ascii_uppercase());
        }
        s
    }

    /// The move in SAN, `m` being legal here.
    pub fn to_san(&mut self, m: Move) -> String {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let mut s = self.san_body(m, &legal);
        self.make(m);
        if self.in_check() {
            let mut replies = Vec::new();
            self.legal_moves(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        self.unmake();
        s
    }

    /// Finds the legal move written in SAN (check marks and annotations are ignored).
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let body = text.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
        let body = if body.starts_with('O') { body } else { text.trim_end_matches(['+', '#', '!', '?']).to_string() };
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let found: Vec<Move> = legal.iter().copied().filter(|&m| self.san_body(m, &legal) == body).collect();
        match found.as_slice() {
            [m] => Ok(*m),
            [] => Err(MoveError::Illegal { text: text.to_string(), fen: self.to_fen() }),
            _ => Err(MoveError::Ambiguous { text: text.to_string(), fen: self.to_fen() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Variant};

    fn san_line(variant: &str, fen: Option<&str>, uci: &[&str]) -> Vec<String> {
        let v = Variant::builtin(variant);
        let mut pos = fen.map_or_else(|| Position::startpos(&v), |f| Position::from_fen(&v, f).unwrap());
        uci.iter()
            .map(|u| {
                let m = pos.parse_uci(u).unwrap();
                let s = pos.to_san(m);
                assert_eq!(pos.parse_san(&s), Ok(m), "{s}");
                pos.make(m);
                s
            })
            .collect()
    }

    #[test]
    fn chess_san() {
        assert_eq!(
            san_line("chess", None, &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1"]),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
        );
        assert_eq!(san_line("chess", Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), &["a1a8"]), ["Ra8#"]);
        assert_eq!(san_line("chess", Some("1k6/8/8/8/8/8/4K3/R6R w - - 0 1"), &["a1d1"]), ["Rad1"]);
        assert_eq!(san_line("chess", Some("1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1"), &["a1d1"]), ["Rd1"]);
        assert_eq!(san_line("chess", Some("k7/4P3/8/8/8/8/8/4K3 w - - 0 1"), &["e7e8q"]), ["e8=Q+"]);
    }

    #[test]
    fn variant_letters_and_castling() {
        assert_eq!(san_line("sultan", None, &["f2f5", "d11e9"]), ["f5", "Me9"]);
        assert_eq!(san_line("sultan", Some("r4k4r/11/11/11/11/11/11/11/11/11/R4K4R w KQkq - 0 1"), &["f1j1"]), ["O-O"]);
        // Hoplites step diagonally: two can reach one square, so the file is named.
        assert_eq!(san_line("spartan", None, &["e2e4", "b7c6", "e4e5", "e7f6"]), ["e4", "Hbc6", "e5", "Hef6"]);
        assert_eq!(san_line("great-shatranj", None, &["b1c3"]), ["Nc3"]);
    }
}
