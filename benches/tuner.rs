//! One tuner epoch over a million chess positions: the features of positions from random
//! games, stored as `hoplite tune` stores them (tapered weights and all).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::{Position, Variant};
use hoplite_search::{features, Weights};
use hoplite_tuner::fit::Adam;
use hoplite_tuner::Dataset;
use std::time::Duration;

fn dataset(n: usize) -> (Dataset, Weights) {
    let v = Variant::builtin("chess");
    let w = Weights::defaults(&v);
    let mut d = Dataset::new((0..w.len()).map(|j| w.end(j) as u16).collect());
    let mut s = 88172645463325252u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut pos, mut moves, mut game) = (Position::startpos(&v), Vec::new(), 0);
    while d.len() < n {
        pos.legal_moves(&mut moves);
        if moves.is_empty() || pos.ply() > 200 {
            (pos, game) = (Position::startpos(&v), game + 1);
            continue;
        }
        pos.make(moves[next() as usize % moves.len()]);
        let f = features(&pos, &w);
        let sparse: Vec<(u16, i16)> =
            f.values.iter().enumerate().filter(|(_, &x)| x != 0).map(|(j, &x)| (j as u16, x as i16)).collect();
        d.push(&sparse, f.phase as u8, (next() % 3) as f32 / 2.0, game);
    }
    (d, w)
}

fn bench_epoch(c: &mut Criterion) {
    let n = 1_000_000;
    let (d, w) = dataset(n);
    let mut g = c.benchmark_group("tuner");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("epoch/1M positions", |b| {
        let mut x: Vec<f64> = w.values.iter().map(|&v| v as f64).collect();
        let mut adam = Adam::new(vec![1.0; x.len()]);
        b.iter(|| adam.epoch(&d, &mut x, 0.5, 16384))
    });
    g.finish();
    println!("{} positions, {:.1} features each", d.len(), d.index.len() as f64 / d.len() as f64);
}

criterion_group!(benches, bench_epoch);
criterion_main!(benches);
