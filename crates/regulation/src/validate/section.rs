//! One section of the regulation, part by part: its cap, eligibility, format, scoring,
//! discipline, time controls, schedule, categories, prizes, lucky ranks and teams.

use super::{
    beyond_places, check_cap, check_section_size, is_ascii_id, knockout_match, max_rounds, prizes,
    time_controls, unknown_ref, Ctx, MAX_BRACKET, R,
};
use crate::locate::Seg;
use crate::model::*;
use std::collections::{BTreeMap, BTreeSet};

/// Validate section `i` of `reg`.
pub(super) fn section(cx: &Ctx, reg: &Regulation, i: usize) -> R {
    let s = &reg.sections[i];
    let sp = |rest: Vec<Seg>| {
        let mut v = p!["sections", i];
        v.extend(rest);
        v
    };
    if let Some(c) = s.entries.cap {
        check_cap(cx, c, sp(p!["entries", "cap"]))?;
        check_section_size(cx, c, sp(p!["entries", "cap"]), &s.id, false)?;
    } else if let Some(c) = reg.registration.cap {
        check_section_size(cx, c, p!["registration", "cap"], &s.id, true)?;
    }
    // The places that can exist in this section: its cap, else the event's.
    let places = s.entries.cap.or(reg.registration.cap);
    section_min(cx, reg, s, &sp, places)?;
    eligibility(cx, s, &sp)?;
    // Before the format: a team section says which formats it can be played in.
    team_match(cx, s, &sp)?;
    format(cx, reg, s, &sp)?;
    scoring(cx, s, &sp)?;
    discipline(cx, s, &sp)?;
    time_controls(cx, &s.time_controls, sp(p!["time_controls"]))?;
    schedule(cx, s, &sp)?;
    categories(cx, s, &sp)?;
    let cat_ids: Vec<&str> = s.categories.iter().map(|c| c.id.as_str()).collect();
    prizes(cx, &s.prizes, &sp(p!["prizes"]), &cat_ids, &[], places)?;
    prize_pools(cx, s, &sp, &cat_ids)?;
    lucky(cx, s, &sp, &cat_ids, places)?;
    qualification(cx, s, &sp, &cat_ids)?;
    teams(cx, s, &sp, places)?;
    Ok(())
}

/// The fewest entries a section is played with (its own `entries.min`, else the event's
/// `min_per_section`): at least 1, and no more than the section may take.
fn section_min(
    cx: &Ctx,
    reg: &Regulation,
    s: &Section,
    sp: &dyn Fn(Vec<Seg>) -> Vec<Seg>,
    places: Option<u32>,
) -> R {
    let (min, path) = match (s.entries.min, reg.registration.min_per_section) {
        (Some(m), _) => (m, sp(p!["entries", "min"])),
        (None, Some(m)) => (m, p!["registration", "min_per_section"]),
        (None, None) => return Ok(()),
    };
    let id = &s.id;
    if min == 0 {
        return cx.fail(
            path,
            format!(
                "组别 `{id}` 的最少人数不能为 0 (section `{id}`: the minimum must be at least 1)"
            ),
        );
    }
    if let Some(cap) = places {
        if min > cap {
            return cx.fail(
                path,
                format!(
                    "组别 `{id}` 最少 {min} 人, 多于报名上限 {cap} 人, 永远达不到 (section `{id}`: a minimum of {min} above the cap of {cap} can never be reached)"
                ),
            );
        }
    }
    if min > super::MAX_SECTION_ENTRIES {
        return cx.fail(
            path,
            format!(
                "组别 `{id}` 最少 {min} 人, 超过本程序一组支持的 {} 人 (section `{id}`: a minimum of {min} is above the supported {} per section)",
                super::MAX_SECTION_ENTRIES,
                super::MAX_SECTION_ENTRIES
            ),
        );
    }
    Ok(())
}

/// The most boards a team match may have (a national league plays 6, a city event 4–8).
pub const MAX_BOARDS: u32 = 20;

/// The most groups a `groups` section may have (named by numbers: 2025 全国象棋锦标赛(个人)
/// 男子组 32 组).
pub const MAX_GROUPS: u32 = 64;

