//! `arbiter round …`, `arbiter result …`, `teams`, `prizes`, `event export --format trf` run
//! as real processes on a database — including two arbiters entering results at once.

use crate::common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const REGULATION: &str = r#"
[event]
name = "轮次测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 3 }
tiebreaks = "cxa-2011-opp"

[[sections.prizes]]
rank = 1
amount_yuan = 300
"#;

struct Event {
    _dir: tempfile::TempDir,
    db: PathBuf,
    id: String,
}

/// `user add` with the password on stdin.
fn add_user(e: &Event, login: &str, role: &str) {
    let o = run_with_stdin(
        &db_args(e, &["user", "add", "--login", login, "--role", role]),
        "plum-blossom-99\n",
    );
    assert!(o.status.success(), "user add: {}", text(&o.stderr));
}

fn db_args<'a>(e: &'a Event, rest: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = rest.to_vec();
    v.extend(["--db", e.db.to_str().expect("utf-8 path")]);
    v
}

/// An event with `n` players, paired and published round 1.
fn event(n: usize) -> Event {
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = dir.path().join("reg.toml");
    std::fs::write(&reg, REGULATION).expect("write");
    let db = dir.path().join("a.db");
    let out = ok(&[
        "event",
        "create",
        "--regulation",
        reg.to_str().expect("path"),
        "--db",
        db.to_str().expect("path"),
    ]);
    let id = out.lines().last().expect("id").trim().to_string();
    let e = Event { _dir: dir, db, id };
    for i in 1..=n {
        let name = format!("棋手{i}");
        let unit = format!("单位{}", i % 4);
        ok(&db_args(
            &e,
            &[
                "player",
                "add",
                "--event",
                &e.id,
                "--section",
                "open",
                "--name",
                &name,
                "--unit",
                &unit,
                "--at",
                "2026-09-01T10:00:00+08:00",
            ],
        ));
    }
    e
}

fn pair_and_publish(e: &Event) {
    ok(&db_args(
        e,
        &["round", "pair", "--event", &e.id, "--section", "open"],
    ));
    ok(&db_args(
        e,
        &["round", "publish", "--event", &e.id, "--section", "open"],
    ));
}

fn sheet(e: &Event) -> serde_json::Value {
    let out = ok(&db_args(
        e,
        &[
            "round",
            "show",
            "--event",
            &e.id,
            "--section",
            "open",
            "--json",
        ],
    ));
    serde_json::from_str(&out).expect("round show --json")
}

