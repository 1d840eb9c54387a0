//! The evaluation: a weighted sum of features, linear so that the tuner can fit it.
//!
//! Five groups, each with one weight per piece type (centipawns per unit of the feature):
//! - `material`: piece count (White minus Black). Defaults come from the variant file; a
//!   piece without a value gets `40 × its mean number of moves on an empty board` (about what
//!   the classical values give per move: N 5.25 → 210+, R 14 → 560, Q 22.75 → 910), pawn-type
//!   pieces 100, royal pieces 0.
//! - `centre`: per piece, the number of steps from the nearest edge file plus from the nearest
//!   edge rank.
//! - `advance`: per piece, the ranks it stands from its own back rank.
//! - `mobility`: per piece, its pseudo-legal moves (to empty squares or captures).
//! - `passed`: per pawn-type piece with no enemy pawn-type piece ahead of it on its own or a
//!   neighbouring file, the ranks it stands from its own back rank.
//!
//! All but `material` are tapered: the table of the group's name weighs the position with all
//! of the start position's pieces (pawns and royals aside) on the board, `<group>_end` the one
//! with none, and the evaluation blends the two by the material left (`PHASE`). A king should
//! shelter while queens are on and walk to the centre once they are gone; a passed pawn grows
//! with the board's emptying. The material values stay one per piece: they are what a variant
//! designer asks for. By default both ends are equal, so the default evaluation is untapered.
//!
//! And a term of the position as a whole (`[side]` in the weights file, 0 by default):
//! - `white`: +1 for White, always: the balance of two different armies (Spartan chess), which
//!   the tuner would otherwise fold into the piece values. (A tempo term for the side to move
//!   was tried and dropped: fitted on quiet positions it came out negative and cost 40 to 55
//!   Elo in chess and Sultan's Game.)

use crate::error::WeightsError;
use hoplite_core::spec::{line_of, toml_at};
use hoplite_core::{Bitboard, Position, Variant, WHITE};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

pub const GROUPS: [&str; 5] = ["material", "centre", "advance", "mobility", "passed"];
pub const MATERIAL: usize = 0;
pub const CENTRE: usize = 1;
pub const ADVANCE: usize = 2;
pub const MOBILITY: usize = 3;
pub const PASSED: usize = 4;
/// Every table of weights in the order of `Weights::values`: the groups (middlegame for the
/// tapered ones), then the endgame tables of the tapered groups.
pub const TABLES: [&str; 9] =
    ["material", "centre", "advance", "mobility", "passed", "centre_end", "advance_end", "mobility_end", "passed_end"];
/// The whole-position terms, after the tables.
pub const SIDE: [&str; 1] = ["white"];
/// The game phase runs from 0 (no pieces but pawns and royals) to `PHASE` (the start
/// position's pieces, or more).
pub const PHASE: i32 = 64;

/// What the evaluation derives from the variant alone: the weights of the game phase (the
/// default material values, so that the phase of a position does not move while tuning) and
/// each square's span ahead for passed pawns.
#[derive(Debug, PartialEq)]
struct Shape {
    /// Per piece type: its weight in the phase (0 for pawns and royals).
    phase_value: Vec<i32>,
    /// The phase weight of the start position.
    phase_start: i32,
    /// `front[colour][sq]`: the squares ahead of `sq` on its file and the neighbouring ones.
    front: [Vec<Bitboard>; 2],
}

/// All evaluation weights: `values[table * types + type]` in the order of `TABLES`, then the
/// `SIDE` terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub types: usize,
    pub letters: Vec<char>,
    pub values: Vec<i32>,
    shape: Arc<Shape>,
}

/// Features of one position: `values[j]` counts towards weight `j` (the middlegame table of a
/// tapered group) and, blended by `phase`, towards its endgame partner `Weights::end(j)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub values: Vec<i32>,
    pub phase: i32,
}

/// Mean number of moves of a piece type over all squares of an empty board.
pub fn empty_board_mobility(v: &Variant, ty: usize) -> f64 {
    let geo = v.geometry;
    let total: u32 = (0..geo.squares())
        .map(|sq| {
            let (q, c) = v.moves[WHITE][ty].targets(&v.rays, sq, Bitboard::EMPTY);
            (q | c).count()
        })
        .sum();
    total as f64 / geo.squares() as f64
}

/// A piece's material value by default (see the module comment).
fn default_material(v: &Variant, t: usize) -> i32 {
    let p = &v.pieces[t];
    if p.royal {
        0
    } else if let Some(value) = p.value {
        value
    } else if p.pawn {
        100
    } else {
        (40.0 * empty_board_mobility(v, t)).round() as i32
    }
}

