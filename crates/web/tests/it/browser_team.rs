//! A team-match day at the desk in headless Chromium (团体赛, A15), with the real server and
//! the pages' own scripts, as the arbiters and a player live it:
//!
//! 1. A player opens the team standings on a 375-px phone and leaves it open.
//! 2. The arbiter types two captains' line-ups for match 1 — one team puts its reserve on,
//!    the other hands in three names (its fourth board empty, lost by forfeit) — and
//!    publishes the round again.
//! 3. He enters the whole round of 10 matches from the keyboard: match 1 as 「场次.台次」
//!    (1.1, 1.2 …), the others by the round's board numbers, one board a forfeit (key f);
//!    match 1's line follows its score after each board (「第1场 甲 2½:1½ 乙 · 甲胜」). He
//!    confirms the round.
//! 4. The phone's team standings, never reloaded, show the 场分 and 局分 the director gives.
//! 5. The chief arbiter corrects board 1.1 with a reason: the match changes hands, and the
//!    phone's standings follow by themselves.
//!
//! With `ARBITER_SCREENSHOTS=DIR` the pages are saved there (`desk-team-*.png`).

use crate::browser::{
    add_user, body_text, click, fill, log_in, rows, text, wait_js, Driver, ONE_AT_A_TIME,
};
use crate::browser_results::{screenshot, type_result};
use crate::common::TestServer;
use arbiter_core::EventState;
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match;
use arbiter_store::{EventId, EventStore, Role, SqliteStore};
use fantoccini::{Client, Locator};
use serde_json::json;
use std::collections::BTreeMap;

/// A team Swiss of 20 teams of four boards and a reserve: round 1 paired and published, no
/// result; accounts `chief` and `arb`. The event id.
fn twenty_teams(store: &SqliteStore) -> String {
    add_user(store, "chief", Role::ChiefArbiter);
    add_user(store, "arb", Role::Arbiter);
    let how = arbiter_web::demo::PartWay {
        rounds: Some(0),
        seed: 2,
        sizes: arbiter_simulate::Sizes {
            all: Some(100),
            ..Default::default()
        },
        results_left: usize::MAX,
    };
    arbiter_web::demo::simulate_part_way(
        store,
        include_str!("../../../simulate/tests/fixtures/team-swiss.toml"),
        "team-swiss.toml",
        &how,
    )
    .expect("round 1 paired")
    .0
}

/// Team → (场分, 局分) as the director ranks them now.
fn director_table(srv: &TestServer, ev: &str) -> BTreeMap<String, (String, String)> {
    let st: EventState = srv.store().state(&EventId(ev.to_string())).expect("state");
    let reg = arbiter_director::regulation_of(&st).expect("regulation");
    team_match::standings(&reg, &st, "teams")
        .expect("standings")
        .rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                (points_text(r.match_points), points_text(r.game_points)),
            )
        })
        .collect()
}

/// Team → (场分, 局分) as the phone shows them.
async fn phone_table(c: &Client) -> BTreeMap<String, (String, String)> {
    rows(c, "table.teamst tbody tr")
        .await
        .into_iter()
        .map(|r| (r[1].clone(), (r[2].clone(), r[3].clone())))
        .collect()
}

