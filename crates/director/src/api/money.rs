//! Money at the registration desk (报名处): payments of the regulation's money items (fees
//! and deposits, `[[registration.charges]]`), refunds of deposits — one player's by the
//! arbiter, or everyone's whose rule and conditions hold —, the refund conditions the
//! organiser marks per player, and the event's cash report (收支表).
//!
//! Rules, as the operations apply them:
//! - What a player owes of each item comes from the regulation, his section, flags and
//!   category (`Regulation::dues`); a regulation without `charges` has one fee item,
//!   「报名费」, and its payments are recorded as before (no item name in the log).
//! - A payment without an item pays the first item he still owes something of.
//! - Only a deposit is refunded, at most what he paid of it and was not refunded; a fee taken
//!   by mistake is cancelled (`entries::cancel_fee`), not refunded.
//! - `refund_due(rule)`: every deposit of that rule held for a player whose every refund
//!   condition is marked; `last_round` once his section has played its last round, `closing`
//!   once every section has (before the event is closed: a closed event takes no entry).

use super::entries::{checked, player, who};
use super::Ctx;
use crate::refusal::{Refusal, Sec};
use crate::step::{next_step, Step};
use crate::{regulation_of, DirectorError};
use arbiter_core::{EventState, LogEntry, PlayerId, PlayerRecord};
use arbiter_regulation::{ChargeKind, Due, RefundAt, Regulation};
use serde::Serialize;

/// The item of `name` among what `rec` owes.
fn due_named(state: &EventState, rec: &PlayerRecord, name: &str) -> Result<Due, DirectorError> {
    let dues = state.dues(rec);
    dues.iter()
        .find(|d| d.name == name)
        .cloned()
        .ok_or_else(|| {
            Refusal::UnknownCharge {
                given: name.to_string(),
                known: dues.iter().map(|d| d.name.clone()).collect(),
            }
            .into()
        })
}

fn paid_of(rec: &PlayerRecord, item: &str) -> u64 {
    rec.money.get(item).map_or(0, |m| m.paid_fen)
}

fn held_of(rec: &PlayerRecord, item: &str) -> u64 {
    rec.money.get(item).map_or(0, |m| m.held_fen())
}

fn receipt_of(receipt: Option<&str>) -> Option<String> {
    receipt
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
}

/// Take a payment (`fee_paid`) of the money item `item` (the first he still owes of, when
/// `None`): `amount_fen`, or what he still owes of it. Refused for an item the regulation does
/// not charge him, one it frees him of, or one paid in full already.
pub fn pay(
    state: &EventState,
    ctx: &Ctx,
    p: PlayerId,
    item: Option<&str>,
    amount_fen: Option<u64>,
    receipt: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let rec = player(state, p)?;
    if reg.registration.charges.is_empty() {
        // The one fee item of `fee`, recorded as before.
        if let Some(i) = item {
            due_named(state, rec, i)?;
        }
        return super::entries::pay_fee(state, ctx, p, amount_fen, receipt);
    }
    let dues = state.dues(rec);
    let due = match item {
        Some(i) => due_named(state, rec, i)?,
        None => match dues
            .iter()
            .find(|d| paid_of(rec, &d.name) < d.fen)
            .or(dues.first())
        {
            Some(d) => d.clone(),
            None => return Err(Refusal::NoFeeSet.into()),
        },
    };
    if due.fen == 0 {
        return Err(Refusal::NotOwed {
            player: who(p, rec),
            item: due.name,
        }
        .into());
    }
    let paid = paid_of(rec, &due.name);
    if paid >= due.fen {
        return Err(Refusal::ItemPaid {
            player: who(p, rec),
            item: due.name,
            paid_fen: paid,
            due_fen: due.fen,
        }
        .into());
    }
    let amount = match amount_fen {
        Some(0) => return Err(Refusal::AmountNotPositive.into()),
        Some(a) => a,
        None => due.fen - paid,
    };
    checked(vec![LogEntry::FeePaid {
        player: p,
        amount_fen: amount,
        receipt: receipt_of(receipt),
        item: Some(due.name),
    }])
}

/// The kind of the item `name` of the regulation.
fn kind_of(reg: &Regulation, name: &str) -> Result<ChargeKind, DirectorError> {
    let names = reg.charge_names();
    names
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, k)| *k)
        .ok_or_else(|| {
            Refusal::UnknownCharge {
                given: name.to_string(),
                known: names.iter().map(|(n, _)| n.clone()).collect(),
            }
            .into()
        })
}

