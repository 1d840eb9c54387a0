//! `Setup`: a position as a FEN writes it, read but not yet checked against the variant's
//! rules (as shakmaty separates `Setup` from `Position`). Reading needs only the board's shape
//! and the piece letters, so a variant can read its own setup before its tables exist;
//! `Position::from_setup` checks that the position can be played.

use crate::bitboard::Bitboard;
use crate::error::{FenError, FenErrorKind, PlacementError};
use crate::geometry::Geometry;
use crate::types::{Colour, PieceType, Square};

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub square: Square,
    pub colour: Colour,
    pub ty: PieceType,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub pieces: Vec<Placed>,
    pub side: Colour,
    /// Castling rights asked for: bit `2 * colour + (0 king side, 1 queen side)`.
    pub castling: u8,
    /// The en-passant field's squares, as written.
    pub en_passant: Bitboard,
    pub halfmove: u32,
    pub fullmove: u32,
}

/// Reads a placement field; `letters` are the variant's lower-case piece letters.
pub fn parse_placement(geo: &Geometry, letters: &[char], text: &str) -> Result<Vec<Placed>, PlacementError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks {
        return Err(PlacementError::Ranks { text: text.into(), found: rows.len(), expected: geo.ranks });
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                    if n > 16 {
                        break;
                    }
                }
                if n == 0 {
                    return Err(PlacementError::EmptyRun { rank: rank + 1, row: row.to_string() });
                }
                file += n;
            } else if let Some(t) = letters.iter().position(|&l| c.is_ascii_alphabetic() && l == c.to_ascii_lowercase())
            {
                if file < geo.files {
                    let colour = if c.is_ascii_lowercase() { Colour::Black } else { Colour::White };
                    out.push(Placed { square: geo.square(file, rank), colour, ty: PieceType::new(t) });
                }
                file += 1;
            } else {
                return Err(PlacementError::NotALetter {
                    rank: rank + 1,
                    row: row.to_string(),
                    letter: c,
                    letters: letters.iter().collect(),
                });
            }
            if file > geo.files {
                break;
            }
        }
        if file != geo.files {
            return Err(PlacementError::Width {
                rank: rank + 1,
                row: row.to_string(),
                found: file,
                expected: geo.files,
            });
        }
    }
    Ok(out)
}

/// The placement field of a board whose squares hold `letter(sq)`.
pub fn placement_text(geo: &Geometry, letter: impl Fn(Square) -> Option<char>) -> String {
    let mut s = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut empty = 0;
        for file in 0..geo.files {
            let Some(l) = letter(geo.square(file, rank)) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                s += &empty.to_string();
                empty = 0;
            }
            s.push(l);
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// The side-to-move and castling fields, with the spaces around them.
/// ` w KQkq ` (the spaces around it included).
pub fn side_and_castling(side: Colour, castling: u8) -> String {
    let mut s = String::from(if side == Colour::White { " w " } else { " b " });
    if castling == 0 {
        s.push('-');
    }
    for (i, c) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
        if castling >> i & 1 != 0 {
            s.push(*c);
        }
    }
    s.push(' ');
    s
}

impl Setup {
    /// The FEN of this setup; `letters` are the variant's lower-case piece letters.
    pub fn to_fen(&self, geo: &Geometry, letters: &[char]) -> String {
        let mut s = placement_text(geo, |sq| {
            self.pieces.iter().find(|p| p.square == sq).map(|p| {
                if p.colour == Colour::White {
                    letters[p.ty].to_ascii_uppercase()
                } else {
                    letters[p.ty]
                }
            })
        });
        s += &side_and_castling(self.side, self.castling);
        if self.en_passant.is_empty() {
            s.push('-');
        }
        for sq in self.en_passant {
            s += &geo.name(sq);
        }
        s + &format!(" {} {}", self.halfmove, self.fullmove)
    }

    /// Reads a FEN: placement, then side, castling, en passant and the two counters, each of
    /// which may be left out (`w - - 0 1`).
    pub fn parse(geo: &Geometry, letters: &[char], fen: &str) -> Result<Setup, FenError> {
        let err = |kind: FenErrorKind| FenError { fen: fen.to_string(), kind };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(err(FenErrorKind::Empty));
        }
        if fields.len() > 6 {
            return Err(err(FenErrorKind::TooManyFields(fields.len())));
        }
        let pieces = parse_placement(geo, letters, fields[0]).map_err(|e| err(e.into()))?;
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Colour::White,
            "b" => Colour::Black,
            s => return Err(err(FenErrorKind::SideToMove(s.into()))),
        };
        let mut castling = 0;
        let rights = fields.get(2).copied().unwrap_or("-");
        if rights != "-" {
            for letter in rights.chars() {
                let bit = match letter {
                    'K' => 0,
                    'Q' => 1,
                    'k' => 2,
                    'q' => 3,
                    _ => return Err(err(FenErrorKind::Castling { letter, field: rights.into() })),
                };
                castling |= 1 << bit;
            }
        }
        let ep = fields.get(3).copied().unwrap_or("-");
        let mut en_passant = Bitboard::EMPTY;
        let mut rest = if ep == "-" { "" } else { ep };
        while !rest.is_empty() {
            let (sq, used) = geo.parse_prefix(rest).ok_or_else(|| err(FenErrorKind::EnPassant(ep.into())))?;
            en_passant.set(sq);
            rest = &rest[used..];
        }
        let halfmove = match fields.get(4) {
            Some(h) => h.parse().map_err(|_| err(FenErrorKind::Halfmove(h.to_string())))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(f) => f.parse::<u32>().map_err(|_| err(FenErrorKind::Fullmove(f.to_string())))?.max(1),
            None => 1,
        };
        Ok(Setup { pieces, side, castling, en_passant, halfmove, fullmove })
    }
}

impl Setup {
    /// The colour mirror: ranks reversed, colours and castling rights exchanged, the other
    /// side to move. Every line of play is the same with the colours renamed, so a perft of
    /// the mirror equals the original's.
    pub fn colour_mirror(&self, geo: &Geometry) -> Setup {
        Setup {
            pieces: self
                .pieces
                .iter()
                .map(|&p| Placed { square: geo.mirror(p.square), colour: !p.colour, ..p })
                .collect(),
            side: !self.side,
            castling: (self.castling >> 2) | ((self.castling & 3) << 2),
            en_passant: self.en_passant.map(|sq| geo.mirror(sq)).collect(),
            ..*self
        }
    }

    /// The armies exchanged: the colour mirror with the same side to move, so that the army
    /// that moved second now moves first. An en-passant square belonged to the other side's
    /// last move and is dropped.
    pub fn swap_armies(&self, geo: &Geometry) -> Setup {
        Setup { side: self.side, en_passant: Bitboard::EMPTY, ..self.colour_mirror(geo) }
    }
}
