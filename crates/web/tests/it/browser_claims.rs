//! Issue 47's must-show in headless Chromium: a Swiss round of a 40-board field entered
//! entirely by the 80 players' phones (helpers from [`crate::browser`]).
//!
//! Kunshan (bundled, both players sign) with 80 men: round 1 played, round 2 paired and
//! published. The arbiter's desk prints the round's result slips; every phone — a Chromium
//! session of its own, with its own profile and cookies, at 360 or 375 px — opens the address
//! of its side's QR code on the slip and taps the result. The first phone of a board reads
//! 「等待对方确认」, the second 「双方确认一致」, and the first, woken up, reads 「成绩已录入」.
//! One board's players disagree: the desk shows it red with both claims, the arbiter enters
//! it, then confirms the round. The round's results are what the phones entered, each board
//! entered once (the log's result entries counted per board). An attacker's phone tries a
//! forged form with another board's code and guessed codes before the confirmation, and
//! replays a tap after it: each refused in words, nothing written.
//!
//! The phones run [`AT_ONCE`] boards at a time (two sessions a board) so that two cores cope;
//! only chromedriver is shared between them.
//!
//! With `ARBITER_SCREENSHOTS=DIR` the claim page is saved at 360 and 375 px
//! (`claim-360-*.png`, `claim-375-*.png`) and the desk's list of claims
//! (`desk-claims.png`).

use crate::browser::{
    add_user, body_text, click, fill, log_in, text, wait_js, Driver, ONE_AT_A_TIME,
};
use crate::browser_results::{screenshot, type_result};
use crate::common::TestServer;
use arbiter_core::LogEntry;
use arbiter_store::{EventId, EventStore, Role};
use arbiter_types::GameResult;
use fantoccini::{Client, Locator};
use futures_util::stream::{self, StreamExt};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Instant;

/// Boards whose two phones run at the same time.
const AT_ONCE: usize = 3;
/// The board whose players disagree.
const DISPUTED: u32 = 7;
const BOARDS: u32 = 40;

/// Kunshan with 80 men (and its other sections at their usual sizes), round 1 complete and
/// round 2 paired and published with no result; accounts `chief` and `arb`.
fn eighty_men(store: &arbiter_store::SqliteStore) -> String {
    add_user(store, "chief", Role::ChiefArbiter);
    add_user(store, "arb", Role::Arbiter);
    let (file, toml) = arbiter_web::demo::REFERENCE
        .iter()
        .find(|(f, _)| *f == "kunshan-2026.toml")
        .expect("Kunshan is bundled");
    let how = arbiter_web::demo::PartWay {
        rounds: Some(1),
        seed: 47,
        sizes: arbiter_simulate::Sizes {
            all: None,
            by_section: [("men".to_string(), 80)].into_iter().collect(),
        },
        results_left: usize::MAX,
    };
    arbiter_web::demo::simulate_part_way(store, toml, file, &how)
        .expect("round 2 paired")
        .0
}

/// What the players of `board` tap: (red's, black's). Every result a phone may claim
/// occurs; the disputed board's players disagree.
fn taps(board: u32) -> (&'static str, &'static str) {
    if board == DISPUTED {
        return ("red_win", "draw");
    }
    let r = ["red_win", "draw", "black_win"][(board % 3) as usize];
    (r, r)
}

fn result_of(tap: &str) -> GameResult {
    match tap {
        "red_win" => GameResult::RedWin,
        "draw" => GameResult::Draw,
        "black_win" => GameResult::BlackWin,
        other => panic!("no such tap {other}"),
    }
}

/// The slip's QR addresses of round 2 by board: (red's, black's), read off the result slips
/// the desk prints (each QR code's SVG is labelled with the address it encodes).
async fn slip_addresses(desk: &Client, base: &str, ev: &str) -> BTreeMap<u32, (String, String)> {
    desk.goto(&format!(
        "{base}/desk/e/{ev}/print?doc=slips&section=men&round=2"
    ))
    .await
    .expect("slips");
    let v = desk
        .execute(
            "return Array.from(document.querySelectorAll('.keep')).map(function (k) {\
               var h = k.querySelector('h3'); var m = h && /第(\\d+)台/.exec(h.textContent);\
               return [m ? +m[1] : 0, Array.from(k.querySelectorAll('.codes svg'))\
                 .map(function (s) { return s.getAttribute('aria-label'); })];\
             });",
            vec![],
        )
        .await
        .expect("read the slips");
    let slips: Vec<(u32, Vec<String>)> = serde_json::from_value(v).expect("boards and codes");
    slips
        .into_iter()
        .map(|(b, qr)| {
            assert_eq!(qr.len(), 2, "board {b}: one QR code a side: {qr:?}");
            (b, (qr[0].clone(), qr[1].clone()))
        })
        .collect()
}

