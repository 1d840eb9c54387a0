//! The evaluation: a weighted sum of features, linear so that the tuner can fit it. Nothing
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

use crate::error::WeightsError;
use crate::score::MATE_BOUND;
use hoplite_core::spec::{line_of, toml_at};
use hoplite_core::{Bitboard, Bits, Colour, PieceType, Position, Square, TypeSet, Variant, MAX_TYPES};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

/// Which pieces can have a term, and so which of a piece's sums `visit` reads: every piece's,
/// pawn-type pieces' only, the other pieces' only, or terms counted apart from the per-square
/// walk (and material, counted per type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Material,
    Common,
    Pawn,
    Piece,
    Apart,
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
    Hanging "hanging" Apart Defaults { pawn: (-10, -10), ..pieces(-40, -20) };
    Restricted "restricted" Common NONE;
    Open "open" Piece NONE;
    SemiOpen "semi_open" Piece NONE;
    Outpost "outpost" Piece NONE;
    PasserKing "passer_king" Pawn NONE;
    KingAssault "king_assault" Apart NONE;
    SafeCheck "safe_check" Apart pieces(30, 10);
    PassedFree "passed_free" Apart NONE;
    SupportedUp "supported_up" Pawn NONE;
    KingDanger "king_danger" Apart NONE;
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
const COMMON: [Term; family_len(Family::Common)] = family(Family::Common);
const PAWN: [Term; family_len(Family::Pawn)] = family(Family::Pawn);
const PIECE: [Term; family_len(Family::Piece)] = family(Family::Piece);

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
const WHITE: usize = 0;
const BARE_EDGE: usize = 1;
const BARE_NEAR: usize = 2;
const BARE_ROOM: usize = 3;
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

/// A value per square, 128 of them whatever the board, so that indexing by a square needs no
/// bounds check (`Square`'s index is masked to 127).
type Board<T> = Box<[T; 128]>;

/// A board's per-square values, the squares past its end left at their default.
fn board<T: Copy + Default>(values: Vec<T>) -> Board<T> {
    let mut b = Box::new([T::default(); 128]);
    b[..values.len()].copy_from_slice(&values);
    b
}

/// What the evaluation derives from the variant alone, per square (`Board`) and per type.
#[derive(Debug, PartialEq)]
struct Shape {
    /// Per piece type: its weight in the phase (0 for pawns and royals).
    phase_value: Vec<i32>,
    /// The phase weight of the start position.
    phase_start: i32,
    /// `front[colour][sq]`: the squares ahead of `sq` on its file and the neighbouring ones.
    front: [Board<Bitboard>; 2],
    /// `behind[colour][sq]`: the squares behind `sq` on its file.
    behind: [Board<Bitboard>; 2],
    /// `beside[sq]`: the squares of the neighbouring files.
    neighbour_files: Board<Bitboard>,
    /// The squares of `sq`'s file.
    file: Board<Bitboard>,
    /// Each square's file and rank (without a division).
    coords: Board<(i8, i8)>,
    /// `stop[colour][sq]`: the square just ahead of `sq`, if the board has one.
    stop: [Board<Option<Square>>; 2],
    /// The squares a king's step away (its zone).
    around: Board<Bitboard>,
    /// `shield[colour][sq]`: the three squares just ahead of `sq`.
    shield: [Board<Bitboard>; 2],
    /// `support[colour][sq]`: where an own pawn supports one on `sq` (beside it, or
    /// diagonally behind it).
    support: [Board<Bitboard>; 2],
    /// Per piece type, the types worth more than it: what it threatens.
    prey: Vec<TypeSet>,
    /// Steps from the nearest edge file plus the nearest edge rank.
    centre: Board<i32>,
    /// The most of `centre`, and the longest king distance on the board.
    centre_max: i32,
    span: i32,
    /// `up[colour][sq]`: the ranks from the side's own back rank.
    up: [Board<i32>; 2],
    /// The piece-square class of each square for each colour, how many there are, and how
    /// many a rank has (half the files, the middle one included).
    class: [Board<usize>; 2],
    classes: usize,
    half: usize,
}

/// All evaluation weights, laid out as `Slot` says: the per-type tables (`TERMS`, then the
/// endgame tables of the tapered ones), the piece-square tables, the `SIDE` terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub types: usize,
    pub letters: Vec<char>,
    pub values: Vec<i32>,
    shape: Arc<Shape>,
}

/// Features of one position: `values[j]` counts towards weight `j` (the middlegame one of a
/// tapered pair) and, blended by `phase`, towards its endgame partner `Weights::end(j)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub values: Vec<i32>,
    pub phase: i32,
}

/// Number of moves of a piece type on each square of an empty board.
fn empty_board_moves(v: &Variant, ty: PieceType) -> Vec<u32> {
    v.geometry
        .all()
        .map(|sq| {
            let (q, c) = v.moves[Colour::White][ty].targets(&v.rays, sq, Bitboard::<u128>::EMPTY);
            (q | c).count()
        })
        .collect()
}

/// Mean number of moves of a piece type over all squares of an empty board.
pub fn empty_board_mobility(v: &Variant, ty: PieceType) -> f64 {
    let m = empty_board_moves(v, ty);
    m.iter().sum::<u32>() as f64 / m.len() as f64
}

/// Whether a side's setup gives it several pieces of royal type `t` (only those have a
/// material value).
fn spare_royals(v: &Variant, t: PieceType) -> bool {
    v.start_counts.iter().any(|c| c[t] > 1)
}

/// A piece's material value by default (see the module comment).
fn default_material(v: &Variant, t: PieceType) -> i32 {
    let p = v.piece(t);
    if p.royal && !spare_royals(v, t) {
        0
    } else if let Some(value) = p.value.filter(|_| !p.royal) {
        value
    } else if p.pawn {
        100
    } else {
        (40.0 * empty_board_mobility(v, t)).round() as i32
    }
}

