//! The four regulations clause by clause, round two (issue 44): each test runs one clause
//! through `arbiter …` as an arbiter types it, on a real database, and quotes the clause.

use crate::common::*;
use serde_json::Value;

/// A player as `player add` takes him: the section, the name, and more flags; `--at` `at`.
fn add(dir: &EventDir, id: &str, section: &str, name: &str, at: &str, extra: &[&str]) -> Output {
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
    dir.run(&args)
}

use std::process::Output;

fn shipped(stem: &str) -> EventDir {
    EventDir::new(&std::fs::read_to_string(regulation(stem)).expect("bundled regulation"))
}

fn pair(dir: &EventDir, id: &str, section: &str) -> String {
    let out = dir.run(&["round", "pair", "--event", id, "--section", section]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir.ok(&["round", "publish", "--event", id, "--section", section]);
    format!("{}{}", stdout(&out), stderr(&out))
}

fn result(dir: &EventDir, id: &str, section: &str, board: u32, r: &str, extra: &[&str]) {
    let b = board.to_string();
    let mut args = vec![
        "result",
        "--event",
        id,
        "--section",
        section,
        "--board",
        &b,
        r,
    ];
    args.extend_from_slice(extra);
    dir.ok(&args);
}

// ------------------------------------------------------------------------------ 苏州 七

const ASSOC: &str = r#"
[event]
name = "协会团体测试赛"
start = 2025-10-07
end = 2025-10-08

[registration]
unit_kind = "association"
max_per_unit_overall = 30

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 1 }
tiebreaks = "cxa-2011-opp"

[[sections]]
id = "junior"
name = "少年组"
format = { kind = "swiss", rounds = 1 }
tiebreaks = "cxa-2011-opp"

[associations]
sections = ["open", "junior"]
"#;

