//! Settings of a regulation file that every command must apply: the numbering of the draw
//! (`pairing.numbering`), by `draw` and by `simulate`; the qualification list; what the 2011
//! rule fills in; prize pools and reserved places; age categories in a trial run.

use crate::common;

use common::*;
use serde_json::Value;
use std::process::Command;

/// A small open with `numbering` as given.
fn numbered(numbering: &str) -> String {
    format!(
        r#"
[event]
name = "序号测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = 3 }}
tiebreaks = "cxa-2011-opp"
pairing = {{ numbering = "{numbering}" }}
"#
    )
}

/// Registers `players` (name, rating) in this order; the draw's order of player ids.
fn draw_after(env: &EventDir, players: &[(&str, Option<u32>)]) -> (String, Vec<u64>) {
    let id = env.create();
    for (name, rating) in players {
        let r = rating.map(|r| r.to_string());
        let mut args = vec![
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            name,
            "--at",
            "2026-09-01T10:00:00+08:00",
        ];
        if let Some(r) = &r {
            args.extend(["--rating", r.as_str()]);
        }
        env.ok(&args);
    }
    let out = env.ok(&["draw", "--event", &id, "--section", "open"]);
    let drawn = &env.entries_of(&id, "pairing_numbers_drawn")[0];
    let order = drawn["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    (out, order)
}

const FIELD: &[(&str, Option<u32>)] = &[
    ("甲", Some(1500)),
    ("乙", None),
    ("丙", Some(1800)),
    ("丁", Some(1500)),
    ("戊", Some(2100)),
    ("己", None),
];

#[test]
fn numbering_given_numbers_in_registration_order() {
    let env = EventDir::new(&numbered("given"));
    let (out, order) = draw_after(&env, FIELD);
    assert_eq!(order, vec![1, 2, 3, 4, 5, 6]);
    assert!(out.contains("按报名顺序排定序号"), "{out}");
}

#[test]
fn numbering_rating_numbers_by_rating_equal_ratings_in_registration_order() {
    let env = EventDir::new(&numbered("rating"));
    let (out, order) = draw_after(&env, FIELD);
    // 戊 2100, 丙 1800, 甲 1500 and 丁 1500 in registration order; the unrated last.
    assert_eq!(order[..4], [5, 3, 1, 4]);
    let mut rest = order[4..].to_vec();
    rest.sort_unstable();
    assert_eq!(rest, vec![2, 6]);
    assert!(out.contains("按等级分排定序号"), "{out}");
}

#[test]
fn numbering_lots_is_still_by_lot() {
    // Twelve players in registration order would be numbered 1..12 only by a rare lot.
    let env = EventDir::new(&numbered("lots"));
    let names: Vec<String> = (1..=12).map(|i| format!("选手{i}")).collect();
    let field: Vec<(&str, Option<u32>)> = names.iter().map(|n| (n.as_str(), None)).collect();
    let (out, order) = draw_after(&env, &field);
    assert_ne!(order, (1..=12).collect::<Vec<u64>>());
    assert!(out.contains("抽签排定序号"), "{out}");
}

/// `arbiter simulate` of a regulation file; the numbers drawn and the players' ratings.
fn simulated_numbers(numbering: &str) -> (Vec<u64>, Vec<(u64, Option<u64>)>) {
    let dir = tempfile::tempdir().unwrap();
    let reg = write(&dir.path().join("reg.toml"), &numbered(numbering));
    let out = dir.path().join("sim");
    let o = Command::new(BIN)
        .args(["simulate", "--regulation", &reg, "--seed", "5", "--out"])
        .arg(&out)
        .args(["--players", "open=14"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let db = out.join("arbiter.db");
    let env_log = Command::new(BIN)
        .args(["event", "list", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let list = stdout(&env_log);
    let id = list.split_whitespace().next().unwrap().to_string();
    let o = Command::new(BIN)
        .args(["event", "export", &id, "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let log = json_of(&o);
    let drawn = &entries_of_kind(&log, "pairing_numbers_drawn")[0];
    let order = drawn["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    let players = entries_of_kind(&log, "player_registered")
        .iter()
        .map(|p| (p["player"].as_u64().unwrap(), p["rating"].as_u64()))
        .collect();
    (order, players)
}

#[test]
fn simulate_numbers_as_the_regulation_says() {
    let (order, _) = simulated_numbers("given");
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted, "given: registration order");

    let (order, players) = simulated_numbers("rating");
    let rating = |p: u64| {
        players
            .iter()
            .find(|(id, _)| *id == p)
            .and_then(|(_, r)| *r)
            .unwrap()
    };
    let ratings: Vec<u64> = order.iter().map(|&p| rating(p)).collect();
    assert!(
        ratings.windows(2).all(|w| w[0] >= w[1]),
        "rating: highest first: {ratings:?}"
    );
}

/// A small open whose best three qualify for a later event.
const QUALIFYING: &str = r#"
[event]
name = "资格测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 3 }
tiebreaks = "cxa-2011-opp"

[sections.qualification]
places = 3
to = "全国象棋公开赛"

[[sections.prizes]]
rank = 1
amount_yuan = 100
"#;

/// A simulated event of `regulation` with `players` in its open section: (folder, db, id).
fn simulated(regulation: &str, players: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let reg = write(&dir.path().join("reg.toml"), regulation);
    let out = dir.path().join("sim");
    let o = Command::new(BIN)
        .args(["simulate", "--regulation", &reg, "--seed", "2", "--out"])
        .arg(&out)
        .args(["--players", players])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let db = out.join("arbiter.db").display().to_string();
    let list = ok(&["event", "list", "--db", &db]);
    let id = list.split_whitespace().next().unwrap().to_string();
    (dir, db, id)
}

#[test]
fn the_qualification_list_is_published_in_prizes_export_and_document() {
    let (dir, db, id) = simulated(QUALIFYING, "open=10");
    let ex = export_json(&dir.path().join("sim"));
    let q = ex["qualified"]
        .as_array()
        .expect("qualified in export.json");
    let places: Vec<u64> = q.iter().map(|r| r["place"].as_u64().unwrap()).collect();
    assert_eq!(places, vec![1, 2, 3]);
    assert!(q.iter().all(|r| r["to"] == "全国象棋公开赛"), "{q:?}");
    // The qualified are the top three of the final standings.
    let standings = section_of(&ex, "open")["standings"].as_array().unwrap();
    let top: Vec<&Value> = standings.iter().take(3).map(|r| &r["no"]).collect();
    let nos: Vec<&Value> = q.iter().map(|r| &r["no"]).collect();
    assert_eq!(nos, top);

    let prizes = ok(&["prizes", "--event", &id, "--db", &db]);
    assert!(
        prizes.contains("取得「全国象棋公开赛」资格 (qualified): 公开组"),
        "{prizes}"
    );
    assert!(
        prizes.contains(&format!("  第3名\t{}号", q[2]["no"])),
        "{prizes}"
    );
    let json: Value =
        serde_json::from_str(&ok(&["prizes", "--event", &id, "--db", &db, "--json"])).unwrap();
    assert_eq!(json["qualified"].as_array().map(Vec::len), Some(3));

    let html = dir.path().join("prizes.html");
    ok(&[
        "print",
        "--db",
        &db,
        "--event",
        &id,
        "--doc",
        "prizes",
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("公开组 取得「全国象棋公开赛」资格名单"),
        "{page}"
    );
    assert!(page.contains("资格名次"), "{page}");
}

/// `arbiter regulation check FILE` in a folder of its own: (exit code, stdout, stderr).
fn check(regulation: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let reg = write(&dir.path().join("reg.toml"), regulation);
    let o = Command::new(BIN)
        .args(["regulation", "check", &reg])
        .output()
        .unwrap();
    (o.status.code(), stdout(&o), stderr(&o))
}

#[test]
fn check_says_where_the_2011_rule_fills_a_silent_regulation() {
    let silent = numbered("lots").replace("tiebreaks = \"cxa-2011-opp\"\n", "");
    let (code, out, err) = check(&silent);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("（未规定，按2011年规则计分）"), "{out}");
    assert!(
        out.contains("（未规定，按2011年规则 cxa-2011-opp）"),
        "{out}"
    );
    // A file that names them says nothing of the kind.
    let named = numbered("lots").replace(
        "tiebreaks = \"cxa-2011-opp\"",
        "scoring = \"cxa\"\ntiebreaks = \"cxa-2011-opp\"",
    );
    let (code, out, _) = check(&named);
    assert_eq!(code, Some(0));
    assert!(!out.contains("未规定"), "{out}");
}

/// An open with 6 prize places, 2 of them reserved for women with a 300-yuan floor, and a
/// stated pool; `pool` is written as the pool.
fn reserved(pool: u32) -> String {
    format!(
        r#"
[event]
name = "保留名额测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = 5 }}
prize_pool_yuan = {pool}

[[sections.categories]]
id = "women"
name = "女子"
sex = "F"

[sections.reserved_places]
category = "women"
places = 2
floor_yuan = 300

[[sections.prizes]]
rank = 1
amount_yuan = 1000

[[sections.prizes]]
rank = 2
amount_yuan = 500

[[sections.prizes]]
from = 3
to = 6
amount_yuan = 200
"#
    )
}

#[test]
fn a_prize_pool_that_does_not_add_up_is_refused_with_its_line() {
    let (code, out, err) = check(&reserved(2300));
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("奖金总额: 2300元（与奖项表相符）"), "{out}");
    assert!(
        out.contains("保留名额: 名次奖中2个留给「女子」最好的选手（计入名次奖人数），所得为名次奖与保底300元中较多者"),
        "{out}"
    );
    let (code, _, err) = check(&reserved(2500));
    assert_eq!(code, Some(2), "{err}");
    // Line 11 is `prize_pool_yuan = 2500`.
    assert!(err.contains("reg.toml:11:"), "{err}");
    assert!(
        err.contains("公开组奖金总额 2500 元，但奖项表各名次奖金合计 2300 元"),
        "{err}"
    );
    // Reserved places for a category the section does not have, or more than its places.
    let (code, _, err) =
        check(&reserved(2300).replace("category = \"women\"", "category = \"lady\""));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("lady"), "{err}");
    let (code, _, err) = check(&reserved(2300).replace("places = 2", "places = 7"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("保留名额 7 个"), "{err}");
}

#[test]
fn reserved_places_go_to_the_best_women_with_the_floor_in_a_simulated_event() {
    let (dir, _db, _id) = simulated(&reserved(2300), "open=24");
    let ex = export_json(&dir.path().join("sim"));
    let section = section_of(&ex, "open");
    let women: Vec<u64> = section["categories"][0]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["no"].as_u64().unwrap())
        .collect();
    assert!(women.len() >= 2, "the field has women: {women:?}");
    let places: Vec<(u64, u64)> = ex["prizes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "place")
        .map(|p| (p["no"].as_u64().unwrap(), p["amount"].as_u64().unwrap()))
        .collect();
    // Six winners in all, the two best women among them with at least 300 yuan each.
    assert_eq!(places.len(), 6, "{places:?}");
    for w in &women[..2] {
        let got = places.iter().find(|(no, _)| no == w);
        assert!(
            got.is_some_and(|(_, amount)| *amount >= 300),
            "woman {w}: {places:?}"
        );
    }
}

/// A youth section in age groups counted on a date the file gives, and a local category.
const YOUTH: &str = r#"
[event]
name = "少儿年龄组测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "youth"
name = "少儿组"
format = { kind = "swiss", rounds = 5 }

[sections.eligibility]
max_age = 14
age_on = 2026-08-01

[[sections.categories]]
id = "u8"
name = "8岁以下组"
max_age = 7

[[sections.categories]]
id = "u10"
name = "9–10岁组"
min_age = 9
max_age = 10

[[sections.categories]]
id = "u12"
name = "11–12岁组"
min_age = 11
max_age = 12

[[sections.categories]]
id = "u14"
name = "13–14岁组"
min_age = 13
max_age = 14

[[sections.categories]]
id = "local"
name = "本地选手"
flag = "local"
"#;

#[test]
fn a_trial_run_fills_every_age_group_and_flag_category() {
    let (code, out, err) = check(YOUTH);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("11–12岁组 (u12, 2026-08-01时11–12岁)"),
        "{out}"
    );
    let (dir, _db, _id) = simulated(YOUTH, "youth=40");
    let ex = export_json(&dir.path().join("sim"));
    let cats = section_of(&ex, "youth")["categories"].as_array().unwrap();
    assert_eq!(cats.len(), 5);
    for c in cats {
        let n = c["standings"].as_array().map_or(0, Vec::len);
        assert!(n > 0, "category {} is empty", c["name"]);
    }
    // Nobody is in two age groups, and the groups hold players of the section only.
    let mut seen = std::collections::BTreeSet::new();
    for c in &cats[..4] {
        for r in c["standings"].as_array().unwrap() {
            assert!(seen.insert(r["no"].as_u64().unwrap()), "{r} twice");
        }
    }
}
