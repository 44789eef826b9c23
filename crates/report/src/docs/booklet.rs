//! The two booklets of an event, each one PDF with a cover and a table of contents whose
//! page numbers the renderer fills in:
//!
//! - 秩序册 (the programme): the regulation's summary, the officials once recorded
//!   (`officials_appointed`), the schedule by day, the entries of every section by unit (a
//!   team section's teams with their players in board order), the first round's pairings
//!   once paired.
//! - 成绩册 (the results book): the final standings with their tie-breaks, the crosstables,
//!   the team standings, the knockout, the prizes, the officials and the corrections of the
//!   log.

use super::{col, date_range, one_date, Ctx};
use crate::{Align, Block, Cell, Cover, Lang, ReportError, Table};
use std::collections::BTreeMap;

/// 一、二、三 … for a chapter's number (a booklet has at most a dozen chapters).
fn numeral(n: usize) -> String {
    const D: [&str; 11] = [
        "", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
    ];
    match n {
        0..=10 => D[n].to_string(),
        11..=19 => format!("十{}", D[n - 10]),
        _ => n.to_string(),
    }
}

/// The chapters, numbered: `一、竞赛规程摘要` (`1. Regulation` in English).
struct Chapters {
    lang: Lang,
    n: usize,
}

impl Chapters {
    fn next(&mut self, zh: &str, en: &str) -> Block {
        self.n += 1;
        Block::Chapter(match self.lang {
            Lang::Zh => format!("{}、{zh}", numeral(self.n)),
            Lang::En => format!("{}. {en}", self.n),
        })
    }
}

fn cover(cx: &Ctx, title: &str) -> Block {
    let e = &cx.reg.event;
    let mut lines = vec![format!(
        "{}{}",
        cx.t("比赛日期：", "Dates: "),
        date_range(&cx.reg, cx.lang)
    )];
    if let Some(v) = &e.venue {
        lines.push(format!("{}{v}", cx.t("比赛地点：", "Venue: ")));
    }
    if !e.organisers.is_empty() {
        lines.push(format!(
            "{}{}",
            cx.t("主办单位：", "Organisers: "),
            e.organisers.join(cx.t("、", ", "))
        ));
    }
    if !e.hosts.is_empty() {
        lines.push(format!(
            "{}{}",
            cx.t("承办单位：", "Hosts: "),
            e.hosts.join(cx.t("、", ", "))
        ));
    }
    Block::Cover(Cover {
        event: match cx.lang {
            Lang::En => e.name_en.clone().unwrap_or_else(|| e.name.clone()),
            Lang::Zh => e.name.clone(),
        },
        title: title.to_string(),
        lines,
    })
}

/// A context of one section (for the documents built section by section).
fn one_section<'a>(cx: &Ctx<'a>, sid: &str) -> Ctx<'a> {
    Ctx {
        state: cx.state,
        reg: cx.reg.clone(),
        lang: cx.lang,
        sections: vec![sid.to_string()],
        // A booklet is handed out: never the players' claim codes.
        claims: None,
    }
}

