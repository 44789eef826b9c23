//! Human-readable summary of a regulation (Chinese or English), for the CLI and web pages.

use crate::model::*;
use arbiter_types::{
    ByeChoice, EqualHistoryColour, Numbering, PairingSettings, Round1Colour, Round1Pairing,
    SameTeam, ScoringTable, Sex,
};
use std::fmt::Write;

/// Output language of summaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// `"zh"` or `"en"`.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
    fn t<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

fn sex(l: Lang, s: Sex) -> &'static str {
    match (l, s) {
        (Lang::Zh, Sex::Male) => "男",
        (Lang::Zh, Sex::Female) => "女",
        (Lang::En, Sex::Male) => "men",
        (Lang::En, Sex::Female) => "women",
    }
}

fn scoring(l: Lang, s: &Scoring) -> String {
    let t: &ScoringTable = &s.table;
    let preset = if s.defaulted {
        l.t(
            " （未规定，按2011年规则计分）",
            " (not stated: the 2011 rules' scoring)",
        )
        .to_string()
    } else {
        s.preset
            .map(|p| format!(" ({})", p.name()))
            .unwrap_or_default()
    };
    match l {
        Lang::Zh => format!(
            "胜{} 红和{} 黑和{} 负{} 轮空{} 弃权胜{} 弃权负{} 双方弃权{}{preset}",
            t.win, t.draw_red, t.draw_black, t.loss, t.bye, t.forfeit_win, t.forfeit_loss, t.double_forfeit
        ),
        Lang::En => format!(
            "win {} red draw {} black draw {} loss {} bye {} forfeit win {} forfeit loss {} double forfeit {}{preset}",
            t.win, t.draw_red, t.draw_black, t.loss, t.bye, t.forfeit_win, t.forfeit_loss, t.double_forfeit
        ),
    }
}

fn tiebreaks(l: Lang, t: &Tiebreaks) -> String {
    let mut items: Vec<&str> = vec![l.t("积分", "points")];
    items.extend(t.criteria.iter().map(|c| l.t(c.zh(), c.name())));
    if let Some(f) = t.fallback {
        items.push(l.t(f.zh(), f.name()));
    }
    let mut s = items.join(" → ");
    if let Some(p) = &t.preset {
        if t.defaulted {
            let _ = write!(
                s,
                "{}",
                match l {
                    Lang::Zh => format!(" （未规定，按2011年规则 {p}）"),
                    Lang::En => format!(" (not stated: the 2011 rules, {p})"),
                }
            );
        } else {
            let _ = write!(s, " ({p})");
        }
    }
    s
}

/// How a plain knockout decides its places (in place of the tie-breaks, which rank by points
/// and so do not apply); `named`: the file lists tie-breaks anyway.
fn knockout_places(l: Lang, v: KnockoutVariant, named: bool) -> String {
    let text = match (l, v) {
        (Lang::Zh, KnockoutVariant::Single) => {
            "由对阵决出：冠军、亚军，其余同一轮的负者并列名次（并列第三、并列第五……）"
        }
        (Lang::Zh, KnockoutVariant::ThirdPlace) => {
            "由对阵决出：第一至第四名，其余同一轮的负者并列名次（并列第五、并列第九……）"
        }
        (Lang::Zh, KnockoutVariant::Placement) => {
            "由对阵决出：定位表，负者继续比赛，每个名次都由对局决出（每轮全部棋手出场）"
        }
        (Lang::En, KnockoutVariant::Single) => {
            "decided by the bracket: 1st and 2nd, the losers of each other round share a place (3rd, 5th, …)"
        }
        (Lang::En, KnockoutVariant::ThirdPlace) => {
            "decided by the bracket: 1st to 4th, the losers of each other round share a place (5th, 9th, …)"
        }
        (Lang::En, KnockoutVariant::Placement) => {
            "decided by the bracket: a placement bracket, losers play on and every place is decided by games (everyone plays every round)"
        }
    };
    if named {
        format!(
            "{text}{}",
            l.t(
                "；规程所列名次区分方法不适用于淘汰赛",
                "; the tie-breaks the file lists do not apply to a knockout"
            )
        )
    } else {
        text.to_string()
    }
}

fn time_control(l: Lang, tc: &TimeControl) -> String {
    let kind = match (l, &tc.name) {
        (_, Some(n)) => n.as_str(),
        (Lang::Zh, None) => tc.kind.zh(),
        (Lang::En, None) => tc.kind.name(),
    };
    match (l, tc.black_minutes) {
        (Lang::Zh, Some(b)) => {
            format!(
                "{kind} 红{}分 黑{b}分 +{}秒",
                tc.minutes, tc.increment_seconds
            )
        }
        (Lang::Zh, None) => format!("{kind} 每方{}分 +{}秒", tc.minutes, tc.increment_seconds),
        (Lang::En, Some(b)) => {
            format!(
                "{kind} red {}′ black {b}′ +{}″",
                tc.minutes, tc.increment_seconds
            )
        }
        (Lang::En, None) => format!("{kind} {}′+{}″", tc.minutes, tc.increment_seconds),
    }
}

/// A knockout's match in words: the preset with its colour rule and armageddon draw, or the
/// blocks with their ending.
fn match_text(l: Lang, k: &crate::model::Knockout, higher_seed_zh: &str) -> String {
    if let Some(t) = k.blocks_text(l == Lang::Zh) {
        return t;
    }
    let choice = match (l, k.colour_choice()) {
        (Lang::Zh, ColourChoice::HigherSeed) => higher_seed_zh,
        (Lang::Zh, ColourChoice::Lots) => "先后手抽签",
        (Lang::En, ColourChoice::HigherSeed) => "higher seed chooses colour",
        (Lang::En, ColourChoice::Lots) => "colours by lot",
    };
    let arm = if k.armageddon_draw_black_wins() {
        l.t("，附加赛和棋黑胜", ", armageddon draw = black wins")
    } else {
        ""
    };
    let sep = l.t("，", ", ");
    format!("{}{sep}{choice}{arm}", k.preset().name())
}

