//! The players' pages of a team-match section (团体赛, A15): a round as its matches — 「第N场
//! 甲队 2½:1½ 乙队」 with both line-ups board by board, who is red and each board's result —
//! and the team standings (场分, 局分, 胜/和/负, what decided the place); never an ID number
//! or a phone.

use crate::common;

use arbiter_director::crosstable::points_text;
use arbiter_director::team_match;
use arbiter_store::{EventId, EventStore};
use common::*;

/// 浦东新区团体赛 2014 (ten clubs of eight boards, a round robin), simulated until two rounds
/// are complete and round 3 is paired with one board's result missing.
fn boot() -> (TestServer, EventId) {
    let text = include_str!("../../../../regulations/pudong-2014-clubs.toml");
    let mut id = None;
    let srv = TestServer::start_with(|st| {
        let how = arbiter_web::demo::PartWay {
            rounds: Some(2),
            seed: 1,
            sizes: arbiter_simulate::Sizes::default(),
            results_left: 1,
        };
        id = Some(
            arbiter_web::demo::simulate_part_way(st, text, "pudong-2014-clubs.toml", &how)
                .expect("simulated"),
        );
    });
    (srv, id.expect("event"))
}

fn at(html: &str, needle: &str) -> usize {
    html.find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not on the page"))
}

#[test]
fn a_team_round_shows_each_match_with_its_score_and_both_line_ups() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let v = team_match::round_view(&reg, &state, "clubs", 2).expect("round 2");
    assert!(v.matches.len() >= 2);

    let html = srv.get(&format!("/e/{id}/s/clubs/r/2")).text();
    // No table of boards by red and black: the matches instead.
    assert!(!html.contains("<th>红方</th>"), "{html}");
    let blocks: Vec<&str> = html
        .split(r#"<section class="tmatch">"#)
        .skip(1)
        .map(|b| &b[..b.find("</section>").expect("match block")])
        .collect();
    assert_eq!(blocks.len(), v.matches.len(), "{html}");
    for (m, block) in v.matches.iter().zip(blocks) {
        assert!(block.contains(&format!("第{}场", m.no)), "{block}");
        assert!(
            block.contains(&m.first) && block.contains(&m.second),
            "{block}"
        );
        let score = format!(
            "{}:{}",
            points_text(m.first_points),
            points_text(m.second_points)
        );
        assert!(block.contains(&score), "{score} in {block}");
        let result = m.result.expect("round 2 is complete");
        let said = match result {
            arbiter_standings::team_match::MatchResult::Win => format!("{}胜", m.first),
            arbiter_standings::team_match::MatchResult::Loss => format!("{}胜", m.second),
            arbiter_standings::team_match::MatchResult::Draw => "和".to_string(),
            _ => String::new(),
        };
        assert!(block.contains(&said), "{said} in {block}");
        // Board by board, in order: both players, who is red, the board's 局分.
        let mut at_board = 0;
        for b in &m.boards {
            let row = at(
                &block[at_board..],
                &format!("<td class=\"n\">{}</td>", b.board),
            ) + at_board;
            let tr = &block[row..];
            let tr = &tr[..tr.find("</tr>").expect("row")];
            for seat in [&b.first, &b.second].into_iter().flatten() {
                assert!(tr.contains(&seat.name), "{} in {tr}", seat.name);
            }
            let first_colour = if b.first_colour == arbiter_types::Colour::Red {
                "<span class=\"red\">红</span>"
            } else {
                "<span class=\"black\">黑</span>"
            };
            assert!(tr.find(first_colour).is_some_and(|i| i < 80), "{tr}");
            assert!(
                tr.contains(&format!(
                    "{}:{}",
                    points_text(b.first_points),
                    points_text(b.second_points)
                )),
                "{tr}"
            );
            at_board = row + 1;
        }
    }

    // Round 3 is in play (one result missing): a match without its result says so.
    let html = srv.get(&format!("/e/{id}/s/clubs/r/3")).text();
    assert!(html.contains("进行中"), "{html}");
    // In English too.
    let en = srv.get(&format!("/e/{id}/s/clubs/r/2?lang=en")).text();
    assert!(en.contains("Match 1"), "{en}");
}

