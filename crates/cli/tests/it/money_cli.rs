//! Money at the desk from the command line: `fee --item`, `refund` (one player's deposit, a
//! fee refused, more than held refused), `refund-condition`, and `cash` (text and `--json`).

use crate::common::*;

const COUNTY: &str = include_str!("../fixtures/county-money.toml");

const AT: &str = "2026-09-01T10:00:00+08:00";

#[test]
fn money_cli_pay_items_refund_and_cash_report() {
    let env = EventDir::new(COUNTY);
    let id = env.create();
    env.ok(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "张三",
        "--flag",
        "local",
        "--at",
        AT,
    ]);
    env.ok(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "李四",
        "--at",
        AT,
    ]);
    env.ok(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "王五",
        "--at",
        AT,
    ]);
    // The summary lists the items.
    let sum = ok(&[
        "regulation",
        "check",
        env.path("reg.toml").to_str().unwrap(),
    ]);
    assert!(sum.contains("收费项目 押金 (押金): 200元"), "{sum}");
    // A local owes nothing.
    let err = env.refused(&["fee", "--event", &id, "--player", "P1", "--item", "押金"]);
    assert!(err.contains("免缴「押金」"), "{err}");
    // The fee, then the deposit: no longer refused as a second payment.
    let out = env.ok(&["fee", "--event", &id, "--player", "P2", "--at", AT]);
    assert!(out.contains("已缴「报名费」"), "{out}");
    let out = env.ok(&[
        "fee", "--event", &id, "--player", "P2", "--item", "押金", "--amount", "150", "--at", AT,
    ]);
    assert!(out.contains("尚欠 50元"), "{out}");
    env.ok(&[
        "fee", "--event", &id, "--player", "P2", "--item", "押金", "--at", AT,
    ]);
    env.ok(&[
        "fee",
        "--event",
        &id,
        "--player",
        "P3",
        "--item",
        "报名费",
        "--at",
        AT,
    ]);
    let paid = env.entries_of(&id, "fee_paid");
    assert_eq!(paid.len(), 4);
    assert_eq!(paid[1]["item"], "押金");
    // Refunds: a fee refused, more than held refused, then the deposit by its condition.
    let err = env.refused(&[
        "refund",
        "--event",
        &id,
        "--player",
        "P2",
        "--item",
        "报名费",
    ]);
    assert!(err.contains("不退还"), "{err}");
    let err = env.refused(&[
        "refund", "--event", &id, "--player", "P2", "--amount", "300",
    ]);
    assert!(err.contains("只有 200元 可退"), "{err}");
    let err = env.refused(&["refund", "--event", &id, "--due", "on_conditions"]);
    assert!(err.contains("没有应按"), "{err}");
    env.ok(&[
        "refund-condition",
        "--event",
        &id,
        "--player",
        "P2",
        "--condition",
        "完成全部对局",
        "--at",
        AT,
    ]);
    let out = env.ok(&[
        "refund",
        "--event",
        &id,
        "--due",
        "on_conditions",
        "--at",
        AT,
    ]);
    assert!(
        out.contains("已退还「押金」 refunded 「押金」: 李四 (P2) 200元")
            || out.contains("已退还「押金」"),
        "{out}"
    );
    assert_eq!(env.entries_of(&id, "deposit_refunded").len(), 1);
    // The cash report, from the roster: two visitors owe 100 + 200 each.
    let visitors = 2u64;
    let text = env.ok(&["cash", "--event", &id]);
    assert!(text.contains("收支表"), "{text}");
    assert!(
        !text.contains("张三") && !text.contains("李四"),
        "a name in the report: {text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["cash", "--event", &id, "--json"])).unwrap();
    let fee = &json["items"][0];
    let dep = &json["items"][1];
    assert_eq!(fee["due_fen"], visitors * 10_000);
    assert_eq!(fee["collected_fen"], visitors * 10_000);
    assert_eq!(dep["due_fen"], visitors * 20_000);
    assert_eq!(dep["collected_fen"], 20_000);
    assert_eq!(dep["refunded_fen"], 20_000);
    assert_eq!(dep["owed_fen"], 20_000);
    assert_eq!(json["total"]["held_fen"], visitors * 10_000);
    assert!(
        text.contains("合计 | 600.00元 | 400.00元 | 200.00元 | 200.00元 | 200.00元"),
        "{text}"
    );
}

/// A player who paid and withdrew: his money stays in 已收 while his dues leave 应收, and the
/// report says so — per withdrawn player 「已退赛, 已收 X 元 (未退款)」 and a line 「退赛选手已收」
/// so the sums reconcile (a fee is never refunded; only a deposit is).
#[test]
fn cash_report_says_what_withdrawn_players_paid_and_kept() {
    let env = EventDir::new(COUNTY);
    let id = env.create();
    for name in ["李四", "王五"] {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--at",
            AT,
        ]);
    }
    for p in ["P1", "P2"] {
        env.ok(&["fee", "--event", &id, "--player", p, "--at", AT]);
    }
    env.ok(&[
        "fee", "--event", &id, "--player", "P1", "--item", "押金", "--at", AT,
    ]);
    env.ok(&[
        "player", "withdraw", "--event", &id, "--player", "P2", "--reason", "伤病", "--at", AT,
    ]);
    let text = env.ok(&["cash", "--event", &id]);
    // 应收 counts 李四 only (100 + 200); 已收 counts both fees and 李四's deposit.
    assert!(
        text.contains("合计 | 300.00元 | 400.00元 | 0.00元 | 0.00元 | 400.00元"),
        "{text}"
    );
    assert!(
        text.contains("其中 退赛选手已收 (of which, from withdrawn players) | — | 100.00元 | 0.00元 | — | 100.00元 | 1"),
        "{text}"
    );
    assert!(
        text.contains("王五 [公开组]: 已退赛, 已收 100.00元 (未退款)"),
        "{text}"
    );
    assert!(
        !text.contains("李四"),
        "only withdrawn players are named: {text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["cash", "--event", &id, "--json"])).unwrap();
    let total = &json["total"];
    let w = &json["withdrawn_total"];
    // The sums reconcile: collected = (due − owed) + collected from the withdrawn.
    assert_eq!(
        total["collected_fen"].as_u64().unwrap(),
        total["due_fen"].as_u64().unwrap() - total["owed_fen"].as_u64().unwrap()
            + w["collected_fen"].as_u64().unwrap()
    );
    assert_eq!(json["withdrawn"][0]["held_fen"], 10_000);
}
