//! `Position`: placement, side to move, rights, counters; FEN in and out; make and unmake
//! with an incremental Zobrist key. Its room: moves (`moves`) and their generation
//! (`movegen`), SAN (`san`), game ends (`outcome`: one place, read by the search and the runner
//! alike) and `perft`.

pub(crate) mod movegen;
pub(crate) mod moves;
pub(crate) mod outcome;
pub(crate) mod perft;
pub(crate) mod san;

use crate::bitboard::{Bitboard, Bits};
use crate::error::{FenError, MoveError, SetupError};
use crate::geometry::MAX_SQUARES;
use crate::position::moves::{Move, MoveKind};
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::variant::setup::Setup;
use crate::variant::{Counting, Variant};
use std::sync::Arc;

/// Board cell: 0 = empty, else `1 + type + 16 * colour`.
#[inline(always)]
pub(crate) fn code(colour: Colour, ty: PieceType) -> u8 {
    (1 + ty.index() + MAX_TYPES * colour.index()) as u8
}
#[inline(always)]
pub(crate) fn code_type(c: u8) -> PieceType {
    PieceType::new((c as usize - 1) % MAX_TYPES)
}
#[inline(always)]
pub(crate) fn code_colour(c: u8) -> Colour {
    Colour::from_index((c as usize - 1) / MAX_TYPES)
}

#[derive(Clone, Copy, Debug)]
struct Undo<B: Bits> {
    mv: Move,
    moved: u8,
    captured: u8,
    castling: u8,
    ep: Bitboard<B>,
    ep_victim: Square,
    halfmove: u32,
    key: u64,
    checks: [u8; 2],
    /// Whether the move left the opponent in check (for n-check and perpetual check).
    checked: bool,
    /// The duck the move took away (its square + 1; 0: none).
    old_wall: u8,
    /// The type the capture put in the mover's hand (+ 1; 0: none).
    to_hand: u8,
    /// What the moved piece and the captured one were before they were promoted (`origin`).
    origins: [u8; 2],
    /// The pieces the move's blast removed: the last this many of `Position::blasts`.
    blasted: u8,
    counting: [u16; 2],
}

/// Where a castling move takes king and rook, and what it needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlePath<B: Bits> {
    pub king: Square,
    pub king_to: Square,
    pub rook: Square,
    pub rook_to: Square,
    /// The squares both pieces cross or land on, their own squares excepted: all must be empty.
    pub empty: Bitboard<B>,
    /// The king's squares from start to destination: none may be attacked.
    pub king_path: Bitboard<B>,
}

/// The pieces a move takes off the board and puts on it (`Position::changes`): a capture,
/// castling or a promotion changes at most two of each, a blast removes up to ten; and the
/// one piece it takes from a hand or puts in one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub removed: PieceList,
    pub added: PieceList,
    pub hand: Option<HandChange>,
}

/// A piece that enters or leaves `colour`'s hand: the `nth` of its type there (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandChange {
    pub colour: Colour,
    pub ty: PieceType,
    pub nth: u8,
    pub added: bool,
}

/// At most ten (colour, type, square) entries: a blast's capturer, victim and neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceList {
    len: u8,
    items: [(Colour, PieceType, Square); 10],
}

impl PieceList {
    fn push(&mut self, item: (Colour, PieceType, Square)) {
        self.items[self.len as usize] = item;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[(Colour, PieceType, Square)] {
        &self.items[..self.len as usize]
    }
}

/// Work on a position of either bitboard width (`Position::in_narrowest`).
pub trait Job {
    type Output;
    fn run<B: Bits>(self, pos: &mut Position<B>) -> Self::Output;
}

#[derive(Clone)]
pub struct Position<B: Bits = u128> {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: [u8; MAX_SQUARES],
    pub(crate) by_colour: [Bitboard<B>; 2],
    pub(crate) by_type: [Bitboard<B>; MAX_TYPES],
    pub(crate) side: Colour,
    /// Rights: bit `2 * colour + (0 king side, 1 queen side)`.
    pub(crate) castling: u8,
    pub(crate) castle_rooks: [Square; 4],
    pub(crate) castle_kings: [Square; 2],
    /// Each right's squares, fixed from the setup on (`castle_squares`).
    castle_paths: [Option<CastlePath<B>>; 4],
    pub(crate) ep: Bitboard<B>,
    pub(crate) ep_victim: Square,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    /// Squares no piece may stand on (`*` in a FEN).
    pub(crate) walls: Bitboard<B>,
    /// n-check: the checks each side has still to give.
    pub(crate) checks: [u8; 2],
    /// Makruk's counting (`[rules] counting`): the limit and the plies counted, both in plies;
    /// a limit of 0 while nobody counts.
    pub(crate) counting: [u16; 2],
    /// Pieces in hand, per colour and type (with `[rules] drops`).
    pub(crate) hand: [[u8; MAX_TYPES]; 2],
    /// Per square, the type + 1 its piece was before it was promoted (0: not promoted), where
    /// the variant marks promotions (`Variant::marks_promoted`).
    pub(crate) origin: [u8; MAX_SQUARES],
    history: Vec<Undo<B>>,
    /// The pieces blasts removed (square, board code), for unmake (`Undo::blasted`).
    blasts: Vec<(Square, u8)>,
}

impl<B: Bits> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {})", self.variant.name, self.to_fen())
    }
}

impl Position {
    /// The variant's start position.
    pub fn startpos(variant: &Arc<Variant>) -> Position {
        Position::build(variant, &variant.start)
    }

    /// Reads a FEN and checks that its position can be played (see `from_setup`).
    pub fn from_fen(variant: &Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let setup = variant.parse_setup(fen)?;
        Position::from_setup(variant, &setup).map_err(|e| FenError { fen: fen.to_string(), kind: e.into() })
    }

