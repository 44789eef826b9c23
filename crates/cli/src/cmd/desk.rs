//! The registration desk's commands (报名处): `fee`, `checkin`, `draw`. Each parses its flags,
//! calls one operation of `arbiter_director::api::entries` through [`super::apply_op_as`] and
//! prints what was recorded.

use super::rounds::Writer;
use arbiter_core::{LogEntry, PlayerId};
use arbiter_director::api::entries as api;
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
    let mut before = None;
    let mut who = p.to_string();
    let mut items: Vec<(String, u64, u64)> = Vec::new();
    match a.who.apply(&a.event, |s, c| {
        before = api::fee_status(s, p);
        who = api::named(s, p);
        // Each item's due and paid before this payment.
        items = s
            .player(p)
            .map(|rec| {
                s.dues(rec)
                    .into_iter()
                    .map(|d| {
                        let paid = rec.money.get(&d.name).map_or(0, |m| m.paid_fen);
                        (d.name, d.fen, paid)
                    })
                    .collect()
            })
            .unwrap_or_default();
        arbiter_director::api::money::pay(s, c, p, a.item.as_deref(), amount, a.receipt.as_deref())
    })? {
        Ok(done) => {
            let p = &who;
            for e in &done.entries {
                if let LogEntry::FeePaid {
                    amount_fen,
                    item: Some(item),
                    ..
                } = e
                {
                    let (due, paid) = items
                        .iter()
                        .find(|(n, _, _)| n == item)
                        .map_or((0, 0), |(_, d, pd)| (*d, *pd));
                    let paid = paid + amount_fen;
                    let owed = due.saturating_sub(paid);
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
                if let LogEntry::FeePaid { amount_fen, .. } = e {
                    // What he has paid now against the fee: a part paid says what is owed.
                    let now = before.map(|b| api::FeeStatus {
                        paid_fen: b.paid_fen + amount_fen,
                        ..b
                    });
                    match now {
                        Some(st) if st.owed_fen() > 0 => println!(
                            "已收部分费用 part of the fee received: {p} {}; {st}",
                            api::yuan(*amount_fen)
                        ),
                        Some(st) => {
                            println!("已缴费 fee paid: {p} {}; {st}", api::yuan(*amount_fen))
                        }
                        None => println!("已缴费 fee paid: {p} {}", api::yuan(*amount_fen)),
                    }
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
    let mut who = p.to_string();
    match a.who.apply(&a.event, |s, c| {
        who = api::named(s, p);
        api::check_in_pledged(s, c, p, a.pledge)
    })? {
        Ok(_) => {
            println!("已检录 checked in: {who}");
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
    }
}

pub fn draw(a: DrawArgs) -> anyhow::Result<u8> {
    if let Some(e) = checked_time(a.who.at.as_deref()) {
        return Ok(refused(&e));
    }
    let mut names = std::collections::BTreeMap::new();
    let mut how = "";
    let mut people = std::collections::BTreeMap::new();
    match a.who.apply(&a.event, |s, c| {
        names = super::rounds::section_names(s);
        people = s
            .players
            .values()
            .map(|p| {
                let unit = p
                    .unit
                    .as_deref()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default();
                (p.id, format!("{}{unit}", p.name))
            })
            .collect();
        let section = arbiter_director::api::import::section_id(s, &a.section);
        how = arbiter_director::registration::numbering_words(
            arbiter_director::registration::numbering_of(s, &section),
        );
        api::draw(s, c, &section)
    })? {
        Ok(done) => {
            for e in &done.entries {
                if let LogEntry::PairingNumbersDrawn {
                    section,
                    seed,
                    order,
                } = e
                {
                    let section = names.get(section).unwrap_or(section);
                    println!(
                        "组别 {section} 抽签完成 numbers drawn: {} 人, 种子 seed {seed}, {how}",
                        order.len()
                    );
                    // From here on the pairing number is the player's number; the
                    // registration id beside it, labelled, finds his entry.
                    println!("  序号  姓名 (单位)  报名号");
                    for (i, p) in order.iter().enumerate() {
                        let who = people.get(p).map_or("", String::as_str);
                        println!("  {:>4}  {who}  报名号 {p}", i + 1);
                    }
                }
            }
            Ok(0)
        }
        Err(e) => Ok(refused(&e)),
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
