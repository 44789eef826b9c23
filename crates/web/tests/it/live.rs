//! Live updates: a result appended by another process (a second connection, as the CLI
//! would) reaches an open SSE stream once, and the pages show it.

use crate::common;

use arbiter_director::api::results::{enter_result, ResultInput};
use arbiter_director::api::Ctx;
use arbiter_store::{EventId, EventStore, SqliteStore};
use arbiter_types::GameResult;
use common::*;
use std::time::Duration;

/// Enter the missing result of round 3 of `men` through the arbiter's API; returns the
/// board and the new last seq.
pub(crate) fn enter_missing(store: &SqliteStore, id: &EventId) -> (u32, u64) {
    let state = store.state(id).expect("state");
    let round = state
        .section("men")
        .and_then(|s| s.round(3))
        .expect("round 3");
    let board = round
        .boards
        .iter()
        .find(|b| b.result.is_none())
        .expect("a missing result")
        .board;
    let at = chrono::NaiveDate::from_ymd_opt(2026, 9, 30)
        .and_then(|d| d.and_hms_opt(12, 0, 0))
        .expect("time");
    let ctx = Ctx::new("裁判员", arbiter_director::api::Role::Arbiter, at);
    let mut input = ResultInput::new(board, GameResult::BlackWin);
    input.round = Some(3);
    let entries = enter_result(&state, &ctx, "men", &input).expect("result accepted");
    let seq = store
        .append(id, state.last_seq, &entries, &ctx.actor, &ctx.at_rfc3339())
        .expect("appended");
    (board, seq)
}

#[test]
fn a_result_entered_elsewhere_reaches_the_stream_once_and_the_pages() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "kunshan-2026.toml", 2, Some(30)));
    });
    let id = id.expect("event");
    let before = srv.store().last_seq(&id).expect("seq");
    let page = srv.get(&format!("/e/{id}/s/men/r/3")).text();
    assert!(page.contains(&format!("data-seq=\"{before}\"")));
    let etag = srv
        .get(&format!("/e/{id}/s/men/r/3"))
        .header("etag")
        .expect("etag")
        .to_string();

    let mut sse = srv.sse(&id.0);
    assert_eq!(sse.status, 200);
    assert!(sse.content_type.starts_with("text/event-stream"));
    let hello = sse.next(Duration::from_secs(10)).expect("first message");
    assert_eq!(hello.event, "change");
    assert_eq!(hello.id, before.to_string());

    let (board, after) = enter_missing(&srv.store(), &id);
    assert!(after > before);
    let m = sse
        .next(Duration::from_secs(10))
        .expect("the change arrives");
    assert_eq!(m.event, "change");
    let v: serde_json::Value = serde_json::from_str(&m.data).expect("json");
    assert_eq!(v["event"], id.0.as_str());
    assert_eq!(v["last_seq"], after);
    // One message per new last_seq: nothing more while the log stands still (the watcher
    // polls every 50 ms in tests, so several polls pass here).
    assert!(sse.next(Duration::from_millis(600)).is_none());

    // The page now shows the result (the cache moved on; a new ETag).
    let r = srv.get_with(&format!("/e/{id}/s/men/r/3"), &[("If-None-Match", &etag)]);
    assert_eq!(r.status, 200, "the page changed");
    let html = r.text();
    assert!(html.contains(&format!("data-seq=\"{after}\"")));
    let row = html
        .split(&format!("<tr><td class=\"n\">{board}</td>"))
        .nth(1)
        .expect("the board's row")
        .split("</tr>")
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(row.contains("黑胜"), "{row}");
    let api = srv
        .get(&format!("/api/events/{id}/sections/men/rounds/3"))
        .json();
    let b = api["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .find(|b| b["board"] == board)
        .expect("board")
        .clone();
    assert_eq!(b["result"], "0-1");
}

#[test]
fn a_stream_of_an_unknown_event_is_refused() {
    let srv = TestServer::start();
    let r = srv.get("/e/ev-00000009/live");
    assert_eq!(r.status, 404);
}

#[test]
fn a_new_event_appears_on_the_home_page_without_a_restart() {
    let srv = TestServer::start();
    assert!(!srv.get("/").text().contains("/e/ev-"));
    let id = reference_event(&srv.store(), "jiujiang-2020.toml", 1, Some(12));
    assert!(wait_until(10, || srv
        .get("/")
        .text()
        .contains(&format!("/e/{id}"))));
}

/// A page people are reading is rendered for the new state before the state is shown, so
/// that the requests after a change are answered from the cache at once (none waits for the
/// render); a page nobody asked for is left to render when asked.
#[test]
fn pages_being_read_are_rendered_before_a_change_is_shown() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "kunshan-2026.toml", 2, Some(30)));
    });
    let id = id.expect("event");
    let round = format!("/e/{id}/s/men/r/3");
    let standings = format!("/e/{id}/s/men/standings");
    assert_eq!(srv.get(&round).status, 200);
    assert_eq!(srv.get(&format!("{round}?lang=en")).status, 200);
    let first = srv.app.cache.get(&id).expect("cached state");
    assert!(first.has_page(&format!("{round}#zh")) && first.has_page(&format!("{round}#en")));
    assert!(!first.has_page(&format!("{standings}#zh")));

    let (board, after) = enter_missing(&srv.store(), &id);
    assert!(wait_until(10, || srv
        .app
        .cache
        .get(&id)
        .is_some_and(|s| s.last_seq() == after)));
    let next = srv.app.cache.get(&id).expect("new state");
    // Ready the moment the new state is visible: both languages of the page being read.
    assert!(next.has_page(&format!("{round}#zh")));
    assert!(next.has_page(&format!("{round}#en")));
    assert!(!next.has_page(&format!("{standings}#zh")));
    // And it is the new state's page, not the old one's.
    let html = srv.get(&round).text();
    assert!(
        html.contains(&format!("data-seq=\"{after}\"")),
        "stale page"
    );
    let row = html
        .split(&format!("<tr><td class=\"n\">{board}</td>"))
        .nth(1)
        .expect("the board's row")
        .split("</tr>")
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(row.contains("黑胜"), "{row}");
}