#[test]
fn find_my_board_in_a_team_round_names_the_match_and_the_board() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let v = team_match::round_view(&reg, &state, "clubs", 2).expect("round 2");
    let m = v.matches.last().expect("a match");
    let b = m.boards.iter().find(|b| b.board == 3).expect("board 3");
    let p = b.second.as_ref().expect("a player on board 3");
    let q: String = p.name.bytes().map(|c| format!("%{c:02X}")).collect();
    let html = srv.get(&format!("/e/{id}/s/clubs/r/2?q={q}")).text();
    let answer = html
        .split(r#"<div class="answer">"#)
        .nth(1)
        .expect("an answer box");
    assert!(answer.contains(&format!("第{}场 第3台", m.no)), "{answer}");
    assert!(
        html.contains(r#"<tr class="hit"><td class="n">3</td>"#),
        "{html}"
    );
}

#[test]
fn team_standings_show_match_and_game_points_and_what_decided_the_place() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let t = team_match::standings(&reg, &state, "clubs").expect("standings");
    assert!(t.rows.len() >= 6);

    let html = srv.get(&format!("/e/{id}/s/clubs/standings")).text();
    let team = &html[at(&html, "团体名次")..at(&html, "个人成绩")];
    for col in ["名次", "队名", "场分", "局分", "胜/和/负", "决定名次"] {
        assert!(team.contains(&format!("{col}</")), "column {col}: {team}");
    }
    // The teams in rank order, each with its 场分, 局分 and record.
    let mut from = 0;
    for r in &t.rows {
        // The name links to the team's page.
        let row = at(
            &team[from..],
            &format!("<a href=\"/e/{id}/s/clubs/t/{}\">{}</a></td>", r.no, r.name),
        ) + from;
        let tr = &team[row..];
        let tr = &tr[..tr.find("</tr>").expect("row")];
        assert!(
            tr.contains(&format!(
                "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                points_text(r.match_points),
                points_text(r.game_points)
            )),
            "{tr}"
        );
        assert!(
            tr.contains(&format!("{}/{}/{}", r.wins, r.draws, r.losses)),
            "{tr}"
        );
        if let Some(d) = r.decided_by {
            assert!(tr.contains(d.zh()), "{tr}");
        }
        from = row;
    }
    assert!(
        t.rows.iter().any(|r| r.decided_by.is_some()),
        "some place decided by a criterion"
    );

    // The event's team page sends a team-match section's readers to that table.
    let teams = srv.get(&format!("/e/{id}/teams")).text();
    assert!(
        teams.contains(&format!("href=\"/e/{id}/s/clubs/standings\"")),
        "{teams}"
    );
    assert!(!teams.contains("尚无团体名次"), "{teams}");
}

#[test]
fn the_board_standings_follow_the_team_standings_board_by_board() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let bp = team_match::board_prizes(&reg, &state, "clubs").expect("board standings");
    assert!(bp.boards.len() >= 6, "{} boards", bp.boards.len());

    let html = srv.get(&format!("/e/{id}/s/clubs/standings")).text();
    let part = &html[at(&html, "台次成绩")..at(&html, "个人成绩")];
    assert!(
        part.contains(&format!("至少{}局方可排名", bp.min_games)),
        "{part}"
    );
    let tables: Vec<&str> = part
        .split("<table class=\"standings boardst\"")
        .skip(1)
        .collect();
    assert_eq!(tables.len(), bp.boards.len());
    for (t, html) in bp.boards.iter().zip(tables) {
        assert!(
            html.starts_with(&format!(" data-board=\"{}\"", t.board)),
            "{html}"
        );
        // Each player in the board's order, with his team, games, points and rate.
        let mut from = 0;
        for r in &t.rows {
            let rank = r.rank.map_or("—".to_string(), |n| n.to_string());
            let row = format!(
                "<tr><td class=\"n\">{rank}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                r.name,
                r.team,
                r.games,
                r.points_text(),
                r.rate_text()
            );
            from += at(&html[from..], &row) + row.len();
        }
    }
    // A player is ranked exactly when he has the minimum of games.
    for t in &bp.boards {
        for r in &t.rows {
            assert_eq!(r.rank.is_some(), r.games >= bp.min_games, "{}", r.name);
        }
    }
}

