//! The results (成绩公告) of a round: one table per section.

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, Table};
use arbiter_director::api::rounds;
use arbiter_types::GameResult;

fn result_words(cx: &Ctx, r: GameResult) -> &'static str {
    match (cx.lang, r) {
        (Lang::Zh, GameResult::RedWin) => "红胜",
        (Lang::Zh, GameResult::BlackWin) => "黑胜",
        (Lang::Zh, GameResult::Draw) => "和棋",
        (Lang::Zh, GameResult::BlackForfeit) => "黑方弃权",
        (Lang::Zh, GameResult::RedForfeit) => "红方弃权",
        (Lang::Zh, GameResult::DoubleForfeit) => "双方弃权",
        (Lang::En, GameResult::RedWin) => "1-0",
        (Lang::En, GameResult::BlackWin) => "0-1",
        (Lang::En, GameResult::Draw) => "draw",
        (Lang::En, GameResult::BlackForfeit) => "+- (forfeit)",
        (Lang::En, GameResult::RedForfeit) => "-+ (forfeit)",
        (Lang::En, GameResult::DoubleForfeit) => "-- (forfeit)",
    }
}

pub(super) fn results_table(
    cx: &Ctx,
    sid: &str,
    sheet: &rounds::RoundSheet,
    blocks: &mut Vec<Block>,
) {
    let columns = vec![
        col("board", cx.t("台次", "Board"), Align::Right, 5),
        col("red_no", cx.t("序号", "No."), Align::Right, 5),
        col("red_name", cx.t("红方", "Red"), Align::Left, 10),
        col("red_unit", cx.t("单位", "Unit"), Align::Left, 16),
        col("result", cx.t("结果", "Result"), Align::Center, 9),
        col("ending", cx.t("终局方式", "Ending"), Align::Center, 8),
        col("black_name", cx.t("黑方", "Black"), Align::Left, 10),
        col("black_unit", cx.t("单位", "Unit"), Align::Left, 16),
        col("black_no", cx.t("序号", "No."), Align::Right, 5),
    ];
    let mut missing = 0;
    let rows = sheet
        .boards
        .iter()
        .map(|b| {
            let res = b
                .result
                .as_deref()
                .and_then(|s| rounds::parse_result(s).ok());
            if res.is_none() {
                missing += 1;
            }
            vec![
                Cell::Int(b.board as i64),
                Cell::Int(b.red.no as i64),
                Cell::text(&b.red.name),
                Cell::opt(b.red.unit.as_deref()),
                res.map_or(Cell::text(cx.t("未录入", "pending")), |r| {
                    Cell::text(result_words(cx, r))
                }),
                match (cx.lang, b.ending) {
                    (_, None) => Cell::opt(None),
                    (Lang::Zh, Some(e)) => Cell::text(e.zh()),
                    (Lang::En, Some(e)) => Cell::text(e.en()),
                },
                Cell::text(&b.black.name),
                Cell::opt(b.black.unit.as_deref()),
                Cell::Int(b.black.no as i64),
            ]
        })
        .collect();
    blocks.push(Block::Table(Table {
        id: format!("results-{sid}-{}", sheet.round),
        caption: None,
        columns,
        rows,
    }));
    if let Some(b) = &sheet.bye {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("轮空: {} 号 {}", b.no, b.name),
            Lang::En => format!("Bye: No. {} {}", b.no, b.name),
        }));
    }
    if missing > 0 {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("尚有 {missing} 台成绩未录入"),
            Lang::En => format!("{missing} results not yet entered"),
        }));
    }
}
