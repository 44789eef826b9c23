//! `arbiter award`: the organiser's awards (S10: 最佳组织奖、最佳赛风赛纪奖).

use super::rounds::Writer;
use arbiter_director::api::awards;
use arbiter_director::command::event::EventCommand;
use arbiter_director::command::Outcome;
use clap::Args;

/// `arbiter award`.
#[derive(Args)]
pub struct AwardArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    pub event: String,
    /// 奖项名称, 如 最佳组织奖 (规程 special_awards) — the award, as the regulation names it;
    /// without it, the awards and who has them are listed
    #[arg(long)]
    pub award: Option<String>,
    /// 获奖单位、队伍或棋手 (姓名或登记号 P12), 可重复 — recipient (unit, team or player), repeatable
    #[arg(long = "to", value_name = "RECIPIENT")]
    pub to: Vec<String>,
    /// 收回该奖项 — take the award back
    #[arg(long, conflicts_with = "to")]
    pub withdraw: bool,
    /// 理由 — reason (recorded in the log)
    #[arg(long, default_value = "")]
    pub reason: String,
    #[command(flatten)]
    pub who: Writer,
}

pub fn run(a: AwardArgs) -> anyhow::Result<u8> {
    let Some(award) = a.award.as_deref() else {
        return list(&a);
    };
    if a.to.is_empty() && !a.withdraw {
        eprintln!(
            "错误 error: 请用 --to 指明获奖者, 或用 --withdraw 收回奖项 (name a recipient with --to, or take the award back with --withdraw)"
        );
        return Ok(2);
    }
    let to = if a.withdraw { Vec::new() } else { a.to.clone() };
    let r = a.who.apply(
        &a.event,
        EventCommand::GiveSpecialAward {
            award: award.to_string(),
            recipients: to,
            reason: a.reason.clone(),
        },
    )?;
    match r {
        Ok(done) => {
            if let Outcome::Awarded { award, recipients } = &done.outcome {
                if recipients.is_empty() {
                    println!("已收回「{award}」 (award taken back)");
                } else {
                    println!("已授予 {}「{award}」 (award given)", recipients.join("、"));
                }
            }
            Ok(0)
        }
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            Ok(2)
        }
    }
}

fn list(a: &AwardArgs) -> anyhow::Result<u8> {
    let state = match super::load_state(&a.who.db, &a.event)? {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("错误 error: {msg}");
            return Ok(2);
        }
    };
    let rows = match awards::special_awards(&state) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("错误 error: {e}");
            return Ok(2);
        }
    };
    if rows.is_empty() {
        println!("规程未设组委会奖项 (the regulation has no organiser's awards)");
    }
    let cur = arbiter_director::regulation_of(&state)
        .map(|r| r.event.prize_currency)
        .unwrap_or_default();
    for r in rows {
        let amount = r
            .amount_yuan
            .map(|y| format!(", 每个 {}", cur.amount_apart(y, true)))
            .unwrap_or_default();
        let who = if r.recipients.is_empty() {
            "尚未授予 (not given yet)".to_string()
        } else {
            r.recipients.join("、")
        };
        println!("{} ({} 个{amount}): {who}", r.award, r.count);
    }
    Ok(0)
}
