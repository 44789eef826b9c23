//! `arbiter standings --trf`: table, JSON, tie-break list parsing and exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}

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
    let out = arbiter(&[
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

    let out = arbiter(&[
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
    let out = arbiter(&["standings", "--trf", &trf, "--scoring", "cxa"]);
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
    assert_eq!(text.lines().count(), 7);
    assert!(
        text.lines().nth(1).unwrap_or_default().contains(" A "),
        "{text}"
    );
}

#[test]
fn unknown_names_exit_2_with_a_suggestion() {
    let dir = tempfile::tempdir().expect("tempdir");
    let trf = example_trf(dir.path());
    let out = arbiter(&["standings", "--trf", &trf, "--tiebreaks", "opp_scor,wins"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `opp_score`"), "{err}");
    let out = arbiter(&["standings", "--trf", &trf, "--scoring", "fid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`fide`"));
    let out = arbiter(&["standings", "--trf", &trf, "--tiebreaks", "lots,wins"]);
    assert_eq!(out.status.code(), Some(2));
    let out = arbiter(&[
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
    let out = arbiter(&[
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
    let out = arbiter(&["standings", "--trf", &trf, "--tiebreaks", all, "--json"]);
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
    let out = arbiter(&["standings", "--db", &db, "--event", "e1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("database not found"));
    let out = arbiter(&["standings"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `--db`: the section's list comes from the regulation stored in the event log (Tianshui:
/// 对手分, 胜局, 犯规, 后走局数, 后走胜局, previous_round_rank). Before the draw nobody has a
/// pairing number, so the table is empty.
#[test]
fn db_section_uses_the_regulation_list() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.db").display().to_string();
    let reg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../regulations/tianshui-2024.toml"
    );
    let out = arbiter(&["event", "create", "--regulation", reg, "--db", &db]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = arbiter(&["standings", "--db", &db, "--event", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--section"));
    let out = arbiter(&[
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
    let out = arbiter(&["standings", "--db", &db, "--event", &id, "--section", "opn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `open`"));
}
