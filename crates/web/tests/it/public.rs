//! The public pages as a player uses them: pairings with "find my board" (a plain GET form,
//! no JavaScript), standings with every tie-break column, crosstable, a player's page,
//! team standings, knockout bracket, the big screen — and never an ID number or a phone.

use crate::common;

use arbiter_store::{EventId, EventStore};
use common::*;
use std::collections::{BTreeSet, VecDeque};

fn boot(file: &str, rounds: u32) -> (TestServer, EventId) {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, file, rounds, None));
    });
    (srv, id.expect("event"))
}

#[test]
fn find_my_board_by_name_and_by_number_without_javascript() {
    let (srv, id) = boot("kunshan-2026.toml", 2);
    let state = srv.store().state(&id).expect("state");
    let sec = state.section("men").expect("men");
    let r3 = sec.round(3).expect("round 3 paired");
    assert!(r3.published);
    let b = &r3.boards[4];
    let red = state.player(b.red).expect("red");
    let black = state.player(b.black).expect("black");
    let red_no = sec.pairing_no(b.red).expect("no").get();
    let black_no = sec.pairing_no(b.black).expect("no").get();

    // The page holds a GET form: the search works as a plain link.
    let page = srv.get(&format!("/e/{id}/s/men/r/3"));
    assert_eq!(page.status, 200);
    let html = page.text();
    assert!(
        html.contains(r#"<form class="find" method="get""#),
        "{html}"
    );
    assert!(html.contains(&red.person.name) && html.contains(&black.person.name));

    let q = |s: &str| -> String { s.bytes().map(|c| format!("%{c:02X}")).collect() };
    let by_name = srv.get(&format!("/e/{id}/s/men/r/3?q={}", q(&black.person.name)));
    assert_eq!(by_name.status, 200);
    let html = by_name.text();
    let answer = html
        .split(r#"<div class="answer">"#)
        .nth(1)
        .expect("an answer box")
        .split("</div>\n</div>")
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(answer.contains(&format!("第{}台", b.board)), "{answer}");
    assert!(answer.contains("执黑"), "{answer}");
    assert!(
        answer.contains(&format!("对手: {} ({red_no})", red.person.name)),
        "{answer}"
    );
    // The board's row is highlighted.
    assert!(html.contains(r#"<tr class="hit"><td class="n">"#));

    let by_no = srv.get(&format!("/e/{id}/s/men/r/3?q={red_no}&lang=en"));
    let html = by_no.text();
    assert!(html.contains(&format!("Board {}", b.board)), "{html}");
    assert!(html.contains("red (moves first)"));
    assert!(html.contains(&format!("Opponent: {} ({black_no})", black.person.name)));

    let none = srv.get(&format!("/e/{id}/s/men/r/3?q={}", q("查无此人")));
    assert!(none.text().contains("未找到"));
    // One result of round 3 is still missing: the progress line says so.
    let entered = r3.boards.iter().filter(|b| b.result.is_some()).count();
    assert_eq!(entered + 1, r3.boards.len());
    assert!(srv
        .get(&format!("/e/{id}/s/men/r/3"))
        .text()
        .contains(&format!("已录入成绩 {entered} / {}", r3.boards.len())));
}

#[test]
fn standings_crosstable_player_and_team_pages() {
    let (srv, id) = boot("kunshan-2026.toml", 3);
    let state = srv.store().state(&id).expect("state");
    let export = arbiter_director::export(&state).expect("export");
    let men = export.sections.iter().find(|s| s.id == "men").expect("men");
    assert!(!men.tiebreaks.is_empty());

    let html = srv.get(&format!("/e/{id}/s/men/standings")).text();
    // Every tie-break column, by its Chinese name, and the leader's row.
    for t in &men.tiebreaks {
        let zh = arbiter_types::TiebreakName::ALL
            .iter()
            .find(|x| x.name() == t)
            .map(|x| x.zh())
            .or_else(|| {
                arbiter_types::Fallback::ALL
                    .iter()
                    .find(|f| f.name() == t)
                    .map(|f| f.zh())
            })
            .expect("known tie-break");
        assert!(
            html.contains(&format!(r#"<span class="long">{zh}</span>"#)),
            "{zh}"
        );
    }
    assert!(html.contains("决定名次"));
    let top = &men.standings[0];
    let top_name = &men.players.iter().find(|p| p.no == top.no).expect("p").name;
    assert!(html.contains(top_name));

    // A player's page: every round with the running score.
    let p = state
        .players("men")
        .into_iter()
        .find(|p| state.outcomes(p.id).len() == 3)
        .expect("a player of three rounds");
    let no = state
        .section("men")
        .and_then(|s| s.pairing_no(p.id))
        .expect("no");
    let page = srv.get(&format!("/e/{id}/s/men/p/{}", no.get())).text();
    let table = arbiter_regulation::parse(
        &state.header.as_ref().expect("h").regulation,
        "kunshan-2026.toml",
    )
    .expect("reg")
    .section("men")
    .expect("men")
    .scoring
    .table;
    let mut running = arbiter_types::Score::ZERO;
    for o in state.outcomes(p.id) {
        running += o.points(&table);
    }
    assert!(page.contains(&p.person.name));
    // Three completed rounds plus round 4 paired: four rows; running total after round 3.
    assert_eq!(page.matches("<tr><td class=\"n\">").count(), 4, "{page}");
    assert!(
        page.contains(&format!("<td class=\"n\">{running}</td></tr>")),
        "running score {running}: {page}"
    );

    let cross = srv.get(&format!("/e/{id}/s/men/crosstable")).text();
    assert!(cross.contains(&p.person.name));
    // Kunshan scores 2-1-0: a win is 2 in the crosstable.
    assert!(cross.contains("红2") || cross.contains("黑2"), "wins shown");

    let teams = srv.get(&format!("/e/{id}/teams"));
    assert_eq!(teams.status, 200);
    let t = teams.text();
    assert!(!export.teams.is_empty());
    let first_team = &export.teams[0].standings[0].team;
    assert!(t.contains(first_team), "{t}");
}

#[test]
fn knockout_bracket_and_big_screen() {
    // Tianshui's open section is Swiss then knockout: play the whole event.
    let (srv, id) = boot("tianshui-2024.toml", 99);
    let state = srv.store().state(&id).expect("state");
    let sec = state
        .sections
        .values()
        .find(|s| !s.knockout.is_empty())
        .expect("a section with knockout games")
        .id
        .clone();
    let ko = srv.get(&format!("/e/{id}/s/{sec}/knockout"));
    assert_eq!(ko.status, 200);
    let html = ko.text();
    assert!(html.contains("决赛"), "{html}");
    assert!(html.contains(r#"class="w""#), "winners marked");
    // A finalist's page counts his games as players do: the final's first game is 第1局.
    let rec = state.section(&sec).expect("s");
    let fin = rec
        .knockout
        .iter()
        .find(|g| g.game == 0)
        .expect("a knockout game");
    let no = rec.pairing_no(fin.red).expect("numbered");
    let page = srv.get(&format!("/e/{id}/s/{sec}/p/{no}")).text();
    assert!(page.contains("第1局"), "{page}");
    assert!(!page.contains("第0局"), "{page}");

    let last = state
        .section(&sec)
        .expect("s")
        .rounds
        .keys()
        .next_back()
        .copied()
        .expect("r");
    let scr = srv.get(&format!("/e/{id}/s/{sec}/r/{last}/screen"));
    assert_eq!(scr.status, 200);
    let html = scr.text();
    assert!(
        html.contains(r#"<meta http-equiv="refresh""#),
        "pages by itself"
    );
    assert!(html.contains("screen?page=1") || html.contains("screen?page=2"));
    // A section without a knockout stage says so.
    let (srv2, id2) = boot("jiujiang-2020.toml", 1);
    assert_eq!(srv2.get(&format!("/e/{id2}/s/senior/knockout")).status, 404);
}

#[test]
fn the_big_screen_turns_pages_of_a_large_round() {
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        id = Some(reference_event(st, "jiujiang-2020.toml", 1, Some(90)));
    });
    let id = id.expect("event");
    let state = srv.store().state(&id).expect("state");
    let sec = "senior".to_string();
    let boards = state
        .section(&sec)
        .and_then(|s| s.round(2))
        .expect("r2")
        .boards
        .len();
    assert!(boards > 20, "{boards} boards");
    let p1 = srv.get(&format!("/e/{id}/s/{sec}/r/2/screen")).text();
    assert!(p1.contains("1 / 3") || p1.contains(&format!("1 / {}", boards.div_ceil(20))));
    assert!(p1.contains("screen?page=2"));
    let last = boards.div_ceil(20);
    let pl = srv
        .get(&format!("/e/{id}/s/{sec}/r/2/screen?page={last}"))
        .text();
    assert!(
        pl.contains("screen?page=1"),
        "the last page turns back to the first"
    );
}

/// Every public page and API response reachable from `/`, crawled.
fn crawl(srv: &TestServer, extra: &[String], limit: usize) -> Vec<(String, u16, String)> {
    let mut seen = BTreeSet::new();
    let mut queue: VecDeque<String> = VecDeque::new();
    queue.push_back("/".into());
    queue.extend(extra.iter().cloned());
    let mut out = Vec::new();
    while let Some(p) = queue.pop_front() {
        if !seen.insert(p.clone()) || out.len() >= limit {
            continue;
        }
        let r = srv.get(&p);
        let text = r.text();
        for attr in ["href=\"", "src=\""] {
            for part in text.split(attr).skip(1) {
                let link = part.split('"').next().unwrap_or("").replace("&amp;", "&");
                if (link.starts_with("/e/") || link.starts_with("/api/")) && !link.contains("/live")
                {
                    queue.push_back(link);
                }
            }
        }
        out.push((p, r.status, text));
    }
    out
}

#[test]
fn no_public_page_or_api_response_holds_an_id_number_or_a_phone() {
    let mut ids = Vec::new();
    let srv = TestServer::start_with(|st| {
        ids.push(reference_event(st, "kunshan-2026.toml", 2, Some(24)));
        ids.push(reference_event(st, "tianshui-2024.toml", 99, Some(24)));
    });
    let mut secrets: Vec<String> = Vec::new();
    let mut extra = Vec::new();
    for id in &ids {
        let state = srv.store().state(id).expect("state");
        for p in state.players.values() {
            if let Some(n) = &p.person.id_number {
                secrets.push(n.as_str().to_string());
                secrets.push(n.as_str().to_lowercase());
                secrets.push(n.masked());
                secrets.push(n.as_str()[6..14].to_string() + &n.as_str()[14..]);
            }
            if let Some(ph) = &p.person.phone {
                let d = ph.as_str().to_string();
                secrets.push(ph.masked());
                if d.len() == 11 {
                    secrets.push(format!("{}-{}-{}", &d[..3], &d[3..7], &d[7..]));
                    secrets.push(format!("{} {} {}", &d[..3], &d[3..7], &d[7..]));
                }
                secrets.push(d);
            }
        }
        // The API, whether or not a page links to it.
        for s in state.sections.keys() {
            extra.push(format!("/api/events/{id}/sections/{s}/standings"));
            extra.push(format!("/api/events/{id}/sections/{s}/results"));
            for r in state.section(s).expect("s").rounds.keys() {
                extra.push(format!("/api/events/{id}/sections/{s}/rounds/{r}"));
            }
        }
        extra.push(format!("/api/events/{id}"));
        extra.push(format!("/api/events/{id}/teams"));
        extra.push(format!("/e/{id}?lang=en"));
    }
    assert!(secrets.len() > 40, "the fields hold ID numbers and phones");
    let pages = crawl(&srv, &extra, 1500);
    assert!(pages.len() > 60, "crawled {} pages", pages.len());
    let mut kinds = BTreeSet::new();
    for (path, status, text) in &pages {
        assert_eq!(*status, 200, "{path}");
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "{path} holds `{s}`");
        }
        let kind = path
            .split('/')
            .rfind(|x| !x.is_empty() && !x.starts_with("ev-") && x.parse::<u32>().is_err())
            .unwrap_or("home")
            .split('?')
            .next()
            .unwrap_or("")
            .to_string();
        kinds.insert(kind);
    }
    for k in [
        "standings",
        "crosstable",
        "knockout",
        "teams",
        "screen",
        "qr.svg",
    ] {
        assert!(kinds.contains(k), "crawled a {k} page: {kinds:?}");
    }
}

#[test]
fn standings_mark_the_players_whose_confirmed_result_was_corrected() {
    // Tianshui signs its results: the simulated arbiter corrects one board of round 2 (A12).
    let (srv, id) = boot("tianshui-2024.toml", 3);
    let state = srv.store().state(&id).expect("state");
    let corrected = arbiter_director::standings_view::corrected_players(&state, "open");
    assert_eq!(corrected.len(), 2, "one corrected board");
    let html = srv.get(&format!("/e/{id}/s/open/standings")).text();
    let rows: Vec<&str> = html.split("<tr>").skip(1).collect();
    let marked: Vec<&&str> = rows
        .iter()
        .filter(|r| r.contains(r#"<span class="tag""#))
        .collect();
    assert_eq!(marked.len(), 2, "{html}");
    for p in &corrected {
        let name = &state.player(*p).expect("player").person.name;
        assert!(
            marked.iter().any(|r| r.contains(name.as_str())),
            "{name} is marked"
        );
    }
    assert!(marked[0].contains("更正"));
    // The export says it too, for the tools that read it.
    let export = arbiter_director::export(&state).expect("export");
    let open = export
        .sections
        .iter()
        .find(|s| s.id == "open")
        .expect("open");
    assert_eq!(open.standings.iter().filter(|r| r.corrected).count(), 2);
}

/// In English the pages use the regulation's English names (`name_en`), in the title, the
/// navigation and the headings; in Chinese the Chinese ones.
#[test]
fn english_pages_use_the_regulations_english_names() {
    let (srv, id) = boot("suzhou-2025.toml", 2);
    let en = srv.get(&format!("/e/{id}?lang=en")).text();
    assert!(
        en.contains("Suzhou qualifier, 10th National Amateur Xiangqi King 2025"),
        "{en}"
    );
    assert!(en.contains("Seniors") && en.contains("Children A"), "{en}");
    let standings = srv.get(&format!("/e/{id}/s/open/standings?lang=en")).text();
    assert!(standings.contains("<h1>Open standings · "), "{standings}");
    let cross = srv
        .get(&format!("/e/{id}/s/open/crosstable?lang=en"))
        .text();
    assert!(cross.contains("<h1>Open crosstable · "), "{cross}");

    let zh = srv.get(&format!("/e/{id}/s/open/standings")).text();
    assert!(
        !zh.contains("Children A") && !zh.contains("Suzhou qualifier"),
        "{zh}"
    );
    assert!(zh.contains("公开组"), "{zh}");
}

/// J1: "上午8点半开赛，上午三轮、下午四轮" — the public round page says when the round starts,
/// by the regulation's schedule (round 1 08:30, round 4 13:30).
#[test]
fn the_round_page_says_when_the_round_starts() {
    let (srv, id) = boot("jiujiang-2020.toml", 3);
    let r1 = srv.get(&format!("/e/{id}/s/senior/r/1")).text();
    assert!(r1.contains("开始时间: 2020-10-24 08:30"), "{r1}");
    let r4 = srv.get(&format!("/e/{id}/s/senior/r/4?lang=en")).text();
    assert!(r4.contains("Starts: 2020-10-24 13:30"), "{r4}");
}

#[test]
fn the_standings_page_lists_who_qualifies() {
    const REG: &str = r#"
[event]
name = "资格测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 3 }
tiebreaks = "cxa-2011-opp"

[[sections.categories]]
id = "local"
name = "本地选手"
flag = "local"

[[sections.qualification]]
places = 3
to = "全国象棋公开赛"

[[sections.qualification]]
places = 1
to = "市赛"
category = "local"
"#;
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let how = arbiter_web::demo::PartWay {
            rounds: Some(2),
            seed: 1,
            sizes: arbiter_simulate::Sizes {
                all: Some(10),
                ..Default::default()
            },
            results_left: 1,
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, REG, "qualifying.toml", &how)
                .expect("simulated"),
        );
    });
    let id = id.expect("event");
    let html = srv.get(&format!("/e/{id}/s/open/standings")).text();
    let list = html
        .split("取得资格: 全国象棋公开赛")
        .nth(1)
        .expect("a qualification list");
    assert!(list.contains("暂定，以最终名次为准"), "{list}");
    let table = list.split("</table>").next().unwrap_or_default();
    assert_eq!(table.matches("<tr><td class=\"n\">").count(), 3, "{table}");
    // The list follows the standings: its first player is the leader.
    let first_row = html
        .split("<tbody>")
        .nth(1)
        .and_then(|b| b.split("</tr>").next())
        .unwrap_or_default()
        .to_string();
    let leader = first_row
        .split("/p/")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap_or_default();
    assert!(
        table.contains(&format!("/p/{leader}\"")),
        "{leader}: {table}"
    );
    // The local players' qualification, from their own ranking: its player leads it.
    let local_leader = html
        .split("<h2>本地选手</h2>")
        .nth(1)
        .and_then(|t| t.split("<tbody>").nth(1))
        .and_then(|b| b.split("<td class=\"n\">").nth(2))
        .and_then(|c| c.split('<').next())
        .expect("the local players' table")
        .to_string();
    let local = html
        .split("本地选手 取得资格: 市赛")
        .nth(1)
        .and_then(|l| l.split("</table>").next())
        .expect("the local players' qualification list");
    assert_eq!(local.matches("<tr><td class=\"n\">").count(), 1, "{local}");
    assert!(
        local.contains(&format!("/p/{local_leader}\"")),
        "{local_leader}: {local}"
    );
}

/// The public bracket of a plain knockout of 100 (a bracket of 128, placement): seven round
/// columns, 六十四分之一决赛 first, byes shown, and every place once decided.
#[test]
fn the_bracket_page_of_a_plain_knockout_of_100() {
    let text = r#"
[event]
name = "百人淘汰赛"
start = 2026-10-01
end = 2026-10-04

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "lots" }
entries = { cap = 100 }

[sections.format]
kind = "knockout"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10
increment_seconds = 5

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
black_minutes = 3
"#;
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let how = arbiter_web::demo::PartWay {
            rounds: Some(99),
            results_left: usize::MAX,
            ..Default::default()
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "ko100.toml", &how).expect("simulated"),
        );
    });
    let id = id.expect("event");
    let ko = srv.get(&format!("/e/{id}/s/open/knockout"));
    assert_eq!(ko.status, 200);
    let html = ko.text();
    assert_eq!(
        html.matches(r#"<div class="col">"#).count(),
        7,
        "seven rounds"
    );
    assert!(html.contains("六十四分之一决赛"), "{html}");
    assert!(html.contains("轮空"), "byes shown");
    assert!(html.contains("第7轮"), "{html}");
    let state = srv.store().state(&id).expect("state");
    let drawn = state.section("open").expect("open").order.len();
    assert!(drawn > 64, "{drawn}");
    let places = html.matches("<li value=").count();
    assert!(places > 64 && places <= drawn, "{places} of {drawn}");
}

/// A knockout whose match the regulation writes as blocks with its own names of the games:
/// the public bracket prints each game as the file names it, with its time.
#[test]
fn the_bracket_page_names_the_games_as_the_regulation_does() {
    let text = r#"
[event]
name = "个人自由赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
entries = { cap = 8 }

[sections.format]
kind = "knockout"

[sections.format.knockout]
variant = "single"

[[sections.format.knockout.time_controls]]
name = "长考棋"
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
name = "加赛快棋"
kind = "rapid"
minutes = 15

[[sections.format.knockout.blocks]]
games = 3
time_control = "长考棋"

[[sections.format.knockout.blocks]]
games = 1
time_control = "加赛快棋"

[sections.format.knockout.ending]
rule = "lot"
"#;
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let how = arbiter_web::demo::PartWay {
            rounds: Some(99),
            results_left: usize::MAX,
            ..Default::default()
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "blocks.toml", &how).expect("simulated"),
        );
    });
    let id = id.expect("event");
    let ko = srv.get(&format!("/e/{id}/s/open/knockout"));
    assert_eq!(ko.status, 200);
    let html = ko.text();
    assert!(html.contains("长考棋30′"), "{html}");
    assert!(
        !html.contains("慢棋"),
        "the class name is not printed: {html}"
    );
}

