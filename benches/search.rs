//! Search speed: a fixed-node search from the chess and spartan start positions.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::{Position, Variant};
use hoplite_search::eval::network::{FloatNetwork, Layout, Network};
use hoplite_search::{Budget, Evaluator, Search, Weights};
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

/// The same searches from the chess start with a network of each width (weights drawn from a
/// seed: the speed of inference, not of a trained network's tree).
fn bench_network(c: &mut Criterion) {
    let mut g = c.benchmark_group("network");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    let v = Variant::builtin("chess");
    let nodes = 200_000;
    g.throughput(Throughput::Elements(nodes));
    for hidden in [128, 256] {
        let layout = Layout::of(&v);
        let net = Network::quantise(layout.clone(), &FloatNetwork::seeded(&layout, hidden, 1, 0.1));
        let evaluator = Evaluator::with_network(&v, net);
        g.bench_function(format!("chess-{hidden}"), |b| {
            b.iter(|| {
                let mut pos = Position::startpos(&v);
                let r = Search::new(evaluator.clone(), 16).search(&mut pos, Budget::nodes(nodes));
                assert_eq!(r.nodes, nodes);
                r
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_search, bench_network);
criterion_main!(benches);
