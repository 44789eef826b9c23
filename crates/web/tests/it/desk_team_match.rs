//! A team-match round at the desk (团体赛, A15), each through its form as an arbiter uses it:
//! the match sheet (每场对阵 with both line-ups and the running score), a captain's line-up
//! typed in (a reserve moving the players below him down), a wrong line-up refused in words,
//! results typed as 「场次.台次」 with the match's line given back, a board that is not there
//! refused, a team that does not appear, and a line-up refused once its match has a result.

use crate::common::TestServer;
use crate::desk::{flash, login, with_accounts, Browser};
use arbiter_core::{EventState, PlayerId};
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match;
use arbiter_store::{EventId, EventStore};
use arbiter_types::GameResult;

/// A team Swiss of 20 teams on four boards (one reserve each): round 1 paired and published,
/// no result yet (10 matches).
fn boot() -> (TestServer, String) {
    let text = include_str!("../../../simulate/tests/fixtures/team-swiss.toml");
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        with_accounts(st);
        let how = arbiter_web::demo::PartWay {
            rounds: Some(0),
            seed: 2,
            sizes: arbiter_simulate::Sizes {
                all: Some(100),
                ..Default::default()
            },
            results_left: usize::MAX,
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "team-swiss.toml", &how)
                .expect("round 1 paired")
                .0,
        );
    });
    (srv, id.expect("event"))
}

fn state(s: &TestServer, ev: &str) -> EventState {
    s.store().state(&EventId(ev.to_string())).expect("state")
}

fn post(s: &TestServer, b: &Browser, path: &str, pairs: &[(&str, &str)]) -> (bool, String) {
    flash(&b.post(s, path, pairs))
}