/// The reading of a `groups` format: the split, each group's round robin, the qualifiers
/// and the final, and how the others are placed.
fn groups_text(l: Lang, f: &Format) -> String {
    use crate::model::{FinalStage, GroupFormat};
    let g = f.groups.unwrap_or(0);
    let a = f.advance.unwrap_or(0);
    let fin = f.final_stage.unwrap_or(FinalStage::CrossKnockout);
    let numbers = f.group_names == crate::model::GroupNames::Numbers;
    let last = char::from(b'A' + (g.clamp(1, 26) - 1) as u8);
    let (names_zh, names_en) = if numbers {
        (format!("第1–{g}组"), format!("1–{g}"))
    } else {
        (format!("A–{last}组"), format!("A–{last}"))
    };
    let m = f
        .knockout
        .as_ref()
        .map(|k| match_text(l, k, "小组名次在前者选先后手"));
    let pairs = match (fin, a) {
        (FinalStage::CrossKnockout, 1) => l.t("A1–B1、C1–D1…", "A1–B1, C1–D1…").to_string(),
        (FinalStage::CrossKnockout, _) => l.t("A1–B2、B1–A2…", "A1–B2, B1–A2…").to_string(),
        (FinalStage::SamePlace, _) => {
            let v: Vec<String> = (1..=a.min(3)).map(|i| format!("A{i}–B{i}")).collect();
            let more = if a > 3 { "…" } else { "" };
            format!("{}{more}", v.join(l.t("、", ", ")))
        }
        (FinalStage::Knockout, 1) => l
            .t(
                "第1组第1名为1号种子，第2组第1名为2号种子…",
                "group 1's winner seed 1, group 2's seed 2, …",
            )
            .to_string(),
        (FinalStage::Knockout, _) => l
            .t(
                "各组第1名按组号为1号起的种子，其后各组第2名…",
                "the groups' winners seeds 1… by group number, then the seconds …",
            )
            .to_string(),
        (FinalStage::RoundRobin, 1) => l.t("A1、B1…", "A1, B1…").to_string(),
        (FinalStage::RoundRobin, _) => l
            .t("代号依次为A1、B1…A2、B2…", "codes A1, B1 …, A2, B2 …")
            .to_string(),
    };
    match l {
        Lang::Zh => {
            let fin_text = match fin {
                FinalStage::CrossKnockout => {
                    format!("交叉淘汰（{pairs}，{}）", m.unwrap_or_default())
                }
                FinalStage::SamePlace if g >= 3 => format!(
                    "进行同名次决赛（各组第1名单循环决出第1–{g}名，各组第2名决出第{}–{}名…；贝格尔表，小组赛全部结束后逐轮编排；预赛成绩不带入决赛）",
                    g + 1,
                    2 * g
                ),
                FinalStage::SamePlace => format!(
                    "同名次决赛（{pairs}，分别决出第1–2名、第3–4名…，{}）",
                    m.unwrap_or_default()
                ),
                FinalStage::Knockout => {
                    format!("单败淘汰（{pairs}，{}）", m.unwrap_or_default())
                }
                FinalStage::RoundRobin if f.carry_over => format!(
                    "进行决赛单循环，预赛中已相遇者成绩带入（{pairs}；贝格尔表，小组赛全部结束后逐轮编排；同组出线者不再比赛，其小组赛的对局计入决赛，该轮两人不赛；决赛者按决赛的积分与名次区分排名）"
                ),
                FinalStage::RoundRobin => format!(
                    "进行决赛单循环（{pairs}；贝格尔表，小组赛全部结束后逐轮编排；预赛成绩不带入决赛，决赛者按决赛的积分与名次区分排名）"
                ),
            };
            let each = match (f.group_format, f.rounds) {
                (GroupFormat::Swiss, Some(r)) => format!("组内积分编排制 {r} 轮"),
                (other, _) => other.zh().to_string(),
            };
            format!(
                "分{g}组（{names_zh}，{}）{each}，各组前{a}名{fin_text}；未出线者按小组名次排在决赛棋手之后，各组同名次者并列",
                f.split.zh(),
            )
        }
        Lang::En => {
            let fin_text = match fin {
                FinalStage::CrossKnockout => {
                    format!("a cross knockout ({pairs}; {})", m.unwrap_or_default())
                }
                FinalStage::SamePlace if g >= 3 => format!(
                    "same-place finals (the groups' winners a round robin for places 1–{g}, the seconds for {}–{} …; Berger tables, paired round by round once every group is done; group results are not carried into the final)",
                    g + 1,
                    2 * g
                ),
                FinalStage::SamePlace => format!(
                    "same-place finals ({pairs} for places 1–2, 3–4, …; {})",
                    m.unwrap_or_default()
                ),
                FinalStage::Knockout => {
                    format!("a knockout ({pairs}; {})", m.unwrap_or_default())
                }
                FinalStage::RoundRobin if f.carry_over => format!(
                    "a final round robin with group results carried over ({pairs}; Berger tables, paired round by round once every group is done; finalists of one group do not meet again, their group game counts in the final and they rest that round; the finalists are ranked by the final's points and tie-breaks)"
                ),
                FinalStage::RoundRobin => format!(
                    "a final round robin ({pairs}; Berger tables, paired round by round once every group is done; group results are not carried into the final, the finalists are ranked by the final's points and tie-breaks)"
                ),
            };
            let each = match (f.group_format, f.rounds) {
                (GroupFormat::Swiss, Some(r)) => format!("Swiss of {r} rounds"),
                (other, _) => other.en().to_string(),
            };
            format!(
                "{g} groups ({names_en}, {}), each a {each}; the top {a} of each play {fin_text}; the others follow the finalists by group place, equal group places shared",
                f.split.en(),
            )
        }
    }
}

/// The rounds of a `groups` section: the group stage's (a Swiss's given, a round robin's from
/// the largest group the cap allows) and the final's.
fn groups_rounds(l: Lang, s: &Section) -> String {
    use crate::model::{FinalStage, GroupFormat};
    let f = &s.format;
    let g = f.groups.unwrap_or(2).max(1);
    let cap = s.entries.cap.or(s.entries.event_cap);
    let stage = match (f.group_format.cycles(), f.rounds, cap) {
        (None, Some(r), _) => Some(r),
        (Some(c), _, Some(cap)) => {
            let n = cap.div_ceil(g);
            Some(c * if n % 2 == 0 { n.saturating_sub(1) } else { n })
        }
        _ => None,
    };
    let k = g * f.advance.unwrap_or(1);
    let fin = match f.final_stage {
        Some(FinalStage::SamePlace) if g >= 3 => g - 1 + g % 2,
        Some(FinalStage::SamePlace) => 1,
        Some(FinalStage::RoundRobin) => k.max(2) - 1 + (k.max(2) % 2),
        _ => k.max(2).next_power_of_two().ilog2(),
    };
    let rr = f.group_format != GroupFormat::Swiss;
    // 成绩带入: a round whose every pair met in the groups is not played.
    let (at_most_zh, at_most_en) = if f.carry_over {
        ("至多", "at most ")
    } else {
        ("", "")
    };
    match (l, stage) {
        (Lang::Zh, Some(r)) if rr => {
            format!("小组赛至多 {r} 轮（由各组人数决定），决赛{at_most_zh} {fin} 轮")
        }
        (Lang::Zh, Some(r)) => format!("小组赛 {r} 轮，决赛{at_most_zh} {fin} 轮"),
        (Lang::Zh, None) => format!("小组赛由各组人数决定，决赛{at_most_zh} {fin} 轮"),
        (Lang::En, Some(r)) if rr => {
            format!("group stage at most {r} (by the groups' sizes), final {at_most_en}{fin}")
        }
        (Lang::En, Some(r)) => format!("group stage {r}, final {at_most_en}{fin}"),
        (Lang::En, None) => format!("group stage by the groups' sizes, final {at_most_en}{fin}"),
    }
}

fn format_text(l: Lang, f: &Format) -> String {
    let r = f.rounds.unwrap_or(0);
    match (l, f.kind) {
        (Lang::Zh, FormatKind::Swiss) => format!("积分编排制 {r} 轮"),
        (Lang::En, FormatKind::Swiss) => format!("Swiss, {r} rounds"),
        (Lang::Zh, FormatKind::RoundRobin) => "单循环".into(),
        (Lang::En, FormatKind::RoundRobin) => "single round robin".into(),
        (Lang::Zh, FormatKind::DoubleRoundRobin) => "双循环".into(),
        (Lang::En, FormatKind::DoubleRoundRobin) => "double round robin".into(),
        (Lang::Zh, FormatKind::Auto) => format!(
            "按人数: 少于{}人双循环，少于{}人单循环，否则积分编排制 {r} 轮",
            f.double_rr_below, f.single_rr_below
        ),
        (Lang::En, FormatKind::Auto) => format!(
            "by entries: under {} double round robin, under {} single round robin, else Swiss {r} rounds",
            f.double_rr_below, f.single_rr_below
        ),
        (_, FormatKind::Knockout) => {
            let k = f.knockout.clone().unwrap_or_else(crate::model::Knockout::plain);
            let m = match_text(l, &k, "种子在前者选先后手");
            match l {
                Lang::Zh => format!(
                    "淘汰赛：全部报名者参加（至多{}人，人数不是2的幂时前几号种子轮空），{}（{m}）",
                    crate::MAX_BRACKET,
                    k.variant.zh(),
                ),
                Lang::En => format!(
                    "knockout of every entry (at most {}; byes to the top seeds when not a power of two), {} ({m})",
                    crate::MAX_BRACKET,
                    k.variant.en(),
                ),
            }
        }
        (_, FormatKind::Groups) => groups_text(l, f),
        (_, FormatKind::SwissThenKnockout) => {
            let Some(k) = &f.knockout else { return String::new() };
            let m = match_text(l, k, "名次在前者选先后手");
            match l {
                Lang::Zh => {
                    let rest = if k.continue_rounds > 0 {
                        format!("其余棋手继续积分编排 {} 轮", k.continue_rounds)
                    } else {
                        "其余棋手停赛".into()
                    };
                    format!(
                        "积分编排制 {r} 轮后前{}名{}（{m}），{rest}",
                        k.size,
                        k.variant.zh(),
                    )
                }
                Lang::En => {
                    let rest = if k.continue_rounds > 0 {
                        format!("the others continue the Swiss for {} rounds", k.continue_rounds)
                    } else {
                        "the others stop".into()
                    };
                    format!(
                        "Swiss {r} rounds, then top {} {} ({m}); {rest}",
                        k.size,
                        k.variant.en(),
                    )
                }
            }
        }
    }
}

