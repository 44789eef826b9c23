//! Who may do what (权限): every operation that only some roles may do asks here, so the
//! CLI, the desk and any other shell get the same answer. A refusal is typed
//! ([`DirectorError::NotAllowed`]): the action, the actor's role and the roles allowed; each
//! shell words it (the desk names its pages, the CLI its `--as`).

use crate::api::{Ctx, Role};
use crate::DirectorError;

/// An action not every role may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Register an entry after the deadline (the chief arbiter's late-entry override).
    LateEntry,
    /// Correct a result (A12): after confirmation only the chief arbiter changes it.
    CorrectResult,
    /// Re-enter a board's result before its slip is signed (the arbiter's own typo): the
    /// arbiters who enter results.
    ReenterResult,
    /// Change a team's roster after its first game.
    ChangeRosterAfterStart,
    /// Change the event's settings after round 1 is paired.
    ChangeSettingsAfterStart,
    /// Reopen a closed event.
    Reopen,
    /// Cancel a fee once round 1 of the player's section is paired.
    CancelFeeAfterStart,
    /// Give an organiser's award (S10: 最佳组织奖, 最佳赛风赛纪奖).
    GiveSpecialAward,
    /// Record the event's officials (裁判长, 编排长, 仲裁委员会 …) as appointed.
    AppointOfficials,
    /// Pair a round (编排): those who run the rounds.
    PairRound,
    /// Take a team's line-up for a round (出场名单, A15).
    GiveLineup,
    /// Take a line-up after the regulation's deadline (`lineup_deadline_minutes` before the
    /// round's start): the chief arbiter's override, as for a late entry.
    LateLineup,
    /// Publish a round's pairing (公布对阵表).
    PublishRound,
    /// Undo a round's pairing (撤销编排).
    UndoRound,
    /// Close a round whose every result is in, with the withdrawals the forfeit rule then
    /// demands (结束轮次).
    CompleteRound,
    /// Enter a board's result (with its fouls; knockout games and a results file too).
    EnterResult,
    /// A player's claim of his board's result on his phone (选手确认成绩): the code on his
    /// slip is the authority, found by the shell ([`crate::claim::seat_of`]); any role may
    /// carry it, and the phone pages act as the desk.
    ClaimResult,
    /// Confirm a round's results (确认成绩).
    ConfirmResults,
    /// Record a team captain's confirmation of its match (队长确认, A15): the arbiters who
    /// enter results.
    ConfirmMatch,
    /// Withdraw a player (退赛).
    Withdraw,
    /// Reinstate a withdrawn player (恢复参赛, A16) or revoke a disqualification (A17): the
    /// chief arbiter's decision.
    Reinstate,
    /// Disqualify a player (取消比赛资格, A17): the chief arbiter's act.
    Disqualify,
    /// Record an absence from a round, excused or without leave (请假, 无故缺席).
    RecordAbsence,
    /// Change the event's settings (before round 1 is paired; after it,
    /// [`Action::ChangeSettingsAfterStart`] as well).
    ChangeSettings,
    /// Take a payment (缴费), one player's or several at once.
    TakePayment,
    /// Take back a fee recorded by mistake (撤销缴费; after round 1 is paired,
    /// [`Action::CancelFeeAfterStart`] as well).
    CancelFee,
    /// Give back one player's deposit (退还押金).
    Refund,
    /// Give back every deposit due under a rule (批量退还押金).
    RefundDue,
    /// Mark a deposit's refund condition for a player (退还条件).
    MarkRefundCondition,
    /// Register an entry (报名), one or a batch.
    Register,
    /// Refuse an entry by decision (拒绝报名).
    RefuseEntry,
    /// Edit an entry (修改报名信息).
    EditEntry,
    /// Check a player in, or take a check-in back (签到).
    CheckIn,
    /// Draw a section's pairing numbers by lot (抽签).
    DrawNumbers,
    /// Enter a team (团体报名).
    EnterTeam,
    /// Change a team's roster (更改队伍名单; after its first game,
    /// [`Action::ChangeRosterAfterStart`] as well).
    ChangeRoster,
    /// Submit an entry through the online form (网上报名).
    SubmitEntry,
    /// Approve or refuse an online entry (审核网上报名).
    DecideSubmission,
    /// Import a roster file (导入报名表).
    ImportRoster,
    /// Withdraw a refusal of an entry recorded by mistake (撤销拒绝): the chief arbiter's.
    WithdrawRefusal,
    /// Merge a section too small into another before the draw (合并组别): the chief
    /// arbiter's.
    MergeSections,
    /// Create, disable, enable or reset the accounts of the event's arbiters, desk staff and
    /// organisers from the desk (not a log entry: the accounts are the store's).
    ManageAccounts,
    /// Record a game's moves, or take a record away (录入棋谱).
    RecordGame,
    /// Confirm or dismiss a flagged game's foul (确认犯规).
    DecideFlag,
    /// Record a player's refusal to record his game (拒不录谱).
    RefuseRecord,
    /// Decide a protest (申诉).
    DecideProtest,
    /// Record who signed a board's slip (签字).
    RecordSignatures,
    /// Record a team's foul (团体犯规).
    TeamFoul,
    /// Create an event from a regulation (创建赛事).
    CreateEvent,
    /// Close the event (闭幕).
    CloseEvent,
}

