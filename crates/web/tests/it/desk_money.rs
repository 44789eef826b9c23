//! Money items at the desk: the 缴费 form offers the items a player still owes, a deposit
//! has its 退押金 button, and the cash report is the organiser's and the chief arbiter's only.

use crate::common;
use crate::desk::{entries_of, flash, login, with_accounts, Browser};
use common::TestServer;

const COUNTY: &str = r#"[event]
name = "县象棋公开赛"
start = 2027-10-01
end = 2027-10-02

[registration]
unpaid_not_paired = true

[[registration.charges]]
name = "报名费"
kind = "fee"
yuan = 100
free_for_flags = ["local"]

[[registration.charges]]
name = "押金"
kind = "deposit"
yuan = 200
free_for_flags = ["local"]
refund_at = "last_round"

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }

[[sections.categories]]
id = "local"
name = "本地棋手"
flag = "local"
"#;

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