    /// The position of a setup, if it can occur in a game: each side that starts with royal
    /// pieces has one and no more than it can ever have, the side not to move is not in check,
    /// and no piece stands where it never can (a pawn on its promotion rank or behind its
    /// start). Castling rights whose king and rook are not in place are dropped, as are
    /// en-passant squares no capture could use.
    pub fn from_setup(variant: &Arc<Variant>, setup: &Setup) -> Result<Position, SetupError> {
        let pos = Position::build(variant, setup);
        pos.check_playable()?;
        Ok(pos)
    }

    fn build(variant: &Arc<Variant>, setup: &Setup) -> Position {
        let mut pos = Position {
            variant: variant.clone(),
            board: [0; MAX_SQUARES],
            by_colour: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; MAX_TYPES],
            side: setup.side,
            castling: 0,
            castle_rooks: [Square::default(); 4],
            castle_kings: [Square::default(); 2],
            castle_paths: [None; 4],
            ep: Bitboard::EMPTY,
            ep_victim: Square::default(),
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            key: 0,
            walls: setup.walls,
            checks: setup.checks.unwrap_or([variant.rules.checks; 2]),
            counting: [0; 2],
            hand: setup.hand,
            origin: [0; MAX_SQUARES],
            history: Vec::with_capacity(256),
            blasts: Vec::new(),
        };
        for p in &setup.pieces {
            pos.put(p.square, p.colour, p.ty);
        }
        if variant.marks_promoted && !variant.rules.drop_loop {
            for &(sq, origin) in &setup.promoted {
                if let Some((colour, ty)) = pos.piece_at(sq) {
                    pos.origin[sq] = origin.unwrap_or_else(|| variant.promoted_from(colour, ty)).index() as u8 + 1;
                }
            }
        }
        let by_letter = (0..4).filter(|r| setup.castling >> r & 1 != 0).map(|r| (r, None));
        let by_file = setup.castling_files.iter().map(|&(c, f)| (2 * c.index(), Some(f)));
        for (right, file) in by_letter.chain(by_file) {
            if let Some((right, king, rook)) = pos.find_castling(Colour::from_index(right / 2), right % 2, file) {
                pos.castling |= 1 << right;
                pos.castle_kings[right / 2] = king;
                pos.castle_rooks[right] = rook;
            }
        }
        for right in 0..4 {
            if pos.castling >> right & 1 != 0 {
                pos.castle_paths[right] = pos.compute_castle_path(right);
            }
        }
        if setup.en_passant.non_empty() {
            pos.set_ep_from_fen(setup.en_passant);
        }
        // As Fairy-Stockfish reads it: with a limit, the halfmove clock counts toward it.
        if let Some(limit) = setup.counting_limit.filter(|&l| l > 0) {
            pos.counting = [limit.min(u16::MAX as u32) as u16, pos.halfmove.min(u16::MAX as u32) as u16];
            pos.halfmove = 0;
        }
        pos.key = pos.compute_key();
        pos
    }

    /// Runs `job` on this position with `u64` bitboards where the board has at most 64 squares
    /// (half the work in every operation on squares), else on this one. The narrow copy is
    /// dropped afterwards: a job leaves the position as it found it (it unmakes its moves).
    pub fn in_narrowest<J: Job>(&mut self, job: J) -> J::Output {
        match self.variant.geometry.fits::<u64>() {
            true => job.run(&mut self.to::<u64>()),
            false => job.run(self),
        }
    }

    /// This position with its bitboards in width `B`, which must hold the board (the narrow
    /// path of the search and perft, `Bits`).
    pub fn to<B: Bits>(&self) -> Position<B> {
        debug_assert!(self.variant.geometry.fits::<B>());
        let path = |p: &CastlePath<u128>| CastlePath {
            king: p.king,
            king_to: p.king_to,
            rook: p.rook,
            rook_to: p.rook_to,
            empty: p.empty.to(),
            king_path: p.king_path.to(),
        };
        let undo = |u: &Undo<u128>| Undo {
            mv: u.mv,
            moved: u.moved,
            captured: u.captured,
            castling: u.castling,
            ep: u.ep.to(),
            ep_victim: u.ep_victim,
            halfmove: u.halfmove,
            key: u.key,
            checks: u.checks,
            checked: u.checked,
            old_wall: u.old_wall,
            to_hand: u.to_hand,
            origins: u.origins,
            blasted: u.blasted,
            counting: u.counting,
        };
        Position {
            variant: self.variant.clone(),
            board: self.board,
            by_colour: self.by_colour.map(Bitboard::to),
            by_type: self.by_type.map(Bitboard::to),
            side: self.side,
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            castle_kings: self.castle_kings,
            castle_paths: self.castle_paths.each_ref().map(|p| p.as_ref().map(path)),
            ep: self.ep.to(),
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            walls: self.walls.to(),
            checks: self.checks,
            counting: self.counting,
            hand: self.hand,
            origin: self.origin,
            history: self.history.iter().map(undo).collect(),
            blasts: self.blasts.clone(),
        }
    }
}

