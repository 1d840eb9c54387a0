//! Legal move generation. With one royal piece: pins and checks from rays through the king,
//! so that only king moves, e.p. and castling are tested one by one. Otherwise (in check, two
//! Spartan kings, enemy lame captures) every move is tested against the check rule.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::{code_type, Position};
use crate::variant::{BareKing, MAX_TYPES};

/// How moves are checked for legality while they are generated.
// Built once per node on the stack; boxing the pin list would allocate in the hot path.
#[allow(clippy::large_enum_variant)]
enum Legality {
    /// The only royal is not attacked; `pins` holds (pinned square, squares it may go to).
    Fast { king: usize, pinned: Bitboard, pins: [(u8, Bitboard); 16], npins: usize },
    /// Every move is tested.
    Test,
}

impl Position {
    /// Whether `sq` is attacked by side `by`, with occupancy `occ` and only the pieces of `by`
    /// in `mask` counting as attackers.
    #[inline]
    pub fn attacked_by(&self, sq: usize, by: usize, occ: Bitboard, mask: Bitboard) -> bool {
        let v = &*self.variant;
        let a = &v.attackers[by];
        for (t, ms, only) in &a.leapers {
            let mut pcs = self.by_type[*t] & mask;
            if let Some(init) = only {
                pcs &= *init;
            }
            if pcs.is_empty() {
                continue;
            }
            if (ms.capture[sq] & pcs).non_empty() {
                return true;
            }
            for l in ms.lame_leaps(sq) {
                if pcs.has(l.to as usize) && (l.path & occ).is_empty() {
                    return true;
                }
            }
            if !ms.riders.is_empty() && (ms.targets(&v.rays, sq, occ).1 & pcs).non_empty() {
                return true;
            }
        }
        for (dir, reach, types) in &a.riders {
            if let Some(b) = v.rays.first_blocker(*dir, sq, occ) {
                if mask.has(b)
                    && types >> code_type(self.board[b]) & 1 != 0
                    && reach.as_ref().is_none_or(|r| r[sq].has(b))
                {
                    return true;
                }
            }
        }
        false
    }

    /// The pieces of side `by` that attack `sq` when the board holds only `occ`: what a static
    /// exchange evaluation needs, the x-rays behind a capturer appearing as `occ` loses it.
    pub fn attackers_to(&self, sq: usize, by: usize, occ: Bitboard) -> Bitboard {
        let v = &*self.variant;
        let a = &v.attackers[by];
        let own = self.by_colour[by] & occ;
        let mut out = Bitboard::EMPTY;
        for (t, ms, only) in &a.leapers {
            let mut pcs = self.by_type[*t] & own;
            if let Some(init) = only {
                pcs &= *init;
            }
            if pcs.is_empty() {
                continue;
            }
            out |= ms.capture[sq] & pcs;
            for l in ms.lame_leaps(sq) {
                if pcs.has(l.to as usize) && (l.path & occ).is_empty() {
                    out.set(l.to as usize);
                }
            }
            if !ms.riders.is_empty() {
                out |= ms.targets(&v.rays, sq, occ).1 & pcs;
            }
        }
        for (dir, reach, types) in &a.riders {
            if let Some(b) = v.rays.first_blocker(*dir, sq, occ) {
                if own.has(b)
                    && types >> code_type(self.board[b]) & 1 != 0
                    && reach.as_ref().is_none_or(|r| r[sq].has(b))
                {
                    out.set(b);
                }
            }
        }
        out
    }

