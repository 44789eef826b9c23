//! Money items at the desk: the 缴费 form offers the items a player still owes, a deposit
//! has its 退押金 button, and the cash report is the organiser's and the chief arbiter's only.

use crate::common;
use crate::desk::{entries_of, flash, login, with_accounts, Browser};
use common::TestServer;

const COUNTY: &str = include_str!("../fixtures/county-money.toml");

fn create(s: &TestServer, chief: &Browser) -> String {
    let r = chief.post(s, "/desk/events", &[("preset", ""), ("toml", COUNTY)]);
    assert_eq!(r.status, 303, "{}", r.text());
    let loc = r.header("location").expect("location");
    let ev = loc.strip_prefix("/desk/e/").expect("event page");
    ev.split('?').next().expect("id").to_string()
}

#[test]
fn desk_money_items_refund_and_the_organisers_cash_report() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let org = login(&s, "org");
    let ev = create(&s, &chief);
    let add = format!("/desk/e/{ev}/s/open/entries");
    let (ok, msg) = flash(&chief.post(&s, &add, &[("name", "张三"), ("flag.local", "1")]));
    assert!(ok, "{msg}");
    let (ok, msg) = flash(&chief.post(&s, &add, &[("name", "李四")]));
    assert!(ok, "{msg}");
    // The visitor's row offers both items; the local's none.
    let list = desk.get(&s, &add).text();
    assert!(
        list.contains("<select name=\"item\" aria-label=\"收费项目\"><option>报名费</option><option>押金</option></select>"),
        "{list}"
    );
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/2/fee"), &[("item", "押金")]));
    assert!(ok && msg.contains("已缴「押金」 200元"), "{msg}");
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/fee"), &[("item", "押金")]));
    assert!(!ok && msg.contains("免缴「押金」"), "{msg}");
    // The deposit held has its refund button; a fee is refused.
    let list = desk.get(&s, &add).text();
    assert!(list.contains(&format!("/desk/e/{ev}/p/2/refund")), "{list}");
    let (ok, msg) = flash(&desk.post(
        &s,
        &format!("/desk/e/{ev}/p/2/refund"),
        &[("item", "报名费")],
    ));
    assert!(!ok && msg.contains("不退还"), "{msg}");
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/2/refund"), &[("item", "押金")]));
    assert!(ok && msg.contains("已退还「押金」 200元"), "{msg}");
    assert_eq!(entries_of(&s, &ev, "deposit_refunded").len(), 1);
    // The cash report: the organiser's, not the desk's; no player named.
    let cash = format!("/desk/e/{ev}/cash");
    assert_eq!(desk.get(&s, &cash).status, 403);
    let page = org.get(&s, &cash);
    assert_eq!(page.status, 200);
    let text = page.text();
    assert!(text.contains("押金 (押金)</td><td>200.00元</td><td>200.00元</td><td>200.00元</td><td>0.00元</td><td>0.00元</td><td>1</td>"), "{text}");
    assert!(
        text.contains(
            "报名费 (费用)</td><td>100.00元</td><td>0.00元</td><td>0.00元</td><td>100.00元</td>"
        ),
        "{text}"
    );
    assert!(!text.contains("李四") && !text.contains("张三"), "{text}");
    // Deposits at the last round: not before it is played.
    let (ok, msg) = flash(&org.post(&s, &cash, &[("rule", "last_round")]));
    assert!(!ok && msg.contains("尚未赛完最后一轮"), "{msg}");
}

const ON_CONDITIONS: &str = include_str!("../fixtures/deposit-on-conditions.toml");

