//! Self-play throughput: whole games at 1,000 nodes per move, one thread (games per second
//! is the reciprocal of the time per game shown).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::Variant;
use hoplite_search::{Limits, Weights};
use hoplite_selfplay::game::{game_seed, play, Adjudication, EngineSpec, GameSetup, Opening};
use std::time::Duration;

fn bench_selfplay(c: &mut Criterion) {
    let mut g = c.benchmark_group("selfplay");
    g.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    for variant in ["chess", "spartan"] {
        let v = Variant::builtin(variant);
        let engine = EngineSpec {
            name: "hoplite".into(),
            weights: Weights::defaults(&v),
            limits: Limits::nodes(1000),
            random: false,
        };
        g.throughput(Throughput::Elements(8));
        g.bench_function(format!("{variant}/8 games"), |b| {
            b.iter(|| {
                for id in 0..8 {
                    play(&GameSetup {
                        variant: &v,
                        config: "bench",
                        game_id: id,
                        seed: game_seed(1, id),
                        start_fen: &v.setup,
                        opening: Opening::Random(8),
                        shared_opening: None,
                        white: &engine,
                        black: &engine,
                        adjudication: Adjudication::default(),
                        record_san: false,
                        tt_megabytes: 1,
                    })
                    .unwrap();
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_selfplay);
criterion_main!(benches);