impl Shape {
    fn new(v: &Variant) -> Shape {
        let types = v.pieces.len();
        let phase_value: Vec<i32> = (0..types)
            .map(|t| if v.pieces[t].royal || v.pieces[t].pawn { 0 } else { default_material(v, t).max(0) })
            .collect();
        let phase_start =
            (0..types).map(|t| (v.start_counts[0][t] + v.start_counts[1][t]) as i32 * phase_value[t]).sum();
        let geo = v.geometry;
        let front = [0, 1].map(|colour| {
            (0..geo.squares())
                .map(|sq| {
                    let (f, r) = (geo.file(sq) as i32, geo.rank(sq) as i32);
                    (0..geo.squares())
                        .filter(|&s| {
                            let (f2, r2) = (geo.file(s) as i32, geo.rank(s) as i32);
                            (f2 - f).abs() <= 1 && if colour == WHITE { r2 > r } else { r2 < r }
                        })
                        .fold(Bitboard::EMPTY, |b, s| b | Bitboard::square(s))
                })
                .collect()
        });
        Shape { phase_value, phase_start, front }
    }
}

impl Weights {
    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    #[inline(always)]
    pub fn get(&self, table: usize, ty: usize) -> i32 {
        self.values[table * self.types + ty]
    }
    pub fn set(&mut self, table: usize, ty: usize, value: i32) {
        self.values[table * self.types + ty] = value;
    }
    /// Index of whole-position term `k` (of `SIDE`).
    pub fn side_index(&self, k: usize) -> usize {
        TABLES.len() * self.types + k
    }
    /// The endgame partner of weight `j`: itself unless `j` is in a tapered group's table.
    #[inline(always)]
    pub fn end(&self, j: usize) -> usize {
        if (self.types..GROUPS.len() * self.types).contains(&j) {
            j + (GROUPS.len() - 1) * self.types
        } else {
            j
        }
    }
    /// (table name, key) of weight `j`, as the weights file names it.
    pub fn name(&self, j: usize) -> (&'static str, String) {
        if j >= TABLES.len() * self.types {
            ("side", SIDE[j - TABLES.len() * self.types].to_string())
        } else {
            (TABLES[j / self.types], self.letters[j % self.types].to_string())
        }
    }

