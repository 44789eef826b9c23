//! `arbiter standings --trf`: table, JSON, tie-break list parsing and exit codes.

use crate::common;

use common::*;
use std::path::Path;

/// (opponent, colour, result) of one round in TRF terms.
type Round = (u32, char, char);

/// rules.md §4.5: 6 players A–F (1–6), 4 rounds, as a TRF-16 file.
/// Rounds per player: (opponent, colour, result).
fn example_trf(dir: &Path) -> String {
    let rows: [(&str, [Round; 4]); 6] = [
        (
            "A",
            [(4, 'w', '1'), (6, 'b', '1'), (2, 'w', '='), (4, 'b', '1')],
        ),
        (
            "B",
            [(5, 'b', '='), (3, 'w', '1'), (1, 'b', '='), (6, 'w', '1')],
        ),
        (
            "C",
            [(6, 'w', '0'), (2, 'b', '0'), (4, 'w', '1'), (5, 'w', '=')],
        ),
        (
            "D",
            [(1, 'b', '0'), (5, 'w', '='), (3, 'b', '0'), (1, 'w', '0')],
        ),
        (
            "E",
            [(2, 'w', '='), (4, 'b', '='), (6, 'w', '0'), (3, 'b', '=')],
        ),
        (
            "F",
            [(3, 'b', '1'), (1, 'w', '0'), (5, 'b', '1'), (2, 'b', '0')],
        ),
    ];
    let mut text = String::from("012 Worked example 4.5\nXXR 4\n");
    for (i, (name, rounds)) in rows.iter().enumerate() {
        let mut line = format!(
            "001 {:>4} m    {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            i + 1,
            name,
            "",
            "CHN",
            "",
            "",
            "0.0",
            i + 1
        );
        for (opp, colour, result) in rounds {
            line.push_str(&format!("  {opp:>4} {colour} {result}"));
        }
        text.push_str(&line);
        text.push('\n');
    }
    let path = dir.join("example.trf");
    std::fs::write(&path, text).expect("write trf");
    path.display().to_string()
}

