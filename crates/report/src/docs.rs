//! One builder per document. Every value comes from the folded state through the director's
//! read functions (`publish::export`, `api::rounds::sheet`, `bracket_view::bracket_view`,
//! `api::entries::fee_due`); nothing is computed twice.

use crate::{
    Align, Block, Cell, Certificate, Column, DocKind, Document, Lang, Options, Orientation,
    Privacy, ReportError, Table,
};
use arbiter_core::EventState;
use arbiter_director::api::{entries::fee_due, rounds};
use arbiter_director::bracket_view::{bracket_view, Entrant, SideView};
use arbiter_director::export::{Export, PrizeKind, SectionExport, Stage};
use arbiter_director::{section_plan, SectionPlan};
use arbiter_regulation::Regulation;
use arbiter_types::{Fallback, GameResult, TiebreakName};
use chrono::Datelike;
use std::collections::BTreeMap;

struct Ctx<'a> {
    state: &'a EventState,
    reg: std::sync::Arc<Regulation>,
    lang: Lang,
    /// The sections the document covers, in the regulation's order.
    sections: Vec<String>,
}

impl Ctx<'_> {
    fn t<'b>(&self, zh: &'b str, en: &'b str) -> &'b str {
        self.lang.t(zh, en)
    }
    fn section_name(&self, id: &str) -> String {
        match (self.lang, self.reg.section(id)) {
            (Lang::En, Some(s)) => s.name_en.clone().unwrap_or_else(|| s.name.clone()),
            (_, Some(s)) => s.name.clone(),
            (_, None) => id.to_string(),
        }
    }
    /// 「第N轮后 · 暂定」 / 「… · 最终」 in the document's language.
    fn note(&self, n: arbiter_director::export::StandingNote) -> String {
        match self.lang {
            Lang::Zh => n.zh(),
            Lang::En => n.en(),
        }
    }
    fn export(&self) -> Result<Export, ReportError> {
        arbiter_director::export(self.state).map_err(|e| ReportError::Event(e.to_string()))
    }
}

fn col(key: &str, header: &str, align: Align, width: u16) -> Column {
    Column {
        key: key.to_string(),
        header: header.to_string(),
        align,
        width,
    }
}

/// `2024年5月1日—5月3日` (one day: `2024年5月1日`).
fn date_range(reg: &Regulation, lang: Lang) -> String {
    let (s, e) = (reg.event.start, reg.event.end);
    match lang {
        Lang::En => {
            if s == e {
                s.format("%Y-%m-%d").to_string()
            } else {
                format!("{} – {}", s.format("%Y-%m-%d"), e.format("%Y-%m-%d"))
            }
        }
        Lang::Zh => {
            let one = format!("{}年{}月{}日", s.year(), s.month(), s.day());
            if s == e {
                one
            } else if s.year() == e.year() {
                format!("{one}—{}月{}日", e.month(), e.day())
            } else {
                format!("{one}—{}年{}月{}日", e.year(), e.month(), e.day())
            }
        }
    }
}

fn one_date(d: chrono::NaiveDate, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("{}年{}月{}日", d.year(), d.month(), d.day()),
        Lang::En => d.format("%Y-%m-%d").to_string(),
    }
}

