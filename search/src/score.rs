//! The mate scores, apart from the search that gives them, so that the evaluation (which stays
//! below them) and the search can each read them without reading the other.

/// A mate now; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
