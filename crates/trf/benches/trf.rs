//! Reading and writing a large TRF file: 1000 players, 11 rounds (Berger pairings, fixed
//! results). `cargo bench -p arbiter-trf`.

use arbiter_trf::{parse, write, TrfPlayer, TrfTournament};
use arbiter_types::{Colour, Outcome, PlayerNo, PlayerResult, ScoringPreset};
use criterion::{criterion_group, criterion_main, Criterion};
use std::collections::BTreeMap;

fn big(n: usize, rounds: usize) -> TrfTournament {
    let players = (0..n)
        .map(|i| TrfPlayer {
            no: PlayerNo::from_index(i),
            sex: None,
            title: String::new(),
            name: format!("棋手 {}", i + 1),
            rating: Some(1500 + (i as u32 % 900)),
            federation: "CHN".into(),
            fide_id: String::new(),
            birth_date: String::new(),
            points: None,
            rank: None,
            team: Some(i as u32 % 40),
            next_round: None,
        })
        .collect();
    let mut t = TrfTournament {
        name: "bench".into(),
        players,
        rounds_played: 0,
        total_rounds: Some(rounds as u32),
        initial_colour: Some(Colour::Red),
        scoring: ScoringPreset::Cxa.table(),
        outcomes: vec![Vec::new(); n],
        extra_lines: Vec::new(),
    };
    for (k, rr) in arbiter_pairing::round_robin::berger(n)
        .iter()
        .take(rounds)
        .enumerate()
    {
        let mut res = BTreeMap::new();
        for (j, &(r, b)) in rr.boards.iter().enumerate() {
            let (r, b) = (PlayerNo::from_index(r - 1), PlayerNo::from_index(b - 1));
            let (x, y) = match (j + k) % 3 {
                0 => (PlayerResult::Win, PlayerResult::Loss),
                1 => (PlayerResult::Draw, PlayerResult::Draw),
                _ => (PlayerResult::Loss, PlayerResult::Win),
            };
            res.insert(
                r,
                Outcome::Game {
                    opponent: b,
                    colour: Colour::Red,
                    result: x,
                },
            );
            res.insert(
                b,
                Outcome::Game {
                    opponent: r,
                    colour: Colour::Black,
                    result: y,
                },
            );
        }
        t.push_round(&res);
    }
    t.fill_points_and_ranks();
    t
}

fn bench(c: &mut Criterion) {
    let t = big(1000, 11);
    let text = write(&t);
    c.bench_function("trf_parse_1000x11", |b| {
        b.iter(|| parse(&text, "bench.trf"))
    });
    c.bench_function("trf_write_1000x11", |b| b.iter(|| write(&t)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
