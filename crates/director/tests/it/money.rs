//! Money items at the desk: a fee and a deposit by name, locals free, part payments, what
//! pairing asks before play, refunds of a deposit (never of a fee, never more than held), the
//! organiser's refund conditions, and the cash report.

use crate::common;

use arbiter_core::{EventState, LogEntry, PlayerId, PlayerStatus};
use arbiter_director::api::entries as desk;
use arbiter_director::api::money;
use arbiter_director::registration::{event_created, EntryForm};
use arbiter_director::{apply_scratch, Refusal};
use arbiter_regulation::RefundAt;
use common::*;

/// A county open: 报名费 100 yuan and a 押金 of 200 yuan for players from elsewhere, locals
/// free of both; unpaid players are not paired.
pub const COUNTY: &str = include_str!("../fixtures/county-money.toml");

fn county(n: u32, locals: u32) -> (EventState, Vec<PlayerId>) {
    let reg = arbiter_regulation::parse(COUNTY, "county.toml").unwrap();
    let mut state = EventState::new();
    let e = event_created(&reg, COUNTY, "county.toml", 7);
    apply_scratch(&mut state, &e, &desk_ctx().at_rfc3339()).unwrap();
    let mut ids = Vec::new();
    for k in 1..=n {
        let form = EntryForm {
            section: "open".into(),
            name: format!("棋手{k:02}"),
            sex: None,
            birth: None,
            id_number: None,
            phone: None,
            unit: None,
            association: None,
            team: None,
            evidence: vec![],
            flags: if k <= locals {
                vec!["local".into()]
            } else {
                vec![]
            },
            rating: None,
            grade: None,
            late_reason: None,
            social_security: None,
        };
        let out = desk::register(&state, &desk_ctx(), &form).unwrap();
        match &out[0] {
            LogEntry::PlayerRegistered(r) => ids.push(r.player),
            other => panic!("not registered: {other:?}"),
        }
        apply(&mut state, out);
    }
    (state, ids)
}