impl<B: Bits> Position<B> {
    fn check_playable(&self) -> Result<(), SetupError> {
        let v = &*self.variant;
        for colour in Colour::BOTH {
            let side = colour.name();
            let start: u32 = v.royal_types.iter().map(|t| v.start_counts[colour][t] as u32).sum();
            let count = self.royals(colour).count();
            if start > 0 && count == 0 {
                let letters = v.royal_types.iter().map(|t| v.letter(colour, t)).collect();
                return Err(SetupError::NoRoyal { side, letters });
            }
            // More royals than at the start only where a piece of this side promotes to one.
            let promoters = v.royal_promoters.iter().any(|t| v.start_counts[colour][t] > 0);
            if !promoters && start > 0 && count > start {
                return Err(SetupError::TooManyRoyals { side, count, most: start });
            }
            if let Some(t) = v.royal_types.iter().find(|&t| self.hand[colour][t] > 0) {
                return Err(SetupError::RoyalInHand { letter: v.letter(colour, t) });
            }
            for t in v.piece_types() {
                if let Some(sq) = (self.pieces(colour, t) & v.unreachable[colour][t].to()).into_iter().next() {
                    return Err(SetupError::Unreachable { letter: v.letter(colour, t), square: v.geometry.name(sq) });
                }
            }
        }
        let them = !self.side;
        if self.royals_attacked(them) {
            return Err(SetupError::OpponentInCheck { side: them.name(), mover: self.side.name() });
        }
        Ok(())
    }

    /// The castling right, king and rook of a right given in a FEN, if they stand where it
    /// needs them: a right by letter (`side` 0 the king side, towards the last file) takes the
    /// first castling rook from that side's search start towards the king; a right by file
    /// (`file`) the rook on that file, on the side of the king it is on.
    fn find_castling(&self, colour: Colour, side: usize, file: Option<usize>) -> Option<(usize, Square, Square)> {
        let v = &*self.variant;
        let c = v.castling.as_ref()?;
        let geo = v.geometry;
        let rank = if colour == Colour::White { c.rank } else { geo.ranks - 1 - c.rank };
        let on_rank = |f: usize| geo.square(f, rank);
        let ours = |s: Square, types: crate::types::TypeSet| {
            let p = self.board[s];
            p != 0 && code_colour(p) == colour && types.contains(code_type(p))
        };
        let king = (0..geo.files).map(on_rank).find(|&s| ours(s, c.kings))?;
        let (side, rook) = match file {
            Some(f) => {
                let rook = on_rank(f);
                (usize::from(f < geo.file(king)), rook)
            }
            None => {
                let start = c.rook_files[side].unwrap_or(if side == 0 { geo.files - 1 } else { 0 });
                let files: Vec<usize> = match side {
                    0 => (geo.file(king) + 1..=start).rev().collect(),
                    _ => (start..geo.file(king)).collect(),
                };
                (side, files.into_iter().map(on_rank).find(|&s| ours(s, c.rooks))?)
            }
        };
        let on_side = if side == 0 { rook > king } else { rook < king };
        (on_side && ours(rook, c.rooks)).then_some((2 * colour.index() + side, king, rook))
    }

    /// Keeps FEN e.p. targets only where a piece that made a multi-step can be their victim:
    /// the mover's piece standing on one of them, or else the one just beyond the last target
    /// along its file (a pawn's double step).
    fn set_ep_from_fen(&mut self, targets: Bitboard<B>) {
        let v = self.variant.clone();
        let geo = v.geometry;
        let mover = !self.side;
        let theirs = self.by_colour[mover];
        // The piece that made the move: on a target square, or just beyond the last one.
        let last = if mover == Colour::White { targets.msb() } else { targets.lsb() };
        let beyond = geo.offset(last, 0, mover.sign()).map_or(Bitboard::EMPTY, Bitboard::square);
        for victim in (targets | beyond) & theirs {
            // As `make` leaves them: a piece of a type with initial moves, which passed over
            // the targets from an initial square it has left (a rook on a named square, or
            // squares no piece passed over, give no right that a capture could take).
            let (_, ty) = self.piece_at(victim).expect("an occupied square");
            let from_squares = v.initial[mover][ty].to::<B>() & !self.occupied();
            let initial_only = |from: Square| {
                let before = (self.occupied() & !Bitboard::square(victim)) | Bitboard::square(from);
                v.initial_moves[mover][ty].targets(&v.rays, from, before).0.has(victim)
                    && !v.moves[mover][ty].targets(&v.rays, from, before).0.has(victim)
            };
            let passed = from_squares
                .into_iter()
                .filter(|&from| initial_only(from))
                .map(|from| geo.between(from, victim).to::<B>())
                .find(|&between| (targets & !Bitboard::square(victim) & !between).is_empty());
            if let Some(passed) = passed {
                // A square the mover leapt over may be occupied; it is no target.
                self.ep = self.capturable_ep(targets & passed & !self.occupied());
                self.ep_victim = victim;
                return;
            }
        }
    }

    /// Those of `targets` that a piece of the side to move could capture onto en passant.
    fn capturable_ep(&self, targets: Bitboard<B>) -> Bitboard<B> {
        let v = &*self.variant;
        let us = self.side;
        let targets = targets & v.rules.en_passant_region[us].to();
        let mut reach = Bitboard::EMPTY;
        for t in v.ep_types {
            for sq in self.by_type[t] & self.by_colour[us] {
                reach |= v.moves[us][t].en_passant[sq].to();
                if v.initial[us][t].has(sq) {
                    reach |= v.initial_moves[us][t].en_passant[sq].to();
                }
            }
        }
        targets & reach
    }

    fn compute_key(&self) -> u64 {
        let z = &self.variant.zobrist;
        let mut k = 0;
        for sq in self.men() {
            let p = self.board[sq];
            k ^= z.piece(code_colour(p), code_type(p), sq);
        }
        for sq in self.walls {
            k ^= z.wall(sq);
        }
        for i in 0..4 {
            if self.castling >> i & 1 != 0 {
                k ^= z.castling[i];
            }
        }
        for sq in self.ep {
            k ^= z.en_passant[sq];
        }
        if self.side == Colour::Black {
            k ^= z.side;
        }
        if self.variant.rules.checks > 0 {
            k ^= z.checks(Colour::White, self.checks[0]) ^ z.checks(Colour::Black, self.checks[1]);
        }
        for colour in Colour::BOTH {
            for t in self.variant.piece_types() {
                for n in 1..=self.hand[colour][t] {
                    k ^= z.hand(colour, t, n);
                }
            }
        }
        k
    }

