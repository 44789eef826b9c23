//! Money at the desk beyond the fee (`fee --item` pays any item): `refund` (a player's
//! deposit, or every deposit due back under a rule), `refund-condition` (the organiser's
//! refund conditions per player), `cash` (the event's cash report, `--json`). Each calls
//! `arbiter_director::api::money`.

use super::desk::{checked_time, parse_player, parse_yuan, refused};
use super::rounds::Writer;
use arbiter_director::api::entries as desk;
use arbiter_director::api::money as api;
use arbiter_director::command::money::{MoneyCommand, Moved};
use arbiter_director::command::Outcome;
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

fn print_refunds(moved: &[Moved]) {
    let mut total = 0;
    for m in moved {
        total += m.amount_fen;
        let item = m.item.as_deref().unwrap_or_default();
        println!(
            "已退还「{item}」 refunded 「{item}」: {} {}",
            m.who,
            desk::yuan(m.amount_fen)
        );
    }
    if moved.len() > 1 {
        println!(
            "共退还 {}人次 {} (refunded {} in all)",
            moved.len(),
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
    let cmd = match (p, a.due.as_deref()) {
        (_, Some(due)) => MoneyCommand::RefundDue { rule: rule(due) },
        (Some(p), None) => MoneyCommand::Refund {
            player: p,
            item: a.item.clone(),
            amount_fen: amount,
            reason: a.reason.clone(),
        },
        (None, None) => {
            return Ok(refused(
                &arbiter_director::Refusal::NobodyChosen.to_string(),
            ))
        }
    };
    match a.who.apply(&a.event, cmd)? {
        Ok(done) => {
            if let Outcome::Money { moved, .. } = &done.outcome {
                print_refunds(moved);
            }
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
    match a.who.apply(
        &a.event,
        MoneyCommand::MarkCondition {
            player: p,
            condition: a.condition.clone(),
            met: !a.unmark,
        },
    )? {
        Ok(done) => {
            let who = super::desk::who(&done.outcome);
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
