//! The registration desk takes back a fee or a check-in recorded by mistake (撤销缴费,
//! 撤销签到), does either for several players at once, and is told who has paid but is not
//! checked in before pairing and why a player is not paired. Every step is a log entry the
//! director decides, with its permissions.

use crate::common;

use arbiter_core::{EventState, LogEntry, PlayerId};
use arbiter_director::api::entries::{self as desk, NotPaired};
use arbiter_director::api::rounds::{self, PairRequest};
use arbiter_director::api::{Ctx, Role};
use arbiter_director::registration::EntryForm;
use arbiter_director::{DirectorError, Refusal};
use common::*;

/// The registration desk, before the deadline, with the desk's role.
fn desk_role() -> Ctx {
    desk_ctx().with_role(Role::Desk)
}

/// Kunshan 2026 with a fee of 100 yuan (unpaid players are not paired) and `n` men.
fn kunshan_with_fee(n: u32) -> (EventState, Vec<PlayerId>) {
    let mut state = event_with("kunshan-2026", |s| {
        s.replace(
            "[registration]\n",
            "[registration]\nfee = { yuan = 100 }\nunpaid_not_paired = true\n",
        )
    });
    let mut ids = Vec::new();
    for k in 1..=n {
        let form = EntryForm {
            section: "men".into(),
            name: format!("棋手{k:02}"),
            sex: None,
            birth: None,
            id_number: Some(man_id(k)),
            // Kunshan requires the phone and the 社保号 (K5).
            phone: Some(format!("139123400{k:02}")),
            unit: Some(format!("单位{}", k % 4)),
            association: None,
            team: None,
            evidence: vec!["社保证明".into()],
            flags: vec![],
            rating: None,
            grade: None,
            late_reason: None,
            social_security: Some(man_id(k)),
        };
        let out = desk::register(&state, &desk_role(), &form).unwrap();
        match &out[0] {
            LogEntry::PlayerRegistered(r) => ids.push(r.player),
            other => panic!("not registered: {other:?}"),
        }
        apply(&mut state, out);
    }
    (state, ids)
}

#[test]
fn the_desk_takes_back_a_check_in_and_a_fee_recorded_by_mistake() {
    let (mut st, ids) = kunshan_with_fee(4);
    let p = ids[1];
    let d = desk_role();
    let out = desk::pay_fee(&st, &d, p, None, None).unwrap();
    apply(&mut st, out);
    let out = desk::check_in(&st, p).unwrap();
    apply(&mut st, out);
    assert_eq!(st.player(p).unwrap().paid_fen, 10_000);
    assert!(st.player(p).unwrap().checked_in);

    // 撤销签到: one entry in the log, and he is no longer checked in.
    let undo = desk::cancel_check_in(&st, p).unwrap();
    assert_eq!(undo, vec![LogEntry::CheckInCancelled { player: p }]);
    assert_eq!(undo[0].kind(), "check_in_cancelled");
    apply(&mut st, undo);
    assert!(!st.player(p).unwrap().checked_in);
    // Twice is refused, in words.
    let again = refusal(desk::cancel_check_in(&st, p));
    assert!(again.contains("尚未签到"), "{again}");
    // Checked in again after the undo.
    let out = desk::check_in(&st, p).unwrap();
    apply(&mut st, out);
    assert!(st.player(p).unwrap().checked_in);

    // 撤销缴费: all he paid; then he is unpaid again and would not be paired.
    let undo = desk::cancel_fee(&st, &d, p).unwrap();
    assert_eq!(
        undo,
        vec![LogEntry::FeeCancelled {
            player: p,
            amount_fen: 10_000,
            item: None,
        }]
    );
    apply(&mut st, undo);
    assert_eq!(st.player(p).unwrap().paid_fen, 0);
    assert_eq!(
        desk::why_not_paired(&st, p),
        vec![NotPaired::Unpaid {
            due_fen: 10_000,
            paid_fen: 0
        }]
    );
    let again = refusal(desk::cancel_fee(&st, &d, p));
    assert!(again.contains("尚未缴费"), "{again}");
    // An unknown player is refused with his number.
    let nobody = refusal(desk::cancel_fee(&st, &d, PlayerId(99)));
    assert!(nobody.contains("99"), "{nobody}");
}

