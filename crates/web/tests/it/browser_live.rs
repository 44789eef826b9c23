//! Browser tests of two arbiters on one round's grid (headless Chromium, the real server, the
//! pages' own scripts; helpers from [`crate::browser`]):
//!
//! 1. Arbiter A on a 375-px phone and arbiter B on a laptop open the grid of round 1. A enters
//!    boards 1 and 2: B's grid fills them in without a reload, marked 「已由他人录入」, and its
//!    progress line counts them. B has typed board 3 and waits to press its result key when A
//!    enters board 3: B's row is not overwritten and B is told of the conflict in words;
//!    once B lets it go (Esc) the row shows A's result. The same for a board B has only typed
//!    (not even Enter). B's own entry then reaches A's phone the same way.
//! 2. A dropped connection: the server ends the live stream after a few seconds (as it does
//!    after its lifetime); a result entered meanwhile reaches the grid once the stream is open
//!    again, without a reload.
//!
//! 3. A team round: a board entered elsewhere as 「1.1」 fills in its row, its 局分 and its
//!    match's line on the grid.
//!
//! With `ARBITER_SCREENSHOTS=DIR` the first saves its screenshots there (`desk-live-*.png`).

use crate::browser::{
    add_user, body_text, keyboard, log_in, text, wait_js, Driver, ENTER, ONE_AT_A_TIME,
};
use crate::browser_results::{screenshot, type_result};
use crate::common::TestServer;
use arbiter_store::Role;
use fantoccini::Client;
use serde_json::json;
use std::time::Duration;

const ESC: char = '\u{e00c}';
const BACKSPACE: char = '\u{e003}';

/// Kunshan (bundled) with 14 players a section: round 1 of the men's section paired and
/// published, no result yet (7 boards); arbiters `arb` and `arb2`. The event id.
fn round_one(store: &arbiter_store::SqliteStore) -> String {
    add_user(store, "arb", Role::Arbiter);
    add_user(store, "arb2", Role::Arbiter);
    let (file, toml) = arbiter_web::demo::REFERENCE
        .iter()
        .find(|(f, _)| *f == "kunshan-2026.toml")
        .expect("Kunshan is bundled");
    let how = arbiter_web::demo::PartWay {
        rounds: Some(0),
        seed: 1,
        sizes: arbiter_simulate::Sizes {
            all: Some(14),
            ..Default::default()
        },
        results_left: usize::MAX,
    };
    arbiter_web::demo::simulate_part_way(store, toml, file, &how)
        .expect("round 1 paired")
        .0
}

/// The result cell of `board` on the grid (its note 「已由他人录入」 is not part of it).
async fn cell(c: &Client, board: u32) -> String {
    let v = c
        .execute(
            "var tr = document.querySelector('#sheet tr[data-board=\"' + arguments[0] + '\"]'); \
             return tr ? tr.cells[3].textContent.trim() : null;",
            vec![json!(board)],
        )
        .await
        .expect("cell");
    v.as_str()
        .unwrap_or_else(|| panic!("no row for board {board}"))
        .to_string()
}

/// The JavaScript condition: board `board`'s cell shows `result`.
fn shows(board: u32, result: &str) -> String {
    format!(
        "(function () {{ var tr = document.querySelector('#sheet tr[data-board=\"{board}\"]'); \
         return tr && tr.cells[3].textContent.trim() === '{result}'; }})()"
    )
}

