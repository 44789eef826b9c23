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

/// 出场名单截止 (A15): a line-up is taken until the regulation's minutes before the round's
/// start; after it an arbiter is refused in words naming the deadline, and the chief arbiter
/// still takes it.
#[test]
fn a_line_up_after_its_deadline_is_the_chief_arbiters_alone() {
    use arbiter_director::api::{Ctx, Role};
    use arbiter_director::team_match::{give_lineup, lineup_deadline};
    let path = "crates/simulate/tests/fixtures/team-swiss.toml";
    let src = include_str!("../../../simulate/tests/fixtures/team-swiss.toml")
        .replace(
            "format = { kind = \"swiss\", rounds = 7 }\n",
            "format = { kind = \"swiss\", rounds = 7 }\n\
             schedule = [2030-05-01T09:00:00, 2030-05-01T14:00:00, 2030-05-02T09:00:00, \
             2030-05-02T14:00:00, 2030-05-03T09:00:00, 2030-05-03T14:00:00, 2030-05-04T09:00:00]\n",
        )
        .replace(
            "[sections.team_match]\n",
            "[sections.team_match]\nlineup_deadline_minutes = 30\n",
        );
    let reg = arbiter_regulation::parse(&src, path).expect("regulation");
    assert!(reg
        .summary(arbiter_regulation::summary::Lang::Zh)
        .contains("每轮开始前30分钟截止"));
    let (sec, tm) = arbiter_director::team_match::rules_of(&reg, "teams").expect("team section");
    let at = |d: u32, h: u32, m: u32| {
        chrono::NaiveDate::from_ymd_opt(2030, 5, d)
            .and_then(|x| x.and_hms_opt(h, m, 0))
            .expect("time")
    };
    assert_eq!(lineup_deadline(sec, tm, 3), Some(at(2, 8, 30)));
    let (mut log, mut state) = before_round(path, &src, 3);
    let c = chief_ctx();
    let out = pair_explained(&state, &c, "teams", &PairRequest::default()).expect("pair 3");
    record(&mut log, &mut state, &c, out.entries);
    let rec = state.section("teams").expect("section");
    let m = &rec.matches.get(&3).expect("round 3").matches[0];
    let team = state.teams.get(&m.first).expect("team");
    // The team's first four in their registered order: a line-up to take.
    let named: Vec<Option<arbiter_core::PlayerId>> =
        team.members.iter().take(4).map(|p| Some(*p)).collect();
    let arbiter = |t| Ctx::new("裁判员", Role::Arbiter, t);
    give_lineup(
        &state,
        &arbiter(at(2, 8, 0)),
        "teams",
        3,
        &m.first,
        &named,
        "领队",
    )
    .expect("in time");
    let err = give_lineup(
        &state,
        &arbiter(at(2, 8, 45)),
        "teams",
        3,
        &m.first,
        &named,
        "领队",
    )
    .expect_err("late");
    let text = err.to_string();
    assert!(text.contains("2030-05-02 08:30 截止"), "{text}");
    assert!(text.contains("只有裁判长"), "{text}");
    let chief = Ctx::new("裁判长", Role::ChiefArbiter, at(2, 8, 45));
    give_lineup(&state, &chief, "teams", 3, &m.first, &named, "领队").expect("the chief arbiter");
}

#[test]
fn a_line_up_deadline_needs_a_schedule() {
    let path = "crates/simulate/tests/fixtures/team-swiss.toml";
    let src = include_str!("../../../simulate/tests/fixtures/team-swiss.toml").replace(
        "[sections.team_match]\n",
        "[sections.team_match]\nlineup_deadline_minutes = 30\n",
    );
    let err = arbiter_regulation::parse(&src, path).expect_err("no schedule");
    assert!(err.to_string().contains("请先写本组赛程"), "{err}");
}