/// The page as the phone shows it after a tap or a load: the status line and the flash.
async fn status(c: &Client) -> String {
    text(c, "#claim-status").await
}

/// Nothing on the page is wider than the phone.
async fn fits(c: &Client) -> bool {
    c.execute(
        "return document.documentElement.scrollWidth <= window.innerWidth;",
        vec![],
    )
    .await
    .expect("scroll width")
        == json!(true)
}

/// A phone of `width` px opens `url` (its slip's QR code) and shows the board.
async fn open(driver: &Driver, width: u32, url: &str) -> Client {
    let c = driver.browser(width, 740).await;
    c.goto(url).await.expect("claim page");
    assert!(
        wait_js(&c, 10, "document.getElementById('claim-form')").await,
        "{url}: no board to claim: {}",
        body_text(&c).await
    );
    c
}

/// Tap `result` (`red_win`, `draw` or `black_win`) and wait for the answer's page.
async fn tap(c: &Client, result: &str) -> String {
    let id = format!("#claim-{}", result.replace('_', "-"));
    click(c, &id).await;
    assert!(
        wait_js(c, 10, "document.querySelector('.flash')").await,
        "tap {result}: no answer: {}",
        body_text(c).await
    );
    text(c, ".flash").await
}

/// The two phones of `board`: red taps, then black; red's phone wakes up and loads its page
/// again. The answers: red's, black's, and red's status after.
async fn play_board(
    driver: &Driver,
    board: u32,
    (red_url, black_url): (String, String),
) -> (String, String, String) {
    let (rt, bt) = taps(board);
    let red = open(driver, 360, &red_url).await;
    assert!(
        text(&red, "#claim-seat")
            .await
            .contains(&format!("第{board}台")),
        "board {board}: {}",
        body_text(&red).await
    );
    assert_eq!(text(&red, "#claim-side").await, "红方");
    let red_said = tap(&red, rt).await;
    assert!(
        fits(&red).await,
        "board {board}: the page is wider than 360 px"
    );
    if board == 1 {
        screenshot(&red, "claim-360-waiting").await;
    }
    let black = open(driver, 375, &black_url).await;
    assert_eq!(text(&black, "#claim-side").await, "黑方");
    let black_said = tap(&black, bt).await;
    assert!(
        fits(&black).await,
        "board {board}: the page is wider than 375 px"
    );
    if board == 1 {
        screenshot(&black, "claim-375-agreed").await;
    }
    black.close().await.expect("close");
    red.refresh().await.expect("reload");
    let red_after = status(&red).await;
    if board == 1 {
        screenshot(&red, "claim-360-entered").await;
    }
    red.close().await.expect("close");
    (red_said, black_said, red_after)
}

/// Post the claim form by hand, as a forger would (the fields of the board's page, any code),
/// from the page `c` is on; the answer's flash.
async fn forge(c: &Client, action: &str, fields: &[(&str, &str)]) -> String {
    let fields: serde_json::Map<String, serde_json::Value> = fields
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    c.execute(
        "var f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];\
         var v = arguments[1];\
         Object.keys(v).forEach(function (k) {\
           var i = document.createElement('input'); i.type = 'hidden'; i.name = k;\
           i.value = v[k]; f.appendChild(i);\
         });\
         document.body.appendChild(f); window.forged = true; f.submit();",
        vec![json!(action), json!(fields)],
    )
    .await
    .expect("forge");
    assert!(
        wait_js(c, 10, "!window.forged && document.querySelector('.flash')").await,
        "no answer to the forged form: {}",
        body_text(c).await
    );
    text(c, ".flash").await
}

fn entries_of_round_two(srv: &TestServer, id: &EventId) -> Vec<arbiter_core::Recorded> {
    srv.store()
        .read(id)
        .expect("log")
        .into_iter()
        .filter(|r| {
            matches!(
                &r.entry,
                LogEntry::ResultEntered { section, round: 2, .. } if section == "men"
            )
        })
        .collect()
}

