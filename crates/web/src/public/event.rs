//! The event home page and its QR code.

use super::{cached, render, Layout};
use crate::app::AppState;
use crate::cache::Snapshot;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::page::{Page, SVG};
use askama::Template;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/e/{event}", get(event_home))
        .route("/e/{event}/qr.svg", get(qr))
        .route("/e/{event}/teams", get(teams))
        .route("/e/{event}/prizes", get(prizes))
}

pub struct SectionCard {
    pub id: String,
    pub name: String,
    pub players: usize,
    /// Paired rounds, newest first: (round, published, completed).
    pub rounds: Vec<(u32, bool, bool)>,
    pub knockout: bool,
}

#[derive(Template)]
#[template(path = "event.html")]
struct EventHome {
    layout: Layout,
    id: String,
    /// Dates and venue (the regulation's, or as changed in the settings).
    when: String,
    venue: String,
    sections: Vec<SectionCard>,
}

async fn event_home(
    State(app): State<AppState>,
    Path(event): Path<String>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    let path = format!("/e/{event}");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let reg = arbiter_director::regulation_of(&s.state).ok();
        render(&EventHome {
            layout: Layout::event(l, s, l.t("赛事首页", "Event"), path.clone(), None),
            id: s.event.0.clone(),
            when: reg.as_ref().map_or(String::new(), |r| {
                if r.event.start == r.event.end {
                    r.event.start.to_string()
                } else {
                    format!("{} — {}", r.event.start, r.event.end)
                }
            }),
            venue: reg
                .as_ref()
                .and_then(|r| r.event.venue.clone())
                .unwrap_or_default(),
            sections: section_cards(s, l),
        })
    })
    .await
}

pub fn section_cards(s: &Snapshot, l: Lang) -> Vec<SectionCard> {
    let reg = arbiter_director::regulation_of(&s.state).ok();
    s.state
        .sections
        .values()
        .map(|sec| SectionCard {
            id: sec.id.clone(),
            name: s
                .section_title(l, &sec.id)
                .unwrap_or_else(|| sec.name.clone()),
            players: sec.entries.len(),
            rounds: sec
                .rounds
                .values()
                .rev()
                .map(|r| (r.round, r.published, r.completed))
                .collect(),
            knockout: has_knockout(reg.as_deref(), s, &sec.id),
        })
        .collect()
}

/// Whether a section has a knockout stage (two-stage format, numbers drawn).
pub fn has_knockout(
    reg: Option<&arbiter_regulation::Regulation>,
    s: &Snapshot,
    section: &str,
) -> bool {
    let (Some(reg), Some(rec)) = (reg, s.state.section(section)) else {
        return false;
    };
    reg.section(section).is_some_and(|sec| {
        matches!(
            arbiter_director::section_plan(sec, &s.state),
            arbiter_director::SectionPlan::TwoStage { .. }
        )
    }) && !rec.order.is_empty()
}

/// The public address of event `ev` players open: under `--public-url` when the server was
/// given one (`true`), otherwise the address the browser reached the server at (the `Host`
/// header; `false`), as before there was a `--public-url`.
pub fn public_address(app: &AppState, headers: &HeaderMap, ev: &str) -> (String, bool) {
    if let Some(base) = app.public_url() {
        return (format!("{base}/e/{ev}"), true);
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .unwrap_or("127.0.0.1:8080");
    (format!("http://{host}/e/{ev}"), false)
}

/// `/e/{event}/qr.svg`: a QR code of the event's public address ([`public_address`]), so a
/// phone can open it.
async fn qr(
    State(app): State<AppState>,
    Path(event): Path<String>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    let (url, _) = public_address(&app, &headers, &snap.event.0);
    let svg = qr_svg(&url)?;
    Ok(([(header::CONTENT_TYPE, SVG)], Page::new(svg, SVG).body).into_response())
}

/// An SVG QR code of `text`, generated in-process.
pub fn qr_svg(text: &str) -> Result<String, WebError> {
    let code = qrcode::QrCode::new(text.as_bytes()).map_err(|e| {
        WebError::BadRequest(format!("二维码无法生成 (cannot make a QR code): {e}"))
    })?;
    Ok(code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build())
}

pub struct TeamTableView {
    pub title: String,
    /// 「第N轮后 · 暂定」 / 「… · 最终」 of the section.
    pub note: String,
    pub provisional: bool,
    pub rows: Vec<TeamRowView>,
}

pub struct TeamRowView {
    pub rank: u32,
    pub team: String,
    /// Members with their ranks, e.g. `王一 (3), 李二 (8)`.
    pub members: String,
    pub total: String,
}

#[derive(Template)]
#[template(path = "teams.html")]
struct Teams {
    layout: Layout,
    tables: Vec<TeamTableView>,
    associations: Vec<(u32, String, u32)>,
    /// The team-match sections (A15), as (link to the section's standings, name): their team
    /// standings (场分, 局分) are on that page.
    matches: Vec<(String, String)>,
}

/// `/e/{event}/teams`: team standings of every section (and association standings).
async fn teams(
    State(app): State<AppState>,
    Path(event): Path<String>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    let path = format!("/e/{event}/teams");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let export = s.export()?;
        let tables = export
            .teams
            .iter()
            .map(|t| {
                let names = super::views::names(s, &t.section);
                let sec_name = s
                    .state
                    .section(&t.section)
                    .map_or(t.section.clone(), |x| x.name.clone());
                let division = t
                    .division
                    .as_ref()
                    .and_then(|d| {
                        s.state.section(&t.section).and_then(|x| {
                            x.divisions
                                .iter()
                                .find(|v| &v.id == d)
                                .map(|v| v.name.clone())
                        })
                    })
                    .or_else(|| t.division.clone());
                let note = export
                    .sections
                    .iter()
                    .find(|x| x.id == t.section)
                    .map(|x| x.note());
                TeamTableView {
                    note: note.map_or(String::new(), |n| l.t(&n.zh(), &n.en()).to_string()),
                    provisional: note.is_none_or(|n| n.provisional),
                    title: match division {
                        Some(d) => format!("{sec_name} · {d}"),
                        None => sec_name,
                    },
                    rows: t
                        .standings
                        .iter()
                        .map(|r| TeamRowView {
                            rank: r.rank,
                            team: r.team.clone(),
                            members: r
                                .members
                                .iter()
                                .map(|no| names.get(no).map_or(no.to_string(), |(n, _)| n.clone()))
                                .collect::<Vec<_>>()
                                .join("、"),
                            total: r.total.to_string(),
                        })
                        .collect(),
                }
            })
            .collect();
        let associations = export
            .associations
            .iter()
            .map(|a| (a.rank, a.association.clone(), a.total))
            .collect();
        render(&Teams {
            layout: Layout::event(l, s, l.t("团体名次", "Team standings"), path.clone(), None),
            tables,
            associations,
            matches: super::team::sections(s, l)
                .into_iter()
                .map(|(id, name)| (format!("/e/{}/s/{id}/standings", s.event), name))
                .collect(),
        })
    })
    .await
}

