//! Browser tests of the chief arbiter's round sheet and knockout desk, and of the desk on a
//! phone with the browser's Back and Forward (headless Chromium, the real server, the pages'
//! own scripts; helpers from [`crate::browser`]):
//!
//! 1. A swap on the sheet before publication: 调换 1号 与 another board's player, 预览 — the
//!    sheet as it would be, in words, nothing recorded — then 确认调换: recorded once, the
//!    sheet shows player 1 on the other board.
//! 2. The knockout page's keyboard grid on a Tianshui event after its Swiss stage: the board
//!    typed lights its row, Enter and one key record the game due there (the page posts and
//!    comes back with the game on the bracket).
//! 3. A 375-px phone: event → round → results, a result typed; Back shows the round sheet
//!    with it; another arbiter enters a board meanwhile; Forward shows the grid with both —
//!    never a stale page from the back/forward cache; a page with a choice made in its form
//!    is kept as it is and says it may be out of date.
//!
//! With `ARBITER_SCREENSHOTS=DIR` they save their screenshots there (`desk-chief-*.png`).

use crate::browser::{
    add_user, body_text, click, fill, keyboard, log_in, path_of, rows, text, wait_js, Driver,
    ENTER, ONE_AT_A_TIME,
};
use crate::browser_results::{screenshot, type_result};
use crate::common::TestServer;
use crate::desk::{create_kunshan, entries_of, login, register_men, with_accounts};
use arbiter_store::{EventId, EventStore, Role, SqliteStore};

/// The numbers on each row of a sheet read by [`rows`] (「3. 韩凯磊」 → 3): red's and black's.
fn numbers(sheet: &[Vec<String>]) -> Vec<(u32, u32)> {
    let no = |c: &str| {
        c.split('.')
            .next()
            .and_then(|n| n.trim().parse::<u32>().ok())
            .unwrap_or_else(|| panic!("a numbered player: {c}"))
    };
    sheet
        .iter()
        .map(|r| (no(&r[1]), no(&r[r.len() - 1])))
        .collect()
}

#[test]
fn the_chief_arbiter_swaps_two_players_on_the_sheet_previewed_then_confirmed() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(with_accounts);
    let chief = login(&srv, "chief");
    let ev = create_kunshan(&srv, &chief);
    register_men(&srv, &chief, &ev, 8);
    let r = chief.post(
        &srv,
        &format!("/desk/e/{ev}/s/men/pair"),
        &[("fix", ""), ("swap", "")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(1280, 900).await;
        log_in(&c, &base, "chief").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/men/round"))
            .await
            .expect("round page");
        let before = numbers(&rows(&c, "#sheet tbody tr").await);
        assert_eq!(before.len(), 4, "{before:?}");
        let mine = *before
            .iter()
            .find(|(r, b)| *r == 1 || *b == 1)
            .expect("player 1 is paired");
        let other = before
            .iter()
            .find(|x| **x != mine)
            .map(|(r, _)| *r)
            .expect("another board");
        let paired = entries_of(&srv, &ev, "round_paired").len();
        fill(&c, "#swap-form input[name=a]", "1").await;
        fill(&c, "#swap-form input[name=b]", &other.to_string()).await;
        click(&c, "#swap-form button").await;
        assert!(
            wait_js(&c, 10, "!!document.getElementById('swap-preview')").await,
            "{}",
            body_text(&c).await
        );
        let preview = text(&c, "#swap-preview").await;
        for code in ["H1:", "H2:", "H3:", "H4:", "H5:"] {
            assert!(!preview.contains(code), "no rule code: {preview}");
        }
        // The sheet as it would be: player 1 where `other` sat, both rows marked.
        let after = numbers(&rows(&c, "#swap-sheet tbody tr").await);
        let board_of = |s: &[(u32, u32)], p: u32| s.iter().position(|(r, b)| *r == p || *b == p);
        assert_eq!(board_of(&after, 1), board_of(&before, other), "{after:?}");
        assert_eq!(rows(&c, "#swap-sheet tr.swapped").await.len(), 2);
        assert_eq!(
            entries_of(&srv, &ev, "round_paired").len(),
            paired,
            "the preview records nothing"
        );
        screenshot(&c, "desk-chief-swap-preview-1280").await;
        click(&c, "#swap-confirm").await;
        assert!(
            wait_js(&c, 10, "document.body.textContent.indexOf('已调换') >= 0 && !document.getElementById('swap-preview')").await,
            "{}",
            body_text(&c).await
        );
        let page = body_text(&c).await;
        assert!(!page.contains("(players swapped)"), "Chinese only: {page}");
        let now = numbers(&rows(&c, "#sheet tbody tr").await);
        assert_eq!(now, after, "the sheet is the one previewed");
        assert_eq!(entries_of(&srv, &ev, "round_paired").len(), paired + 1);
        c.close().await.expect("close");
    });
}

