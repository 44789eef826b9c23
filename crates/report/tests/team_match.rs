//! The documents of a team-match section (团体赛, A15) of two simulated events — the 2014
//! Pudong club event (a round robin of eight boards) and a team Swiss of four boards with a
//! bye — checked against the director's read models they are built from.

use arbiter_core::EventState;
use arbiter_director::team_match;
use arbiter_regulation::Regulation;
use arbiter_report::{build, Block, Cell, DocKind, Document, Options, Table};
use arbiter_simulate::{Simulator, Sizes};
use std::sync::OnceLock;

fn simulate(path: &str, players: Option<usize>) -> (Regulation, EventState) {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    let sizes = Sizes {
        all: players,
        ..Sizes::default()
    };
    let mut sim = Simulator::new(reg.clone(), &src, "team.toml", 3, &sizes);
    let state = sim.run_in_memory().unwrap().1;
    (reg, state)
}

/// Six clubs of eight boards, a round robin (no bye).
fn pudong() -> &'static (Regulation, EventState) {
    static S: OnceLock<(Regulation, EventState)> = OnceLock::new();
    S.get_or_init(|| simulate("../../regulations/pudong-2014-clubs.toml", None))
}

/// A team Swiss of four boards and an odd number of teams (a bye every round).
fn swiss() -> &'static (Regulation, EventState) {
    static S: OnceLock<(Regulation, EventState)> = OnceLock::new();
    S.get_or_init(|| simulate("tests/fixtures/team-swiss.toml", Some(35)))
}

