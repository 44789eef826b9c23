//! The summary states the pairing and game-record rules of each section.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;

const TIANSHUI: &str = include_str!("../../../../regulations/tianshui-2024.toml");
const JIUJIANG: &str = include_str!("../../../../regulations/jiujiang-2020.toml");

fn load(src: &str, name: &str) -> Regulation {
    parse(src, name).unwrap_or_else(|e| panic!("{e}"))
}

/// The lines of the block of section `id` (from `[id]` to the next section header).
fn section_block(summary: &str, id: &str) -> Vec<String> {
    let head = format!("[{id}]");
    summary
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

fn line<'a>(block: &'a [String], label: &str) -> &'a str {
    block
        .iter()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in {block:#?}"))
}

#[test]
fn tianshui_pairing_and_record_lines_in_chinese() {
    let r = load(TIANSHUI, "tianshui-2024.toml");
    let zh = r.summary(Lang::Zh);
    for id in ["open", "local"] {
        let b = section_block(&zh, id);
        assert_eq!(
            line(&b, "编排:"),
            "编排: 序号抽签；首轮拦腰配对 (1–N/2+1, 2–N/2+2 …)；首轮单数台小号先行、双数台大号先行；\
             首轮同队回避，其余轮次不回避；先后手差不超过2，不连续三局同色 (末轮可放宽)；\
             先后手相同时奇数轮小号先行、偶数轮大号先行；轮空给未轮空过的排名最后者",
            "{id}"
        );
        assert_eq!(
            line(&b, "记谱:"),
            "记谱: 第4轮起第1–10台须记谱；获胜方录谱，和棋由黑方录谱；25回合内不得提和；自然限着40回合；拒不记谱或和棋不足回合记犯规；和棋不足回合: 记录谱方犯规",
            "{id}"
        );
    }
}

#[test]
fn tianshui_pairing_and_record_lines_in_english() {
    let r = load(TIANSHUI, "tianshui-2024.toml");
    let en = r.summary(Lang::En);
    let b = section_block(&en, "open");
    let p = line(&b, "Pairing:");
    for part in [
        "numbers by lot",
        "round 1 top half v bottom half (1–N/2+1, 2–N/2+2 …)",
        "round 1: odd boards lower number red, even boards higher number red",
        "team-mates avoid each other in round 1 only",
        "colour difference at most 2, never the same colour three times in a row",
    ] {
        assert!(p.contains(part), "`{part}` missing from {p}");
    }
    assert_eq!(
        line(&b, "Records:"),
        "Records: boards 1–10 must record from round 4; the winner records, black on a draw; \
         no draw before move 25; natural move limit 40 moves; refusing to record or a short \
         draw is a foul; short draw: the recorder's foul"
    );
}

#[test]
fn changed_settings_change_the_lines() {
    // Edit the Tianshui file: other round-1 mode and colours, hard same-team avoidance,
    // colour difference 1, records from round 1 on 5 boards.
    let src = TIANSHUI
        .replacen(
            "same_team = \"round1\"",
            "same_team = \"hard\"\nround1 = \"fold\"\nround1_colour = \"lots\"\nmax_colour_diff = 1\nno_three_in_a_row = false",
            1,
        )
        .replacen("boards = 10 ", "boards = 5 ", 1)
        .replacen("from_round = 4 ", "from_round = 1 ", 1);
    let r = load(&src, "edited.toml");
    let zh = r.summary(Lang::Zh);
    let b = section_block(&zh, "open");
    let p = line(&b, "编排:");
    for part in [
        "首轮首尾配对 (1–N, 2–N−1 …)",
        "首轮先后手抽签",
        "同队始终回避",
        "先后手差不超过1 (末轮可放宽)",
    ] {
        assert!(p.contains(part), "`{part}` missing from {p}");
    }
    assert!(!p.contains("不连续三局同色"), "{p}");
    assert!(
        line(&b, "记谱:").starts_with("记谱: 第1–5台须记谱；"),
        "{b:#?}"
    );
    // The other section is unchanged.
    let local = section_block(&zh, "local");
    assert!(line(&local, "记谱:").starts_with("记谱: 第4轮起第1–10台须记谱"));
}