/// 苏州 七 「团体名次计算方法：团体成绩取前三名，以各个县市（区）协会报名的所有组别最好名次相加，累计
/// 数字少者为前列」 and 五 「由各县市（区）协会选拔组织报名…（不得跨协会报名）」: in an event whose units
/// are associations the 单位 given is the 协会 — a player entered `--unit 姑苏区` counts for 姑苏区
/// in `teams` (the association is stored with the entry), and a player with no association is
/// named at the desk's pairing and by `teams`, never dropped silently.
#[test]
fn s7_an_association_entered_as_the_unit_is_ranked_and_one_without_is_named() {
    let dir = EventDir::new(ASSOC);
    let id = dir.create();
    let at = "2025-09-20T10:00:00+08:00";
    for (sec, name, flags) in [
        ("open", "张一", &["--unit", "姑苏区"][..]),
        ("open", "李二", &["--association", "吴中区"][..]),
        ("open", "孙六", &[][..]),
        ("junior", "王三", &["--association", "姑苏区"][..]),
        ("junior", "赵四", &["--association", "吴中区"][..]),
    ] {
        let o = add(&dir, &id, sec, name, at, flags);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    let zhang = dir
        .entries_of(&id, "player_registered")
        .into_iter()
        .find(|p| p["name"] == "张一")
        .expect("张一");
    assert_eq!(
        zhang["association"], "姑苏区",
        "the unit is the association: {zhang}"
    );

    let said = pair(&dir, &id, "open");
    assert!(
        said.contains("1人未填协会，不计入团体成绩") && said.contains("孙六"),
        "{said}"
    );
    pair(&dir, &id, "junior");
    result(&dir, &id, "open", 1, "1-0", &[]);
    result(&dir, &id, "junior", 1, "1-0", &[]);

    let o = dir.run(&["teams", "--event", &id, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let rows = v["associations"].as_array().expect("associations");
    let gusu = rows
        .iter()
        .find(|r| r["association"] == "姑苏区")
        .unwrap_or_else(|| panic!("姑苏区 is listed: {v}"));
    assert!(gusu["rank"].as_u64().is_some(), "姑苏区 is ranked: {gusu}");
    assert_eq!(rows.len(), 2, "two associations: {v}");
    let o = dir.run(&["teams", "--event", &id]);
    assert!(
        stderr(&o).contains("未填协会") && stderr(&o).contains("孙六"),
        "{}",
        stderr(&o)
    );
}

// ------------------------------------------------------------------------------ 九江 十二

const J_AT: &str = "2020-10-01T10:00:00+08:00";

/// 九江 十二 「适合参加象棋运动的九江户籍的以及九江象棋群的象棋爱好者均可以报名参加本次比赛」: either
/// condition admits — a 九江户籍 player without the group flag, a group member without 户籍 —
/// and neither is refused with the clause's two conditions; the 老年组 checks its own clause too,
/// 十一 「老年组比赛当日身份证年纪必须实数满55周岁」.
#[test]
fn x12_either_jiujiang_residence_or_the_group_admits_and_the_seniors_check_their_age() {
    let dir = shipped("jiujiang-2020");
    let id = dir.create();
    let o = add(
        &dir,
        &id,
        "group",
        "户籍甲",
        J_AT,
        &["--evidence", "residence"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = add(
        &dir,
        &id,
        "group",
        "群员乙",
        J_AT,
        &["--flag", "group_member"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = dir.refused(&[
        "player",
        "add",
        "--event",
        &id,
        "--section",
        "group",
        "--name",
        "外地丙",
        "--at",
        J_AT,
    ]);
    assert!(
        err.contains("须满足以下条件之一: 九江户籍、九江象棋群成员"),
        "{err}"
    );

    let old = id_number("36040219600101001");
    let young = id_number("36040219700101001");
    let o = add(
        &dir,
        &id,
        "senior",
        "老将丁",
        J_AT,
        &[
            "--id-number",
            &old,
            "--evidence",
            "id_card",
            "--evidence",
            "residence",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = add(
        &dir,
        &id,
        "senior",
        "老将戊",
        J_AT,
        &[
            "--id-number",
            &id_number("36040219600202002"),
            "--evidence",
            "id_card",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("须满足以下条件之一"), "{}", stderr(&o));
    let o = add(
        &dir,
        &id,
        "senior",
        "少壮己",
        J_AT,
        &[
            "--id-number",
            &young,
            "--evidence",
            "id_card",
            "--flag",
            "group_member",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("不足 55 岁"), "{}", stderr(&o));
}

// ------------------------------------------------------------------------------ 九江 补充五

/// 九江 补充五 「对局结果签字：对局结束后，双方运动员必须签名确认。经签名确认比赛结果，不予更改。」:
/// the chief arbiter's `result correct` of a signed result is refused, in the clause's words;
/// with `--override-signed` it goes through, and the log and the board's slip say so.
#[test]
fn x_supp5_a_signed_result_is_not_changed_unless_the_correction_overrides_it_openly() {
    let dir = shipped("jiujiang-2020");
    let id = dir.create();
    for n in ["甲", "乙"] {
        let o = add(&dir, &id, "group", n, J_AT, &["--flag", "group_member"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    pair(&dir, &id, "group");
    result(&dir, &id, "group", 1, "1-0", &[]);
    dir.ok(&["result", "confirm", "--event", &id, "--section", "group"]);
    let correct = |extra: &[&str]| {
        let mut args = vec![
            "result",
            "correct",
            "--event",
            &id,
            "--section",
            "group",
            "--round",
            "1",
            "--board",
            "1",
            "=",
            "--reason",
            "记录单填写为和棋，录入有误",
        ];
        args.extend_from_slice(extra);
        dir.run(&args)
    };
    let o = correct(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("经签名确认比赛结果，不予更改")
            && stderr(&o).contains("--override-signed"),
        "{}",
        stderr(&o)
    );
    assert!(dir.entries_of(&id, "result_corrected").is_empty());
    let o = correct(&["--override-signed"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = dir.entries_of(&id, "result_corrected");
    assert_eq!(c.len(), 1);
    assert!(
        c[0]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("推翻签名确认") && r.contains("录入有误")),
        "{}",
        c[0]
    );
    let html = dir.path("slips.html");
    dir.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "slips",
        "--section",
        "group",
        "--round",
        "1",
        "--format",
        "html",
        "--out",
        html.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(page.contains("本台成绩签名确认后经裁判长更正"), "{page}");
    assert!(page.contains("经签名确认比赛结果，不予更改"), "{page}");
}

// ------------------------------------------------------------------------------ 昆山 五(二), 八(一)

const K_AFTER_TEAMS: &str = "2026-09-20T10:00:00+08:00";

/// 昆山 五(二) 「凡在昆山市工作、生活的女性象棋爱好者均可报名参赛。昆山市辖区户籍人员可凭身份证件报名，
/// 其他人员可凭社保证明、个体工商户营业执照、房产证等有效证件报名。」: a 昆山-户籍 woman with only her
/// ID card (no unit, no 社保号) is accepted; an outsider with only an ID card is refused; an
/// outsider with a 社保证明 is accepted.
#[test]
fn k5_2_a_kunshan_woman_enters_with_her_id_card_an_outsider_needs_other_papers() {
    let dir = shipped("kunshan-2026");
    let id = dir.create();
    let local = id_number("32058319900101002");
    let o = add(
        &dir,
        &id,
        "women",
        "昆山户籍",
        K_AFTER_TEAMS,
        &[
            "--id-number",
            &local,
            "--phone",
            "13912340001",
            "--evidence",
            "id_card",
            "--flag",
            "local",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let outsider = id_number("41010219900101002");
    let o = add(
        &dir,
        &id,
        "women",
        "外地一",
        K_AFTER_TEAMS,
        &[
            "--id-number",
            &outsider,
            "--phone",
            "13912340002",
            "--evidence",
            "id_card",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("须满足以下条件之一: 昆山市辖区户籍（凭身份证件）、社保证明"),
        "{}",
        stderr(&o)
    );
    let o = add(
        &dir,
        &id,
        "women",
        "外地二",
        K_AFTER_TEAMS,
        &[
            "--id-number",
            &id_number("41010219910101002"),
            "--phone",
            "13912340003",
            "--evidence",
            "social_security",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// 昆山 八(一) 「各参赛单位须完整填写电子报名表，并于2026年9月15日前将加盖单位公章的报名表发送至邮箱…
/// 逾期不再受理」 and 八(二) 「男、女个人赛报名（线上渠道）」 (no deadline named): after 15 September a
/// man entered into a team is refused, one entering the individual event is not.
#[test]
fn k8_1_the_team_deadline_closes_team_entries_not_individual_ones() {
    let dir = shipped("kunshan-2026");
    let id = dir.create();
    let man = |n: u32| id_number(&format!("3205831990010{n}011"));
    let base = |n: u32, phone: &'static str| -> Vec<String> {
        vec![
            "--unit".into(),
            "昆山某公司".into(),
            "--id-number".into(),
            man(n),
            "--phone".into(),
            phone.into(),
            "--social-security".into(),
            format!("320583199000123{n}"),
            "--evidence".into(),
            "social_security".into(),
        ]
    };
    let args = base(1, "13912340011");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = add(&dir, &id, "men", "个人赛", K_AFTER_TEAMS, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut args = base(2, "13912340012");
    args.extend(["--team".into(), "昆山某公司一队".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = add(&dir, &id, "men", "团体队员", K_AFTER_TEAMS, &args);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("团体报名表截止于 2026-09-15 00:00，逾期不再受理"),
        "{}",
        stderr(&o)
    );
}

// ------------------------------------------------------------------------------ small events

/// A one-section Swiss of `rounds` rounds; `head` goes into `[event]`, `extra` after the section.
fn small(rounds: u32, head: &str, reg: &str, extra: &str) -> String {
    format!(
        r#"
[event]
name = "条款测试赛"
start = 2026-10-01
end = 2026-10-02
{head}

[registration]
{reg}

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = {rounds} }}
tiebreaks = "cxa-2011-opp"
{extra}
"#
    )
}

const AT: &str = "2026-09-01T10:00:00+08:00";

/// An event of `n` players in `open`, round 1 paired and published; the pairing's output.
fn event(dir: &EventDir, n: usize) -> (String, String) {
    let id = dir.create();
    for i in 1..=n {
        let o = add(
            dir,
            &id,
            "open",
            &format!("棋手{i}"),
            AT,
            &["--unit", &format!("单位{i}")],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let said = pair(dir, &id, "open");
    (id, said)
}

fn round_json(dir: &EventDir, id: &str, round: u32) -> Value {
    let r = round.to_string();
    serde_json::from_str(&dir.ok(&[
        "round",
        "show",
        "--event",
        id,
        "--section",
        "open",
        "--round",
        &r,
        "--json",
    ]))
    .expect("json")
}

// ------------------------------------------------------------------------------ 苏州 补充二2

/// 苏州 补充二2 「负方签名，和棋双方签名。（赢棋签了名，按输棋处理。）」: the printed slip says who signs,
/// as the regulation does — the loser, both on a draw — and no longer asks red and black alike.
#[test]
fn s_supp2_2_the_slip_says_the_loser_signs_and_what_a_winners_signature_means() {
    let dir = EventDir::new(&small(3, "result_signing = \"loser_signs\"", "", ""));
    let (id, _) = event(&dir, 4);
    let html = dir.path("slips.html");
    dir.ok(&[
        "print",
        "--event",
        &id,
        "--doc",
        "slips",
        "--section",
        "open",
        "--round",
        "1",
        "--format",
        "html",
        "--out",
        html.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(
        page.contains("负方签名，和棋双方签名。（赢棋签了名，按输棋处理。）"),
        "{page}"
    );
    assert!(
        page.contains("负方签名") && page.contains("和棋时另一方签名"),
        "{page}"
    );
    assert!(!page.contains("红方签名"), "{page}");
}

// ------------------------------------------------------------------------------ 苏州 补充四8, 天水 八(四)

/// 苏州 补充四8 「每局棋在25回合之内，原则上双方不得提和。如出现双方协议和棋，裁判员有权判无效，继续比赛，
/// 违者按双方弃权处理。」: an agreed draw of 18 moves raises a flag for the arbiter on both players,
/// as 天水's identical rule does — and, the regulation making it no foul, confirming it records
/// none.
#[test]
fn s_supp4_8_an_agreed_draw_inside_25_moves_is_flagged_for_the_arbiter_without_a_foul() {
    let dir = EventDir::new(&small(
        3,
        "",
        "",
        "[sections.records]\nmin_moves_before_draw = 25\n",
    ));
    let (id, _) = event(&dir, 4);
    let b = dir.run(&[
        "result",
        "--event",
        &id,
        "--section",
        "open",
        "--board",
        "1",
        "=",
        "--moves",
        "18",
    ]);
    assert!(b.status.success(), "{}", stderr(&b));
    let said = format!("{}{}", stdout(&b), stderr(&b));
    assert!(
        said.contains("25回合之内和棋") && said.contains("不记犯规"),
        "{said}"
    );
    let pending = dir.ok(&["result", "flags", "--event", &id, "--section", "open"]);
    assert!(pending.contains("第1轮第1台"), "{pending}");
    dir.ok(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--confirm",
        "--reason",
        "双方同意续弈",
    ]);
    assert!(dir.entries_of(&id, "foul_recorded").is_empty());
    assert_eq!(dir.entries_of(&id, "foul_flag_decided").len(), 1);
}

/// 天水 八(四) 「前三轮由裁判组指定获胜者配合录谱，从第四轮，开始前十台获胜方录谱，和棋由黑方录谱，拒不录谱，
/// 每次记犯规一次；和棋录谱不足 25 回合者，也记犯规一次。」: the recorder's foul is charged only
/// where a draw is recorded — a board with the duty. In round 1 (no duty) a short draw is the
/// arbiter's to look at (八(五) 「25 回合之内不准提和」) and confirming it charges nobody.
#[test]
fn t8_4_the_short_draw_foul_is_the_recorders_only_on_boards_that_record() {
    let records = "[sections.records]\nboards = 10\nfrom_round = 4\nmin_moves_before_draw = 25\nviolation_is_foul = true\nrecorder = \"winner\"\ndraw_recorder = \"black\"\nshort_draw_foul = \"recorder\"\n";
    let dir = EventDir::new(&small(5, "", "", records));
    let (id, _) = event(&dir, 4);
    let o = dir.run(&[
        "result",
        "--event",
        &id,
        "--section",
        "open",
        "--board",
        "1",
        "=",
        "--moves",
        "18",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        said.contains("不记犯规") && !said.contains("犯规一次"),
        "{said}"
    );
    dir.ok(&[
        "result",
        "flag",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--confirm",
        "--reason",
        "核实",
    ]);
    assert!(
        dir.entries_of(&id, "foul_recorded").is_empty(),
        "round 1 has no recording duty: black is not charged"
    );
}

// ------------------------------------------------------------------------------ 苏州 七, 六2

/// 苏州 七 「以各个县市（区）协会报名的所有组别最好名次相加」 with 六2 「老年组：…男子录取成绩」: in the
/// 老年组 an association's best place is its place among the men — a woman who won the 老年组
/// does not push the men's first place down to 2.
#[test]
fn s7_the_senior_sections_best_place_is_the_mens_place() {
    let reg = r#"
[event]
name = "协会团体测试赛"
start = 2025-10-07
end = 2025-10-08

[registration]
unit_kind = "association"

[[sections]]
id = "senior"
name = "老年组"
format = { kind = "swiss", rounds = 1 }
tiebreaks = "cxa-2011-opp"
[[sections.categories]]
id = "men"
name = "老年男子组"
sex = "M"

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 1 }
tiebreaks = "cxa-2011-opp"

[associations]
sections = ["senior", "open"]
rank_in_category = { senior = "men" }
"#;
    let dir = EventDir::new(reg);
    let id = dir.create();
    let at = "2025-09-20T10:00:00+08:00";
    for (sec, name, sex, assoc) in [
        ("senior", "女棋手", "F", "姑苏区"),
        ("senior", "男棋手", "M", "吴中区"),
        ("open", "公开甲", "M", "姑苏区"),
        ("open", "公开乙", "M", "吴中区"),
    ] {
        let o = add(
            &dir,
            &id,
            sec,
            name,
            at,
            &["--sex", sex, "--association", assoc],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for s in ["senior", "open"] {
        pair(&dir, &id, s);
    }
    let sheet: Value = serde_json::from_str(&dir.ok(&[
        "round",
        "show",
        "--event",
        &id,
        "--section",
        "senior",
        "--round",
        "1",
        "--json",
    ]))
    .expect("json");
    let woman_red = sheet["boards"][0]["red"]["name"] == "女棋手";
    result(
        &dir,
        &id,
        "senior",
        1,
        if woman_red { "1-0" } else { "0-1" },
        &[],
    );
    result(&dir, &id, "open", 1, "1-0", &[]);
    let v: Value =
        serde_json::from_str(&dir.ok(&["teams", "--event", &id, "--json"])).expect("json");
    let wuzhong = v["associations"]
        .as_array()
        .and_then(|a| a.iter().find(|r| r["association"] == "吴中区"))
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        wuzhong["best_ranks"]["senior"], 1,
        "the men's first place, not 2nd overall: {wuzhong}"
    );
    // 姑苏区 has no man in the 老年组: that section is missing (组别不全), said as such.
    let text = dir.ok(&["teams", "--event", &id]);
    assert!(
        text.contains("姑苏区\t组别不全, 不计算团体成绩: 缺老年组"),
        "{text}"
    );
}

// ------------------------------------------------------------------------------ 天水 八(七), 八(二)

/// 天水 八(七) 「所有名次均不并列，个人名次依次比较积分、对手分、胜局、犯规、后走局数、后走胜局。如无法区分，
/// 则比较前一轮成绩，直至区分，以此类推。」 and 八(二) 「如第一局和局，加赛顺序为换先快棋、附加赛，分出胜负后
/// 比赛结束」: the fallback is the previous round's score (逐轮递减), the 附加赛 is not 「和棋黑胜」,
/// and `regulation check` prints the readings that are the project's as such.
#[test]
fn t8_7_the_previous_rounds_score_and_the_readings_printed_as_the_projects() {
    let out = ok(&["regulation", "check", &regulation("tianshui-2024")]);
    let lists: Vec<&str> = out.lines().filter(|l| l.contains("名次区分")).collect();
    assert!(!lists.is_empty(), "{out}");
    for l in lists {
        assert!(l.contains("逐轮递减法") && !l.contains("前一轮名次"), "{l}");
    }
    assert!(
        out.contains("本系统的解读 (规程原文未写明，以下为本系统的读法)"),
        "{out}"
    );
    assert!(
        out.contains("八(七)「如无法区分，则比较前一轮成绩」"),
        "{out}"
    );
    assert!(out.contains("八(二) 附加赛"), "{out}");
    let reg = arbiter_regulation::parse(
        &std::fs::read_to_string(regulation("tianshui-2024")).expect("file"),
        "tianshui-2024.toml",
    )
    .expect("valid");
    let ko = reg.sections[0].format.knockout.as_ref().expect("knockout");
    assert_eq!(
        ko.armageddon_draw_black_wins,
        Some(false),
        "the text names no 和棋黑胜"
    );
}

// ------------------------------------------------------------------------------ 昆山 五(一)

/// 昆山 五(一) 「上届昆山市第二届职工象棋棋王赛甲组团体前八名、乙组团体前四名单位，本届自动划入甲组；其余单位
/// 可结合自身实力自主选择甲组或乙组团体报名。」: with `units = []` a new event says the units are
/// missing and what happens while they are (no team placed in 甲组 automatically), and so does
/// `regulation check`.
#[test]
fn k5_1_a_new_edition_asks_for_last_editions_placed_units_and_says_what_happens_without() {
    let dir = shipped("kunshan-2026");
    let reg = dir.path("reg.toml");
    let o = dir.run(&[
        "event",
        "create",
        "--regulation",
        reg.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("上届甲组前8名、乙组前4名单位尚未填写")
            && err.contains("填写前没有队伍自动划入甲组"),
        "{err}"
    );
    let out = ok(&["regulation", "check", &regulation("kunshan-2026")]);
    assert!(
        out.contains("上届甲组前8名、乙组前4名单位尚未填写"),
        "{out}"
    );
}

// ------------------------------------------------------------------------------ 15: smaller

/// 苏州 S4 「少于8人时进行单循环」 with 「胜方记5分」: a round robin's 轮空 (the player drawn against the
/// table's empty number) is no game — it scores nothing and is not a 5-point win.
#[test]
fn s4_a_round_robin_bye_scores_nothing() {
    let dir = EventDir::new(
        &small(7, "", "", "").replace(
            "format = { kind = \"swiss\", rounds = 7 }\ntiebreaks = \"cxa-2011-opp\"",
            "format = { kind = \"auto\", rounds = 7, single_rr_below = 8, double_rr_below = 3 }\nscoring = \"5-2-3-0\"\ntiebreaks = \"suzhou\"",
        ),
    );
    let (id, _) = event(&dir, 5);
    let s = round_json(&dir, &id, 1);
    let bye = s["bye"]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("5 players: a bye: {s}"))
        .to_string();
    result(&dir, &id, "open", 1, "1-0", &[]);
    result(&dir, &id, "open", 2, "=", &[]);
    let o = dir.ok(&["standings", "--event", &id, "--section", "open", "--json"]);
    let v: Value = serde_json::from_str(&o).expect("json");
    let row = v["standings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["name"] == bye.as_str()))
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(row["points"], 0, "the bye scores nothing: {row}");
    assert_eq!(row["tiebreaks"]["wins"], 0, "the bye is no won game: {row}");
    let won = v["standings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["points"] == 5))
        .unwrap_or_else(|| panic!("the game won scores 5: {v}"));
    assert_eq!(won["tiebreaks"]["wins"], 1, "{won}");
}

/// 苏州 五5 「…递交仲裁，并交纳500元申述费，胜述退还，如不胜述则不退还。」: the deposit is in `cash` and
/// in `regulation check`; an event whose regulation sets no deposit says nothing of one when a
/// protest is decided (no 「申诉费 0元 不退还」).
#[test]
fn s_5_5_the_protest_deposit_is_in_cash_and_the_summary_and_absent_where_there_is_none() {
    let out = ok(&["regulation", "check", &regulation("suzhou-2025")]);
    assert!(
        out.contains("申诉费 500元 (胜诉退还，不胜诉不退还)"),
        "{out}"
    );

    let dir = EventDir::new(&small(3, "protest_deposit_yuan = 500", "", ""));
    let (id, _) = event(&dir, 2);
    result(&dir, &id, "open", 1, "1-0", &[]);
    dir.ok(&[
        "result",
        "protest",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--by",
        "单位2 领队",
        "--rejected",
        "--reason",
        "不成立",
    ]);
    let cash = dir.ok(&["cash", "--event", &id]);
    assert!(
        cash.contains("申诉费") && cash.contains("500.00元"),
        "{cash}"
    );

    let dir = EventDir::new(&small(3, "", "", ""));
    let (id, _) = event(&dir, 2);
    result(&dir, &id, "open", 1, "1-0", &[]);
    let said = dir.ok(&[
        "result",
        "protest",
        "--event",
        &id,
        "--section",
        "open",
        "--round",
        "1",
        "--board",
        "1",
        "--by",
        "单位2 领队",
        "--rejected",
        "--reason",
        "不成立",
    ]);
    assert!(
        said.contains("申诉不成立") && !said.contains("申诉费"),
        "{said}"
    );
    let log = dir.ok(&["event", "log", &id]);
    assert!(!log.contains("申诉费"), "{log}");
}

/// The pre-pairing warning (已缴费未签到) lists only players who paid what is due; one who paid
/// part of the 100-yuan fee is named apart, with what he still owes.
#[test]
fn a_part_paid_player_is_not_listed_as_paid_before_pairing() {
    let dir = EventDir::new(&small(3, "", "fee = { yuan = 100 }", ""));
    let id = dir.create();
    for i in 1..=4 {
        let o = add(&dir, &id, "open", &format!("棋手{i}"), AT, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    dir.ok(&["fee", "--event", &id, "--player", "P1"]);
    dir.ok(&["fee", "--event", &id, "--player", "P2", "--amount", "50"]);
    let said = pair(&dir, &id, "open");
    assert!(said.contains("1人已缴费未签到: 棋手1"), "{said}");
    assert!(
        said.contains("1人只缴了部分费用, 未签到: 棋手2") && said.contains("尚欠50元"),
        "{said}"
    );
}
