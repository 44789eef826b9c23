//! One child, one group (issue 46): the age-and-sex groups of 深圳 2007
//! (`regulations/shenzhen-2007-juniors.toml`), and playing up (越级) as a regulation says it.

use crate::common::*;

const SHENZHEN: &str = include_str!("../../../../regulations/shenzhen-2007-juniors.toml");

/// A boy's ID number born on `yyyymmdd` (the 17th digit odd: male).
fn boy(yyyymmdd: &str, seq: &str) -> String {
    id_number(&format!("440303{yyyymmdd}{seq}1"))
}

fn add(d: &EventDir, ev: &str, section: &str, id: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "player",
        "add",
        "--event",
        ev,
        "--section",
        section,
        "--name",
        "李小明",
        "--id-number",
        id,
        "--evidence",
        "身份证",
        "--at",
        "2007-07-01T10:00:00+08:00",
    ];
    args.extend_from_slice(extra);
    d.run(&args)
}

/// 深圳 2007 五: 「以年龄和性别分组」, every group on the same two days (六、4). The same ID
/// number entered into 男子8岁组 and then 男子9岁组 is refused with words naming the first
/// group (A18), and nothing but the refusal is recorded.
#[test]
fn shenzhen_one_child_is_entered_in_one_group() {
    let d = EventDir::new(SHENZHEN);
    let ev = d.create();
    let id = boy("19990315", "00");
    let o = add(&d, &ev, "男子8岁组", &id, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = add(&d, &ev, "男子9岁组", &id, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("已在组别「男子8岁组」报名") && err.contains("不能再报「男子9岁组」"),
        "{err}"
    );
    assert_eq!(d.entries_of(&ev, "player_registered").len(), 1);
    let refused = d.entries_of(&ev, "entry_refused");
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["reason"]
        .as_str()
        .is_some_and(|r| r.contains("男子8岁组")));
}

