//! The Excel and CSV exports of a team-match section (团体赛, rules.md A15), for two simulated
//! events — the 2014 Pudong clubs (a round robin of eight boards) and a team Swiss of four
//! boards with a bye — checked against the director's data and the folded log: the team
//! standings (`team-standings-<section>`, once, with every criterion of the regulation's list)
//! and every match of every round, a row per board (`team-matches-<section>`), each match's
//! score that of the standings, each board's players, colours and result those of the round's
//! games. A round half played, a board played with the colours the other way round, the
//! workbook read back, the CSV files, no ID number or phone, and an individual event without
//! any of it.

use arbiter_core::{EventState, LogEntry, Recorded};
use arbiter_director::crosstable::points_text;
use arbiter_director::team_match;
use arbiter_documents::tables::{self, csv, csv_names, xlsx, EXPORTED};
use arbiter_regulation::Regulation;
use arbiter_report::{Cell, Privacy, Table};
use arbiter_simulate::{Simulator, Sizes};
use arbiter_standings::TbValue;
use arbiter_types::{GameResult, Score, TeamTiebreak};
use calamine::{Data, Reader};
use std::sync::OnceLock;

type Simulated = (Regulation, Vec<Recorded>, EventState);

fn simulate(path: &str, players: Option<usize>) -> Simulated {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let reg = arbiter_regulation::parse(&src, &path).unwrap();
    let sizes = Sizes {
        all: players,
        ..Sizes::default()
    };
    let mut sim = Simulator::new(reg.clone(), &src, "event.toml", 3, &sizes);
    let (log, state) = sim.run_in_memory().unwrap();
    (reg, log, state)
}

/// Ten clubs of eight boards, a round robin (no bye).
fn pudong() -> &'static Simulated {
    static S: OnceLock<Simulated> = OnceLock::new();
    S.get_or_init(|| simulate("../../regulations/pudong-2014-clubs.toml", None))
}

/// A team Swiss of four boards and an odd number of teams (a bye every round).
fn swiss() -> &'static Simulated {
    static S: OnceLock<Simulated> = OnceLock::new();
    S.get_or_init(|| simulate("../simulate/tests/fixtures/team-swiss.toml", Some(35)))
}

fn events() -> [(&'static Simulated, &'static str); 2] {
    [(pudong(), "clubs"), (swiss(), "teams")]
}

/// Every exported table of the event (what `event export` and the desk write).
fn exported(state: &EventState, privacy: Privacy) -> Vec<Table> {
    let mut notices = Vec::new();
    tables::tables(state, &EXPORTED, None, privacy, &mut notices).unwrap()
}

fn table<'t>(tables: &'t [Table], id: &str) -> &'t Table {
    let found: Vec<&Table> = tables.iter().filter(|t| t.id == id).collect();
    assert_eq!(found.len(), 1, "{id}: exported once");
    found[0]
}

fn at(t: &Table, key: &str) -> usize {
    t.column(key)
        .unwrap_or_else(|| panic!("{}: no column {key}", t.id))
}

fn name(state: &EventState, id: arbiter_core::PlayerId) -> String {
    state.player(id).unwrap().person.name.clone()
}

fn tb_cell(v: TbValue) -> Cell {
    match v {
        TbValue::Score(s) => Cell::Score(s),
        TbValue::Int(n) => Cell::Int(n),
        TbValue::Fraction { num, den } => Cell::Text(format!("{num}/{den}")),
    }
}

