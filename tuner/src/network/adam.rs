//! The optimiser (AdamW), its learning-rate schedule (cosine) and the seeded initial network.

use hoplite_search::eval::network::{FloatNetwork, WEIGHT_CLIP};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f32 = 1e-8;
/// Parameters per parallel block of an update: each is updated on its own, so any split gives
/// the same numbers.
const BLOCK: usize = 4096;
/// The schedule ends at this fraction of the starting rate.
const FINAL_RATE: f32 = 0.01;

/// The network's parameters as four slices: feature weights, feature biases, output weights,
/// output bias.
fn groups(n: &FloatNetwork) -> [&[f32]; 4] {
    [&n.ft_weights, &n.ft_bias, &n.out_weights, std::slice::from_ref(&n.out_bias)]
}

fn groups_mut(n: &mut FloatNetwork) -> [&mut [f32]; 4] {
    [&mut n.ft_weights, &mut n.ft_bias, &mut n.out_weights, std::slice::from_mut(&mut n.out_bias)]
}

/// AdamW's moments (in networks of the trained one's shape) and the number of steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub m: FloatNetwork,
    pub v: FloatNetwork,
    pub steps: u64,
}

impl AdamW {
    pub fn new(zero: FloatNetwork) -> AdamW {
        AdamW { m: zero.clone(), v: zero, steps: 0 }
    }

    /// One step at rate `lr` with decoupled weight decay `decay`, the gradient being
    /// `scale` × the sum of `parts` taken in their order (so that it does not depend on how
    /// they were computed). Weights are then clipped to `WEIGHT_CLIP`, the output bias
    /// excepted (the integer network holds it in an `i32`).
    pub fn step(&mut self, net: &mut FloatNetwork, parts: &[FloatNetwork], scale: f32, lr: f32, decay: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let (c1, c2) = ((1.0 - BETA1.powi(t)) as f32, (1.0 - BETA2.powi(t)) as f32);
        let parts: Vec<[&[f32]; 4]> = parts.iter().map(groups).collect();
        let (m, v) = (groups_mut(&mut self.m), groups_mut(&mut self.v));
        for (g, ((w, m), v)) in groups_mut(net).into_iter().zip(m).zip(v).enumerate() {
            let clip = if g == 3 { f32::INFINITY } else { WEIGHT_CLIP };
            w.par_chunks_mut(BLOCK).zip(m.par_chunks_mut(BLOCK)).zip(v.par_chunks_mut(BLOCK)).enumerate().for_each(
                |(b, ((w, m), v))| {
                    for j in 0..w.len() {
                        let at = b * BLOCK + j;
                        let grad = parts.iter().fold(0.0f32, |s, p| s + p[g][at]) * scale;
                        m[j] = BETA1 as f32 * m[j] + (1.0 - BETA1 as f32) * grad;
                        v[j] = BETA2 as f32 * v[j] + (1.0 - BETA2 as f32) * grad * grad;
                        let update = (m[j] / c1) / ((v[j] / c2).sqrt() + EPSILON);
                        w[j] = (w[j] - lr * (update + decay * w[j])).clamp(-clip, clip);
                    }
                },
            );
        }
    }
}

/// The rate of step `step` of `total`: cosine from `lr` down to `FINAL_RATE`·`lr`, which
/// takes big steps while the loss is far off and small ones to settle, with no decision of
/// where to drop the rate.
pub fn rate(lr: f32, step: u64, total: u64) -> f32 {
    let x = step as f64 / total.max(1) as f64;
    let cosine = 0.5 * (1.0 + (std::f64::consts::PI * x).cos()) as f32;
    lr * (FINAL_RATE + (1.0 - FINAL_RATE) * cosine)
}

/// A network to start from: weights uniform in ±1/√fan-in (Kaiming's uniform for a linear
/// layer), counting the ~32 inputs active at once as the feature transformer's fan-in, so
/// that the accumulators start near the activation's working range (0, 1); biases zero.
pub fn initial(inputs: usize, hidden: usize, seed: u64) -> FloatNetwork {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |n: usize, bound: f32| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-bound..bound)).collect() };
    let ft_weights = draw(inputs * hidden, 1.0 / 32f32.sqrt());
    let out_weights = draw(2 * hidden, 1.0 / (2.0 * hidden as f32).sqrt());
    FloatNetwork { hidden, ft_weights, ft_bias: vec![0.0; hidden], out_weights, out_bias: 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_falls_from_the_start_to_a_hundredth() {
        assert_eq!(rate(0.001, 0, 100), 0.001);
        assert!((rate(0.001, 50, 100) - 0.000505).abs() < 1e-7);
        assert!((rate(0.001, 100, 100) - 0.00001).abs() < 1e-9);
    }

    /// A step moves each weight against its gradient by about the rate, and clips.
    #[test]
    fn a_step_moves_against_the_gradient_and_clips() {
        let mut net = initial(2, 2, 1);
        net.ft_weights[0] = 1.9795;
        let before = net.clone();
        let mut grad = crate::network::gradient::zeros(2, 2);
        grad.ft_weights[0] = -1.0;
        grad.ft_weights[1] = 0.5;
        grad.out_bias = 2.0;
        let mut adam = AdamW::new(crate::network::gradient::zeros(2, 2));
        adam.step(&mut net, &[grad.clone(), grad], 0.5, 0.001, 0.0);
        assert_eq!(net.ft_weights[0], WEIGHT_CLIP);
        assert!((net.ft_weights[1] - (before.ft_weights[1] - 0.001)).abs() < 1e-6);
        assert!((net.out_bias + 0.001).abs() < 1e-6);
        assert_eq!(net.ft_weights[2], before.ft_weights[2]);
    }
}
