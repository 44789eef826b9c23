//! The pages of one section: overview, a round's pairings and results (with "find my
//! board"), the big screen, standings, crosstable, a player's page, the knockout bracket.

use super::views::{self, Cell, CellWords, Found, PlayerRow, SectionHistory};
use super::{cached, render, Layout};
use crate::app::AppState;
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_director::api::rounds::RoundSheet;
use arbiter_director::bracket_view::{Entrant, SideView};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::sync::Arc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/e/{event}/s/{section}", get(overview))
        .route("/e/{event}/s/{section}/r/{round}", get(round))
        .route("/e/{event}/s/{section}/r/{round}/screen", get(screen))
        .route(
            "/e/{event}/s/{section}/r/{round}/b/{board}",
            get(super::game::game),
        )
        .route("/e/{event}/s/{section}/standings", get(standings))
        .route("/e/{event}/s/{section}/crosstable", get(crosstable))
        .route("/e/{event}/s/{section}/p/{no}", get(player))
        .route("/e/{event}/s/{section}/t/{no}", get(team))
        .route("/e/{event}/s/{section}/knockout", get(knockout))
}

// ---------------------------------------------------------------- overview

#[derive(Template)]
#[template(path = "section.html")]
struct Overview {
    layout: Layout,
    base: String,
    card: super::event::SectionCard,
}

async fn overview(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    let path = format!("/e/{event}/s/{section}");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let card = super::event::section_cards(s, l)
            .into_iter()
            .find(|c| c.id == section)
            .ok_or_else(|| WebError::NotFound(section.clone()))?;
        render(&Overview {
            layout: Layout::event(l, s, &card.name, path.clone(), Some(&section)),
            base: path.clone(),
            card,
        })
    })
    .await
}

// ---------------------------------------------------------------- a round

#[derive(Deserialize, Default)]
pub struct FindQuery {
    q: Option<String>,
}

#[derive(Template)]
#[template(path = "round.html")]
struct RoundPage {
    layout: Layout,
    base: String,
    round: u32,
    rounds: Vec<u32>,
    sheet: Arc<RoundSheet>,
    entered: usize,
    q: String,
    found: Vec<Found>,
    bye_found: bool,
    /// Players "find my board" found who are not on this round's sheet, with why
    /// (本轮请假, 已退赛 …): number, name, the reason in the page's language.
    away: Vec<(String, String, String)>,
    searched: bool,
    hits: Vec<(usize, bool)>,
    /// The boards with a game record (棋谱), linked to their replay page.
    recorded: Vec<u32>,
    /// A team-match section's round (A15): its matches with both line-ups, shown instead of
    /// the table of boards.
    team: Option<super::team::TeamRound>,
}

impl RoundPage {
    fn recorded(&self, board: &u32) -> bool {
        self.recorded.contains(board)
    }
    fn hit(&self, i: &usize) -> bool {
        self.hits.iter().any(|(j, _)| j == i)
    }
    /// Whether the round's board `board` is one "find my board" found.
    fn hit_board(&self, board: &u32) -> bool {
        self.hits
            .iter()
            .any(|(j, _)| self.sheet.boards.get(*j).is_some_and(|b| b.board == *board))
    }
    /// A round's board as the players call it: 「第11台」, in a team match 「第2场 第3台」.
    fn board_label(&self, board: &u32) -> String {
        let l = self.layout.l;
        match &self.team {
            Some(t) => t.board_label(l, *board),
            None => format!("{}{board}{}", l.t("第", "Board "), l.t("台", "")),
        }
    }
    fn result(&self, r: &Option<String>) -> &'static str {
        r.as_deref()
            .map_or("", |n| views::result_label(self.layout.l, n))
    }
    /// How the game ended (J5), in the page's language: 「困毙」, 「自然限着」 …
    fn ending(&self, e: &Option<arbiter_core::Ending>) -> String {
        e.map(|e| self.layout.l.t(e.zh(), &e.en()).to_string())
            .unwrap_or_default()
    }
}

fn published_rounds(snap: &crate::cache::Snapshot, section: &str) -> Vec<u32> {
    snap.state
        .section(section)
        .map(|s| {
            s.rounds
                .values()
                .filter(|r| r.published)
                .map(|r| r.round)
                .collect()
        })
        .unwrap_or_default()
}

