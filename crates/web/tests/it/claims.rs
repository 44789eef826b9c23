//! Issue 47, part 1: players confirm their own results on the phone with the code of their
//! pairing slip (`/e/{ev}/claim`). Two players who agree enter the result as theirs; a
//! disagreement shows red on the desk's results page; codes tried as an attacker would —
//! another board's, guessed, replayed after the result is in — are refused in words, and an
//! address that keeps guessing waits.

use crate::common;

use arbiter_director::claim::{code, Seat};
use arbiter_store::{AccountStore, EventId, EventStore};
use arbiter_types::Colour;
use common::desk::{form, login, with_accounts};
use common::{request_from, Response, TestServer};
use std::net::{IpAddr, Ipv4Addr};

/// Kunshan with round 1 complete and round 2 paired and published, no result of it.
fn boot() -> (TestServer, EventId) {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        with_accounts(st);
        let (_, text) = arbiter_web::demo::REFERENCE
            .iter()
            .find(|(f, _)| *f == "kunshan-2026.toml")
            .expect("kunshan");
        let how = arbiter_web::demo::PartWay {
            rounds: Some(1),
            results_left: usize::MAX,
            ..Default::default()
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "kunshan-2026.toml", &how)
                .expect("simulated"),
        );
    });
    (srv, id.expect("event"))
}

/// The code printed on the slip of `board`'s `side` in round 2 of the men.
fn seat_code(srv: &TestServer, id: &EventId, board: u32, side: Colour) -> String {
    // The server makes the secret on first use; asking the store first makes it here, and
    // the server then reads the same one.
    let secret = srv
        .store()
        .claim_secret(&id.0, "a fresh secret of this test")
        .expect("secret");
    code(
        secret.as_bytes(),
        &Seat {
            section: "men".into(),
            round: 2,
            board,
            side,
        },
    )
}