/// A team-match section (A15): boards within bounds, a team format, match points that rank a
/// win above a draw above a loss, and no individual team ranking beside it.
fn team_match(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let Some(tm) = &s.team_match else {
        return Ok(());
    };
    if tm.boards == 0 || tm.boards > MAX_BOARDS {
        return cx.fail(
            sp(p!["team_match", "boards"]),
            format!(
                "每场台数须在 1 至 {MAX_BOARDS} 之间，实为 {} (boards per match must be 1 to {MAX_BOARDS})",
                tm.boards
            ),
        );
    }
    if tm.reserves > MAX_BOARDS {
        return cx.fail(
            sp(p!["team_match", "reserves"]),
            format!(
                "替补人数不能超过 {MAX_BOARDS}，实为 {} (at most {MAX_BOARDS} reserves)",
                tm.reserves
            ),
        );
    }
    if !matches!(
        s.format.kind,
        FormatKind::Swiss | FormatKind::RoundRobin | FormatKind::DoubleRoundRobin
    ) {
        return cx.fail(
            sp(p!["format", "kind"]),
            "团体赛只能采用积分编排 (swiss)、单循环 (round_robin) 或双循环 (double_round_robin) \
             (a team-match section is paired as a team Swiss or a team round robin)"
                .into(),
        );
    }
    if s.teams.is_some() {
        return cx.fail(
            sp(p!["teams"]),
            "团体赛以场分、局分排名，不能再设按个人成绩计算的团体名次 `teams` \
             (a team-match section ranks its teams by their matches; `teams` ranks teams of an \
             individual section)"
                .into(),
        );
    }
    if s.format.knockout.is_some() {
        return cx.fail(
            sp(p!["format", "knockout"]),
            "团体赛暂不支持淘汰阶段 (a team-match section has no knockout stage)".into(),
        );
    }
    let mp = &tm.match_points;
    let t = mp.table();
    let ordered = t.win > t.draw_red
        && t.win > t.draw_black
        && t.draw_red >= t.loss
        && t.draw_black >= t.loss
        && t.loss >= arbiter_types::Score::ZERO
        && t.forfeit_loss <= t.loss
        && t.bye <= t.win;
    if !ordered {
        return cx.fail(
            sp(p!["team_match", "match_points"]),
            format!(
                "场分须胜 > 和 ≥ 负 ≥ 0，弃权 ≤ 负，轮空 ≤ 胜；实为 胜 {} 和 {}/{} 负 {} 弃权 {} 轮空 {} \
                 (match points must rank a win above a draw above a loss; a forfeit at most a \
                 loss; a bye at most a win)",
                t.win, t.draw_red, t.draw_black, t.loss, t.forfeit_loss, t.bye
            ),
        );
    }
    if tm.lineup_deadline_minutes.is_some() && s.schedule.is_empty() && s.schedule_days.is_empty() {
        return cx.fail(
            sp(p!["team_match", "lineup_deadline_minutes"]),
            "出场名单截止时间按各轮开始时间计算, 请先写本组赛程 `schedule` \
             (a line-up deadline counts back from each round's start: give the section's schedule)"
                .into(),
        );
    }
    if tm.lineup_deadline_minutes.is_some_and(|m| m > 7 * 24 * 60) {
        return cx.fail(
            sp(p!["team_match", "lineup_deadline_minutes"]),
            "出场名单截止时间至多为赛前 7 天 (10080 分钟) (a line-up deadline of at most a week)"
                .into(),
        );
    }
    if tm.board_prize_min_games == Some(0) {
        return cx.fail(
            sp(p!["team_match", "board_prize_min_games"]),
            "台次奖最少对局数不能为 0 (board_prize_min_games must be at least 1)".into(),
        );
    }
    // Team places and each board's places: no category, no division (a team-match section
    // has neither); a place beyond the teams entered is vacant when prizes are allocated.
    for (key, list) in [("prizes", &tm.prizes), ("board_prizes", &tm.board_prizes)] {
        for (j, pz) in list.iter().enumerate() {
            let field = match (&pz.category, &pz.division) {
                (Some(_), _) => "category",
                (None, Some(_)) => "division",
                (None, None) => continue,
            };
            return cx.fail(
                sp(p!["team_match", key, j, field]),
                format!(
                    "团体赛的团体奖与台次奖不分类别或分组, 请删去 `{field}` \
                     (team and board prizes of a team match have no {field})"
                ),
            );
        }
    }
    prizes(
        cx,
        &tm.prizes,
        &sp(p!["team_match", "prizes"]),
        &[],
        &[],
        None,
    )?;
    prizes(
        cx,
        &tm.board_prizes,
        &sp(p!["team_match", "board_prizes"]),
        &[],
        &[],
        None,
    )?;
    let mut seen = std::collections::BTreeSet::new();
    for (i, r) in tm.board_rules.iter().enumerate() {
        let at = |k: &'static str| sp(p!["team_match", "board_rules", i, k]);
        if r.board == 0 || r.board > tm.boards {
            return cx.fail(
                at("board"),
                format!(
                    "台次须在 1 至 {} 之间，实为 {} (a board rule names a board the match does not have)",
                    tm.boards, r.board
                ),
            );
        }
        if !seen.insert(r.board) {
            return cx.fail(
                at("board"),
                format!(
                    "第{}台的条件重复 (board {} has two rules: write them as one)",
                    r.board, r.board
                ),
            );
        }
        if r.sex.is_none() && r.born_from.is_none() && r.born_to.is_none() {
            return cx.fail(
                at("board"),
                format!(
                    "第{}台的条件为空: 须写 sex、born_from 或 born_to (a board rule needs a condition)",
                    r.board
                ),
            );
        }
        if let (Some(f), Some(t)) = (r.born_from, r.born_to) {
            if f > t {
                return cx.fail(
                    at("born_to"),
                    format!("出生日期范围为空: {f} 至 {t} (empty birth-date range)"),
                );
            }
        }
    }
    Ok(())
}