fn round_page(
    s: &crate::cache::Snapshot,
    l: Lang,
    section: &str,
    round: u32,
    q: &str,
    path: String,
) -> Result<RoundPage, WebError> {
    let sheet = views::sheet(s, section, round)?;
    let name = views::section_name_in(s, l, section)?;
    let (hits, bye_found) = views::find(&sheet, q);
    let mut away = if hits.is_empty() && !bye_found {
        views::find_away(&s.state, l, section, round, q)
    } else {
        Vec::new()
    };
    // A finalist whose pair's group game is carried into this round plays no game in it.
    for a in &mut away {
        let carried = sheet
            .carried
            .iter()
            .any(|c| [c.red.no, c.black.no].iter().any(|n| n.to_string() == a.0));
        if carried {
            a.2 = l
                .t(
                    "预赛成绩带入，本轮不赛",
                    "group result carried: no game this round",
                )
                .to_string();
        }
    }
    let title = format!("{name} {}{round}{}", l.t("第", "round "), l.t("轮", ""));
    Ok(RoundPage {
        layout: Layout::event(l, s, title, path, Some(section)),
        base: format!("/e/{}/s/{section}", s.event),
        round,
        rounds: published_rounds(s, section),
        entered: views::entered(&sheet),
        found: views::found(&sheet, &hits),
        sheet,
        q: q.trim().to_string(),
        bye_found,
        away,
        searched: !q.trim().is_empty(),
        hits,
        recorded: s
            .state
            .section(section)
            .and_then(|x| x.round(round))
            .map(|r| {
                r.boards
                    .iter()
                    .filter(|b| b.record.is_some())
                    .map(|b| b.board)
                    .collect()
            })
            .unwrap_or_default(),
        team: super::team::round(s, l, section, round),
    })
}

/// The pairings page of a published round as the server caches it (HTML, gzip copy, ETag):
/// what one render costs after a change of the log (`benches/serve.rs` measures it).
pub fn pairings_page(
    s: &crate::cache::Snapshot,
    l: Lang,
    section: &str,
    round: u32,
) -> Result<crate::page::Page, WebError> {
    let path = format!("/e/{}/s/{section}/r/{round}", s.event);
    render(&round_page(s, l, section, round, "", path)?)
}

async fn round(
    State(app): State<AppState>,
    Path((event, section, round)): Path<(String, String, u32)>,
    Query(f): Query<FindQuery>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    // An unknown section or a round not published is a 404 before anything is cached.
    views::sheet(&snap, &section, round)?;
    let path = format!("/e/{event}/s/{section}/r/{round}");
    let q = f.q.unwrap_or_default();
    if q.trim().is_empty() {
        return cached(&snap, path, l, &headers, move |s| {
            pairings_page(s, l, &section, round)
        })
        .await;
    }
    // A search is answered for this request only (not cached); the sheet it reads is.
    if q.chars().count() > 40 {
        return Err(WebError::BadRequest("查询过长 (query too long)".into()));
    }
    let s = snap.clone();
    let page =
        tokio::task::spawn_blocking(move || render(&round_page(&s, l, &section, round, &q, path)?))
            .await
            .map_err(|e| WebError::Internal(e.to_string()))??;
    Ok(page.respond(&headers))
}

// ---------------------------------------------------------------- big screen

/// Boards per screen page and seconds per page.
const SCREEN_BOARDS: usize = 20;
const SCREEN_SECONDS: u32 = 12;

#[derive(Deserialize, Default)]
pub struct ScreenQuery {
    page: Option<usize>,
}

#[derive(Template)]
#[template(path = "screen.html")]
struct Screen {
    layout: Layout,
    event_id: String,
    title: String,
    sheet: Arc<RoundSheet>,
    from: usize,
    to: usize,
    page: usize,
    pages: usize,
    next: String,
    secs: u32,
    /// A team-match section's round (A15): the screen shows its matches `from..to`, each
    /// with its boards, instead of the boards by red and black.
    team: Option<super::team::TeamRound>,
}

/// Matches per screen page in a team-match section: as many as fill the rows of a page of
/// [`SCREEN_BOARDS`] boards and its head, a match taking a row for its score and one per
/// board (4 boards: 4 matches; 8 boards: 2), at least one.
fn screen_matches(boards: u32) -> usize {
    ((SCREEN_BOARDS + 1) / (boards.max(1) as usize + 1)).max(1)
}