#[test]
fn the_team_standings_are_exported_once_with_every_criterion_of_the_list() {
    for ((reg, _, state), sid) in events() {
        let want = team_match::standings(reg, state, sid).unwrap();
        let (_, tm) = team_match::rules_of(reg, sid).unwrap();
        let tables = exported(state, Privacy::Published);
        let t = table(&tables, &format!("team-standings-{sid}"));
        assert!(
            t.caption.as_deref().unwrap().contains("团体名次"),
            "{:?}",
            t.caption
        );
        let heads: Vec<&str> = t.columns.iter().map(|c| c.header.as_str()).collect();
        assert_eq!(
            heads[..11],
            [
                "名次", "队号", "队名", "场分", "局分", "胜", "和", "负", "胜局", "弃权", "犯规"
            ]
        );
        assert_eq!(heads.last(), Some(&"区分"));
        assert_eq!(t.rows.len(), want.rows.len());
        for (row, r) in t.rows.iter().zip(&want.rows) {
            let int = |n: u32| Cell::Int(i64::from(n));
            assert_eq!(
                row[..11],
                [
                    int(r.rank),
                    int(r.no),
                    Cell::text(&r.name),
                    Cell::Score(r.match_points),
                    Cell::Score(r.game_points),
                    int(r.wins),
                    int(r.draws),
                    int(r.losses),
                    int(r.game_wins),
                    int(r.forfeits),
                    int(r.fouls),
                ],
                "{sid}: {}",
                r.name
            );
            assert_eq!(
                row.last().unwrap().display(),
                r.decided_by.map_or(String::new(), |d| d.zh().to_string())
            );
            // Each criterion of the list has its value under one column of its name (胜场 is
            // the column 胜).
            for (i, c) in tm.tiebreaks.iter().enumerate() {
                let head = match c {
                    TeamTiebreak::MatchWins => "胜",
                    c => c.zh(),
                };
                let cols: Vec<usize> = (0..heads.len()).filter(|&k| heads[k] == head).collect();
                assert_eq!(cols.len(), 1, "{sid}: one column {head}");
                assert_eq!(
                    row[cols[0]],
                    tb_cell(r.values[i]),
                    "{sid} {} {head}",
                    r.name
                );
            }
        }
        // The standings decide: the rows are in the standings' order, and the published
        // export ranks the teams the same way.
        let ex = arbiter_director::export(state).unwrap();
        let published = ex.team_matches.iter().find(|m| m.section == sid).unwrap();
        let ranks: Vec<(u32, &str)> = published
            .standings
            .iter()
            .map(|r| (r.rank, r.team.as_str()))
            .collect();
        let rank = at(t, "rank");
        let team = at(t, "team");
        let exported: Vec<(u32, String)> = t
            .rows
            .iter()
            .map(|r| match &r[rank] {
                Cell::Int(n) => (*n as u32, r[team].display()),
                c => panic!("rank {c:?}"),
            })
            .collect();
        assert_eq!(
            exported
                .iter()
                .map(|(n, s)| (*n, s.as_str()))
                .collect::<Vec<_>>(),
            ranks
        );
        // A criterion beyond the columns gets one: 台次 for both lists, 直胜 for the Swiss.
        assert!(t.column("tb:boards").is_some(), "{sid}");
        assert_eq!(
            t.column("tb:direct").is_some(),
            tm.tiebreaks.contains(&TeamTiebreak::Direct)
        );
    }
}

/// The GameResult of a board as the first team's player saw it.
fn board_text(r: GameResult, first_red: bool) -> &'static str {
    use GameResult::*;
    match (r, first_red) {
        (Draw, _) => "和",
        (DoubleForfeit, _) => "双方弃权",
        (RedWin, true) | (BlackWin, false) => "胜",
        (RedWin, false) | (BlackWin, true) => "负",
        (RedForfeit, true) | (BlackForfeit, false) => "弃权",
        (RedForfeit, false) | (BlackForfeit, true) => "对方弃权",
    }
}