/// The grid page is the one first loaded (no reload happened): the mark set on it is there.
async fn not_reloaded(c: &Client) -> bool {
    c.execute("return window.arbiterMark === 45;", vec![])
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

async fn open_grid(c: &Client, base: &str, ev: &str) {
    c.goto(&format!("{base}/desk/e/{ev}/s/men/results"))
        .await
        .expect("grid");
    assert!(
        wait_js(
            c,
            10,
            "document.getElementById('progress').getAttribute('data-live') === 'open'"
        )
        .await,
        "the grid's live stream did not open: {}",
        body_text(c).await
    );
    c.execute("window.arbiterMark = 45; return true;", vec![])
        .await
        .expect("mark");
}

#[test]
fn two_arbiters_grids_fill_in_each_others_results_and_never_overwrite_a_typed_row() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = round_one(store));
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let a = driver.browser(375, 800).await;
        let b = driver.browser(1280, 900).await;
        log_in(&a, &base, "arb").await;
        log_in(&b, &base, "arb2").await;
        open_grid(&a, &base, &ev).await;
        open_grid(&b, &base, &ev).await;
        assert_eq!(text(&b, "#progress").await, "第1轮 · 0/7");

        // A enters boards 1 and 2; B's grid fills them in by itself.
        let said = type_result(&a, "1", '1').await;
        assert!(said.contains("第1台已录入"), "{said}");
        type_result(&a, "2", '0').await;
        let cond = format!("{} && {}", shows(1, "1-0"), shows(2, "0-1"));
        assert!(
            wait_js(&b, 10, &cond).await,
            "B's grid: {}",
            body_text(&b).await
        );
        assert!(not_reloaded(&b).await, "B's page was reloaded");
        assert!(
            wait_js(
                &b,
                5,
                "document.querySelector('#progress b').textContent === '2/7'"
            )
            .await,
            "{}",
            text(&b, "#progress").await
        );
        let others = text(&b, "#others").await;
        assert!(others.contains("第2台已由他人录入: 0-1 (黑胜)"), "{others}");
        let note = b
            .execute(
                "var tr = document.querySelector('#sheet tr[data-board=\"1\"]'); \
                 return [tr.className, tr.cells[3].getAttribute('data-note')];",
                vec![],
            )
            .await
            .expect("row 1");
        assert_eq!(note, json!(["theirs", "已由他人录入"]));
        screenshot(&b, "desk-live-others-1280").await;

        // B has typed board 3 and Enter, and is about to press its key, when A enters it.
        keyboard(&b, &format!("3{ENTER}")).await;
        assert!(
            wait_js(
                &b,
                5,
                "document.getElementById('entry').classList.contains('waiting')"
            )
            .await,
            "B waits for the result key"
        );
        type_result(&a, "3", '5').await;
        assert!(
            wait_js(
                &b,
                10,
                "document.getElementById('answer').textContent.indexOf('冲突') >= 0"
            )
            .await,
            "B is told of the conflict: {}",
            body_text(&b).await
        );
        let answer = text(&b, "#answer").await;
        assert!(
            answer.contains("第3台刚由他人录入 = (和棋)") && answer.contains("未被覆盖"),
            "{answer}"
        );
        assert_eq!(cell(&b, 3).await, "", "B's typed row is not overwritten");
        assert!(
            wait_js(&b, 1, "document.getElementById('entry').classList.contains('waiting') && \
                document.querySelector('#sheet tr[data-board=\"3\"]').classList.contains('conflict')").await,
            "B still waits on board 3, the row framed as a conflict"
        );
        screenshot(&b, "desk-live-conflict-1280").await;
        // B lets it go: the row shows A's result.
        keyboard(&b, &ESC.to_string()).await;
        assert!(
            wait_js(&b, 5, &shows(3, "=")).await,
            "{}",
            body_text(&b).await
        );
        assert!(text(&b, "#others")
            .await
            .contains("第3台已由他人录入: = (和棋)"));

        // B has only typed board 4 (its row lit, nothing sent) when A enters it.
        keyboard(&b, "4").await;
        type_result(&a, "4", '1').await;
        assert!(
            wait_js(&b, 10, "document.getElementById('answer').textContent.indexOf('第4台刚由他人录入 1-0') >= 0").await,
            "{}",
            body_text(&b).await
        );
        assert_eq!(cell(&b, 4).await, "");
        keyboard(&b, &BACKSPACE.to_string()).await;
        assert!(
            wait_js(&b, 5, &shows(4, "1-0")).await,
            "{}",
            body_text(&b).await
        );

        // B's own entry reaches A's phone the same way.
        let said = type_result(&b, "5", '0').await;
        assert!(said.contains("第5台已录入"), "{said}");
        assert!(
            wait_js(&a, 10, &shows(5, "0-1")).await,
            "A's phone: {}",
            body_text(&a).await
        );
        assert!(not_reloaded(&a).await, "A's page was reloaded");
        assert!(text(&a, "#others").await.contains("第5台已由他人录入"));
        assert!(
            wait_js(
                &a,
                5,
                "document.querySelector('#progress b').textContent === '5/7'"
            )
            .await,
            "{}",
            text(&a, "#progress").await
        );
        // Nothing wider than the phone's screen.
        let wide = a
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth;",
                vec![],
            )
            .await
            .expect("width");
        assert_eq!(wide, json!(true), "the grid fits 375 px");
        screenshot(&a, "desk-live-others-375").await;

        a.close().await.expect("close A");
        b.close().await.expect("close B");
    });
}

