//! Black-box HTTP tests: the real server on a random port over a temp SQLite file.

use crate::common;

use common::*;

#[test]
fn home_lists_the_events_and_the_event_page_has_its_sections_and_qr_code() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "tianshui-2024.toml", 2, None));
    });
    let id = id.expect("event");
    let home = srv.get("/");
    assert_eq!(home.status, 200);
    assert_eq!(
        home.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = home.text();
    assert!(html.contains(&format!("/e/{id}")), "{html}");
    assert!(html.contains("天水"), "event name shown: {html}");

    let ev = srv.get(&format!("/e/{id}"));
    assert_eq!(ev.status, 200);
    let html = ev.text();
    assert!(
        html.contains("第3轮"),
        "the paired third round is linked: {html}"
    );
    assert!(html.contains(&format!("/e/{id}/qr.svg")));
    let qr = srv.get(&format!("/e/{id}/qr.svg"));
    assert_eq!(qr.status, 200);
    assert_eq!(qr.header("content-type"), Some("image/svg+xml"));
    assert!(qr.text().starts_with("<?xml") || qr.text().contains("<svg"));

    // English on request, and by the cookie the switch sets.
    let en = srv.get(&format!("/e/{id}?lang=en"));
    assert!(en.text().contains("Round 3"), "{}", en.text());
    let sw = srv.get(&format!("/lang?to=en&back=/e/{id}"));
    assert_eq!(sw.status, 303);
    let cookie = sw.header("set-cookie").expect("cookie set");
    assert!(cookie.starts_with("lang=en"));
    let en = srv.get_with(&format!("/e/{id}"), &[("Cookie", "lang=en")]);
    assert!(en.text().contains("Round 3"));
    // No open redirect.
    let sw = srv.get("/lang?to=en&back=//evil.example/");
    assert_eq!(sw.header("location"), Some("/"));
}

#[test]
fn unknown_event_is_404_in_chinese_first() {
    let srv = TestServer::start();
    let r = srv.get("/e/ev-000000ff");
    assert_eq!(r.status, 404);
    assert!(
        r.text().contains("不存在") || r.text().contains("未找到"),
        "{}",
        r.text()
    );
    let r = srv.get("/e/nonsense");
    assert_eq!(r.status, 404);
}

#[test]
fn cached_pages_answer_not_modified_and_gzip() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "tianshui-2024.toml", 1, None));
    });
    let id = id.expect("event");
    let path = format!("/e/{id}");
    let first = srv.get(&path);
    let etag = first.header("etag").expect("etag").to_string();
    let again = srv.get_with(&path, &[("If-None-Match", &etag)]);
    assert_eq!(again.status, 304);
    let gz = srv.get_with(&path, &[("Accept-Encoding", "gzip, br")]);
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert!(gz.body.len() < first.body.len());
}

#[test]
fn the_demo_database_holds_the_four_reference_events_part_way() {
    use arbiter_store::EventStore;
    let store = arbiter_web::demo::demo_store().expect("demo");
    let events = store.list_events().expect("events");
    assert_eq!(events.len(), 4);
    for e in &events {
        let state = store.state(&e.id).expect("state");
        let reg = arbiter_director::regulation_of(&state).expect("reg");
        let first = &reg.sections[0].id;
        let sec = state.section(first).expect("first section");
        let done = sec.completed_rounds();
        assert!(done >= 1, "{}: rounds played", e.name);
        let next = sec.round(done + 1).expect("the next round is paired");
        assert!(next.published, "{}: and published", e.name);
        let missing = next.boards.iter().filter(|b| b.result.is_none()).count();
        assert_eq!(missing, 1, "{}: one result missing", e.name);
    }
}
