//! The pairings (对阵表) of a round: one table per section.

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, Table};
use arbiter_director::api::rounds;

pub(super) fn pairings_table(
    cx: &Ctx,
    sid: &str,
    sheet: &rounds::RoundSheet,
    blocks: &mut Vec<Block>,
) {
    let ko = !sheet.knockout.is_empty();
    let mut columns = vec![col("board", cx.t("台次", "Board"), Align::Right, 5)];
    if ko {
        columns.push(col("match", cx.t("场次", "Match"), Align::Left, 16));
    }
    columns.extend([
        col("red_no", cx.t("序号", "No."), Align::Right, 5),
        col("red_name", cx.t("红方", "Red"), Align::Left, 10),
        col("red_unit", cx.t("单位", "Unit"), Align::Left, 16),
        col("red_score", cx.t("积分", "Pts"), Align::Right, 5),
        col("vs", "", Align::Center, 3),
        col("black_score", cx.t("积分", "Pts"), Align::Right, 5),
        col("black_name", cx.t("黑方", "Black"), Align::Left, 10),
        col("black_unit", cx.t("单位", "Unit"), Align::Left, 16),
        col("black_no", cx.t("序号", "No."), Align::Right, 5),
    ]);
    // T6: the boards that must keep a game record this round.
    if sheet.records.is_some() {
        columns.push(col("records", cx.t("录谱", "Record"), Align::Center, 5));
    }
    let rows = sheet
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut r = vec![Cell::Int(b.board as i64)];
            if ko {
                r.push(Cell::opt(sheet.knockout.get(i).map(String::as_str)));
            }
            r.extend([
                Cell::Int(b.red.no as i64),
                Cell::text(&b.red.name),
                Cell::opt(b.red.unit.as_deref()),
                Cell::Score(b.red.score),
                Cell::text("—"),
                Cell::Score(b.black.score),
                Cell::text(&b.black.name),
                Cell::opt(b.black.unit.as_deref()),
                Cell::Int(b.black.no as i64),
            ]);
            if sheet.records.is_some() {
                r.push(Cell::opt(b.must_record.then(|| cx.t("录谱", "yes"))));
            }
            r
        })
        .collect::<Vec<_>>();
    // 成绩带入: the pairs of a final round robin who met in their group play no game; their
    // group game (its colours and result) stands in the table where their board would be.
    let mut rows = rows;
    rows.extend(sheet.carried.iter().map(|c| {
        let mut r = vec![Cell::text(cx.t("预赛成绩带入", "Carried"))];
        if ko {
            r.push(Cell::Empty);
        }
        r.extend([
            Cell::Int(c.red.no as i64),
            Cell::text(&c.red.name),
            Cell::opt(c.red.unit.as_deref()),
            Cell::Score(c.red.score),
            Cell::text(c.result.as_deref().unwrap_or("—")),
            Cell::Score(c.black.score),
            Cell::text(&c.black.name),
            Cell::opt(c.black.unit.as_deref()),
            Cell::Int(c.black.no as i64),
        ]);
        if sheet.records.is_some() {
            r.push(Cell::Empty);
        }
        r
    }));
    blocks.push(Block::Table(Table {
        id: format!("pairings-{sid}-{}", sheet.round),
        caption: None,
        columns,
        rows,
    }));
    if let Some(d) = &sheet.records {
        blocks.push(Block::Paragraph(match (cx.lang, ko) {
            // A knockout's duty is per game (its kind, its board within the knockout's round).
            (Lang::Zh, true) => format!("标「录谱」的对局录谱: {}", d.recorder),
            (Lang::En, true) => format!("Game records of the games marked: {}", d.recorder_en),
            (Lang::Zh, false) => format!("第1–{}台录谱: {}", d.boards, d.recorder),
            (Lang::En, false) => {
                format!("Game records on boards 1–{}: {}", d.boards, d.recorder_en)
            }
        }));
    }
    if !sheet.carried.is_empty() {
        let rounds: Vec<String> = sheet
            .carried
            .iter()
            .map(|c| c.group_round.to_string())
            .collect();
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!(
                "预赛成绩带入: 同组出线者不再比赛，其小组赛对局（第{}轮，红方在前）计入决赛",
                rounds.join("、")
            ),
            Lang::En => format!(
                "Carried: finalists of one group do not meet again; their group game (round {}, red first) counts in the final",
                rounds.join(", ")
            ),
        }));
    }
    if let Some(b) = &sheet.bye {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("轮空: {} 号 {}", b.no, b.name),
            Lang::En => format!("Bye: No. {} {}", b.no, b.name),
        }));
    }
}
