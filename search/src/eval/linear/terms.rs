//! The terms of the linear evaluation, one table (`terms!` below: name, family, defaults).
//! here names a variant: every term is defined for any piece (by its moves, its `royal` or
//! `pawn` flag) and every weight is data. The terms are one table (`terms!` below: name,
//! family, defaults); what each counts:
//!
//! Per piece type, one weight each (centipawns per unit of the feature):
//! - `material`: piece count (White minus Black); for a royal piece, the royals beyond a side's
//!   first (a second Spartan king is worth something, the last is the game). Defaults come
//!   from the variant file; a piece without a value gets `40 × its mean number of moves on an
//!   empty board` (about what the classical values give per move: N 5.25 → 210+, R 14 → 560,
//!   Q 22.75 → 910), pawn-type pieces 100, a side's only royal piece 0.
//! - `centre`: per piece, the steps from the nearest edge file plus from the nearest edge rank.
//!   By default only royal pieces have it, in the endgame (16 a step): a king that stays home
//!   when the pieces are gone cannot escort a pawn or bare the enemy king (chess at 1,000
//!   nodes: +24 Elo at 8 a step, +15 more at 16; data/weights/README.md for the rest).
//! - `advance`: per piece, the ranks it stands from its own back rank.
//! - `mobility`: per piece, its pseudo-legal moves (to empty squares or captures).
//! - `passed`, `passed2`: per pawn-type piece with no enemy pawn-type piece ahead of it on its
//!   own or a neighbouring file, the ranks it has advanced, and their square.
//! - `king_attack`: per piece, the squares next to an enemy royal piece that it attacks.
//! - `shelter`: per royal piece, its own pawn-type pieces on the squares just ahead of it.
//! - `doubled`: per pawn-type piece, one of its own type on the same file behind it.
//! - `isolated`: per pawn-type piece, no own pawn-type piece on a neighbouring file.
//! - `supported`: per pawn-type piece, an own pawn-type piece beside it or defending it.
//! - `pair`: 1 for a side holding two or more of the type (the bishop pair, for any piece).
//! - `threat`: per piece, the enemy pieces it attacks that are worth more than it (by the
//!   variant's values; royal pieces neither threaten nor count here, `king_attack` has them):
//!   two of them are a fork the quiet search cannot see.
//! - `hanging`: per piece, attacked by an enemy piece and defended by none of its own.
//! - `restricted`: per piece, the squares of its mobility that an enemy pawn-type piece
//!   attacks (where it could go only to be chased or lost). 0 by default: fitted where a
//!   variant's weights are (chess).
//! - `open`, `semi_open`: per piece (pawn-type pieces aside), on a file with no pawn-type
//!   piece of either side, or with none of its own (the open file a rook wants).
//! - `outpost`: per piece (pawn-type pieces aside), defended by an own pawn-type piece where
//!   no enemy pawn-type piece on a neighbouring file ahead can come to chase it.
//! - `passer_king`: per passed pawn-type piece, the enemy royal piece's distance to the
//!   square ahead of it less the own royal piece's (kings that escort or stop a passer; of
//!   several royal pieces, the one on the lowest square).
//! - `king_assault`: `king_attack` again, counted only when two pieces or more (pawn-type and
//!   royal pieces aside) attack there: an attack grows faster than its attackers.
//! - `passed_free`: per passed pawn-type piece whose squares ahead on its file no enemy piece
//!   stands on or attacks, the ranks it has advanced (nothing holds it yet).
//! - `supported_up`: per `supported` pawn-type piece, the ranks it has advanced (a chain or a
//!   phalanx is worth more further up).
//! - `king_danger`: the square of a side's attack on the enemy royal piece (a side's only
//!   one), counted on that piece's type: the squares of its zone that the side's pieces
//!   (pawn-type and royal pieces aside) attack, plus the side's safe checks (below). An
//!   attack grows faster than its parts, which the linear terms alone cannot say.
//!
//! These eight are 0 by default, fitted where a variant's weights are.
//! - `safe_check`: per piece (pawn-type and royal pieces aside), the squares of its moves
//!   from which it would attack the enemy royal piece and that no enemy piece attacks: the
//!   checks an attack is made of. Counted against a side's only royal piece (a check on one
//!   of two threatens little). 30 cp middlegame, 10 endgame by default (chess, 5,000 nodes:
//!   +31 Elo; data/weights/README.md).
//!
//! And per piece type and square, a piece-square table (`pst`), the same for both sides seen
//! from their own back rank and for a square and its mirror across the middle file. Its
//! default is the piece's mobility on that square of an empty board above its mean, so that a
//! variant nobody tuned still centralises its pieces as well as their moves say.
//!
//! All but `material` are tapered: the table of the group's name weighs the position with all
//! of the start position's pieces (pawns and royals aside) on the board, `<group>_end` the one
//! with none, and the evaluation blends the two by the material left (`PHASE`). Material stays
//! one value per piece: it is what a variant designer asks for.
//!
//! And terms of the position as a whole (`[side]` in the weights file):
//! - `white`: +1 for White, always, 0 by default: the balance of two different armies (Spartan
//!   chess), which the tuner would otherwise fold into the piece values. (A tempo term for the
//!   side to move was tried and dropped: fitted on quiet positions it came out negative and
//!   cost 40 to 55 Elo in chess and Sultan's Game.)
//! - `bare_edge`, `bare_near`, `bare_room`: against a bare side (its royal pieces alone), for
//!   the side with more: the bare royal piece's steps from the centre (`centre`'s most less
//!   its own), the board's longest king distance less the distance between the royal pieces,
//!   and the squares the bare royal piece can go to that are not attacked. 30, 15 and −10 cp
//!   by default: what mates without a pawn, which a search of 1,000 nodes does not see. Without
//!   them hoplite at 1,000 nodes a move mated from 13 of 50 random KRK and 16 of 50 KQK starts
//!   in chess and from none of 16 on the Sultan's Game's 11×11 board, with them from all
//!   (data/bare-king/; data/weights/README.md).