/// Tianshui (bundled) with 16 players in the open section: its Swiss stage played, the
/// knockout drawn, no knockout game yet; arbiter `arb`. The event.
fn tianshui_knockout(store: &SqliteStore) -> EventId {
    use arbiter_core::LogEntry;
    add_user(store, "arb", Role::Arbiter);
    let (file, text) = arbiter_web::demo::REFERENCE
        .iter()
        .find(|(f, _)| *f == "tianshui-2024.toml")
        .expect("Tianshui is bundled");
    let reg = arbiter_regulation::parse(text, file).expect("regulation");
    let event = store.create_event(&reg.event.name).expect("event");
    let sizes = arbiter_simulate::Sizes {
        all: Some(16),
        ..Default::default()
    };
    let mut sim = arbiter_simulate::Simulator::new(reg, text, file, 1, &sizes);
    let mut state = arbiter_core::EventState::new();
    while let Some(batch) = sim.next_batch(&state).expect("batch") {
        let cut = batch
            .entries
            .iter()
            .position(|e| matches!(e, LogEntry::KnockoutGameRecorded { .. }))
            .unwrap_or(batch.entries.len());
        if cut > 0 {
            let expected = state.last_seq;
            store
                .append(
                    &event,
                    expected,
                    &batch.entries[..cut],
                    &batch.actor,
                    &batch.at,
                )
                .expect("append");
            for r in batch.recorded(expected).take(cut) {
                state.apply(&r).expect("fold");
            }
        }
        if cut < batch.entries.len() {
            break;
        }
    }
    event
}

#[test]
fn the_knockout_grid_records_a_game_by_keyboard_after_the_swiss_stage() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut id = None;
    let srv = TestServer::start_with(|store| id = Some(tianshui_knockout(store)));
    let ev = id.expect("event").0;
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(1280, 900).await;
        log_in(&c, &base, "arb").await;
        c.goto(&format!("{base}/desk/e/{ev}/s/open/knockout"))
            .await
            .expect("knockout page");
        assert!(
            wait_js(
                &c,
                10,
                "!!document.querySelector('form#entry[data-post=\"1\"] #board')"
            )
            .await,
            "the knockout's keyboard grid: {}",
            body_text(&c).await
        );
        let board = c
            .execute(
                "var tr = document.querySelector('#sheet tbody tr[data-board]'); \
                 return tr ? tr.getAttribute('data-board') : null;",
                vec![],
            )
            .await
            .expect("a due board");
        let board = board.as_str().expect("a game due").to_string();
        assert!(entries_of(&srv, &ev, "knockout_game_recorded").is_empty());
        // The typed board lights its row and names its players.
        keyboard(&c, &board).await;
        let lit = format!(
            "(function () {{ var tr = document.querySelector('#sheet tr.current'); \
             return tr && tr.getAttribute('data-board') === '{board}'; }})()"
        );
        assert!(wait_js(&c, 5, &lit).await, "{}", body_text(&c).await);
        let current = text(&c, "#current").await;
        assert!(
            current.contains(&format!("第{board}台")) && current.contains("红方"),
            "{current}"
        );
        screenshot(&c, "desk-chief-knockout-1280").await;
        keyboard(&c, &format!("{ENTER}1")).await;
        // The page posts and comes back with the game recorded.
        assert!(
            wait_js(
                &c,
                10,
                &format!(
                    "(function () {{ var f = document.querySelector('.flash.ok:not(#answer)'); \
                     return !!f && f.textContent.indexOf('第{board}台') >= 0; }})()"
                )
            )
            .await,
            "{}",
            body_text(&c).await
        );
        // The keyboard's own prompt is a `.flash.ok` too: the store is the witness.
        let mut games = entries_of(&srv, &ev, "knockout_game_recorded");
        for _ in 0..50 {
            if !games.is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            games = entries_of(&srv, &ev, "knockout_game_recorded");
        }
        assert_eq!(games.len(), 1, "one game recorded");
        assert_eq!(games[0].0, "arb");
        let ok = text(&c, ".flash.ok:not(#answer)").await;
        assert!(ok.contains(&format!("第{board}台")), "{ok}");
        c.close().await.expect("close");
    });
}