    pub fn to_fen(&self) -> String {
        let v = &*self.variant;
        let geo = v.geometry;
        let mut s = crate::variant::setup::placement_text(&geo, |sq| {
            if self.walls.has(sq) {
                return Some("*".into());
            }
            let p = self.board[sq];
            (p != 0).then(|| {
                let (c, t) = (code_colour(p), code_type(p));
                // Promoted pieces as Fairy-Stockfish writes them: `+` and the piece a
                // shogi-style promotion came from; with captures to the hand, the letter and
                // `~` after a pawn-style one.
                match self.origin_of(sq) {
                    Some(o) if v.piece(o).promotes == Some(t) => format!("+{}", v.letter(c, o)),
                    Some(_) if v.rules.captures_to_hand => format!("{}~", v.letter(c, t)),
                    _ => v.letter(c, t).to_string(),
                }
            })
        });
        if v.rules.drops {
            s += &crate::variant::setup::hand_text(&self.hand, &v.letters());
        }
        s.push_str(&crate::variant::setup::side_and_rights(self.side, &self.castling_text()));
        // Counting, as Fairy-Stockfish writes it: the limit in place of en passant.
        let counting = self.counting[0] > 0;
        if counting {
            s += &self.counting[0].to_string();
        } else if self.ep.is_empty() {
            s.push('-');
        }
        // Every square passed over is listed (RULES.md), as the reader takes the victim to be
        // the piece just beyond the last target on its file; where that does not hold (a step
        // not straight ahead), the victim's square is listed too, as Fairy-Stockfish reads it.
        let mut printed = self.ep;
        for sq in self.ep {
            printed |= geo.between(sq, self.ep_victim).to();
        }
        if self.ep.non_empty() {
            let mover = !self.side;
            let last = if mover == Colour::White { printed.msb() } else { printed.lsb() };
            if geo.offset(last, 0, mover.sign()) != Some(self.ep_victim) {
                printed.set(self.ep_victim);
            }
        }
        if !counting {
            for sq in printed {
                s += &geo.name(sq);
            }
        }
        if v.rules.checks > 0 {
            s += &format!(" {}+{}", self.checks[0], self.checks[1]);
        }
        let clock = if counting { self.counting[1] as u32 } else { self.halfmove };
        s += &format!(" {} {}", clock, self.fullmove);
        s
    }

    /// The castling field: `KQkq`, or in Chess960 the rooks' files, kingside first.
    fn castling_text(&self) -> String {
        let chess960 = self.variant.castling.as_ref().is_some_and(|c| c.chess960);
        let geo = self.variant.geometry;
        (0..4)
            .filter(|r| self.castling >> r & 1 != 0)
            .map(|r| {
                let white = r < 2;
                let l = match chess960 {
                    true => (b'a' + geo.file(self.castle_rooks[r]) as u8) as char,
                    false => ['k', 'q'][r % 2],
                };
                if white {
                    l.to_ascii_uppercase()
                } else {
                    l
                }
            })
            .collect()
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, colour: Colour, ty: PieceType) {
        self.board[sq] = code(colour, ty);
        self.by_colour[colour].set(sq);
        self.by_type[ty].set(sq);
        self.key ^= self.variant.zobrist.piece(colour, ty, sq);
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square) {
        let p = self.board[sq];
        let (colour, ty) = (code_colour(p), code_type(p));
        self.board[sq] = 0;
        self.by_colour[colour].clear(sq);
        self.by_type[ty].clear(sq);
        self.key ^= self.variant.zobrist.piece(colour, ty, sq);
    }

    /// The squares of castling right `right`, if it is held and both destinations are on the
    /// board.
    #[inline(always)]
    pub(crate) fn castle_path(&self, right: usize) -> Option<&CastlePath<B>> {
        self.castle_paths[right].as_ref()
    }

    /// Castling right `right`'s squares, its king and rook on their squares.
    fn compute_castle_path(&self, right: usize) -> Option<CastlePath<B>> {
        let v = &*self.variant;
        let geo = v.geometry;
        let (king, rook) = (self.castle_kings[right / 2], self.castle_rooks[right]);
        let dir: i32 = if right.is_multiple_of(2) { 1 } else { -1 };
        let c = v.castling.as_ref()?;
        let king_to = match c.king_files[right % 2] {
            Some(f) => geo.square(f, geo.rank(king)),
            None => geo.offset(king, dir * v.piece(code_type(self.board[king])).moves.castling? as i32, 0)?,
        };
        let rook_to = match c.rook_moves {
            Some(n) => geo.offset(rook, -dir * n as i32, 0)?,
            None => geo.offset(king_to, -dir, 0)?,
        };
        let ends = Bitboard::square(king) | Bitboard::square(rook);
        let empty = (geo.span(king, rook) | geo.span(king, king_to) | geo.span(rook, rook_to)).to() & !ends;
        Some(CastlePath { king, king_to, rook, rook_to, empty, king_path: geo.span(king, king_to).to() })
    }

    /// What undoing `mv` (which moves piece code `moved` and takes `captured`) needs back of
    /// the position as it stands before it.
    #[inline(always)]
    fn undo(&self, mv: Move, moved: u8, captured: u8) -> Undo<B> {
        Undo {
            mv,
            moved,
            captured,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            key: self.key,
            checks: self.checks,
            checked: false,
            old_wall: 0,
            to_hand: 0,
            origins: [0; 2],
            blasted: 0,
            counting: self.counting,
        }
    }

