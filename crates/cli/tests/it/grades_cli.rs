//! 段位、棋士等级与称号 as data (issue 46, item 1): a regulation's scale, a player's grade
//! entered (`player add --grade`), imported (a 「段位」 column) and corrected, the section's
//! grade rules (「棋力三段以上」, 「未获得象棋大师以上称号」), pairing numbers by grade, and the
//! grade in the draw's list and the published export.

use crate::common::*;

const REGULATION: &str = r#"
[event]
name = "段位测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[grades]
scale = ["业余1段", "业余2段", "业余3段", "业余4段", "业余5段", "地方大师", "棋协大师",
         { name = "象棋大师", aliases = ["国家级运动健将"] }]

[[sections]]
id = "open"
name = "段位组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"
pairing = { numbering = "grade" }

[sections.eligibility]
min_grade = "业余3段"          # 棋力三段以上
below_grade = "象棋大师"        # 未获得象棋大师以上称号
"#;

fn add(env: &EventDir, id: &str, name: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "player",
        "add",
        "--event",
        id,
        "--section",
        "open",
        "--name",
        name,
        "--at",
        "2026-09-01T10:00:00+08:00",
    ];
    args.extend_from_slice(extra);
    env.run(&args)
}

#[test]
fn grades_are_entered_judged_numbered_by_and_published() {
    let env = EventDir::new(REGULATION);
    let reg = env.path("reg.toml");
    let check = ok(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(
        check.contains("段位/称号 (由低到高): 业余1段、业余2段"),
        "{check}"
    );
    assert!(check.contains("须业余3段及以上"), "{check}");
    let id = env.create();
    // Written with Chinese numerals or an alias, recorded as the scale names it.
    for (name, grade, rating) in [
        ("甲", "业余三段", "1800"),
        ("乙", "棋协大师", "1700"),
        ("丙", "业余3段", "1900"),
        ("丁", "业余五段", "1600"),
    ] {
        let o = add(&env, &id, name, &["--grade", grade, "--rating", rating]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    let registered = env.entries_of(&id, "player_registered");
    let grades: Vec<&str> = registered
        .iter()
        .map(|e| e["grade"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(grades, ["业余3段", "棋协大师", "业余3段", "业余5段"]);
    // No grade, too low, a title the section bars, and a grade not on the scale: each
    // refused with the rule's words.
    let err = stderr(&add(&env, &id, "戊", &[]));
    assert!(
        err.contains("本组须业余3段及以上棋力, 报名未填段位/称号"),
        "{err}"
    );
    let err = stderr(&add(&env, &id, "己", &["--grade", "业余2段"]));
    assert!(
        err.contains("段位/称号 业余2段 低于本组要求的 业余3段"),
        "{err}"
    );
    let err = stderr(&add(&env, &id, "庚", &["--grade", "国家级运动健将"]));
    assert!(err.contains("本组限未获得象棋大师以上称号"), "{err}");
    let o = add(&env, &id, "辛", &["--grade", "业余十段"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("段位/称号「业余十段」不在本规程的段位表中")
            && err.contains("业余1段、业余2段"),
        "{err}"
    );
    // A correction is judged by the same rules; a valid one is recorded by the scale's name.
    let err = env.refused(&[
        "player",
        "correct",
        "--event",
        &id,
        "--player",
        "P1",
        "--grade",
        "业余1段",
        "--reason",
        "证书核对",
    ]);
    assert!(err.contains("低于本组要求的 业余3段"), "{err}");
    env.ok(&[
        "player",
        "correct",
        "--event",
        &id,
        "--player",
        "P1",
        "--grade",
        "业余四段",
        "--reason",
        "证书核对",
    ]);
    let corrected = env.entries_of(&id, "player_corrected");
    assert_eq!(
        corrected.last().map(|c| c["changes"][0].clone()),
        Some(serde_json::json!({"field": "grade", "value": "业余4段"})),
        "{corrected:?}"
    );
    // Numbers by grade, highest first; equal grades by rating. The list shows each grade.
    let out = env.ok(&["draw", "--event", &id, "--section", "open"]);
    assert!(out.contains("按段位/称号排定序号"), "{out}");
    let order: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("报名号 P"))
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(order, ["乙", "丁", "甲", "丙"], "{out}");
    assert!(out.contains("乙 棋协大师"), "{out}");
    // The export carries the grade (a published field: no ID number beside it).
    let ex: serde_json::Value =
        serde_json::from_str(&env.ok(&["event", "export", &id, "--format", "json"])).unwrap();
    let players = ex["sections"][0]["players"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let first = players
        .iter()
        .find(|p| p["no"] == 1)
        .cloned()
        .unwrap_or_default();
    assert_eq!(first["name"], "乙");
    assert_eq!(first["grade"], "棋协大师");
}

#[test]
fn a_roster_reads_the_grade_column() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let csv = env.path("roster.csv");
    std::fs::write(
        &csv,
        "姓名,性别,段位\n张一,男,业余4段\n张二,男,国家级运动健将\n张三,男,\n",
    )
    .unwrap();
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        "--section",
        "open",
        "--at",
        "2026-09-01T10:00:00+08:00",
        csv.to_str().unwrap(),
    ]);
    let (out, err) = (stdout(&o), stderr(&o));
    let registered = env.entries_of(&id, "player_registered");
    assert_eq!(registered.len(), 1, "{out}{err}");
    assert_eq!(registered[0]["name"], "张一");
    assert_eq!(registered[0]["grade"], "业余4段");
    let refused = env.entries_of(&id, "entry_refused");
    let reasons: Vec<String> = refused
        .iter()
        .map(|r| format!("{}: {}", r["name"], r["reason"]))
        .collect();
    assert_eq!(refused.len(), 2, "{reasons:?}");
    assert!(
        reasons[0].contains("本组限未获得象棋大师以上称号"),
        "{reasons:?}"
    );
    assert!(reasons[1].contains("报名未填段位/称号"), "{reasons:?}");
}

#[test]
fn suzhou_bars_a_national_master_by_his_title() {
    // S2 「未获得国家级运动健将（象棋大师）以上称号」, read on Suzhou's scale.
    let src = std::fs::read_to_string(root().join("regulations/suzhou-2025.toml")).unwrap();
    let env = EventDir::new(&src);
    let id = env.create();
    let base = [
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "senior",
        "--id-number",
        "320502196003070015",
        "--unit",
        "姑苏区象棋协会",
        "--evidence",
        "社保证明",
        "--at",
        "2025-09-20T10:00:00+08:00",
    ];
    let mut args = base.to_vec();
    args.extend(["--name", "王大师", "--grade", "国家级运动健将"]);
    let err = stderr(&env.run(&args));
    assert!(
        err.contains("已具有 象棋大师 (不低于 象棋大师), 本组限未获得象棋大师以上称号的棋手"),
        "{err}"
    );
    let mut args = base.to_vec();
    args.extend(["--name", "王棋协", "--grade", "棋协大师"]);
    let o = env.run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

const LADDER: &str = r#"
[event]
name = "等级称号测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
deadline = 2026-09-30T18:00:00

[grades]
scale = ["业余1段", "业余5段", "业余一级棋士", "地方大师", "棋协大师"]

[[sections]]
id = "open"
name = "公开组"
format = { kind = "round_robin" }
tiebreaks = "cxa-2011-opp"

[[sections.grade_awards]]
rank = 1
grade = "棋协大师"
basis = "标准 棋协大师 3"
[[sections.grade_awards]]
from = 2
to = 3
grade = "地方大师"
"#;

/// A round robin of section `open` played out (three rounds: four players), the better of each
/// pair (by `order`) winning.
pub(crate) fn play_out(env: &EventDir, id: &str, order: &[&str]) {
    for _ in 0..3 {
        env.ok(&["round", "pair", "--event", id, "--section", "open"]);
        env.ok(&["round", "publish", "--event", id, "--section", "open"]);
        let s: serde_json::Value = serde_json::from_str(&env.ok(&[
            "round",
            "show",
            "--event",
            id,
            "--section",
            "open",
            "--json",
        ]))
        .expect("round show --json");
        for b in s["boards"].as_array().expect("boards") {
            let at = |side: &str| {
                let n = b[side]["name"].as_str().unwrap_or("");
                order.iter().position(|x| *x == n).unwrap_or(usize::MAX)
            };
            let r = if at("red") < at("black") {
                "1-0"
            } else {
                "0-1"
            };
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
        }
    }
}

#[test]
fn places_earn_grades_unless_held_and_the_certificates_say_so() {
    let env = EventDir::new(LADDER);
    let reg = env.path("reg.toml");
    let check = ok(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(
        check.contains(
            "等级称号: 第1名 棋协大师 (标准 棋协大师 3); 第2–3名 地方大师; 已具有同级或更高称号者不再授予"
        ),
        "{check}"
    );
    let id = env.create();
    for (name, grade) in [
        ("甲", Some("业余五段")),
        ("乙", Some("棋协大师")),
        ("丙", None),
        ("丁", Some("业余1段")),
    ] {
        let mut extra = vec![];
        if let Some(g) = grade {
            extra.extend(["--grade", g]);
        }
        let o = add(&env, &id, name, &extra);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    play_out(&env, &id, &["甲", "乙", "丙", "丁"]);
    let prizes = env.ok(&["prizes", "--event", &id]);
    assert!(
        prizes.contains("等级称号 (grades awarded): 公开组"),
        "{prizes}"
    );
    let line = |name: &str| {
        prizes
            .lines()
            .find(|l| l.contains(&format!(" {name}\t")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line("甲").starts_with("  第1名") && line("甲").ends_with("授予 棋协大师 (原 业余5段)"),
        "{prizes}"
    );
    // 乙 already holds 棋协大师, above the 地方大师 his second place earns.
    assert!(
        line("乙").contains("已具有 棋协大师, 不再授予 地方大师"),
        "{prizes}"
    );
    assert!(line("丙").ends_with("授予 地方大师"), "{prizes}");
    assert!(line("丁").is_empty(), "fourth earns nothing: {prizes}");
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["prizes", "--event", &id, "--json"])).expect("json");
    let rows = json["grade_awards"].as_array().expect("grade_awards");
    let got: Vec<(u64, &str, bool)> = rows
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap_or(0),
                r["grade"].as_str().unwrap_or(""),
                r["awarded"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1, "棋协大师", true),
            (2, "地方大师", false),
            (3, "地方大师", true)
        ]
    );
    // The printed prize list has the table; the certificates one page per grade awarded.
    let db = env.db();
    let db = db.to_str().expect("db");
    let html = env.path("prizes.html");
    ok(&[
        "print",
        "--db",
        db,
        "--event",
        &id,
        "--doc",
        "prizes",
        "--format",
        "html",
        "--out",
        html.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(
        page.contains("公开组 等级称号名单") && page.contains("已具有, 不再授予地方大师"),
        "prizes page"
    );
    let certs = env.path("certs.html");
    ok(&[
        "print",
        "--db",
        db,
        "--event",
        &id,
        "--doc",
        "certificates",
        "--format",
        "html",
        "--out",
        certs.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&certs).expect("html");
    assert_eq!(
        page.matches("等级称号证书").count(),
        2,
        "two grade certificates"
    );
    assert!(
        page.contains("比赛中获得第一名，依照竞赛规程授予棋协大师称号")
            && page.contains("比赛中获得第三名，依照竞赛规程授予地方大师称号"),
        "certificates"
    );
}

#[test]
fn grade_awards_the_check_refuses_at_the_line() {
    let cases: [(&str, &str, &str); 5] = [
        (
            "[[sections.grade_awards]]\nrank = 1\ngrade = \"特级大师\"\n",
            "段位表中没有 「特级大师」",
            "grade = \"特级大师\"",
        ),
        (
            "[[sections.grade_awards]]\nfrom = 1\nto = 3\ngrade = \"地方大师\"\n[[sections.grade_awards]]\nfrom = 3\nto = 8\ngrade = \"业余一级棋士\"\n",
            "第3–8名与第 1 条等级称号的第1–3名重叠",
            "from = 3",
        ),
        (
            "[[sections.grade_awards]]\nfrom = 1\nto = 3\ngrade = \"业余一级棋士\"\n[[sections.grade_awards]]\nfrom = 4\nto = 8\ngrade = \"地方大师\"\n",
            "名次靠前者的称号不能更低",
            "grade = \"业余一级棋士\"",
        ),
        (
            "[[sections.grade_awards]]\nfrom = 0\nto = 3\ngrade = \"地方大师\"\n",
            "名次 0–3 无效",
            "to = 3",
        ),
        (
            "[[sections.grade_awards]]\nrank = 2\nfrom = 1\ngrade = \"地方大师\"\n",
            "rank 或 from/to 之一",
            "rank = 2",
        ),
    ];
    for (awards, said, at) in cases {
        let text = LADDER
            .split("[[sections.grade_awards]]")
            .next()
            .unwrap_or_default()
            .to_string()
            + awards;
        // The refusal names the line of the key at fault.
        let line = text
            .lines()
            .position(|l| l == at)
            .map(|i| i + 1)
            .expect("the key's line");
        let env = EventDir::new(&text);
        let reg = env.path("reg.toml");
        let o = run(&["regulation", "check", reg.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{awards}");
        let err = stderr(&o);
        assert!(
            err.contains(said) && err.contains(&format!("reg.toml:{line}:")),
            "{awards}: line {line}: {err}"
        );
    }
    // Without a scale, grades cannot be awarded.
    let text = LADDER.replace(
        "[grades]\nscale = [\"业余1段\", \"业余5段\", \"业余一级棋士\", \"地方大师\", \"棋协大师\"]\n",
        "",
    );
    let env = EventDir::new(&text);
    let reg = env.path("reg.toml");
    let o = run(&["regulation", "check", reg.to_str().unwrap()]);
    assert!(stderr(&o).contains("等级称号需要段位表"), "{}", stderr(&o));
}
