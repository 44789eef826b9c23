//! The prize receipts (奖励签收表): every prize winner with the amount the regulation gives
//! (税前 when it says so), the ID number (masked unless the organiser's copy) and a column to
//! sign; the total under the table. Only once the prizes are fixed, as the prize list.

use super::prizes::winners;
use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, Privacy, ReportError, Table};
use arbiter_types::Score;

pub(super) fn prize_receipts(cx: &Ctx, privacy: Privacy) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let ws = winners(cx, &ex);
    if ws.is_empty() {
        return Err(ReportError::Nothing(
            "尚无获奖名单: 赛事结束(event close)后才确定奖项 (no prizes yet: they are fixed when the event is closed)"
                .to_string(),
        ));
    }
    // `winners` keeps the export's order of the prizes of the sections covered: the same
    // filter gives each winner's prize row (for the player behind the number).
    let rows_of: Vec<&arbiter_director::export::PrizeRow> = ex
        .prizes
        .iter()
        .filter(|p| cx.sections.contains(&p.section))
        .collect();
    let amount_head = super::prizes::amount_head(cx, &ex);
    let amount_head = amount_head.as_str();
    let mut total = Score::points(0);
    let mut rows = Vec::new();
    for (k, (w, pr)) in ws.iter().zip(&rows_of).enumerate() {
        let id_number = pr.no.and_then(|no| {
            let numbers = arbiter_director::publish::publish_numbers(cx.state, &pr.section);
            let pid = numbers.iter().find(|(_, n)| **n == no).map(|(p, _)| *p)?;
            let rec = cx.state.player(pid)?;
            rec.person.id_number.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            })
        });
        if let Some(a) = w.amount {
            total += a;
        }
        let place = match (&w.category, cx.lang) {
            (Some(c), Lang::Zh) => format!("{c} 第{}名", w.rank),
            (None, Lang::Zh) => format!("第{}名", w.rank),
            (Some(c), Lang::En) => format!("{c} {}", w.rank),
            (None, Lang::En) => w.rank.to_string(),
        };
        let what: Vec<String> = w
            .title
            .iter()
            .cloned()
            .chain(w.honours(cx.lang).into_iter().map(str::to_string))
            .chain(w.item.iter().cloned())
            .collect();
        rows.push(vec![
            Cell::Int(k as i64 + 1),
            Cell::Text(cx.section_name(&w.section)),
            Cell::Text(place),
            Cell::Text(w.who.clone()),
            Cell::opt(w.unit.as_deref()),
            w.amount.map_or(Cell::Empty, Cell::Score),
            Cell::Text(what.join(cx.t("、", ", "))),
            id_number.map_or(Cell::Empty, Cell::Text),
            Cell::Empty,
        ]);
    }
    // S10: the organiser's awards given by name (最佳组织奖 …) are paid against a signature too.
    for (a, r) in ex
        .special_awards
        .iter()
        .flat_map(|a| a.recipients.iter().map(move |r| (a, r)))
    {
        if let Some(m) = a.amount {
            total += m;
        }
        rows.push(vec![
            Cell::Int(rows.len() as i64 + 1),
            Cell::text(cx.t("组委会奖项", "Organiser's award")),
            Cell::Text(a.award.clone()),
            Cell::Text(r.clone()),
            Cell::Empty,
            a.amount.map_or(Cell::Empty, Cell::Score),
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
        ]);
    }
    let mut blocks = vec![Block::Table(Table {
        id: "prize-receipts".to_string(),
        caption: None,
        columns: vec![
            col("seq", cx.t("序", "#"), Align::Right, 4),
            col("section", cx.t("组别", "Section"), Align::Left, 10),
            col("place", cx.t("名次", "Place"), Align::Left, 10),
            col("winner", cx.t("姓名", "Name"), Align::Left, 10),
            col("unit", cx.t("单位", "Unit"), Align::Left, 16),
            col("amount", amount_head, Align::Right, 10),
            col("items", cx.t("称号/奖品", "Title/items"), Align::Left, 10),
            col("id_number", cx.t("身份证号", "ID number"), Align::Left, 19),
            col("signature", cx.t("签名", "Signature"), Align::Left, 14),
        ],
        rows,
    })];
    blocks.push(Block::Paragraph(super::prizes::total_line(cx, &ex, total)));
    blocks.push(Block::Signatures(vec![
        cx.t("经办人", "Paid by").to_string(),
        cx.t("财务", "Treasurer").to_string(),
        cx.t("日期", "Date").to_string(),
    ]));
    Ok(blocks)
}