/// The screen pages of a round: by matches in a team section, else by boards.
fn screen_pages(s: &crate::cache::Snapshot, section: &str, round: u32, boards: usize) -> usize {
    let team = arbiter_director::regulation_of(&s.state)
        .ok()
        .and_then(|reg| {
            let (_, tm) = arbiter_director::team_match::rules_of(&reg, section)?;
            let rec = s.state.section(section)?;
            let n = rec.matches.get(&round)?.matches.len();
            Some(n.div_ceil(screen_matches(tm.boards)))
        });
    team.unwrap_or_else(|| boards.div_ceil(SCREEN_BOARDS))
        .max(1)
}

impl Screen {
    fn result(&self, r: &Option<String>) -> &'static str {
        r.as_deref()
            .map_or("", |n| views::result_label(self.layout.l, n))
    }
}

async fn screen(
    State(app): State<AppState>,
    Path((event, section, round)): Path<(String, String, u32)>,
    Query(q): Query<ScreenQuery>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    // Only the pages the round has are rendered and cached: another number is a 404.
    let boards = views::sheet(&snap, &section, round)?.boards.len();
    let pages = screen_pages(&snap, &section, round, boards);
    let page = q.page.unwrap_or(1).max(1);
    if page > pages {
        return Err(WebError::NotFound(format!(
            "大屏第 {page} 页 (screen page {page} of {pages})"
        )));
    }
    let base = format!("/e/{event}/s/{section}/r/{round}/screen");
    let key = format!("{base}?page={page}");
    cached(&snap, key.clone(), l, &headers, move |s| {
        let sheet = views::sheet(s, &section, round)?;
        let name = views::section_name_in(s, l, &section)?;
        let pages = screen_pages(s, &section, round, sheet.boards.len());
        let page = page.min(pages);
        let team = super::team::round(s, l, &section, round);
        let (from, to) = match &team {
            Some(t) => {
                let per = screen_matches(t.boards_per_match());
                let from = (page - 1) * per;
                (from.min(t.matches.len()), (from + per).min(t.matches.len()))
            }
            None => {
                let from = (page - 1) * SCREEN_BOARDS;
                (from, (from + SCREEN_BOARDS).min(sheet.boards.len()))
            }
        };
        let next = format!("{base}?page={}", page % pages + 1);
        let title = format!(
            "{name} {}{round}{}",
            l.t("第", "round "),
            l.t("轮 对阵", " pairings")
        );
        render(&Screen {
            layout: Layout::event(l, s, &title, key.clone(), Some(&section)),
            event_id: s.event.0.clone(),
            title,
            sheet,
            from,
            to,
            page,
            pages,
            next,
            secs: SCREEN_SECONDS,
            team,
        })
    })
    .await
}

// ---------------------------------------------------------------- standings

pub struct StandingView {
    pub rank: u32,
    pub no: u32,
    pub name: String,
    pub unit: String,
    pub points: String,
    pub tiebreaks: Vec<String>,
    pub decided_by: views::Label,
    /// A confirmed result was corrected by the chief arbiter (A12).
    pub corrected: bool,
}

/// One group's table of a `groups` section.
pub struct GroupView {
    /// 「A组」 (in English 「Group A」).
    pub name: String,
    pub rows: Vec<StandingView>,
}

pub struct CategoryView {
    pub name: String,
    pub rows: Vec<(u32, u32, String)>,
}

/// A qualification list (S8: the best `places` of the section, or of a category, qualify for
/// a later event).
pub struct QualifiedView {
    /// What the places qualify for.
    pub to: String,
    /// The category whose ranking qualifies (its name), empty for the section's own.
    pub category: String,
    /// (qualifying place, number, name).
    pub rows: Vec<(u32, u32, String)>,
}

#[derive(Template)]
#[template(path = "standings.html")]
struct Standings {
    layout: Layout,
    base: String,
    /// 「第N轮后 · 暂定」 / 「… · 最终」.
    note: String,
    provisional: bool,
    columns: Vec<views::Label>,
    /// On a phone the columns show short labels: 「对手=对手分 · …」 spells them out.
    legend: String,
    rows: Vec<StandingView>,
    /// A `groups` section's group tables, shown above the section's places, and their
    /// tie-break columns.
    groups: Vec<GroupView>,
    group_columns: Vec<views::Label>,
    categories: Vec<CategoryView>,
    qualified: Vec<QualifiedView>,
    /// A team-match section's team standings (A15: 场分, 局分), shown above the players'.
    team: Option<Vec<super::team::TeamRow>>,
    /// A team-match section's board standings (台次成绩, for 台次奖).
    boards: Option<arbiter_director::team_match::BoardPrizes>,
    /// The disqualified players (A17): number and name, listed apart with no place.
    disqualified: Vec<(u32, String)>,
    /// 等级称号: place, number, name, the grade the place earns, and the grade held when it
    /// is that one or higher (not awarded).
    grade_awards: Vec<(u32, u32, String, String, Option<String>)>,
}

