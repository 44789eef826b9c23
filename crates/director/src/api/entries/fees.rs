//! Fees and check-in: paying and cancelling a fee, checking in (with the pledge) and
//! cancelling it, the same operation for several players, the warning before pairing.

use super::numbers::pairing_no;
use super::shared::{checked, player, section_of, who};
use crate::api::Ctx;
use crate::permission::{self, Action};
use crate::refusal::Refusal;
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId, PlayerRecord};

/// The fee due from a player: his section's fee, else the event's (fen).
pub fn fee_due(reg: &arbiter_regulation::Regulation, section: &str) -> Option<u64> {
    reg.section(section)
        .and_then(|s| s.entries.fee)
        .or(reg.registration.fee)
        .map(|f| f.total_fen())
}

/// Mark a fee paid (`fee_paid`): `amount_fen`, or the fee the regulation sets for the
/// player's section, with the receipt number if one was written. Refused when he has
/// already paid it in full.
pub fn pay_fee(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    amount_fen: Option<u64>,
    receipt: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    if !reg.registration.charges.is_empty() {
        return crate::api::money::pay(state, ctx, p, None, amount_fen, receipt);
    }
    let rec = player(state, p)?;
    let due = fee_due(&reg, &rec.section);
    let amount = match (amount_fen, due) {
        (Some(0), _) => return Err(Refusal::AmountNotPositive.into()),
        (Some(a), _) => a,
        // What is still owed: a second payment completes a part paid.
        (None, Some(d)) => d.saturating_sub(rec.paid_fen),
        (None, None) => return Err(Refusal::NoFeeSet.into()),
    };
    if let Some(d) = due.filter(|d| rec.paid_fen >= *d) {
        return Err(Refusal::FeePaid {
            player: who(p, rec),
            paid_fen: rec.paid_fen,
            due_fen: d,
        }
        .into());
    }
    checked(vec![LogEntry::FeePaid {
        player: p,
        amount_fen: amount,
        receipt: receipt
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
        item: None,
    }])
}

/// What a player has paid against the fee due from him (T7: 赛事服务费100元).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeStatus {
    pub paid_fen: u64,
    /// The fee of his section (or the event's), if the regulation sets one.
    pub due_fen: Option<u64>,
}

impl FeeStatus {
    /// What is still owed (0 when paid in full or no fee is set).
    pub fn owed_fen(&self) -> u64 {
        self.due_fen.map_or(0, |d| d.saturating_sub(self.paid_fen))
    }
    /// Whether nothing is owed and something was paid.
    pub fn paid_in_full(&self) -> bool {
        self.paid_fen > 0 && self.owed_fen() == 0
    }
}

impl std::fmt::Display for FeeStatus {
    /// `已缴清 100元`, `已缴 50元, 尚欠 50元`, `未缴费, 应缴 100元`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paid = yuan(self.paid_fen);
        let owed = yuan(self.owed_fen());
        match (self.paid_fen, self.owed_fen(), self.due_fen) {
            (0, _, Some(d)) => write!(f, "未缴费, 应缴 {} (unpaid: {} due)", yuan(d), yuan(d)),
            (0, _, None) => write!(f, "未缴费 (unpaid)"),
            (_, 0, Some(_)) => write!(f, "已缴清 {paid} (paid in full)"),
            (_, 0, None) => write!(f, "已缴 {paid} (paid)"),
            _ => write!(
                f,
                "已缴 {paid}, 尚欠 {owed} (paid {paid}; {owed} still owed)"
            ),
        }
    }
}

/// [`FeeStatus`] of a player.
pub fn fee_status(state: &EventState, p: PlayerId) -> Option<FeeStatus> {
    let rec = state.player(p)?;
    let reg = regulation_of(state).ok();
    if reg
        .as_ref()
        .is_some_and(|r| !r.registration.charges.is_empty())
    {
        // Every item together: what is due of all of them, and paid of them.
        let dues = state.dues(rec);
        let due: u64 = dues.iter().map(|d| d.fen).sum();
        let paid: u64 = dues
            .iter()
            .map(|d| rec.money.get(&d.name).map_or(0, |m| m.paid_fen))
            .sum();
        return Some(FeeStatus {
            paid_fen: paid,
            due_fen: (!dues.is_empty()).then_some(due),
        });
    }
    let due = reg.and_then(|reg| fee_due(&reg, &rec.section));
    Some(FeeStatus {
        paid_fen: rec.paid_fen,
        due_fen: due,
    })
}