#[test]
fn round_robin_sections_state_only_the_numbering() {
    // Jiujiang's first section made a single round robin; the second stays Swiss.
    let src = JIUJIANG.replacen(
        "format = { kind = \"swiss\", rounds = 7 }",
        "format = { kind = \"round_robin\" }",
        1,
    );
    let r = load(&src, "jiujiang-rr.toml");
    assert_eq!(r.sections[0].format.kind, FormatKind::RoundRobin);
    assert_eq!(r.sections[1].format.kind, FormatKind::Swiss);
    let zh = r.summary(Lang::Zh);
    let rr = section_block(&zh, &r.sections[0].id);
    assert_eq!(line(&rr, "编排:"), "编排: 序号抽签");
    let swiss = section_block(&zh, &r.sections[1].id);
    assert!(line(&swiss, "编排:").contains("首轮拦腰配对"), "{swiss:#?}");
    let en = r.summary(Lang::En);
    let rr = section_block(&en, &r.sections[0].id);
    assert_eq!(line(&rr, "Pairing:"), "Pairing: numbers by lot");
}

/// A regulation silent on scoring and tie-breaks: a Swiss open and a round robin.
const SILENT: &str = r#"
[event]
name = "默认规则测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 5 }

[[sections]]
id = "masters"
name = "大师组"
format = { kind = "round_robin" }
"#;

#[test]
fn a_silent_regulation_takes_the_2011_scoring_and_tiebreaks_and_says_so() {
    let r = load(SILENT, "silent.toml");
    let open = &r.sections[0];
    assert!(open.scoring.defaulted && open.tiebreaks.defaulted);
    assert_eq!(
        open.scoring.table,
        arbiter_types::ScoringPreset::Cxa.table()
    );
    let opp = arbiter_regulation::presets::tiebreaks("cxa-2011-opp").unwrap();
    assert_eq!(open.tiebreaks.criteria, opp.criteria);
    assert_eq!(open.tiebreaks.fallback, opp.fallback);
    // A round robin is ranked by the 2011 round-robin list (14.1).
    let rr = arbiter_regulation::presets::tiebreaks("cxa-2011-rr").unwrap();
    assert_eq!(r.sections[1].tiebreaks.criteria, rr.criteria);
    assert!(r.sections[1].tiebreaks.defaulted);

    let zh = r.summary(Lang::Zh);
    let block = section_block(&zh, "open");
    assert_eq!(
        line(&block, "计分:"),
        "计分: 胜2 红和1 黑和1 负0 轮空2 弃权胜2 弃权负0 双方弃权0 （未规定，按2011年规则计分）"
    );
    assert_eq!(
        line(&block, "名次区分:"),
        "名次区分: 积分 → 对手分 → 胜局 → 犯规 → 后走局数 → 逐轮递减法 （未规定，按2011年规则 cxa-2011-opp）"
    );
    let masters = section_block(&zh, "masters");
    assert!(
        line(&masters, "名次区分:").ends_with("（未规定，按2011年规则 cxa-2011-rr）"),
        "{masters:#?}"
    );
    let en = r.summary(Lang::En);
    let block = section_block(&en, "open");
    assert!(
        line(&block, "Scoring:").ends_with("(not stated: the 2011 rules' scoring)"),
        "{block:#?}"
    );
}

#[test]
fn a_regulation_naming_its_scoring_and_tiebreaks_keeps_them() {
    let src = SILENT.replacen(
        "format = { kind = \"swiss\", rounds = 5 }",
        "format = { kind = \"swiss\", rounds = 5 }\nscoring = \"cxa\"\ntiebreaks = \"kunshan\"",
        1,
    );
    let r = load(&src, "named.toml");
    let open = &r.sections[0];
    assert!(!open.scoring.defaulted && !open.tiebreaks.defaulted);
    assert_eq!(open.tiebreaks.preset.as_deref(), Some("kunshan"));
    let zh = r.summary(Lang::Zh);
    let block = section_block(&zh, "open");
    assert!(line(&block, "计分:").ends_with("(cxa)"), "{block:#?}");
    assert!(
        line(&block, "名次区分:").ends_with("(kunshan)"),
        "{block:#?}"
    );
    // Every shipped regulation names both: none of them says 未规定.
    for (name, src) in [
        ("tianshui-2024.toml", TIANSHUI),
        ("jiujiang-2020.toml", JIUJIANG),
    ] {
        assert!(
            !load(src, name).summary(Lang::Zh).contains("未规定"),
            "{name}"
        );
    }
}

