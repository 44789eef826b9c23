//! Properties of team standings on random events.

use arbiter_standings::team::{team_standings, PlayerRank, Team, TeamRule, TeamStatus};
use arbiter_types::{PlayerNo, Score};
use proptest::prelude::*;

fn event() -> impl Strategy<Value = (Vec<PlayerRank>, Vec<Team>, u32)> {
    // n players; player i ranked by a permutation; each player in team 0..8 or none (8).
    (1usize..60, 1u32..5).prop_flat_map(|(n, k)| {
        (
            Just(n),
            Just(k),
            Just((1..=n as u32).collect::<Vec<_>>()).prop_shuffle(),
            proptest::collection::vec(0usize..9, n),
            proptest::collection::vec(0usize..3, 8),
        )
            .prop_map(|(n, k, perm, team_of, division_of)| {
                let ranks: Vec<PlayerRank> = (0..n)
                    .map(|i| PlayerRank {
                        no: PlayerNo::from_index(i),
                        rank: perm[i],
                        score: Score::from_halves(200 - perm[i] as i64),
                    })
                    .collect();
                let teams: Vec<Team> = (0..8)
                    .map(|t| Team {
                        name: format!("T{t}"),
                        unit: format!("U{}", t / 2),
                        division: Some(format!("D{}", division_of[t])),
                        members: (0..n)
                            .filter(|&i| team_of[i] == t)
                            .map(PlayerNo::from_index)
                            .collect(),
                    })
                    .collect();
                (ranks, teams, k)
            })
    })
}

proptest! {
    #[test]
    fn rank_sum_tables_are_consistent((ranks, teams, k) in event()) {
        let tables = team_standings(&teams, &ranks, &TeamRule::rank_sum(k)).unwrap();
        let listed: usize = tables.iter().map(|t| t.rows.len()).sum();
        prop_assert_eq!(listed, teams.len());
        for table in &tables {
            let mut prev_total = 0;
            let mut seen_unranked = false;
            for (i, row) in table.rows.iter().enumerate() {
                prop_assert_eq!(row.division.clone(), table.division.clone());
                let team = teams.iter().find(|t| t.name == row.team).unwrap();
                let mut member_ranks: Vec<u32> = team
                    .members
                    .iter()
                    .filter_map(|no| ranks.iter().find(|r| r.no == *no).map(|r| r.rank))
                    .collect();
                member_ranks.sort_unstable();
                let best: Vec<u32> = member_ranks.iter().copied().take(k as usize).collect();
                prop_assert_eq!(&row.counted_ranks, &best);
                prop_assert_eq!(row.total_ranks, best.iter().sum::<u32>());
                if member_ranks.len() < k as usize {
                    let short = matches!(row.status, TeamStatus::Short { .. });
                    prop_assert!(short);
                    prop_assert_eq!(row.rank, None);
                    seen_unranked = true;
                } else {
                    // Ranks are unique, so no two teams are ever equal: no shared place.
                    prop_assert!(!seen_unranked);
                    prop_assert_eq!(row.rank, Some(i as u32 + 1));
                    prop_assert!(row.total_ranks >= prev_total);
                    prev_total = row.total_ranks;
                }
            }
        }
    }

    #[test]
    fn input_order_does_not_change_the_ranked_order((ranks, teams, k) in event()) {
        let mut reversed = teams.clone();
        reversed.reverse();
        let a = team_standings(&teams, &ranks, &TeamRule::rank_sum(k)).unwrap();
        let b = team_standings(&reversed, &ranks, &TeamRule::rank_sum(k)).unwrap();
        let ranked = |tables: &Vec<arbiter_standings::team::DivisionTable>| {
            let mut v: Vec<(Option<String>, String, Option<u32>)> = tables
                .iter()
                .flat_map(|t| t.rows.iter().filter(|r| r.rank.is_some()))
                .map(|r| (r.division.clone(), r.team.clone(), r.rank))
                .collect();
            v.sort();
            v
        };
        prop_assert_eq!(ranked(&a), ranked(&b));
    }
}
