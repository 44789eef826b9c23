//! The prize list (获奖名单): the winners of every prize.

use super::standings::section_export;
use super::{col, Ctx};
use crate::{Align, Block, Cell, Lang, ReportError, Table};
use arbiter_director::export::{Export, PrizeKind};

fn kind_label(cx: &Ctx, k: PrizeKind) -> &'static str {
    match (cx.lang, k) {
        (Lang::Zh, PrizeKind::Place) => "名次奖",
        (Lang::Zh, PrizeKind::Lucky) => "幸运奖",
        (Lang::Zh, PrizeKind::Team) => "团体奖",
        (Lang::Zh, PrizeKind::Title) => "称号",
        (Lang::Zh, PrizeKind::Board) => "台次奖",
        (Lang::En, PrizeKind::Board) => "board",
        (Lang::En, PrizeKind::Place) => "place",
        (Lang::En, PrizeKind::Lucky) => "lucky",
        (Lang::En, PrizeKind::Team) => "team",
        (Lang::En, PrizeKind::Title) => "title",
    }
}

pub(super) struct Winner {
    pub(super) section: String,
    pub(super) category: Option<String>,
    pub(super) rank: u32,
    pub(super) who: String,
    pub(super) unit: Option<String>,
    pub(super) kind: PrizeKind,
    pub(super) amount: Option<arbiter_types::Score>,
    pub(super) title: Option<String>,
    pub(super) item: Option<String>,
    pub(super) trophy: bool,
    pub(super) medal: bool,
    /// The board of a board prize (台次奖, A15).
    pub(super) board: Option<u32>,
    /// A team prize's players, in pairing-number order (a team section numbers a team's
    /// players by board); empty for a player's prize.
    pub(super) members: Vec<String>,
    /// Why the prize went below its place (顺延, A14), if it did.
    pub(super) passed_down: Option<String>,
}

impl Winner {
    /// K13: the trophy (奖杯) and the medal (奖牌) that go with the prize.
    pub(super) fn honours(&self, lang: Lang) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.trophy {
            v.push(match lang {
                Lang::Zh => "奖杯",
                Lang::En => "trophy",
            });
        }
        if self.medal {
            v.push(match lang {
                Lang::Zh => "奖牌",
                Lang::En => "medal",
            });
        }
        v
    }
}

pub(super) fn winners(cx: &Ctx, ex: &Export) -> Vec<Winner> {
    ex.prizes
        .iter()
        .filter(|p| cx.sections.contains(&p.section))
        .map(|p| {
            let se = section_export(ex, &p.section);
            let player =
                p.no.and_then(|n| se.and_then(|s| s.players.iter().find(|x| x.no == n)));
            let category = match (p.board, &p.category) {
                (Some(b), _) => Some(match cx.lang {
                    Lang::Zh => format!("第{b}台"),
                    Lang::En => format!("board {b}"),
                }),
                (None, Some(c)) => Some(
                    se.and_then(|s| s.categories.iter().find(|x| &x.id == c))
                        .map_or(c.clone(), |x| x.name.clone()),
                ),
                (None, None) => None,
            };
            let members = match (p.kind, &p.team, se) {
                (PrizeKind::Team, Some(t), Some(s)) => {
                    let mut v: Vec<&arbiter_director::export::PlayerExport> = s
                        .players
                        .iter()
                        .filter(|x| x.team.as_ref() == Some(t))
                        .collect();
                    v.sort_by_key(|x| x.no);
                    v.into_iter().map(|x| x.name.clone()).collect()
                }
                _ => Vec::new(),
            };
            Winner {
                section: p.section.clone(),
                category,
                rank: p.rank,
                who: match (player, &p.team) {
                    (Some(x), _) => x.name.clone(),
                    (None, Some(t)) => t.clone(),
                    (None, None) => String::new(),
                },
                unit: player.and_then(|x| x.unit.clone().or_else(|| x.association.clone())),
                kind: p.kind,
                amount: p.amount,
                title: p.title.clone(),
                item: p.item.clone(),
                trophy: p.trophy,
                medal: p.medal,
                board: p.board,
                members,
                passed_down: p.passed_down.clone(),
            }
        })
        .collect()
}