fn events() -> [(&'static Regulation, &'static EventState, &'static str); 2] {
    let (pr, ps) = pudong();
    let (sr, ss) = swiss();
    [(pr, ps, "clubs"), (sr, ss, "teams")]
}

fn doc(state: &EventState, kind: DocKind, round: Option<u32>) -> Document {
    build(
        state,
        kind,
        &Options {
            round,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{kind:?}: {e}"))
}

fn texts(t: &Table, key: &str) -> Vec<String> {
    let i = t
        .column(key)
        .unwrap_or_else(|| panic!("{}: no column {key}", t.id));
    t.rows.iter().map(|r| r[i].display()).collect()
}

/// The blocks of the document, kept-together groups opened.
fn flat(d: &Document) -> Vec<&Block> {
    let mut out = Vec::new();
    for b in &d.blocks {
        match b {
            Block::KeepTogether(inner) => out.extend(inner.iter()),
            b => out.push(b),
        }
    }
    out
}

fn headings(d: &Document) -> Vec<&str> {
    flat(d)
        .into_iter()
        .filter_map(|b| match b {
            Block::Heading(h) => Some(h.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn team_pairings_show_every_match_with_both_line_ups_and_the_bye() {
    for (reg, state, sid) in events() {
        let last = state.section(sid).unwrap().last_round();
        for round in 1..=last {
            let view = team_match::round_view(reg, state, sid, round).unwrap();
            let d = doc(state, DocKind::Pairings, Some(round));
            let heads = headings(&d);
            let tables = d.tables();
            assert_eq!(tables.len(), view.matches.len());
            for (m, t) in view.matches.iter().zip(&tables) {
                let head = format!("第{}场 {} — {}", m.no, m.first, m.second);
                assert!(heads.contains(&head.as_str()), "{head} missing");
                assert_eq!(t.columns[t.column("first_name").unwrap()].header, m.first);
                assert_eq!(t.columns[t.column("second_name").unwrap()].header, m.second);
                let seat = |s: &Option<team_match::SeatView>| {
                    s.as_ref().map_or("(空台)".to_string(), |s| s.name.clone())
                };
                let firsts: Vec<String> = m.boards.iter().map(|b| seat(&b.first)).collect();
                let seconds: Vec<String> = m.boards.iter().map(|b| seat(&b.second)).collect();
                assert_eq!(texts(t, "first_name"), firsts);
                assert_eq!(texts(t, "second_name"), seconds);
                // The team named first is red on the odd boards (A15).
                let colours = texts(t, "first_colour");
                for (b, c) in m.boards.iter().zip(&colours) {
                    assert_eq!(c, if b.board % 2 == 1 { "红" } else { "黑" });
                }
                assert_eq!(
                    texts(t, "round_board"),
                    m.boards
                        .iter()
                        .map(|b| b.round_board.to_string())
                        .collect::<Vec<_>>()
                );
            }
            let bye = flat(&d).into_iter().find_map(|b| match b {
                Block::Paragraph(p) if p.starts_with("轮空") => Some(p.clone()),
                _ => None,
            });
            assert_eq!(bye, view.bye.as_ref().map(|t| format!("轮空: {t}")));
        }
    }
    // The Swiss of an odd number of teams has its bye printed.
    let (_, state) = swiss();
    let d = format!("{:?}", doc(state, DocKind::Pairings, Some(1)));
    assert!(d.contains("轮空: "), "no bye");
}

#[test]
fn team_score_sheets_carry_the_boards_totals_match_points_and_signatures() {
    for (reg, state, sid) in events() {
        let round = state.section(sid).unwrap().last_round();
        let view = team_match::round_view(reg, state, sid, round).unwrap();
        let table = team_match::standings(reg, state, sid).unwrap();
        let d = doc(state, DocKind::Slips, None);
        assert_eq!(d.title, "团体赛记分表");
        let sheets: Vec<&Vec<Block>> = d
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::KeepTogether(inner) => Some(inner),
                _ => None,
            })
            .collect();
        assert_eq!(sheets.len(), view.matches.len(), "one sheet per match");
        for (m, sheet) in view.matches.iter().zip(sheets) {
            let Block::Heading(h) = &sheet[0] else {
                panic!("a sheet starts with its heading")
            };
            assert!(
                h.contains(&format!("第{}场 {} — {}", m.no, m.first, m.second)),
                "{h}"
            );
            let t = sheet
                .iter()
                .find_map(|b| match b {
                    Block::Table(t) => Some(t),
                    _ => None,
                })
                .unwrap();
            let n = m.boards.len();
            assert_eq!(t.rows.len(), n + 2, "the boards, 局分合计, 场分");
            let (fp, sp) = (
                t.column("first_points").unwrap(),
                t.column("second_points").unwrap(),
            );
            let name = t.column("first_name").unwrap();
            assert_eq!(t.rows[n][name], Cell::text("局分合计"));
            assert_eq!(t.rows[n][fp], Cell::Score(m.first_points));
            assert_eq!(t.rows[n][sp], Cell::Score(m.second_points));
            assert_eq!(t.rows[n + 1][name], Cell::text("场分"));
            let mp = |team: &str| {
                table
                    .rows
                    .iter()
                    .find(|r| r.name == team)
                    .and_then(|r| r.rounds.iter().find(|c| c.round == round))
                    .and_then(|c| c.match_points)
                    .map(Cell::Score)
                    .unwrap()
            };
            assert_eq!(t.rows[n + 1][fp], mp(&m.first));
            assert_eq!(t.rows[n + 1][sp], mp(&m.second));
            for (row, b) in t.rows.iter().zip(&m.boards) {
                assert_eq!(row[fp], Cell::Score(b.first_points));
                assert_eq!(row[sp], Cell::Score(b.second_points));
            }
            assert!(sheet.contains(&Block::Signatures(vec![
                "甲队队长签字".to_string(),
                "乙队队长签字".to_string(),
                "裁判员签字".to_string(),
            ])));
        }
    }
}

#[test]
fn an_unplayed_team_round_leaves_the_results_to_fill_in() {
    // Round 2 of the Swiss as it stood when paired, before any result: blank sheets.
    let (reg, state) = swiss();
    let mut early = state.clone();
    let mut rec2 = early.sections.get("teams").unwrap().clone();
    let mut blank = rec2.rounds.get(&2).unwrap().clone();
    for b in blank.boards.iter_mut() {
        b.result = None;
    }
    rec2.rounds.insert(2, blank);
    early.sections.insert("teams".to_string(), rec2);
    let view = team_match::round_view(reg, &early, "teams", 2).unwrap();
    let played: Vec<_> = view
        .matches
        .iter()
        .filter(|m| {
            m.boards
                .iter()
                .all(|b| b.first.is_some() && b.second.is_some())
        })
        .collect();
    assert!(!played.is_empty());
    let d = doc(&early, DocKind::Slips, Some(2));
    for t in d.tables() {
        let res = t.column("result").unwrap();
        let fp = t.column("first_points").unwrap();
        let n = t.rows.len() - 2;
        for row in &t.rows[..n] {
            if row[res] == Cell::text("胜 · 和 · 负") {
                assert_eq!(row[fp], Cell::Empty, "{}: a blank to fill in", t.id);
            }
        }
    }
    assert!(format!("{d:?}").contains("胜 · 和 · 负"));
}

#[test]
fn team_standings_print_match_and_game_points_and_what_decided() {
    for (reg, state, sid) in events() {
        let table = team_match::standings(reg, state, sid).unwrap();
        for kind in [DocKind::Teams, DocKind::Standings] {
            let d = doc(state, kind, None);
            let t = d
                .tables()
                .into_iter()
                .find(|t| t.id == format!("team-standings-{sid}"))
                .unwrap_or_else(|| panic!("{kind:?}: no team standings"));
            for key in [
                "rank",
                "team",
                "match_points",
                "game_points",
                "wins",
                "draws",
                "losses",
                "game_wins",
                "forfeits",
                "fouls",
                "tb:boards",
                "decided_by",
            ] {
                assert!(t.column(key).is_some(), "{kind:?}: {key}");
            }
            let heads: Vec<&str> = t.columns.iter().map(|c| c.header.as_str()).collect();
            for h in [
                "名次", "队名", "场分", "局分", "胜", "和", "负", "胜局", "弃权", "犯规", "台次",
                "区分",
            ] {
                assert!(heads.contains(&h), "{kind:?}: {h}");
            }
            assert_eq!(
                texts(t, "team"),
                table
                    .rows
                    .iter()
                    .map(|r| r.name.clone())
                    .collect::<Vec<_>>()
            );
            assert_eq!(
                texts(t, "match_points"),
                table
                    .rows
                    .iter()
                    .map(|r| r.match_points.to_string())
                    .collect::<Vec<_>>()
            );
            assert_eq!(
                texts(t, "decided_by"),
                table
                    .rows
                    .iter()
                    .map(|r| r.decided_by.map_or(String::new(), |d| d.zh().to_string()))
                    .collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn the_team_standings_print_the_board_standings_for_the_board_prizes() {
    for (reg, state, sid) in events() {
        let bp = team_match::board_prizes(reg, state, sid).expect("board standings");
        let d = doc(state, DocKind::Teams, None);
        let tables: Vec<&Table> = d
            .tables()
            .into_iter()
            .filter(|t| t.id.starts_with(&format!("board-standings-{sid}-")))
            .collect();
        assert_eq!(tables.len(), bp.boards.len(), "{sid}");
        for (t, b) in tables.into_iter().zip(&bp.boards) {
            let caption = t.caption.clone().unwrap_or_default();
            assert!(
                caption.contains(&format!("第{}台 台次成绩", b.board))
                    && caption.contains(&format!("至少{}局方可排名", bp.min_games)),
                "{caption}"
            );
            let rank: Vec<String> = b
                .rows
                .iter()
                .map(|r| r.rank.map_or("—".to_string(), |n| n.to_string()))
                .collect();
            assert_eq!(texts(t, "rank"), rank);
            let names: Vec<String> = b.rows.iter().map(|r| r.name.clone()).collect();
            assert_eq!(texts(t, "name"), names);
            let rates: Vec<String> = b.rows.iter().map(|r| r.rate_text()).collect();
            assert_eq!(texts(t, "rate"), rates);
            assert!(rates.iter().all(|r| r.ends_with('%')), "{rates:?}");
        }
    }
}

#[test]
fn the_team_crosstable_shows_each_match_s_game_points_both_ways() {
    for (reg, state, sid) in events() {
        let table = team_match::standings(reg, state, sid).unwrap();
        let d = doc(state, DocKind::Crosstable, None);
        assert_eq!(d.title, "团体交叉表");
        let t = d.tables()[0];
        assert_eq!(t.rows.len(), table.rows.len());
        for key in ["match_points", "game_points", "rank"] {
            assert!(t.column(key).is_some(), "{key}");
        }
        let no = t.column("no").unwrap();
        for row in &t.rows {
            let Cell::Int(n) = row[no] else { panic!() };
            let r = table.rows.iter().find(|r| r.no == n as u32).unwrap();
            assert_eq!(
                row[t.column("match_points").unwrap()],
                Cell::Score(r.match_points)
            );
            assert_eq!(row[t.column("rank").unwrap()], Cell::Int(r.rank as i64));
            assert_eq!(row[t.column(&format!("t{n}")).unwrap()], Cell::text("╳"));
            for c in &r.rounds {
                let Some(o) = c.opponent else { continue };
                let cell = row[t.column(&format!("t{o}")).unwrap()].display();
                let own = format!(
                    "{}:{}",
                    arbiter_director::crosstable::points_text(c.game_points),
                    arbiter_director::crosstable::points_text(c.opponent_game_points)
                );
                assert!(cell.contains(&own), "{n} v {o}: {cell} lacks {own}");
                // The opponent's row shows the same match the other way round.
                let back = t
                    .rows
                    .iter()
                    .find(|x| x[no] == Cell::Int(o as i64))
                    .unwrap();
                let theirs = back[t.column(&format!("t{n}")).unwrap()].display();
                let mirrored = format!(
                    "{}:{}",
                    arbiter_director::crosstable::points_text(c.opponent_game_points),
                    arbiter_director::crosstable::points_text(c.game_points)
                );
                assert!(theirs.contains(&mirrored), "{o} v {n}: {theirs}");
            }
        }
    }
}

#[test]
fn no_team_document_shows_an_id_number_or_a_phone() {
    for (_, state, _) in events() {
        let private: Vec<String> = state
            .players
            .values()
            .flat_map(|p| {
                p.person
                    .id_number
                    .iter()
                    .map(|n| n.as_str().to_string())
                    .chain(p.person.phone.iter().map(|n| n.as_str().to_string()))
            })
            .collect();
        assert!(!private.is_empty());
        for kind in [
            DocKind::Pairings,
            DocKind::Slips,
            DocKind::Results,
            DocKind::Standings,
            DocKind::Crosstable,
            DocKind::Teams,
        ] {
            let d = format!("{:?}", doc(state, kind, None));
            for p in &private {
                assert!(!d.contains(p.as_str()), "{kind:?} shows {p}");
            }
        }
    }
}

/// The Pudong regulation's team prizes (八: 一等奖一名、二等奖二名、三等奖三名, 发给奖状) go to
/// the team standings' first six; each team's certificate names its players in board order.
#[test]
fn team_prizes_and_certificates_name_the_team_and_its_players() {
    let (reg, state) = pudong();
    let table = team_match::standings(reg, state, "clubs").expect("team standings");
    let d = doc(state, DocKind::Prizes, None);
    let t = d
        .tables()
        .into_iter()
        .find(|t| t.id == "prizes")
        .expect("the prize list");
    let winners = texts(t, "winner");
    let titles = texts(t, "title");
    let first_six: Vec<String> = table.rows[..6].iter().map(|r| r.name.clone()).collect();
    assert_eq!(winners, first_six);
    assert_eq!(
        titles,
        ["一等奖", "二等奖", "二等奖", "三等奖", "三等奖", "三等奖"]
    );
    assert!(texts(t, "kind").iter().all(|k| k == "团体奖"));

    let d = doc(state, DocKind::Certificates, None);
    let certs: Vec<&arbiter_report::Certificate> = d
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Certificate(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(certs.len(), 6);
    for (c, r) in certs.iter().zip(&table.rows) {
        assert_eq!(c.recipient, r.name);
        let mut members: Vec<(u32, String)> = state
            .players
            .values()
            .filter(|p| p.team.as_deref() == Some(r.name.as_str()))
            .filter_map(|p| {
                let rec = state.section("clubs")?;
                let i = rec.order.iter().position(|x| *x == p.id)?;
                Some((i as u32, p.person.name.clone()))
            })
            .collect();
        members.sort();
        assert_eq!(members.len(), 8, "eight boards");
        let names: Vec<String> = members.into_iter().map(|(_, n)| n).collect();
        assert_eq!(
            c.members.as_deref(),
            Some(format!("队员：{}", names.join("、")).as_str())
        );
        assert!(c.citation.contains("荣获团体第"), "{}", c.citation);
    }
    assert_eq!(certs[0].award.as_deref(), Some("一等奖"));
}

/// 台次奖 on every board: the prize list says the board, the certificate 「第一台第一名」.
#[test]
fn board_prizes_list_the_board_and_the_certificate_says_it() {
    let path = format!(
        "{}/tests/fixtures/team-swiss.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&path).unwrap().replace(
        "[sections.team_match]\n",
        "[sections.team_match]\nboard_prizes = [{ rank = 1, title = \"最佳台次\" }]\n",
    );
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    let mut sim = Simulator::new(reg.clone(), &src, "team.toml", 3, &Sizes::default());
    let state = sim.run_in_memory().unwrap().1;
    let bp = team_match::board_prizes(&reg, &state, "teams").expect("board standings");
    let firsts: Vec<String> = bp
        .boards
        .iter()
        .filter_map(|b| b.rows.iter().find(|r| r.rank == Some(1)))
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(firsts.len(), 4);
    let d = doc(&state, DocKind::Prizes, None);
    let t = d
        .tables()
        .into_iter()
        .find(|t| t.id == "prizes")
        .expect("the prize list");
    assert_eq!(texts(t, "winner"), firsts);
    assert_eq!(texts(t, "category"), ["第1台", "第2台", "第3台", "第4台"]);
    assert!(texts(t, "kind").iter().all(|k| k == "台次奖"));
    let d = doc(&state, DocKind::Certificates, None);
    let cits: Vec<&str> = d
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Certificate(c) => Some(c.citation.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(cits.len(), 4);
    assert!(cits[0].contains("第一台第一名"), "{}", cits[0]);
    assert!(cits[3].contains("第四台第一名"), "{}", cits[3]);
}
