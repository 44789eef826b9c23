//! The cost model against rules.md A2's hand example.

use super::*;
use crate::Entrant;
use arbiter_types::{GameResult, PairingSettings, ScoringPreset};

fn p(n: u32) -> PlayerNo {
    PlayerNo::new(n).unwrap()
}

/// Scores 1:3, 2:2, 3:2, 4:0, 5:0, 6:0 after two rounds against withdrawn players 7–18.
fn example() -> SectionState {
    use GameResult::*;
    let mut players: Vec<Entrant> = (1..=18)
        .map(|i| Entrant {
            no: p(i),
            team: None,
            availability: if i <= 6 {
                Availability::Active
            } else {
                Availability::Withdrawn
            },
            history: vec![Outcome::Absent; 2],
        })
        .collect();
    let games = [
        (1, 1, 7, RedWin),
        (2, 8, 1, Draw),
        (1, 9, 2, BlackWin),
        (2, 2, 10, BlackWin),
        (1, 3, 11, Draw),
        (2, 12, 3, Draw),
        (1, 13, 4, RedWin),
        (2, 4, 14, BlackWin),
        (1, 5, 15, BlackWin),
        (2, 16, 5, RedWin),
        (1, 17, 6, RedWin),
        (2, 6, 18, BlackWin),
    ];
    for (round, red, black, result) in games {
        players[red - 1].history[round - 1] = result.outcome_for(Colour::Red, p(black as u32));
        players[black - 1].history[round - 1] = result.outcome_for(Colour::Black, p(red as u32));
    }
    SectionState {
        players,
        scoring: ScoringPreset::Cxa.table(),
        settings: PairingSettings::default(),
        total_rounds: 7,
    }
}

/// The summed cost vector of a pairing given by player numbers.
fn total(p: &Problem, lay: &Layout, pairs: &[(u32, u32)]) -> Vec<u64> {
    let pos = |no: u32| {
        p.order
            .iter()
            .position(|&i| p.infos[i].no.get() == no)
            .unwrap()
    };
    let mut sum = vec![0; lay.len()];
    let mut buf = Vec::new();
    for &(a, b) in pairs {
        let (x, y) = (pos(a).min(pos(b)), pos(a).max(pos(b)));
        assert!(p.pair_cost(lay, x, y, &mut buf), "{a}–{b} legal");
        for (s, c) in sum.iter_mut().zip(&buf) {
            *s += c;
        }
    }
    sum
}

#[test]
fn c1_counts_boundaries_crossed_and_c2_breaks_the_tie() {
    let state = example();
    let infos = prepare(&state, 3).unwrap();
    let p = Problem::new(&state, 3, &infos, &BTreeSet::new());
    assert_eq!(p.group_size, vec![1, 2, 3]);
    let lay = p.layout(false);
    let c1 = |v: &[u64]| v[lay.u(0)..lay.u(0) + 2].to_vec();
    let c2 = |v: &[u64]| v[lay.d(0)..lay.d(0) + 3].to_vec();
    let near = total(&p, &lay, &[(1, 2), (3, 4), (5, 6)]);
    let skip = total(&p, &lay, &[(2, 3), (1, 4), (5, 6)]);
    // Both cross each boundary once.
    assert_eq!(c1(&near), vec![1, 1]);
    assert_eq!(c1(&skip), vec![1, 1]);
    // Score gaps in half-points, top down: (2, 4, 0) against (6, 0, 0).
    assert_eq!(c2(&near), vec![2, 4, 0]);
    assert_eq!(c2(&skip), vec![6, 0, 0]);
    assert!(near < skip);
    // The bye crosses no boundary.
    let mut buf = Vec::new();
    p.bye_cost(&lay, 5, &mut buf);
    assert_eq!(c1(&buf), vec![0, 0]);
}
