//! The network trainer's speed: an epoch of chess positions on two threads at 128 and 256
//! hidden units, and one position's forward and backward pass on one thread with the sparse
//! first layer the trainer uses against a dense one (every input multiplied, as a dense
//! framework's matrix product does), the rest of the network the same.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use hoplite_core::seed::mix64;
use hoplite_core::{GameResult, Position, Variant};
use hoplite_formats::packed::PackedPosition;
use hoplite_search::eval::network::{FloatNetwork, Layout};
use hoplite_tuner::network::gradient::{self, Scratch};
use hoplite_tuner::network::{adam, samples};
use hoplite_tuner::{train, TrainConfig};
use std::ops::ControlFlow;
use std::time::Duration;

/// `n` positions of random chess games, every third ply, with made-up scores (the speed does
/// not depend on them).
fn positions(n: usize) -> Vec<PackedPosition> {
    let v = Variant::builtin("chess");
    let (mut out, mut moves, mut pos) = (Vec::with_capacity(n), Vec::new(), Position::startpos(&v));
    for i in 0u64.. {
        if out.len() == n {
            break;
        }
        pos.legal_moves(&mut moves);
        if moves.is_empty() || pos.ply() > 180 {
            pos = Position::startpos(&v);
            continue;
        }
        pos.make(moves[(mix64(i) % moves.len() as u64) as usize]);
        if i % 3 == 0 {
            out.push(PackedPosition::new(&pos, (mix64(!i) % 600) as i32 - 300, GameResult::Draw));
        }
    }
    out
}

fn bench_epoch(c: &mut Criterion) {
    let n = 200_000;
    let data = positions(n);
    let layout = Layout::of(&Variant::builtin("chess"));
    let out = std::env::temp_dir().join("hoplite-bench-trainer");
    let mut g = c.benchmark_group("trainer");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(n as u64));
    for hidden in [128, 256] {
        let config = TrainConfig { hidden, epochs: 1, validation: 0.0, threads: 2, ..TrainConfig::default() };
        g.bench_function(format!("epoch/200k chess positions/{hidden} hidden/2 threads"), |b| {
            // A fresh directory each time: a checkpoint left there would be resumed from.
            b.iter_batched(
                || {
                    let _ = std::fs::remove_dir_all(&out);
                },
                |_| train(&layout, &data, &config, &out, |_| ControlFlow::Continue(())).unwrap(),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&out);
}

/// The accumulators with a dense first layer: every input's column times its value.
fn dense_accumulate(net: &FloatNetwork, x: &[[f32; 768]; 2], s: &mut Scratch) {
    let h = net.hidden;
    for (acc, x) in s.acc.iter_mut().zip(x) {
        acc.copy_from_slice(&net.ft_bias);
        for (column, &xi) in net.ft_weights.chunks_exact(h).zip(x.iter()) {
            for (a, w) in acc.iter_mut().zip(column) {
                *a += xi * w;
            }
        }
    }
}

/// The feature weights' gradient of a dense first layer: the outer product of the inputs and
/// the accumulators' gradients.
fn dense_scatter(grad: &mut FloatNetwork, x: &[[f32; 768]; 2], s: &Scratch) {
    let h = grad.hidden;
    for (delta, x) in s.delta.iter().zip(x) {
        for (column, &xi) in grad.ft_weights.chunks_exact_mut(h).zip(x.iter()) {
            for (gw, d) in column.iter_mut().zip(delta) {
                *gw += xi * d;
            }
        }
    }
}

fn bench_first_layer(c: &mut Criterion) {
    let n = 2_000;
    let layout = Layout::of(&Variant::builtin("chess"));
    assert_eq!(layout.inputs(), 768);
    let (mut us, mut them) = (Vec::new(), Vec::new());
    let sparse: Vec<(Vec<u16>, Vec<u16>, f32)> = positions(n)
        .iter()
        .map(|p| {
            samples::inputs(&layout, p, &mut us, &mut them);
            (us.clone(), them.clone(), samples::target(p, 0.75))
        })
        .collect();
    let dense: Vec<([[f32; 768]; 2], f32)> = sparse
        .iter()
        .map(|(us, them, t)| {
            let mut x = [[0.0; 768]; 2];
            for (k, inputs) in [us, them].into_iter().enumerate() {
                for &i in inputs {
                    x[k][i as usize] = 1.0;
                }
            }
            (x, *t)
        })
        .collect();
    let mut g = c.benchmark_group("trainer/first layer");
    g.sample_size(20).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(n as u64));
    let net = adam::initial(768, 128, 1);
    let mut grad = gradient::zeros(768, 128);
    let mut s = Scratch::new(128);
    g.bench_function("sparse/128 hidden/1 thread", |b| {
        b.iter(|| {
            for (us, them, t) in &sparse {
                gradient::backward(&net, us, them, *t, 1.0, &mut grad, &mut s);
            }
        })
    });
    g.bench_function("dense/128 hidden/1 thread", |b| {
        b.iter(|| {
            for (x, t) in &dense {
                dense_accumulate(&net, x, &mut s);
                gradient::output_backward(&net, *t, 1.0, &mut grad, &mut s);
                dense_scatter(&mut grad, x, &s);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench_first_layer, bench_epoch);
criterion_main!(benches);
