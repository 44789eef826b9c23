//! A Swiss stage's knockout keeps the seeds it was played with (A9): Tianshui simulated to
//! the end, then the chief arbiter reopens it and corrects a stage-1 result that moves the
//! standings after stage 1. The knockout already played stands (its seeds were fixed in the
//! log as its first game was entered, `knockout_seeded`), the standings and the export
//! read, the Swiss places after the knockout move with the correction, and the log verifies.

use crate::common;

use common::*;
use serde_json::Value;

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn a_stage_one_result_corrected_after_the_knockout_leaves_the_bracket_as_played() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into(
        "tianshui-2024",
        1,
        dir.path(),
        &["--players", "open=24", "--players", "local=10"],
    );
    let db = dir.path().join("arbiter.db");
    let db = db.to_str().unwrap();
    let ev = ok(&["event", "list", "--db", db])
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let bracket = |json: bool| {
        let mut a = vec![
            "knockout",
            "show",
            "--db",
            db,
            "--event",
            &ev,
            "--section",
            "open",
        ];
        if json {
            a.push("--json");
        }
        ok(&a)
    };
    let before = bracket(false);
    let seeded = |log: &str| {
        log.lines()
            .filter(|l| l.contains("\"knockout_seeded\""))
            .count()
    };
    let log = ok(&["event", "export", "--db", db, &ev]);
    assert_eq!(seeded(&log), 1, "the seeds fixed once in the log");

    // Round 1, board 1 of stage 1 turned round: the loser now wins.
    let round1 = ok(&[
        "round",
        "show",
        "--db",
        db,
        "--event",
        &ev,
        "--section",
        "open",
        "--round",
        "1",
    ]);
    let first = round1
        .lines()
        .find(|l| l.starts_with("1\t"))
        .expect("board 1")
        .to_string();
    let corrected = if first.contains("\t1-0") {
        "0-1"
    } else {
        "1-0"
    };
    ok(&[
        "event",
        "reopen",
        "--db",
        db,
        "--event",
        &ev,
        "--reason",
        "核对第一轮成绩",
    ]);
    let said = ok(&[
        "result",
        "correct",
        "--db",
        db,
        "--event",
        &ev,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--reason",
        "记录错误",
        corrected,
    ]);
    assert!(said.contains("更正"), "{said}");

    // The standings and the export read; the bracket is the one played.
    let standings = ok(&["standings", "--db", db, "--event", &ev, "--section", "open"]);
    assert!(
        standings.contains("名次") && standings.contains("淘汰赛"),
        "{standings}"
    );
    assert_eq!(bracket(false), before, "the knockout as played");
    let shown: Value = serde_json::from_str(&bracket(true)).expect("json");
    assert!(shown.is_object(), "{shown}");
    let log = ok(&["event", "export", "--db", db, &ev]);
    assert_eq!(seeded(&log), 1);
    // Closed again and published anew (the export next to the database, as `simulate`
    // wrote it before the correction), the log and the export verify.
    ok(&["event", "close", "--db", db, "--event", &ev]);
    let published = ok(&["event", "export", "--db", db, "--format", "json", &ev]);
    std::fs::write(dir.path().join("export.json"), published).unwrap();
    let verified = run(&["event", "verify", db]);
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}{}",
        text(&verified.stdout),
        text(&verified.stderr)
    );
}
