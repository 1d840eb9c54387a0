//! Self-play throughput: whole games at 1,000 nodes per move, one thread (games per second
//! is the reciprocal of the time per game shown).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hoplite_core::seed::game_seed;
use hoplite_core::Variant;
use hoplite_search::Budget;
use hoplite_selfplay::openings::{Opening, Own};
use hoplite_selfplay::run::game::{play, Adjudication, Game};
use hoplite_selfplay::PlayerSpec;
use std::time::Duration;

fn bench_selfplay(c: &mut Criterion) {
    let mut g = c.benchmark_group("selfplay");
    g.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));
    for variant in ["chess", "spartan"] {
        let v = Variant::builtin(variant);
        let spec = PlayerSpec::Hoplite {
            name: "hoplite".into(),
            budget: Budget::nodes(1000),
            files: Default::default(),
            hash_mb: 1,
        };
        let (mut white, mut black) = (spec.start(), spec.start());
        let opening = Opening { start_fen: v.setup.as_str().into(), moves: None, own: Own::Random(8) };
        g.throughput(Throughput::Elements(8));
        g.bench_function(format!("{variant}/8 games"), |b| {
            b.iter(|| {
                for id in 0..8 {
                    white.new_game(&v).unwrap();
                    black.new_game(&v).unwrap();
                    let game = Game {
                        variant: &v,
                        config: "bench",
                        game_id: id,
                        seed: game_seed(1, id),
                        opening: &opening,
                        names: ["hoplite", "hoplite"],
                        clocks: [None, None],
                        adjudication: Adjudication::default(),
                        record_san: false,
                        record_evals: false,
                    };
                    let record = play(&game, [white.as_mut(), black.as_mut()]);
                    assert!(record.failure.is_none());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_selfplay);
criterion_main!(benches);
