//! Why a player is not (or may not be) paired in the next round, as the desk's search
//! tells it.

use super::fees::yuan;
use arbiter_core::{EventState, PlayerId};

/// Why a player is not (or may not be) paired in the next round of his section, as the desk's
/// search tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPaired {
    /// 已退赛, with the reason.
    Withdrawn { reason: String },
    /// 未缴费: the regulation's fee not paid in full (unpaid players are not paired).
    Unpaid { due_fen: u64, paid_fen: u64 },
    /// 请假 for this round (excused).
    Absent { round: u32 },
    /// 未签到: paid but not checked in — he is paired, the arbiter is warned.
    NotCheckedIn,
}

impl std::fmt::Display for NotPaired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPaired::Withdrawn { reason } => {
                write!(f, "已退赛 ({reason}), 不再编排 (withdrawn: not paired)")
            }
            NotPaired::Unpaid { due_fen, paid_fen } => write!(
                f,
                "未缴费 (应缴 {}, 已缴 {}), 缴费前不参加编排 (unpaid: not paired)",
                yuan(*due_fen),
                yuan(*paid_fen)
            ),
            NotPaired::Absent { round } => {
                write!(f, "第{round}轮请假, 该轮不编排 (excused from round {round})")
            }
            NotPaired::NotCheckedIn => write!(
                f,
                "已缴费未签到: 仍会编排, 编排前会提醒裁判长 (not checked in: paired, with a warning)"
            ),
        }
    }
}

/// Why `p` would not be paired in the next round of his section (empty: he is paired).
pub fn why_not_paired(state: &EventState, p: PlayerId) -> Vec<NotPaired> {
    let Some(rec) = state.player(p) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if rec.withdrawn.is_some() {
        out.push(NotPaired::Withdrawn {
            reason: rec.withdrawal_reason.clone().unwrap_or_default(),
        });
        return out;
    }
    if state.status(p) == Some(arbiter_core::PlayerStatus::Unpaid) {
        let charges = state.header.as_ref().is_some_and(|h| h.limits.charges_due);
        out.push(if charges {
            let (owed, paid) = state.owed_before_play(rec);
            NotPaired::Unpaid {
                due_fen: owed + paid,
                paid_fen: paid,
            }
        } else {
            NotPaired::Unpaid {
                due_fen: state
                    .header
                    .as_ref()
                    .and_then(|h| h.limits.fee_fen)
                    .unwrap_or(0),
                paid_fen: rec.paid_fen,
            }
        });
    }
    let last = state.section(&rec.section).map_or(0, |s| s.last_round());
    let round = last + 1;
    if rec.absent.contains(&round) {
        out.push(NotPaired::Absent { round });
    }
    if out.is_empty() && rec.paid_fen > 0 && !rec.checked_in {
        out.push(NotPaired::NotCheckedIn);
    }
    out
}