impl Shape {
    fn new(v: &Variant) -> Shape {
        let geo = v.geometry;
        let phase_value: Vec<i32> = v
            .piece_types()
            .map(|t| if v.piece(t).royal || v.piece(t).pawn { 0 } else { default_material(v, t).max(0) })
            .collect();
        let phase_start =
            v.piece_types().map(|t| (v.start_counts[0][t] + v.start_counts[1][t]) as i32 * phase_value[t]).sum();
        let squares = |f: &dyn Fn(i32, i32) -> bool, sq: Square| {
            let (file, rank) = (geo.file(sq) as i32, geo.rank(sq) as i32);
            geo.all().filter(|&s| f(geo.file(s) as i32 - file, geo.rank(s) as i32 - rank)).collect()
        };
        let per_colour = |f: &dyn Fn(i32, i32, i32) -> bool| {
            Colour::BOTH.map(|c| {
                let up = c.sign();
                geo.all().map(|sq| squares(&|df, dr| f(df, dr * up, up), sq)).collect::<Vec<Bitboard>>()
            })
        };
        let half = geo.files.div_ceil(2);
        let class = Colour::BOTH.map(|c| {
            board(
                geo.all()
                    .map(|sq| geo.relative_rank(c, sq) * half + geo.file(sq).min(geo.files - 1 - geo.file(sq)))
                    .collect(),
            )
        });
        let centre = geo
            .all()
            .map(|sq| {
                let (f, r) = (geo.file(sq), geo.rank(sq));
                (f.min(geo.files - 1 - f) + r.min(geo.ranks - 1 - r)) as i32
            })
            .collect();
        let centre: Board<i32> = board(centre);
        let centre_max = centre.iter().copied().max().unwrap_or(0);
        let up = Colour::BOTH.map(|c| board(geo.all().map(|sq| geo.relative_rank(c, sq) as i32).collect()));
        let prey = v
            .piece_types()
            .map(|t| {
                let worth = |u: PieceType| default_material(v, u);
                v.piece_types().filter(|&u| !v.piece(t).royal && !v.piece(u).royal && worth(u) > worth(t)).collect()
            })
            .collect();
        Shape {
            prey,
            phase_value,
            phase_start,
            support: per_colour(&|df, dr, _| df.abs() == 1 && (dr == 0 || dr == -1)).map(board),
            centre,
            centre_max,
            span: geo.files.max(geo.ranks) as i32 - 1,
            up,
            front: per_colour(&|df, dr, _| df.abs() <= 1 && dr > 0).map(board),
            behind: per_colour(&|df, dr, _| df == 0 && dr < 0).map(board),
            neighbour_files: board(geo.all().map(|sq| squares(&|df, _| df.abs() == 1, sq)).collect()),
            file: board(geo.all().map(|sq| squares(&|df, _| df == 0, sq)).collect()),
            coords: board(geo.all().map(|sq| (geo.file(sq) as i8, geo.rank(sq) as i8)).collect()),
            stop: per_colour(&|df, dr, _| df == 0 && dr == 1)
                .map(|v: Vec<Bitboard>| board(v.into_iter().map(|mut b| b.next()).collect())),
            around: board(
                geo.all()
                    .map(|sq| squares(&|df, dr| df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0), sq))
                    .collect(),
            ),
            shield: per_colour(&|df, dr, _| df.abs() <= 1 && dr == 1).map(board),
            class,
            classes: half * geo.ranks,
            half,
        }
    }

    /// King steps from `a` to `b`.
    #[inline(always)]
    fn distance(&self, a: Square, b: Square) -> i32 {
        let ((fa, ra), (fb, rb)) = (self.coords[a], self.coords[b]);
        (fa - fb).abs().max((ra - rb).abs()) as i32
    }
}

impl Weights {
    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// The number of piece-square classes (a square and its mirror are one).
    pub fn classes(&self) -> usize {
        self.shape.classes
    }
    fn tapered_len(&self) -> usize {
        (TERMS.len() - 1) * self.types
    }
    fn pst_start(&self) -> usize {
        (2 * TERMS.len() - 1) * self.types
    }
    fn side_start(&self) -> usize {
        self.pst_start() + 2 * self.types * self.classes()
    }
    /// Index of `(term, type)`; for a tapered term, its middlegame weight.
    #[inline(always)]
    pub fn index(&self, term: Term, ty: PieceType) -> usize {
        term as usize * self.types + ty.index()
    }
    /// The weight of `(term, type)` (a tapered term's middlegame one).
    #[inline(always)]
    pub fn get(&self, term: Term, ty: PieceType) -> i32 {
        self.values[self.index(term, ty)]
    }
    /// The endgame weight of a tapered `(term, type)`.
    pub fn get_end(&self, term: Term, ty: PieceType) -> i32 {
        self.values[self.end(self.index(term, ty))]
    }
    pub fn set(&mut self, term: Term, ty: PieceType, value: i32) {
        let j = self.index(term, ty);
        self.values[j] = value;
    }
    /// Sets both weights of a tapered `(term, type)`.
    pub fn set_tapered(&mut self, term: Term, ty: PieceType, (mg, eg): (i32, i32)) {
        let j = self.index(term, ty);
        self.values[j] = mg;
        let e = self.end(j);
        self.values[e] = eg;
    }
    /// Index of the middlegame piece-square weight of `ty` on square class `class`.
    #[inline(always)]
    pub fn pst_index(&self, ty: PieceType, class: usize) -> usize {
        self.pst_start() + ty.index() * self.classes() + class
    }
    /// Index of whole-position term `k` (of `SIDE`).
    pub fn side_index(&self, k: usize) -> usize {
        self.side_start() + k
    }
    /// The endgame partner of weight `j`: itself unless `j` is a tapered middlegame weight.
    #[inline(always)]
    pub fn end(&self, j: usize) -> usize {
        let pst = self.types * self.classes();
        if (self.types..TERMS.len() * self.types).contains(&j) {
            j + self.tapered_len()
        } else if (self.pst_start()..self.pst_start() + pst).contains(&j) {
            j + pst
        } else {
            j
        }
    }
    /// What weight `j` is.
    pub fn slot(&self, j: usize) -> Slot {
        let pst = self.types * self.classes();
        let ty = PieceType::new;
        if j < TERMS.len() * self.types {
            Slot::Table(TERMS[j / self.types].term, ty(j % self.types))
        } else if j < self.pst_start() {
            let k = j - TERMS.len() * self.types;
            Slot::TableEnd(TERMS[k / self.types + 1].term, ty(k % self.types))
        } else if j < self.pst_start() + pst {
            let k = j - self.pst_start();
            Slot::Pst(ty(k / self.classes()), k % self.classes())
        } else if j < self.side_start() {
            let k = j - self.pst_start() - pst;
            Slot::PstEnd(ty(k / self.classes()), k % self.classes())
        } else {
            Slot::Side(j - self.side_start())
        }
    }
    /// The square (White's, on the board's left half) that stands for a piece-square class.
    pub fn class_square(&self, v: &Variant, class: usize) -> String {
        let half = self.shape.half;
        v.geometry.name(v.geometry.square(class % half, class / half))
    }
    /// (table name, key) of weight `j`, as the weights file and values.csv name it.
    pub fn name(&self, j: usize) -> (String, String) {
        let l = |t: PieceType| self.letters[t].to_string();
        match self.slot(j) {
            Slot::Table(g, t) => (g.name().to_string(), l(t)),
            Slot::TableEnd(g, t) => (format!("{}_end", g.name()), l(t)),
            Slot::Pst(t, c) => ("pst".into(), format!("{}{c}", l(t))),
            Slot::PstEnd(t, c) => ("pst_end".into(), format!("{}{c}", l(t))),
            Slot::Side(k) => ("side".into(), SIDE[k].name.to_string()),
        }
    }

