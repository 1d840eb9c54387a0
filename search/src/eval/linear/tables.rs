//! What the linear evaluation derives from the variant alone: per-square tables, the
//! phase's piece weights, default material.

use hoplite_core::Bitboard;
use hoplite_core::Colour;
use hoplite_core::PieceType;
use hoplite_core::Square;
use hoplite_core::TypeSet;
use hoplite_core::Variant;
use hoplite_core::MAX_SQUARES;

/// A value per square, 128 of them whatever the board, so that indexing by a square needs no
/// bounds check (`Square`'s index is masked to 127).
pub(super) type Board<T> = Box<[T; MAX_SQUARES]>;

/// A board's per-square values, the squares past its end left at their default.
pub(super) fn board<T: Copy + Default>(values: Vec<T>) -> Board<T> {
    let mut b = Box::new([T::default(); MAX_SQUARES]);
    b[..values.len()].copy_from_slice(&values);
    b
}

/// What the evaluation derives from the variant alone, per square (`Board`) and per type.
#[derive(Debug, PartialEq)]
pub(super) struct BoardTables {
    /// Per piece type: its weight in the phase (0 for pawns and royals).
    pub(super) phase_value: Vec<i32>,
    /// The phase weight of the start position.
    pub(super) phase_start: i32,
    /// `front[colour][sq]`: the squares ahead of `sq` on its file and the neighbouring ones.
    pub(super) front: [Board<Bitboard>; 2],
    /// `behind[colour][sq]`: the squares behind `sq` on its file.
    pub(super) behind: [Board<Bitboard>; 2],
    /// `beside[sq]`: the squares of the neighbouring files.
    pub(super) neighbour_files: Board<Bitboard>,
    /// The squares of `sq`'s file.
    pub(super) file: Board<Bitboard>,
    /// Each square's file and rank (without a division).
    pub(super) coords: Board<(i8, i8)>,
    /// `stop[colour][sq]`: the square just ahead of `sq`, if the board has one.
    pub(super) stop: [Board<Option<Square>>; 2],
    /// The squares a king's step away (its zone).
    pub(super) around: Board<Bitboard>,
    /// `shield[colour][sq]`: the three squares just ahead of `sq`.
    pub(super) shield: [Board<Bitboard>; 2],
    /// `support[colour][sq]`: where an own pawn supports one on `sq` (beside it, or
    /// diagonally behind it).
    pub(super) support: [Board<Bitboard>; 2],
    /// Per piece type, the types worth more than it: what it threatens.
    pub(super) prey: Vec<TypeSet>,
    /// Steps from the nearest edge file plus the nearest edge rank.
    pub(super) centre: Board<i32>,
    /// The most of `centre`, and the longest king distance on the board.
    pub(super) centre_max: i32,
    pub(super) span: i32,
    /// `up[colour][sq]`: the ranks from the side's own back rank.
    pub(super) up: [Board<i32>; 2],
    /// The piece-square class of each square for each colour, how many there are, and how
    /// many a rank has (half the files, the middle one included).
    pub(super) class: [Board<usize>; 2],
    pub(super) classes: usize,
    pub(super) half: usize,
}

/// Number of moves of a piece type on each square of an empty board.
pub(super) fn empty_board_moves(v: &Variant, ty: PieceType) -> Vec<u32> {
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
pub(super) fn spare_royals(v: &Variant, t: PieceType) -> bool {
    v.start_counts.iter().any(|c| c[t] > 1)
}

/// A piece's material value by default (see the module comment).
pub(super) fn default_material(v: &Variant, t: PieceType) -> i32 {
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

impl BoardTables {
    pub(super) fn new(v: &Variant) -> BoardTables {
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
        BoardTables {
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
    pub(super) fn distance(&self, a: Square, b: Square) -> i32 {
        let ((fa, ra), (fb, rb)) = (self.coords[a], self.coords[b]);
        (fa - fb).abs().max((ra - rb).abs()) as i32
    }
}