/// Every match of the state's team rounds, with the standings' score, is in the table, a row
/// per board in board order; every board with a game shows its players, the colours played and
/// the result; a bye has its row. Returns the boards checked against a game and the empty
/// seats.
fn check_matches(reg: &Regulation, state: &EventState, sid: &str, t: &Table) -> (usize, usize) {
    let standings = team_match::standings(reg, state, sid).unwrap();
    let (_, tm) = team_match::rules_of(reg, sid).unwrap();
    let rec = state.section(sid).unwrap();
    let c = |k: &str| at(t, k);
    let mut rows = t.rows.iter();
    let (mut games, mut empty) = (0, 0);
    for (&round, tr) in rec.matches.iter() {
        for (i, m) in tr.matches.iter().enumerate() {
            let no = i as u32 + 1;
            // The match as the standings count it, from the first team's row.
            let cell = standings
                .rows
                .iter()
                .find(|r| r.name == m.first)
                .and_then(|r| r.rounds.iter().find(|x| x.round == round))
                .unwrap_or_else(|| panic!("{sid} r{round}: {} in the standings", m.first));
            let theirs = standings
                .rows
                .iter()
                .find(|r| r.name == m.second)
                .and_then(|r| r.rounds.iter().find(|x| x.round == round))
                .unwrap();
            let score = format!(
                "{}:{}",
                points_text(cell.game_points),
                points_text(cell.opponent_game_points)
            );
            let mut first_sum = Score::ZERO;
            let mut second_sum = Score::ZERO;
            for b in 1..=tm.boards {
                let row = rows
                    .next()
                    .unwrap_or_else(|| panic!("{sid} r{round} m{no} b{b}: no row"));
                let what = format!("{sid} r{round} m{no} b{b}");
                assert_eq!(row[c("round")], Cell::Int(round as i64), "{what}");
                assert_eq!(row[c("match")], Cell::Int(no as i64), "{what}");
                assert_eq!(row[c("first")].display(), m.first, "{what}");
                assert_eq!(row[c("second")].display(), m.second, "{what}");
                assert_eq!(row[c("first_points")], Cell::Score(cell.game_points));
                assert_eq!(
                    row[c("second_points")],
                    Cell::Score(cell.opponent_game_points)
                );
                if cell.result.is_some() {
                    assert_eq!(row[c("score")].display(), score, "{what}");
                    assert_eq!(
                        row[c("first_match_points")],
                        Cell::Score(cell.match_points.unwrap())
                    );
                    assert_eq!(
                        row[c("second_match_points")],
                        Cell::Score(theirs.match_points.unwrap())
                    );
                    assert_ne!(row[c("result")], Cell::Empty, "{what}");
                } else {
                    assert_eq!(row[c("score")].display(), format!("({score})"), "{what}");
                    assert_eq!(row[c("first_match_points")], Cell::Empty, "{what}");
                    assert_eq!(row[c("result")], Cell::Empty, "{what}");
                }
                assert_eq!(row[c("board")], Cell::Int(b as i64), "{what}");
                let round_board = (no - 1) * tm.boards + b;
                assert_eq!(row[c("round_board")], Cell::Int(round_board as i64));
                match row[c("board_first_points")] {
                    Cell::Score(s) => first_sum += s,
                    Cell::Empty => assert_eq!(row[c("board_result")], Cell::Empty),
                    ref x => panic!("{what}: {x:?}"),
                }
                if let Cell::Score(s) = row[c("board_second_points")] {
                    second_sum += s;
                }
                let (fp, sp) = (
                    row[c("first_player")].display(),
                    row[c("second_player")].display(),
                );
                match rec.rounds.get(&round).and_then(|r| r.board(round_board)) {
                    Some(g) => {
                        games += 1;
                        let first_red = row[c("first_colour")].display() == "红";
                        let (red, black) = if first_red { (&fp, &sp) } else { (&sp, &fp) };
                        assert_eq!(*red, name(state, g.red), "{what}: red");
                        assert_eq!(*black, name(state, g.black), "{what}: black");
                        assert_eq!(
                            row[c("board_result")].display(),
                            g.result.map_or("", |r| board_text(r, first_red)),
                            "{what}"
                        );
                    }
                    // No game: an empty seat, the side's forfeit.
                    None => {
                        empty += 1;
                        assert!(fp == "(空台)" || sp == "(空台)", "{what}: {fp} {sp}");
                        let want = match (fp == "(空台)", sp == "(空台)") {
                            (true, true) => "双方弃权",
                            (true, false) => "弃权",
                            _ => "对方弃权",
                        };
                        assert_eq!(row[c("board_result")].display(), want, "{what}");
                    }
                }
            }
            // The boards add up to the match's 局分.
            assert_eq!(first_sum, cell.game_points, "{sid} r{round} m{no}");
            assert_eq!(
                second_sum, cell.opponent_game_points,
                "{sid} r{round} m{no}"
            );
        }
        if let Some(bye) = &tr.bye {
            let row = rows.next().unwrap();
            assert_eq!(row[c("round")], Cell::Int(round as i64));
            assert_eq!(row[c("match")], Cell::Empty);
            assert_eq!(row[c("first")].display(), *bye);
            assert_eq!(row[c("result")].display(), "轮空");
            let cell = standings
                .rows
                .iter()
                .find(|r| &r.name == bye)
                .and_then(|r| r.rounds.iter().find(|x| x.round == round))
                .unwrap();
            assert_eq!(cell.opponent, None);
            assert_eq!(row[c("first_points")], Cell::Score(cell.game_points));
            assert_eq!(
                row[c("first_match_points")],
                cell.match_points.map_or(Cell::Empty, Cell::Score)
            );
            assert!(row[c("board")..].iter().all(|x| *x == Cell::Empty));
        }
    }
    assert!(rows.next().is_none(), "{sid}: no row beyond the matches");
    (games, empty)
}

