//! Seeded randomness: the one 64-bit mixer (splitmix64) that everything seeded in hoplite
//! derives its numbers from (Zobrist keys, each game's opening and generator, the tuner's
//! validation split), so that a seed means the same numbers everywhere.

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
