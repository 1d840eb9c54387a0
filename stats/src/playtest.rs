//! Piece values by play-testing (H. G. Muller's method; docs/values.md): games from starts with
//! a material imbalance, each score turned into a difference of material through pawn-odds
//! games of the same variant.
//!
//! An imbalance's games give the score `s` of the army that is White in the rules, over both
//! colours (the game with the armies' colours swapped cancels the first move). Its logit
//! `ln(s / (1 − s))` is modelled as `Σ_t u_t · (removed from Black − removed from White)_t`,
//! plus an army term when the two armies differ, where `u_t` is piece type t's worth in logit
//! units. A weighted least-squares fit (weights from each score's variance) finds every `u_t`
//! at once; the pawn's `u` is the scale, and a value in pawns is `u_t / u_pawn`. Near equality
//! the logit is linear in the score, as Muller's calibration is; farther out it keeps a large
//! difference from being squeezed against a score of 1; games the imbalance decided are left
//! out (`DECIDED`).

use crate::linalg::invert;

/// One imbalance's games, from the view of the army that is White in the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// Per unknown: the count removed from Black's army minus the count removed from White's
    /// (and 1 for the army term, when there is one).
    pub coef: Vec<f64>,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// How near 0 or 1 a score may be and still measure material: beyond it the games were decided
/// by the imbalance, and the score says which side is ahead, not by how much. Such scores have
/// too few minority results for the logit's normal approximation, and the additive logit was
/// seen to miss them by 1.5 to 3 standard errors where near-equal exchanges fit (chess, 4,000
/// nodes: docs/values.md).
pub const DECIDED: f64 = 0.1;

/// Whether a score is beyond `DECIDED` of 0 or 1.
pub fn is_decided(score: f64) -> bool {
    !(DECIDED..=1.0 - DECIDED).contains(&score)
}

impl Observation {
    /// Whether its games were decided by the imbalance (`DECIDED`).
    pub fn decided(&self) -> bool {
        let n = (self.wins + self.draws + self.losses) as f64;
        n > 0.0 && is_decided((self.wins as f64 + self.draws as f64 / 2.0) / n)
    }

    /// The score with half a point added to each side (so that a clean sweep has a finite
    /// logit), the logit and its variance (delta method, from one game's score variance).
    fn logit(&self) -> Option<(f64, f64)> {
        let n = (self.wins + self.draws + self.losses) as f64;
        if n == 0.0 {
            return None;
        }
        let points = self.wins as f64 + self.draws as f64 / 2.0;
        let s = (points + 0.5) / (n + 1.0);
        let raw = points / n;
        let game_var = ((self.wins as f64 + self.draws as f64 / 4.0) / n - raw * raw).max(0.25 / n);
        let var = game_var / n / (s * (1.0 - s)).powi(2);
        Some(((s / (1.0 - s)).ln(), var))
    }
}

/// The fitted worths in logit units and their covariance, and the fit's information matrix
/// (what more games add to: `with_more`).
#[derive(Clone, Debug)]
pub struct Fit {
    pub u: Vec<f64>,
    /// Row-major, unknowns × unknowns; the games' own covariance times `dispersion()`.
    pub cov: Vec<f64>,
    /// How far the model misses the scores beyond their noise: χ² per degree of freedom (the
    /// Birge ratio squared; 0 without a degree of freedom). Where it passes 1 (the logit not
    /// additive in material: a pawn ladder that is not straight), the covariance is scaled by
    /// it (`dispersion`) instead of claiming a precision the model does not have.
    pub chi2_per_dof: f64,
    information: Vec<f64>,
}

/// Games an imbalance may be given more: its coefficients, and how many games over the
/// variance of one game's logit (`Observation::game_variance`).
#[derive(Clone, Debug, PartialEq)]
pub struct More {
    pub coef: Vec<f64>,
    pub weight: f64,
}

/// Weighted least squares of the observations' logits on their coefficients.
pub fn fit(obs: &[Observation], unknowns: usize) -> Result<Fit, String> {
    let p = unknowns;
    let (mut information, mut atb) = (vec![0.0; p * p], vec![0.0; p]);
    let logits: Vec<(&Observation, f64, f64)> = obs.iter().filter_map(|o| o.logit().map(|(l, v)| (o, l, v))).collect();
    for &(o, l, var) in &logits {
        add(&mut information, &o.coef, 1.0 / var);
        for (b, c) in atb.iter_mut().zip(&o.coef) {
            *b += c * l / var;
        }
    }
    let cov = covariance(&information)
        .ok_or("the imbalances do not determine every value: each piece and the pawn need games of their own")?;
    let u: Vec<f64> = (0..p).map(|i| (0..p).map(|j| cov[i * p + j] * atb[j]).sum()).collect();
    let chi2: f64 = logits.iter().map(|&(o, l, var)| (l - dot(&o.coef, &u)).powi(2) / var).sum();
    let dof = logits.len().saturating_sub(p);
    let chi2_per_dof = if dof > 0 { chi2 / dof as f64 } else { 0.0 };
    let mut fit = Fit { u, cov, chi2_per_dof, information };
    let dispersion = fit.dispersion();
    fit.cov.iter_mut().for_each(|c| *c *= dispersion);
    Ok(fit)
}

