//! A `groups` section (分组循环, 规则 11.3): the format read, the impossible combinations
//! refused naming their line, and the summary's reading.

use arbiter_regulation::summary::Lang;
use arbiter_regulation::*;

/// A file whose section has the format lines `format` (inside `[sections.format]`) and a
/// knockout table for the final's matches when `ko`.
fn groups(entries: &str, format: &str, ko: bool) -> String {
    let table = if ko {
        r#"
[sections.format.knockout]

[[sections.format.knockout.time_controls]]
kind = "slow"
minutes = 30

[[sections.format.knockout.time_controls]]
kind = "rapid"
minutes = 10

[[sections.format.knockout.time_controls]]
kind = "armageddon"
minutes = 5
"#
    } else {
        ""
    };
    format!(
        r#"[event]
name = "分组赛"
start = 2026-10-01
end = 2026-10-03

[[sections]]
id = "open"
name = "公开组"
{entries}
[sections.format]
kind = "groups"
{format}
{table}"#
    )
}

/// The 1-based line of the first line of `src` containing `needle`.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("{needle} not in {src}"))
}

fn refused(src: &str) -> String {
    parse(src, "g.toml").unwrap_err().to_string()
}

#[test]
fn a_cross_knockout_of_four_groups_is_read_with_its_defaults() {
    let src = groups(
        "entries = { cap = 32 }",
        "groups = 4\nadvance = 2\nfinal = \"cross_knockout\"",
        true,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let f = &r.sections[0].format;
    assert_eq!(f.kind, FormatKind::Groups);
    assert_eq!(f.split, GroupSplit::Snake);
    assert_eq!(f.group_format, GroupFormat::RoundRobin);
    assert_eq!(
        f.effective(32),
        EffectiveFormat::Groups {
            groups: 4,
            group_format: GroupFormat::RoundRobin,
            advance: 2,
            final_stage: FinalStage::CrossKnockout,
        }
    );
    // A silent group stage is ranked by the 2011 rule's round-robin list.
    assert_eq!(
        r.sections[0].tiebreaks.preset.as_deref(),
        Some("cxa-2011-rr")
    );
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("赛制: 分4组（A–D组，按序号蛇形分组）单循环，各组前2名交叉淘汰（A1–B2、B1–A2…"),
        "{zh}"
    );
    assert!(
        zh.contains("未出线者按小组名次排在决赛棋手之后，各组同名次者并列"),
        "{zh}"
    );
    let en = r.summary(Lang::En);
    assert!(
        en.contains("4 groups (A–D, snake split by number), each a single round robin; the top 2 of each play a cross knockout (A1–B2, B1–A2…"),
        "{en}"
    );
}

#[test]
fn same_place_finals_by_lot_in_double_round_robins_are_read() {
    let src = groups(
        "",
        "groups = 2\nadvance = 3\nsplit = \"lots\"\ngroup_format = \"double_round_robin\"\nfinal = \"same_place\"",
        true,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("分2组（A–B组，抽签分组）双循环，各组前3名同名次决赛（A1–B1、A2–B2、A3–B3，"),
        "{zh}"
    );
}

