//! The per-game foul rule with foul kinds (A11, K12, T8): simulated games reach the phone
//! limit and are lost, `verify` accepts them, and a game left undecided is reported.

use crate::common;

use arbiter_core::{FoulKind, LogEntry, Offender, PlayerId, Recorded};
use arbiter_director::verify;
use arbiter_simulate::results::ResultModel;
use arbiter_types::GameResult;
use common::*;
use std::collections::BTreeMap;

/// A whole event of `stem` with `players` in every section and fouls more frequent than the
/// default model's; the log.
fn run_with_fouls(stem: &str, seed: u64, players: usize) -> Vec<Recorded> {
    let model = ResultModel {
        foul_rate: 0.2,
        foul_loss_rate: 0.15,
        ..ResultModel::default()
    };
    let mut sim = simulator(stem, seed, &sizes_all(players)).with_model(model);
    sim.run_in_memory().unwrap().0
}

type GameKey = (String, u32, u32);

/// Phone fouls per game and player: (section, round, board) → player → count.
fn phone_fouls(log: &[Recorded]) -> BTreeMap<GameKey, BTreeMap<PlayerId, u32>> {
    let mut m: BTreeMap<GameKey, BTreeMap<PlayerId, u32>> = BTreeMap::new();
    for r in log {
        if let LogEntry::FoulRecorded {
            section,
            offender: Offender::Player(p),
            round: Some(round),
            board: Some(board),
            kind: FoulKind::Phone,
            ..
        } = &r.entry
        {
            *m.entry((section.clone(), *round, *board))
                .or_default()
                .entry(*p)
                .or_insert(0) += 1;
        }
    }
    m
}

/// The index of the result entry of a game, with the red player of that board.
fn result_of(log: &[Recorded], key: &GameKey) -> (usize, GameResult, PlayerId) {
    let red = log
        .iter()
        .rev()
        .find_map(|r| match &r.entry {
            LogEntry::RoundPaired {
                section,
                round,
                boards,
                ..
            } if *section == key.0 && *round == key.1 => {
                boards.iter().find(|b| b.board == key.2).map(|b| b.red)
            }
            _ => None,
        })
        .unwrap();
    let i = log
        .iter()
        .position(|r| matches!(&r.entry, LogEntry::ResultEntered { section, round, board, .. } if (section, *round, *board) == (&key.0, key.1, key.2)))
        .unwrap();
    let LogEntry::ResultEntered { result, .. } = &log[i].entry else {
        unreachable!()
    };
    (i, *result, red)
}

fn loses(result: GameResult, is_red: bool) -> bool {
    if is_red {
        result == GameResult::BlackWin
    } else {
        result == GameResult::RedWin
    }
}

#[test]
fn kunshan_second_phone_foul_loses_the_game_and_verify_passes() {
    let log = run_with_fouls("kunshan-2026", 3, 16);
    assert!(verify(&log, None).is_empty(), "{:?}", verify(&log, None));
    let fouls = phone_fouls(&log);
    let mut lost = 0;
    let mut single = 0;
    for (key, by_player) in &fouls {
        let (_, result, red) = result_of(&log, key);
        for (p, n) in by_player {
            if *n >= 2 {
                assert!(loses(result, *p == red), "{key:?}: {result:?}");
                lost += 1;
            } else {
                single += 1;
            }
        }
    }
    assert!(lost > 0, "no game reached the phone limit");
    assert!(
        single > 0,
        "no game with a single phone foul (not a loss in K12)"
    );
}