pub(crate) fn build(
    state: &EventState,
    kind: DocKind,
    opts: &Options,
) -> Result<Document, ReportError> {
    let reg =
        arbiter_director::regulation_of(state).map_err(|e| ReportError::Event(e.to_string()))?;
    let known: Vec<String> = reg
        .sections
        .iter()
        .filter(|s| state.section(&s.id).is_some())
        .map(|s| s.id.clone())
        .collect();
    let sections = match &opts.section {
        Some(s) if known.iter().any(|k| k == s) => vec![s.clone()],
        Some(s) => {
            return Err(ReportError::UnknownSection {
                section: s.clone(),
                known: known.join(", "),
            })
        }
        None => known,
    };
    let lang = opts.lang;
    let cx = Ctx {
        state,
        reg,
        lang,
        sections,
    };
    let event_name = match lang {
        Lang::En => cx
            .reg
            .event
            .name_en
            .clone()
            .unwrap_or_else(|| cx.reg.event.name.clone()),
        Lang::Zh => cx.reg.event.name.clone(),
    };
    let (orientation, subtitle, blocks) = match kind {
        DocKind::Checkin => (Orientation::Landscape, None, checkin(&cx, opts.privacy)?),
        DocKind::Pairings => round_doc(&cx, opts.round, RoundDoc::Pairings)?,
        DocKind::Slips => round_doc(&cx, opts.round, RoundDoc::Slips)?,
        DocKind::Results => round_doc(&cx, opts.round, RoundDoc::Results)?,
        DocKind::Standings => (Orientation::Portrait, None, standings(&cx)?),
        DocKind::Crosstable => (Orientation::Landscape, None, crosstable(&cx)?),
        DocKind::Teams => (Orientation::Portrait, None, teams(&cx)?),
        DocKind::Bracket => (Orientation::Portrait, None, bracket(&cx)?),
        // Ten columns and more (section, category, rank, winner, unit, kind, title, amount,
        // trophy/medal, item): a unit's full name only fits on one line across the page.
        DocKind::Prizes => (Orientation::Landscape, None, prizes(&cx)?),
        DocKind::Certificates => (Orientation::Landscape, None, certificates(&cx)?),
    };
    let subtitle = subtitle.or_else(|| opts.section.as_ref().map(|s| cx.section_name(s)));
    Ok(Document {
        kind,
        title: lang.t(kind.zh(), kind.en()).to_string(),
        subtitle,
        event_name,
        date: date_range(&cx.reg, lang),
        orientation,
        lang,
        blocks,
    })
}

/// A heading per section when the document covers several, with a page break between.
fn section_start(cx: &Ctx, i: usize, id: &str, blocks: &mut Vec<Block>) {
    if i > 0 {
        blocks.push(Block::PageBreak);
    }
    if cx.sections.len() > 1 {
        blocks.push(Block::Heading(cx.section_name(id)));
    }
}

// ---------------------------------------------------------------- check-in