use hoplite_core::PieceType;

/// Which pieces can have a term, and so which of a piece's sums `visit` reads: every piece's,
/// pawn-type pieces' only, the other pieces' only, or the attack terms, counted apart from the
/// per-square walk once both sides' attacks are known (and material, counted per type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Material,
    Common,
    Pawn,
    Piece,
    Attack,
}

/// A term's default (middlegame, endgame) weights by kind of piece: a piece (not a pawn, not
/// royal), a colour-bound one, a pawn-type piece, a royal piece. Material's come from the
/// variant (`default_material`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defaults {
    pub piece: (i32, i32),
    pub bound: (i32, i32),
    pub pawn: (i32, i32),
    pub royal: (i32, i32),
}

const NONE: Defaults = Defaults { piece: (0, 0), bound: (0, 0), pawn: (0, 0), royal: (0, 0) };
const fn pawns(mg: i32, eg: i32) -> Defaults {
    Defaults { pawn: (mg, eg), ..NONE }
}
const fn royals(mg: i32, eg: i32) -> Defaults {
    Defaults { royal: (mg, eg), ..NONE }
}
const fn bound(mg: i32, eg: i32) -> Defaults {
    Defaults { bound: (mg, eg), ..NONE }
}
/// Pieces, colour-bound or not.
const fn pieces(mg: i32, eg: i32) -> Defaults {
    Defaults { piece: (mg, eg), bound: (mg, eg), ..NONE }
}
/// Every piece but the royal ones.
const fn non_royal(mg: i32, eg: i32) -> Defaults {
    Defaults { pawn: (mg, eg), ..pieces(mg, eg) }
}

/// One term with a weight per piece type: its name (the weights file's table, `NAME_end` the
/// endgame one of a tapered term), family and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermSpec {
    pub term: Term,
    pub name: &'static str,
    pub family: Family,
    pub defaults: Defaults,
}

macro_rules! terms {
    ($($term:ident $name:literal $family:ident $defaults:expr;)*) => {
        /// The terms with a weight per piece type, in the order of the weights: material, then
        /// the tapered ones (the module comment says what each counts).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Term {
            $($term,)*
        }

        /// The table of terms, one row each, in `Term`'s order.
        pub const TERMS: [TermSpec; [$(Term::$term),*].len()] = [
            $(TermSpec { term: Term::$term, name: $name, family: Family::$family, defaults: $defaults },)*
        ];
    };
}

