//! The registration rules the four regulations state, as an arbiter meets them at the CLI:
//! each test quotes the regulation's own words and drives the real binary over a database
//! made from the bundled regulation file.

use crate::common;

use common::*;

/// Tianshui 2024 as bundled; entries open until 2024-07-23 18:00.
fn tianshui() -> EventDir {
    EventDir::new(&std::fs::read_to_string(regulation("tianshui-2024")).unwrap())
}

const T_AT: &str = "2024-07-20T10:00:00+08:00";

/// A man born 1990-01-01 (Tianshui address code), by sequence `n`.
fn man(n: u32) -> String {
    id_number(&format!("62050219900101{:03}", 2 * n + 1))
}

/// `player add` in Tianshui's open section at [`T_AT`] with the accident insurance shown.
fn add_open(env: &EventDir, id: &str, name: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "player",
        "add",
        "--event",
        id,
        "--section",
        "open",
        "--name",
        name,
        "--evidence",
        "accident_insurance",
        "--at",
        T_AT,
    ];
    args.extend_from_slice(extra);
    env.run(&args)
}

/// Item 3 of the issue: `--unit ""` is no unit. Tianshui T2 "首轮同队队员回避": two players
/// with no unit are nobody's team-mates, and no sheet prints "杨帆 ()".
#[test]
fn an_empty_unit_is_no_unit_not_a_team_of_nobodies() {
    let env = tianshui();
    let id = env.create();
    for (n, name, unit) in [(1, "杨帆", ""), (2, "李雷", "   ")] {
        let ph = format!("1391234000{n}");
        let o = add_open(
            &env,
            &id,
            name,
            &["--id-number", &man(n), "--phone", &ph, "--unit", unit],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for p in env.entries_of(&id, "player_registered") {
        assert!(p["unit"].is_null(), "a blank unit was stored: {p}");
    }
    for p in ["P1", "P2"] {
        env.ok(&["fee", "--event", &id, "--player", p, "--at", T_AT]);
    }
    env.ok(&["draw", "--event", &id, "--section", "open", "--at", T_AT]);
    env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    let sheet = env.ok(&["round", "show", "--event", &id, "--section", "open"]);
    assert!(sheet.contains("杨帆") && !sheet.contains("()"), "{sheet}");
}

/// Item 1 of the issue: Tianshui T7 "报名时需提供姓名、身份证号、手机号" — `player add` names
/// the missing field and records nothing.
#[test]
fn tianshui_entries_need_name_id_number_and_phone() {
    let env = tianshui();
    let id = env.create();
    let err = stderr(&add_open(&env, &id, "张三", &[]));
    assert!(err.contains("请填写身份证号"), "{err}");
    let err = stderr(&add_open(&env, &id, "张三", &["--id-number", &man(1)]));
    assert!(err.contains("请填写手机号"), "{err}");
    assert!(env.entries_of(&id, "player_registered").is_empty());
    assert!(env.entries_of(&id, "entry_refused").is_empty());
    let o = add_open(
        &env,
        &id,
        "张三",
        &["--id-number", &man(1), "--phone", "13912340001"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Item 1 of the issue, import: T7 "报名时需提供姓名、身份证号、手机号" — a row with an empty
/// 身份证号 cell is named by row and cell; a file without a 手机号 column says so.
#[test]
fn a_tianshui_roster_names_the_row_and_column_of_a_missing_field() {
    let env = tianshui();
    let id = env.create();
    let csv = format!(
        "姓名,身份证号,手机号,证明\n张三,{},13912340001,意外伤害保险\n李四,,13912340002,意外伤害保险\n",
        man(1)
    );
    let file = write(&env.path("roster.csv"), &csv);
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        "--section",
        "open",
        "--at",
        T_AT,
        &file,
    ]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("第3行 身份证号 (B列), 单元格 B3") && out.contains("规程要求填写身份证号"),
        "{out}"
    );
    assert_eq!(env.entries_of(&id, "player_registered").len(), 1, "{out}");
    let csv = format!("姓名,身份证号,证明\n王五,{},意外伤害保险\n", man(3));
    let file = write(&env.path("no-phone.csv"), &csv);
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        "--section",
        "open",
        "--at",
        T_AT,
        &file,
    ]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(out.contains("文件缺少「手机号」列"), "{out}");
    assert_eq!(env.entries_of(&id, "player_registered").len(), 1, "{out}");
}

/// Item 2 of the issue: an ID number whose birth date is after the day of the entry (or
/// before 1900) is no ID number of a player; T7 "年龄在65周岁以内" is judged from it, so it
/// must be real. Refused with the reason, nothing recorded.
#[test]
fn an_id_number_born_in_the_future_or_before_1900_is_refused() {
    let env = tianshui();
    let id = env.create();
    let future = id_number("62050220300101001");
    let err = stderr(&add_open(
        &env,
        &id,
        "未来人",
        &["--id-number", &future, "--phone", "13912340001"],
    ));
    assert!(
        err.contains("出生日期 2030-01-01 晚于报名日 2024-07-20"),
        "{err}"
    );
    let old = id_number("62050218990101001");
    let o = add_open(
        &env,
        &id,
        "古人",
        &["--id-number", &old, "--phone", "13912340002"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("1900"), "{}", stderr(&o));
    // A typed sex or birth date that contradicts the ID number: the reason, not the ID's.
    let err = stderr(&add_open(
        &env,
        &id,
        "张三",
        &[
            "--id-number",
            &man(1),
            "--phone",
            "13912340003",
            "--sex",
            "女",
        ],
    ));
    assert!(
        err.contains("性别") && err.contains("身份证号不符"),
        "{err}"
    );
    assert!(env.entries_of(&id, "player_registered").is_empty());
    // The same through a roster: the cell of the ID number is named.
    let csv = format!("姓名,身份证号,手机号,证明\n未来人,{future},13912340001,意外伤害保险\n");
    let file = write(&env.path("future.csv"), &csv);
    let o = env.run(&[
        "player",
        "import",
        "--event",
        &id,
        "--section",
        "open",
        "--at",
        T_AT,
        &file,
    ]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("第2行 身份证号 (B列), 单元格 B2") && out.contains("晚于报名日"),
        "{out}"
    );
    assert!(env.entries_of(&id, "player_registered").is_empty());
}

/// Item 7 of the issue: T7 "赛事服务费100元 … 不缴费则视为放弃参赛，不予编排" — 50 yuan of
/// 100 leaves 50 owed (and the player unpaid); a second payment completes it.
#[test]
fn half_the_fee_leaves_the_rest_owed_until_a_second_payment() {
    let env = tianshui();
    let id = env.create();
    let o = add_open(
        &env,
        &id,
        "张三",
        &["--id-number", &man(1), "--phone", "13912340001"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = env.ok(&["fee", "--event", &id, "--player", "P1", "--amount", "50"]);
    assert!(
        out.contains("已缴 50元, 尚欠 50元") && !out.contains("已缴费"),
        "{out}"
    );
    // Not paid in full: not drawn.
    let err = env.refused(&["draw", "--event", &id, "--section", "open"]);
    assert!(!err.is_empty());
    let out = env.ok(&["fee", "--event", &id, "--player", "P1"]);
    assert!(
        out.contains("已缴费") && out.contains("已缴清 100元"),
        "{out}"
    );
    let paid: Vec<u64> = env
        .entries_of(&id, "fee_paid")
        .iter()
        .map(|e| e["amount_fen"].as_u64().unwrap())
        .collect();
    assert_eq!(paid, [5000, 5000]);
    // Paid in full: a third payment is refused.
    env.refused(&["fee", "--event", &id, "--player", "P1"]);
    env.ok(&["draw", "--event", &id, "--section", "open"]);
}

/// Kunshan 2026 as bundled, with `units` of 甲组 listing one unit (as the organiser fills it
/// from last edition's results); entries open until 2026-09-15.
fn kunshan_with_placed_unit() -> EventDir {
    let src = std::fs::read_to_string(regulation("kunshan-2026"))
        .unwrap()
        .replacen("units = []", "units = [\"昆山一厂\"]", 1);
    EventDir::new(&src)
}

const K_AT: &str = "2026-09-01T10:00:00+08:00";

/// K5 "如实填报姓名、参赛组别、工作单位、身份证号、社保证号、联系方式": a man of Kunshan with all
/// of them.
fn add_kunshan_man(env: &EventDir, id: &str, n: u32, unit: &str) {
    let idn = id_number(&format!("32058319900101{:03}", 2 * n + 1));
    let phone = format!("1391234{n:04}");
    let ss = format!("3205831990{n:04}");
    let name = format!("棋手{n}");
    env.ok(&[
        "player",
        "add",
        "--event",
        id,
        "--section",
        "men",
        "--name",
        &name,
        "--unit",
        unit,
        "--id-number",
        &idn,
        "--phone",
        &phone,
        "--social-security",
        &ss,
        "--evidence",
        "social_security",
        "--at",
        K_AT,
    ]);
}

/// Item 5 of the issue, K4: "上届…甲组团体前八名、乙组团体前四名单位，本届自动划入甲组；其余单位
/// 可结合自身实力自主选择甲组或乙组团体报名" — a placed unit's team goes to 甲组 by itself and
/// may not name 乙组; every other team must name 甲组 or 乙组.
#[test]
fn kunshan_teams_are_in_a_division_placed_or_chosen() {
    let env = kunshan_with_placed_unit();
    let id = env.create();
    for n in 0..3 {
        add_kunshan_man(&env, &id, n, "昆山一厂");
    }
    for n in 3..6 {
        add_kunshan_man(&env, &id, n, "昆山二厂");
    }
    let team = |name: &str, unit: &str, members: [&str; 3], division: Option<&str>| {
        let mut args = vec![
            "team",
            "add",
            "--event",
            &id,
            "--name",
            name,
            "--unit",
            unit,
            "--leader",
            "王领队",
            "--coach",
            "李教练",
            "--at",
            K_AT,
        ];
        for m in members {
            args.extend(["--member", m]);
        }
        if let Some(d) = division {
            args.extend(["--division", d]);
        }
        env.run(&args)
    };
    let o = team("二厂队", "昆山二厂", ["P4", "P5", "P6"], None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("甲组、乙组") && err.contains("--division"),
        "{err}"
    );
    let o = team("一厂队", "昆山一厂", ["P1", "P2", "P3"], Some("乙组"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("自动划入甲组"), "{}", stderr(&o));
    assert!(env.entries_of(&id, "team_entered").is_empty());
    let o = team("一厂队", "昆山一厂", ["P1", "P2", "P3"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = team("二厂队", "昆山二厂", ["P4", "P5", "P6"], Some("乙组"));
    assert!(o.status.success(), "{}", stderr(&o));
    let divisions: Vec<String> = env
        .entries_of(&id, "team_entered")
        .iter()
        .map(|t| t["division"].as_str().unwrap_or("-").to_string())
        .collect();
    assert_eq!(divisions, ["a", "b"]);
}

/// Item 6 of the issue: T7 "报到时现场填写个人安全承诺书" — `checkin` refuses without
/// `--pledge`, saying which document; with it the check-in records the pledge.
#[test]
fn tianshui_check_in_needs_the_safety_pledge() {
    let env = tianshui();
    let id = env.create();
    let o = add_open(
        &env,
        &id,
        "张三",
        &["--id-number", &man(1), "--phone", "13912340001"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = env.refused(&["checkin", "--event", &id, "--player", "P1"]);
    assert!(
        err.contains("须签署《个人安全承诺书》后方可报到") && err.contains("--pledge"),
        "{err}"
    );
    assert!(env.entries_of(&id, "checked_in").is_empty());
    env.ok(&["checkin", "--event", &id, "--player", "P1", "--pledge"]);
    let done = env.entries_of(&id, "checked_in");
    assert_eq!(done.len(), 1);
    assert_eq!(done[0]["pledge"], true, "{}", done[0]);
    let log = env.ok(&["event", "log", &id]);
    assert!(log.contains("已签承诺书"), "{log}");
}

/// Item 8 of the issue, X4 "Everything in Chinese by default": an argument error of any
/// command says what is wrong in Chinese first, then clap's English with the usage line,
/// exit code 2.
#[test]
fn argument_errors_are_chinese_first_with_the_usage_line() {
    for (args, zh) in [
        (
            &["player", "add", "--event", "ev-00000001"][..],
            "缺少必填参数 --section <SECTION>",
        ),
        (&["evnt", "list"][..], "未知子命令「evnt」"),
        (&["event", "list", "--jsn"][..], "未知参数「--jsn」"),
        (
            &[
                "result",
                "--event",
                "e",
                "--section",
                "s",
                "--board",
                "x",
                "1-0",
            ][..],
            "参数 --board <BOARD> 的值「x」无效",
        ),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("错误 error: {zh}")),
            "{args:?}: {err}"
        );
        assert!(err.contains("Usage:") && err.contains("error:"), "{err}");
    }
    // Help is not an error: stdout, exit 0.
    let o = run(&["player", "add", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Usage:"));
}

/// Item 4 of the issue, K5 "如实填报姓名、参赛组别、工作单位、身份证号、社保证号、联系方式":
/// the 社保号 is required and kept with the entry (`--social-security`, the import's 社保号 /
/// 社会保障号 column), masked like the ID number on the printed check-in sheet and in a
/// masked log, whole only on the organiser's copy.
#[test]
fn kunshan_keeps_the_social_security_number_masked_where_published() {
    let env = kunshan_with_placed_unit();
    let id = env.create();
    let idn = id_number("32058319900101001");
    let base = [
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "men",
        "--name",
        "张三",
        "--unit",
        "昆山一厂",
        "--id-number",
        &idn,
        "--phone",
        "13912340001",
        "--evidence",
        "social_security",
        "--at",
        K_AT,
    ];
    let err = env.refused(&base);
    assert!(err.contains("请填写社保号"), "{err}");
    let mut with = base.to_vec();
    with.extend(["--social-security", "3205831990001234"]);
    env.ok(&with);
    let reg = &env.entries_of(&id, "player_registered")[0];
    assert_eq!(reg["social_security"], "3205831990001234", "{reg}");
    // A roster with a 社会保障号 column; a row without one is named by its cell.
    let csv = format!(
        "姓名,组别,单位,身份证号,社会保障号,手机号,证明\n\
         李四,men,昆山一厂,{},3205831990005678,13912340002,社保证明\n\
         王五,men,昆山一厂,{},,13912340003,社保证明\n",
        id_number("32058319900101003"),
        id_number("32058319900101005")
    );
    let file = write(&env.path("roster.csv"), &csv);
    let o = env.run(&["player", "import", "--event", &id, "--at", K_AT, &file]);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("第3行 社会保障号 (E列), 单元格 E3") && out.contains("规程要求填写社保号"),
        "{out}"
    );
    assert_eq!(env.entries_of(&id, "player_registered").len(), 2, "{out}");
    // A masked log and the published check-in sheet never show it whole.
    let masked = env.ok(&["event", "export", &id, "--mask"]);
    assert!(
        masked.contains("320583********34") && !masked.contains("3205831990001234"),
        "{masked}"
    );
    let sheet = env.path("checkin.html");
    let sheet_s = sheet.to_str().unwrap();
    env.ok(&[
        "print", "--event", &id, "--doc", "checkin", "--format", "html", "--out", sheet_s,
    ]);
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(
        html.contains("社保号") && html.contains("320583********34"),
        "{html}"
    );
    assert!(!html.contains("3205831990001234"));
    // The organiser's copy: whole.
    env.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "checkin",
        "--format",
        "html",
        "--organiser",
        "--out",
        sheet_s,
    ]);
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(html.contains("3205831990001234"));
}

/// 昆山 五(一) (issue item 10): the bundled Kunshan regulation leaves `units = []`; this
/// edition's organiser fills in last edition's placed units by the settings (as the desk's
/// new-edition form does), and from then a team of such a unit is placed in 甲组 by itself.
/// A division the regulation does not place from last edition's results is refused naming
/// the one it does; the settings say what was filled in, and the log keeps it.
#[test]
fn kunshan_last_editions_units_are_filled_in_for_this_edition() {
    let env = EventDir::new(&std::fs::read_to_string(regulation("kunshan-2026")).unwrap());
    let id = env.create();
    for n in 0..3 {
        add_kunshan_man(&env, &id, n, "昆山一厂");
    }
    let settings = |placed: &str| {
        env.run(&[
            "event",
            "settings",
            "--event",
            &id,
            "--placed-units",
            placed,
            "--at",
            K_AT,
        ])
    };
    let o = settings("乙组=昆山一厂");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("「乙组」不是按上届成绩划入单位的组别; 可填写的组别: 甲组"),
        "{}",
        stderr(&o)
    );
    let o = settings("甲组=昆山一厂、昆山三厂");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("甲组 上届划入单位 → 昆山一厂、昆山三厂"),
        "{}",
        stdout(&o)
    );
    let changed = env.entries_of(&id, "settings_changed");
    assert_eq!(
        changed[0]["placed_units"]["a"],
        serde_json::json!(["昆山一厂", "昆山三厂"])
    );
    // Placed now: the team of 昆山一厂 may not name 乙组 and goes to 甲组 without naming it.
    let team = |division: Option<&str>| {
        let mut args = vec![
            "team",
            "add",
            "--event",
            &id,
            "--name",
            "一厂队",
            "--unit",
            "昆山一厂",
            "--leader",
            "王领队",
            "--coach",
            "李教练",
            "--at",
            K_AT,
            "--member",
            "P1",
            "--member",
            "P2",
            "--member",
            "P3",
        ];
        if let Some(d) = division {
            args.extend(["--division", d]);
        }
        env.run(&args)
    };
    let o = team(Some("乙组"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("自动划入甲组"), "{}", stderr(&o));
    let o = team(None);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = env.entries_of(&id, "team_entered");
    assert_eq!(t[0]["division"], "a");
}