fn local(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

/// A tap on the phone at `from`: the code, the board the page showed, the result.
fn tap(srv: &TestServer, id: &EventId, from: u8, code: &str, board: u32, result: &str) -> Response {
    let body = form(&[
        ("code", code),
        ("section", "men"),
        ("round", "2"),
        ("board", &board.to_string()),
        ("result", result),
    ]);
    request_from(
        local(from),
        srv.addr,
        "POST",
        &format!("/e/{id}/claim"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    )
}

fn result_of(srv: &TestServer, id: &EventId, board: u32) -> Option<arbiter_types::GameResult> {
    let st = srv.store().state(id).expect("state");
    st.section("men")
        .and_then(|s| s.round(2))
        .and_then(|r| r.board(board))
        .and_then(|b| b.result)
}

#[test]
fn two_phones_agree_and_the_result_is_theirs_and_a_replay_is_refused() {
    let (srv, id) = boot();
    let red = seat_code(&srv, &id, 1, Colour::Red);
    let black = seat_code(&srv, &id, 1, Colour::Black);

    // The slip's link opens the board: names and units, never a person's data.
    let page = request_from(
        local(2),
        srv.addr,
        "GET",
        &format!("/e/{id}/claim?c={}", red.to_lowercase()),
        &[],
        None,
    );
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    let html = page.text();
    let st = srv.store().state(&id).expect("state");
    let b = st
        .section("men")
        .and_then(|s| s.round(2))
        .and_then(|r| r.board(1))
        .cloned()
        .expect("board 1");
    for p in [b.red, b.black] {
        let p = st.player(p).expect("player");
        assert!(html.contains(&p.person.name), "{html}");
        if let Some(idn) = &p.person.id_number {
            assert!(!html.contains(idn.as_str()), "an ID number on the page");
        }
    }
    assert!(
        html.contains("第2轮 第1台") && html.contains("红方"),
        "{html}"
    );
    assert!(html.contains(r#"value="red_win""#), "{html}");

    let r = tap(&srv, &id, 2, &red, 1, "red_win");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("等待对方确认"), "{}", r.text());
    assert_eq!(result_of(&srv, &id, 1), None);
    let r = tap(&srv, &id, 3, &black, 1, "red_win");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("成绩已录入"), "{}", r.text());
    assert_eq!(
        result_of(&srv, &id, 1),
        Some(arbiter_types::GameResult::RedWin)
    );
    // Recorded as the players', once.
    let log = srv.store().read(&id).expect("log");
    let entered: Vec<_> = log
        .iter()
        .filter(|r| {
            matches!(
                &r.entry,
                arbiter_core::LogEntry::ResultEntered {
                    round: 2,
                    board: 1,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(entered.len(), 1);
    assert_eq!(entered[0].actor, arbiter_director::log_view::PHONE);
    // Replay after the result is in: refused in words, nothing written.
    let before = log.len();
    let r = tap(&srv, &id, 2, &red, 1, "draw");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("成绩已录入"), "{}", r.text());
    assert_eq!(srv.store().read(&id).expect("log").len(), before);
}

#[test]
fn a_disagreement_is_red_on_the_desk_and_the_arbiters_entry_wins() {
    let (srv, id) = boot();
    let red = seat_code(&srv, &id, 2, Colour::Red);
    let black = seat_code(&srv, &id, 2, Colour::Black);
    assert_eq!(tap(&srv, &id, 2, &red, 2, "red_win").status, 200);
    let r = tap(&srv, &id, 3, &black, 2, "draw");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("不一致"), "{}", r.text());
    assert_eq!(result_of(&srv, &id, 2), None);

    let arb = login(&srv, "arb");
    let page = arb.get(&srv, &format!("/desk/e/{id}/s/men/results"));
    assert_eq!(page.status, 200);
    let html = page.text();
    let claims = html
        .split(r#"<ul class="claims" id="claims">"#)
        .nth(1)
        .and_then(|s| s.split("</ul>").next())
        .unwrap_or_default();
    assert!(
        claims.contains(r#"<li class="flagged">第2轮第2台 选手确认: 红方确认 红胜, 黑方确认 和棋"#),
        "{html}"
    );
    // On the sheet below, the board's own row is red too, and only its row.
    let sheet = html
        .split(r#"<table class="grid sheet" id="sheet">"#)
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .unwrap_or_default();
    assert!(
        sheet.contains(r#"<tr data-board="2" class="flagged">"#),
        "{sheet}"
    );
    assert_eq!(sheet.matches("class=\"flagged\"").count(), 1, "{sheet}");
    // The round's page shows the same sheet, the same row red.
    let round = arb.get(&srv, &format!("/desk/e/{id}/s/men/round")).text();
    assert!(
        round.contains(r#"<tr data-board="2" class="flagged">"#),
        "{round}"
    );
    // The arbiter enters the board as always; the players' claims then are refused.
    let r = arb.post(
        &srv,
        &format!("/desk/e/{id}/s/men/results"),
        &[("board", "2"), ("result", "=")],
    );
    assert!(r.status < 400, "{}", r.text());
    assert_eq!(
        result_of(&srv, &id, 2),
        Some(arbiter_types::GameResult::Draw)
    );
    let r = tap(&srv, &id, 2, &red, 2, "red_win");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("成绩已录入"), "{}", r.text());
    // Decided: no row is red any more.
    let html = arb.get(&srv, &format!("/desk/e/{id}/s/men/results")).text();
    assert!(!html.contains(r#"class="flagged""#), "{html}");
}

#[test]
fn codes_tried_as_an_attacker_would_are_refused_and_guessing_waits() {
    let (srv, id) = boot();
    let mine = seat_code(&srv, &id, 3, Colour::Red);
    let other = seat_code(&srv, &id, 4, Colour::Black);
    // Another board's code on this board's page.
    let r = tap(&srv, &id, 9, &other, 3, "red_win");
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("确认码不属于本台"), "{}", r.text());
    // Guessed codes.
    let mut tried = 1;
    for guess in ["23456789", "ABCDEFGH", "not a code"] {
        let r = tap(&srv, &id, 9, guess, 3, "red_win");
        tried += 1;
        assert_eq!(r.status, 403, "{}", r.text());
        assert!(r.text().contains("确认码不正确"), "{}", r.text());
    }
    assert_eq!(result_of(&srv, &id, 3), None);
    assert_eq!(result_of(&srv, &id, 4), None);
    // Past the limit the address waits, even with a right code.
    while tried < arbiter_web::claim::MAX_WRONG {
        assert_eq!(tap(&srv, &id, 9, "ZZZZZZZZ", 3, "draw").status, 403);
        tried += 1;
    }
    let r = tap(&srv, &id, 9, &mine, 3, "red_win");
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.text().contains("秒后再试"), "{}", r.text());
    // Another address is not held by it.
    let r = tap(&srv, &id, 10, &mine, 3, "red_win");
    assert_eq!(r.status, 200, "{}", r.text());
    // A tampered result is refused in words.
    let r = tap(&srv, &id, 10, &mine, 3, "red_forfeit");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("弃权由裁判录入"), "{}", r.text());
}
