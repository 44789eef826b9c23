//! The registration desk (报名处) on the day of the event, in headless Chromium, as user
//! stories: the check-in desk works down a long list and the list stays where it was; a
//! check-in made by mistake is taken back; five players are checked in with one click; the
//! chief arbiter is warned before pairing of a player who paid but is not checked in; 查找
//! finds an unpaid player and says why he is not paired; on a 375-px phone the fee and
//! check-in buttons are on the screen; the print page's pickers make the chosen document.
//!
//! Screenshots: with `ARBITER_SCREENSHOTS=DIR` the registration list and the print page are
//! saved there at a phone's size (375×812) and a laptop's (1280×800).

use crate::browser::{
    add_user, body_text, click, fill, log_in, rows, run, text, wait_js, Driver, ONE_AT_A_TIME,
};
use crate::common::TestServer;
use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::entries as desk;
use arbiter_director::api::{Ctx, Role as DeskRole};
use arbiter_director::registration::EntryForm;
use arbiter_store::{EventId, EventStore, Role, SqliteStore};
use fantoccini::{Client, Locator};
use serde_json::json;

const TIANSHUI: &str = include_str!("../../../../regulations/tianshui-2024.toml");

/// A valid ID number (Tianshui 620502, born `born`, sequence `seq`: odd = a man), its check
/// character computed here (ISO 7064 MOD 11-2).
pub(crate) fn id_number(born: &str, seq: u32) -> String {
    let body = format!("620502{born}{seq:03}");
    let sum: u64 = body
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| u64::from(c.to_digit(10).expect("digit")) * ((1u64 << (i + 1)) % 11))
        .sum();
    let v = (12 - sum % 11) % 11;
    let c = if v == 10 {
        'X'
    } else {
        char::from_digit(v as u32, 10).expect("digit")
    };
    format!("{body}{c}")
}

/// The Tianshui open (fee 100 yuan; unpaid players are not paired) with `n` players of the
/// open section registered before the deadline, P1 … Pn named 棋手01 …; the first `paid`
/// have paid their fee. Nobody is checked in.
pub(crate) fn tianshui(store: &SqliteStore, n: u32, paid: u32) -> EventId {
    let (name, created) =
        arbiter_director::api::event::create(TIANSHUI, "tianshui-2024.toml", None)
            .expect("regulation");
    let ev = store.create_event(&name).expect("event");
    let at = chrono::NaiveDate::from_ymd_opt(2024, 7, 1)
        .and_then(|d| d.and_hms_opt(9, 0, 0))
        .expect("time");
    let ctx = Ctx::new("报名处", DeskRole::Desk, at);
    let mut state = EventState::new();
    let append = |state: &mut EventState, entries: Vec<LogEntry>| {
        let expected = state.last_seq;
        store
            .append(&ev, expected, &entries, &ctx.actor, &ctx.at_rfc3339())
            .expect("append");
        for e in entries {
            arbiter_director::apply_scratch(state, &e, &ctx.at_rfc3339()).expect("fold");
        }
    };
    append(&mut state, created);
    for k in 1..=n {
        let form = EntryForm {
            section: "open".into(),
            name: format!("棋手{k:02}"),
            sex: None,
            birth: None,
            id_number: Some(id_number("19900101", 2 * k + 1)),
            // Tianshui requires the phone (报名时需提供姓名、身份证号、手机号).
            phone: Some(format!("139093800{k:02}")),
            unit: Some(format!("天水{}队", k % 5)),
            association: None,
            team: None,
            evidence: vec!["accident_insurance".into()],
            flags: vec![],
            rating: None,
            grade: None,
            late_reason: None,
            social_security: None,
        };
        let out = desk::register(&state, &ctx, &form).expect("registered");
        assert!(
            matches!(out[0], LogEntry::PlayerRegistered(_)),
            "{:?}",
            out[0]
        );
        append(&mut state, out);
    }
    for k in 1..=paid {
        let p = arbiter_core::PlayerId(k);
        let out = desk::pay_fee(&state, &ctx, p, None, None).expect("fee");
        append(&mut state, out);
    }
    ev
}

