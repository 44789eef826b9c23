//! simulate runs whatever `regulation check` accepts: every field the regulation requires is
//! filled (the unit here), units are large enough for the regulation's teams (7–8 players),
//! and a field too small for what the regulation promises is warned about.

use arbiter_simulate::{Simulator, Sizes};
use std::collections::BTreeMap;

const SRC: &str = include_str!("fixtures/unit-teams-of-seven.toml");
const FILE: &str = "unit-teams-of-seven.toml";

fn simulator(players: usize) -> Simulator {
    let reg = arbiter_regulation::parse(SRC, FILE).unwrap_or_else(|e| panic!("{e}"));
    let sizes = Sizes {
        all: Some(players),
        by_section: BTreeMap::new(),
    };
    Simulator::new(reg, SRC, FILE, 11, &sizes)
}

#[test]
fn a_required_unit_is_filled_and_teams_reach_min_players() {
    let mut sim = simulator(40);
    assert_eq!(sim.warnings(), Vec::<String>::new());
    let (_, state) = sim
        .run_in_memory()
        .unwrap_or_else(|e| panic!("{FILE}: {e}"));
    assert!(state.refused.len() < state.players.len());
    // Every registered player has a unit (「请填写单位」 never refused a valid entry).
    assert!(!state.players.is_empty());
    assert!(
        state.players.values().all(|p| p.person.unit.is_some()),
        "a player without a unit"
    );
    // Teams of 7–8 from the units, and the team prizes given.
    let teams = &sim.field.teams;
    assert!(teams.len() >= 2, "{teams:?}");
    assert!(teams.iter().all(|t| (7..=8).contains(&t.members.len())));
    let reg = sim.regulation().clone();
    let computed = arbiter_director::publish::compute(&reg, &state).unwrap();
    let team_prizes = computed
        .prizes
        .awards
        .iter()
        .filter(|a| a.kind == arbiter_standings::prize::AwardKind::Team)
        .count();
    assert_eq!(team_prizes, 2);
}

#[test]
fn a_field_too_small_for_a_team_is_warned_about() {
    let sim = simulator(6);
    let w = sim.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("「公开组」") && w[0].contains("团体成绩和团体奖无法产生"),
        "{w:?}"
    );
    assert!(w[0].contains("至少 7 人"), "{w:?}");
}
