//! Groups feeding a final (`format.kind = "groups"`), run the way an arbiter runs it: check
//! the regulation, register eight players (numbered in the order of registration), draw (the
//! numbers and the 蛇形 split into groups A and B recorded), pair and enter the three rounds of
//! the groups' round robins, then the cross knockout of the top two of each group (A1–B2,
//! B1–A2), and read the final standings: the finalists by the final, the others by group place.

use crate::common::*;
use serde_json::Value;

const REGULATION: &str = r#"
[event]
name = "分组赛测试"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "given" }

[sections.format]
kind = "groups"
groups = 2
advance = 2
final = "cross_knockout"

[sections.format.knockout]
match_format = "K1"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
"#;

/// The sheet `round show --json` gives now (the first when two are due).
fn sheet(env: &EventDir, id: &str) -> Option<Value> {
    let o = env.run(&[
        "round",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--json",
    ]);
    if !o.status.success() {
        return None;
    }
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    Some(match v {
        Value::Array(mut all) => all.remove(0),
        one => one,
    })
}

/// Enters every open board of the sheet: the smaller pairing number wins. Returns the boards
/// as (red, black) numbers.
fn smaller_wins(env: &EventDir, id: &str, sheet: &Value) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for b in sheet["boards"].as_array().unwrap() {
        if !b["result"].is_null() {
            continue;
        }
        let red = b["red"]["no"].as_u64().unwrap();
        let black = b["black"]["no"].as_u64().unwrap();
        let r = if red < black { "1-0" } else { "0-1" };
        let board = b["board"].to_string();
        env.ok(&[
            "result",
            "--event",
            id,
            "--section",
            "open",
            "--board",
            &board,
            r,
        ]);
        out.push((red, black));
    }
    out
}