/// Fen as yuan, exact (`12050` → `120.50元`).
pub fn yuan(fen: u64) -> String {
    if fen.is_multiple_of(100) {
        format!("{}元", fen / 100)
    } else {
        format!("{}.{:02}元", fen / 100, fen % 100)
    }
}

/// Check a player in (`checked_in`, T7) without a signed pledge: [`check_in_pledged`].
pub fn check_in(state: &EventState, p: PlayerId) -> Result<Vec<LogEntry>, DirectorError> {
    check_in_pledged(state, p, false)
}

/// The pledge the regulation asks every player to sign at check-in (T7: 报到时现场填写个人
/// 安全承诺书), if any.
pub fn pledge_required(state: &EventState) -> Option<String> {
    regulation_of(state)
        .ok()
        .and_then(|r| r.registration.check_in_pledge.clone())
}

/// Check a player in (`checked_in`, T7), `pledge`: he has signed the regulation's pledge
/// (recorded with the check-in). Refused without it when the regulation asks for one.
pub fn check_in_pledged(
    state: &EventState,
    p: PlayerId,
    pledge: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if rec.withdrawn.is_some() {
        return Err(Refusal::Withdrawn(who(p, rec)).into());
    }
    if rec.checked_in {
        return Err(Refusal::CheckedIn(who(p, rec)).into());
    }
    if let Some(name) = pledge_required(state).filter(|_| !pledge) {
        return Err(Refusal::PledgeRequired {
            player: who(p, rec),
            pledge: name,
        }
        .into());
    }
    checked(vec![LogEntry::CheckedIn { player: p, pledge }])
}

/// The first round of his section the player is paired in (on a board or with the bye).
pub(super) fn first_round_played(state: &EventState, p: PlayerId, section: &str) -> Option<u32> {
    let sec = state.section(section)?;
    sec.rounds
        .iter()
        .find(|(_, r)| r.byes.contains(&p) || r.boards.iter().any(|b| b.red == p || b.black == p))
        .map(|(n, _)| *n)
}

/// Take back a fee recorded by mistake (`fee_cancelled`, 撤销缴费): all he has paid. Refused
/// when nothing is paid or once he has been paired in a round (his games stand on it); after
/// round 1 of his section is paired only the chief arbiter cancels a fee.
pub fn cancel_fee(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if rec.paid_fen == 0 {
        return Err(Refusal::FeeNotPaid(who(p, rec)).into());
    }
    if let Some(round) = first_round_played(state, p, &rec.section) {
        return Err(Refusal::FeeCancelAfterPlay {
            player: who(p, rec),
            round,
        }
        .into());
    }
    if section_of(state, &rec.section)?.last_round() > 0 {
        permission::require(ctx, Action::CancelFeeAfterStart)?;
    }
    let charges = state
        .regulation()
        .is_ok_and(|reg| !reg.registration.charges.is_empty());
    if charges {
        // Every item he holds money of, by name.
        let entries: Vec<LogEntry> = rec
            .money
            .iter()
            .filter(|(_, m)| m.held_fen() > 0)
            .map(|(item, m)| LogEntry::FeeCancelled {
                player: p,
                amount_fen: m.held_fen(),
                item: Some(item.clone()),
            })
            .collect();
        if entries.is_empty() {
            return Err(Refusal::FeeNotPaid(who(p, rec)).into());
        }
        return checked(entries);
    }
    checked(vec![LogEntry::FeeCancelled {
        player: p,
        amount_fen: rec.paid_fen,
        item: None,
    }])
}

/// Take back a check-in recorded by mistake (`check_in_cancelled`, 撤销签到).
pub fn cancel_check_in(state: &EventState, p: PlayerId) -> Result<Vec<LogEntry>, DirectorError> {
    let rec = player(state, p)?;
    if !rec.checked_in {
        return Err(Refusal::NotCheckedIn(who(p, rec)).into());
    }
    checked(vec![LogEntry::CheckInCancelled { player: p }])
}