pub(super) fn prizes(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let ws = winners(cx, &ex);
    let qualified: Vec<&arbiter_director::export::QualifiedRow> = ex
        .qualified
        .iter()
        .filter(|q| cx.sections.contains(&q.section))
        .collect();
    let graded: Vec<&arbiter_director::export::GradeAwardRow> = ex
        .grade_awards
        .iter()
        .filter(|g| cx.sections.contains(&g.section))
        .collect();
    if ws.is_empty() && qualified.is_empty() && graded.is_empty() {
        return Err(ReportError::Nothing(
            "尚无获奖名单: 赛事结束(event close)后才确定奖项 (no prizes yet: they are fixed when the event is closed)"
                .to_string(),
        ));
    }
    // K13: a column of trophies and medals when any prize has one.
    let any_honours = ws.iter().any(|w| w.trophy || w.medal);
    // A14: a column saying which prizes were passed down (顺延), when any was.
    let any_passed = ws.iter().any(|w| w.passed_down.is_some());
    let mut total = arbiter_types::Score::points(0);
    let rows = ws
        .iter()
        .map(|w| {
            if let Some(a) = w.amount {
                total += a;
            }
            let mut row = vec![
                Cell::Text(cx.section_name(&w.section)),
                Cell::opt(w.category.as_deref()),
                Cell::Int(w.rank as i64),
                Cell::Text(w.who.clone()),
                Cell::opt(w.unit.as_deref()),
                Cell::text(kind_label(cx, w.kind)),
                Cell::opt(w.title.as_deref()),
                w.amount.map_or(Cell::Empty, Cell::Score),
            ];
            if any_honours {
                row.push(Cell::Text(w.honours(cx.lang).join(cx.t("、", ", "))));
            }
            row.push(Cell::opt(w.item.as_deref()));
            if any_passed {
                row.push(Cell::opt(w.passed_down.as_deref()));
            }
            row
        })
        .collect();
    // T9 "奖金为税前": the amounts say so.
    let before_tax = ex.event.prizes_before_tax;
    let amount_head = amount_head(cx, &ex);
    let amount_head = amount_head.as_str();
    let mut blocks = Vec::new();
    let provisional = ex
        .sections
        .iter()
        .any(|s| s.provisional && cx.sections.contains(&s.id));
    if provisional {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => "暂定: 尚有对局未结束, 获奖名单以最终名次为准".to_string(),
            Lang::En => {
                "Provisional: games remain to be played; the final standings decide the prizes"
                    .to_string()
            }
        }));
    }
    blocks.extend((!ws.is_empty()).then(|| {
        Block::Table(Table {
            id: "prizes".to_string(),
            caption: None,
            columns: vec![
                col("section", cx.t("组别", "Section"), Align::Left, 10),
                col("category", cx.t("类别", "Category"), Align::Left, 8),
                col("rank", cx.t("名次", "Rank"), Align::Right, 5),
                col("winner", cx.t("获奖者", "Winner"), Align::Left, 12),
                col("unit", cx.t("单位", "Unit"), Align::Left, 16),
                col("kind", cx.t("奖项", "Kind"), Align::Left, 7),
                col("title", cx.t("称号", "Title"), Align::Left, 8),
                col(
                    "amount",
                    amount_head,
                    Align::Right,
                    if before_tax { 10 } else { 8 },
                ),
            ]
            .into_iter()
            .chain(
                any_honours
                    .then(|| col("honours", cx.t("奖杯/奖牌", "Trophy/medal"), Align::Left, 7)),
            )
            .chain([col("item", cx.t("奖品", "Item"), Align::Left, 10)])
            .chain(any_passed.then(|| {
                col(
                    "passed_down",
                    cx.t("顺延说明", "Passed down"),
                    Align::Left,
                    24,
                )
            }))
            .collect(),
            rows,
        })
    }));
    // S10: the organiser's awards, given by name (最佳组织奖 …), after the places.
    if !ex.special_awards.is_empty() {
        let rows = ex
            .special_awards
            .iter()
            .flat_map(|a| a.recipients.iter().map(move |r| (a, r)))
            .map(|(a, r)| {
                if let Some(m) = a.amount {
                    total += m;
                }
                vec![
                    Cell::Text(a.award.clone()),
                    Cell::Text(r.clone()),
                    a.amount.map_or(Cell::Empty, Cell::Score),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: "special_awards".to_string(),
            caption: Some(cx.t("组委会奖项", "Organiser's awards").to_string()),
            columns: vec![
                col("award", cx.t("奖项", "Award"), Align::Left, 12),
                col("recipient", cx.t("获奖者", "Winner"), Align::Left, 24),
                col("amount", amount_head, Align::Right, 10),
            ],
            rows,
        }));
    }
    blocks.extend([Block::Paragraph(total_line(cx, &ex, total))]);
    // S8: the qualification lists (取得资格名单), one table per qualification: its section, the
    // category whose ranking it takes (if any) and what it is for.
    type List<'a> = (
        &'a str,
        Option<&'a str>,
        &'a str,
        Vec<&'a arbiter_director::export::QualifiedRow>,
    );
    let mut lists: Vec<List> = Vec::new();
    for q in qualified {
        match lists.last_mut() {
            Some((s, c, to, v))
                if *s == q.section && *c == q.category.as_deref() && *to == q.to =>
            {
                v.push(q)
            }
            _ => lists.push((
                q.section.as_str(),
                q.category.as_deref(),
                q.to.as_str(),
                vec![q],
            )),
        }
    }
    for (section, category, to, list) in lists {
        let se = section_export(&ex, section);
        let mut of = cx.section_name(section);
        if let Some(c) = category {
            let name = se
                .and_then(|s| s.categories.iter().find(|x| x.id == c))
                .map_or(c, |x| x.name.as_str());
            of = format!("{of} {name}");
        }
        let rows = list
            .iter()
            .map(|q| {
                let mut row = vec![Cell::Int(i64::from(q.place))];
                row.extend(player_cells(se, q.no));
                row
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: "qualified".to_string(),
            caption: Some(match cx.lang {
                Lang::Zh => format!("{of} 取得「{to}」资格名单"),
                Lang::En => format!("{of}: qualified for {to}"),
            }),
            columns: vec![
                col("place", cx.t("资格名次", "Place"), Align::Right, 6),
                col("no", cx.t("序号", "No"), Align::Right, 5),
                col("name", cx.t("姓名", "Name"), Align::Left, 12),
                col("unit", cx.t("单位", "Unit"), Align::Left, 16),
            ],
            rows,
        }));
    }
    // 等级称号名单: the grades the places earn, one table per section (for the application to
    // the association); a player already holding the grade or a higher one is listed, not
    // awarded.
    let mut by_section: Vec<(&str, Vec<&arbiter_director::export::GradeAwardRow>)> = Vec::new();
    for g in graded {
        match by_section.last_mut() {
            Some((s, v)) if *s == g.section => v.push(g),
            _ => by_section.push((g.section.as_str(), vec![g])),
        }
    }
    for (section, list) in by_section {
        let se = section_export(&ex, section);
        let rows = list
            .iter()
            .map(|g| {
                let mut row = vec![Cell::Int(i64::from(g.rank))];
                row.extend(player_cells(se, g.no));
                row.extend([
                    Cell::opt(g.held.as_deref()),
                    Cell::Text(if g.awarded {
                        g.grade.clone()
                    } else {
                        match cx.lang {
                            Lang::Zh => format!("已具有, 不再授予{}", g.grade),
                            Lang::En => format!("holds it already: not {}", g.grade),
                        }
                    }),
                ]);
                row
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: "grade-awards".to_string(),
            caption: Some(match cx.lang {
                Lang::Zh => format!("{} 等级称号名单", cx.section_name(section)),
                Lang::En => format!("{}: grades awarded", cx.section_name(section)),
            }),
            columns: vec![
                col("rank", cx.t("名次", "Place"), Align::Right, 5),
                col("no", cx.t("序号", "No"), Align::Right, 5),
                col("name", cx.t("姓名", "Name"), Align::Left, 12),
                col("unit", cx.t("单位", "Unit"), Align::Left, 16),
                col("held", cx.t("原段位/称号", "Grade held"), Align::Left, 10),
                col("grade", cx.t("授予称号", "Grade awarded"), Align::Left, 14),
            ],
            rows,
        }));
    }
    Ok(blocks)
}