/// `fit` of the observations whose games were not decided (`Observation::decided`) where those
/// determine every unknown, else of all of them; with which observations it used.
pub fn fit_undecided(obs: &[Observation], unknowns: usize) -> Result<(Fit, Vec<bool>), String> {
    let used: Vec<bool> = obs.iter().map(|o| !o.decided()).collect();
    let undecided: Vec<Observation> = obs.iter().zip(&used).filter(|(_, &u)| u).map(|(o, _)| o.clone()).collect();
    match fit(&undecided, unknowns) {
        Ok(f) => Ok((f, used)),
        Err(_) => Ok((fit(obs, unknowns)?, vec![true; obs.len()])),
    }
}

/// The logit an imbalance with coefficients `coef` is modelled at, given the worths `u`.
fn dot(coef: &[f64], u: &[f64]) -> f64 {
    coef.iter().zip(u).map(|(c, u)| c * u).sum()
}

/// `m += w · x xᵀ`.
fn add(m: &mut [f64], x: &[f64], w: f64) {
    let p = x.len();
    for i in 0..p {
        for j in 0..p {
            m[i * p + j] += w * x[i] * x[j];
        }
    }
}

/// The inverse of an information matrix, if every unknown is determined.
fn covariance(information: &[f64]) -> Option<Vec<f64>> {
    let p = (information.len() as f64).sqrt() as usize;
    invert(information, p).filter(|_| (0..p).all(|i| information[i * p + i] > 1e-18))
}

impl Observation {
    /// The variance of one game's logit of this imbalance (its games' logit variance times
    /// their number).
    pub fn game_variance(&self) -> Option<f64> {
        let n = (self.wins + self.draws + self.losses) as f64;
        self.logit().map(|(_, var)| var * n)
    }
}

/// The variance of one game's logit where the score is `s` and a share `draws` of games is
/// drawn (the delta method, as for an observation).
pub fn game_variance_at(s: f64, draws: f64) -> f64 {
    let s = s.clamp(0.02, 0.98);
    let game_var = (s * (1.0 - s) - draws / 4.0).max(0.05);
    game_var / (s * (1.0 - s)).powi(2)
}

/// A value in pawns with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    pub pawns: f64,
    pub low: f64,
    pub high: f64,
}

impl Fit {
    /// The factor the games' covariance was scaled by: χ² per degree of freedom, at least 1.
    pub fn dispersion(&self) -> f64 {
        self.chi2_per_dof.max(1.0)
    }

    /// Unknown `i` in units of unknown `pawn`, its 95% interval by the delta method (the
    /// scale's own error included).
    pub fn in_pawns(&self, i: usize, pawn: usize) -> Value {
        self.in_pawns_with(&self.cov, i, pawn)
    }

    fn in_pawns_with(&self, cov: &[f64], i: usize, pawn: usize) -> Value {
        let p = self.u.len();
        let (ui, up) = (self.u[i], self.u[pawn]);
        let v = ui / up;
        let var = (cov[i * p + i] - 2.0 * v * cov[i * p + pawn] + v * v * cov[pawn * p + pawn]) / (up * up);
        let half = crate::Z95 * var.max(0.0).sqrt();
        Value { pawns: v, low: v - half, high: v + half }
    }

    /// The values in pawns of `targets` (as `in_pawns`) if `more` games were played, taking
    /// the worths to stay as they are: what a design of the next games looks at.
    pub fn with_more(&self, more: &[More], targets: &[usize], pawn: usize) -> Option<Vec<Value>> {
        let mut information = self.information.clone();
        for m in more {
            add(&mut information, &m.coef, m.weight);
        }
        let cov: Vec<f64> = covariance(&information)?.iter().map(|c| c * self.dispersion()).collect();
        Some(targets.iter().map(|&i| self.in_pawns_with(&cov, i, pawn)).collect())
    }

