//! The team standings (团体排名).

use super::standings::section_export;
use super::{col, Ctx};
use crate::{Align, Block, Cell, ReportError, Table};
use std::collections::BTreeMap;

pub(super) fn teams(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
    // Team-match sections (A15): the teams by 场分 and 局分.
    for sid in &cx.sections {
        if !super::team_match::is_team(cx, sid) {
            continue;
        }
        if !blocks.is_empty() {
            blocks.push(Block::PageBreak);
        }
        let caption = match section_export(&ex, sid) {
            Some(sec) => format!("{} · {}", cx.section_name(sid), cx.note(sec.note())),
            None => cx.section_name(sid),
        };
        blocks.push(super::team_match::standings(cx, sid, caption)?);
        // The board standings (台次奖) follow, on a page of their own.
        let boards = super::team_match::board_standings(cx, sid);
        if !boards.is_empty() {
            blocks.push(Block::PageBreak);
            blocks.extend(boards);
        }
    }
    for t in ex.teams.iter().filter(|t| cx.sections.contains(&t.section)) {
        let names: BTreeMap<u32, &str> = section_export(&ex, &t.section)
            .map(|s| s.players.iter().map(|p| (p.no, p.name.as_str())).collect())
            .unwrap_or_default();
        let division = t.division.as_ref().and_then(|d| {
            cx.reg
                .section(&t.section)
                .and_then(|s| s.teams.as_ref())
                .and_then(|ts| ts.divisions.iter().find(|x| &x.id == d))
                .map(|x| x.name.clone())
                .or_else(|| Some(d.clone()))
        });
        if !blocks.is_empty() {
            blocks.push(Block::PageBreak);
        }
        let mut caption = match &division {
            Some(d) => format!("{} · {d}", cx.section_name(&t.section)),
            None => cx.section_name(&t.section),
        };
        if let Some(sec) = section_export(&ex, &t.section) {
            caption = format!("{caption} · {}", cx.note(sec.note()));
        }
        blocks.push(Block::Table(Table {
            id: format!(
                "teams-{}{}",
                t.section,
                t.division
                    .as_ref()
                    .map_or(String::new(), |d| format!("-{d}"))
            ),
            caption: Some(caption),
            columns: vec![
                col("rank", cx.t("名次", "Rank"), Align::Right, 5),
                col("team", cx.t("队名", "Team"), Align::Left, 18),
                col(
                    "members",
                    cx.t("队员(个人名次)", "Members (rank)"),
                    Align::Left,
                    40,
                ),
                col(
                    "counted",
                    cx.t("计分名次", "Counted ranks"),
                    Align::Left,
                    12,
                ),
                col("total", cx.t("总分", "Total"), Align::Right, 7),
            ],
            rows: t
                .standings
                .iter()
                .map(|r| {
                    let ranks: BTreeMap<u32, u32> = section_export(&ex, &t.section)
                        .map(|s| s.standings.iter().map(|x| (x.no, x.rank)).collect())
                        .unwrap_or_default();
                    let members = r
                        .members
                        .iter()
                        .map(|n| {
                            let nm = names.get(n).copied().unwrap_or("?");
                            match ranks.get(n) {
                                Some(k) => format!("{nm}({k})"),
                                None => nm.to_string(),
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("、");
                    vec![
                        Cell::Int(r.rank as i64),
                        Cell::text(&r.team),
                        Cell::Text(members),
                        Cell::Text(
                            r.counted_ranks
                                .iter()
                                .map(u32::to_string)
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                        Cell::Score(r.total),
                    ]
                })
                .collect(),
        }));
    }
    if !ex.associations.is_empty() {
        let secs: Vec<&String> = {
            let mut v: Vec<&String> = Vec::new();
            for a in &ex.associations {
                for k in a.best_ranks.keys() {
                    if !v.contains(&k) {
                        v.push(k);
                    }
                }
            }
            v.sort();
            v
        };
        if !blocks.is_empty() {
            blocks.push(Block::PageBreak);
        }
        let mut columns = vec![
            col("rank", cx.t("名次", "Rank"), Align::Right, 5),
            col(
                "association",
                cx.t("协会 / 单位", "Association"),
                Align::Left,
                20,
            ),
        ];
        for s in &secs {
            columns.push(col(
                &format!("best:{s}"),
                &cx.section_name(s),
                Align::Right,
                9,
            ));
        }
        columns.push(col("total", cx.t("名次和", "Sum"), Align::Right, 7));
        blocks.push(Block::Table(Table {
            id: "associations".to_string(),
            caption: Some(
                cx.t(
                    "协会团体名次 (各组最好名次之和, 少者列前)",
                    "Association standings (sum of best places)",
                )
                .to_string(),
            ),
            columns,
            rows: ex
                .associations
                .iter()
                .map(|a| {
                    let mut row = vec![Cell::Int(a.rank as i64), Cell::text(&a.association)];
                    for s in &secs {
                        row.push(
                            a.best_ranks
                                .get(*s)
                                .map_or(Cell::Empty, |k| Cell::Int(*k as i64)),
                        );
                    }
                    row.push(Cell::Int(a.total as i64));
                    row
                })
                .collect(),
        }));
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "本赛事(组别)没有团体或协会成绩 (no team or association standings)".to_string(),
        ));
    }
    Ok(blocks)
}
