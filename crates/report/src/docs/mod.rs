//! One builder per document, each in a module of its own (the pairings, results and score
//! slips of a round are built by [`round`] the same way, section by section). Every value comes from the folded state through the director's
//! read functions (`publish::export`, `api::rounds::sheet`, `bracket_view::bracket_view`,
//! `api::entries::fee_due`); nothing is computed twice.

use crate::{
    Align, Block, Column, DocKind, Document, Lang, Options, Orientation, ReportError, Table,
};
use arbiter_core::EventState;
use arbiter_director::export::Export;
use arbiter_regulation::Regulation;
use chrono::Datelike;

mod booklet;
mod bracket;
mod cards;
mod cash;
mod certificates;
mod checkin;
mod crosstable;
mod entry_receipts;
mod pairings;
mod prizes;
mod receipts;
mod results;
mod round;
mod slips;
mod standings;
mod team_match;
mod teams;

use bracket::bracket;
use certificates::certificates;
use checkin::checkin;
use crosstable::crosstable;
use prizes::prizes;
use round::{round_doc, RoundDoc};
use standings::standings;
use teams::teams;

struct Ctx<'a> {
    state: &'a EventState,
    reg: std::sync::Arc<Regulation>,
    lang: Lang,
    /// The sections the document covers, in the regulation's order.
    sections: Vec<String>,
    /// The players' claim codes to print on the result slips, if asked for.
    claims: Option<crate::ClaimCodes>,
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
    /// The refusal of a round `n` the document's sections do not have: their names and the
    /// last round paired in any of them.
    fn unknown_round(&self, n: u32) -> ReportError {
        ReportError::UnknownRound {
            section: self
                .sections
                .iter()
                .map(|s| self.section_name(s))
                .collect::<Vec<_>>()
                .join(", "),
            round: n,
            last: self
                .sections
                .iter()
                .filter_map(|s| self.state.section(s))
                .map(|r| r.last_round())
                .max()
                .unwrap_or(0),
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

/// The context of a document: the regulation, the language and the sections covered (the
/// one asked for, or every section of the event).
fn context<'a>(state: &'a EventState, opts: &Options) -> Result<Ctx<'a>, ReportError> {
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
    Ok(Ctx {
        state,
        reg,
        lang: opts.lang,
        sections,
        claims: opts.claims.clone(),
    })
}

/// The 团体对阵及成绩 table of each team-match section covered (see
/// [`team_match::matches_table`]), for the spreadsheets; none for a section with no round
/// paired or not a team match.
pub(crate) fn team_matches(state: &EventState, opts: &Options) -> Result<Vec<Table>, ReportError> {
    let cx = context(state, opts)?;
    let mut out = Vec::new();
    for sid in &cx.sections {
        out.extend(team_match::matches_table(&cx, sid)?);
    }
    Ok(out)
}

pub(crate) fn build(
    state: &EventState,
    kind: DocKind,
    opts: &Options,
) -> Result<Document, ReportError> {
    let cx = context(state, opts)?;
    let lang = opts.lang;
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
        DocKind::TableCards => (
            Orientation::Portrait,
            None,
            cards::table_cards(&cx, opts.round)?,
        ),
        DocKind::NameCards => (Orientation::Portrait, None, cards::name_cards(&cx)?),
        DocKind::WallPairings => cards::wall_pairings(&cx, opts.round)?,
        DocKind::PrizeReceipts => (
            Orientation::Landscape,
            None,
            receipts::prize_receipts(&cx, opts.privacy)?,
        ),
        DocKind::Cash => (Orientation::Landscape, None, cash::cash(&cx)?),
        DocKind::Programme => (Orientation::Portrait, None, booklet::programme(&cx)?),
        DocKind::ResultsBook => (Orientation::Landscape, None, booklet::results_book(&cx)?),
        DocKind::EntryReceipts => (
            Orientation::Portrait,
            None,
            entry_receipts::entry_receipts(&cx)?,
        ),
    };
    let subtitle = subtitle.or_else(|| opts.section.as_ref().map(|s| cx.section_name(s)));
    // A document of team-match sections only is titled as the team event's (A15).
    let team_only =
        !cx.sections.is_empty() && cx.sections.iter().all(|s| team_match::is_team(&cx, s));
    let title = match kind {
        DocKind::Slips if team_only => lang.t("团体赛记分表", "Team score sheets"),
        DocKind::Crosstable if team_only => lang.t("团体交叉表", "Team crosstable"),
        _ => lang.t(kind.zh(), kind.en()),
    };
    Ok(Document {
        kind,
        title: title.to_string(),
        subtitle,
        event_name,
        date: date_range(&cx.reg, lang),
        orientation,
        lang,
        paper: crate::Paper::A4,
        // The wall copy is read from a few steps away.
        type_size: (kind == DocKind::WallPairings).then_some(15),
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