    /// For each type `ty` in the bit mask `types` (the others empty), the squares from which a
    /// piece of side `by` and type `ty` would attack `sq` when the board holds `occ` (where
    /// such a piece gives check, for `sq` a royal piece's square): the attack tables
    /// `attackers_to` reads, taken for every square rather than the pieces. A ray shared by
    /// several types is traced once.
    pub fn attack_origins_of(&self, sq: usize, by: usize, types: u32, occ: Bitboard) -> [Bitboard; MAX_TYPES] {
        let v = &*self.variant;
        let a = &v.attackers[by];
        let mut out = [Bitboard::EMPTY; MAX_TYPES];
        for (ty, ms, only) in a.leapers.iter().filter(|(t, _, _)| types >> t & 1 != 0) {
            let mut from = ms.capture[sq];
            for l in ms.lame_leaps(sq) {
                if (l.path & occ).is_empty() {
                    from.set(l.to as usize);
                }
            }
            if !ms.riders.is_empty() {
                from |= ms.targets(&v.rays, sq, occ).1;
            }
            out[*ty] |= only.map_or(from, |init| from & init);
        }
        for (dir, reach, riding) in a.riders.iter().filter(|(_, _, riding)| riding & types != 0) {
            let ray = v.rays.attacks(*dir, sq, occ);
            let ray = reach.as_ref().map_or(ray, |r| ray & r[sq]);
            let mut each = riding & types;
            while each != 0 {
                out[each.trailing_zeros() as usize] |= ray;
                each &= each - 1;
            }
        }
        out
    }

    /// Whether the side to move is in check: all its royal pieces attacked (and it has one).
    pub fn in_check(&self) -> bool {
        self.royals_attacked(self.side)
    }

    /// Whether every royal piece of `colour` is attacked (and it has one).
    pub fn royals_attacked(&self, colour: usize) -> bool {
        let royals = self.royals(colour);
        let them = 1 - colour;
        let occ = self.occupied();
        royals.non_empty() && royals.into_iter().all(|r| self.attacked_by(r, them, occ, self.by_colour[them]))
    }

    /// Whether side `colour` has nothing but royal pieces.
    pub fn is_bare(&self, colour: usize) -> bool {
        (self.by_colour[colour] & !self.royals(colour)).is_empty()
    }

    /// A result that a variant rule has already fixed (a bare king), before any move is made.
    /// Returns the winner, or `None` inside for a draw.
    pub fn decided_by_rule(&self) -> Option<Option<usize>> {
        let us = self.side;
        let them = 1 - us;
        match self.variant.bare_king {
            BareKing::None => None,
            BareKing::Immediate => match (self.is_bare(us), self.is_bare(them)) {
                (true, true) => Some(None),
                (true, false) => Some(Some(them)),
                _ => None,
            },
            BareKing::Reply => match (self.is_bare(them), self.is_bare(us)) {
                (true, true) => Some(None),
                (true, false) => Some(Some(us)),
                _ => None,
            },
        }
    }

    /// Whether making `m` leaves the mover out of check (not all its royals attacked).
    pub fn leaves_royal_safe(&self, m: Move) -> bool {
        let us = self.side;
        let them = 1 - us;
        let (from, to) = (m.from(), m.to());
        let from_bb = Bitboard::square(from);
        let to_bb = Bitboard::square(to);
        let mut occ = (self.occupied() & !from_bb) | to_bb;
        let mut mask = self.by_colour[them] & !to_bb;
        let mut royals = self.royals(us);
        match m.kind() {
            MoveKind::EnPassant => {
                let victim = Bitboard::square(self.ep_victim as usize);
                occ &= !victim;
                mask &= !victim;
            }
            MoveKind::Castle => {
                let right = 2 * us + usize::from(to < from);
                let (_, _, rook, rook_to) =
                    self.castle_squares(right, code_type(self.board[from])).expect("generated castling");
                occ = (occ & !Bitboard::square(rook)) | Bitboard::square(rook_to) | to_bb;
            }
            MoveKind::Normal => {}
        }
        if royals.has(from) {
            royals = (royals & !from_bb) | to_bb;
        }
        if m.promoted().is_some_and(|t| self.variant.royal_mask >> t & 1 != 0) {
            royals |= to_bb;
        }
        royals.is_empty() || royals.into_iter().any(|r| !self.attacked_by(r, them, occ, mask))
    }

