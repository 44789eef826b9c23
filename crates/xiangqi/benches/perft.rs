//! Perft of the start position and of a tricky middle-game position (chessprogramming.org's
//! Chinese Chess perft table). `cargo bench -p arbiter-xiangqi --bench perft`; figures in
//! BENCHMARKS.md. Depth 5 of the start position (133,312,995 leaves) is timed once per
//! sample; set ARBITER_BENCH_QUICK=1 to stop at depth 4.

use arbiter_xiangqi::Position;
use criterion::{criterion_group, criterion_main, Criterion};

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = Position::start();
    g.bench_function("start depth 4", |b| {
        b.iter(|| assert_eq!(start.clone().perft(4), 3_290_240))
    });
    if std::env::var_os("ARBITER_BENCH_QUICK").is_none() {
        g.bench_function("start depth 5", |b| {
            b.iter(|| assert_eq!(start.clone().perft(5), 133_312_995))
        });
        g.bench_function("start depth 5, 2 threads", |b| {
            b.iter(|| assert_eq!(start.perft_parallel(5, 2), 133_312_995))
        });
    }
    let mid = Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w")
        .expect("fen");
    g.bench_function("middle game depth 4", |b| {
        b.iter(|| assert_eq!(mid.clone().perft(4), 1_339_047))
    });
    g.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