#[test]
fn every_match_of_every_round_is_a_row_per_board_with_the_standings_score() {
    let mut empty_seats = 0;
    for ((reg, log, state), sid) in events() {
        let tables = exported(state, Privacy::Published);
        let t = table(&tables, &format!("team-matches-{sid}"));
        assert_eq!(
            t.caption.as_deref(),
            Some(format!("{} · 团体对阵及成绩", reg.section(sid).unwrap().name).as_str())
        );
        let (games, empty) = check_matches(reg, state, sid, t);
        assert!(games > 80, "{sid}: {games} games");
        empty_seats += empty;
        // The log's last pairing of every round is the one exported.
        let rec = state.section(sid).unwrap();
        let mut paired = std::collections::BTreeMap::new();
        for r in log {
            if let LogEntry::MatchesPaired {
                section,
                round,
                matches,
                bye,
                ..
            } = &r.entry
            {
                if section == sid {
                    paired.insert(*round, (matches.clone(), bye.clone()));
                }
            }
        }
        assert_eq!(paired.len(), rec.matches.len());
        let (first, second) = (at(t, "first"), at(t, "second"));
        let mut from_table: Vec<(u32, String, String)> = t
            .rows
            .iter()
            .filter(|r| r[at(t, "board")] == Cell::Int(1))
            .map(|r| match r[0] {
                Cell::Int(n) => (n as u32, r[first].display(), r[second].display()),
                ref c => panic!("{c:?}"),
            })
            .collect();
        from_table.dedup();
        let from_log: Vec<(u32, String, String)> = paired
            .iter()
            .flat_map(|(round, (ms, _))| {
                ms.iter()
                    .map(move |m| (*round, m.first.clone(), m.second.clone()))
            })
            .collect();
        assert_eq!(from_table, from_log, "{sid}");
        // The results are exported beside it, round by round; the table comes after them.
        let pos = |id: &str| tables.iter().position(|t| t.id == id).unwrap();
        let last = rec.last_round();
        assert!(pos(&format!("results-{sid}-{last}")) < pos(&format!("team-matches-{sid}")));
        // `--doc results` alone gives it too; the standings alone do not.
        let mut notices = Vec::new();
        let only = tables::tables(
            state,
            &[arbiter_report::DocKind::Results],
            Some(sid),
            Privacy::Published,
            &mut notices,
        )
        .unwrap();
        assert_eq!(table(&only, &format!("team-matches-{sid}")), t);
        let standings = tables::tables(
            state,
            &[arbiter_report::DocKind::Standings],
            Some(sid),
            Privacy::Published,
            &mut notices,
        )
        .unwrap();
        assert!(standings.iter().all(|t| !t.id.starts_with("team-matches")));
    }
    assert!(empty_seats > 0, "an empty seat among the boards checked");
}

