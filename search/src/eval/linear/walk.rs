//! The evaluation walk: every feature of a position, summed with the weights (`evaluate`) or
//! counted for the tuner (`features`).

use hoplite_core::Bits;

use super::tables::BoardTables;
use super::terms::Family;
use super::terms::Term;
use super::terms::BARE_EDGE;
use super::terms::BARE_NEAR;
use super::terms::BARE_ROOM;
use super::terms::COMMON;
use super::terms::PAWN;
use super::terms::PHASE;
use super::terms::PIECE;
use super::terms::TERMS;
use super::terms::WHITE;
use super::weights::Features;
use super::weights::Weights;
use crate::score::MATE_BOUND;
use hoplite_core::Bitboard;
use hoplite_core::Colour;
use hoplite_core::Position;
use hoplite_core::Square;
use hoplite_core::TypeSet;
use hoplite_core::MAX_TYPES;

/// Feature values of a position from White's view (see `Features`).
pub fn features(pos: &Position, w: &Weights) -> Features {
    let mut values = vec![0; w.len()];
    let material = visit(pos, w, |j, _, amount| values[j] += amount);
    Features { values, phase: w.phase_of(material) }
}

/// Calls `add(weight index, its endgame partner, amount from White's view)` for every feature
/// occurrence; returns the phase material on the board.
#[inline(always)]
pub(super) fn visit<B: Bits>(pos: &Position<B>, w: &Weights, mut add: impl FnMut(usize, usize, i32)) -> i32 {
    let v = pos.variant();
    let tables = &*w.tables;
    let white = w.side_index(WHITE);
    add(white, white, 1);
    let occ = pos.occupied();
    let pawns = pos.pawns();
    let mut material = 0;
    // Each side's attacks, for the hanging pieces once both are known.
    let mut attacks = [Bitboard::EMPTY; 2];
    // Each side's squares its pieces can move to, by type, for the safe checks once both
    // sides' attacks are known.
    let mut reach_by_type = [[Bitboard::EMPTY; MAX_TYPES]; 2];
    // Each side's passed pawn-type pieces, for their way up once the enemy's attacks are known.
    let mut passers = [Bitboard::EMPTY; 2];
    // Each side's pieces' (pawn-type and royal ones aside) squares of the enemy king's zone.
    let mut zone_attacks = [0i32; 2];
    let pawn_attacks: [Bitboard<B>; 2] = Colour::BOTH.map(|colour| {
        let each = v.pawn_types.iter().flat_map(|t| pos.pieces(colour, t).map(move |sq| (t, sq)));
        each.fold(Bitboard::EMPTY, |a, (t, sq)| a | v.moves[colour][t].targets(&v.rays, sq, occ).1)
    });
    let royals = Colour::BOTH.map(|c| pos.royals(c));
    // The endgame partners lie a fixed distance after the middlegame weights.
    let (table_end, pst_end) = (w.tapered_len(), w.types * w.classes());
    for (colour, (own_attacks, reaches)) in Colour::BOTH.into_iter().zip(attacks.iter_mut().zip(&mut reach_by_type)) {
        let sign = colour.sign();
        let them = !colour;
        let own = pos.colour_bb(colour);
        let enemy = pos.colour_bb(them);
        let own_pawns = pawns & own;
        let enemy_pawns = pawns & enemy;
        let enemy_zone: Bitboard<B> = royals[them].fold(Bitboard::EMPTY, |z, k| z | tables.around[k].to());
        let kings = [colour, them].map(|c| royals[c].into_iter().next());
        let view = SideView { colour, own_pawns, enemy_pawns, pawn_attacks: pawn_attacks[colour], kings };
        // Per type, its squares of the enemy king's zone, and the types that attack there.
        let (mut assault, mut assailants, mut assaulting) = ([0i32; MAX_TYPES], 0, TypeSet::EMPTY);
        let class = &tables.class[colour];
        let up = &tables.up[colour];
        for (ty, zone_hits) in v.piece_types().zip(assault.iter_mut()) {
            // A piece in hand is material as much as one on the board (drops).
            let held = pos.in_hand(colour, ty) as i32;
            let pcs = pos.pieces(colour, ty);
            let count = pcs.count() as i32;
            let piece = v.piece(ty);
            if count + held > 0 {
                material += (count + held) * tables.phase_value[ty];
                let m = w.index(Term::Material, ty);
                add(m, m, sign * if piece.royal { count.max(1) - 1 } else { count + held });
            }
            if pcs.is_empty() {
                continue;
            }
            let ms = &v.moves[colour][ty];
            let pawn = piece.pawn;
            let assails = i32::from(!pawn && !piece.royal);
            // Per group, the sum over this type's pieces: one weight lookup per group and type.
            let mut sums = Sums([0; TERMS.len()]);
            let pst = w.pst_index(ty, 0);
            let prey = pos.types_bb(tables.prey[ty]) & enemy;
            for sq in pcs {
                sums[Term::Centre] += tables.centre[sq];
                let up = up[sq];
                sums[Term::Advance] += up;
                let (q, c) = ms.targets(&v.rays, sq, occ);
                *own_attacks |= c;
                let reach = (q & !occ) | (c & enemy & !own);
                reaches[ty] |= reach;
                sums[Term::Mobility] += reach.count() as i32;
                sums[Term::Restricted] += (reach & pawn_attacks[them]).count() as i32;
                let hits = ((q | c) & enemy_zone).count() as i32;
                sums[Term::KingAttack] += hits;
                assailants += i32::from(hits > 0) & assails;
                zone_attacks[colour.index()] += hits * assails;
                sums[Term::Threat] += (c & prey).count() as i32;
                let j = pst + class[sq];
                add(j, j + pst_end, sign);
                match pawn {
                    true => {
                        if tables.pawn_terms(&view, sq, up, pcs, &mut sums) {
                            passers[colour.index()].set(sq);
                        }
                    }
                    false => tables.piece_terms(&view, sq, &mut sums),
                }
                if piece.royal {
                    sums[Term::Shelter] += (tables.shield[colour][sq].to() & own_pawns).count() as i32;
                }
            }
            sums[Term::Pair] = i32::from(count >= 2);
            *zone_hits = sums[Term::KingAttack];
            if sums[Term::KingAttack] != 0 {
                assaulting.insert(ty);
            }
            debug_assert!(
                TERMS.iter().all(|t| sums[t.term] == 0
                    || t.family == Family::Common
                    || t.family == if pawn { Family::Pawn } else { Family::Piece }),
                "{sums:?}"
            );
            // Each kind of piece reads the families it can have (in loops the compiler unrolls).
            let mut flush = |term: Term| {
                if sums[term] != 0 {
                    let j = w.index(term, ty);
                    add(j, j + table_end, sign * sums[term]);
                }
            };
            COMMON.into_iter().for_each(&mut flush);
            match pawn {
                true => PAWN.into_iter().for_each(&mut flush),
                false => PIECE.into_iter().for_each(&mut flush),
            }
        }
        if assailants >= 2 {
            for ty in assaulting {
                let j = w.index(Term::KingAssault, ty);
                add(j, j + table_end, sign * assault[ty]);
            }
        }
    }
    attack_terms(pos, w, &attacks, &reach_by_type, &passers, &zone_attacks, &mut add);
    material
}

