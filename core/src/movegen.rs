//! Legal move generation. With one royal piece: pins and checks from rays through the king,
//! so that only king moves, e.p. and castling are tested one by one. Otherwise (in check, two
//! Spartan kings, enemy lame captures) every move is tested against the check rule.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::outcome::GameResult;
use crate::position::{castling_right, code_type, Position};
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::variant::BareKing;
use std::ops::ControlFlow;

/// How moves are checked for legality while they are generated.
// Built once per node on the stack; boxing the pin list would allocate in the hot path.
#[allow(clippy::large_enum_variant)]
enum Legality {
    /// The only royal is not attacked; `pins` holds (pinned square, squares it may go to).
    Fast { king: Square, pinned: Bitboard, pins: [(Square, Bitboard); 16], npins: usize },
    /// Every move is tested.
    Test,
}

/// The attackers an attack walk looks for.
#[derive(Clone, Copy)]
enum Sought {
    /// The pieces standing on these squares.
    Pieces(Bitboard),
    /// Pieces of these types, wherever they would stand.
    Origins(TypeSet),
}

impl Position {
    /// The one walk over side `by`'s attack tables towards `sq`, the board holding `occ`: for
    /// each table entry with `sought` attackers, `visit` gets their types and the squares they
    /// attack `sq` from (a rider's up to the first piece on its line), and may stop the walk.
    /// Inlined, so that each caller's `sought` and visitor fold into its own loop.
    #[inline(always)]
    fn walk_attacks<B>(
        &self,
        sq: Square,
        by: Colour,
        occ: Bitboard,
        sought: Sought,
        mut visit: impl FnMut(TypeSet, Bitboard) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let v = &*self.variant;
        let a = &v.attackers[by];
        for l in &a.leapers {
            let mut within = match sought {
                Sought::Pieces(on) => self.by_type[l.ty] & on,
                Sought::Origins(types) if types.contains(l.ty) => !Bitboard::EMPTY,
                Sought::Origins(_) => continue,
            };
            if let Some(only) = l.only_from {
                within &= only;
            }
            // Most entries have no piece to look for: their tables are not read.
            if within.is_empty() {
                continue;
            }
            let ms = &l.captures;
            let mut from = ms.capture[sq];
            for leap in ms.lame_leaps(sq) {
                if (leap.path & occ).is_empty() {
                    from.set(leap.to);
                }
            }
            if !ms.riders.is_empty() {
                from |= ms.targets(&v.rays, sq, occ).1;
            }
            visit(TypeSet::single(l.ty), from & within)?;
        }
        for r in &a.riders {
            let (types, from) = match sought {
                // Only the first piece on the line can attack along it.
                Sought::Pieces(on) => {
                    let Some(b) = v.rays.first_blocker(r.dir, sq, occ) else { continue };
                    if !on.has(b)
                        || !r.types.contains(code_type(self.board[b]))
                        || r.reach.as_ref().is_some_and(|reach| !reach[sq].has(b))
                    {
                        continue;
                    }
                    (r.types, Bitboard::square(b))
                }
                Sought::Origins(types) => {
                    let types = r.types & types;
                    if types.is_empty() {
                        continue;
                    }
                    let line = v.rays.attacks(r.dir, sq, occ);
                    (types, r.reach.as_ref().map_or(line, |reach| line & reach[sq]))
                }
            };
            visit(types, from)?;
        }
        ControlFlow::Continue(())
    }