    /// The defaults for a variant (see the module comment).
    pub fn defaults(v: &Variant) -> Weights {
        let types = v.pieces.len();
        let mut w = Weights {
            types,
            letters: v.pieces.iter().map(|p| p.letter).collect(),
            values: vec![0; TABLES.len() * types + SIDE.len()],
            shape: Arc::new(Shape::new(v)),
        };
        for (t, p) in v.pieces.iter().enumerate() {
            w.set(MATERIAL, t, default_material(v, t));
            for (g, value) in [
                (CENTRE, if p.royal || p.pawn { 0 } else { 4 }),
                (ADVANCE, if p.pawn { 6 } else { 0 }),
                (MOBILITY, if p.royal { 0 } else { 2 }),
            ] {
                w.set(g, t, value);
                let j = w.end(g * types + t);
                w.values[j] = value;
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
        type Table = BTreeMap<Spanned<String>, i32>;
        let file: BTreeMap<Spanned<String>, Table> = toml::from_str(text)
            .map_err(|e| WeightsError::Toml { at: toml_at(label, text, &e), message: e.message().to_string() })?;
        let at = |key: &Spanned<String>| format!("{label}:{}", line_of(text, key.span().start));
        let mut w = Weights::defaults(v);
        let mut given = vec![false; w.len()];
        for (table, entries) in &file {
            let name = table.get_ref();
            if name == "side" {
                for (key, &value) in entries {
                    let k = SIDE.iter().position(|s| s == key.get_ref()).ok_or_else(|| WeightsError::SideTerm {
                        at: at(key),
                        key: key.get_ref().clone(),
                        options: SIDE.join(", "),
                    })?;
                    let j = w.side_index(k);
                    w.values[j] = value;
                }
                continue;
            }
            let g = TABLES.iter().position(|t| t == name).ok_or_else(|| WeightsError::Table {
                at: at(table),
                table: name.clone(),
                options: TABLES.join(", "),
            })?;
            for (key, &value) in entries {
                let letter = key.get_ref();
                let t = letter
                    .chars()
                    .next()
                    .filter(|_| letter.chars().count() == 1)
                    .and_then(|c| v.piece_index(c))
                    .ok_or_else(|| WeightsError::Letter {
                        at: at(key),
                        table: name.clone(),
                        letter: letter.clone(),
                        variant: v.name.clone(),
                    })?;
                w.set(g, t, value);
                given[g * w.types + t] = true;
            }
        }
        for j in 0..GROUPS.len() * w.types {
            let e = w.end(j);
            if e != j && given[j] && !given[e] {
                w.values[e] = w.values[j];
            }
        }
        Ok(w)
    }

    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        for (g, name) in TABLES.iter().enumerate() {
            s += &format!("[{name}]\n");
            for (t, l) in self.letters.iter().enumerate() {
                s += &format!("{l} = {}\n", self.get(g, t));
            }
            s += "\n";
        }
        s += "[side]\n";
        for (k, name) in SIDE.iter().enumerate() {
            s += &format!("{name} = {}\n", self.values[self.side_index(k)]);
        }
        s
    }

    /// The game phase of a position, 0 to `PHASE`.
    pub fn phase(&self, pos: &Position) -> i32 {
        let material = (0..self.types).map(|t| pos.type_bb(t).count() as i32 * self.shape.phase_value[t]).sum();
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
fn visit(pos: &Position, w: &Weights, mut add: impl FnMut(usize, usize, i32)) -> i32 {
    let v = pos.variant();
    let types = v.pieces.len();
    let end = (GROUPS.len() - 1) * types;
    let white = TABLES.len() * types;
    add(white, white, 1);
    let geo = v.geometry;
    let occ = pos.occupied();
    let pawns = pos.pawns();
    let mut material = 0;
    for colour in 0..2 {
        let sign = if colour == WHITE { 1 } else { -1 };
        let own = pos.colour_bb(colour);
        let enemy = pos.colour_bb(1 - colour);
        let enemy_pawns = pawns & enemy;
        let front = &w.shape.front[colour];
        for ty in 0..types {
            let pcs = pos.pieces(colour, ty);
            if pcs.is_empty() {
                continue;
            }
            let count = pcs.count() as i32;
            material += count * w.shape.phase_value[ty];
            add(MATERIAL * types + ty, MATERIAL * types + ty, sign * count);
            let ms = &v.moves[colour][ty];
            let pawn = v.pieces[ty].pawn;
            // Per group, the sum over this type's pieces: one weight lookup per group and type.
            let (mut centre, mut advance, mut mobility, mut passed) = (0, 0, 0, 0);
            for sq in pcs {
                let (f, r) = (geo.file(sq), geo.rank(sq));
                centre += f.min(geo.files - 1 - f) + r.min(geo.ranks - 1 - r);
                let up = if colour == WHITE { r } else { geo.ranks - 1 - r };
                advance += up;
                let (q, c) = ms.targets(&v.rays, sq, occ);
                mobility += ((q & !occ) | (c & enemy & !own)).count() as usize;
                if pawn && (front[sq] & enemy_pawns).is_empty() {
                    passed += up;
                }
            }
            for (g, sum) in [(CENTRE, centre), (ADVANCE, advance), (MOBILITY, mobility), (PASSED, passed)] {
                let j = g * types + ty;
                add(j, j + end, sign * sum as i32);
            }
        }
    }
    material
}

/// The evaluation in centipawns from the side to move's view, kept below the mate scores.
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    // In i64, as a weights file may hold any i32.
    let (mut mg, mut eg) = (0i64, 0i64);
    let material = visit(pos, w, |j, e, amount| {
        mg += amount as i64 * w.values[j] as i64;
        eg += amount as i64 * w.values[e] as i64;
    });
    let phase = w.phase_of(material) as i64;
    let limit = (crate::search::MATE_BOUND - 1) as i64;
    let score = ((mg * phase + eg * (PHASE as i64 - phase)) / PHASE as i64).clamp(-limit, limit) as i32;
    if pos.side_to_move() == WHITE {
        score
    } else {
        -score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_core::variant::builtin_names;

    fn blend(f: &Features, w: &Weights) -> i32 {
        let (mut mg, mut eg) = (0, 0);
        for (j, &x) in f.values.iter().enumerate() {
            mg += x * w.values[j];
            eg += x * w.values[w.end(j)];
        }
        (mg * f.phase + eg * (PHASE - f.phase)) / PHASE
    }

    #[test]
    fn evaluation_is_the_blend_of_features_and_weights() {
        for name in builtin_names() {
            let v = Variant::builtin(name);
            let mut w = Weights::defaults(&v);
            // Distinct endgame weights, so that the blend is exercised.
            for j in 0..GROUPS.len() * w.types {
                let e = w.end(j);
                if e != j {
                    w.values[e] = w.values[j] + (j % 7) as i32 - 3;
                }
            }
            let mut pos = Position::startpos(&v);
            let mut moves = Vec::new();
            for i in 0..40 {
                let f = features(&pos, &w);
                let white_view = if pos.side_to_move() == WHITE { 1 } else { -1 } * evaluate(&pos, &w);
                assert_eq!(blend(&f, &w), white_view, "{name}");
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
        let k = v.piece_index('k').unwrap();
        w.set(CENTRE, k, -10);
        let e = w.end(CENTRE * w.types + k);
        w.values[e] = 20;
        let eval = |fen: &str| evaluate(&Position::from_fen(&v, fen).unwrap(), &w);
        // White's king on d4 stands 3 + 3 steps from the edges, Black's on h8 none.
        assert_eq!(eval("rnbqrbnk/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1BNR w - - 0 1"), 6 * -10);
        assert_eq!(eval("7k/p7/8/8/3K4/8/P7/8 w - - 0 1"), 6 * 20);
        // Queens only: phase 18 of 64; Black's king on e8 stands 3 steps from the edges.
        assert_eq!(eval("4k3/8/8/8/3K4/8/8/3Q1q2 w - - 0 1"), (3 * -10 * 18 + 3 * 20 * 46) / 64);
    }

    #[test]
    fn a_pawn_is_passed_when_no_enemy_pawn_can_stop_it() {
        let v = Variant::builtin("chess");
        let w = Weights::defaults(&v);
        let p = v.piece_index('p').unwrap();
        let passed = |fen: &str| features(&Position::from_fen(&v, fen).unwrap(), &w).values[PASSED * w.types + p];
        // White's e5 pawn stands 4 ranks up, Black's g6 pawn 2: neither can stop the other.
        assert_eq!(passed("4k3/8/6p1/4P3/8/8/8/4K3 w - - 0 1"), 4 - 2);
        // On f6 and e5 each stands in the other's way.
        assert_eq!(passed("4k3/8/5p2/4P3/8/8/8/4K3 w - - 0 1"), 0);
        // A pawn behind (d4, 4 ranks up for Black) has passed: both count.
        assert_eq!(passed("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), 4 - 4);
        assert_eq!(passed("4k3/8/8/4P3/8/8/3p4/4K3 w - - 0 1"), 4 - 6);
    }

    #[test]
    fn a_variant_without_pieces_is_all_ending_and_huge_weights_stay_below_mate() {
        let v =
            Variant::from_toml("t", "extends = \"chess\"\nsetup = \"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\"\n")
                .unwrap();
        let mut w = Weights::defaults(&v);
        let pos = Position::startpos(&v);
        assert_eq!(w.phase(&pos), 0);
        let p = v.piece_index('p').unwrap();
        w.set(MATERIAL, p, i32::MAX);
        let up = Position::from_fen(&v, "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(evaluate(&up, &w), crate::search::MATE_BOUND - 1);
    }

    #[test]
    fn estimated_values_follow_mobility() {
        let v = Variant::from_toml("t", "extends = \"chess\"\n[[pieces]]\nletter = \"a\"\nbetza = \"BN\"\n").unwrap();
        let w = Weights::defaults(&v);
        let a = v.piece_index('a').unwrap();
        // 8.75 bishop moves + 5.25 knight moves on average: 40 × 14 = 560.
        assert_eq!(w.get(MATERIAL, a), 560);
    }

    #[test]
    fn weights_round_trip_and_reject_unknown_tables_and_letters() {
        let v = Variant::builtin("spartan");
        let mut w = Weights::defaults(&v);
        w.set(MATERIAL, v.piece_index('g').unwrap(), 777);
        w.set(GROUPS.len() + 1, v.piece_index('h').unwrap(), -5);
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
    }

    #[test]
    fn an_endgame_weight_left_out_follows_the_middlegame_one() {
        let v = Variant::builtin("chess");
        let w = Weights::from_toml(&v, "w.toml", "[mobility]\nn = 7\nb = 5\n[mobility_end]\nb = 1\n").unwrap();
        let (n, b, r) = (v.piece_index('n').unwrap(), v.piece_index('b').unwrap(), v.piece_index('r').unwrap());
        let end = |t: usize| w.values[w.end(MOBILITY * w.types + t)];
        assert_eq!((end(n), end(b), end(r)), (7, 1, 2));
    }
}
