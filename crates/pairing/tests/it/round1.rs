//! Round 1 (A3, A4; Part B §3.3–3.4).

use arbiter_pairing::round1::{draw_numbers, pair_round1};
use arbiter_pairing::{Availability, Entrant, Pairing, SectionState};
use arbiter_types::{
    PairingSettings, PlayerNo, Round1Colour, Round1Pairing, SameTeam, ScoringTable,
};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

fn state(n: u32, settings: PairingSettings) -> SectionState {
    SectionState {
        players: (1..=n)
            .map(|i| Entrant {
                no: p(i),
                team: None,
                availability: Availability::Active,
                history: Vec::new(),
            })
            .collect(),
        scoring: ScoringTable::default(),
        settings,
        total_rounds: 7,
    }
}

fn pairs(p: &Pairing) -> Vec<(u32, u32)> {
    p.boards
        .iter()
        .map(|b| (b.red.get(), b.black.get()))
        .collect()
}

#[test]
fn worked_example_eight_players_slide_default_colours() {
    // rules.md §3.4: 1–5, 6–2, 3–7, 8–4.
    let got = pair_round1(&state(8, PairingSettings::default()), 0).unwrap();
    assert_eq!(pairs(&got), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(got.bye, None);
    assert_eq!(got.round, 1);
    let boards: Vec<u32> = got.boards.iter().map(|b| b.board).collect();
    assert_eq!(boards, vec![1, 2, 3, 4]);
    assert!(got.boards[0].why.group.contains("拦腰"));
    assert!(got.boards[1].why.colour.contains("双数台次大号先"));
}

#[test]
fn fold_and_adjacent_modes() {
    let s = PairingSettings {
        round1: Round1Pairing::Fold,
        ..Default::default()
    };
    assert_eq!(
        pairs(&pair_round1(&state(8, s), 0).unwrap()),
        vec![(1, 8), (7, 2), (3, 6), (5, 4)]
    );
    let s = PairingSettings {
        round1: Round1Pairing::Adjacent,
        ..Default::default()
    };
    assert_eq!(
        pairs(&pair_round1(&state(8, s), 0).unwrap()),
        vec![(1, 2), (4, 3), (5, 6), (8, 7)]
    );
}

#[test]
fn colour_modes() {
    let s = PairingSettings {
        round1_colour: Round1Colour::OddBoardLargeRed,
        ..Default::default()
    };
    assert_eq!(
        pairs(&pair_round1(&state(8, s), 0).unwrap()),
        vec![(5, 1), (2, 6), (7, 3), (4, 8)]
    );
    let s = PairingSettings {
        round1_colour: Round1Colour::SmallRed,
        ..Default::default()
    };
    assert_eq!(
        pairs(&pair_round1(&state(8, s), 0).unwrap()),
        vec![(1, 5), (2, 6), (3, 7), (4, 8)]
    );
    // Lots: each board keeps its two players; same seed, same colours.
    let s = PairingSettings {
        round1_colour: Round1Colour::Lots,
        ..Default::default()
    };
    let a = pair_round1(&state(40, s), 7).unwrap();
    let b = pair_round1(&state(40, s), 7).unwrap();
    assert_eq!(a, b);
    for (i, (r, k)) in pairs(&a).into_iter().enumerate() {
        let (lo, hi) = (r.min(k), r.max(k));
        assert_eq!((lo, hi), (i as u32 + 1, i as u32 + 21));
    }
    let smaller_red = pairs(&a).iter().filter(|(r, k)| r < k).count();
    assert!(
        smaller_red > 0 && smaller_red < 20,
        "40 boards by lot are not all one way"
    );
}

#[test]
fn odd_field_gives_the_bye_to_the_last_number() {
    let got = pair_round1(&state(9, PairingSettings::default()), 0).unwrap();
    assert_eq!(pairs(&got), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(got.bye, Some(p(9)));
    assert!(got.bye_why.unwrap().contains("9号 轮空"));
}

#[test]
fn unavailable_players_are_skipped() {
    let mut s = state(10, PairingSettings::default());
    s.players[2].availability = Availability::Withdrawn; // 3
    s.players[9].availability = Availability::Unpaid; // 10
    s.players[5].availability = Availability::Absent; // 6
    let got = pair_round1(&s, 0).unwrap();
    // Active: 1 2 4 5 7 8 9 → odd: 9 has the bye; slide on 1 2 4 | 5 7 8.
    assert_eq!(got.bye, Some(p(9)));
    assert_eq!(pairs(&got), vec![(1, 5), (7, 2), (4, 8)]);
}

#[test]
fn random_mode_pairs_upper_against_lower_half_reproducibly() {
    let s = PairingSettings {
        round1: Round1Pairing::Random,
        ..Default::default()
    };
    let a = pair_round1(&state(20, s), 42).unwrap();
    assert_eq!(a, pair_round1(&state(20, s), 42).unwrap());
    let mut lower: Vec<u32> = Vec::new();
    for (i, (r, k)) in pairs(&a).into_iter().enumerate() {
        assert_eq!(r.min(k), i as u32 + 1, "upper half in board order");
        lower.push(r.max(k));
    }
    lower.sort();
    assert_eq!(lower, (11..=20).collect::<Vec<_>>());
    let other = pair_round1(&state(20, s), 43).unwrap();
    assert_ne!(pairs(&a), pairs(&other), "another seed, another draw");
}

fn with_teams(n: u32, teams: &[(u32, u32)], same_team: SameTeam) -> SectionState {
    let mut s = state(
        n,
        PairingSettings {
            same_team,
            ..Default::default()
        },
    );
    for &(no, t) in teams {
        s.players[no as usize - 1].team = Some(t);
    }
    s
}

#[test]
fn same_team_pair_swaps_with_the_following_pair() {
    // 1 and 5 are team-mates: exchange lower-half players with board 2 → 1–6, 2–5.
    let s = with_teams(8, &[(1, 1), (5, 1)], SameTeam::Round1);
    let got = pair_round1(&s, 0).unwrap();
    assert_eq!(pairs(&got), vec![(1, 6), (5, 2), (3, 7), (8, 4)]);
    assert!(got.boards[0].why.group.contains("同队回避"));
    assert!(got.boards[1].why.group.contains("同队回避"));
}

#[test]
fn last_board_swaps_with_the_preceding_pair() {
    let s = with_teams(8, &[(4, 3), (8, 3)], SameTeam::Hard);
    let got = pair_round1(&s, 0).unwrap();
    assert_eq!(pairs(&got), vec![(1, 5), (6, 2), (3, 8), (7, 4)]);
}

#[test]
fn several_team_clashes_are_all_removed_when_possible() {
    // Team 1: 1, 2, 5, 6; team 2: 3, 7. Slide gives 1–5, 2–6, 3–7 all clashing.
    let s = with_teams(
        8,
        &[(1, 1), (2, 1), (5, 1), (6, 1), (3, 2), (7, 2)],
        SameTeam::Soft,
    );
    let got = pair_round1(&s, 0).unwrap();
    for b in &got.boards {
        let t = |n: PlayerNo| s.players[n.index()].team;
        assert!(
            t(b.red).is_none() || t(b.red) != t(b.black),
            "{:?}",
            pairs(&got)
        );
    }
    let mut seen: Vec<u32> = pairs(&got).iter().flat_map(|&(a, b)| [a, b]).collect();
    seen.sort();
    assert_eq!(seen, (1..=8).collect::<Vec<_>>());
}

#[test]
fn unavoidable_clash_is_kept_and_explained() {
    let s = with_teams(2, &[(1, 1), (2, 1)], SameTeam::Round1);
    let got = pair_round1(&s, 0).unwrap();
    assert_eq!(pairs(&got), vec![(1, 2)]);
    assert!(got.boards[0].why.group.contains("无法调开"));
}

#[test]
fn same_team_off_keeps_the_mode() {
    let s = with_teams(8, &[(1, 1), (5, 1)], SameTeam::Off);
    assert_eq!(
        pairs(&pair_round1(&s, 0).unwrap()),
        vec![(1, 5), (6, 2), (3, 7), (8, 4)]
    );
}

#[test]
fn duplicate_numbers_are_bad_input() {
    let mut s = state(4, PairingSettings::default());
    s.players[3].no = p(1);
    assert!(pair_round1(&s, 0).is_err());
}

#[test]
fn draw_numbers_is_a_seeded_permutation() {
    for n in [0usize, 1, 2, 17, 100] {
        let mut d = draw_numbers(n, 5);
        assert_eq!(d, draw_numbers(n, 5));
        d.sort();
        assert_eq!(d, (1..=n).collect::<Vec<_>>());
    }
    assert_ne!(draw_numbers(30, 1), draw_numbers(30, 2));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn mode(k: u8) -> Round1Pairing {
        [
            Round1Pairing::Slide,
            Round1Pairing::Fold,
            Round1Pairing::Adjacent,
            Round1Pairing::Random,
        ][k as usize % 4]
    }

    proptest! {
        /// Any field, mode, teams and absences: everyone available plays exactly once or has
        /// the bye; the bye exists iff the count is odd and goes to the highest number; the
        /// default colours follow board parity; a same-team pair is left only when no single
        /// exchange of lower-half players with another board parts both; same seed, same
        /// pairing.
        #[test]
        fn round1_is_a_valid_pairing(
            n in 0u32..60,
            k in 0u8..4,
            seed in any::<u64>(),
            absent in prop::collection::vec(any::<bool>(), 60),
            team_of in prop::collection::vec(0u32..8, 60),
        ) {
            let settings = PairingSettings { round1: mode(k), ..Default::default() };
            let mut s = state(n, settings);
            for (i, e) in s.players.iter_mut().enumerate() {
                if absent[i] && i % 3 == 0 {
                    e.availability = Availability::Absent;
                }
                e.team = Some(team_of[i]);
            }
            let active: Vec<u32> = s
                .players
                .iter()
                .filter(|e| e.availability == Availability::Active)
                .map(|e| e.no.get())
                .collect();
            let got = pair_round1(&s, seed).unwrap();
            let mut seen: Vec<u32> =
                got.boards.iter().flat_map(|b| [b.red.get(), b.black.get()]).collect();
            if let Some(b) = got.bye {
                prop_assert_eq!(Some(&b.get()), active.last());
                seen.push(b.get());
            }
            prop_assert_eq!(got.bye.is_some(), active.len() % 2 == 1);
            seen.sort_unstable();
            prop_assert_eq!(&seen, &active);
            for b in &got.boards {
                let small_red = b.red < b.black;
                prop_assert_eq!(small_red, b.board % 2 == 1, "board {}", b.board);
            }
            // Same-team postcondition (slide, fold, random: the upper-half player is the
            // smaller number): a clash is left only if no exchange of lower-half players
            // with another board would part both boards.
            if mode(k) != Round1Pairing::Adjacent {
                let t = |p: PlayerNo| s.players[p.index()].team;
                let tb: Vec<(PlayerNo, PlayerNo)> =
                    got.boards.iter().map(|b| (b.red.min(b.black), b.red.max(b.black))).collect();
                for (i, &(top, bottom)) in tb.iter().enumerate() {
                    if t(top) != t(bottom) {
                        continue;
                    }
                    for (j, &(top2, bottom2)) in tb.iter().enumerate() {
                        prop_assert!(
                            i == j || t(top) == t(bottom2) || t(top2) == t(bottom),
                            "board {} clash could be parted with board {}", i + 1, j + 1
                        );
                    }
                }
            }
            prop_assert_eq!(&got, &pair_round1(&s, seed).unwrap());
        }
    }
}

fn team_clashes(s: &SectionState, got: &Pairing) -> Vec<(u32, u32)> {
    let t = |n: PlayerNo| s.players[n.index()].team;
    got.boards
        .iter()
        .filter(|b| t(b.red).is_some() && t(b.red) == t(b.black))
        .map(|b| (b.red.get(), b.black.get()))
        .collect()
}

#[test]
fn hard_parts_every_team_mate_pair_when_possible() {
    // Team 1 holds 1, 2, 3, 5, 6, 7 (6 of 12), team 2 holds 8, 9, 10. Slide gives 1–7.
    let teams = [
        (1, 1),
        (2, 1),
        (3, 1),
        (5, 1),
        (6, 1),
        (7, 1),
        (8, 2),
        (9, 2),
        (10, 2),
    ];
    let s = with_teams(12, &teams, SameTeam::Hard);
    let got = pair_round1(&s, 0).unwrap();
    assert!(team_clashes(&s, &got).is_empty(), "{:?}", pairs(&got));
    let mut seen: Vec<u32> = pairs(&got).iter().flat_map(|&(a, b)| [a, b]).collect();
    seen.sort();
    assert_eq!(seen, (1..=12).collect::<Vec<_>>());
}

#[test]
fn hard_with_a_team_of_more_than_half_is_no_valid_pairing() {
    // Team 7: 1, 2, 3 of 4 players.
    let s = with_teams(4, &[(1, 7), (2, 7), (3, 7)], SameTeam::Hard);
    match pair_round1(&s, 0) {
        Err(arbiter_pairing::PairingError::NoValidPairing {
            reason_zh,
            reason_en,
        }) => {
            assert!(
                reason_zh.contains("第7队") && reason_zh.contains("3 名"),
                "{reason_zh}"
            );
            assert!(reason_en.contains("team 7"), "{reason_en}");
        }
        other => panic!("expected NoValidPairing, got {other:?}"),
    }
    // Round1 / soft keep today's "as far as possible".
    for st in [SameTeam::Round1, SameTeam::Soft] {
        let s = with_teams(4, &[(1, 7), (2, 7), (3, 7)], st);
        let got = pair_round1(&s, 0).unwrap();
        assert_eq!(team_clashes(&s, &got).len(), 1, "{st:?}: {:?}", pairs(&got));
    }
}

#[test]
fn hard_moves_the_bye_when_the_last_numbers_bye_forces_a_clash() {
    // 1 and 2 are team-mates, 3 is not: the bye for 3 forces 1–2; 2 takes the bye instead.
    let s = with_teams(3, &[(1, 4), (2, 4), (3, 5)], SameTeam::Hard);
    let got = pair_round1(&s, 0).unwrap();
    assert_eq!(got.bye, Some(p(2)));
    assert_eq!(pairs(&got), vec![(1, 3)]);
    assert!(got.bye_why.as_deref().unwrap_or("").contains("同队回避"));
    // Without hard the last number keeps the bye.
    let s = with_teams(3, &[(1, 4), (2, 4), (3, 5)], SameTeam::Round1);
    assert_eq!(pair_round1(&s, 0).unwrap().bye, Some(p(3)));
}

proptest::proptest! {
    /// Hard: whenever no team holds more than half of some bye choice's field, the pairing
    /// has no team-mate pair and pairs everyone (but the bye) once; otherwise it is
    /// NoValidPairing.
    #[test]
    fn hard_round1_never_pairs_team_mates(
        n in 0u32..40,
        k in 0u8..4,
        seed in proptest::prelude::any::<u64>(),
        team_of in proptest::collection::vec(0u32..4, 40),
    ) {
        let round1 = [
            Round1Pairing::Slide,
            Round1Pairing::Fold,
            Round1Pairing::Adjacent,
            Round1Pairing::Random,
        ][k as usize];
        let mut s = state(n, PairingSettings {
            round1,
            same_team: SameTeam::Hard,
            ..Default::default()
        });
        for (i, e) in s.players.iter_mut().enumerate() {
            e.team = Some(team_of[i]);
        }
        let biggest = |skip: Option<u32>| {
            let mut c = [0usize; 4];
            for e in s.players.iter().filter(|e| Some(e.no.get()) != skip) {
                c[e.team.unwrap_or(0) as usize] += 1;
            }
            c.into_iter().max().unwrap_or(0)
        };
        let feasible = if n % 2 == 0 {
            2 * biggest(None) <= n as usize
        } else {
            (1..=n).any(|b| 2 * biggest(Some(b)) < n as usize)
        };
        match pair_round1(&s, seed) {
            Ok(got) => {
                proptest::prop_assert!(feasible);
                proptest::prop_assert!(team_clashes(&s, &got).is_empty(), "{:?}", pairs(&got));
                let mut seen: Vec<u32> =
                    got.boards.iter().flat_map(|b| [b.red.get(), b.black.get()]).collect();
                seen.extend(got.bye.map(|b| b.get()));
                seen.sort_unstable();
                proptest::prop_assert_eq!(seen, (1..=n).collect::<Vec<_>>());
                proptest::prop_assert_eq!(got.bye.is_some(), n % 2 == 1);
            }
            Err(e) => {
                proptest::prop_assert!(!feasible, "{e}");
                let is_no_pairing =
                    matches!(e, arbiter_pairing::PairingError::NoValidPairing { .. });
                proptest::prop_assert!(is_no_pairing);
            }
        }
    }
}