#[test]
fn groups_then_cross_knockout_driven_by_cli_commands() {
    let env = EventDir::new(REGULATION);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains("分2组（A–B组，按序号蛇形分组）单循环，各组前2名交叉淘汰（A1–B2、B1–A2…"),
        "{summary}"
    );

    let id = env.create();
    for i in 1..=8 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    env.ok(&["draw", "--event", &id, "--section", "open"]);
    // The split is in the log: 蛇形 by number, A 1 4 5 8, B 2 3 6 7, no lot.
    let split = env.entries_of(&id, "groups_drawn");
    assert_eq!(split.len(), 1, "{split:?}");
    assert!(split[0].get("seed").is_none(), "{}", split[0]);
    let log = env.ok(&["event", "log", &id]);
    assert!(log.contains("蛇形分组: 公开组 A4 B4"), "{log}");
    let group_a = [1u64, 4, 5, 8];

    // The group stage: three rounds, four boards each, every game inside a group.
    for round in 1..=3 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = smaller_wins(&env, &id, &s);
        assert_eq!(boards.len(), 4, "round {round}: {s}");
        for (r, b) in boards {
            assert_eq!(
                group_a.contains(&r),
                group_a.contains(&b),
                "round {round}: {r}–{b} crosses the groups"
            );
        }
    }
    // Each pair of a group met once.
    let paired = env.entries_of(&id, "round_paired");
    assert_eq!(paired.len(), 3);
    // The groups are fixed once they play: a late entry is refused in words, not left
    // registered with no group and never paired.
    let err = env.refused(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "open",
        "--name",
        "迟到者",
        "--late-reason",
        "组委会同意",
    ]);
    assert!(
        err.contains("已分组并开始小组赛, 补报者没有可加入的小组"),
        "{err}"
    );
    assert!(env.entries_of(&id, "player_registered").len() == 8);

    // The final: a cross knockout seeded A1, B1, A2, B2 — 1, 2, 4, 3 by the results.
    let mut games = 0;
    while let Some(s) = sheet(&env, &id) {
        let boards = s["boards"].as_array().unwrap();
        if boards.is_empty() || boards.iter().all(|b| !b["result"].is_null()) {
            break;
        }
        games += smaller_wins(&env, &id, &s).len();
        assert!(
            games <= 8,
            "the final is four matches decided in one game each"
        );
    }
    assert_eq!(
        games, 4,
        "semi-finals, final and 3rd place (placement bracket)"
    );
    let ko: Value = serde_json::from_str(&env.ok(&[
        "knockout",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let seeds: Vec<u64> = ko["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    assert_eq!(seeds, vec![1, 2, 4, 3], "A1, B1, A2, B2");
    let mut first: Vec<Vec<u64>> = ko["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["round"] == 1)
        .map(|m| {
            let mut p: Vec<u64> = m["players"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p["no"].as_u64())
                .collect();
            p.sort_unstable();
            p
        })
        .collect();
    first.sort();
    assert_eq!(first, vec![vec![1, 3], vec![2, 4]], "A1–B2 and B1–A2");

    // Final standings: the final's places, then group places, equal ones shared.
    let st: Value = serde_json::from_str(&env.ok(&[
        "standings",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let rows: Vec<(u64, u64, Value)> = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["no"].as_u64().unwrap(),
                r["decided_by"].clone(),
            )
        })
        .collect();
    let ranks: Vec<(u64, u64)> = rows.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(
        ranks,
        vec![
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (5, 6),
            (7, 8),
            (7, 7)
        ],
        "{st}"
    );
    assert_eq!(rows[6].2, "group_place", "{st}");
    assert!(rows[5].2.is_null(), "a shared group place: {st}");
    let printed = env.ok(&["standings", "--event", &id, "--section", "open"]);
    assert!(printed.contains("小组名次"), "{printed}");
    // The group tables follow: A 1, 4, 5, 8 and B 2, 3, 6, 7, each in its order.
    assert!(
        printed.contains("A组 (group A):  1. 1号 棋手1 6分  2. 4号 棋手4 4分  3. 5号 棋手5 2分  4. 8号 棋手8 0分"),
        "{printed}"
    );
    assert!(
        printed.contains("B组 (group B):  1. 2号 棋手2 6分  2. 3号 棋手3 4分"),
        "{printed}"
    );
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("通过"), "{}", stdout(&o));
}

/// A Swiss inside each group (上海杯 男子组's 「每组…进行5轮积分编排制」): ten players in two
/// groups of five, three Swiss rounds each among the group's own players — an odd group's bye
/// scored as a Swiss bye (2 points), no pair met twice — then the group winners' final (A1–B1).
#[test]
fn a_swiss_inside_each_group_driven_by_cli_commands() {
    let src = REGULATION
        .replace(
            "advance = 2",
            "advance = 1\ngroup_format = \"swiss\"\nrounds = 3",
        )
        .replace("groups = 2", "groups = 2\nsplit = \"snake\"");
    let env = EventDir::new(&src);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains(
            "分2组（A–B组，按序号蛇形分组）组内积分编排制 3 轮，各组前1名交叉淘汰（A1–B1"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("轮数: 小组赛 3 轮，决赛 1 轮"),
        "{summary}"
    );
    // A group's Swiss is ranked by the Swiss tie-breaks, not the round robin's.
    assert!(summary.contains("对手分"), "{summary}");

    let id = env.create();
    for i in 1..=10 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    // The draw says how the groups were made: 蛇形, A 1 4 5 8 9, B 2 3 6 7 10.
    let drawn = env.ok(&["draw", "--event", &id, "--section", "open"]);
    assert!(
        drawn.contains("已分组 (蛇形): A组 1 4 5 8 9；B组 2 3 6 7 10"),
        "{drawn}"
    );
    let group_a = [1u64, 4, 5, 8, 9];

    let mut met = std::collections::BTreeSet::new();
    for round in 1..=3 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = smaller_wins(&env, &id, &s);
        assert_eq!(boards.len(), 4, "two boards a group of five: {s}");
        for (r, b) in boards {
            assert_eq!(
                group_a.contains(&r),
                group_a.contains(&b),
                "round {round}: {r}–{b} crosses the groups"
            );
            assert!(met.insert((r.min(b), r.max(b))), "{r}–{b} met twice");
        }
    }
    // Each round, one bye in each group of five.
    for e in env.entries_of(&id, "round_paired") {
        assert_eq!(e["byes"].as_array().map(Vec::len), Some(2), "{e}");
    }

    // The group tables: a bye scored 2 (the Swiss bye), so points = 2 × (wins + byes).
    let st: Value = serde_json::from_str(&env.ok(&[
        "standings",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let total: u64 = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_u64().unwrap())
        .sum();
    // Three rounds: four decided games (2 points each) and two byes (2 points each) a round.
    assert_eq!(total, 3 * (4 * 2 + 2 * 2), "{st}");

    // Group A's winner withdraws before the final: the next of his group takes his place.
    let export: Value =
        serde_json::from_str(&env.ok(&["event", "export", "--format", "json", &id])).unwrap();
    let first_two = |g: usize| -> (u64, u64) {
        let rows = &export["sections"][0]["groups"][g]["standings"];
        (
            rows[0]["no"].as_u64().unwrap(),
            rows[1]["no"].as_u64().unwrap(),
        )
    };
    let ((a1, a2), (b1, _)) = (first_two(0), first_two(1));
    env.ok(&[
        "player",
        "withdraw",
        "--event",
        &id,
        "--player",
        &format!("P{a1}"),
        "--reason",
        "伤病",
    ]);

    // The final: the two group winners, one match.
    let mut games = 0;
    while let Some(s) = sheet(&env, &id) {
        let boards = s["boards"].as_array().unwrap();
        if boards.is_empty() || boards.iter().all(|b| !b["result"].is_null()) {
            break;
        }
        games += smaller_wins(&env, &id, &s).len();
        assert!(games <= 2, "the final is one match");
    }
    assert_eq!(games, 1);
    let ko: Value = serde_json::from_str(&env.ok(&[
        "knockout",
        "show",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let mut seeds: Vec<u64> = ko["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    seeds.sort_unstable();
    let mut want = vec![a2, b1];
    want.sort_unstable();
    assert_eq!(seeds, want, "A2 replaces the withdrawn A1 ({a1}): {ko}");
    // The published results say the groups played a Swiss.
    let export: Value =
        serde_json::from_str(&env.ok(&["event", "export", "--format", "json", &id])).unwrap();
    assert_eq!(export["sections"][0]["system"], "groups", "{export}");
    assert_eq!(
        export["sections"][0]["rounds"][0]["stage"], "swiss",
        "{export}"
    );
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// 2025 全国锦标赛(个人) 抽签办法 in small: numbered groups, 分档抽签 (二(二)), the codes of a
/// group drawn with 同队先碰 (二(三)), each group's winner into a knockout by group number.
const POTS: &str = r#"
[event]
name = "分档抽签测试"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
pairing = { numbering = "given" }

[sections.format]
kind = "groups"
groups = 2
group_names = "numbers"
split = "pots"
same_team_first = true
advance = 1
final = "knockout"

[sections.format.knockout]
variant = "single"

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
"#;

#[test]
fn pots_and_same_team_first_driven_by_cli_commands() {
    let env = EventDir::new(POTS);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("分2组（第1–2组，按序号分档抽签分组）"),
        "{}",
        stdout(&o)
    );
    let id = env.create();
    // Eight players of two teams (甲 the odd numbers, 乙 the even ones): every group of four
    // holds at least one pair of team-mates.
    let unit = |i: u32| if i % 2 == 1 { "甲队" } else { "乙队" };
    for i in 1..=8 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--unit",
            unit(i),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    let drawn = env.ok(&["draw", "--event", &id, "--section", "open"]);
    assert!(drawn.contains("1组") && drawn.contains("2组"), "{drawn}");
    let split = env.entries_of(&id, "groups_drawn");
    assert_eq!(split.len(), 1, "{split:?}");
    assert!(split[0].get("seed").is_some(), "a lot, its seed recorded");
    // Numbers 1 and 2 (the first two registered) lead groups 1 and 2.
    let groups: Vec<Vec<u64>> = split[0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(groups.len(), 2);
    assert!(
        groups[0].contains(&1) && groups[1].contains(&2),
        "{groups:?}"
    );

    env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    let s = sheet(&env, &id).unwrap();
    let boards = s["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 4, "{s}");
    // Round 1 pairs team-mates wherever a group has two: per group, ⌊甲/2⌋ + ⌊乙/2⌋ boards.
    let team_of = |no: u64| unit(no as u32);
    for g in &groups {
        let jia = g.iter().filter(|&&p| team_of(p) == "甲队").count();
        let expected = jia / 2 + (g.len() - jia) / 2;
        let mates = boards
            .iter()
            .filter(|b| {
                let (r, k) = (
                    b["red"]["no"].as_u64().unwrap(),
                    b["black"]["no"].as_u64().unwrap(),
                );
                g.contains(&r) && g.contains(&k) && team_of(r) == team_of(k)
            })
            .count();
        assert_eq!(mates, expected, "group {g:?}: {s}");
    }
}

/// A final round robin (丰圩小学 三、4「决赛，依然进行循环赛」): two groups of four, each a
/// round robin, then the top two of each play one Berger table (codes A1, B1, A2, B2), paired
/// round by round once both groups are done and entered as the groups' rounds are. The
/// finalists are placed by the final's points alone, the others after them by group place.
#[test]
fn groups_then_a_final_round_robin_driven_by_cli_commands() {
    let src = REGULATION
        .replace("final = \"cross_knockout\"", "final = \"round_robin\"")
        .split("[sections.format.knockout]")
        .next()
        .unwrap()
        .to_string();
    let env = EventDir::new(&src);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains("各组前2名进行决赛单循环（代号依次为A1、B1…A2、B2…；贝格尔表"),
        "{summary}"
    );
    assert!(summary.contains("决赛 3 轮"), "{summary}");

    let id = env.create();
    for i in 1..=8 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    env.ok(&["draw", "--event", &id, "--section", "open"]);
    // The group stage: A 1 4 5 8, B 2 3 6 7, three rounds, the smaller number winning.
    for round in 1..=3 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        assert_eq!(smaller_wins(&env, &id, &s).len(), 4, "{s}");
    }
    // Round 4 is the final's first: its field fixed in the log first, A1 B1 A2 B2.
    let paired = env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    assert!(paired.contains("决赛名单"), "{paired}");
    let fixed = env.entries_of(&id, "knockout_seeded");
    assert_eq!(fixed.len(), 1, "{fixed:?}");
    assert_eq!(fixed[0]["seeds"], serde_json::json!([1, 2, 4, 3]));
    let log = env.ok(&["event", "log", &id]);
    assert!(
        log.contains("确定 决赛名单 (小组名次): 第1位 序号 1 棋手1、第2位 序号 2 棋手2"),
        "{log}"
    );
    // The final: three rounds of two boards among the four finalists, every pair once; here
    // the larger number wins, so the final turns the group order round.
    let mut met = std::collections::BTreeSet::new();
    for round in 4..=6 {
        if round > 4 {
            env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        }
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = s["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 2, "round {round}: {s}");
        for b in boards {
            let red = b["red"]["no"].as_u64().unwrap();
            let black = b["black"]["no"].as_u64().unwrap();
            assert!(red <= 4 && black <= 4, "round {round}: {red}–{black}");
            assert!(
                met.insert((red.min(black), red.max(black))),
                "{red}–{black}"
            );
            let r = if red > black { "1-0" } else { "0-1" };
            let board = b["board"].to_string();
            env.ok(&[
                "result",
                "--event",
                &id,
                "--section",
                "open",
                "--board",
                &board,
                r,
            ]);
        }
    }
    assert_eq!(met.len(), 6, "every pair of finalists met once");
    // Nothing is left to pair.
    let done = env.refused(&["round", "pair", "--event", &id, "--section", "open"]);
    assert!(!done.is_empty());

    // Final standings: 4, 3, 2, 1 by the final (3, 2, 1, 0 wins: 6, 4, 2, 0 points), then
    // the thirds (5, 6) sharing 5th and the fourths (8, 7) sharing 7th.
    let st: Value = serde_json::from_str(&env.ok(&[
        "standings",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let rows: Vec<(u64, u64, u64, Value)> = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["no"].as_u64().unwrap(),
                r["points"].as_u64().unwrap(),
                r["decided_by"].clone(),
            )
        })
        .collect();
    let ranks: Vec<(u64, u64)> = rows.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(
        ranks,
        vec![
            (1, 4),
            (2, 3),
            (3, 2),
            (4, 1),
            (5, 5),
            (5, 6),
            (7, 8),
            (7, 7)
        ],
        "{st}"
    );
    let final_points: Vec<u64> = rows[..4].iter().map(|r| r.2).collect();
    assert_eq!(
        final_points,
        vec![6, 4, 2, 0],
        "the final's points alone: {st}"
    );
    assert_eq!(rows[4].3, "final", "{st}");
    assert_eq!(rows[6].3, "group_place", "{st}");
    let printed = env.ok(&["standings", "--event", &id, "--section", "open"]);
    assert!(printed.contains("决赛"), "{printed}");
    // The published results: six rounds, the last three a round robin's.
    let export: Value =
        serde_json::from_str(&env.ok(&["event", "export", "--format", "json", &id])).unwrap();
    let sec = &export["sections"][0];
    assert_eq!(sec["system"], "groups", "{sec}");
    assert_eq!(sec["rounds"].as_array().unwrap().len(), 6, "{sec}");
    assert_eq!(sec["rounds"][5]["stage"], "round_robin", "{sec}");
    assert_eq!(sec["standings"][0]["no"], 4, "{sec}");
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("通过"), "{}", stdout(&o));
}

/// A finalist who withdraws during a final round robin keeps his code: his games are not
/// paired, nobody moves up into the final, and the others' rounds go on.
#[test]
fn a_final_round_robin_keeps_its_field_when_a_finalist_withdraws() {
    let src = REGULATION
        .replace("final = \"cross_knockout\"", "final = \"round_robin\"")
        .split("[sections.format.knockout]")
        .next()
        .unwrap()
        .to_string();
    let env = EventDir::new(&src);
    let id = env.create();
    for i in 1..=8 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    env.ok(&["draw", "--event", &id, "--section", "open"]);
    for _ in 1..=4 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        smaller_wins(&env, &id, &s);
    }
    // B1 (number 2) withdraws after the final's first round.
    env.ok(&[
        "player", "withdraw", "--event", &id, "--player", "P2", "--reason", "伤病",
    ]);
    for round in 5..=6 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = smaller_wins(&env, &id, &s);
        assert_eq!(boards.len(), 1, "round {round}: 2's board is dropped: {s}");
        for (r, b) in boards {
            assert!(r <= 4 && b <= 4 && r != 2 && b != 2, "{r}–{b}");
        }
    }
    assert_eq!(env.entries_of(&id, "knockout_seeded").len(), 1);
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Same-place finals of three groups: nine players in groups A 1 6 7, B 2 5 8, C 3 4 9 (蛇形),
/// each a round robin; the three winners play a round robin for places 1–3 and the three
/// seconds one for places 4–6, in the same rounds; the thirds share 7th.
#[test]
fn same_place_finals_of_three_groups_are_round_robins_driven_by_cli_commands() {
    let src = REGULATION
        .replace("groups = 2", "groups = 3")
        .replace("final = \"cross_knockout\"", "final = \"same_place\"")
        .split("[sections.format.knockout]")
        .next()
        .unwrap()
        .to_string();
    let env = EventDir::new(&src);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("各组第1名单循环决出第1–3名，各组第2名决出第4–6名"),
        "{}",
        stdout(&o)
    );
    let id = env.create();
    for i in 1..=9 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    let drawn = env.ok(&["draw", "--event", &id, "--section", "open"]);
    assert!(drawn.contains("A组 1 6 7；B组 2 5 8；C组 3 4 9"), "{drawn}");
    for _ in 1..=3 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(smaller_wins(&env, &id, &s).len(), 3, "{s}");
    }
    // The final: the winners 1 2 3 and the seconds 6 5 4, each a round robin of their own.
    let winners = [1u64, 2, 3];
    let mut met = std::collections::BTreeSet::new();
    for round in 4..=6 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = s["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 2, "one board a pool of three: {s}");
        for b in boards {
            let red = b["red"]["no"].as_u64().unwrap();
            let black = b["black"]["no"].as_u64().unwrap();
            assert_eq!(
                winners.contains(&red),
                winners.contains(&black),
                "{red}–{black} crosses the pools"
            );
            assert!(red <= 6 && black <= 6, "{red}–{black}");
            assert!(met.insert((red.min(black), red.max(black))));
            let r = if red > black { "1-0" } else { "0-1" };
            let board = b["board"].to_string();
            env.ok(&[
                "result",
                "--event",
                &id,
                "--section",
                "open",
                "--board",
                &board,
                r,
            ]);
        }
    }
    assert_eq!(met.len(), 6, "three pairs in each pool");
    assert_eq!(
        env.entries_of(&id, "knockout_seeded")[0]["seeds"],
        serde_json::json!([1, 2, 3, 6, 5, 4])
    );
    let st: Value = serde_json::from_str(&env.ok(&[
        "standings",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let rows = st["standings"].as_array().unwrap();
    let ranks: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| (r["rank"].as_u64().unwrap(), r["no"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ranks,
        vec![
            (1, 3),
            (2, 2),
            (3, 1),
            (4, 6),
            (5, 5),
            (6, 4),
            (7, 7),
            (7, 8),
            (7, 9)
        ],
        "{st}"
    );
    assert_eq!(rows[3]["decided_by"], "final", "{st}");
    assert_eq!(rows[6]["decided_by"], "final", "{st}");
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// 预赛中已相遇的选手，其成绩带入决赛，不再比赛 (`carry_over = true`): two groups of four, the
/// top two of each into a final round robin. A1 and A2 met in group A, B1 and B2 in group B:
/// they have no board in the final, their group game counts as the final's game between them.
/// The Berger table of the four (codes A1 B1 A2 B2) puts both pairs of one group in its third
/// round, which is then not played: the final is two rounds, whose second shows the carried
/// pairs 「预赛成绩带入」 and counts them once done. Here both ties of the final are decided by
/// 直胜 in a carried game.
#[test]
fn a_final_round_robin_carries_the_group_games_driven_by_cli_commands() {
    let src = REGULATION
        .replace(
            "final = \"cross_knockout\"",
            "final = \"round_robin\"\ncarry_over = true",
        )
        .replace(
            "pairing = { numbering = \"given\" }",
            "pairing = { numbering = \"given\" }\ntiebreaks = [\"direct\"]",
        )
        .split("[sections.format.knockout]")
        .next()
        .unwrap()
        .to_string();
    let env = EventDir::new(&src);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.contains("各组前2名进行决赛单循环，预赛中已相遇者成绩带入"),
        "{summary}"
    );
    assert!(summary.contains("决赛至多 3 轮"), "{summary}");

    let id = env.create();
    for i in 1..=8 {
        env.ok(&[
            "player",
            "add",
            "--event",
            &id,
            "--section",
            "open",
            "--name",
            &format!("棋手{i}"),
            "--at",
            "2026-09-01T10:00:00+08:00",
        ]);
    }
    env.ok(&["draw", "--event", &id, "--section", "open"]);
    // The group stage: A 1 4 5 8, B 2 3 6 7, the smaller number winning: A1 = 1, A2 = 4,
    // B1 = 2, B2 = 3; 1 beat 4 and 2 beat 3 in the groups.
    for _ in 1..=3 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(smaller_wins(&env, &id, &s).len(), 4, "{s}");
    }
    // The final's winners, pair by pair (no pair of one group is ever asked for).
    let winner = |a: u64, b: u64| match (a.min(b), a.max(b)) {
        (1, 3) => 3,
        (2, 4) => 4,
        (3, 4) => 3,
        (1, 2) => 2,
        other => panic!("pair {other:?} should not be paired in the final"),
    };
    let mut met = std::collections::BTreeSet::new();
    for round in 4..=5 {
        env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", &id, "--section", "open"]);
        let s = sheet(&env, &id).unwrap();
        assert_eq!(s["round"], round, "{s}");
        let boards = s["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 2, "round {round}: {s}");
        for b in boards {
            let red = b["red"]["no"].as_u64().unwrap();
            let black = b["black"]["no"].as_u64().unwrap();
            met.insert((red.min(black), red.max(black)));
            let r = if winner(red, black) == red {
                "1-0"
            } else {
                "0-1"
            };
            let board = b["board"].to_string();
            env.ok(&[
                "result",
                "--event",
                &id,
                "--section",
                "open",
                "--board",
                &board,
                r,
            ]);
        }
        if round == 5 {
            // The carried pairs, where their board would be, with the group game as played;
            // the points beside the names are the final's before this round (not the groups').
            let carried = s["carried"].as_array().unwrap();
            let pairs: Vec<(u64, u64, String)> = carried
                .iter()
                .map(|c| {
                    (
                        c["red"]["no"].as_u64().unwrap(),
                        c["black"]["no"].as_u64().unwrap(),
                        c["result"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let mut norm: Vec<(u64, u64, u64)> = pairs
                .iter()
                .map(|(r, b, res)| {
                    let w = if res == "1-0" { *r } else { *b };
                    (*r.min(b), *r.max(b), w)
                })
                .collect();
            norm.sort();
            assert_eq!(norm, vec![(1, 4, 1), (2, 3, 2)], "{s}");
            let score_of = |no: u64| {
                boards
                    .iter()
                    .flat_map(|b| [&b["red"], &b["black"]])
                    .chain(carried.iter().flat_map(|c| [&c["red"], &c["black"]]))
                    .find(|x| x["no"] == no)
                    .map(|x| x["score"].as_u64().unwrap())
                    .unwrap()
            };
            // After the final's round 4: 3 beat 1, 4 beat 2.
            assert_eq!(
                [score_of(1), score_of(2), score_of(3), score_of(4)],
                [0, 0, 2, 2],
                "{s}"
            );
            let shown = env.ok(&[
                "round",
                "show",
                "--event",
                &id,
                "--section",
                "open",
                "--round",
                "5",
            ]);
            assert!(shown.contains("预赛成绩带入"), "{shown}");
            let html = env.path("pairings.html");
            env.ok(&[
                "print",
                "--event",
                &id,
                "--doc",
                "pairings",
                "--section",
                "open",
                "--round",
                "5",
                "--format",
                "html",
                "--out",
                html.to_str().unwrap(),
            ]);
            let printed = std::fs::read_to_string(&html).unwrap();
            assert_eq!(
                printed.matches("预赛成绩带入").count(),
                3,
                "two rows and the note"
            );
            // The round's public page: the two rows and the note.
            let mut server = KillOnDrop(
                std::process::Command::new(BIN)
                    .args([
                        "serve",
                        "--db",
                        env.db().to_str().unwrap(),
                        "--addr",
                        "127.0.0.1:0",
                    ])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("spawn"),
            );
            let addr = announced_address(&mut server.0, std::time::Duration::from_secs(120))
                .expect("the server prints its address");
            let page = crate::serve::get(&addr, &format!("/e/{id}/s/open/r/5"));
            assert!(page.starts_with("HTTP/1.1 200"), "{page}");
            assert_eq!(page.matches("预赛成绩带入").count(), 3, "{page}");
        }
    }
    assert_eq!(
        met.into_iter().collect::<Vec<_>>(),
        vec![(1, 2), (1, 3), (2, 4), (3, 4)],
        "only the pairs of different groups play in the final"
    );
    // The Berger table's third round is all carried: nothing is left to pair.
    let done = env.refused(&["round", "pair", "--event", &id, "--section", "open"]);
    assert!(!done.is_empty());

    // Final standings with the group games carried: 2 (beat 1, carried beat 3) and 3 (beat
    // 1 and 4, carried lost to 2) 4 points, 2 first by 直胜 in the carried game; 1 (carried
    // beat 4) and 4 (beat 2) 2 points, 1 first by 直胜 in the carried game. The final's own
    // games alone would give 3, 4, 2, 1.
    let st: Value = serde_json::from_str(&env.ok(&[
        "standings",
        "--event",
        &id,
        "--section",
        "open",
        "--json",
    ]))
    .unwrap();
    let rows: Vec<(u64, u64, u64, Value)> = st["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap(),
                r["no"].as_u64().unwrap(),
                r["points"].as_u64().unwrap(),
                r["decided_by"].clone(),
            )
        })
        .collect();
    let top: Vec<(u64, u64, u64)> = rows[..4].iter().map(|r| (r.0, r.1, r.2)).collect();
    assert_eq!(
        top,
        vec![(1, 2, 4), (2, 3, 4), (3, 1, 2), (4, 4, 2)],
        "{st}"
    );
    assert_eq!(rows[1].3, "direct", "{st}");
    assert_eq!(rows[3].3, "direct", "{st}");
    let rest: Vec<(u64, u64)> = rows[4..].iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(rest, vec![(5, 5), (5, 6), (7, 8), (7, 7)], "{st}");
    let printed = env.ok(&["standings", "--event", &id, "--section", "open"]);
    assert!(printed.contains("决赛"), "{printed}");
    let export: Value =
        serde_json::from_str(&env.ok(&["event", "export", "--format", "json", &id])).unwrap();
    let sec = &export["sections"][0];
    assert_eq!(sec["rounds"].as_array().unwrap().len(), 5, "{sec}");
    let places: Vec<u64> = sec["standings"]
        .as_array()
        .unwrap()
        .iter()
        .take(4)
        .map(|r| r["no"].as_u64().unwrap())
        .collect();
    assert_eq!(places, vec![2, 3, 1, 4], "{sec}");
    let o = run(&["event", "verify", env.db().to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}

/// `carry_over` only with a final round robin after single round robins, refused naming its
/// line otherwise.
#[test]
fn carry_over_is_refused_with_another_final() {
    let src = REGULATION.replace(
        "final = \"cross_knockout\"",
        "final = \"cross_knockout\"\ncarry_over = true",
    );
    let env = EventDir::new(&src);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    let line = src
        .lines()
        .position(|l| l.starts_with("carry_over"))
        .unwrap()
        + 1;
    assert!(err.contains(&format!("reg.toml:{line}")), "{err}");
    assert!(err.contains("只用于决赛单循环"), "{err}");
}