#[test]
fn impossible_combinations_are_refused_naming_the_line() {
    // Advance more than the smallest group a cap allows: 10 players in 4 groups → 2.
    let src = groups(
        "entries = { cap = 10 }",
        "groups = 4\nadvance = 3\nfinal = \"same_place\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "advance = 3"))),
        "{e}"
    );
    assert!(
        e.contains("每组出线 3 人，多于报名上限 10 人分成 4 组时最小组的 2 人"),
        "{e}"
    );

    // A cross knockout with an odd number of groups.
    let src = groups(
        "",
        "groups = 3\nadvance = 2\nfinal = \"cross_knockout\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "final ="))),
        "{e}"
    );
    assert!(
        e.contains("交叉淘汰须两组一对（A–B、C–D…），组数 3 为奇数"),
        "{e}"
    );

    // A cross knockout whose field is not a power of two (6 groups × 2 = 12).
    let src = groups(
        "",
        "groups = 6\nadvance = 2\nfinal = \"cross_knockout\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "advance = 2"))),
        "{e}"
    );
    assert!(e.contains("交叉淘汰的人数 6×2=12 须为 2 的幂"), "{e}");

    // Same-place finals of more than two groups are round robins: no match table.
    let src = groups("", "groups = 4\nadvance = 1\nfinal = \"same_place\"", true);
    let e = refused(&src);
    assert!(
        e.starts_with(&format!(
            "g.toml:{}:",
            line_of(&src, "[sections.format.knockout]")
        )),
        "{e}"
    );
    assert!(
        e.contains("三组以上的同名次决赛（各组同名次者单循环）"),
        "{e}"
    );

    // A final of matches without the knockout table for them.
    let src = groups("", "groups = 2\nadvance = 2\nfinal = \"same_place\"", false);
    let e = refused(&src);
    assert!(
        e.contains("同名次决赛须有 [sections.format.knockout]"),
        "{e}"
    );

    // Rounds are the round robins', and the keys of the format belong to `groups`.
    let src = groups(
        "",
        "groups = 2\nadvance = 1\nrounds = 5\nfinal = \"same_place\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "rounds = 5"))),
        "{e}"
    );
    let src = groups("", "advance = 1\nfinal = \"same_place\"", true);
    assert!(refused(&src).contains("分组赛须给出组数 `groups`"));
    let swiss = "[event]\nname = \"x\"\nstart = 2026-10-01\nend = 2026-10-01\n\n[[sections]]\nid = \"a\"\nname = \"a\"\nformat = { kind = \"swiss\", rounds = 5, advance = 2 }\n";
    let e = refused(swiss);
    assert!(e.starts_with("g.toml:9:"), "{e}");
    assert!(
        e.contains("只有分组赛 (kind = \"groups\") 才能设 `advance`"),
        "{e}"
    );

    // A knockout table's size is the final's field, not given.
    let src = groups(
        "",
        "groups = 2\nadvance = 2\nfinal = \"cross_knockout\"",
        true,
    )
    .replace(
        "[sections.format.knockout]\n",
        "[sections.format.knockout]\nsize = 8\n",
    );
    let e = refused(&src);
    assert!(
        e.contains("分组赛的决赛人数由组数与出线人数决定，不设 `size`"),
        "{e}"
    );
}

#[test]
fn a_swiss_in_each_group_is_read_and_its_rounds_checked() {
    let src = groups(
        "entries = { cap = 24 }",
        "groups = 2\nadvance = 2\ngroup_format = \"swiss\"\nrounds = 5\nfinal = \"same_place\"",
        true,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let f = &r.sections[0].format;
    assert_eq!(f.group_format, GroupFormat::Swiss);
    assert_eq!(f.group_format.cycles(), None);
    // A group's Swiss is ranked by the Swiss list, not the round robin's.
    assert_ne!(
        r.sections[0].tiebreaks.preset.as_deref(),
        Some("cxa-2011-rr")
    );
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("分2组（A–B组，按序号蛇形分组）组内积分编排制 5 轮，各组前2名同名次决赛"),
        "{zh}"
    );
    assert!(zh.contains("轮数: 小组赛 5 轮，决赛 1 轮"), "{zh}");
    let en = r.summary(Lang::En);
    assert!(en.contains("each a Swiss of 5 rounds"), "{en}");

    // A Swiss needs its rounds, named on the group_format line.
    let src = groups(
        "",
        "groups = 2\nadvance = 2\ngroup_format = \"swiss\"\nfinal = \"same_place\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "group_format"))),
        "{e}"
    );
    assert!(e.contains("组内积分编排制须给出每组的轮数 `rounds`"), "{e}");

    // More rounds than the largest group allows without a repeat: 10 in 2 groups of 5.
    let src = groups(
        "entries = { cap = 10 }",
        "groups = 2\nadvance = 1\ngroup_format = \"swiss\"\nrounds = 5\nfinal = \"same_place\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "rounds = 5"))),
        "{e}"
    );
    assert!(e.contains("每组至多 5 人，最多赛 4 轮而不重复对手"), "{e}");
}