#[test]
fn no_page_of_a_team_section_holds_an_id_number_or_a_phone() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let mut secrets = Vec::new();
    for p in state.players.values() {
        if let Some(n) = &p.person.id_number {
            secrets.push(n.as_str().to_string());
            secrets.push(n.masked());
        }
        if let Some(ph) = &p.person.phone {
            secrets.push(ph.as_str().to_string());
            secrets.push(ph.masked());
        }
    }
    assert!(secrets.len() > 20, "the fields hold ID numbers and phones");
    for path in [
        format!("/e/{id}/s/clubs/r/1"),
        format!("/e/{id}/s/clubs/r/2"),
        format!("/e/{id}/s/clubs/r/3"),
        format!("/e/{id}/s/clubs/r/2?lang=en"),
        format!("/e/{id}/s/clubs/standings"),
        format!("/e/{id}/s/clubs/standings?lang=en"),
        format!("/e/{id}/s/clubs/t/1"),
        format!("/e/{id}/s/clubs/crosstable"),
        format!("/e/{id}/s/clubs/t/2?lang=en"),
        format!("/e/{id}/s/clubs/p/1"),
    ] {
        let r = srv.get(&path);
        assert_eq!(r.status, 200, "{path}");
        let text = r.text();
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "{path} holds `{s}`");
        }
    }
}

/// A team's own page: its place, its players in board order with their games, and each
/// published round's match from its side — the opponent (linked), 局分 both ways, and the
/// boards with who sat there; the standings and a player's page link to it.
#[test]
fn a_team_has_its_own_page_with_its_players_and_every_match() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let rec = state.section("clubs").expect("section");
    let table = team_match::standings(&reg, &state, "clubs").expect("standings");
    let row = &table.rows[0];
    let name = row.name.clone();
    let no = row.no;
    assert_eq!(rec.team_order[no as usize - 1], name);

    let standings = srv.get(&format!("/e/{id}/s/clubs/standings")).text();
    assert!(
        standings.contains(&format!("<a href=\"/e/{id}/s/clubs/t/{no}\">{name}</a>")),
        "the standings link the team page"
    );
    let html = srv.get(&format!("/e/{id}/s/clubs/t/{no}")).text();
    assert!(html.contains(&format!("<h1>{name} ")), "{html}");
    assert!(
        html.contains(&format!(
            "场分 <strong>{}</strong> · 局分 <strong>{}</strong>",
            points_text(row.match_points),
            points_text(row.game_points)
        )),
        "{html}"
    );
    // The players in registration (board) order, each linked to his page.
    let team = state.teams.get(&name).expect("team");
    let mut last = 0;
    for p in &team.members {
        let pno = rec.order.iter().position(|x| x == p).expect("numbered") + 1;
        let pname = &state.player(*p).expect("player").person.name;
        let link = format!("<a href=\"/e/{id}/s/clubs/p/{pno}\">{pname}</a>");
        let pos = at(&html, &link);
        assert!(pos > last, "{pname} in board order");
        last = pos;
    }
    // Every published round: its match from this team's side.
    let blocks: Vec<&str> = html
        .split("<section class=\"tmatch teamround\"")
        .skip(1)
        .map(|b| &b[..b.find("</section>").expect("round block")])
        .collect();
    let published: Vec<u32> = rec
        .rounds
        .values()
        .filter(|r| r.published)
        .map(|r| r.round)
        .collect();
    assert_eq!(blocks.len(), published.len(), "{html}");
    for (r, block) in published.iter().zip(&blocks) {
        let v = team_match::round_view(&reg, &state, "clubs", *r).expect("round");
        let m = v
            .matches
            .iter()
            .find(|m| m.first == name || m.second == name)
            .expect("the team plays every round of a round robin of six");
        let first = m.first == name;
        let (other, ours, theirs) = if first {
            (&m.second, m.first_points, m.second_points)
        } else {
            (&m.first, m.second_points, m.first_points)
        };
        let other_no = rec
            .team_order
            .iter()
            .position(|t| t == other)
            .expect("team")
            + 1;
        assert!(
            block.contains(&format!(
                "<a href=\"/e/{id}/s/clubs/t/{other_no}\">{other}</a>"
            )),
            "{block}"
        );
        assert!(
            block.contains(&format!("{}:{}", points_text(ours), points_text(theirs))),
            "{block}"
        );
        for b in &m.boards {
            let (mine, _) = if first {
                (&b.first, &b.second)
            } else {
                (&b.second, &b.first)
            };
            if let Some(p) = mine {
                assert!(
                    block.contains(&p.name),
                    "{} on board {} in {block}",
                    p.name,
                    b.board
                );
            }
        }
        let said = match m.result.map(|x| if first { x } else { x.reversed() }) {
            None => "进行中",
            Some(arbiter_standings::team_match::MatchResult::Win) => "胜",
            Some(arbiter_standings::team_match::MatchResult::Draw) => "和",
            Some(arbiter_standings::team_match::MatchResult::Loss) => "负",
            Some(_) => "弃权",
        };
        assert!(
            block.contains(&format!("\">{said}</span>")),
            "{said} in {block}"
        );
    }
    // A player's page names his team with a link, and the board as 「场.台」.
    let p = team.members[0];
    let pno = rec.order.iter().position(|x| *x == p).expect("numbered") + 1;
    let page = srv.get(&format!("/e/{id}/s/clubs/p/{pno}")).text();
    assert!(
        page.contains(&format!(
            "<a class=\"teamlink\" href=\"/e/{id}/s/clubs/t/{no}\">{name}</a>"
        )),
        "{page}"
    );
    assert!(page.contains("场.台"), "{page}");
    // No such team, and an individual section's team number: 404.
    assert_eq!(srv.get(&format!("/e/{id}/s/clubs/t/99")).status, 404);
    assert_eq!(srv.get(&format!("/e/{id}/s/clubs/t/0")).status, 404);
}

