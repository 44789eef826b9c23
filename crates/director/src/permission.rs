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
    /// Pair a round (编排): those who run the rounds.
    PairRound,
    /// Publish a round's pairing (公布对阵表).
    PublishRound,
    /// Undo a round's pairing (撤销编排).
    UndoRound,
    /// Enter a board's result (with its fouls; knockout games and a results file too).
    EnterResult,
    /// Confirm a round's results (确认成绩).
    ConfirmResults,
    /// Withdraw a player (退赛).
    Withdraw,
    /// Record an absence from a round, excused or without leave (请假, 无故缺席).
    RecordAbsence,
    /// Change the event's settings (before round 1 is paired; after it,
    /// [`Action::ChangeSettingsAfterStart`] as well).
    ChangeSettings,
}

impl Action {
    /// The roles that may take the action.
    ///
    /// The desk's route guards read these roles (`arbiter_web::auth`), so a page and the
    /// operation behind it admit the same accounts.
    pub const fn allowed(self) -> &'static [Role] {
        match self {
            Action::LateEntry
            | Action::CorrectResult
            | Action::ChangeRosterAfterStart
            | Action::ChangeSettingsAfterStart
            | Action::Reopen
            | Action::CancelFeeAfterStart => &[Role::ChiefArbiter],
            Action::ReenterResult => &[Role::ChiefArbiter, Role::Arbiter],
            Action::GiveSpecialAward => &[Role::Organiser, Role::ChiefArbiter],
            Action::PairRound
            | Action::PublishRound
            | Action::UndoRound
            | Action::EnterResult
            | Action::ConfirmResults
            | Action::Withdraw
            | Action::RecordAbsence
            | Action::ChangeSettings => &[Role::ChiefArbiter, Role::Arbiter],
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
            Action::PairRound => "编排轮次",
            Action::PublishRound => "公布对阵表",
            Action::UndoRound => "撤销编排",
            Action::EnterResult => "录入成绩",
            Action::ConfirmResults => "确认成绩",
            Action::Withdraw => "登记退赛",
            Action::RecordAbsence => "登记缺席",
            Action::ChangeSettings => "更改赛事设置",
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
            Action::PairRound => "pairing a round",
            Action::PublishRound => "publishing a pairing",
            Action::UndoRound => "undoing a pairing",
            Action::EnterResult => "entering a result",
            Action::ConfirmResults => "confirming results",
            Action::Withdraw => "withdrawing a player",
            Action::RecordAbsence => "recording an absence",
            Action::ChangeSettings => "changing the event's settings",
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
