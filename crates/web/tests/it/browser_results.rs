//! Browser tests of the result desk on tournament day, as the arbiters live it (headless
//! Chromium, the real server, the pages' own scripts; helpers from [`crate::browser`]):
//!
//! 1. An arbiter on a laptop types round 1 by keyboard: the typed board's row lights up with
//!    its players, a board the round does not have is refused at once, the progress line
//!    counts 「第1轮 · 0/7」 → 「第1轮 · 7/7」. He types a wrong result, sees it, and types the
//!    board again with the right one — in the middle of the round and after its last board —
//!    before the slips are confirmed; the public standings give the right points and the
//!    desk's event log lists both entries, old → new. After confirmation the grid is
//!    read-only (「第1轮 · 已确认」), the arbiter is refused in the desk's words, and the
//!    chief arbiter corrects a result with a reason, typing the grid's keys.
//! 2. The same grid and correction form on a 375-px phone: nothing wider than the screen,
//!    the typed board's row lit.
//!
//! With `ARBITER_SCREENSHOTS=DIR` both save their screenshots there (`desk-results-*.png`).

use crate::browser::{
    add_user, body_text, click, fill, keyboard, log_in, rows, text, wait_js, Driver, ENTER,
    ONE_AT_A_TIME,
};
use crate::common::TestServer;
use arbiter_store::Role;
use arbiter_types::{GameResult, Score};
use fantoccini::{Client, Locator};
use serde_json::json;
use std::collections::BTreeMap;

/// Kunshan (bundled) with 14 players a section: round 1 of the men's section paired and
/// published, no result yet (7 boards); accounts `chief` and `arb`. The event id.
fn round_one_of_fourteen(store: &arbiter_store::SqliteStore) -> String {
    add_user(store, "chief", Role::ChiefArbiter);
    add_user(store, "arb", Role::Arbiter);
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

/// Save a screenshot of the page when `ARBITER_SCREENSHOTS` names a folder.
pub(crate) async fn screenshot(c: &Client, name: &str) {
    let Ok(dir) = std::env::var("ARBITER_SCREENSHOTS") else {
        return;
    };
    let png = c.screenshot().await.expect("screenshot");
    let path = std::path::Path::new(&dir).join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Type `board`, Enter, then the one `key`; wait until the row shows a result and the board
/// field has the focus again; the grid's answer.
pub(crate) async fn type_result(c: &Client, board: &str, key: char) -> String {
    let before = c
        .execute(
            "return document.getElementById('answer').textContent;",
            vec![],
        )
        .await
        .expect("answer");
    keyboard(c, &format!("{board}{ENTER}")).await;
    keyboard(c, &key.to_string()).await;
    let done = format!(
        "document.getElementById('answer').textContent !== {before} && \
         document.getElementById('answer').textContent.indexOf('按') < 0 && \
         document.activeElement.id === 'board'"
    );
    assert!(
        wait_js(c, 10, &done).await,
        "board {board}, key {key}: {}",
        body_text(c).await
    );
    text(c, "#answer").await
}

/// The result cell of `board` on the grid.
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

/// Points by name on the public standings page (the 更正 mark taken off the name).
async fn standings(c: &Client, base: &str, ev: &str) -> BTreeMap<String, (String, bool)> {
    c.goto(&format!("{base}/e/{ev}/s/men/standings"))
        .await
        .expect("public standings");
    rows(c, "main table tbody tr")
        .await
        .into_iter()
        .map(|r| {
            let first = r[2].lines().next().unwrap_or("").trim().to_string();
            let corrected = first.ends_with("更正");
            let name = first.trim_end_matches("更正").trim().to_string();
            (name, (r[3].clone(), corrected))
        })
        .collect()
}

#[test]
fn an_arbiter_fixes_his_typo_before_confirmation_and_the_chief_arbiter_corrects_after() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = round_one_of_fourteen(store));
    let base = format!("http://{}", srv.addr);
    run_story(&driver, &base, &ev);
}