/// 深圳 2007 五、D 「男子8岁组: 1999年1月1日以后出生」: a boy born in 1998 is too old for it;
/// the refusal names his birth date, the group's bound and his age on the event's first day.
#[test]
fn shenzhen_a_child_too_old_for_a_group_is_refused_naming_his_age() {
    let d = EventDir::new(SHENZHEN);
    let ev = d.create();
    let o = add(&d, &ev, "boys8", &boy("19980520", "01"), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("出生日期 1998-05-20 不在 1999-01-01 或以后 (2007-07-14 时年满 9 岁)"),
        "{err}"
    );
    // His own group, 男子9岁组 (1998年1月1日以后出生), takes him.
    let o = add(&d, &ev, "boys9", &boy("19980520", "01"), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // 五、G: a girl is not entered into a boys' group.
    let girl = id_number("44030319990101002");
    let o = add(&d, &ev, "boys8", &girl, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("本组限男子"), "{}", stderr(&o));
}

/// The regulation with `[registration.play_up]` added to its `[registration]`.
fn with_play_up(rule: &str) -> String {
    SHENZHEN.replacen(
        "[registration]\n",
        &format!("[registration]\nplay_up = {{ {rule} }}\n"),
        1,
    )
}

/// 越级: silent, the 深圳 regulation lets a 7-year-old into 男子9岁组 by the age rule alone
/// (the summary says so as a reading); `allowed = false` refuses him naming his own group and
/// his age; with a condition, he plays up only with what it asks.
#[test]
fn playing_up_is_as_the_regulation_says() {
    let seven = boy("20000610", "02");
    // Silent: the age rules alone decide.
    let d = EventDir::new(SHENZHEN);
    let ev = d.create();
    let o = add(&d, &ev, "boys9", &seven, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = ok(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    assert!(summary.contains("规程未写能否越级"), "{summary}");

    // 不得越级.
    let d = EventDir::new(&with_play_up("allowed = false"));
    let summary = ok(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    assert!(
        summary.contains("越级 (报较本人年龄组年长的组别): 不得越级"),
        "{summary}"
    );
    assert!(!summary.contains("规程未写能否越级"), "{summary}");
    let ev = d.create();
    let o = add(&d, &ev, "boys9", &seven, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("2007-07-14 时年满 7 岁，本人年龄组为「男子7岁组」，报「男子9岁组」不被允许"),
        "{err}"
    );
    // His own group, and a younger child's own group, are not playing up.
    assert!(add(&d, &ev, "boys7", &seven, &[]).status.success());
    assert!(add(&d, &ev, "boys6", &boy("20010102", "03"), &[])
        .status
        .success());
    let refused = d.entries_of(&ev, "entry_refused");
    assert_eq!(refused.len(), 1);
    assert!(refused[0]["reason"]
        .as_str()
        .is_some_and(|r| r.contains("越级")));

    // Allowed with a pledge (承诺书) and a coach's letter.
    let d = EventDir::new(&with_play_up(
        r#"evidence = ["pledge"], flags = ["coach_letter"], label = "须提交承诺书及教练推荐信""#,
    ));
    let summary = ok(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    assert!(summary.contains("须提交承诺书及教练推荐信"), "{summary}");
    let ev = d.create();
    let o = add(&d, &ev, "boys9", &seven, &["--evidence", "承诺书"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("须满足规程的越级条件: 须提交承诺书及教练推荐信"),
        "{}",
        stderr(&o)
    );
    let o = add(
        &d,
        &ev,
        "boys9",
        &seven,
        &["--evidence", "承诺书", "--flag", "coach_letter"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `regulation check` refuses conditions for playing up that is not allowed, and a grade not
/// on a scale, naming the line.
#[test]
fn play_up_rules_that_cannot_hold_are_refused_naming_the_line() {
    let d = EventDir::new(&with_play_up(r#"allowed = false, evidence = ["pledge"]"#));
    let o = run(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("reg.toml:") && err.contains("不得越级"),
        "{err}"
    );
    let d = EventDir::new(&with_play_up(r#"min_grade = "业余3段""#));
    let o = run(&["regulation", "check", d.path("reg.toml").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("段位表"), "{}", stderr(&o));
}

/// 深圳 2007 九「主办单位根据报名情况，对分组可作适当调整」, with a minimum of 6 per group
/// written: 男子6岁组 with two entries is reported below it; the chief arbiter merges it into
/// 男子7岁组 as one decision (refused without a reason): its boys are in 男子7岁组 with their
/// fee and check-in, 男子6岁组 takes no more entries and names where its boys went; once
/// 男子7岁组 is drawn, merging 男子8岁组 into it is refused.
#[test]
fn shenzhen_a_group_too_small_is_merged_before_the_draw() {
    let src = SHENZHEN.replacen(
        "[registration]\n",
        "[registration]\nmin_per_section = 6\n",
        1,
    );
    let d = EventDir::new(&src);
    let ev = d.create();
    for (section, born, seq) in [
        ("boys6", "20010305", "10"),
        ("boys6", "20010611", "11"),
        ("boys7", "20000202", "12"),
        ("boys7", "20000909", "13"),
        ("boys7", "20001111", "14"),
    ] {
        let o = add(&d, &ev, section, &boy(born, seq), &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    d.ok(&[
        "fee",
        "--event",
        &ev,
        "--player",
        "1",
        "--at",
        "2007-07-01T11:00:00+08:00",
    ]);
    d.ok(&[
        "checkin",
        "--event",
        &ev,
        "--player",
        "1",
        "--at",
        "2007-07-14T08:00:00+08:00",
    ]);
    let show = d.ok(&["event", "show", &ev]);
    assert!(
        show.contains(
            "注意: 男子6岁组报名 2 人, 少于规程规定的最少 6 人; 抽签前可由裁判长将其并入其他组别"
        ),
        "{show}"
    );
    let merge = |from: &str, into: &str, reason: &str| {
        d.run(&[
            "section",
            "merge",
            "--event",
            &ev,
            "--from",
            from,
            "--into",
            into,
            "--reason",
            reason,
            "--at",
            "2007-07-14T08:30:00+08:00",
        ])
    };
    const WHY: &str = "九: 对分组可作适当调整 (男子6岁组仅2人)";
    let o = merge("男子6岁组", "男子7岁组", " ");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("合并组别"), "{}", stderr(&o));
    let o = merge("男子6岁组", "男子7岁组", WHY);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("将男子6岁组并入男子7岁组: 男子6岁组的棋手均转入男子7岁组")
            && stdout(&o).contains(WHY),
        "{}",
        stdout(&o)
    );
    assert_eq!(d.entries_of(&ev, "sections_merged").len(), 1);
    let show = d.ok(&["event", "show", &ev]);
    assert!(show.contains("男子7岁组 [boys7]: 5 人"), "{show}");
    assert!(show.contains("男子6岁组 [boys6]: 0 人"), "{show}");
    assert!(show.contains("已并入男子7岁组 [boys7]"), "{show}");
    assert!(!show.contains("男子6岁组报名 2 人"), "{show}");
    // His fee and check-in went with him: neither is taken twice.
    let o = d.run(&["fee", "--event", &ev, "--player", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("已缴费"), "{}", stderr(&o));
    let o = d.run(&["checkin", "--event", &ev, "--player", "1"]);
    assert_eq!(o.status.code(), Some(2));
    // 男子6岁组 takes no more entries, and says where its boys are.
    let o = add(&d, &ev, "boys6", &boy("20010101", "15"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("男子6岁组已并入男子7岁组, 不再接受报名"),
        "{}",
        stderr(&o)
    );
    d.ok(&["draw", "--event", &ev, "--section", "boys7"]);
    let o = merge("男子8岁组", "男子7岁组", WHY);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("男子7岁组已抽签, 不能再合并组别"),
        "{}",
        stderr(&o)
    );
    assert_eq!(d.entries_of(&ev, "sections_merged").len(), 1);
}