fn checkin(cx: &Ctx, privacy: Privacy) -> Result<Vec<Block>, ReportError> {
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        section_start(cx, i, sid, &mut blocks);
        let due = fee_due(&cx.reg, sid);
        let nos = arbiter_director::publish::publish_numbers(cx.state, sid);
        let mut players = cx.state.players(sid);
        // The desk works unit by unit: by unit, then by registration.
        players.sort_by(|a, b| (&a.unit, a.id).cmp(&(&b.unit, b.id)));
        // K5: the 社保号 when the regulation asks for it (masked unless the organiser's copy).
        let ss = cx
            .reg
            .registration
            .fields
            .contains(&arbiter_regulation::EntryField::SocialSecurityNumber);
        let mut columns = vec![
            col("seq", cx.t("序", "#"), Align::Right, 4),
            col("no", cx.t("编号", "No."), Align::Right, 5),
            col("name", cx.t("姓名", "Name"), Align::Left, 10),
            col("sex", cx.t("性别", "Sex"), Align::Center, 4),
            col("unit", cx.t("单位", "Unit"), Align::Left, 20),
            col("id_number", cx.t("身份证号", "ID number"), Align::Left, 19),
            col("phone", cx.t("电话", "Phone"), Align::Left, 12),
            col("fee_due", cx.t("应缴", "Fee"), Align::Right, 7),
            col("fee_paid", cx.t("已缴", "Paid"), Align::Right, 7),
            col("fee_owed", cx.t("欠缴", "Owed"), Align::Right, 7),
            col("checked_in", cx.t("检录", "In"), Align::Center, 5),
            col("signature", cx.t("本人签名", "Signature"), Align::Left, 14),
        ];
        if ss {
            columns.insert(
                7,
                col(
                    "social_security",
                    cx.t("社保号", "Social-security no."),
                    Align::Left,
                    19,
                ),
            );
        }
        let mut rows = Vec::new();
        let (mut total_due, mut total_paid) = (0u64, 0u64);
        for (k, p) in players.iter().enumerate() {
            let owed = due.map(|d| d.saturating_sub(p.paid_fen));
            total_due += due.unwrap_or(0);
            total_paid += p.paid_fen;
            let id = p.id_number.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let phone = p.phone.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let social = p.social_security.as_ref().map(|n| match privacy {
                Privacy::Organiser => n.as_str().to_string(),
                Privacy::Published => n.masked(),
            });
            let status = if p.withdrawn.is_some() {
                cx.t("退赛", "out")
            } else if p.checked_in {
                cx.t("已检录", "yes")
            } else {
                ""
            };
            let mut row = vec![
                Cell::Int(k as i64 + 1),
                nos.get(&p.id).map_or(Cell::Empty, |n| Cell::Int(*n as i64)),
                Cell::text(&p.name),
                p.sex
                    .map_or(Cell::Empty, |s| Cell::text(cx.t(s.zh(), sex_en(s)))),
                Cell::opt(p.unit.as_deref().or(p.association.as_deref())),
                id.map_or(Cell::Empty, Cell::Text),
                phone.map_or(Cell::Empty, Cell::Text),
                due.map_or(Cell::Empty, Cell::Money),
                Cell::Money(p.paid_fen),
                match owed {
                    Some(0) | None => Cell::Empty,
                    Some(o) => Cell::Money(o),
                },
                Cell::text(status),
                Cell::Empty,
            ];
            if ss {
                row.insert(7, social.map_or(Cell::Empty, Cell::Text));
            }
            rows.push(row);
        }
        let checked = players.iter().filter(|p| p.checked_in).count();
        blocks.push(Block::Table(Table {
            id: format!("checkin-{sid}"),
            caption: Some(cx.section_name(sid)),
            columns,
            rows,
        }));
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!(
                "共 {} 人, 已检录 {} 人; 应缴 {}, 已缴 {}, 欠缴 {}",
                players.len(),
                checked,
                Cell::Money(total_due).display(),
                Cell::Money(total_paid).display(),
                Cell::Money(total_due.saturating_sub(total_paid)).display()
            ),
            Lang::En => format!(
                "{} players, {} checked in; fees due {}, paid {}, owed {}",
                players.len(),
                checked,
                Cell::Money(total_due).display(),
                Cell::Money(total_paid).display(),
                Cell::Money(total_due.saturating_sub(total_paid)).display()
            ),
        }));
    }
    Ok(blocks)
}

fn sex_en(s: arbiter_types::Sex) -> &'static str {
    match s {
        arbiter_types::Sex::Male => "M",
        arbiter_types::Sex::Female => "F",
    }
}

// ---------------------------------------------------------------- rounds

#[derive(Clone, Copy, PartialEq, Eq)]
enum RoundDoc {
    Pairings,
    Slips,
    Results,
}

type Built = (Orientation, Option<String>, Vec<Block>);

