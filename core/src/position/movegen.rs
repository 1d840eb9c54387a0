//! Legal move generation. With one royal piece and nothing that makes checks non-local (a
//! hopper's screen, a lame capturer, a ride from some squares only, pseudo-royal pieces, kings
//! that may not face each other): pins, and under check the squares that meet it, from rays
//! through the king, so that only king moves, e.p. and castling are tested one by one; with
//! several royal pieces not all attacked, only their moves and those of pieces pinned to each
//! unattacked one. Otherwise every move is tested against the rules of check. Then the rules
//! that look at all the moves: a capture is compulsory, a check is forbidden.

use crate::bitboard::{Bitboard, Bits};
use crate::position::moves::{Move, MoveKind};
use crate::position::outcome::{GameResult, Termination};
use crate::position::{castling_right, code_type, CastlePath, Position};
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::variant::{BareKing, Connect, DropFall, Flag, Walling};
use std::ops::ControlFlow;

/// How moves are checked for legality while they are generated.
// Built once per node on the stack; boxing the pin list would allocate in the hot path.
#[allow(clippy::large_enum_variant)]
enum Legality<B: Bits> {
    /// One royal piece, on `king`: only its moves are tested; a pinned piece keeps to its
    /// line, and the other pieces may go only to `evasions` (see `Position::evasions`), all
    /// squares when the king is not `checked`.
    Fast { king: Square, pins: Pins<B>, evasions: Bitboard<B>, checked: bool },
    /// Several royal pieces, not all attacked: a piece not pinned to one of the unattacked
    /// ones cannot expose it, so only the moves of the royal pieces and of the pieces
    /// `pinned` to every unattacked one are tested.
    Royals { royals: Bitboard<B>, pinned: Bitboard<B> },
    /// Every move is tested.
    Test,
    /// No move is tested here: pseudo-royal pieces with walls are tested once each move has
    /// its wall, which may shield them (Fairy-Stockfish's rule).
    Walled,
}

/// The pieces pinned to a royal piece by enemy riders, each with the line it may move along.
struct Pins<B: Bits> {
    pinned: Bitboard<B>,
    lines: [(Square, Bitboard<B>); 16],
    n: usize,
}

impl<B: Bits> Pins<B> {
    fn line(&self, sq: Square) -> Bitboard<B> {
        self.lines[..self.n].iter().find(|p| p.0 == sq).map_or(!Bitboard::EMPTY, |p| p.1)
    }
}

/// The attackers an attack walk looks for.
#[derive(Clone, Copy)]
enum Sought<B: Bits> {
    /// The pieces standing on these squares.
    Pieces(Bitboard<B>),
    /// Pieces of these types, wherever they would stand.
    Origins(TypeSet),
}

impl<B: Bits> Position<B> {
    /// The one walk over side `by`'s attack tables towards `sq`, the board holding `occ`: for
    /// each table entry with `sought` attackers, `visit` gets their types and the squares they
    /// attack `sq` from (a rider's up to the first piece on its line), and may stop the walk.
    /// A piece confined to a region attacks only the squares it may enter. Inlined, so that
    /// each caller's `sought` and visitor fold into its own loop.
    #[inline(always)]
    fn walk_attacks<R>(
        &self,
        sq: Square,
        by: Colour,
        occ: Bitboard<B>,
        sought: Sought<B>,
        visit: impl FnMut(TypeSet, Bitboard<B>) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        match self.variant.plain_attacks[by] {
            true => self.walk::<false, R>(sq, by, occ, sought, visit),
            false => self.walk::<true, R>(sq, by, occ, sought, visit),
        }
    }

