//! `event export --format xlsx|csv`: a simulated event (Kunshan 2026: Swiss, teams, a
//! knockout stage, prizes) exported as one workbook and as CSV files, re-read with a
//! spreadsheet reader (calamine): the standings, with every tie-break column, are those of the
//! JSON export; ID numbers appear only in the organiser's export.

use crate::common;

use arbiter_store::{EventStore, SqliteStore};
use calamine::{Data, Reader};
use common::*;
use serde_json::Value;
use std::path::Path;

fn number(d: &Data) -> Option<f64> {
    match d {
        Data::Int(i) => Some(*i as f64),
        Data::Float(f) => Some(*f),
        _ => None,
    }
}

fn json_number(v: &Value) -> f64 {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn the_workbook_gives_back_the_standings_of_the_json_export() {
    let sim = kunshan_40_12();
    let x = sim.out.join("kunshan.xlsx");
    let o = ok(&[
        "event",
        "export",
        &sim.id,
        "--format",
        "xlsx",
        "--out",
        x.to_str().unwrap(),
        "--db",
        &sim.db,
    ]);
    assert!(o.contains("kunshan.xlsx"), "{o}");
    let export: Value = serde_json::from_str(&ok(&[
        "event", "export", &sim.id, "--format", "json", "--db", &sim.db,
    ]))
    .unwrap();
    let mut book = calamine::open_workbook_auto(&x).unwrap();
    let names = book.sheet_names();
    for want in [
        "checkin-men",
        "pairings-men-1",
        "pairings-men-9",
        "results-men-9",
        "standings-men",
        "standings-women",
        "crosstable-men",
        "prizes",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    assert!(
        names.iter().any(|n| n.starts_with("teams-men")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n.starts_with("bracket-women")),
        "{names:?}"
    );

    // Standings: every row and every tie-break column equal the JSON export's.
    let state = SqliteStore::open(&sim.db)
        .unwrap()
        .state(&arbiter_store::EventId(sim.id.clone()))
        .unwrap();
    let mut compared = 0;
    for sec in export["sections"].as_array().unwrap() {
        let sid = sec["id"].as_str().unwrap();
        let doc = arbiter_report::build(
            &state,
            arbiter_report::DocKind::Standings,
            &arbiter_report::Options {
                section: Some(sid.to_string()),
                round: None,
                privacy: arbiter_report::Privacy::Published,
                lang: arbiter_report::Lang::Zh,
                ..Default::default()
            },
        )
        .unwrap();
        let model = doc
            .tables()
            .into_iter()
            .find(|t| t.id == format!("standings-{sid}"))
            .unwrap()
            .clone();
        let sheet = book.worksheet_range(&format!("standings-{sid}")).unwrap();
        let rows: Vec<&[Data]> = sheet.rows().collect();
        // Row 1: caption; row 2: the headers; then one row per player.
        let headers: Vec<String> = rows[1].iter().map(|c| c.to_string()).collect();
        let want_headers: Vec<&str> = model.columns.iter().map(|c| c.header.as_str()).collect();
        assert_eq!(headers, want_headers);
        let json = sec["standings"].as_array().unwrap();
        assert!(!json.is_empty());
        assert_eq!(rows.len() - 2, json.len(), "{sid}: one row per standing");
        let col = |k: &str| model.column(k).unwrap_or_else(|| panic!("{k}"));
        let tbs: Vec<(usize, String)> = model
            .columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.key.strip_prefix("tb:").map(|n| (i, n.to_string())))
            .collect();
        assert!(!tbs.is_empty(), "{sid}: tie-break columns");
        for (row, j) in rows[2..].iter().zip(json) {
            assert_eq!(number(&row[col("rank")]), Some(json_number(&j["rank"])));
            assert_eq!(number(&row[col("no")]), Some(json_number(&j["no"])));
            assert_eq!(number(&row[col("points")]), Some(json_number(&j["points"])));
            for (i, name) in &tbs {
                let v = &j["tiebreaks"][name];
                assert!(!v.is_null(), "{sid}: tie-break {name} in the JSON export");
                assert_eq!(number(&row[*i]), Some(json_number(v)), "{sid} {name}");
                compared += 1;
            }
        }
    }
    assert!(compared > 40, "{compared}");
}

/// The ID number of every registered player.
fn id_numbers(sim: &Simulated) -> Vec<String> {
    let log: Value =
        serde_json::from_str(&ok(&["event", "export", &sim.id, "--db", &sim.db])).unwrap();
    entries_of_kind(&log, "player_registered")
        .iter()
        .filter_map(|e| e["id_number"].as_str().map(str::to_string))
        .collect()
}

fn all_text(path: &Path) -> String {
    let mut book = calamine::open_workbook_auto(path).unwrap();
    let mut s = String::new();
    for n in book.sheet_names() {
        let r = book.worksheet_range(&n).unwrap();
        for row in r.rows() {
            for c in row {
                s.push_str(&c.to_string());
                s.push('\t');
            }
            s.push('\n');
        }
    }
    s
}

#[test]
fn personal_data_only_for_the_organiser_and_csv_per_table() {
    let sim = kunshan_40_12();
    let ids = id_numbers(&sim);
    assert!(!ids.is_empty(), "the simulated entries carry ID numbers");
    let public = sim.out.join("public.xlsx");
    let own = sim.out.join("own.xlsx");
    for (f, extra) in [(&public, None), (&own, Some("--organiser"))] {
        let mut args = vec![
            "event", "export", &sim.id, "--format", "xlsx", "--doc", "checkin", "--out",
        ];
        args.push(f.to_str().unwrap());
        args.extend(["--db", &sim.db]);
        args.extend(extra);
        ok(&args);
    }
    let p = all_text(&public);
    let o = all_text(&own);
    assert!(ids.iter().all(|i| !p.contains(i.as_str())), "masked: {p}");
    assert!(
        ids.iter().all(|i| o.contains(i.as_str())),
        "organiser's copy"
    );

    // CSV: one file per table, UTF-8 with BOM, the header row then the rows.
    let dir = sim.out.join("csv");
    ok(&[
        "event",
        "export",
        &sim.id,
        "--format",
        "csv",
        "--doc",
        "standings",
        "--section",
        "men",
        "--out",
        dir.to_str().unwrap(),
        "--db",
        &sim.db,
    ]);
    let bytes = std::fs::read(dir.join("standings-men.csv")).unwrap();
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"));
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let export: Value = serde_json::from_str(&ok(&[
        "event", "export", &sim.id, "--format", "json", "--db", &sim.db,
    ]))
    .unwrap();
    let men = export["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "men")
        .unwrap();
    assert_eq!(
        text.lines().count(),
        1 + men["standings"].as_array().unwrap().len()
    );
    // Bad requests: unknown section, xlsx without --out.
    let o = run(&[
        "event",
        "export",
        &sim.id,
        "--format",
        "xlsx",
        "--section",
        "mne",
        "--out",
        "x.xlsx",
        "--db",
        &sim.db,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("mne"));
    let o = run(&[
        "event", "export", &sim.id, "--format", "xlsx", "--db", &sim.db,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
}

#[test]
fn a_team_match_event_exports_its_team_standings_once_and_every_match_board_by_board() {
    let sim = Simulated::new("pudong-2014-clubs", 1, &[]);
    let dir = sim.out.join("csv");
    ok(&[
        "event",
        "export",
        &sim.id,
        "--format",
        "csv",
        "--out",
        dir.to_str().unwrap(),
        "--db",
        &sim.db,
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.contains(&"team-standings-clubs.csv".to_string()),
        "{names:?}"
    );
    assert!(names.iter().all(|n| !n.contains('~')), "{names:?}");
    let bytes = std::fs::read(dir.join("team-matches-clubs.csv")).unwrap();
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("轮次,场次,甲队,乙队,比分,"));
    // A row per board of every match: nine rounds of five matches of eight boards.
    let reg = arbiter_director::regulation_of(&sim.state).unwrap();
    let boards = reg
        .section("clubs")
        .unwrap()
        .team_match
        .as_ref()
        .unwrap()
        .boards;
    let matches: usize = sim
        .state
        .section("clubs")
        .unwrap()
        .matches
        .values()
        .map(|r| r.matches.len())
        .sum();
    assert_eq!(lines.count(), matches * boards as usize);

    // The workbook holds both sheets; the standings' 场分 are numbers.
    let x = sim.out.join("clubs.xlsx");
    ok(&[
        "event",
        "export",
        &sim.id,
        "--format",
        "xlsx",
        "--out",
        x.to_str().unwrap(),
        "--db",
        &sim.db,
    ]);
    let mut book = calamine::open_workbook_auto(&x).unwrap();
    let names = book.sheet_names();
    assert!(names.iter().any(|n| n == "team-matches-clubs"), "{names:?}");
    assert_eq!(
        names
            .iter()
            .filter(|n| n.starts_with("team-standings"))
            .count(),
        1,
        "{names:?}"
    );
    let t = arbiter_director::team_match::standings(&reg, &sim.state, "clubs").unwrap();
    let sheet = book.worksheet_range("team-standings-clubs").unwrap();
    let rows: Vec<&[Data]> = sheet.rows().collect();
    assert_eq!(rows[1][3].to_string(), "场分");
    assert_eq!(rows.len() - 2, t.rows.len());
    for (row, r) in rows[2..].iter().zip(&t.rows) {
        assert_eq!(row[2].to_string(), r.name);
        assert_eq!(
            number(&row[3]).map(|v| v * 2.0),
            Some(r.match_points.halves() as f64)
        );
    }
}