/// The server with the desk's account, the chief arbiter's, and the event.
fn server(n: u32, paid: u32) -> (TestServer, String) {
    let mut ev = None;
    let srv = TestServer::start_with(|store| {
        add_user(store, "desk", Role::Desk);
        add_user(store, "chief", Role::ChiefArbiter);
        ev = Some(tianshui(store, n, paid));
    });
    let ev = ev.expect("event").0;
    (srv, ev)
}

/// The log entries of one type.
fn entries_of(srv: &TestServer, ev: &str, kind: &str) -> Vec<LogEntry> {
    srv.store()
        .read(&EventId(ev.to_string()))
        .expect("log")
        .into_iter()
        .filter(|r| r.entry.kind() == kind)
        .map(|r| r.entry)
        .collect()
}

/// Where a row is: its top and bottom in the viewport, the viewport's height, the scroll.
async fn row_box(c: &Client, id: &str) -> (f64, f64, f64, f64) {
    let v = c
        .execute(
            "var r = document.getElementById(arguments[0]).getBoundingClientRect();\
             return [r.top, r.bottom, window.innerHeight, window.scrollY];",
            vec![json!(id)],
        )
        .await
        .expect("row box");
    let a: Vec<f64> = serde_json::from_value(v).expect("numbers");
    (a[0], a[1], a[2], a[3])
}

/// Tick player `p`'s box, his row scrolled to the middle of the screen first (as the desk
/// scrolls to him; the bar of the ticked rows stays over the bottom of the screen).
async fn tick(c: &Client, p: u32) {
    c.execute(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'center'});",
        vec![json!(format!("p{p}"))],
    )
    .await
    .expect("scroll");
    click(c, &format!("#p{p} input[type=checkbox]")).await;
}

/// Save a screenshot when `ARBITER_SCREENSHOTS` names a folder.
async fn shot(c: &Client, name: &str) {
    if let Ok(dir) = std::env::var("ARBITER_SCREENSHOTS") {
        let png = c.screenshot().await.expect("screenshot");
        std::fs::write(format!("{dir}/{name}.png"), png).expect("write screenshot");
    }
}

/// The registration desk checks in 棋手25, in the middle of a list of 40: after the click
/// the page is still at his row, which shows him checked in with the message below it, and
/// the add-entry form at the top has not taken the focus. He was checked in by mistake: the
/// desk takes it back (undo), still at his row; both are in the event log.
#[test]
fn the_desk_checks_in_a_player_in_the_middle_of_a_long_list_and_undoes_it_in_place() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let (srv, ev) = server(40, 40);
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "desk").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        assert!(body_text(&c).await.contains("40 人"));
        c.execute(
            "document.getElementById('p25').scrollIntoView({block: 'center'});",
            vec![],
        )
        .await
        .expect("scroll");
        let (_, _, _, before) = row_box(&c, "p25").await;
        assert!(
            before > 300.0,
            "the list is not long enough to scroll: {before}"
        );

        // Tianshui: he signed the 个人安全承诺书 at the desk (T7).
        click(&c, "#p25 form[action$='/p/25/checkin'] input[name=pledge]").await;
        click(&c, "#p25 form[action$='/p/25/checkin'] button").await;
        assert!(
            wait_js(&c, 10, "location.hash === '#p25' && document.querySelector('#p25 form[action$=\"/checkin/cancel\"]')").await,
            "not back at the row checked in: {}",
            body_text(&c).await
        );
        let (top, bottom, height, scroll) = row_box(&c, "p25").await;
        assert!(
            top >= 0.0 && bottom <= height,
            "row P25 not in view: {top}..{bottom} of {height}"
        );
        assert!(scroll > 300.0, "the page went back to the top: {scroll}");
        let msg = text(&c, "tr.rowmsg").await;
        assert!(msg.contains("P25 棋手25 已签到"), "{msg}");
        let focus = c
            .execute("return document.activeElement.name || '';", vec![])
            .await
            .expect("focus");
        assert_ne!(focus, json!("name"), "the add-entry form took the focus");
        let row = rows(&c, "#p25").await;
        assert!(row[0][4].starts_with('✓'), "{row:?}");

        // Undo: the row offers 签到 again, the page stays there.
        click(&c, "#p25 form[action$='/checkin/cancel'] button").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('tr.rowmsg') && document.querySelector('tr.rowmsg').innerText.indexOf('已撤销签到') >= 0").await,
            "not undone: {}",
            body_text(&c).await
        );
        assert!(c
            .find(Locator::Css("#p25 form[action$='/p/25/checkin'] button"))
            .await
            .is_ok());
        let (top, bottom, height, _) = row_box(&c, "p25").await;
        assert!(
            top >= 0.0 && bottom <= height,
            "row P25 not in view after undo"
        );
    });
    assert_eq!(entries_of(&srv, &ev, "checked_in").len(), 1);
    assert_eq!(
        entries_of(&srv, &ev, "check_in_cancelled"),
        vec![LogEntry::CheckInCancelled {
            player: arbiter_core::PlayerId(25)
        }]
    );
}

