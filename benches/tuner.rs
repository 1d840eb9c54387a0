//! One tuner epoch over a million positions (20 features each, as chess positions have).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_tuner::fit::Adam;
use hoplite_tuner::Dataset;
use std::time::Duration;

fn dataset(n: usize, per: usize, weights: usize) -> Dataset {
    let mut d = Dataset::default();
    d.offsets.push(0);
    let mut s = 88172645463325252u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for _ in 0..n {
        for _ in 0..per {
            d.index.push((next() % weights as u64) as u8);
            d.value.push((next() % 7) as i16 - 3);
        }
        d.offsets.push(d.index.len() as u32);
        d.result.push((next() % 3) as u8);
    }
    d
}

fn bench_epoch(c: &mut Criterion) {
    let n = 1_000_000;
    let d = dataset(n, 20, 24);
    let mut g = c.benchmark_group("tuner");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("epoch/1M positions", |b| {
        let mut w = vec![100.0; 24];
        let mut adam = Adam::new(vec![1.0; 24]);
        b.iter(|| adam.epoch(&d, &mut w, 1.0, 16384))
    });
    g.finish();
}

criterion_group!(benches, bench_epoch);
criterion_main!(benches);
