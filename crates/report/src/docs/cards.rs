//! The papers of the hall: table cards (台号卡), folded name cards (姓名签) and the round's
//! pairings in large type for the wall (对阵表, 张贴用).

use super::round::{round_doc, RoundDoc};
use super::Ctx;
use crate::{Block, Lang, NameCard, Orientation, ReportError, TableCard};
use arbiter_director::api::rounds;

/// One card per board. With a round: the boards of that round in every section covered, the
/// players under the number. Without: boards 1..N, N the largest section's board count (the
/// last round's boards, or half its players, rounded up, before the first round).
pub(super) fn table_cards(cx: &Ctx, round: Option<u32>) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    let Some(n) = round else {
        let boards = cx
            .sections
            .iter()
            .filter_map(|sid| cx.state.section(sid).map(|rec| (sid, rec)))
            .map(|(sid, rec)| match rec.round(rec.last_round()) {
                Some(r) if !r.boards.is_empty() => r.boards.len() as u32,
                _ => {
                    let active = cx
                        .state
                        .players(sid)
                        .iter()
                        .filter(|p| p.withdrawn.is_none())
                        .count() as u32;
                    active.div_ceil(2)
                }
            })
            .max()
            .unwrap_or(0);
        if boards == 0 {
            return Err(ReportError::Nothing(
                "尚无棋手, 无法确定台数 (no players yet: the number of boards is unknown)"
                    .to_string(),
            ));
        }
        for b in 1..=boards {
            blocks.push(Block::TableCard(TableCard {
                board: b,
                label: cx.t("台号", "Board").to_string(),
                lines: Vec::new(),
            }));
        }
        return Ok(blocks);
    };
    for sid in &cx.sections {
        let rec = cx.state.section(sid);
        if rec.and_then(|r| r.round(n)).is_none() {
            if cx.sections.len() == 1 {
                return Err(cx.unknown_round(n));
            }
            continue;
        }
        let sheet = rounds::sheet(cx.state, sid, Some(n))
            .map_err(|e| ReportError::Nothing(e.to_string()))?;
        let label = match cx.lang {
            Lang::Zh => format!("{} 第{}轮", cx.section_name(sid), sheet.round),
            Lang::En => format!("{} round {}", cx.section_name(sid), sheet.round),
        };
        let side = |colour: &str, s: &rounds::SheetSide| match &s.unit {
            Some(u) => format!("{colour}  {}（{u}）", s.name),
            None => format!("{colour}  {}", s.name),
        };
        for b in &sheet.boards {
            blocks.push(Block::TableCard(TableCard {
                board: b.board,
                label: label.clone(),
                lines: vec![
                    side(cx.t("红方", "Red"), &b.red),
                    side(cx.t("黑方", "Black"), &b.black),
                ],
            }));
        }
    }
    if blocks.is_empty() {
        return Err(cx.unknown_round(n));
    }
    Ok(blocks)
}

/// A folded name card for every player of the sections covered who has not withdrawn, in
/// pairing-number order (entries not yet numbered after, by registration).
pub(super) fn name_cards(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    for sid in &cx.sections {
        for p in cx.state.players(sid) {
            if p.withdrawn.is_some() {
                continue;
            }
            blocks.push(Block::NameCard(NameCard {
                name: p.person.name.clone(),
                unit: p
                    .person
                    .unit
                    .clone()
                    .or_else(|| p.person.association.clone()),
                note: Some(cx.section_name(sid)),
            }));
        }
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "尚无棋手 (no players yet)".to_string(),
        ));
    }
    Ok(blocks)
}

/// The pairings of the round for the wall: the pairing list without the pairing numbers and
/// the record column (large type leaves room for names and units only).
pub(super) fn wall_pairings(
    cx: &Ctx,
    round: Option<u32>,
) -> Result<(Orientation, Option<String>, Vec<Block>), ReportError> {
    let (_, subtitle, mut blocks) = round_doc(cx, round, RoundDoc::Pairings)?;
    for b in &mut blocks {
        if let Block::Table(t) = b {
            for key in ["red_no", "black_no", "records"] {
                if let Some(i) = t.column(key) {
                    t.columns.remove(i);
                    for r in &mut t.rows {
                        if i < r.len() {
                            r.remove(i);
                        }
                    }
                }
            }
            t.id = t.id.replacen("pairings-", "wall-pairings-", 1);
        }
    }
    Ok((Orientation::Portrait, subtitle, blocks))
}