#[test]
fn a_round_half_played_shows_its_running_score_and_the_colours_played() {
    let (reg, log, _) = swiss();
    // The log up to the first result of the last round paired.
    let last_pairing = log
        .iter()
        .rposition(|r| matches!(r.entry, LogEntry::MatchesPaired { .. }))
        .unwrap();
    let first_result = last_pairing
        + log[last_pairing..]
            .iter()
            .position(|r| matches!(r.entry, LogEntry::ResultEntered { .. }))
            .unwrap();
    let mut state = EventState::replay(&log[..=first_result]).unwrap();
    let round = state.section("teams").unwrap().last_round();
    // A board without a result yet played the other way round (S6).
    let swapped = state
        .section("teams")
        .unwrap()
        .rounds
        .get(&round)
        .unwrap()
        .boards
        .iter()
        .find(|b| b.result.is_none())
        .unwrap()
        .board;
    let next = state.last_seq + 1;
    state
        .apply(&Recorded {
            seq: next,
            at: "2026-05-03T10:00:00+08:00".to_string(),
            actor: "test".to_string(),
            entry: LogEntry::ColoursPlayed {
                section: "teams".to_string(),
                round,
                board: swapped,
                swapped: true,
            },
        })
        .unwrap();
    let tables = exported(&state, Privacy::Published);
    let t = table(&tables, "team-matches-teams");
    check_matches(reg, &state, "teams", t);
    let rows: Vec<&Vec<Cell>> = t
        .rows
        .iter()
        .filter(|r| r[0] == Cell::Int(round as i64))
        .collect();
    // Unfinished matches: the score so far in brackets, no result, no 场分.
    let open: Vec<&&Vec<Cell>> = rows
        .iter()
        .filter(|r| r[at(t, "score")].display().starts_with('('))
        .collect();
    assert!(!open.is_empty());
    assert!(open.iter().all(|r| r[at(t, "result")] == Cell::Empty));
    // The swapped board: the colour played, not the one paired (red on odd boards).
    let row = rows
        .iter()
        .find(|r| r[at(t, "round_board")] == Cell::Int(swapped as i64))
        .unwrap();
    let Cell::Int(b) = row[at(t, "board")] else {
        panic!()
    };
    let paired = if b % 2 == 1 { "红" } else { "黑" };
    assert_ne!(row[at(t, "first_colour")].display(), paired);
}

/// Every text of a workbook's sheet, row by row.
fn sheet(book: &mut calamine::Xlsx<std::io::Cursor<Vec<u8>>>, name: &str) -> Vec<Vec<Data>> {
    book.worksheet_range(name)
        .unwrap()
        .rows()
        .map(|r| r.to_vec())
        .collect()
}

/// A cell as the workbook should hold it: numbers as numbers (half-points exact), text as text.
fn same(d: &Data, c: &Cell) -> bool {
    match (d, c) {
        (Data::Empty, Cell::Empty) => true,
        (Data::String(s), Cell::Text(t)) => s == t,
        (Data::Float(f), Cell::Int(n)) => *f == *n as f64,
        (Data::Int(i), Cell::Int(n)) => i == n,
        (Data::Float(f), Cell::Score(s)) => *f * 2.0 == s.halves() as f64,
        (Data::Int(i), Cell::Score(s)) => *i * 2 == s.halves(),
        _ => false,
    }
}

