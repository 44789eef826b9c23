//! The public pages (no login). Every page is built from the cached snapshot of its event
//! and cached per (page, language) in it, so it is rendered once per change of the log.
//! Views carry names, units, teams and results only — never an ID number or a phone.

pub(crate) mod event;
mod game;
mod section;
pub(crate) mod team;
pub mod views;

pub use section::pairings_page;

use crate::app::AppState;
use crate::cache::Snapshot;
use crate::error::WebError;
use crate::i18n::Lang;
use crate::page::Page;
use askama::Template;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/lang", get(crate::i18n::switch))
        .merge(event::routes())
        .merge(section::routes())
}

/// What the shared layout (`templates/base.html`) needs.
pub struct Layout {
    pub l: Lang,
    pub title: String,
    /// This page's path (the language switch comes back here).
    pub path: String,
    pub event: Option<EventNav>,
    /// The section being shown (highlighted in the nav).
    pub section: Option<String>,
    /// `last_seq` of the state the page shows (live updates compare it).
    pub seq: u64,
}

pub struct EventNav {
    pub id: String,
    pub name: String,
    pub sections: Vec<NavSection>,
    pub has_teams: bool,
}

pub struct NavSection {
    pub id: String,
    pub name: String,
}

impl Layout {
    pub fn plain(l: Lang, title: impl Into<String>, path: impl Into<String>) -> Layout {
        Layout {
            l,
            title: title.into(),
            path: path.into(),
            event: None,
            section: None,
            seq: 0,
        }
    }

    /// The layout of a page of `snap`'s event.
    pub fn event(
        l: Lang,
        snap: &Snapshot,
        title: impl AsRef<str>,
        path: impl Into<String>,
        section: Option<&str>,
    ) -> Layout {
        let st = &snap.state;
        Layout {
            l,
            title: format!("{} · {}", title.as_ref(), snap.title_in(l)),
            path: path.into(),
            event: Some(EventNav {
                id: snap.event.0.clone(),
                name: snap.title_in(l),
                sections: st
                    .sections
                    .values()
                    .map(|s| NavSection {
                        id: s.id.clone(),
                        name: snap
                            .section_title(l, &s.id)
                            .unwrap_or_else(|| s.name.clone()),
                    })
                    .collect(),
                has_teams: !st.teams.is_empty(),
            }),
            section: section.map(str::to_string),
            seq: snap.last_seq(),
        }
    }
}

/// Render a template into a cacheable page.
pub fn render(t: &impl Template) -> Result<Page, WebError> {
    t.render()
        .map(Page::html)
        .map_err(|e| WebError::Internal(e.to_string()))
}

/// The page `key` of `snap` in language `l` (cached), answered for `headers`.
pub async fn cached<F>(
    snap: &Arc<Snapshot>,
    key: String,
    l: Lang,
    headers: &HeaderMap,
    render: F,
) -> Result<Response, WebError>
where
    F: Fn(&Snapshot) -> Result<Page, WebError> + Send + Sync + 'static,
{
    let page = snap.page(&format!("{key}#{}", l.code()), render).await?;
    Ok(page.respond(headers))
}

#[derive(Template)]
#[template(path = "home.html")]
struct Home {
    layout: Layout,
    events: Vec<arbiter_store::EventSummary>,
}

/// `/`: the events of the database.
async fn home(
    State(app): State<AppState>,
    l: Lang,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let t = Home {
        layout: Layout::plain(l, l.t("象棋竞赛", "Xiangqi events"), "/"),
        events: app.events().as_ref().clone(),
    };
    Ok(render(&t)?.respond(&headers))
}
