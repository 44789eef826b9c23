//! Issue 47: check-in by phone (`/e/{ev}/checkin`) where the regulation sets a check-in.
//! Tianshui (报到 7月25日, the 个人安全承诺书 signed at check-in): a player whose online
//! entry the desk approved finds his check-in code on his entry's status page, opens the
//! check-in page on the phone, and checks in with the pledge ticked — the desk's command,
//! recorded as the players' phones; unticked, the director refuses in words. Codes tried as an
//! attacker would are refused and an address that keeps guessing waits. Kunshan sets no
//! check-in: the page refuses.

use crate::browser_checkin::{id_number, tianshui};
use crate::common;

use arbiter_core::{LogEntry, PlayerId};
use arbiter_director::api::entries as desk;
use arbiter_director::api::{Ctx, Role as DeskRole};
use arbiter_director::registration::EntryForm;
use arbiter_store::{AccountStore, EventId, EventStore, SqliteStore};
use common::desk::form;
use common::{request_from, Response, TestServer};
use std::net::{IpAddr, Ipv4Addr};

/// The status token of the online entry.
pub(crate) const TOKEN: &str = "the-status-token-of-this-entry";

/// Tianshui with three players registered and paid at the desk, and a fourth, 网上棋手,
/// entered online (status page `/e/{ev}/entry/status/{TOKEN}`) and approved by the desk.
/// Nobody is checked in. The event and the online player.
pub(crate) fn tianshui_online(store: &SqliteStore) -> (EventId, PlayerId) {
    let ev = tianshui(store, 3, 3);
    let at = chrono::NaiveDate::from_ymd_opt(2024, 7, 2)
        .and_then(|d| d.and_hms_opt(10, 0, 0))
        .expect("time");
    let ctx = Ctx::new("报名处", DeskRole::Desk, at);
    let append = |entries: Vec<LogEntry>| {
        let expected = store.state(&ev).expect("state").last_seq;
        store
            .append(&ev, expected, &entries, &ctx.actor, &ctx.at_rfc3339())
            .expect("append");
    };
    let entry = EntryForm {
        section: "open".into(),
        name: "网上棋手".into(),
        sex: None,
        birth: None,
        id_number: Some(id_number("19950505", 41)),
        phone: Some("13909380099".into()),
        unit: Some("天水网上队".into()),
        association: None,
        team: None,
        evidence: vec![],
        flags: vec![],
        rating: None,
        grade: None,
        late_reason: None,
        social_security: None,
    };
    let key = arbiter_web::auth::token::token_hash(TOKEN);
    let state = store.state(&ev).expect("state");
    append(desk::submit_keyed(&state, &ctx, &entry, Some(key)).expect("submitted"));
    let state = store.state(&ev).expect("state");
    let (&no, _) = state.submissions.iter().next_back().expect("a submission");
    append(
        desk::approve(&state, &ctx, no, vec!["accident_insurance".into()], None).expect("approved"),
    );
    let state = store.state(&ev).expect("state");
    let (&pid, rec) = state
        .players
        .iter()
        .find(|(_, r)| r.person.name == "网上棋手")
        .expect("the online player");
    assert!(!rec.checked_in);
    (ev, pid)
}

fn boot() -> (TestServer, EventId, PlayerId) {
    let mut out = None;
    let srv = TestServer::start_with(|store| out = Some(tianshui_online(store)));
    let (ev, p) = out.expect("event");
    (srv, ev, p)
}

/// The check-in code of `p`, as the server makes it (the secret made here first).
pub(crate) fn code_of(srv: &TestServer, ev: &EventId, p: PlayerId) -> String {
    let secret = srv
        .store()
        .claim_secret(&ev.0, "a fresh secret of this test")
        .expect("secret");
    arbiter_director::claim::check_in_code(secret.as_bytes(), p)
}

