//! A whole Tianshui-shaped event in memory: 160 players, 8 Swiss rounds, a top-8 knockout
//! while the rest play 3 more Swiss rounds; then `verify` of the same log.

use arbiter_core::{EventState, Recorded};
use arbiter_simulate::{Simulator, Sizes};
use criterion::{criterion_group, criterion_main, Criterion};

fn simulate(src: &str, sizes: &Sizes) -> Vec<Recorded> {
    let reg = arbiter_regulation::parse(src, "tianshui-2024.toml").expect("regulation");
    let mut sim = Simulator::new(reg, src, "tianshui-2024.toml", 1, sizes);
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim.next_batch(&state).expect("simulation") {
        for e in b.entries {
            let r = Recorded {
                seq: state.last_seq + 1,
                at: b.at.clone(),
                actor: b.actor.clone(),
                entry: e,
            };
            state.apply(&r).expect("entry");
            log.push(r);
        }
    }
    log
}

fn bench(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../regulations/tianshui-2024.toml"
    );
    let src = std::fs::read_to_string(path).expect("regulations/tianshui-2024.toml");
    let sizes = Sizes {
        by_section: [("open".to_string(), 160), ("local".to_string(), 0)].into(),
        ..Sizes::default()
    };
    let mut g = c.benchmark_group("director");
    g.sample_size(10);
    g.bench_function("simulate_tianshui_160", |b| {
        b.iter(|| simulate(&src, &sizes))
    });
    let log = simulate(&src, &sizes);
    g.bench_function("verify_tianshui_160", |b| {
        b.iter(|| arbiter_director::verify(&log, None))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