    /// The predicted score of an imbalance with these coefficients.
    pub fn score_of(&self, coef: &[f64]) -> f64 {
        1.0 / (1.0 + (-dot(coef, &self.u)).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unknowns: pawn, knight. One pawn's odds score 1/3 (logit −ln 2), two pawns' 1/5
    /// (logit −2 ln 2), a knight's odds 1/9 (logit −3 ln 2): the knight is worth 3 pawns and the
    /// scale is ln 2 a pawn. The counts give these scores after the half point each side.
    #[test]
    fn calibration_worked_example() {
        let obs = [
            Observation { coef: vec![-1.0, 0.0], wins: 99, draws: 1, losses: 199 },
            Observation { coef: vec![-2.0, 0.0], wins: 59, draws: 1, losses: 239 },
            Observation { coef: vec![0.0, -1.0], wins: 39, draws: 1, losses: 319 },
        ];
        let f = fit(&obs, 2).unwrap();
        assert!((f.u[0] - std::f64::consts::LN_2).abs() < 1e-12, "{}", f.u[0]);
        let n = f.in_pawns(1, 0);
        assert!((n.pawns - 3.0).abs() < 1e-12, "{n:?}");
        assert!(n.low < 3.0 && n.high > 3.0 && n.high - n.low < 1.5, "{n:?}");
        // The pawn in pawns is 1, with no error of its own.
        let p = f.in_pawns(0, 0);
        assert!((p.pawns - 1.0).abs() < 1e-12 && (p.high - p.low).abs() < 1e-9);
        // Four times the games: the interval halves.
        let more: Vec<Observation> = obs
            .iter()
            .map(|o| Observation { wins: 4 * o.wins + 1, draws: 4 * o.draws, losses: 4 * o.losses + 3, ..o.clone() })
            .collect();
        let m = fit(&more, 2).unwrap().in_pawns(1, 0);
        assert!(((m.high - m.low) / (n.high - n.low) - 0.5).abs() < 0.05, "{m:?} vs {n:?}");
    }

    /// A pawn ladder that is not straight: one pawn's odds score 1/3 (logit −ln 2), two pawns'
    /// 1/3 as well, far apart for 300 games each. The model cannot fit both, and its intervals
    /// widen by the misfit; consistent scores leave them as the games give them.
    #[test]
    fn a_model_that_misses_its_scores_widens_its_intervals() {
        let ladder = |two: (u64, u64, u64)| {
            let obs = [
                Observation { coef: vec![-1.0, 0.0], wins: 99, draws: 1, losses: 199 },
                Observation { coef: vec![-2.0, 0.0], wins: two.0, draws: two.1, losses: two.2 },
                Observation { coef: vec![0.0, -1.0], wins: 39, draws: 1, losses: 319 },
            ];
            fit(&obs, 2).unwrap()
        };
        let straight = ladder((59, 1, 239));
        assert!(straight.chi2_per_dof < 1e-9 && straight.dispersion() == 1.0, "{}", straight.chi2_per_dof);
        let bent = ladder((99, 1, 199));
        // Both pawn scores have logit l and variance v, modelled as −u and −2u: u = −3l/5 fits
        // them best, and the knight's own score is fitted exactly (one degree of freedom).
        let (l, v) = Observation { coef: vec![], wins: 99, draws: 1, losses: 199 }.logit().unwrap();
        let u = -3.0 * l / 5.0;
        let chi2 = ((l + u).powi(2) + (l + 2.0 * u).powi(2)) / v;
        assert!((bent.u[0] - u).abs() < 1e-12 && chi2 > 4.0, "{} vs {u}, {chi2}", bent.u[0]);
        assert!((bent.dispersion() - chi2).abs() < 1e-9, "{} vs {chi2}", bent.chi2_per_dof);
        let (s, b) = (straight.in_pawns(1, 0), bent.in_pawns(1, 0));
        assert!(b.high - b.low > s.high - s.low, "{b:?} vs {s:?}");
    }

    /// The worked example's knight measured twice: by its odds, decided (a score of 0.03), and
    /// by an exchange for three pawns that scores 1/2. The fit leaves the odds out, and the
    /// knight is the exchange's 3 pawns; with the odds alone it falls back on them.
    #[test]
    fn decided_games_are_left_out_where_the_rest_determine_the_values() {
        let pawns = [
            Observation { coef: vec![-1.0, 0.0], wins: 99, draws: 1, losses: 199 },
            Observation { coef: vec![-2.0, 0.0], wins: 59, draws: 1, losses: 239 },
        ];
        let odds = Observation { coef: vec![0.0, -1.0], wins: 5, draws: 8, losses: 287 };
        let exchange = Observation { coef: vec![3.0, -1.0], wins: 140, draws: 20, losses: 140 };
        assert!(odds.decided() && !exchange.decided() && !pawns[1].decided());
        let all = [pawns[0].clone(), pawns[1].clone(), odds.clone(), exchange];
        let (f, used) = fit_undecided(&all, 2).unwrap();
        assert_eq!(used, [true, true, false, true]);
        assert!((f.in_pawns(1, 0).pawns - 3.0).abs() < 1e-9, "{:?}", f.in_pawns(1, 0));
        let with_odds = fit(&all, 2).unwrap().in_pawns(1, 0);
        assert!(with_odds.pawns > 3.1, "{with_odds:?}");
        let (g, used) = fit_undecided(&[pawns[0].clone(), pawns[1].clone(), odds], 2).unwrap();
        assert_eq!(used, [true; 3]);
        assert!(g.in_pawns(1, 0).pawns > 3.5, "{:?}", g.in_pawns(1, 0));
    }

    #[test]
    fn a_piece_without_games_is_an_error() {
        let obs = [Observation { coef: vec![-1.0, 0.0], wins: 10, draws: 0, losses: 20 }];
        assert!(fit(&obs, 2).is_err());
    }
}
