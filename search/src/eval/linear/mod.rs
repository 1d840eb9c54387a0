//! The linear evaluation: a weighted sum of features, linear so that the tuner can fit it.
//! Nothing here names a variant: every term is defined for any piece (by its moves, its
//! `royal` or `pawn` flag) and every weight is data. The terms and what each counts are in
//! `terms`; the weights' layout and defaults in `weights`, their files in `file`, the shipped
//! weights of the built-ins in `shipped`; what a variant's board gives the terms in `tables`;
//! the walk over a position that sums them in `walk`.

mod file;
mod shipped;
mod tables;
mod terms;
mod walk;
mod weights;

#[cfg(test)]
mod tests;

pub use tables::empty_board_mobility;
pub use terms::{Defaults, Family, SideTerm, Slot, Term, TermSpec, PHASE, SIDE, TERMS};
pub use walk::{evaluate, features};
pub use weights::{Features, Weights};