#[test]
fn the_workbook_and_the_csv_files_give_the_team_tables_back() {
    for ((_, _, state), sid) in events() {
        let tables = exported(state, Privacy::Published);
        // Same state, same tables and the same CSV bytes (a workbook also holds the time it
        // was written).
        assert_eq!(tables, exported(state, Privacy::Published));
        let bytes = xlsx(&tables, "团体赛").unwrap();
        let mut book = calamine::Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
        for id in [
            format!("team-standings-{sid}"),
            format!("team-matches-{sid}"),
        ] {
            let t = table(&tables, &id);
            let rows = sheet(&mut book, &id);
            assert_eq!(rows[0][0], Data::String(t.caption.clone().unwrap()));
            let heads: Vec<String> = rows[1].iter().map(|d| d.to_string()).collect();
            let want: Vec<&str> = t.columns.iter().map(|c| c.header.as_str()).collect();
            assert_eq!(heads, want, "{id}");
            assert_eq!(rows.len() - 2, t.rows.len(), "{id}");
            for (got, row) in rows[2..].iter().zip(&t.rows) {
                for (i, c) in row.iter().enumerate() {
                    let d = got.get(i).unwrap_or(&Data::Empty);
                    assert!(same(d, c), "{id}: {d:?} for {c:?}");
                }
            }
        }
        // A score is a number in the workbook: every match's 局分.
        let matches = table(&tables, &format!("team-matches-{sid}"));
        let rows = sheet(&mut book, &format!("team-matches-{sid}"));
        let fp = at(matches, "first_points");
        assert!(rows[2..]
            .iter()
            .all(|r| matches!(r[fp], Data::Float(_) | Data::Int(_))));

        let names = csv_names(&tables);
        assert_eq!(
            names
                .iter()
                .filter(|n| n.starts_with("team-standings"))
                .count(),
            1,
            "{names:?}"
        );
        let i = names
            .iter()
            .position(|n| *n == format!("team-matches-{sid}.csv"))
            .unwrap();
        let bytes = csv(&tables[i]).unwrap();
        assert_eq!(bytes, csv(&tables[i]).unwrap());
        assert!(bytes.starts_with(b"\xEF\xBB\xBF"));
        let mut r = ::csv::Reader::from_reader(&bytes[3..]);
        let heads: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        assert_eq!(
            heads.join(","),
            "轮次,场次,甲队,乙队,比分,甲队局分,乙队局分,甲队场分,乙队场分,结果(甲队),台次,台号,\
             甲方序号,甲方棋手,甲方执,乙方棋手,乙方序号,本台结果(甲方),甲方得分,乙方得分"
        );
        let records: Vec<::csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), tables[i].rows.len());
        // Half-points as plain numbers (`2.5`); the match's score as the crosstable writes it.
        for (rec, row) in records.iter().zip(&tables[i].rows) {
            for (k, c) in row.iter().enumerate() {
                match c {
                    Cell::Score(s) => {
                        let v: f64 = rec[k].parse().unwrap();
                        assert_eq!(v * 2.0, s.halves() as f64, "{}", &rec[k]);
                    }
                    c => assert_eq!(rec[k], c.display()),
                }
            }
        }
    }
}

#[test]
fn no_team_table_shows_an_id_number_or_a_phone() {
    for ((_, _, state), sid) in events() {
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
        // Not even in the organiser's copy: the team tables name players, no more.
        for privacy in [Privacy::Published, Privacy::Organiser] {
            let tables = exported(state, privacy);
            for id in [
                format!("team-standings-{sid}"),
                format!("team-matches-{sid}"),
            ] {
                let t = table(&tables, &id);
                let text = String::from_utf8(csv(t).unwrap()).unwrap();
                for p in &private {
                    assert!(!text.contains(p.as_str()), "{id} shows {p}");
                }
                // No run of six digits or more anywhere: no part of a number either.
                let mut run = 0;
                for ch in text.chars() {
                    run = if ch.is_ascii_digit() { run + 1 } else { 0 };
                    assert!(run < 6, "{id}: a long number");
                }
            }
        }
    }
}

#[test]
fn an_individual_event_has_no_team_table() {
    let (_, _, state) = simulate("../../regulations/kunshan-2026.toml", Some(16));
    let tables = exported(&state, Privacy::Published);
    assert!(!tables.is_empty());
    assert!(
        tables.iter().all(|t| !t.id.starts_with("team-")),
        "{:?}",
        tables.iter().map(|t| &t.id).collect::<Vec<_>>()
    );
    assert!(arbiter_report::team_matches(&state, &Default::default())
        .unwrap()
        .is_empty());
    // No table is left out as a repeat: every id once.
    let names = csv_names(&tables);
    assert!(names.iter().all(|n| !n.contains('~')), "{names:?}");
}
