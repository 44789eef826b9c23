//! Registration on tournament day, in headless Chromium (issue 26, items 2, 4 and 12), each
//! test a user story:
//!
//! 1. The chief arbiter creates this year's Tianshui open from the bundled regulation (the
//!    dates prefilled for this year, the deadline given), then registers a player on time:
//!    no late reason; the documents are boxes to tick from the start.
//! 2. A typo in the desk's form (a bad ID number) keeps the form filled, shows the error
//!    beside the field and records nothing; 拒绝 with a reason records the refusal.
//! 3. After the chief arbiter sets the deadline on the settings page, a CSV import registers
//!    every valid row, with no refusal.
//! 4. The online form of an event whose deadline has passed says it is closed before anyone
//!    types.
//! 5. A player on a phone enters the local section online claiming the local condition,
//!    makes a mistake (the form keeps the ID number and phone), succeeds, sees the summary
//!    and the status link; the status page changes once the desk approves.
//!
//! Screenshots (phone 375×812, laptop 1280×800) go to `$ARBITER_SCREENSHOTS` when it is set
//! (`scripts/screenshots.sh`).

use crate::browser::{
    add_user, body_text, click, fill, log_in, path_of, rows, run, text, wait_js, Driver,
    ONE_AT_A_TIME,
};
use crate::common::TestServer;
use arbiter_store::{EventStore, Role};
use chrono::Datelike;
use fantoccini::{Client, Locator};

/// A valid 18-digit ID number: born `born` (YYYYMMDD), sequence `seq` (odd: a man).
fn id(born: &str, seq: u32) -> String {
    let body = format!("620502{born}{seq:03}");
    let w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    let sum: u32 = body
        .chars()
        .zip(w)
        .map(|(c, w)| c.to_digit(10).unwrap_or(0) * w)
        .sum();
    let check = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2'][(sum % 11) as usize];
    format!("{body}{check}")
}

/// Save a screenshot as `name.png` in `$ARBITER_SCREENSHOTS`, if set.
async fn shot(c: &Client, name: &str) {
    if let Ok(dir) = std::env::var("ARBITER_SCREENSHOTS") {
        let png = c.screenshot().await.expect("screenshot");
        std::fs::write(format!("{dir}/{name}.png"), png).expect("write screenshot");
    }
}

async fn value(c: &Client, css: &str) -> String {
    c.execute(
        "var e = document.querySelector(arguments[0]); return e ? e.value : null;",
        vec![serde_json::json!(css)],
    )
    .await
    .expect("value")
    .as_str()
    .unwrap_or_else(|| panic!("no field `{css}`"))
    .to_string()
}

async fn exists(c: &Client, css: &str) -> bool {
    c.find(Locator::Css(css)).await.is_ok()
}

/// The chief arbiter creates an event from bundled regulation `preset` on `/desk`, the
/// dates as prefilled, the deadline `deadline` if given. Returns the event's id.
async fn create(c: &Client, base: &str, preset: &str, deadline: Option<&str>) -> String {
    c.goto(&format!("{base}/desk")).await.expect("desk");
    c.find(Locator::Css("select[name=preset]"))
        .await
        .expect("preset list")
        .select_by_value(preset)
        .await
        .expect("choose a regulation");
    // Choosing the regulation fills this year's dates in.
    assert!(
        wait_js(
            c,
            5,
            "document.querySelector('input[name=start]').value !== ''"
        )
        .await,
        "no dates prefilled"
    );
    if let Some(d) = deadline {
        fill(c, "input[name=deadline]", d).await;
    }
    click(c, "form[action='/desk/events'] button[type=submit]").await;
    assert!(
        wait_js(c, 10, "location.pathname.indexOf('/desk/e/') === 0").await,
        "event not created: {}",
        body_text(c).await
    );
    path_of(c)
        .await
        .trim_start_matches("/desk/e/")
        .trim_end_matches('/')
        .to_string()
}

/// A deadline a week from now, China time, as the desk's field takes it.
fn next_week() -> String {
    (chrono::Utc::now() + chrono::Duration::days(7))
        .format("%Y-%m-%d 18:00")
        .to_string()
}

