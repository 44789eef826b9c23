//! `arbiter bench pairing / standings / simulate` on tiny sizes: exit codes and the shape of
//! the text and JSON output (never the timings themselves).

use crate::common;

use common::*;
use serde_json::Value;

fn ms_field(v: &Value, key: &str) -> f64 {
    let x = v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is a number: {v}"));
    assert!(x >= 0.0, "`{key}` is not negative: {v}");
    x
}

#[test]
fn bench_standings_prints_one_bilingual_line_per_figure() {
    let o = run(&[
        "bench",
        "standings",
        "--players",
        "12",
        "--rounds",
        "3",
        "--seed",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let time = lines
        .iter()
        .find(|l| l.starts_with("名次计算 standings: 12 players × 3 rounds, seed 4"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        time.contains("15 tie-breaks + fallback previous_round_rank"),
        "{time}"
    );
    assert!(time.contains(" ms median of 5"), "{time}");
    let fb = lines
        .iter()
        .find(|l| l.starts_with("后备规则决定 decided by fallback (previous_round_rank): "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(fb.ends_with(" of 12 rows"), "{fb}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("构建对局历史 history built: ")),
        "{out}"
    );
}

#[test]
fn bench_standings_json_has_every_figure() {
    let v = json_line(&run(&[
        "bench",
        "standings",
        "--players",
        "15",
        "--rounds",
        "4",
        "--repeat",
        "3",
        "--json",
    ]));
    assert_eq!(v["bench"], "standings");
    assert_eq!(v["players"], 15);
    assert_eq!(v["rounds"], 4);
    assert_eq!(v["seed"], 1);
    assert_eq!(v["repeat"], 3);
    assert_eq!(v["rows"], 15);
    assert_eq!(v["fallback"], "previous_round_rank");
    assert_eq!(v["tiebreaks"].as_array().map(Vec::len), Some(15));
    let (min, med, max) = (
        ms_field(&v, "min_ms"),
        ms_field(&v, "median_ms"),
        ms_field(&v, "max_ms"),
    );
    assert!(min <= med && med <= max, "{v}");
    ms_field(&v, "history_build_ms");
    let fb = v["decided_by_fallback"].as_u64().expect("a count");
    assert!(fb <= 15, "{v}");
}

#[test]
fn bench_standings_coarse_list_reaches_the_fallback() {
    // With only `wins` most ties remain, so previous_round_rank decides some rows.
    let v = json_line(&run(&[
        "bench",
        "standings",
        "--players",
        "40",
        "--rounds",
        "4",
        "--tiebreaks",
        "wins,previous_round_rank",
        "--json",
    ]));
    assert_eq!(v["tiebreaks"], serde_json::json!(["wins"]));
    assert_eq!(v["fallback"], "previous_round_rank");
    let fb = v["decided_by_fallback"].as_u64().expect("a count");
    assert!(fb > 0 && fb <= 40, "{v}");
    // Without a fallback, nothing is decided by one.
    let v = json_line(&run(&[
        "bench",
        "standings",
        "--players",
        "40",
        "--rounds",
        "4",
        "--tiebreaks",
        "wins",
        "--json",
    ]));
    assert_eq!(v["fallback"], Value::Null);
    assert_eq!(v["decided_by_fallback"], 0);
}

#[test]
fn bench_standings_invalid_input_gives_exit_2() {
    let o = run(&["bench", "standings", "--players", "0", "--rounds", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--players"), "{}", stderr(&o));
    let o = run(&[
        "bench",
        "standings",
        "--players",
        "8",
        "--rounds",
        "2",
        "--tiebreaks",
        "wins,buchholz_cutt1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("第2项"), "{}", stderr(&o));
    assert!(stderr(&o).contains("buchholz_cut1"), "{}", stderr(&o));
    let o = run(&[
        "bench",
        "standings",
        "--players",
        "8",
        "--rounds",
        "2",
        "--tiebreaks",
        "lots,wins",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("must come last"), "{}", stderr(&o));
}

#[test]
fn bench_simulate_prints_memory_sqlite_and_publish_lines() {
    let reg = regulation("tianshui-2024");
    let o = run(&[
        "bench",
        "simulate",
        "--regulation",
        &reg,
        "--players",
        "24",
        "--seed",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("赛事 event: tianshui-2024.toml, seed 2: ")),
        "{out}"
    );
    for prefix in [
        "模拟(内存) simulate in memory: ",
        "模拟(SQLite 临时目录) simulate with SQLite in a temp dir: ",
        "存储开销 storage cost: ",
        "发布 publish (standings, prizes, export JSON): ",
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line `{prefix}…` in:\n{out}"));
        assert!(line.contains(" ms"), "{line}");
    }
    // Both variants record the same log.
    let entries: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("模拟"))
        .map(|l| {
            l.split(", ")
                .find(|p| p.ends_with(" log entries"))
                .unwrap_or_else(|| panic!("{l}"))
        })
        .collect();
    assert_eq!(entries.len(), 2, "{out}");
    assert_eq!(entries[0], entries[1], "{out}");
}

#[test]
fn bench_simulate_json_has_both_variants_with_the_same_log() {
    let reg = regulation("tianshui-2024");
    let v = json_line(&run(&[
        "bench",
        "simulate",
        "--regulation",
        &reg,
        "--players",
        "open=24",
        "--players",
        "local=0",
        "--json",
    ]));
    assert_eq!(v["bench"], "simulate");
    assert_eq!(v["regulation"], "tianshui-2024.toml");
    assert_eq!(v["seed"], 1);
    assert_eq!(v["repeat"], 1);
    assert_eq!(v["sections"]["local"], 0);
    let open = v["sections"]["open"].as_u64().expect("open section size");
    assert!(open > 0 && open <= 24, "{v}");
    let entries = v["entries"].as_u64().expect("entries");
    assert!(entries > 0, "{v}");
    for variant in ["memory", "sqlite"] {
        let x = &v[variant];
        assert_eq!(x["entries"].as_u64(), Some(entries), "{v}");
        ms_field(x, "wall_ms");
        assert!(x["entries_per_s"].as_u64().is_some(), "{v}");
    }
    assert!(v["sqlite"]["db_bytes"].as_u64().unwrap_or(0) > 0, "{v}");
    ms_field(&v, "storage_cost_ms");
    assert!(v["storage_cost_pct"].as_f64().is_some(), "{v}");
    ms_field(&v, "publish_ms");
    assert!(v["export_bytes"].as_u64().unwrap_or(0) > 0, "{v}");
}

#[test]
fn bench_simulate_bad_input_and_a_field_too_small_for_its_rounds() {
    let reg = regulation("tianshui-2024");
    let o = run(&[
        "bench",
        "simulate",
        "--regulation",
        &reg,
        "--players",
        "opn=20",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("did you mean 「open」"),
        "{}",
        stderr(&o)
    );
    let o = run(&["bench", "simulate", "--regulation", "no-such-file.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("no-such-file.toml"), "{}", stderr(&o));
    // 10 players cannot play the open section's 11 Swiss rounds without rematches: H1
    // relaxes where no pairing keeps it (A2 as amended), and the event runs to its end.
    let o = run(&["bench", "simulate", "--regulation", &reg, "--players", "10"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("模拟(内存)"), "{}", stdout(&o));
}

#[test]
fn bench_pairing_text_and_json() {
    let o = run(&["bench", "pairing", "--players", "20", "--round", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with("编排 pairing: 20 players, round 2, seed 1: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.ends_with(" ms (10 boards)"), "{line}");
    assert!(
        out.lines()
            .any(|l| l == "最优性 optimality: 已证明 proven (dual certificate, C0–C5)"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("同分组内次序 tie-break: 精确最小 minimized exactly (total ")),
        "{out}"
    );
    let v = json_line(&run(&[
        "bench",
        "pairing",
        "--players",
        "21",
        "--round",
        "3",
        "--seed",
        "5",
        "--json",
    ]));
    assert_eq!(v["bench"], "pairing");
    assert_eq!(v["players"], 21);
    assert_eq!(v["round"], 3);
    assert_eq!(v["seed"], 5);
    let boards = v["boards"].as_u64().expect("boards");
    assert!(boards > 0 && boards <= 10, "{v}");
    ms_field(&v, "pair_ms");
    ms_field(&v, "state_build_ms");
    assert_eq!(v["certified_optimal"], true, "{v}");
    assert_eq!(v["tie_break"], "exact", "{v}");
    assert!(v["tie_exchanges"].is_null(), "{v}");
    assert!(v["tie_total"].as_u64().is_some(), "{v}");
    // Round 1 is a fixed scheme: no optimality claim either way.
    let r1 = json_line(&run(&[
        "bench",
        "pairing",
        "--players",
        "9",
        "--round",
        "1",
        "--json",
    ]));
    assert!(r1["certified_optimal"].is_null(), "{r1}");
    assert!(r1["tie_break"].is_null(), "{r1}");
}
