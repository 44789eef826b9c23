//! `arbiter knockout show` on a simulated Kunshan event (K6, K7): the women's placement
//! bracket rebuilt from the log, as text and as JSON; clear errors otherwise.

use crate::common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// Simulate Kunshan (20 men, 12 women) into `out`; the event id of the database.
fn kunshan(out: &Path) -> String {
    simulate_into(
        "kunshan-2026",
        1,
        out,
        &["--players", "men=20", "--players", "women=12"],
    );
    let db = out.join("arbiter.db");
    let o = run(&["event", "list", "--db", db.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn kunshan_women_bracket_shows_every_placement_match_and_8_places() {
    let dir = tempfile::tempdir().unwrap();
    let ev = kunshan(dir.path());
    let db = dir.path().join("arbiter.db");
    let db = db.to_str().unwrap();

    let o = run(&[
        "knockout",
        "show",
        "--db",
        db,
        "--event",
        &ev,
        "--section",
        "women",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for label in [
        "决赛",
        "三四名",
        "五六名",
        "七八名",
        "四分之一决赛",
        "半决赛",
    ] {
        assert!(
            out.contains(&format!(" {label}: ")),
            "{label} missing:\n{out}"
        );
    }
    for place in 1..=8 {
        assert!(
            out.contains(&format!("第{place}名 ")),
            "place {place}:\n{out}"
        );
    }
    assert!(!out.contains("第9名"), "{out}");
    assert!(!out.contains("待定") && !out.contains("进行中"), "{out}");

    let o = run(&[
        "knockout",
        "show",
        "--db",
        db,
        "--event",
        &ev,
        "--section",
        "women",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let matches = v["matches"].as_array().unwrap();
    let labels: Vec<&str> = matches
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    for label in ["决赛", "三四名", "五六名", "七八名"] {
        assert_eq!(
            labels.iter().filter(|l| **l == label).count(),
            1,
            "{labels:?}"
        );
    }
    assert_eq!(
        matches.len(),
        12,
        "8-player placement bracket: 4 + 4 + 4 matches"
    );
    for m in matches {
        assert_eq!(m["finished"], true, "{m}");
        let games = m["games"].as_array().unwrap();
        assert!(!games.is_empty(), "every match decided by games: {m}");
        let players: Vec<u64> = m["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["no"].as_u64().unwrap())
            .collect();
        let winner = m["winner"]["no"].as_u64().unwrap();
        assert!(players.contains(&winner), "{m}");
        for g in games {
            assert!(
                ["slow", "rapid", "blitz", "armageddon"].contains(&g["kind"].as_str().unwrap()),
                "{g}"
            );
            let (r, b) = (g["red"].as_u64().unwrap(), g["black"].as_u64().unwrap());
            assert!(
                players.contains(&r) && players.contains(&b) && r != b,
                "{g}"
            );
            assert!(g["result"].is_string(), "{g}");
        }
    }
    let places = v["places"].as_array().unwrap();
    let got: Vec<u64> = places
        .iter()
        .map(|p| p["place"].as_u64().unwrap())
        .collect();
    assert_eq!(got, (1..=8).collect::<Vec<u64>>());
    let mut nos: Vec<u64> = places.iter().map(|p| p["no"].as_u64().unwrap()).collect();
    nos.sort_unstable();
    let mut seeds: Vec<u64> = v["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    seeds.sort_unstable();
    assert_eq!(nos, seeds, "the 8 places go to the 8 seeds");
    assert!(places.iter().all(|p| p["name"].is_string()));
    // The final's winner is first.
    let f = matches.iter().find(|m| m["label"] == "决赛").unwrap();
    assert_eq!(f["winner"]["no"], places[0]["no"]);

    // A section without a knockout, an unknown section, an unknown event.
    for (section, event, needle) in [
        ("men", ev.as_str(), "没有淘汰赛阶段"),
        ("wmen", ev.as_str(), "unknown section"),
        ("women", "ev-99999999", "unknown event"),
    ] {
        let o = run(&[
            "knockout",
            "show",
            "--db",
            db,
            "--event",
            event,
            "--section",
            section,
        ]);
        assert_eq!(o.status.code(), Some(2), "{section}");
        assert!(
            text(&o.stderr).contains(needle),
            "{section}: {}",
            text(&o.stderr)
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn missing_database_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.db");
    let o = run(&[
        "knockout",
        "show",
        "--db",
        db.to_str().unwrap(),
        "--event",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("数据库不存在"),
        "{}",
        text(&o.stderr)
    );
}
