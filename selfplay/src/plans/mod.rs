//! What each command plays: the games of a selfplay, datagen, match, balance or values run.
//! Each plan builds its games and hands them to the run engine (`crate::run`).

pub mod balance;
pub mod datagen;
pub mod imbalance;
pub mod matchup;
pub mod selfplay;
pub mod values;
