//! A team Swiss round paired by hand (A3b, A15): the chief arbiter fixes a match or swaps
//! two teams, by team number; the engine pairs the rest, the round says what was done, and
//! `verify` accepts the log. A team round robin refuses both: its table decides.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::rounds::{pair_explained, PairRequest};
use arbiter_director::verify;
use arbiter_simulate::{Simulator, Sizes};
use arbiter_types::PlayerNo;
use common::*;

/// The event simulated until round `round` is about to be paired.
fn before_round(path: &str, src: &str, round: u32) -> (Vec<Recorded>, EventState) {
    let reg = arbiter_regulation::parse(src, path).expect("regulation");
    let mut sim = Simulator::new(reg, src, path, 4, &Sizes::default());
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim.next_batch(&state).expect("batch") {
        if b.entries.iter().any(|e| {
            matches!(e, LogEntry::MatchesPaired { round: r, .. } if *r == round)
                || matches!(e, LogEntry::TeamNumbersDrawn { .. } if round == 0)
        }) {
            break;
        }
        for r in b.recorded(state.last_seq) {
            state.apply(&r).expect("fold");
            log.push(r);
        }
    }
    (log, state)
}

fn matches_of(entries: &[LogEntry]) -> (Vec<(String, String)>, Vec<String>) {
    entries
        .iter()
        .find_map(|e| match e {
            LogEntry::MatchesPaired {
                matches, manual, ..
            } => Some((
                matches
                    .iter()
                    .map(|m| (m.first.clone(), m.second.clone()))
                    .collect(),
                manual.clone(),
            )),
            _ => None,
        })
        .expect("the round's matches")
}

fn no(state: &EventState, team: &str) -> PlayerNo {
    let rec = state.section("teams").expect("section");
    let i = rec
        .team_order
        .iter()
        .position(|t| t == team)
        .expect("numbered");
    PlayerNo::new(i as u32 + 1).expect("a number")
}

#[test]
fn a_fixed_match_and_a_swap_in_a_team_swiss_round() {
    let path = "crates/simulate/tests/fixtures/team-swiss.toml";
    let src = include_str!("../../../simulate/tests/fixtures/team-swiss.toml");
    let (log, state) = before_round(path, src, 3);
    let c = chief_ctx();
    let engine = pair_explained(&state, &c, "teams", &PairRequest::default()).expect("pair");
    let (em, manual) = matches_of(&engine.entries);
    assert!(manual.is_empty());
    assert!(em.len() >= 3);
    // Fix the first teams of the engine's first two matches against each other.
    let (a, b) = (em[0].0.clone(), em[1].0.clone());
    let req = PairRequest {
        fix: vec![(no(&state, &a), no(&state, &b))],
        swap: None,
    };
    let out = pair_explained(&state, &c, "teams", &req).expect("fixed");
    let (fm, manual) = matches_of(&out.entries);
    assert!(
        fm.iter()
            .any(|(x, y)| (x == &a && y == &b) || (x == &b && y == &a)),
        "{a} v {b} in {fm:?}"
    );
    assert_eq!(fm.len(), em.len());
    assert_eq!(manual.len(), 1);
    assert!(
        manual[0].contains("裁判长指定") && manual[0].contains(&a),
        "{manual:?}"
    );
    let mut fixed_log = log.clone();
    let mut fixed_state = state.clone();
    record(&mut fixed_log, &mut fixed_state, &c, out.entries.clone());
    let diffs = verify(&fixed_log, None);
    assert!(diffs.is_empty(), "{diffs:?}");

    // Swap two teams of different matches: they exchange places, the rest stands.
    let (x, y) = (em[0].1.clone(), em[2].1.clone());
    let req = PairRequest {
        fix: Vec::new(),
        swap: Some((no(&state, &x), no(&state, &y))),
    };
    let out = pair_explained(&state, &c, "teams", &req).expect("swapped");
    let (sm, manual) = matches_of(&out.entries);
    let has = |t: &str, u: &str| {
        sm.iter()
            .any(|(p, q)| (p == t && q == u) || (p == u && q == t))
    };
    assert!(has(&em[0].0, &y), "{sm:?}");
    assert!(has(&em[2].0, &x), "{sm:?}");
    assert!(
        manual.iter().any(|m| m.contains("裁判长调换")),
        "{manual:?}"
    );
    let mut swap_log = log;
    let mut swap_state = state.clone();
    record(&mut swap_log, &mut swap_state, &c, out.entries);
    let diffs = verify(&swap_log, None);
    assert!(diffs.is_empty(), "{diffs:?}");

    // A team number the section does not have is refused in words.
    let req = PairRequest {
        fix: vec![(
            PlayerNo::new(1).expect("1"),
            PlayerNo::new(999).expect("999"),
        )],
        swap: None,
    };
    let err = pair_explained(&state, &c, "teams", &req).expect_err("no team 999");
    assert!(err.to_string().contains("999"), "{err}");
}

#[test]
fn a_team_round_robin_refuses_a_fixed_match() {
    let path = "crates/simulate/tests/fixtures/team-round-robin.toml";
    let src = include_str!("../../../simulate/tests/fixtures/team-round-robin.toml");
    let (_, state) = before_round(path, src, 2);
    let req = PairRequest {
        fix: vec![(PlayerNo::new(1).expect("1"), PlayerNo::new(2).expect("2"))],
        swap: None,
    };
    let err = pair_explained(&state, &chief_ctx(), "teams", &req).expect_err("a table");
    assert!(
        err.to_string()
            .contains("对阵按轮次表产生, 不能指定或调换对手"),
        "{err}"
    );
}