/// Eligibility: birth-date and age ranges not empty, no empty list of alternative evidence.
fn eligibility(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let el = &s.eligibility;
    if let (Some(f), Some(t)) = (el.born_from, el.born_to) {
        if f > t {
            return cx.fail(
                sp(p!["eligibility", "born_to"]),
                format!("出生日期范围为空: {f} 至 {t} (empty birth-date range: born_from is after born_to)"),
            );
        }
    }
    if let (Some(a), Some(b)) = (el.min_age, el.max_age) {
        if a > b {
            return cx.fail(
                sp(p!["eligibility", "max_age"]),
                format!("年龄范围为空: {a} 至 {b} 岁 (empty age range: min_age is above max_age)"),
            );
        }
    }
    for (j, any) in el.evidence_any.iter().enumerate() {
        if any.is_empty() {
            return cx.fail(
                sp(p!["eligibility", "evidence_any", j]),
                "证明材料备选列表为空 (an evidence_any list is empty)".into(),
            );
        }
    }
    for (j, c) in el.any_of.iter().enumerate() {
        if c.evidence.is_empty() && c.flags.is_empty() {
            return cx.fail(
                sp(p!["eligibility", "any_of", j]),
                "条件之一为空: 须列出证明材料 (evidence) 或标记 (flags) (an any_of condition names no evidence and no flag)".into(),
            );
        }
    }
    Ok(())
}