/// A piece type's sums of each term over its pieces.
#[derive(Debug)]
struct Sums([i32; TERMS.len()]);

impl std::ops::Index<Term> for Sums {
    type Output = i32;
    #[inline(always)]
    fn index(&self, t: Term) -> &i32 {
        &self.0[t as usize]
    }
}

impl std::ops::IndexMut<Term> for Sums {
    #[inline(always)]
    fn index_mut(&mut self, t: Term) -> &mut i32 {
        &mut self.0[t as usize]
    }
}

/// What one side's per-square terms read.
struct SideView<B: Bits> {
    colour: Colour,
    own_pawns: Bitboard<B>,
    enemy_pawns: Bitboard<B>,
    /// The squares its pawn-type pieces attack.
    pawn_attacks: Bitboard<B>,
    /// Its royal piece and the enemy's (the one on the lowest square of several).
    kings: [Option<Square>; 2],
}

impl BoardTables {
    /// The pawn family's terms of a pawn-type piece on `sq`, `up` ranks from its side's back
    /// rank; `same`: the pieces of its type and side. Whether it is passed.
    #[inline(always)]
    fn pawn_terms<B: Bits>(&self, view: &SideView<B>, sq: Square, up: i32, same: Bitboard<B>, sums: &mut Sums) -> bool {
        let colour = view.colour;
        let passed = (self.front[colour][sq].to() & view.enemy_pawns).is_empty();
        if passed {
            sums[Term::Passed] += up;
            sums[Term::Passed2] += up * up;
            if let ([Some(k), Some(e)], Some(stop)) = (view.kings, self.stop[colour][sq]) {
                sums[Term::PasserKing] += self.distance(e, stop) - self.distance(k, stop);
            }
        }
        sums[Term::Doubled] += i32::from((self.behind[colour][sq].to() & same).non_empty());
        sums[Term::Isolated] += i32::from((self.neighbour_files[sq].to() & view.own_pawns).is_empty());
        let supported = i32::from((self.support[colour][sq].to() & view.own_pawns).non_empty());
        sums[Term::Supported] += supported;
        sums[Term::SupportedUp] += supported * up;
        passed
    }

    /// The piece family's terms of a piece (not pawn-type) on `sq`.
    #[inline(always)]
    fn piece_terms<B: Bits>(&self, view: &SideView<B>, sq: Square, sums: &mut Sums) {
        let file = self.file[sq].to();
        if (file & view.own_pawns).is_empty() {
            sums[Term::SemiOpen] += 1;
            sums[Term::Open] += i32::from((file & view.enemy_pawns).is_empty());
        }
        if view.pawn_attacks.has(sq) {
            let chasers = (self.front[view.colour][sq] & self.neighbour_files[sq]).to() & view.enemy_pawns;
            sums[Term::Outpost] += i32::from(chasers.is_empty());
        }
    }
}