fn round_doc(cx: &Ctx, round: Option<u32>, which: RoundDoc) -> Result<Built, ReportError> {
    let mut blocks = Vec::new();
    let mut subtitle = None;
    let mut any = false;
    for sid in &cx.sections {
        let rec = cx.state.section(sid);
        let last = rec.map_or(0, |r| r.last_round());
        if let Some(n) = round {
            if rec.and_then(|r| r.round(n)).is_none() {
                // With one section an unknown round is an error; with several, a section
                // that has not reached it is left out (and an error if none has).
                if cx.sections.len() == 1 {
                    return Err(ReportError::UnknownRound {
                        section: rec.map_or_else(|| sid.clone(), |r| r.name.clone()),
                        round: n,
                        last,
                    });
                }
                continue;
            }
        } else if last == 0 && rec.is_none_or(|r| r.knockout.is_empty()) {
            // Nothing paired yet in this section: only the knockout sheet could show.
            match rounds::sheet(cx.state, sid, None) {
                Ok(s) if !s.boards.is_empty() => {}
                _ => continue,
            }
        }
        // Results are of a round played: the last paired round, not the knockout games due.
        let want = match (round, which) {
            (None, RoundDoc::Results) if last > 0 => Some(last),
            _ => round,
        };
        let sheet = match rounds::sheet(cx.state, sid, want) {
            Ok(s) => s,
            Err(_) if round.is_none() => continue,
            Err(e) => return Err(ReportError::Nothing(e.to_string())),
        };
        if sheet.boards.is_empty() && sheet.bye.is_none() {
            continue;
        }
        if any {
            blocks.push(Block::PageBreak);
        }
        any = true;
        let head = match cx.lang {
            Lang::Zh => format!("{} 第{}轮", cx.section_name(sid), sheet.round),
            Lang::En => format!("{} round {}", cx.section_name(sid), sheet.round),
        };
        // The pairing list names the time control of the games (比赛用时, K8).
        let head = match cx.reg.section(sid).map(|s| &s.time_controls) {
            Some(tcs) if which == RoundDoc::Pairings && !tcs.is_empty() => {
                let v: Vec<String> = tcs
                    .iter()
                    .map(|t| match cx.lang {
                        Lang::Zh => t.text(),
                        Lang::En => t.text_en(),
                    })
                    .collect();
                format!(
                    "{head} · {} {}",
                    cx.t("比赛用时", "time control"),
                    v.join("; ")
                )
            }
            _ => head,
        };
        // The pairing list and the slips say when the round starts (J1: the schedule).
        let head = match &sheet.starts {
            Some(t) if which != RoundDoc::Results => {
                format!("{head} · {} {t}", cx.t("开始时间", "starts"))
            }
            _ => head,
        };
        if cx.sections.len() == 1 {
            subtitle = Some(head.clone());
        } else {
            blocks.push(Block::Heading(head.clone()));
        }
        match which {
            RoundDoc::Pairings => pairings_table(cx, sid, &sheet, &mut blocks),
            RoundDoc::Results => results_table(cx, sid, &sheet, &mut blocks),
            RoundDoc::Slips => slips(cx, &head, &sheet, &mut blocks),
        }
    }
    if !any {
        return Err(match round {
            Some(n) => ReportError::UnknownRound {
                section: cx
                    .sections
                    .iter()
                    .map(|s| cx.state.section(s).map_or(s.as_str(), |r| r.name.as_str()))
                    .collect::<Vec<_>>()
                    .join(", "),
                round: n,
                last: cx
                    .sections
                    .iter()
                    .filter_map(|s| cx.state.section(s))
                    .map(|r| r.last_round())
                    .max()
                    .unwrap_or(0),
            },
            None => ReportError::Nothing("尚未编排任何一轮 (no round is paired yet)".to_string()),
        });
    }
    Ok((Orientation::Portrait, subtitle, blocks))
}

fn pairings_table(cx: &Ctx, sid: &str, sheet: &rounds::RoundSheet, blocks: &mut Vec<Block>) {
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
        .collect();
    blocks.push(Block::Table(Table {
        id: format!("pairings-{sid}-{}", sheet.round),
        caption: None,
        columns,
        rows,
    }));
    if let Some(d) = &sheet.records {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("第1–{}台录谱: {}", d.boards, d.recorder),
            Lang::En => format!("Game records on boards 1–{}: {}", d.boards, d.recorder_en),
        }));
    }
    if let Some(b) = &sheet.bye {
        blocks.push(Block::Paragraph(match cx.lang {
            Lang::Zh => format!("轮空: {} 号 {}", b.no, b.name),
            Lang::En => format!("Bye: No. {} {}", b.no, b.name),
        }));
    }
}

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

fn results_table(cx: &Ctx, sid: &str, sheet: &rounds::RoundSheet, blocks: &mut Vec<Block>) {
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

fn slips(cx: &Ctx, head: &str, sheet: &rounds::RoundSheet, blocks: &mut Vec<Block>) {
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

// ---------------------------------------------------------------- standings

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
        _ => name.to_string(),
    }
}

