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
}

impl Action {
    /// The roles that may take the action.
    pub fn allowed(self) -> &'static [Role] {
        match self {
            Action::LateEntry
            | Action::CorrectResult
            | Action::ChangeRosterAfterStart
            | Action::ChangeSettingsAfterStart
            | Action::Reopen
            | Action::CancelFeeAfterStart => &[Role::ChiefArbiter],
            Action::ReenterResult => &[Role::ChiefArbiter, Role::Arbiter],
            Action::GiveSpecialAward => &[Role::Organiser, Role::ChiefArbiter],
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
