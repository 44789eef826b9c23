//! Malformed regulation files: each gives one exact, located message.

const BASE: &str = r#"[event]
name = "测试赛"
start = 2026-01-01
end = 2026-01-02

[[sections]]
id = "open"
name = "公开组"
format = { kind = "swiss", rounds = 7 }
tiebreaks = "cxa-2011-opp"
"#;

/// `BASE` with `from` replaced by `to` (the replaced text must exist).
fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    BASE.replacen(from, to, 1)
}

fn with(extra: &str) -> String {
    format!("{BASE}{extra}")
}

fn cases() -> Vec<(&'static str, String, &'static str)> {
    vec![
        (
            "unknown top-level key",
            edit("[event]", "[evnt]"),
            "t.toml:1:2: 错误: 未知的键 `evnt`，是否应为 `event`？ (unknown key `evnt`, did you mean `event`?)",
        ),
        (
            "unknown key in an inline table",
            edit("rounds = 7", "rouds = 7"),
            "t.toml:9:28: 错误: 未知的键 `rouds`，是否应为 `rounds`？ (unknown key `rouds`, did you mean `rounds`?)",
        ),
        (
            "unknown tie-break",
            edit("tiebreaks = \"cxa-2011-opp\"", "tiebreaks = [\"opp_scor\", \"wins\"]"),
            "t.toml:10:14: 错误: 未知的名次区分方法 `opp_scor`，是否应为 `opp_score`？ (unknown tie-break `opp_scor` (did you mean `opp_score`?))",
        ),
        (
            "two fallbacks",
            edit("tiebreaks = \"cxa-2011-opp\"", "tiebreaks = [\"opp_score\", \"lots\", \"shared\"]"),
            "t.toml:10:35: 错误: `shared` 不能排在最后手段 `lots` 之后：最后手段只能有一个且必须在最后 (`shared` after the fallback `lots`: only one fallback, and it must be last)",
        ),
        (
            "criterion after the fallback",
            edit("tiebreaks = \"cxa-2011-opp\"", "tiebreaks = [\"lots\", \"wins\"]"),
            "t.toml:10:22: 错误: `wins` 不能排在最后手段 `lots` 之后：最后手段只能有一个且必须在最后 (`wins` after the fallback `lots`: only one fallback, and it must be last)",
        ),
        (
            "unknown tie-break preset",
            edit("\"cxa-2011-opp\"", "\"kunshun\""),
            "t.toml:10:13: 错误: 未知的名次区分方案 `kunshun`，是否应为 `kunshan`？ (unknown tie-break preset, did you mean `kunshan`?)",
        ),
        (
            "reversed birth-date range",
            with("[sections.eligibility]\nborn_from = 1966-01-01\nborn_to = 1965-12-31\n"),
            "t.toml:13:11: 错误: 出生日期范围为空: 1966-01-01 至 1965-12-31 (empty birth-date range: born_from is after born_to)",
        ),
        (
            "overlapping prize ranks",
            with("[[sections.prizes]]\nfrom = 1\nto = 3\namount_yuan = 100\n[[sections.prizes]]\nrank = 3\namount_yuan = 50\n"),
            "t.toml:16:8: 错误: 奖励名次 3–3 与已有的 1–3 重叠 (prize ranks 3-3 overlap 1-3)",
        ),
        (
            "knockout size not a power of two",
            edit(
                "format = { kind = \"swiss\", rounds = 7 }",
                "format = { kind = \"swiss_then_knockout\", rounds = 7, knockout = { size = 6 } }",
            ),
            "t.toml:9:74: 错误: 淘汰人数 6 须为 2、4、8、16、32 …… 至 1024 之一 (2 的幂) (knockout size must be a power of two from 2 to 1024: 2, 4, 8, 16, 32, …)",
        ),
        (
            "knockout larger than the entry cap",
            format!(
                "{}[sections.entries]\ncap = 8\n",
                edit(
                    "format = { kind = \"swiss\", rounds = 7 }",
                    "format = { kind = \"swiss_then_knockout\", rounds = 7, knockout = { size = 16 } }",
                )
            ),
            "t.toml:9:74: 错误: 淘汰人数 16 超过报名上限 8 (knockout size is larger than the entry cap)",
        ),
        (
            "prize rank beyond the last supported place",
            with("[[sections.prizes]]\nrank = 10001\namount_yuan = 100\n"),
            "t.toml:12:8: 错误: 奖励名次 10001 超过程序支持的第 10000 名 (prize place 10001 is beyond place 10000, the last one supported)",
        ),
        (
            "prize range beyond the section's cap",
            with("[sections.entries]\ncap = 40\n[[sections.prizes]]\nfrom = 1\nto = 64\namount_yuan = 100\n"),
            "t.toml:15:6: 错误: 奖励名次 64 超过报名上限 40 人, 这一名次不会存在 (prize place 64 is beyond the entry cap of 40: the place cannot exist)",
        ),
        (
            "lucky rank beyond the last supported place",
            with("[[sections.lucky]]\nranks = [7, 1000000]\nitem = \"券\"\n"),
            "t.toml:12:13: 错误: 幸运奖名次 1000000 超过程序支持的第 10000 名 (lucky prize place 1000000 is beyond place 10000, the last one supported)",
        ),
        (
            "lucky rank beyond the event's cap",
            format!("{}\n[registration]\ncap = 100\n", with("[[sections.lucky]]\nranks = [101]\nitem = \"券\"\n")),
            "t.toml:12:10: 错误: 幸运奖名次 101 超过报名上限 100 人, 这一名次不会存在 (lucky prize place 101 is beyond the entry cap of 100: the place cannot exist)",
        ),
        (
            "cap beyond what is supported",
            format!("[registration]\ncap = 100001\n{BASE}"),
            "t.toml:2:7: 错误: 报名上限 100001 超过本程序支持的 100000 人 (cap 100001 is above the supported 100000 entries)",
        ),
        (
            "section cap beyond what is supported",
            with("[sections.entries]\ncap = 65536000\n"),
            "t.toml:12:7: 错误: 报名上限 65536000 超过本程序支持的 100000 人 (cap 65536000 is above the supported 100000 entries)",
        ),
        (
            "section cap beyond what one section supports",
            with("[sections.entries]\ncap = 65536\n"),
            "t.toml:12:7: 错误: 组别 `open` 报名上限 65536 人, 超过本程序支持的每组 20000 人 (section `open` cap 65536: one section supports at most 20000 players)",
        ),
        (
            "event cap a section inherits beyond what one section supports",
            format!("[registration]\ncap = 65536\n{BASE}"),
            "t.toml:2:7: 错误: 组别 `open` 没有自己的报名上限, 将可容纳全部 65536 人; 请为该组设 entries.cap 或降低总上限, 超过本程序支持的每组 20000 人 (section `open` has no cap of its own and could take all 65536 entries: give it an entries.cap or lower this cap: one section supports at most 20000 players)",
        ),
        (
            "section minimum of zero",
            with("[sections.entries]\nmin = 0\n"),
            "t.toml:12:7: 错误: 组别 `open` 的最少人数不能为 0 (section `open`: the minimum must be at least 1)",
        ),
        (
            "section minimum above its cap",
            with("[sections.entries]\ncap = 4\nmin = 6\n"),
            "t.toml:13:7: 错误: 组别 `open` 最少 6 人, 多于报名上限 4 人, 永远达不到 (section `open`: a minimum of 6 above the cap of 4 can never be reached)",
        ),
        (
            "event-wide section minimum above the event's cap",
            format!("[registration]\ncap = 5\nmin_per_section = 8\n{BASE}"),
            "t.toml:3:19: 错误: 组别 `open` 最少 8 人, 多于报名上限 5 人, 永远达不到 (section `open`: a minimum of 8 above the cap of 5 can never be reached)",
        ),
        (
            "zero swiss rounds",
            edit("rounds = 7", "rounds = 0"),
            "t.toml:9:37: 错误: 轮数不能为 0 (swiss rounds must be at least 1)",
        ),
        (
            "duplicate section id",
            with("\n[[sections]]\nid = \"open\"\nname = \"公开二组\"\nformat = { kind = \"round_robin\" }\ntiebreaks = [\"sb\"]\n"),
            "t.toml:13:6: 错误: 组别编号 `open` 重复 (duplicate section id `open`)",
        ),
        (
            "prize for an unknown category",
            with("[[sections.categories]]\nid = \"women\"\nname = \"女子\"\nsex = \"F\"\n[[sections.prizes]]\ncategory = \"woman\"\nrank = 1\n"),
            "t.toml:16:12: 错误: 未知的类别 `woman`，是否应为 `women`？ (unknown category `woman`, did you mean `women`?)",
        ),
        (
            "association standings name an unknown section",
            with("[associations]\nsections = [\"open\", \"senior\"]\n"),
            "t.toml:12:21: 错误: 未知的组别 `senior`，已定义: open (unknown section `senior`)",
        ),
        (
            "teams counting more players than the minimum",
            with("[sections.teams]\nmin_players = 3\ncounted = 4\n"),
            "t.toml:13:11: 错误: 计算成绩人数 4 大于每队最少人数 3 (teams counted k is larger than min_players)",
        ),
        (
            "duplicate lucky rank",
            with("[[sections.lucky]]\nranks = [55, 66]\nitem = \"早餐券\"\n[[sections.lucky]]\nranks = [77, 55]\nitem = \"景观房\"\n"),
            "t.toml:15:14: 错误: 幸运奖名次 55 重复 (lucky rank 55 listed twice)",
        ),
        (
            "loss scores more than a win",
            with("[sections.scoring]\nwin = 2\ndraw_red = 1\ndraw_black = 1\nloss = 3\nbye = 2\nforfeit_win = 2\nforfeit_loss = 0\ndouble_forfeit = 0\n"),
            "t.toml:15:8: 错误: `loss` 得分 3 高于胜局得分 2 (`loss` scores more than a win)",
        ),
        (
            "unknown scoring preset",
            edit("tiebreaks =", "scoring = \"5-2-3\"\ntiebreaks ="),
            "t.toml:10:11: 错误: 未知的计分方案 `5-2-3`，是否应为 `5-2-3-0`？ (unknown scoring preset, did you mean `5-2-3-0`?)",
        ),
        (
            "unknown evidence kind",
            with("[sections.eligibility]\nevidence = [\"social_securty\"]\n"),
            "t.toml:12:13: 错误: 未知的取值 `social_securty`，是否应为 `social_security`？ (unknown value `social_securty`, did you mean `social_security`?)",
        ),
        (
            "TOML syntax error",
            edit("name = \"公开组\"", "name = \"公开组"),
            "t.toml:8:12: 错误: TOML 语法错误 (TOML syntax error: invalid basic string)",
        ),
        (
            "impossible date",
            edit("end = 2026-01-02", "end = 2026-02-30"),
            "t.toml:4:15: 错误: TOML 语法错误 (TOML syntax error: invalid date-time; value is out of range)",
        ),
        (
            "event ends before it starts",
            edit("end = 2026-01-02", "end = 2025-12-31"),
            "t.toml:4:7: 错误: 结束日期 2025-12-31 早于开始日期 2026-01-01 (event ends before it starts)",
        ),
        (
            "empty age range",
            with("[sections.eligibility]\nmin_age = 60\nmax_age = 55\n"),
            "t.toml:13:11: 错误: 年龄范围为空: 60 至 55 岁 (empty age range: min_age is above max_age)",
        ),
        (
            "schedule not increasing",
            edit("tiebreaks =", "schedule = [2026-01-01T08:30:00, 2026-01-01T08:00:00]\ntiebreaks ="),
            "t.toml:10:34: 错误: 第2轮开始时间 2026-01-01 08:00:00 不晚于上一轮 2026-01-01 08:30:00 (round start times must increase)",
        ),
        (
            "knockout on a plain swiss",
            edit("rounds = 7 }", "rounds = 7, knockout = { size = 8 } }"),
            "t.toml:9:51: 错误: 只有 swiss_then_knockout 或 knockout 才能设淘汰阶段 (knockout only with kind = \"swiss_then_knockout\" or \"knockout\")",
        ),
        (
            "two-stage format without its knockout",
            edit("\"swiss\"", "\"swiss_then_knockout\""),
            "t.toml:9:19: 错误: swiss_then_knockout 须有 [sections.format.knockout] (missing knockout table)",
        ),
        (
            "non-ASCII section id",
            edit("id = \"open\"", "id = \"公开\""),
            "t.toml:7:6: 错误: 组别编号 `公开` 须为小写英文字母开头的 ASCII (section id must be lowercase ASCII letters, digits, `_`)",
        ),
        (
            "unknown pairing key",
            with("[sections.pairing]\nsame_teem = \"hard\"\n"),
            "t.toml:12:1: 错误: 未知的键 `same_teem`，是否应为 `same_team`？ (unknown key `same_teem`, did you mean `same_team`?)",
        ),
        (
            "unknown same-team value",
            with("[sections.pairing]\nsame_team = \"round_1\"\n"),
            "t.toml:12:13: 错误: 未知的取值 `round_1`，是否应为 `round1`？ (unknown value `round_1`, did you mean `round1`?)",
        ),
        (
            "reversed prize range",
            with("[[sections.prizes]]\nfrom = 5\nto = 3\n"),
            "t.toml:13:6: 错误: 名次范围为空: 第5至3名 (empty rank range: from is after to)",
        ),
        (
            "team prize for an unknown division",
            with("[sections.teams]\nmin_players = 3\ncounted = 3\n[[sections.teams.divisions]]\nid = \"a\"\nname = \"甲组\"\n[[sections.teams.prizes]]\ndivision = \"c\"\nrank = 1\n"),
            "t.toml:18:12: 错误: 未知的分组 `c`，是否应为 `a`？ (unknown division `c`, did you mean `a`?)",
        ),
        (
            "rounds given as text",
            edit("rounds = 7", "rounds = \"seven\""),
            "t.toml:9:37: 错误: 类型错误: 应为非负整数, 实为文本 \"seven\" (invalid type: expected a whole number ≥ 0, found the text \"seven\")",
        ),
        (
            "rounds given as a negative number",
            edit("rounds = 7", "rounds = -7"),
            "t.toml:9:37: 错误: 取值错误: 应为非负整数, 实为整数 `-7` (invalid value: expected a whole number ≥ 0, found the whole number `-7`)",
        ),
        (
            "column counts characters after Chinese text",
            with("categories = [{ id = \"w\", name = \"女子组\", sex = \"Female\" }]\n"),
            "t.toml:11:47: 错误: 未知的取值 `Female`，可选: M, F (unknown value `Female`, expected one of: M, F)",
        ),
        (
            "entry deadline after the event",
            BASE.replacen("[[sections]]", "[registration]\ndeadline = 2026-01-05T17:00:00\n\n[[sections]]", 1),
            "t.toml:7:12: 错误: 报名截止 2026-01-05 17:00:00 晚于比赛结束日期 2026-01-02 (the entry deadline is after the event)",
        ),
        (
            "unit placed in two divisions",
            with("[sections.teams]\nmin_players = 3\ncounted = 3\n[[sections.teams.divisions]]\nid = \"a\"\nname = \"甲组\"\nunits = [\"甲公司\"]\n[[sections.teams.divisions]]\nid = \"b\"\nname = \"乙组\"\nunits = [\"乙公司\", \"甲公司\"]\n"),
            "t.toml:21:17: 错误: 单位 甲公司 已划入甲组，不能同时划入乙组 (unit placed in two divisions)",
        ),
        (
            "records from a round after the last",
            with("[sections.records]\nboards = 10\nfrom_round = 8\n"),
            "t.toml:13:14: 错误: 记谱起始轮 8 超过本组轮数 7 (from_round is after the last round)",
        ),
        (
            "no sections",
            "sections = []\n[event]\nname = \"x\"\nstart = 2026-01-01\nend = 2026-01-01\n".to_string(),
            "t.toml:1:12: 错误: 至少需要一个组别 (at least one section is required)",
        ),
        (
            "qualification of an unknown category",
            with("[[sections.categories]]\nid = \"local\"\nname = \"本地选手\"\nflag = \"local\"\n[[sections.qualification]]\nplaces = 3\nto = \"市赛\"\ncategory = \"locl\"\n"),
            "t.toml:18:12: 错误: 未知的类别 `locl`，是否应为 `local`？ (unknown category `locl`, did you mean `local`?)",
        ),
        (
            "no qualifying place (the single table)",
            with("[sections.qualification]\nplaces = 0\nto = \"市赛\"\n"),
            "t.toml:12:10: 错误: 晋级名额至少为 1；未定时不写 `places` (qualifying places start at 1; leave `places` out when they are announced later)",
        ),
        (
            "the same qualification twice",
            with("[[sections.qualification]]\nplaces = 1\nto = \"市赛\"\n[[sections.qualification]]\nplaces = 2\nto = \"市赛\"\n"),
            "t.toml:16:6: 错误: 本组取得「市赛」资格已在前面写过 (qualification for `市赛` of the same ranking given twice)",
        ),
    ]
}

#[test]
fn base_is_valid() {
    assert!(arbiter_regulation::parse(BASE, "t.toml").is_ok());
}

#[test]
fn every_malformed_variant_gives_its_located_message() {
    let cases = cases();
    assert!(cases.len() >= 20);
    let mut wrong = Vec::new();
    for (what, src, expected) in &cases {
        match arbiter_regulation::parse(src, "t.toml") {
            Ok(_) => wrong.push(format!("{what}: parsed without error")),
            Err(e) if e.to_string() != *expected => {
                wrong.push(format!("{what}:\n  expected {expected}\n  got      {e}"))
            }
            Err(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn error_carries_file_line_and_column() {
    let src = edit("rounds = 7", "rounds = 0");
    let e = arbiter_regulation::parse(&src, "x/y.toml").unwrap_err();
    assert_eq!((e.file.as_str(), e.line, e.column), ("x/y.toml", 9, 37));
}