fn section_export<'e>(ex: &'e Export, sid: &str) -> Option<&'e SectionExport> {
    ex.sections.iter().find(|s| s.id == sid)
}

fn standings(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        let Some(sec) = section_export(&ex, sid) else {
            continue;
        };
        section_start(cx, i, sid, &mut blocks);
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

// ---------------------------------------------------------------- crosstable

/// One player's game as printed in the crosstable, in the regulation's points: `45红2`,
/// `12黑1`, `7红2+` (won by forfeit), `7黑0−` (lost by forfeit); in brackets when the round is
/// not completed (shown, not yet counted): `(45红2)`.
fn cross_cell(
    cx: &Ctx,
    table: &arbiter_types::ScoringTable,
    opp: u32,
    red: bool,
    r: GameResult,
    counted: bool,
) -> String {
    use arbiter_types::{Colour, Outcome, PlayerNo};
    let colour = if red { Colour::Red } else { Colour::Black };
    let o = r.outcome_for(
        colour,
        PlayerNo::new(opp).unwrap_or(PlayerNo::from_index(0)),
    );
    let pts = arbiter_director::crosstable::points_text(o.points(table));
    let mark = match o {
        Outcome::ForfeitWin { .. } => format!("{pts}+"),
        Outcome::ForfeitLoss { .. } => format!("{pts}−"),
        Outcome::DoubleForfeit { .. } => format!("{pts}−−"),
        _ => pts,
    };
    let c = match (cx.lang, red) {
        (Lang::En, true) => "r",
        (Lang::En, false) => "b",
        (Lang::Zh, true) => "红",
        (Lang::Zh, false) => "黑",
    };
    if counted {
        format!("{opp}{c}{mark}")
    } else {
        format!("({opp}{c}{mark})")
    }
}

fn crosstable(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
    for (i, sid) in cx.sections.iter().enumerate() {
        let Some(sec) = section_export(&ex, sid) else {
            continue;
        };
        let rounds: Vec<_> = sec
            .rounds
            .iter()
            .filter(|r| r.stage != Stage::Knockout)
            .collect();
        if rounds.is_empty() {
            continue;
        }
        section_start(cx, i, sid, &mut blocks);
        // (player no, round) → text; the totals count the rounds the standings count.
        let mut cells: BTreeMap<(u32, u32), String> = BTreeMap::new();
        let counted = |round: u32| round <= sec.after_round;
        for r in &rounds {
            let c = counted(r.round);
            for g in &r.games {
                cells.insert(
                    (g.red, r.round),
                    cross_cell(cx, &sec.scoring, g.black, true, g.result, c),
                );
                cells.insert(
                    (g.black, r.round),
                    cross_cell(cx, &sec.scoring, g.red, false, g.result, c),
                );
            }
            for b in &r.byes {
                let pts = arbiter_director::crosstable::points_text(sec.scoring.bye);
                let bye = format!("{}{pts}", cx.t("轮空", "bye "));
                cells.insert((*b, r.round), if c { bye } else { format!("({bye})") });
            }
        }
        // Boards still in play (no result yet) and the players ever paired: a player never
        // on a board nor given a bye has no row.
        let nos = arbiter_director::publish::publish_numbers(cx.state, sid);
        let no = |p| nos.get(&p).copied().unwrap_or(0);
        let mut paired: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
        if let Some(rec) = cx.state.section(sid) {
            for r in rec.rounds.values().filter(|r| r.stage == 1) {
                for b in r.boards.iter() {
                    paired.extend([no(b.red), no(b.black)]);
                    if b.result.is_none() {
                        let (zr, zb) = (cx.t("红", "r"), cx.t("黑", "b"));
                        cells.insert((no(b.red), r.round), format!("{}{zr}…", no(b.black)));
                        cells.insert((no(b.black), r.round), format!("{}{zb}…", no(b.red)));
                    }
                }
                paired.extend(r.byes.iter().map(|p| no(*p)));
            }
        }
        let players: BTreeMap<u32, _> = sec.players.iter().map(|p| (p.no, p)).collect();
        let mut columns = vec![
            col("rank", cx.t("名次", "Rank"), Align::Right, 4),
            col("no", cx.t("序号", "No."), Align::Right, 4),
            col("name", cx.t("姓名", "Name"), Align::Left, 9),
            col("unit", cx.t("单位", "Unit"), Align::Left, 14),
        ];
        for r in &rounds {
            columns.push(col(
                &format!("r{}", r.round),
                &match cx.lang {
                    Lang::Zh => format!("第{}轮", r.round),
                    Lang::En => format!("R{}", r.round),
                },
                Align::Center,
                7,
            ));
        }
        columns.push(col("points", cx.t("积分", "Pts"), Align::Right, 5));
        let rows = sec
            .standings
            .iter()
            .filter(|s| paired.contains(&s.no))
            .map(|s| {
                let p = players.get(&s.no);
                let mut row = vec![
                    Cell::Int(s.rank as i64),
                    Cell::Int(s.no as i64),
                    Cell::opt(p.map(|p| p.name.as_str())),
                    Cell::opt(p.and_then(|p| p.unit.as_deref().or(p.association.as_deref()))),
                ];
                for r in &rounds {
                    row.push(
                        cells
                            .get(&(s.no, r.round))
                            .map_or(Cell::Text("—".to_string()), |t| Cell::Text(t.clone())),
                    );
                }
                row.push(Cell::Score(s.points));
                row
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: format!("crosstable-{sid}"),
            caption: Some(format!(
                "{} · {}",
                cx.section_name(sid),
                cx.note(sec.note())
            )),
            columns,
            rows,
        }));
        blocks.push(Block::Paragraph(arbiter_director::crosstable::legend(
            &sec.scoring,
            cx.lang == Lang::Zh,
        )));
    }
    if blocks.is_empty() {
        return Err(ReportError::Nothing(
            "没有已编排的积分编排制或循环赛轮次 (no Swiss or round-robin round yet)".to_string(),
        ));
    }
    Ok(blocks)
}

