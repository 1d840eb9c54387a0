//! `Setup`: a position as a FEN writes it, read but not yet checked against the variant's
//! rules (as shakmaty separates `Setup` from `Position`). Reading needs only the board's shape
//! and the piece letters, so a variant can read its own setup before its tables exist;
//! `Position::from_setup` checks that the position can be played.

use crate::bitboard::Bitboard;
use crate::error::{FenError, FenErrorKind, PlacementError};
use crate::geometry::Geometry;
use crate::types::{Colour, PieceType, Square, MAX_TYPES};

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub square: Square,
    pub colour: Colour,
    pub ty: PieceType,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    pub pieces: Vec<Placed>,
    /// Wall squares (`*`): no piece of either side, never entered.
    pub walls: Bitboard,
    pub side: Colour,
    /// Castling rights asked for: bit `2 * colour + (0 king side, 1 queen side)`.
    pub castling: u8,
    /// Rights named by their rook's file (`HAha`, Chess960's way): (colour, file).
    pub castling_files: Vec<(Colour, usize)>,
    /// The en-passant field's squares, as written.
    pub en_passant: Bitboard,
    /// The check counters of n-check: checks still to give, White's then Black's (`3+3`).
    pub checks: Option<[u8; 2]>,
    pub halfmove: u32,
    pub fullmove: u32,
    /// Makruk's counting, as Fairy-Stockfish writes it: the limit in plies in place of the
    /// en-passant field, the plies counted in place of the halfmove clock.
    pub counting_limit: Option<u32>,
    /// Pieces in hand, per colour and type (`[Qp]` after the placement).
    pub hand: [[u8; MAX_TYPES]; 2],
    /// Pieces that came by promotion, which a capture to the hand demotes: `+P` with the type
    /// it came from, `Q~` without (a pawn-style promotion's pawn).
    pub promoted: Vec<(Square, Option<PieceType>)>,
}

/// How a FEN names a variant's pieces: each type's lower-case letter, and what `+X` stands for
/// (the type that X's piece becomes by its shogi-style promotion).
#[derive(Clone, Copy)]
pub struct Letters<'a> {
    pub letters: &'a [char],
    pub promoted: &'a [Option<PieceType>],
    /// Castling rights may name their rooks' files (`HAha`), as in Chess960.
    pub castling_files: bool,
}

impl Letters<'_> {
    fn of(&self, c: char) -> Option<PieceType> {
        let l = c.to_ascii_lowercase();
        self.letters.iter().position(|&x| c.is_ascii_alphabetic() && x == l).map(PieceType::new)
    }
}

/// A placement field as read: the pieces, the walls (`*`), the promoted pieces (`Q~`, `+P`).
pub struct Placement {
    pub pieces: Vec<Placed>,
    pub walls: Bitboard,
    pub promoted: Vec<(Square, Option<PieceType>)>,
}

/// Reads a placement field.
pub fn parse_placement(geo: &Geometry, letters: Letters, text: &str) -> Result<Placement, PlacementError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks {
        return Err(PlacementError::Ranks { text: text.into(), found: rows.len(), expected: geo.ranks });
    }
    let mut out = Vec::new();
    let mut walls = Bitboard::EMPTY;
    let mut marked = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(mut c) = chars.next() {
            let not_a_letter = |c: char| PlacementError::NotALetter {
                rank: rank + 1,
                row: row.to_string(),
                letter: c,
                letters: letters.letters.iter().collect(),
            };
            // `+X`: the piece X becomes by a shogi-style promotion.
            let promoted = c == '+';
            if promoted {
                c = chars.next().ok_or(not_a_letter('+'))?;
            }
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
            } else if c == '*' && !promoted {
                if file < geo.files {
                    walls.set(geo.square(file, rank));
                }
                file += 1;
            } else if let Some(t) = letters.of(c) {
                let ty = match promoted {
                    true => letters.promoted[t.index()].ok_or(not_a_letter(c))?,
                    false => t,
                };
                if file < geo.files {
                    let colour = if c.is_ascii_lowercase() { Colour::Black } else { Colour::White };
                    out.push(Placed { square: geo.square(file, rank), colour, ty });
                    let square = geo.square(file, rank);
                    if promoted {
                        marked.push((square, Some(t)));
                    } else if chars.next_if_eq(&'~').is_some() {
                        marked.push((square, None));
                    }
                }
                file += 1;
            } else {
                return Err(not_a_letter(c));
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
    Ok(Placement { pieces: out, walls, promoted: marked })
}

/// Reads a holdings field (the text between `[` and `]`): piece letters, upper case White's,
/// or `-`; a letter that names no piece is returned.
fn parse_hand(letters: Letters, text: &str) -> Result<[[u8; MAX_TYPES]; 2], char> {
    let mut hand = [[0u8; MAX_TYPES]; 2];
    for c in text.chars().filter(|&c| c != '-') {
        let t = letters.of(c).ok_or(c)?;
        let colour = if c.is_ascii_lowercase() { Colour::Black } else { Colour::White };
        hand[colour][t] = hand[colour][t].checked_add(1).ok_or(c)?;
    }
    Ok(hand)
}