pub(super) fn programme(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let mut ch = Chapters {
        lang: cx.lang,
        n: 0,
    };
    let mut blocks = vec![
        cover(cx, cx.t("秩序册", "Programme")),
        Block::Contents(cx.t("目录", "Contents").to_string()),
    ];
    // The regulation as `regulation check` sums it up: every section's format, rounds, time
    // control, scoring and tie-breaks.
    blocks.push(ch.next("竞赛规程摘要", "Regulation"));
    let lang = match cx.lang {
        Lang::Zh => arbiter_regulation::summary::Lang::Zh,
        Lang::En => arbiter_regulation::summary::Lang::En,
    };
    for line in cx.reg.summary(lang).lines().skip(1) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        match t.strip_prefix('[').and_then(|r| r.split_once("] ")) {
            Some((_, name)) => blocks.push(Block::Heading(name.to_string())),
            None => blocks.push(Block::Paragraph(t.to_string())),
        }
    }
    if let Some(bs) = officials(cx) {
        blocks.push(ch.next("竞赛官员", "Officials"));
        blocks.extend(bs);
    }
    blocks.push(ch.next("竞赛日程", "Schedule"));
    blocks.extend(schedule(cx));
    blocks.push(ch.next("参赛名单", "Entries"));
    for (i, sid) in cx.sections.iter().enumerate() {
        if i > 0 {
            blocks.push(Block::PageBreak);
        }
        blocks.push(Block::Heading(cx.section_name(sid)));
        blocks.extend(entries(cx, sid));
    }
    let paired: Vec<&String> = cx
        .sections
        .iter()
        .filter(|s| cx.state.section(s).is_some_and(|r| r.round(1).is_some()))
        .collect();
    if !paired.is_empty() {
        blocks.push(ch.next("第一轮对阵", "Round 1 pairings"));
        for (i, sid) in paired.into_iter().enumerate() {
            let one = one_section(cx, sid);
            let (_, subtitle, bs) =
                super::round::round_doc(&one, Some(1), super::round::RoundDoc::Pairings)?;
            if i > 0 {
                blocks.push(Block::PageBreak);
            }
            blocks.push(Block::Heading(
                subtitle.unwrap_or_else(|| cx.section_name(sid)),
            ));
            blocks.extend(bs);
        }
    }
    Ok(blocks)
}

/// The officials as recorded, one row a role (its names in the order appointed); `None` when
/// the event records none. Names only: the log holds nothing else of an official.
fn officials(cx: &Ctx) -> Option<Vec<Block>> {
    let roles = arbiter_director::api::officials::by_role(cx.state);
    if roles.is_empty() {
        return None;
    }
    let rows = roles
        .into_iter()
        .map(|(role, names)| vec![Cell::Text(role), Cell::Text(names.join(cx.t("、", ", ")))])
        .collect();
    Some(vec![Block::Table(Table {
        id: "officials".to_string(),
        caption: None,
        columns: vec![
            col("role", cx.t("职务", "Role"), Align::Left, 16),
            col("names", cx.t("姓名", "Names"), Align::Left, 40),
        ],
        rows,
    })])
}

/// The schedule by day: check-in, then every round's start, day by day.
fn schedule(cx: &Ctx) -> Vec<Block> {
    // (date, time, section, what) in time order.
    let mut rows: BTreeMap<(chrono::NaiveDate, String, usize), (String, String)> = BTreeMap::new();
    let r = &cx.reg.registration;
    if let Some(d) = r.check_in {
        let time = r
            .check_in_time
            .map(|t| t.format("%H:%M").to_string())
            .unwrap_or_default();
        rows.insert(
            (d, time, 0),
            (String::new(), cx.t("报到", "Check-in").to_string()),
        );
    }
    for (k, sid) in cx.sections.iter().enumerate() {
        let Some(s) = cx.reg.section(sid) else {
            continue;
        };
        for (i, at) in s.schedule.iter().enumerate() {
            rows.insert(
                (at.date(), at.format("%H:%M").to_string(), k + 1),
                (
                    cx.section_name(sid),
                    match cx.lang {
                        Lang::Zh => format!("第{}轮", i + 1),
                        Lang::En => format!("Round {}", i + 1),
                    },
                ),
            );
        }
    }
    if rows.len() <= usize::from(r.check_in.is_some()) {
        return vec![Block::Paragraph(match cx.lang {
            Lang::Zh => format!(
                "比赛日期 {}; 规程未列出各轮开始时间, 以裁判长公布为准。",
                date_range(&cx.reg, cx.lang)
            ),
            Lang::En => format!(
                "Dates: {}. The regulation gives no round times; the chief arbiter announces them.",
                date_range(&cx.reg, cx.lang)
            ),
        })];
    }
    let mut last_day = None;
    let rows = rows
        .into_iter()
        .map(|((d, time, _), (section, what))| {
            let day = (last_day != Some(d)).then(|| one_date(d, cx.lang));
            last_day = Some(d);
            vec![
                Cell::opt(day.as_deref()),
                Cell::Text(time),
                Cell::Text(section),
                Cell::Text(what),
            ]
        })
        .collect();
    vec![Block::Table(Table {
        id: "schedule".to_string(),
        caption: None,
        columns: vec![
            col("date", cx.t("日期", "Date"), Align::Left, 12),
            col("time", cx.t("时间", "Time"), Align::Center, 8),
            col("section", cx.t("组别", "Section"), Align::Left, 14),
            col("what", cx.t("内容", "What"), Align::Left, 14),
        ],
        rows,
    })]
}

