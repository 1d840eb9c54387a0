//! One position's forward and backward pass through a `FloatNetwork`, sparse in the first
//! layer: only the ~32 active inputs' columns are read, and only theirs receive gradient.
//! The gradient is kept in a `FloatNetwork` of the same shape.

use hoplite_search::eval::network::FloatNetwork;

/// The logistic function: the prediction of output `f` (in units of 400 cp) and the target of
/// a score of `f`·400 cp alike.
#[inline]
pub fn sigmoid(f: f32) -> f32 {
    1.0 / (1.0 + (-f).exp())
}

/// The accumulators (the side to move's, then the other side's) and their gradients of one
/// position, kept between positions so that nothing is allocated per position.
pub struct Scratch {
    pub acc: [Vec<f32>; 2],
    pub delta: [Vec<f32>; 2],
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        let v = || vec![0.0; hidden];
        Scratch { acc: [v(), v()], delta: [v(), v()] }
    }
}

/// A network of `hidden` units, every parameter zero: a gradient's shape.
pub fn zeros(inputs: usize, hidden: usize) -> FloatNetwork {
    FloatNetwork {
        hidden,
        ft_weights: vec![0.0; inputs * hidden],
        ft_bias: vec![0.0; hidden],
        out_weights: vec![0.0; 2 * hidden],
        out_bias: 0.0,
    }
}

/// The accumulators of active inputs `us` (the side to move's) and `them`, into `s`: the
/// biases plus the active columns.
#[inline]
pub fn accumulate(net: &FloatNetwork, us: &[u16], them: &[u16], s: &mut Scratch) {
    let h = net.hidden;
    for (acc, inputs) in s.acc.iter_mut().zip([us, them]) {
        acc.copy_from_slice(&net.ft_bias);
        for &i in inputs {
            let i = i as usize;
            for (a, w) in acc.iter_mut().zip(&net.ft_weights[i * h..(i + 1) * h]) {
                *a += w;
            }
        }
    }
}

/// The clipped squared ReLU.
#[inline(always)]
fn activate(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The output of the accumulators in `s`.
#[inline]
fn output(net: &FloatNetwork, s: &Scratch) -> f32 {
    let h = net.hidden;
    let mut out = net.out_bias;
    for (k, acc) in s.acc.iter().enumerate() {
        out += acc.iter().zip(&net.out_weights[k * h..(k + 1) * h]).map(|(a, w)| activate(*a) * w).sum::<f32>();
    }
    out
}

/// The squared error of one position against `target` (the side to move's expected score).
pub fn loss(net: &FloatNetwork, us: &[u16], them: &[u16], target: f32, s: &mut Scratch) -> f32 {
    accumulate(net, us, them, s);
    let e = sigmoid(output(net, s)) - target;
    e * e
}

/// From the accumulators in `s`: adds `scale` times the squared error's gradient to the
/// output layer's and the feature biases' in `grad`, leaves the accumulators' gradients in
/// `s.delta` (for the active columns), and returns the squared error.
#[inline]
pub fn output_backward(net: &FloatNetwork, target: f32, scale: f32, grad: &mut FloatNetwork, s: &mut Scratch) -> f32 {
    let h = net.hidden;
    let p = sigmoid(output(net, s));
    let e = p - target;
    // d(e²)/d(output) through the logistic.
    let g = scale * 2.0 * e * p * (1.0 - p);
    grad.out_bias += g;
    for k in 0..2 {
        let weights = &net.out_weights[k * h..(k + 1) * h];
        let out_grad = &mut grad.out_weights[k * h..(k + 1) * h];
        for (((&a, &w), og), d) in s.acc[k].iter().zip(weights).zip(out_grad).zip(&mut s.delta[k]) {
            let c = a.clamp(0.0, 1.0);
            *og += g * c * c;
            // The activation's slope 2c inside (0, 1), flat outside.
            *d = if a > 0.0 && a < 1.0 { g * w * 2.0 * c } else { 0.0 };
        }
    }
    for ((b, du), dt) in grad.ft_bias.iter_mut().zip(&s.delta[0]).zip(&s.delta[1]) {
        *b += du + dt;
    }
    e * e
}

/// Adds `scale` times the gradient of one position's squared error to `grad`, and returns
/// the error: only the active inputs' columns of the feature weights receive any.
pub fn backward(
    net: &FloatNetwork,
    us: &[u16],
    them: &[u16],
    target: f32,
    scale: f32,
    grad: &mut FloatNetwork,
    s: &mut Scratch,
) -> f32 {
    let h = net.hidden;
    accumulate(net, us, them, s);
    let loss = output_backward(net, target, scale, grad, s);
    for (delta, inputs) in s.delta.iter().zip([us, them]) {
        for &i in inputs {
            let i = i as usize;
            for (gw, d) in grad.ft_weights[i * h..(i + 1) * h].iter_mut().zip(delta) {
                *gw += d;
            }
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient equals the loss's central differences, for weights on every
    /// path (active inputs' columns, a bias, an output weight of each side, the output bias),
    /// and an inactive input gets none.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let (inputs, h) = (6, 4);
        let mut net = zeros(inputs, h);
        let mut x = 0.37f32;
        for w in net.ft_weights.iter_mut().chain(&mut net.ft_bias).chain(&mut net.out_weights) {
            x = (x * 7.31 + 0.113).fract();
            *w = x - 0.3;
        }
        net.out_bias = 0.1;
        let (us, them, target) = ([0u16, 3], [1u16, 3, 5], 0.8);
        let mut s = Scratch::new(h);
        let mut grad = zeros(inputs, h);
        backward(&net, &us, &them, target, 1.0, &mut grad, &mut s);
        let mut check = |analytic: f32, get: fn(&mut FloatNetwork) -> &mut f32| {
            let eps = 1e-3;
            let (mut up, mut down) = (net.clone(), net.clone());
            *get(&mut up) += eps;
            *get(&mut down) -= eps;
            let diff = loss(&up, &us, &them, target, &mut s) - loss(&down, &us, &them, target, &mut s);
            let numeric = diff / (2.0 * eps);
            assert!((numeric - analytic).abs() < 1e-3, "numeric {numeric}, analytic {analytic}");
        };
        check(grad.ft_weights[3 * 4 + 1], |n| &mut n.ft_weights[3 * 4 + 1]);
        check(grad.ft_weights[5 * 4 + 2], |n| &mut n.ft_weights[5 * 4 + 2]);
        check(grad.ft_bias[0], |n| &mut n.ft_bias[0]);
        check(grad.out_weights[1], |n| &mut n.out_weights[1]);
        check(grad.out_weights[4 + 3], |n| &mut n.out_weights[4 + 3]);
        check(grad.out_bias, |n| &mut n.out_bias);
        assert!(grad.ft_weights[2 * h..3 * h].iter().all(|&g| g == 0.0));
    }
}