#[test]
fn two_phone_fouls_left_as_a_draw_are_reported() {
    let log = run_with_fouls("kunshan-2026", 3, 16);
    let fouls = phone_fouls(&log);
    let key = fouls
        .iter()
        .find(|(_, m)| m.values().any(|n| *n >= 2))
        .map(|(k, _)| k.clone())
        .unwrap();
    let (i, _, _) = result_of(&log, &key);
    let mut t = log.clone();
    if let LogEntry::ResultEntered { result, ending, .. } = &mut t[i].entry {
        *result = GameResult::Draw;
        *ending = None;
    }
    let d = verify(&t, None);
    assert!(
        d.iter().any(|d| d.round == Some(key.1)
            && d.what.contains(&format!("第{}台", key.2))
            && d.what.contains("第2次手机犯规")),
        "{d:?}"
    );

    // An older log (fouls with a round but no board or kind) is still checked per game, by
    // the general limit: three fouls in one game lose it (A11; K12's 2 counts phone fouls
    // only), so the two phone fouls read as general ones leave the draw standing — and a
    // third general foul on that board makes the draw a difference again.
    for r in &mut t {
        if let LogEntry::FoulRecorded {
            round: Some(round),
            board,
            kind,
            ..
        } = &mut r.entry
        {
            if (*round, *board) == (key.1, Some(key.2)) {
                *board = None;
                *kind = FoulKind::General;
            }
        }
    }
    let d = verify(&t, None);
    assert!(
        !d.iter().any(|d| d.round == Some(key.1)
            && d.what.contains(&format!("第{}台", key.2))
            && d.what.contains("犯规")),
        "{d:?}"
    );
    let third = t
        .iter()
        .position(|r| {
            matches!(&r.entry, LogEntry::FoulRecorded { round: Some(round), board: None, .. }
                if *round == key.1)
        })
        .expect("a foul of that game");
    let mut copy = t[third].clone();
    copy.seq += 1;
    t.insert(third + 1, copy);
    for (n, r) in t.iter_mut().enumerate() {
        r.seq = n as u64 + 1;
    }
    let d = verify(&t, None);
    assert!(
        d.iter().any(|d| d.round == Some(key.1)
            && d.what.contains(&format!("第{}台", key.2))
            && d.what.contains("第3次犯规")),
        "{d:?}"
    );
}

#[test]
fn tianshui_one_phone_foul_loses_and_other_single_fouls_do_not() {
    let log = run_with_fouls("tianshui-2024", 5, 30);
    assert!(verify(&log, None).is_empty(), "{:?}", verify(&log, None));
    let fouls = phone_fouls(&log);
    assert!(!fouls.is_empty());
    for (key, by_player) in &fouls {
        let (_, result, red) = result_of(&log, key);
        for p in by_player.keys() {
            assert!(loses(result, *p == red), "{key:?}: {result:?}");
        }
    }
    // Single fouls of other kinds were recorded and did not decide their games by themselves.
    assert!(log.iter().any(|r| matches!(
        &r.entry,
        LogEntry::FoulRecorded {
            kind: FoulKind::Records,
            board: Some(_),
            ..
        }
    )));
}

#[test]
fn a_foul_count_above_what_a_game_can_have_is_refused_without_building_it() {
    use arbiter_director::api::results::{enter_result, foul_count, ResultInput, MAX_FOULS};
    use arbiter_types::Colour;
    let log = run_with_fouls("kunshan-2026", 1, 12);
    // The state just before the first result: that board takes a result now.
    let i = log
        .iter()
        .position(|r| matches!(r.entry, LogEntry::ResultEntered { .. }))
        .unwrap();
    let LogEntry::ResultEntered { section, board, .. } = &log[i].entry else {
        unreachable!()
    };
    let state = arbiter_core::EventState::replay(&log[..i]).unwrap();
    let at = chrono::NaiveDate::from_ymd_opt(2026, 10, 1)
        .unwrap()
        .and_hms_opt(10, 0, 0)
        .unwrap();
    let ctx =
        arbiter_director::api::Ctx::new("裁判长", arbiter_director::api::Role::ChiefArbiter, at);
    // Four thousand million fouls: refused at once (no list of that size is built).
    let input = ResultInput::new(*board, GameResult::RedWin).with_fouls(Colour::Red, u32::MAX);
    assert_eq!(input.fouls.len(), MAX_FOULS as usize + 1);
    let e = enter_result(&state, &ctx, section, &input).unwrap_err();
    assert!(e.to_string().contains("超过每局上限"), "{e}");
    // The limit itself is accepted.
    let input = ResultInput::new(*board, GameResult::RedWin).with_fouls(Colour::Black, MAX_FOULS);
    assert!(enter_result(&state, &ctx, section, &input).is_ok());
    // As typed in a results file or the grid.
    assert_eq!(foul_count(" 3 "), Ok(3));
    for bad in ["21", "-1", "三", ""] {
        assert!(foul_count(bad).unwrap_err().contains("0–20"), "{bad}");
    }
}