/// The `编排:` line: numbering, round-1 pairing and colours, same-team avoidance, colour
/// rules, equal-history colours and the bye (A2–A4). Round robins use only the numbering.
fn pairing(l: Lang, p: &PairingSettings, swiss: bool) -> String {
    let mut v: Vec<String> = Vec::new();
    v.push(
        match p.numbering {
            Numbering::Lots => l.t("序号抽签", "numbers by lot"),
            Numbering::Rating => l.t(
                "序号按等级分 (无等级分者抽签)",
                "numbers by rating (unrated by lot)",
            ),
            Numbering::Given => l.t("序号按报名表顺序", "numbers in entry-list order"),
            Numbering::Grade => l.t(
                "序号按段位/称号由高到低 (同段位按等级分, 无段位者抽签)",
                "numbers by grade, highest first (equal grades by rating, ungraded by lot)",
            ),
        }
        .to_string(),
    );
    if !swiss {
        return v.join(l.t("；", "; "));
    }
    v.push(
        match p.round1 {
            Round1Pairing::Slide => l.t(
                "首轮拦腰配对 (1–N/2+1, 2–N/2+2 …)",
                "round 1 top half v bottom half (1–N/2+1, 2–N/2+2 …)",
            ),
            Round1Pairing::Fold => l.t(
                "首轮首尾配对 (1–N, 2–N−1 …)",
                "round 1 folded (1–N, 2–N−1 …)",
            ),
            Round1Pairing::Adjacent => {
                l.t("首轮临近配对 (1–2, 3–4 …)", "round 1 adjacent (1–2, 3–4 …)")
            }
            Round1Pairing::Random => l.t("首轮抽签配对", "round 1 paired by lot"),
        }
        .to_string(),
    );
    v.push(
        match p.round1_colour {
            Round1Colour::OddBoardSmallRed => l.t(
                "首轮单数台小号先行、双数台大号先行",
                "round 1: odd boards lower number red, even boards higher number red",
            ),
            Round1Colour::OddBoardLargeRed => l.t(
                "首轮单数台大号先行、双数台小号先行",
                "round 1: odd boards higher number red, even boards lower number red",
            ),
            Round1Colour::SmallRed => l.t("首轮小号先行", "round 1: lower number red"),
            Round1Colour::Lots => l.t("首轮先后手抽签", "round 1 colours by lot"),
        }
        .to_string(),
    );
    v.push(
        match p.same_team {
            SameTeam::Off => l.t("同队不回避", "team-mates not separated"),
            SameTeam::Round1 => l.t(
                "首轮同队回避，其余轮次不回避",
                "team-mates avoid each other in round 1 only",
            ),
            SameTeam::Hard => l.t("同队始终回避", "team-mates never meet"),
            SameTeam::Soft => l.t("同队尽量回避", "team-mates avoid each other where possible"),
        }
        .to_string(),
    );
    let mut colour = match l {
        Lang::Zh => format!("先后手差不超过{}", p.max_colour_diff),
        Lang::En => format!("colour difference at most {}", p.max_colour_diff),
    };
    if p.no_three_in_a_row {
        colour.push_str(l.t(
            "，不连续三局同色",
            ", never the same colour three times in a row",
        ));
    }
    if p.relax_colours_in_last_round {
        colour.push_str(l.t(" (末轮可放宽)", " (may be relaxed in the last round)"));
    }
    v.push(colour);
    v.push(
        match p.equal_history {
            EqualHistoryColour::OddRoundSmallRed => l.t(
                "先后手相同时奇数轮小号先行、偶数轮大号先行",
                "equal colour histories: odd rounds lower number red, even rounds higher",
            ),
            EqualHistoryColour::NumberSumOddSmallRed => l.t(
                "先后手相同时序号之和为奇数小号先行、偶数大号先行",
                "equal colour histories: odd number sum lower number red, even higher",
            ),
        }
        .to_string(),
    );
    v.push(
        match p.bye {
            ByeChoice::LowestWithoutBye => l.t(
                "轮空给未轮空过的排名最后者",
                "bye to the lowest-ranked player without a bye",
            ),
            ByeChoice::LowestFewestByes => l.t(
                "轮空给轮空次数最少的排名最后者",
                "bye to the lowest-ranked player with the fewest byes",
            ),
        }
        .to_string(),
    );
    v.join(l.t("；", "; "))
}

/// What the project reads into a section's knockout where the regulation's words leave it
/// open, one sentence each (docs/rules.md, 「淘汰赛的解读」).
fn knockout_readings(l: Lang, s: &Section) -> Vec<String> {
    let Some(k) = &s.format.knockout else {
        return Vec::new();
    };
    let mut v = Vec::new();
    if s.discipline.fouls_for_loss.is_some() || s.discipline.phone_fouls_for_loss.is_some() {
        v.push(
            l.t(
                "犯规判负的规定同样适用于淘汰赛对局，判负的一局按输棋计入该场对阵",
                "the foul rule applies to knockout games too; the game lost by fouls counts as lost in its match",
            )
            .to_string(),
        );
    }
    if let Some(r) = s.records.as_ref().filter(|r| r.boards > 0) {
        v.push(match l {
            Lang::Zh => format!(
                "淘汰赛对局按其在本轮淘汰赛中的台次（第1台起）计入第1–{}台的录谱规定",
                r.boards
            ),
            Lang::En => format!(
                "a knockout game's record duty counts its board within the knockout's round (from board 1) against boards 1–{}",
                r.boards
            ),
        });
    }
    if k.variant != KnockoutVariant::Placement && k.shared_places == SharedPlaces::Shared {
        v.push(
            l.t(
                "淘汰赛未决出的名次并列（如并列第3名）；并列者名次奖励或参赛资格不同时不按名单先后区分，须规程写明 shared_places",
                "places the knockout leaves open are shared (=3rd); where their prizes or qualification differ they are not split by the list's order: the regulation must say how (shared_places)",
            )
            .to_string(),
        );
    }
    if k.ending
        .as_ref()
        .is_some_and(|e| e.rule == crate::match_blocks::EndingRule::FirstGameBlack)
        && k.blocks.len() == 1
        && k.blocks.first().is_some_and(|b| b.games == 1)
    {
        v.push(
            l.t(
                "「若第一局和棋，则后手胜出」：每场只下一局，和棋由执黑者胜出，本局仍记和棋",
                "「若第一局和棋，则后手胜出」: one game a match; a draw sends black through, the game itself stays a draw",
            )
            .to_string(),
        );
    }
    v
}

