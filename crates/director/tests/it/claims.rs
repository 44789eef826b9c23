//! Players confirm their own results on the phone (J6 both sign, S11 the loser signs): each
//! claim is one `result_claimed`; agreeing claims enter the result as the players'; a
//! disagreement or a claim by a side that may not sign waits for the arbiter, whose entry
//! wins; claims after a result is in, repeated claims, claims for an unpublished round or a
//! confirmed board are refused in words.

use crate::common;

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::api::results::{confirm, enter_result, ResultInput};
use arbiter_director::api::rounds::{pair, publish, PairRequest};
use arbiter_director::api::{Ctx, Role};
use arbiter_director::claim::{self, ClaimStatus, Seat};
use arbiter_director::command::games::GameCommand;
use arbiter_director::{verify, DirectorError};
use arbiter_types::{Colour, GameResult};
use common::*;

/// The event of `stem` with its first section that has players paired for round 1 (and the
/// round published when `published`): the log, the state and the section's id.
fn round_one(stem: &str, published: bool) -> (Vec<Recorded>, EventState, String) {
    let mut sim = simulator(stem, 7, &sizes_all(8));
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
    let section = state
        .sections
        .keys()
        .find(|s| state.players.values().filter(|p| &p.section == *s).count() >= 4)
        .cloned()
        .expect("a section with players");
    let c = chief_ctx();
    let v = pair(&state, &c, &section, &PairRequest::default()).expect("pair");
    record(&mut log, &mut state, &c, v);
    if published {
        let v = publish(&state, &c, &section).expect("publish");
        record(&mut log, &mut state, &c, v);
    }
    (log, state, section)
}

/// The phone pages act as the desk, recorded as the players.
fn phone() -> Ctx {
    ctx_at(arbiter_director::log_view::PHONE, 9, 20, 11).with_role(Role::Desk)
}

fn arbiter() -> Ctx {
    ctx_at("张裁判", 9, 20, 11).with_role(Role::Arbiter)
}

fn seat(section: &str, board: u32, side: Colour) -> Seat {
    Seat {
        section: section.to_string(),
        round: 1,
        board,
        side,
    }
}

fn claim(
    state: &EventState,
    section: &str,
    board: u32,
    side: Colour,
    result: GameResult,
) -> Result<Vec<LogEntry>, DirectorError> {
    decided(
        state,
        &phone(),
        GameCommand::ClaimResult {
            seat: seat(section, board, side),
            result,
        },
    )
}

fn claimed(
    log: &mut Vec<Recorded>,
    state: &mut EventState,
    section: &str,
    board: u32,
    side: Colour,
    result: GameResult,
) -> Vec<LogEntry> {
    let v = claim(state, section, board, side, result).unwrap_or_else(|e| panic!("{e}"));
    record(log, state, &phone(), v.clone());
    v
}

fn board(state: &EventState, section: &str, b: u32) -> arbiter_core::BoardRecord {
    state
        .section(section)
        .and_then(|s| s.round(1))
        .and_then(|r| r.board(b))
        .cloned()
        .expect("the board")
}

fn status(state: &EventState, section: &str, b: u32) -> ClaimStatus {
    let reg = arbiter_director::regulation_of(state).expect("regulation");
    claim::status(reg.event.result_signing, &board(state, section, b))
}

fn kinds(v: &[LogEntry]) -> Vec<&'static str> {
    v.iter().map(|e| e.kind()).collect()
}