#[test]
fn a_team_round_at_the_desk_line_ups_results_by_match_board_and_a_team_absent() {
    let (s, ev) = boot();
    let arb = login(&s, "arb");
    let st = state(&s, &ev);
    let reg = arbiter_director::regulation_of(&st).expect("regulation");
    let v = team_match::round_view(&reg, &st, "teams", 1).expect("round 1");
    assert_eq!(v.matches.len(), 10);

    // The round page: ten matches, each with its line, and twenty line-up forms.
    let html = arb.get(&s, &format!("/desk/e/{ev}/s/teams/round")).text();
    for m in &v.matches {
        // An empty seat of a short team is already its forfeit: the score counts it.
        let line = format!(
            "第{}场 {} {}:{} {} · 进行中",
            m.no,
            m.first,
            points_text(m.first_points),
            points_text(m.second_points),
            m.second
        );
        assert!(html.contains(&line), "{line}");
    }
    assert_eq!(html.matches("/lineup\" class=\"stack lineup\"").count(), 20);
    assert!(
        !html.contains("name=\"fix\""),
        "a team round takes no fixed pairs"
    );

    // Match 1's first team hands in a line-up with its reserve on: named as reserve, board 1,
    // board 2, board 4 — with the registered order kept they sit in registered order, the
    // reserve last (he is registered fifth), board 3 left out.
    let first = v.matches[0].first.clone();
    let members = st.teams[&first].members.clone();
    assert_eq!(members.len(), 5, "four boards and a reserve");
    let id = |p: PlayerId| p.0.to_string();
    let named = [
        id(members[4]),
        id(members[0]),
        id(members[1]),
        id(members[3]),
    ];
    let path = format!("/desk/e/{ev}/s/teams/lineup");
    let (ok, msg) = post(
        &s,
        &arb,
        &path,
        &[
            ("team", &first),
            ("round", "1"),
            ("b1", &named[0]),
            ("b2", &named[1]),
            ("b3", &named[2]),
            ("b4", &named[3]),
            ("by", "王领队"),
        ],
    );
    assert!(ok, "{msg}");
    assert!(msg.contains("出场名单已录入"), "{msg}");
    // Seated again, the round waits to be published once more.
    assert!(msg.contains("请公布对阵表"), "{msg}");
    let (ok, msg) = post(&s, &arb, &format!("/desk/e/{ev}/s/teams/publish"), &[]);
    assert!(ok, "{msg}");
    let st = state(&s, &ev);
    let given = st.section("teams").expect("section").matches[&1].lineups[&first].clone();
    assert_eq!(
        given,
        vec![
            Some(members[0]),
            Some(members[1]),
            Some(members[3]),
            Some(members[4])
        ]
    );
    let v1 = team_match::round_view(&reg, &st, "teams", 1).expect("round 1");
    let seated: Vec<Option<PlayerId>> = v1.matches[0]
        .boards
        .iter()
        .map(|b| b.first.as_ref().map(|x| x.id))
        .collect();
    assert_eq!(seated, given, "the games are seated by the line-up");
    // The page shows it: board 4 of the form has the reserve selected.
    let html = arb.get(&s, &format!("/desk/e/{ev}/s/teams/round")).text();
    let form_at = html
        .find(&format!("data-team=\"{first}\""))
        .expect("the team's form");
    let form = &html[form_at..form_at + html[form_at..].find("</form>").expect("end")];
    let b4 = &form[form.find("name=\"b4\"").expect("board 4")..];
    let b4 = &b4[..b4.find("</select>").expect("select")];
    assert!(
        b4.contains(&format!("value=\"{}\" selected", members[4].0)),
        "{b4}"
    );

    // A player of another team is refused in words; nothing is written.
    let other = &st.teams[&v.matches[0].second].members[0];
    let seq = s.store().last_seq(&EventId(ev.clone())).expect("seq");
    let (ok, msg) = post(
        &s,
        &arb,
        &path,
        &[("team", &first), ("round", "1"), ("b1", &id(*other))],
    );
    let who = &st.player(*other).expect("player").person.name;
    assert!(
        !ok && msg.contains(&format!("{who} (P{}) 不是本队队员", other.0)),
        "{msg}"
    );
    assert_eq!(s.store().last_seq(&EventId(ev.clone())).expect("seq"), seq);

    // Results by 「场次.台次」: match 1 board 1 red wins; the answer names the board and gives
    // the match's line with its running score.
    let results = format!("/desk/e/{ev}/s/teams/results");
    let r = arb.post_json(
        &s,
        &results,
        &[("round", "1"), ("board", "1.1"), ("result", "1-0")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let a = r.json();
    assert_eq!(a["board"], 1);
    assert_eq!(a["match_no"], 1);
    let line = a["match_line"].as_str().expect("match line");
    assert!(line.starts_with(&format!("第1场 {first} ")), "{line}");
    assert!(line.ends_with("· 进行中"), "{line}");
    assert!(
        a["message"]
            .as_str()
            .unwrap_or("")
            .contains("第1场第1台已录入"),
        "{a}"
    );
    // Board 2 of match 3 typed as 3-2 is the round's board 10.
    let r = arb.post_json(
        &s,
        &results,
        &[("round", "1"), ("board", "3-2"), ("result", "=")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["board"], 10);
    let st = state(&s, &ev);
    let round = &st.section("teams").expect("section").rounds[&1];
    assert_eq!(
        round.board(10).and_then(|g| g.result),
        Some(GameResult::Draw)
    );
    // A board a match does not have, a match the round does not have.
    for (typed, words) in [("1.5", "每场只有 4 台"), ("11.1", "本轮没有第11场")] {
        let r = arb.post_json(
            &s,
            &results,
            &[("round", "1"), ("board", typed), ("result", "1-0")],
        );
        assert_eq!(r.status, 409, "{typed}");
        let m = r.json()["message"].as_str().unwrap_or("").to_string();
        assert!(m.contains(words), "{typed}: {m}");
    }

    // The round has results now: its line-ups are fixed, the form says so.
    let (ok, msg) = post(
        &s,
        &arb,
        &path,
        &[("team", &first), ("round", "1"), ("b1", &named[1])],
    );
    assert!(!ok, "{msg}");
    let html = arb.get(&s, &format!("/desk/e/{ev}/s/teams/round")).text();
    assert!(html.contains("本场已有成绩, 名单不能再改"), "{html}");

    // Match 2's second team does not appear: every game of the match its forfeit.
    let absent = v.matches[1].second.clone();
    let (ok, msg) = post(
        &s,
        &arb,
        &format!("/desk/e/{ev}/s/teams/team-absent"),
        &[("round", "1"), ("team", &absent)],
    );
    assert!(ok && msg.contains("全队弃权"), "{msg}");
    let st = state(&s, &ev);
    let v2 = team_match::round_view(&reg, &st, "teams", 1).expect("round 1");
    let m2 = &v2.matches[1];
    assert_eq!(
        m2.result,
        Some(arbiter_standings::team_match::MatchResult::ForfeitWin),
        "{m2:?}"
    );
    // The grid shows it: match 2's line says who forfeited, and each of its boards a forfeit.
    let html = arb.get(&s, &results).text();
    assert!(
        html.contains(&format!("第2场 {} ", m2.first)) && html.contains(&format!("{absent}弃权")),
        "{html}"
    );
    let block = &html[html.find("id=\"m-2\"").expect("match 2")..];
    let block = &block[..block.find("</tbody>").expect("end")];
    assert_eq!(
        block.matches("<td class=\"res\">+-</td>").count()
            + block.matches("<td class=\"res\">-+</td>").count()
            + block.matches("<td class=\"res\">弃权</td>").count(),
        4,
        "{block}"
    );
}

#[test]
fn a_whole_team_is_withdrawn_from_the_teams_page() {
    let (s, ev) = boot();
    let chief = login(&s, "chief");
    let st = state(&s, &ev);
    let team = st.section("teams").expect("section").matches[&1].matches[3]
        .first
        .clone();
    let page = chief.get(&s, &format!("/desk/e/{ev}/teams")).text();
    assert!(page.contains("id=\"withdraw-team\""), "{page}");
    let path = format!("/desk/e/{ev}/teams/withdraw");
    let (ok, msg) = post(&s, &chief, &path, &[("team", &team), ("reason", "")]);
    assert!(!ok && msg.contains("须填写理由"), "{msg}");
    let (ok, msg) = post(
        &s,
        &chief,
        &path,
        &[("team", &team), ("reason", "全队因故退赛")],
    );
    assert!(ok, "{msg}");
    let members = st.teams[&team].members.len();
    assert!(
        msg.contains(&format!("{team} 整队退赛: {members} 名队员已退赛")),
        "{msg}"
    );
    let st = state(&s, &ev);
    for p in &st.teams[&team].members {
        assert_eq!(st.status(*p), Some(arbiter_core::PlayerStatus::Withdrawn));
    }
    let (ok, msg) = post(&s, &chief, &path, &[("team", &team), ("reason", "再次")]);
    assert!(!ok && msg.contains("均已退赛"), "{msg}");
    // The registration desk may not.
    let desk = login(&s, "desk");
    let page = desk.get(&s, &format!("/desk/e/{ev}/teams")).text();
    assert!(!page.contains("id=\"withdraw-team\""), "{page}");
}

/// The captains' confirmation of a match (队长确认) on the match sheet: each side 「未确认」 while
/// the match is in play (and a confirmation refused in words, naming the board), a form per
/// side once every board has its result — for the arbiters, not the registration desk —,
/// 「已确认 · 张三」 after it, twice refused naming the captain; the public round page says
/// 「待队长确认」 and then 「双方队长已确认」, never the captain's name.
#[test]
fn both_captains_confirm_a_match_on_the_match_sheet() {
    let (s, ev) = boot();
    let arb = login(&s, "arb");
    let st = state(&s, &ev);
    let reg = arbiter_director::regulation_of(&st).expect("regulation");
    let m = team_match::round_view(&reg, &st, "teams", 1)
        .expect("round 1")
        .matches[0]
        .clone();
    let (first, second) = (m.first.clone(), m.second.clone());
    let results = format!("/desk/e/{ev}/s/teams/results");
    let confirm = format!("/desk/e/{ev}/s/teams/confirm-match");
    let captains = |html: &str| -> String {
        let at = html.find("id=\"captains-1\"").expect("match 1's captains");
        html[at..at + html[at..].find("</tr>").expect("end")].to_string()
    };

    // In play: both sides unconfirmed, no form; a confirmation sent anyway is refused in words.
    let row = captains(&arb.get(&s, &results).text());
    assert!(row.contains(&format!("{first} 未确认")), "{row}");
    assert!(row.contains(&format!("{second} 未确认")), "{row}");
    assert!(!row.contains("confirm-match"), "{row}");
    let (ok, msg) = post(
        &s,
        &arb,
        &confirm,
        &[("team", &first), ("round", "1"), ("by", "欧阳队长")],
    );
    assert!(
        !ok && msg.contains("第1轮第1场第1台") && msg.contains("尚无成绩"),
        "{msg}"
    );

    // Every board of match 1 gets its result (an empty seat is a forfeit already).
    for b in m
        .boards
        .iter()
        .filter(|b| b.first.is_some() && b.second.is_some())
    {
        let r = arb.post_json(
            &s,
            &results,
            &[
                ("round", "1"),
                ("board", &format!("1.{}", b.board)),
                ("result", "1-0"),
            ],
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    // A form per side now — for the arbiters, not for the registration desk.
    let row = captains(&arb.get(&s, &results).text());
    assert_eq!(
        row.matches("class=\"inline confirm-match\"").count(),
        2,
        "{row}"
    );
    assert!(row.contains("队长确认</button>"), "{row}");
    let desk = login(&s, "desk");
    let row = captains(&desk.get(&s, &results).text());
    assert!(!row.contains("confirm-match"), "{row}");
    let r = desk.post(
        &s,
        &confirm,
        &[("team", &first), ("round", "1"), ("by", "欧阳队长")],
    );
    assert_eq!(r.status, 403, "{}", r.text());
    let public = format!("/e/{ev}/s/teams/r/1");
    let head = |html: &str| -> String {
        let at = html.find(">第1场</span>").expect("match 1");
        html[at..at + html[at..].find("</h2>").expect("end")].to_string()
    };
    let h = head(&s.get(&public).text());
    assert!(h.contains("待队长确认"), "{h}");

    // The first captain confirms.
    let (ok, msg) = post(
        &s,
        &arb,
        &confirm,
        &[("team", &first), ("round", "1"), ("by", "欧阳队长")],
    );
    assert!(ok, "{msg}");
    assert!(
        msg.contains(&format!("第1轮 第1场 {first} 队长 欧阳队长 已确认")),
        "{msg}"
    );
    let row = captains(&arb.get(&s, &results).text());
    assert!(row.contains(&format!("{first} 已确认 · 欧阳队长")), "{row}");
    assert!(row.contains(&format!("{second} 未确认")), "{row}");
    assert_eq!(
        row.matches("class=\"inline confirm-match\"").count(),
        1,
        "{row}"
    );
    // Twice: refused, naming who confirmed.
    let (ok, msg) = post(
        &s,
        &arb,
        &confirm,
        &[("team", &first), ("round", "1"), ("by", "王五")],
    );
    assert!(!ok && msg.contains("已由队长 欧阳队长 确认"), "{msg}");
    let h = head(&s.get(&public).text());
    assert!(h.contains("待队长确认"), "{h}");

    // The second captain confirms from the round page, which the answer returns to.
    let r = arb.post(
        &s,
        &confirm,
        &[
            ("team", &second),
            ("round", "1"),
            ("by", "司马队长"),
            ("back", "round"),
        ],
    );
    let loc = r.header("location").unwrap_or("").to_string();
    assert!(
        loc.starts_with(&format!("/desk/e/{ev}/s/teams/round?ok=")),
        "{loc}"
    );
    let (ok, msg) = flash(&r);
    assert!(ok && msg.contains("双方队长均已确认"), "{msg}");
    let row = captains(&arb.get(&s, &format!("/desk/e/{ev}/s/teams/round")).text());
    assert!(
        row.contains(&format!("{second} 已确认 · 司马队长")),
        "{row}"
    );
    assert!(!row.contains("confirm-match"), "{row}");
    let page = s.get(&public).text();
    let h = head(&page);
    assert!(h.contains("双方队长已确认"), "{h}");
    for name in ["欧阳队长", "司马队长"] {
        assert!(
            !page.contains(name),
            "the public page names no captain: {name}"
        );
    }
}

/// The grid of another arbiter reads a team round as the match sheet shows it: the board's
/// result, the match's line and the board's 局分 (`results.json`, read by the grid's script
/// after the live stream's change).
#[test]
fn the_round_results_now_carry_each_matchs_line_and_points() {
    let (s, ev) = boot();
    let a = login(&s, "arb");
    let b = login(&s, "arb2");
    let now = format!("/desk/e/{ev}/s/teams/results.json");
    let before = b.get(&s, &now).json();
    let matches = before["matches"]
        .as_array()
        .expect("a team round's matches");
    assert_eq!(matches.len(), 10, "{before}");
    assert!(
        matches[0]["points"]
            .as_array()
            .expect("points")
            .iter()
            .all(|p| p[1] == ""),
        "{before}"
    );
    let r = a.post_json(
        &s,
        &format!("/desk/e/{ev}/s/teams/results"),
        &[("round", "1"), ("board", "1.1"), ("result", "1")],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let answer = r.json();
    let board = answer["board"].as_u64().expect("the round's board");
    let j = b.get(&s, &now).json();
    let m = j["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .find(|m| m["no"] == answer["match_no"])
        .expect("the board's match")
        .clone();
    assert_eq!(m["line"], answer["match_line"], "{j}");
    assert_ne!(m["line"], matches[0]["line"], "the line follows the score");
    let points: Vec<(u64, String)> = m["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| {
            (
                p[0].as_u64().unwrap_or(0),
                p[1].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let entered: Vec<_> = points.iter().filter(|(_, p)| !p.is_empty()).collect();
    assert_eq!(entered.len(), 1, "{points:?}");
    assert_eq!(entered[0].0, board);
    let row = j["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .find(|x| x["board"].as_u64() == Some(board))
        .expect("the board")
        .clone();
    assert_eq!(row["result"], "1-0");
}
