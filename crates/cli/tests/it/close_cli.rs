//! Closing an event (`event close` / `event reopen`), entering a team (`team add`) and a
//! team's foul (`foul`), as an arbiter uses them: refusals say why (Chinese first) and write
//! nothing; a closed event takes no correction until it is reopened with a reason; `event
//! verify` checks every closing.

use crate::common;

use common::*;
use serde_json::Value;

const EV: &str = "ev-00000001";

/// Exit 2 with `needle` on stderr.
fn refused(args: &[&str], needle: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in {err}");
}

fn log(db: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(&ok(&["event", "export", EV, "--db", db])).expect("log");
    v["entries"].as_array().expect("entries").clone()
}

#[test]
fn a_closed_event_takes_no_correction_until_the_chief_arbiter_reopens_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sim = simulate(dir.path(), "tianshui-2024");
    // The simulated log in a database of its own (away from simulate's export.json, which a
    // correction makes stale): the import replays and verifies it, closing included.
    let file = dir.path().join("log.json");
    std::fs::write(&file, ok(&["event", "export", EV, "--db", &sim])).expect("write");
    let db = dir.path().join("closed.db").display().to_string();
    ok(&["event", "import", file.to_str().expect("p"), "--db", &db]);
    // simulate ends with the closing: the standings it fixed are the published ones.
    let entries = log(&db);
    let last = &entries.last().expect("entries")["entry"];
    assert_eq!(last["type"], "event_closed", "{last}");
    let x: Value = serde_json::from_str(&ok(&[
        "event", "export", EV, "--format", "json", "--db", &db,
    ]))
    .expect("export");
    let open = &x["sections"][0];
    assert_eq!(
        last["standings"][0]["places"].as_array().map(Vec::len),
        open["standings"].as_array().map(Vec::len)
    );
    assert_eq!(
        last["prizes"].as_array().map(Vec::len),
        x["prizes"].as_array().map(Vec::len)
    );
    let before = entries.len();
    refused(&["event", "close", "--event", EV, "--db", &db], "已经闭幕");
    let correct = [
        "result",
        "correct",
        "--event",
        EV,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--",
        "--reason",
        "成绩单填错",
        "--db",
        &db,
        "--actor",
        "裁判长",
    ];
    refused(&correct, "赛事已闭幕");
    refused(
        &[
            "event", "reopen", "--event", EV, "--reason", " ", "--db", &db,
        ],
        "理由",
    );
    assert_eq!(log(&db).len(), before, "refusals write nothing");
    ok(&[
        "event",
        "reopen",
        "--event",
        EV,
        "--reason",
        "第1轮第1台成绩单有误, 双方申诉",
        "--db",
        &db,
        "--actor",
        "裁判长",
    ]);
    ok(&correct);
    ok(&[
        "event",
        "close",
        "--event",
        EV,
        "--db",
        &db,
        "--actor",
        "裁判长",
    ]);
    let entries = log(&db);
    let kinds: Vec<&str> = entries[before..]
        .iter()
        .filter_map(|e| e["entry"]["type"].as_str())
        .collect();
    assert_eq!(
        kinds,
        ["event_reopened", "result_corrected", "event_closed"],
        "{kinds:?}"
    );
    assert_eq!(entries[before]["entry"]["by"], "裁判长");
    let o = run(&["event", "verify", &db]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn close_is_refused_while_a_section_has_games_to_play() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = simulate(dir.path(), "tianshui-2024");
    // The log up to round 2 of the open section, imported as an event of its own.
    let v: Value = serde_json::from_str(&ok(&["event", "export", EV, "--db", &db])).expect("log");
    let entries = v["entries"].as_array().expect("entries");
    let cut = entries
        .iter()
        .position(|e| e["entry"]["type"] == "round_paired" && e["entry"]["round"] == 2)
        .expect("round 2");
    let mut prefix = v.clone();
    prefix["entries"] = Value::Array(entries[..cut].to_vec());
    let file = dir.path().join("prefix.json");
    std::fs::write(&file, prefix.to_string()).expect("write");
    let db2 = dir.path().join("b.db").display().to_string();
    ok(&["event", "import", file.to_str().expect("p"), "--db", &db2]);
    refused(
        &["event", "close", "--event", EV, "--db", &db2],
        "公开组 尚未赛完: 第2轮尚未编排",
    );
    // A new event where nothing has been played cannot be closed either.
    let db3 = dir.path().join("c.db").display().to_string();
    ok(&[
        "event",
        "create",
        "--regulation",
        &regulation("tianshui-2024"),
        "--db",
        &db3,
    ]);
    refused(
        &["event", "close", "--event", EV, "--db", &db3],
        "尚未进行任何一轮比赛",
    );
}