/// Give back a player's deposit (`deposit_refunded`): `amount_fen`, or all he holds of it.
/// Refused for a fee, for more than he paid of it and was not refunded, or when nothing is
/// held.
pub fn refund(
    state: &EventState,
    p: PlayerId,
    item: &str,
    amount_fen: Option<u64>,
    reason: Option<&str>,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let rec = player(state, p)?;
    if kind_of(&reg, item)? == ChargeKind::Fee {
        return Err(Refusal::RefundOfFee {
            item: item.to_string(),
        }
        .into());
    }
    let held = held_of(rec, item);
    let amount = match amount_fen {
        Some(0) => return Err(Refusal::AmountNotPositive.into()),
        Some(a) => a,
        None => held,
    };
    if held == 0 || amount > held {
        return Err(Refusal::RefundMoreThanHeld {
            player: who(p, rec),
            item: item.to_string(),
            held_fen: held,
            amount_fen: amount,
        }
        .into());
    }
    checked(vec![LogEntry::DepositRefunded {
        player: p,
        item: item.to_string(),
        amount_fen: amount,
        reason: receipt_of(reason),
    }])
}

/// Mark (or take back) a deposit's refund condition for a player (`refund_condition_marked`):
/// 「完成全部对局」, 「未弃权」 — a condition one of the regulation's deposits names.
pub fn mark_condition(
    state: &EventState,
    p: PlayerId,
    condition: &str,
    met: bool,
) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    player(state, p)?;
    let known = reg.refund_conditions();
    let condition = condition.trim();
    if !known.iter().any(|k| k == condition) {
        return Err(Refusal::UnknownRefundCondition {
            given: condition.to_string(),
            known,
        }
        .into());
    }
    checked(vec![LogEntry::RefundConditionMarked {
        player: p,
        condition: condition.to_string(),
        met,
    }])
}

/// Whether `section` has played its last round (and played at all).
fn section_done(
    reg: &Regulation,
    state: &EventState,
    section: &str,
) -> Result<bool, DirectorError> {
    let Some(rec) = state.section(section) else {
        return Ok(false);
    };
    let played = rec.completed_rounds() > 0 || !rec.knockout.is_empty();
    Ok(played && next_step(reg, state, section)? == Step::Done)
}

/// Whether the deposit `d` of `rec` may be refunded under `rule` now: its rule, every
/// condition marked, something held.
fn refundable(rec: &PlayerRecord, d: &Due, rule: RefundAt) -> bool {
    d.kind == ChargeKind::Deposit
        && d.refund_at == Some(rule)
        && d.refund_conditions
            .iter()
            .all(|c| rec.conditions.contains(c))
        && held_of(rec, &d.name) > 0
}

/// Refund every deposit due back under `rule` (退还押金): for each player, each deposit of
/// that rule he holds money of, when every refund condition of it is marked for him. At the
/// last round: players of sections that have played their last round (refused when none
/// has); at the closing: once every section has (refused before). Refused when nobody has a
/// deposit due back.
pub fn refund_due(state: &EventState, rule: RefundAt) -> Result<Vec<LogEntry>, DirectorError> {
    let reg = regulation_of(state)?;
    let mut done = std::collections::BTreeMap::new();
    for s in &reg.sections {
        if state.section(&s.id).is_some() {
            done.insert(s.id.clone(), section_done(&reg, state, &s.id)?);
        }
    }
    let first_open = reg
        .sections
        .iter()
        .find(|s| done.get(&s.id) == Some(&false));
    match (rule, first_open) {
        (RefundAt::Closing, Some(s)) => {
            return Err(Refusal::RefundNotYet {
                rule,
                section: Sec::in_reg(&reg, &s.id),
            }
            .into())
        }
        (RefundAt::LastRound, Some(s)) if !done.values().any(|d| *d) => {
            return Err(Refusal::RefundNotYet {
                rule,
                section: Sec::in_reg(&reg, &s.id),
            }
            .into())
        }
        _ => {}
    }
    let mut entries = Vec::new();
    for rec in state.players.values() {
        if rule == RefundAt::LastRound && done.get(&rec.section) != Some(&true) {
            continue;
        }
        for d in state.dues(rec) {
            if refundable(rec, &d, rule) {
                entries.push(LogEntry::DepositRefunded {
                    player: rec.id,
                    amount_fen: held_of(rec, &d.name),
                    item: d.name.clone(),
                    reason: Some(rule.zh().to_string()),
                });
            }
        }
    }
    if entries.is_empty() {
        return Err(Refusal::NobodyToRefund { rule }.into());
    }
    checked(entries)
}