/// The attack terms, counted apart from the per-square walk once both sides' attacks (`attacks`), the squares each type can
/// go to (`reach_by_type`) and each side's pieces' squares of the enemy king's zone
/// (`zone_attacks`) are known: hanging pieces, safe checks and the king's danger.
#[inline(always)]
fn attack_terms<B: Bits>(
    pos: &Position<B>,
    w: &Weights,
    attacks: &[Bitboard<B>; 2],
    reach_by_type: &[[Bitboard<B>; MAX_TYPES]; 2],
    passers: &[Bitboard<B>; 2],
    zone_attacks: &[i32; 2],
    add: &mut impl FnMut(usize, usize, i32),
) {
    let v = pos.variant();
    let table_end = w.tapered_len();
    let occ = pos.occupied();
    let tables = &*w.tables;
    for colour in Colour::BOTH {
        let sign = colour.sign();
        let them = !colour;
        let enemy_royals = pos.royals(them);
        // A bare enemy, its royal pieces alone, against more: what mates without a pawn.
        if pos.colour_bb(them) == enemy_royals
            && enemy_royals.non_empty()
            && pos.colour_bb(colour) != pos.royals(colour)
        {
            let king = enemy_royals.lsb();
            let side = |k: usize| w.side_index(k);
            let room = reach_by_type[them].iter().fold(Bitboard::EMPTY, |a, &r| a | r) & !attacks[colour];
            for (k, amount) in [(BARE_EDGE, tables.centre_max - tables.centre[king]), (BARE_ROOM, room.count() as i32)]
            {
                add(side(k), side(k), sign * amount);
            }
            if let Some(own) = pos.royals(colour).into_iter().next() {
                add(side(BARE_NEAR), side(BARE_NEAR), sign * (tables.span - tables.distance(own, king)));
            }
        }
        // Passed pawn-type pieces whose way up their file no enemy piece holds or attacks.
        let (passers, unsafe_) = (passers[colour.index()], pos.colour_bb(them) | attacks[them]);
        for ty in v.pawn_types.iter() {
            let free: i32 = (passers & pos.pieces(colour, ty))
                .into_iter()
                .filter(|&sq| ((tables.front[colour][sq] & tables.file[sq]).to() & unsafe_).is_empty())
                .map(|sq| tables.up[colour][sq])
                .sum();
            if free != 0 {
                let j = w.index(Term::PassedFree, ty);
                add(j, j + table_end, sign * free);
            }
        }
        let hanging = pos.colour_bb(colour) & attacks[them] & !attacks[colour];
        for ty in v.piece_types().filter(|&t| hanging.non_empty() && !v.piece(t).royal) {
            let n = (hanging & pos.type_bb(ty)).count() as i32;
            if n != 0 {
                let j = w.index(Term::Hanging, ty);
                add(j, j + table_end, sign * n);
            }
        }
        // Checks on a side's only royal piece (a check on one of several threatens little).
        if enemy_royals.count() != 1 {
            continue;
        }
        let king = enemy_royals.lsb();
        let safe = !attacks[them];
        let checkers: TypeSet = v
            .piece_types()
            .filter(|&t| !v.piece(t).royal && !v.piece(t).pawn && (reach_by_type[colour][t] & safe).non_empty())
            .collect();
        let mut checks = 0;
        if !checkers.is_empty() {
            let origins = pos.attack_origins_of(king, colour, checkers, occ);
            for ty in checkers {
                let n = (reach_by_type[colour][ty] & safe & origins[ty]).count() as i32;
                if n != 0 {
                    let j = w.index(Term::SafeCheck, ty);
                    add(j, j + table_end, sign * n);
                    checks += n;
                }
            }
        }
        let attack = zone_attacks[colour.index()] + checks;
        if attack != 0 {
            let (_, ty) = pos.piece_at(king).expect("a royal piece stands on its square");
            let j = w.index(Term::KingDanger, ty);
            add(j, j + table_end, sign * attack * attack);
        }
    }
}

/// The evaluation in centipawns from the side to move's view, kept below the mate scores.
pub fn evaluate<B: Bits>(pos: &Position<B>, w: &Weights) -> i32 {
    // In i64, as a weights file may hold any i32.
    let (mut mg, mut eg) = (0i64, 0i64);
    let material = visit(pos, w, |j, e, amount| {
        mg += amount as i64 * w.values[j] as i64;
        eg += amount as i64 * w.values[e] as i64;
    });
    let phase = w.phase_of(material) as i64;
    let limit = (MATE_BOUND - 1) as i64;
    let score = ((mg * phase + eg * (PHASE as i64 - phase)) / PHASE as i64).clamp(-limit, limit) as i32;
    pos.side_to_move().sign() * score
}
