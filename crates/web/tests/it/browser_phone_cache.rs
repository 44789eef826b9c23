//! The players' phone pages (issue 47) and the browser's back/forward cache, in headless
//! Chromium at a phone's 375 px: a player opens his board's claim page (or his check-in page)
//! from the code, leaves it for the event's page, comes back with Back — the page comes back
//! (from the cache where the browser keeps it, or loaded again) with its live stream open as
//! every public page's, and its button still works: the claim is recorded, the check-in
//! made, once.

use crate::browser::{click, run, wait_js, Driver, ONE_AT_A_TIME};
use crate::checkin_phone::{code_of, tianshui_online};
use crate::common::TestServer;
use arbiter_director::claim::Seat;
use arbiter_store::{AccountStore, EventId, EventStore};
use arbiter_types::Colour;
use fantoccini::Client;
use serde_json::json;

/// Leave the page for `away`, then Back: the page at `path` again, with `ready` true and its
/// live stream open. Whether it came from the back/forward cache (the marker set before
/// leaving survived).
async fn away_and_back(phone: &Client, base: &str, path: &str, away: &str, ready: &str) -> bool {
    phone
        .execute("window.__left_here = 1;", vec![])
        .await
        .expect("mark");
    phone.goto(&format!("{base}{away}")).await.expect("away");
    assert!(
        wait_js(
            phone,
            15,
            "document.body.getAttribute('data-live') === 'open'"
        )
        .await,
        "{away}: no live stream"
    );
    phone.back().await.expect("back");
    // A page with the live script has its stream open again (as every public page).
    let live = "(!document.querySelector('script[src=\"/assets/live.js\"]') || document.body.getAttribute('data-live') === 'open')";
    if !wait_js(
        phone,
        15,
        &format!("location.pathname === '{path}' && {ready} && {live}"),
    )
    .await
    {
        let seen = phone
            .execute(
                "return [location.pathname, document.body.getAttribute('data-live'), document.body.innerText.slice(0, 300)];",
                vec![],
            )
            .await
            .expect("state");
        panic!("back to {path}: not shown again as it was: {seen}");
    }
    phone
        .execute("return window.__left_here === 1;", vec![])
        .await
        .expect("restored?")
        == json!(true)
}

#[test]
fn the_claim_and_check_in_pages_come_back_with_back_and_still_work() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    // A round of Kunshan paired and waiting for its results.
    let mut ks = None;
    let claims = TestServer::start_with(|st| {
        let (_, text) = arbiter_web::demo::REFERENCE
            .iter()
            .find(|(f, _)| *f == "kunshan-2026.toml")
            .expect("kunshan");
        let how = arbiter_web::demo::PartWay {
            rounds: Some(1),
            results_left: usize::MAX,
            ..Default::default()
        };
        ks = Some(
            arbiter_web::demo::simulate_part_way(st, text, "kunshan-2026.toml", &how)
                .expect("simulated"),
        );
    });
    let ks: EventId = ks.expect("event");
    let secret = claims
        .store()
        .claim_secret(&ks.0, "a fresh secret of this test")
        .expect("secret");
    let state = claims.store().state(&ks).expect("state");
    let round = state.section("men").expect("men").last_round();
    let seat = Seat {
        section: "men".into(),
        round,
        board: 1,
        side: Colour::Red,
    };
    let code = arbiter_director::claim::code(secret.as_bytes(), &seat);
    // Tianshui, where a player checks in on the phone.
    let mut th = None;
    let checkin = TestServer::start_with(|store| th = Some(tianshui_online(store)));
    let (th, player) = th.expect("event");
    let th_code = code_of(&checkin, &th, player);

    run(async {
        let phone = driver.browser(375, 812).await;
        let mut restored = 0;

        let base = format!("http://{}", claims.addr);
        let path = format!("/e/{}/claim", ks.0);
        phone
            .goto(&format!("{base}{path}?c={code}"))
            .await
            .expect("claim page");
        assert!(
            wait_js(&phone, 15, "!!document.getElementById('claim-red-win')").await,
            "the board's buttons"
        );
        let ready = "!!document.getElementById('claim-red-win')";
        if away_and_back(&phone, &base, &path, &format!("/e/{}", ks.0), ready).await {
            restored += 1;
        }
        let before = claims.store().read(&ks).expect("log").len();
        click(&phone, "#claim-red-win").await;
        assert!(
            wait_js(
                &phone,
                15,
                "document.body.innerText.indexOf('等待对方确认') >= 0"
            )
            .await,
            "the claim answered"
        );
        let log = claims.store().read(&ks).expect("log");
        assert_eq!(log.len(), before + 1, "one claim recorded");
        assert_eq!(log[before].entry.kind(), "result_claimed");

        let base = format!("http://{}", checkin.addr);
        let path = format!("/e/{}/checkin", th.0);
        phone
            .goto(&format!("{base}{path}?c={th_code}"))
            .await
            .expect("check-in page");
        let ready = "!!document.getElementById('checkin-button')";
        assert!(wait_js(&phone, 15, ready).await, "the check-in button");
        if away_and_back(&phone, &base, &path, &format!("/e/{}", th.0), ready).await {
            restored += 1;
        }
        click(&phone, "#checkin-pledge").await;
        click(&phone, "#checkin-button").await;
        assert!(
            wait_js(
                &phone,
                15,
                "document.body.innerText.indexOf('签到') >= 0 && !document.getElementById('checkin-button')"
            )
            .await,
            "checked in"
        );
        let checked: Vec<_> = checkin
            .store()
            .read(&th)
            .expect("log")
            .into_iter()
            .filter(|r| r.entry.kind() == "checked_in")
            .collect();
        assert_eq!(checked.len(), 1, "checked in once");
        eprintln!("{restored} of 2 phone pages came back from the back/forward cache");
        assert!(
            restored > 0,
            "no phone page came back from the back/forward cache"
        );
        phone.close().await.expect("close");
    });
}