/// The `记谱:` line (T6, J5, A13).
fn records(l: Lang, r: &RecordRules) -> String {
    let mut v = Vec::new();
    v.push(match (l, r.boards, r.from_round) {
        (Lang::Zh, 0, _) => "不要求记谱".to_string(),
        (Lang::En, 0, _) => "no board must record".to_string(),
        (Lang::Zh, b, 1) => format!("第1–{b}台须记谱"),
        (Lang::En, b, 1) => format!("boards 1–{b} must record"),
        (Lang::Zh, b, f) => format!("第{f}轮起第1–{b}台须记谱"),
        (Lang::En, b, f) => format!("boards 1–{b} must record from round {f}"),
    });
    if r.boards > 0 {
        let (zh, en) = r.recorder_words();
        v.push(match l {
            Lang::Zh => zh,
            Lang::En => en,
        });
    }
    if !r.exempt_kinds.is_empty() {
        let kinds: Vec<&str> = r
            .exempt_kinds
            .kinds()
            .map(|k| match l {
                Lang::Zh => k.zh(),
                Lang::En => k.name(),
            })
            .collect();
        v.push(match l {
            Lang::Zh => format!("{}不用记录", kinds.join("、")),
            Lang::En => format!("no record of {} games", kinds.join(", ")),
        });
    }
    if let Some(m) = r.min_moves_before_draw {
        v.push(match l {
            Lang::Zh => format!("{m}回合内不得提和"),
            Lang::En => format!("no draw before move {m}"),
        });
    }
    if let Some(m) = r.natural_move_limit {
        let c = r.natural_move_checks;
        v.push(match (l, c) {
            (Lang::Zh, 0) => format!("自然限着{m}回合"),
            (Lang::Zh, c) => format!("自然限着{m}回合（提出方将军最多计{c}着）"),
            (Lang::En, 0) => format!("natural move limit {m} moves"),
            (Lang::En, c) => format!(
                "natural move limit {m} moves (at most {c} of the claimant's checks counted)"
            ),
        });
    }
    if r.violation_is_foul {
        v.push(
            l.t(
                "拒不记谱或和棋不足回合记犯规",
                "refusing to record or a short draw is a foul",
            )
            .to_string(),
        );
        if r.min_moves_before_draw.is_some() {
            v.push(
                match r.short_draw_foul {
                    ShortDrawFoul::Both => {
                        l.t("和棋不足回合: 双方各记犯规", "short draw: both players")
                    }
                    ShortDrawFoul::Recorder => l.t(
                        "和棋不足回合: 记录谱方犯规",
                        "short draw: the recorder's foul",
                    ),
                }
                .to_string(),
            );
        }
    }
    v.join(l.t("；", "; "))
}

fn eligibility(l: Lang, e: &Eligibility) -> Vec<String> {
    let mut v = Vec::new();
    match (e.born_from, e.born_to, l) {
        (Some(a), Some(b), Lang::Zh) => v.push(format!("出生于 {a} 至 {b}")),
        (Some(a), Some(b), Lang::En) => v.push(format!("born {a} to {b}")),
        (Some(a), None, Lang::Zh) => v.push(format!("{a} 或以后出生")),
        (Some(a), None, Lang::En) => v.push(format!("born on or after {a}")),
        (None, Some(b), Lang::Zh) => v.push(format!("{b} 或以前出生")),
        (None, Some(b), Lang::En) => v.push(format!("born on or before {b}")),
        _ => {}
    }
    let on = e.age_on.map(|d| d.to_string()).unwrap_or_default();
    if let Some(a) = e.min_age {
        v.push(match l {
            Lang::Zh => format!("{on} 年满 {a} 周岁"),
            Lang::En => format!("aged at least {a} on {on}"),
        });
    }
    if let Some(a) = e.max_age {
        v.push(match l {
            Lang::Zh => format!("{on} 不超过 {a} 周岁"),
            Lang::En => format!("aged at most {a} on {on}"),
        });
    }
    if let Some(s) = e.sex {
        v.push(match l {
            Lang::Zh => format!("限{}子", sex(l, s)),
            Lang::En => format!("{} only", sex(l, s)),
        });
    }
    for ev in &e.evidence {
        v.push(format!(
            "{}: {}",
            l.t("须提供", "requires"),
            l.t(ev.zh(), ev.name())
        ));
    }
    for any in &e.evidence_any {
        let names: Vec<&str> = any.iter().map(|ev| l.t(ev.zh(), ev.name())).collect();
        v.push(format!(
            "{}: {}",
            l.t("须提供其一", "one of"),
            names.join(l.t("、", ", "))
        ));
    }
    if !e.any_of.is_empty() {
        let ways: Vec<String> = e
            .any_of
            .iter()
            .map(|c| match l {
                Lang::Zh => c.zh(),
                Lang::En => c.en(),
            })
            .collect();
        v.push(format!(
            "{}: {}",
            l.t("须满足其一", "one of these conditions"),
            ways.join(l.t("、", " / "))
        ));
    }
    for f in &e.require_flags {
        v.push(format!("{} `{f}`", l.t("须具备", "must have")));
    }
    for f in &e.forbid_flags {
        v.push(format!("{} `{f}`", l.t("不得具有", "must not have")));
    }
    v.extend(e.grade_rule(l == Lang::Zh));
    v.extend(e.notes.iter().cloned());
    v
}

fn prize(l: Lang, cur: crate::Currency, p: &Prize) -> String {
    let (a, b) = p.ranks();
    let mut s = match (l, a == b) {
        (Lang::Zh, true) => format!("第{a}名"),
        (Lang::Zh, false) => format!("第{a}–{b}名"),
        (Lang::En, true) => format!("{a}."),
        (Lang::En, false) => format!("{a}–{b}."),
    };
    if let Some(y) = p.amount_yuan {
        let each = if a == b { "" } else { l.t("各", "each ") };
        let _ = write!(s, " {each}{}", cur.amount(y, l == Lang::Zh));
    }
    if let Some(t) = &p.title {
        let _ = write!(s, " “{t}”");
    }
    if let Some(i) = &p.item {
        let _ = write!(s, " {i}");
    }
    if p.trophy {
        s.push_str(l.t(" 奖杯", " trophy"));
    }
    if p.medal {
        s.push_str(l.t(" 奖牌", " medal"));
    }
    s
}

fn prize_lines(
    l: Lang,
    cur: crate::Currency,
    out: &mut String,
    label: &str,
    prizes: &[Prize],
    group: impl Fn(&Prize) -> Option<String>,
) {
    let mut groups: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for p in prizes {
        let g = group(p);
        match groups.iter_mut().find(|(k, _)| *k == g) {
            Some((_, v)) => v.push(prize(l, cur, p)),
            None => groups.push((g, vec![prize(l, cur, p)])),
        }
    }
    for (g, v) in groups {
        let g = g.map(|g| format!(" [{g}]")).unwrap_or_default();
        let _ = writeln!(out, "  {label}{g}: {}", v.join(l.t("；", "; ")));
    }
}