    /// The defaults for a variant (see the module comment).
    pub fn defaults(v: &Variant) -> Weights {
        let types = v.pieces.len();
        let shape = Shape::new(v);
        let classes = shape.classes;
        let mut w = Weights {
            types,
            letters: v.letters(),
            values: vec![0; (2 * TERMS.len() - 1) * types + 2 * types * classes + SIDE.len()],
            shape: Arc::new(shape),
        };
        for (k, term) in SIDE.iter().enumerate() {
            let j = w.side_index(k);
            w.values[j] = term.default;
        }
        for (t, p) in v.typed_pieces() {
            w.set(Term::Material, t, default_material(v, t));
            let piece = !p.royal && !p.pawn;
            for term in Term::tapered() {
                let d = &term.spec().defaults;
                let weights = match (p.royal, p.pawn, p.colour_bound()) {
                    (true, _, _) => d.royal,
                    (false, true, _) => d.pawn,
                    (false, false, true) => d.bound,
                    (false, false, false) => d.piece,
                };
                w.set_tapered(term, t, weights);
            }
            if piece {
                let moves = empty_board_moves(v, t);
                let mean = moves.iter().sum::<u32>() as f64 / moves.len() as f64;
                let mut sum = vec![(0.0, 0); classes];
                for (sq, &m) in moves.iter().enumerate() {
                    let c = w.shape.class[Colour::White][sq];
                    sum[c].0 += m as f64;
                    sum[c].1 += 1;
                }
                for (c, (total, n)) in sum.into_iter().enumerate() {
                    let value = (4.0 * (total / n.max(1) as f64 - mean)).round() as i32;
                    let j = w.pst_index(t, c);
                    w.values[j] = value;
                    let e = w.end(j);
                    w.values[e] = value;
                }
            }
        }
        w
    }

    /// Reads a weights file; tables or letters it leaves out keep the variant's defaults, but
    /// an endgame weight left out follows the file's middlegame weight of the same piece.
    pub fn load(v: &Variant, path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| WeightsError::Read { path: path.display().to_string(), message: e.to_string() })?;
        Weights::from_toml(v, &path.display().to_string(), &text)
    }

    pub fn from_toml(v: &Variant, label: &str, text: &str) -> Result<Weights, WeightsError> {
        type Table = BTreeMap<Spanned<String>, Spanned<toml::Value>>;
        let file: BTreeMap<Spanned<String>, Table> = toml::from_str(text)
            .map_err(|e| WeightsError::Toml { at: toml_at(label, text, &e), message: e.message().to_string() })?;
        let at = |span: std::ops::Range<usize>| format!("{label}:{}", line_of(text, span.start));
        let mut w = Weights::defaults(v);
        let mut given = vec![false; w.len()];
        let tables: Vec<String> = TERMS
            .iter()
            .map(|t| t.name.to_string())
            .chain(Term::tapered().map(|t| format!("{}_end", t.name())))
            .chain(["pst".into(), "pst_end".into()])
            .collect();
        for (table, entries) in &file {
            let name = table.get_ref();
            let number = |value: &Spanned<toml::Value>| -> Result<i32, WeightsError> {
                value.get_ref().as_integer().and_then(|x| i32::try_from(x).ok()).ok_or_else(|| WeightsError::Toml {
                    at: at(value.span()),
                    message: format!("[{name}]: expected a whole number of centipawns"),
                })
            };
            if name == "side" {
                for (key, value) in entries {
                    let k =
                        SIDE.iter().position(|s| s.name == key.get_ref()).ok_or_else(|| WeightsError::SideTerm {
                            at: at(key.span()),
                            key: key.get_ref().clone(),
                            options: SIDE.map(|s| s.name).join(", "),
                        })?;
                    let j = w.side_index(k);
                    w.values[j] = number(value)?;
                }
                continue;
            }
            let g = tables.iter().position(|t| t == name).ok_or_else(|| WeightsError::Table {
                at: at(table.span()),
                table: name.clone(),
                options: tables.join(", "),
            })?;
            for (key, value) in entries {
                let letter = key.get_ref();
                let t = letter
                    .chars()
                    .next()
                    .filter(|_| letter.chars().count() == 1)
                    .and_then(|c| v.piece_type(c))
                    .ok_or_else(|| WeightsError::Letter {
                        at: at(key.span()),
                        table: name.clone(),
                        letter: letter.clone(),
                        variant: v.name.clone(),
                    })?;
                if name.starts_with("pst") {
                    let list = value.get_ref().as_array().filter(|a| a.len() == w.classes()).ok_or_else(|| {
                        WeightsError::Toml {
                            at: at(value.span()),
                            message: format!("[{name}]: '{letter}' needs {} numbers, a square class each", w.classes()),
                        }
                    })?;
                    for (c, x) in list.iter().enumerate() {
                        let x =
                            x.as_integer().and_then(|x| i32::try_from(x).ok()).ok_or_else(|| WeightsError::Toml {
                                at: at(value.span()),
                                message: format!("[{name}]: '{letter}': not a number"),
                            })?;
                        let j = w.pst_index(t, c);
                        let j = if name == "pst" { j } else { w.end(j) };
                        w.values[j] = x;
                        given[j] = true;
                    }
                } else {
                    let j = match TERMS.get(g) {
                        Some(term) => w.index(term.term, t),
                        None => w.end(w.index(TERMS[g - TERMS.len() + 1].term, t)),
                    };
                    w.values[j] = number(value)?;
                    given[j] = true;
                }
            }
        }
        for j in 0..w.len() {
            let e = w.end(j);
            if e != j && given[j] && !given[e] {
                w.values[e] = w.values[j];
            }
        }
        Ok(w)
    }

    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        let tables = TERMS.iter().map(|t| (t.name.to_string(), t.term, false));
        let ends = Term::tapered().map(|t| (format!("{}_end", t.name()), t, true));
        for (name, g, end) in tables.chain(ends) {
            s += &format!("[{name}]\n");
            for (t, l) in PieceType::first(self.types).zip(&self.letters) {
                let j = self.index(g, t);
                s += &format!("{l} = {}\n", self.values[if end { self.end(j) } else { j }]);
            }
            s += "\n";
        }
        let half = self.shape.half;
        for (name, end) in [("pst", false), ("pst_end", true)] {
            s += &format!(
                "# square classes from White's a1 along the rank to the middle file, rank by rank\n[{name}]\n"
            );
            for (t, l) in PieceType::first(self.types).zip(&self.letters) {
                let row = |r: usize| -> Vec<String> {
                    (0..half)
                        .map(|f| {
                            let j = self.pst_index(t, r * half + f);
                            self.values[if end { self.end(j) } else { j }].to_string()
                        })
                        .collect()
                };
                let rows: Vec<String> = (0..self.classes() / half).map(|r| row(r).join(", ")).collect();
                s += &format!("{l} = [\n    {},\n]\n", rows.join(",\n    "));
            }
            s += "\n";
        }
        s += "[side]\n";
        for (k, term) in SIDE.iter().enumerate() {
            s += &format!("{} = {}\n", term.name, self.values[self.side_index(k)]);
        }
        s
    }

    /// The game phase of a position, 0 to `PHASE`.
    pub fn phase<B: Bits>(&self, pos: &Position<B>) -> i32 {
        let material =
            PieceType::first(self.types).map(|t| pos.type_bb(t).count() as i32 * self.shape.phase_value[t]).sum();
        self.phase_of(material)
    }

    /// The phase for this much phase material on the board.
    #[inline(always)]
    fn phase_of(&self, material: i32) -> i32 {
        match self.shape.phase_start {
            // No pieces at the start: every position is an ending.
            0 => 0,
            start => (PHASE * material / start).min(PHASE),
        }
    }
}

/// Feature values of a position from White's view (see `Features`).
pub fn features(pos: &Position, w: &Weights) -> Features {
    let mut values = vec![0; w.len()];
    let material = visit(pos, w, |j, _, amount| values[j] += amount);
    Features { values, phase: w.phase_of(material) }
}