/// 获奖名单 on the phone (`/e/{ev}/prizes`, linked from the event's home): during the event the
/// list follows the current standings and says 暂定; once the event is closed it says 最终; the
/// winners on the page are the export's, by name, never with an ID number.
#[test]
fn the_prize_list_is_on_the_phone_marked_provisional_until_the_closing() {
    let mut ids = Vec::new();
    let srv = TestServer::start_with(|st| {
        ids.push(reference_event(st, "kunshan-2026.toml", 2, Some(24)));
        ids.push(reference_event(st, "tianshui-2024.toml", 99, Some(24)));
    });
    for (id, closed) in ids.iter().zip([false, true]) {
        let home = srv.get(&format!("/e/{}", id.0)).text();
        assert!(
            home.contains(&format!("href=\"/e/{}/prizes\"", id.0)),
            "{home}"
        );
        let r = srv.get(&format!("/e/{}/prizes", id.0));
        assert_eq!(r.status, 200);
        let t = r.text();
        let state = srv.store().state(id).expect("state");
        assert_eq!(state.closed, closed);
        if closed {
            assert!(
                t.contains("id=\"prizes-final\"") && !t.contains("暂定"),
                "{t}"
            );
        } else {
            assert!(
                t.contains("id=\"prizes-provisional\"") && t.contains("暂定"),
                "{t}"
            );
        }
        let ex = arbiter_director::export(&state).expect("export");
        assert!(!ex.prizes.is_empty());
        for p in ex.prizes.iter().filter(|p| p.no.is_some()) {
            let section = ex
                .sections
                .iter()
                .find(|s| s.id == p.section)
                .expect("section");
            let name = &section
                .players
                .iter()
                .find(|x| Some(x.no) == p.no)
                .expect("winner")
                .name;
            assert!(t.contains(name.as_str()), "{name} missing: {t}");
        }
        for pl in state.players.values() {
            if let Some(n) = &pl.person.id_number {
                assert!(!t.contains(n.as_str()), "ID number on the prize page");
            }
        }
    }
}