/// What [`for_each`] gives back: the entries to append, and the players left out with their
/// refusal.
pub type ForEach = (Vec<LogEntry>, Vec<(PlayerId, DirectorError)>);

/// One operation for several players at once (the desk's 批量缴费 / 批量签到): the entries of
/// `op` for each player it accepts, in the order given, appended together; the players it
/// refuses (already paid, already checked in, withdrawn …) are left out. Refused when nobody
/// is chosen, or with the first player's refusal when it accepts none. Returns the entries
/// and the players left out with their refusal.
pub fn for_each(
    state: &EventState,
    ctx: &Ctx,
    players: &[PlayerId],
    op: impl Fn(&EventState, &Ctx, PlayerId) -> Result<Vec<LogEntry>, DirectorError>,
) -> Result<ForEach, DirectorError> {
    if players.is_empty() {
        return Err(Refusal::NobodyChosen.into());
    }
    let mut scratch = state.clone();
    let mut entries = Vec::new();
    let mut left_out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for &p in players {
        if !seen.insert(p) {
            continue;
        }
        match op(&scratch, ctx, p) {
            Ok(es) => {
                let at = ctx.at_rfc3339();
                for e in &es {
                    crate::apply_scratch(&mut scratch, e, &at)?;
                }
                entries.extend(es);
            }
            // A permission refusal holds for every player: say it.
            Err(e @ DirectorError::NotAllowed { .. }) => return Err(e),
            Err(e) => left_out.push((p, e)),
        }
    }
    if entries.is_empty() {
        if let Some((_, e)) = left_out.into_iter().next() {
            return Err(e);
        }
        return Err(Refusal::NobodyChosen.into());
    }
    Ok((entries, left_out))
}

/// Players of `section` (every section when `None`) who have paid but are not checked in
/// and have not withdrawn, in list order — the arbiter is warned of them before pairing.
pub fn paid_not_checked_in<'a>(
    state: &'a EventState,
    section: Option<&str>,
) -> Vec<&'a PlayerRecord> {
    let secs: Vec<&str> = match section {
        Some(s) => vec![s],
        None => state.sections.keys().map(String::as_str).collect(),
    };
    secs.into_iter()
        .flat_map(|s| state.players(s))
        .filter(|p| p.paid_fen > 0 && !p.checked_in && p.withdrawn.is_none())
        .collect()
}

/// The warning before pairing a section: 「3人已缴费未签到: 张三 (P3), …」 (the first ten
/// named; by the pairing number once drawn, 「张三 (序号 2)」), or `None` when every player who has paid is checked in.
pub fn not_checked_in_warning(state: &EventState, section: &str) -> Option<String> {
    const NAMED: usize = 10;
    let ps = paid_not_checked_in(state, Some(section));
    if ps.is_empty() {
        return None;
    }
    let named = |ps: &[&PlayerRecord], owed: bool| {
        let mut names: Vec<String> = ps
            .iter()
            .take(NAMED)
            .map(|p| {
                let who = match pairing_no(state, p.id) {
                    Some(n) => format!("{} (序号 {n})", p.person.name),
                    None => format!("{} ({})", p.person.name, p.id),
                };
                match fee_status(state, p.id).filter(|_| owed) {
                    Some(f) => format!("{who} 尚欠{}", yuan(f.owed_fen())),
                    None => who,
                }
            })
            .collect();
        if ps.len() > NAMED {
            names.push("…".into());
        }
        names.join(", ")
    };
    // A player who paid part of what is due has not paid: said apart, with what he owes.
    let (part, full): (Vec<&PlayerRecord>, Vec<&PlayerRecord>) = ps
        .into_iter()
        .partition(|p| fee_status(state, p.id).is_some_and(|f| f.owed_fen() > 0));
    let mut out = Vec::new();
    if !full.is_empty() {
        out.push(format!(
            "{}人已缴费未签到: {} (paid but not checked in: they are paired unless excused)",
            full.len(),
            named(&full, false)
        ));
    }
    if !part.is_empty() {
        out.push(format!(
            "{}人只缴了部分费用, 未签到: {} (paid only part of what is due, not checked in)",
            part.len(),
            named(&part, true)
        ));
    }
    Some(out.join("; "))
}
