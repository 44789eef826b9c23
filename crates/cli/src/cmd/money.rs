//! Money at the desk beyond the fee (`fee --item` pays any item): `refund` (a player's
//! deposit, or every deposit due back under a rule), `refund-condition` (the organiser's
//! refund conditions per player), `cash` (the event's cash report, `--json`). Each calls
//! `arbiter_director::api::money`.

use super::desk::{checked_time, parse_player, parse_yuan, refused};
use super::rounds::Writer;
use arbiter_core::LogEntry;
use arbiter_director::api::entries as desk;
use arbiter_director::api::money as api;
use arbiter_regulation::RefundAt;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct RefundArgs {
    /// 赛事编号 — event id (ev-00000001)
    #[arg(long)]
    event: String,
    /// 报名号 — the player whose deposit is refunded (P3 or 3)
    #[arg(long, conflicts_with = "due", required_unless_present = "due")]
    player: Option<String>,
    /// 押金项目 — the deposit refunded (default: the regulation's first deposit)
    #[arg(long)]
    item: Option<String>,
    /// 金额 (元) — amount in yuan (default: all he holds of it)
    #[arg(long)]
    amount: Option<String>,
    /// 说明 — why (recorded, e.g. 损坏棋具扣除)
    #[arg(long)]
    reason: Option<String>,
    /// 批量退还 — refund every deposit due back under this rule: last_round, closing, on_conditions
    #[arg(long, value_parser = ["last_round", "closing", "on_conditions"])]
    due: Option<String>,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct ConditionArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 报名号 — registration id (P3 or 3)
    #[arg(long)]
    player: String,
    /// 退还条件 — a refund condition of the regulation (完成全部对局)
    #[arg(long)]
    condition: String,
    /// 取消 — take the mark back
    #[arg(long)]
    unmark: bool,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct CashArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// JSON 输出 (金额为分) — JSON, amounts in fen
    #[arg(long)]
    json: bool,
    /// 数据库文件 — database file
    #[arg(long, default_value = super::DEFAULT_DB)]
    db: PathBuf,
}

fn rule(s: &str) -> RefundAt {
    match s {
        "closing" => RefundAt::Closing,
        "on_conditions" => RefundAt::OnConditions,
        _ => RefundAt::LastRound,
    }
}

fn print_refunds(entries: &[LogEntry], name: impl Fn(arbiter_core::PlayerId) -> String) {
    let mut total = 0;
    for e in entries {
        if let LogEntry::DepositRefunded {
            player,
            item,
            amount_fen,
            ..
        } = e
        {
            total += amount_fen;
            println!(
                "已退还「{item}」 refunded 「{item}」: {} {}",
                name(*player),
                desk::yuan(*amount_fen)
            );
        }
    }
    if entries.len() > 1 {
        println!(
            "共退还 {}人次 {} (refunded {} in all)",
            entries.len(),
            desk::yuan(total),
            desk::yuan(total)
        );
    }
}

pub fn refund(a: RefundArgs) -> anyhow::Result<u8> {
    let p = match a.player.as_deref().map(parse_player).transpose() {
        Ok(p) => p,
        Err(e) => return Ok(refused(&e)),
    };
    let amount = match a.amount.as_deref().map(parse_yuan).transpose() {
        Ok(x) => x,
        Err(e) => return Ok(refused(&e)),
    };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let mut names = std::collections::BTreeMap::new();
    match a.who.apply(&a.event, |s, c| {
        names = s
            .players
            .keys()
            .map(|id| (*id, desk::named(s, *id)))
            .collect();
        match (p, a.due.as_deref()) {
            (_, Some(due)) => api::refund_due(s, c, rule(due)),
            (Some(p), None) => {
                let item = a.item.clone().unwrap_or_else(|| s.default_deposit());
                api::refund(s, c, p, &item, amount, a.reason.as_deref())
            }
            (None, None) => Err(arbiter_director::Refusal::NobodyChosen.into()),
        }
    })? {
        Ok(done) => {
            print_refunds(&done.entries, |id| {
                names.get(&id).cloned().unwrap_or_else(|| id.to_string())
            });
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn condition(a: ConditionArgs) -> anyhow::Result<u8> {
    let p = match parse_player(&a.player) {
        Ok(p) => p,
        Err(e) => return Ok(refused(&e)),
    };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let mut who = p.to_string();
    match a.who.apply(&a.event, |s, c| {
        who = desk::named(s, p);
        api::mark_condition(s, c, p, &a.condition, !a.unmark)
    })? {
        Ok(_) => {
            if a.unmark {
                println!(
                    "已取消退还条件「{}」 condition taken back: {who}",
                    a.condition.trim()
                );
            } else {
                println!(
                    "已确认退还条件「{}」 condition marked: {who}",
                    a.condition.trim()
                );
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn cash(a: CashArgs) -> anyhow::Result<u8> {
    let state = match super::load_state(&a.db, &a.event)? {
        Ok(s) => s,
        Err(e) => return Ok(refused(&e)),
    };
    let report = match api::cash_report(&state) {
        Ok(r) => r,
        Err(e) => return Ok(refused(&e.to_string())),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.text());
    }
    Ok(0)
}