#[test]
fn the_chief_arbiter_creates_this_years_event_and_registers_a_player_on_time() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "chief").await;
        c.find(Locator::Css("select[name=preset]"))
            .await
            .expect("preset list")
            .select_by_value("tianshui-2024")
            .await
            .expect("Tianshui");
        // This year's edition: the 2024 dates moved to a year not yet past.
        let start = value(&c, "input[name=start]").await;
        let year: i32 = start[..4].parse().expect("a year");
        assert!(year >= chrono::Utc::now().year(), "{start}");
        assert!(start.ends_with("-07-26"), "{start}");
        assert!(value(&c, "input[name=deadline]")
            .await
            .ends_with("-07-23 18:00"));
        assert!(value(&c, "input[name=age_on]").await.ends_with("-07-26"));
        shot(&c, "desk-new-event-laptop").await;
        let ev = create(&c, &base, "tianshui-2024", Some(&next_week())).await;

        // The settings page shows the deadline and the age date of this edition.
        c.goto(&format!("{base}/desk/e/{ev}/settings"))
            .await
            .expect("settings");
        let now = text(&c, "#deadline-now").await;
        assert!(now.contains("18:00") && !now.contains("已过"), "{now}");

        // The documents are boxes to tick, in Chinese, before any mistake.
        c.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        let docs = text(&c, "#evidence").await;
        assert!(docs.contains("意外伤害保险"), "{docs}");
        assert!(!docs.contains("accident_insurance"), "{docs}");
        shot(&c, "desk-entries-laptop").await;
        fill(&c, "#add-entry input[name=name]", "张三").await;
        fill(&c, "#add-entry input[name=id_number]", &id("19900101", 11)).await;
        fill(&c, "#add-entry input[name=phone]", "13912340011").await;
        click(&c, "#add-entry input[name='ev.accident_insurance']").await;
        click(&c, "#add-entry button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.ok')").await,
            "not registered: {}",
            body_text(&c).await
        );
        let ok = text(&c, ".flash.ok").await;
        assert!(ok.contains("已报名") && ok.contains("张三"), "{ok}");
        let list = rows(&c, "table.grid tbody tr").await;
        assert_eq!(list.len(), 1, "{list:?}");
        assert!(!body_text(&c).await.contains("未通过的报名"));
        c.close().await.expect("close");
    });
}

#[test]
fn a_typo_in_the_desk_form_keeps_it_filled_and_only_refuse_records_a_refusal() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    run(async {
        let c = driver.browser(375, 812).await;
        log_in(&c, &base, "chief").await;
        let ev = create(&c, &base, "tianshui-2024", Some(&next_week())).await;
        let entries = format!("{base}/desk/e/{ev}/s/open/entries");
        c.goto(&entries).await.expect("entries");
        fill(&c, "#add-entry input[name=name]", "李四").await;
        fill(&c, "#add-entry input[name=unit]", "麦积棋社").await;
        // One digit short of an ID number.
        fill(&c, "#add-entry input[name=id_number]", "62050219900101001").await;
        fill(&c, "#add-entry input[name=phone]", "13912345678").await;
        click(&c, "#add-entry input[name='ev.accident_insurance']").await;
        click(&c, "#add-entry button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('id-error')").await,
            "no error beside the ID number: {}",
            body_text(&c).await
        );
        let err = text(&c, "#id-error").await;
        assert!(err.contains("身份证"), "{err}");
        // Everything typed is still there.
        assert_eq!(value(&c, "#add-entry input[name=name]").await, "李四");
        assert_eq!(value(&c, "#add-entry input[name=unit]").await, "麦积棋社");
        assert_eq!(
            value(&c, "#add-entry input[name=id_number]").await,
            "62050219900101001"
        );
        assert_eq!(
            value(&c, "#add-entry input[name=phone]").await,
            "13912345678"
        );
        assert!(
            wait_js(&c, 1, "document.querySelector(\"#add-entry input[name='ev.accident_insurance']\").checked").await,
            "the document box lost its tick"
        );
        shot(&c, "desk-entry-error-phone").await;
        // Nothing recorded: no refusal on the list.
        c.goto(&entries).await.expect("entries");
        assert!(!body_text(&c).await.contains("未通过的报名"));

        // A section rule (the document missing) is an error too, with 拒绝 at hand.
        fill(&c, "#add-entry input[name=name]", "王五").await;
        fill(&c, "#add-entry input[name=id_number]", &id("19850505", 13)).await;
        fill(&c, "#add-entry input[name=phone]", "13912340013").await;
        click(&c, "#add-entry button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('evidence-error')").await,
            "no error beside the documents: {}",
            body_text(&c).await
        );
        assert!(text(&c, "#evidence-error").await.contains("意外伤害保险"));
        assert!(!body_text(&c).await.contains("未通过的报名"));
        // The arbiter decides: 拒绝, with the reason (prefilled with the rule's).
        fill(
            &c,
            "#add-entry input[name=refuse_reason]",
            "未提供意外保险证明",
        )
        .await;
        click(&c, "#refuse-entry").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.ok')").await,
            "not refused: {}",
            body_text(&c).await
        );
        assert!(text(&c, ".flash.ok").await.contains("已记录拒绝"));
        let body = body_text(&c).await;
        assert!(
            body.contains("未通过的报名") && body.contains("王五: 未提供意外保险证明"),
            "{body}"
        );
        assert!(!body.contains("李四"), "the typo was recorded: {body}");
        let log = srv
            .store()
            .read(&arbiter_store::EventId(ev.clone()))
            .expect("log");
        let refused = log
            .iter()
            .filter(|r| matches!(r.entry, arbiter_core::LogEntry::EntryRefused { .. }))
            .count();
        assert_eq!(refused, 1);
        c.close().await.expect("close");
    });
}

