//! Parsing and validating the shipped regulation files.

use criterion::{criterion_group, criterion_main, Criterion};

const FILES: [(&str, &str); 4] = [
    (
        "kunshan",
        include_str!("../../../regulations/kunshan-2026.toml"),
    ),
    (
        "suzhou",
        include_str!("../../../regulations/suzhou-2025.toml"),
    ),
    (
        "jiujiang",
        include_str!("../../../regulations/jiujiang-2020.toml"),
    ),
    (
        "tianshui",
        include_str!("../../../regulations/tianshui-2024.toml"),
    ),
];

fn parse(c: &mut Criterion) {
    for (name, src) in FILES {
        c.bench_function(&format!("parse_{name}"), |b| {
            b.iter(|| arbiter_regulation::parse(std::hint::black_box(src), name).is_ok())
        });
    }
    let (_, src) = FILES[1];
    if let Ok(reg) = arbiter_regulation::parse(src, "suzhou") {
        c.bench_function("summary_suzhou_zh", |b| {
            b.iter(|| reg.summary(arbiter_regulation::summary::Lang::Zh).len())
        });
    }
}

criterion_group!(benches, parse);
criterion_main!(benches);
