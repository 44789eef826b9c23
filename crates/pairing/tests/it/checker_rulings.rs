//! The checker's reading of the A2 rulings (issue 12), on hand-made rounds: C1 counts the
//! boundaries a pair crosses, H5 decides a pair's colours (not whether it may meet), and H6
//! refuses a pairing after which the stage cannot be finished. Each ruling is checked on the
//! checker, the brute-force optimum and the checker's own matching optimum.

use arbiter_pairing::checker::{check, objective, optimum, optimum_at, Violation};
use arbiter_pairing::{brute, Availability, Board, Entrant, Explanation, Pairing, SectionState};
use arbiter_types::{Colour, Outcome, PairingSettings, PlayerNo, PlayerResult, ScoringPreset};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

fn game(opponent: u32, colour: Colour, result: PlayerResult) -> Outcome {
    Outcome::Game {
        opponent: p(opponent),
        colour,
        result,
    }
}

fn pairing(round: u32, boards: &[(u32, u32)], bye: Option<u32>) -> Pairing {
    Pairing {
        round,
        boards: boards
            .iter()
            .enumerate()
            .map(|(k, &(red, black))| Board {
                board: k as u32 + 1,
                red: p(red),
                black: p(black),
                why: Explanation::default(),
            })
            .collect(),
        bye: bye.map(p),
        bye_why: None,
        relaxed: Vec::new(),
    }
}

/// `active` players with the given histories, plus withdrawn players (their past
/// opponents) with empty-handed histories, CXA scoring (win 2, draw 1).
fn section(histories: Vec<Vec<Outcome>>, withdrawn: u32, total_rounds: u32) -> SectionState {
    let rounds = histories[0].len();
    let mut players: Vec<Entrant> = histories
        .into_iter()
        .enumerate()
        .map(|(i, history)| Entrant {
            no: PlayerNo::from_index(i),
            team: None,
            availability: Availability::Active,
            history,
        })
        .collect();
    let first = players.len();
    for k in 0..withdrawn as usize {
        players.push(Entrant {
            no: PlayerNo::from_index(first + k),
            team: None,
            availability: Availability::Withdrawn,
            history: vec![Outcome::Absent; rounds],
        });
    }
    SectionState {
        players,
        scoring: ScoringPreset::Cxa.table(),
        settings: PairingSettings::default(),
        total_rounds,
    }
}

/// Scores before round 3: 1:3, 2:2, 3:2, 4:0, 5:0, 6:0 (points; CXA win 2, draw 1), every
/// player red then black against withdrawn players 7–12, nobody has met.
fn scores_3_2_2_0_0_0() -> SectionState {
    use Colour::*;
    use PlayerResult::*;
    section(
        vec![
            vec![game(7, Red, Win), game(8, Black, Draw)],
            vec![game(8, Red, Draw), game(9, Black, Draw)],
            vec![game(9, Red, Draw), game(10, Black, Draw)],
            vec![game(10, Red, Loss), game(11, Black, Loss)],
            vec![game(11, Red, Loss), game(12, Black, Loss)],
            vec![game(12, Red, Loss), game(7, Black, Loss)],
        ],
        6,
        7,
    )
}

#[test]
fn a_floater_meets_the_nearest_group() {
    let state = scores_3_2_2_0_0_0();
    // Round 3 is odd and every history is the same: the smaller number is red.
    let good = pairing(3, &[(1, 2), (3, 4), (5, 6)], None);
    let skip = pairing(3, &[(1, 4), (2, 3), (5, 6)], None);
    assert_eq!(check(&state, 3, &good), vec![]);
    let (og, os) = (objective(&state, 3, &good), objective(&state, 3, &skip));
    // Groups 3, 2, 0 (half-points 6, 4, 0): 1–2 crosses 3|2 and 3–4 crosses 2|0; 1–4
    // crosses both. Equal C1 …
    assert_eq!(og.floaters, vec![1, 1]);
    assert_eq!(os.floaters, vec![1, 1]);
    // … and C2 (half-points, per group of the higher player) decides: 1–2 and 3–4 leave
    // gaps of 1 and 2 points, 1–4 one of 3.
    assert_eq!(og.gaps, vec![2, 4, 0]);
    assert_eq!(os.gaps, vec![6, 0, 0]);
    assert!(og < os);
    assert_eq!(brute::optimum(&state, 3).unwrap(), Some(og.clone()));
    assert_eq!(optimum(&state, 3).unwrap(), Some(og));
}

/// Before round 8: 1 has played 红黑 B R B R B R B; 2 (absent in round 1) R B R R B B.
fn colour_case(total_rounds: u32) -> SectionState {
    use Colour::*;
    use PlayerResult::*;
    let seq1 = [Black, Red, Black, Red, Black, Red, Black];
    let h1: Vec<Outcome> = seq1
        .iter()
        .enumerate()
        .map(|(k, &c)| game(3 + k as u32, c, Draw))
        .collect();
    let mut h2 = vec![Outcome::Absent];
    for (k, &c) in [Red, Black, Red, Red, Black, Black].iter().enumerate() {
        h2.push(game(10 + k as u32, c, Draw));
    }
    section(vec![h1, h2], 14, total_rounds)
}

