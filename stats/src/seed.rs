//! Seeded randomness: every number hoplite draws at random comes from a run's seed and an id
//! mixed here (splitmix64), so that a run's bytes depend on its seed alone, not on threads.

use hoplite_core::zobrist::{mix64, GOLDEN};

/// The seed of one game (or pair, or index): the run seed and the id mixed.
pub fn game_seed(run_seed: u64, id: u64) -> u64 {
    mix64(run_seed ^ id.wrapping_mul(GOLDEN))
}

/// A well-spread hash of `id` alone, for a split that no seed changes (the tuner's
/// validation games).
pub fn id_hash(id: u64) -> u64 {
    mix64(id.wrapping_add(GOLDEN))
}