#[test]
fn json_for_both_2011_schemes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = example_trf(dir.path());
    let out = run(&[
        "standings",
        "--trf",
        &trf,
        "--scoring",
        "cxa",
        "--tiebreaks",
        "opp_score,wins,fouls,black_games,previous_round_score",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let rows = v["standings"].as_array().expect("standings array");
    let nos: Vec<i64> = rows.iter().map(|r| r["no"].as_i64().unwrap_or(0)).collect();
    assert_eq!(nos, vec![1, 2, 6, 3, 5, 4]);
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(rows[0]["points"], 7);
    assert_eq!(rows[0]["tiebreaks"]["opp_score"], 12);
    assert_eq!(rows[0]["decided_by"], serde_json::Value::Null);
    assert_eq!(rows[4]["decided_by"], "wins"); // E below C: 胜局 1 > 0
    assert_eq!(rows[3]["tiebreaks"]["wins"], 1);

    let out = run(&[
        "standings",
        "--trf",
        &trf,
        "--scoring",
        "cxa",
        "--tiebreaks",
        "progressive,wins,fouls,black_games,drop_first_rounds",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let rows = v["standings"].as_array().expect("standings array");
    let nos: Vec<i64> = rows.iter().map(|r| r["no"].as_i64().unwrap_or(0)).collect();
    assert_eq!(nos, vec![1, 2, 6, 5, 3, 4]);
    assert_eq!(rows[3]["tiebreaks"]["progressive"], 8);
}

#[test]
fn chinese_table_by_default() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = example_trf(dir.path());
    let out = run(&["standings", "--trf", &trf, "--scoring", "cxa"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text.lines().next().unwrap_or_default();
    for h in [
        "名次",
        "序号",
        "姓名",
        "积分",
        "对手分",
        "胜局",
        "犯规",
        "后走局数",
    ] {
        assert!(header.contains(h), "{header}");
    }
    // The header, six players, and how far the table stands (第N轮后 · 暂定 / 最终).
    assert_eq!(text.lines().count(), 8);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains("轮后 · "), "{text}");
    assert!(
        text.lines().nth(1).unwrap_or_default().contains(" A "),
        "{text}"
    );
}

#[test]
fn unknown_names_exit_2_with_a_suggestion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = example_trf(dir.path());
    let out = run(&["standings", "--trf", &trf, "--tiebreaks", "opp_scor,wins"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `opp_score`"), "{err}");
    let out = run(&["standings", "--trf", &trf, "--scoring", "fid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("「fide」"));
    let out = run(&["standings", "--trf", &trf, "--tiebreaks", "lots,wins"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&[
        "standings",
        "--trf",
        &dir.path().join("missing.trf").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn generated_file_with_every_tiebreak() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = dir.path().join("gen.trf").display().to_string();
    let out = run(&[
        "generate",
        "--players",
        "21",
        "--rounds",
        "5",
        "--seed",
        "7",
        "--out",
        &trf,
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = "opp_score,progressive,wins,fouls,direct,black_games,black_wins,sb,buchholz,\
               buchholz_cut1,buchholz_median1,aro,aro_cut1,apro,performance,previous_round_rank";
    let out = run(&["standings", "--trf", &trf, "--tiebreaks", all, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let rows = v["standings"].as_array().expect("standings array");
    assert_eq!(rows.len(), 21);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["tiebreaks"].as_object().map(|m| m.len()), Some(15));
        assert_eq!(r["rank"], i as i64 + 1); // unique ranks without `shared`
    }
}

#[test]
fn db_errors_are_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("none.db").display().to_string();
    let out = run(&["standings", "--db", &db, "--event", "e1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("database not found"));
    let out = run(&["standings"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--db`: the section's list comes from the regulation stored in the event log (Tianshui:
/// 对手分, 胜局, 犯规, 后走局数, 后走胜局, previous_round_rank). Before the draw nobody has a
/// pairing number, so the table is empty.
#[test]
fn db_section_uses_the_regulation_list() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db").display().to_string();
    let reg = regulation("tianshui-2024");
    let out = run(&["event", "create", "--regulation", &reg, "--db", &db]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = run(&["standings", "--db", &db, "--event", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--section"));
    let out = run(&[
        "standings",
        "--db",
        &db,
        "--event",
        &id,
        "--section",
        "open",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("名次"), "{text}");
    assert!(text.contains("后走胜局"), "{text}");
    let out = run(&["standings", "--db", &db, "--event", &id, "--section", "opn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean 「open」"));
}

/// 小分 counts a drawn opponent ½ whatever the colour (2011 14.1), so under 5-2-3-0 (S5) it
/// stays a multiple of ½ point and JSON keeps it a number. Under 1/½/0 scoring a draw with
/// an opponent on x.5 gives a quarter, which JSON keeps exact as the string "num/den"; the
/// table prints the exact decimal.
#[test]
fn non_half_fractions_are_exact_strings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = example_trf(dir.path());
    let sb_of = |scoring: &str, no: i64| {
        let out = run(&[
            "standings",
            "--trf",
            &trf,
            "--scoring",
            scoring,
            "--tiebreaks",
            "sb,wins",
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let rows = v["standings"].as_array().expect("standings array").clone();
        let row = rows.iter().find(|r| r["no"] == no).expect("row").clone();
        (row, rows)
    };
    // A (no 1) under 5-2-3-0: beat D twice (2 + 2), beat F (10), drew B (16 × ½): 22.
    let (a, rows) = sb_of("5-2-3-0", 1);
    assert_eq!(a["points"], 17);
    assert_eq!(a["tiebreaks"]["sb"], 22);
    assert!(rows.iter().all(|r| r["tiebreaks"]["sb"].is_number()));
    // D (no 4) under 1/½/0: only a draw with E, who has 1.5: ¾ exactly.
    let (d, _) = sb_of("fide", 4);
    assert_eq!(d["tiebreaks"]["sb"], "3/4");
    let args = [
        "standings",
        "--trf",
        &trf,
        "--scoring",
        "fide",
        "--tiebreaks",
        "sb,wins",
    ];
    let out = run(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let d_line = text
        .lines()
        .find(|l| l.contains(" D "))
        .unwrap_or_default()
        .to_string();
    assert!(d_line.contains("0.75"), "{text}");
}

/// `arbiter simulate` into `out`; returns the event id.
fn simulate_event(stem: &str, out: &Path, players: &[&str]) -> String {
    simulate_into(stem, 1, out, &players_flags(players));
    let db = out.join("arbiter.db").display().to_string();
    let o = run(&["event", "list", "--json", "--db", &db]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("event list json");
    v[0]["id"].as_str().expect("event id").to_string()
}

/// `arbiter standings --event ID --section S --json` against the `standings` of export.json,
/// row for row; returns the rows.
fn same_as_export(out: &Path, event: &str, id: &str) -> Vec<serde_json::Value> {
    let db = out.join("arbiter.db").display().to_string();
    let mine = json_of(&run(&[
        "standings",
        "--db",
        &db,
        "--event",
        event,
        "--section",
        id,
        "--json",
    ]));
    let mine = mine["standings"].as_array().cloned().expect("standings");
    let section = section_of(&export_json(out), id).clone();
    let published = section["standings"].as_array().expect("export standings");
    assert_eq!(mine.len(), published.len(), "{id}");
    for (i, (m, p)) in mine.iter().zip(published).enumerate() {
        for key in ["rank", "no", "points", "tiebreaks", "decided_by"] {
            assert_eq!(m[key], p[key], "{id} row {} `{key}`", i + 1);
        }
    }
    mine
}

/// Kunshan women (K6): 5 Swiss rounds, then a placement bracket: same rows as export.json.
#[test]
fn placement_bracket_section_matches_the_export() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path();
    let event = simulate_event("kunshan-2026", out, &["men=20", "women=14"]);
    let rows = same_as_export(out, &event, "women");
    assert!(rows.iter().any(|r| r["decided_by"] == "knockout"));
}

/// Tianshui open (T2): 8 Swiss rounds, then a top-8 knockout while the others continue the
/// Swiss. `arbiter standings --event` gives, row for row, the `standings` of export.json:
/// knockout places 1–8 first, then the continuing Swiss from 9. Without `--db` the command
/// reads `arbiter.db` in the working directory.
#[test]
fn two_stage_section_matches_the_export_row_for_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path();
    let event = simulate_event("tianshui-2024", out, &["open=24", "local=0"]);
    let mine = same_as_export(out, &event, "open");
    let mine = &mine;
    let section = section_of(&export_json(out), "open").clone();
    assert!(mine.len() >= 9, "knockout places and the rest");
    // Places 1..8 are exactly the knockout players (whatever their Swiss points), places
    // 2..8 and the first continuing-Swiss row are decided by the knockout.
    let mut ko_players: Vec<i64> = section["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .filter(|r| r["stage"] == "knockout")
        .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
        .flat_map(|g| [g["red"].as_i64(), g["black"].as_i64()])
        .flatten()
        .collect();
    ko_players.sort_unstable();
    ko_players.dedup();
    let mut top8: Vec<i64> = mine
        .iter()
        .take(8)
        .filter_map(|r| r["no"].as_i64())
        .collect();
    top8.sort_unstable();
    assert_eq!(top8, ko_players);
    for (i, m) in mine.iter().enumerate().take(9).skip(1) {
        assert_eq!(m["decided_by"], "knockout", "row {}", i + 1);
        assert_eq!(m["rank"], i as i64 + 1);
    }

    // --db defaults to arbiter.db (in the working directory); --event alone is enough.
    let o = std::process::Command::new(BIN)
        .current_dir(out)
        .args([
            "standings",
            "--event",
            &event,
            "--section",
            "open",
            "--json",
        ])
        .output()
        .expect("run arbiter");
    let default_db = json_of(&o);
    assert_eq!(default_db["standings"].as_array(), Some(mine));
}

/// S1: Suzhou ranks men and women of the open section separately. The categories come from
/// the regulation (`[[sections.categories]]`, `Category::matches`); `--category women` gives
/// the same ranks as export.json's `categories`, and men + women cover the section.
#[test]
fn categories_from_the_regulation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path();
    let event = simulate_event("suzhou-2025", out, &["16"]);
    let db = out.join("arbiter.db").display().to_string();
    let base = [
        "standings",
        "--db",
        &db,
        "--event",
        &event,
        "--section",
        "open",
    ];
    let all = json_of(&run(&[&base[..], &["--json"]].concat()));
    let all = all["standings"].as_array().expect("standings");
    let section = section_of(&export_json(out), "open").clone();
    let sex_of = |no: &serde_json::Value| {
        section["players"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| &p["no"] == no))
            .map(|p| p["sex"].clone())
            .unwrap_or_default()
    };
    let mut covered = 0;
    for (id, sex) in [("men", "M"), ("women", "F")] {
        let v = json_of(&run(&[&base[..], &["--category", id, "--json"]].concat()));
        assert_eq!(v["category"]["id"], id);
        let rows = v["standings"].as_array().expect("category standings");
        let published = section["categories"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["id"] == id))
            .and_then(|c| c["standings"].as_array())
            .expect("export category");
        let mine: Vec<(i64, i64)> = rows
            .iter()
            .map(|r| {
                (
                    r["rank"].as_i64().unwrap_or(0),
                    r["no"].as_i64().unwrap_or(0),
                )
            })
            .collect();
        let theirs: Vec<(i64, i64)> = published
            .iter()
            .map(|r| {
                (
                    r["rank"].as_i64().unwrap_or(0),
                    r["no"].as_i64().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(mine, theirs, "category {id}");
        assert!(!rows.is_empty(), "category {id} is empty");
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r["rank"], i as i64 + 1);
            assert_eq!(sex_of(&r["no"]), sex, "{r}");
        }
        // The section table tags the same players.
        let tagged = all
            .iter()
            .filter(|r| {
                r["categories"]
                    .as_array()
                    .is_some_and(|c| c.contains(&id.into()))
            })
            .count();
        assert_eq!(tagged, rows.len());
        covered += rows.len();
    }
    assert_eq!(covered, all.len());
    let o = run(&[&base[..], &["--category", "women"]].concat());
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("类别 category: 公开女子组 (women)"),
        "{text}"
    );
    assert!(text.contains("总名次"), "{text}");
    let o = run(&[&base[..], &["--category", "womn"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean women"));
}

/// A12: a confirmed result corrected by the chief arbiter. The two players of that board are
/// marked 更正 in the table and `"corrected": true` in JSON, as are the players of any board
/// the simulation itself corrected; nobody else is.
#[test]
fn corrected_results_are_marked() {
    use arbiter_core::{EventState, LogEntry};
    use arbiter_store::{EventId, EventStore, SqliteStore};
    use arbiter_types::GameResult;
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path();
    let event = simulate_event("jiujiang-2020", out, &["10"]);
    let db = out.join("arbiter.db");
    let store = SqliteStore::open(&db).expect("open db");
    let id = EventId(event.clone());
    let log = store.read(&id).expect("log");
    let state = EventState::replay(&log).expect("replay");
    let sec = state.section("senior").expect("senior section");
    let board = sec
        .round(1)
        .and_then(|r| {
            r.boards
                .iter()
                .find(|b| b.result == Some(GameResult::RedWin))
        })
        .expect("a red win in round 1");
    let (red, black) = (
        sec.pairing_no(board.red).expect("red no").get(),
        sec.pairing_no(board.black).expect("black no").get(),
    );
    // simulate closes the event: the chief arbiter reopens it for the correction.
    let mut entries = vec![LogEntry::EventReopened {
        reason: "记录台次错误, 赛后更正 (a late correction)".into(),
        by: "裁判长".into(),
    }];
    if !board.confirmed {
        entries.push(LogEntry::ResultConfirmed {
            section: "senior".into(),
            round: 1,
            board: board.board,
            signed_by: vec!["红方".into(), "黑方".into()],
        });
    }
    entries.push(LogEntry::ResultCorrected {
        section: "senior".into(),
        round: 1,
        board: board.board,
        result: GameResult::Draw,
        reason: "记录台次错误 (wrong slip)".into(),
        by: "裁判长".into(),
    });
    let at = log.last().map(|r| r.at.clone()).expect("a recorded time");
    store
        .append(&id, state.last_seq, &entries, "chief", &at)
        .expect("append correction");

    let db = db.display().to_string();
    let base = [
        "standings",
        "--db",
        &db,
        "--event",
        &event,
        "--section",
        "senior",
    ];
    let v = json_of(&run(&[&base[..], &["--json"]].concat()));
    let rows = v["standings"].as_array().expect("standings");
    let mut marked: Vec<i64> = rows
        .iter()
        .filter(|r| r["corrected"] == true)
        .map(|r| r["no"].as_i64().unwrap_or(0))
        .collect();
    marked.sort_unstable();
    let after = EventState::replay(&store.read(&id).expect("log")).expect("replay");
    let sec = after.section("senior").expect("senior section");
    let mut want: Vec<i64> = sec
        .rounds
        .values()
        .flat_map(|r| r.boards.iter())
        .filter(|b| b.corrected)
        .flat_map(|b| [b.red, b.black])
        .filter_map(|p| sec.pairing_no(p))
        .map(|n| i64::from(n.get()))
        .collect();
    want.sort_unstable();
    want.dedup();
    assert!(want.contains(&i64::from(red)) && want.contains(&i64::from(black)));
    assert_eq!(marked, want);
    assert!(rows.iter().all(|r| r["corrected"].is_boolean()));
    let o = run(&base);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        text.lines().filter(|l| l.contains("更正")).count(),
        want.len(),
        "{text}"
    );
}

/// S4: "不足8人采用单循环" — Suzhou's sections of fewer than 8 players play a round robin, and a
/// round robin is ranked by the round-robin tie-breaks (A6 "小分 … round robin", Part B §5.3:
/// 小分, 胜局, 直胜, 犯规, 后走局数), not by the Swiss 对手分. `arbiter standings`, export.json,
/// the prizes and the final standings fixed in `event_closed` all rank by that list; the
/// Swiss sections keep 对手分.
#[test]
fn suzhou_small_sections_rank_by_round_robin_tiebreaks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path();
    let event = simulate_event(
        "suzhou-2025",
        out,
        &[
            "entrepreneur=10",
            "senior=9",
            "open=16",
            "junior=7",
            "child_a=6",
            "child_b=5",
        ],
    );
    let db = out.join("arbiter.db").display().to_string();
    let export = export_json(out);
    let log: serde_json::Value =
        serde_json::from_str(&ok(&["event", "export", &event, "--db", &db])).expect("log");
    let entries = log["entries"].as_array().expect("entries");
    let name_of = |id: &serde_json::Value| {
        entries
            .iter()
            .map(|e| &e["entry"])
            .find(|e| e["type"] == "player_registered" && &e["player"] == id)
            .map(|e| e["name"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    let closed = &entries.last().expect("entries")["entry"];
    assert_eq!(closed["type"], "event_closed", "{closed}");
    let rr = ["sb", "wins", "direct", "fouls", "black_games"];
    for id in ["junior", "child_a", "child_b"] {
        let section = section_of(&export, id);
        assert_ne!(section["system"], "swiss", "{id} plays a round robin");
        let listed: Vec<&str> = section["tiebreaks"]
            .as_array()
            .expect("tiebreaks")
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        assert_eq!(listed, rr, "{id}: export.json tie-break list");
        let rows = same_as_export(out, &event, id);
        for r in &rows {
            let keys: Vec<&str> = r["tiebreaks"]
                .as_object()
                .expect("tiebreak values")
                .keys()
                .map(String::as_str)
                .collect();
            assert!(keys.contains(&"sb"), "{id}: {r}");
            assert!(!keys.contains(&"opp_score"), "{id}: {r}");
        }
        // Equal points are separated by 小分 first.
        for w in rows.windows(2) {
            if w[0]["points"] == w[1]["points"] {
                let sb = |r: &serde_json::Value| r["tiebreaks"]["sb"].as_f64().unwrap_or(-1.0);
                assert!(sb(&w[0]) >= sb(&w[1]), "{id}: {} before {}", w[0], w[1]);
            }
        }
        // The text table heads its columns 小分 …, with no 对手分.
        let text = ok(&["standings", "--db", &db, "--event", &event, "--section", id]);
        let head = text.lines().next().unwrap_or_default();
        assert!(head.contains("小分") && head.contains("直胜"), "{head}");
        assert!(!head.contains("对手分"), "{head}");
        // The final standings fixed at the closing are the same order.
        let fixed: Vec<String> = closed["standings"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["section"] == id))
            .and_then(|s| s["places"].as_array())
            .expect("closed places")
            .iter()
            .map(|p| name_of(&p[1]))
            .collect();
        let shown: Vec<String> = rows
            .iter()
            .map(|r| r["name"].as_str().unwrap_or_default().to_string())
            .collect();
        assert_eq!(fixed, shown, "{id}: event_closed");
    }
    // The Swiss sections keep 对手分.
    let open = same_as_export(out, &event, "open");
    assert!(open.iter().all(|r| r["tiebreaks"]["opp_score"].is_number()));
    // The prize list follows the round-robin ranking: child_a's first place is its rank 1.
    let prizes = ok(&["prizes", "--db", &db, "--event", &event]);
    let first = same_as_export(out, &event, "child_a")[0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let line = prizes
        .lines()
        .find(|l| l.starts_with("儿童甲组\t") && l.contains("第1名") && l.contains(&first));
    assert!(line.is_some(), "{first} not first of child_a in\n{prizes}");
}