impl Action {
    /// Every action, in the table's order.
    pub const ALL: [Action; 50] = [
        Action::LateEntry,
        Action::CorrectResult,
        Action::ReenterResult,
        Action::ChangeRosterAfterStart,
        Action::ChangeSettingsAfterStart,
        Action::Reopen,
        Action::CancelFeeAfterStart,
        Action::GiveSpecialAward,
        Action::AppointOfficials,
        Action::PairRound,
        Action::GiveLineup,
        Action::LateLineup,
        Action::PublishRound,
        Action::UndoRound,
        Action::CompleteRound,
        Action::EnterResult,
        Action::ClaimResult,
        Action::ConfirmResults,
        Action::ConfirmMatch,
        Action::Withdraw,
        Action::Reinstate,
        Action::Disqualify,
        Action::RecordAbsence,
        Action::ChangeSettings,
        Action::TakePayment,
        Action::CancelFee,
        Action::Refund,
        Action::RefundDue,
        Action::MarkRefundCondition,
        Action::Register,
        Action::RefuseEntry,
        Action::EditEntry,
        Action::CheckIn,
        Action::DrawNumbers,
        Action::EnterTeam,
        Action::ChangeRoster,
        Action::SubmitEntry,
        Action::DecideSubmission,
        Action::ImportRoster,
        Action::WithdrawRefusal,
        Action::MergeSections,
        Action::ManageAccounts,
        Action::RecordGame,
        Action::DecideFlag,
        Action::RefuseRecord,
        Action::DecideProtest,
        Action::RecordSignatures,
        Action::TeamFoul,
        Action::CreateEvent,
        Action::CloseEvent,
    ];
}