/// Format: the rounds a Swiss needs and a knockout may not have, a knockout's cap within the
/// largest bracket, the knockout table and its match.
fn format(cx: &Ctx, reg: &Regulation, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let f = &s.format;
    let needs_rounds = matches!(
        f.kind,
        FormatKind::Swiss | FormatKind::Auto | FormatKind::SwissThenKnockout
    );
    if f.kind == FormatKind::Knockout && f.rounds.is_some() {
        return cx.fail(
            sp(p!["format", "rounds"]),
            "淘汰赛不设积分编排轮数 `rounds`：轮数由人数决定，种子按本组编号 (`pairing.numbering`) (a plain knockout has no `rounds`: its rounds follow from the entries, seeded by the section's numbering)".into(),
        );
    }
    match f.rounds {
        None if needs_rounds => {
            return cx.fail(
                sp(p!["format", "kind"]),
                "积分编排制须给出轮数 `rounds` (missing key `rounds` for a Swiss format)".into(),
            );
        }
        Some(0) => {
            return cx.fail(
                sp(p!["format", "rounds"]),
                "轮数不能为 0 (swiss rounds must be at least 1)".into(),
            );
        }
        _ => {}
    }
    if f.kind == FormatKind::Knockout {
        // The bracket takes every entry: its cap (own, else the event's) must fit the largest
        // bracket. Without a cap, registration stops at MAX_BRACKET (`Section::check_entry`).
        let own = s.entries.cap;
        if let Some(cap) = own.or(s.entries.event_cap).or(reg.registration.cap) {
            if cap > MAX_BRACKET {
                let (zh, en) = if own.is_some() {
                    (
                        format!("报名上限为 {cap} 人"),
                        format!("its entry cap is {cap}"),
                    )
                } else {
                    (
                        format!("本组没有自己的报名上限，将可容纳全部 {cap} 人; 请为该组设 entries.cap"),
                        format!("it has no cap of its own and could take all {cap} entries: give it an entries.cap"),
                    )
                };
                return cx.fail(
                    sp(p!["format", "kind"]),
                    format!(
                        "组别「{}」为淘汰赛，最多 {MAX_BRACKET} 人，但{zh} (section `{}` is a knockout of at most {MAX_BRACKET} players, but {en})",
                        s.name, s.id
                    ),
                );
            }
        }
    }
    if let Some(k) = f
        .knockout
        .as_ref()
        .filter(|_| f.kind != FormatKind::Knockout)
    {
        if k.seeds.is_some() || k.seed_min_grade.is_some() {
            return cx.fail(
                sp(p!["format", "knockout", if k.seeds.is_some() { "seeds" } else { "seed_min_grade" }]),
                "种子签只用于淘汰赛 (kind = \"knockout\")；两阶段与分组赛的种子来自前一阶段的名次 (seeds only in a plain knockout: a later stage's seeds are the earlier stage's places)".into(),
            );
        }
    }
    if f.kind == FormatKind::Groups {
        return groups(cx, reg, s, sp);
    }
    for (given, key) in [
        (f.groups.is_some(), "groups"),
        (f.advance.is_some(), "advance"),
        (f.final_stage.is_some(), "final"),
        (f.same_team_first, "same_team_first"),
        (f.carry_over, "carry_over"),
    ] {
        if given {
            return cx.fail(
                sp(p!["format", key]),
                format!("只有分组赛 (kind = \"groups\") 才能设 `{key}` (`{key}` only with kind = \"groups\")"),
            );
        }
    }
    if f.kind == FormatKind::Auto && f.double_rr_below > f.single_rr_below {
        return cx.fail(
            sp(p!["format", "double_rr_below"]),
            "双循环人数界限不能大于单循环界限 (double_rr_below must not exceed single_rr_below)"
                .into(),
        );
    }
    match (&f.knockout, f.kind) {
        (None, FormatKind::Knockout) => {
            return cx.fail(
                sp(p!["format", "kind"]),
                "淘汰赛须有 [sections.format.knockout]，至少给出各类对局的用时 `time_controls`（默认赛制 K1: 慢棋、快棋、附加赛） (a knockout needs [sections.format.knockout] with the time controls of its games; the default format K1 plays slow, rapid and armageddon games)".into(),
            );
        }
        (None, FormatKind::SwissThenKnockout) => {
            return cx.fail(
                sp(p!["format", "kind"]),
                "swiss_then_knockout 须有 [sections.format.knockout] (missing knockout table)"
                    .into(),
            );
        }
        (Some(_), k) if k != FormatKind::SwissThenKnockout && k != FormatKind::Knockout => {
            return cx.fail(sp(p!["format", "knockout"]), "只有 swiss_then_knockout 或 knockout 才能设淘汰阶段 (knockout only with kind = \"swiss_then_knockout\" or \"knockout\")".into());
        }
        (Some(k), FormatKind::Knockout) => {
            if k.size != 0 {
                return cx.fail(
                    sp(p!["format", "knockout", "size"]),
                    "淘汰赛由全部报名者参加，不设淘汰人数 `size` (a plain knockout takes every entry: no `size`)".into(),
                );
            }
            if k.continue_rounds != 0 {
                return cx.fail(
                    sp(p!["format", "knockout", "continue_rounds"]),
                    "淘汰赛没有其余棋手继续比赛，不设 `continue_rounds` (a plain knockout has no continuing Swiss)".into(),
                );
            }
            knockout_match(cx, k, sp(p!["format", "knockout"]), true)?;
            match k.seeds {
                Some(0) => {
                    return cx.fail(
                        sp(p!["format", "knockout", "seeds"]),
                        "种子签数须至少为 1；不设种子签请删去 `seeds` (seeds must be at least 1)"
                            .into(),
                    );
                }
                Some(n) if n > MAX_BRACKET / 2 => {
                    return cx.fail(
                        sp(p!["format", "knockout", "seeds"]),
                        format!(
                            "种子签数 {n} 超过最大对阵表 {MAX_BRACKET} 签的一半 (at most {} seeds)",
                            MAX_BRACKET / 2
                        ),
                    );
                }
                None if k.seed_min_grade.is_some() => {
                    return cx.fail(
                        sp(p!["format", "knockout", "seed_min_grade"]),
                        "`seed_min_grade` 须与种子签数 `seeds` 一起给出 (seed_min_grade needs `seeds`)"
                            .into(),
                    );
                }
                _ => {}
            }
        }
        (Some(k), _) => {
            if k.size == 0 {
                return cx.fail(
                    sp(p!["format", "knockout"]),
                    "swiss_then_knockout 须给出淘汰人数 `size` (missing key `size`)".into(),
                );
            }
            if !(k.size.is_power_of_two() && (2..=MAX_BRACKET).contains(&k.size)) {
                return cx.fail(
                    sp(p!["format", "knockout", "size"]),
                    format!("淘汰人数 {} 须为 2、4、8、16、32 …… 至 {MAX_BRACKET} 之一 (2 的幂) (knockout size must be a power of two from 2 to {MAX_BRACKET}: 2, 4, 8, 16, 32, …)", k.size),
                );
            }
            if let Some(cap) = s
                .entries
                .cap
                .or(s.entries.event_cap)
                .or(reg.registration.cap)
            {
                if k.size > cap {
                    return cx.fail(
                        sp(p!["format", "knockout", "size"]),
                        format!("淘汰人数 {} 超过报名上限 {cap} (knockout size is larger than the entry cap)", k.size),
                    );
                }
            }
            knockout_match(cx, k, sp(p!["format", "knockout"]), false)?;
        }
        _ => {}
    }
    Ok(())
}