#[test]
fn a_grid_whose_stream_dropped_catches_up_when_it_is_open_again() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    // Every live stream ends after 3 s, as a bad Wi-Fi drops it; the browser opens it again
    // after the pause the server says (2–12 s).
    let limits = arbiter_web::net::Limits {
        live_lifetime: Duration::from_secs(3),
        ..Default::default()
    };
    let srv = TestServer::start_limited(|store| ev = round_one(store), limits);
    let base = format!("http://{}", srv.addr);
    let a = crate::common::desk::login(&srv, "arb");
    crate::browser::run(async {
        let b = driver.browser(1280, 900).await;
        log_in(&b, &base, "arb2").await;
        open_grid(&b, &base, &ev).await;
        // The stream is dropped; while it is, A enters board 6.
        assert!(
            wait_js(
                &b,
                10,
                "document.getElementById('progress').getAttribute('data-live') === 'error'"
            )
            .await,
            "the stream did not drop"
        );
        let r = a.post_json(
            &srv,
            &format!("/desk/e/{ev}/s/men/results"),
            &[("board", "6"), ("result", "1")],
        );
        assert_eq!(r.status, 200, "{}", r.text());
        // Open again, the grid catches up.
        assert!(
            wait_js(&b, 20, &shows(6, "1-0")).await,
            "{}",
            body_text(&b).await
        );
        assert!(not_reloaded(&b).await, "the page was reloaded");
        assert_eq!(text(&b, "#progress").await, "第1轮 · 1/7");
        b.close().await.expect("close");
    });
}

#[test]
fn a_team_grid_follows_the_match_line_of_a_board_entered_elsewhere() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    // A team Swiss of 20 teams of four boards: round 1 paired and published, no result.
    let srv = TestServer::start_with(|store| {
        add_user(store, "arb", Role::Arbiter);
        add_user(store, "arb2", Role::Arbiter);
        let how = arbiter_web::demo::PartWay {
            rounds: Some(0),
            seed: 2,
            sizes: arbiter_simulate::Sizes {
                all: Some(100),
                ..Default::default()
            },
            results_left: usize::MAX,
        };
        ev = arbiter_web::demo::simulate_part_way(
            store,
            include_str!("../../../simulate/tests/fixtures/team-swiss.toml"),
            "team-swiss.toml",
            &how,
        )
        .expect("round 1 paired")
        .0;
    });
    let base = format!("http://{}", srv.addr);
    let a = crate::common::desk::login(&srv, "arb");
    crate::browser::run(async {
        let b = driver.browser(1280, 900).await;
        log_in(&b, &base, "arb2").await;
        b.goto(&format!("{base}/desk/e/{ev}/s/teams/results"))
            .await
            .expect("grid");
        assert!(
            wait_js(
                &b,
                10,
                "document.getElementById('progress').getAttribute('data-live') === 'open'"
            )
            .await,
            "{}",
            body_text(&b).await
        );
        let line = text(&b, "#m-1 tr.match th").await;
        let r = a.post_json(
            &srv,
            &format!("/desk/e/{ev}/s/teams/results"),
            &[("round", "1"), ("board", "1.1"), ("result", "1")],
        );
        assert_eq!(r.status, 200, "{}", r.text());
        let answer = r.json();
        let want = answer["match_line"]
            .as_str()
            .expect("the match's line")
            .to_string();
        assert_ne!(want, line);
        let board = answer["board"].as_u64().expect("board") as u32;
        let cond = format!(
            "document.querySelector('#m-1 tr.match th').textContent === {} && {}",
            json!(want),
            shows(board, "1-0")
        );
        assert!(wait_js(&b, 10, &cond).await, "{}", body_text(&b).await);
        let points = b
            .execute(
                "return document.querySelector('#sheet tr[data-mb=\"1.1\"]').cells[2].textContent.trim();",
                vec![],
            )
            .await
            .expect("points");
        assert!(
            points.as_str().is_some_and(|p| p.contains(':')),
            "the board's 局分: {points}"
        );
        assert!(text(&b, "#others").await.contains("第1场第1台已由他人录入"));
        b.close().await.expect("close");
    });
}
