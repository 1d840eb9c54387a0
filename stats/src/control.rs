//! The control of a balance run: orthodox chess, whose White score is known, read at every
//! budget; a budget whose control reads otherwise has suspect verdicts (docs/balance.md).

/// White's known score in orthodox chess at engine level, what the control must read: Bayeselo's
/// default first-move advantage, 32.8 Elo, fitted to engine rating-list games (CCRL's Chess960
/// games that started from the standard position: 54.8% of 135).
pub const CONTROL_SCORE: f64 = 0.547;
/// The band the control's score must lie in, beside its interval holding `CONTROL_SCORE`.
pub const CONTROL_BAND: (f64, f64) = (0.50, 0.60);

/// Whether a control's White score and 95% interval read the known first-move advantage.
pub fn control_holds(score: f64, low: f64, high: f64) -> bool {
    (low..=high).contains(&CONTROL_SCORE) && (CONTROL_BAND.0..=CONTROL_BAND.1).contains(&score)
}
