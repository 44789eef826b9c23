//! `arbiter regulation check` on the shipped files and on a broken file.

use crate::common;

use common::*;
use std::process::Command;

/// The four shipped regulations.
fn shipped() -> Vec<String> {
    [
        "kunshan-2026",
        "suzhou-2025",
        "jiujiang-2020",
        "tianshui-2024",
    ]
    .map(regulation)
    .to_vec()
}

#[test]
fn check_prints_every_section_of_the_four_regulations() {
    let out = Command::new(BIN)
        .args(["regulation", "check"])
        .args(shipped())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in [
        "男子个人赛",
        "女子个人赛",
        "企业家组",
        "老年组",
        "公开组",
        "少年组",
        "儿童甲组",
        "儿童乙组",
        "象棋群赛",
        "天水本地组",
    ] {
        assert!(stdout.contains(name), "missing {name} in\n{stdout}");
    }
    for id in [
        "[men]",
        "[women]",
        "[entrepreneur]",
        "[child_b]",
        "[senior]",
        "[group]",
        "[open]",
        "[local]",
    ] {
        assert!(stdout.contains(id), "missing {id}");
    }
    assert!(
        stdout.contains("积分编排制 5 轮后前8名淘汰定位表"),
        "{stdout}"
    );
    assert!(stdout.contains("胜5 红和2 黑和3 负0"), "{stdout}");
}

#[test]
fn check_in_english() {
    let out = Command::new(BIN)
        .args(["regulation", "check", "--lang", "en"])
        .arg(regulation("tianshui-2024"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Swiss 8 rounds, then top 8 placement bracket"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the others continue the Swiss for 3 rounds"),
        "{stdout}"
    );
}

#[test]
fn broken_file_gives_located_message_and_exit_2_after_checking_all() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    let src = std::fs::read_to_string(regulation("jiujiang-2020"))
        .unwrap()
        .replacen("tiebreaks = \"jiujiang\"", "tiebreaks = [\"opp_scor\"]", 1);
    std::fs::write(&bad, &src).unwrap();
    let line = src.lines().position(|l| l.contains("opp_scor")).unwrap() + 1;
    let out = Command::new(BIN)
        .args(["regulation", "check"])
        .arg(&bad)
        .arg(regulation("kunshan-2026"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected = format!(
        "{}:{line}:14: 错误: 未知的名次区分方法 `opp_scor`，是否应为 `opp_score`？ (unknown tie-break `opp_scor` (did you mean `opp_score`?))",
        bad.display()
    );
    assert_eq!(stderr.trim(), expected);
    // The second, valid file was still checked and summarised.
    assert!(String::from_utf8_lossy(&out.stdout).contains("男子个人赛"));
}

#[test]
fn a_cap_beyond_what_one_section_supports_is_refused_by_check_and_by_simulate() {
    // Tianshui with its cap of 160 raised to 65,536: the open section could take them all.
    let src = std::fs::read_to_string(regulation("tianshui-2024")).unwrap();
    assert!(src.contains("\ncap = 160 "));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tianshui-cap65536.toml");
    std::fs::write(&file, src.replace("\ncap = 160 ", "\ncap = 65536 ")).unwrap();
    // The error points at the cap's line, column 7 (after 「cap = 」).
    let cap_line = src
        .lines()
        .position(|l| l.starts_with("cap = 160 "))
        .unwrap()
        + 1;
    let at = format!("tianshui-cap65536.toml:{cap_line}:7");
    for args in [
        vec![
            "regulation".to_string(),
            "check".into(),
            file.display().to_string(),
        ],
        vec![
            "simulate".to_string(),
            "--regulation".into(),
            file.display().to_string(),
            "--out".into(),
            dir.path().join("out").display().to_string(),
        ],
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&at), "{stderr}");
        assert!(stderr.contains("每组 20000 人"), "{stderr}");
        assert!(stderr.contains("entries.cap"), "{stderr}");
    }
    // With a section cap within the limit the same event is accepted.
    let ok = src.replace("\ncap = 160 ", "\ncap = 65536 ").replace(
        "[[sections]]\n",
        "[[sections]]\nentries = { cap = 20000 }\n",
    );
    std::fs::write(&file, ok).unwrap();
    let out = Command::new(BIN)
        .args(["regulation", "check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two `schedule_days` blocks on one date (a morning and an afternoon, a lunch break between)
/// pass `regulation check`: a block may share the date of the block before when its first
/// round starts after that block's last round; one that does not is refused, naming the line.
#[test]
fn check_accepts_two_schedule_blocks_on_one_date() {
    let dir = tempfile::tempdir().unwrap();
    let reg = |afternoon: &str| {
        format!(
            r#"
[event]
name = "午休两段赛程"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = {{ kind = "swiss", rounds = 5 }}

[[sections.schedule_days]]
date = 2026-10-01
start = "08:30"
rounds = 2
interval_minutes = 90

[[sections.schedule_days]]
date = 2026-10-01
start = "{afternoon}"
rounds = 2
interval_minutes = 90

[[sections.schedule_days]]
date = 2026-10-02
start = "08:30"
rounds = 1
"#
        )
    };
    let ok_path = write(&dir.path().join("lunch.toml"), &reg("13:30"));
    let out = ok(&["regulation", "check", &ok_path]);
    assert!(
        out.contains("赛程按天: 10-01 08:30起2轮，每90分钟一轮; 10-01 13:30起2轮，每90分钟一轮"),
        "{out}"
    );
    // An afternoon block starting before the morning's last round (10:00) is refused.
    let bad_path = write(&dir.path().join("overlap.toml"), &reg("09:30"));
    let o = run(&["regulation", "check", &bad_path]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(err.contains("不晚于前一天的最后一轮"), "{err}");
    // The second block's `date`, line 19 of the file.
    assert!(err.contains("overlap.toml:19:"), "{err}");
}
