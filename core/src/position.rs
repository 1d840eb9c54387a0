//! `Position`: placement, side to move, rights, counters; FEN in and out; make and unmake
//! with an incremental Zobrist key.

use crate::bitboard::Bitboard;
use crate::error::{FenError, MoveError, SetupError};
use crate::moves::{Move, MoveKind};
use crate::setup::Setup;
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::variant::Variant;
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
struct Undo {
    mv: Move,
    moved: u8,
    captured: u8,
    castling: u8,
    ep: Bitboard,
    ep_victim: Square,
    halfmove: u32,
    key: u64,
}

#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: [u8; 128],
    pub(crate) by_colour: [Bitboard; 2],
    pub(crate) by_type: [Bitboard; MAX_TYPES],
    pub(crate) side: Colour,
    /// Rights: bit `2 * colour + (0 king side, 1 queen side)`.
    pub(crate) castling: u8,
    pub(crate) castle_rooks: [Square; 4],
    pub(crate) castle_kings: [Square; 2],
    pub(crate) ep: Bitboard,
    pub(crate) ep_victim: Square,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    history: Vec<Undo>,
}

impl std::fmt::Debug for Position {
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
            board: [0; 128],
            by_colour: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; MAX_TYPES],
            side: setup.side,
            castling: 0,
            castle_rooks: [Square::default(); 4],
            castle_kings: [Square::default(); 2],
            ep: Bitboard::EMPTY,
            ep_victim: Square::default(),
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            key: 0,
            history: Vec::with_capacity(256),
        };
        for p in &setup.pieces {
            pos.put(p.square, p.colour, p.ty);
        }
        for right in (0..4).filter(|r| setup.castling >> r & 1 != 0) {
            if let Some((king, rook)) = pos.find_castling(Colour::from_index(right / 2), right % 2) {
                pos.castling |= 1 << right;
                pos.castle_kings[right / 2] = king;
                pos.castle_rooks[right] = rook;
            }
        }
        if setup.en_passant.non_empty() {
            pos.set_ep_from_fen(setup.en_passant);
        }
        pos.key = pos.compute_key();
        pos
    }

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
            for t in v.piece_types() {
                if let Some(sq) = (self.pieces(colour, t) & v.unreachable[colour][t]).into_iter().next() {
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

    /// The castling king and rook for a right, if they stand where the right needs them.
    fn find_castling(&self, colour: Colour, side: usize) -> Option<(Square, Square)> {
        let v = &*self.variant;
        let c = v.castling.as_ref()?;
        let geo = v.geometry;
        let rank = if colour == Colour::White { 0 } else { geo.ranks - 1 };
        let king = (0..geo.files).map(|f| geo.square(f, rank)).find(|&s| {
            let p = self.board[s];
            p != 0 && code_colour(p) == colour && v.piece(code_type(p)).moves.castling.is_some()
        })?;
        let rook_code = code(colour, c.rook);
        let mut files: Vec<usize> = (0..geo.files).collect();
        if side == 0 {
            files.reverse();
        }
        let rook = files.into_iter().map(|f| geo.square(f, rank)).find(|&s| self.board[s] == rook_code)?;
        let on_side = if side == 0 { rook > king } else { rook < king };
        on_side.then_some((king, rook))
    }

    /// Keeps FEN e.p. targets only where a pawn that made a multi-step stands beyond them.
    fn set_ep_from_fen(&mut self, targets: Bitboard) {
        let geo = self.variant.geometry;
        let mover = !self.side;
        let last = if mover == Colour::White { targets.msb() } else { targets.lsb() };
        let Some(victim) = geo.offset(last, 0, mover.sign()) else {
            return;
        };
        let p = self.board[victim];
        let one_file = targets.into_iter().all(|s| geo.file(s) == geo.file(victim));
        if p == 0 || code_colour(p) != mover || !self.variant.ep_types.contains(code_type(p)) || !one_file {
            return;
        }
        // A square the mover leapt over may be occupied; it is no target.
        self.ep = self.capturable_ep(targets & !self.occupied());
        self.ep_victim = victim;
    }

    /// Those of `targets` that a piece of the side to move could capture onto en passant.
    fn capturable_ep(&self, targets: Bitboard) -> Bitboard {
        let v = &*self.variant;
        let us = self.side;
        let mut reach = Bitboard::EMPTY;
        for t in v.ep_types {
            for sq in self.by_type[t] & self.by_colour[us] {
                reach |= v.moves[us][t].en_passant[sq];
                if v.initial[us][t].has(sq) {
                    reach |= v.initial_moves[us][t].en_passant[sq];
                }
            }
        }
        targets & reach
    }

    fn compute_key(&self) -> u64 {
        let z = &self.variant.zobrist;
        let mut k = 0;
        for sq in self.occupied() {
            let p = self.board[sq];
            k ^= z.piece(code_colour(p), code_type(p), sq);
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
        k
    }

    pub fn to_fen(&self) -> String {
        let v = &*self.variant;
        let geo = v.geometry;
        let mut s = crate::setup::placement_text(&geo, |sq| {
            let p = self.board[sq];
            (p != 0).then(|| v.letter(code_colour(p), code_type(p)))
        });
        s.push_str(&crate::setup::side_and_castling(self.side, self.castling));
        if self.ep.is_empty() {
            s.push('-');
        }
        // The reader finds the victim one square beyond the last target, so the squares from
        // a capturable target up to the victim are printed too (`h3h4` after h2-h5 when only
        // h3 can be taken on; `h3` alone would name a pawn on h4).
        let mut printed = self.ep;
        for sq in self.ep {
            printed |= self.passed_squares(sq, self.ep_victim);
        }
        for sq in printed {
            s += &geo.name(sq);
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
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

    /// (king, king destination, rook, rook destination) of castling right `right`, if both
    /// destinations are on the board.
    pub(crate) fn castle_squares(&self, right: usize, king_ty: PieceType) -> Option<(Square, Square, Square, Square)> {
        let v = &*self.variant;
        let geo = v.geometry;
        let king = self.castle_kings[right / 2];
        let rook = self.castle_rooks[right];
        let dir: i32 = if rook > king { 1 } else { -1 };
        let steps = v.piece(king_ty).moves.castling? as i32;
        let king_to = geo.offset(king, dir * steps, 0)?;
        let rook_to = match v.castling.as_ref()?.rook_moves {
            Some(n) => geo.offset(rook, -dir * n as i32, 0)?,
            None => geo.offset(king_to, -dir, 0)?,
        };
        Some((king, king_to, rook, rook_to))
    }

    pub fn make(&mut self, m: Move) {
        let (from, to, kind) = (m.from(), m.to(), m.kind());
        let us = self.side;
        let moved = self.board[from];
        let ty = code_type(moved);
        let capture_sq = if kind == MoveKind::EnPassant { self.ep_victim } else { to };
        let captured = if kind == MoveKind::Castle { 0 } else { self.board[capture_sq] };
        self.history.push(Undo {
            mv: m,
            moved,
            captured,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            key: self.key,
        });
        let z = &self.variant.zobrist;
        let mut key = self.key;
        for sq in self.ep {
            key ^= z.en_passant[sq];
        }
        self.key = key;
        self.ep = Bitboard::EMPTY;
        if kind == MoveKind::Castle {
            let right = castling_right(us, from, to);
            let (king, king_to, rook, rook_to) = self.castle_squares(right, ty).expect("generated castling");
            let rook_ty = code_type(self.board[rook]);
            self.remove(king);
            self.remove(rook);
            self.put(king_to, us, ty);
            self.put(rook_to, us, rook_ty);
        } else {
            if captured != 0 {
                self.remove(capture_sq);
            }
            self.remove(from);
            self.put(to, us, m.promoted().unwrap_or(ty));
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
        self.halfmove = if captured != 0 || v.pawn_types.contains(ty) { 0 } else { self.halfmove + 1 };
        if us == Colour::Black {
            self.fullmove += 1;
        }
        self.side = !us;
        self.key ^= v.zobrist.side;
        // E.p. targets only from a step straight forward: the FEN names the victim as the
        // piece one square beyond the last target, so that is all it can describe.
        let geo = v.geometry;
        let forward = geo.file(from) == geo.file(to) && (geo.rank(to) > geo.rank(from)) == (us == Colour::White);
        if v.ep_types.contains(ty) && kind == MoveKind::Normal && captured == 0 && forward {
            let passed = self.passed_squares(from, to) & !self.occupied();
            if passed.non_empty() {
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
    }

    /// Squares strictly between two squares on one file, rank or diagonal.
    fn passed_squares(&self, from: Square, to: Square) -> Bitboard {
        let geo = self.variant.geometry;
        let (df, dr) = (geo.file(to) as i32 - geo.file(from) as i32, geo.rank(to) as i32 - geo.rank(from) as i32);
        let n = df.abs().max(dr.abs());
        if n < 2 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return Bitboard::EMPTY;
        }
        (1..n).map(|k| geo.offset(from, df.signum() * k, dr.signum() * k).unwrap()).collect()
    }

    pub fn unmake(&mut self) {
        let u = self.history.pop().expect("unmake without make");
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        self.side = !self.side;
        let us = self.side;
        if us == Colour::Black {
            self.fullmove -= 1;
        }
        if m.kind() == MoveKind::Castle {
            let right = castling_right(us, from, to);
            self.castling = u.castling;
            let (king, king_to, rook, rook_to) = self.castle_squares(right, code_type(u.moved)).expect("made castling");
            let rook_ty = code_type(self.board[rook_to]);
            self.remove(king_to);
            self.remove(rook_to);
            self.put(king, us, code_type(u.moved));
            self.put(rook, us, rook_ty);
        } else {
            self.remove(to);
            self.put(from, us, code_type(u.moved));
            if u.captured != 0 {
                let sq = if m.kind() == MoveKind::EnPassant { u.ep_victim } else { to };
                self.put(sq, code_colour(u.captured), code_type(u.captured));
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    /// Passes the move (for null-move pruning); undone by `unmake_null`.
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NONE,
            moved: 0,
            captured: 0,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            key: self.key,
        });
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
    pub fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1]
    }
    #[inline(always)]
    pub fn colour_bb(&self, colour: Colour) -> Bitboard {
        self.by_colour[colour]
    }
    #[inline(always)]
    pub fn type_bb(&self, ty: PieceType) -> Bitboard {
        self.by_type[ty]
    }
    #[inline(always)]
    pub fn pieces(&self, colour: Colour, ty: PieceType) -> Bitboard {
        self.by_colour[colour] & self.by_type[ty]
    }
    /// The pieces of any of `types`, of both colours.
    #[inline(always)]
    pub fn types_bb(&self, types: TypeSet) -> Bitboard {
        types.iter().fold(Bitboard::EMPTY, |b, t| b | self.by_type[t])
    }
    /// Every pawn-type piece, of both colours.
    #[inline(always)]
    pub fn pawns(&self) -> Bitboard {
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
    pub fn en_passant(&self) -> Bitboard {
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
    pub fn royals(&self, colour: Colour) -> Bitboard {
        self.types_bb(self.variant.royal_types) & self.by_colour[colour]
    }
    /// How often the current position occurred before (same side, rights and e.p.), counting
    /// back only to the last capture or pawn move.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let back = (self.halfmove as usize).min(n);
        (2..=back).step_by(2).filter(|&i| self.history[n - i].key == self.key).count()
    }
    /// Drops the move history (keeps the position); bounds memory in long games.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Whether `m` captures (castling never does).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castle => false,
            MoveKind::Normal => self.board[m.to()] != 0,
        }
    }

    /// The move in UCI notation: from, to, promotion letter (lower case).
    pub fn move_to_uci(&self, m: Move) -> String {
        self.variant.move_to_uci(m)
    }

    /// Finds the legal move written in UCI notation: from, to, and a promotion's lower-case
    /// letter.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let illegal = || MoveError::Illegal { text: text.to_string(), fen: self.to_fen() };
        let geo = self.variant.geometry;
        let (from, used) = geo.parse_prefix(text).ok_or_else(illegal)?;
        let (to, more) = geo.parse_prefix(&text[used..]).ok_or_else(illegal)?;
        let promotion = match &text[used + more..] {
            "" => None,
            l => {
                let mut chars = l.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_lowercase() => Some(self.variant.piece_type(c).ok_or_else(illegal)?),
                    _ => return Err(illegal()),
                }
            }
        };
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.into_iter().find(|m| m.from() == from && m.to() == to && m.promoted() == promotion).ok_or_else(illegal)
    }
}

/// The castling right a castling move of `colour` uses: `2 * colour`, plus one towards the a-file.
#[inline(always)]
pub(crate) fn castling_right(colour: Colour, from: Square, to: Square) -> usize {
    2 * colour.index() + usize::from(to < from)
}
