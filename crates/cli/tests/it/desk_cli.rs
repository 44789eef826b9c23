//! The registration desk as a user drives it: `player add` / `player import` / `fee` /
//! `checkin` / `draw` / `player withdraw` / `player absent`, each a real process over one
//! database, and the log they leave behind checked by `event verify`.

use crate::common;

use common::*;
use std::process::{Command, Output};

const REGULATION: &str = r#"
[event]
name = "报名处测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
unit_kind = "association"
max_per_unit_overall = 3
deadline = 2026-09-30T18:00:00
fee = { yuan = 50 }
unpaid_not_paired = true

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.entries]
fee = { yuan = 80, fen = 50 }

[sections.eligibility]
evidence = ["accident_insurance"]

[[sections]]
id = "women"
name = "女子组"
format = { kind = "swiss", rounds = 5 }
tiebreaks = "cxa-2011-opp"

[sections.eligibility]
sex = "F"
"#;

const EARLY: &str = "2026-09-01T10:00:00+08:00";
const LATE: &str = "2026-10-01T08:00:00+08:00";

/// `player add … --section S --name N` plus `extra`, at `at`.
fn add(env: &EventDir, id: &str, section: &str, name: &str, at: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "player",
        "add",
        "--event",
        id,
        "--section",
        section,
        "--name",
        name,
        "--at",
        at,
    ];
    args.extend_from_slice(extra);
    env.run(&args)
}

#[test]
fn a_missing_database_is_named_and_never_created() {
    let env = EventDir::new(REGULATION);
    for args in [
        &["event", "list"][..],
        &["event", "show", "ev-00000001"],
        &["event", "export", "ev-00000001"],
        &["fee", "--event", "ev-00000001", "--player", "P1"],
        &["checkin", "--event", "ev-00000001", "--player", "P1"],
        &["draw", "--event", "ev-00000001", "--section", "open"],
        &[
            "player",
            "add",
            "--event",
            "ev-00000001",
            "--section",
            "open",
            "--name",
            "张三",
        ],
    ] {
        let err = env.refused(args);
        assert!(err.contains("数据库不存在"), "{args:?}: {err}");
        assert!(err.contains("arbiter.db"), "{args:?}: {err}");
        assert!(!env.db().exists(), "{args:?} created the database");
    }
    // `event create` is the command that creates it.
    env.create();
    assert!(env.db().exists());
    // A bad flag combination is invalid input, like any bad flag: exit 2.
    env.refused(&[
        "event",
        "export",
        "ev-00000001",
        "--mask",
        "--format",
        "json",
    ]);
}

#[test]
fn event_create_records_the_directors_limits() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let created = &env.entries_of(&id, "event_created")[0];
    assert_eq!(created["limits"]["max_per_association"], 3, "{created}");
    assert_eq!(created["limits"]["fee_fen"], 5000, "{created}");
    assert_eq!(
        created["limits"]["deadline"], "2026-09-30T18:00:00+08:00",
        "{created}"
    );
}