/// Five players arrive together: the desk ticks them and clicks 批量签到 once; all five are
/// checked in, in one go, and nobody else.
#[test]
fn the_desk_checks_in_five_players_at_once() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let (srv, ev) = server(12, 12);
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "desk").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        for p in [3, 4, 7, 8, 11] {
            tick(&c, p).await;
        }
        // Tianshui: they all signed the 个人安全承诺书 (T7).
        click(&c, "form#many input[name=pledge]").await;
        click(&c, "form#many button[value=checkin]").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('tr.rowmsg')").await,
            "no answer: {}",
            body_text(&c).await
        );
        let msg = text(&c, "tr.rowmsg").await;
        assert!(msg.contains("5人已签到"), "{msg}");
        let table = rows(&c, "table.entries tbody tr[id]").await;
        for row in &table {
            let p: u32 = row[1].trim_start_matches('P').parse().expect("number");
            let want = [3, 4, 7, 8, 11].contains(&p);
            assert_eq!(row[4].starts_with('✓'), want, "{row:?}");
        }
    });
    assert_eq!(entries_of(&srv, &ev, "checked_in").len(), 5);
}

/// Before pairing round 1 the chief arbiter sees who has paid but is not checked in.
#[test]
fn the_pairing_page_warns_about_players_paid_but_not_checked_in() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let (srv, ev) = server(10, 10);
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "desk").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        // Everybody but 棋手04, 棋手07 and 棋手09 checks in.
        for p in [1, 2, 3, 5, 6, 8, 10] {
            tick(&c, p).await;
        }
        // Tianshui: they all signed the 个人安全承诺书 (T7).
        click(&c, "form#many input[name=pledge]").await;
        click(&c, "form#many button[value=checkin]").await;
        assert!(wait_js(&c, 10, "document.querySelector('tr.rowmsg')").await);
    });
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "chief").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/round"))
            .await
            .expect("round page");
        let w = text(&c, "#not-checked-in").await;
        assert!(
            w.contains("3人已缴费未签到") && w.contains("棋手04 (P4), 棋手07 (P7), 棋手09 (P9)"),
            "{w}"
        );
        // The warning comes before the pairing button.
        let before = c
            .execute(
                "var w = document.getElementById('not-checked-in'); \
                 var b = document.querySelector(\"form[action$='/pair'] button\"); \
                 return !!(w.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);",
                vec![],
            )
            .await
            .expect("order");
        assert_eq!(before, json!(true));
    });
    drop(srv);
}