/// A section's entries: its teams (players in board order), then its players unit by unit.
fn entries(cx: &Ctx, sid: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let teams: Vec<_> = cx
        .state
        .teams
        .values()
        .filter(|t| t.section.as_deref() == Some(sid))
        .collect();
    if !teams.is_empty() {
        let rows = teams
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let members: Vec<String> = t
                    .members
                    .iter()
                    .enumerate()
                    .filter_map(|(b, p)| cx.state.player(*p).map(|p| (b, p)))
                    .map(|(b, p)| format!("{}.{}", b + 1, p.person.name))
                    .collect();
                vec![
                    Cell::Int(k as i64 + 1),
                    Cell::text(&t.team),
                    Cell::text(&t.unit),
                    Cell::opt(t.leader.as_deref()),
                    Cell::opt(t.coach.as_deref()),
                    Cell::Text(members.join("  ")),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            id: format!("programme-teams-{sid}"),
            caption: Some(
                cx.t("参赛队 (队员按台次)", "Teams (players by board)")
                    .to_string(),
            ),
            columns: vec![
                col("seq", cx.t("序", "#"), Align::Right, 4),
                col("team", cx.t("队名", "Team"), Align::Left, 14),
                col("unit", cx.t("单位", "Unit"), Align::Left, 14),
                col("leader", cx.t("领队", "Leader"), Align::Left, 7),
                col("coach", cx.t("教练", "Coach"), Align::Left, 7),
                col("members", cx.t("队员", "Players"), Align::Left, 30),
            ],
            rows,
        }));
    }
    if super::team_match::is_team(cx, sid) && !teams.is_empty() {
        return blocks;
    }
    let mut units: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let numbers = arbiter_director::publish::publish_numbers(cx.state, sid);
    for p in cx.state.players(sid) {
        if p.withdrawn.is_some() {
            continue;
        }
        let unit = p
            .person
            .unit
            .clone()
            .or_else(|| p.person.association.clone())
            .unwrap_or_else(|| cx.t("(个人)", "(individual)").to_string());
        let who = match numbers.get(&p.id) {
            Some(n) => format!("{n}.{}", p.person.name),
            None => p.person.name.clone(),
        };
        units.entry(unit).or_default().push(who);
    }
    if units.is_empty() {
        blocks.push(Block::Paragraph(
            cx.t("尚无报名 (no entries yet)", "No entries yet")
                .to_string(),
        ));
        return blocks;
    }
    let total: usize = units.values().map(Vec::len).sum();
    let rows = units
        .into_iter()
        .enumerate()
        .map(|(k, (unit, names))| {
            vec![
                Cell::Int(k as i64 + 1),
                Cell::Text(unit),
                Cell::Int(names.len() as i64),
                Cell::Text(names.join("  ")),
            ]
        })
        .collect();
    blocks.push(Block::Table(Table {
        id: format!("programme-entries-{sid}"),
        caption: Some(match cx.lang {
            Lang::Zh => format!("按单位 (共 {total} 人; 姓名前为序号)"),
            Lang::En => format!("By unit ({total} players; the number before a name)"),
        }),
        columns: vec![
            col("seq", cx.t("序", "#"), Align::Right, 4),
            col("unit", cx.t("单位", "Unit"), Align::Left, 16),
            col("count", cx.t("人数", "Players"), Align::Right, 5),
            col("names", cx.t("姓名", "Names"), Align::Left, 40),
        ],
        rows,
    }));
    blocks
}

