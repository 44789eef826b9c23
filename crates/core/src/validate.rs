//! Rules an entry must satisfy before it is appended. The same checks run again on replay,
//! so a log that was edited by hand into an impossible history does not fold.
//!
//! Here are the rejections ([`Rejection`]) and [`validate_at`], which lets an entry through
//! the gate every entry passes (the event exists; a closed event takes only a reopening) and
//! hands it to its family's rules: `family/lifecycle.rs`, `registration.rs`, `teams.rs`,
//! `rounds.rs`, `results.rs`, `knockout.rs`, each beside the fold of the same entries.

use crate::entry::*;
use crate::family::{
    self, knockout, lifecycle, matches, records, registration, results, rounds, teams, Family,
};
use crate::state::EventState;

/// Why an entry may not be appended. Chinese first, English in brackets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("赛事尚未创建 (the log must start with event_created)")]
    NoEvent,
    #[error("赛事已创建 (event_created may appear only once)")]
    EventExists,
    #[error("赛事已闭幕, 成绩与名次已确定; 如需更改, 须裁判长先重新开启赛事 (the event is closed: the chief arbiter reopens it first)")]
    EventClosed,
    #[error("赛事尚未闭幕, 无需重新开启 (the event is not closed)")]
    NotClosed,
    #[error("组别 `{0}` 不存在 (unknown section)")]
    UnknownSection(String),
    #[error("组别 `{0}` 重复 (duplicate section id)")]
    DuplicateSection(String),
    #[error("棋手 {0} 不存在 (unknown player)")]
    UnknownPlayer(PlayerId),
    #[error("棋手编号 {0} 已被使用 (player id already used)")]
    PlayerExists(PlayerId),
    #[error("棋手 {player} 不在组别 `{section}` (player is not in this section)")]
    WrongSection { player: PlayerId, section: String },
    #[error("姓名不能为空 (name is empty)")]
    EmptyName,
    #[error("{0}不能为空 ({0} is required)")]
    Required(&'static str),
    #[error(
        "身份证号 {0} 已在组别 `{1}` 报名 (this ID number is already registered in the section)"
    )]
    DuplicateIdNumber(String, String),
    #[error("报名已截止 ({deadline}); 提交时间 {at} (registration closed)")]
    AfterDeadline { deadline: String, at: String },
    #[error("报名人数已满 ({0} 人) (entry cap reached)")]
    EntryCapReached(u32),
    #[error("协会 `{association}` 已报名 {cap} 人, 达到上限 (association entry cap reached)")]
    AssociationCapReached { association: String, cap: u32 },
    #[error("时间 `{0}` 不是 RFC 3339 格式 (bad time)")]
    BadTime(String),
    #[error("棋手 {0} 已退赛 (player already withdrawn)")]
    AlreadyWithdrawn(PlayerId),
    #[error("棋手 {0} 未退赛 (player is not withdrawn)")]
    NotWithdrawn(PlayerId),
    #[error("棋手 {0} 已被取消比赛资格 (player already disqualified)")]
    AlreadyDisqualified(PlayerId),
    #[error("棋手 {0} 未被取消比赛资格 (player is not disqualified)")]
    NotDisqualified(PlayerId),
    #[error("第 {0} 条记录不是未撤销的拒绝报名 (no refusal in force at seq {0})")]
    NoSuchRefusal(u64),
    #[error("棋手 {player} 已缴 {paid_fen} 分, 不能撤销 {amount_fen} 分 (cannot cancel more than was paid)")]
    CancelMoreThanPaid {
        player: PlayerId,
        paid_fen: u64,
        amount_fen: u64,
    },
    #[error("棋手 {player} 的「{item}」尚有 {held_fen} 分, 不能退还 {amount_fen} 分 (cannot refund more than is held)")]
    RefundMoreThanHeld {
        player: PlayerId,
        item: String,
        held_fen: u64,
        amount_fen: u64,
    },
    #[error("「{0}」不是押金, 费用不退还 (not a deposit: a fee is not refunded)")]
    NotADeposit(String),
    #[error("棋手 {0} 尚未签到, 无签到可撤销 (the player is not checked in)")]
    NotCheckedIn(PlayerId),
    #[error("更正内容为空 (no field changes)")]
    NoChanges,
    #[error("棋手 {player} 已在组别 `{section}` (the player is in this section already)")]
    SameSection { player: PlayerId, section: String },
    #[error(
        "组别 `{section}` 已抽签, 不能再换组 (a section's numbers are drawn: no change of section)"
    )]
    SectionChangeAfterDraw { section: String },
    #[error("组别 `{section}` 已并入组别 `{into}`, 不再接受报名 (the section was merged into `{into}`: it takes no more entries)")]
    SectionMerged { section: String, into: String },
    #[error("组别 `{0}` 不能并入自身 (a section is not merged into itself)")]
    MergeIntoItself(String),
    #[error("组别 `{0}` 有队伍报名, 团体组别不能合并 (a section with teams is not merged)")]
    MergeWithTeams(String),
    #[error("棋手 {0} 已退赛或被取消比赛资格, 不能换组 (a withdrawn or disqualified player changes no section)")]
    SectionChangeNotActive(PlayerId),
    #[error("队名 `{0}` 已存在 (team already entered)")]
    TeamExists(String),
    #[error("队伍 `{0}` 不存在 (unknown team)")]
    UnknownTeam(String),
    #[error("队伍 `{team}` 不在组别 `{section}` (the team is not in this section)")]
    TeamNotInSection { team: String, section: String },
    #[error("队伍 `{0}` 重复出现 (team listed twice)")]
    DuplicateTeam(String),
    #[error("队伍 `{0}` 尚无队号 (the team has no team number yet)")]
    TeamNoNumber(String),
    #[error("队伍 `{0}` 不能与自己对阵 (a team paired with itself)")]
    TeamSelfPairing(String),
    #[error("棋手 {player} 不是 `{team}` 的队员 (not a member of the team)")]
    NotInTeam { player: PlayerId, team: String },
    #[error("队伍 `{team}` 在组别 `{section}` 第 {round} 轮没有对阵 (the team plays no match that round)")]
    TeamNotInRound {
        team: String,
        section: String,
        round: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮 `{team}` 的对局已有成绩, 出场名单不能再改 (the team's games have results: the line-up stands)")]
    LineupAfterResult {
        team: String,
        section: String,
        round: u32,
    },
    #[error(
        "`{team}` 的出场名单有 {given} 台, 每场为 {boards} 台 (a line-up has one seat per board)"
    )]
    LineupLength {
        team: String,
        given: usize,
        boards: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮 `{team}` 所在一场第 {board} 台尚无成绩, 队长不能确认 (a board of the match has no result yet)")]
    MatchUnfinished {
        team: String,
        section: String,
        round: u32,
        /// The round's board number.
        board: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮 `{team}` 已确认本场成绩 (the team has confirmed its match already)")]
    MatchAlreadyConfirmed {
        team: String,
        section: String,
        round: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮尚未排出团体对阵 (the round's matches are not paired)")]
    NoMatches { section: String, round: u32 },
    #[error("棋手 {0} 重复出现 (player listed twice)")]
    DuplicatePlayer(PlayerId),
    #[error("组别 `{section}` 第 {round} 轮已编排后, 序号只能在原顺序后追加 (pairing numbers can only be extended once a round is paired)")]
    RedrawAfterPairing { section: String, round: u32 },
    #[error("组别 `{section}` 已编排第 {round} 轮, 不能重新分组 (the groups cannot change once a round is paired)")]
    RegroupAfterPairing { section: String, round: u32 },
    #[error("组别 `{section}` 的分组须至少两组, 每组至少 2 名已有序号的棋手 (groups need two or more, each of at least two numbered players)")]
    BadGroups { section: String },
    #[error("组别 `{section}` 应编排第 {expected} 轮, 而不是第 {found} 轮 (wrong round number)")]
    WrongRound {
        section: String,
        expected: u32,
        found: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮尚未结束 (previous round not completed)")]
    PreviousRoundOpen { section: String, round: u32 },
    #[error("组别 `{section}` 第 {round} 轮已有成绩, 不能重新编排 (round already has results)")]
    RoundHasResults { section: String, round: u32 },
    #[error("棋手 {0} 尚无序号 (player has no pairing number; draw numbers first)")]
    NoPairingNumber(PlayerId),
    #[error("棋手 {0} 已退赛, 不能编排 (withdrawn player cannot be paired)")]
    PairingWithdrawn(PlayerId),
    #[error("台号 {0} 重复或为 0 (board number repeated or zero)")]
    BadBoardNumber(u32),
    #[error("棋手 {0} 不能与自己对局 (player paired against themself)")]
    SelfPairing(PlayerId),
    #[error("组别 `{section}` 第 {round} 轮不存在 (round not paired)")]
    UnknownRound { section: String, round: u32 },
    #[error("组别 `{section}` 第 {round} 轮没有第 {board} 台 (no such board)")]
    UnknownBoard {
        section: String,
        round: u32,
        board: u32,
    },
    #[error("第 {round} 轮第 {board} 台成绩已签字确认, 只能由裁判长更正并说明理由 (confirmed result: use a correction with a reason, A12)")]
    ResultConfirmed { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台的棋谱没有着法 (the record has no move)")]
    RecordEmpty { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台的棋谱: {error}")]
    RecordMove {
        round: u32,
        board: u32,
        error: String,
    },
    #[error("第 {round} 轮第 {board} 台没有棋谱 (no record on this board)")]
    NoRecord { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台尚无成绩 (no result yet)")]
    NoResult { round: u32, board: u32 },
    #[error("第 {round} 轮第 {board} 台已有成绩, 不再接受选手确认 (the board has a result: no more claims)")]
    ClaimAfterResult { round: u32, board: u32 },
    #[error("淘汰赛 {match_id} 第{}局已有成绩, 不再接受选手确认 (the game has a result: no more claims)", game + 1)]
    KnockoutClaimAfterResult { match_id: String, game: u32 },
    #[error("第 {round} 轮第 {board} 台成绩已确认 (already confirmed)")]
    AlreadyConfirmed { round: u32, board: u32 },
    #[error(
        "更正必须说明理由及裁判长姓名 (a correction needs a reason and the chief arbiter's name)"
    )]
    CorrectionWithoutReason,
    #[error("组别 `{section}` 第 {round} 轮已结束 (round already completed)")]
    RoundCompleted { section: String, round: u32 },
    #[error(
        "组别 `{section}` 第 {round} 轮第 {board} 台尚无成绩, 不能结束本轮 (a board has no result)"
    )]
    RoundIncomplete {
        section: String,
        round: u32,
        board: u32,
    },
    #[error("犯规记录的台号需同时注明轮次 (a foul's board needs its round)")]
    FoulBoardWithoutRound,
    #[error("第 {round} 轮第 {board} 台没有棋手 {player} (the player of a game foul is not on that board)")]
    FoulNotOnBoard {
        player: PlayerId,
        round: u32,
        board: u32,
    },
    #[error("团体犯规不属于某一台 (a team foul has no board)")]
    TeamFoulOnBoard,
    #[error("签字人不能为空 (a confirmation needs a signature)")]
    NoSignature,
    #[error("组别 `{section}` 第 {round} 轮已公布 (round already published)")]
    AlreadyPublished { section: String, round: u32 },
    #[error("组别 `{section}` 只能撤销最后一轮 (第 {last} 轮), 不能撤销第 {round} 轮 (only the last round can be undone)")]
    UndoNotLast {
        section: String,
        round: u32,
        last: u32,
    },
    #[error("组别 `{section}` 第 {round} 轮已有成绩或犯规记录, 不能撤销 (a round with results cannot be undone; correct the results instead)")]
    UndoWithResults { section: String, round: u32 },
    #[error("组别 `{section}` 没有团体组别 `{division}` (unknown team division of the members' section)")]
    UnknownDivision { division: String, section: String },
    #[error("组别 `{section}` 已有同名同单位同出生日期的棋手 {player} ({name}); 无身份证号的报名按此判为重复 (duplicate entry: same name, unit and birth date in the section)")]
    DuplicateEntry {
        player: PlayerId,
        name: String,
        section: String,
    },
    #[error("轮次应从 1 开始 (round numbers start at 1)")]
    RoundZero,
    #[error("组别 `{section}` 第 {round} 轮已编排, 不能再登记请假; 未到场请录入弃权 (round already paired: enter a forfeit instead)")]
    AbsentAfterPairing { section: String, round: u32 },
    #[error("棋手 {player} 第 {round} 轮已登记请假 (already marked absent for this round)")]
    AlreadyAbsent { player: PlayerId, round: u32 },
    #[error("棋手 {player} 报名时写明队伍 `{team}`, 但队伍名单未列入 (the player names this team but the team entry does not list him)")]
    TeamOmitsMember { player: PlayerId, team: String },
    #[error("网上报名 #{0} 不存在 (unknown online submission)")]
    UnknownSubmission(u32),
    #[error("网上报名编号 #{0} 已被使用 (submission number already used)")]
    SubmissionExists(u32),
    #[error("网上报名 #{0} 已处理 (the submission is already decided)")]
    SubmissionDecided(u32),
    #[error("报名与网上报名 #{0} 的组别或身份证号不一致 (the registration differs from the online submission it approves)")]
    SubmissionMismatch(u32),
    #[error("网上报名的处理须为批准 (棋手) 或拒绝 (理由) 之一 (a decision is an approval with the player or a refusal with a reason)")]
    BadDecision,
    #[error("身份证号 {0} 已在组别 `{1}` 网上报名, 等待审核 (this ID number is already submitted online for the section)")]
    DuplicateSubmission(String, String),
    #[error("赛事设置没有任何更改 (no setting changed)")]
    NoSettings,
    #[error("{role} {name} 重复列出 (an official listed twice)")]
    DuplicateOfficial { role: String, name: String },
    #[error("竞赛官员名单没有变化 (the officials are unchanged)")]
    OfficialsUnchanged,
    #[error("组别 `{section}` 已编排到第 {paired} 轮, 轮数不能设为 {rounds} (fewer rounds than already paired)")]
    RoundsBelowPaired {
        section: String,
        rounds: u32,
        paired: u32,
    },
    #[error("开始日期 {start} 晚于结束日期 {end} (the start is after the end)")]
    BadDates { start: String, end: String },
    #[error("组别 `{section}` 的比赛用时 每方{minutes}分钟 每步加{increment_seconds}秒 不合理: 每方 1–600 分钟, 每步加 0–600 秒 (a time control of 1–600 minutes, 0–600 seconds a move)")]
    BadTimeControl {
        section: String,
        minutes: u32,
        increment_seconds: u32,
    },
    #[error("队伍名单没有任何变动 (the roster change adds and removes nobody)")]
    NoRosterChange,
    #[error("棋手 {player} 不在队伍 `{team}` 的名单中 (the player is not on the team's roster)")]
    NotOnRoster { player: PlayerId, team: String },
    #[error("棋手 {player} 属于组别 `{section}`, 与队伍 `{team}` 的组别不同 (members of one team play in one section)")]
    MemberOfOtherSection {
        player: PlayerId,
        team: String,
        section: String,
    },
    #[error("棋手 {player} 已属于队伍 `{other}`, 不能列入队伍 `{team}` (the player already belongs to another team)")]
    MemberOfOtherTeam {
        player: PlayerId,
        team: String,
        other: String,
    },
    /// `knockout_seeded` that cannot stand: the problem in words (Chinese, then English).
    #[error("组别 `{0}` 的淘汰赛种子{1}")]
    BadKnockoutSeeds(String, &'static str),
}

/// Check `entry` against `state` without a time (no deadline check).
pub fn validate(state: &EventState, entry: &LogEntry) -> Result<(), Rejection> {
    validate_at(state, entry, None)
}

/// Check `entry` against `state`; `at` (RFC 3339) is the time it is appended, used for the
/// registration deadline.
pub fn validate_at(
    state: &EventState,
    entry: &LogEntry,
    at: Option<&str>,
) -> Result<(), Rejection> {
    let Some(header) = family::open_header(state, entry)? else {
        return Ok(());
    };
    match Family::of(entry) {
        Family::Lifecycle => lifecycle::validate(state, entry),
        Family::Registration => registration::validate(state, header, entry, at),
        Family::Teams => teams::validate(state, entry),
        Family::Matches => matches::validate(state, entry),
        Family::Rounds => rounds::validate(state, entry),
        Family::Results => results::validate(state, entry),
        Family::Knockout => knockout::validate(state, entry),
        Family::Records => records::validate(state, entry),
    }
}
