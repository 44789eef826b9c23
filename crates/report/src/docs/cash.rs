//! The cash report for the treasurer (收支表): the event's items as `arbiter cash` gives them
//! (due, collected, refunded, owed, held, payers; the total), then every player of the
//! sections covered with what he owes, has paid and been given back; totals per section.
//! No ID number or phone: names and units only.

use super::{col, section_start, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::api::money::cash_report;

pub(super) fn cash(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let report = cash_report(cx.state).map_err(|e| ReportError::Event(e.to_string()))?;
    let mut blocks = Vec::new();
    let kind = |k: &str| match k {
        "fee" => cx.t("费用", "fee"),
        "deposit" => cx.t("押金", "deposit"),
        "protest_deposit" => cx.t("仲裁申诉, 胜诉退还", "protest, returned if upheld"),
        _ => "",
    };
    let rows = report
        .items
        .iter()
        .chain(std::iter::once(&report.total))
        .map(|l| {
            vec![
                Cell::Text(if l.kind == "total" {
                    cx.t("合计", "Total").to_string()
                } else {
                    l.item.clone()
                }),
                Cell::text(kind(l.kind)),
                Cell::Money(l.due_fen),
                Cell::Money(l.collected_fen),
                Cell::Money(l.refunded_fen),
                Cell::Money(l.owed_fen),
                Cell::Money(l.held_fen),
                Cell::Int(i64::from(l.payers)),
            ]
        })
        .collect();
    blocks.push(Block::Table(Table {
        id: "cash-items".to_string(),
        caption: Some(cx.t("收支汇总 (全赛事)", "Items (whole event)").to_string()),
        columns: vec![
            col("item", cx.t("项目", "Item"), Align::Left, 14),
            col("kind", cx.t("类别", "Kind"), Align::Left, 12),
            col("due", cx.t("应收", "Due"), Align::Right, 10),
            col("collected", cx.t("已收", "Collected"), Align::Right, 10),
            col("refunded", cx.t("已退", "Refunded"), Align::Right, 10),
            col("owed", cx.t("尚欠", "Owed"), Align::Right, 10),
            col("held", cx.t("结存", "Held"), Align::Right, 10),
            col("payers", cx.t("缴费人数", "Payers"), Align::Right, 7),
        ],
        rows,
    }));
    blocks.push(Block::PageBreak);
    for (i, sid) in cx.sections.iter().enumerate() {
        section_start(cx, i, sid, &mut blocks);
        let mut players = cx.state.players(sid);
        players.sort_by(|a, b| (&a.person.unit, a.id).cmp(&(&b.person.unit, b.id)));
        let (mut t_due, mut t_paid, mut t_ref, mut t_owed) = (0u64, 0u64, 0u64, 0u64);
        let mut rows = Vec::new();
        for (k, p) in players.iter().enumerate() {
            let dues = if p.withdrawn.is_none() {
                cx.state.dues(p)
            } else {
                Vec::new()
            };
            let due: u64 = dues.iter().map(|d| d.fen).sum();
            let owed: u64 = dues
                .iter()
                .map(|d| {
                    let paid = p.money.get(&d.name).map_or(0, |m| m.paid_fen);
                    d.fen.saturating_sub(paid)
                })
                .sum();
            let paid: u64 = p.money.values().map(|m| m.paid_fen).sum();
            let refunded: u64 = p.money.values().map(|m| m.refunded_fen).sum();
            t_due += due;
            t_paid += paid;
            t_ref += refunded;
            t_owed += owed;
            let items: Vec<String> = p
                .money
                .iter()
                .filter(|(_, m)| m.paid_fen > 0)
                .map(|(n, _)| n.clone())
                .collect();
            rows.push(vec![
                Cell::Int(k as i64 + 1),
                Cell::text(&p.person.name),
                Cell::opt(p.person.unit.as_deref().or(p.person.association.as_deref())),
                Cell::Money(due),
                Cell::Money(paid),
                Cell::Money(refunded),
                if owed == 0 {
                    Cell::Empty
                } else {
                    Cell::Money(owed)
                },
                Cell::Text(items.join(cx.t("、", ", "))),
                Cell::text(if p.withdrawn.is_some() {
                    cx.t("退赛", "withdrawn")
                } else {
                    ""
                }),
            ]);
        }
        if rows.is_empty() {
            continue;
        }
        rows.push(vec![
            Cell::Empty,
            Cell::text(cx.t("合计", "Total")),
            Cell::Empty,
            Cell::Money(t_due),
            Cell::Money(t_paid),
            Cell::Money(t_ref),
            Cell::Money(t_owed),
            Cell::Empty,
            Cell::Empty,
        ]);
        blocks.push(Block::Table(Table {
            id: format!("cash-{sid}"),
            caption: Some(match cx.lang {
                Lang::Zh => format!("{} 个人缴费明细", cx.section_name(sid)),
                Lang::En => format!("{}: by player", cx.section_name(sid)),
            }),
            columns: vec![
                col("seq", cx.t("序", "#"), Align::Right, 4),
                col("name", cx.t("姓名", "Name"), Align::Left, 10),
                col("unit", cx.t("单位", "Unit"), Align::Left, 20),
                col("due", cx.t("应缴", "Due"), Align::Right, 9),
                col("paid", cx.t("已缴", "Paid"), Align::Right, 9),
                col("refunded", cx.t("已退", "Refunded"), Align::Right, 9),
                col("owed", cx.t("欠缴", "Owed"), Align::Right, 9),
                col("items", cx.t("缴费项目", "Items paid"), Align::Left, 14),
                col("status", cx.t("备注", "Note"), Align::Center, 6),
            ],
            rows,
        }));
    }
    blocks.push(Block::Signatures(vec![
        cx.t("制表", "Prepared by").to_string(),
        cx.t("财务", "Treasurer").to_string(),
        cx.t("日期", "Date").to_string(),
    ]));
    Ok(blocks)
}
