//! Standings with every tie-break and the previous_round_rank fallback for a synthetic,
//! seeded section of 10,000 players × 11 rounds.

use arbiter_standings::{compute, DecidedBy, PlayerEntry, StandingsInput, TiebreakOptions};
use arbiter_types::{
    Colour, Fallback, GameResult, Outcome, PlayerNo, ScoringPreset, ScoringTable, TiebreakName,
};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn synthetic(n: usize, rounds: usize, seed: u64) -> StandingsInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let table: ScoringTable = ScoringPreset::Cxa.table();
    let mut players: Vec<PlayerEntry> = (0..n)
        .map(|i| {
            let mut p = PlayerEntry::new(PlayerNo::from_index(i));
            p.rating = Some(1400 + rng.gen_range(0..1200));
            p.fouls = rng.gen_range(0..3);
            p
        })
        .collect();
    players[n - 1].withdrawn = true;
    let mut outcomes: Vec<Vec<Outcome>> = vec![Vec::with_capacity(rounds); n];
    let mut score = vec![0i64; n];
    for _ in 0..rounds {
        // Swiss-like: order by score with random order inside a score group, pair neighbours.
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        order.sort_by_key(|&p| -score[p]);
        if order.len() % 2 == 1 {
            if let Some(p) = order.pop() {
                outcomes[p].push(Outcome::Bye);
                score[p] += table.bye.halves();
            }
        }
        for pair in order.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let x: u32 = rng.gen_range(0..100);
            let res = match x {
                0..=39 => GameResult::RedWin,
                40..=69 => GameResult::BlackWin,
                70..=96 => GameResult::Draw,
                97..=98 => GameResult::BlackForfeit,
                _ => GameResult::DoubleForfeit,
            };
            let oa = res.outcome_for(Colour::Red, PlayerNo::from_index(b));
            let ob = res.outcome_for(Colour::Black, PlayerNo::from_index(a));
            score[a] += oa.points(&table).halves();
            score[b] += ob.points(&table).halves();
            outcomes[a].push(oa);
            outcomes[b].push(ob);
        }
    }
    StandingsInput {
        players,
        outcomes,
        scoring: table,
        tiebreaks: TiebreakName::ALL.to_vec(),
        fallback: Some(Fallback::PreviousRoundRank),
        options: TiebreakOptions {
            rating_floor: Some(1400),
            ..TiebreakOptions::default()
        },
    }
}

fn bench(c: &mut Criterion) {
    let input = synthetic(10_000, 11, 20_260_801);
    if let Ok(s) = compute(&input) {
        let by_fallback = s
            .rows
            .iter()
            .filter(|r| r.decided_by == Some(DecidedBy::Fallback(Fallback::PreviousRoundRank)))
            .count();
        eprintln!(
            "synthetic section: {} rows, {by_fallback} decided by previous_round_rank",
            s.rows.len()
        );
    }
    c.bench_function("standings_10000x11_all_tiebreaks_prev_round_rank", |b| {
        b.iter(|| compute(&input).map(|s| s.rows.len()).unwrap_or(0))
    });
    // A coarse list leaves many ties, so earlier rounds must be ranked for the fallback.
    let mut coarse = input.clone();
    coarse.tiebreaks = vec![
        TiebreakName::Wins,
        TiebreakName::Fouls,
        TiebreakName::BlackGames,
    ];
    if let Ok(s) = compute(&coarse) {
        let by_fallback = s
            .rows
            .iter()
            .filter(|r| r.decided_by == Some(DecidedBy::Fallback(Fallback::PreviousRoundRank)))
            .count();
        eprintln!("coarse list: {by_fallback} rows decided by previous_round_rank");
    }
    c.bench_function(
        "standings_10000x11_wins_fouls_black_games_prev_round_rank",
        |b| b.iter(|| compute(&coarse).map(|s| s.rows.len()).unwrap_or(0)),
    );
    let mut single = input.clone();
    single.fallback = None;
    c.bench_function("standings_10000x11_all_tiebreaks_no_fallback", |b| {
        b.iter(|| compute(&single).map(|s| s.rows.len()).unwrap_or(0))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