/// Calls `add(weight index, its endgame partner, amount from White's view)` for every feature
/// occurrence; returns the phase material on the board.
#[inline(always)]
fn visit<B: Bits>(pos: &Position<B>, w: &Weights, mut add: impl FnMut(usize, usize, i32)) -> i32 {
    let v = pos.variant();
    let shape = &*w.shape;
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
        let enemy_zone: Bitboard<B> = royals[them].fold(Bitboard::EMPTY, |z, k| z | shape.around[k].to());
        let kings = [colour, them].map(|c| royals[c].into_iter().next());
        let camp = Camp { colour, own_pawns, enemy_pawns, pawn_attacks: pawn_attacks[colour], kings };
        // Per type, its squares of the enemy king's zone, and the types that attack there.
        let (mut assault, mut assailants, mut assaulting) = ([0i32; MAX_TYPES], 0, TypeSet::EMPTY);
        let class = &shape.class[colour];
        let up = &shape.up[colour];
        for (ty, zone_hits) in v.piece_types().zip(assault.iter_mut()) {
            let pcs = pos.pieces(colour, ty);
            if pcs.is_empty() {
                continue;
            }
            let count = pcs.count() as i32;
            material += count * shape.phase_value[ty];
            let piece = v.piece(ty);
            let m = w.index(Term::Material, ty);
            add(m, m, sign * if piece.royal { count - 1 } else { count });
            let ms = &v.moves[colour][ty];
            let pawn = piece.pawn;
            let assails = i32::from(!pawn && !piece.royal);
            // Per group, the sum over this type's pieces: one weight lookup per group and type.
            let mut sums = Sums([0; TERMS.len()]);
            let pst = w.pst_index(ty, 0);
            let prey = pos.types_bb(shape.prey[ty]) & enemy;
            for sq in pcs {
                sums[Term::Centre] += shape.centre[sq];
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
                        if shape.pawn_terms(&camp, sq, up, pcs, &mut sums) {
                            passers[colour.index()].set(sq);
                        }
                    }
                    false => shape.piece_terms(&camp, sq, &mut sums),
                }
                if piece.royal {
                    sums[Term::Shelter] += (shape.shield[colour][sq].to() & own_pawns).count() as i32;
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
    apart_terms(pos, w, &attacks, &reach_by_type, &passers, &zone_attacks, &mut add);
    material
}

/// What one side's per-square terms read.
struct Camp<B: Bits> {
    colour: Colour,
    own_pawns: Bitboard<B>,
    enemy_pawns: Bitboard<B>,
    /// The squares its pawn-type pieces attack.
    pawn_attacks: Bitboard<B>,
    /// Its royal piece and the enemy's (the one on the lowest square of several).
    kings: [Option<Square>; 2],
}

impl Shape {
    /// The pawn family's terms of a pawn-type piece on `sq`, `up` ranks from its side's back
    /// rank; `same`: the pieces of its type and side. Whether it is passed.
    #[inline(always)]
    fn pawn_terms<B: Bits>(&self, camp: &Camp<B>, sq: Square, up: i32, same: Bitboard<B>, sums: &mut Sums) -> bool {
        let colour = camp.colour;
        let passed = (self.front[colour][sq].to() & camp.enemy_pawns).is_empty();
        if passed {
            sums[Term::Passed] += up;
            sums[Term::Passed2] += up * up;
            if let ([Some(k), Some(e)], Some(stop)) = (camp.kings, self.stop[colour][sq]) {
                sums[Term::PasserKing] += self.distance(e, stop) - self.distance(k, stop);
            }
        }
        sums[Term::Doubled] += i32::from((self.behind[colour][sq].to() & same).non_empty());
        sums[Term::Isolated] += i32::from((self.neighbour_files[sq].to() & camp.own_pawns).is_empty());
        let supported = i32::from((self.support[colour][sq].to() & camp.own_pawns).non_empty());
        sums[Term::Supported] += supported;
        sums[Term::SupportedUp] += supported * up;
        passed
    }

    /// The piece family's terms of a piece (not pawn-type) on `sq`.
    #[inline(always)]
    fn piece_terms<B: Bits>(&self, camp: &Camp<B>, sq: Square, sums: &mut Sums) {
        let file = self.file[sq].to();
        if (file & camp.own_pawns).is_empty() {
            sums[Term::SemiOpen] += 1;
            sums[Term::Open] += i32::from((file & camp.enemy_pawns).is_empty());
        }
        if camp.pawn_attacks.has(sq) {
            let chasers = (self.front[camp.colour][sq] & self.neighbour_files[sq]).to() & camp.enemy_pawns;
            sums[Term::Outpost] += i32::from(chasers.is_empty());
        }
    }
}

/// The terms counted apart, once both sides' attacks (`attacks`), the squares each type can
/// go to (`reach_by_type`) and each side's pieces' squares of the enemy king's zone
/// (`zone_attacks`) are known: hanging pieces, safe checks and the king's danger.
#[inline(always)]
fn apart_terms<B: Bits>(
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
    let shape = &*w.shape;
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
            for (k, amount) in [(BARE_EDGE, shape.centre_max - shape.centre[king]), (BARE_ROOM, room.count() as i32)] {
                add(side(k), side(k), sign * amount);
            }
            if let Some(own) = pos.royals(colour).into_iter().next() {
                add(side(BARE_NEAR), side(BARE_NEAR), sign * (shape.span - shape.distance(own, king)));
            }
        }
        // Passed pawn-type pieces whose way up their file no enemy piece holds or attacks.
        let (passers, unsafe_) = (passers[colour.index()], pos.colour_bb(them) | attacks[them]);
        for ty in v.pawn_types.iter() {
            let free: i32 = (passers & pos.pieces(colour, ty))
                .into_iter()
                .filter(|&sq| ((shape.front[colour][sq] & shape.file[sq]).to() & unsafe_).is_empty())
                .map(|sq| shape.up[colour][sq])
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

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::variant::builtin_names;

    fn blend(f: &Features, w: &Weights) -> i32 {
        let (mut mg, mut eg) = (0i64, 0i64);
        for (j, &x) in f.values.iter().enumerate() {
            mg += x as i64 * w.values[j] as i64;
            eg += x as i64 * w.values[w.end(j)] as i64;
        }
        ((mg * f.phase as i64 + eg * (PHASE - f.phase) as i64) / PHASE as i64) as i32
    }

    /// The feature of `group` for piece `letter` in `fen` (White's count minus Black's).
    fn feature(variant: &str, fen: &str, group: Term, letter: char) -> i32 {
        let v = Variant::builtin(variant);
        let w = Weights::defaults(&v);
        features(&Position::from_fen(&v, fen).unwrap(), &w).values[w.index(group, v.piece_type(letter).unwrap())]
    }

    /// What the term of `group` for piece `letter` adds to White's evaluation of `fen` under
    /// the default weights (the feature times its weights, blended by the phase).
    fn contribution(variant: &str, fen: &str, group: Term, letter: char) -> i32 {
        let v = Variant::builtin(variant);
        let w = Weights::defaults(&v);
        let pos = Position::from_fen(&v, fen).unwrap();
        let j = w.index(group, v.piece_type(letter).unwrap());
        let f = features(&pos, &w);
        (f.values[j] * w.values[j] * f.phase + f.values[j] * w.values[w.end(j)] * (PHASE - f.phase)) / PHASE
    }

    #[test]
    fn evaluation_is_the_blend_of_features_and_weights() {
        for name in builtin_names() {
            let v = Variant::builtin(name);
            let mut w = Weights::defaults(&v);
            // Distinct endgame weights, so that the blend is exercised.
            for j in 0..w.len() {
                let e = w.end(j);
                if e != j {
                    w.values[e] = w.values[j] + (j % 7) as i32 - 3;
                }
            }
            let mut pos = Position::startpos(&v);
            let mut moves = Vec::new();
            for i in 0..40 {
                let f = features(&pos, &w);
                let white_view = pos.side_to_move().sign() * evaluate(&pos, &w);
                assert_eq!(blend(&f, &w), white_view, "{name}");
                // The search's narrow path evaluates alike where the board fits 64 bits.
                if v.geometry.fits::<u64>() {
                    assert_eq!(evaluate(&pos.to::<u64>(), &w), evaluate(&pos, &w), "{name}: {}", pos.to_fen());
                }
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[(i * 7) % moves.len()]);
            }
        }
    }

    #[test]
    fn start_positions_of_symmetric_variants_are_level() {
        for name in ["chess", "shatranj", "sultan", "great-shatranj", "rumi-shatranj"] {
            let v = Variant::builtin(name);
            assert_eq!(evaluate(&Position::startpos(&v), &Weights::defaults(&v)), 0, "{name}");
        }
    }

    #[test]
    fn the_phase_runs_from_the_start_position_to_bare_pawns() {
        let v = Variant::builtin("chess");
        let w = Weights::defaults(&v);
        let at = |fen: &str| w.phase(&Position::from_fen(&v, fen).unwrap());
        assert_eq!(at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), PHASE);
        assert_eq!(at("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"), 0);
        // Two queens of 900 out of 2 × (2 × 320 + 2 × 330 + 2 × 500 + 900) = 6,400.
        assert_eq!(at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1"), PHASE * 1800 / 6400);
    }

    #[test]
    fn kings_follow_the_endgame_table_as_the_pieces_go() {
        let v = Variant::builtin("chess");
        let mut w = Weights::defaults(&v);
        w.values.iter_mut().for_each(|x| *x = 0);
        let k = v.piece_type('k').unwrap();
        w.set(Term::Centre, k, -10);
        let e = w.end(w.index(Term::Centre, k));
        w.values[e] = 20;
        let eval = |fen: &str| evaluate(&Position::from_fen(&v, fen).unwrap(), &w);
        // White's king on d4 stands 3 + 3 steps from the edges, Black's on h8 none.
        assert_eq!(eval("rnbqrbnk/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1BNR w - - 0 1"), 6 * -10);
        assert_eq!(eval("7k/p7/8/8/3K4/8/P7/8 w - - 0 1"), 6 * 20);
        // Queens only: phase 18 of 64; Black's king on e8 stands 3 steps from the edges.
        assert_eq!(eval("4k3/8/8/8/3K4/8/8/3Q1q2 w - - 0 1"), (3 * -10 * 18 + 3 * 20 * 46) / 64);
    }

    #[test]
    fn a_king_goes_to_the_centre_once_the_pieces_are_off() {
        // White's king on d4 stands 3 + 3 steps from the edges, Black's on h8 none.
        assert!(contribution("chess", "7k/p7/8/8/3K4/8/P7/8 w - - 0 1", Term::Centre, 'k') > 0);
        assert!(contribution("shatranj", "7k/p7/8/8/3K4/8/P7/8 w - - 0 1", Term::Centre, 'k') > 0);
        // With every piece on, where the king stands is the shelter's business.
        assert_eq!(
            contribution("chess", "rnbqrbnk/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1BNR w - - 0 1", Term::Centre, 'k'),
            0
        );
    }

    #[test]
    fn a_pawn_is_passed_when_no_enemy_pawn_can_stop_it() {
        let passed = |fen: &str| feature("chess", fen, Term::Passed, 'p');
        // White's e5 pawn stands 4 ranks up, Black's g6 pawn 2: neither can stop the other.
        assert_eq!(passed("4k3/8/6p1/4P3/8/8/8/4K3 w - - 0 1"), 4 - 2);
        // On f6 and e5 each stands in the other's way.
        assert_eq!(passed("4k3/8/5p2/4P3/8/8/8/4K3 w - - 0 1"), 0);
        // A pawn behind (d4, 4 ranks up for Black) has passed: both count.
        assert_eq!(passed("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), 4 - 4);
        assert_eq!(passed("4k3/8/8/4P3/8/8/3p4/4K3 w - - 0 1"), 4 - 6);
        assert_eq!(feature("chess", "4k3/8/6p1/4P3/8/8/8/4K3 w - - 0 1", Term::Passed2, 'p'), 16 - 4);
        // White's passed pawn counts for White, more the further it stands.
        let (far, near) = ("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        let gain = |fen| contribution("chess", fen, Term::Passed, 'p') + contribution("chess", fen, Term::Passed2, 'p');
        assert!(gain(far) > gain(near) && gain(near) > 0);
    }

    #[test]
    fn pieces_near_the_enemy_king_count() {
        // Around e8 the queen on e6 reaches d7, e7 and f7 (d8 and f8 lie behind them).
        let near = "4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1";
        assert_eq!(feature("chess", near, Term::KingAttack, 'q'), 3);
        assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Term::KingAttack, 'q'), 0);
        assert!(contribution("chess", near, Term::KingAttack, 'q') > 0);
        // Spartan: each of two kings has a zone; a rook on a6 sees a7 and a8 of b8's, on the
        // seventh it sees into both.
        assert_eq!(feature("spartan", "1k4k1/8/R7/8/8/8/8/4K3 w - - 0 1", Term::KingAttack, 'r'), 2);
        assert_eq!(feature("spartan", "1k4k1/R7/8/8/8/8/8/4K3 w - - 0 1", Term::KingAttack, 'r'), 6);
    }

    #[test]
    fn two_pieces_at_the_king_are_an_assault() {
        let both = |fen: &str, l: char| {
            (feature("chess", fen, Term::KingAttack, l), feature("chess", fen, Term::KingAssault, l))
        };
        // The d4 queen reaches g7 and h8 next to the g8 king; alone, that is no assault.
        let alone = "6k1/8/8/8/3Q4/8/8/4K3 b - - 0 1";
        assert_eq!(both(alone, 'q'), (2, 0));
        // With the h5 knight (g7) it is, for both pieces; a pawn at the king does not make one.
        let two = "6k1/8/8/7N/3Q4/8/8/4K3 b - - 0 1";
        assert_eq!((both(two, 'q'), both(two, 'n')), ((2, 2), (1, 1)));
        assert_eq!(both("6k1/8/7P/8/3Q4/8/8/4K3 b - - 0 1", 'q'), (2, 0));
        // Fitted to Fairy-Stockfish's evaluations, a queen in an assault is worth more.
        let v = Variant::builtin("chess");
        assert!(Weights::for_variant(&v).get(Term::KingAssault, v.piece_type('q').unwrap()) > 0);
    }

    #[test]
    fn a_kings_danger_is_the_square_of_the_attack_on_it() {
        // The d4 queen reaches g7 and h8 of the g8 king's zone, the h5 knight g7; the h6 pawn's
        // g7 and h7 are no part of it. Both pieces have safe checks.
        let fen = "6k1/8/7P/7N/3Q4/8/8/4K3 b - - 0 1";
        let part = |term, l| feature("chess", fen, term, l);
        let (zone, checks) = (
            part(Term::KingAttack, 'q') + part(Term::KingAttack, 'n'),
            part(Term::SafeCheck, 'q') + part(Term::SafeCheck, 'n'),
        );
        assert_eq!((zone, part(Term::KingAttack, 'p')), (3, 2));
        assert!(part(Term::SafeCheck, 'n') > 0 && part(Term::SafeCheck, 'q') > 0);
        assert_eq!(part(Term::KingDanger, 'k'), (zone + checks) * (zone + checks));
        // The same attack by Black counts against White; no attack, no danger.
        let black = "4k3/8/8/3q4/7n/7p/8/6K1 w - - 0 1";
        assert_eq!(feature("chess", black, Term::KingDanger, 'k'), -(zone + checks) * (zone + checks));
        assert_eq!(feature("chess", "4k3/3ppp2/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1", Term::KingDanger, 'k'), 0);
    }

    #[test]
    fn attacks_on_more_valuable_pieces_are_threats() {
        // The e4 pawn forks the rook and the bishop.
        let fork = "4k3/8/8/3r1b2/4P3/8/8/4K3 b - - 0 1";
        assert_eq!(feature("chess", fork, Term::Threat, 'p'), 2);
        assert!(contribution("chess", fork, Term::Threat, 'p') > 0);
        // A knight attacking a rook threatens it; a pawn or the king it attacks, not.
        assert_eq!(feature("chess", "4k3/8/3r4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 1);
        assert_eq!(feature("chess", "4k3/8/3p4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 0);
        assert_eq!(feature("chess", "8/8/3k4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 0);
        // Black's threats count against White.
        let black = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1";
        assert_eq!(feature("chess", black, Term::Threat, 'p'), -1);
        assert!(contribution("chess", black, Term::Threat, 'p') < 0);
    }

    #[test]
    fn checks_from_squares_the_enemy_does_not_attack_are_safe() {
        // The d5 knight can check from e7 and f6, which nothing of Black's attacks.
        let knight = "6k1/8/8/3N4/8/8/8/4K3 w - - 0 1";
        assert_eq!(feature("chess", knight, Term::SafeCheck, 'n'), 2);
        assert!(contribution("chess", knight, Term::SafeCheck, 'n') > 0);
        // The g7 pawn guards f6: one safe check left.
        assert_eq!(feature("chess", "6k1/6p1/8/3N4/8/8/8/4K3 w - - 0 1", Term::SafeCheck, 'n'), 1);
        // A rook checks along open lines only: from a8, not through the g2 pawn from g1.
        assert_eq!(feature("chess", "6k1/8/8/8/8/8/6P1/R3K3 w - - 0 1", Term::SafeCheck, 'r'), 1);
        // Black's checks count against White; a pawn's are not counted.
        assert_eq!(feature("chess", "4k3/8/8/8/3n4/8/8/6K1 w - - 0 1", Term::SafeCheck, 'n'), -2);
        assert_eq!(feature("chess", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", Term::SafeCheck, 'p'), 0);
    }

    #[test]
    fn an_attacked_piece_nobody_defends_hangs() {
        // The rook attacks the knight, which nothing defends: Black's piece hangs.
        let hanging = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        assert_eq!(feature("chess", hanging, Term::Hanging, 'n'), -1);
        assert!(contribution("chess", hanging, Term::Hanging, 'n') > 0);
        // Defended by the e6 pawn, it does not; nor does a piece nobody attacks.
        assert_eq!(feature("chess", "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", Term::Hanging, 'n'), 0);
        assert_eq!(feature("chess", "4k3/8/8/3n4/8/8/8/2R1K3 w - - 0 1", Term::Hanging, 'n'), 0);
    }

    #[test]
    fn files_without_pawns_are_open_or_semi_open() {
        // The e-file holds no pawn: open and semi-open for the rook on e1.
        let open = "k7/p7/8/8/8/8/P7/4RK2 w - - 0 1";
        assert_eq!((feature("chess", open, Term::Open, 'r'), feature("chess", open, Term::SemiOpen, 'r')), (1, 1));
        // Black's e7 pawn leaves it semi-open; White's e2 pawn closes it.
        let semi = "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1";
        assert_eq!((feature("chess", semi, Term::Open, 'r'), feature("chess", semi, Term::SemiOpen, 'r')), (0, 1));
        let closed = "4k3/8/8/8/8/8/4P3/4RK2 w - - 0 1";
        assert_eq!((feature("chess", closed, Term::Open, 'r'), feature("chess", closed, Term::SemiOpen, 'r')), (0, 0));
        // Black's rook on an open file counts against White; pawns themselves never count.
        assert_eq!(feature("chess", "3rk3/8/8/8/8/8/8/4K3 w - - 0 1", Term::Open, 'r'), -1);
        assert_eq!(feature("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Term::SemiOpen, 'p'), 0);
        // Fitted to Fairy-Stockfish's evaluations, a rook wants the open file (data/weights/).
        let v = Variant::builtin("chess");
        let (w, r) = (Weights::for_variant(&v), v.piece_type('r').unwrap());
        assert!(w.get(Term::Open, r) + w.get(Term::SemiOpen, r) > 0);
    }

    #[test]
    fn a_piece_no_pawn_can_chase_stands_on_an_outpost() {
        // The d5 knight, defended by the e4 pawn, with no black pawn on c or e ahead of it.
        let outpost = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(feature("chess", outpost, Term::Outpost, 'n'), 1);
        // A black pawn on c7 could come to c6 and chase it; undefended it is no outpost.
        assert_eq!(feature("chess", "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), 0);
        assert_eq!(feature("chess", "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), 0);
        // Black's, mirrored, counts against White.
        assert_eq!(feature("chess", "4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), -1);
        let v = Variant::builtin("chess");
        assert!(Weights::for_variant(&v).get(Term::Outpost, v.piece_type('n').unwrap()) > 0);
    }

    #[test]
    fn kings_near_a_passed_pawn_escort_or_stop_it() {
        // White's e6 passer, its stop square e7: Black's king on a8 is 4 steps away, White's
        // on e5 two: +2 for White.
        let escorted = "k7/8/4P3/4K3/8/8/8/8 w - - 0 1";
        assert_eq!(feature("chess", escorted, Term::PasserKing, 'p'), 4 - 2);
        // Black's king in front of it, White's far: against White.
        assert_eq!(feature("chess", "4k3/8/4P3/8/8/8/8/K7 w - - 0 1", Term::PasserKing, 'p'), 1 - 6);
        // A pawn that is not passed has no such term.
        assert_eq!(feature("chess", "k7/4p3/4P3/4K3/8/8/8/8 w - - 0 1", Term::PasserKing, 'p'), 0);
        // In the endgame the escort is worth something, fitted on Fairy-Stockfish's evaluations.
        let v = Variant::builtin("chess");
        let w = Weights::for_variant(&v);
        assert!(w.values[w.end(w.index(Term::PasserKing, v.piece_type('p').unwrap()))] > 0);
    }

    #[test]
    fn squares_an_enemy_pawn_attacks_restrict_a_piece() {
        let restricted = |variant: &str, fen: &str| feature(variant, fen, Term::Restricted, 'n');
        // The c6 pawn attacks b5 of the d4 knight's squares; with the e6 pawn f5 too.
        assert_eq!(restricted("chess", "4k3/8/2p5/8/3N4/8/8/4K3 w - - 0 1"), 1);
        assert_eq!(restricted("chess", "4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1"), 2);
        // Black's knight, restricted by White's pawn: counted against Black.
        assert_eq!(restricted("chess", "4k3/8/8/3n4/8/2P5/8/4K3 w - - 0 1"), -1);
        // A pawn-type piece restricts where it captures: a Spartan hoplite straight ahead (e5
        // of the d3 knight's squares), a chess pawn on the diagonals (none of them).
        assert_eq!(restricted("spartan", "4k3/8/4h3/8/8/3N4/8/4K3 w - - 0 1"), 1);
        assert_eq!(restricted("chess", "4k3/8/4p3/8/8/3N4/8/4K3 w - - 0 1"), 0);
        // Fitted to Fairy-Stockfish's chess games, the term costs a knight (data/weights/).
        let v = Variant::builtin("chess");
        assert!(Weights::for_variant(&v).get(Term::Restricted, v.piece_type('n').unwrap()) < 0);
    }

    #[test]
    fn pawns_before_the_king_shelter_it() {
        let shelter = |fen: &str| feature("chess", fen, Term::Shelter, 'k');
        assert_eq!(shelter("4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1"), 3);
        assert_eq!(shelter("4k3/8/8/8/8/5PPP/8/6K1 w - - 0 1"), 0);
        assert_eq!(shelter("6k1/5ppp/8/8/8/8/5PP1/6K1 w - - 0 1"), 2 - 3);
        // It counts while pieces are on (a middlegame term by default).
        let sheltered = "r3k3/8/8/8/8/8/5PPP/R5K1 w - - 0 1";
        assert!(contribution("chess", sheltered, Term::Shelter, 'k') > 0);
    }

    #[test]
    fn doubled_isolated_and_supported_pawns() {
        // c2 and c3 doubled (c2 has one in front... no: c3 has c2 behind it), isolated both.
        let fen = "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1";
        assert_eq!(feature("chess", fen, Term::Doubled, 'p'), 1);
        assert_eq!(feature("chess", fen, Term::Isolated, 'p'), 2);
        assert_eq!(feature("chess", fen, Term::Supported, 'p'), 0);
        // A chain b2-c3 (b2 defends c3) and a phalanx f4-g4: three supported, none isolated.
        let chain = "4k3/8/8/8/5PP1/2P5/1P6/4K3 w - - 0 1";
        assert_eq!(feature("chess", chain, Term::Supported, 'p'), 3);
        assert_eq!(feature("chess", chain, Term::Isolated, 'p'), 0);
        assert!(contribution("chess", chain, Term::Supported, 'p') > 0);
        assert!(contribution("chess", fen, Term::Doubled, 'p') < 0);
        assert!(contribution("chess", fen, Term::Isolated, 'p') < 0);
    }

    #[test]
    fn a_passed_pawn_whose_way_up_is_free() {
        let free = |fen: &str| feature("chess", fen, Term::PassedFree, 'p');
        // e5, 4 ranks up: e6, e7 and e8 empty and unattacked (Black's king on a8).
        assert_eq!(free("k7/8/8/4P3/8/8/8/4K3 w - - 0 1"), 4);
        // A rook attacking e7, or a piece standing on e8, holds the way.
        assert_eq!(free("k7/7r/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
        assert_eq!(free("k3n3/8/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
        // An own piece in the way does not; a pawn that is not passed has no free way.
        assert_eq!(free("k3N3/8/8/4P3/8/8/8/4K3 w - - 0 1"), 4);
        assert_eq!(free("k7/3p4/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
        // Black's d4 pawn, 4 ranks up for Black: counted against White.
        assert_eq!(free("k7/8/8/8/3p4/8/8/7K w - - 0 1"), -4);
        // Fitted to Fairy-Stockfish's Great Shatranj, such a pawn is worth more in the endgame.
        let v = Variant::builtin("great-shatranj");
        let w = Weights::for_variant(&v);
        assert!(w.values[w.end(w.index(Term::PassedFree, v.piece_type('p').unwrap()))] > 0);
    }

    #[test]
    fn supported_pawns_count_the_ranks_they_stand_up() {
        // d5 (4 ranks up) defended by e4; e4 itself is not supported.
        assert_eq!(feature("chess", "4k3/8/8/3P4/4P3/8/8/4K3 w - - 0 1", Term::SupportedUp, 'p'), 4);
        // A phalanx on the third rank: each 2 ranks up.
        assert_eq!(feature("chess", "4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1", Term::SupportedUp, 'p'), 4);
    }

    #[test]
    fn a_pair_of_colour_bound_pieces_gets_its_bonus() {
        assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::Pair, 'b'), 1);
        assert!(contribution("chess", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::Pair, 'b') > 0);
        assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", Term::Pair, 'n'), 1);
        let v = Variant::builtin("chess");
        let w = Weights::defaults(&v);
        // Only the colour-bound bishop has a default pair bonus.
        assert!(w.get(Term::Pair, v.piece_type('b').unwrap()) > 0);
        assert_eq!(w.get(Term::Pair, v.piece_type('n').unwrap()), 0);
        let shatranj = Variant::builtin("shatranj");
        assert!(Weights::defaults(&shatranj).get(Term::Pair, shatranj.piece_type('q').unwrap()) > 0, "the ferz too");
    }

    /// The bare-king terms of `fen` (chess): edge, near, room, from White's view.
    fn bare(variant: &str, fen: &str) -> [i32; 3] {
        let v = Variant::builtin(variant);
        let w = Weights::defaults(&v);
        let f = features(&Position::from_fen(&v, fen).unwrap(), &w);
        [BARE_EDGE, BARE_NEAR, BARE_ROOM].map(|k| f.values[w.side_index(k)])
    }

    #[test]
    fn a_bare_king_is_driven_to_the_edge_approached_and_boxed() {
        // Black's king on a1 alone: 6 steps from d4's centre value, 4 king steps from e1 (7
        // the longest), and of a2, b1, b2 the rook on h2 takes a2 and b2.
        assert_eq!(bare("chess", "8/8/8/8/8/8/7R/k3K3 b - - 0 1"), [6, 3, 1]);
        // The same for Black against White's bare king, counted for Black.
        assert_eq!(bare("chess", "K3k3/7r/8/8/8/8/8/8 w - - 0 1"), [-6, -3, -1]);
        // Not bare: a pawn left, or nothing but kings on either side.
        assert_eq!(bare("chess", "8/8/8/8/8/p7/7R/k3K3 b - - 0 1"), [0, 0, 0]);
        assert_eq!(bare("chess", "8/8/8/8/8/8/8/k3K3 b - - 0 1"), [0, 0, 0]);
        // 11×11: a corner is 10 steps from the centre's value, 10 the longest distance.
        assert_eq!(bare("sultan", "11/11/11/11/11/11/11/11/11/11/k5K3R w - - 0 1")[..2], [10, 4]);
        let w = Weights::defaults(&Variant::builtin("chess"));
        let weight = |k: usize| w.values[w.side_index(k)];
        assert!(weight(BARE_EDGE) > 0 && weight(BARE_NEAR) > 0 && weight(BARE_ROOM) < 0);
    }

    #[test]
    fn piece_square_defaults_follow_mobility() {
        let v = Variant::builtin("chess");
        let w = Weights::defaults(&v);
        let n = v.piece_type('n').unwrap();
        let at = |sq: &str| w.values[w.pst_index(n, w.shape.class[Colour::White][v.geometry.parse(sq).unwrap()])];
        assert!(at("d4") > 0 && at("a1") < 0 && at("e5") == at("d5"), "{} {}", at("d4"), at("a1"));
        // Mirror images share a class; Black's are seen from rank 8.
        assert_eq!(
            w.shape.class[Colour::White][v.geometry.parse("b1").unwrap()],
            w.shape.class[Colour::White][v.geometry.parse("g1").unwrap()]
        );
        assert_eq!(
            w.shape.class[1][v.geometry.parse("b8").unwrap()],
            w.shape.class[Colour::White][v.geometry.parse("b1").unwrap()]
        );
        let pst = |fen: &str| {
            let f = features(&Position::from_fen(&v, fen).unwrap(), &w);
            f.values
                .iter()
                .enumerate()
                .filter(|&(j, _)| matches!(w.slot(j), Slot::Pst(..)))
                .map(|(j, &x)| x * w.values[j])
                .sum::<i32>()
        };
        assert!(pst("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1") > 0 && pst("4k3/8/8/8/8/8/8/N3K3 w - - 0 1") < 0);
        // Sultan's Game: 11 files, 6 classes a rank with the middle one.
        assert_eq!(Weights::defaults(&Variant::builtin("sultan")).classes(), 66);
    }

    #[test]
    fn a_spare_king_has_material_value_the_last_has_none() {
        let v = Variant::builtin("spartan");
        let w = Weights::defaults(&v);
        let k = v.piece_type('k').unwrap();
        assert!(w.get(Term::Material, k) > 100, "the second Spartan king is worth something");
        let m = |fen: &str| feature("spartan", fen, Term::Material, 'k');
        assert_eq!(m("1k4k1/8/8/8/8/8/8/4K3 w - - 0 1"), -1);
        assert_eq!(m("1k6/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
        assert!(
            contribution("spartan", "1k4k1/8/8/8/8/8/8/4K3 w - - 0 1", Term::Material, 'k') < 0,
            "Black's spare king"
        );
        let chess = Variant::builtin("chess");
        assert_eq!(
            Weights::defaults(&chess).get(Term::Material, chess.piece_type('k').unwrap()),
            0,
            "chess's only king"
        );
    }

    #[test]
    fn a_variant_without_pieces_is_all_ending_and_huge_weights_stay_below_mate() {
        let v =
            Variant::from_toml("t", "extends = \"chess\"\nsetup = \"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\"\n")
                .unwrap();
        let mut w = Weights::defaults(&v);
        let pos = Position::startpos(&v);
        assert_eq!(w.phase(&pos), 0);
        let p = v.piece_type('p').unwrap();
        w.set(Term::Material, p, i32::MAX);
        let up = Position::from_fen(&v, "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(evaluate(&up, &w), MATE_BOUND - 1);
    }

    #[test]
    fn estimated_values_follow_mobility() {
        let v = Variant::from_toml("t", "extends = \"chess\"\n[[pieces]]\nletter = \"a\"\nbetza = \"BN\"\n").unwrap();
        let w = Weights::defaults(&v);
        let a = v.piece_type('a').unwrap();
        // 8.75 bishop moves + 5.25 knight moves on average: 40 × 14 = 560.
        assert_eq!(w.get(Term::Material, a), 560);
    }

    #[test]
    fn weights_round_trip_and_reject_unknown_tables_and_letters() {
        let v = Variant::builtin("spartan");
        let mut w = Weights::defaults(&v);
        w.set(Term::Material, v.piece_type('g').unwrap(), 777);
        w.set(Term::Advance, v.piece_type('h').unwrap(), -5);
        let j = w.pst_index(v.piece_type('w').unwrap(), 13);
        w.values[j] = 42;
        let e = w.end(j);
        w.values[e] = -42;
        let white = w.side_index(0);
        w.values[white] = -35;
        let back = Weights::from_toml(&v, "w.toml", &w.to_toml()).unwrap();
        assert_eq!(back, w);
        let err = Weights::from_toml(&v, "w.toml", "[material]\nz = 5\n").unwrap_err();
        assert!(matches!(&err, WeightsError::Letter { letter, .. } if letter == "z"), "{err}");
        let err = err.to_string();
        assert!(err.contains("'z' is not a piece letter"), "{err}");
        let err = Weights::from_toml(&v, "w.toml", "[material]\ng = 5\n\n[materials]\n").unwrap_err().to_string();
        assert!(err.starts_with("w.toml:4: [materials] is not a table"), "{err}");
        let err = Weights::from_toml(&v, "w.toml", "[material]\ng = \"five\"\n").unwrap_err().to_string();
        assert!(err.starts_with("w.toml:2"), "{err}");
        // Errors at the start of a line name that line; a bad letter names its own line.
        let err = Weights::from_toml(&v, "w.toml", "[material]\ng = 5\ng = 6\n").unwrap_err().to_string();
        assert!(err.starts_with("w.toml:3"), "{err}");
        let err = Weights::from_toml(&v, "w.toml", "[mobility] # per move\ng = 5\nz = 6\n").unwrap_err().to_string();
        assert!(err.starts_with("w.toml:3: [mobility]: 'z'"), "{err}");
        let err = Weights::from_toml(&v, "w.toml", "[pst]\ng = [1, 2]\n").unwrap_err().to_string();
        assert!(err.contains("needs 32 numbers"), "{err}");
    }

    #[test]
    fn an_endgame_weight_left_out_follows_the_middlegame_one() {
        let v = Variant::builtin("chess");
        let w = Weights::from_toml(&v, "w.toml", "[mobility]\nn = 7\nb = 5\n[mobility_end]\nb = 1\n").unwrap();
        let (n, b, r) = (v.piece_type('n').unwrap(), v.piece_type('b').unwrap(), v.piece_type('r').unwrap());
        let end = |t: PieceType| w.values[w.end(w.index(Term::Mobility, t))];
        assert_eq!((end(n), end(b), end(r)), (7, 1, 2));
    }

    #[test]
    fn weight_files_of_the_earlier_evaluation_still_load() {
        for name in builtin_names() {
            let v = Variant::builtin(name);
            let path = format!("{}/../data/piece-values/{name}-all.toml", env!("CARGO_MANIFEST_DIR"));
            let w = Weights::load(&v, Path::new(&path)).unwrap();
            assert_ne!(w, Weights::defaults(&v), "{name}");
        }
    }
}
