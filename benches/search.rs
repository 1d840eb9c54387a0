//! Search speed: a fixed-node search from the chess and spartan start positions.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::{Position, Variant};
use hoplite_search::{Budget, Search, Weights};
use std::time::Duration;

fn bench_search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    for variant in ["chess", "spartan", "sultan"] {
        let v = Variant::builtin(variant);
        let nodes = 200_000;
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(variant, |b| {
            b.iter(|| {
                let mut pos = Position::startpos(&v);
                Search::new(Weights::defaults(&v), 16).search(&mut pos, Budget::nodes(nodes))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