    /// The type the piece on `sq` was before it was promoted, if it was.
    #[inline]
    fn origin_of(&self, sq: Square) -> Option<PieceType> {
        (self.origin[sq] != 0).then(|| PieceType::new(self.origin[sq] as usize - 1))
    }

    /// Puts a piece of type `ty` in `colour`'s hand.
    #[inline]
    fn add_to_hand(&mut self, colour: Colour, ty: PieceType) {
        self.hand[colour][ty] += 1;
        self.key ^= self.variant.zobrist.hand(colour, ty, self.hand[colour][ty]);
    }

    /// Takes a piece of type `ty` from `colour`'s hand.
    #[inline]
    fn take_from_hand(&mut self, colour: Colour, ty: PieceType) {
        self.key ^= self.variant.zobrist.hand(colour, ty, self.hand[colour][ty]);
        self.hand[colour][ty] -= 1;
    }

    /// The piece a capture on `sq` puts in the capturer's hand: what it was before it was
    /// promoted, shogi-style or pawn-style.
    fn captured_to_hand(&self, sq: Square) -> PieceType {
        self.origin_of(sq).unwrap_or_else(|| code_type(self.board[sq]))
    }

    /// The pieces `make(m)` will take off the board and put on it, each as (colour, type,
    /// square): what an evaluation kept move by move (a network's accumulators) needs of a
    /// move. Walls and the move's other effects (rights, counters) are not pieces.
    pub fn changes(&self, m: Move) -> Changes {
        let (from, to, kind) = (m.from(), m.to(), m.kind());
        let us = self.side;
        let mut c = Changes::default();
        if m.is_pass() {
            return c;
        }
        if let Some(ty) = m.dropped() {
            c.added.push((us, ty, to));
            c.hand = Some(HandChange { colour: us, ty, nth: self.hand[us][ty], added: false });
            return c;
        }
        let moved = code_type(self.board[from]);
        if kind == MoveKind::Castle {
            let &CastlePath { king, king_to, rook, rook_to, .. } =
                self.castle_path(castling_right(us, m)).expect("generated castling");
            let rook_ty = code_type(self.board[rook]);
            c.removed.push((us, moved, king));
            c.removed.push((us, rook_ty, rook));
            c.added.push((us, moved, king_to));
            c.added.push((us, rook_ty, rook_to));
            return c;
        }
        let capture_sq = if kind == MoveKind::EnPassant { self.ep_victim } else { to };
        let captured = self.board[capture_sq];
        if captured != 0 {
            c.removed.push((code_colour(captured), code_type(captured), capture_sq));
            if self.variant.rules.captures_to_hand {
                let ty = self.captured_to_hand(capture_sq);
                c.hand = Some(HandChange { colour: us, ty, nth: self.hand[us][ty] + 1, added: true });
            }
        }
        c.removed.push((us, moved, from));
        let blasted = self.blasted(m);
        for sq in blasted & !Bitboard::square(from) {
            let p = self.board[sq];
            c.removed.push((code_colour(p), code_type(p), sq));
        }
        if !blasted.has(from) {
            c.added.push((us, m.promoted().unwrap_or(moved), to));
        }
        c
    }

    pub fn make(&mut self, m: Move) {
        if let Some(ty) = m.dropped() {
            return self.make_drop(m, ty);
        }
        let (from, to, kind) = (m.from(), m.to(), m.kind());
        let us = self.side;
        let moved = self.board[from];
        let ty = code_type(moved);
        let capture_sq = if kind == MoveKind::EnPassant { self.ep_victim } else { to };
        let captured = if kind == MoveKind::Castle || m.is_pass() { 0 } else { self.board[capture_sq] };
        self.history.push(self.undo(m, moved, captured));
        let z = &self.variant.zobrist;
        let mut key = self.key;
        for sq in self.ep {
            key ^= z.en_passant[sq];
        }
        self.key = key;
        self.ep = Bitboard::EMPTY;
        if kind == MoveKind::Castle {
            let right = castling_right(us, m);
            let &CastlePath { king, king_to, rook, rook_to, .. } = self.castle_path(right).expect("generated castling");
            let rook_ty = code_type(self.board[rook]);
            self.remove(king);
            self.remove(rook);
            self.put(king_to, us, ty);
            self.put(rook_to, us, rook_ty);
            // Opposite castling: the opponent may not castle on this side any more.
            if self.variant.castling.as_ref().is_some_and(|c| c.opposite) {
                let theirs = right ^ 2;
                if self.castling >> theirs & 1 != 0 {
                    self.castling &= !(1 << theirs);
                    self.key ^= self.variant.zobrist.castling[theirs];
                }
            }
        } else {
            if self.variant.marks_promoted {
                self.follow_promotions(m, captured != 0, capture_sq);
            }
            let blasted = if captured != 0 { self.blasted(m) } else { Bitboard::EMPTY };
            if captured != 0 {
                self.remove(capture_sq);
            }
            self.remove(from);
            self.put(to, us, m.promoted().unwrap_or(ty));
            if blasted.non_empty() {
                self.blast(blasted, from, to);
            }
        }
        if self.castling != 0 {
            let mut rights = self.castling;
            for i in 0..4 {
                let lost = self.castle_rooks[i] == from
                    || self.castle_rooks[i] == to
                    || self.castle_kings[i / 2] == from
                    || self.castle_kings[i / 2] == to;
                if lost && rights >> i & 1 != 0 {
                    rights &= !(1 << i);
                    self.key ^= self.variant.zobrist.castling[i];
                }
            }
            self.castling = rights;
        }
        let v = &*self.variant;
        // A capture, a pawn's move or a promotion cannot be undone.
        let resets = captured != 0 || v.pawn_types.contains(ty) || m.promoted().is_some();
        self.halfmove = if resets { 0 } else { self.halfmove + 1 };
        if us == Colour::Black {
            self.fullmove += 1;
        }
        self.side = !us;
        self.key ^= v.zobrist.side;
        // A move that only an initial (`i`) move makes leaves the squares it passed over for
        // en passant (those an enemy piece could capture onto), its piece the victim.
        if !v.ep_types.is_empty() && kind == MoveKind::Normal && captured == 0 && v.initial[us][ty].has(from) {
            let passed = v.geometry.between(from, to).to() & !self.occupied();
            let before = (self.occupied() & !Bitboard::square(to)) | Bitboard::square(from);
            if passed.non_empty() && !v.moves[us][ty].targets(&v.rays, from, before).0.has(to) {
                let ep = self.capturable_ep(passed);
                if ep.non_empty() {
                    self.ep = ep;
                    self.ep_victim = to;
                    for sq in ep {
                        self.key ^= self.variant.zobrist.en_passant[sq];
                    }
                }
            }
        }
        if let Some(c) = self.variant.rules.counting {
            let captured = (captured != 0).then(|| code_type(captured));
            self.count(c, captured, m.promoted().is_some());
        }
        self.after_move(m, us);
    }