/// An open played in two day blocks, with a check-in time.
const DAYS: &str = r#"
[event]
name = "按天赛程测试赛"
start = 2026-10-01
end = 2026-10-02

[registration]
check_in = 2026-10-01
check_in_time = "08:30"

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 7 }

[[sections.schedule_days]]
date = 2026-10-01
start = "13:00"
rounds = 4
interval_minutes = 90

[[sections.schedule_days]]
date = 2026-10-02
start = 08:30:00
rounds = 3
interval_minutes = 100
"#;

#[test]
fn a_schedule_by_days_gives_every_round_its_start() {
    let r = load(DAYS, "days.toml");
    let times: Vec<String> = r.sections[0]
        .schedule
        .iter()
        .map(|t| t.format("%d %H:%M").to_string())
        .collect();
    assert_eq!(
        times,
        ["01 13:00", "01 14:30", "01 16:00", "01 17:30", "02 08:30", "02 10:10", "02 11:50"]
    );
    assert_eq!(
        r.registration.check_in_time,
        chrono::NaiveTime::from_hms_opt(8, 30, 0)
    );
    let zh = r.summary(Lang::Zh);
    assert!(zh.contains("报名: 报到 2026-10-01 08:30起"), "{zh}");
    let block = section_block(&zh, "open");
    assert_eq!(
        line(&block, "赛程按天:"),
        "赛程按天: 10-01 13:00起4轮，每90分钟一轮; 10-02 08:30起3轮，每100分钟一轮"
    );
    assert!(
        line(&block, "赛程:").contains("第7轮 10-02 11:50"),
        "{block:#?}"
    );
}

#[test]
fn a_schedule_by_days_that_does_not_fit_is_refused_with_its_line() {
    let refused = |src: &str| parse(src, "days.toml").expect_err("refused").to_string();
    // Both forms at once.
    let e = refused(&DAYS.replacen(
        "format = { kind = \"swiss\", rounds = 7 }",
        "format = { kind = \"swiss\", rounds = 7 }\nschedule = [2026-10-01T13:00:00]",
        1,
    ));
    assert!(e.contains("二者只用其一"), "{e}");
    // More rounds than the section plays: the last day's `rounds` line (line 25).
    let e = refused(&DAYS.replacen("rounds = 3", "rounds = 4", 1));
    assert!(e.starts_with("days.toml:25:"), "{e}");
    assert!(e.contains("共 8 轮，但本组最多 7 轮"), "{e}");
    // A day outside the event (line 23).
    let e = refused(&DAYS.replacen("date = 2026-10-02", "date = 2026-10-05", 1));
    assert!(e.starts_with("days.toml:23:"), "{e}");
    // Rounds into the next day.
    let e = refused(&DAYS.replacen("start = \"13:00\"", "start = \"21:00\"", 1));
    assert!(e.contains("已到次日"), "{e}");
    // Several rounds with no interval.
    let e = refused(&DAYS.replacen("interval_minutes = 90\n", "", 1));
    assert!(e.contains("interval_minutes"), "{e}");
    // Not a time of day.
    let e = refused(&DAYS.replacen("start = \"13:00\"", "start = \"1点\"", 1));
    assert!(e.contains("「1点」不是一天中的时刻"), "{e}");
    // A check-in time without the day (line 8).
    let e = refused(&DAYS.replacen("check_in = 2026-10-01\n", "", 1));
    assert!(e.starts_with("days.toml:8:"), "{e}");
    assert!(e.contains("没有报到日期"), "{e}");
}

/// A youth section in four age groups counted on 2026-08-01, and a local players' category.
const YOUTH: &str = r#"
[event]
name = "少儿年龄组测试赛"
start = 2026-10-01
end = 2026-10-02

[[sections]]
id = "youth"
name = "少儿组"
format = { kind = "swiss", rounds = 7 }

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
id = "u14"
name = "13–14岁组"
min_age = 13
max_age = 14
age_on = 2026-09-01

