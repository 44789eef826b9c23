//! The registration desk's commands (报名处): `fee`, `checkin`, `draw`. Each parses its flags,
//! calls one operation of `arbiter_director::api::entries` through [`super::apply_op_as`] and
//! prints what was recorded.

use super::rounds::Writer;
use arbiter_core::PlayerId;
use arbiter_director::api::entries as api;
use arbiter_director::command::money::MoneyCommand;
use arbiter_director::command::registration::RegistrationCommand;
use arbiter_director::command::Outcome;
use clap::Args;

#[derive(Args)]
pub struct FeeArgs {
    /// 赛事编号 — event id (ev-00000001)
    #[arg(long)]
    event: String,
    /// 报名号 — registration id as `player add` / `player import` print it (P3 or 3); `draw` lists it beside each 序号
    #[arg(long)]
    player: String,
    /// 金额 (元, 至多两位小数) — amount in yuan (default: the regulation's fee for the section)
    #[arg(long)]
    amount: Option<String>,
    /// 收据编号 — receipt number (recorded)
    #[arg(long)]
    receipt: Option<String>,
    /// 收费项目 — the regulation's money item paid (报名费, 押金 …; default: the first he still owes)
    #[arg(long)]
    item: Option<String>,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct CheckinArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 报名号 — registration id (P3 or 3), also after the draw (`draw` lists it beside each 序号)
    #[arg(long)]
    player: String,
    /// 已签承诺书 — the player signed the pledge the regulation asks for at check-in (T7: 个人安全承诺书)
    #[arg(long)]
    pledge: bool,
    #[command(flatten)]
    who: Writer,
}

#[derive(Args)]
pub struct DrawArgs {
    /// 赛事编号 — event id
    #[arg(long)]
    event: String,
    /// 组别 — section id (or its Chinese name)
    #[arg(long)]
    section: String,
    #[command(flatten)]
    who: Writer,
}

/// A player id as printed (`P3`) or bare (`3`).
pub(crate) fn parse_player(s: &str) -> Result<PlayerId, String> {
    let t = s.trim();
    let digits = t
        .strip_prefix('P')
        .or_else(|| t.strip_prefix('p'))
        .unwrap_or(t);
    match digits.parse::<u32>() {
        Ok(n) if n > 0 => Ok(PlayerId(n)),
        _ => Err(format!(
            "--player 「{s}」: 应为棋手的报名号, 例如 P3 或 3 (抽签后的序号不在此处使用) (expected a registration id such as P3)"
        )),
    }
}

/// Yuan with at most two decimals (`120`, `120.5`, `120.50`) as fen, exactly.
pub(crate) fn parse_yuan(s: &str) -> Result<u64, String> {
    let bad = || {
        format!("--amount 「{s}」: 应为金额 (元), 至多两位小数, 例如 120 或 80.50 (expected yuan)")
    };
    let t = s.trim().trim_end_matches('元');
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty()
        || frac.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let w: u64 = whole.parse().map_err(|_| bad())?;
    let f: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<2}").parse().map_err(|_| bad())?
    };
    w.checked_mul(100)
        .and_then(|x| x.checked_add(f))
        .ok_or_else(bad)
}

/// An error for a `--at` that is not RFC 3339.
pub(crate) fn checked_time(at: Option<&str>) -> Option<String> {
    let t = at?;
    arbiter_core::time::china_local(t).is_none().then(|| {
        format!("--at 「{t}」 不是 RFC 3339 时间, 例如 2026-09-01T10:00:00+08:00 (bad time)")
    })
}

/// Print a refusal and give exit code 2.
pub(crate) fn refused(msg: &str) -> u8 {
    eprintln!("错误 error: {msg}");
    2
}

pub fn fee(a: FeeArgs) -> anyhow::Result<u8> {
    let p = match parse_player(&a.player) {
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
    match a.who.apply(
        &a.event,
        MoneyCommand::Pay {
            player: p,
            item: a.item.clone(),
            amount_fen: amount,
            receipt: a.receipt.clone(),
        },
    )? {
        Ok(done) => {
            let Outcome::Money { moved, .. } = done.outcome else {
                return Ok(0);
            };
            for m in &moved {
                let (p, amount_fen) = (&m.who, &m.amount_fen);
                if let Some(item) = &m.item {
                    let (paid, owed) = (m.paid_fen, m.owed_fen());
                    if owed > 0 {
                        println!(
                            "已收部分「{item}」 part of 「{item}」 received: {p} {}; 已缴 {}, 尚欠 {} (paid {}; {} still owed)",
                            api::yuan(*amount_fen),
                            api::yuan(paid),
                            api::yuan(owed),
                            api::yuan(paid),
                            api::yuan(owed)
                        );
                    } else {
                        println!(
                            "已缴「{item}」 paid 「{item}」: {p} {}; 已缴清 {} (paid in full)",
                            api::yuan(*amount_fen),
                            api::yuan(paid)
                        );
                    }
                    continue;
                }
                // What he has paid now against the fee: a part paid says what is owed.
                let st = m.status();
                if st.owed_fen() > 0 {
                    println!(
                        "已收部分费用 part of the fee received: {p} {}; {st}",
                        api::yuan(*amount_fen)
                    )
                } else {
                    println!("已缴费 fee paid: {p} {}; {st}", api::yuan(*amount_fen))
                }
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn checkin(a: CheckinArgs) -> anyhow::Result<u8> {
    let p = match parse_player(&a.player) {
        Ok(p) => p,
        Err(e) => return Ok(refused(&e)),
    };
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    match a.who.apply(
        &a.event,
        RegistrationCommand::CheckIn {
            player: p,
            pledge: Some(a.pledge),
        },
    )? {
        Ok(done) => {
            println!("已检录 checked in: {}", who(&done.outcome));
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn draw(a: DrawArgs) -> anyhow::Result<u8> {
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    match a.who.apply(
        &a.event,
        RegistrationCommand::Draw {
            section: a.section.clone(),
        },
    )? {
        Ok(done) => {
            if let Outcome::Drawn {
                section,
                seed,
                numbering,
                players,
                groups,
            } = &done.outcome
            {
                println!(
                    "组别 {section} 抽签完成 numbers drawn: {} 人, 种子 seed {seed}, {numbering}",
                    players.len()
                );
                // From here on the pairing number is the player's number; the registration
                // id beside it, labelled, finds his entry.
                println!("  序号  姓名 (单位)  报名号");
                for (i, (p, who)) in players.iter().enumerate() {
                    println!("  {:>4}  {who}  报名号 {p}", i + 1);
                }
                if let Some(g) = groups {
                    println!("{g}");
                }
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

/// The player a command was about, as the director named him.
pub(crate) fn who(o: &Outcome) -> &str {
    match o {
        Outcome::Player { who, .. } => who,
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yuan_and_player_ids_parse_exactly() {
        assert_eq!(parse_yuan("120"), Ok(12000));
        assert_eq!(parse_yuan("80.5"), Ok(8050));
        assert_eq!(parse_yuan("80.05元"), Ok(8005));
        assert!(parse_yuan("80.055").is_err());
        assert!(parse_yuan("-3").is_err());
        assert!(parse_yuan(".5").is_err());
        assert_eq!(parse_player("P12"), Ok(PlayerId(12)));
        assert_eq!(parse_player("7"), Ok(PlayerId(7)));
        assert!(parse_player("P0").is_err());
        assert!(parse_player("张三").is_err());
    }
}