/// One table of the prize list as the page shows it: caption, headers, rows of text.
pub struct PrizeTable {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

#[derive(Template)]
#[template(path = "prizes.html")]
struct PrizesPage {
    layout: Layout,
    id: String,
    /// The event is not closed: the list follows the current standings (暂定).
    provisional: bool,
    tables: Vec<PrizeTable>,
    /// The document's notes (奖金为税前 …).
    notes: Vec<String>,
    /// Why there is no list yet, when there is none.
    none: Option<String>,
}

/// `GET /e/{ev}/prizes`: 获奖名单 on the phone — the printed prize list (names and units
/// only, as published), marked 暂定 until the event is closed.
async fn prizes(
    State(app): State<AppState>,
    Path(event): Path<String>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    let path = format!("/e/{event}/prizes");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let opts = arbiter_report::Options {
            lang: match l {
                Lang::Zh => arbiter_report::Lang::Zh,
                Lang::En => arbiter_report::Lang::En,
            },
            privacy: arbiter_report::Privacy::Published,
            ..Default::default()
        };
        let (tables, notes, none) =
            match arbiter_report::build(&s.state, arbiter_report::DocKind::Prizes, &opts) {
                Ok(doc) => {
                    let mut notes = Vec::new();
                    for b in &doc.blocks {
                        if let arbiter_report::Block::Paragraph(p) = b {
                            notes.push(p.clone());
                        }
                    }
                    let tables = doc
                        .tables()
                        .into_iter()
                        .map(|t| {
                            // A phone is narrow: a column empty in every row is left out.
                            let keep: Vec<usize> = (0..t.columns.len())
                                .filter(|&i| {
                                    t.rows.iter().any(|r| {
                                        r.get(i).is_some_and(|c| *c != arbiter_report::Cell::Empty)
                                    })
                                })
                                .collect();
                            PrizeTable {
                                caption: t.caption.clone().unwrap_or_default(),
                                headers: keep
                                    .iter()
                                    .map(|&i| t.columns[i].header.clone())
                                    .collect(),
                                rows: t
                                    .rows
                                    .iter()
                                    .map(|r| {
                                        keep.iter()
                                            .map(|&i| {
                                                r.get(i).map_or(String::new(), |c| c.display())
                                            })
                                            .collect()
                                    })
                                    .collect(),
                            }
                        })
                        .collect();
                    (tables, notes, None)
                }
                Err(arbiter_report::ReportError::Nothing(_)) => (
                    Vec::new(),
                    Vec::new(),
                    Some(
                        l.t(
                            "尚无获奖名单: 本赛事的奖项尚未产生。",
                            "No prize list yet: no prize has been decided.",
                        )
                        .to_string(),
                    ),
                ),
                Err(e) => return Err(WebError::Internal(e.to_string())),
            };
        render(&PrizesPage {
            layout: Layout::event(l, s, l.t("获奖名单", "Prize list"), path.clone(), None),
            id: s.event.0.clone(),
            provisional: !s.state.closed,
            tables,
            notes,
            none,
        })
    })
    .await
}