/// A `groups` section (规则 11.3): the number of groups, the qualifiers of each, and a final
/// stage the qualifiers can play — a cross knockout of groups in pairs into a bracket of a
/// power of two, same-place finals of two groups, or a final round robin.
fn groups(cx: &Ctx, reg: &Regulation, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    use crate::model::{FinalStage, GroupFormat};
    let f = &s.format;
    let swiss = f.group_format == GroupFormat::Swiss;
    match (swiss, f.rounds) {
        (false, Some(_)) => {
            return cx.fail(
                sp(p!["format", "rounds"]),
                "分组循环不设轮数 `rounds`：轮数由各组人数决定 (a group stage of round robins has no `rounds`: the groups' sizes decide them)".into(),
            );
        }
        (true, _) if f.same_team_first => {
            return cx.fail(
                sp(p!["format", "same_team_first"]),
                "同队先碰只用于组内循环（贝格尔表的代号），组内积分编排制不能设 (same_team_first is for round-robin groups, not a Swiss in each group)".into(),
            );
        }
        (true, None | Some(0)) => {
            return cx.fail(
                sp(p!["format", "group_format"]),
                "组内积分编排制须给出每组的轮数 `rounds` (a Swiss in each group needs its `rounds`)"
                    .into(),
            );
        }
        _ => {}
    }
    let Some(g) = f.groups else {
        return cx.fail(
            sp(p!["format", "kind"]),
            "分组赛须给出组数 `groups` (missing key `groups`)".into(),
        );
    };
    match f.group_names {
        crate::model::GroupNames::Letters if !(2..=26).contains(&g) => {
            return cx.fail(
                sp(p!["format", "groups"]),
                format!("组数 {g} 须在 2 至 26 之间（A 组至 Z 组；更多的组请写 group_names = \"numbers\" 以第1组、第2组…命名） (groups must be 2 to 26, A to Z; more groups need group_names = \"numbers\")"),
            );
        }
        crate::model::GroupNames::Numbers if !(2..=MAX_GROUPS).contains(&g) => {
            return cx.fail(
                sp(p!["format", "groups"]),
                format!("组数 {g} 须在 2 至 {MAX_GROUPS} 之间 (groups must be 2 to {MAX_GROUPS})"),
            );
        }
        _ => {}
    }
    let Some(a) = f.advance else {
        return cx.fail(
            sp(p!["format", "kind"]),
            "分组赛须给出每组出线人数 `advance` (missing key `advance`)".into(),
        );
    };
    if a == 0 {
        return cx.fail(
            sp(p!["format", "advance"]),
            "每组出线人数不能为 0 (advance must be at least 1)".into(),
        );
    }
    let Some(fin) = f.final_stage else {
        return cx.fail(
            sp(p!["format", "kind"]),
            "分组赛须给出决赛阶段 `final`: cross_knockout（交叉淘汰）、same_place（同名次决赛）、knockout（按组号定位单败淘汰）或 round_robin（决赛单循环） (missing key `final`)".into(),
        );
    };
    // 成绩带入: the group game of two finalists of one group counts in the final — a final
    // round robin after single round robins, where two finalists of one group have met once.
    if f.carry_over && fin != FinalStage::RoundRobin {
        return cx.fail(
            sp(p!["format", "carry_over"]),
            format!("预赛成绩带入 (`carry_over`) 只用于决赛单循环 (final = \"round_robin\")，不能用于{} (carry_over only with final = \"round_robin\", not {})", fin.zh(), fin.en()),
        );
    }
    if f.carry_over && f.group_format != GroupFormat::RoundRobin {
        return cx.fail(
            sp(p!["format", "carry_over"]),
            format!("预赛成绩带入 (`carry_over`) 须组内单循环：同组出线者恰好相遇一次；组内{}不能带入 (carry_over needs single round-robin groups, where two finalists of a group met once; not a {} in each group)", f.group_format.zh(), f.group_format.en()),
        );
    }
    // The smallest group the cap allows must hold the qualifiers.
    if let Some(cap) = s
        .entries
        .cap
        .or(s.entries.event_cap)
        .or(reg.registration.cap)
    {
        if cap < g * 2 {
            return cx.fail(
                sp(p!["format", "groups"]),
                format!("报名上限 {cap} 人分不成 {g} 个至少 2 人的组 (a cap of {cap} cannot make {g} groups of at least 2)"),
            );
        }
        let smallest = cap / g;
        if a > smallest {
            return cx.fail(
                sp(p!["format", "advance"]),
                format!("每组出线 {a} 人，多于报名上限 {cap} 人分成 {g} 组时最小组的 {smallest} 人 (advance {a} is more than the {smallest} players of the smallest group a cap of {cap} in {g} groups allows)"),
            );
        }
        // A Swiss of n players has at most n − 1 rounds without a repeat pairing.
        if let (true, Some(r)) = (swiss, f.rounds) {
            let largest = cap.div_ceil(g);
            if r >= largest {
                return cx.fail(
                    sp(p!["format", "rounds"]),
                    format!("组内积分编排 {r} 轮，但报名上限 {cap} 人分成 {g} 组时每组至多 {largest} 人，最多赛 {} 轮而不重复对手 (a Swiss of {r} rounds in groups of at most {largest} players: at most {} rounds without a repeat)", largest.saturating_sub(1), largest.saturating_sub(1)),
                );
            }
        }
    }
    match fin {
        FinalStage::CrossKnockout => {
            if !g.is_multiple_of(2) {
                return cx.fail(
                    sp(p!["format", "final"]),
                    format!("交叉淘汰须两组一对（A–B、C–D…），组数 {g} 为奇数 (a cross knockout pairs the groups A–B, C–D…: {g} groups is odd)"),
                );
            }
            if a > 2 {
                return cx.fail(
                    sp(p!["format", "advance"]),
                    format!("交叉淘汰每组取 1 或 2 名（A1–B2、B1–A2），不能取 {a} 名 (a cross knockout takes 1 or 2 of each group, not {a})"),
                );
            }
            let k = g * a;
            if !k.is_power_of_two() || k > MAX_BRACKET {
                return cx.fail(
                    sp(p!["format", "advance"]),
                    format!("交叉淘汰的人数 {g}×{a}={k} 须为 2 的幂（2、4、8、16…） (a cross knockout of {k} players: it must be a power of two)"),
                );
            }
        }
        FinalStage::Knockout => {
            let k = g * a;
            if k > MAX_BRACKET {
                return cx.fail(
                    sp(p!["format", "advance"]),
                    format!("决赛淘汰赛 {g}×{a}={k} 人，多于淘汰表的 {MAX_BRACKET} 人 (a knockout final of {k} players: at most {MAX_BRACKET})"),
                );
            }
        }
        // The final's games are a round robin's, entered as the groups' are: no match (a
        // final round robin, or same-place finals of three groups or more, each place's
        // players a round robin of their own).
        // Two groups: each place's pair plays one match (`[format.knockout]`).
        FinalStage::SamePlace if g < 3 => {}
        FinalStage::RoundRobin | FinalStage::SamePlace => {
            if f.knockout.is_some() {
                return cx.fail(
                    sp(p!["format", "knockout"]),
                    format!("{}按贝格尔表逐轮编排、录入成绩，不用 [sections.format.knockout] ({} {}: paired round by round by the Berger table, no [sections.format.knockout])", if fin == FinalStage::RoundRobin { "决赛单循环" } else { "三组以上的同名次决赛（各组同名次者单循环）" }, fin.en(), if fin == FinalStage::RoundRobin { "" } else { "of three groups or more" }),
                );
            }
            return Ok(());
        }
    }
    match &f.knockout {
        None => cx.fail(
            sp(p!["format", "final"]),
            format!("{}须有 [sections.format.knockout]，至少给出各类对局的用时 `time_controls` ({} needs [sections.format.knockout] with the time controls of its games)", fin.zh(), fin.en()),
        ),
        Some(k) => {
            if k.size != 0 {
                return cx.fail(
                    sp(p!["format", "knockout", "size"]),
                    "分组赛的决赛人数由组数与出线人数决定，不设 `size` (the final's field is groups × advance: no `size`)".into(),
                );
            }
            if k.continue_rounds != 0 {
                return cx.fail(
                    sp(p!["format", "knockout", "continue_rounds"]),
                    "分组赛的其余棋手不再比赛，不设 `continue_rounds` (the others of a group stage play no more: no `continue_rounds`)".into(),
                );
            }
            knockout_match(cx, k, sp(p!["format", "knockout"]), true)
        }
    }
}