#[test]
fn on_a_phone_back_and_forward_show_the_round_as_it_is_now() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let srv = TestServer::start_with(with_accounts);
    let chief = login(&srv, "chief");
    let ev = create_kunshan(&srv, &chief);
    register_men(&srv, &chief, &ev, 8);
    let other = login(&srv, "arb2");
    crate::desk::pair_and_publish(&srv, &other, &ev);
    let base = format!("http://{}", srv.addr);
    crate::browser::run(async {
        let c = driver.browser(375, 800).await;
        log_in(&c, &base, "arb").await;
        c.goto(&format!("{base}/desk/e/{ev}")).await.expect("event");
        click(&c, &format!("a[href='/desk/e/{ev}/s/men/round']")).await;
        assert!(wait_js(&c, 10, "!!document.getElementById('sheet')").await);
        click(&c, &format!("a[href='/desk/e/{ev}/s/men/results']")).await;
        assert!(wait_js(&c, 10, "!!document.getElementById('entry')").await);
        assert_eq!(path_of(&c).await, format!("/desk/e/{ev}/s/men/results"));
        let said = type_result(&c, "1", '1').await;
        assert!(said.contains("第1台已录入"), "{said}");

        // Back: the round sheet shows the result just entered.
        c.back().await.expect("back");
        let round_cell = |board: u32| {
            format!(
                "location.pathname.endsWith('/round') && (function () {{ \
                 var tr = document.querySelector('#sheet tr[data-board=\"{board}\"]'); \
                 return tr && tr.cells[3].textContent.trim(); }})()"
            )
        };
        assert!(
            wait_js(&c, 10, &format!("{} === '1-0'", round_cell(1))).await,
            "after Back: {}",
            body_text(&c).await
        );
        // Another arbiter enters board 2 while this page is shown.
        let r = other.post_json(
            &srv,
            &format!("/desk/e/{ev}/s/men/results"),
            &[("board", "2"), ("result", "0")],
        );
        assert_eq!(r.status, 200, "{}", r.text());
        // Forward: the grid shows both, and counts them.
        c.forward().await.expect("forward");
        let both = "location.pathname.endsWith('/results') && \
             document.querySelector('#sheet tr[data-board=\"1\"]').cells[3].textContent.trim() === '1-0' && \
             document.querySelector('#sheet tr[data-board=\"2\"]').cells[3].textContent.trim() === '0-1' && \
             document.querySelector('#progress b').textContent === '2/4'";
        assert!(
            wait_js(&c, 15, both).await,
            "after Forward: {}",
            body_text(&c).await
        );
        screenshot(&c, "desk-chief-forward-375").await;
        // And Back once more: the round sheet has board 2 too.
        c.back().await.expect("back");
        assert!(
            wait_js(&c, 10, &format!("{} === '0-1'", round_cell(2))).await,
            "after the second Back: {}",
            body_text(&c).await
        );
        let wide = c
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth;",
                vec![],
            )
            .await
            .expect("width");
        assert_eq!(wide, serde_json::json!(true), "the round page fits 375 px");
        // A page the arbiter has typed into is not loaded again behind his back: it says it
        // may be out of date, and keeps what he chose.
        c.goto(&format!("{base}/desk/e/{ev}/print"))
            .await
            .expect("print page");
        c.execute(
            "var f = document.querySelector('select[name=format]'); f.selectedIndex = 1; \
             window.arbiterMark = 45; return f.options.length;",
            vec![],
        )
        .await
        .expect("a format chosen");
        c.goto(&format!("{base}/desk/e/{ev}/s/men/results"))
            .await
            .expect("grid");
        c.back().await.expect("back");
        assert!(
            wait_js(
                &c,
                10,
                "location.pathname.endsWith('/print') && !!document.getElementById('stale')"
            )
            .await,
            "the kept page says so: {}",
            body_text(&c).await
        );
        let kept = c
            .execute(
                "return [window.arbiterMark === 45, document.querySelector('select[name=format]').selectedIndex];",
                vec![],
            )
            .await
            .expect("kept");
        assert_eq!(kept, serde_json::json!([true, 1]));
        assert!(text(&c, "#stale").await.contains("内容可能已过时"));
        c.close().await.expect("close");
    });
}