async fn standings(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    let path = format!("/e/{event}/s/{section}/standings");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let export = s.export()?;
        let sec = views::export_section(&export, &section)?;
        let names = views::names(s, &section);
        let name = |no: u32| names.get(&no).cloned().unwrap_or_default();
        let view = |r: &arbiter_director::export::StandingRow| {
            let (n, unit) = name(r.no);
            StandingView {
                rank: r.rank,
                no: r.no,
                name: n,
                unit: unit.unwrap_or_default(),
                points: r.points.to_string(),
                tiebreaks: sec
                    .tiebreaks
                    .iter()
                    .map(|t| r.tiebreaks.get(t).map_or(String::new(), |v| v.to_string()))
                    .collect(),
                decided_by: r.decided_by.as_deref().map_or(
                    views::Label {
                        long: String::new(),
                        short: String::new(),
                    },
                    |d| views::Label::tiebreak(l, d),
                ),
                corrected: r.corrected,
            }
        };
        // A `groups` section: each group's table (A组, B组 …), ranks within the group, with
        // the columns its rows carry (a group's table has no lot or fallback column).
        let group_columns: Vec<usize> = (0..sec.tiebreaks.len())
            .filter(|&i| {
                sec.groups.iter().any(|g| {
                    g.standings
                        .iter()
                        .any(|r| r.tiebreaks.contains_key(&sec.tiebreaks[i]))
                })
            })
            .collect();
        let keep = |mut v: StandingView| {
            v.tiebreaks = group_columns
                .iter()
                .filter_map(|&i| v.tiebreaks.get(i).cloned())
                .collect();
            v
        };
        let groups: Vec<GroupView> = sec
            .groups
            .iter()
            .map(|g| GroupView {
                name: l
                    .t(&format!("{}组", g.name), &format!("Group {}", g.name))
                    .to_string(),
                rows: g.standings.iter().map(&view).map(keep).collect(),
            })
            .collect();
        let rows: Vec<StandingView> = sec.standings.iter().map(&view).collect();
        let categories = sec
            .categories
            .iter()
            .map(|c| CategoryView {
                name: c.name.clone(),
                rows: c
                    .standings
                    .iter()
                    .map(|r| (r.rank, r.no, name(r.no).0))
                    .collect(),
            })
            .collect();
        let mut qualified: Vec<QualifiedView> = Vec::new();
        for q in export.qualified.iter().filter(|q| q.section == section) {
            let row = (q.place, q.no, name(q.no).0);
            let category = q.category.as_deref().map_or(String::new(), |c| {
                sec.categories
                    .iter()
                    .find(|x| x.id == c)
                    .map_or(c.to_string(), |x| x.name.clone())
            });
            match qualified.last_mut() {
                Some(v) if v.to == q.to && v.category == category => v.rows.push(row),
                _ => qualified.push(QualifiedView {
                    to: q.to.clone(),
                    category,
                    rows: vec![row],
                }),
            }
        }
        let grade_awards = export
            .grade_awards
            .iter()
            .filter(|g| g.section == section)
            .map(|g| {
                let held = (!g.awarded).then(|| g.held.clone().unwrap_or_default());
                (g.rank, g.no, name(g.no).0, g.grade.clone(), held)
            })
            .collect();
        let note = sec.note();
        let title = format!(
            "{} {}",
            views::section_name_in(s, l, &section)?,
            l.t("名次", "standings")
        );
        let columns: Vec<views::Label> = sec
            .tiebreaks
            .iter()
            .map(|t| views::Label::tiebreak(l, t))
            .collect();
        let group_columns: Vec<views::Label> = group_columns
            .iter()
            .filter_map(|&i| columns.get(i).cloned())
            .collect();
        render(&Standings {
            layout: Layout::event(l, s, title, path.clone(), Some(&section)),
            base: format!("/e/{}/s/{section}", s.event),
            note: l.t(&note.zh(), &note.en()).to_string(),
            provisional: note.provisional,
            legend: {
                let mut seen = std::collections::BTreeSet::new();
                columns
                    .iter()
                    .chain(rows.iter().map(|r| &r.decided_by))
                    .filter_map(views::Label::legend)
                    .filter(|x| seen.insert(x.clone()))
                    .collect::<Vec<_>>()
                    .join(" · ")
            },
            columns,
            rows,
            groups,
            group_columns,
            categories,
            qualified,
            team: super::team::standings(s, l, &section),
            boards: arbiter_director::regulation_of(&s.state)
                .ok()
                .and_then(|reg| {
                    arbiter_director::team_match::board_prizes(&reg, &s.state, &section)
                })
                .filter(|b| !b.boards.is_empty()),
            disqualified: sec
                .disqualified()
                .iter()
                .map(|p| (p.no, p.name.clone()))
                .collect(),
            grade_awards,
        })
    })
    .await
}

