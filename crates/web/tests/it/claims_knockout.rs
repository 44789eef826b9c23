//! Issue 47, part 1, for knockout games (淘汰赛): the players of a knockout game confirm its
//! result on the phone with the codes of its slip (`/e/{ev}/claim`). Both agreeing record the
//! game as the arbiter's entry would; a disagreement is red on the desk's knockout page and
//! the arbiter settles it; a Swiss board's code does not open a knockout game; a game whose
//! colours are chosen at the board, and a game already recorded, are refused in words.

use crate::common;
use crate::desk::{flash, to_knockout};

use arbiter_core::LogEntry;
use arbiter_director::claim::{self, knockout_code, KoGame, KoSeat, Seat};
use arbiter_store::{AccountStore, EventId, EventStore};
use arbiter_types::{Colour, GameResult};
use common::desk::{form, login, with_accounts, Browser};
use common::{request_from, Response, TestServer};
use std::net::{IpAddr, Ipv4Addr};

fn boot() -> (TestServer, EventId) {
    let mut id = None;
    let srv = TestServer::start_with(|store| {
        with_accounts(store);
        id = Some(to_knockout(store));
    });
    (srv, id.expect("event"))
}

fn secret(srv: &TestServer, id: &EventId) -> String {
    // The store makes the secret on first use; the server then reads the same one.
    srv.store()
        .claim_secret(&id.0, "a fresh secret of this test")
        .expect("secret")
}

/// The women's knockout games due now, in board order.
fn due(srv: &TestServer, id: &EventId) -> Vec<KoGame> {
    let st = srv.store().state(id).expect("state");
    claim::knockout_games(&st, "women")
        .into_iter()
        .filter(|g| g.due.is_some())
        .collect()
}

/// The code printed on `g`'s slip for `side`.
fn ko_code(srv: &TestServer, id: &EventId, g: &KoGame, side: Colour) -> String {
    knockout_code(
        secret(srv, id).as_bytes(),
        &KoSeat {
            section: "women".into(),
            match_id: g.match_id.clone(),
            game: g.game,
            side,
        },
    )
}

/// A tap on the phone at 127.0.0.`from` on the page of knockout game `g`.
fn tap(srv: &TestServer, id: &EventId, from: u8, code: &str, g: &KoGame, result: &str) -> Response {
    let game = g.game.to_string();
    let body = form(&[
        ("code", code),
        ("section", "women"),
        ("match_id", &g.match_id),
        ("game", &game),
        ("result", result),
    ]);
    request_from(
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, from)),
        srv.addr,
        "POST",
        &format!("/e/{id}/claim"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    )
}

/// The recorded games of match `mid`: (game, result, actor).
fn recorded(srv: &TestServer, id: &EventId, mid: &str) -> Vec<(u32, GameResult, String)> {
    srv.store()
        .read(id)
        .expect("log")
        .into_iter()
        .filter_map(|r| match r.entry {
            LogEntry::KnockoutGameRecorded {
                match_id,
                game,
                result,
                ..
            } if match_id == mid => Some((game, result, r.actor)),
            _ => None,
        })
        .collect()
}

/// The arbiter enters game `g` at the desk's knockout page.
fn desk_enters(srv: &TestServer, arb: &Browser, id: &EventId, g: &KoGame, result: &str) {
    let board = g.due.expect("due").1.to_string();
    let game = g.game.to_string();
    let (ok, msg) = flash(&arb.post(
        srv,
        &format!("/desk/e/{id}/s/women/knockout"),
        &[
            ("board", board.as_str()),
            ("match_id", g.match_id.as_str()),
            ("game", game.as_str()),
            ("result", result),
        ],
    ));
    assert!(ok, "{msg}");
}

