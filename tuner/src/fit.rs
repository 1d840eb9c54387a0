//! Texel tuning: the win probability `1 / (1 + 10^(-K·eval/400))` fitted to game results by
//! least squares, with a ridge toward the start for chosen weights; K first (golden-section
//! search), then the weights by Adam on mini-batches, with early stopping on the validation loss
//! and standard errors from the cluster-robust (per game) sandwich `H⁻¹ (Σ_g u_g u_gᵀ) H⁻¹`,
//! `H = JᵀJ + n·diag(ridge)`, `u_g` the summed `J_i·residual_i` of game `g`: positions of one
//! game share its result, so they are not independent.

use crate::data::Dataset;
use hoplite_stats::invert;
use rayon::prelude::*;

/// Positions per parallel chunk. Sums are taken per chunk and then in chunk order, so results
/// do not depend on the number of threads.
const CHUNK: usize = 4096;

#[inline(always)]
fn eval(d: &Dataset, i: usize, w: &[f64]) -> f64 {
    let mut sum = 0.0;
    d.for_each_entry(i, |j, v| sum += w[j] * v);
    sum
}

#[inline(always)]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of positions `range` of `d`.
pub fn loss_range(d: &Dataset, w: &[f64], k: f64, range: std::ops::Range<usize>) -> f64 {
    if range.is_empty() {
        return 0.0;
    }
    let n = range.len();
    let chunks: Vec<f64> = range
        .clone()
        .step_by(CHUNK)
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&start| {
            (start..(start + CHUNK).min(range.end))
                .map(|i| {
                    let r = d.result[i] as f64;
                    (sigmoid(k, eval(d, i, w)) - r).powi(2)
                })
                .sum::<f64>()
        })
        .collect();
    chunks.iter().sum::<f64>() / n as f64
}

pub fn loss(d: &Dataset, w: &[f64], k: f64) -> f64 {
    loss_range(d, w, k, 0..d.len())
}

/// The K that minimises the loss for these weights.
pub fn fit_k(d: &Dataset, w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let e = a + g * (b - a);
        if loss(d, w, c) < loss(d, w, e) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Gradient of the loss over positions `range`.
fn gradient(d: &Dataset, w: &[f64], k: f64, range: std::ops::Range<usize>) -> Vec<f64> {
    let c = std::f64::consts::LN_10 * k / 400.0;
    let n = range.len().max(1) as f64;
    let parts: Vec<Vec<f64>> = range
        .clone()
        .step_by(CHUNK)
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&start| {
            let mut g = vec![0.0; w.len()];
            for i in start..(start + CHUNK).min(range.end) {
                let s = sigmoid(k, eval(d, i, w));
                let r = d.result[i] as f64;
                let common = 2.0 * (s - r) * s * (1.0 - s) * c;
                d.for_each_entry(i, |j, v| g[j] += common * v);
            }
            g
        })
        .collect();
    let mut g = vec![0.0; w.len()];
    for p in parts {
        for (a, b) in g.iter_mut().zip(p) {
            *a += b;
        }
    }
    g.iter_mut().for_each(|x| *x /= n);
    g
}

/// Adam's state over the fitted weights.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    /// Step size per weight (0 for a weight that stays fixed).
    pub rate: Vec<f64>,
    /// A ridge penalty `ridge[j] · (w[j] − prior[j])²` added to the loss per weight.
    pub ridge: Vec<f64>,
    pub prior: Vec<f64>,
}

impl Adam {
    pub fn new(rate: Vec<f64>) -> Adam {
        let n = rate.len();
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0, rate, ridge: vec![0.0; n], prior: vec![0.0; n] }
    }

    fn step(&mut self, w: &mut [f64], g: &[f64]) {
        let (b1, b2, eps) = (0.9, 0.999, 1e-12);
        self.t += 1;
        for j in 0..w.len() {
            if self.rate[j] == 0.0 {
                continue;
            }
            self.m[j] = b1 * self.m[j] + (1.0 - b1) * g[j];
            self.v[j] = b2 * self.v[j] + (1.0 - b2) * g[j] * g[j];
            let mh = self.m[j] / (1.0 - b1.powi(self.t));
            let vh = self.v[j] / (1.0 - b2.powi(self.t));
            w[j] -= self.rate[j] * mh / (vh.sqrt() + eps);
        }
    }

    /// One epoch: a pass over the training set in mini-batches of `batch` positions.
    pub fn epoch(&mut self, d: &Dataset, w: &mut [f64], k: f64, batch: usize) {
        let mut start = 0;
        while start < d.len() {
            let end = (start + batch).min(d.len());
            let mut g = gradient(d, w, k, start..end);
            for (j, g) in g.iter_mut().enumerate() {
                *g += 2.0 * self.ridge[j] * (w[j] - self.prior[j]);
            }
            self.step(w, &g);
            start = end;
        }
    }
}