// ---------------------------------------------------------------- a team's page

#[derive(Template)]
#[template(path = "teampage.html")]
struct TeamPageView {
    layout: Layout,
    base: String,
    t: super::team::TeamPage,
}

/// A team's own page in a team-match section (A15): 404 for an unknown team or an
/// individual section.
async fn team(
    State(app): State<AppState>,
    Path((event, section, no)): Path<(String, String, u32)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    let path = format!("/e/{event}/s/{section}/t/{no}");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let t = super::team::team_page(s, l, &section, no)
            .ok_or_else(|| WebError::NotFound(format!("第{no}队 (team {no})")))?;
        let title = format!("{} · {}", t.name, views::section_name_in(s, l, &section)?);
        render(&TeamPageView {
            layout: Layout::event(l, s, title, path.clone(), Some(&section)),
            base: format!("/e/{}/s/{section}", s.event),
            t,
        })
    })
    .await
}

// ---------------------------------------------------------------- crosstable

#[derive(Template)]
#[template(path = "crosstable.html")]
struct Crosstable {
    layout: Layout,
    base: String,
    history: Arc<SectionHistory>,
    /// 「第N轮后 · 暂定」, as the standings say it.
    note: String,
    provisional: bool,
    legend: String,
    /// A team-match section's team crosstable (A15), above the players'.
    team: Option<super::team::TeamCross>,
}

impl Crosstable {
    fn short(&self, c: &Cell) -> String {
        c.short(self.layout.l)
    }
    /// The cell's tooltip: board and how the game ended (J5), 「第3台 · 困毙」.
    fn tip(&self, c: &Cell) -> String {
        c.tip(self.layout.l)
    }
}

async fn crosstable(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    let path = format!("/e/{event}/s/{section}/crosstable");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let history = views::history(s, &section)?;
        let export = s.export()?;
        let note = views::export_section(&export, &section)?.note();
        let title = format!(
            "{} {}",
            views::section_name_in(s, l, &section)?,
            l.t("交叉表", "crosstable")
        );
        let legend = l.t(&history.legend.0, &history.legend.1).to_string();
        render(&Crosstable {
            layout: Layout::event(l, s, title, path.clone(), Some(&section)),
            base: format!("/e/{}/s/{section}", s.event),
            note: l.t(&note.zh(), &note.en()).to_string(),
            provisional: note.provisional,
            legend,
            history,
            team: super::team::crosstable(s, l, &section),
        })
    })
    .await
}

// ---------------------------------------------------------------- a player

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
    layout: Layout,
    base: String,
    p: PlayerRow,
    /// In a team-match section: the player's team number (its page) and the boards of a
    /// match, to say a round's board as 「第2场 第3台」.
    team_no: Option<u32>,
    boards_per_match: Option<u32>,
}

impl PlayerPage {
    /// The board as the page shows it: the round's number, or in a team match 「2.3」
    /// (match 2, board 3).
    fn board_text(&self, b: &u32) -> String {
        match self.boards_per_match {
            Some(n) if n > 0 && *b > 0 => format!("{}.{}", (b - 1) / n + 1, (b - 1) % n + 1),
            _ => b.to_string(),
        }
    }
    fn colour(&self, c: &Cell) -> &'static str {
        c.colour_label(self.layout.l)
    }
    fn result(&self, c: &Cell) -> &'static str {
        c.result_label(self.layout.l)
    }
    fn ko_result(&self, g: &views::KoGame) -> &'static str {
        views::kind_label(self.layout.l, g.kind)
    }
}