#[test]
fn a_round_of_forty_boards_entered_by_eighty_phones() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = eighty_men(store));
    let id = EventId(ev.clone());
    let base = format!("http://{}", srv.addr);
    let started = Instant::now();
    crate::browser::run(async {
        let desk = driver.browser(1280, 800).await;
        log_in(&desk, &base, "arb").await;
        let slips = slip_addresses(&desk, &base, &ev).await;
        assert_eq!(
            slips.keys().copied().collect::<Vec<_>>(),
            (1..=BOARDS).collect::<Vec<_>>(),
            "one slip a board"
        );
        let claim_page = format!("{base}/e/{ev}/claim");
        for (red, black) in slips.values() {
            assert!(red.starts_with(&format!("{claim_page}?c=")), "{red}");
            assert!(black.starts_with(&format!("{claim_page}?c=")), "{black}");
        }

        // The 80 phones, a few boards at a time.
        let answers: Vec<(u32, (String, String, String))> = stream::iter(slips.clone())
            .map(|(b, urls)| {
                let driver = &driver;
                async move { (b, play_board(driver, b, urls).await) }
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        assert_eq!(answers.len(), BOARDS as usize);
        for (b, (red, black, after)) in &answers {
            assert!(red.contains("等待对方确认"), "board {b}, red: {red}");
            if *b == DISPUTED {
                assert!(black.contains("不一致"), "board {b}, black: {black}");
                assert!(after.contains("不一致"), "board {b}, red after: {after}");
            } else {
                assert!(
                    black.contains("双方确认一致") && black.contains("成绩已录入"),
                    "board {b}, black: {black}"
                );
                assert_eq!(after, "成绩已录入", "board {b}, red after");
            }
        }

        // The desk: the disputed board red, with both claims.
        let grid = format!("{base}/desk/e/{ev}/s/men/results");
        desk.goto(&grid).await.expect("grid");
        assert_eq!(text(&desk, "#progress").await, "第2轮 · 39/40");
        let flagged = text(&desk, "#claims li.flagged").await;
        assert!(
            flagged.starts_with(&format!(
                "第2轮第{DISPUTED}台 选手确认: 红方确认 红胜, 黑方确认 和棋"
            )),
            "{flagged}"
        );
        let colour = desk
            .execute(
                "return getComputedStyle(document.querySelector('#claims li.flagged')).color;",
                vec![],
            )
            .await
            .expect("colour");
        assert_eq!(
            colour,
            json!("rgb(183, 28, 28)"),
            "the disputed board is red"
        );
        desk.execute(
            "document.getElementById('claims-title').scrollIntoView();",
            vec![],
        )
        .await
        .expect("scroll");
        screenshot(&desk, "desk-claims").await;

        // An attacker's phone, before the arbiter decides the disputed board.
        let (disputed_red, _) = &slips[&DISPUTED];
        let (other_red, _) = &slips[&1];
        let code_of = |url: &str| url.rsplit("?c=").next().unwrap_or_default().to_string();
        let attacker = driver.browser(375, 740).await;
        attacker.goto(&claim_page).await.expect("claim page");
        let before = srv.store().read(&id).expect("log").len();
        let board = DISPUTED.to_string();
        let other = code_of(other_red);
        let said = forge(
            &attacker,
            &claim_page,
            &[
                ("code", other.as_str()),
                ("section", "men"),
                ("round", "2"),
                ("board", board.as_str()),
                ("result", "black_win"),
            ],
        )
        .await;
        assert!(said.contains("确认码不属于本台"), "{said}");
        for guess in ["23456789", "ABCDEFGH"] {
            attacker.goto(&claim_page).await.expect("claim page");
            fill(&attacker, "#code", guess).await;
            click(&attacker, "#code-form button").await;
            assert!(
                wait_js(&attacker, 10, "document.querySelector('.flash.err')").await,
                "{guess}: {}",
                body_text(&attacker).await
            );
            let said = text(&attacker, ".flash.err").await;
            assert!(said.contains("确认码不正确"), "{guess}: {said}");
        }
        screenshot(&attacker, "claim-375-guessed").await;
        assert_eq!(srv.store().read(&id).expect("log").len(), before);

        // The arbiter enters the disputed board and confirms the round.
        desk.goto(&grid).await.expect("grid");
        let answer = type_result(&desk, &board, '=').await;
        assert!(!answer.is_empty());
        assert!(
            wait_js(
                &desk,
                10,
                "document.querySelector('#progress b').textContent === '40/40'"
            )
            .await,
            "{}",
            body_text(&desk).await
        );
        desk.goto(&grid).await.expect("grid");
        assert!(
            desk.find(Locator::Css("#claims")).await.is_err(),
            "no claim left once every board is in"
        );
        click(&desk, "form[action$='/confirm'] button").await;
        assert!(
            wait_js(&desk, 10, "document.querySelector('.flash.ok')").await,
            "not confirmed: {}",
            body_text(&desk).await
        );
        assert_eq!(text(&desk, "#progress").await, "第2轮 · 已确认");

        // Replays after the confirmation: the disputed board's red phone taps again, and a
        // board's agreed tap is posted again by hand.
        let stale = driver.browser(360, 740).await;
        stale.goto(disputed_red).await.expect("claim page");
        assert_eq!(status(&stale).await, "成绩已录入");
        assert!(
            stale.find(Locator::Css("#claim-form")).await.is_err(),
            "no buttons on a confirmed board"
        );
        let before = srv.store().read(&id).expect("log").len();
        let own = code_of(disputed_red);
        let said = forge(
            &stale,
            &claim_page,
            &[
                ("code", own.as_str()),
                ("section", "men"),
                ("round", "2"),
                ("board", board.as_str()),
                ("result", "red_win"),
            ],
        )
        .await;
        assert!(said.contains("已签字确认"), "{said}");
        let said = forge(
            &attacker,
            &claim_page,
            &[
                ("code", other.as_str()),
                ("section", "men"),
                ("round", "2"),
                ("board", "1"),
                ("result", taps(1).0),
            ],
        )
        .await;
        assert!(said.contains("已签字确认"), "{said}");
        assert_eq!(srv.store().read(&id).expect("log").len(), before);
        for c in [stale, attacker, desk] {
            c.close().await.expect("close");
        }
    });

    // The round is what the phones entered, each board once: the players' entries as the
    // phones', the disputed board as the arbiter's.
    let st = srv.store().state(&id).expect("state");
    let rd = st.section("men").and_then(|s| s.round(2)).expect("round 2");
    assert!(
        rd.boards.iter().all(|b| b.confirmed),
        "the round is confirmed"
    );
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for r in entries_of_round_two(&srv, &id) {
        let LogEntry::ResultEntered { board, result, .. } = &r.entry else {
            continue;
        };
        *count.entry(*board).or_default() += 1;
        if *board == DISPUTED {
            assert_eq!(*result, GameResult::Draw);
            assert_eq!(r.actor, "arb", "the arbiter decided the disputed board");
        } else {
            assert_eq!(*result, result_of(taps(*board).0), "board {board}");
            assert_eq!(r.actor, arbiter_director::log_view::PHONE, "board {board}");
        }
    }
    assert_eq!(count.len(), BOARDS as usize, "{count:?}");
    assert!(
        count.values().all(|n| *n == 1),
        "a board entered twice: {count:?}"
    );
    for b in &rd.boards {
        let want = if b.board == DISPUTED {
            GameResult::Draw
        } else {
            result_of(taps(b.board).0)
        };
        assert_eq!(b.result, Some(want), "board {}", b.board);
    }
    eprintln!(
        "80 phones, one round of 40 boards: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Check-in by phone on a 375-px phone (Tianshui: the 个人安全承诺书 signed at check-in):
/// the player opens his entry's status page, follows its check-in link, ticks the pledge and
/// checks in; the page fits the screen and says so, and the desk's registration list shows
/// him checked in. Screenshot `checkin-375.png`.
#[test]
fn a_player_checks_in_on_a_375_px_phone_with_the_pledge_ticked() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut out = None;
    let srv = TestServer::start_with(|store| {
        add_user(store, "desk", Role::Desk);
        out = Some(crate::checkin_phone::tianshui_online(store));
    });
    let (id, p) = out.expect("event");
    let ev = id.0.clone();
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(375, 740).await;
        c.goto(&format!(
            "{base}/e/{ev}/entry/status/{}",
            crate::checkin_phone::TOKEN
        ))
        .await
        .expect("status page");
        let code = text(&c, "#checkin-code").await;
        assert_eq!(code, crate::checkin_phone::code_of(&srv, &id, p));
        click(&c, "#checkin-link").await;
        assert!(
            wait_js(&c, 10, "document.getElementById('checkin-form')").await,
            "no check-in form: {}",
            body_text(&c).await
        );
        assert_eq!(text(&c, "#checkin-name").await, "网上棋手");
        assert_eq!(text(&c, "#checkin-status").await, "未签到");
        assert!(fits(&c).await, "the check-in page is wider than 375 px");
        click(&c, "#checkin-pledge").await;
        screenshot(&c, "checkin-375-ticked").await;
        click(&c, "#checkin-button").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash')").await,
            "no answer: {}",
            body_text(&c).await
        );
        let said = text(&c, ".flash").await;
        assert!(said.contains("签到成功"), "{said}");
        assert_eq!(text(&c, "#checkin-status").await, "已签到");
        assert!(fits(&c).await, "the answer is wider than 375 px");
        screenshot(&c, "checkin-375-done").await;
        c.close().await.expect("close");

        // The desk sees him checked in, by the players' phones.
        let d = driver.browser(1280, 800).await;
        log_in(&d, &base, "desk").await;
        d.goto(&format!("{base}/desk/e/{ev}/s/open/entries"))
            .await
            .expect("entries");
        let row = text(&d, &format!("#p{}", p.0)).await;
        assert!(row.contains("网上棋手") && row.contains("✓"), "{row}");
        d.close().await.expect("close");
    });
    let st = srv.store().state(&id).expect("state");
    assert!(st.player(p).expect("player").checked_in);
}
