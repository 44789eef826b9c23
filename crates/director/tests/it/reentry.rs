//! Re-entering a result (重新录入): before the slips are signed an arbiter replaces his own
//! typo by entering the board again, naming the result he replaces; the log keeps both
//! entries and verifies. A re-entry that does not name what is stored is the conflict of two
//! arbiters on one board; after confirmation only the chief arbiter's correction (A12).

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::results::{confirm, correct, enter_result, ResultInput};
use arbiter_director::api::rounds::{pair, publish, PairRequest};
use arbiter_director::api::{Ctx, Role};
use arbiter_director::{verify, DirectorError};
use arbiter_types::GameResult;
use common::*;

/// Kunshan, 8 men: round 1 paired and published (4 boards), no result.
fn round_one() -> (Vec<Recorded>, EventState) {
    let mut sim = simulator(
        "kunshan-2026",
        7,
        &sizes_by_section(&[("men", 8), ("women", 0)]),
    );
    let mut state = EventState::new();
    let mut log = Vec::new();
    while let Some(b) = sim.next_batch(&state).expect("batch") {
        if b.entries
            .iter()
            .any(|e| matches!(e, LogEntry::PairingNumbersDrawn { .. }))
        {
            break;
        }
        for r in b.recorded(state.last_seq) {
            state.apply(&r).expect("fold");
            log.push(r);
        }
    }
    let c = chief_ctx();
    let v = pair(&state, &c, "men", &PairRequest::default()).expect("pair");
    record(&mut log, &mut state, &c, v);
    let v = publish(&state, &c, "men").expect("publish");
    record(&mut log, &mut state, &c, v);
    (log, state)
}

fn arbiter() -> Ctx {
    ctx_at("张裁判", 9, 20, 10).with_role(Role::Arbiter)
}

fn input(board: u32, result: GameResult, replaces: Option<GameResult>) -> ResultInput {
    ResultInput {
        round: Some(1),
        replaces,
        ..ResultInput::new(board, result)
    }
}

fn stored(state: &EventState, board: u32) -> Option<GameResult> {
    state
        .section("men")
        .and_then(|s| s.round(1))
        .and_then(|r| r.board(board))
        .and_then(|b| b.result)
}

fn enter(
    log: &mut Vec<Recorded>,
    state: &mut EventState,
    c: &Ctx,
    i: ResultInput,
) -> Vec<LogEntry> {
    let v = enter_result(state, c, "men", &i).unwrap_or_else(|e| panic!("{e}"));
    record(log, state, c, v.clone());
    v
}