async fn player(
    State(app): State<AppState>,
    Path((event, section, no)): Path<(String, String, u32)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    // A number the section does not have fails to render: a 404, and the cache keeps nothing
    // of it (`Snapshot::page` drops a failed render).
    let path = format!("/e/{event}/s/{section}/p/{no}");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let history = views::history(s, &section)?;
        let p = history
            .player(no)
            .cloned()
            .ok_or_else(|| WebError::NotFound(format!("{section} {no}号 (player)")))?;
        let title = format!("{} {}{}", p.name, no, l.t("号", ""));
        let boards_per_match = arbiter_director::regulation_of(&s.state)
            .ok()
            .and_then(|reg| {
                arbiter_director::team_match::rules_of(&reg, &section).map(|(_, tm)| tm.boards)
            });
        let team_no = boards_per_match.and_then(|_| {
            let t = p.team.as_ref()?;
            super::team::team_numbers(s, &section).get(t).copied()
        });
        render(&PlayerPage {
            layout: Layout::event(l, s, title, path.clone(), Some(&section)),
            base: format!("/e/{}/s/{section}", s.event),
            p,
            team_no,
            boards_per_match,
        })
    })
    .await
}

// ---------------------------------------------------------------- knockout

pub struct MatchView {
    pub label: String,
    pub players: Vec<String>,
    pub games: Vec<String>,
    pub winner: Option<String>,
}

#[derive(Template)]
#[template(path = "knockout.html")]
struct Knockout {
    layout: Layout,
    kind: String,
    /// Set while the Swiss stage the seeds come from still has rounds to play.
    seeding: Option<String>,
    columns: Vec<(usize, Vec<MatchView>)>,
    places: Vec<(u32, String)>,
}

async fn knockout(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    let path = format!("/e/{event}/s/{section}/knockout");
    cached(&snap, path.clone(), l, &headers, move |s| {
        let reg = arbiter_director::regulation_of(&s.state)
            .map_err(|e| WebError::Internal(e.to_string()))?;
        if !super::event::has_knockout(Some(&reg), s, &section) {
            let name = reg.section(&section).map_or(section.as_str(), |x| x.name.as_str());
            return Err(WebError::NotFound(format!(
                "组别「{name}」没有淘汰赛阶段 (no knockout stage)"
            )));
        }
        let v = arbiter_director::bracket_view::bracket_view(&reg, &s.state, &section)
            .map_err(|e| WebError::NotFound(e.to_string()))?;
        let label = |e: &Entrant| {
            if e.name.is_empty() {
                e.no.to_string()
            } else {
                format!("{} ({})", e.name, e.no)
            }
        };
        let columns: Vec<(usize, Vec<MatchView>)> = v
            .rounds
            .iter()
            .enumerate()
            .map(|(i, ms)| {
                let ms = ms
                    .iter()
                    .map(|m| MatchView {
                        label: m.label.clone(),
                        players: m
                            .sides
                            .iter()
                            .map(|side| match side {
                                SideView::Player(e) => label(e),
                                SideView::Bye => l.t("轮空", "bye").to_string(),
                                SideView::Pending => "…".to_string(),
                            })
                            .collect(),
                        games: m
                            .games
                            .iter()
                            .map(|x| {
                                format!(
                                    "{} {} {} {}",
                                    x.label,
                                    label(&x.red),
                                    views::result_label(
                                        l,
                                        arbiter_director::api::rounds::notation(x.result)
                                    ),
                                    label(&x.black)
                                )
                            })
                            .chain(
                                m.decided_by
                                    .map(|d| l.t(d.zh(), d.en()).to_string()),
                            )
                            .collect(),
                        winner: m.winner.as_ref().map(label),
                    })
                    .collect();
                (i + 1, ms)
            })
            .collect();
        let places = v
            .places
            .as_ref()
            .map(|ps| {
                ps.iter()
                    .map(|(p, e)| {
                        // 并列: a place the bracket does not separate (the losers of a round).
                        let shared = ps.iter().filter(|(q, _)| q == p).count() > 1;
                        let name = if shared {
                            format!("{} ({})", label(e), l.t("并列", "shared"))
                        } else {
                            label(e)
                        };
                        (*p, name)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let title = format!(
            "{} {}",
            views::section_name_in(s, l, &section)?,
            l.t("淘汰赛", "knockout")
        );
        render(&Knockout {
            layout: Layout::event(l, s, title, path.clone(), Some(&section)),
            kind: v.kind.zh().to_string(),
            seeding: v.seeding.provisional.then(|| {
                let n = v.seeding.after_round;
                match l {
                    Lang::Zh => format!("种子按第{n}轮后的暂定名次排出, 瑞士制阶段结束前可能变化"),
                    Lang::En => format!(
                        "seeded from the provisional standings after round {n}; may change until the Swiss stage ends"
                    ),
                }
            }),
            columns,
            places,
        })
    })
    .await
}