/// Scoring: no result scores more than a win, a loss no more than a draw.
fn scoring(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let t = &s.scoring.table;
    for (name, v) in [
        ("draw_red", t.draw_red),
        ("draw_black", t.draw_black),
        ("loss", t.loss),
        ("forfeit_loss", t.forfeit_loss),
    ] {
        if v > t.win {
            return cx.fail(
                sp(p!["scoring", name]),
                format!(
                    "`{name}` 得分 {v} 高于胜局得分 {} (`{name}` scores more than a win)",
                    t.win
                ),
            );
        }
    }
    if t.loss > t.draw_red.min(t.draw_black) {
        return cx.fail(
            sp(p!["scoring", "loss"]),
            format!(
                "负局得分 {} 高于和局得分 (a loss scores more than a draw)",
                t.loss
            ),
        );
    }
    Ok(())
}

/// Discipline: every count of forfeits or fouls at least 1.
fn discipline(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let d = &s.discipline;
    for (name, v) in [
        (
            "withdraw_after_consecutive_forfeits",
            d.withdraw_after_consecutive_forfeits,
        ),
        (
            "withdraw_after_total_forfeits",
            d.withdraw_after_total_forfeits,
        ),
        ("fouls_for_loss", d.fouls_for_loss),
        ("phone_fouls_for_loss", d.phone_fouls_for_loss),
    ] {
        if v == Some(0) {
            return cx.fail(
                sp(p!["discipline", name]),
                format!("`{name}` 不能为 0 (`{name}` must be at least 1)"),
            );
        }
    }
    Ok(())
}

