//! A seeded synthetic section for benchmarks (criterion and `arbiter bench standings`).

use crate::{PlayerEntry, StandingsInput, TiebreakOptions};
use arbiter_types::{
    Colour, Fallback, GameResult, Outcome, PlayerNo, ScoringPreset, ScoringTable, TiebreakName,
};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A Swiss-like history of `n` players over `rounds` rounds: each round, players are ordered
/// by score (random order inside a score group) and neighbours meet; 40% red wins, 30% black
/// wins, 27% draws, 2% black forfeits, 1% double forfeits; an odd player out gets a bye. CXA
/// scoring, random ratings (1400–2599) and fouls (0–2), the last player withdrawn, every
/// tie-break and the `previous_round_rank` fallback (the caller may replace the list).
pub fn synthetic_section(n: usize, rounds: usize, seed: u64) -> StandingsInput {
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
    if let Some(last) = players.last_mut() {
        last.withdrawn = true;
    }
    let mut outcomes: Vec<Vec<Outcome>> = vec![Vec::with_capacity(rounds); n];
    let mut score = vec![0i64; n];
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        order.sort_by_key(|&p| -score[p]);
        if order.len() % 2 == 1 {
            if let Some(p) = order.pop() {
                outcomes[p].push(Outcome::Bye);
                score[p] += table.bye.halves();
            }
        }
        for pair in order.chunks_exact(2) {
            let (a, b) = (pair[0], pair[1]);
            let res = match rng.gen_range(0..100u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_section_and_every_round_complete() {
        let a = synthetic_section(51, 7, 9);
        let b = synthetic_section(51, 7, 9);
        assert_eq!(a.outcomes, b.outcomes);
        assert!(a.outcomes.iter().all(|o| o.len() == 7));
        assert!(synthetic_section(0, 3, 1).players.is_empty());
        assert!(crate::compute(&a).is_ok());
    }
}
