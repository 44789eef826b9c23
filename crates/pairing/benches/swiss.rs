//! One Swiss round (round 5 and round 9 of 11) on generated sections.
//! `cargo bench -p arbiter-pairing --bench swiss`; set `ARBITER_BENCH_BIG=1` to add 10,000.

use arbiter_pairing::generator::bench_state;
use arbiter_pairing::pair_swiss;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;

fn swiss(c: &mut Criterion) {
    let mut sizes = vec![100usize, 1000];
    if std::env::var_os("ARBITER_BENCH_BIG").is_some() {
        sizes.push(10_000);
    }
    let mut g = c.benchmark_group("swiss_round");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for &n in &sizes {
        for round in [5u32, 9] {
            let state = bench_state(n, round, 42);
            g.bench_with_input(
                BenchmarkId::new(format!("round{round}"), n),
                &state,
                |b, s| b.iter(|| pair_swiss(s, round).map(|p| p.boards.len())),
            );
        }
    }
    g.finish();
}

criterion_group!(benches, swiss);
criterion_main!(benches);
