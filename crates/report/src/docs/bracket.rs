//! The knockout bracket (淘汰赛对阵图).

use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::api::rounds;
use arbiter_director::bracket_view::{bracket_view, Entrant, SideView};
use arbiter_director::{section_plan, SectionPlan};

pub(super) fn bracket(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    for sid in &cx.sections {
        let Some(sec) = cx.reg.section(sid) else {
            continue;
        };
        if !matches!(section_plan(sec, cx.state), SectionPlan::TwoStage { .. }) {
            continue;
        }
        let Ok(v) = bracket_view(&cx.reg, cx.state, sid) else {
            continue;
        };
        let who = |e: &Entrant| -> String {
            let seed = e.seed.map(|s| format!("[{s}] ")).unwrap_or_default();
            if e.name.is_empty() {
                format!("{seed}{}", e.no)
            } else {
                format!("{seed}{} {}", e.no, e.name)
            }
        };
        let side_text = |s: &SideView| -> String {
            match s {
                SideView::Player(e) => who(e),
                SideView::Bye => cx.t("轮空", "bye").to_string(),
                SideView::Pending => cx.t("待定", "TBD").to_string(),
            }
        };
        if !blocks.is_empty() {
            blocks.push(Block::PageBreak);
        }
        if cx.sections.len() > 1 {
            blocks.push(Block::Heading(cx.section_name(sid)));
        }
        for (i, ms) in v.rounds.iter().enumerate() {
            let round = i + 1;
            if ms.is_empty() {
                continue;
            }
            let rows = ms
                .iter()
                .map(|m| {
                    let games: Vec<String> = m
                        .games
                        .iter()
                        .map(|g| {
                            format!(
                                "{}{} {}",
                                g.label,
                                match cx.lang {
                                    Lang::Zh => format!("(红{})", g.red.no),
                                    Lang::En => format!("(red {})", g.red.no),
                                },
                                rounds::notation(g.result)
                            )
                        })
                        .chain(m.decided_by.map(|d| cx.t(d.zh(), d.en()).to_string()))
                        .collect();
                    vec![
                        Cell::text(&m.id),
                        Cell::Text(m.label.clone()),
                        Cell::Text(side_text(&m.sides[0])),
                        Cell::Text(side_text(&m.sides[1])),
                        Cell::Text(games.join("; ")),
                        m.winner
                            .as_ref()
                            .map_or(Cell::Empty, |w| Cell::Text(who(w))),
                    ]
                })
                .collect();
            if round == 1 && v.seeding.provisional {
                blocks.push(Block::Paragraph(match cx.lang {
                    Lang::Zh => format!(
                        "暂定: 种子按第{}轮后的名次排出, 瑞士制阶段结束前可能变化",
                        v.seeding.after_round
                    ),
                    Lang::En => format!(
                        "Provisional: seeded from the standings after round {}; may change until the Swiss stage ends",
                        v.seeding.after_round
                    ),
                }));
            }
            blocks.push(Block::Table(Table {
                id: format!("bracket-{sid}-{round}"),
                caption: Some(match cx.lang {
                    Lang::Zh => format!("淘汰赛第{round}轮"),
                    Lang::En => format!("Knockout round {round}"),
                }),
                columns: vec![
                    col("match", cx.t("编号", "Id"), Align::Left, 6),
                    col("label", cx.t("场次", "Match"), Align::Left, 14),
                    col("side_a", cx.t("上半区", "Upper"), Align::Left, 16),
                    col("side_b", cx.t("下半区", "Lower"), Align::Left, 16),
                    col("games", cx.t("各局", "Games"), Align::Left, 26),
                    col("winner", cx.t("胜者", "Winner"), Align::Left, 14),
                ],
                rows,
            }));
        }
        if let Some(places) = &v.places {
            blocks.push(Block::Table(Table {
                id: format!("bracket-{sid}-places"),
                caption: Some(cx.t("淘汰赛名次", "Knockout places").to_string()),
                columns: vec![
                    col("place", cx.t("名次", "Place"), Align::Right, 5),
                    col("player", cx.t("棋手", "Player"), Align::Left, 20),
                ],
                rows: places
                    .iter()
                    .map(|(k, p)| {
                        // 并列第3名: a place the bracket does not separate is printed shared.
                        let shared = places.iter().filter(|(q, _)| q == k).count() > 1;
                        let place = if shared {
                            Cell::Text(match cx.lang {
                                Lang::Zh => format!("并列{k}"),
                                Lang::En => format!("={k}"),
                            })
                        } else {
                            Cell::Int(*k as i64)
                        };
                        vec![place, Cell::Text(who(p))]
                    })
                    .collect(),
            }));
        }
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "本赛事(组别)没有淘汰赛或淘汰赛尚未开始 (no knockout stage, or not started)"
                .to_string(),
        ));
    }
    Ok(blocks)
}
