//! The linear evaluation's weights: their layout (`Slot`), defaults and the game phase.

use hoplite_core::Bits;

use super::tables::default_material;
use super::tables::empty_board_moves;
use super::tables::BoardTables;
use super::terms::Slot;
use super::terms::Term;
use super::terms::PHASE;
use super::terms::SIDE;
use super::terms::TERMS;
use hoplite_core::Colour;
use hoplite_core::PieceType;
use hoplite_core::Position;
use hoplite_core::Variant;
use std::sync::Arc;

/// All evaluation weights, laid out as `Slot` says: the per-type tables (`TERMS`, then the
/// endgame tables of the tapered ones), the piece-square tables, the `SIDE` terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub types: usize,
    pub letters: Vec<char>,
    pub values: Vec<i32>,
    pub(super) tables: Arc<BoardTables>,
}

/// Features of one position: `values[j]` counts towards weight `j` (the middlegame one of a
/// tapered pair) and, blended by `phase`, towards its endgame partner `Weights::end(j)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    pub values: Vec<i32>,
    pub phase: i32,
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
        self.tables.classes
    }
    pub(super) fn tapered_len(&self) -> usize {
        (TERMS.len() - 1) * self.types
    }
    pub(super) fn pst_start(&self) -> usize {
        (2 * TERMS.len() - 1) * self.types
    }
    pub(super) fn side_start(&self) -> usize {
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
        let half = self.tables.half;
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
        let tables = BoardTables::new(v);
        let classes = tables.classes;
        let mut w = Weights {
            types,
            letters: v.letters(),
            values: vec![0; (2 * TERMS.len() - 1) * types + 2 * types * classes + SIDE.len()],
            tables: Arc::new(tables),
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
                    let c = w.tables.class[Colour::White][sq];
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
    /// The game phase of a position, 0 to `PHASE`.
    pub fn phase<B: Bits>(&self, pos: &Position<B>) -> i32 {
        let material =
            PieceType::first(self.types).map(|t| pos.type_bb(t).count() as i32 * self.tables.phase_value[t]).sum();
        self.phase_of(material)
    }

    /// The phase for this much phase material on the board.
    #[inline(always)]
    pub(super) fn phase_of(&self, material: i32) -> i32 {
        match self.tables.phase_start {
            // No pieces at the start: every position is an ending.
            0 => 0,
            start => (PHASE * material / start).min(PHASE),
        }
    }
}
