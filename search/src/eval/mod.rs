//! The evaluation's front door: the search asks `Evaluator` for a position's score and for
//! the pieces' exchange values, whatever evaluation it holds. Behind it, the linear evaluation
//! (`linear`: terms, weights and their files, the walk), which the tuner fits.

mod cache;
pub mod linear;

pub(crate) use cache::EvalCache;

use hoplite_core::{Bits, PieceType, Position};
use linear::{Term, Weights};

/// What a search evaluates positions with.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluator {
    /// A weighted sum of features (`linear::Weights`).
    Linear(Weights),
}

impl Evaluator {
    /// `pos`'s static evaluation in centipawns from the side to move's view, kept below the
    /// mate scores.
    #[inline]
    pub fn evaluate<B: Bits>(&self, pos: &Position<B>) -> i32 {
        match self {
            Evaluator::Linear(w) => linear::evaluate(pos, w),
        }
    }

    /// Each piece type's value in exchanges (static exchange evaluation, delta pruning), at
    /// least 1 centipawn.
    pub fn exchange_values(&self) -> Vec<i32> {
        match self {
            Evaluator::Linear(w) => PieceType::first(w.types).map(|t| w.get(Term::Material, t).max(1)).collect(),
        }
    }

    /// The linear evaluation's weights, when it is the linear one.
    pub fn weights(&self) -> Option<&Weights> {
        match self {
            Evaluator::Linear(w) => Some(w),
        }
    }
}

impl From<Weights> for Evaluator {
    fn from(w: Weights) -> Evaluator {
        Evaluator::Linear(w)
    }
}