    /// `walk_attacks` for a side with (`KIT`) or without confined pieces and hoppers.
    #[inline(always)]
    fn walk<const KIT: bool, R>(
        &self,
        sq: Square,
        by: Colour,
        occ: Bitboard<B>,
        sought: Sought<B>,
        mut visit: impl FnMut(TypeSet, Bitboard<B>) -> ControlFlow<R>,
    ) -> ControlFlow<R> {
        let v = &*self.variant;
        let a = &v.attackers[by];
        let confined = KIT && v.confined;
        let enter = if confined { v.can_enter[by][sq] } else { TypeSet::ALL };
        for l in &a.leapers {
            if confined && !enter.contains(l.ty) {
                continue;
            }
            let mut within = match sought {
                Sought::Pieces(on) => self.by_type[l.ty] & on,
                Sought::Origins(types) if types.contains(l.ty) => !Bitboard::EMPTY,
                Sought::Origins(_) => continue,
            };
            if let Some(only) = l.only_from {
                within &= only.to();
            }
            // Most entries have no piece to look for: their tables are not read.
            if within.is_empty() {
                continue;
            }
            let ms = &l.captures;
            let mut from = ms.capture[sq].to();
            for leap in ms.lame_leaps(sq) {
                if (leap.path.to() & occ).is_empty() {
                    from.set(leap.to);
                }
            }
            if !ms.riders.is_empty() || (KIT && !ms.hoppers.is_empty()) {
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
                        || (confined && !enter.contains(code_type(self.board[b])))
                        || r.reach.as_ref().is_some_and(|reach| !reach[sq].has(b))
                    {
                        continue;
                    }
                    (r.types, Bitboard::square(b))
                }
                Sought::Origins(types) => {
                    let types = r.types & types & enter;
                    if types.is_empty() {
                        continue;
                    }
                    let line = v.rays.attacks(r.dir, sq, occ);
                    (types, r.reach.as_ref().map_or(line, |reach| line & reach[sq].to()))
                }
            };
            visit(types, from)?;
        }
        if !KIT {
            return ControlFlow::Continue(());
        }
        for h in &a.hoppers {
            if !enter.contains(h.ty) {
                continue;
            }
            // Back from `sq` past the screen: where the hopper would stand.
            let Some(screen) = v.rays.first_blocker(h.dir, sq, occ) else { continue };
            if h.kind == crate::variant::betza::Hop::Grasshopper && v.rays.next(h.dir, sq) != Some(screen) {
                continue;
            }
            let mut from = v.rays.attacks(h.dir, screen, occ);
            if let Some(reach) = &h.reach {
                from &= reach[sq].to();
            }
            let from = match sought {
                Sought::Pieces(on) => from & on & self.by_type[h.ty],
                Sought::Origins(types) if types.contains(h.ty) => from,
                Sought::Origins(_) => continue,
            };
            visit(TypeSet::single(h.ty), from)?;
        }
        ControlFlow::Continue(())
    }

    /// Whether `sq` is attacked by side `by`, with occupancy `occ` and only the pieces of `by`
    /// in `mask` counting as attackers.
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: Colour, occ: Bitboard<B>, mask: Bitboard<B>) -> bool {
        let found =
            |_, from: Bitboard<B>| if from.non_empty() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
        self.walk_attacks(sq, by, occ, Sought::Pieces(mask), found).is_break()
    }

    /// The pieces of side `by` that attack `sq` when the board holds only `occ`: what a static
    /// exchange evaluation needs, the x-rays behind a capturer appearing as `occ` loses it.
    pub fn attackers_to(&self, sq: Square, by: Colour, occ: Bitboard<B>) -> Bitboard<B> {
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
    pub fn attack_origins_of(
        &self,
        sq: Square,
        by: Colour,
        types: TypeSet,
        occ: Bitboard<B>,
    ) -> [Bitboard<B>; MAX_TYPES] {
        let mut out = [Bitboard::EMPTY; MAX_TYPES];
        let _: ControlFlow<()> = self.walk_attacks(sq, by, occ, Sought::Origins(types), |types, from| {
            for t in types {
                out[t] |= from;
            }
            ControlFlow::Continue(())
        });
        out
    }

    /// Whether the side to move is in check: all its royal pieces attacked (and it has one),
    /// or one of its pseudo-royal pieces.
    pub fn in_check(&self) -> bool {
        self.royals_attacked(self.side) || self.pseudo_royal_attacked(self.side)
    }

    /// Whether every royal piece of `colour` is attacked (and it has one).
    pub fn royals_attacked(&self, colour: Colour) -> bool {
        let royals = self.royals(colour);
        let them = !colour;
        let occ = self.occupied();
        royals.non_empty() && royals.into_iter().all(|r| self.attacked_by(r, them, occ, self.by_colour[them]))
    }

    /// The pseudo-royal pieces of `colour`: of each listed type, all of them while it has at
    /// most `count + 1`.
    pub fn pseudo_royals(&self, colour: Colour) -> Bitboard<B> {
        let Some(pr) = self.variant.rules.pseudo_royal else { return Bitboard::EMPTY };
        pr.types
            .iter()
            .map(|t| self.pieces(colour, t))
            .filter(|b| b.count() <= pr.count + 1)
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }

    fn pseudo_royal_attacked(&self, colour: Colour) -> bool {
        let them = !colour;
        let occ = self.occupied();
        let theirs = self.blast_shields(them);
        self.pseudo_royals(colour)
            .into_iter()
            .any(|r| !self.shielded(r, theirs) && self.attacked_by(r, them, occ, self.by_colour[them]))
    }

    /// With a blast, the pseudo-royal pieces of `colour`: a piece of the other side next to one
    /// cannot be captured, as the blast would take that pseudo-royal too (atomic's touching
    /// kings). Without, none.
    #[inline]
    fn blast_shields(&self, colour: Colour) -> Bitboard<B> {
        match self.variant.rules.blast {
            Some(_) => self.pseudo_royals(colour),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether `sq` is next to one of `shields` (`blast_shields`).
    #[inline]
    fn shielded(&self, sq: Square, shields: Bitboard<B>) -> bool {
        shields.non_empty() && (self.variant.neighbours[sq].to::<B>() & shields).non_empty()
    }

    /// The pieces, on the board before `m`, that the blast of capture `m` removes besides the
    /// captured one: the capturer (on its square), unless immune, and the pieces next to the
    /// destination but for the types spared there and the immune. Empty without a blast.
    pub fn blasted(&self, m: Move) -> Bitboard<B> {
        let Some(blast) = self.variant.rules.blast else { return Bitboard::EMPTY };
        if !self.is_capture(m) {
            return Bitboard::EMPTY;
        }
        let (from, to) = (Bitboard::square(m.from()), m.to());
        let victim = Bitboard::square(if m.kind() == MoveKind::EnPassant { self.ep_victim } else { to });
        let of = |types: TypeSet| types.iter().fold(Bitboard::EMPTY, |b, t| b | self.by_type[t]);
        let immune = of(blast.immune);
        let around = self.variant.neighbours[to].to::<B>() & self.men() & !of(blast.spares) & !immune;
        (around & !from & !victim) | (from & !immune)
    }

    /// Whether side `colour` has nothing but royal pieces.
    pub fn is_bare(&self, colour: Colour) -> bool {
        (self.by_colour[colour] & !self.royals(colour)).is_empty()
            && (!self.variant.rules.drops || self.hand[colour].iter().all(|&n| n == 0))
    }

    /// A result that a variant rule has already fixed before any move is made: a bare king,
    /// a side's pieces extinct, a flag reached, the checks of n-check given. Such a position
    /// has no moves.
    pub fn decided_by_rule(&self) -> Option<(GameResult, Termination)> {
        let v = &*self.variant;
        let us = self.side;
        let them = !us;
        // The side bared first loses, unless the other is bare too.
        if let Some((first, second)) = match v.rules.bare_king {
            BareKing::None => None,
            BareKing::Immediate => Some((us, them)),
            BareKing::Reply => Some((them, us)),
        } {
            match (self.is_bare(first), self.is_bare(second)) {
                (true, true) => return Some((GameResult::Draw, Termination::BareKing)),
                (true, false) => return Some((GameResult::win_for(second), Termination::BareKing)),
                _ => {}
            }
        }
        // Pseudo-royal pieces are never captured, so their games end by mate; but a blast
        // may still take one (by capturing next to it).
        if let Some(e) = v.rules.extinction.filter(|_| v.rules.pseudo_royal.is_none() || v.rules.blast.is_some()) {
            // The opponent first: a move that leaves both sides extinct loses for its maker.
            for c in [them, us] {
                // Pieces in hand count, as Fairy-Stockfish counts them.
                let count = |side: Colour, t: Option<PieceType>| match t {
                    Some(t) => self.pieces(side, t).count() + self.hand[side][t] as u32,
                    None => self.by_colour[side].count() + self.hand[side].iter().map(|&n| n as u32).sum::<u32>(),
                };
                let claim = u32::from(e.claim && c == us);
                let extinct = |t| count(c, t) <= e.count && count(!c, t) >= e.opponent_count + claim;
                let hit = match e.types {
                    Some(types) => types.iter().any(|t| extinct(Some(t))),
                    None => extinct(None),
                };
                if hit {
                    return Some((e.value.result_for(c), Termination::Extinction));
                }
            }
        }
        if let Some(f) = &v.rules.flag {
            if let Some(r) = self.flag_end(f) {
                return Some((r, Termination::Flag));
            }
        }
        if v.rules.checks > 0 && self.checks[them] == 0 {
            return Some((GameResult::win_for(them), Termination::Checks));
        }
        if v.rules.castling_wins != 0 {
            if let Some(r) = self.castling_decision() {
                return Some((r, Termination::Castling));
            }
        }
        if let Some(c) = &v.rules.connect {
            if self.connected(c, them) {
                return Some((c.value.result_for(them), Termination::Connect));
            }
        }
        None
    }

    /// Castle chess: the side that has just castled with a winning right wins; a side that has
    /// lost all its winning rights loses (the opponent first, as Fairy-Stockfish looks).
    fn castling_decision(&self) -> Option<GameResult> {
        let wins = self.variant.rules.castling_wins;
        let them = !self.side;
        if let Some(m) = self.last_move().filter(|m| m.kind() == MoveKind::Castle) {
            if wins >> castling_right(them, m) & 1 != 0 {
                return Some(GameResult::win_for(them));
            }
        }
        [them, self.side].into_iter().find_map(|c| {
            let mine = wins & (0b11 << (2 * c.index()));
            (mine != 0 && self.castling & mine == 0).then(|| GameResult::win_for(!c))
        })
    }

    /// Whether `side` has a line of `c.count` of its connecting pieces.
    fn connected(&self, c: &Connect, side: Colour) -> bool {
        let geo = self.variant.geometry;
        let pieces = match c.pieces {
            Some(types) => types.iter().fold(Bitboard::EMPTY, |b, t| b | self.pieces(side, t)),
            None => self.by_colour[side],
        };
        let n = c.count as i32;
        let on_line = |sq: Square, (df, dr): (i32, i32)| {
            let ray = |sign: i32| {
                (1..)
                    .map_while(move |k| geo.offset(sq, sign * df * k, sign * dr * k))
                    .filter(|&s| pieces.has(s))
                    .count()
            };
            1 + ray(1) + ray(-1) >= c.count as usize
        };
        pieces.into_iter().any(|sq| {
            c.directions.iter().any(|&d| match c.collinear {
                true => on_line(sq, d),
                false => (1..n).all(|k| geo.offset(sq, d.0 * k, d.1 * k).is_some_and(|s| pieces.has(s))),
            })
        })
    }

    /// Whether side `c` has its flag pieces in its region, as many as the rule asks (or the
    /// region blocked); with `safe`, unattacked when `test_safety` says they must be.
    fn flag_reached(&self, f: &Flag, c: Colour, test_safety: bool) -> bool {
        let pieces = match f.pieces[c] {
            Some(types) => self.types_bb(types) & self.by_colour[c],
            None => self.by_colour[c],
        };
        let there = pieces & f.region[c].to();
        let n = there.count();
        let enough = n >= f.count || (f.blocked && n > 0 && (f.region[c].to() & !self.occupied()).is_empty());
        if n == 0 || !enough {
            return false;
        }
        // The safety test binds only when exactly the pieces needed stand there.
        if f.safe && test_safety && n == f.count {
            let occ = self.occupied();
            return there.into_iter().all(|sq| !self.attacked_by(sq, !c, occ, self.by_colour[!c]));
        }
        true
    }

    /// The flag rule's result here, if it ends the game (as Fairy-Stockfish orders its cases).
    fn flag_end(&self, f: &Flag) -> Option<GameResult> {
        let us = self.side;
        let them = !us;
        let king_flag = |c: Colour| f.pieces[c].is_some_and(|t| t.iter().all(|t| self.variant.piece(t).royal));
        // With a move to answer or safety to keep, a flag reached before our move wins now.
        if (f.flag_move || f.safe) && self.flag_reached(f, us, !f.flag_move) {
            let racing = f.flag_move && us == Colour::White && king_flag(them);
            let draw = (racing || (f.safe && !f.flag_move)) && self.flag_reached(f, them, true);
            return Some(if draw { GameResult::Draw } else { GameResult::win_for(us) });
        }
        if (!f.flag_move || f.safe || king_flag(us)) && self.flag_reached(f, them, true) {
            // Racing kings: Black, arriving second, may still reach its own flag for a draw.
            if f.flag_move && king_flag(us) && us == Colour::Black && !self.in_check() && self.king_can_reach_flag(f) {
                return None;
            }
            return Some(GameResult::win_for(them));
        }
        None
    }

    /// Whether the side to move has a legal move of a flag king into its region.
    fn king_can_reach_flag(&self, f: &Flag) -> bool {
        let mut moves = Vec::new();
        self.generate_all(&mut moves, false, None);
        let region = f.region[self.side];
        moves.iter().any(|m| region.has(m.to()) && self.royals(self.side).has(m.from()))
    }

    /// Whether making `m` leaves the mover within the rules of check: not all its royal pieces
    /// attacked, none of its pseudo-royal pieces, and the royal pieces not facing each other.
    pub fn leaves_royal_safe(&self, m: Move) -> bool {
        let v = &*self.variant;
        let us = self.side;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let from_bb = if m.is_drop() { Bitboard::EMPTY } else { Bitboard::square(from) };
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
                let path = self.castle_path(castling_right(us, m)).expect("generated castling");
                let (rook, rook_to) = (path.rook, path.rook_to);
                occ = (occ & !Bitboard::square(rook)) | Bitboard::square(rook_to) | to_bb;
            }
            MoveKind::Normal => {}
        }
        let moved = |b: Bitboard<B>| if (b & from_bb).non_empty() { (b & !from_bb) | to_bb } else { b };
        royals = moved(royals);
        let plain = v.rules.pseudo_royal.is_none() && !v.rules.flying_general;
        if plain {
            // The common case: royal pieces only, as in chess and Spartan chess.
            if m.promoted().is_some_and(|t| v.royal_types.contains(t)) {
                royals |= to_bb;
            }
            return royals.is_empty() || royals.into_iter().any(|sq| !self.attacked_by(sq, them, occ, mask));
        }
        let mut pseudo = moved(self.pseudo_royals(us));
        // A blast takes its pieces off; the capturer, blown up, leaves its destination empty.
        // A pseudo-royal piece may hide behind the wall the move places, not behind the duck
        // that moves away.
        if let Some(wall) = m.wall() {
            if v.rules.walling == Some(Walling::Duck) {
                occ &= !self.walls;
            }
            occ.set(wall);
        }
        let shields = self.blast_shields(them);
        if shields.non_empty() && self.is_capture(m) {
            let blasted = self.blasted(m);
            let gone = (blasted & !from_bb) | if blasted.has(from) { to_bb } else { Bitboard::EMPTY };
            occ &= !gone;
            mask &= !blasted;
            // Blowing up one's own pseudo-royal piece is illegal; the opponent's wins, whatever
            // else is attacked.
            if (pseudo & gone).non_empty() {
                return false;
            }
            if (shields & (gone | to_bb)).non_empty() {
                return true;
            }
        }
        if let Some(t) = m.promoted() {
            if v.royal_types.contains(t) {
                royals |= to_bb;
            }
            // A promotion to a pseudo-royal type adds a piece that must be safe too, while
            // the side has few of them. A shogi-style one changes nothing until it is made, as
            // Fairy-Stockfish judges it.
            if let Some(pr) = v.rules.pseudo_royal.filter(|pr| pr.types.contains(t) && !m.is_plus()) {
                match self.pieces(us, t).count() <= pr.count {
                    true => pseudo |= to_bb,
                    false => pseudo &= !self.pieces(us, t),
                }
            }
        }
        let safe = |sq: Square| !self.attacked_by(sq, them, occ, mask);
        (royals.is_empty() || royals.into_iter().any(safe))
            && pseudo.into_iter().all(|sq| self.shielded(sq, shields) || safe(sq))
            && !(v.rules.flying_general && self.royals_face(royals, occ))
    }

    /// Whether a royal piece of ours (`ours`) and one of the opponent's see each other along an
    /// empty file or rank of `occ`.
    fn royals_face(&self, ours: Bitboard<B>, occ: Bitboard<B>) -> bool {
        let geo = self.variant.geometry;
        let theirs = self.royals(!self.side);
        ours.into_iter().any(|a| {
            theirs.into_iter().any(|b| {
                (geo.file(a) == geo.file(b) || geo.rank(a) == geo.rank(b)) && (geo.between(a, b).to() & occ).is_empty()
            })
        })
    }

    /// All legal moves, into `out` (cleared first). A position decided by a variant rule (a
    /// bare king, extinction, a flag, the checks of n-check) has none.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.decided_by_rule().is_some() {
            out.clear();
            return;
        }
        self.generate_all(out, false, None);
    }

    /// `legal_moves` of a position the caller has found undecided by the rules
    /// (`draw_or_decision`) and whose check (`in_check`) it knows, as a search does: neither is
    /// tested again.
    pub fn legal_moves_in_check(&self, out: &mut Vec<Move>, in_check: bool) {
        debug_assert!(self.decided_by_rule().is_none());
        self.generate_all(out, false, Some(in_check));
    }

    /// The legal captures and promotions (for quiescence search), into `out`, of a position
    /// as for `legal_moves_in_check`.
    pub fn legal_captures(&self, out: &mut Vec<Move>, in_check: bool) {
        debug_assert!(self.decided_by_rule().is_none());
        self.generate_all(out, true, Some(in_check));
    }

    /// The legal moves whatever the game's state, and then the rules that weigh them all.
    /// `in_check`: whether the side to move is in check, where the caller knows.
    fn generate_all(&self, out: &mut Vec<Move>, captures_only: bool, in_check: Option<bool>) {
        out.clear();
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
        let local = !v.lame_capture[them]
            && !v.hoppers[them]
            && !v.square_rides[them]
            && v.rules.pseudo_royal.is_none()
            && !v.rules.flying_general;
        let legality = match royals.count() {
            // With one royal piece and no pseudo-royal ones, check is an attack on it.
            1 if local => {
                let king = royals.lsb();
                let checked = in_check.unwrap_or_else(|| self.attacked_by(king, them, occ, self.by_colour[them]));
                let evasions = if checked { self.evasions(king) } else { !Bitboard::EMPTY };
                self.pins(king).map_or(Legality::Test, |pins| Legality::Fast { king, pins, evasions, checked })
            }
            2.. if local && in_check != Some(true) => self.pinned_to_the_unattacked(royals),
            _ if v.rules.walling.is_some() && v.rules.pseudo_royal.is_some() => Legality::Walled,
            _ => Legality::Test,
        };
        self.generate(out, &legality, captures_only);
        if v.rules.no_check {
            out.retain(|&m| !self.gives_check(m));
        }
        // A compulsory drop: while a drop is legal, nothing else is (the quiescence search's
        // captures included).
        if v.rules.must_drop && self.hand[us].iter().any(|&n| n > 0) {
            let mut drops = Vec::new();
            self.drops(&mut drops, &legality);
            if !drops.is_empty() {
                out.retain(|m| m.is_drop());
            }
        }
        // Makpong: a king in check may only take the one piece that checks it.
        if v.rules.makpong && in_check.unwrap_or_else(|| self.in_check()) {
            let checkers = self.checkers();
            out.retain(|&m| m.is_drop() || !royals.has(m.from()) || checkers == Bitboard::square(m.to()));
        }
        if v.rules.must_capture && !captures_only && out.iter().any(|&m| self.is_capture(m)) {
            out.retain(|&m| self.is_capture(m));
        }
        if let Some(rule) = v.rules.walling {
            let walled = matches!(legality, Legality::Walled);
            self.place_walls(out, rule, captures_only && !walled);
            if walled {
                out.retain(|&m| self.leaves_royal_safe(m));
                if captures_only {
                    // The quiescence search's first legal wall of each capture.
                    out.dedup_by_key(|m| (m.from(), m.to(), m.promoted()));
                }
            }
        }
        if v.rules.pass_on_stalemate && out.is_empty() && !captures_only && !self.in_check() && !self.both_passed() {
            let first = self.by_colour[us].lsb();
            out.push(Move::new(first, first, MoveKind::Normal));
        }
    }

    /// Whether the last two moves were both passes.
    pub fn both_passed(&self) -> bool {
        let mut last = self.recent_moves();
        last.next().is_some_and(|m| m.is_pass()) && last.next().is_some_and(|m| m.is_pass())
    }

    /// Each move once for every square its wall may go to (none: the move is dropped). For
    /// the quiescence search (`first_only`) each capture takes its first square only: the
    /// captures' tactics, without multiplying them by every wall.
    fn place_walls(&self, out: &mut Vec<Move>, rule: Walling, first_only: bool) {
        let v = &*self.variant;
        let us = self.side;
        let moves = std::mem::take(out);
        for m in moves {
            let (from, to) = (m.from(), m.to());
            let from_bb = if m.is_drop() { Bitboard::EMPTY } else { Bitboard::square(from) };
            // The board's pieces after the move.
            let mut men = (self.men() & !from_bb) | Bitboard::square(to);
            match m.kind() {
                MoveKind::EnPassant => men.clear(self.ep_victim),
                MoveKind::Castle => {
                    let path = self.castle_path(castling_right(us, m)).expect("generated castling");
                    men = (men & !Bitboard::square(path.rook)) | Bitboard::square(path.rook_to);
                }
                MoveKind::Normal => {}
            }
            let empty = v.geometry.all().to() & !men & !self.walls;
            let squares = match rule {
                Walling::Past => from_bb & empty,
                Walling::Duck | Walling::Static => empty & v.rules.walling_region[us].to(),
                Walling::Arrow => {
                    let ty = m.dropped().or(m.promoted()).unwrap_or_else(|| code_type(self.board[from]));
                    v.moves[us][ty].targets(&v.rays, to, men | self.walls).0 & empty & v.rules.walling_region[us].to()
                }
            };
            let walls = squares.into_iter().map(|sq| m.with_wall(sq));
            match first_only {
                true => out.extend(walls.take(1)),
                false => out.extend(walls),
            }
        }
    }

    /// Whether `m` leaves the opponent's royal pieces attacked (all of them, as check is).
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.make(m);
        after.royals_attacked(after.side)
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

    /// Where a piece other than the checked king, the side's only royal piece, may go to
    /// meet the check: the checker's square and the squares between it and the king on the
    /// line it attacks along; only the checker's square when a block would not stop its
    /// attack (a leap, or a leap beside the ride); none under a double check.
    fn evasions(&self, king: Square) -> Bitboard<B> {
        let v = &*self.variant;
        let them = !self.side;
        let occ = self.occupied();
        let checkers = self.attackers_to(king, them, occ);
        let Some(checker) = checkers.into_iter().next() else { return !Bitboard::EMPTY };
        if checkers.more_than_one() {
            return Bitboard::EMPTY;
        }
        let only = Bitboard::square(checker);
        let ty = code_type(self.board[checker]);
        let lines = v.attackers[them]
            .riders
            .iter()
            .filter(|r| r.types.contains(ty) && v.rays.first_blocker(r.dir, king, occ) == Some(checker))
            .fold(only, |a, r| a | (v.rays.ray(r.dir, king) ^ v.rays.ray(r.dir, checker)));
        match self.attacked_by(king, them, occ | lines, only) {
            true => only,
            false => lines,
        }
    }

    /// With several royal pieces, the pieces pinned to every one of them that is not attacked;
    /// every move is tested when all are (check).
    fn pinned_to_the_unattacked(&self, royals: Bitboard<B>) -> Legality<B> {
        let them = !self.side;
        let occ = self.occupied();
        let mut pinned = None;
        for r in royals.into_iter().filter(|&r| !self.attacked_by(r, them, occ, self.by_colour[them])) {
            let Some(pins) = self.pins(r) else { return Legality::Test };
            pinned = Some(pinned.unwrap_or(!Bitboard::EMPTY) & pins.pinned);
        }
        pinned.map_or(Legality::Test, |pinned| Legality::Royals { royals, pinned })
    }

    /// Our pieces pinned to the royal piece on `king` by enemy riders, and the lines they may
    /// move along; None when there are more than it holds.
    fn pins(&self, king: Square) -> Option<Pins<B>> {
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
            if !self.by_colour[them].has(b2) {
                continue;
            }
            let pinner = code_type(self.board[b2]);
            // A piece confined to a region pins only where it could take the king.
            if r.types.contains(pinner)
                && r.reach.as_ref().is_none_or(|reach| reach[king].has(b2))
                && (!v.confined || v.can_enter[them][king].contains(pinner))
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
                    return None;
                }
            }
        }
        Some(Pins { pinned, lines: pins, n: npins })
    }

    #[inline(always)]
    fn generate(&self, out: &mut Vec<Move>, legality: &Legality<B>, captures_only: bool) {
        let v = &*self.variant;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let empty = !occ;
        let theirs = self.by_colour[them];
        let ours = self.by_colour[us];
        let zone = v.promotion_zone[us].to();
        for (t, piece) in v.typed_pieces() {
            let pcs = self.by_type[t] & ours;
            if pcs.is_empty() {
                continue;
            }
            let ms = &v.moves[us][t];
            let ims = &v.initial_moves[us][t];
            let initial = v.initial[us][t];
            let region_moves = &v.region_moves[us][t];
            let promotes = piece.promotes_in_zone(us);
            let shogi = piece.promotes.is_some();
            let capturable = if piece.no_same_capture { theirs & !self.by_type[t] } else { theirs };
            let region = piece.region[us].to();
            // Quiet moves wanted: all, or (for quiescence) only promotions.
            let quiet_ok = match (captures_only, promotes || shogi) {
                (false, _) => empty,
                (true, true) => empty & zone,
                (true, false) => Bitboard::EMPTY,
            } & region;
            let immobile: Bitboard<B> =
                if v.rules.immobility_illegal { v.immobile[us][t].to() } else { Bitboard::EMPTY };
            for from in pcs {
                let (mut quiet, mut capture) = ms.targets(&v.rays, from, occ);
                let mut ep = ms.en_passant[from].to();
                if initial.has(from) {
                    let (q, c) = ims.targets(&v.rays, from, occ);
                    quiet |= q;
                    capture |= c;
                    ep |= ims.en_passant[from].to();
                }
                if let Some((_, rms)) = region_moves.as_ref().filter(|(squares, _)| squares.has(from)) {
                    let (q, c) = rms.targets(&v.rays, from, occ);
                    quiet |= q;
                    capture |= c;
                    ep |= rms.en_passant[from].to();
                }
                let mut targets = (quiet & quiet_ok) | (capture & capturable & region);
                ep &= self.ep & empty & region & v.rules.en_passant_region[us].to();
                let test = match legality {
                    Legality::Test => true,
                    Legality::Walled => false,
                    Legality::Royals { royals, pinned } => royals.has(from) || pinned.has(from),
                    Legality::Fast { king, pins, evasions, checked } => {
                        if from == *king {
                            let occ_without = occ ^ Bitboard::square(from);
                            for to in targets {
                                if self.attacked_by(to, them, occ_without, theirs & !Bitboard::square(to)) {
                                    targets.clear(to);
                                }
                            }
                            false
                        } else if v.royal_promoters.contains(t) && (*checked || pins.pinned.has(from)) {
                            // Promoting to a second royal piece can leave a pin line, or meet a
                            // check, legally.
                            true
                        } else {
                            targets &= *evasions;
                            if pins.pinned.has(from) {
                                targets &= pins.line(from);
                            }
                            false
                        }
                    }
                };
                let promoting = match (shogi && zone.has(from), promotes || shogi) {
                    (true, _) => targets,
                    (false, true) => targets & zone,
                    (false, false) => Bitboard::EMPTY,
                };
                let plain = |out: &mut Vec<Move>, to: Square| {
                    let m = Move::new(from, to, MoveKind::Normal);
                    if !test || self.leaves_royal_safe(m) {
                        out.push(m);
                    }
                };
                // Most pieces neither promote nor get stuck here: no test per move for them.
                if promoting.is_empty() && immobile.is_empty() {
                    targets.into_iter().for_each(|to| plain(out, to));
                } else {
                    for to in targets {
                        if promoting.has(to) {
                            self.push_promotions(out, from, to, t, test, captures_only);
                        } else if !immobile.has(to) {
                            plain(out, to);
                        }
                    }
                }
                for to in ep {
                    let m = Move::new(from, to, MoveKind::EnPassant);
                    if self.leaves_royal_safe(m) {
                        if promotes && zone.has(to) {
                            self.push_promotions(out, from, to, t, false, captures_only);
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
        if !captures_only && v.rules.drops {
            self.drops(out, legality);
        }
    }

    /// Where drops that fall come to rest. `AnySide`: from each edge, along each line whose
    /// first square is empty, the lowest-numbered empty square next to a piece in the direction
    /// of travel or on the far edge (Fairy-Stockfish's search, square for square).
    fn fallen_drops(&self, fall: DropFall) -> Bitboard<B> {
        let geo = self.variant.geometry;
        let occ = self.occupied();
        let free = |s: Square| !occ.has(s);
        let (files, ranks) = (geo.files, geo.ranks);
        // Whether the square beside `s` by (df, dr) is occupied, or off the board where the
        // line ends at the far edge.
        let stops = |s: Square, df: i32, dr: i32| geo.offset(s, df, dr).is_none_or(|n| occ.has(n));
        match fall {
            DropFall::Top => geo.all().to::<B>().into_iter().filter(|&s| free(s) && stops(s, 0, -1)).collect(),
            DropFall::AnySide => {
                let mut out = Bitboard::EMPTY;
                let mut first = |line: Vec<Square>, entry: Square, df: i32, dr: i32| {
                    if free(entry) {
                        if let Some(s) = line.into_iter().find(|&s| free(s) && stops(s, df, dr)) {
                            out.set(s);
                        }
                    }
                };
                for r in 0..ranks {
                    let line: Vec<Square> = (0..files).map(|f| geo.square(f, r)).collect();
                    first(line.clone(), geo.square(0, r), 1, 0);
                    first(line, geo.square(files - 1, r), -1, 0);
                }
                for f in 0..files {
                    let line: Vec<Square> = (0..ranks).map(|r| geo.square(f, r)).collect();
                    first(line.clone(), geo.square(f, 0), 0, 1);
                    first(line, geo.square(f, ranks - 1), 0, -1);
                }
                out
            }
        }
    }

    /// Drops from the hand: a piece onto an empty square of its `drop_squares`. A drop only adds a blocker, so with one royal piece it is legal
    /// unless the king is in check and it blocks nothing.
    fn drops(&self, out: &mut Vec<Move>, legality: &Legality<B>) {
        let v = &*self.variant;
        let us = self.side;
        let mut empty = v.geometry.all().to() & !self.occupied();
        let test = match legality {
            Legality::Fast { evasions, .. } => {
                empty &= *evasions;
                false
            }
            Legality::Royals { .. } | Legality::Walled => false,
            Legality::Test => true,
        };
        for t in v.piece_types() {
            if self.hand[us][t] == 0 {
                continue;
            }
            // Fairy-Stockfish keeps the drop region for drops from the top, not from any side.
            let mut squares = match v.rules.drop_fall {
                Some(DropFall::AnySide) => empty & self.fallen_drops(DropFall::AnySide),
                Some(DropFall::Top) => empty & v.drop_squares[us][t].to() & self.fallen_drops(DropFall::Top),
                None => empty & v.drop_squares[us][t].to(),
            };
            // Only the files that hold the dropper's pieces of the type can be closed, unless
            // a count of 0 closes them all (Fairy-Stockfish's dragonfly: no pawn drops).
            if let Some((_, most)) = v.rules.drop_no_doubled.filter(|(types, _)| types.contains(t)) {
                if most == 0 {
                    continue;
                }
                let geo = v.geometry;
                let own = self.pieces(us, t);
                for sq in own {
                    let file = geo.file_bb(geo.file(sq)).to();
                    if (own & file).count() >= most {
                        squares &= !file;
                    }
                }
            }
            for to in squares {
                let m = Move::drop(t, to);
                if !test || self.leaves_royal_safe(m) {
                    out.push(m);
                }
            }
        }
    }

    /// The moves of a `ty` piece from `from` to `to` where promotion applies: each promotion
    /// the variant allows now (pawn style on a destination in the zone, shogi style when the
    /// move starts or ends there), and the plain move where promotion is optional.
    #[allow(clippy::too_many_arguments)]
    fn push_promotions(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        ty: PieceType,
        test: bool,
        captures_only: bool,
    ) {
        let v = &*self.variant;
        let us = self.side;
        let piece = v.piece(ty);
        let plain = Move::new(from, to, MoveKind::Normal);
        let plain_safe = !test || self.leaves_royal_safe(plain);
        if !plain_safe && !v.royal_promoters.contains(ty) && v.rules.pseudo_royal.is_none() {
            // Only a promotion to a royal piece can save a position the plain move cannot.
            return;
        }
        let in_zone = v.promotion_zone[us].has(to);
        let pawn_style = piece.promotes_in_zone(us) && in_zone;
        let dark = v.dark_squares.has(to);
        let mut push = |m: Move| {
            if !test || self.leaves_royal_safe(m) {
                out.push(m);
            }
        };
        if pawn_style {
            for p in piece.promotes_to[us] {
                let have = self.pieces(us, p);
                if v.lost_only.contains(p) && have.count() >= v.start_counts[us][p] as u32 {
                    continue;
                }
                let limit = v.promotion_limit[p];
                if limit > 0 && have.count() >= limit as u32 {
                    continue;
                }
                if v.distinct_colour.contains(p) && have.into_iter().any(|s| v.dark_squares.has(s) == dark) {
                    continue;
                }
                push(Move::promotion(from, to, p));
            }
        }
        if let Some(p) = piece.promotes {
            let limit = v.promotion_limit[p];
            if limit == 0 || self.pieces(us, p).count() < limit as u32 {
                push(Move::promotion_plus(from, to, p));
            }
        }
        // The plain move: where pawn-style promotion is optional, or only shogi-style applies
        // and is not compulsory; never onto a square the piece could not leave.
        let optional = if pawn_style { v.promotion_optional } else { !v.promotion_mandatory };
        let immobile = v.rules.immobility_illegal && v.immobile[us][ty].has(to);
        if optional && !immobile && plain_safe && (!captures_only || self.board[to] != 0) {
            out.push(plain);
        }
    }

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        for side in 0..2 {
            let right = 2 * us.index() + side;
            if self.castling >> right & 1 == 0 {
                continue;
            }
            let Some(&CastlePath { king, king_to, empty, king_path: path, .. }) = self.castle_path(right) else {
                continue;
            };
            if (empty & occ).non_empty() {
                continue;
            }
            // A royal king may not castle out of, through or into check (nor past the enemy
            // king where kings may not face each other); a pseudo-royal one neither, tested
            // with itself lifted; other castling pieces go where they like.
            let theirs = self.by_colour[them];
            let attacked = if self.royals(us).has(king) {
                path.into_iter().any(|s| {
                    self.attacked_by(s, them, occ, theirs)
                        || (v.rules.flying_general
                            && self.royals_face(Bitboard::square(s), occ & !Bitboard::square(king)))
                })
            } else if self.pseudo_royals(us).has(king) {
                let lifted = occ & !Bitboard::square(king);
                let shields = self.blast_shields(them);
                path.into_iter().any(|s| !self.shielded(s, shields) && self.attacked_by(s, them, lifted, theirs))
            } else {
                false
            };
            if attacked {
                continue;
            }
            let m = Move::castle(king, king_to, side == 1);
            if self.leaves_royal_safe(m) {
                out.push(m);
            }
        }
    }
}