    /// Removes the pieces of `blasted` (`blasted(m)` before the move; the capturer, on `from`
    /// there, now stands on `to`), keeping them for unmake, and the castling rights they held.
    fn blast(&mut self, blasted: Bitboard<B>, from: Square, to: Square) {
        for sq in blasted {
            let sq = if sq == from { to } else { sq };
            self.blasts.push((sq, self.board[sq]));
            self.remove(sq);
            for i in 0..4 {
                let lost = self.castle_rooks[i] == sq || self.castle_kings[i / 2] == sq;
                if lost && self.castling >> i & 1 != 0 {
                    self.castling &= !(1 << i);
                    self.key ^= self.variant.zobrist.castling[i];
                }
            }
        }
        self.history.last_mut().expect("pushed by make").blasted = blasted.count() as u8;
    }

    /// Makruk's counting after a move (the side to move is the next to play), as
    /// Fairy-Stockfish keeps it: a running count goes on; a bare king that has just taken the
    /// last pawn starts its count; and the side to move starts one when none runs (or when a
    /// capture or promotion has just left it bare) and its position is one that counts.
    fn count(&mut self, c: Counting, captured: Option<PieceType>, promoted: bool) {
        if self.counting[0] > 0 {
            self.counting[1] = self.counting[1].saturating_add(1);
        }
        let (stm, mover) = (self.side, !self.side);
        let total = self.men().count() as u16;
        let pieces = |side: Colour| self.by_colour[side].count();
        if !c.asean && captured.is_some_and(|t| c.pawn.contains(t)) && pieces(mover) == 1 {
            let limit = self.count_limit(c, mover);
            if limit > 0 {
                self.counting = [2 * limit, 2 * total - 1];
            }
        }
        if self.counting[0] == 0 || ((captured.is_some() || promoted) && pieces(stm) == 1) {
            let limit = self.count_limit(c, stm);
            if limit > 0 {
                let ply = if c.asean || pieces(stm) > 1 { 0 } else { 2 * total };
                self.counting = [2 * limit, ply];
            }
        }
    }

    /// The moves `side` may count to before the game is drawn, 0 where it may not count
    /// (Fairy-Stockfish's `count_limit`): the board's honour (64) while it has more than its
    /// king, else the pieces' honour by the strongest pieces the other side has left.
    fn count_limit(&self, c: Counting, side: Colour) -> u16 {
        let of = |types: TypeSet, colour: Option<Colour>| {
            let b = types.iter().fold(Bitboard::EMPTY, |b, t| b | self.by_type[t]);
            colour.map_or(b, |colour| b & self.by_colour[colour]).count()
        };
        let (them, pawns) = (Some(!side), of(c.pawn, None));
        let (ours, theirs) = (self.by_colour[side].count(), self.by_colour[!side].count());
        if c.asean {
            return match () {
                _ if pawns > 0 || ours > 1 => 0,
                _ if of(c.rook, them) > 0 => 16,
                _ if of(c.khon, them) > 0 => 44,
                _ if of(c.knight, them) > 0 => 64,
                _ => 0,
            };
        }
        match () {
            _ if pawns > 0 || theirs == 1 => 0,
            _ if ours > 1 => 64,
            _ if of(c.rook, them) > 1 => 8,
            _ if of(c.rook, them) == 1 => 16,
            _ if of(c.khon, them) > 1 => 22,
            _ if of(c.knight, them) > 1 => 32,
            _ if of(c.khon, them) == 1 => 44,
            _ => 64,
        }
    }

    /// Whether a count has run out: the counting side has not been mated in time.
    pub(crate) fn count_ran_out(&self) -> bool {
        self.counting[0] > 0 && self.counting[1] > self.counting[0]
    }