#[test]
fn the_desk_from_entry_to_draw_and_verify_accepts_the_log() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    // Evidence by the Chinese label `regulation check` prints, and by its regulation name.
    let o = add(
        &env,
        &id,
        "open",
        "张三",
        EARLY,
        &[
            "--sex",
            "M",
            "--birth",
            "1980-01-02",
            "--association",
            "昆山市",
            "--evidence",
            "意外伤害保险",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("已报名 registered: P1 张三 [公开组]"));
    // A CSV with extra columns (序号, 备注): ignored, each with a notice.
    let csv = write(
        &env.path("roster.csv"),
        "序号,姓名,组别,性别,出生日期,协会,证明,备注\n\
         1,李四,公开组,男,1990-05-06,昆山市,accident_insurance,队长\n\
         2,王五,open,男,1991-07-08,太仓市,社保证明,\n\
         3,赵芳,women,女,1995-03-04,太仓市,,\n\
         4,钱七,open,男,1992-01-01,太仓市,意外伤害保险,\n",
    );
    let o = env.run(&["player", "import", "--event", &id, &csv, "--at", EARLY]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("忽略列 「序号」") && err.contains("忽略列 「备注」"),
        "{err}"
    );
    assert!(
        !err.contains("did you mean"),
        "no nonsense suggestion: {err}"
    );
    // 王五 brings 社保证明, not the insurance the open section requires.
    assert!(out.contains("已报名 3 人, 拒绝 1 人"), "{out}");
    assert!(out.contains("第2行 李四 [公开组]: P2"), "{out}");
    assert!(out.contains("第4行 赵芳 [女子组]: P3"), "{out}");
    assert!(out.contains("第5行 钱七 [公开组]: P4"), "{out}");
    assert!(
        out.contains("第3行 王五") && out.contains("accident_insurance"),
        "{out}"
    );

    // Fees: the open section's own fee by default; twice is refused.
    assert!(env
        .ok(&["fee", "--event", &id, "--player", "P1"])
        .contains("80.50元"));
    let err = env.refused(&["fee", "--event", &id, "--player", "P1"]);
    assert!(err.contains("已缴费"), "{err}");
    env.ok(&["fee", "--event", &id, "--player", "2", "--amount", "80.5"]);
    env.ok(&["fee", "--event", &id, "--player", "P4", "--amount", "80.50"]);
    env.ok(&["fee", "--event", &id, "--player", "P3"]);
    env.refused(&["fee", "--event", &id, "--player", "P9"]);
    env.refused(&["fee", "--event", &id, "--player", "P2", "--amount", "1.234"]);
    let fees = env.entries_of(&id, "fee_paid");
    let amounts: Vec<u64> = fees
        .iter()
        .map(|f| f["amount_fen"].as_u64().unwrap())
        .collect();
    assert_eq!(amounts, vec![8050, 8050, 8050, 5000]);
    // Check-in, once.
    env.ok(&["checkin", "--event", &id, "--player", "P1"]);
    assert!(env
        .refused(&["checkin", "--event", &id, "--player", "P1"])
        .contains("已检录"));
    // A late entry: refused after the deadline, admitted by the chief arbiter with a reason.
    let o = add(
        &env,
        &id,
        "open",
        "孙八",
        LATE,
        &[
            "--birth",
            "1985-02-02",
            "--association",
            "常熟市",
            "--evidence",
            "accident_insurance",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let o = add(
        &env,
        &id,
        "open",
        "孙八",
        LATE,
        &[
            "--birth",
            "1985-02-02",
            "--association",
            "常熟市",
            "--evidence",
            "accident_insurance",
            "--late-reason",
            "裁判长同意补报: 报名表邮寄延误",
            "--actor",
            "裁判长",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let regs = env.entries_of(&id, "player_registered");
    let late = regs.iter().find(|r| r["name"] == "孙八").unwrap();
    assert_eq!(late["late_reason"], "裁判长同意补报: 报名表邮寄延误");
    // P5 has not paid: the draw leaves him out (T7).
    let out = env.ok(&["draw", "--event", &id, "--section", "公开组"]);
    assert!(out.contains("3 人"), "{out}");
    assert!(!out.contains("P5"), "{out}");
    let err = env.refused(&["draw", "--event", &id, "--section", "open"]);
    assert!(err.contains("已抽签"), "{err}");
    env.ok(&["fee", "--event", &id, "--player", "P5"]);
    let out = env.ok(&["draw", "--event", &id, "--section", "open"]);
    assert!(out.contains("4 人") && out.contains("P5"), "{out}");
    let drawn = env.entries_of(&id, "pairing_numbers_drawn");
    assert_eq!(drawn.len(), 2);
    assert_eq!(
        drawn[0]["seed"], drawn[1]["seed"],
        "the seed is the section's, recorded"
    );
    // Absent for round 1, withdrawn with a reason.
    env.ok(&[
        "player", "absent", "--event", &id, "--player", "P4", "--round", "1",
    ]);
    assert!(env
        .refused(&["player", "absent", "--event", &id, "--player", "P4", "--round", "1"])
        .contains("已登记请假"));
    env.refused(&[
        "player", "absent", "--event", &id, "--player", "P4", "--round", "0",
    ]);
    env.refused(&[
        "player", "withdraw", "--event", &id, "--player", "P3", "--reason", " ",
    ]);
    env.ok(&[
        "player",
        "withdraw",
        "--event",
        &id,
        "--player",
        "P3",
        "--reason",
        "因病退赛",
    ]);
    let w = &env.entries_of(&id, "player_withdrawn")[0];
    assert_eq!(w["reason"], "因病退赛");
    assert_eq!(env.entries_of(&id, "player_absent")[0]["round"], 1);
    // The log the desk wrote is the log `event verify` accepts.
    let o = Command::new(BIN)
        .args(["event", "verify"])
        .arg(env.db())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn refusals_are_recorded_once_and_duplicates_without_id_are_refused() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    // Two bad rows (the women's section is for women; the open one needs insurance, and
    // its 证明 cell is empty).
    let csv = write(
        &env.path("bad.csv"),
        "姓名,组别,性别,出生日期,证明\n周九,women,男,1990-01-01,\n吴十,open,男,1990-01-01,\n",
    );
    let first = env.ok(&["player", "import", "--event", &id, &csv, "--at", EARLY]);
    assert!(first.contains("拒绝 2 人"), "{first}");
    let before = env.log(&id)["entries"].as_array().unwrap().len();
    let again = env.ok(&["player", "import", "--event", &id, &csv, "--at", EARLY]);
    assert!(again.contains("其中 2 人此前已记录"), "{again}");
    assert_eq!(
        env.log(&id)["entries"].as_array().unwrap().len(),
        before,
        "a repeated failed import adds nothing"
    );
    let err = env.refused(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "women",
        "--name",
        "周九",
        "--sex",
        "M",
        "--birth",
        "1990-01-01",
        "--at",
        EARLY,
    ]);
    assert!(err.contains("已因同一理由被拒绝"), "{err}");
    // No ID number: the same name, association and birth date in a section is one person.
    let args = [
        "--sex",
        "F",
        "--birth",
        "1993-09-09",
        "--association",
        "昆山市",
    ];
    assert!(add(&env, &id, "women", "郑一", EARLY, &args)
        .status
        .success());
    let o = add(&env, &id, "women", "郑一", EARLY, &args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("重复"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Another birth date is another person.
    let other = [
        "--sex",
        "F",
        "--birth",
        "1994-09-09",
        "--association",
        "昆山市",
    ];
    assert!(add(&env, &id, "women", "郑一", EARLY, &other)
        .status
        .success());
}

#[test]
fn a_team_spread_over_two_units_is_refused() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let a = [
        "--sex",
        "F",
        "--birth",
        "1990-01-01",
        "--unit",
        "昆山农商行",
        "--team",
        "昆山一队",
    ];
    assert!(add(&env, &id, "women", "甲", EARLY, &a).status.success());
    let b = [
        "--sex",
        "F",
        "--birth",
        "1991-01-01",
        "--unit",
        "太仓电子",
        "--team",
        "昆山一队",
    ];
    let o = add(&env, &id, "women", "乙", EARLY, &b);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("跨单位组队"));
}

#[test]
fn every_flag_of_the_trf_and_player_commands_has_chinese_help() {
    let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    for cmd in [
        &["pair"][..],
        &["check"],
        &["generate"],
        &["standings"],
        &["knockout", "show"],
        &["player", "add"],
        &["player", "import"],
        &["player", "withdraw"],
        &["player", "absent"],
        &["fee"],
        &["checkin"],
        &["draw"],
    ] {
        let o = Command::new(BIN).args(cmd).arg("-h").output().unwrap();
        let help = String::from_utf8_lossy(&o.stdout);
        let flags: Vec<&str> = help
            .lines()
            .filter(|l| l.trim_start().starts_with("--") || l.trim_start().starts_with('-'))
            .filter(|l| !l.contains("--help") && !l.contains("--version"))
            .collect();
        assert!(!flags.is_empty(), "{cmd:?}: {help}");
        for l in flags {
            assert!(cjk(l), "{cmd:?}: flag without Chinese help: {l}");
        }
    }
}

#[test]
fn generate_refuses_a_field_its_own_reader_could_not_read() {
    let env = EventDir::new(REGULATION);
    let out = env.path("big.trf");
    let o = Command::new(BIN)
        .args([
            "generate",
            "--players",
            "10000",
            "--rounds",
            "1",
            "--seed",
            "1",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("9999"));
    assert!(!out.exists());
}

#[test]
fn round_pair_names_the_players_who_paid_but_are_not_checked_in() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    for name in ["张三", "李四", "王五", "赵六"] {
        let o = add(
            &env,
            &id,
            "open",
            name,
            EARLY,
            &[
                "--sex",
                "M",
                "--birth",
                "1980-01-02",
                "--evidence",
                "意外伤害保险",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for p in ["P1", "P2", "P3", "P4"] {
        env.ok(&["fee", "--event", &id, "--player", p]);
    }
    env.ok(&["checkin", "--event", &id, "--player", "P1"]);
    env.ok(&["checkin", "--event", &id, "--player", "P3"]);
    let out = env.ok(&["round", "pair", "--event", &id, "--section", "open"]);
    assert!(
        out.contains("2人已缴费未签到: 李四 (P2), 赵六 (P4)"),
        "{out}"
    );
}

/// `player correct`: a misspelt name and a wrong unit corrected with a reason, only the fields
/// given change, the ID number brings its sex and birth date, a cleared field is emptied, and
/// bad input (no field, an unknown `--clear`, no reason, a woman's ID in the women's section
/// replaced by a man's) is refused with nothing written.
#[test]
fn player_correct_changes_only_the_fields_given_with_the_reason() {
    let env = EventDir::new(REGULATION);
    let id = env.create();
    let o = add(
        &env,
        &id,
        "women",
        "赵芳",
        EARLY,
        &[
            "--sex",
            "F",
            "--birth",
            "1995-03-04",
            "--association",
            "太仓市",
            "--phone",
            "13800000000",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = env.ok(&[
        "player",
        "correct",
        "--event",
        &id,
        "--player",
        "P1",
        "--name",
        "赵 芳芳",
        "--association",
        "昆山市",
        "--clear",
        "phone",
        "--reason",
        "报名表笔误",
        "--at",
        EARLY,
    ]);
    assert!(
        out.contains("已更正 corrected") && out.contains("报名表笔误"),
        "{out}"
    );
    let log = env.log(&id);
    let c = entries_of_kind(&log, "player_corrected");
    assert_eq!(c.len(), 1, "{c:?}");
    let text = c[0].to_string();
    assert!(
        text.contains("赵 芳芳") && text.contains("昆山市"),
        "{text}"
    );
    assert!(text.contains("报名表笔误"), "{text}");
    assert!(!text.contains("1995"), "sex and birth untouched: {text}");
    let told = env.ok(&["event", "log", &id]);
    assert!(
        told.contains("赵 芳芳") && told.contains("报名表笔误"),
        "{told}"
    );

    // A man's ID number for a player of the women's section: refused, nothing written.
    let man = id_number("32058319800102001");
    let err = env.refused(&[
        "player",
        "correct",
        "--event",
        &id,
        "--player",
        "P1",
        "--id-number",
        &man,
        "--reason",
        "身份证号录错",
        "--at",
        EARLY,
    ]);
    assert!(err.contains("女子组") || err.contains("性别"), "{err}");
    for (args, words) in [
        (vec!["--reason", "无"], "没有要更正的字段"),
        (vec!["--clear", "shoe", "--reason", "x"], "--clear 「shoe」"),
        (vec!["--name", "赵芳", "--reason", " "], "理由"),
    ] {
        let mut a = vec!["player", "correct", "--event", &id, "--player", "P1"];
        a.extend(args);
        let err = env.refused(&a);
        assert!(err.contains(words), "{a:?}: {err}");
    }
    assert_eq!(entries_of_kind(&env.log(&id), "player_corrected").len(), 1);
    let o = Command::new(BIN)
        .args(["event", "verify"])
        .arg(env.db())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}