/// Wait until the phone's table shows `want` for the teams in it (live updates only).
async fn phone_shows(c: &Client, want: &BTreeMap<String, (String, String)>, secs: u64) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if &phone_table(c).await == want {
            return true;
        }
        if std::time::Instant::now() > end {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

/// Choose `value` in the select `css` of the form `form`.
async fn choose(c: &Client, form: &str, name: &str, value: &str) {
    c.find(Locator::Css(&format!("{form} select[name={name}]")))
        .await
        .unwrap_or_else(|e| panic!("no select {name} in {form}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("choose {value} for {name}: {e}"));
}

/// Wait until the page's OK flash contains `words` (a form posted, the page it leads to).
async fn flash_says(c: &Client, words: &str) -> bool {
    wait_js(
        c,
        10,
        &format!(
            "document.querySelector('.flash.ok') && \
             document.querySelector('.flash.ok').textContent.indexOf({}) >= 0",
            json!(words)
        ),
    )
    .await
}

/// Match 1's line on the grid.
async fn match_line(c: &Client, no: u32) -> String {
    text(c, &format!("#m-{no} tr.match th")).await
}

#[test]
fn a_team_round_from_line_ups_to_a_corrected_board_live_on_a_phone() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let driver = Driver::start();
    let mut ev = String::new();
    let srv = TestServer::start_with(|store| ev = twenty_teams(store));
    let base = format!("http://{}", srv.addr);
    let st: EventState = srv.store().state(&EventId(ev.clone())).expect("state");
    let reg = arbiter_director::regulation_of(&st).expect("regulation");
    let view = team_match::round_view(&reg, &st, "teams", 1).expect("round 1");
    assert_eq!(view.matches.len(), 10);
    let (a, b) = (
        view.matches[0].first.clone(),
        view.matches[0].second.clone(),
    );
    let a_members = st.teams[&a].members.clone();
    let b_members = st.teams[&b].members.clone();
    let id = |p: arbiter_core::PlayerId| p.0.to_string();

    crate::browser::run(async {
        // 1. The phone, left open on the team standings.
        let phone = driver.browser(375, 812).await;
        phone
            .goto(&format!("{base}/e/{ev}/s/teams/standings"))
            .await
            .expect("team standings");
        assert!(
            wait_js(&phone, 10, "document.querySelector('table.teamst')").await,
            "no team standings on the phone: {}",
            body_text(&phone).await
        );
        assert!(
            wait_js(
                &phone,
                5,
                "document.documentElement.scrollWidth <= window.innerWidth + 1"
            )
            .await,
            "the team standings are wider than the phone"
        );

        // 2. Two captains' line-ups for match 1.
        let c = driver.browser(1280, 900).await;
        log_in(&c, &base, "arb").await;
        let round = format!("{base}/desk/e/{ev}/s/teams/round");
        c.goto(&round).await.expect("round page");
        let fa = format!("form.lineup[data-team=\"{a}\"]");
        // The reserve on, board 3's player rested: they sit in registered order.
        for (i, p) in [a_members[4], a_members[0], a_members[1], a_members[3]]
            .into_iter()
            .enumerate()
        {
            choose(&c, &fa, &format!("b{}", i + 1), &id(p)).await;
        }
        fill(&c, &format!("{fa} input[name=by]"), "甲队领队").await;
        screenshot(&c, "desk-team-lineup-laptop").await;
        click(&c, &format!("{fa} button")).await;
        assert!(
            flash_says(&c, &format!("{a} 第1轮出场名单已录入")).await,
            "line-up of {a} not taken: {}",
            body_text(&c).await
        );
        // The second team: three names, board 4 empty.
        let fb = format!("form.lineup[data-team=\"{b}\"]");
        for (i, p) in b_members[..3].iter().enumerate() {
            choose(&c, &fb, &format!("b{}", i + 1), &id(*p)).await;
        }
        choose(&c, &fb, "b4", "").await;
        click(&c, &format!("{fb} button")).await;
        assert!(
            flash_says(&c, &format!("{b} 第1轮出场名单已录入")).await
                && text(&c, ".flash.ok").await.contains("请公布对阵表"),
            "line-up of {b} not taken: {}",
            body_text(&c).await
        );
        // Match 1 on the sheet: the reserve on board 4, board 4 an empty seat.
        let m1 = rows(&c, "#m-1 tr:not(.captains)").await;
        assert_eq!(m1.len(), 5, "{m1:?}");
        let name = |p: arbiter_core::PlayerId| st.player(p).expect("player").person.name.clone();
        assert!(
            m1[4].iter().any(|cell| cell.contains(&name(a_members[4]))),
            "{m1:?}"
        );
        assert!(m1[4][3].contains("弃权"), "{m1:?}");
        click(&c, "form[action$='/publish'] button").await;
        assert!(
            flash_says(&c, "已公布对阵表").await,
            "not published: {}",
            body_text(&c).await
        );

        // 3. The whole round by keyboard.
        let grid = format!("{base}/desk/e/{ev}/s/teams/results");
        c.goto(&grid).await.expect("grid");
        let games: Vec<(String, String)> = {
            let v = c
                .execute(
                    "return Array.from(document.querySelectorAll('#sheet tr[data-board]'))\
                     .map(function (tr) { return [tr.getAttribute('data-board'), tr.getAttribute('data-mb')]; });",
                    vec![],
                )
                .await
                .expect("boards");
            serde_json::from_value(v).expect("pairs")
        };
        let total = games.len();
        assert!(total >= 35, "{total} games");
        assert_eq!(text(&c, "#progress").await, format!("第1轮 · 0/{total}"));
        // Match 1: 1.1 甲 (red) wins, 1.2 乙 (red) wins, 1.3 drawn; 1.4 is 乙's empty seat.
        assert!(type_result(&c, "1.1", '1')
            .await
            .contains("第1场第1台已录入"));
        assert!(match_line(&c, 1).await.ends_with("· 进行中"));
        assert!(type_result(&c, "1.2", '1')
            .await
            .contains("第1场第2台已录入"));
        assert!(type_result(&c, "1.3", '5')
            .await
            .contains("第1场第3台已录入"));
        let t = reg.section("teams").expect("section").scoring.table;
        // 甲 is red on the odd boards: 1.1 its win, 1.2 its loss, 1.3 drawn as red, 1.4 its
        // forfeit win.
        let (win, loss) = (t.win, t.loss);
        let (pa, pb) = (
            win + loss + t.draw_red + t.forfeit_win,
            loss + win + t.draw_black + t.forfeit_loss,
        );
        let line = match_line(&c, 1).await;
        assert_eq!(
            line,
            format!(
                "第1场 {a} {}:{} {b} · {a}胜",
                points_text(pa),
                points_text(pb)
            ),
            "match 1 after its boards"
        );
        screenshot(&c, "desk-team-grid-laptop").await;
        // The rest by the round's board numbers; one black player does not come (f).
        let keys = ['1', '0', '5', '1', '0'];
        let mut forfeited = None;
        for (i, (board, mb)) in games.iter().enumerate() {
            if mb.starts_with("1.") {
                continue;
            }
            let key = if forfeited.is_none() && mb.starts_with("2.") {
                forfeited = Some(board.clone());
                'f'
            } else {
                keys[i % keys.len()]
            };
            let said = type_result(&c, board, key).await;
            assert!(said.contains("已录入"), "{board}: {said}");
        }
        assert_eq!(
            text(&c, "#progress").await,
            format!("第1轮 · {total}/{total}")
        );
        let f = forfeited.expect("a board of match 2");
        let v = c
            .execute(
                "return document.querySelector('#sheet tr[data-board=\"' + arguments[0] + '\"]').cells[3].textContent.trim();",
                vec![json!(f)],
            )
            .await
            .expect("cell");
        assert_eq!(v.as_str(), Some("+-"), "the forfeit on board {f}");
        click(&c, "form[action$='/confirm'] button").await;
        assert!(
            flash_says(&c, "已确认").await,
            "not confirmed: {}",
            body_text(&c).await
        );
        assert_eq!(text(&c, "#progress").await, "第1轮 · 已确认");

        // 4. The phone follows by itself.
        let want = director_table(&srv, &ev);
        assert_eq!(
            want[&a].0,
            points_text(
                reg.section("teams")
                    .expect("s")
                    .team_match
                    .as_ref()
                    .expect("tm")
                    .match_points
                    .win
            )
        );
        assert!(
            phone_shows(&phone, &want, 20).await,
            "the phone shows {:?}, the director {want:?}",
            phone_table(&phone).await
        );
        screenshot(&phone, "desk-team-standings-phone").await;
        c.close().await.expect("close");

        // 5. The chief arbiter corrects board 1.1: 乙 won it. The match changes hands.
        let c = driver.browser(1280, 900).await;
        log_in(&c, &base, "chief").await;
        c.goto(&grid).await.expect("grid");
        fill(&c, "#correct-board", "1.1").await;
        assert!(
            wait_js(
                &c,
                5,
                "document.querySelector('#sheet tr.current[data-mb=\"1.1\"]') && \
                 document.getElementById('correct-current').textContent.indexOf('第1场第1台') >= 0"
            )
            .await,
            "board 1.1 not lit by the correction form: {}",
            body_text(&c).await
        );
        fill(&c, "#correct-result", "0").await;
        fill(&c, "#correct input[name=reason]", "记分员记反").await;
        click(&c, "#correct button").await;
        assert!(
            flash_says(&c, "第1轮第1场第1台已更正").await,
            "not corrected: {}",
            body_text(&c).await
        );
        let (pa, pb) = (
            loss + loss + t.draw_red + t.forfeit_win,
            win + win + t.draw_black + t.forfeit_loss,
        );
        assert_eq!(
            match_line(&c, 1).await,
            format!(
                "第1场 {a} {}:{} {b} · {b}胜",
                points_text(pa),
                points_text(pb)
            )
        );
        screenshot(&c, "desk-team-corrected-laptop").await;
        let after = director_table(&srv, &ev);
        assert_ne!(after[&a], want[&a]);
        assert_ne!(after[&b], want[&b]);
        assert!(
            phone_shows(&phone, &after, 20).await,
            "after the correction the phone shows {:?}, the director {after:?}",
            phone_table(&phone).await
        );
        c.close().await.expect("close");
        phone.close().await.expect("close");
    });
}
