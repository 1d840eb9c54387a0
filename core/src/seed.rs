//! Seeded randomness: every number hoplite draws at random comes from a seed and an id mixed
//! here (splitmix64): the Zobrist keys, each game's opening and generator, the tuner's
//! validation split. So a run's bytes depend on its seed alone, not on its threads.

/// The splitmix64 finaliser: a well-spread 64-bit hash of `x` (Steele, Lea and Flood 2014).
#[inline]
pub fn mix64(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The golden-ratio increment of splitmix64.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed of one game (or pair, or index): the run seed and the id mixed.
pub fn game_seed(run_seed: u64, id: u64) -> u64 {
    mix64(run_seed ^ id.wrapping_mul(GOLDEN))
}

/// A well-spread hash of `id` alone, for a split that no seed changes (the tuner's
/// validation games).
pub fn id_hash(id: u64) -> u64 {
    mix64(id.wrapping_add(GOLDEN))
}