fn run_story(driver: &Driver, base: &str, ev: &str) {
    crate::browser::run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, base, "arb").await;
        let grid = format!("{base}/desk/e/{ev}/s/men/results");
        c.goto(&grid).await.expect("grid");
        assert_eq!(text(&c, "#progress").await, "第1轮 · 0/7");
        let sheet = rows(&c, "#sheet tbody tr").await;
        assert_eq!(sheet.len(), 7, "{sheet:?}");
        let players = |board: usize| (sheet[board - 1][1].clone(), sheet[board - 1][4].clone());

        // As the board number is typed its row lights up and the players are named.
        keyboard(&c, "3").await;
        assert!(
            wait_js(
                &c,
                5,
                "document.querySelector('#sheet tr.current') && \
                 document.querySelector('#sheet tr.current').getAttribute('data-board') === '3'"
            )
            .await,
            "row 3 not lit: {}",
            body_text(&c).await
        );
        let (red, black) = players(3);
        let line = text(&c, "#current").await;
        assert!(
            line.contains("第3台") && line.contains(&red) && line.contains(&black),
            "{line}"
        );
        screenshot(&c, "desk-results-typing-laptop").await;
        // A board the round does not have: refused at once, before any result key.
        keyboard(&c, "0").await; // 30
        assert!(
            wait_js(
                &c,
                5,
                "document.getElementById('current').textContent.indexOf('本轮没有第30台') >= 0 && \
                 !document.querySelector('#sheet tr.current')"
            )
            .await,
            "board 30 not refused at once: {}",
            body_text(&c).await
        );
        keyboard(&c, &ENTER.to_string()).await;
        assert!(
            c.find(Locator::Css("form.entry.waiting")).await.is_err(),
            "Enter on an unknown board must not wait for a result key"
        );
        let answer = text(&c, "#answer").await;
        assert!(
            answer.contains("本轮没有第30台") && answer.contains("共 7 台"),
            "{answer}"
        );
        assert_eq!(text(&c, "#progress").await, "第1轮 · 0/7");
        // The number is selected: typing a board replaces it.
        keyboard(&c, "1").await;
        assert!(
            wait_js(&c, 5, "document.getElementById('board').value === '1'").await,
            "the unknown board's number is not replaced by the next one typed"
        );
        c.execute(
            "var b = document.getElementById('board'); b.value = ''; \
             b.dispatchEvent(new Event('input')); b.focus();",
            vec![],
        )
        .await
        .expect("clear the board field");

        // Boards 1–3; board 3 typed wrong (red wins, it was a draw), seen on the row, and
        // typed again with the right key.
        assert!(type_result(&c, "1", '1').await.contains("第1台已录入"));
        assert!(type_result(&c, "2", '0').await.contains("第2台已录入"));
        assert!(type_result(&c, "3", '1').await.contains("第3台已录入"));
        assert_eq!(cell(&c, 3).await, "1-0");
        assert_eq!(text(&c, "#progress").await, "第1轮 · 3/7");
        keyboard(&c, &format!("3{ENTER}")).await;
        let prompt = text(&c, "#answer").await;
        assert!(
            prompt.contains("第3台现有成绩 1-0") && prompt.contains("按新成绩键改正"),
            "{prompt}"
        );
        keyboard(&c, "=").await;
        assert!(
            wait_js(
                &c,
                10,
                "document.getElementById('answer').textContent.indexOf('第3台已改为') >= 0"
            )
            .await,
            "re-entry of board 3: {}",
            body_text(&c).await
        );
        let answer = text(&c, "#answer").await;
        assert!(answer.contains("原成绩 1-0"), "{answer}");
        assert_eq!(cell(&c, 3).await, "=");
        assert_eq!(
            text(&c, "#progress").await,
            "第1轮 · 3/7",
            "a re-entry adds no board"
        );
        // The rest of the round; the last board typed wrong too, fixed after the round is
        // full but before the slips are confirmed.
        for (board, key) in [("4", '5'), ("5", '1'), ("6", '0'), ("7", '0')] {
            let a = type_result(&c, board, key).await;
            assert!(a.contains("已录入"), "{a}");
        }
        assert_eq!(text(&c, "#progress").await, "第1轮 · 7/7");
        assert!(type_result(&c, "7", '1').await.contains("第7台已改为"));
        assert_eq!(cell(&c, 7).await, "1-0");
        // Stored, not only shown.
        c.goto(&grid).await.expect("grid again");
        assert_eq!(text(&c, "#progress").await, "第1轮 · 7/7");
        let stored: Vec<String> = rows(&c, "#sheet tbody tr")
            .await
            .into_iter()
            .map(|r| r[3].clone())
            .collect();
        assert_eq!(stored, ["1-0", "0-1", "=", "=", "1-0", "0-1", "1-0"]);

        // The points the public standings give are those of the right results.
        let reg =
            arbiter_regulation::parse(arbiter_web::desk::events::PRESETS[0].2, "kunshan-2026.toml")
                .expect("Kunshan");
        let t = reg.section("men").expect("men").scoring.table;
        let points = |r: GameResult| -> (Score, Score) {
            match r {
                GameResult::RedWin => (t.win, t.loss),
                GameResult::BlackWin => (t.loss, t.win),
                _ => (t.draw_red, t.draw_black),
            }
        };
        let name = |cell: &str| crate::browser::name_of(cell);
        let table = standings(&c, base, ev).await;
        assert_eq!(table.len(), 14, "{table:?}");
        for (board, r) in [(3, GameResult::Draw), (7, GameResult::RedWin)] {
            let (red, black) = players(board);
            let (pr, pb) = points(r);
            assert_eq!(table[&name(&red)], (pr.to_string(), false), "{red}");
            assert_eq!(table[&name(&black)], (pb.to_string(), false), "{black}");
        }

        // The desk's event log lists both entries of board 3, the second old → new, each
        // with the account that made it.
        c.goto(&format!("{base}/desk/e/{ev}/log"))
            .await
            .expect("log");
        let log = rows(&c, "table.log tbody tr").await;
        // Each row: seq, time, who, the entry in words (the director's log view).
        let lines = |needles: &[&str]| -> Vec<Vec<String>> {
            log.iter()
                .filter(|r| r.len() >= 4 && needles.iter().all(|n| r[3].contains(n)))
                .cloned()
                .collect()
        };
        let first: Vec<Vec<String>> = lines(&["第1轮 第3台", "胜"])
            .into_iter()
            .filter(|r| !r[3].contains("原为"))
            .collect();
        let again = lines(&["第1轮 第3台", "和", "原为 红胜"]);
        assert_eq!((first.len(), again.len()), (1, 1), "{log:?}");
        assert!(
            first[0][2].contains("arb") && again[0][2].contains("arb"),
            "{log:?}"
        );
        assert!(
            again[0][0].parse::<u64>().expect("seq") > first[0][0].parse::<u64>().expect("seq"),
            "{log:?}"
        );
        assert_eq!(lines(&["第1轮 第7台", "原为 黑胜"]).len(), 1, "{log:?}");

        // Confirmed: the grid says so and takes no entry; the arbiter is refused in the
        // desk's words (the chief arbiter's 更正 form, no command).
        c.goto(&grid).await.expect("grid");
        click(&c, "form[action$='/confirm'] button").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.ok')").await,
            "not confirmed: {}",
            body_text(&c).await
        );
        assert_eq!(text(&c, "#progress").await, "第1轮 · 已确认");
        assert!(
            c.find(Locator::Css("#entry")).await.is_err(),
            "grid still open"
        );
        assert!(c
            .find(Locator::Css("form[action$='/confirm']"))
            .await
            .is_err());
        let locked = text(&c, "#locked").await;
        assert!(
            locked.contains("已签字确认")
                && locked.contains("裁判长")
                && locked.contains("更正成绩"),
            "{locked}"
        );
        assert!(
            c.find(Locator::Css("#correct")).await.is_err(),
            "an arbiter has no correction form"
        );
        screenshot(&c, "desk-results-confirmed-laptop").await;
        let refused = c
            .execute_async(
                "var done = arguments[arguments.length - 1]; \
                 var csrf = document.querySelector('input[name=csrf]').value; \
                 fetch(location.pathname, { method: 'POST', credentials: 'same-origin', \
                   headers: { 'Accept': 'application/json', \
                              'Content-Type': 'application/x-www-form-urlencoded' }, \
                   body: 'csrf=' + encodeURIComponent(csrf) + '&round=1&board=5&result=0&replaces=1-0' }) \
                 .then(function (r) { return r.json().then(function (j) { done([r.status, j]); }); });",
                vec![],
            )
            .await
            .expect("post");
        assert_eq!(refused[0], 409, "{refused}");
        let msg = refused[1]["message"].as_str().unwrap_or("").to_string();
        assert!(
            msg.contains("已签字确认")
                && msg.contains("只能由裁判长更正")
                && msg.contains("「更正成绩」"),
            "{msg}"
        );
        for cli in ["`", "arbiter result", "--reason", "result correct"] {
            assert!(!msg.contains(cli), "{cli} in: {msg}");
        }
        assert_eq!(refused[1]["stored"], "1-0");
        c.close().await.expect("close");

        // The chief arbiter corrects board 5 (it was a black win) with a reason, typing the
        // grid's key 0; the standings mark the correction.
        let c = driver.browser(1280, 800).await;
        log_in(&c, base, "chief").await;
        c.goto(&grid).await.expect("grid");
        assert_eq!(text(&c, "#progress").await, "第1轮 · 已确认");
        fill(&c, "#correct-board", "5").await;
        assert!(
            wait_js(
                &c,
                5,
                "document.querySelector('#sheet tr.current') && \
                 document.querySelector('#sheet tr.current').getAttribute('data-board') === '5'"
            )
            .await,
            "row 5 not lit by the correction form"
        );
        let (red5, black5) = players(5);
        let line = text(&c, "#correct-current").await;
        assert!(
            line.contains(&red5) && line.contains(&black5) && line.contains("现有成绩 1-0"),
            "{line}"
        );
        fill(&c, "#correct-result", "0").await;
        assert_eq!(text(&c, "#correct-meaning").await, "0-1 黑胜");
        fill(&c, "#correct input[name=reason]", "记录员抄错台号").await;
        screenshot(&c, "desk-results-correct-laptop").await;
        click(&c, "#correct button").await;
        assert!(
            wait_js(&c, 10, "document.querySelector('.flash.ok')").await,
            "not corrected: {}",
            body_text(&c).await
        );
        assert!(text(&c, ".flash.ok").await.contains("第1轮第5台已更正"));
        assert_eq!(cell(&c, 5).await, "0-1");
        let table = standings(&c, base, ev).await;
        let (pr, pb) = points(GameResult::BlackWin);
        assert_eq!(table[&name(&red5)], (pr.to_string(), true), "{red5}");
        assert_eq!(table[&name(&black5)], (pb.to_string(), true), "{black5}");
        // A re-entry before confirmation is not a correction: no mark.
        let (red3, _) = players(3);
        assert!(!table[&name(&red3)].1);
        c.close().await.expect("close");
    });
}