/// Schedule: no more rounds than the section plays, start times increasing; game records
/// from a round the section plays.
fn schedule(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let max = max_rounds(&s.format);
    if max > 0 && s.schedule.len() as u32 > max {
        return cx.fail(
            sp(p!["schedule", max as usize]),
            format!("赛程有 {} 轮，但本组最多 {max} 轮 (schedule lists more rounds than the section plays)", s.schedule.len()),
        );
    }
    for (j, w) in s.schedule.windows(2).enumerate() {
        if w[1] <= w[0] {
            return cx.fail(
                sp(p!["schedule", j + 1]),
                format!(
                    "第{}轮开始时间 {} 不晚于上一轮 {} (round start times must increase)",
                    j + 2,
                    w[1],
                    w[0]
                ),
            );
        }
    }
    if let Some(rec) = &s.records {
        if rec.from_round == 0 {
            return cx.fail(
                sp(p!["records", "from_round"]),
                "轮次从 1 开始 (rounds start at 1)".into(),
            );
        }
        if max > 0 && rec.from_round > max {
            return cx.fail(
                sp(p!["records", "from_round"]),
                format!(
                    "记谱起始轮 {} 超过本组轮数 {max} (from_round is after the last round)",
                    rec.from_round
                ),
            );
        }
        match rec.natural_move_limit {
            Some(0) => {
                return cx.fail(
                    sp(p!["records", "natural_move_limit"]),
                    "自然限着回合数须至少为 1 (the natural move limit must be at least 1 move)"
                        .into(),
                );
            }
            None if rec.natural_move_checks > 0 => {
                return cx.fail(
                    sp(p!["records", "natural_move_checks"]),
                    "`natural_move_checks` 须与自然限着回合数 `natural_move_limit` 一起给出 (natural_move_checks needs natural_move_limit)".into(),
                );
            }
            Some(m) if rec.natural_move_checks > m => {
                return cx.fail(
                    sp(p!["records", "natural_move_checks"]),
                    format!(
                        "提出方将军计入的着数 {} 超过自然限着 {m} 回合 (more checks counted than the limit has moves)",
                        rec.natural_move_checks
                    ),
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// Categories: ids valid and distinct, birth-date ranges not empty.
fn categories(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>) -> R {
    let mut cats = BTreeSet::new();
    for (j, c) in s.categories.iter().enumerate() {
        if !is_ascii_id(&c.id) || !cats.insert(c.id.as_str()) {
            return cx.fail(
                sp(p!["categories", j, "id"]),
                format!(
                    "类别编号 `{}` 无效或重复 (category id invalid or duplicate)",
                    c.id
                ),
            );
        }
        if let (Some(a), Some(b)) = (c.born_from, c.born_to) {
            if a > b {
                return cx.fail(
                    sp(p!["categories", j, "born_to"]),
                    format!("出生日期范围为空: {a} 至 {b} (empty birth-date range: born_from is after born_to)"),
                );
            }
        }
    }
    Ok(())
}

/// A14: each table's pool adds up; reserved places inside the section's table.
fn prize_pools(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>, cat_ids: &[&str]) -> R {
    let table_sum = |cat: Option<&str>| -> u64 {
        s.prizes
            .iter()
            .filter(|p| p.category.as_deref() == cat)
            .map(|p| {
                let (a, b) = p.ranks();
                u64::from(p.amount_yuan.unwrap_or(0)) * u64::from(b.saturating_sub(a) + 1)
            })
            .sum()
    };
    let pool_mismatch = |name: &str, pool: u32, sum: u64| {
        format!(
            "{name}奖金总额 {pool} 元，但奖项表各名次奖金合计 {sum} 元 (the prize table adds up to {sum} yuan, not the pool of {pool})"
        )
    };
    if s.awards.fewer_than.is_some_and(|n| n < 2) {
        return cx.fail(
            sp(p!["awards", "fewer_than"]),
            "「不足N人则减1录取」的 N 至少为 2 (fewer_than must be at least 2)".into(),
        );
    }
    if let Some(pool) = s.prize_pool_yuan {
        let sum = table_sum(None);
        if sum != u64::from(pool) {
            return cx.fail(sp(p!["prize_pool_yuan"]), pool_mismatch(&s.name, pool, sum));
        }
    }
    for (j, c) in s.categories.iter().enumerate() {
        if let Some(pool) = c.prize_pool_yuan {
            let sum = table_sum(Some(&c.id));
            if sum != u64::from(pool) {
                return cx.fail(
                    sp(p!["categories", j, "prize_pool_yuan"]),
                    pool_mismatch(&c.name, pool, sum),
                );
            }
        }
    }
    if let Some(r) = &s.reserved_places {
        if !cat_ids.contains(&r.category.as_str()) {
            return cx.fail(
                sp(p!["reserved_places", "category"]),
                unknown_ref("类别", "category", &r.category, cat_ids.iter().copied()),
            );
        }
        let last = s
            .prizes
            .iter()
            .filter(|p| p.category.is_none())
            .map(|p| p.ranks().1)
            .max()
            .unwrap_or(0);
        if r.places == 0 || r.places > last {
            return cx.fail(
                sp(p!["reserved_places", "places"]),
                format!(
                    "保留名额 {} 个须在1至本组奖项表的 {last} 个名次之间 (reserved places must be between 1 and the table's {last} places)",
                    r.places
                ),
            );
        }
    }
    Ok(())
}

/// Lucky ranks: of a known category, from 1, within the places that can exist, each once.
fn lucky(
    cx: &Ctx,
    s: &Section,
    sp: &impl Fn(Vec<Seg>) -> Vec<Seg>,
    cat_ids: &[&str],
    places: Option<u32>,
) -> R {
    let mut seen = BTreeMap::new();
    for (j, l) in s.lucky.iter().enumerate() {
        if let Some(c) = &l.category {
            if !cat_ids.contains(&c.as_str()) {
                return cx.fail(
                    sp(p!["lucky", j, "category"]),
                    unknown_ref("类别", "category", c, cat_ids.iter().copied()),
                );
            }
        }
        for (k, &r) in l.ranks.iter().enumerate() {
            if r == 0 {
                return cx.fail(
                    sp(p!["lucky", j, "ranks", k]),
                    "名次从 1 开始 (ranks start at 1)".into(),
                );
            }
            if let Some(why) = beyond_places(r, places, "幸运奖", "lucky prize") {
                return cx.fail(sp(p!["lucky", j, "ranks", k]), why);
            }
            if seen.insert((l.category.clone(), r), ()).is_some() {
                return cx.fail(
                    sp(p!["lucky", j, "ranks", k]),
                    format!("幸运奖名次 {r} 重复 (lucky rank {r} listed twice)"),
                );
            }
        }
    }
    Ok(())
}

/// Qualifications (S8): each of the section or of a known category, at least one place when
/// the number is given, and each (what for, category) once.
fn qualification(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>, cat_ids: &[&str]) -> R {
    let mut seen = BTreeSet::new();
    for (j, q) in s.qualification.iter().enumerate() {
        if let Some(c) = &q.category {
            if !cat_ids.contains(&c.as_str()) {
                return cx.fail(
                    sp(p!["qualification", j, "category"]),
                    unknown_ref("类别", "category", c, cat_ids.iter().copied()),
                );
            }
        }
        if q.places == Some(0) {
            return cx.fail(
                sp(p!["qualification", j, "places"]),
                "晋级名额至少为 1；未定时不写 `places` (qualifying places start at 1; leave `places` out when they are announced later)".into(),
            );
        }
        if !seen.insert((q.to.as_str(), q.category.as_deref())) {
            let of = q
                .category
                .as_deref()
                .and_then(|c| s.categories.iter().find(|x| x.id == c))
                .map_or("本组".to_string(), |c| format!("「{}」", c.name));
            return cx.fail(
                sp(p!["qualification", j, "to"]),
                format!(
                    "{of}取得「{}」资格已在前面写过 (qualification for `{}` of the same ranking given twice)",
                    q.to, q.to
                ),
            );
        }
    }
    Ok(())
}

/// Teams: the counted players within the team size, divisions valid, distinct and each unit in
/// one, the team prizes.
fn teams(cx: &Ctx, s: &Section, sp: &impl Fn(Vec<Seg>) -> Vec<Seg>, places: Option<u32>) -> R {
    if let Some(tm) = &s.teams {
        if tm.counted == 0 {
            return cx.fail(
                sp(p!["teams", "counted"]),
                "计算人数不能为 0 (counted must be at least 1)".into(),
            );
        }
        if tm.counted > tm.min_players {
            return cx.fail(
                sp(p!["teams", "counted"]),
                format!(
                    "计算成绩人数 {} 大于每队最少人数 {} (teams counted k is larger than min_players)",
                    tm.counted, tm.min_players
                ),
            );
        }
        if let Some(m) = tm.max_players {
            if m < tm.min_players {
                return cx.fail(
                    sp(p!["teams", "max_players"]),
                    "每队最多人数小于最少人数 (max_players is below min_players)".into(),
                );
            }
        }
        let mut divs = BTreeSet::new();
        for (j, dv) in tm.divisions.iter().enumerate() {
            if !is_ascii_id(&dv.id) || !divs.insert(dv.id.as_str()) {
                return cx.fail(
                    sp(p!["teams", "divisions", j, "id"]),
                    format!(
                        "分组编号 `{}` 无效或重复 (division id invalid or duplicate)",
                        dv.id
                    ),
                );
            }
        }
        let div_ids: Vec<&str> = tm.divisions.iter().map(|d| d.id.as_str()).collect();
        let mut placed: BTreeMap<&str, &str> = BTreeMap::new();
        for (j, dv) in tm.divisions.iter().enumerate() {
            for (k, u) in dv.units.iter().enumerate() {
                if let Some(other) = placed.insert(u.as_str(), dv.name.as_str()) {
                    return cx.fail(
                        sp(p!["teams", "divisions", j, "units", k]),
                        format!(
                            "单位 {u} 已划入{other}，不能同时划入{} (unit placed in two divisions)",
                            dv.name
                        ),
                    );
                }
            }
        }
        for (j, dv) in tm.divisions.iter().enumerate() {
            for (k, pp) in dv.auto_from_previous.iter().enumerate() {
                if !div_ids.contains(&pp.division.as_str()) {
                    return cx.fail(
                        sp(p![
                            "teams",
                            "divisions",
                            j,
                            "auto_from_previous",
                            k,
                            "division"
                        ]),
                        unknown_ref("分组", "division", &pp.division, div_ids.iter().copied()),
                    );
                }
            }
        }
        prizes(
            cx,
            &tm.prizes,
            &sp(p!["teams", "prizes"]),
            &[],
            &div_ids,
            places,
        )?;
    }
    Ok(())
}
