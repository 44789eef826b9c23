//! The score slips (记分单) of a round: one per board.

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, Table};
use arbiter_director::api::rounds;

pub(super) fn slips(cx: &Ctx, head: &str, sheet: &rounds::RoundSheet, blocks: &mut Vec<Block>) {
    for (i, b) in sheet.boards.iter().enumerate() {
        let mut inner = Vec::new();
        let mut h = match cx.lang {
            Lang::Zh => format!("{head} 第{}台 记录单", b.board),
            Lang::En => format!("{head} board {} result slip", b.board),
        };
        if let Some(m) = sheet.knockout.get(i) {
            h.push_str(&format!(" · {m}"));
        }
        inner.push(Block::Heading(h));
        inner.push(Block::Table(Table {
            id: format!("slip-{}-{}-{}", sheet.section, sheet.round, b.board),
            caption: None,
            columns: vec![
                col("side", "", Align::Center, 5),
                col("no", cx.t("序号", "No."), Align::Right, 5),
                col("name", cx.t("姓名", "Name"), Align::Left, 12),
                col("unit", cx.t("单位", "Unit"), Align::Left, 20),
                col("score", cx.t("积分", "Pts"), Align::Right, 5),
                col(
                    "result",
                    cx.t("结果(请圈选)", "Result (circle)"),
                    Align::Center,
                    18,
                ),
            ],
            rows: vec![
                vec![
                    Cell::text(cx.t("红方", "Red")),
                    Cell::Int(b.red.no as i64),
                    Cell::text(&b.red.name),
                    Cell::opt(b.red.unit.as_deref()),
                    Cell::Score(b.red.score),
                    Cell::text(cx.t("胜 · 和 · 负", "win · draw · loss")),
                ],
                vec![
                    Cell::text(cx.t("黑方", "Black")),
                    Cell::Int(b.black.no as i64),
                    Cell::text(&b.black.name),
                    Cell::opt(b.black.unit.as_deref()),
                    Cell::Score(b.black.score),
                    Cell::text(cx.t("胜 · 和 · 负", "win · draw · loss")),
                ],
            ],
        }));
        inner.push(Block::Signatures(vec![
            cx.t("红方签名", "Red signs").to_string(),
            cx.t("黑方签名", "Black signs").to_string(),
            cx.t("裁判员签名", "Arbiter").to_string(),
        ]));
        blocks.push(Block::KeepTogether(inner));
    }
}
