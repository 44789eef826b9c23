//! Standings with every tie-break and the previous_round_rank fallback for a synthetic,
//! seeded section of 10,000 players × 11 rounds.

use arbiter_standings::{compute, DecidedBy};
use arbiter_types::{Fallback, TiebreakName};
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let input = arbiter_standings::synthetic::synthetic_section(10_000, 11, 20_260_801);
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