/// One line of the cash report: an item, or the total (fen).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CashLine {
    /// The item's name (「报名费」), or 「合计」 for the total.
    pub item: String,
    /// `fee`, `deposit`, or `total`.
    pub kind: &'static str,
    /// Due from the players who have not withdrawn, as the regulation says.
    pub due_fen: u64,
    /// Taken (payments less those cancelled), withdrawn players included.
    pub collected_fen: u64,
    /// Given back (deposits).
    pub refunded_fen: u64,
    /// Still owed by players who have not withdrawn.
    pub owed_fen: u64,
    /// In hand: collected less refunded.
    pub held_fen: u64,
    /// Players who have paid something of it.
    pub payers: u32,
}

impl CashLine {
    fn add(&mut self, o: &CashLine) {
        self.due_fen += o.due_fen;
        self.collected_fen += o.collected_fen;
        self.refunded_fen += o.refunded_fen;
        self.owed_fen += o.owed_fen;
        self.held_fen += o.held_fen;
        self.payers += o.payers;
    }
}

/// The event's cash report (收支表): per item and in total; the withdrawn players by name,
/// with what each paid, was given back and is kept (no other player is named).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CashReport {
    pub event: String,
    pub items: Vec<CashLine>,
    pub total: CashLine,
    /// Withdrawn players (退赛选手), by registration: their money is in `collected` while
    /// their dues are out of `due` and `owed` — this says where the difference is.
    pub withdrawn: Vec<WithdrawnMoney>,
    /// 「退赛选手已收」: the withdrawn players' lines added up (`due` and `owed` 0).
    pub withdrawn_total: CashLine,
}

/// A withdrawn player's money (fen): nothing is due from him any more; what he paid of a fee
/// is kept (a fee is never refunded: only a deposit is), a deposit as given back or not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WithdrawnMoney {
    /// 「序号 3 张三」 / 「P12 张三」.
    pub player: String,
    pub section: String,
    pub collected_fen: u64,
    pub refunded_fen: u64,
    pub held_fen: u64,
    /// 「已退赛, 已收 100.00元 (未退款)」 and why, per item.
    pub note: String,
}

/// The note of a withdrawn player's money: per item what he paid and what became of it.
fn withdrawn_note(rec: &PlayerRecord) -> String {
    let paid: Vec<(&String, &arbiter_core::ItemMoney)> =
        rec.money.iter().filter(|(_, m)| m.paid_fen > 0).collect();
    if paid.is_empty() {
        return "已退赛, 未缴费: 退赛后不再计应收 (withdrawn, paid nothing: nothing is due any more)"
            .to_string();
    }
    let items: Vec<String> = paid
        .iter()
        .map(|(name, m)| match (m.refunded_fen, m.held_fen()) {
            (0, held) => format!("「{name}」已收 {} (未退款)", yuan_exact(held)),
            (back, 0) => format!("「{name}」已收 {}, 已全部退还", yuan_exact(back)),
            (back, held) => format!(
                "「{name}」已收 {}, 已退 {}, 留存 {}",
                yuan_exact(m.paid_fen),
                yuan_exact(back),
                yuan_exact(held)
            ),
        })
        .collect();
    let held: u64 = paid.iter().map(|(_, m)| m.held_fen()).sum();
    let collected: u64 = paid.iter().map(|(_, m)| m.paid_fen).sum();
    let head = if held == collected {
        format!("已退赛, 已收 {} (未退款)", yuan_exact(collected))
    } else {
        format!(
            "已退赛, 已收 {}, 已退 {}",
            yuan_exact(collected),
            yuan_exact(collected - held)
        )
    };
    format!(
        "{head}: {}; 退赛后不再计应收, 费用不退、押金按规定退还 (withdrawn: nothing is due any more; what he paid is counted as collected — a fee is kept, a deposit given back as the regulation says)",
        items.join(", ")
    )
}

