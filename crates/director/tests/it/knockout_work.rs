//! The cost of a knockout counted, not timed: entering a game replays that game into the
//! bracket kept from the state before, instead of building the bracket from its seeds and
//! replaying every game of the log again (which made a simulated plain knockout of 1,024
//! players take a minute: the work grew with the square of the games).

use crate::common;

use arbiter_core::EventState;
use arbiter_director::knockout_stage::{bracket, replay_work, ReplayWork};
use arbiter_director::{regulation_of, verify};
use common::*;

const REG: &str = include_str!("../fixtures/plain-knockout.toml");

fn since(before: ReplayWork) -> ReplayWork {
    let now = replay_work();
    ReplayWork {
        built: now.built - before.built,
        games: now.games - before.games,
        compared: now.compared - before.compared,
        copied: now.copied - before.copied,
        stage_one_read: now.stage_one_read - before.stage_one_read,
    }
}

/// A whole placement knockout (定位表: every place played for, so the most games a field
/// can have) of 64 and of 128 players, simulated through the arbiter's API: each game is
/// replayed into a bracket once, a bracket is built from its seeds a fixed number of times
/// whatever the field, and the bracket kept equals the one built from the log alone.
#[test]
fn a_knockout_replays_each_game_once_whatever_the_field() {
    let src = REG.replace(
        "knockout = { time_controls",
        "knockout = { variant = \"placement\", time_controls",
    );
    assert_ne!(src, REG, "the fixture names the knockout's settings");
    let mut seen = Vec::new();
    for n in [64usize, 128] {
        let before = replay_work();
        let mut sim = simulator_of(&src, "ko", 7, &sizes_by_section(&[("open", n)]));
        let (log, state) = sim.run_in_memory().expect("runs to the end");
        let work = since(before);
        let games = state.section("open").expect("section").knockout.len() as u64;
        // A placement bracket of n plays n/2 matches in each of log2(n) rounds, at least one
        // game each.
        let matches = (n as u64 / 2) * u64::from(n.trailing_zeros());
        assert!(games >= matches, "{n}: {games} games for {matches} matches");
        assert_eq!(work.games, games, "{n}: each game replayed once: {work:?}");
        assert!(work.built <= 2, "{n}: built from the seeds once: {work:?}");
        assert!(
            work.copied <= 2,
            "{n}: no copy of the kept bracket: {work:?}"
        );
        // The games entered in one batch are folded twice (the arbiter's scratch state,
        // then the log's): each is compared once with the kept one.
        assert!(work.compared <= games, "{n}: {work:?}");
        seen.push((n, games, work));

        // The kept bracket is the one the log builds from nothing (a fresh fold has no
        // memo), and the log verifies.
        let reg = regulation_of(&state).expect("reg");
        let kept = bracket(&reg, &state, "open").expect("kept");
        let fresh = EventState::replay(&log).expect("fold");
        let before = replay_work();
        let built = bracket(&reg, &fresh, "open").expect("built");
        assert_eq!(since(before).built, 1, "a fresh fold builds the bracket");
        assert_eq!(since(before).games, games);
        assert_eq!(*kept, *built);
        assert!(kept.is_complete());
        let diffs = verify(&log, None);
        assert!(diffs.is_empty(), "{diffs:?}");
    }
    // Twice the field, twice the games, twice the work — not four times.
    let [(_, g64, w64), (_, g128, w128)] = seen[..] else {
        panic!("two fields")
    };
    assert!(g128 > 2 * g64 - g64 / 4, "{g64} → {g128}");
    assert_eq!(w128.games * g64, w64.games * g128);
    assert!(w128.compared <= g128 && w64.compared <= g64);
    eprintln!("{seen:?}");
}

/// Tianshui (a Swiss stage, then a knockout of its top 8 played beside the continuing Swiss):
/// every result entered asks for the bracket, whose seeds are the standings after stage 1.
/// Once the knockout's first game is entered they are read from the log (`knockout_seeded`),
/// not from the section's games again for each of the results entered after stage 1, and
/// the seeds kept are those a fresh fold reads.
#[test]
fn a_swiss_stage_is_read_for_its_seeds_a_bounded_number_of_times() {
    let before = replay_work();
    let mut sim = simulator(
        "tianshui-2024",
        3,
        &sizes_by_section(&[("open", 40), ("local", 24)]),
    );
    let (log, state) = sim.run_in_memory().expect("runs to the end");
    let work = since(before);
    let open = state.section("open").expect("open");
    let results_after_stage_one: usize = open
        .rounds
        .values()
        .filter(|r| r.round > 8)
        .map(|r| r.boards.len())
        .sum::<usize>()
        + open.knockout.len();
    assert!(results_after_stage_one > 60, "{results_after_stage_one}");
    eprintln!("{results_after_stage_one} results after stage 1: {work:?}");
    assert!(
        work.stage_one_read * 4 <= results_after_stage_one as u64,
        "the stage-1 standings read {} times for {results_after_stage_one} results after it: {work:?}",
        work.stage_one_read
    );
    let reg = regulation_of(&state).expect("reg");
    let fresh = EventState::replay(&log).expect("fold");
    assert_eq!(
        arbiter_director::knockout_stage::seeding(&reg, &state, "open").expect("kept"),
        arbiter_director::knockout_stage::seeding(&reg, &fresh, "open").expect("fresh"),
    );
    assert_eq!(
        *bracket(&reg, &state, "open").expect("kept"),
        *bracket(&reg, &fresh, "open").expect("fresh")
    );
    assert!(verify(&log, None).is_empty());
}