    /// Whether `sq` is attacked by side `by`, with occupancy `occ` and only the pieces of `by`
    /// in `mask` counting as attackers.
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: Colour, occ: Bitboard, mask: Bitboard) -> bool {
        let found =
            |_, from: Bitboard| if from.non_empty() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
        self.walk_attacks(sq, by, occ, Sought::Pieces(mask), found).is_break()
    }

    /// The pieces of side `by` that attack `sq` when the board holds only `occ`: what a static
    /// exchange evaluation needs, the x-rays behind a capturer appearing as `occ` loses it.
    pub fn attackers_to(&self, sq: Square, by: Colour, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let _: ControlFlow<()> = self.walk_attacks(sq, by, occ, Sought::Pieces(self.by_colour[by] & occ), |_, from| {
            out |= from;
            ControlFlow::Continue(())
        });
        out
    }

    /// For each type of `types` (the others empty), the squares from which a piece of side
    /// `by` and that type would attack `sq` when the board holds `occ` (where such a piece
    /// gives check, for `sq` a royal piece's square): the attack tables `attackers_to` reads,
    /// taken for every square rather than the pieces. A ray shared by several types is traced
    /// once.
    pub fn attack_origins_of(&self, sq: Square, by: Colour, types: TypeSet, occ: Bitboard) -> [Bitboard; MAX_TYPES] {
        let mut out = [Bitboard::EMPTY; MAX_TYPES];
        let _: ControlFlow<()> = self.walk_attacks(sq, by, occ, Sought::Origins(types), |types, from| {
            for t in types {
                out[t] |= from;
            }
            ControlFlow::Continue(())
        });
        out
    }

    /// Whether the side to move is in check: all its royal pieces attacked (and it has one).
    pub fn in_check(&self) -> bool {
        self.royals_attacked(self.side)
    }

    /// Whether every royal piece of `colour` is attacked (and it has one).
    pub fn royals_attacked(&self, colour: Colour) -> bool {
        let royals = self.royals(colour);
        let them = !colour;
        let occ = self.occupied();
        royals.non_empty() && royals.into_iter().all(|r| self.attacked_by(r, them, occ, self.by_colour[them]))
    }

    /// Whether side `colour` has nothing but royal pieces.
    pub fn is_bare(&self, colour: Colour) -> bool {
        (self.by_colour[colour] & !self.royals(colour)).is_empty()
    }

    /// A result that a variant rule has already fixed (a bare king), before any move is made.
    pub fn decided_by_rule(&self) -> Option<GameResult> {
        let us = self.side;
        let them = !us;
        // The side bared first loses, unless the other is bare too.
        let (first, second) = match self.variant.bare_king {
            BareKing::None => return None,
            BareKing::Immediate => (us, them),
            BareKing::Reply => (them, us),
        };
        match (self.is_bare(first), self.is_bare(second)) {
            (true, true) => Some(GameResult::Draw),
            (true, false) => Some(GameResult::win_for(second)),
            _ => None,
        }
    }

    /// Whether making `m` leaves the mover out of check (not all its royals attacked).
    pub fn leaves_royal_safe(&self, m: Move) -> bool {
        let us = self.side;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let from_bb = Bitboard::square(from);
        let to_bb = Bitboard::square(to);
        let mut occ = (self.occupied() & !from_bb) | to_bb;
        let mut mask = self.by_colour[them] & !to_bb;
        let mut royals = self.royals(us);
        match m.kind() {
            MoveKind::EnPassant => {
                let victim = Bitboard::square(self.ep_victim);
                occ &= !victim;
                mask &= !victim;
            }
            MoveKind::Castle => {
                let right = castling_right(us, from, to);
                let (_, _, rook, rook_to) =
                    self.castle_squares(right, code_type(self.board[from])).expect("generated castling");
                occ = (occ & !Bitboard::square(rook)) | Bitboard::square(rook_to) | to_bb;
            }
            MoveKind::Normal => {}
        }
        if royals.has(from) {
            royals = (royals & !from_bb) | to_bb;
        }
        if m.promoted().is_some_and(|t| self.variant.royal_types.contains(t)) {
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
        let them = !us;
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
        let own = |sq: Square, t: PieceType| self.pieces(us, t).has(sq);
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
    fn pins(&self, king: Square) -> Legality {
        let v = &*self.variant;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        let mut pins = [(Square::default(), Bitboard::EMPTY); 16];
        let mut npins = 0;
        for r in &v.attackers[them].riders {
            let Some(b1) = v.rays.first_blocker(r.dir, king, occ) else {
                continue;
            };
            if !self.by_colour[us].has(b1) {
                continue;
            }
            let Some(b2) = v.rays.first_blocker(r.dir, b1, occ) else {
                continue;
            };
            if self.by_colour[them].has(b2)
                && r.types.contains(code_type(self.board[b2]))
                && r.reach.as_ref().is_none_or(|reach| reach[king].has(b2))
            {
                let line = v.rays.ray(r.dir, king) ^ v.rays.ray(r.dir, b2);
                if pinned.has(b1) {
                    // Pinned along two lines: it may not move at all.
                    for p in pins[..npins].iter_mut().filter(|p| p.0 == b1) {
                        p.1 &= line;
                    }
                } else if npins < pins.len() {
                    pinned.set(b1);
                    pins[npins] = (b1, line);
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
        let them = !us;
        let occ = self.occupied();
        let empty = !occ;
        let theirs = self.by_colour[them];
        let ours = self.by_colour[us];
        let zone = v.promotion_zone[us];
        for (t, piece) in v.typed_pieces() {
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
                            if v.royal_promoters.contains(t) {
                                true
                            } else {
                                targets &= pins[..*npins].iter().find(|p| p.0 == from).unwrap().1;
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
        if !captures_only && self.castling >> (2 * us.index()) & 3 != 0 {
            self.castling_moves(out);
        }
    }

    /// The promotions of a `ty` piece from `from` to `to` that the variant allows now.
    fn push_promotions(&self, out: &mut Vec<Move>, from: Square, to: Square, ty: PieceType, test: bool) {
        let v = &*self.variant;
        let us = self.side;
        if test && !self.leaves_royal_safe(Move::new(from, to, MoveKind::Normal)) {
            // A promotion to a royal piece can save a position the plain move cannot.
            if !v.royal_promoters.contains(ty) {
                return;
            }
        }
        let dark = v.dark_squares.has(to);
        for p in v.piece(ty).promotes_to {
            let have = self.pieces(us, p);
            if v.lost_only.contains(p) && have.count() >= v.start_counts[us][p] as u32 {
                continue;
            }
            if v.distinct_colour.contains(p) && have.into_iter().any(|s| v.dark_squares.has(s) == dark) {
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
        let them = !us;
        let occ = self.occupied();
        for side in 0..2 {
            let right = 2 * us.index() + side;
            if self.castling >> right & 1 == 0 {
                continue;
            }
            let king_sq = self.castle_kings[us];
            let Some((king, king_to, rook, rook_to)) = self.castle_squares(right, code_type(self.board[king_sq]))
            else {
                continue;
            };
            let span = |a: Square, b: Square| {
                let (lo, hi) = (a.min(b), a.max(b));
                (lo.index()..=hi.index()).map(Square::new).collect::<Bitboard>()
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