// ---------------------------------------------------------------- teams

fn teams(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let mut blocks = Vec::new();
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

// ---------------------------------------------------------------- bracket

fn bracket(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
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
                    .map(|(k, p)| vec![Cell::Int(*k as i64), Cell::Text(who(p))])
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

// ---------------------------------------------------------------- prizes

fn kind_label(cx: &Ctx, k: PrizeKind) -> &'static str {
    match (cx.lang, k) {
        (Lang::Zh, PrizeKind::Place) => "名次奖",
        (Lang::Zh, PrizeKind::Lucky) => "幸运奖",
        (Lang::Zh, PrizeKind::Team) => "团体奖",
        (Lang::Zh, PrizeKind::Title) => "称号",
        (Lang::En, PrizeKind::Place) => "place",
        (Lang::En, PrizeKind::Lucky) => "lucky",
        (Lang::En, PrizeKind::Team) => "team",
        (Lang::En, PrizeKind::Title) => "title",
    }
}

struct Winner {
    section: String,
    category: Option<String>,
    rank: u32,
    who: String,
    unit: Option<String>,
    kind: PrizeKind,
    amount: Option<arbiter_types::Score>,
    title: Option<String>,
    item: Option<String>,
    trophy: bool,
    medal: bool,
}

impl Winner {
    /// K13: the trophy (奖杯) and the medal (奖牌) that go with the prize.
    fn honours(&self, lang: Lang) -> Vec<&'static str> {
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

fn winners(cx: &Ctx, ex: &Export) -> Vec<Winner> {
    ex.prizes
        .iter()
        .filter(|p| cx.sections.contains(&p.section))
        .map(|p| {
            let se = section_export(ex, &p.section);
            let player =
                p.no.and_then(|n| se.and_then(|s| s.players.iter().find(|x| x.no == n)));
            let category = p.category.as_ref().map(|c| {
                se.and_then(|s| s.categories.iter().find(|x| &x.id == c))
                    .map_or(c.clone(), |x| x.name.clone())
            });
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
            }
        })
        .collect()
}

fn prizes(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let ws = winners(cx, &ex);
    let qualified: Vec<&arbiter_director::export::QualifiedRow> = ex
        .qualified
        .iter()
        .filter(|q| cx.sections.contains(&q.section))
        .collect();
    if ws.is_empty() && qualified.is_empty() {
        return Err(ReportError::Nothing(
            "尚无获奖名单: 赛事结束(event close)后才确定奖项 (no prizes yet: they are fixed when the event is closed)"
                .to_string(),
        ));
    }
    // K13: a column of trophies and medals when any prize has one.
    let any_honours = ws.iter().any(|w| w.trophy || w.medal);
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
            row
        })
        .collect();
    // T9 "奖金为税前": the amounts say so.
    let before_tax = ex.event.prizes_before_tax;
    let amount_head = if before_tax {
        cx.t("奖金(元，税前)", "Amount (yuan, before tax)")
    } else {
        cx.t("奖金(元)", "Amount (yuan)")
    };
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
    blocks.extend([Block::Paragraph(match (cx.lang, before_tax) {
        (Lang::Zh, false) => format!("奖金合计 {total} 元"),
        (Lang::Zh, true) => format!("奖金合计 {total} 元（税前）"),
        (Lang::En, false) => format!("Prize money in total: {total} yuan"),
        (Lang::En, true) => format!("Prize money in total: {total} yuan (before tax)"),
    })]);
    // S8: the qualification lists (取得资格名单), one table per section and what it is for.
    let mut lists: Vec<(&str, &str, Vec<&arbiter_director::export::QualifiedRow>)> = Vec::new();
    for q in qualified {
        match lists.last_mut() {
            Some((s, to, v)) if *s == q.section && *to == q.to => v.push(q),
            _ => lists.push((q.section.as_str(), q.to.as_str(), vec![q])),
        }
    }
    for (section, to, list) in lists {
        let se = section_export(&ex, section);
        let rows = list
            .iter()
            .map(|q| {
                let player = se.and_then(|s| s.players.iter().find(|x| x.no == q.no));
                vec![
                    Cell::Int(i64::from(q.place)),
                    Cell::Int(i64::from(q.no)),
                    Cell::Text(player.map_or(String::new(), |x| x.name.clone())),
                    Cell::opt(
                        player
                            .and_then(|x| x.unit.clone().or_else(|| x.association.clone()))
                            .as_deref(),
                    ),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: "qualified".to_string(),
            caption: Some(match cx.lang {
                Lang::Zh => format!("{} 取得「{to}」资格名单", cx.section_name(section)),
                Lang::En => format!("{}: qualified for {to}", cx.section_name(section)),
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
    Ok(blocks)
}

// ---------------------------------------------------------------- certificates

fn certificates(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let ex = cx.export()?;
    let ws = winners(cx, &ex);
    if ws.is_empty() && ex.special_awards.is_empty() {
        return Err(ReportError::Nothing(
            "尚无获奖者: 赛事结束(event close)后才确定奖项 (no prize winners yet)".to_string(),
        ));
    }
    let mut blocks = Vec::new();
    let date = one_date(cx.reg.event.end, cx.lang);
    let issuers = if cx.reg.event.organisers.is_empty() {
        cx.reg.event.hosts.clone()
    } else {
        cx.reg.event.organisers.clone()
    };
    for (i, w) in ws.iter().enumerate() {
        if i > 0 {
            blocks.push(Block::PageBreak);
        }
        let event_en = || {
            cx.reg
                .event
                .name_en
                .clone()
                .unwrap_or_else(|| cx.reg.event.name.clone())
        };
        if w.kind == PrizeKind::Lucky {
            // A lucky draw is no honour: its winner gets a voucher (兑奖凭证) for the prize.
            let item = w.item.clone().unwrap_or_default();
            let citation = match cx.lang {
                Lang::Zh => format!(
                    "在{}{}比赛中获得幸运奖：{item}。凭此证兑奖。",
                    cx.reg.event.name,
                    cx.section_name(&w.section)
                ),
                Lang::En => format!(
                    "won a lucky prize in {} of {}: {item}. Hand this voucher in for it.",
                    cx.section_name(&w.section),
                    event_en()
                ),
            };
            blocks.push(Block::Certificate(Certificate {
                heading: cx.t("兑奖凭证", "Prize voucher").to_string(),
                recipient: w.who.clone(),
                unit: w.unit.clone(),
                citation,
                award: None,
                issuers: issuers.clone(),
                date: date.clone(),
            }));
            continue;
        }
        // A team prize names its division ("荣获团体甲组第一名"); the team is not the
        // individual section it is ranked from.
        let group = match (&w.category, w.kind) {
            (_, PrizeKind::Team) => String::new(),
            (Some(c), _) => format!("{}{c}", cx.section_name(&w.section)),
            (None, _) => cx.section_name(&w.section),
        };
        let division = w.category.clone().unwrap_or_default();
        let what = match (cx.lang, w.kind) {
            (Lang::Zh, PrizeKind::Team) => format!("团体{division}第{}名", zh_rank(w.rank)),
            (Lang::Zh, _) => format!("第{}名", zh_rank(w.rank)),
            (Lang::En, PrizeKind::Team) if division.is_empty() => {
                format!("team place {}", w.rank)
            }
            (Lang::En, PrizeKind::Team) => format!("team place {} of {division}", w.rank),
            (Lang::En, _) => format!("place {}", w.rank),
        };
        // K13 "颁发奖杯、荣誉证书" / "颁发奖牌、证书": the certificate names them.
        let honours = w.honours(cx.lang);
        let citation = match cx.lang {
            Lang::Zh => {
                let with = if honours.is_empty() {
                    String::new()
                } else {
                    format!("，颁发{}", honours.join("、"))
                };
                format!(
                    "在{}{}比赛中荣获{what}{with}。特发此证，以资鼓励。",
                    cx.reg.event.name, group
                )
            }
            Lang::En => {
                let with = if honours.is_empty() {
                    String::new()
                } else {
                    format!(", with a {}", honours.join(" and a "))
                };
                if group.is_empty() {
                    format!("for {what} in {}{with}.", event_en())
                } else {
                    format!("for {what} in {group} of {}{with}.", event_en())
                }
            }
        };
        blocks.push(Block::Certificate(Certificate {
            heading: cx.t("荣誉证书", "Certificate").to_string(),
            recipient: w.who.clone(),
            unit: w.unit.clone(),
            citation,
            award: w.title.clone(),
            issuers: issuers.clone(),
            date: date.clone(),
        }));
    }
    // S10: a certificate for each organiser's award given.
    for a in &ex.special_awards {
        for r in &a.recipients {
            if !blocks.is_empty() {
                blocks.push(Block::PageBreak);
            }
            let citation = match cx.lang {
                Lang::Zh => format!(
                    "在{}中荣获{}。特发此证，以资鼓励。",
                    cx.reg.event.name, a.award
                ),
                Lang::En => format!(
                    "for 「{}」 at {}.",
                    a.award,
                    cx.reg
                        .event
                        .name_en
                        .clone()
                        .unwrap_or_else(|| cx.reg.event.name.clone())
                ),
            };
            blocks.push(Block::Certificate(Certificate {
                heading: cx.t("荣誉证书", "Certificate").to_string(),
                recipient: r.clone(),
                unit: None,
                citation,
                award: None,
                issuers: issuers.clone(),
                date: date.clone(),
            }));
        }
    }
    Ok(blocks)
}

fn zh_rank(n: u32) -> String {
    if (1..=99).contains(&n) {
        arbiter_knockout::bracket::zh_num(n)
    } else {
        n.to_string()
    }
}
