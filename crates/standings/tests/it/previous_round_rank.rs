//! `previous_round_rank` (K10, T4) checked against a direct reference: the ranking after
//! round r is (shared place after round r by the list, then the ranking after round r − 1),
//! computed for every round and every player from scratch.

use arbiter_standings::{compute, PlayerEntry, StandingsInput, TiebreakOptions};
use arbiter_types::{Colour, Fallback, GameResult, Outcome, PlayerNo, ScoringPreset, TiebreakName};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn synthetic(n: usize, rounds: usize, seed: u64) -> Vec<Vec<Outcome>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let table = ScoringPreset::Cxa.table();
    let mut out: Vec<Vec<Outcome>> = vec![Vec::new(); n];
    let mut score = vec![0i64; n];
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        order.sort_by_key(|&p| -score[p]);
        if order.len() % 2 == 1 {
            if let Some(p) = order.pop() {
                out[p].push(Outcome::Bye);
                score[p] += table.bye.halves();
            }
        }
        for pair in order.chunks(2) {
            let res =
                [GameResult::RedWin, GameResult::BlackWin, GameResult::Draw][rng.gen_range(0..3)];
            let a = res.outcome_for(Colour::Red, PlayerNo::from_index(pair[1]));
            let b = res.outcome_for(Colour::Black, PlayerNo::from_index(pair[0]));
            score[pair[0]] += a.points(&table).halves();
            score[pair[1]] += b.points(&table).halves();
            out[pair[0]].push(a);
            out[pair[1]].push(b);
        }
    }
    out
}

fn input(
    outcomes: Vec<Vec<Outcome>>,
    list: &[TiebreakName],
    fb: Option<Fallback>,
) -> StandingsInput {
    StandingsInput {
        players: (0..outcomes.len())
            .map(|i| PlayerEntry::new(PlayerNo::from_index(i)))
            .collect(),
        outcomes,
        scoring: ScoringPreset::Cxa.table(),
        tiebreaks: list.to_vec(),
        fallback: fb,
        options: TiebreakOptions::default(),
    }
}

/// Reference ranks (shared) after each round, by player index.
fn reference(outcomes: &[Vec<Outcome>], list: &[TiebreakName]) -> Vec<u32> {
    let n = outcomes.len();
    let rounds = outcomes[0].len();
    let mut prev: Option<Vec<u32>> = None;
    for r in 1..=rounds {
        let cut: Vec<Vec<Outcome>> = outcomes.iter().map(|o| o[..r].to_vec()).collect();
        let s = compute(&input(cut, list, Some(Fallback::Shared))).expect("valid");
        let mut shared = vec![0u32; n];
        for row in &s.rows {
            shared[row.no.index()] = row.rank;
        }
        let key = |p: usize| (shared[p], prev.as_ref().map_or(0, |v| v[p]));
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&p| key(p));
        let mut ranks = vec![0u32; n];
        for (pos, &p) in order.iter().enumerate() {
            ranks[p] = if pos > 0 && key(order[pos - 1]) == key(p) {
                ranks[order[pos - 1]]
            } else {
                pos as u32 + 1
            };
        }
        prev = Some(ranks);
    }
    prev.unwrap_or_default()
}

#[test]
fn previous_round_rank_matches_the_reference_on_random_events() {
    use TiebreakName::*;
    // Coarse lists leave many ties, so the fallback decides a lot.
    let lists: [&[TiebreakName]; 3] = [&[Wins], &[BlackGames, Wins], &[OppScore]];
    let mut decided_by_fallback = 0;
    for seed in 0..12u64 {
        let list = lists[seed as usize % lists.len()];
        let outcomes = synthetic(25 + seed as usize, 6, seed);
        let reference = reference(&outcomes, list);
        let s = compute(&input(outcomes, list, Some(Fallback::PreviousRoundRank))).expect("valid");
        // Our order must be the reference order, ties (equal reference rank) by pairing no.
        let mut expected: Vec<usize> = (0..reference.len()).collect();
        expected.sort_by_key(|&p| (reference[p], p));
        let got: Vec<usize> = s.rows.iter().map(|r| r.no.index()).collect();
        assert_eq!(got, expected, "seed {seed}");
        decided_by_fallback += s
            .rows
            .iter()
            .filter(|r| {
                r.decided_by
                    == Some(arbiter_standings::DecidedBy::Fallback(
                        Fallback::PreviousRoundRank,
                    ))
            })
            .count();
    }
    assert!(
        decided_by_fallback > 20,
        "the fallback decided only {decided_by_fallback} rows"
    );
}
