//! The read JSON API against the real server.

use crate::common;

use arbiter_store::EventStore;
use common::*;

#[test]
fn events_sections_rounds_results_standings_teams() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "kunshan-2026.toml", 2, None));
    });
    let id = id.expect("event");
    let state = srv.store().state(&id).expect("state");

    let list = srv.get("/api/events").json();
    assert_eq!(list[0]["id"], id.0.as_str());

    let ev = srv.get(&format!("/api/events/{id}"));
    assert_eq!(ev.header("content-type"), Some("application/json"));
    let ev = ev.json();
    assert_eq!(ev["last_seq"], state.last_seq);
    assert_eq!(ev["regulation"], "kunshan-2026");
    let men = ev["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .find(|s| s["id"] == "men")
        .expect("men");
    assert_eq!(men["rounds"].as_array().expect("rounds").len(), 3);

    // The pairing sheet: exactly the `round show --json` document.
    let sheet = arbiter_director::api::rounds::sheet(&state, "men", Some(3)).expect("sheet");
    let want = serde_json::to_value(&sheet).expect("json");
    let got = srv
        .get(&format!("/api/events/{id}/sections/men/rounds/3"))
        .json();
    assert_eq!(got, want);
    assert_eq!(got["boards"][0]["red"]["no"], sheet.boards[0].red.no);

    let res = srv
        .get(&format!("/api/events/{id}/sections/men/results"))
        .json();
    assert_eq!(res["completed_rounds"], 2);
    let r3 = res["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .find(|r| r["round"] == 3)
        .expect("round 3");
    // One result of round 3 is missing.
    assert_eq!(
        r3["games"].as_array().expect("games").len() + 1,
        sheet.boards.len()
    );

    let st = srv
        .get(&format!("/api/events/{id}/sections/men/standings"))
        .json();
    let export = arbiter_director::export(&state).expect("export");
    let ex = export.sections.iter().find(|s| s.id == "men").expect("men");
    assert_eq!(
        st["tiebreaks"],
        serde_json::to_value(&ex.tiebreaks).expect("j")
    );
    let rows = st["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), ex.standings.len());
    assert_eq!(rows[0]["no"], ex.standings[0].no);
    assert!(rows[0]["name"].is_string());
    assert!(rows[0]["tiebreaks"].is_object());

    let teams = srv.get(&format!("/api/events/{id}/teams")).json();
    assert_eq!(
        teams["teams"],
        serde_json::to_value(&export.teams).expect("j")
    );
    let players = srv
        .get(&format!("/api/events/{id}/sections/men/players"))
        .json();
    assert_eq!(
        players["players"].as_array().expect("p").len(),
        ex.players.len()
    );
}

#[test]
fn api_errors_are_json_and_name_what_is_missing() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "jiujiang-2020.toml", 1, None));
    });
    let id = id.expect("event");
    let r = srv.get("/api/events/ev-000000ff");
    assert_eq!(r.status, 404);
    let msg = r.json()["error"].as_str().expect("msg").to_string();
    assert!(
        msg.starts_with("未找到") && msg.contains("ev-000000ff"),
        "{msg}"
    );
    let r = srv.get(&format!("/api/events/{id}/sections/nope/standings"));
    assert_eq!(r.status, 404);
    let r = srv.get(&format!("/api/events/{id}/sections/senior/rounds/9"));
    assert_eq!(r.status, 404);
    assert!(r.json()["error"]
        .as_str()
        .expect("msg")
        .contains("尚未编排"));
}
