//! The registration desk's refusals (报名) in words: the entry form, eligibility, fees,
//! check-in, the draw of pairing numbers, online submissions.

use super::{yuan, Refusal};
use std::fmt;

impl Refusal {
    /// The `Display` of a refusal of the registration family.
    pub(super) fn fmt_registration(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            UnknownSection { given, closest } => {
                write!(f, "组别「{given}」不存在 (unknown section)")?;
                if let Some(h) = closest {
                    write!(f, ", 是否应为「{h}」? (did you mean {h}?)")?;
                }
                Ok(())
            }
            UnknownPlayer(p) => write!(f, "棋手 {p} 不存在 (unknown player)"),
            NameEmpty => write!(f, "姓名不能为空 (name is empty)"),
            Required(r) => write!(f, "请填写{} ({} is required)", r.zh(), r.en()),
            BadIdNumber(e) => write!(f, "{e}"),
            BadPhone => write!(
                f,
                "手机号应为11位数字, 以13–19开头 (not a mainland mobile number)"
            ),
            SexContradictsId { id_sex } => write!(
                f,
                "性别与身份证号不符: 身份证号为{}性 (the sex contradicts the ID number)",
                id_sex.zh()
            ),
            BirthContradictsId { id_birth } => write!(
                f,
                "出生日期与身份证号不符: 身份证号为 {id_birth} (the birth date contradicts the ID number)"
            ),
            BadSocialSecurity => write!(
                f,
                "社保号应为 6–30 位数字或字母 (a social-security number is 6–30 letters and digits)"
            ),
            PledgeRequired { player, pledge } => write!(
                f,
                "{player} 须签署《{pledge}》后方可报到 (the regulation's pledge must be signed at check-in)"
            ),
            BirthInFuture { birth, on, from_id } => write!(
                f,
                "{}的出生日期 {birth} 晚于报名日 {on}, 不可能 ({} gives a birth date after the day of the entry)",
                if *from_id { "身份证号" } else { "填写" },
                if *from_id { "the ID number" } else { "the form" }
            ),
            NotEligible { why } => {
                write!(f, "不符合报名条件: {why} (the entry is not eligible)")
            }
            CorrectionNotEligible { section, why } => write!(
                f,
                "更正后不符合{section}的参赛条件: {why} (the corrected entry is not eligible for the section)"
            ),
            TeamRule { why } => write!(f, "{why}"),
            RefusalRecorded {
                name,
                section,
                reason,
            } => write!(
                f,
                "{name} [{section}] 已因同一理由被拒绝, 不再重复记录: {reason} (this refusal is already recorded)"
            ),
            NothingToCorrect => write!(f, "没有要更正的内容 (nothing to correct)"),
            UnexpectedOutcome { kind } => {
                write!(f, "意外的报名结果 {kind} (unexpected registration outcome)")
            }
            AmountNotPositive => write!(f, "金额须大于 0 (the amount must be positive)"),
            NoFeeSet => write!(
                f,
                "规程未规定报名费, 请指定金额 (the regulation sets no fee: give the amount)"
            ),
            FeePaid {
                player,
                paid_fen,
                due_fen,
            } => write!(
                f,
                "棋手 {player} 已缴费 {} (fee {} already paid)",
                yuan(*paid_fen),
                yuan(*due_fen)
            ),
            Withdrawn(p) => write!(f, "棋手 {p} 已退赛 (player withdrawn)"),
            SameSection { player, section } => write!(
                f,
                "{player} 已在{section}, 无需换组 (the player is in this section already)"
            ),
            SectionChangeAfterDraw { player, section } => write!(
                f,
                "{section}已抽签, {player} 不能再换组; 抽签前方可换组 (a section's numbers are drawn: change sections before the draw)"
            ),
            SectionChangeNotActive(player) => write!(
                f,
                "{player} 已退赛或被取消比赛资格, 不能换组 (a withdrawn or disqualified player changes no section)"
            ),
            SectionMerged { section, into } => write!(
                f,
                "{section}已并入{into}, 不再接受报名; 该组棋手均在{into} (the section was merged into {into}: it takes no more entries, its players are in {into})"
            ),
            MergeIntoItself(s) => write!(f, "{s}不能并入自身 (a section is not merged into itself)"),
            MergeAfterDraw { section } => write!(
                f,
                "{section}已抽签, 不能再合并组别; 抽签前方可合并 (a section's numbers are drawn: merge before the draw)"
            ),
            MergeTeamSection(s) => write!(
                f,
                "{s}是团体组别, 报名的是队伍, 不能按棋手合并 (a team section's entries are teams: it is not merged player by player)"
            ),
            MergeSamePerson { player, into } => write!(
                f,
                "{player} 的身份证号已在{into}报名, 合并后将重复 (the same ID number is entered in {into} already)"
            ),
            MergeOverCap { into, total, cap } => write!(
                f,
                "合并后{into}将有 {total} 人, 超过本组上限 {cap} 人 (merged, {into} would hold {total} players, above its cap of {cap})"
            ),
            SectionChangeInTeam { player, team } => write!(
                f,
                "{player} 是「{team}」的队员, 请先将其移出队伍再换组 (a team's member leaves the team before changing section)"
            ),
            SectionChangeNotEligible {
                player,
                section,
                why,
            } => write!(
                f,
                "{player} 不符合{section}的参赛条件: {why} (the entry is not eligible for the new section)"
            ),
            NoSuchRefusal(seq) => write!(
                f,
                "第 {seq} 条记录不是未撤销的拒绝报名 (no refusal in force at #{seq})"
            ),
            CheckedIn(p) => write!(f, "棋手 {p} 已检录 (already checked in)"),
            FeeNotPaid(p) => write!(f, "棋手 {p} 尚未缴费, 无缴费可撤销 (no fee to cancel)"),
            NotCheckedIn(p) => write!(f, "棋手 {p} 尚未签到, 无签到可撤销 (not checked in)"),
            FeeCancelAfterPlay { player, round } => write!(
                f,
                "棋手 {player} 已编入第{round}轮, 不能撤销缴费 (already paired: the fee stands)"
            ),
            NobodyChosen => write!(f, "请先选择棋手 (no player chosen)"),
            NobodyToDraw { section } => write!(
                f,
                "{section} 没有可抽签的棋手 (no player to draw: none registered, or none has paid)"
            ),
            AlreadyDrawn { section } => write!(
                f,
                "{section} 已抽签, 没有新的棋手 (numbers already drawn; nobody new)"
            ),
            GroupsStarted { section } => write!(
                f,
                "{section} 已分组并开始小组赛, 补报者没有可加入的小组 (the groups have started playing: a late entry has no group to join)"
            ),
            UnknownSubmission(n) => write!(f, "网上报名 #{n} 不存在 (unknown online submission)"),
            SubmissionDecided(n) => {
                write!(f, "网上报名 #{n} 已处理 (the submission is already decided)")
            }
            CannotApprove {
                submission,
                name,
                reason,
            } => write!(
                f,
                "网上报名 #{submission} {name} 不能批准: {reason} (cannot be approved)"
            ),
            _ => unreachable!("not a refusal of the registration family"),
        }
    }
}