impl Action {
    /// The roles that may take the action.
    ///
    /// The desk's route guards read these roles (`arbiter_web::auth`), so a page and the
    /// operation behind it admit the same accounts.
    pub const fn allowed(self) -> &'static [Role] {
        match self {
            Action::LateEntry
            | Action::LateLineup
            | Action::CorrectResult
            | Action::ChangeRosterAfterStart
            | Action::ChangeSettingsAfterStart
            | Action::Reopen
            | Action::CancelFeeAfterStart
            | Action::Reinstate
            | Action::Disqualify
            | Action::WithdrawRefusal
            | Action::MergeSections
            | Action::ManageAccounts
            | Action::CloseEvent => &[Role::ChiefArbiter],
            Action::ReenterResult => &[Role::ChiefArbiter, Role::Arbiter],
            Action::ClaimResult => &Role::ALL,
            Action::GiveSpecialAward
            | Action::AppointOfficials
            | Action::RefundDue
            | Action::MarkRefundCondition
            | Action::CreateEvent => &[Role::Organiser, Role::ChiefArbiter],
            Action::TakePayment
            | Action::CancelFee
            | Action::Refund
            | Action::Register
            | Action::RefuseEntry
            | Action::EditEntry
            | Action::CheckIn
            | Action::EnterTeam
            | Action::ChangeRoster
            | Action::SubmitEntry
            | Action::DecideSubmission
            | Action::ImportRoster => &[Role::Organiser, Role::ChiefArbiter, Role::Desk],
            Action::PairRound
            | Action::GiveLineup
            | Action::PublishRound
            | Action::UndoRound
            | Action::CompleteRound
            | Action::EnterResult
            | Action::ConfirmResults
            | Action::ConfirmMatch
            | Action::Withdraw
            | Action::RecordAbsence
            | Action::ChangeSettings
            | Action::DrawNumbers
            | Action::RecordGame
            | Action::DecideFlag
            | Action::RefuseRecord
            | Action::DecideProtest
            | Action::RecordSignatures
            | Action::TeamFoul => &[Role::ChiefArbiter, Role::Arbiter],
        }
    }

    /// The action in Chinese.
    pub fn zh(self) -> &'static str {
        match self {
            Action::LateEntry => "截止后报名",
            Action::CorrectResult => "更正成绩",
            Action::ReenterResult => "重新录入成绩",
            Action::ChangeRosterAfterStart => "比赛开始后更改队伍名单",
            Action::ChangeSettingsAfterStart => "第1轮编排后更改赛事设置",
            Action::Reopen => "重新开启赛事",
            Action::CancelFeeAfterStart => "第1轮编排后撤销缴费",
            Action::GiveSpecialAward => "授予组委会奖项",
            Action::AppointOfficials => "登记竞赛官员",
            Action::PairRound => "编排轮次",
            Action::GiveLineup => "录入出场名单",
            Action::LateLineup => "截止后录入出场名单",
            Action::PublishRound => "公布对阵表",
            Action::UndoRound => "撤销编排",
            Action::CompleteRound => "结束轮次",
            Action::EnterResult => "录入成绩",
            Action::ClaimResult => "选手确认成绩",
            Action::ConfirmResults => "确认成绩",
            Action::ConfirmMatch => "登记队长确认",
            Action::Withdraw => "登记退赛",
            Action::Reinstate => "恢复参赛",
            Action::Disqualify => "取消比赛资格",
            Action::RecordAbsence => "登记缺席",
            Action::ChangeSettings => "更改赛事设置",
            Action::TakePayment => "缴费",
            Action::CancelFee => "撤销缴费",
            Action::Refund => "退还押金",
            Action::RefundDue => "批量退还押金",
            Action::MarkRefundCondition => "确认退还条件",
            Action::Register => "报名",
            Action::RefuseEntry => "拒绝报名",
            Action::EditEntry => "修改报名信息",
            Action::CheckIn => "签到",
            Action::DrawNumbers => "抽签",
            Action::EnterTeam => "团体报名",
            Action::ChangeRoster => "更改队伍名单",
            Action::SubmitEntry => "网上报名",
            Action::DecideSubmission => "审核网上报名",
            Action::ImportRoster => "导入报名表",
            Action::WithdrawRefusal => "撤销拒绝报名",
            Action::MergeSections => "合并组别",
            Action::ManageAccounts => "管理账户",
            Action::RecordGame => "录入棋谱",
            Action::DecideFlag => "确认犯规",
            Action::RefuseRecord => "登记拒不录谱",
            Action::DecideProtest => "处理申诉",
            Action::RecordSignatures => "登记签字",
            Action::TeamFoul => "登记团体犯规",
            Action::CreateEvent => "创建赛事",
            Action::CloseEvent => "闭幕",
        }
    }

    /// The action in English.
    pub fn en(self) -> &'static str {
        match self {
            Action::LateEntry => "a late entry",
            Action::CorrectResult => "correcting a result",
            Action::ReenterResult => "re-entering a result",
            Action::ChangeRosterAfterStart => "changing a roster after the team's first game",
            Action::ChangeSettingsAfterStart => "changing settings after round 1 is paired",
            Action::Reopen => "reopening the event",
            Action::CancelFeeAfterStart => "cancelling a fee after round 1 is paired",
            Action::GiveSpecialAward => "giving an organiser's award",
            Action::AppointOfficials => "recording the officials",
            Action::PairRound => "pairing a round",
            Action::GiveLineup => "taking a team's line-up",
            Action::LateLineup => "taking a line-up after its deadline",
            Action::PublishRound => "publishing a pairing",
            Action::UndoRound => "undoing a pairing",
            Action::CompleteRound => "closing a round",
            Action::EnterResult => "entering a result",
            Action::ClaimResult => "a player's claim of his result",
            Action::ConfirmResults => "confirming results",
            Action::ConfirmMatch => "recording a captain's confirmation",
            Action::Withdraw => "withdrawing a player",
            Action::Reinstate => "reinstating a player",
            Action::Disqualify => "disqualifying a player",
            Action::RecordAbsence => "recording an absence",
            Action::ChangeSettings => "changing the event's settings",
            Action::TakePayment => "taking a payment",
            Action::CancelFee => "cancelling a fee",
            Action::Refund => "refunding a deposit",
            Action::RefundDue => "refunding the deposits due",
            Action::MarkRefundCondition => "marking a refund condition",
            Action::Register => "registering an entry",
            Action::RefuseEntry => "refusing an entry",
            Action::EditEntry => "editing an entry",
            Action::CheckIn => "checking a player in",
            Action::DrawNumbers => "drawing pairing numbers",
            Action::EnterTeam => "entering a team",
            Action::ChangeRoster => "changing a roster",
            Action::SubmitEntry => "submitting an online entry",
            Action::DecideSubmission => "deciding an online entry",
            Action::ImportRoster => "importing a roster",
            Action::WithdrawRefusal => "withdrawing a refusal",
            Action::MergeSections => "merging sections",
            Action::ManageAccounts => "managing accounts",
            Action::RecordGame => "recording a game",
            Action::DecideFlag => "deciding a flagged foul",
            Action::RefuseRecord => "recording a refusal to record",
            Action::DecideProtest => "deciding a protest",
            Action::RecordSignatures => "recording signatures",
            Action::TeamFoul => "recording a team's foul",
            Action::CreateEvent => "creating an event",
            Action::CloseEvent => "closing the event",
        }
    }
}

/// Whether `ctx`'s role may take `action`; the typed refusal if not.
pub fn require(ctx: &Ctx, action: Action) -> Result<(), DirectorError> {
    if action.allowed().contains(&ctx.role) {
        Ok(())
    } else {
        Err(DirectorError::NotAllowed {
            action,
            role: ctx.role,
        })
    }
}
