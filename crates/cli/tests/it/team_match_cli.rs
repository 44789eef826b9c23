//! A team match (团体赛, A15) run from the command line as an arbiter runs it: teams entered
//! in board order, `round pair` pairing the teams, `round lineup` taking a captain's line-up
//! (a reserve in, the registered order kept; an empty board), a line-up refused, the results
//! entered by the round's board numbers, and `teams` printing the standings by 场分 and 局分.

use crate::common::*;

const REGULATION: &str = r#"
[event]
name = "团体赛测试"
start = 2026-10-01
end = 2026-10-02

[registration]
unit_required = true

[[sections]]
id = "t"
name = "团体赛"
format = { kind = "swiss", rounds = 2 }

[sections.team_match]
boards = 2
reserves = 1
"#;

struct Event {
    _dir: tempfile::TempDir,
    db: String,
    id: String,
}

impl Event {
    fn args<'a>(&'a self, rest: &[&'a str]) -> Vec<&'a str> {
        let mut v = rest.to_vec();
        v.extend(["--db", self.db.as_str()]);
        v
    }
}

/// Four teams: 甲队 P1–P3 (P3 its reserve), 乙队 P4–P5, 丙队 P6–P7, 丁队 P8–P9.
fn event() -> Event {
    event_from(
        REGULATION,
        &[
            ("甲队", &["", "", ""]),
            ("乙队", &["", ""]),
            ("丙队", &["", ""]),
            ("丁队", &["", ""]),
        ],
    )
}

/// An event of `regulation` with the teams given, each member by his sex (「F」, 「M」 or ""
/// for none given), named 「甲队1」 …, registered P1, P2 … in order.
fn event_from(regulation: &str, teams: &[(&str, &[&str])]) -> Event {
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = write(&dir.path().join("team.toml"), regulation);
    let db = dir.path().join("a.db").to_str().expect("path").to_string();
    let out = ok(&["event", "create", "--regulation", &reg, "--db", &db]);
    let id = out.lines().last().expect("id").trim().to_string();
    let e = Event { _dir: dir, db, id };
    let mut next = 1;
    for (team, sexes) in teams {
        let unit = format!("{team}单位");
        let mut members = Vec::new();
        for (k, sex) in sexes.iter().enumerate() {
            let name = format!("{team}{}", k + 1);
            let mut add = vec![
                "player",
                "add",
                "--event",
                &e.id,
                "--section",
                "t",
                "--name",
                &name,
                "--unit",
                &unit,
                "--team",
                team,
                "--at",
                "2026-09-01T10:00:00+08:00",
            ];
            if !sex.is_empty() {
                add.extend(["--sex", sex]);
            }
            ok(&e.args(&add));
            members.push(format!("P{next}"));
            next += 1;
        }
        let mut add = vec![
            "team", "add", "--event", &e.id, "--name", team, "--unit", &unit,
        ];
        for m in &members {
            add.extend(["--member", m.as_str()]);
        }
        ok(&e.args(&add));
    }
    e
}

fn lineup(e: &Event, team: &str, players: &[&str]) -> std::process::Output {
    let mut args = vec![
        "round",
        "lineup",
        "--event",
        &e.id,
        "--section",
        "t",
        "--team",
        team,
        "--by",
        "领队",
    ];
    args.extend(players);
    run(&e.args(&args))
}

#[test]
fn a_team_round_from_pairing_to_standings() {
    let e = event();
    // A fixed match names team numbers: a team the section does not have is refused, in
    // words, and nothing is paired.
    let fixed = run(&e.args(&[
        "round",
        "pair",
        "--event",
        &e.id,
        "--section",
        "t",
        "--fix",
        "1-9",
    ]));
    assert!(!fixed.status.success());
    assert!(stderr(&fixed).contains('9'), "{}", stderr(&fixed));
    ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));

    // The reserve named first still sits below the starter: the registered order is kept.
    let o = lineup(&e, "甲队", &["P3", "甲队1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("第1台 序号 1 甲队1"), "{out}");
    assert!(out.contains("第2台 序号 3 甲队3"), "{out}");
    // A team one player short: its second board is empty.
    let o = lineup(&e, "乙队", &["P4", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("第2台 (空台"), "{}", stdout(&o));
    // A player of another team is refused, naming the problem.
    let o = lineup(&e, "丙队", &["P6", "P8"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("不是本队队员"), "{}", stderr(&o));

    ok(&e.args(&["round", "publish", "--event", &e.id, "--section", "t"]));
    // `round complete` before every result is in: refused, naming the boards, nothing done.
    let early = run(&e.args(&["round", "complete", "--event", &e.id, "--section", "t"]));
    assert_eq!(early.status.code(), Some(2), "{}", stderr(&early));
    assert!(stderr(&early).contains("尚未结束"), "{}", stderr(&early));
    let sheet: serde_json::Value = serde_json::from_str(&ok(&e.args(&[
        "round",
        "show",
        "--event",
        &e.id,
        "--section",
        "t",
        "--json",
    ])))
    .expect("sheet");
    let boards = sheet["boards"].as_array().expect("boards");
    // Two matches of two boards, less 乙队's empty board.
    assert_eq!(boards.len(), 3, "{sheet}");
    for b in boards {
        let n = b["board"].as_u64().expect("board").to_string();
        ok(&e.args(&[
            "result",
            "--event",
            &e.id,
            "--section",
            "t",
            "--board",
            &n,
            "1-0",
        ]));
    }
    // The last result closed the round: `round complete` has nothing left to do.
    let late = run(&e.args(&["round", "complete", "--event", &e.id, "--section", "t"]));
    assert_eq!(late.status.code(), Some(2), "{}", stderr(&late));
    assert!(stderr(&late).contains("第1轮已经结束"), "{}", stderr(&late));
    let table = ok(&e.args(&["teams", "--event", &e.id]));
    assert!(table.contains("团体赛 团体名次"), "{table}");
    for t in ["甲队", "乙队", "丙队", "丁队"] {
        assert!(table.contains(t), "{table}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&ok(&e.args(&["teams", "--event", &e.id, "--json"]))).expect("json");
    let rows = json["team_matches"][0]["standings"]
        .as_array()
        .expect("rows");
    assert_eq!(rows.len(), 4);
    // Each match hands out 2 场分 (a win, or a draw 1 + 1); 乙队's empty board is its forfeit,
    // and its match still totals 4 局分 (two boards of 2).
    let total: f64 = rows
        .iter()
        .map(|r| r["match_points"].as_f64().expect("match points"))
        .sum();
    assert_eq!(total, 4.0, "{json}");
    let short = rows.iter().find(|r| r["name"] == "乙队").expect("乙队");
    assert_eq!(short["forfeits"], 1, "{json}");
    let cell = &short["rounds"][0];
    let both = cell["game_points"].as_f64().unwrap_or(0.0)
        + cell["opponent_game_points"].as_f64().unwrap_or(0.0);
    assert_eq!(both, 4.0, "{json}");
    assert!(
        !table.contains("P1 "),
        "no registration ids in the standings"
    );
    // The board standings (台次成绩, for 台次奖) follow: every player who sat on a board, his
    // games adding up, a won game a rate of 100 %.
    assert!(table.contains("台次成绩"), "{table}");
    let boards = json["team_matches"][0]["boards"]["boards"]
        .as_array()
        .expect("board tables");
    assert!(!boards.is_empty(), "{json}");
    let rows: Vec<&serde_json::Value> = boards
        .iter()
        .flat_map(|b| b["rows"].as_array().expect("rows"))
        .collect();
    assert!(!rows.is_empty(), "{json}");
    for r in &rows {
        let n = |k: &str| r[k].as_u64().expect(k);
        assert_eq!(n("wins") + n("draws") + n("losses"), n("games"), "{r}");
        if n("wins") == n("games") {
            assert_eq!(r["rate_permille"], 1000, "{r}");
        }
    }
    assert!(rows.iter().any(|r| r["wins"] == 1), "{json}");
}

#[test]
fn a_team_that_does_not_appear_loses_every_board_and_the_match() {
    let e = event();
    ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));
    ok(&e.args(&["round", "publish", "--event", &e.id, "--section", "t"]));
    let out = ok(&e.args(&[
        "result",
        "team-absent",
        "--event",
        &e.id,
        "--section",
        "t",
        "--team",
        "丙队",
    ]));
    assert!(out.contains("丙队 第1轮整队弃权"), "{out}");
    // Entered once: a second time every board has its result already.
    let again = run(&e.args(&[
        "result",
        "team-absent",
        "--event",
        &e.id,
        "--section",
        "t",
        "--team",
        "丙队",
    ]));
    assert!(!again.status.success(), "{}", stdout(&again));
    let json: serde_json::Value =
        serde_json::from_str(&ok(&e.args(&["teams", "--event", &e.id, "--json"]))).expect("json");
    let rows = json["team_matches"][0]["standings"]
        .as_array()
        .expect("rows");
    let absent = rows.iter().find(|r| r["name"] == "丙队").expect("丙队");
    assert_eq!(absent["rounds"][0]["result"], "forfeit_loss", "{json}");
    assert_eq!(absent["forfeits"], 2, "{json}");
    let opponent = absent["rounds"][0]["opponent"].clone();
    let winner = rows.iter().find(|r| r["no"] == opponent).expect("opponent");
    assert_eq!(winner["rounds"][0]["result"], "forfeit_win", "{json}");
    // A team that is not in the event is named back.
    let unknown = run(&e.args(&[
        "result",
        "team-absent",
        "--event",
        &e.id,
        "--section",
        "t",
        "--team",
        "戊队",
    ]));
    assert!(!unknown.status.success());
    assert!(stderr(&unknown).contains("戊队"), "{}", stderr(&unknown));
}

/// 「第二台须为女棋手」: the registered order that breaks it is named when the round is paired,
/// a line-up that breaks it is refused in the regulation's words, one that keeps it is taken.
#[test]
fn a_board_rule_of_the_regulation_refuses_a_line_up_that_breaks_it() {
    let text =
        format!("{REGULATION}\n[[sections.team_match.board_rules]]\nboard = 2\nsex = \"F\"\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = write(&dir.path().join("team.toml"), &text);
    let summary = ok(&["regulation", "check", &reg]);
    assert!(summary.contains("第2台须为女棋手"), "{summary}");
    // 甲队: 甲队1 and 甲队2 men, 甲队3 (its reserve) a woman; 乙队: a man and a woman.
    let e = event_from(&text, &[("甲队", &["M", "M", "F"]), ("乙队", &["M", "F"])]);
    let paired = ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));
    assert!(
        paired.contains("甲队 按报名顺序出场时 甲队2 不能排在此台: 竞赛规程规定第2台须为女棋手"),
        "{paired}"
    );
    assert!(!paired.contains("乙队 按报名顺序出场时"), "{paired}");
    let refused = lineup(&e, "甲队", &["P1", "P2"]);
    assert!(!refused.status.success(), "{}", stdout(&refused));
    let said = String::from_utf8_lossy(&refused.stderr).to_string() + &stdout(&refused);
    assert!(
        said.contains("甲队2 不能排在此台") && said.contains("第2台须为女棋手"),
        "{said}"
    );
    // The score sheets printed for the round are named as what they are.
    let sheets = std::path::Path::new(&e.db).with_file_name("slips.html");
    let said = ok(&e.args(&[
        "print",
        "--event",
        &e.id,
        "--doc",
        "slips",
        "--format",
        "html",
        "--out",
        sheets.to_str().expect("path"),
    ]));
    assert!(said.contains("(团体赛记分表,"), "{said}");
    let taken = lineup(&e, "甲队", &["P1", "P3"]);
    assert!(
        taken.status.success(),
        "{}",
        String::from_utf8_lossy(&taken.stderr)
    );
    use arbiter_store::EventStore as _;
    let state = arbiter_store::SqliteStore::open(&e.db)
        .expect("db")
        .state(&arbiter_store::EventId(e.id.clone()))
        .expect("state");
    let seats = &state.section("t").expect("t").matches[&1].lineups["甲队"];
    let names: Vec<String> = seats
        .iter()
        .map(|p| {
            p.and_then(|p| state.player(p))
                .map_or(String::new(), |r| r.person.name.clone())
        })
        .collect();
    assert_eq!(names, ["甲队1", "甲队3"]);
}

/// 整队退赛: after round 1 a whole team withdraws — every member withdrawn with the reason, the
/// team not paired again (three teams left: one has the bye), its match of round 1 standing
/// in the standings; withdrawn twice is refused in words.
#[test]
fn a_whole_team_withdraws_and_is_not_paired_again() {
    let e = event();
    ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));
    ok(&e.args(&["round", "publish", "--event", &e.id, "--section", "t"]));
    let sheet: serde_json::Value = serde_json::from_str(&ok(&e.args(&[
        "round",
        "show",
        "--event",
        &e.id,
        "--section",
        "t",
        "--json",
    ])))
    .expect("sheet");
    for b in sheet["boards"].as_array().expect("boards") {
        let n = b["board"].as_u64().expect("board").to_string();
        ok(&e.args(&[
            "result",
            "--event",
            &e.id,
            "--section",
            "t",
            "--board",
            &n,
            "=",
        ]));
    }
    let out = ok(&e.args(&[
        "team",
        "withdraw",
        "--event",
        &e.id,
        "--team",
        "丁队",
        "--reason",
        "全队因故退赛",
    ]));
    assert!(out.contains("丁队 整队退赛: 2 名队员已退赛"), "{out}");
    let again = run(&e.args(&[
        "team", "withdraw", "--event", &e.id, "--team", "丁队", "--reason", "再次",
    ]));
    assert!(!again.status.success());
    assert!(stderr(&again).contains("均已退赛"), "{}", stderr(&again));
    let unknown = run(&e.args(&[
        "team", "withdraw", "--event", &e.id, "--team", "戊队", "--reason", "x",
    ]));
    assert!(!unknown.status.success());

    ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));
    use arbiter_store::EventStore as _;
    let state = arbiter_store::SqliteStore::open(&e.db)
        .expect("db")
        .state(&arbiter_store::EventId(e.id.clone()))
        .expect("state");
    let rec = state.section("t").expect("t");
    let r2 = &rec.matches[&2];
    assert_eq!(r2.matches.len(), 1, "{r2:?}");
    assert!(r2.bye.is_some(), "three teams: one has the bye");
    assert!(r2
        .matches
        .iter()
        .all(|m| m.first != "丁队" && m.second != "丁队"));
    assert_ne!(r2.bye.as_deref(), Some("丁队"));
    for p in &state.teams["丁队"].members {
        let player = state.player(*p).expect("member");
        assert_eq!(
            state.status(*p),
            Some(arbiter_core::PlayerStatus::Withdrawn)
        );
        assert!(player.person.name.starts_with("丁队"));
    }
    let json: serde_json::Value =
        serde_json::from_str(&ok(&e.args(&["teams", "--event", &e.id, "--json"]))).expect("json");
    let rows = json["team_matches"][0]["standings"]
        .as_array()
        .expect("rows");
    let gone = rows
        .iter()
        .find(|r| r["name"] == "丁队")
        .expect("丁队 still ranked");
    assert_eq!(gone["rounds"].as_array().map(Vec::len), Some(1), "{gone}");
}

