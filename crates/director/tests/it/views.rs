//! The read models the shells show: the standings view (corrected marks, categories,
//! provisional until the section is done) and the bracket view (names, seeds, places), on
//! whole simulated events and on the log part-way through.

use crate::common;

use arbiter_core::{EventState, LogEntry};
use arbiter_director::bracket_view::{bracket_view, SideView};
use arbiter_director::standings_view::standings_view;
use arbiter_simulate::Sizes;
use common::*;
use std::collections::BTreeSet;

/// The players of boards whose confirmed result was corrected (A12), read from the log.
fn corrected_players(state: &EventState, section: &str) -> BTreeSet<arbiter_core::PlayerId> {
    state
        .section(section)
        .unwrap()
        .rounds
        .values()
        .flat_map(|r| r.boards.iter())
        .filter(|b| b.corrected)
        .flat_map(|b| [b.red, b.black])
        .collect()
}

#[test]
fn standings_view_marks_corrections_and_categories_and_is_provisional_until_done() {
    let log = run("suzhou-2025", 3, &Sizes::default()).0;
    let corrections = log
        .iter()
        .filter(|r| matches!(r.entry, LogEntry::ResultCorrected { .. }))
        .count();
    assert!(corrections > 0, "the simulator corrects a result");
    let state = EventState::replay(&log).unwrap();
    let reg = arbiter_director::regulation_of(&state).unwrap();
    let mut marked = 0;
    let mut in_categories = 0;
    for sec in &reg.sections {
        let v = standings_view(&reg, &state, &sec.id).unwrap();
        assert!(!v.provisional, "{}: the event is over", sec.id);
        let corrected = corrected_players(&state, &sec.id);
        for l in &v.lines {
            assert_eq!(l.corrected, corrected.contains(&l.player), "{}", l.name);
            assert!(!l.name.is_empty());
            marked += usize::from(l.corrected);
            // A category listed on a row is one the row's player belongs to, and its table
            // holds him.
            for c in &l.categories {
                let table = v.category(c).unwrap();
                assert!(table.iter().any(|(_, m)| m.player == l.player));
            }
        }
        for c in &v.categories {
            let table = v.category(&c.id).unwrap();
            let members = v
                .lines
                .iter()
                .filter(|l| l.categories.contains(&c.id))
                .count();
            assert_eq!(table.len(), members);
            in_categories += members;
            if let Some((first, _)) = table.first() {
                assert_eq!(first.rank, 1);
            }
        }
        let e = v.category("no-such-category").unwrap_err().to_string();
        assert!(e.contains("没有类别"), "{e}");
    }
    assert!(marked >= 2, "both players of a corrected board are marked");
    assert!(in_categories > 0, "the categories have players");

    // Part-way: after the first completed round of the first section, the table is
    // provisional and says after which round.
    let first = &reg.sections[0].id;
    let cut = log
        .iter()
        .position(|r| {
            matches!(&r.entry, LogEntry::RoundPaired { section, round: 2, .. } if section == first)
        })
        .unwrap();
    let part = EventState::replay(&log[..cut]).unwrap();
    let v = standings_view(&reg, &part, first).unwrap();
    assert!(v.provisional);
    assert_eq!(v.after_round, 1);
    assert!(!v.lines.is_empty());
}

#[test]
fn bracket_view_names_every_player_and_ends_with_the_places() {
    let sizes = sizes_by_section(&[("open", 24), ("local", 0)]);
    let log = run("tianshui-2024", 5, &sizes).0;
    let state = EventState::replay(&log).unwrap();
    let reg = arbiter_director::regulation_of(&state).unwrap();
    let v = bracket_view(&reg, &state, "open").unwrap();
    let b = arbiter_director::knockout_stage::bracket(&reg, &state, "open").unwrap();
    assert_eq!(v.rounds.len(), b.rounds());
    assert_eq!(
        v.rounds.iter().map(Vec::len).sum::<usize>(),
        b.matches().len()
    );
    assert_eq!(v.seeds.len(), 8);
    for (i, e) in v.seeds.iter().enumerate() {
        assert_eq!(e.seed, Some(i as u32 + 1));
        let rec = state.section("open").unwrap();
        let p = state.player(rec.order[e.no.index()]).unwrap();
        assert_eq!(e.name, p.person.name);
    }
    for m in v.rounds.iter().flatten() {
        assert!(m.finished, "{}", m.id);
        assert!(m.winner.is_some(), "{}", m.id);
        assert!(!m.games.is_empty(), "{}", m.id);
        for s in &m.sides {
            assert!(matches!(s, SideView::Player(_)), "{}: {s:?}", m.id);
        }
    }
    let places = v.places.as_ref().unwrap();
    assert_eq!(places.len(), 8);
    assert_eq!(
        places.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    // Part-way through the knockout: a later match is still pending.
    let first_ko = log
        .iter()
        .position(|r| matches!(r.entry, LogEntry::KnockoutGameRecorded { .. }))
        .unwrap();
    let part = EventState::replay(&log[..first_ko]).unwrap();
    let v = bracket_view(&reg, &part, "open").unwrap();
    assert!(v.places.is_none());
    let last = v.rounds.last().unwrap();
    assert!(last.iter().any(|m| m.sides.contains(&SideView::Pending)));
}
