//! Withdrawals and absences (请假, 无故缺席).

use super::shared::{checked, player, section_of};
use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId};

/// Withdraw a player (`player_withdrawn`, A5), with the reason: his results so far stand
/// (up to the last round paired in his section), he is not paired again.
pub fn withdraw(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::Withdraw)?;
    let rec = player(state, p)?;
    let last = section_of(state, &rec.section)?.last_round();
    checked(vec![LogEntry::PlayerWithdrawn {
        player: p,
        reason: reason.trim().to_string(),
        after_round: (last > 0).then_some(last),
    }])
}

/// Mark a player absent (请假) for a round not yet paired (`player_absent`): he is not paired
/// in it, which scores as an absence.
pub fn absent(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    round: u32,
    reason: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    absence(state, ctx, p, round, reason, false)
}

/// The words of the withdrawal an absence without leave brings (S7).
pub const ABSENCE_WITHDRAWS: &str =
    "无故缺席按退赛处理 (absent without leave: withdrawn, as the regulation says)";

/// Mark a player absent for a round not yet paired: excused (请假), or without leave (无故缺席,
/// `without_leave`). An absence without leave where the regulation says it is a withdrawal
/// (S7: 「累计两轮弃权，或无故缺席按退赛处理」, `absence_without_leave_withdraws`) also
/// withdraws the player, after the last round he played.
pub fn absence(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    round: u32,
    reason: Option<&str>,
    without_leave: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::RecordAbsence)?;
    let rec = player(state, p)?;
    let mut out = vec![LogEntry::PlayerAbsent {
        player: p,
        round,
        reason: reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
        without_leave,
    }];
    if without_leave {
        let reg = regulation_of(state)?;
        let withdraws = reg
            .section(&rec.section)
            .is_some_and(|s| s.discipline.absence_without_leave_withdraws);
        if withdraws {
            let last = section_of(state, &rec.section)?.last_round();
            let before = round.saturating_sub(1).min(last);
            out.push(LogEntry::PlayerWithdrawn {
                player: p,
                reason: ABSENCE_WITHDRAWS.to_string(),
                after_round: (before > 0).then_some(before),
            });
        }
    }
    checked(out)
}
