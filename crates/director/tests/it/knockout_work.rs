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
