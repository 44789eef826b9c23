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
        by_forfeits: false,
    }])
}

/// The reason of a reinstatement that a correction brings (A16).
pub const REINSTATED_BY_CORRECTION: &str = "更正后弃权不再满足退赛条件, 恢复参赛 (a correction removed the forfeits the withdrawal followed from: reinstated)";

/// The chief arbiter reinstates a player, with the reason: a disqualified player's
/// disqualification is revoked (A17); otherwise a withdrawn player is back (恢复参赛, A16),
/// paired again from the next round, and only forfeits after it count towards the forfeit
/// rule.
pub fn reinstate(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    reason: &str,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::Reinstate)?;
    let rec = player(state, p)?;
    if reason.trim().is_empty() {
        return Err(DirectorError::ReasonMissing(Action::Reinstate));
    }
    if rec.disqualified.is_some() {
        return checked(vec![LogEntry::DisqualificationRevoked {
            player: p,
            reason: reason.trim().to_string(),
        }]);
    }
    checked(vec![LogEntry::PlayerReinstated {
        player: p,
        reason: reason.trim().to_string(),
        by_correction: false,
    }])
}

/// The chief arbiter disqualifies a player (取消比赛资格 / 取消成绩, A17), with the reason:
/// the games of the rounds completed so far stand for his opponents, he is not paired again,
/// his games after them are his forfeits, and he has no place, prize or title. His results
/// are void (every game of his his opponents' forfeit win) where the regulation says so
/// (`discipline.disqualification_voids_results`) or the chief arbiter says so for this case
/// (`void_results`, 苏州 六1(2): 「取消其比赛成绩」).
pub fn disqualify(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    reason: &str,
    void_results: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    permission::require(ctx, Action::Disqualify)?;
    let rec = player(state, p)?;
    if reason.trim().is_empty() {
        return Err(DirectorError::ReasonMissing(Action::Disqualify));
    }
    let reg = regulation_of(state)?;
    let by_regulation = reg
        .section(&rec.section)
        .is_some_and(|s| s.discipline.disqualification_voids_results);
    let done = section_of(state, &rec.section)?.completed_rounds();
    checked(vec![LogEntry::PlayerDisqualified {
        player: p,
        reason: reason.trim().to_string(),
        after_round: (done > 0).then_some(done),
        void_results: void_results || by_regulation,
    }])
}

/// The reinstatements a game command's `entries` bring (A16): every player withdrawn by the
/// forfeit rule whose forfeits they remove, appended after them.
pub(crate) fn with_reinstatements(
    state: &EventState,
    ctx: &Ctx,
    mut entries: Vec<LogEntry>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let changes_results = entries.iter().any(|e| {
        matches!(
            e,
            LogEntry::ResultCorrected { .. }
                | LogEntry::ResultEntered { .. }
                | LogEntry::ProtestDecided { .. }
                | LogEntry::FoulFlagDecided { .. }
        )
    });
    if !changes_results || !state.players.values().any(|p| p.withdrawn_by_forfeits) {
        return Ok(entries);
    }
    let Ok(reg) = regulation_of(state) else {
        return Ok(entries);
    };
    let mut scratch = state.clone();
    let at = ctx.at_rfc3339();
    for e in &entries {
        crate::apply_scratch(&mut scratch, e, &at)?;
    }
    for p in crate::plan::undone_withdrawals(&reg, &scratch) {
        entries.push(LogEntry::PlayerReinstated {
            player: p,
            reason: REINSTATED_BY_CORRECTION.to_string(),
            by_correction: true,
        });
    }
    Ok(entries)
}

/// The desk's warning of consecutive forfeits where the regulation states no withdrawal for
/// them (A16): 「张三 (序号 3) 连续弃权2轮 (第2、3轮)」 and that the chief arbiter decides;
/// `None` when nobody's last rounds are such a run.
pub fn forfeit_warning(state: &EventState, section: &str) -> Option<String> {
    let reg = regulation_of(state).ok()?;
    let sec = reg.section(section)?;
    let runs = crate::plan::forfeit_runs(sec, state, section);
    if runs.is_empty() {
        return None;
    }
    let who: Vec<String> = runs
        .iter()
        .map(|(p, rounds)| {
            let name = state
                .player(*p)
                .map_or_else(String::new, |r| r.person.name.clone());
            let no = match super::pairing_no(state, *p) {
                Some(n) => format!("序号 {n}"),
                None => p.to_string(),
            };
            let rs: Vec<String> = rounds.iter().map(u32::to_string).collect();
            format!(
                "{name} ({no}) 连续弃权{}轮 (第{}轮)",
                rounds.len(),
                rs.join("、")
            )
        })
        .collect();
    Some(format!(
        "{}: 规程未规定连续弃权退赛, 由裁判长决定是否退赛 (consecutive forfeits; the regulation states no withdrawal for them — the chief arbiter decides)",
        who.join(", ")
    ))
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
                by_forfeits: false,
            });
        }
    }
    checked(out)
}