#[test]
fn desk_refund_conditions_are_marked_on_the_players_page_and_the_cash_report() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let desk = login(&s, "desk");
    let org = login(&s, "org");
    let r = chief.post(
        &s,
        "/desk/events",
        &[("preset", ""), ("toml", ON_CONDITIONS)],
    );
    assert_eq!(r.status, 303, "{}", r.text());
    let ev = r
        .header("location")
        .and_then(|l| l.strip_prefix("/desk/e/"))
        .and_then(|l| l.split('?').next())
        .expect("event page")
        .to_string();
    let add = format!("/desk/e/{ev}/s/open/entries");
    for name in ["李四", "王五"] {
        let (ok, msg) = flash(&chief.post(&s, &add, &[("name", name)]));
        assert!(ok, "{msg}");
    }
    let (ok, msg) = flash(&desk.post(&s, &format!("/desk/e/{ev}/p/1/fee"), &[("item", "押金")]));
    assert!(ok && msg.contains("已缴「押金」 200元"), "{msg}");

    // The player's page: the deposit held, its rule, each condition not met with its button.
    let p1 = format!("/desk/e/{ev}/p/1");
    let page = org.get(&s, &p1).text();
    assert!(page.contains("押金与退还条件"), "{page}");
    assert!(
        page.contains("应缴 200.00元 · 现存 200.00元 · 条件满足即退还"),
        "{page}"
    );
    assert_eq!(page.matches("✗ 未满足").count(), 2, "{page}");
    assert_eq!(
        page.matches(&format!("action=\"{p1}/condition\"")).count(),
        2,
        "{page}"
    );
    // The registration desk sees the conditions but marks none: the organiser's decision.
    let seen = desk.get(&s, &p1).text();
    assert!(
        seen.contains("✗ 未满足") && !seen.contains("/condition\""),
        "{seen}"
    );
    let cond = format!("{p1}/condition");
    let r = desk.post(&s, &cond, &[("condition", "未弃权"), ("met", "1")]);
    assert_eq!(r.status, 403, "{}", r.text());

    // A condition the regulation does not name: the director's refusal, on the page.
    let (ok, msg) = flash(&org.post(&s, &cond, &[("condition", "完成对局"), ("met", "1")]));
    assert!(
        !ok && msg.contains("退还条件「完成对局」不是本规程的条件")
            && msg.contains("「完成全部对局」「未弃权」"),
        "{msg}"
    );
    let (ok, msg) = flash(&org.post(&s, &cond, &[("condition", "未弃权"), ("met", "yes")]));
    assert!(!ok && msg.contains("met 「yes」"), "{msg}");
    assert!(entries_of(&s, &ev, "refund_condition_marked").is_empty());

    // Marked on the player's page: shown met, with its take-back button.
    let r = org.post(&s, &cond, &[("condition", "完成全部对局"), ("met", "1")]);
    assert!(
        r.header("location")
            .is_some_and(|l| l.starts_with(&format!("{p1}?ok="))),
        "{:?}",
        r.header("location")
    );
    let (ok, msg) = flash(&r);
    assert!(
        ok && msg.contains("李四 已确认退还条件「完成全部对局」"),
        "{msg}"
    );
    let page = org.get(&s, &p1).text();
    assert!(
        page.contains("<tr><th>完成全部对局</th><td><b class=\"met\">✓ 已满足</b>"),
        "{page}"
    );
    assert!(
        page.contains("<tr><th>未弃权</th><td><span class=\"unmet\">✗ 未满足</span>"),
        "{page}"
    );
    assert!(
        page.contains("name=\"met\" value=\"0\"><button class=\"undo\">取消</button>"),
        "{page}"
    );

    // One condition short: nothing is due back yet.
    let cash = format!("/desk/e/{ev}/cash");
    let (ok, msg) = flash(&org.post(&s, &cash, &[("rule", "on_conditions")]));
    assert!(!ok, "{msg}");
    assert!(entries_of(&s, &ev, "deposit_refunded").is_empty());

    // The cash report's table: the holder against the conditions (王五 holds nothing).
    let text = org.get(&s, &cash).text();
    assert!(
        text.contains("<th>棋手</th><th>完成全部对局</th><th>未弃权</th>"),
        "{text}"
    );
    assert!(
        text.contains(&format!("<a href=\"{p1}#deposit\">")),
        "{text}"
    );
    assert!(
        text.contains("✓ 已满足</button>") && text.contains("☐ 确认</button>"),
        "{text}"
    );
    assert!(!text.contains("王五"), "{text}");
    // Marked from the cash report, taken back, marked again: back to the report each time.
    for met in ["1", "0", "1"] {
        let r = org.post(
            &s,
            &cond,
            &[("condition", "未弃权"), ("met", met), ("back", "cash")],
        );
        assert!(
            r.header("location")
                .is_some_and(|l| l.starts_with(&format!("{cash}?ok="))),
            "{:?}",
            r.header("location")
        );
        let (ok, msg) = flash(&r);
        let word = if met == "1" { "已确认" } else { "已取消" };
        assert!(
            ok && msg.contains(&format!("李四 {word}退还条件「未弃权」")),
            "{msg}"
        );
    }
    let marks = entries_of(&s, &ev, "refund_condition_marked");
    assert_eq!(marks.len(), 4);
    assert!(marks.iter().all(|(actor, _)| actor == "org"), "{marks:?}");
    let text = org.get(&s, &cash).text();
    assert_eq!(text.matches("✓ 已满足</button>").count(), 2, "{text}");

    // Every condition marked: the deposit is refunded by its rule.
    let (ok, msg) = flash(&org.post(&s, &cash, &[("rule", "on_conditions")]));
    assert!(ok && msg.contains("已退还押金 1 笔"), "{msg}");
    let refunded = entries_of(&s, &ev, "deposit_refunded");
    assert_eq!(refunded.len(), 1);
    match &refunded[0].1 {
        arbiter_core::LogEntry::DepositRefunded {
            player,
            item,
            amount_fen,
            ..
        } => {
            assert_eq!((player.0, item.as_str(), *amount_fen), (1, "押金", 20000));
        }
        e => panic!("{e:?}"),
    }
    let page = org.get(&s, &p1).text();
    assert!(page.contains("现存 0.00元"), "{page}");
    // Nothing held: nobody is left in the report's table.
    let text = org.get(&s, &cash).text();
    assert!(text.contains("尚无棋手持有须按条件退还的押金"), "{text}");
}
