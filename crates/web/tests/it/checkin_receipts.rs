//! Issue 47: the entry receipt (报名回执) of a player registered at the desk, who has no entry
//! status page. Tianshui sets a check-in: the desk's print page gives each player a receipt
//! with his name, section, 报名号 and unit — no ID number, no phone — his check-in code and
//! the check-in page's address; the code read off the receipt opens the phone's check-in page
//! and checks him in. Kunshan sets no check-in: the receipts are refused in words.

use crate::checkin_phone::tianshui_online;
use crate::common::{request, TestServer};
use crate::desk::{login, register_men, with_accounts};
use arbiter_store::EventStore;

/// The check-in code printed on `name`'s receipt in `html`: the line 「签到码 CODE」 of the
/// block headed 「报名回执 · name」.
fn code_on_receipt(html: &str, name: &str) -> String {
    let block = html
        .split("<div class=\"keep\">")
        .find(|b| b.contains(&format!("<h3>报名回执 · {name}</h3>")))
        .unwrap_or_else(|| panic!("no receipt of {name}: {html}"));
    let after = block
        .split("<p>签到码 ")
        .nth(1)
        .unwrap_or_else(|| panic!("no code on the receipt of {name}: {block}"));
    after.split("</p>").next().unwrap_or_default().to_string()
}

#[test]
fn a_player_registered_at_the_desk_checks_in_with_the_code_on_his_receipt() {
    let mut out = None;
    let s = TestServer::start_with(|store| {
        with_accounts(store);
        out = Some(tianshui_online(store));
    });
    let (ev, _) = out.expect("event");
    let desk = login(&s, "desk");
    let r = desk.get(&s, &format!("/desk/e/{ev}/print?doc=entry-receipts"));
    assert_eq!(r.status, 200, "{}", r.text());
    let html = r.text();
    let st = s.store().state(&ev).expect("state");
    let (&pid, rec) = st
        .players
        .iter()
        .find(|(_, r)| r.person.name == "棋手01")
        .expect("a player registered at the desk");
    assert!(!rec.checked_in);
    // Every player entered has a receipt; none shows an ID number or a phone.
    for p in st.players.values() {
        assert!(
            html.contains(&format!("<h3>报名回执 · {}</h3>", p.person.name)),
            "{html}"
        );
        if let Some(id) = &p.person.id_number {
            assert!(!html.contains(id.as_str()), "an ID number on a receipt");
        }
        if let Some(ph) = &p.person.phone {
            assert!(!html.contains(ph.as_str()), "a phone on a receipt");
        }
    }
    let code = code_on_receipt(&html, "棋手01");
    assert!(
        html.contains(&format!(r#"<td class="l">P{}</td>"#, pid.0)),
        "the 报名号: {html}"
    );
    assert!(
        html.contains(&format!("/e/{ev}/checkin 输入签到码 {code} 手机签到")),
        "{html}"
    );
    // The same code as the status page of an online entry would show.
    assert_eq!(code, crate::checkin_phone::code_of(&s, &ev, pid));

    // On the phone: the page the code opens names him; checking in records it.
    let page = s.get(&format!("/e/{ev}/checkin?c={code}"));
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("棋手01"), "{}", page.text());
    let body = crate::common::desk::form(&[("code", &code), ("pledge", "1"), ("checkin", "1")]);
    let r = request(
        s.addr,
        "POST",
        &format!("/e/{ev}/checkin"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("签到成功"), "{}", r.text());
    let st = s.store().state(&ev).expect("state");
    assert!(st.player(pid).expect("player").checked_in);
}

#[test]
fn without_a_check_in_in_the_regulation_the_receipts_are_refused_in_words() {
    let s = TestServer::start_with(with_accounts);
    let chief = login(&s, "chief");
    let ev = crate::desk::create_kunshan(&s, &chief);
    register_men(&s, &chief, &ev, 4);
    let r = chief.get(&s, &format!("/desk/e/{ev}/print?doc=entry-receipts"));
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("本赛事规程未安排报到"), "{}", r.text());
}