#[test]
fn the_result_grid_and_the_correction_form_fit_a_375_px_phone() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = round_one_of_fourteen(store));
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(375, 812).await;
        log_in(&c, &base, "chief").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/men/results"))
            .await
            .expect("grid");
        assert_eq!(text(&c, "#progress").await, "第1轮 · 0/7");
        let wide = "document.documentElement.scrollWidth <= window.innerWidth + 1";
        assert!(
            wait_js(&c, 5, wide).await,
            "the grid is wider than the phone"
        );
        fill(&c, "#board", "4").await;
        assert!(
            wait_js(
                &c,
                5,
                "document.querySelector('#sheet tr.current[data-board=\"4\"]') && \
                 document.getElementById('current').textContent.indexOf('第4台') >= 0"
            )
            .await,
            "row 4 not lit on the phone"
        );
        screenshot(&c, "desk-results-typing-phone").await;
        fill(&c, "#correct-board", "2").await;
        fill(&c, "#correct-result", "5").await;
        assert_eq!(text(&c, "#correct-meaning").await, "= 和棋");
        c.execute(
            "document.getElementById('correct').scrollIntoView();",
            vec![],
        )
        .await
        .expect("scroll");
        assert!(
            wait_js(&c, 5, wide).await,
            "the correction form is wider than the phone"
        );
        screenshot(&c, "desk-results-correct-phone").await;
        c.close().await.expect("close");
    });
}