terms! {
    Material "material" Material NONE;
    Centre "centre" Common royals(0, 16);
    Advance "advance" Common pawns(6, 6);
    Mobility "mobility" Common non_royal(2, 2);
    Passed "passed" Pawn pawns(2, 4);
    Passed2 "passed2" Pawn pawns(1, 3);
    KingAttack "king_attack" Common non_royal(6, 2);
    Shelter "shelter" Common royals(8, 0);
    Doubled "doubled" Pawn pawns(-10, -20);
    Isolated "isolated" Pawn pawns(-10, -15);
    Supported "supported" Pawn pawns(5, 5);
    Pair "pair" Common bound(30, 50);
    Threat "threat" Common non_royal(40, 30);
    Hanging "hanging" Attack Defaults { pawn: (-10, -10), ..pieces(-40, -20) };
    Restricted "restricted" Common NONE;
    Open "open" Piece NONE;
    SemiOpen "semi_open" Piece NONE;
    Outpost "outpost" Piece NONE;
    PasserKing "passer_king" Pawn NONE;
    KingAssault "king_assault" Attack NONE;
    SafeCheck "safe_check" Attack pieces(30, 10);
    PassedFree "passed_free" Attack NONE;
    SupportedUp "supported_up" Pawn NONE;
    KingDanger "king_danger" Attack NONE;
}

impl Term {
    /// Its row of `TERMS`.
    pub fn spec(self) -> &'static TermSpec {
        &TERMS[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.spec().name
    }
    /// The terms of a tapered pair (all but material).
    pub fn tapered() -> impl Iterator<Item = Term> {
        TERMS[1..].iter().map(|t| t.term)
    }
}

/// The terms of a family, in the table's order (built at compile time, so that `visit`'s
/// loops over them unroll).
const fn family<const N: usize>(f: Family) -> [Term; N] {
    let mut out = [Term::Material; N];
    let (mut i, mut n) = (0, 0);
    while i < TERMS.len() {
        if TERMS[i].family as u8 == f as u8 {
            out[n] = TERMS[i].term;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "a family's length");
    out
}
const fn family_len(f: Family) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < TERMS.len() {
        n += (TERMS[i].family as u8 == f as u8) as usize;
        i += 1;
    }
    n
}
pub(super) const COMMON: [Term; family_len(Family::Common)] = family(Family::Common);
pub(super) const PAWN: [Term; family_len(Family::Pawn)] = family(Family::Pawn);
pub(super) const PIECE: [Term; family_len(Family::Piece)] = family(Family::Piece);

/// A whole-position term: its name in the weights file's `[side]` table and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTerm {
    pub name: &'static str,
    pub default: i32,
    /// Whether the tuner fits it. White's balance is in every position; a bare royal piece is
    /// too rare in self-play for a fit to set the bare terms, which it turned against the mate
    /// (chess: `bare_edge` 30 → −16, `bare_room` −10 → +12; data/weights/README.md).
    pub fitted: bool,
}

/// The whole-position terms, after the tables (the module comment says what each counts).
pub const SIDE: [SideTerm; 4] = [
    SideTerm { name: "white", default: 0, fitted: true },
    SideTerm { name: "bare_edge", default: 30, fitted: false },
    SideTerm { name: "bare_near", default: 15, fitted: false },
    SideTerm { name: "bare_room", default: -10, fitted: false },
];
/// Places in `SIDE`.
pub(super) const WHITE: usize = 0;
pub(super) const BARE_EDGE: usize = 1;
pub(super) const BARE_NEAR: usize = 2;
pub(super) const BARE_ROOM: usize = 3;
/// The game phase runs from 0 (no pieces but pawns and royals) to `PHASE` (the start
/// position's pieces, or more).
pub const PHASE: i32 = 64;

/// How the weights lie in `Weights::values`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `(term, type)`; a tapered term's middlegame weight.
    Table(Term, PieceType),
    /// The endgame weight of a tapered term.
    TableEnd(Term, PieceType),
    /// `(type, square class)` of the middlegame piece-square table.
    Pst(PieceType, usize),
    PstEnd(PieceType, usize),
    /// A whole-position term.
    Side(usize),
}