/// The holdings field, brackets included: White's pieces, then Black's, each from the last
/// type to the first (as Fairy-Stockfish writes them: `[QRBNPqrbnp]`).
pub fn hand_text(hand: &[[u8; MAX_TYPES]; 2], letters: &[char]) -> String {
    let mut s = String::from("[");
    for colour in Colour::BOTH {
        for (t, &l) in letters.iter().enumerate().rev() {
            let l = if colour == Colour::White { l.to_ascii_uppercase() } else { l };
            s.extend(std::iter::repeat_n(l, hand[colour][t] as usize));
        }
    }
    s + "]"
}

/// The placement field of a board whose squares hold `piece(sq)` (a letter, `+X`, `Q~`).
pub fn placement_text(geo: &Geometry, piece: impl Fn(Square) -> Option<String>) -> String {
    let mut s = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut empty = 0;
        for file in 0..geo.files {
            let Some(l) = piece(geo.square(file, rank)) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                s += &empty.to_string();
                empty = 0;
            }
            s += &l;
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

/// The side-to-move field and a castling field already written (`-` when empty).
pub fn side_and_rights(side: Colour, rights: &str) -> String {
    let side = if side == Colour::White { "w" } else { "b" };
    format!(" {side} {} ", if rights.is_empty() { "-" } else { rights })
}

impl Setup {
    /// The FEN of this setup; `letters` are the variant's lower-case piece letters.
    pub fn to_fen(&self, geo: &Geometry, letters: &[char]) -> String {
        let mut s = placement_text(geo, |sq| {
            if self.walls.has(sq) {
                return Some("*".into());
            }
            self.pieces.iter().find(|p| p.square == sq).map(|p| {
                let case = |l: char| if p.colour == Colour::White { l.to_ascii_uppercase() } else { l };
                match self.promoted.iter().find(|m| m.0 == sq) {
                    Some((_, Some(origin))) => format!("+{}", case(letters[*origin])),
                    Some((_, None)) => format!("{}~", case(letters[p.ty])),
                    None => case(letters[p.ty]).to_string(),
                }
            })
        });
        if self.hand.iter().flatten().any(|&n| n > 0) {
            s += &hand_text(&self.hand, letters);
        }
        let files = self.castling_files.iter().map(|&(c, f)| {
            let l = (b'a' + f as u8) as char;
            if c == Colour::White {
                l.to_ascii_uppercase()
            } else {
                l
            }
        });
        let rights: String = ['K', 'Q', 'k', 'q']
            .iter()
            .enumerate()
            .filter(|(i, _)| self.castling >> i & 1 != 0)
            .map(|(_, c)| *c)
            .chain(files)
            .collect();
        s += &side_and_rights(self.side, &rights);
        match self.counting_limit {
            Some(limit) => s += &limit.to_string(),
            None if self.en_passant.is_empty() => s.push('-'),
            None => {}
        }
        for sq in self.en_passant {
            s += &geo.name(sq);
        }
        if let Some([w, b]) = self.checks {
            s += &format!(" {w}+{b}");
        }
        s + &format!(" {} {}", self.halfmove, self.fullmove)
    }

    /// Reads a FEN: placement, then side, castling, en passant, n-check's counters and the two
    /// clocks, each of which may be left out (`w - - 0 1`), as Fairy-Stockfish reads them: a
    /// number where castling or en passant would be starts the counters, and check counters
    /// may also come after the clocks as Lichess writes them (`+1+0`, checks given: `given`
    /// turns them into checks left, from the variant's number).
    pub fn parse(geo: &Geometry, letters: Letters, fen: &str, checks_to_win: u8) -> Result<Setup, FenError> {
        let err = |kind: FenErrorKind| FenError { fen: fen.to_string(), kind };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(err(FenErrorKind::Empty));
        }
        if fields.len() > 7 {
            return Err(err(FenErrorKind::TooManyFields(fields.len())));
        }
        // Holdings follow the placement in brackets: `...RNBQKBNR[Qp]`.
        let (placement, hand) = match fields[0].split_once('[') {
            Some((placement, rest)) => {
                let holdings = rest.strip_suffix(']').ok_or_else(|| err(FenErrorKind::Holdings(fields[0].into())))?;
                let hand = parse_hand(letters, holdings)
                    .map_err(|letter| err(FenErrorKind::HoldingsLetter { letter, field: holdings.into() }))?;
                (placement, hand)
            }
            None => (fields[0], [[0; MAX_TYPES]; 2]),
        };
        let Placement { pieces, walls, promoted } =
            parse_placement(geo, letters, placement).map_err(|e| err(e.into()))?;
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Colour::White,
            "b" => Colour::Black,
            s => return Err(err(FenErrorKind::SideToMove(s.into()))),
        };
        let mut setup = Setup { pieces, walls, side, fullmove: 1, hand, promoted, ..Default::default() };
        let mut rest = fields.iter().skip(2).copied().peekable();
        let numeric = |f: &str| {
            f.starts_with(|c: char| c.is_ascii_digit() || c == '+') && f.chars().all(|c| c.is_ascii_digit() || c == '+')
        };
        if let Some(rights) = rest.next_if(|f| !numeric(f)) {
            setup
                .read_castling(geo, rights, letters.castling_files)
                .map_err(|letter| err(FenErrorKind::Castling { letter, field: rights.into() }))?;
        }
        let ep_field = rest.next_if(|f| !numeric(f));
        if let Some(ep) = ep_field {
            let mut text = if ep == "-" { "" } else { ep };
            while !text.is_empty() {
                let (sq, used) = geo.parse_prefix(text).ok_or_else(|| err(FenErrorKind::EnPassant(ep.into())))?;
                setup.en_passant.set(sq);
                text = &text[used..];
            }
        }
        let counters = |f: &str| -> Option<[u8; 2]> {
            let (w, b) = f.trim_start_matches('+').split_once('+')?;
            Some([w.parse().ok()?, b.parse().ok()?])
        };
        if let Some(c) = rest.peek().and_then(|f| (!f.starts_with('+')).then(|| counters(f)).flatten()) {
            setup.checks = Some(c);
            rest.next();
        }
        let mut clocks = Vec::new();
        for f in rest {
            match (f.starts_with('+'), counters(f)) {
                // Lichess: checks given, after the clocks.
                (true, Some([w, b])) => {
                    setup.checks = Some([checks_to_win.saturating_sub(w), checks_to_win.saturating_sub(b)])
                }
                _ => clocks.push(f),
            }
        }
        // Three numbers where en passant goes: the first is a counting limit (the variant
        // decides whether it may be).
        if let (None, [limit, _, _]) = (ep_field, clocks.as_slice()) {
            let value = limit.parse().map_err(|_| err(FenErrorKind::CountingLimit(limit.to_string())))?;
            setup.counting_limit = Some(value);
            clocks.remove(0);
        }
        match clocks.as_slice() {
            [] => {}
            [h] | [h, _] => setup.halfmove = h.parse().map_err(|_| err(FenErrorKind::Halfmove(h.to_string())))?,
            _ => return Err(err(FenErrorKind::TooManyFields(fields.len()))),
        }
        if let [_, f] = clocks.as_slice() {
            setup.fullmove = f.parse::<u32>().map_err(|_| err(FenErrorKind::Fullmove(f.to_string())))?.max(1);
        }
        Ok(setup)
    }

    /// Reads a castling field: `KQkq`, rooks' files (`HAha`), or `-`; a bad letter is returned.
    fn read_castling(&mut self, geo: &Geometry, rights: &str, files: bool) -> Result<(), char> {
        if rights == "-" {
            return Ok(());
        }
        for letter in rights.chars() {
            match letter {
                'K' => self.castling |= 1,
                'Q' => self.castling |= 2,
                'k' => self.castling |= 4,
                'q' => self.castling |= 8,
                l if files
                    && l.is_ascii_alphabetic()
                    && ((l.to_ascii_lowercase() as u8 - b'a') as usize) < geo.files =>
                {
                    let colour = if l.is_ascii_uppercase() { Colour::White } else { Colour::Black };
                    self.castling_files.push((colour, (l.to_ascii_lowercase() as u8 - b'a') as usize));
                }
                l => return Err(l),
            }
        }
        Ok(())
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
            walls: self.walls.map(|sq| geo.mirror(sq)).collect(),
            side: !self.side,
            castling: (self.castling >> 2) | ((self.castling & 3) << 2),
            castling_files: self.castling_files.iter().map(|&(c, f)| (!c, f)).collect(),
            en_passant: self.en_passant.map(|sq| geo.mirror(sq)).collect(),
            checks: self.checks.map(|[w, b]| [b, w]),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            counting_limit: self.counting_limit,
            hand: [self.hand[1], self.hand[0]],
            promoted: self.promoted.iter().map(|&(sq, t)| (geo.mirror(sq), t)).collect(),
        }
    }

    /// The armies exchanged: the colour mirror with the same side to move, so that the army
    /// that moved second now moves first. An en-passant square belonged to the other side's
    /// last move and is dropped.
    pub fn swap_armies(&self, geo: &Geometry) -> Setup {
        Setup { side: self.side, en_passant: Bitboard::EMPTY, ..self.colour_mirror(geo) }
    }
}
