//! Money at the registration desk (报名处): payments, cancelled fees, deposits refunded, the
//! refund conditions marked ([`crate::api::money`], [`crate::api::entries`]).

use super::Outcome;
use crate::api::{entries, money, Ctx};
use crate::permission::Action;
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, PlayerId};
use arbiter_regulation::RefundAt;

/// A write of money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoneyCommand {
    /// Take a payment (`fee_paid`): of `item` (the first he still owes of, when `None`),
    /// `amount_fen` (what he still owes of it, when `None`).
    Pay {
        player: PlayerId,
        item: Option<String>,
        amount_fen: Option<u64>,
        receipt: Option<String>,
    },
    /// The desk's 批量缴费: what each player still owes, those who owe nothing left out.
    PayEach { players: Vec<PlayerId> },
    /// Take back a fee recorded by mistake (`fee_cancelled`).
    CancelFee { player: PlayerId },
    /// Give back a deposit (`deposit_refunded`): of `item` (the regulation's first deposit,
    /// when `None`), `amount_fen` (all he holds of it, when `None`).
    Refund {
        player: PlayerId,
        item: Option<String>,
        amount_fen: Option<u64>,
        reason: Option<String>,
    },
    /// Every deposit due back under `rule` (退还押金).
    RefundDue { rule: RefundAt },
    /// Mark (or take back) a refund condition of a player's deposit.
    MarkCondition {
        player: PlayerId,
        condition: String,
        met: bool,
    },
}

impl MoneyCommand {
    pub fn action(&self) -> Action {
        match self {
            MoneyCommand::Pay { .. } | MoneyCommand::PayEach { .. } => Action::TakePayment,
            MoneyCommand::CancelFee { .. } => Action::CancelFee,
            MoneyCommand::Refund { .. } => Action::Refund,
            MoneyCommand::RefundDue { .. } => Action::RefundDue,
            MoneyCommand::MarkCondition { .. } => Action::MarkRefundCondition,
        }
    }
}

/// Which way money moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Taken from the player (缴费).
    Paid,
    /// A payment taken back (撤销缴费).
    Cancelled,
    /// A deposit given back (退还押金).
    Refunded,
}

/// One movement of money and where it leaves the player's item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub player: PlayerId,
    /// The player as the desk names him (「P3 张三」).
    pub who: String,
    /// The money item of the regulation's `charges` (「报名费」, 「押金」); `None`: the event's
    /// one fee of a regulation without money items.
    pub item: Option<String>,
    pub direction: Direction,
    pub amount_fen: u64,
    /// What he has paid of the item afterwards, in all.
    pub paid_fen: u64,
    /// What of it was given back, in all, afterwards.
    pub refunded_fen: u64,
    /// What the regulation charges him of the item (`None`: no fee set).
    pub due_fen: Option<u64>,
}

impl Moved {
    /// What he still owes of the item afterwards (0: paid in full, or nothing due).
    pub fn owed_fen(&self) -> u64 {
        self.due_fen.map_or(0, |d| d.saturating_sub(self.paid_fen))
    }
    /// What of it is held afterwards (paid less refunded).
    pub fn held_fen(&self) -> u64 {
        self.paid_fen.saturating_sub(self.refunded_fen)
    }
    /// The item as the fee's status (已缴清 100元, 已缴 50元, 尚欠 50元 …).
    pub fn status(&self) -> entries::FeeStatus {
        entries::FeeStatus {
            paid_fen: self.paid_fen,
            due_fen: self.due_fen,
        }
    }
}

/// The movements of `entries` (decided on `state`, in order).
pub(crate) fn moved(state: &EventState, entries: &[LogEntry]) -> Vec<Moved> {
    // Per (player, item): paid and refunded after the entries before.
    let mut acc: std::collections::BTreeMap<(PlayerId, String), (u64, u64)> =
        std::collections::BTreeMap::new();
    let mut out = Vec::new();
    // A regulation with one fee and no money items: the player's fee as before.
    let legacy = state
        .regulation()
        .is_ok_and(|r| r.registration.charges.is_empty());
    for e in entries {
        let (player, item, amount_fen, direction) = match e {
            LogEntry::FeePaid {
                player,
                amount_fen,
                item,
                ..
            } => (*player, item.clone(), *amount_fen, Direction::Paid),
            LogEntry::FeeCancelled {
                player,
                amount_fen,
                item,
            } => (*player, item.clone(), *amount_fen, Direction::Cancelled),
            LogEntry::DepositRefunded {
                player,
                item,
                amount_fen,
                ..
            } => (
                *player,
                Some(item.clone()),
                *amount_fen,
                Direction::Refunded,
            ),
            _ => continue,
        };
        let Some(rec) = state.player(player) else {
            continue;
        };
        let recorded = item.clone();
        let item = item.unwrap_or_else(|| state.default_item());
        let (paid, refunded) = acc.entry((player, item.clone())).or_insert_with(|| {
            if legacy {
                (rec.paid_fen, 0)
            } else {
                rec.money
                    .get(&item)
                    .map_or((0, 0), |m| (m.paid_fen, m.refunded_fen))
            }
        });
        match direction {
            Direction::Paid => *paid += amount_fen,
            Direction::Cancelled => *paid = paid.saturating_sub(amount_fen),
            Direction::Refunded => *refunded += amount_fen,
        }
        let due = if legacy {
            entries::fee_status(state, player).and_then(|f| f.due_fen)
        } else {
            state
                .dues(rec)
                .into_iter()
                .find(|d| d.name == item)
                .map(|d| d.fen)
        };
        out.push(Moved {
            player,
            who: entries::named(state, player),
            item: recorded,
            direction,
            amount_fen,
            paid_fen: *paid,
            refunded_fen: *refunded,
            due_fen: due,
        });
    }
    out
}

pub(super) fn decide(
    state: &EventState,
    ctx: &Ctx,
    cmd: &MoneyCommand,
) -> Result<(Vec<LogEntry>, Outcome), DirectorError> {
    let mut left_out = Vec::new();
    let entries = match cmd {
        MoneyCommand::Pay {
            player,
            item,
            amount_fen,
            receipt,
        } => money::pay(
            state,
            ctx,
            *player,
            item.as_deref(),
            *amount_fen,
            receipt.as_deref(),
        )?,
        MoneyCommand::PayEach { players } => {
            let (es, out) = entries::for_each(state, ctx, players, |s, c, p| {
                entries::pay_fee(s, c, p, None, None)
            })?;
            left_out = out;
            es
        }
        MoneyCommand::CancelFee { player } => entries::cancel_fee(state, ctx, *player)?,
        MoneyCommand::Refund {
            player,
            item,
            amount_fen,
            reason,
        } => {
            let item = item.clone().unwrap_or_else(|| state.default_deposit());
            money::refund(state, *player, &item, *amount_fen, reason.as_deref())?
        }
        MoneyCommand::RefundDue { rule } => money::refund_due(state, *rule)?,
        MoneyCommand::MarkCondition {
            player,
            condition,
            met,
        } => money::mark_condition(state, *player, condition, *met)?,
    };
    let outcome = match cmd {
        MoneyCommand::MarkCondition { player, .. } => Outcome::Player {
            who: entries::named(state, *player),
            withdrawn: None,
        },
        _ => Outcome::Money {
            moved: moved(state, &entries),
            left_out,
        },
    };
    Ok((entries, outcome))
}