pub(super) fn results_book(cx: &Ctx) -> Result<Vec<Block>, ReportError> {
    let mut ch = Chapters {
        lang: cx.lang,
        n: 0,
    };
    let mut blocks = vec![
        cover(cx, cx.t("成绩册", "Results book")),
        Block::Contents(cx.t("目录", "Contents").to_string()),
    ];
    let mut any = false;
    type Part = fn(&Ctx) -> Result<Vec<Block>, ReportError>;
    let parts: [(&str, &str, Part); 5] = [
        ("最终名次", "Final standings", super::standings),
        ("轮次成绩表", "Crosstables", super::crosstable),
        ("团体名次", "Team standings", super::teams),
        ("淘汰赛对阵", "Knockout", super::bracket),
        ("获奖名单", "Prizes", super::prizes),
    ];
    for (zh, en, build) in parts {
        match build(cx) {
            Ok(bs) if !bs.is_empty() => {
                blocks.push(ch.next(zh, en));
                blocks.extend(bs);
                any = true;
            }
            Ok(_) | Err(ReportError::Nothing(_)) => {}
            Err(e) => return Err(e),
        }
    }
    if !any {
        return Err(ReportError::Nothing(
            "尚无成绩: 还没有一轮的结果 (no results yet)".to_string(),
        ));
    }
    if let Some(bs) = officials(cx) {
        blocks.push(ch.next("竞赛官员", "Officials"));
        blocks.extend(bs);
    }
    blocks.push(ch.next("更正记录", "Corrections"));
    blocks.extend(corrections(cx));
    Ok(blocks)
}

/// Every correction of the log in the sections covered: a confirmed result corrected by the
/// chief arbiter (A12), a registration corrected.
fn corrections(cx: &Ctx) -> Vec<Block> {
    let mut rows: Vec<(u64, Vec<Cell>)> = Vec::new();
    for sid in &cx.sections {
        let Some(sec) = cx.state.section(sid) else {
            continue;
        };
        for rd in sec.rounds.values() {
            for b in rd.boards.iter() {
                let mut before = None;
                for h in &b.history {
                    match h {
                        arbiter_core::ResultChange::Entered { result, .. } => {
                            before = Some(*result)
                        }
                        arbiter_core::ResultChange::Confirmed { .. } => {}
                        arbiter_core::ResultChange::Corrected {
                            seq,
                            result,
                            reason,
                            by,
                        } => {
                            let what = match cx.lang {
                                Lang::Zh => format!(
                                    "第{}轮 第{}台: {} → {}",
                                    rd.round,
                                    b.board,
                                    before.map_or("—", |r| r.zh()),
                                    result.zh()
                                ),
                                Lang::En => format!(
                                    "Round {} board {}: {} → {}",
                                    rd.round,
                                    b.board,
                                    before.map_or("—", |r| r.name()),
                                    result.name()
                                ),
                            };
                            before = Some(*result);
                            rows.push((
                                *seq,
                                vec![
                                    Cell::Int(*seq as i64),
                                    Cell::Text(cx.section_name(sid)),
                                    Cell::Text(what),
                                    Cell::text(reason),
                                    Cell::text(by),
                                ],
                            ));
                        }
                    }
                }
            }
        }
        for p in cx.state.players(sid) {
            for (seq, reason) in &p.corrections {
                rows.push((
                    *seq,
                    vec![
                        Cell::Int(*seq as i64),
                        Cell::Text(cx.section_name(sid)),
                        Cell::Text(match cx.lang {
                            Lang::Zh => format!("报名信息 {}", p.person.name),
                            Lang::En => format!("Entry of {}", p.person.name),
                        }),
                        Cell::text(reason),
                        Cell::Empty,
                    ],
                ));
            }
        }
    }
    if rows.is_empty() {
        return vec![Block::Paragraph(
            cx.t("本赛事无更正记录。", "No correction was made.")
                .to_string(),
        )];
    }
    rows.sort_by_key(|(seq, _)| *seq);
    vec![Block::Table(Table {
        id: "corrections".to_string(),
        caption: None,
        columns: vec![
            col("seq", cx.t("日志号", "Log no."), Align::Right, 6),
            col("section", cx.t("组别", "Section"), Align::Left, 10),
            col("what", cx.t("更正内容", "Correction"), Align::Left, 24),
            col("reason", cx.t("理由", "Reason"), Align::Left, 24),
            col("by", cx.t("裁判长", "By"), Align::Left, 8),
        ],
        rows: rows.into_iter().map(|(_, r)| r).collect(),
    })]
}