/// 队长确认: once both boards of a match have their result, each captain confirms it with
/// `team confirm` — refused before (naming the board), twice (naming the captain), for the
/// team with the bye and for a team the event does not have; a correction of one of the
/// match's boards drops both confirmations.
#[test]
fn both_captains_confirm_their_match_from_the_command_line() {
    let e = event_from(
        REGULATION,
        &[
            ("甲队", &["", ""]),
            ("乙队", &["", ""]),
            ("丙队", &["", ""]),
            ("丁队", &["", ""]),
            ("戊队", &["", ""]),
        ],
    );
    ok(&e.args(&["round", "pair", "--event", &e.id, "--section", "t"]));
    ok(&e.args(&["round", "publish", "--event", &e.id, "--section", "t"]));
    use arbiter_store::EventStore as _;
    let state = || {
        arbiter_store::SqliteStore::open(&e.db)
            .expect("db")
            .state(&arbiter_store::EventId(e.id.clone()))
            .expect("state")
    };
    let st = state();
    let r1 = st.section("t").expect("t").matches[&1].clone();
    let (first, second) = (r1.matches[0].first.clone(), r1.matches[0].second.clone());
    let bye = r1.bye.clone().expect("five teams: one has the bye");
    let confirm = |team: &str, by: &str| {
        run(&e.args(&[
            "team",
            "confirm",
            "--event",
            &e.id,
            "--section",
            "t",
            "--round",
            "1",
            "--team",
            team,
            "--by",
            by,
        ]))
    };

    // Match 1 is boards 1 and 2 of the round: still in play.
    let o = confirm(&first, "张三");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("第1场第1台"), "{}", stderr(&o));
    assert!(stderr(&o).contains("尚无成绩"), "{}", stderr(&o));
    for (board, result) in [("1", "1-0"), ("2", "=")] {
        ok(&e.args(&[
            "result",
            "--event",
            &e.id,
            "--section",
            "t",
            "--board",
            board,
            result,
        ]));
    }

    let o = confirm(&first, "张三");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("第1轮 第1场 {first} 队长 张三 已确认")),
        "{out}"
    );
    assert!(out.contains(&format!("待 {second} 队长确认")), "{out}");

    let o = confirm(&first, "王五");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("已由队长 张三 确认"), "{}", stderr(&o));
    let o = confirm(&bye, "赵六");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("轮空"), "{}", stderr(&o));
    let o = confirm("己队", "赵六");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("队伍「己队」不存在"), "{}", stderr(&o));

    let o = confirm(&second, "李四");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("双方队长均已确认"), "{}", stdout(&o));
    let r1 = state().section("t").expect("t").matches[&1].clone();
    assert_eq!(r1.confirmations(1), Some((Some("张三"), Some("李四"))));
    // The event log says it in words.
    let log = ok(&e.args(&["event", "log", &e.id]));
    assert!(log.contains(&format!("队长确认: {first}")), "{log}");

    // The chief arbiter corrects board 2: the captains confirmed another result.
    ok(&e.args(&[
        "result",
        "correct",
        "--event",
        &e.id,
        "--section",
        "t",
        "--round",
        "1",
        "--board",
        "2",
        "0-1",
        "--reason",
        "记分表填错",
    ]));
    let r1 = state().section("t").expect("t").matches[&1].clone();
    assert_eq!(r1.confirmations(1), Some((None, None)));
}