fn local(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

fn get(srv: &TestServer, from: u8, path: &str) -> Response {
    request_from(local(from), srv.addr, "GET", path, &[], None)
}

fn post(srv: &TestServer, ev: &EventId, from: u8, fields: &[(&str, &str)]) -> Response {
    let body = form(fields);
    request_from(
        local(from),
        srv.addr,
        "POST",
        &format!("/e/{ev}/checkin"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    )
}

fn checked_in(srv: &TestServer, ev: &EventId, p: PlayerId) -> bool {
    let st = srv.store().state(ev).expect("state");
    st.player(p).expect("player").checked_in
}

#[test]
fn the_status_page_gives_the_code_and_the_phone_checks_in_with_the_pledge() {
    let (srv, ev, p) = boot();
    let code = code_of(&srv, &ev, p);
    let status = get(&srv, 2, &format!("/e/{ev}/entry/status/{TOKEN}"));
    assert_eq!(status.status, 200);
    let html = status.text();
    assert!(
        html.contains(&format!(r#"<strong id="checkin-code">{code}</strong>"#)),
        "{html}"
    );
    assert!(
        html.contains(&format!(r#"href="/e/{ev}/checkin?c={code}""#)),
        "{html}"
    );

    // The page the link opens: the name, unit and section, the pledge to tick; no ID number
    // and no phone.
    let page = get(
        &srv,
        2,
        &format!("/e/{ev}/checkin?c={}", code.to_lowercase()),
    );
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    let html = page.text();
    assert!(
        html.contains("网上棋手") && html.contains("天水网上队"),
        "{html}"
    );
    assert!(html.contains("《个人安全承诺书》"), "{html}");
    assert!(html.contains(r#"name="pledge""#), "{html}");
    let st = srv.store().state(&ev).expect("state");
    let rec = st.player(p).expect("player");
    let idn = rec.person.id_number.as_ref().expect("ID number");
    assert!(!html.contains(idn.as_str()), "an ID number on the page");
    assert!(!html.contains("13909380099"), "a phone on the page");

    // The pledge unticked: the director refuses, as at the desk.
    let r = post(&srv, &ev, 2, &[("code", &code), ("checkin", "1")]);
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(
        r.text().contains("须签署《个人安全承诺书》"),
        "{}",
        r.text()
    );
    assert!(!checked_in(&srv, &ev, p));

    // Ticked: checked in, by the desk's own entry, as the players' phones.
    let r = post(
        &srv,
        &ev,
        2,
        &[("code", &code), ("pledge", "1"), ("checkin", "1")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("签到成功"), "{}", r.text());
    assert!(
        r.text().contains(r#"<td id="checkin-status">已签到</td>"#),
        "{}",
        r.text()
    );
    assert!(checked_in(&srv, &ev, p));
    let log = srv.store().read(&ev).expect("log");
    let ins: Vec<_> = log
        .iter()
        .filter(|r| matches!(r.entry, LogEntry::CheckedIn { .. }))
        .collect();
    assert_eq!(ins.len(), 1);
    assert_eq!(
        ins[0].entry,
        LogEntry::CheckedIn {
            player: p,
            pledge: true
        }
    );
    assert_eq!(ins[0].actor, arbiter_director::log_view::PHONE);

    // Again: refused in words, nothing written; the status page says so.
    let r = post(
        &srv,
        &ev,
        2,
        &[("code", &code), ("pledge", "1"), ("checkin", "1")],
    );
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("已检录"), "{}", r.text());
    assert_eq!(srv.store().read(&ev).expect("log").len(), log.len());
    let html = get(&srv, 2, &format!("/e/{ev}/entry/status/{TOKEN}")).text();
    assert!(html.contains(r#"id="checkin-done""#), "{html}");
    assert!(!html.contains(&code), "{html}");
}

#[test]
fn check_in_codes_tried_as_an_attacker_would_are_refused_and_guessing_waits() {
    let (srv, ev, p) = boot();
    let mine = code_of(&srv, &ev, p);
    // Another player's code is his own: the code names one player, so a guess is all an
    // attacker has.
    let other = code_of(&srv, &ev, PlayerId(1));
    assert_ne!(mine, other);
    let mut tried = 0;
    for guess in ["23456789", "ABCDEFGH", "not a code"] {
        let r = post(
            &srv,
            &ev,
            9,
            &[("code", guess), ("pledge", "1"), ("checkin", "1")],
        );
        tried += 1;
        assert_eq!(r.status, 403, "{}", r.text());
        assert!(r.text().contains("签到码不正确"), "{}", r.text());
    }
    // A result code is no check-in code.
    let secret = srv.store().claim_secret(&ev.0, "unused").expect("secret");
    let seat = arbiter_director::claim::Seat {
        section: "open".into(),
        round: 1,
        board: 1,
        side: arbiter_types::Colour::Red,
    };
    let result_code = arbiter_director::claim::code(secret.as_bytes(), &seat);
    let r = get(&srv, 9, &format!("/e/{ev}/checkin?c={result_code}"));
    tried += 1;
    assert_eq!(r.status, 403, "{}", r.text());
    while tried < arbiter_web::claim::MAX_WRONG {
        assert_eq!(
            get(&srv, 9, &format!("/e/{ev}/checkin?c=ZZZZZZZZ")).status,
            403
        );
        tried += 1;
    }
    assert!(!checked_in(&srv, &ev, PlayerId(1)));
    // Past the limit the address waits, even with a right code.
    let r = post(
        &srv,
        &ev,
        9,
        &[("code", &mine), ("pledge", "1"), ("checkin", "1")],
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.text().contains("秒后再试"), "{}", r.text());
    assert!(!checked_in(&srv, &ev, p));
    // Another address is not held by it.
    let r = post(
        &srv,
        &ev,
        10,
        &[("code", &mine), ("pledge", "1"), ("checkin", "1")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(checked_in(&srv, &ev, p));
}

#[test]
fn no_check_in_by_phone_where_the_regulation_sets_none() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let (_, text) = arbiter_web::demo::REFERENCE
            .iter()
            .find(|(f, _)| *f == "kunshan-2026.toml")
            .expect("kunshan");
        let how = arbiter_web::demo::PartWay {
            rounds: Some(0),
            sizes: arbiter_simulate::Sizes {
                all: Some(8),
                ..Default::default()
            },
            results_left: usize::MAX,
            ..Default::default()
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "kunshan-2026.toml", &how)
                .expect("simulated"),
        );
    });
    let ev = id.expect("event");
    let code = code_of(&srv, &ev, PlayerId(1));
    let before = srv.store().read(&ev).expect("log").len();
    let r = get(&srv, 2, &format!("/e/{ev}/checkin?c={code}"));
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("未安排报到"), "{}", r.text());
    assert!(!r.text().contains(r#"id="code-form""#), "{}", r.text());
    let r = post(&srv, &ev, 2, &[("code", &code), ("checkin", "1")]);
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(srv.store().read(&ev).expect("log").len(), before);
}