#[test]
fn an_import_after_setting_the_deadline_registers_every_valid_row() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    let dir = tempfile::tempdir().expect("temp dir");
    let csv = dir.path().join("报名表.csv");
    let body = format!(
        "姓名,身份证号,手机号,单位,组别,证明材料\n赵一,{},13912340021,麦积棋社,公开组,意外伤害保险\n钱二,{},13912340023,秦州棋社,公开组,意外伤害保险\n孙三,{},13912340025,秦州棋社,公开组,意外伤害保险\n",
        id("19800101", 21),
        id("19810202", 23),
        id("19820303", 25)
    );
    std::fs::write(&csv, body).expect("csv");
    run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "chief").await;
        // Created as the bundled regulation says: its deadline long past.
        c.goto(&format!("{base}/desk")).await.expect("desk");
        c.find(Locator::Css("select[name=preset]"))
            .await
            .expect("presets")
            .select_by_value("tianshui-2024")
            .await
            .expect("Tianshui");
        let ev = create(&c, &base, "tianshui-2024", Some("2024-07-23 18:00")).await;
        // The chief arbiter sets this edition's deadline on the settings page.
        c.goto(&format!("{base}/desk/e/{ev}/settings"))
            .await
            .expect("settings");
        assert!(text(&c, "#deadline-now").await.contains("已过"));
        fill(&c, "#settings input[name=deadline]", &next_week()).await;
        click(&c, "#settings button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.ok')").await,
            "settings not changed: {}",
            body_text(&c).await
        );
        assert!(!text(&c, "#deadline-now").await.contains("已过"));
        shot(&c, "desk-settings-laptop").await;
        // The unit's file: every valid row registered, no refusal.
        c.goto(&format!("{base}/desk/e/{ev}/import"))
            .await
            .expect("import");
        c.find(Locator::Css("input[type=file]"))
            .await
            .expect("file field")
            .send_keys(&csv.to_string_lossy())
            .await
            .expect("choose the file");
        click(&c, "button[value=import]").await;
        assert!(
            wait_js(&c, 20, "document.querySelector('table.registered')").await,
            "nothing registered: {}",
            body_text(&c).await
        );
        assert_eq!(rows(&c, "table.registered tbody tr").await.len(), 3);
        assert!(
            !exists(&c, "table.problems").await,
            "{}",
            body_text(&c).await
        );
        let log = srv
            .store()
            .read(&arbiter_store::EventId(ev.clone()))
            .expect("log");
        assert!(!log
            .iter()
            .any(|r| matches!(r.entry, arbiter_core::LogEntry::EntryRefused { .. })));
        c.close().await.expect("close");
    });
}

#[test]
fn the_online_form_of_an_event_past_its_deadline_says_closed_before_typing() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    run(async {
        let desk = driver.browser(1280, 800).await;
        log_in(&desk, &base, "chief").await;
        let ev = create(&desk, &base, "tianshui-2024", Some("2024-07-23 18:00")).await;
        desk.close().await.expect("close");
        let c = driver.browser(375, 812).await;
        c.goto(&format!("{base}/e/{ev}/entry"))
            .await
            .expect("online form");
        let closed = text(&c, "#entry-closed").await;
        assert!(closed.contains("报名已截止"), "{closed}");
        assert!(closed.contains("2024-07-23 18:00"), "{closed}");
        assert!(
            !exists(&c, "#entry-form").await,
            "a form to fill after the deadline"
        );
        shot(&c, "online-closed-phone").await;
        c.close().await.expect("close");
    });
}

