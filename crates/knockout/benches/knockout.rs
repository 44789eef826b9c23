//! Plays out brackets (K1, every third game drawn): 32-player placement and single
//! elimination, and the largest sizes — 1,024 single elimination and placement, 100 players
//! (a bracket of 128 with 28 byes) — and renders them.

use arbiter_knockout::{render_text, Bracket, BracketKind, FormatCode, MatchFormat, MatchSettings};
use arbiter_types::{GameResult, PlayerNo};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn play(kind: BracketKind) -> Bracket {
    play_n(kind, 32)
}

fn play_n(kind: BracketKind, n: u32) -> Bracket {
    let ranking: Vec<PlayerNo> = (1..=n).filter_map(PlayerNo::new).collect();
    let format = MatchFormat::preset(FormatCode::K1);
    let mut b = Bracket::new(kind, ranking, format, MatchSettings::default())
        .expect("2 to 1,024 players is a valid field");
    let mut k = 0u32;
    // Each pass plays every ready match to its end (a round of the hall), in bracket order.
    loop {
        let ready: Vec<String> = b.ready().iter().map(|s| s.to_string()).collect();
        if ready.is_empty() {
            break;
        }
        for id in ready {
            while let Some(next) = b.next_game(&id).expect("ready match") {
                // every third game drawn, so some matches go to the rapid and armageddon games
                let r = match k % 3 {
                    0 => GameResult::Draw,
                    _ => GameResult::RedWin,
                };
                b.record(&id, next.index, r)
                    .expect("next game is recordable");
                k += 1;
            }
        }
    }
    b
}

fn bench(c: &mut Criterion) {
    c.bench_function("placement_32_play_out", |bn| {
        bn.iter(|| black_box(play(BracketKind::Placement)))
    });
    c.bench_function("single_elim_32_play_out", |bn| {
        bn.iter(|| black_box(play(BracketKind::SingleElimination)))
    });
    let b = play(BracketKind::Placement);
    c.bench_function("placement_32_render", |bn| {
        bn.iter(|| black_box(render_text(&b, &|p| p.to_string())))
    });
    let mut large = c.benchmark_group("large");
    large.sample_size(10);
    large.bench_function("single_elim_100_play_out", |bn| {
        bn.iter(|| black_box(play_n(BracketKind::SingleElimination, 100)))
    });
    large.bench_function("single_elim_1024_play_out", |bn| {
        bn.iter(|| black_box(play_n(BracketKind::SingleElimination, 1024)))
    });
    large.bench_function("placement_1024_play_out", |bn| {
        bn.iter(|| black_box(play_n(BracketKind::Placement, 1024)))
    });
    let b = play_n(BracketKind::Placement, 1024);
    large.bench_function("placement_1024_places", |bn| {
        bn.iter(|| black_box(b.places()))
    });
    large.bench_function("placement_1024_render", |bn| {
        bn.iter(|| black_box(render_text(&b, &|p| p.to_string())))
    });
    large.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
