//! Move-generator speed: perft from each built-in variant's start position (bulk counting at
//! the last ply). Throughput is reported in nodes, so criterion prints nodes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::perft;
use hoplite_core::{Position, Variant};
use std::time::Duration;

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for (variant, depth) in
        [("chess", 5), ("spartan", 4), ("shatranj", 5), ("great-shatranj", 4), ("sultan", 4), ("rumi-shatranj", 5)]
    {
        let v = Variant::builtin(variant);
        let mut pos = Position::startpos(&v);
        let nodes = perft(&mut pos, depth);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("{variant}/{depth}"), |b| b.iter(|| perft(&mut pos, depth)));
    }
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