#[test]
fn an_arbiter_re_enters_his_typo_before_confirmation_and_the_log_keeps_both() {
    let (mut log, mut state) = round_one();
    let arb = arbiter();
    use GameResult::*;
    enter(&mut log, &mut state, &arb, input(1, RedWin, None));
    // The same board again without naming the stored result: a conflict, nothing changes.
    let msg = refusal(enter_result(&state, &arb, "men", &input(1, Draw, None)));
    assert!(
        msg.contains("冲突") && msg.contains("已有成绩 1-0") && msg.contains("尚未签字确认"),
        "{msg}"
    );
    // Naming a result that is not the stored one (someone changed it meanwhile): conflict.
    let msg = refusal(enter_result(
        &state,
        &arb,
        "men",
        &input(1, Draw, Some(BlackWin)),
    ));
    assert!(msg.contains("已有成绩 1-0"), "{msg}");
    // The same result again is no re-entry.
    let msg = refusal(enter_result(
        &state,
        &arb,
        "men",
        &input(1, RedWin, Some(RedWin)),
    ));
    assert!(msg.contains("已是"), "{msg}");
    // The re-entry: one more result_entered, nothing else; the fold takes the new result.
    let v = enter(&mut log, &mut state, &arb, input(1, Draw, Some(RedWin)));
    assert!(matches!(
        v.as_slice(),
        [LogEntry::ResultEntered {
            board: 1,
            result: Draw,
            ..
        }]
    ));
    assert_eq!(stored(&state, 1), Some(Draw));
    let board = state
        .section("men")
        .unwrap()
        .round(1)
        .unwrap()
        .board(1)
        .unwrap();
    assert_eq!(
        board.history.len(),
        2,
        "both entries in the board's history"
    );
    assert!(!board.corrected, "a re-entry is not a correction");
    // The round fills up and closes; the last board is re-entered after that, before the
    // slips are signed: the round stays closed, no second round_completed.
    enter(&mut log, &mut state, &arb, input(2, BlackWin, None));
    enter(&mut log, &mut state, &arb, input(3, Draw, None));
    let v = enter(&mut log, &mut state, &arb, input(4, RedWin, None));
    assert!(v
        .iter()
        .any(|e| matches!(e, LogEntry::RoundCompleted { .. })));
    let v = enter(&mut log, &mut state, &arb, input(4, BlackWin, Some(RedWin)));
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(stored(&state, 4), Some(BlackWin));
    // In a finished round a forfeit is not re-entered (it may have made a player withdraw).
    let msg = refusal(enter_result(
        &state,
        &arb,
        "men",
        &input(3, RedForfeit, Some(Draw)),
    ));
    assert!(
        msg.contains("涉及弃权") && msg.contains("裁判长更正"),
        "{msg}"
    );
    let entered = log
        .iter()
        .filter(|r| r.entry.kind() == "result_entered")
        .count();
    assert_eq!(entered, 6, "4 boards + 2 re-entries, every one kept");
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

#[test]
fn after_confirmation_only_the_chief_arbiters_correction_and_only_arbiters_re_enter() {
    let (mut log, mut state) = round_one();
    let arb = arbiter();
    use GameResult::*;
    for (b, r) in [(1, RedWin), (2, BlackWin), (3, Draw), (4, RedWin)] {
        enter(&mut log, &mut state, &arb, input(b, r, None));
    }
    // The registration desk does not re-enter a result.
    let desk = ctx_at("报名处", 9, 20, 10).with_role(Role::Desk);
    match enter_result(&state, &desk, "men", &input(1, Draw, Some(RedWin))) {
        Err(e @ DirectorError::NotAllowed { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("重新录入成绩只能由裁判长或裁判进行"), "{msg}");
        }
        other => panic!("expected NotAllowed, got {other:?}"),
    }
    let v = confirm(&state, &arb, "men", None).expect("confirm");
    record(&mut log, &mut state, &arb, v);
    // Signed: the arbiter is told the chief arbiter corrects it; the chief arbiter is told
    // to correct it with a reason. Neither re-enters.
    let msg = refusal(enter_result(
        &state,
        &arb,
        "men",
        &input(1, Draw, Some(RedWin)),
    ));
    assert!(
        msg.contains("已签字确认") && msg.contains("只能由裁判长更正") && msg.contains("理由"),
        "{msg}"
    );
    let msg = refusal(enter_result(
        &state,
        &chief_ctx(),
        "men",
        &input(1, Draw, Some(RedWin)),
    ));
    assert!(
        msg.contains("已签字确认") && !msg.contains("只能由裁判长") && msg.contains("理由"),
        "{msg}"
    );
    let msg = refusal(enter_result(&state, &arb, "men", &input(1, Draw, None)));
    assert!(msg.contains("已签字确认"), "{msg}");
    assert_eq!(stored(&state, 1), Some(RedWin));
    // The arbiter cannot correct; the chief arbiter does, with a reason (marked corrected).
    assert!(matches!(
        correct(&state, &arb, "men", 1, 1, Draw, "抄错", false),
        Err(DirectorError::NotAllowed { .. })
    ));
    let v = correct(&state, &chief_ctx(), "men", 1, 1, Draw, "记录员抄错", false).expect("correct");
    record(&mut log, &mut state, &chief_ctx(), v);
    assert_eq!(stored(&state, 1), Some(Draw));
    assert!(
        state
            .section("men")
            .unwrap()
            .round(1)
            .unwrap()
            .board(1)
            .unwrap()
            .corrected
    );
    let diffs = verify(&log, None);
    assert!(diffs.is_empty(), "{diffs:?}");
}

#[test]
fn once_the_next_round_is_paired_the_previous_round_is_only_corrected() {
    let (mut log, mut state) = round_one();
    let arb = arbiter();
    use GameResult::*;
    for (b, r) in [(1, RedWin), (2, BlackWin), (3, Draw), (4, RedWin)] {
        enter(&mut log, &mut state, &arb, input(b, r, None));
    }
    let v = pair(&state, &chief_ctx(), "men", &PairRequest::default()).expect("pair 2");
    record(&mut log, &mut state, &chief_ctx(), v);
    let msg = refusal(enter_result(
        &state,
        &arb,
        "men",
        &input(2, Draw, Some(BlackWin)),
    ));
    assert!(
        msg.contains("第2轮已按第1轮的成绩编排") && msg.contains("裁判长更正"),
        "{msg}"
    );
    assert_eq!(stored(&state, 2), Some(BlackWin));
}
