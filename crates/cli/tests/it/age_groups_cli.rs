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
