//! `arbiter simulate` on the four reference regulations with seeds 1, 2, 3: every run
//! succeeds, its log verifies (replay + recomputation, compared with export.json), every
//! export.json validates against the JSON Schema, and the features each event is known for
//! show in the published data (S4, S5, K11, K13, T2, K6).

use crate::common;

use arbiter_core::{EventState, LogEntry};
use arbiter_store::{EventStore, SqliteStore};
use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const EVENTS: [&str; 4] = [
    "kunshan-2026",
    "suzhou-2025",
    "jiujiang-2020",
    "tianshui-2024",
];

fn schema() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(root().join("docs/formats/export-json.schema.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&v).unwrap()
}

/// Replays the database's log, recomputes everything and compares with export.json.
fn verify_db(out: &Path) -> Vec<String> {
    let store = SqliteStore::open(out.join("arbiter.db")).unwrap();
    let events = store.list_events().unwrap();
    assert_eq!(events.len(), 1);
    let log = store.read(&events[0].id).unwrap();
    let published: arbiter_director::Export =
        serde_json::from_str(&std::fs::read_to_string(out.join("export.json")).unwrap()).unwrap();
    arbiter_director::verify(&log, Some(&published))
        .iter()
        .map(|d| d.to_string())
        .collect()
}

fn not_paired(s: &Value) -> usize {
    s["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "not_paired")
        .count()
}

#[test]
fn four_events_three_seeds_simulate_verify_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let validator = schema();
    let mut jobs = Vec::new();
    for stem in EVENTS {
        let base = dir.path().to_path_buf();
        jobs.push(std::thread::spawn(move || {
            for seed in 1..=3u64 {
                let out = base.join(format!("{stem}-{seed}"));
                let summary = simulate_into(stem, seed, &out, &[]);
                assert!(summary.contains("冠军"), "{summary}");
                assert!(out.join("arbiter.db").exists() && out.join("export.json").exists());
                let diffs = verify_db(&out);
                assert!(
                    diffs.is_empty(),
                    "{stem} seed {seed}:\n{}",
                    diffs.join("\n")
                );
            }
        }));
    }
    for j in jobs {
        j.join().unwrap();
    }
    for stem in EVENTS {
        for seed in 1..=3u64 {
            let out = dir.path().join(format!("{stem}-{seed}"));
            let ex = export_json(&out);
            let errors: Vec<String> = validator
                .iter_errors(&ex)
                .map(|e| format!("{} at {}", e, e.instance_path))
                .collect();
            assert!(errors.is_empty(), "{stem} seed {seed}: {errors:?}");
            // One TRF file per Swiss section.
            for s in ex["sections"].as_array().unwrap() {
                let swiss = s["system"] == "swiss" || s["system"] == "swiss_then_knockout";
                let trf = out.join(format!("{}.trf", s["id"].as_str().unwrap()));
                assert_eq!(trf.exists(), swiss, "{stem}: {}", trf.display());
                if swiss {
                    // The TRF file reads back: same players, points and Swiss rounds.
                    let text = std::fs::read_to_string(&trf).unwrap();
                    let t = arbiter_trf::parse(&text, &trf.display().to_string()).unwrap();
                    assert_eq!(
                        t.players.len(),
                        s["players"].as_array().unwrap().len() - not_paired(s)
                    );
                    let swiss_rounds = s["rounds"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|r| r["stage"] == "swiss")
                        .count();
                    assert_eq!(t.rounds_played as usize, swiss_rounds, "{stem}/{}", s["id"]);
                }
            }
        }
    }
    // A renamed contract field is caught by the schema.
    let mut ex = export_json(&dir.path().join("kunshan-2026-1"));
    let s0 = ex["sections"][0].as_object_mut().unwrap();
    let v = s0.remove("rounds_planned").unwrap();
    s0.insert("rounds_plan".into(), v);
    assert!(!validator.is_valid(&ex));
}

#[test]
fn suzhou_sections_by_entries_and_5_2_3_0() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into("suzhou-2025", 2, dir.path(), &[]);
    let ex = export_json(dir.path());
    let systems: Vec<(&str, &str, usize)> = ex["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap(),
                s["system"].as_str().unwrap(),
                s["standings"].as_array().unwrap().len(),
            )
        })
        .collect();
    // S4: fewer than 8 → single round robin, fewer than 5 → double; 8 or more → Swiss.
    for (id, system, n) in &systems {
        let want = if *n < 5 {
            "double_round_robin"
        } else if *n < 8 {
            "round_robin"
        } else {
            "swiss"
        };
        assert_eq!(system, &want, "{id} with {n} players");
    }
    assert!(systems.iter().any(|s| s.1 == "round_robin"), "{systems:?}");
    assert!(
        systems.iter().any(|s| s.1 == "double_round_robin"),
        "{systems:?}"
    );
    assert!(systems.iter().any(|s| s.1 == "swiss"), "{systems:?}");
    for s in ex["sections"].as_array().unwrap() {
        let sc = &s["scoring"];
        assert_eq!(
            (
                sc["win"].as_i64(),
                sc["draw_red"].as_i64(),
                sc["draw_black"].as_i64(),
                sc["loss"].as_i64()
            ),
            (Some(5), Some(2), Some(3), Some(0))
        );
        if s["system"] == "double_round_robin" {
            let n = s["standings"].as_array().unwrap().len() as u64;
            let rounds = s["rounds"].as_array().unwrap().len() as u64;
            assert_eq!(rounds, 2 * (n - 1 + n % 2), "{}", s["id"]);
        }
    }
    // A black draw scores 3 and a red draw 2 in the published points.
    let open = section_of(&ex, "open");
    assert!(open["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .any(|g| g["result"] == "draw"));
    // S9: the association standings are published.
    assert!(ex["associations"].as_array().is_some());
}

#[test]
fn kunshan_lucky_prizes_and_two_team_divisions() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into("kunshan-2026", 3, dir.path(), &[]);
    let ex = export_json(dir.path());
    let men = section_of(&ex, "men");
    assert!(men["standings"].as_array().unwrap().len() >= 128);
    let lucky: Vec<&Value> = ex["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "lucky")
        .collect();
    assert_eq!(lucky.len(), 8, "K13: 8 lucky prizes");
    let mut ranks: Vec<i64> = lucky.iter().map(|p| p["rank"].as_i64().unwrap()).collect();
    ranks.sort();
    assert!(ranks.iter().all(|r| *r >= 55), "{ranks:?}");
    // One award per person: nobody is awarded twice in the men's section.
    let mut nos: Vec<i64> = ex["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["section"] == "men" && p["kind"] != "team" && p["kind"] != "title")
        .filter_map(|p| p["no"].as_i64())
        .collect();
    let n = nos.len();
    nos.sort();
    nos.dedup();
    assert_eq!(nos.len(), n, "a player received two awards");
    // K11: 甲组 and 乙组 ranked separately, each from rank 1.
    let divisions: Vec<&str> = ex["teams"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["section"] == "men")
        .map(|t| t["division"].as_str().unwrap())
        .collect();
    assert_eq!(divisions, vec!["甲组", "乙组"]);
    for t in ex["teams"].as_array().unwrap() {
        let rows = t["standings"].as_array().unwrap();
        assert_eq!(rows[0]["rank"], 1);
        // Team names are clean: no division written into the name, no doubled 队.
        for r in rows {
            let name = r["team"].as_str().unwrap();
            assert!(!name.contains('（') && !name.contains("组"), "{name}");
            assert!(!name.contains("队队"), "{name}");
        }
        for r in rows {
            assert_eq!(r["counted_ranks"].as_array().unwrap().len(), 3);
        }
    }
    let team_prizes = ex["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "team")
        .count();
    assert_eq!(team_prizes, 16, "K13: team 1–8 in each division");
}

/// Final places 1..k of a two-stage section come from the knockout, the rest from the Swiss.
fn check_two_stage(ex: &Value, id: &str, swiss_rounds: i64, ko_rounds: i64, continuing: bool) {
    let s = section_of(ex, id);
    assert_eq!(s["system"], "swiss_then_knockout");
    let st = s["standings"].as_array().unwrap();
    for (i, row) in st.iter().enumerate().take(8) {
        assert_eq!(row["rank"], i as i64 + 1);
        if i > 0 {
            assert_eq!(row["decided_by"], "knockout", "{id} place {}", i + 1);
        }
    }
    assert_eq!(
        st[8]["decided_by"], "knockout",
        "{id}: place 9 is the first of the Swiss"
    );
    let ko_players: Vec<i64> = st
        .iter()
        .take(8)
        .map(|r| r["no"].as_i64().unwrap())
        .collect();
    let rounds = s["rounds"].as_array().unwrap();
    // Every knockout player plays in every knockout round: places decided by games.
    for r in 1..=ko_rounds {
        let round = swiss_rounds + r;
        let ko = rounds
            .iter()
            .find(|x| x["round"] == round && x["stage"] == "knockout")
            .unwrap_or_else(|| panic!("{id}: knockout round {round}"));
        for p in &ko_players {
            assert!(
                ko["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|g| g["red"] == *p || g["black"] == *p),
                "{id}: {p} idle in round {round}"
            );
            for g in ko["games"].as_array().unwrap() {
                assert!(g["match"].is_string() && g["game_kind"].is_string());
            }
        }
        let swiss = rounds
            .iter()
            .find(|x| x["round"] == round && x["stage"] == "swiss");
        assert_eq!(swiss.is_some(), continuing, "{id} round {round}");
        if let Some(sw) = swiss {
            for g in sw["games"].as_array().unwrap() {
                assert!(
                    !ko_players.contains(&g["red"].as_i64().unwrap())
                        && !ko_players.contains(&g["black"].as_i64().unwrap())
                );
            }
        }
    }
    // No rematch in the Swiss stage (T2).
    let mut pairs = std::collections::BTreeSet::new();
    for r in rounds.iter().filter(|r| r["stage"] == "swiss") {
        for g in r["games"].as_array().unwrap() {
            let (a, b) = (g["red"].as_i64().unwrap(), g["black"].as_i64().unwrap());
            assert!(pairs.insert((a.min(b), a.max(b))), "{id}: rematch {a}-{b}");
        }
    }
}

#[test]
fn tianshui_160_players_knockout_places_and_continuing_swiss() {
    let dir = tempfile::tempdir().unwrap();
    // The event's cap (T7) is 160: here all of it in the open section.
    simulate_into(
        "tianshui-2024",
        1,
        dir.path(),
        &["--players", "open=160", "--players", "local=0"],
    );
    let ex = export_json(dir.path());
    let open = section_of(&ex, "open");
    assert_eq!(open["rounds_planned"], 11);
    let paired = open["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] != "not_paired")
        .count();
    assert_eq!(open["standings"].as_array().unwrap().len(), paired);
    assert_eq!(
        open["players"].as_array().unwrap().len(),
        160,
        "T7: the cap of 160"
    );
    check_two_stage(&ex, "open", 8, 3, true);
    // Places 9.. follow the continuing Swiss after round 11: non-increasing points.
    let st = open["standings"].as_array().unwrap();
    for w in st[8..].windows(2) {
        assert!(w[0]["points"].as_f64() >= w[1]["points"].as_f64());
    }
    assert!(open["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["round"] == 11 && r["stage"] == "swiss"));
    // T7: unpaid players are listed but never paired.
    assert!(open["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["status"] == "not_paired"));
    assert!(verify_db(dir.path()).is_empty());
}

#[test]
fn kunshan_women_shape_five_swiss_rounds_then_placement_bracket() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into(
        "kunshan-2026",
        2,
        dir.path(),
        &["--players", "men=20", "--players", "women=14"],
    );
    let ex = export_json(dir.path());
    let w = section_of(&ex, "women");
    assert_eq!(w["rounds_planned"], 8);
    check_two_stage(&ex, "women", 5, 3, false);
    assert!(verify_db(dir.path()).is_empty());
}

#[test]
fn export_holds_no_id_numbers_or_phones() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into("jiujiang-2020", 1, dir.path(), &["--players", "12"]);
    let text = std::fs::read_to_string(dir.path().join("export.json")).unwrap();
    let store = SqliteStore::open(dir.path().join("arbiter.db")).unwrap();
    let ev = &store.list_events().unwrap()[0];
    let log = store.read(&ev.id).unwrap();
    let state = EventState::replay(&log).unwrap();
    let mut checked = 0;
    for r in &log {
        if let LogEntry::PlayerRegistered(p) = &r.entry {
            let id = p.person.id_number.as_ref().unwrap();
            let phone = p.person.phone.as_ref().unwrap();
            assert!(!text.contains(id.as_str()) && !text.contains(phone.as_str()));
            assert!(
                !text.contains(&id.as_str()[6..14]),
                "birth date digits of an ID number"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, state.players.len());
    assert!(checked >= 24);
    for key in ["id_number", "phone", "身份证"] {
        assert!(!text.contains(key), "{key}");
    }
}

#[test]
fn existing_database_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    simulate_into("jiujiang-2020", 1, dir.path(), &["--players", "10"]);
    let o = simulate_command("jiujiang-2020", 2, dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("已存在"));
    simulate_into(
        "jiujiang-2020",
        2,
        dir.path(),
        &["--players", "16", "--force"],
    );
    assert!(verify_db(dir.path()).is_empty());
    let bad = Command::new(BIN)
        .args(["simulate", "--regulation"])
        .arg(regulation("jiujiang-2020"))
        .args(["--out"])
        .arg(dir.path().join("x"))
        .args(["--players", "senoir=5"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("senior"));
}

/// Real regulations beyond the four reference events (issue 31), each from a public source
/// cited in its header: simulated with two seeds, the log verified, export.json valid.
const MORE_EVENTS: [&str; 11] = [
    "xilian-2009",
    "ziyousai-knockout",
    "kaiping-lougang-2017",
    "shenzhen-2007-juniors",
    "shanghai-cup-women",
    "shanghai-cup-men",
    "national-2025-individual",
    "zhouzhuang-2015-taipei",
    "fengwei-2016-school",
    "qingdao-2009-juniors",
    "national-youth-2020",
];

#[test]
fn more_real_regulations_simulate_verify_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let validator = schema();
    for stem in MORE_EVENTS {
        let o = Command::new(BIN)
            .args(["regulation", "check"])
            .arg(regulation(stem))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{stem}: {}", stderr(&o));
        for seed in 1..=2u64 {
            let out = dir.path().join(format!("{stem}-{seed}"));
            let summary = simulate_into(stem, seed, &out, &[]);
            assert!(summary.contains("冠军"), "{summary}");
            let diffs = verify_db(&out);
            assert!(
                diffs.is_empty(),
                "{stem} seed {seed}:\n{}",
                diffs.join("\n")
            );
            let ex = export_json(&out);
            let errors: Vec<String> = validator
                .iter_errors(&ex)
                .map(|e| format!("{} at {}", e, e.instance_path))
                .collect();
            assert!(errors.is_empty(), "{stem} seed {seed}: {errors:?}");
        }
    }
    // 西联 2009: nine Swiss rounds; teams ranked by their three players' places, 1–6 recognised;
    // sixteen individual prizes.
    let ex = export_json(&dir.path().join("xilian-2009-1"));
    let s = section_of(&ex, "individual");
    assert_eq!(s["rounds"].as_array().unwrap().len(), 9);
    let teams = ex["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 1);
    for r in teams[0]["standings"].as_array().unwrap() {
        assert_eq!(r["counted_ranks"].as_array().unwrap().len(), 3);
    }
    let count = |kind: &str| {
        ex["prizes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["kind"] == kind)
            .count()
    };
    assert_eq!(count("team"), 6, "十、1: 团体录取前六名");
    assert_eq!(count("place"), 16, "十、2: 个人录取前十六名");
    // 个人自由赛: a plain knockout of every entry (16 by default: 4 bracket rounds, no Swiss
    // round), seeded by lot, matches K5 (two 30-minute games, then 15-minute games).
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("ziyousai-knockout-{seed}")));
        let s = section_of(&ex, "open");
        assert_eq!(s["system"], "knockout");
        assert_eq!(s["rounds_planned"], 4);
        assert_eq!(s["rounds"].as_array().unwrap().len(), 4);
        assert_eq!(s["standings"].as_array().unwrap().len(), 16);
    }
    // 开平楼冈 2017: nine Swiss rounds; twelve place prizes, three of them held for the 楼冈
    // players (五), who take at least 500 yuan each.
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("kaiping-lougang-2017-{seed}")));
        let s = section_of(&ex, "adult");
        assert_eq!(s["rounds"].as_array().unwrap().len(), 9);
        let places: Vec<&serde_json::Value> = ex["prizes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["kind"] == "place")
            .collect();
        assert_eq!(places.len(), 12, "五: 奖励前12名");
        let lougang = s["categories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "lougang")
            .unwrap()["standings"]
            .as_array()
            .unwrap();
        for best in lougang.iter().take(3) {
            let won = places
                .iter()
                .find(|p| p["no"] == best["no"])
                .unwrap_or_else(|| panic!("楼冈 {best} holds a reserved place"));
            assert!(won["amount"].as_u64().unwrap() >= 500, "{won}");
        }
    }
    // 深圳少儿 2007: seven groups by age and sex (五、A–G), seven Swiss rounds each (六、1), the
    // first eight of each recognised (七).
    let ex = export_json(&dir.path().join("shenzhen-2007-juniors-1"));
    for id in [
        "boys14", "boys10", "boys9", "boys8", "boys7", "boys6", "girls",
    ] {
        let s = section_of(&ex, id);
        assert_eq!(s["rounds"].as_array().unwrap().len(), 7, "{id}");
        let places = ex["prizes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["section"] == id)
            .count();
        assert_eq!(places, 8, "{id}: 七、各组均录取前八名");
    }
    // 丰圩小学 2016: three groups of six round robins (三、2), the three group winners in a
    // final round robin (三、4) of three rounds, one resting each round; they take places 1–3.
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("fengwei-2016-school-{seed}")));
        let s = section_of(&ex, "pupils");
        assert_eq!(s["system"], "groups");
        assert_eq!(s["rounds_planned"], 8, "5 group rounds and 3 of the final");
        let rounds = s["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), 8);
        let winners: Vec<u64> = s["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["standings"][0]["no"].as_u64().unwrap())
            .collect();
        for r in &rounds[5..] {
            let games = r["games"].as_array().unwrap();
            assert_eq!(games.len(), 1, "{r}");
            assert!(winners.contains(&games[0]["red"].as_u64().unwrap()), "{r}");
            assert!(
                winners.contains(&games[0]["black"].as_u64().unwrap()),
                "{r}"
            );
        }
        let mut top: Vec<u64> = s["standings"].as_array().unwrap()[..3]
            .iter()
            .map(|r| r["no"].as_u64().unwrap())
            .collect();
        top.sort_unstable();
        let mut want = winners.clone();
        want.sort_unstable();
        assert_eq!(top, want, "the finalists first");
        assert_eq!(s["standings"][3]["decided_by"], "final");
    }
    // 2025 全国锦标赛(个人): 32 groups 第1–32组 (第1、2组各3人), numbers 1 and 2 straight into
    // groups 1 and 2, 3–4 into groups 3–4 (二(二)); each group's winner at the knockout's
    // place of his group's number, so group k's winner meets group 33 − k's (二(四)).
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("national-2025-individual-{seed}")));
        let s = section_of(&ex, "men");
        let groups = s["groups"].as_array().unwrap();
        assert_eq!(groups.len(), 32);
        let nos = |g: &serde_json::Value| -> Vec<u64> {
            g["standings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["no"].as_u64().unwrap())
                .collect()
        };
        let mut group_of = std::collections::BTreeMap::new();
        for (i, g) in groups.iter().enumerate() {
            assert_eq!(g["name"], (i + 1).to_string());
            assert_eq!(nos(g).len(), if i < 2 { 3 } else { 4 }, "group {}", i + 1);
            for no in nos(g) {
                group_of.insert(no, i + 1);
            }
        }
        assert_eq!(group_of.len(), 126);
        assert_eq!((group_of[&1], group_of[&2]), (1, 2));
        let mut pot: Vec<usize> = [3, 4].iter().map(|n| group_of[n]).collect();
        pot.sort_unstable();
        assert_eq!(pot, vec![3, 4]);
        let winner_of: std::collections::BTreeMap<u64, usize> = groups
            .iter()
            .enumerate()
            .map(|(i, g)| (nos(g)[0], i + 1))
            .collect();
        let first = &s["rounds"].as_array().unwrap()[3];
        assert_eq!(first["stage"], "knockout");
        let slow: Vec<&serde_json::Value> = first["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["game_kind"] == "slow")
            .collect();
        assert_eq!(slow.len(), 16);
        for g in slow {
            let (r, b) = (g["red"].as_u64().unwrap(), g["black"].as_u64().unwrap());
            assert_eq!(winner_of[&r] + winner_of[&b], 33, "{g}");
        }
    }
    // 周庄杯 台北预赛: eight seeded places for players of 7 dan and above (十二a2), the rest of
    // the numbers by lot; places 1–4 qualify for the final (八1), 5–8 paid 新台币2000 (八2).
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("zhouzhuang-2015-taipei-{seed}")));
        assert_eq!(ex["event"]["prize_currency"], "TWD");
        let s = section_of(&ex, "men");
        let dan = |p: &Value| -> u32 {
            p["grade"]
                .as_str()
                .unwrap()
                .trim_end_matches('段')
                .parse()
                .unwrap()
        };
        let players = s["players"].as_array().unwrap();
        assert_eq!(players.len(), 24);
        let mut by_no: Vec<(u64, u32)> = players
            .iter()
            .map(|p| (p["no"].as_u64().unwrap(), dan(p)))
            .collect();
        by_no.sort_unstable();
        let eligible = by_no.iter().filter(|&&(_, d)| d >= 7).count();
        assert!(eligible > 0, "{by_no:?}");
        let seeds: Vec<u32> = by_no
            .iter()
            .take(eligible.min(8))
            .map(|&(_, d)| d)
            .collect();
        assert!(
            seeds.iter().all(|&d| d >= 7),
            "the seeds are 7 dan or above: {by_no:?}"
        );
        assert!(
            seeds.windows(2).all(|w| w[0] >= w[1]),
            "the seeds by grade, highest first: {seeds:?}"
        );
        let prizes: Vec<&Value> = ex["prizes"].as_array().unwrap().iter().collect();
        assert_eq!(prizes.len(), 4, "{prizes:?}");
        for p in prizes {
            assert_eq!(p["rank"], 5, "{p}");
            assert_eq!(p["amount"], 2000, "{p}");
        }
        assert_eq!(ex["qualified"].as_array().unwrap().len(), 4);
    }
    // 青岛 少年赛 九(二)–(四): each group's places earn grades, a child holding the grade or a
    // higher one listed but not awarded; 戊组 earns none.
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("qingdao-2009-juniors-{seed}")));
        let rows = ex["grade_awards"].as_array().expect("grade_awards");
        let scale = [
            "业余三级棋士",
            "业余二级棋士",
            "业余一级棋士",
            "地方大师",
            "棋协大师",
        ];
        let step = |g: &str| scale.iter().position(|x| *x == g);
        let earned = |sec: &str| -> Vec<(u64, String)> {
            rows.iter()
                .filter(|r| r["section"] == sec)
                .map(|r| {
                    (
                        r["rank"].as_u64().unwrap(),
                        r["grade"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        };
        for sec in ["boys16", "girls16"] {
            let e = earned(sec);
            assert_eq!(e.len(), 8, "{sec}: {e:?}");
            assert_eq!(e[0], (1, "业余一级棋士".to_string()));
            assert!(e[1..4].iter().all(|(_, g)| g == "业余二级棋士"), "{e:?}");
            assert!(e[4..].iter().all(|(_, g)| g == "业余三级棋士"), "{e:?}");
        }
        assert_eq!(earned("boys12").len(), 4);
        assert_eq!(earned("girls10").len(), 1);
        assert!(earned("boys8").is_empty() && earned("girls8").is_empty());
        let mut held_back = 0;
        for r in rows {
            let awarded = r["awarded"].as_bool().unwrap();
            let held = r["held"].as_str().and_then(step);
            let grade = step(r["grade"].as_str().unwrap()).unwrap();
            assert_eq!(awarded, held.is_none_or(|h| h < grade), "{r}");
            held_back += usize::from(!awarded);
        }
        assert!(
            held_back > 0,
            "some child already holds what his place earns"
        );
    }
    // The prize money printed in its currency: the CLI's list and the printed 获奖名单.
    let out = dir.path().join("zhouzhuang-2015-taipei-1");
    let db = out.join("arbiter.db");
    let o = Command::new(BIN)
        .args(["prizes", "--event", "ev-00000001", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        listed.matches("新台币2000元 (NT$2000)").count(),
        4,
        "{listed}"
    );
    assert!(
        listed.contains("奖金合计 (total): 新台币8000元 (NT$8000)"),
        "{listed}"
    );
    let html = out.join("prizes.html");
    let o = Command::new(BIN)
        .args([
            "print",
            "--event",
            "ev-00000001",
            "--doc",
            "prizes",
            "--format",
            "html",
        ])
        .arg("--db")
        .arg(&db)
        .arg("--out")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("奖金(新台币 NT$)"), "{page}");
    assert!(page.contains("奖金合计 新台币8000元 (NT$8000)"), "{page}");
    // 2020 全国青少年象棋冠军赛 十一(二)(三): each U15 group's champion qualifies twice (the
    // World Open's U15 group and the national championship), each U17 group's best three
    // once, each U12 group's champion once — every list from the group's own standings.
    for seed in 1..=2 {
        let ex = export_json(&dir.path().join(format!("national-youth-2020-{seed}")));
        let q = ex["qualified"].as_array().unwrap();
        let of = |section: &str, to: &str| -> Vec<&Value> {
            q.iter()
                .filter(|r| r["section"] == section && r["to"] == to)
                .map(|r| &r["no"])
                .collect()
        };
        let top = |section: &str, n: usize| -> Vec<&Value> {
            section_of(&ex, section)["standings"]
                .as_array()
                .unwrap()
                .iter()
                .take(n)
                .map(|r| &r["no"])
                .collect()
        };
        for sex in ["boys", "girls"] {
            let u15 = format!("{sex}_u15");
            assert_eq!(of(&u15, "2020年世界象棋公开赛U15组"), top(&u15, 1));
            assert_eq!(of(&u15, "全国象棋锦标赛（个人）"), top(&u15, 1));
            let u17 = format!("{sex}_u17");
            assert_eq!(of(&u17, "全国象棋锦标赛（个人）"), top(&u17, 3));
            let u12 = format!("{sex}_u12");
            assert_eq!(of(&u12, "2020年世界象棋公开赛U12组"), top(&u12, 1));
            assert!(!q.iter().any(|r| r["section"] == format!("{sex}_u10")));
        }
        assert_eq!(q.len(), 12, "{q:?}");
    }
}