[[sections.categories]]
id = "local"
name = "本地选手"
flag = "local"
"#;

#[test]
fn categories_stated_as_ages_become_birth_dates_on_their_date() {
    let r = load(YOUTH, "youth.toml");
    let c = &r.sections[0].categories;
    let d = |y, m, day| chrono::NaiveDate::from_ymd_opt(y, m, day);
    // Under 8 on 2026-08-01 (the section's date): born after 2018-08-01.
    assert_eq!((c[0].born_from, c[0].born_to), (d(2018, 8, 2), None));
    // 9–10: born 2015-08-02 … 2017-08-01.
    assert_eq!(
        (c[1].born_from, c[1].born_to),
        (d(2015, 8, 2), d(2017, 8, 1))
    );
    // 13–14 on its own date, 2026-09-01.
    assert_eq!(
        (c[2].born_from, c[2].born_to),
        (d(2011, 9, 2), d(2013, 9, 1))
    );
    // Checked against the ages themselves, day by day around the edges.
    for born in [d(2017, 8, 1), d(2017, 8, 2), d(2015, 8, 1), d(2015, 8, 2)] {
        let born = born.unwrap();
        let age = age_on(born, d(2026, 8, 1).unwrap());
        let inside = c[1].born_from.unwrap() <= born && born <= c[1].born_to.unwrap();
        assert_eq!(inside, (9..=10).contains(&age), "{born}: {age}");
    }
    let zh = r.summary(Lang::Zh);
    let block = section_block(&zh, "youth");
    assert!(
        line(&block, "分别录取:").contains("9–10岁组 (u10, 2026-08-01时9–10岁)"),
        "{block:#?}"
    );
    assert!(
        line(&block, "分别录取:").contains("8岁以下组 (u8, 2026-08-01时7岁及以下)"),
        "{block:#?}"
    );
}

#[test]
fn category_ages_that_cannot_hold_are_refused_with_their_line() {
    let refused = |src: &str| parse(src, "youth.toml").expect_err("refused").to_string();
    // Ages and birth dates together (line 24 is the 9–10 group's `min_age`).
    let e = refused(&YOUTH.replacen("min_age = 9\n", "min_age = 9\nborn_to = 2017-01-01\n", 1));
    assert!(e.starts_with("youth.toml:24:"), "{e}");
    assert!(e.contains("二者只用其一"), "{e}");
    // An empty range (line 25 is its `max_age`).
    let e = refused(&YOUTH.replacen("max_age = 10", "max_age = 8", 1));
    assert!(e.starts_with("youth.toml:25:"), "{e}");
    assert!(e.contains("年龄范围为空: 9 至 8 岁"), "{e}");
}

/// 深圳 2007 九「主办单位根据报名情况，对分组可作适当调整」: with a minimum per section written
/// (event-wide, one section its own), every section's entry line states its own, and the
/// sections with none written state none.
#[test]
fn a_minimum_per_section_is_inherited_and_stated() {
    const SHENZHEN: &str = include_str!("../../../../regulations/shenzhen-2007-juniors.toml");
    let src = SHENZHEN
        .replacen(
            "[registration]\n",
            "[registration]\nmin_per_section = 6\n",
            1,
        )
        .replacen(
            "name = \"女子组\"\n",
            "name = \"女子组\"\nentries = { min = 4 }\n",
            1,
        );
    assert_ne!(src, SHENZHEN);
    let r = load(&src, "shenzhen-2007-juniors.toml");
    let mins: Vec<(String, Option<u32>)> = r
        .sections
        .iter()
        .map(|s| (s.id.clone(), s.entries.min))
        .collect();
    assert!(mins.iter().any(|(_, m)| *m == Some(4)), "{mins:?}");
    assert!(
        mins.iter().filter(|(_, m)| *m == Some(6)).count() >= 2,
        "{mins:?}"
    );
    let zh = r.summary(Lang::Zh);
    for (id, m) in &mins {
        let b = section_block(&zh, id);
        let entries = line(&b, "报名:");
        let want = format!("最少 {}人 (不足则可合并组别)", m.unwrap_or(0));
        assert!(entries.contains(&want), "{id}: {entries}");
    }
    let en = r.summary(Lang::En);
    let b = section_block(&en, &mins[0].0);
    assert!(
        line(&b, "Entries:").contains("at least 6 entries (fewer: the section may be merged)"),
        "{b:#?}"
    );
    let plain = load(SHENZHEN, "shenzhen-2007-juniors.toml");
    assert!(plain.sections.iter().all(|s| s.entries.min.is_none()));
    assert!(!plain.summary(Lang::Zh).contains("不足则可合并组别"));
}

