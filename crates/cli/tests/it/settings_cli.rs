//! `event settings`: the chief arbiter sets this edition's registration deadline and the date
//! ages are counted on from the command line, as at the desk's settings page; the log records
//! `settings_changed` and registrations follow the new dates.

use crate::common;

use common::*;

#[test]
fn the_chief_arbiter_sets_the_deadline_and_age_date_and_an_entry_is_on_time() {
    let src = std::fs::read_to_string(regulation("tianshui-2024")).expect("regulation");
    let env = EventDir::new(&src);
    let ev = env.create();
    let man = id_number("62050219900101011");
    let add = |at: &str| {
        env.run(&[
            "player",
            "add",
            "--event",
            &ev,
            "--section",
            "open",
            "--name",
            "张三",
            "--id-number",
            &man,
            "--phone",
            "13912340001",
            "--evidence",
            "意外伤害保险",
            "--at",
            at,
        ])
    };
    // The regulation's 2024 deadline has passed: the entry is refused as late.
    let o = add("2026-07-10T10:00:00+08:00");
    assert!(
        stdout(&o).contains("截止") || stderr(&o).contains("截止"),
        "{}",
        stderr(&o)
    );
    let out = env.ok(&[
        "event",
        "settings",
        "--event",
        &ev,
        "--start",
        "2026-07-24",
        "--end",
        "2026-07-26",
        "--deadline",
        "2026-07-21 18:00",
        "--age-on",
        "2026-07-24",
        "--at",
        "2026-07-01T09:00:00+08:00",
    ]);
    assert!(out.contains("修改赛事设置"), "{out}");
    let changed = entries_of_kind(&env.log(&ev), "settings_changed");
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0]["deadline"], "2026-07-21T18:00:00+08:00");
    assert_eq!(changed[0]["age_on"], "2026-07-24");
    // On time now, without a late reason.
    let o = add("2026-07-10T10:05:00+08:00");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let reg = entries_of_kind(&env.log(&ev), "player_registered");
    assert_eq!(reg.len(), 1);
    assert!(reg[0].get("late_reason").is_none(), "{}", reg[0]);
    // The same settings again change nothing; a deadline after the event is refused.
    let err = env.refused(&[
        "event",
        "settings",
        "--event",
        &ev,
        "--deadline",
        "2026-07-21 18:00",
    ]);
    assert!(err.contains("没有任何更改"), "{err}");
    let err = env.refused(&[
        "event",
        "settings",
        "--event",
        &ev,
        "--deadline",
        "2026-08-01 18:00",
    ]);
    assert!(err.contains("晚于比赛结束日期"), "{err}");
    let err = env.refused(&["event", "settings", "--event", &ev, "--deadline", "明天"]);
    assert!(
        err.contains("YYYY-MM-DD HH:MM") || err.contains("明天"),
        "{err}"
    );
}