#[test]
fn team_add_and_team_fouls_follow_the_regulation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("k.db").display().to_string();
    ok(&[
        "event",
        "create",
        "--regulation",
        &regulation("kunshan-2026"),
        "--db",
        &db,
    ]);
    let roster = dir.path().join("r.csv");
    let mut csv = String::from("姓名,组别,性别,出生日期,身份证号,手机号,社保号,单位,证明\n");
    for (i, unit) in [(1, "甲公司"), (2, "甲公司"), (3, "甲公司"), (4, "乙公司")] {
        // Kunshan requires the ID number, phone and 社保号 of every entry (K5).
        let idn = id_number(&format!("3205831980010{i}001"));
        csv.push_str(&format!(
            "棋手{i},men,男,1980-01-0{i},{idn},1391234000{i},{idn},{unit},social_security\n"
        ));
    }
    std::fs::write(&roster, csv).expect("write");
    ok(&[
        "player",
        "import",
        "--event",
        EV,
        roster.to_str().expect("p"),
        "--at",
        "2026-09-01T10:00:00+08:00",
        "--db",
        &db,
    ]);
    // K2: no cross-unit team.
    refused(
        &[
            "team",
            "add",
            "--event",
            EV,
            "--name",
            "甲队",
            "--unit",
            "甲公司",
            "--member",
            "P1",
            "--member",
            "P2",
            "--member",
            "P4",
            "--db",
            &db,
        ],
        "跨单位组队",
    );
    let out = ok(&[
        "team",
        "add",
        "--event",
        EV,
        "--name",
        "甲队",
        "--unit",
        "甲公司",
        "--member",
        "P1",
        "--member",
        "P2",
        "--member",
        "P3",
        "--division",
        "甲组",
        "--leader",
        "王领队",
        "--coach",
        "李教练",
        "--db",
        &db,
    ]);
    assert!(out.contains("已报名队伍 team entered: 甲队"), "{out}");
    let entries = log(&db);
    let t = &entries.last().expect("team")["entry"];
    assert_eq!(t["type"], "team_entered");
    assert_eq!(t["members"], serde_json::json!([1, 2, 3]));
    // A team foul needs a paired round of the section.
    refused(
        &[
            "foul",
            "--event",
            EV,
            "--section",
            "men",
            "--team",
            "甲队",
            "--round",
            "1",
            "--reason",
            "领队场外指导",
            "--db",
            &db,
        ],
        "尚未编排",
    );
    refused(
        &[
            "foul",
            "--event",
            EV,
            "--section",
            "men",
            "--team",
            "乙队",
            "--reason",
            "x",
            "--db",
            &db,
        ],
        "队伍「乙队」不存在",
    );
}

#[test]
fn team_roster_add_remove_and_replace_after_the_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("k.db").display().to_string();
    ok(&[
        "event",
        "create",
        "--regulation",
        &regulation("kunshan-2026"),
        "--db",
        &db,
    ]);
    let roster = dir.path().join("r.csv");
    let mut csv = String::from("姓名,组别,性别,出生日期,身份证号,手机号,社保号,单位,证明\n");
    for (i, unit) in [
        (1, "甲公司"),
        (2, "甲公司"),
        (3, "甲公司"),
        (4, "甲公司"),
        (5, "乙公司"),
    ] {
        // Kunshan requires the ID number, phone and 社保号 of every entry (K5).
        let idn = id_number(&format!("3205831980010{i}001"));
        csv.push_str(&format!(
            "棋手{i},men,男,1980-01-0{i},{idn},1391234000{i},{idn},{unit},social_security\n"
        ));
    }
    std::fs::write(&roster, csv).expect("write");
    let at = ["--at", "2026-09-01T10:00:00+08:00", "--db", &db];
    let with = |args: &[&str]| -> Vec<String> {
        args.iter()
            .chain(at.iter())
            .map(|s| s.to_string())
            .collect()
    };
    let run_ok = |args: &[&str]| {
        let a = with(args);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let run_refused = |args: &[&str], needle: &str| {
        let a = with(args);
        refused(&a.iter().map(String::as_str).collect::<Vec<_>>(), needle)
    };
    run_ok(&[
        "player",
        "import",
        "--event",
        EV,
        roster.to_str().expect("p"),
    ]);
    run_ok(&[
        "team",
        "add",
        "--event",
        EV,
        "--name",
        "甲队",
        "--unit",
        "甲公司",
        "--member",
        "P1",
        "--member",
        "P2",
        "--member",
        "P3",
        "--division",
        "甲组",
        "--leader",
        "王领队",
        "--coach",
        "李教练",
    ]);
    let roster_cmd = |action: &'static str, player: &'static str| {
        vec![
            "team", "roster", action, "--event", EV, "--team", "甲队", "--player", player,
        ]
    };
    let out = run_ok(&roster_cmd("add", "P4"));
    assert!(
        out.contains("队伍名单已更改 roster changed: 甲队 增补 added: P4"),
        "{out}"
    );
    run_refused(&roster_cmd("add", "P5"), "跨单位组队");
    run_refused(&roster_cmd("add", "P1"), "已在队伍");
    run_refused(&roster_cmd("remove", "P5"), "不在队伍");
    run_ok(&roster_cmd("remove", "P4"));
    run_refused(&roster_cmd("remove", "P3"), "至少 3 人");
    run_refused(&roster_cmd("replace", "P3"), "--by");
    let mut bad_by = roster_cmd("add", "P4");
    bad_by.extend(["--by", "P3"]);
    run_refused(&bad_by, "--by");
    let mut replace = roster_cmd("replace", "P3");
    replace.extend(["--by", "P4", "--reason", "棋手3 出差"]);
    run_ok(&replace);
    let entries = log(&db);
    let changes: Vec<&Value> = entries
        .iter()
        .map(|e| &e["entry"])
        .filter(|e| e["type"] == "team_roster_changed")
        .collect();
    assert_eq!(changes.len(), 3, "{changes:?}");
    assert_eq!(changes[2]["added"], serde_json::json!([4]));
    assert_eq!(changes[2]["removed"], serde_json::json!([3]));
    assert_eq!(changes[2]["reason"], "棋手3 出差");
    let x: Value = serde_json::from_str(&ok(&[
        "event", "export", EV, "--format", "json", "--db", &db,
    ]))
    .expect("export");
    let players = x["sections"][0]["players"].as_array().expect("players");
    let named: Vec<&str> = players
        .iter()
        .filter(|p| p["team"] == "甲队")
        .map(|p| p["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(named.len(), 3, "{named:?}");
    assert!(!named.contains(&"棋手3"), "{named:?}");
    ok(&["event", "verify", &db]);
}