/// The hall's big screen of a team round shows matches, each with its score and boards — two
/// matches of eight boards a page — and has no page beyond the last match.
#[test]
fn the_big_screen_of_a_team_round_pages_through_its_matches() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let v = team_match::round_view(&reg, &state, "clubs", 2).expect("round 2");
    let n = v.matches.len();
    assert!(n >= 3, "{n} matches");
    let count = n.div_ceil(2);
    let pages: Vec<String> = (1..=count)
        .map(|p| {
            srv.get(&format!("/e/{id}/s/clubs/r/2/screen?page={p}"))
                .text()
        })
        .collect();
    assert!(pages[0].contains(&format!("1 / {count}")), "{}", pages[0]);
    for (i, m) in v.matches.iter().enumerate() {
        let head = format!(
            "第{}场 <span class=\"team\">{}</span> <b class=\"mscore\">{}:{}</b> <span class=\"team\">{}</span>",
            m.no,
            m.first,
            points_text(m.first_points),
            points_text(m.second_points),
            m.second
        );
        for (p, page) in pages.iter().enumerate() {
            assert_eq!(
                page.contains(&head),
                p == i / 2,
                "match {} on page {}",
                m.no,
                p + 1
            );
        }
        for b in &m.boards {
            if let Some(p) = &b.first {
                assert!(pages[i / 2].contains(&p.name), "{}", p.name);
            }
        }
    }
    // Each page refreshes to the next one, the last to the first; none beyond.
    assert!(pages[0].contains("screen?page=2"));
    assert!(pages[count - 1].contains("screen?page=1"));
    assert_eq!(
        srv.get(&format!("/e/{id}/s/clubs/r/2/screen?page={}", count + 1))
            .status,
        404
    );
}

/// The phone's crosstable of a team section starts with the team crosstable: teams in
/// standings order, each round the opponent's number and the match's 局分 from the row's
/// side, then 场分 and 局分.
#[test]
fn the_team_crosstable_shows_each_round_s_opponent_and_game_points() {
    let (srv, id) = boot();
    let state = srv.store().state(&id).expect("state");
    let reg = arbiter_director::regulation_of(&state).expect("regulation");
    let t = team_match::standings(&reg, &state, "clubs").expect("standings");
    let html = srv.get(&format!("/e/{id}/s/clubs/crosstable")).text();
    let team = &html[at(&html, "团体交叉表")..at(&html, "个人交叉表")];
    let mut from = 0;
    for r in &t.rows {
        let start = at(
            &team[from..],
            &format!("<a href=\"/e/{id}/s/clubs/t/{}\">{}</a></td>", r.no, r.name),
        ) + from;
        let tr = &team[start..];
        let tr = &tr[..tr.find("</tr>").expect("row")];
        for c in &r.rounds {
            let text = match c.opponent {
                Some(o) => format!(
                    "{o} · {}:{}",
                    points_text(c.game_points),
                    points_text(c.opponent_game_points)
                ),
                None => "轮空".to_string(),
            };
            assert!(tr.contains(&format!("\">{text}</td>")), "{text} in {tr}");
        }
        assert!(
            tr.ends_with(&format!(
                "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                points_text(r.match_points),
                points_text(r.game_points)
            )),
            "{tr}"
        );
        from = start;
    }
}