impl Regulation {
    /// A readable summary of the event and every section: format, rounds, scoring,
    /// tie-breaks, eligibility, teams, prizes.
    pub fn summary(&self, lang: Lang) -> String {
        let l = lang;
        let mut out = String::new();
        let e = &self.event;
        let name = match l {
            Lang::Zh => &e.name,
            Lang::En => e.name_en.as_ref().unwrap_or(&e.name),
        };
        let _ = writeln!(out, "{name}");
        let _ = write!(out, "{} {} – {}", l.t("日期", "Dates"), e.start, e.end);
        if let Some(v) = &e.venue {
            let _ = write!(out, "  {} {v}", l.t("地点", "Venue"));
        }
        out.push('\n');
        if e.prizes_before_tax {
            let _ = writeln!(out, "{}", l.t("奖金为税前", "Prize amounts are before tax"));
        }
        if !e.prize_currency.is_cny() {
            let c = e.prize_currency;
            let _ = match l {
                Lang::Zh => writeln!(out, "奖金币种: {} ({})", c.name_zh(), c.symbol()),
                Lang::En => writeln!(out, "Prize money in {}", c.symbol()),
            };
        }
        match e.result_signing {
            Some(crate::ResultSigning::LoserSigns) => {
                let _ = writeln!(
                    out,
                    "{}",
                    l.t(
                        "成绩签名: 负方签名，和棋双方签名 (赢棋签了名，按输棋处理)",
                        "Result slips: the loser signs, both sign a draw (a winner who signs loses)"
                    )
                );
            }
            Some(crate::ResultSigning::BothSign) => {
                let _ = writeln!(
                    out,
                    "{}",
                    l.t("成绩签名: 双方签名确认", "Result slips: both players sign")
                );
            }
            None => {}
        }
        if e.signed_results_final {
            let _ = writeln!(
                out,
                "{}",
                l.t(
                    "经签名确认的比赛结果不予更改 (裁判长更正须明示推翻签名，记入日志并印在记录单上)",
                    "A signed result is final (a correction must say it overrides the signatures; logged and printed on the slip)"
                )
            );
        }
        if let Some(y) = e.protest_deposit_yuan.filter(|y| *y > 0) {
            let _ = writeln!(
                out,
                "{}",
                match l {
                    Lang::Zh => format!("申诉费 {y}元 (胜诉退还，不胜诉不退还)"),
                    Lang::En =>
                        format!("Protest deposit {y} yuan (returned if upheld, kept otherwise)"),
                }
            );
        }
        if !self.grades.is_empty() {
            let _ = writeln!(
                out,
                "{}: {}",
                l.t("段位/称号 (由低到高)", "Grades and titles (lowest first)"),
                self.grades.names()
            );
        }
        let r = &self.registration;
        let mut reg = Vec::new();
        if !r.fields.is_empty() {
            let f: Vec<&str> = r.fields.iter().map(|f| f.zh()).collect();
            reg.push(format!("{} {}", l.t("须填", "required"), f.join("、")));
        }
        if let Some(t) = r.check_in_time {
            // The check-in day with its time: 报到 2026-09-30 08:00起.
            if let Some(d) = r.check_in {
                reg.push(match l {
                    Lang::Zh => format!("报到 {d} {}起", t.format("%H:%M")),
                    Lang::En => format!("check-in {d} from {}", t.format("%H:%M")),
                });
            }
        }
        if let Some(d) = r.team_deadline {
            reg.push(match l {
                Lang::Zh => format!("团体报名截止 {d} (个人报名不受此限)"),
                Lang::En => format!("team entries close {d} (individual entries do not)"),
            });
        }
        if let Some(p) = &r.check_in_pledge {
            reg.push(format!("{} {p}", l.t("报到时签署", "signed at check-in:")));
        }
        if let Some(p) = &r.play_up {
            reg.push(match l {
                Lang::Zh => format!("越级 (报较本人年龄组年长的组别): {}", p.zh(self)),
                Lang::En => format!("playing up (an age group older than one's own): {}", p.en()),
            });
        }
        if !reg.is_empty() {
            let _ = writeln!(out, "{}: {}", l.t("报名", "Entries"), reg.join(", "));
        }
        for c in &r.charges {
            let _ = writeln!(out, "{}", charge(l, self, c));
        }
        for s in &self.sections {
            section(l, self.event.prize_currency, &mut out, s);
        }
        if let Some(a) = &self.associations {
            let _ = writeln!(
                out,
                "\n[{}] {}: {} {}",
                l.t("团体", "associations"),
                a.name,
                l.t(
                    "各组别最好名次相加，少者列前；组别",
                    "sum of the best rank in each of"
                ),
                a.sections.join(", ")
            );
            for (sid, cat) in &a.rank_in_category {
                let (sname, cname) = self
                    .section(sid)
                    .map(|s| {
                        (
                            s.name.clone(),
                            s.category(cat).map_or(cat.clone(), |c| c.name.clone()),
                        )
                    })
                    .unwrap_or_else(|| (sid.clone(), cat.clone()));
                let _ = writeln!(
                    out,
                    "  {}",
                    match l {
                        Lang::Zh => format!("{sname}的最好名次按{cname}名次计"),
                        Lang::En => format!("{sid}: the best place among {cat}"),
                    }
                );
            }
            if a.incomplete_unranked {
                let _ = writeln!(
                    out,
                    "  {}",
                    l.t(
                        "组别不全不计算团体成绩",
                        "associations missing a section are not ranked"
                    )
                );
            }
            prize_lines(
                l,
                self.event.prize_currency,
                &mut out,
                l.t("奖励", "Prizes"),
                &a.prizes,
                |_| None,
            );
        }
        for a in &self.special_awards {
            let amount = a
                .amount_yuan
                .map(|y| format!(" {}", self.event.prize_currency.amount(y, l == Lang::Zh)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{}: {} ×{}{amount}",
                l.t("特别奖", "Special award"),
                a.name,
                a.count
            );
        }
        let notices = self.placement_units_missing();
        if !notices.is_empty() {
            let _ = writeln!(out, "\n{}", l.t("注意", "Notice"));
            for n in notices {
                let _ = writeln!(out, "  - {n}");
            }
        }
        let readings = self.readings();
        if !readings.is_empty() {
            let _ = writeln!(
                out,
                "\n{}",
                l.t(
                    "本系统的解读 (规程原文未写明，以下为本系统的读法)",
                    "Readings of this project (not the regulation's words)"
                )
            );
            for r in readings {
                let _ = writeln!(out, "  - {r}");
            }
        }
        out
    }

    /// The readings of this regulation that are the project's, not its words: the file's own
    /// (`[event] readings`), then those that follow from its settings (docs/rules.md A19).
    pub fn readings(&self) -> Vec<String> {
        let mut v = self.event.readings.clone();
        if self.registration.play_up.is_none() && self.has_nested_age_groups() {
            v.push(
                "规程未写能否越级: 本人年龄组为符合年龄规则的最小年龄组，报较其年长的组别只按该组的年龄规则审核，不另设条件 (the regulation is silent on playing up: the age rules alone decide)".into(),
            );
        }
        let rr_bye = self.sections.iter().any(|s| {
            s.team_match.is_none()
                && s.scoring.table.bye != arbiter_types::Score::ZERO
                && match s.format.kind {
                    FormatKind::RoundRobin | FormatKind::DoubleRoundRobin | FormatKind::Auto => {
                        true
                    }
                    FormatKind::Groups => s.format.group_format != GroupFormat::Swiss,
                    _ => false,
                }
        });
        if rr_bye {
            v.push(
                "循环赛的轮空 (遇空号者) 不是对局: 不计分、不计胜局；积分编排制的轮空按胜局计分 (a round robin's bye scores nothing; a Swiss bye scores as a win)".into(),
            );
        }
        let short_draw_review = self.sections.iter().any(|s| {
            s.records.as_ref().is_some_and(|r| {
                r.min_moves_before_draw.is_some()
                    && !(r.violation_is_foul && r.short_draw_foul == ShortDrawFoul::Both)
            })
        });
        if short_draw_review {
            v.push(
                "不足规定回合的和棋提示裁判处理 (判无效继续比赛或确认和棋)；只有规程明定为犯规时 (录谱者、须录谱的台次) 才记犯规 (a draw before the minimum is flagged for the arbiter; a foul only where the regulation makes it one)".into(),
            );
        }
        if self.event.signed_results_final {
            v.push(
                "「经签名确认…不予更改」: 裁判长更正已签名的成绩须明示推翻签名 (--override-signed)，更正记入日志并印在该台记录单上 (a signed result changes only by a correction that says it overrides the signatures)".into(),
            );
        }
        v
    }
}

fn section(l: Lang, cur: crate::Currency, out: &mut String, s: &Section) {
    let name = match l {
        Lang::Zh => s.name.clone(),
        Lang::En => s.name_en.clone().unwrap_or_else(|| s.id.clone()),
    };
    let _ = writeln!(out, "\n[{}] {name}", s.id);
    if let Some(d) = s.date {
        let _ = writeln!(out, "  {}: {d}", l.t("日期", "Date"));
    }
    let _ = writeln!(
        out,
        "  {}: {}",
        l.t("赛制", "Format"),
        format_text(l, &s.format)
    );
    let max = crate::max_rounds(&s.format);
    let plain_knockout = s.format.kind == FormatKind::Knockout;
    if plain_knockout {
        // A bracket of the next power of two: the cap bounds the rounds, else the largest
        // bracket does.
        let rounds = match s.entries.cap.or(s.entries.event_cap) {
            Some(cap) => {
                let r = cap.clamp(2, crate::MAX_BRACKET).next_power_of_two().ilog2();
                match l {
                    Lang::Zh => format!("由人数决定（报名上限{cap}人，最多{r}轮）"),
                    Lang::En => {
                        format!("by the number of entries (cap {cap}: at most {r})")
                    }
                }
            }
            None => match l {
                Lang::Zh => format!("由人数决定（最多{}人、{max}轮）", crate::MAX_BRACKET),
                Lang::En => format!(
                    "by the number of entries (at most {} players, {max} rounds)",
                    crate::MAX_BRACKET
                ),
            },
        };
        let _ = writeln!(out, "  {}: {rounds}", l.t("轮数", "Rounds"));
        match s
            .format
            .knockout
            .as_ref()
            .and_then(|k| k.seeds.map(|n| (n, k)))
        {
            Some((n, k)) => {
                let grade = k.seed_grade.as_ref().map(|g| g.name.as_str());
                let text = match (l, grade) {
                    (Lang::Zh, Some(g)) => format!(
                        "设{n}个种子签，{g}及以上棋手得列种子签（{}），其余序号抽签；序号即种子",
                        pairing(l, &s.pairing, false)
                    ),
                    (Lang::Zh, None) => format!(
                        "设{n}个种子签（{}），其余序号抽签；序号即种子",
                        pairing(l, &s.pairing, false)
                    ),
                    (Lang::En, Some(g)) => format!(
                        "{n} seeded places for players of {g} or above ({}), the other numbers by lot; the number is the seed",
                        pairing(l, &s.pairing, false)
                    ),
                    (Lang::En, None) => format!(
                        "{n} seeded places ({}), the other numbers by lot; the number is the seed",
                        pairing(l, &s.pairing, false)
                    ),
                };
                let _ = writeln!(out, "  {}: {text}", l.t("种子", "Seeds"));
            }
            None => {
                let _ = writeln!(
                    out,
                    "  {}: {}{}",
                    l.t("种子", "Seeds"),
                    pairing(l, &s.pairing, false),
                    l.t("，序号即种子", "; the number is the seed")
                );
            }
        }
    } else {
        if max > 0 {
            let _ = writeln!(out, "  {}: {max}", l.t("轮数", "Rounds"));
        } else if s.format.kind == FormatKind::Groups {
            let _ = writeln!(out, "  {}: {}", l.t("轮数", "Rounds"), groups_rounds(l, s));
        }
        let swiss = match s.format.kind {
            FormatKind::RoundRobin | FormatKind::DoubleRoundRobin => false,
            FormatKind::Groups => s.format.group_format == GroupFormat::Swiss,
            _ => true,
        };
        let _ = writeln!(
            out,
            "  {}: {}",
            l.t("编排", "Pairing"),
            pairing(l, &s.pairing, swiss)
        );
    }
    if let Some(r) = &s.records {
        let _ = writeln!(out, "  {}: {}", l.t("记谱", "Records"), records(l, r));
    }
    if let Some(k) = s
        .format
        .knockout
        .as_ref()
        .filter(|k| k.shared_places != SharedPlaces::Shared)
    {
        let _ = writeln!(
            out,
            "  {}: {}",
            l.t("并列名次", "Shared places"),
            l.t(k.shared_places.zh(), k.shared_places.en())
        );
    }
    for reading in knockout_readings(l, s) {
        let _ = writeln!(out, "  {}: {reading}", l.t("本系统的解读", "Reading"));
    }
    let _ = writeln!(
        out,
        "  {}: {}",
        l.t("计分", "Scoring"),
        scoring(l, &s.scoring)
    );
    if plain_knockout {
        // Nobody is ranked by points: the bracket decides the places.
        let variant = s
            .format
            .knockout
            .as_ref()
            .map(|k| k.variant)
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}: {}",
            l.t("名次", "Places"),
            knockout_places(l, variant, !s.tiebreaks.defaulted)
        );
    } else {
        // A team-match section ranks its teams by `team_match.tiebreaks` (worded below); this
        // list ranks its players only.
        let label = if s.team_match.is_some() {
            l.t("个人名次区分", "Players' tie-breaks")
        } else {
            l.t("名次区分", "Tie-breaks")
        };
        let _ = writeln!(out, "  {label}: {}", tiebreaks(l, &s.tiebreaks));
    }
    if !s.time_controls.is_empty() {
        let v: Vec<String> = s.time_controls.iter().map(|t| time_control(l, t)).collect();
        let _ = writeln!(out, "  {}: {}", l.t("用时", "Time"), v.join(", "));
    }
    if let Some(k) = &s.format.knockout {
        if !k.time_controls.is_empty() {
            let v: Vec<String> = k.time_controls.iter().map(|t| time_control(l, t)).collect();
            let _ = writeln!(
                out,
                "  {}: {}",
                l.t("淘汰赛用时", "Knockout time"),
                v.join(", ")
            );
        }
    }
    if !s.schedule_days.is_empty() {
        let v: Vec<String> = s
            .schedule_days
            .iter()
            .map(|d| {
                let every = d.interval_minutes.filter(|_| d.rounds > 1);
                match (l, every) {
                    (Lang::Zh, Some(m)) => format!(
                        "{} {}起{}轮，每{m}分钟一轮",
                        d.date.format("%m-%d"),
                        d.start.format("%H:%M"),
                        d.rounds
                    ),
                    (Lang::Zh, None) => format!(
                        "{} {}起{}轮",
                        d.date.format("%m-%d"),
                        d.start.format("%H:%M"),
                        d.rounds
                    ),
                    (Lang::En, Some(m)) => format!(
                        "{} {} rounds from {}, every {m} min",
                        d.date.format("%m-%d"),
                        d.rounds,
                        d.start.format("%H:%M")
                    ),
                    (Lang::En, None) => format!(
                        "{} {} round(s) from {}",
                        d.date.format("%m-%d"),
                        d.rounds,
                        d.start.format("%H:%M")
                    ),
                }
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", l.t("赛程按天", "Days"), v.join("; "));
    }
    if !s.schedule.is_empty() {
        let v: Vec<String> = s
            .schedule
            .iter()
            .enumerate()
            .map(|(i, t)| match l {
                Lang::Zh => format!("第{}轮 {}", i + 1, t.format("%m-%d %H:%M")),
                Lang::En => format!("R{} {}", i + 1, t.format("%m-%d %H:%M")),
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", l.t("赛程", "Schedule"), v.join(", "));
    }
    let el = eligibility(l, &s.eligibility);
    if !el.is_empty() {
        let _ = writeln!(
            out,
            "  {}: {}",
            l.t("参赛资格", "Eligibility"),
            el.join(l.t("；", "; "))
        );
    }
    let en = &s.entries;
    let mut reg = Vec::new();
    if let Some(d) = en.deadline {
        reg.push(format!("{} {d}", l.t("截止", "deadline")));
    }
    if let Some(f) = en.fee {
        let fee = if f.fen == 0 {
            f.yuan.to_string()
        } else {
            format!("{}.{:02}", f.yuan, f.fen)
        };
        reg.push(format!(
            "{} {fee}{}",
            l.t("费用", "fee"),
            l.t("元", " yuan")
        ));
    }
    if let Some(c) = en.cap {
        reg.push(format!("{} {c}", l.t("本组上限", "section cap")));
    }
    if let Some(m) = en.min {
        reg.push(format!(
            "{} {m}{}",
            l.t("最少", "at least"),
            l.t(
                "人 (不足则可合并组别)",
                " entries (fewer: the section may be merged)"
            )
        ));
    }
    if let Some(c) = en.event_cap {
        reg.push(format!("{} {c}", l.t("总人数上限", "event cap")));
    }
    if let Some(c) = en.max_per_unit {
        reg.push(format!(
            "{} {c}",
            l.t("每单位本组上限", "per unit in section")
        ));
    }
    if let Some(c) = en.max_per_unit_overall {
        reg.push(format!(
            "{} {c}",
            l.t("每单位各组合计上限", "per unit overall")
        ));
    }
    if !reg.is_empty() {
        let _ = writeln!(out, "  {}: {}", l.t("报名", "Entries"), reg.join(", "));
    }
    let d = &s.discipline;
    let mut disc = Vec::new();
    if let Some(m) = d.late_forfeit_minutes {
        disc.push(match l {
            Lang::Zh => format!("迟到{m}分钟作弃权"),
            Lang::En => format!("{m} min late = forfeit"),
        });
    }
    if let Some(n) = d.withdraw_after_consecutive_forfeits {
        disc.push(match l {
            Lang::Zh => format!("连续弃权{n}轮退赛"),
            Lang::En => format!("withdrawn after {n} consecutive forfeits"),
        });
    } else {
        // A16: the project's reading where the regulation states no count.
        disc.push(match l {
            Lang::Zh => "连续弃权不自动退赛 (本系统解读: 连续弃权2轮时提醒, 由裁判长决定)".to_string(),
            Lang::En => "no automatic withdrawal for consecutive forfeits (project's reading: the desk warns after 2, the chief arbiter decides)".to_string(),
        });
    }
    if let Some(n) = d.withdraw_after_total_forfeits {
        disc.push(match l {
            Lang::Zh => format!("累计弃权{n}轮退赛"),
            Lang::En => format!("withdrawn after {n} forfeits in total"),
        });
    }
    if let Some(n) = d.fouls_for_loss {
        disc.push(match l {
            Lang::Zh => format!("同局犯规{n}次判负"),
            Lang::En => format!("{n} fouls in a game = loss"),
        });
    }
    if d.disqualification_voids_results {
        disc.push(match l {
            Lang::Zh => "取消比赛资格者成绩作废 (其对局均判对手弃权胜)".to_string(),
            Lang::En => "a disqualified player's results are void (his opponents win by forfeit)"
                .to_string(),
        });
    }
    if d.absence_without_leave_withdraws {
        disc.push(match l {
            Lang::Zh => "无故缺席按退赛处理".to_string(),
            Lang::En => "absent without leave = withdrawn".to_string(),
        });
    }
    if let Some(n) = d.phone_fouls_for_loss {
        disc.push(match l {
            Lang::Zh => format!("手机犯规第{n}次判负 (只计手机犯规)"),
            Lang::En => format!("the {n}th phone foul = loss (phone fouls only)"),
        });
    }
    if !disc.is_empty() {
        let _ = writeln!(out, "  {}: {}", l.t("纪律", "Discipline"), disc.join(", "));
    }
    if !s.categories.is_empty() {
        let v: Vec<String> = s
            .categories
            .iter()
            .map(|c| {
                let on = c.age_on.map(|d| d.to_string()).unwrap_or_default();
                let ages = match (c.min_age, c.max_age, l) {
                    (None, None, _) => String::new(),
                    (Some(a), Some(b), Lang::Zh) => format!(", {on}时{a}–{b}岁"),
                    (Some(a), None, Lang::Zh) => format!(", {on}时{a}岁以上"),
                    (None, Some(b), Lang::Zh) => format!(", {on}时{b}岁及以下"),
                    (Some(a), Some(b), Lang::En) => format!(", aged {a}–{b} on {on}"),
                    (Some(a), None, Lang::En) => format!(", aged {a} or over on {on}"),
                    (None, Some(b), Lang::En) => format!(", aged {b} or under on {on}"),
                };
                format!("{} ({}{ages})", c.name, c.id)
            })
            .collect();
        let _ = writeln!(out, "  {}: {}", l.t("分别录取", "Categories"), v.join(", "));
    }
    if let Some(t) = &s.teams {
        let what = match (l, t.ranking) {
            (Lang::Zh, TeamRanking::SumOfRanks) => {
                format!("取前{}名队员名次之和，少者列前", t.counted)
            }
            (Lang::Zh, TeamRanking::SumOfScores) => {
                format!("取前{}名队员积分之和，多者列前", t.counted)
            }
            (Lang::En, TeamRanking::SumOfRanks) => {
                format!("sum of the best {} ranks, lower first", t.counted)
            }
            (Lang::En, TeamRanking::SumOfScores) => {
                format!("sum of the best {} scores, higher first", t.counted)
            }
        };
        let min = match l {
            Lang::Zh => format!("不足{}人不计团体成绩", t.min_players),
            Lang::En => format!("teams under {} players unranked", t.min_players),
        };
        let _ = writeln!(out, "  {}: {what}; {min}", l.t("团体", "Teams"));
        if !t.divisions.is_empty() {
            let v: Vec<String> = t.divisions.iter().map(|d| d.name.clone()).collect();
            let _ = writeln!(out, "  {}: {}", l.t("团体分组", "Divisions"), v.join(", "));
        }
        let divs = t.divisions.clone();
        prize_lines(
            l,
            cur,
            out,
            l.t("团体奖励", "Team prizes"),
            &t.prizes,
            |p| {
                p.division.as_ref().map(|d| {
                    divs.iter()
                        .find(|x| &x.id == d)
                        .map(|x| x.name.clone())
                        .unwrap_or(d.clone())
                })
            },
        );
    }
    if let Some(tm) = &s.team_match {
        let t = tm.match_points.table();
        let draw = if t.draw_red == t.draw_black {
            format!("{}", t.draw_red)
        } else {
            match l {
                Lang::Zh => format!("主{}/客{}", t.draw_red, t.draw_black),
                Lang::En => format!("{} home / {} away", t.draw_red, t.draw_black),
            }
        };
        let lineup = match (l, tm.lineup) {
            (Lang::Zh, LineupRule::Registered) => "按报名台次顺序出场",
            (Lang::Zh, LineupRule::Free) => "每轮自由排定台次",
            (Lang::En, LineupRule::Registered) => "registered board order kept",
            (Lang::En, LineupRule::Free) => "free board order each round",
        };
        let ranking: Vec<&str> = tm
            .tiebreaks
            .iter()
            .map(|t| match l {
                Lang::Zh => t.zh(),
                Lang::En => t.name(),
            })
            .collect();
        let line = match l {
            Lang::Zh => format!(
                "每场{}台，替补至多{}人; 场分 胜{} 和{draw} 负{}; {lineup}; 名次: {}",
                tm.boards,
                tm.reserves,
                t.win,
                t.loss,
                ranking.join(" → ")
            ),
            Lang::En => format!(
                "{} boards a match, up to {} reserves; match points win {} draw {draw} loss {}; {lineup}; ranking: {}",
                tm.boards,
                tm.reserves,
                t.win,
                t.loss,
                ranking.join(", ")
            ),
        };
        let _ = writeln!(out, "  {}: {line}", l.t("团体赛", "Team matches"));
        for r in &tm.board_rules {
            let _ = writeln!(out, "  {}: {}", l.t("台次条件", "Board rule"), r.words());
        }
        if let Some(m) = tm.lineup_deadline_minutes {
            let _ = match l {
                Lang::Zh => writeln!(out, "  出场名单: 每轮开始前{m}分钟截止"),
                Lang::En => writeln!(out, "  Line-ups: due {m} minutes before each round"),
            };
        }
        prize_lines(
            l,
            cur,
            out,
            l.t("团体奖励", "Team prizes"),
            &tm.prizes,
            |_| None,
        );
        prize_lines(
            l,
            cur,
            out,
            l.t("台次奖 (每台)", "Board prizes (each board)"),
            &tm.board_prizes,
            |_| None,
        );
    }
    let cats = s.categories.clone();
    prize_lines(l, cur, out, l.t("奖励", "Prizes"), &s.prizes, |p| {
        p.category.as_ref().map(|c| {
            cats.iter()
                .find(|x| &x.id == c)
                .map(|x| x.name.clone())
                .unwrap_or(c.clone())
        })
    });
    for lk in &s.lucky {
        let r: Vec<String> = lk.ranks.iter().map(|r| r.to_string()).collect();
        let _ = writeln!(
            out,
            "  {}: {} → {}",
            l.t("幸运奖名次", "Lucky ranks"),
            r.join(", "),
            lk.item
        );
    }
    if let Some(pool) = s.prize_pool_yuan {
        let _ = writeln!(
            out,
            "  {}: {pool}{}",
            l.t("奖金总额", "Prize pool"),
            l.t("元（与奖项表相符）", " yuan (matches the table)")
        );
    }
    for c in s.categories.iter() {
        if let Some(pool) = c.prize_pool_yuan {
            let _ = writeln!(
                out,
                "  {} {}: {pool}{}",
                c.name,
                l.t("奖金总额", "prize pool"),
                l.t("元（与奖项表相符）", " yuan (matches the table)")
            );
        }
    }
    if let Some(r) = &s.reserved_places {
        let cat = s
            .categories
            .iter()
            .find(|c| c.id == r.category)
            .map_or(r.category.as_str(), |c| c.name.as_str());
        let _ = writeln!(
            out,
            "  {}",
            match l {
                Lang::Zh => format!(
                    "保留名额: 名次奖中{}个留给「{cat}」最好的选手（计入名次奖人数），所得为名次奖与保底{}元中较多者",
                    r.places, r.floor_yuan
                ),
                Lang::En => format!(
                    "Reserved places: {} of the place prizes go to the best of {cat} (counted in the places), each the larger of his place prize and {} yuan",
                    r.places, r.floor_yuan
                ),
            }
        );
    }
    if s.awards.one_award_per_person {
        let _ = writeln!(
            out,
            "  {}",
            l.t(
                "不可重复领奖: 兼得多项者取奖金最高的一项（相同则取规程中列在前的），其余依次递补给该项名单中的下一名",
                "one award per person: the one worth most (equal: the one listed first), the others pass to the next eligible player of their list"
            )
        );
    }
    if let Some(n) = s.awards.fewer_than {
        let _ = writeln!(
            out,
            "  {}",
            match l {
                Lang::Zh => format!("不足{n}人则减1录取: 录取名次至多为参赛人数减1"),
                Lang::En => format!(
                    "fewer than {n} players: places awarded down to one fewer than the players"
                ),
            }
        );
    }
    // S8: every qualification, of the section's ranking or of a category's.
    for q in &s.qualification {
        let of = q.category.as_deref().map(|c| {
            s.categories
                .iter()
                .find(|x| x.id == c)
                .map_or(c, |x| x.name.as_str())
        });
        let line = match (l, q.places) {
            (Lang::Zh, Some(1)) => format!("{} 第1名 获得「{}」资格", of.unwrap_or("本组"), q.to),
            (Lang::Zh, Some(n)) => format!("{} 前{n}名 获得「{}」资格", of.unwrap_or("本组"), q.to),
            (Lang::Zh, None) => format!("{} 获得「{}」资格，名额另定", of.unwrap_or("本组"), q.to),
            (Lang::En, Some(1)) => {
                format!("the winner of {} for {}", of.unwrap_or("the section"), q.to)
            }
            (Lang::En, Some(n)) => format!(
                "the best {n} of {} for {}",
                of.unwrap_or("the section"),
                q.to
            ),
            (Lang::En, None) => format!(
                "{} for {}, places to be announced",
                of.unwrap_or("the section"),
                q.to
            ),
        };
        let _ = writeln!(out, "  {}: {line}", l.t("晋级", "Qualifies"));
    }
    if !s.grade_awards.is_empty() {
        let mut awards: Vec<&crate::model::GradeAward> = s.grade_awards.iter().collect();
        awards.sort_by_key(|a| a.places().0);
        let parts: Vec<String> = awards
            .iter()
            .map(|a| {
                let (f, t) = a.places();
                let places = match (l, f == t) {
                    (Lang::Zh, true) => format!("第{f}名"),
                    (Lang::Zh, false) => format!("第{f}–{t}名"),
                    (Lang::En, true) => format!("place {f}"),
                    (Lang::En, false) => format!("places {f}–{t}"),
                };
                let name = a
                    .step
                    .as_ref()
                    .map_or(a.grade.as_str(), |g| g.name.as_str());
                match &a.basis {
                    Some(b) => format!("{places} {name} ({b})"),
                    None => format!("{places} {name}"),
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  {}: {}; {}",
            l.t("等级称号", "Grades awarded"),
            parts.join(l.t("; ", "; ")),
            l.t(
                "已具有同级或更高称号者不再授予",
                "not to a player who already holds that grade or a higher one"
            )
        );
    }
}

/// One money item: 「收费项目 报名费 (费用): 100元; 本地棋手免缴」, a deposit with its rule.
fn charge(l: Lang, reg: &Regulation, c: &crate::charges::Charge) -> String {
    use crate::charges::yuan_text;
    let money = |yuan: u32, fen: u32| {
        let t = yuan_text(u64::from(yuan) * 100 + u64::from(fen));
        match l {
            Lang::Zh => t,
            Lang::En => t.replace('元', " yuan"),
        }
    };
    let mut parts = vec![money(c.yuan, c.fen)];
    if !c.sections.is_empty() {
        let names: Vec<String> = c
            .sections
            .iter()
            .map(|id| reg.section(id).map_or(id.clone(), |s| s.name.clone()))
            .collect();
        parts.push(format!("{} {}", l.t("仅限", "only"), names.join("、")));
    }
    let cat = |id: &str| {
        reg.sections
            .iter()
            .find_map(|s| s.category(id))
            .map_or(id.to_string(), |c| c.name.clone())
    };
    let free: Vec<String> = c
        .free_for_flags
        .iter()
        .map(|f| reg.flag_label(f))
        .chain(c.free_for_categories.iter().map(|k| cat(k)))
        .collect();
    if !free.is_empty() {
        parts.push(format!("{}{}", free.join("、"), l.t("免缴", " free")));
    }
    for a in &c.amounts {
        let who = match (&a.flag, &a.category) {
            (Some(f), _) => reg.flag_label(f),
            (_, Some(k)) => cat(k),
            _ => String::new(),
        };
        parts.push(format!("{who} {}", money(a.yuan, a.fen)));
    }
    if let Some(r) = c.refund_at {
        parts.push(l.t(r.zh(), r.en()).to_string());
    }
    if !c.refund_conditions.is_empty() {
        let conds: Vec<String> = c
            .refund_conditions
            .iter()
            .map(|k| format!("「{k}」"))
            .collect();
        parts.push(format!(
            "{}{}",
            l.t("退还条件: ", "conditions: "),
            conds.join("")
        ));
    }
    if c.before_play == Some(false) {
        parts.push(l.t("不作为编排前应缴", "not due before play").to_string());
    }
    format!(
        "{} {} ({}): {}",
        l.t("收费项目", "Charge"),
        c.name,
        l.t(c.kind.zh(), c.kind.en()),
        parts.join(l.t("；", "; "))
    )
}