#[test]
fn a_player_claims_the_local_condition_online_and_follows_the_status_until_approved() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(|store| add_user(store, "chief", Role::ChiefArbiter));
    let base = format!("http://{}", srv.addr);
    let good_id = id("19920315", 31);
    run(async {
        let desk = driver.browser(1280, 800).await;
        log_in(&desk, &base, "chief").await;
        let ev = create(&desk, &base, "tianshui-2024", Some(&next_week())).await;

        // The player, on a phone.
        let c = driver.browser(375, 812).await;
        c.goto(&format!("{base}/e/{ev}/entry"))
            .await
            .expect("online form");
        c.find(Locator::Css("#entry-form select[name=section]"))
            .await
            .expect("sections")
            .select_by_value("local")
            .await
            .expect("天水本地组");
        let offer = text(&c, "fieldset[data-section=local]").await;
        assert!(
            offer.contains("本地棋手") && offer.contains("意外伤害保险"),
            "{offer}"
        );
        shot(&c, "online-form-phone").await;
        fill(&c, "#entry-form input[name=name]", "周六").await;
        // A mistyped last digit.
        let typo = format!("{}0", &good_id[..17]);
        let typo = if typo == good_id {
            format!("{}1", &good_id[..17])
        } else {
            typo
        };
        fill(&c, "#entry-form input[name=id_number]", &typo).await;
        fill(&c, "#entry-form input[name=phone]", "13712345678").await;
        click(&c, "input[name='flag.local.local']").await;
        click(&c, "input[name='ev.local.accident_insurance']").await;
        click(&c, "#entry-form button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.err')").await,
            "no error: {}",
            body_text(&c).await
        );
        // The ID number and phone stay filled, and the ticks.
        assert_eq!(value(&c, "#entry-form input[name=id_number]").await, typo);
        assert_eq!(
            value(&c, "#entry-form input[name=phone]").await,
            "13712345678"
        );
        assert!(
            wait_js(
                &c,
                1,
                "document.querySelector(\"input[name='flag.local.local']\").checked"
            )
            .await,
            "the condition lost its tick"
        );
        shot(&c, "online-error-phone").await;
        fill(&c, "#entry-form input[name=id_number]", &good_id).await;
        click(&c, "#entry-form button[type=submit]").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('entry-summary')").await,
            "not submitted: {}",
            body_text(&c).await
        );
        let summary = text(&c, "#entry-summary").await;
        assert!(
            summary.contains("周六") && summary.contains("天水本地组"),
            "{summary}"
        );
        assert!(
            summary.contains(&good_id[..4]) && !summary.contains(&good_id),
            "{summary}"
        );
        assert!(!body_text(&c).await.contains("13712345678"));
        let bring = text(&c, "#to-bring").await;
        assert!(
            bring.contains("报名费 100") && bring.contains("意外伤害保险"),
            "{bring}"
        );
        shot(&c, "online-summary-phone").await;
        click(&c, "#status-link").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('status')").await,
            "no status page: {}",
            body_text(&c).await
        );
        assert_eq!(text(&c, "#status").await, "待审核");
        let page = body_text(&c).await;
        assert!(!page.contains("周六") && !page.contains(&good_id), "{page}");
        let status_url = c.current_url().await.expect("url");

        // The desk approves with the documents seen.
        desk.goto(&format!("{base}/desk/e/{ev}/s/local/entries"))
            .await
            .expect("entries");
        assert_eq!(
            value(&desk, "#pending input[name=evidence]").await,
            "意外伤害保险",
            "the documents the player named"
        );
        click(&desk, "#pending form[action$='/approve'] button").await;
        assert!(
            wait_js(&desk, 10, "document.querySelector('.flash.ok')").await,
            "not approved: {}",
            body_text(&desk).await
        );
        assert!(text(&desk, ".flash.ok").await.contains("已批准"));

        c.goto(status_url.as_str()).await.expect("status again");
        assert_eq!(text(&c, "#status").await, "已通过");
        shot(&c, "online-status-phone").await;
        // An unknown token finds nothing.
        let r = srv.get(&format!("/e/{ev}/entry/status/{}", "0".repeat(64)));
        assert_eq!(r.status, 404);
        c.close().await.expect("close");
        desk.close().await.expect("close");
    });
}