#[test]
fn both_sign_the_second_agreeing_claim_enters_the_result_and_a_replay_is_refused() {
    // 九江 J6: both players sign.
    let (mut log, mut state, s) = round_one("jiujiang-2020", true);
    use GameResult::*;
    let first = claimed(&mut log, &mut state, &s, 1, Colour::Red, RedWin);
    assert_eq!(kinds(&first), ["result_claimed"]);
    assert_eq!(board(&state, &s, 1).result, None);
    assert_eq!(status(&state, &s, 1), ClaimStatus::Waiting);
    assert!(!status(&state, &s, 1).flagged());
    // The same claim again before the other side has claimed: refused, nothing written.
    let again = refusal(claim(&state, &s, 1, Colour::Red, RedWin));
    assert!(again.contains("已确认过"), "{again}");
    let second = claimed(&mut log, &mut state, &s, 1, Colour::Black, RedWin);
    assert_eq!(kinds(&second), ["result_claimed", "result_entered"]);
    let b = board(&state, &s, 1);
    assert_eq!(b.result, Some(RedWin));
    assert!(!b.confirmed, "the round's confirmation stays the arbiter's");
    assert_eq!(status(&state, &s, 1), ClaimStatus::Agreed(RedWin));
    // The source is recorded: the entries are the players', in the log's envelope.
    assert!(log
        .iter()
        .rev()
        .take(2)
        .all(|r| r.actor == arbiter_director::log_view::PHONE
            && matches!(r.entry.kind(), "result_claimed" | "result_entered")));
    // Replay after the result is in, by either side: refused in words.
    for side in [Colour::Red, Colour::Black] {
        let late = refusal(claim(&state, &s, 1, side, Draw));
        assert!(late.contains("成绩已录入"), "{late}");
    }
    // The arbiter confirms the round as today; a claim then is refused as confirmed.
    let v = confirm(&state, &arbiter(), &s, Some(1)).expect("confirm");
    record(&mut log, &mut state, &arbiter(), v);
    let after = refusal(claim(&state, &s, 1, Colour::Red, RedWin));
    assert!(after.contains("签字确认"), "{after}");
    assert!(verify(&log, None).is_empty(), "the log verifies");
}

#[test]
fn a_disagreement_waits_for_the_arbiter_whose_entry_wins() {
    let (mut log, mut state, s) = round_one("jiujiang-2020", true);
    use GameResult::*;
    claimed(&mut log, &mut state, &s, 2, Colour::Red, RedWin);
    let v = claimed(&mut log, &mut state, &s, 2, Colour::Black, Draw);
    assert_eq!(
        kinds(&v),
        ["result_claimed"],
        "no result from a disagreement"
    );
    assert_eq!(
        status(&state, &s, 2),
        ClaimStatus::Disagree {
            red: RedWin,
            black: Draw
        }
    );
    assert!(status(&state, &s, 2).flagged());
    assert_eq!(board(&state, &s, 2).result, None);
    // A side may change its claim while no result is in: the later claim stands.
    let v = claimed(&mut log, &mut state, &s, 2, Colour::Black, RedWin);
    assert_eq!(kinds(&v), ["result_claimed", "result_entered"]);
    assert_eq!(board(&state, &s, 2).result, Some(RedWin));

    // Board 3: the players disagree and the arbiter enters the result himself.
    claimed(&mut log, &mut state, &s, 3, Colour::Red, BlackWin);
    claimed(&mut log, &mut state, &s, 3, Colour::Black, Draw);
    let pending = claim::pending(&state, &s);
    assert_eq!(pending.len(), 1, "{pending:?}");
    assert_eq!((pending[0].round, pending[0].board), (1, 3));
    assert!(pending[0].status.flagged());
    let words = pending[0].describe();
    assert!(
        words.contains("红方确认 黑胜")
            && words.contains("黑方确认 和")
            && words.contains("不一致"),
        "{words}"
    );
    let input = ResultInput {
        round: Some(1),
        ..ResultInput::new(3, Draw)
    };
    let v = enter_result(&state, &arbiter(), &s, &input).expect("the arbiter enters");
    record(&mut log, &mut state, &arbiter(), v);
    assert_eq!(board(&state, &s, 3).result, Some(Draw));
    assert!(
        claim::pending(&state, &s).is_empty(),
        "the arbiter's entry settles it"
    );
    let late = refusal(claim(&state, &s, 3, Colour::Red, BlackWin));
    assert!(late.contains("成绩已录入") && late.contains("和"), "{late}");
    assert!(verify(&log, None).is_empty(), "the log verifies");
}