    /// What every move (`us` made it) ends with: the wall it places, and the checks counted.
    #[inline(always)]
    fn after_move(&mut self, m: Move, us: Colour) {
        // The wall placed with the move; a duck leaves its old square.
        if let Some(wall) = m.wall() {
            let z = &self.variant.zobrist;
            if self.variant.rules.walling == Some(crate::variant::Walling::Duck) {
                if let Some(old) = self.walls.into_iter().next() {
                    self.walls.clear(old);
                    self.key ^= z.wall(old);
                    self.history.last_mut().expect("pushed above").old_wall = old.index() as u8 + 1;
                }
            }
            self.walls.set(wall);
            self.key ^= z.wall(wall);
        }
        // n-check counts the checks given; perpetual check looks back at them.
        let rules = &self.variant.rules;
        if rules.checks > 0 || rules.perpetual_check {
            let checked = self.in_check();
            self.history.last_mut().expect("pushed above").checked = checked;
            if checked && rules.checks > 0 && self.checks[us] > 0 {
                let z = &self.variant.zobrist;
                self.key ^= z.checks(us, self.checks[us]) ^ z.checks(us, self.checks[us] - 1);
                self.checks[us] -= 1;
            }
        }
    }

    /// Where promoted pieces are marked: the marks follow the move, and with captures to the
    /// hand the captured piece goes to the mover's hand (before the board changes).
    fn follow_promotions(&mut self, m: Move, captures: bool, capture_sq: Square) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let moved = self.origin[from];
        let mut origins = [moved, 0];
        if captures {
            origins[1] = self.origin[capture_sq];
            if self.variant.rules.captures_to_hand {
                let ty = self.captured_to_hand(capture_sq);
                self.add_to_hand(us, ty);
                self.history.last_mut().expect("pushed by make").to_hand = ty.index() as u8 + 1;
            }
            self.origin[capture_sq] = 0;
        }
        self.history.last_mut().expect("pushed by make").origins = origins;
        self.origin[from] = 0;
        self.origin[to] = match (moved, m.promoted()) {
            (0, Some(_)) if !self.variant.rules.drop_loop => code_type(self.board[from]).index() as u8 + 1,
            _ => moved,
        };
    }

    /// A drop: the piece leaves the hand for an empty square; like a pawn move, it cannot be
    /// undone, so the move rule's count starts again.
    fn make_drop(&mut self, m: Move, ty: PieceType) {
        let us = self.side;
        self.history.push(self.undo(m, 0, 0));
        for sq in self.ep {
            self.key ^= self.variant.zobrist.en_passant[sq];
        }
        self.ep = Bitboard::EMPTY;
        self.take_from_hand(us, ty);
        self.put(m.to(), us, ty);
        self.halfmove = 0;
        if us == Colour::Black {
            self.fullmove += 1;
        }
        self.side = !us;
        self.key ^= self.variant.zobrist.side;
        if let Some(c) = self.variant.rules.counting {
            self.count(c, None, false);
        }
        self.after_move(m, us);
    }

    pub fn unmake(&mut self) {
        let u = self.history.pop().expect("unmake without make");
        let m = u.mv;
        if let Some(wall) = m.wall() {
            self.walls.clear(wall);
            if u.old_wall != 0 {
                self.walls.set(Square::new(u.old_wall as usize - 1));
            }
        }
        if let Some(ty) = m.dropped() {
            self.side = !self.side;
            if self.side == Colour::Black {
                self.fullmove -= 1;
            }
            self.remove(m.to());
            self.hand[self.side][ty] += 1;
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.halfmove = u.halfmove;
            self.key = u.key;
            self.checks = u.checks;
            self.counting = u.counting;
            return;
        }
        let (from, to) = (m.from(), m.to());
        self.side = !self.side;
        let us = self.side;
        if us == Colour::Black {
            self.fullmove -= 1;
        }
        if m.kind() == MoveKind::Castle {
            self.castling = u.castling;
            let &CastlePath { king, king_to, rook, rook_to, .. } =
                self.castle_path(castling_right(us, m)).expect("made castling");
            let rook_ty = code_type(self.board[rook_to]);
            self.remove(king_to);
            self.remove(rook_to);
            self.put(king, us, code_type(u.moved));
            self.put(rook, us, rook_ty);
        } else {
            for _ in 0..u.blasted {
                let (sq, p) = self.blasts.pop().expect("pushed by blast");
                self.put(sq, code_colour(p), code_type(p));
            }
            self.remove(to);
            self.put(from, us, code_type(u.moved));
            let sq = if m.kind() == MoveKind::EnPassant { u.ep_victim } else { to };
            if u.captured != 0 {
                self.put(sq, code_colour(u.captured), code_type(u.captured));
            }
            if self.variant.marks_promoted {
                if u.to_hand != 0 {
                    self.hand[us][u.to_hand as usize - 1] -= 1;
                }
                self.origin[to] = 0;
                self.origin[from] = u.origins[0];
                self.origin[sq] = u.origins[1];
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.checks = u.checks;
        self.counting = u.counting;
    }

    /// Passes the move (for null-move pruning); undone by `unmake_null`.
    pub fn make_null(&mut self) {
        self.history.push(self.undo(Move::NONE, 0, 0));
        for sq in self.ep {
            self.key ^= self.variant.zobrist.en_passant[sq];
        }
        self.ep = Bitboard::EMPTY;
        self.halfmove += 1;
        self.side = !self.side;
        self.key ^= self.variant.zobrist.side;
    }

    pub fn unmake_null(&mut self) {
        let u = self.history.pop().expect("unmake_null without make_null");
        self.side = !self.side;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    // Accessors.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    #[inline(always)]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    #[inline(always)]
    /// The squares that block: every piece, and the walls.
    pub fn occupied(&self) -> Bitboard<B> {
        self.men() | self.walls
    }
    /// The pieces of both sides.
    #[inline(always)]
    pub fn men(&self) -> Bitboard<B> {
        self.by_colour[0] | self.by_colour[1]
    }
    #[inline(always)]
    pub fn colour_bb(&self, colour: Colour) -> Bitboard<B> {
        self.by_colour[colour]
    }
    #[inline(always)]
    pub fn type_bb(&self, ty: PieceType) -> Bitboard<B> {
        self.by_type[ty]
    }
    #[inline(always)]
    pub fn pieces(&self, colour: Colour, ty: PieceType) -> Bitboard<B> {
        self.by_colour[colour] & self.by_type[ty]
    }
    /// The pieces of any of `types`, of both colours.
    #[inline(always)]
    pub fn types_bb(&self, types: TypeSet) -> Bitboard<B> {
        types.iter().fold(Bitboard::EMPTY, |b, t| b | self.by_type[t])
    }
    /// Every pawn-type piece, of both colours.
    #[inline(always)]
    pub fn pawns(&self) -> Bitboard<B> {
        self.types_bb(self.variant.pawn_types)
    }
    /// (colour, type) on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<(Colour, PieceType)> {
        let p = self.board[sq];
        (p != 0).then(|| (code_colour(p), code_type(p)))
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Plies made since this value was created from a FEN.
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    pub fn en_passant(&self) -> Bitboard<B> {
        self.ep
    }
    /// The piece an en-passant capture would take, if any may be taken.
    pub fn en_passant_victim(&self) -> Option<Square> {
        self.ep.non_empty().then_some(self.ep_victim)
    }
    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv).filter(|&m| m != Move::NONE)
    }
    /// The piece captured by the last move, as (colour, type).
    pub fn last_captured(&self) -> Option<(Colour, PieceType)> {
        self.history.last().filter(|u| u.captured != 0).map(|u| (code_colour(u.captured), code_type(u.captured)))
    }
    pub fn royals(&self, colour: Colour) -> Bitboard<B> {
        self.types_bb(self.variant.royal_types) & self.by_colour[colour]
    }
    /// The pieces of type `ty` in `colour`'s hand.
    #[inline(always)]
    pub fn in_hand(&self, colour: Colour, ty: PieceType) -> u8 {
        self.hand[colour][ty]
    }

    /// Whether either side has a piece in hand.
    pub fn holds_any(&self) -> bool {
        self.hand.iter().flatten().any(|&n| n > 0)
    }

    /// How many plies back a repetition may be found: to the last capture or pawn move, or
    /// where captures fill the hands (whose drops reset the move rule's count but may be
    /// undone by a capture) to the start of the history.
    fn repetition_window(&self) -> usize {
        let n = self.history.len();
        match self.variant.rules.captures_to_hand {
            // Not past a null move of the search, after which nothing repeats.
            true => self.history.iter().rev().position(|u| u.mv == Move::NONE).unwrap_or(n),
            false => (self.halfmove as usize).min(n),
        }
    }

    /// How often the current position occurred before (same side, rights, e.p. and hands),
    /// counting back only as far as `repetition_window`.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let back = self.repetition_window();
        (2..=back).step_by(2).filter(|&i| self.history[n - i].key == self.key).count()
    }
    /// For the last earlier occurrence of this position (same side, rights and e.p.), whether
    /// each move since left the opponent in check, the last move first (so the side not to
    /// move made the even ones). Empty if it did not occur before since the last capture or
    /// pawn move.
    pub fn repetition_cycle(&self) -> Vec<bool> {
        let n = self.history.len();
        let back = self.repetition_window();
        match (2..=back).step_by(2).find(|&i| self.history[n - i].key == self.key) {
            Some(i) => self.history[n - i..].iter().rev().map(|u| u.checked).collect(),
            None => Vec::new(),
        }
    }
    /// The moves made, the last first.
    pub(crate) fn recent_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().rev().map(|u| u.mv)
    }

    /// Drops the move history (keeps the position); bounds memory in long games.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The type of the piece `m` moves or drops.
    #[inline(always)]
    pub fn moved_type(&self, m: Move) -> Option<PieceType> {
        m.dropped().or_else(|| self.piece_at(m.from()).map(|(_, t)| t))
    }

    /// Whether `m` captures (castling never does).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            MoveKind::Normal => self.board[m.to()] != 0 && !m.is_pass(),
        }
    }

    /// Whether `m` neither captures nor promotes (what history and killers learn from).
    #[inline(always)]
    pub fn is_quiet(&self, m: Move) -> bool {
        !self.is_capture(m) && m.promoted().is_none()
    }

    /// The move in UCI notation: from, to, promotion letter (lower case) or `+`; castling as
    /// the king's move, or as the king taking its rook in Chess960 and where the king's move
    /// is one step, which a plain king move could also be (as Fairy-Stockfish writes it).
    pub fn move_to_uci(&self, m: Move) -> String {
        let geo = self.variant.geometry;
        let one_step = geo.file(m.from()).abs_diff(geo.file(m.to())) <= 1;
        match self.castle_rook(m) {
            Some(rook) if one_step || self.variant.castling.as_ref().is_some_and(|c| c.chess960) => {
                geo.name(m.from()) + &geo.name(rook)
            }
            _ => self.variant.move_to_uci(m),
        }
    }

    /// The rook a castling move of the side to move goes with.
    pub fn castle_rook(&self, m: Move) -> Option<Square> {
        (m.kind() == MoveKind::Castle).then(|| self.castle_rooks[castling_right(self.side, m)])
    }

    /// Finds the legal move written in UCI notation, as `move_to_uci` writes it.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_to_uci(m) == text)
            .ok_or_else(|| MoveError::Illegal { text: text.to_string(), fen: self.to_fen() })
    }
}

/// The castling right a castling move of `colour` uses: `2 * colour`, plus one towards the a-file.
#[inline(always)]
pub(crate) fn castling_right(colour: Colour, m: Move) -> usize {
    2 * colour.index() + usize::from(m.queen_side())
}