/// 凤岗镇迎春杯 2012 「自然限着40回合，将军着数算10着」: `natural_move_checks` in the records
/// line; without the limit, or above it, refused at its line.
#[test]
fn the_natural_move_limit_with_the_claimants_checks_counted() {
    let with = |extra: &str| {
        TIANSHUI.replacen(
            "natural_move_limit = 40",
            &format!("natural_move_limit = 40\n{extra}"),
            1,
        )
    };
    let src = with("natural_move_checks = 10");
    assert_ne!(
        src, TIANSHUI,
        "the bundled file states a natural move limit"
    );
    let r = load(&src, "t.toml");
    let zh = r.summary(Lang::Zh);
    let b = section_block(&zh, "open");
    assert!(
        line(&b, "记谱:").contains("自然限着40回合（提出方将军最多计10着）"),
        "{b:?}"
    );
    let e = arbiter_regulation::parse(&with("natural_move_checks = 41"), "t.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("超过自然限着 40 回合"), "{e}");
    let e = arbiter_regulation::parse(
        &TIANSHUI.replacen("natural_move_limit = 40", "natural_move_checks = 10", 1),
        "t.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("须与自然限着回合数 `natural_move_limit` 一起给出"),
        "{e}"
    );
}

/// Every qualification of a section is printed, in the file's order: the old single table
/// (places known, or announced later), several tables in one section (2020 全国青少年象棋冠军赛
/// 十一(二)(三)), and a category's in its name.
#[test]
fn every_qualification_is_printed() {
    let youth = load(
        include_str!("../../../../regulations/national-youth-2020.toml"),
        "national-youth-2020.toml",
    );
    let zh = youth.summary(Lang::Zh);
    let u15 = section_block(&zh, "boys_u15");
    let lines: Vec<&str> = u15
        .iter()
        .filter(|l| l.starts_with("晋级:"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        lines,
        vec![
            "晋级: 本组 第1名 获得「2020年世界象棋公开赛U15组」资格",
            "晋级: 本组 第1名 获得「全国象棋锦标赛（个人）」资格",
        ]
    );
    let u17 = section_block(&zh, "girls_u17");
    assert_eq!(
        line(&u17, "晋级:"),
        "晋级: 本组 前3名 获得「全国象棋锦标赛（个人）」资格"
    );
    assert!(section_block(&zh, "boys_u10")
        .iter()
        .all(|l| !l.starts_with("晋级")));
    let en = youth.summary(Lang::En);
    assert_eq!(
        line(&section_block(&en, "girls_u17"), "Qualifies:"),
        "Qualifies: the best 3 of the section for 全国象棋锦标赛（个人）"
    );

    let suzhou = load(
        include_str!("../../../../regulations/suzhou-2025.toml"),
        "suzhou-2025.toml",
    );
    let zh = suzhou.summary(Lang::Zh);
    assert_eq!(
        line(&section_block(&zh, "open"), "晋级:"),
        "晋级: 本组 获得「江苏省业余棋王赛」资格，名额另定"
    );

    let local = format!(
        "{}\n[[sections.categories]]\nid = \"local\"\nname = \"本地选手\"\nflag = \"local\"\n\n[[sections.qualification]]\nplaces = 3\nto = \"市赛\"\ncategory = \"local\"\n",
        include_str!("../../../../regulations/ziyousai-knockout.toml")
    );
    let r = load(&local, "local.toml");
    let zh = r.summary(Lang::Zh);
    let id = &r.sections[0].id;
    assert_eq!(
        line(&section_block(&zh, id), "晋级:"),
        "晋级: 本地选手 前3名 获得「市赛」资格"
    );
}