/// A player asks why he is not on the pairing: the desk types his name into 查找 and reads
/// that he has not paid (so he is not paired); a player who paid and checked in is paired.
#[test]
fn find_tells_the_desk_why_an_unpaid_player_is_not_paired() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    // 棋手01 … 棋手06 have paid, 棋手07 … 棋手08 not.
    let (srv, ev) = server(8, 6);
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "desk").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        fill(&c, "form.find input[name=q]", "棋手07").await;
        click(&c, "form.find button").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('found')").await,
            "no search answer: {}",
            body_text(&c).await
        );
        let found = text(&c, "#found").await;
        assert!(found.contains("棋手07") && found.contains("P7"), "{found}");
        assert!(
            found.contains("未缴费") && found.contains("不参加编排"),
            "{found}"
        );
        // By number: P2 has paid but is not checked in; he is paired, with a warning.
        fill(&c, "form.find input[name=q]", "P2").await;
        click(&c, "form.find button").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('found') && document.getElementById('found').innerText.indexOf('棋手02') >= 0").await,
            "{}",
            body_text(&c).await
        );
        let found = text(&c, "#found").await;
        assert!(
            found.contains("已缴清 100元") && found.contains("未签到"),
            "{found}"
        );
        assert!(!found.contains("棋手07"), "{found}");
    });
    drop(srv);
}

/// On a 375-px phone the registration list fits: every 缴费 and 签到 button of the list is
/// inside the screen, and the page does not scroll sideways.
#[test]
fn on_a_phone_the_fee_and_check_in_buttons_are_on_screen() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    // Half have paid (their 撤销 shows), half not (their 缴费 shows); two checked in.
    let (srv, ev) = server(12, 6);
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(375, 812).await;
        log_in(&c, &base, "desk").await;
        let list = format!("{base}/desk/e/{ev}/s/open/entries");
        c.goto(&list).await.expect("entries");
        for p in [1, 2] {
            // Tianshui: he signed the 个人安全承诺书 (T7); the box ticked as the page has it.
            c.execute(
                "document.querySelector(arguments[0]).checked = true;",
                vec![json!(format!(
                    "#p{p} form[action$='/p/{p}/checkin'] input[name=pledge]"
                ))],
            )
            .await
            .expect("pledge ticked");
            // The rows are taller with the pledge box: his row in the middle of the screen
            // before the tap, as a thumb would bring it.
            c.execute(
                "document.getElementById(arguments[0]).scrollIntoView({block: 'center'});",
                vec![json!(format!("p{p}"))],
            )
            .await
            .expect("scroll");
            click(&c, &format!("#p{p} form[action$='/p/{p}/checkin'] button")).await;
            assert!(
                wait_js(
                    &c,
                    10,
                    &format!("location.hash === '#p{p}' && document.querySelector('tr.rowmsg')")
                )
                .await,
                "P{p} not checked in at its row: {}",
                body_text(&c).await
            );
        }
        c.goto(&list).await.expect("entries");
        let v = c
            .execute(
                "var w = window.innerWidth; var out = [];\
                 document.querySelectorAll('table.entries td.act button, form#many button').forEach(function (b) {\
                   var r = b.getBoundingClientRect();\
                   out.push([b.innerText, r.left, r.right]);\
                 });\
                 return { width: w, scroll: document.documentElement.scrollWidth, buttons: out };",
                vec![],
            )
            .await
            .expect("measure");
        let width = v["width"].as_f64().expect("width");
        assert_eq!(width, 375.0);
        let scroll = v["scroll"].as_f64().expect("scroll width");
        assert!(
            scroll <= width,
            "the page scrolls sideways: {scroll} > {width}"
        );
        let buttons = v["buttons"].as_array().expect("buttons");
        // 6 缴费 + 6 撤销 (fee) + 10 签到 + 2 撤销 (check-in) + the two of the bar.
        assert_eq!(buttons.len(), 26, "{buttons:?}");
        for b in buttons {
            let (left, right) = (b[1].as_f64().unwrap_or(-1.0), b[2].as_f64().unwrap_or(1e9));
            assert!(
                left >= 0.0 && right <= width,
                "button {} at {left}..{right} is off a {width}-px screen",
                b[0]
            );
        }
        shot(&c, "desk-entries-phone").await;
        c.goto(&format!("{base}/desk/e/{ev}/print"))
            .await
            .expect("print page");
        shot(&c, "desk-print-phone").await;
        c.execute("document.querySelector('.qrbox').scrollIntoView();", vec![])
            .await
            .expect("scroll to the QR code");
        shot(&c, "desk-print-qr-phone").await;
    });
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "desk").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        // A plain visit opens the list at its top (the add-entry form below does not take
        // the focus and scroll the page down to it).
        let (top, _, _, scroll) = row_box(&c, "p1").await;
        assert!(
            scroll == 0.0 && top < 400.0,
            "the list did not open at its top: {scroll}"
        );
        shot(&c, "desk-entries-laptop").await;
        c.goto(&format!("{base}/desk/e/{ev}/print"))
            .await
            .expect("print page");
        let h = c
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await
            .expect("height");
        let h = h.as_u64().unwrap_or(800).clamp(800, 3000) as u32;
        c.set_window_size(1280, h + 150)
            .await
            .expect("taller window");
        shot(&c, "desk-print-laptop").await;
    });
    drop(srv);
}