fn log_entries(e: &Event, kind: &str) -> Vec<serde_json::Value> {
    let out = ok(&db_args(e, &["event", "export", &e.id]));
    let v: serde_json::Value = serde_json::from_str(&out).expect("log");
    v["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|x| x["entry"]["type"] == kind)
        .cloned()
        .collect()
}

fn result(e: &Event, board: &str, r: &str) -> Command {
    let mut c = Command::new(BIN);
    c.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    c.args(db_args(
        e,
        &[
            "result",
            "--event",
            &e.id,
            "--section",
            "open",
            "--board",
            board,
            r,
        ],
    ));
    c
}

#[test]
fn a_round_from_pairing_to_correction() {
    let e = event(9);
    let o = run(&db_args(
        &e,
        &["round", "show", "--event", &e.id, "--section", "open"],
    ));
    assert_eq!(o.status.code(), Some(2), "nothing paired yet");
    pair_and_publish(&e);
    // Pairing again while the round is open says so and changes nothing.
    let before = log_entries(&e, "round_paired").len();
    let o = run(&db_args(
        &e,
        &["round", "pair", "--event", &e.id, "--section", "open"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("尚未结束"), "{}", text(&o.stderr));
    assert_eq!(log_entries(&e, "round_paired").len(), before);
    let s = sheet(&e);
    assert_eq!(s["section"], "open");
    assert_eq!(s["round"], 1);
    assert_eq!(s["published"], true);
    let boards = s["boards"].as_array().expect("boards");
    assert_eq!(boards.len(), 4);
    assert!(boards[0]["red"]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("棋手")));
    assert!(boards[0]["result"].is_null());
    assert_eq!(s["bye"]["no"].as_u64().map(|n| n > 0), Some(true));
    // Every notation parses as written, `--` and `-+` included.
    for (b, r) in [("1", "--"), ("2", "-+"), ("3", "+-")] {
        let o = result(&e, b, r).output().expect("run");
        assert!(o.status.success(), "{r}: {}", text(&o.stderr));
    }
    let o = result(&e, "4", "2-0").output().expect("run");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("无法识别"));
    let o = result(&e, "4", "=").output().expect("run");
    assert!(
        text(&o.stdout).contains("第1轮 第4台")
            && text(&o.stdout).contains("完成 第1轮 (成绩全部录入)"),
        "{}",
        text(&o.stdout)
    );
    let s = sheet(&e);
    let got: Vec<&str> = s["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| b["result"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(got, vec!["--", "-+", "+-", "="]);
    ok(&db_args(
        &e,
        &["result", "confirm", "--event", &e.id, "--section", "open"],
    ));
    assert_eq!(log_entries(&e, "result_confirmed").len(), 4);
    // The director decides who corrects (A12): an arbiter's account is refused, with the
    // role in words and nothing appended; an unknown account is refused too.
    add_user(&e, "zhang", "arbiter");
    let correct_as = |who: &str| {
        run(&db_args(
            &e,
            &[
                "result",
                "correct",
                "--event",
                &e.id,
                "--section",
                "open",
                "--round",
                "1",
                "--board",
                "4",
                "1-0",
                "--reason",
                "成绩单误填",
                "--as",
                who,
            ],
        ))
    };
    let o = correct_as("zhang");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("更正成绩只能由裁判长进行, 当前身份是裁判"),
        "{err}"
    );
    assert!(log_entries(&e, "result_corrected").is_empty());
    let o = correct_as("nobody");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("不存在"), "{}", text(&o.stderr));
    assert!(log_entries(&e, "result_corrected").is_empty());
    // A blank reason: the director's refusal, and the CLI names the flag that fixes it.
    let o = run(&db_args(
        &e,
        &[
            "result",
            "correct",
            "--event",
            &e.id,
            "--section",
            "open",
            "--round",
            "1",
            "--board",
            "4",
            "1-0",
            "--reason",
            " ",
        ],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("更正成绩须说明理由") && err.contains("--reason"),
        "{err}"
    );
    assert!(log_entries(&e, "result_corrected").is_empty());
    let o = run(&db_args(
        &e,
        &[
            "result",
            "correct",
            "--event",
            &e.id,
            "--section",
            "open",
            "--round",
            "1",
            "--board",
            "4",
            "1-0",
            "--reason",
            "成绩单误填",
            "--actor",
            "王裁判长",
        ],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let c = log_entries(&e, "result_corrected");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0]["entry"]["by"], "王裁判长");
    // Round 2 with a fixed pair, then undone (published, no result) and paired again.
    let o = run(&db_args(
        &e,
        &[
            "round",
            "pair",
            "--event",
            &e.id,
            "--section",
            "open",
            "--fix",
            "1-2",
            "--explain",
        ],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("裁判长指定"),
        "{}",
        text(&o.stderr)
    );
    ok(&db_args(
        &e,
        &["round", "publish", "--event", &e.id, "--section", "open"],
    ));
    ok(&db_args(
        &e,
        &[
            "round",
            "undo",
            "--event",
            &e.id,
            "--section",
            "open",
            "--reason",
            "改为电脑编排",
        ],
    ));
    assert_eq!(log_entries(&e, "round_undone").len(), 1);
    pair_and_publish(&e);
    // Results from a file: header, comments, commas or spaces, fouls.
    let file = e.db.with_file_name("r2.txt");
    std::fs::write(
        &file,
        "台号,成绩,红犯规,黑犯规\n1,1-0,0,0\n2 = # 和棋\n3 0-1\n4,--,0,0\n",
    )
    .expect("write");
    let o = run(&db_args(
        &e,
        &[
            "result",
            "import",
            "--event",
            &e.id,
            "--section",
            "open",
            file.to_str().expect("p"),
        ],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("完成 第2轮 (成绩全部录入)"),
        "{}",
        text(&o.stdout)
    );
    // A bad line is refused by file and line, and nothing is entered.
    pair_and_publish(&e);
    std::fs::write(&file, "1 1-0\n2 x\n").expect("write");
    let o = run(&db_args(
        &e,
        &[
            "result",
            "import",
            "--event",
            &e.id,
            "--section",
            "open",
            file.to_str().expect("p"),
        ],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("r2.txt:2"), "{}", text(&o.stderr));
    assert!(sheet(&e)["boards"][0]["result"].is_null());
    // TRF export of the section, prizes and teams.
    let trf = ok(&db_args(
        &e,
        &[
            "event",
            "export",
            &e.id,
            "--format",
            "trf",
            "--section",
            "open",
        ],
    ));
    assert!(trf.contains("001 "), "{trf}");
    assert!(trf.lines().filter(|l| l.starts_with("001 ")).count() == 9);
    let p: serde_json::Value =
        serde_json::from_str(&ok(&db_args(&e, &["prizes", "--event", &e.id, "--json"])))
            .expect("json");
    assert!(p["prizes"].is_array());
    let t: serde_json::Value =
        serde_json::from_str(&ok(&db_args(&e, &["teams", "--event", &e.id, "--json"])))
            .expect("json");
    assert!(t["teams"].is_array());
    let o = run(&["event", "verify", e.db.to_str().expect("p")]);
    assert!(o.status.success(), "{}", text(&o.stdout));
}

#[test]
fn two_arbiters_at_once() {
    let e = event(16);
    pair_and_publish(&e);
    // Different boards, many times over: every result lands.
    let mut children = Vec::new();
    for (b, r) in [
        ("1", "1-0"),
        ("2", "0-1"),
        ("3", "="),
        ("4", "1-0"),
        ("5", "0-1"),
        ("6", "="),
    ] {
        children.push(result(&e, b, r).spawn().expect("spawn"));
    }
    for c in children {
        let o = c.wait_with_output().expect("wait");
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let s = sheet(&e);
    let got: Vec<&str> = s["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .take(6)
        .map(|b| b["result"].as_str().unwrap_or("missing"))
        .collect();
    assert_eq!(got, vec!["1-0", "0-1", "=", "1-0", "0-1", "="]);
    // The same board twice at once: one lands, the other is a conflict showing what is
    // stored; nothing duplicated.
    for board in ["7", "8"] {
        let a = result(&e, board, "1-0").spawn().expect("spawn");
        let b = result(&e, board, "0-1").spawn().expect("spawn");
        let (a, b) = (
            a.wait_with_output().expect("a"),
            b.wait_with_output().expect("b"),
        );
        let won: Vec<&Output> = [&a, &b]
            .into_iter()
            .filter(|o| o.status.success())
            .collect();
        let lost: Vec<&Output> = [&a, &b]
            .into_iter()
            .filter(|o| !o.status.success())
            .collect();
        assert_eq!(won.len(), 1, "{}{}", text(&a.stderr), text(&b.stderr));
        assert_eq!(lost[0].status.code(), Some(2));
        let stored = sheet(&e)["boards"][board.parse::<usize>().expect("n") - 1]["result"]
            .as_str()
            .expect("stored")
            .to_string();
        let msg = text(&lost[0].stderr);
        assert!(
            msg.contains("冲突") && msg.contains(&format!("已有成绩 {stored} ")),
            "{msg}"
        );
    }
    let entered = log_entries(&e, "result_entered");
    assert_eq!(
        entered.len(),
        8,
        "one entry per board, none lost or doubled"
    );
    let seqs: Vec<u64> = {
        let out = ok(&db_args(&e, &["event", "export", &e.id]));
        let v: serde_json::Value = serde_json::from_str(&out).expect("log");
        v["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .filter_map(|x| x["seq"].as_u64())
            .collect()
    };
    assert!(
        seqs.iter().zip(1..).all(|(s, i)| *s == i),
        "no gap in the log"
    );
    let _ = Path::new(&e.db);
}

/// `arbiter result … --replaces STORED`: the arbiter re-enters a board before the slips are
/// confirmed, as at the desk; without `--replaces` it is the conflict of two arbiters on one
/// board; after `result confirm` only the chief arbiter's `result correct`.
#[test]
fn an_arbiter_re_enters_a_result_before_confirmation() {
    let e = event(4);
    pair_and_publish(&e);
    add_user(&e, "zhang", "arbiter");
    add_user(&e, "desk1", "desk");
    let as_user = |who: &str, board: &str, r: &str, replaces: Option<&str>| {
        let mut args = vec![
            "result",
            "--event",
            &e.id,
            "--section",
            "open",
            "--board",
            board,
            r,
            "--as",
            who,
        ];
        if let Some(x) = replaces {
            args.extend(["--replaces", x]);
        }
        run(&db_args(&e, &args))
    };
    let o = as_user("zhang", "1", "1-0", None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Typed again without --replaces: the conflict, and the flag that re-enters.
    let o = as_user("zhang", "1", "=", None);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("已有成绩 1-0") && err.contains("尚未签字确认") && err.contains("--replaces"),
        "{err}"
    );
    // The registration desk enters no result, so it may not re-enter one either.
    let o = as_user("desk1", "1", "=", Some("1-0"));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("录入成绩只能由裁判长或裁判进行, 当前身份是报名处"),
        "{}",
        text(&o.stderr)
    );
    // The arbiter's re-entry: replaced, both entries in the log, his name on both.
    let o = as_user("zhang", "1", "=", Some("1-0"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(sheet(&e)["boards"][0]["result"], "=");
    let entered = log_entries(&e, "result_entered");
    assert_eq!(entered.len(), 2, "{entered:?}");
    assert!(entered.iter().all(|x| x["actor"] == "zhang"), "{entered:?}");
    // The round fills up; the last board re-entered after it closed, before confirmation.
    let o = as_user("zhang", "2", "0-1", None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = as_user("zhang", "2", "1-0", Some("0-1"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(sheet(&e)["boards"][1]["result"], "1-0");
    ok(&db_args(
        &e,
        &["result", "confirm", "--event", &e.id, "--section", "open"],
    ));
    // Confirmed: the arbiter is sent to the chief arbiter's correction.
    let o = as_user("zhang", "2", "=", Some("1-0"));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("已签字确认")
            && err.contains("只能由裁判长更正")
            && err.contains("result correct"),
        "{err}"
    );
    assert_eq!(sheet(&e)["boards"][1]["result"], "1-0");
    assert_eq!(log_entries(&e, "result_entered").len(), 4);
    let verify = run(&["event", "verify", e.db.to_str().expect("utf-8 path")]);
    assert!(
        verify.status.success(),
        "{}{}",
        text(&verify.stdout),
        text(&verify.stderr)
    );
}