/// The cash report of the event: what each item brought in, gave back and is still owed.
pub fn cash_report(state: &EventState) -> Result<CashReport, DirectorError> {
    let reg = regulation_of(state)?;
    let mut items: Vec<CashLine> = reg
        .charge_names()
        .into_iter()
        .map(|(name, kind)| CashLine {
            item: name,
            kind: match kind {
                ChargeKind::Fee => "fee",
                ChargeKind::Deposit => "deposit",
            },
            ..CashLine::default()
        })
        .collect();
    let mut withdrawn: Vec<WithdrawnMoney> = Vec::new();
    for rec in state.players.values() {
        if rec.withdrawn.is_none() {
            for d in state.dues(rec) {
                if let Some(l) = items.iter_mut().find(|l| l.item == d.name) {
                    l.due_fen += d.fen;
                    l.owed_fen += d.fen.saturating_sub(paid_of(rec, &d.name));
                }
            }
        }
        if rec.withdrawn.is_some() {
            let mut w = WithdrawnMoney {
                player: super::entries::named(state, rec.id),
                section: state
                    .section(&rec.section)
                    .map_or(rec.section.clone(), |s| s.name.clone()),
                note: withdrawn_note(rec),
                ..WithdrawnMoney::default()
            };
            for m in rec.money.values() {
                w.collected_fen += m.paid_fen;
                w.refunded_fen += m.refunded_fen;
                w.held_fen += m.held_fen();
            }
            withdrawn.push(w);
        }
        for (name, m) in &rec.money {
            let idx = match items.iter().position(|l| l.item == *name) {
                Some(i) => i,
                None => {
                    // Money of an item the regulation no longer names is still money.
                    items.push(CashLine {
                        item: name.clone(),
                        kind: "fee",
                        ..CashLine::default()
                    });
                    items.len() - 1
                }
            };
            let l = &mut items[idx];
            l.collected_fen += m.paid_fen;
            l.refunded_fen += m.refunded_fen;
            l.held_fen += m.held_fen();
            if m.paid_fen > 0 {
                l.payers += 1;
            }
        }
    }
    // S11 (苏州 五5): 「交纳500元申述费，胜述退还，如不胜述则不退还」 — the protests' deposits, where
    // the regulation sets one or a protest paid one.
    let mut protests = CashLine {
        item: "申诉费".into(),
        kind: "protest_deposit",
        ..CashLine::default()
    };
    for sec in state.sections.values() {
        for rd in sec.rounds.values() {
            for b in rd.boards.iter() {
                for p in &b.protests {
                    protests.collected_fen += p.deposit_fen;
                    if p.deposit_returned {
                        protests.refunded_fen += p.deposit_fen;
                    } else {
                        protests.held_fen += p.deposit_fen;
                    }
                    if p.deposit_fen > 0 {
                        protests.payers += 1;
                    }
                }
            }
        }
    }
    if reg.event.protest_deposit_yuan.is_some_and(|y| y > 0) || protests.collected_fen > 0 {
        items.push(protests);
    }
    let mut total = CashLine {
        item: "合计".into(),
        kind: "total",
        ..CashLine::default()
    };
    for l in &items {
        total.add(l);
    }
    let mut withdrawn_total = CashLine {
        item: "退赛选手已收".into(),
        kind: "withdrawn",
        ..CashLine::default()
    };
    for w in &withdrawn {
        withdrawn_total.collected_fen += w.collected_fen;
        withdrawn_total.refunded_fen += w.refunded_fen;
        withdrawn_total.held_fen += w.held_fen;
        if w.collected_fen > 0 {
            withdrawn_total.payers += 1;
        }
    }
    Ok(CashReport {
        event: state
            .header
            .as_ref()
            .map(|h| h.name.clone())
            .unwrap_or_default(),
        items,
        total,
        withdrawn,
        withdrawn_total,
    })
}

/// Fen as yuan with thousands separated and two decimals: `125000` → `1,250.00元`.
pub fn yuan_exact(fen: u64) -> String {
    let whole = (fen / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{grouped}.{:02}元", fen % 100)
}

impl CashReport {
    /// The report as text lines, Chinese headers with English after.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{} 收支表 (cash report)\n项目 item | 应收 due | 已收 collected | 已退 refunded | 尚欠 owed | 结存 held | 缴费人数 payers\n",
            self.event
        );
        for l in self.items.iter().chain(std::iter::once(&self.total)) {
            let kind = match l.kind {
                "fee" => "费用",
                "deposit" => "押金",
                "protest_deposit" => "仲裁申诉, 胜诉退还",
                _ => "",
            };
            let name = if kind.is_empty() {
                l.item.clone()
            } else {
                format!("{} ({kind})", l.item)
            };
            out.push_str(&format!(
                "{name} | {} | {} | {} | {} | {} | {}\n",
                yuan_exact(l.due_fen),
                yuan_exact(l.collected_fen),
                yuan_exact(l.refunded_fen),
                yuan_exact(l.owed_fen),
                yuan_exact(l.held_fen),
                l.payers
            ));
        }
        if !self.withdrawn.is_empty() {
            let w = &self.withdrawn_total;
            out.push_str(&format!(
                "其中 退赛选手已收 (of which, from withdrawn players) | — | {} | {} | — | {} | {}\n\
                 应收、尚欠只计未退赛的选手; 已收、结存含退赛选手所缴 (due and owed count the players still in; collected and held include what withdrawn players paid)\n\
                 退赛选手 (withdrawn players):\n",
                yuan_exact(w.collected_fen),
                yuan_exact(w.refunded_fen),
                yuan_exact(w.held_fen),
                w.payers
            ));
            for p in &self.withdrawn {
                out.push_str(&format!("  {} [{}]: {}\n", p.player, p.section, p.note));
            }
        }
        out
    }
}
