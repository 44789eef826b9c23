//! Seeded synthetic sections for benchmarks (criterion and `arbiter bench standings`): an
//! individual section, and a team-match section.

use crate::team_match::{
    default_match_points, BoardOutcome, MatchBoard, MatchTeam, PlayedMatch, TeamBye, TeamMatchInput,
};
use crate::{PlayerEntry, StandingsInput, TiebreakOptions};
use arbiter_types::{
    Colour, Fallback, GameResult, Outcome, PlayerNo, Score, ScoringPreset, ScoringTable,
    TeamTiebreak, TiebreakName,
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

/// A team Swiss of `teams` teams (five players each: four boards and a reserve) over
/// `rounds` rounds on `boards` boards: each round, teams are ordered by 场分 (random order
/// inside a group) and neighbours meet; an odd team out gets a bye worth half the boards'
/// points. One match in ten brings the reserve in (the players below move down a board).
/// Boards: 38% first-team wins, 34% second-team wins, 26% draws, 1% an empty seat of the
/// second team, 1% double forfeits (both seats empty); one match in 200 is lost by forfeit
/// on every board.
/// Game points 2/1/0, match points 2/1/0, fouls 0–2, the default criteria list.
pub fn synthetic_team_matches(
    teams: usize,
    rounds: usize,
    boards: usize,
    seed: u64,
) -> TeamMatchInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let roster = boards + 1;
    let team_list: Vec<MatchTeam> = (0..teams)
        .map(|i| MatchTeam {
            no: i as u32 + 1,
            name: format!("队{}", i + 1),
        })
        .collect();
    let table = default_match_points();
    let mut mp = vec![0i64; teams];
    let mut matches = Vec::with_capacity(teams / 2 * rounds);
    let mut byes = Vec::new();
    for round in 1..=rounds as u32 {
        let mut order: Vec<usize> = (0..teams).collect();
        order.shuffle(&mut rng);
        order.sort_by_key(|&t| -mp[t]);
        if order.len() % 2 == 1 {
            if let Some(t) = order.pop() {
                byes.push(TeamBye {
                    round,
                    team: t as u32 + 1,
                    game_points: Score::points(boards as i64),
                });
                mp[t] += table.bye.halves();
            }
        }
        for pair in order.chunks_exact(2) {
            let lineup = |team: usize, rng: &mut ChaCha8Rng| -> Vec<usize> {
                let mut l: Vec<usize> = (0..roster).collect();
                if rng.gen_range(0..10u32) == 0 {
                    // The reserve plays: someone is out, the players below move down.
                    l.remove(rng.gen_range(0..boards));
                } else {
                    l.truncate(boards);
                }
                l.into_iter().map(|k| team * roster + k).collect()
            };
            let (a, b) = (lineup(pair[0], &mut rng), lineup(pair[1], &mut rng));
            let no_show = rng.gen_range(0..200u32) == 0;
            let boards: Vec<MatchBoard> = (0..boards)
                .map(|k| {
                    let (result, f, s) = match rng.gen_range(0..100u32) {
                        _ if no_show => (BoardOutcome::ForfeitWin, 2, 0),
                        0..=37 => (BoardOutcome::Win, 2, 0),
                        38..=71 => (BoardOutcome::Loss, 0, 2),
                        72..=97 => (BoardOutcome::Draw, 1, 1),
                        98 => (BoardOutcome::ForfeitWin, 2, 0),
                        _ => (BoardOutcome::DoubleForfeit, 0, 0),
                    };
                    // A forfeit here is an empty seat: nobody's game.
                    let first_seated = result != BoardOutcome::DoubleForfeit;
                    let second_seated = first_seated && result != BoardOutcome::ForfeitWin;
                    MatchBoard {
                        board: k as u32 + 1,
                        result: Some(result),
                        first_points: Score::points(f),
                        second_points: Score::points(s),
                        first_player: first_seated.then(|| PlayerNo::from_index(a[k])),
                        second_player: second_seated.then(|| PlayerNo::from_index(b[k])),
                    }
                })
                .collect();
            let m = PlayedMatch {
                round,
                first: pair[0] as u32 + 1,
                second: pair[1] as u32 + 1,
                boards,
            };
            if let Some(r) = m.outcome() {
                mp[pair[0]] += r.match_points(arbiter_types::Side::First, &table).halves();
                mp[pair[1]] += r
                    .reversed()
                    .match_points(arbiter_types::Side::Second, &table)
                    .halves();
            }
            matches.push(m);
        }
    }
    let fouls = (0..teams)
        .filter_map(|t| {
            let f = rng.gen_range(0..3u32);
            (f > 0).then_some((t as u32 + 1, f))
        })
        .collect();
    TeamMatchInput {
        teams: team_list,
        matches,
        byes,
        match_points: table,
        tiebreaks: TeamTiebreak::DEFAULT.to_vec(),
        fouls,
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

    #[test]
    fn same_seed_same_team_event_and_every_round_complete() {
        let a = synthetic_team_matches(31, 5, 4, 3);
        assert_eq!(a, synthetic_team_matches(31, 5, 4, 3));
        assert_eq!(a.matches.len(), 15 * 5);
        assert_eq!(a.byes.len(), 5);
        assert!(a
            .matches
            .iter()
            .all(|m| m.boards.len() == 4 && m.is_finished()));
        let s = crate::team_match_standings(&a);
        assert_eq!(s.rows.len(), 31);
        assert!(s.ignored.is_empty());
        assert!(synthetic_team_matches(0, 3, 4, 1).matches.is_empty());
    }
}