#[test]
fn a_fee_stands_once_the_player_is_paired_and_after_round_one_only_the_chief_cancels_one() {
    let (mut st, ids) = kunshan_with_fee(6);
    let d = desk_role();
    // Five pay; the sixth pays only after round 1 is paired (he is not in it).
    let (all, last) = (&ids[..5], ids[5]);
    let (entries, left) =
        desk::for_each(&st, &d, all, |s, c, p| desk::pay_fee(s, c, p, None, None)).unwrap();
    assert!(left.is_empty());
    apply(&mut st, entries);
    let chief = chief_ctx();
    let paired = rounds::pair(&st, &chief, "men", &PairRequest::default()).unwrap();
    apply(&mut st, paired);
    assert_eq!(st.section("men").unwrap().last_round(), 1);

    // Paired in round 1: his fee stands, for everybody.
    let played = ids[0];
    match desk::cancel_fee(&st, &chief, played) {
        Err(DirectorError::Refused(r))
            if matches!(*r, Refusal::FeeCancelAfterPlay { round: 1, .. }) => {}
        other => panic!("expected FeeCancelAfterPlay, got {other:?}"),
    }

    // The late payer, not paired yet: the desk may not cancel his fee after round 1 …
    let out = desk::pay_fee(&st, &d, last, None, None).unwrap();
    apply(&mut st, out);
    match desk::cancel_fee(&st, &d, last) {
        Err(DirectorError::NotAllowed {
            role: Role::Desk, ..
        }) => {}
        other => panic!("expected NotAllowed for the desk, got {other:?}"),
    }
    // … the chief arbiter may.
    let undo = desk::cancel_fee(&st, &chief, last).unwrap();
    apply(&mut st, undo);
    assert_eq!(st.player(last).unwrap().paid_fen, 0);
}

#[test]
fn five_checked_in_at_once_those_already_in_are_left_out_and_named() {
    let (mut st, ids) = kunshan_with_fee(8);
    let d = desk_role();
    let out = desk::check_in(&st, ids[2]).unwrap();
    apply(&mut st, out);
    let five = &ids[..5];
    let (entries, left) = desk::for_each(&st, &d, five, |s, _, p| desk::check_in(s, p)).unwrap();
    // Four entries (P3 was in already), appended together.
    assert_eq!(entries.len(), 4);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].0, ids[2]);
    assert!(left[0].1.to_string().contains("已检录"), "{}", left[0].1);
    apply(&mut st, entries);
    assert!(five.iter().all(|p| st.player(*p).unwrap().checked_in));
    assert!(ids[5..].iter().all(|p| !st.player(*p).unwrap().checked_in));
    // Nobody chosen, or nobody left to do: refused.
    let none =
        refusal(desk::for_each(&st, &d, &[], |s, _, p| desk::check_in(s, p)).map(|(e, _)| e));
    assert!(none.contains("请先选择"), "{none}");
    let done =
        refusal(desk::for_each(&st, &d, five, |s, _, p| desk::check_in(s, p)).map(|(e, _)| e));
    assert!(done.contains("已检录"), "{done}");
}

#[test]
fn pairing_warns_of_players_who_paid_but_are_not_checked_in() {
    let (mut st, ids) = kunshan_with_fee(6);
    let d = desk_role();
    let (fees, _) =
        desk::for_each(&st, &d, &ids, |s, c, p| desk::pay_fee(s, c, p, None, None)).unwrap();
    apply(&mut st, fees);
    let (ins, _) = desk::for_each(&st, &d, &ids[..3], |s, _, p| desk::check_in(s, p)).unwrap();
    apply(&mut st, ins);
    // Withdrawn players are not named.
    let out = desk::withdraw(&st, &chief_ctx(), ids[5], "生病").unwrap();
    apply(&mut st, out);

    let w = desk::not_checked_in_warning(&st, "men").expect("a warning");
    assert!(
        w.starts_with("2人已缴费未签到: 棋手04 (P4), 棋手05 (P5)"),
        "{w}"
    );
    assert_eq!(
        desk::why_not_paired(&st, ids[3]),
        vec![NotPaired::NotCheckedIn]
    );
    assert!(desk::why_not_paired(&st, ids[0]).is_empty());
    assert!(matches!(
        desk::why_not_paired(&st, ids[5]).as_slice(),
        [NotPaired::Withdrawn { reason }] if reason == "生病"
    ));
    // The pairing tells it too.
    let out = rounds::pair_explained(&st, &chief_ctx(), "men", &PairRequest::default()).unwrap();
    assert!(out.notes.iter().any(|n| n == &w), "{:?}", out.notes);
    // Everybody checked in: no warning.
    let (rest, _) = desk::for_each(&st, &d, &ids[3..5], |s, _, p| desk::check_in(s, p)).unwrap();
    apply(&mut st, rest);
    assert_eq!(desk::not_checked_in_warning(&st, "men"), None);
}