#[test]
fn h5_decides_the_colours_not_the_pair() {
    let state = colour_case(9);
    // The colour rule gives 1 red (reds − blacks −1 against 0), which would give 2 a third
    // black in a row; 2 red and 1 black keeps both within H5: legal, and 2 is red.
    let two_red = pairing(8, &[(2, 1)], None);
    let one_red = pairing(8, &[(1, 2)], None);
    assert_eq!(check(&state, 8, &two_red), vec![]);
    let v = check(&state, 8, &one_red);
    assert!(
        v.contains(&Violation::ColourLimit {
            player: p(2),
            colour: Colour::Black,
            three_in_a_row: true
        }),
        "{v:?}"
    );
    let rule = v
        .iter()
        .find(|x| matches!(x, Violation::ColourRule { .. }))
        .expect("colour rule broken");
    assert!(matches!(rule, Violation::ColourRule { expected_red, .. } if *expected_red == p(2)));
    let text = rule.to_string();
    assert!(text.contains("2号 将连续三次走黑"), "{text}");
    assert!(text.contains("故 2号 走红"), "{text}");
    let best = brute::optimum(&state, 8).unwrap();
    assert!(best.is_some(), "the pair is legal");
    assert_eq!(best, Some(objective(&state, 8, &two_red)));
    assert_eq!(optimum(&state, 8).unwrap(), best);
}

#[test]
fn in_a_relaxed_last_round_the_order_with_fewer_breakers() {
    // Round 8 of 8: H5 is C0; the rule's order breaks it for 2, the other for nobody.
    let state = colour_case(8);
    let two_red = pairing(8, &[(2, 1)], None);
    assert_eq!(check(&state, 8, &two_red), vec![]);
    assert_eq!(objective(&state, 8, &two_red).c0, 0);
    let one_red = pairing(8, &[(1, 2)], None);
    assert!(check(&state, 8, &one_red)
        .iter()
        .any(|x| matches!(x, Violation::ColourRule { expected_red, .. } if *expected_red == p(2))));
}

/// Six players, 5 rounds (so a round robin), all draws: round 1 1–2, 3–4, 5–6; round 2
/// 2–3, 4–5, 6–1. Who has not met forms a prism (triangles 1 3 5 and 2 4 6 joined by 1–4,
/// 3–6, 5–2).
fn six_in_five_rounds() -> SectionState {
    use Colour::*;
    use PlayerResult::*;
    let r1 = [(1, 2), (3, 4), (5, 6)];
    let r2 = [(2, 3), (4, 5), (6, 1)];
    let mut h: Vec<Vec<Outcome>> = vec![Vec::new(); 6];
    for round in [&r1, &r2] {
        for &(a, b) in round.iter() {
            h[a as usize - 1].push(game(b, Red, Draw));
            h[b as usize - 1].push(game(a, Black, Draw));
        }
    }
    section(h, 0, 5)
}

#[test]
fn h6_refuses_a_dead_end() {
    let state = six_in_five_rounds();
    // Pairing the three rungs leaves two triangles: rounds 4 and 5 cannot be paired.
    let dead = pairing(3, &[(1, 4), (2, 5), (3, 6)], None);
    let v = check(&state, 3, &dead);
    assert!(
        v.contains(&Violation::Completion { rounds_left: 2 }),
        "{v:?}"
    );
    assert!(v.iter().any(|x| x.to_string().starts_with("H6")));
    // One rung and a side of each triangle leaves a 6-cycle: two more rounds.
    let fine = pairing(3, &[(1, 4), (3, 5), (2, 6)], None);
    assert!(!check(&state, 3, &fine)
        .iter()
        .any(|x| matches!(x, Violation::Completion { .. })));
    // The prism has four perfect matchings: the dead end and three finishable ones. Brute
    // force keeps H6: its optimum is the best of the three finishable ones.
    let finishable = [
        pairing(3, &[(1, 4), (3, 5), (2, 6)], None),
        pairing(3, &[(3, 6), (1, 5), (2, 4)], None),
        pairing(3, &[(2, 5), (1, 3), (4, 6)], None),
    ];
    let best = finishable
        .iter()
        .map(|f| objective(&state, 3, f))
        .min()
        .unwrap();
    // The dead end gives everyone the due colour, so it is better on C3: H6 alone refuses it.
    assert!(objective(&state, 3, &dead) < best);
    assert_eq!(brute::optimum(&state, 3).unwrap(), Some(best));
    // The matching optimum does not search under H6: it says so instead of answering.
    assert!(optimum(&state, 3).is_err());
    // After the dead end, round 4 has no pairing at all (the triangles have no perfect
    // matching): both optima say so.
    let mut after = state.clone();
    for (a, b) in [(1, 4), (2, 5), (3, 6)] {
        after.players[a - 1]
            .history
            .push(game(b as u32, Colour::Red, PlayerResult::Draw));
        after.players[b - 1]
            .history
            .push(game(a as u32, Colour::Black, PlayerResult::Draw));
    }
    // No pairing keeps H1, so H1 relaxes (A2 as amended): the optimum repeats one
    // meeting, one of round 1 (the oldest), the other four meeting for the first time;
    // both optima agree on it.
    use arbiter_pairing::checker::Level;
    assert_eq!(brute::optimum_at(&after, 4, Level::Colours).unwrap(), None);
    assert_eq!(optimum_at(&after, 4, Level::Colours).unwrap(), None);
    let relaxed = brute::optimum(&after, 4).unwrap().unwrap();
    assert_eq!(relaxed.rematches, 1);
    assert_eq!(relaxed.rematch_rounds, 1);
    assert_eq!(optimum(&after, 4).unwrap(), Some(relaxed));
}