#[test]
fn a_round_robin_group_stage_states_its_rounds_from_the_cap() {
    // Eight entries in two groups of four: three rounds, then a one-round final.
    let src = groups(
        "entries = { cap = 8 }",
        "groups = 2\nadvance = 2\nfinal = \"same_place\"",
        true,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("轮数: 小组赛至多 3 轮（由各组人数决定），决赛 1 轮"),
        "{zh}"
    );
    // Without a cap the groups' sizes decide; a cross knockout of 4 groups × 2 takes 3 rounds.
    let src = groups(
        "",
        "groups = 4\nadvance = 2\nfinal = \"cross_knockout\"",
        true,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = r.summary(Lang::Zh);
    assert!(zh.contains("轮数: 小组赛由各组人数决定，决赛 3 轮"), "{zh}");
}

#[test]
fn numbered_groups_seeded_by_pots_into_a_knockout_are_read_and_checked() {
    // 2025 全国象棋锦标赛(个人): 32 groups (第1–32组), 分档抽签, each group's winner into a
    // knockout at the place of his group's number.
    let src = groups(
        "[sections.entries]\ncap = 126\n",
        "groups = 32\ngroup_names = \"numbers\"\nsplit = \"pots\"\nadvance = 1\nfinal = \"knockout\"",
        true,
    );
    let reg = parse(&src, "g.toml").unwrap();
    let f = &reg.sections[0].format;
    assert_eq!(f.split, GroupSplit::Pots);
    assert_eq!(f.group_names, GroupNames::Numbers);
    assert_eq!(f.final_stage, Some(FinalStage::Knockout));
    let text = reg.summary(Lang::Zh);
    assert!(
        text.contains("分32组（第1–32组，按序号分档抽签分组）"),
        "{text}"
    );
    assert!(text.contains("第1组第1名为1号种子"), "{text}");
    assert!(text.contains("决赛 5 轮"), "{text}");

    // 32 groups named by letters: refused at the line, pointing at group_names.
    let src = groups("", "groups = 32\nadvance = 1\nfinal = \"knockout\"", true);
    let e = refused(&src);
    assert!(
        e.contains(&format!("g.toml:{}", line_of(&src, "groups = 32"))),
        "{e}"
    );
    assert!(e.contains("group_names = \"numbers\""), "{e}");
    // More than 64 numbered groups: refused.
    let src = groups(
        "",
        "groups = 65\ngroup_names = \"numbers\"\nadvance = 1\nfinal = \"knockout\"",
        true,
    );
    let e = refused(&src);
    assert!(e.contains("2 至 64"), "{e}");
    // 同队先碰 is for the round robins' codes: refused for a Swiss in each group.
    let src = groups(
        "",
        "groups = 2\ngroup_format = \"swiss\"\nrounds = 3\nsame_team_first = true\nadvance = 1\nfinal = \"knockout\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.contains(&format!("g.toml:{}", line_of(&src, "same_team_first"))),
        "{e}"
    );
    assert!(e.contains("同队先碰只用于组内循环"), "{e}");
    // An unknown split or final names the key's line.
    let src = groups(
        "",
        "groups = 4\nsplit = \"pot\"\nadvance = 1\nfinal = \"knockout\"",
        true,
    );
    let e = refused(&src);
    assert!(
        e.contains(&format!("g.toml:{}", line_of(&src, "split = \"pot\""))),
        "{e}"
    );
}

#[test]
fn the_national_championship_file_is_read_as_its_drawing_rules_say() {
    let reg = parse(
        include_str!("../../../../regulations/national-2025-individual.toml"),
        "national-2025-individual.toml",
    )
    .unwrap();
    let men = reg.section("men").unwrap();
    let women = reg.section("women").unwrap();
    assert_eq!(men.format.groups, Some(32));
    assert_eq!(women.format.groups, Some(16));
    for s in [men, women] {
        assert_eq!(s.format.split, GroupSplit::Pots);
        assert_eq!(s.format.final_stage, Some(FinalStage::Knockout));
        assert_eq!(s.format.advance, Some(1));
    }
}

#[test]
fn a_final_round_robin_is_read_without_a_knockout_table() {
    let src = groups(
        "entries = { cap = 18 }",
        "groups = 3\nadvance = 2\nfinal = \"round_robin\"",
        false,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let f = &r.sections[0].format;
    assert_eq!(f.final_stage, Some(FinalStage::RoundRobin));
    assert!(f.knockout.is_none());
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("各组前2名进行决赛单循环（代号依次为A1、B1…A2、B2…；贝格尔表，小组赛全部结束后逐轮编排；预赛成绩不带入决赛"),
        "{zh}"
    );
    // Six finalists: a Berger table of five rounds after groups of six (five rounds).
    assert!(
        zh.contains("小组赛至多 5 轮（由各组人数决定），决赛 5 轮"),
        "{zh}"
    );
    let en = r.summary(Lang::En);
    assert!(
        en.contains("the top 2 of each play a final round robin"),
        "{en}"
    );
    // Three finalists, one of each group: three rounds (one rests each round).
    let three = groups(
        "",
        "groups = 3\nadvance = 1\nfinal = \"round_robin\"",
        false,
    );
    let r = parse(&three, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    assert!(r.summary(Lang::Zh).contains("决赛 3 轮"));
}

#[test]
fn a_final_round_robin_with_a_knockout_table_is_refused_naming_the_table() {
    let src = groups("", "groups = 2\nadvance = 2\nfinal = \"round_robin\"", true);
    let e = refused(&src);
    assert!(
        e.starts_with(&format!(
            "g.toml:{}:",
            line_of(&src, "[sections.format.knockout]")
        )),
        "{e}"
    );
    assert!(e.contains("决赛单循环按贝格尔表逐轮编排"), "{e}");
    // Its qualifiers still fit the smallest group the cap allows.
    let src = groups(
        "entries = { cap = 6 }",
        "groups = 3\nadvance = 3\nfinal = \"round_robin\"",
        false,
    );
    let e = refused(&src);
    assert!(
        e.starts_with(&format!("g.toml:{}:", line_of(&src, "advance = 3"))),
        "{e}"
    );
}

#[test]
fn same_place_finals_of_three_groups_are_round_robins_of_each_place() {
    let src = groups(
        "entries = { cap = 12 }",
        "groups = 3\nadvance = 2\nfinal = \"same_place\"",
        false,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("各组前2名进行同名次决赛（各组第1名单循环决出第1–3名，各组第2名决出第4–6名…"),
        "{zh}"
    );
    // Pools of three: three rounds, one resting each round.
    assert!(zh.contains("决赛 3 轮"), "{zh}");
    let en = r.summary(Lang::En);
    assert!(
        en.contains("the groups' winners a round robin for places 1–3, the seconds for 4–6"),
        "{en}"
    );
}

#[test]
fn group_results_carried_into_a_final_round_robin_are_read_and_checked() {
    let src = groups(
        "entries = { cap = 16 }",
        "groups = 2\nadvance = 2\nfinal = \"round_robin\"\ncarry_over = true",
        false,
    );
    let r = parse(&src, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    assert!(r.sections[0].format.carry_over);
    let zh = r.summary(Lang::Zh);
    assert!(
        zh.contains("各组前2名进行决赛单循环，预赛中已相遇者成绩带入（代号依次为A1、B1…A2、B2…"),
        "{zh}"
    );
    assert!(zh.contains("同组出线者不再比赛"), "{zh}");
    assert!(zh.contains("决赛至多 3 轮"), "{zh}");
    let en = r.summary(Lang::En);
    assert!(en.contains("group results carried over"), "{en}");
    assert!(en.contains("final at most 3"), "{en}");
    // Without it the reading is unchanged.
    let plain = groups(
        "",
        "groups = 2\nadvance = 2\nfinal = \"round_robin\"",
        false,
    );
    let r = parse(&plain, "g.toml").unwrap_or_else(|e| panic!("{e}"));
    assert!(!r.sections[0].format.carry_over);
    assert!(r.summary(Lang::Zh).contains("预赛成绩不带入决赛"));

    // Refused naming the line: another final, groups that are not single round robins,
    // another kind of section.
    for (format, words) in [
        (
            "groups = 2\nadvance = 2\nfinal = \"same_place\"\ncarry_over = true",
            "只用于决赛单循环",
        ),
        (
            "groups = 2\ngroup_format = \"double_round_robin\"\nadvance = 2\nfinal = \"round_robin\"\ncarry_over = true",
            "须组内单循环",
        ),
        (
            "groups = 2\ngroup_format = \"swiss\"\nrounds = 3\nadvance = 2\nfinal = \"round_robin\"\ncarry_over = true",
            "须组内单循环",
        ),
    ] {
        let src = groups("", format, format.contains("same_place"));
        let e = refused(&src);
        assert!(
            e.contains(&format!("g.toml:{}", line_of(&src, "carry_over"))),
            "{e}"
        );
        assert!(e.contains(words), "{e}");
    }
    let swiss = "[event]\nname = \"x\"\nstart = 2026-10-01\nend = 2026-10-03\n\n[[sections]]\nid = \"open\"\nname = \"公开组\"\n[sections.format]\nkind = \"swiss\"\nrounds = 5\ncarry_over = true\n";
    let e = refused(swiss);
    assert!(
        e.contains(&format!("g.toml:{}", line_of(swiss, "carry_over"))),
        "{e}"
    );
}