#[test]
fn both_players_of_a_knockout_game_agree_on_the_phone_and_the_game_is_recorded() {
    let (srv, id) = boot();
    let arb = login(&srv, "arb");
    let first = due(&srv, &id);
    assert!(first.len() >= 2, "{first:?}");
    // The higher seed chooses the colours of a match's first game (K7): that game is the
    // arbiter's, and the phone says so in words.
    let g = &first[0];
    assert!(g.chooser, "{g:?}");
    let r = tap(
        &srv,
        &id,
        2,
        &ko_code(&srv, &id, g, Colour::Red),
        g,
        "red_win",
    );
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("选色"), "{}", r.text());
    desk_enters(&srv, &arb, &id, g, "=");

    // Drawn: the rapid game follows with the colours swapped, no choice (K1): the players
    // claim it.
    let g = due(&srv, &id)
        .into_iter()
        .find(|x| x.match_id == first[0].match_id)
        .expect("the second game due");
    assert_eq!((g.game, g.chooser), (1, false));
    let red = ko_code(&srv, &id, &g, Colour::Red);
    let black = ko_code(&srv, &id, &g, Colour::Black);
    // The slip's link opens the game: the match and game, the names, never a person's data.
    let page = request_from(
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
        srv.addr,
        "GET",
        &format!("/e/{id}/claim?c={}", black.to_lowercase()),
        &[],
        None,
    );
    assert_eq!(page.status, 200, "{}", page.text());
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    let html = page.text();
    let st = srv.store().state(&id).expect("state");
    for p in [g.red, g.black] {
        let p = st.player(p).expect("player");
        assert!(html.contains(&p.person.name), "{html}");
        if let Some(idn) = &p.person.id_number {
            assert!(!html.contains(idn.as_str()), "an ID number on the page");
        }
    }
    assert!(
        html.contains(&g.label) && html.contains("黑方") && html.contains(r#"value="draw""#),
        "{html}"
    );
    assert!(
        html.contains(&format!(r#"name="match_id" value="{}""#, g.match_id)),
        "{html}"
    );

    let r = tap(&srv, &id, 2, &red, &g, "black_win");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("等待对方确认"), "{}", r.text());
    assert_eq!(recorded(&srv, &id, &g.match_id).len(), 1);
    let r = tap(&srv, &id, 3, &black, &g, "black_win");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("本局成绩已录入"), "{}", r.text());
    // Recorded once, as the players', with the colours of the slip.
    let games = recorded(&srv, &id, &g.match_id);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(
        games[1],
        (
            1,
            GameResult::BlackWin,
            arbiter_director::log_view::PHONE.to_string()
        )
    );
    let claims = srv
        .store()
        .read(&id)
        .expect("log")
        .iter()
        .filter(|r| matches!(r.entry, LogEntry::KnockoutResultClaimed { .. }))
        .count();
    assert_eq!(claims, 2);

    // Replay after the entry: refused in words, nothing written.
    let before = srv.store().read(&id).expect("log").len();
    let r = tap(&srv, &id, 2, &red, &g, "draw");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("成绩已录入"), "{}", r.text());
    assert_eq!(srv.store().read(&id).expect("log").len(), before);
    // The match is decided: its armageddon is no game of the bracket, and a code made for it
    // names nothing.
    let armageddon = KoGame { game: 2, ..g };
    let r = tap(
        &srv,
        &id,
        4,
        &ko_code(&srv, &id, &armageddon, Colour::Red),
        &armageddon,
        "red_win",
    );
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("确认码不正确"), "{}", r.text());
    assert_eq!(recorded(&srv, &id, &armageddon.match_id).len(), 2);
}

#[test]
fn a_disagreement_is_red_on_the_knockout_page_and_the_arbiter_settles_it() {
    let (srv, id) = boot();
    let arb = login(&srv, "arb");
    let first = due(&srv, &id);
    let g0 = &first[1];
    desk_enters(&srv, &arb, &id, g0, "=");
    let g = due(&srv, &id)
        .into_iter()
        .find(|x| x.match_id == g0.match_id)
        .expect("the second game due");
    let red = ko_code(&srv, &id, &g, Colour::Red);
    let black = ko_code(&srv, &id, &g, Colour::Black);
    assert_eq!(tap(&srv, &id, 2, &red, &g, "red_win").status, 200);
    let r = tap(&srv, &id, 3, &black, &g, "draw");
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("不一致"), "{}", r.text());
    assert_eq!(recorded(&srv, &id, &g.match_id).len(), 1);

    let path = format!("/desk/e/{id}/s/women/knockout");
    let html = arb.get(&srv, &path).text();
    let claims = html
        .split(r#"<ul class="claims" id="claims">"#)
        .nth(1)
        .and_then(|s| s.split("</ul>").next())
        .unwrap_or_default();
    let board = g.due.expect("due").1;
    assert!(
        claims.contains(&format!(
            r#"<li class="flagged">第{board}台 {} 选手确认: 红方确认 红胜, 黑方确认 和棋"#,
            g.label
        )),
        "{html}"
    );
    let sheet = html
        .split(r#"<table class="grid sheet" id="sheet">"#)
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .unwrap_or_default();
    assert!(
        sheet.contains(&format!(r#"<tr data-board="{board}" class="flagged">"#)),
        "{sheet}"
    );
    assert_eq!(sheet.matches("class=\"flagged\"").count(), 1, "{sheet}");

    // The arbiter enters the game as always; the players' claims are then refused.
    desk_enters(&srv, &arb, &id, &g, "=");
    let games = recorded(&srv, &id, &g.match_id);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].1, GameResult::Draw);
    assert_eq!(games[1].2, "arb");
    let r = tap(&srv, &id, 2, &red, &g, "red_win");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("成绩已录入"), "{}", r.text());
    let html = arb.get(&srv, &path).text();
    assert!(!html.contains(r#"class="flagged""#), "{html}");
}

#[test]
fn a_swiss_boards_code_does_not_open_a_knockout_game() {
    let (srv, id) = boot();
    let g = due(&srv, &id).into_iter().next().expect("a game due");
    let (round, board) = g.due.expect("due");
    let secret = secret(&srv, &id);
    // A board of the women's Swiss stage: its code is a board's, refused on the game's page.
    let swiss = claim::code(
        secret.as_bytes(),
        &Seat {
            section: "women".into(),
            round: 1,
            board: 1,
            side: Colour::Red,
        },
    );
    let r = tap(&srv, &id, 4, &swiss, &g, "red_win");
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("确认码不属于本局"), "{}", r.text());
    // A board's code made of the game's own round and board names no seat at all.
    let made = claim::code(
        secret.as_bytes(),
        &Seat {
            section: "women".into(),
            round,
            board,
            side: Colour::Red,
        },
    );
    let r = tap(&srv, &id, 4, &made, &g, "red_win");
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(r.text().contains("确认码不正确"), "{}", r.text());
    assert!(recorded(&srv, &id, &g.match_id).is_empty());
}
