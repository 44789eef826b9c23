//! A plain knockout section (`format.kind = "knockout"`): no Swiss stage; every entry in the
//! bracket seeded by the numbers drawn, byes to the top seeds; the whole event run by the
//! simulator through the arbiter's API, its places from the bracket, and `verify` clean.

use crate::common;

use arbiter_core::LogEntry;
use arbiter_director::{next_step, regulation_of, section_plan, verify, SectionPlan, Step};
use common::*;

const REG: &str = include_str!("../fixtures/plain-knockout.toml");

#[test]
fn plain_knockout_of_6_has_no_swiss_round_and_byes_to_seeds_1_and_2() {
    let mut sim = simulator_of(REG, "ko", 3, &sizes_by_section(&[("open", 6)]));
    let (log, state) = sim.run_in_memory().expect("runs to the end");
    let reg = regulation_of(&state).expect("reg");
    let sec = reg.section("open").expect("section");
    assert_eq!(
        section_plan(sec, &state),
        SectionPlan::TwoStage {
            swiss_rounds: 0,
            k: 6,
            ko_rounds: 3,
            continue_rounds: 0
        }
    );
    assert!(
        !log.iter()
            .any(|r| matches!(r.entry, LogEntry::RoundPaired { .. })),
        "no Swiss round is paired"
    );
    let seeds = arbiter_director::knockout_stage::seeding(&reg, &state, "open").expect("seeds");
    let nos: Vec<u32> = seeds.iter().map(|n| n.get()).collect();
    assert_eq!(
        nos,
        vec![1, 2, 3, 4, 5, 6],
        "the numbers drawn are the seeds"
    );
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, "open").expect("bracket");
    assert!(b.is_complete());
    // Seeds 1 and 2 have byes: they play no game in bracket round 1.
    let rec = state.section("open").expect("rec");
    for m in b.round(1) {
        for g in rec.knockout.iter().filter(|g| g.match_id == m.id) {
            for p in [g.red, g.black] {
                let no = rec.pairing_no(p).expect("no").get();
                assert!(no > 2, "seed {no} played in round 1");
            }
        }
    }
    let places = b.places().expect("places");
    assert_eq!(places.len(), 6);
    let rows =
        arbiter_director::final_standings::final_ranking(&reg, &state, "open").expect("rank");
    assert_eq!(
        rows[0].no, places[0].1,
        "the champion first in the final standings"
    );
    assert_eq!(next_step(&reg, &state, "open").expect("step"), Step::Done);
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

#[test]
fn plain_knockout_seeds_by_lot_are_the_numbers_drawn() {
    let src = REG.replace("numbering = \"given\"", "numbering = \"lots\"");
    let mut sim = simulator_of(&src, "ko", 5, &sizes_by_section(&[("open", 16)]));
    let (log, state) = sim.run_in_memory().expect("runs to the end");
    let reg = regulation_of(&state).expect("reg");
    let drawn = log
        .iter()
        .find_map(|r| match &r.entry {
            LogEntry::PairingNumbersDrawn { order, .. } => Some(order.clone()),
            _ => None,
        })
        .expect("the lot is in the log");
    assert_eq!(drawn.len(), 16);
    let seeds = arbiter_director::knockout_stage::seeding(&reg, &state, "open").expect("seeds");
    let rec = state.section("open").expect("rec");
    let by_seed: Vec<_> = seeds.iter().map(|n| rec.order[n.index()]).collect();
    assert_eq!(by_seed, drawn, "seed i is the player drawn i-th");
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, "open").expect("bracket");
    assert_eq!(b.size(), 16);
    assert!(b.is_complete());
    assert!(verify(&log, None).is_empty());
}

/// A plain knockout of `n` (more than 32) run to the end through the API: a bracket of the
/// next power of two, byes to the top seeds, every place decided as the variant promises.
fn large(variant: &str, n: usize, seed: u64) {
    let src = REG.replace(
        "knockout = { time_controls",
        &format!("knockout = {{ variant = \"{variant}\", time_controls"),
    );
    let mut sim = simulator_of(&src, "ko", seed, &sizes_by_section(&[("open", n)]));
    let (log, state) = sim.run_in_memory().expect("runs to the end");
    let reg = regulation_of(&state).expect("reg");
    let sec = reg.section("open").expect("section");
    let size = (n as u32).next_power_of_two();
    let SectionPlan::TwoStage { k, ko_rounds, .. } = section_plan(sec, &state) else {
        panic!("a plain knockout is a two-stage plan without its Swiss");
    };
    // The simulator withdraws a player now and then: the bracket holds those who drew.
    assert!(k as usize <= n && k > size / 2, "{variant} {n}: k = {k}");
    assert_eq!(ko_rounds, size.trailing_zeros());
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, "open").expect("bracket");
    assert!(b.is_complete(), "{variant} {n}");
    assert_eq!(b.size(), size);
    assert_eq!(b.rounds() as u32, ko_rounds);
    let byes = b.size() - b.ranking().len() as u32;
    let walkovers: Vec<u32> = b
        .round(1)
        .iter()
        .filter_map(|m| match m.state {
            arbiter_knockout::MatchState::Walkover { winner } => winner,
            _ => None,
        })
        .filter_map(|p| b.seed_of(p))
        .collect();
    let mut sorted = walkovers.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (1..=byes).collect::<Vec<_>>(),
        "byes to the top seeds"
    );
    let places = b.places().expect("places");
    assert_eq!(places.len(), b.ranking().len());
    if variant == "placement" {
        assert_eq!(
            places.iter().map(|x| x.0).collect::<Vec<_>>(),
            (1..=places.len() as u32).collect::<Vec<_>>(),
            "every place decided"
        );
    } else {
        assert_eq!(places[1].0, 2);
        assert!(
            places.iter().filter(|x| x.0 == 5).count() == 4,
            "four share 5th"
        );
    }
    let rows =
        arbiter_director::final_standings::final_ranking(&reg, &state, "open").expect("rank");
    assert_eq!(rows[0].no, places[0].1, "the champion first");
    assert_eq!(next_step(&reg, &state, "open").expect("step"), Step::Done);
    let view = arbiter_director::bracket_view::bracket_view(&reg, &state, "open").expect("view");
    assert_eq!(view.rounds.len() as u32, ko_rounds);
    assert_eq!(view.rounds[0].len() as u32, size / 2);
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

#[test]
fn plain_knockouts_of_48_64_100_and_200_run_to_the_end() {
    large("single", 48, 7);
    large("third_place", 64, 8);
    large("placement", 100, 9);
    large("single", 200, 10);
}

#[test]
fn the_regulations_largest_bracket_is_the_knockout_crates() {
    assert_eq!(
        arbiter_regulation::MAX_BRACKET as usize,
        arbiter_knockout::MAX_PLAYERS
    );
}