/// The chief arbiter prints the pairing list of round 2 of the men's section (round 4 is
/// paired) by choosing them on the print page, not by editing the address.
#[test]
fn the_print_pages_pickers_make_the_chosen_document() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = None;
    let srv = TestServer::start_with(|store| {
        add_user(store, "chief", Role::ChiefArbiter);
        ev = Some(crate::common::reference_event(
            store,
            "kunshan-2026.toml",
            3,
            Some(12),
        ));
    });
    let ev = ev.expect("event").0;
    srv.app
        .set_public_url(arbiter_web::parse_public_url("http://192.168.1.20:8080").expect("url"));
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "chief").await;
        c.goto(&format!("{base}/desk/e/{ev}/print"))
            .await
            .expect("print page");
        // The QR code for the players, with its address in words beside it.
        assert_eq!(
            text(&c, "#public-url").await,
            format!("http://192.168.1.20:8080/e/{ev}")
        );
        assert!(text(&c, ".qrbox").await.contains("选手用手机扫码"));
        // The unit entry form is a visible download.
        let form = text(&c, "a[href$='/entry-form.xlsx']").await;
        assert!(form.contains("单位报名表模板"), "{form}");
        let pick = |css: &'static str, value: &'static str| {
            let c = c.clone();
            async move {
                c.find(Locator::Css(css))
                    .await
                    .unwrap_or_else(|e| panic!("no picker {css}: {e}"))
                    .select_by_value(value)
                    .await
                    .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
            }
        };
        pick("#pick select[name=doc]", "pairings").await;
        pick("#pick select[name=section]", "men").await;
        pick("#pick select[name=round]", "2").await;
        click(&c, "#pick button[type=submit]").await;
        assert!(
            wait_js(&c, 20, "location.search.indexOf('doc=pairings') >= 0").await,
            "no document: {}",
            body_text(&c).await
        );
        let url = c.current_url().await.expect("url");
        let q: std::collections::BTreeMap<String, String> =
            url.query_pairs().into_owned().collect();
        assert_eq!(q.get("section").map(String::as_str), Some("men"), "{url}");
        assert_eq!(q.get("round").map(String::as_str), Some("2"), "{url}");
        let doc = body_text(&c).await;
        assert!(doc.contains("第2轮"), "{doc}");
        assert!(doc.contains("男子个人赛"), "{doc}");
        assert!(
            !doc.contains("第4轮") && !doc.contains("女子个人赛"),
            "{doc}"
        );
    });
    drop(srv);
}