/// Standard errors of the fitted weights (`fitted[j]`), cluster-robust by game, of the
/// objective with its ridge (`ridge[j]` per weight, as in `Adam`); `None` for weights not
/// fitted or not determined by the data.
pub fn standard_errors(d: &Dataset, w: &[f64], k: f64, fitted: &[bool], ridge: &[f64]) -> Vec<Option<f64>> {
    let idx: Vec<usize> = (0..w.len()).filter(|&j| fitted[j]).collect();
    let p = idx.len();
    let mut pos_of = vec![usize::MAX; w.len()];
    for (a, &j) in idx.iter().enumerate() {
        pos_of[j] = a;
    }
    let c = std::f64::consts::LN_10 * k / 400.0;
    // Row i of J (fitted columns only) and its residual.
    let row = |i: usize, out: &mut Vec<(usize, f64)>| -> f64 {
        let s = sigmoid(k, eval(d, i, w));
        let common = s * (1.0 - s) * c;
        out.clear();
        d.for_each_entry(i, |j, v| {
            if pos_of[j] != usize::MAX {
                out.push((pos_of[j], common * v));
            }
        });
        s - d.result[i] as f64
    };
    // JᵀJ ("bread") in parallel chunks; the per-game scores ("meat") in one pass, since a
    // game's positions may straddle chunks.
    let starts: Vec<usize> = (0..d.len()).step_by(CHUNK).collect();
    let parts: Vec<Vec<f64>> = starts
        .par_iter()
        .map(|&start| {
            let mut jtj = vec![0.0; p * p];
            let mut r = Vec::with_capacity(64);
            for i in start..(start + CHUNK).min(d.len()) {
                row(i, &mut r);
                for &(a, x) in &r {
                    for &(b, y) in &r {
                        jtj[a * p + b] += x * y;
                    }
                }
            }
            jtj
        })
        .collect();
    let mut jtj = vec![0.0; p * p];
    for m in parts {
        jtj.iter_mut().zip(m).for_each(|(a, b)| *a += b);
    }
    // The loss is the mean of the squared residuals plus the ridge: on the scale of half their
    // sum, the ridge adds n·ridge to the curvature. Weights the data never touch stay unknown.
    for (a, &j) in idx.iter().enumerate() {
        if jtj[a * p + a] > 1e-18 {
            jtj[a * p + a] += d.len() as f64 * ridge[j];
        }
    }
    let mut meat = vec![0.0; p * p];
    let mut u = vec![0.0; p];
    let mut r = Vec::with_capacity(64);
    let flush = |u: &mut Vec<f64>, meat: &mut Vec<f64>| {
        for a in 0..p {
            for b in 0..p {
                meat[a * p + b] += u[a] * u[b];
            }
        }
        u.iter_mut().for_each(|x| *x = 0.0);
    };
    for i in 0..d.len() {
        if i > 0 && d.game.get(i) != d.game.get(i - 1) {
            flush(&mut u, &mut meat);
        }
        let res = row(i, &mut r);
        for &(a, x) in &r {
            u[a] += x * res;
        }
    }
    flush(&mut u, &mut meat);
    let mut out = vec![None; w.len()];
    let Some(inv) = invert(&jtj, p) else { return out };
    // cov = inv · meat · inv
    let mut tmp = vec![0.0; p * p];
    for a in 0..p {
        for b in 0..p {
            tmp[a * p + b] = (0..p).map(|m| inv[a * p + m] * meat[m * p + b]).filter(|x| x.is_finite()).sum();
        }
    }
    for (a, &j) in idx.iter().enumerate() {
        let var: f64 = (0..p).map(|m| tmp[a * p + m] * inv[m * p + a]).filter(|x| x.is_finite()).sum();
        if inv[a * p + a].is_finite() && var >= 0.0 {
            out[j] = Some(var.sqrt());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_search::eval::linear::PHASE;

    /// A dataset where one feature decides the result through a known logistic curve.
    fn synthetic(true_w: f64, k: f64, n: usize) -> Dataset {
        let mut d = Dataset::new(vec![0]);
        let mut state = 12345u64;
        for i in 0..n {
            let x = (i % 7) as i16 - 3;
            let p = sigmoid(k, true_w * x as f64);
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            d.push(&[(0, x)], PHASE as u8, if u < p { 1.0 } else { 0.0 }, i as u64);
        }
        d
    }

    #[test]
    fn recovers_a_known_weight_with_its_error() {
        let d = synthetic(150.0, 1.0, 60_000);
        let mut w = vec![50.0];
        let mut adam = Adam::new(vec![2.0]);
        for _ in 0..200 {
            adam.epoch(&d, &mut w, 1.0, 8192);
        }
        let se = standard_errors(&d, &w, 1.0, &[true], &[0.0])[0].unwrap();
        assert!((w[0] - 150.0).abs() < 4.0 * se, "w = {} ± {se}", w[0]);
        assert!(se > 0.1 && se < 10.0, "{se}");
    }

    /// Labels that are the win probabilities themselves (`hoplite label`) carry no sampling
    /// noise: the fit finds the weight from far fewer positions, and closer.
    #[test]
    fn expected_scores_as_labels_give_the_weight_exactly() {
        let mut d = Dataset::new(vec![0]);
        for i in 0..2_000 {
            let x = (i % 7) as i16 - 3;
            d.push(&[(0, x)], PHASE as u8, sigmoid(1.0, 150.0 * x as f64) as f32, i as u64);
        }
        let mut w = vec![50.0];
        let mut adam = Adam::new(vec![2.0]);
        for _ in 0..300 {
            adam.epoch(&d, &mut w, 1.0, 512);
        }
        assert!((w[0] - 150.0).abs() < 1.0, "w = {}", w[0]);
    }

    #[test]
    fn a_ridge_holds_a_weight_near_its_prior() {
        let d = synthetic(150.0, 1.0, 60_000);
        let fit = |ridge: f64| {
            let mut w = vec![50.0];
            let mut adam = Adam::new(vec![2.0]);
            adam.prior = vec![50.0];
            adam.ridge = vec![ridge];
            for _ in 0..200 {
                adam.epoch(&d, &mut w, 1.0, 8192);
            }
            w[0]
        };
        let (free, held, pinned) = (fit(0.0), fit(1e-5), fit(1.0));
        assert!((free - 150.0).abs() < 10.0, "{free}");
        assert!(held > 55.0 && held < free - 10.0, "{held} vs {free}");
        assert!((pinned - 50.0).abs() < 1.0, "{pinned}");
        // The ridge is information too: it narrows the error.
        let se = |w: f64, ridge: f64| standard_errors(&d, &[w], 1.0, &[true], &[ridge])[0].unwrap();
        assert!(se(held, 1e-5) < 0.8 * se(held, 0.0), "{} vs {}", se(held, 1e-5), se(held, 0.0));
    }

    #[test]
    fn positions_of_one_game_count_as_one_observation() {
        // Every position copied ten times into its own game: ten times the rows, the same
        // information. The per-game errors stay put; naive ones would shrink by √10.
        let one = synthetic(150.0, 1.0, 20_000);
        let mut ten = Dataset::new(vec![0]);
        for i in 0..one.len() {
            for _ in 0..10 {
                let mut f = Vec::new();
                one.for_each_entry(i, |j, v| f.push((j as u16, v as i16)));
                ten.push(&f, PHASE as u8, one.result[i], i as u64);
            }
        }
        let w = [150.0];
        let (a, b) = (
            standard_errors(&one, &w, 1.0, &[true], &[0.0])[0].unwrap(),
            standard_errors(&ten, &w, 1.0, &[true], &[0.0])[0].unwrap(),
        );
        assert!((a / b - 1.0).abs() < 0.01, "{a} vs {b}");
    }

    #[test]
    fn k_is_found_for_fixed_weights() {
        let d = synthetic(100.0, 1.5, 60_000);
        let k = fit_k(&d, &[100.0]);
        assert!((k - 1.5).abs() < 0.15, "{k}");
    }
}