/// Issue 45 item 8 in the browser: the grid's foul-kind selects go with the keys' result —
/// two phone fouls of red (Kunshan K12: the second loses) refuse 1-0 with the result due,
/// then 0-1 is entered — and the selects are empty again for the next board.
#[test]
fn the_grid_records_fouls_by_kind_and_clears_them_for_the_next_board() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = round_one_of_fourteen(store));
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(1280, 800).await;
        log_in(&c, &base, "arb").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/men/results"))
            .await
            .expect("grid");
        let phones = "document.querySelector('select[name=foul1]').value = 'red:phone'; \
                      document.querySelector('select[name=foul2]').value = 'red:phone';";
        c.execute(phones, vec![]).await.expect("choose the fouls");
        let said = type_result(&c, "1", '1').await;
        assert!(said.contains("成绩应为 0-1"), "{said}");
        let empty = "return Array.from(document.querySelectorAll('select.foul-kind'))\
                     .every(function (s) { return s.value === ''; });";
        let cleared = c.execute(empty, vec![]).await.expect("selects");
        assert_eq!(
            cleared,
            json!(true),
            "the foul kinds stay chosen after an answer"
        );
        c.execute(phones, vec![]).await.expect("choose the fouls");
        let said = type_result(&c, "1", '0').await;
        assert!(said.contains("第1台已录入"), "{said}");
        assert_eq!(cell(&c, 1).await, "0-1");
        let cleared = c.execute(empty, vec![]).await.expect("selects");
        assert_eq!(cleared, json!(true));
        screenshot(&c, "desk-results-foul-kinds").await;
        c.close().await.expect("close");
    });
}
