//! Properties of prize allocation on random rankings and prize tables.

use arbiter_standings::prize::{
    allocate_prizes, AwardKind, LuckyEntry, LuckyOnAwarded, LuckyTable, PrizeEntry, PrizeRules,
    PrizeTable, RankedPlayer, Ranking,
};
use arbiter_types::PlayerNo;
use proptest::prelude::*;
use std::collections::BTreeSet;

#[derive(Debug, Clone)]
struct Case {
    n: u32,
    places: u32,
    category: Vec<u32>,
    cat_places: u32,
    lucky: BTreeSet<u32>,
    one_award: bool,
    next_rank: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0u32..80,
        1u32..12,
        proptest::collection::btree_set(1u32..80, 0..15),
        1u32..6,
        proptest::collection::btree_set(1u32..90, 0..10),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(n, places, cat, cat_places, lucky, one_award, next_rank)| Case {
                n,
                places,
                category: cat.into_iter().filter(|&x| x <= n).collect(),
                cat_places,
                lucky,
                one_award,
                next_rank,
            },
        )
}

fn run(c: &Case) -> arbiter_standings::prize::PrizeList {
    let row = |rank: u32, no: u32| RankedPlayer {
        rank,
        no: PlayerNo::new(no).unwrap(),
        name: format!("P{no}"),
        team: None,
    };
    let section = Ranking {
        section: "S".into(),
        category: None,
        rows: (1..=c.n).map(|i| row(i, i)).collect(),
    };
    let cat = Ranking {
        section: "S".into(),
        category: Some("C".into()),
        rows: c
            .category
            .iter()
            .enumerate()
            .map(|(i, &no)| row(i as u32 + 1, no))
            .collect(),
    };
    let rules = PrizeRules {
        places: vec![
            PrizeTable {
                section: "S".into(),
                category: None,
                entries: vec![PrizeEntry::range(1, c.places, 100)],
                ..Default::default()
            },
            PrizeTable {
                section: "S".into(),
                category: Some("C".into()),
                entries: vec![PrizeEntry::range(1, c.cat_places, 30)],
                ..Default::default()
            },
        ],
        lucky: vec![LuckyTable {
            section: "S".into(),
            category: None,
            entries: c
                .lucky
                .iter()
                .map(|&rank| LuckyEntry {
                    rank,
                    amount: Some(7),
                    item: None,
                })
                .collect(),
        }],
        one_award_per_person: c.one_award,
        lucky_on_awarded: if c.next_rank {
            LuckyOnAwarded::NextRank
        } else {
            LuckyOnAwarded::Unawarded
        },
        ..Default::default()
    };
    allocate_prizes(&rules, &[section, cat], &[]).unwrap()
}

proptest! {
    #[test]
    fn every_prize_is_awarded_or_vacant_once(c in case()) {
        let list = run(&c);
        let slots = c.places + c.cat_places + c.lucky.len() as u32;
        prop_assert_eq!((list.awards.len() + list.vacant.len()) as u32, slots);
        let sum: u64 = list.awards.iter().filter_map(|a| a.amount).sum();
        prop_assert_eq!(list.total_amount, sum);
        // Lucky prizes only ever move down the ranking.
        for a in list.awards.iter().filter(|a| a.kind == AwardKind::Lucky) {
            prop_assert!(a.rank >= a.place);
        }
    }

    #[test]
    fn one_award_per_person_holds(c in case()) {
        let list = run(&c);
        let winners: Vec<_> = list.awards.iter().filter_map(|a| a.no).collect();
        let distinct: BTreeSet<_> = winners.iter().collect();
        if c.one_award {
            prop_assert_eq!(distinct.len(), winners.len());
        } else {
            // Without the rule every prize goes to the player at its place.
            for a in &list.awards {
                prop_assert_eq!(a.rank, a.place);
            }
        }
    }
}