    /// All legal moves, into `out` (cleared first). A position decided by a variant rule (a
    /// bare king) has none.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal(out, false);
    }

    /// The legal captures and promotions (for quiescence search), into `out`.
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        self.legal(out, true);
    }

    fn legal(&self, out: &mut Vec<Move>, captures_only: bool) {
        out.clear();
        if self.variant.bare_king != BareKing::None && self.decided_by_rule().is_some() {
            return;
        }
        let v = &*self.variant;
        if !v.opening_moves.is_empty() {
            let forced = self.opening_moves(out);
            if captures_only {
                // Opening moves are quiet; forced ones leave no capture.
                out.clear();
            }
            if forced {
                return;
            }
        }
        let us = self.side;
        let them = 1 - us;
        let royals = self.royals(us);
        let occ = self.occupied();
        let legality = if royals.count() == 1 && !v.lame_capture[them] {
            let king = royals.lsb();
            if self.attacked_by(king, them, occ, self.by_colour[them]) {
                Legality::Test
            } else {
                self.pins(king)
            }
        } else {
            Legality::Test
        };
        self.generate(out, &legality, captures_only);
    }

    /// Adds the opening moves that apply now; true if they are forced and so the only moves.
    fn opening_moves(&self, out: &mut Vec<Move>) -> bool {
        let v = &*self.variant;
        let us = self.side;
        let own = |sq: usize, t: usize| self.pieces(us, t).has(sq);
        for o in &v.opening_moves {
            let (from, to) = (o.from[us], o.to[us]);
            if o.player_move == self.fullmove
                && own(from, o.piece)
                && !self.occupied().has(to)
                && o.requires.is_none_or(|(t, sq)| own(sq[us], t))
            {
                let m = Move::new(from, to, MoveKind::Normal);
                if self.leaves_royal_safe(m) {
                    out.push(m);
                }
            }
        }
        v.opening_mode == crate::variant::OpeningMode::Forced && !out.is_empty()
    }

    /// Pieces pinned to the king by enemy riders, and the lines they may move along.
    fn pins(&self, king: usize) -> Legality {
        let v = &*self.variant;
        let us = self.side;
        let them = 1 - us;
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        let mut pins = [(0u8, Bitboard::EMPTY); 16];
        let mut npins = 0;
        for (dir, reach, types) in &v.attackers[them].riders {
            let Some(b1) = v.rays.first_blocker(*dir, king, occ) else {
                continue;
            };
            if !self.by_colour[us].has(b1) {
                continue;
            }
            let Some(b2) = v.rays.first_blocker(*dir, b1, occ) else {
                continue;
            };
            if self.by_colour[them].has(b2)
                && types >> code_type(self.board[b2]) & 1 != 0
                && reach.as_ref().is_none_or(|r| r[king].has(b2))
            {
                let line = v.rays.ray(*dir, king) ^ v.rays.ray(*dir, b2);
                if pinned.has(b1) {
                    // Pinned along two lines: it may not move at all.
                    for p in pins[..npins].iter_mut().filter(|p| p.0 as usize == b1) {
                        p.1 &= line;
                    }
                } else if npins < pins.len() {
                    pinned.set(b1);
                    pins[npins] = (b1 as u8, line);
                    npins += 1;
                } else {
                    return Legality::Test;
                }
            }
        }
        Legality::Fast { king, pinned, pins, npins }
    }

    fn generate(&self, out: &mut Vec<Move>, legality: &Legality, captures_only: bool) {
        let v = &*self.variant;
        let us = self.side;
        let them = 1 - us;
        let occ = self.occupied();
        let empty = !occ;
        let theirs = self.by_colour[them];
        let ours = self.by_colour[us];
        let zone = v.promotion_zone[us];
        for (t, piece) in v.pieces.iter().enumerate() {
            let pcs = self.by_type[t] & ours;
            if pcs.is_empty() {
                continue;
            }
            let ms = &v.moves[us][t];
            let ims = &v.initial_moves[us][t];
            let initial = v.initial[us][t];
            let promotes = !piece.promotes_to.is_empty();
            let capturable = if piece.no_same_capture { theirs & !self.by_type[t] } else { theirs };
            // Quiet moves wanted: all, or (for quiescence) only promotions.
            let quiet_ok = match (captures_only, promotes) {
                (false, _) => empty,
                (true, true) => empty & zone,
                (true, false) => Bitboard::EMPTY,
            };
            for from in pcs {
                let (mut quiet, mut capture) = ms.targets(&v.rays, from, occ);
                let mut ep = ms.en_passant[from];
                if initial.has(from) {
                    let (q, c) = ims.targets(&v.rays, from, occ);
                    quiet |= q;
                    capture |= c;
                    ep |= ims.en_passant[from];
                }
                let mut targets = (quiet & quiet_ok) | (capture & capturable);
                ep &= self.ep & empty;
                let test = match legality {
                    Legality::Test => true,
                    Legality::Fast { king, pinned, pins, npins } => {
                        if from == *king {
                            let occ_without = occ ^ Bitboard::square(from);
                            for to in targets {
                                if self.attacked_by(to, them, occ_without, theirs & !Bitboard::square(to)) {
                                    targets.clear(to);
                                }
                            }
                            false
                        } else if pinned.has(from) {
                            // Promoting to a second royal piece can leave the pin line legally.
                            if v.royal_promoters >> t & 1 != 0 {
                                true
                            } else {
                                targets &= pins[..*npins].iter().find(|p| p.0 as usize == from).unwrap().1;
                                false
                            }
                        } else {
                            false
                        }
                    }
                };
                for to in targets {
                    if promotes && zone.has(to) {
                        self.push_promotions(out, from, to, t, test);
                    } else {
                        let m = Move::new(from, to, MoveKind::Normal);
                        if !test || self.leaves_royal_safe(m) {
                            out.push(m);
                        }
                    }
                }
                for to in ep {
                    let m = Move::new(from, to, MoveKind::EnPassant);
                    if self.leaves_royal_safe(m) {
                        if promotes && zone.has(to) {
                            self.push_promotions(out, from, to, t, false);
                        } else {
                            out.push(m);
                        }
                    }
                }
            }
        }
        if !captures_only && self.castling >> (2 * us) & 3 != 0 {
            self.castling_moves(out);
        }
    }

    /// The promotions of a `ty` piece from `from` to `to` that the variant allows now.
    fn push_promotions(&self, out: &mut Vec<Move>, from: usize, to: usize, ty: usize, test: bool) {
        let v = &*self.variant;
        let us = self.side;
        if test && !self.leaves_royal_safe(Move::new(from, to, MoveKind::Normal)) {
            // A promotion to a royal piece can save a position the plain move cannot.
            if !v.pieces[ty].promotes_to.iter().any(|&p| v.royal_mask >> p & 1 != 0) {
                return;
            }
        }
        let dark = v.dark_squares.has(to);
        for &p in &v.pieces[ty].promotes_to {
            let have = self.pieces(us, p);
            if v.lost_only >> p & 1 != 0 && have.count() >= v.start_counts[us][p] as u32 {
                continue;
            }
            if v.distinct_colour >> p & 1 != 0 && have.into_iter().any(|s| v.dark_squares.has(s) == dark) {
                continue;
            }
            let m = Move::promotion(from, to, p);
            if !test || self.leaves_royal_safe(m) {
                out.push(m);
            }
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let them = 1 - us;
        let occ = self.occupied();
        for side in 0..2 {
            let right = 2 * us + side;
            if self.castling >> right & 1 == 0 {
                continue;
            }
            let king_sq = self.castle_kings[us] as usize;
            let Some((king, king_to, rook, rook_to)) = self.castle_squares(right, code_type(self.board[king_sq]))
            else {
                continue;
            };
            let span = |a: usize, b: usize| {
                let (lo, hi) = (a.min(b), a.max(b));
                (lo..=hi).fold(Bitboard::EMPTY, |bb, s| bb | Bitboard::square(s))
            };
            let ends = Bitboard::square(king) | Bitboard::square(rook);
            let must_be_empty = (span(king, rook) | span(king, king_to) | span(rook, rook_to)) & !ends;
            if (must_be_empty & occ).non_empty() {
                continue;
            }
            let theirs = self.by_colour[them];
            if span(king, king_to).into_iter().any(|s| self.attacked_by(s, them, occ, theirs)) {
                continue;
            }
            let m = Move::new(king, king_to, MoveKind::Castle);
            if self.leaves_royal_safe(m) {
                out.push(m);
            }
        }
    }
}
