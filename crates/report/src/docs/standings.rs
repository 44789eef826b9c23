//! The standings (排名表): each section's table with its tiebreaks.

use super::{col, section_start, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::export::{Export, SectionExport};
use arbiter_types::{Fallback, TiebreakName};
use std::collections::BTreeMap;

fn tiebreak_label(cx: &Ctx, name: &str) -> String {
    if let Some(t) = TiebreakName::ALL.into_iter().find(|t| t.name() == name) {
        return match cx.lang {
            Lang::Zh => t.zh().to_string(),
            Lang::En => name.to_string(),
        };
    }
    if let Some(f) = Fallback::ALL.into_iter().find(|f| f.name() == name) {
        return match cx.lang {
            Lang::Zh => f.zh().to_string(),
            Lang::En => name.to_string(),
        };
    }
    match (cx.lang, name) {
        (Lang::Zh, "points") => "积分".to_string(),
        (Lang::Zh, "knockout") => "淘汰赛".to_string(),
        (Lang::Zh, "group_place") => "小组名次".to_string(),
        (Lang::Zh, "final") => "决赛".to_string(),
        _ => name.to_string(),
    }
}

pub(super) fn section_export<'e>(ex: &'e Export, sid: &str) -> Option<&'e SectionExport> {
    ex.sections.iter().find(|s| s.id == sid)
}

pub(super) fn standings(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        let Some(sec) = section_export(&ex, sid) else {
            continue;
        };
        section_start(cx, i, sid, &mut blocks);
        // A team section (A15) ranks its teams first; the players' table follows.
        let team = super::team_match::is_team(cx, sid);
        if team {
            blocks.push(super::team_match::standings(
                cx,
                sid,
                format!(
                    "{} · {} · {}",
                    cx.section_name(sid),
                    cx.t("团体名次", "Team standings"),
                    cx.note(sec.note())
                ),
            )?);
        }
        let players: BTreeMap<u32, _> = sec.players.iter().map(|p| (p.no, p)).collect();
        // Criteria with a value in the rows (the fallback has none).
        let tbs: Vec<&String> = sec
            .tiebreaks
            .iter()
            .filter(|t| sec.standings.iter().any(|r| r.tiebreaks.contains_key(*t)))
            .collect();
        let mut columns = vec![
            col("rank", cx.t("名次", "Rank"), Align::Right, 5),
            col("no", cx.t("序号", "No."), Align::Right, 5),
            col("name", cx.t("姓名", "Name"), Align::Left, 10),
            col("unit", cx.t("单位", "Unit"), Align::Left, 18),
            col("points", cx.t("积分", "Pts"), Align::Right, 6),
        ];
        for t in &tbs {
            columns.push(col(
                &format!("tb:{t}"),
                &tiebreak_label(cx, t),
                Align::Right,
                7,
            ));
        }
        columns.push(col(
            "decided_by",
            cx.t("区分依据", "Decided by"),
            Align::Left,
            10,
        ));
        let rows = sec
            .standings
            .iter()
            .map(|r| {
                let p = players.get(&r.no);
                let mut row = vec![
                    Cell::Int(r.rank as i64),
                    Cell::Int(r.no as i64),
                    Cell::opt(p.map(|p| p.name.as_str())),
                    Cell::opt(p.and_then(|p| p.unit.as_deref().or(p.association.as_deref()))),
                    Cell::Score(r.points),
                ];
                for t in &tbs {
                    row.push(r.tiebreaks.get(*t).map_or(Cell::Empty, |v| Cell::Score(*v)));
                }
                row.push(
                    r.decided_by
                        .as_deref()
                        .map_or(Cell::Empty, |d| Cell::Text(tiebreak_label(cx, d))),
                );
                row
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: format!("standings-{sid}"),
            caption: Some(match cx.lang {
                Lang::Zh if team => format!(
                    "{} · 个人成绩 · 共{}轮 · {}",
                    cx.section_name(sid),
                    sec.rounds_planned,
                    cx.note(sec.note())
                ),
                Lang::Zh => format!(
                    "{} · {} · 共{}轮 · {}",
                    cx.section_name(sid),
                    sec.system.zh(),
                    sec.rounds_planned,
                    cx.note(sec.note())
                ),
                Lang::En => format!(
                    "{} · {} · {} rounds · {}",
                    cx.section_name(sid),
                    sec.system.name(),
                    sec.rounds_planned,
                    cx.note(sec.note())
                ),
            }),
            columns,
            rows,
        }));
        // A17: the disqualified have no place; they are listed apart, never silently dropped.
        let apart = sec.disqualified();
        if !apart.is_empty() {
            blocks.push(Block::Table(Table {
                id: format!("standings-{sid}-disqualified"),
                caption: Some(format!(
                    "{} · {}",
                    cx.section_name(sid),
                    cx.t(
                        "取消比赛资格 (不计名次、奖项)",
                        "Disqualified (no place or prize)"
                    )
                )),
                columns: vec![
                    col("no", cx.t("序号", "No."), Align::Right, 5),
                    col("name", cx.t("姓名", "Name"), Align::Left, 10),
                    col("unit", cx.t("单位", "Unit"), Align::Left, 18),
                ],
                rows: apart
                    .iter()
                    .map(|p| {
                        vec![
                            Cell::Int(p.no as i64),
                            Cell::Text(p.name.clone()),
                            Cell::opt(p.unit.as_deref().or(p.association.as_deref())),
                        ]
                    })
                    .collect(),
            }));
        }
        for c in &sec.categories {
            blocks.push(Block::Table(Table {
                id: format!("standings-{sid}-{}", c.id),
                caption: Some(c.name.clone()),
                columns: vec![
                    col("rank", cx.t("名次", "Rank"), Align::Right, 5),
                    col("no", cx.t("序号", "No."), Align::Right, 5),
                    col("name", cx.t("姓名", "Name"), Align::Left, 10),
                    col("unit", cx.t("单位", "Unit"), Align::Left, 18),
                ],
                rows: c
                    .standings
                    .iter()
                    .map(|r| {
                        let p = players.get(&r.no);
                        vec![
                            Cell::Int(r.rank as i64),
                            Cell::Int(r.no as i64),
                            Cell::opt(p.map(|p| p.name.as_str())),
                            Cell::opt(p.and_then(|p| p.unit.as_deref())),
                        ]
                    })
                    .collect(),
            }));
        }
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "没有可打印的名次 (no standings yet)".to_string(),
        ));
    }
    Ok(blocks)
}