#[test]
fn where_the_loser_signs_a_winners_claim_is_flagged_and_the_losers_enters() {
    // 苏州 S11: the loser signs, both sign a draw.
    let (mut log, mut state, s) = round_one("suzhou-2025", true);
    use GameResult::*;
    let v = claimed(&mut log, &mut state, &s, 1, Colour::Red, RedWin);
    assert_eq!(kinds(&v), ["result_claimed"]);
    assert_eq!(
        status(&state, &s, 1),
        ClaimStatus::NotSigner {
            side: Colour::Red,
            result: RedWin
        }
    );
    assert!(status(&state, &s, 1).flagged());
    // The loser's own claim enters the result.
    let v = claimed(&mut log, &mut state, &s, 1, Colour::Black, RedWin);
    assert_eq!(kinds(&v), ["result_claimed", "result_entered"]);
    // Board 2: the loser alone signs, at once.
    let v = claimed(&mut log, &mut state, &s, 2, Colour::Red, BlackWin);
    assert_eq!(kinds(&v), ["result_claimed", "result_entered"]);
    // A draw needs both.
    let v = claimed(&mut log, &mut state, &s, 3, Colour::Black, Draw);
    assert_eq!(kinds(&v), ["result_claimed"]);
    assert_eq!(status(&state, &s, 3), ClaimStatus::Waiting);
    let v = claimed(&mut log, &mut state, &s, 3, Colour::Red, Draw);
    assert_eq!(kinds(&v), ["result_claimed", "result_entered"]);
    assert!(verify(&log, None).is_empty(), "the log verifies");
}

#[test]
fn unpublished_rounds_forfeits_and_the_last_board_are_handled_as_the_rules_say() {
    let (_, state, s) = round_one("jiujiang-2020", false);
    let r = refusal(claim(&state, &s, 1, Colour::Red, GameResult::RedWin));
    assert!(r.contains("尚未公布"), "{r}");
    let (mut log, mut state, s) = round_one("jiujiang-2020", true);
    let r = refusal(claim(&state, &s, 1, Colour::Red, GameResult::BlackForfeit));
    assert!(r.contains("弃权由裁判录入"), "{r}");
    // Every board claimed by both: the last one closes the round as an arbiter's entry does.
    let boards: Vec<u32> = state
        .section(&s)
        .and_then(|x| x.round(1))
        .map(|r| r.boards.iter().map(|b| b.board).collect())
        .unwrap_or_default();
    assert!(boards.len() >= 2, "{boards:?}");
    let mut last = Vec::new();
    for b in &boards {
        claimed(&mut log, &mut state, &s, *b, Colour::Red, GameResult::Draw);
        last = claimed(
            &mut log,
            &mut state,
            &s,
            *b,
            Colour::Black,
            GameResult::Draw,
        );
    }
    assert!(
        kinds(&last).contains(&"round_completed"),
        "{:?}",
        kinds(&last)
    );
    assert!(verify(&log, None).is_empty(), "the log verifies");
}

#[test]
fn a_code_names_one_seat_of_a_published_round() {
    let secret = b"0123456789abcdef0123456789abcdef";
    let (_, state, s) = round_one("jiujiang-2020", false);
    let c = claim::code(secret, &seat(&s, 1, Colour::Red));
    assert_eq!(
        claim::seat_of(&state, secret, &c),
        None,
        "not before the round is published"
    );
    let (_, state, s) = round_one("jiujiang-2020", true);
    for b in [1, 2] {
        for side in [Colour::Red, Colour::Black] {
            let c = claim::code(secret, &seat(&s, b, side));
            assert_eq!(
                claim::seat_of(&state, secret, &c.to_lowercase()),
                Some(seat(&s, b, side))
            );
            assert_eq!(claim::seat_of(&state, b"another event's secret", &c), None);
        }
    }
    assert_eq!(claim::seat_of(&state, secret, "23456789"), None);
    assert_eq!(claim::seat_of(&state, secret, "not a code"), None);
}
