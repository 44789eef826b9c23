//! Standings with every tie-break and the previous_round_rank fallback for a synthetic,
//! seeded section of 10,000 players × 11 rounds; team-match standings (场分/局分) and board
//! standings for a seeded team Swiss of 1,000 teams × 9 rounds × 4 boards.

use arbiter_standings::{board_standings, compute, team_match_standings, DecidedBy};
use arbiter_types::{Fallback, Score, TeamTiebreak, TiebreakName};
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

fn bench_team_match(c: &mut Criterion) {
    let input = arbiter_standings::synthetic::synthetic_team_matches(1_000, 9, 4, 20_261_206);
    let s = team_match_standings(&input);
    let by = |t: TeamTiebreak| s.rows.iter().filter(|r| r.decided_by == Some(t)).count();
    let shared = s
        .rows
        .iter()
        .enumerate()
        .filter(|(i, r)| *i > 0 && r.decided_by.is_none())
        .count();
    eprintln!(
        "team Swiss: {} rows; decided by 直胜 {}, 胜局 {}, 犯规 {}, 台次 {}; {shared} shared",
        s.rows.len(),
        by(TeamTiebreak::Direct),
        by(TeamTiebreak::GameWins),
        by(TeamTiebreak::Fouls),
        by(TeamTiebreak::Boards),
    );
    c.bench_function("team_match_1000x9x4_default_list", |b| {
        b.iter(|| team_match_standings(&input).rows.len())
    });
    let mut all = input.clone();
    all.tiebreaks = TeamTiebreak::ALL.to_vec();
    c.bench_function("team_match_1000x9x4_all_criteria", |b| {
        b.iter(|| team_match_standings(&all).rows.len())
    });
    c.bench_function("board_standings_1000x9x4", |b| {
        b.iter(|| board_standings(&input, 5, Score::points(2)).len())
    });
}

criterion_group!(benches, bench, bench_team_match);
criterion_main!(benches);
