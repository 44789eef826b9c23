//! Money items of a regulation (`[[registration.charges]]`): entry fees and deposits as
//! separate named items, the amount each player owes by his flags or category, and when a
//! deposit is refunded. A regulation with no `charges` has one fee item, 「报名费」, from
//! its `fee` (the section's, else the event's) — the meaning `fee` always had.

use crate::entry::EntryFacts;
use crate::model::{Fee, Regulation};
use serde::Deserialize;

/// The name of the one fee item a regulation without `charges` has (its `fee`).
pub const FEE_ITEM: &str = "报名费";

/// What kind of money an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChargeKind {
    /// 报名费 / 赛事服务费: kept, never refunded (a fee recorded by mistake is cancelled).
    Fee,
    /// 押金: held and refunded by its `refund_at` rule.
    Deposit,
}

impl ChargeKind {
    pub fn zh(self) -> &'static str {
        match self {
            ChargeKind::Fee => "费用",
            ChargeKind::Deposit => "押金",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            ChargeKind::Fee => "fee",
            ChargeKind::Deposit => "deposit",
        }
    }
}

/// When a deposit is refunded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundAt {
    /// Once the player's section has played its last round (results in).
    LastRound,
    /// At the closing: once every section has played its last round.
    Closing,
    /// As soon as the organiser has marked every one of its `refund_conditions` for him.
    OnConditions,
}

impl RefundAt {
    pub fn zh(self) -> &'static str {
        match self {
            RefundAt::LastRound => "最后一轮结束后退还",
            RefundAt::Closing => "闭幕时退还",
            RefundAt::OnConditions => "条件满足即退还",
        }
    }
    pub fn en(self) -> &'static str {
        match self {
            RefundAt::LastRound => "refunded after the last round",
            RefundAt::Closing => "refunded at the closing",
            RefundAt::OnConditions => "refunded once its conditions are marked",
        }
    }
    /// The word the rule is written with in a regulation (`last_round` …).
    pub fn key(self) -> &'static str {
        match self {
            RefundAt::LastRound => "last_round",
            RefundAt::Closing => "closing",
            RefundAt::OnConditions => "on_conditions",
        }
    }
}

/// An amount for the players with a flag or in a category (`amounts = [{ flag = "local",
/// yuan = 50 }]`): the first that applies, in the file's order, replaces the item's amount.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeAmount {
    #[serde(default)]
    pub flag: Option<String>,
    /// A category id of a section (`[[sections.categories]] id`).
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub yuan: u32,
    #[serde(default)]
    pub fen: u32,
}

/// One named money item (`[[registration.charges]]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Charge {
    /// 「报名费」, 「押金」 …, unique in the regulation.
    pub name: String,
    pub kind: ChargeKind,
    /// The amount, whole yuan and fen (never floating point); more than zero.
    #[serde(default)]
    pub yuan: u32,
    #[serde(default)]
    pub fen: u32,
    /// The sections it applies to (ids); every section when empty.
    #[serde(default)]
    pub sections: Vec<String>,
    /// Players with any of these flags owe nothing of it (e.g. `["local"]`, locals free).
    #[serde(default)]
    pub free_for_flags: Vec<String>,
    /// Players in any of these categories owe nothing of it.
    #[serde(default)]
    pub free_for_categories: Vec<String>,
    /// Other amounts by flag or category.
    #[serde(default)]
    pub amounts: Vec<ChargeAmount>,
    /// A deposit's refund rule (required for a deposit, refused on a fee).
    #[serde(default)]
    pub refund_at: Option<RefundAt>,
    /// Named conditions the organiser marks per player (「完成全部对局」「未弃权」); a deposit
    /// is refunded only when every one is marked.
    #[serde(default)]
    pub refund_conditions: Vec<String>,
    /// Whether it must be paid before the player is paired, when the regulation does not pair
    /// unpaid players (`unpaid_not_paired`). Default: yes, fees and deposits alike.
    #[serde(default)]
    pub before_play: Option<bool>,
}

impl Charge {
    pub fn base_fen(&self) -> u64 {
        Fee {
            yuan: self.yuan,
            fen: self.fen,
        }
        .total_fen()
    }
}

/// What one player owes of one item, as the regulation says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    pub name: String,
    pub kind: ChargeKind,
    /// The amount owed (0 when his flag or category frees him of it).
    pub fen: u64,
    /// Counted for pairing when unpaid players are not paired.
    pub before_play: bool,
    /// A deposit's rule (None for a fee).
    pub refund_at: Option<RefundAt>,
    pub refund_conditions: Vec<String>,
}

impl Regulation {
    /// The items a player of `section` with these facts owes, in the regulation's order: the
    /// `charges` that apply to his section, or, without `charges`, the one fee item of the
    /// regulation's `fee` (none when no fee is set).
    pub fn dues(&self, section: &str, facts: &EntryFacts) -> Vec<Due> {
        let sec = self.section(section);
        if self.registration.charges.is_empty() {
            let fee = sec
                .and_then(|s| s.entries.fee)
                .or(self.registration.fee)
                .map(|f| f.total_fen());
            return fee
                .map(|fen| Due {
                    name: FEE_ITEM.to_string(),
                    kind: ChargeKind::Fee,
                    fen,
                    before_play: true,
                    refund_at: None,
                    refund_conditions: Vec::new(),
                })
                .into_iter()
                .collect();
        }
        let in_cat = |id: &str| {
            sec.and_then(|s| s.category(id))
                .is_some_and(|c| c.matches(facts))
        };
        self.registration
            .charges
            .iter()
            .filter(|c| c.sections.is_empty() || c.sections.iter().any(|s| s == section))
            .map(|c| {
                let free = c.free_for_flags.iter().any(|f| facts.flags.contains(f))
                    || c.free_for_categories.iter().any(|k| in_cat(k));
                let other = c.amounts.iter().find(|a| {
                    a.flag.as_ref().is_some_and(|f| facts.flags.contains(f))
                        || a.category.as_deref().is_some_and(in_cat)
                });
                let fen = if free {
                    0
                } else if let Some(a) = other {
                    Fee {
                        yuan: a.yuan,
                        fen: a.fen,
                    }
                    .total_fen()
                } else {
                    c.base_fen()
                };
                Due {
                    name: c.name.clone(),
                    kind: c.kind,
                    fen,
                    before_play: c.before_play.unwrap_or(true),
                    refund_at: c.refund_at,
                    refund_conditions: c.refund_conditions.clone(),
                }
            })
            .collect()
    }

    /// Every money item of the regulation by name, in order: its `charges`, or the one fee
    /// item of its `fee`.
    pub fn charge_names(&self) -> Vec<(String, ChargeKind)> {
        if self.registration.charges.is_empty() {
            let any_fee = self.registration.fee.is_some()
                || self.sections.iter().any(|s| s.entries.fee.is_some());
            return if any_fee {
                vec![(FEE_ITEM.to_string(), ChargeKind::Fee)]
            } else {
                Vec::new()
            };
        }
        self.registration
            .charges
            .iter()
            .map(|c| (c.name.clone(), c.kind))
            .collect()
    }

    /// Every refund condition named by a deposit, each once, in the file's order.
    pub fn refund_conditions(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in &self.registration.charges {
            for k in &c.refund_conditions {
                if !out.contains(k) {
                    out.push(k.clone());
                }
            }
        }
        out
    }
}

/// Fen as yuan, exact (`12050` → `120.50元`).
pub fn yuan_text(fen: u64) -> String {
    if fen.is_multiple_of(100) {
        format!("{}元", fen / 100)
    } else {
        format!("{}.{:02}元", fen / 100, fen % 100)
    }
}