fn refused(r: Result<Vec<LogEntry>, arbiter_director::DirectorError>) -> Refusal {
    match r {
        Err(arbiter_director::DirectorError::Refused(r)) => *r,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn money_fee_then_deposit_by_name_locals_free() {
    let (mut st, ids) = county(3, 1);
    let (local, visitor) = (ids[0], ids[1]);
    let d = desk_ctx();
    // A local owes nothing and is paired without paying.
    assert_eq!(st.status(local), Some(PlayerStatus::Active));
    assert!(matches!(
        refused(money::pay(&st, &d, local, Some("押金"), None, None)),
        Refusal::NotOwed { .. }
    ));
    // A visitor owes both; without an item the first he owes: the fee, then the deposit.
    assert_eq!(st.status(visitor), Some(PlayerStatus::Unpaid));
    let out = money::pay(&st, &d, visitor, None, None, Some("No.1")).unwrap();
    assert_eq!(
        out,
        vec![LogEntry::FeePaid {
            player: visitor,
            amount_fen: 10_000,
            receipt: Some("No.1".into()),
            item: Some("报名费".into()),
        }]
    );
    apply(&mut st, out);
    // The deposit is due before play too: still unpaid.
    assert_eq!(st.status(visitor), Some(PlayerStatus::Unpaid));
    let why = desk::why_not_paired(&st, visitor);
    assert_eq!(
        why,
        vec![desk::NotPaired::Unpaid {
            due_fen: 30_000,
            paid_fen: 10_000
        }]
    );
    // The deposit is no longer refused as a second payment: a part, then the rest.
    let out = desk::pay_fee(&st, &d, visitor, Some(5_000), None).unwrap();
    assert!(
        matches!(&out[0], LogEntry::FeePaid { item: Some(i), amount_fen: 5_000, .. } if i == "押金")
    );
    apply(&mut st, out);
    let out = money::pay(&st, &d, visitor, Some("押金"), None, None).unwrap();
    assert!(matches!(
        &out[0],
        LogEntry::FeePaid {
            amount_fen: 15_000,
            ..
        }
    ));
    apply(&mut st, out);
    assert_eq!(st.status(visitor), Some(PlayerStatus::Active));
    // Both paid: a third payment is refused with the item.
    let r = refused(money::pay(&st, &d, visitor, Some("押金"), None, None));
    assert!(r.to_string().contains("已缴「押金」200元"), "{r}");
    // An item the regulation does not name, with those it does.
    let r = refused(money::pay(&st, &d, visitor, Some("保证金"), None, None));
    assert!(r.to_string().contains("「报名费」、「押金」"), "{r}");
}

#[test]
fn money_refund_only_a_deposit_and_never_more_than_held() {
    let (mut st, ids) = county(2, 0);
    let p = ids[0];
    let d = desk_ctx();
    for item in ["报名费", "押金"] {
        let out = money::pay(&st, &d, p, Some(item), None, None).unwrap();
        apply(&mut st, out);
    }
    let r = refused(money::refund(&st, p, "报名费", None, None));
    assert!(matches!(r, Refusal::RefundOfFee { .. }), "{r}");
    assert!(r.to_string().contains("不退还"), "{r}");
    let r = refused(money::refund(&st, p, "押金", Some(30_000), None));
    assert!(
        r.to_string().contains("只有 200元 可退, 不能退还 300元"),
        "{r}"
    );
    // Nothing held by the other player.
    let r = refused(money::refund(&st, ids[1], "押金", None, None));
    assert!(r.to_string().contains("没有可退还的「押金」"), "{r}");
    // A part, then the rest.
    let out = money::refund(&st, p, "押金", Some(5_000), Some("损坏棋具扣除")).unwrap();
    apply(&mut st, out);
    let out = money::refund(&st, p, "押金", None, None).unwrap();
    assert!(matches!(
        &out[0],
        LogEntry::DepositRefunded {
            amount_fen: 15_000,
            ..
        }
    ));
    apply(&mut st, out);
    let m = st.player(p).unwrap().money["押金"];
    assert_eq!(
        (m.paid_fen, m.refunded_fen, m.held_fen()),
        (20_000, 20_000, 0)
    );
    // A refund does not make him owe again.
    assert_eq!(st.status(p), Some(PlayerStatus::Active));
}

#[test]
fn money_refund_due_waits_for_the_last_round_and_the_conditions() {
    let (mut st, ids) = county(2, 0);
    let p = ids[0];
    let d = desk_ctx();
    let out = money::pay(&st, &d, p, Some("押金"), None, None).unwrap();
    apply(&mut st, out);
    // Before the last round is played.
    let r = refused(money::refund_due(&st, RefundAt::LastRound));
    assert!(matches!(r, Refusal::RefundNotYet { .. }), "{r}");
    assert!(r.to_string().contains("公开组 尚未赛完最后一轮"), "{r}");
    // A condition the regulation does not name.
    let r = refused(money::mark_condition(&st, p, "完成对局", true));
    assert!(r.to_string().contains("「完成全部对局」「未弃权」"), "{r}");
    for c in ["完成全部对局", "未弃权"] {
        let out = money::mark_condition(&st, p, c, true).unwrap();
        apply(&mut st, out);
    }
    assert_eq!(st.player(p).unwrap().conditions.len(), 2);
}

#[test]
fn money_cash_report_per_item_and_total() {
    let (mut st, ids) = county(4, 1);
    let d = desk_ctx();
    // Visitors 2 and 3 pay both, visitor 4 the fee only; 2 gets 50 yuan of his deposit back.
    for (p, item) in [
        (ids[1], "报名费"),
        (ids[1], "押金"),
        (ids[2], "报名费"),
        (ids[2], "押金"),
        (ids[3], "报名费"),
    ] {
        let out = money::pay(&st, &d, p, Some(item), None, None).unwrap();
        apply(&mut st, out);
    }
    let out = money::refund(&st, ids[1], "押金", Some(5_000), None).unwrap();
    apply(&mut st, out);
    let r = money::cash_report(&st).unwrap();
    let fee = &r.items[0];
    let dep = &r.items[1];
    assert_eq!(
        (
            fee.due_fen,
            fee.collected_fen,
            fee.refunded_fen,
            fee.owed_fen,
            fee.held_fen
        ),
        (30_000, 30_000, 0, 0, 30_000)
    );
    assert_eq!(
        (
            dep.due_fen,
            dep.collected_fen,
            dep.refunded_fen,
            dep.owed_fen,
            dep.held_fen
        ),
        (60_000, 40_000, 5_000, 20_000, 35_000)
    );
    assert_eq!(r.total.held_fen, 65_000);
    assert_eq!(r.total.collected_fen, 70_000);
    let text = r.text();
    assert!(
        text.contains("押金 (押金) | 600.00元 | 400.00元 | 50.00元 | 200.00元 | 350.00元 | 2"),
        "{text}"
    );
    assert!(!text.contains("棋手"), "a name in the totals: {text}");
    assert_eq!(money::yuan_exact(125_000), "1,250.00元");
}

#[test]
fn money_a_single_fee_is_recorded_as_before() {
    let mut st = event_with("kunshan-2026", |s| {
        s.replace("[registration]\n", "[registration]\nfee = { yuan = 100 }\n")
    });
    let form = EntryForm {
        section: "men".into(),
        name: "张三".into(),
        sex: None,
        birth: None,
        id_number: Some(man_id(1)),
        phone: Some("13912340001".into()),
        unit: Some("单位1".into()),
        association: None,
        team: None,
        evidence: vec!["社保证明".into()],
        flags: vec![],
        rating: None,
        grade: None,
        late_reason: None,
        social_security: Some(man_id(1)),
    };
    let out = desk::register(&st, &desk_ctx(), &form).unwrap();
    let p = match &out[0] {
        LogEntry::PlayerRegistered(r) => r.player,
        other => panic!("{other:?}"),
    };
    apply(&mut st, out);
    let out = money::pay(&st, &desk_ctx(), p, Some("报名费"), None, None).unwrap();
    assert!(matches!(
        &out[0],
        LogEntry::FeePaid {
            item: None,
            amount_fen: 10_000,
            ..
        }
    ));
    apply(&mut st, out);
    assert_eq!(st.player(p).unwrap().money["报名费"].paid_fen, 10_000);
    let r = refused(money::pay(&st, &desk_ctx(), p, Some("押金"), None, None));
    assert!(matches!(r, Refusal::UnknownCharge { .. }), "{r}");
    let r = refused(money::refund(&st, p, "报名费", None, None));
    assert!(matches!(r, Refusal::RefundOfFee { .. }), "{r}");
    let cash = money::cash_report(&st).unwrap();
    assert_eq!(cash.total.collected_fen, 10_000);
}

/// Two sections: locals (free) and an open section of visitors who pay the fee and the
/// deposit; the deposit comes back after the last round to those who played on.
const SIMULATED: &str = include_str!("../fixtures/simulated-money.toml");

#[test]
fn money_simulated_event_fills_the_cash_report_as_the_rules_imply() {
    let mut sim = simulator_of(SIMULATED, "county", 3, &sizes_all(12));
    let (_, st) = sim.run_in_memory().unwrap_or_else(|e| panic!("{e}"));
    let players: Vec<_> = st.players.values().collect();
    let visitors: Vec<_> = players
        .iter()
        .filter(|p| !p.local && !p.flags.contains(&"local".to_string()))
        .collect();
    let locals = players.len() - visitors.len();
    assert!(
        !visitors.is_empty() && locals > 0,
        "{} visitors, {locals} locals",
        visitors.len()
    );
    let stayed = visitors.iter().filter(|p| p.withdrawn.is_none()).count() as u64;
    let all = visitors.len() as u64;
    let r = money::cash_report(&st).unwrap();
    let (fee, dep) = (&r.items[0], &r.items[1]);
    // Every visitor paid both; locals nothing.
    assert_eq!(fee.collected_fen, all * 10_000);
    assert_eq!(dep.collected_fen, all * 20_050);
    assert_eq!(fee.payers as u64 + dep.payers as u64, 2 * all);
    // Those who played on got the deposit back; a withdrawn player's is still held.
    assert_eq!(dep.refunded_fen, stayed * 20_050);
    assert_eq!(dep.held_fen, (all - stayed) * 20_050);
    assert_eq!(r.total.owed_fen, 0);
    assert_eq!(r.total.held_fen, all * 10_000 + (all - stayed) * 20_050);
}
