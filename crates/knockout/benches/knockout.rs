//! Plays a full 32-player placement bracket (K1, draws in half the slow games).

use arbiter_knockout::{render_text, Bracket, BracketKind, FormatCode, MatchFormat, MatchSettings};
use arbiter_types::{GameResult, PlayerNo};
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn play(kind: BracketKind) -> Bracket {
    let ranking: Vec<PlayerNo> = (1..=32).filter_map(PlayerNo::new).collect();
    let format = MatchFormat::preset(FormatCode::K1);
    let mut b = Bracket::new(kind, ranking, format, MatchSettings::default())
        .expect("32 players is a valid field");
    let mut k = 0u32;
    while let Some(id) = b.ready().first().map(|s| s.to_string()) {
        let next = b
            .next_game(&id)
            .expect("ready match")
            .expect("undecided match");
        // every third game drawn, so some matches go to the rapid and armageddon games
        let r = match k % 3 {
            0 => GameResult::Draw,
            _ => GameResult::RedWin,
        };
        b.record(&id, next.index, r)
            .expect("next game is recordable");
        k += 1;
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