/// A player's number, name and unit (else association) as a list's cells.
fn player_cells(se: Option<&arbiter_director::export::SectionExport>, no: u32) -> [Cell; 3] {
    let player = se.and_then(|s| s.players.iter().find(|x| x.no == no));
    [
        Cell::Int(i64::from(no)),
        Cell::Text(player.map_or(String::new(), |x| x.name.clone())),
        Cell::opt(
            player
                .and_then(|x| x.unit.clone().or_else(|| x.association.clone()))
                .as_deref(),
        ),
    ]
}

/// The amount column's heading: 奖金(元), 奖金(元，税前), 奖金(新台币 NT$) … (T9, the
/// regulation's `prize_currency`).
pub(super) fn amount_head(cx: &Ctx, ex: &Export) -> String {
    let unit = ex.event.prize_currency.unit(cx.lang == Lang::Zh);
    match (cx.lang, ex.event.prizes_before_tax) {
        (Lang::Zh, false) => format!("奖金({unit})"),
        (Lang::Zh, true) => format!("奖金({unit}，税前)"),
        (Lang::En, false) => format!("Amount ({unit})"),
        (Lang::En, true) => format!("Amount ({unit}, before tax)"),
    }
}

/// 奖金合计 with the currency and 税前 where the regulation says so.
pub(super) fn total_line(cx: &Ctx, ex: &Export, total: impl std::fmt::Display) -> String {
    let amount = ex
        .event
        .prize_currency
        .amount_apart(total, cx.lang == Lang::Zh);
    match (cx.lang, ex.event.prizes_before_tax) {
        (Lang::Zh, false) => format!("奖金合计 {amount}"),
        (Lang::Zh, true) => format!("奖金合计 {amount}（税前）"),
        (Lang::En, false) => format!("Prize money in total: {amount}"),
        (Lang::En, true) => format!("Prize money in total: {amount} (before tax)"),
    }
}
