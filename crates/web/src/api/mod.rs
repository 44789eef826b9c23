//! The read JSON API (documented in `docs/api.md`). Same data as the public pages — no ID
//! numbers, no phone numbers — built from the cached state and cached per state like the
//! pages (one serialisation per change of the log).
//!
//! - `GET /api/events`
//! - `GET /api/events/{event}` (also `/sections`)
//! - `GET /api/events/{event}/sections/{section}/rounds/{round}` — the `round show --json`
//!   shape (published rounds only)
//! - `GET /api/events/{event}/sections/{section}/results`
//! - `GET /api/events/{event}/sections/{section}/standings`
//! - `GET /api/events/{event}/sections/{section}/players`
//! - `GET /api/events/{event}/teams`
//! - `GET /api/events/{event}/live` — server-sent events (see [`crate::live`])

use crate::app::AppState;
use crate::cache::Snapshot;
use crate::error::WebError;
use crate::page::Page;
use crate::public::views;
use arbiter_director::export::{AssociationRow, PlayerExport, RoundExport, StandingRow, TeamTable};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use std::sync::Arc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/events", get(events))
        .route("/api/events/{event}", get(event))
        .route("/api/events/{event}/sections", get(sections))
        .route(
            "/api/events/{event}/sections/{section}/rounds/{round}",
            get(round),
        )
        .route(
            "/api/events/{event}/sections/{section}/results",
            get(results),
        )
        .route(
            "/api/events/{event}/sections/{section}/standings",
            get(standings),
        )
        .route(
            "/api/events/{event}/sections/{section}/players",
            get(players),
        )
        .route("/api/events/{event}/teams", get(teams))
}

/// JSON errors for the API: `{"error": "…"}` with the page's status.
pub struct ApiError(WebError);

impl From<WebError> for ApiError {
    fn from(e: WebError) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.0.to_string() });
        (self.0.status(), axum::Json(body)).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

#[derive(Serialize)]
struct EventItem {
    id: String,
    name: String,
}

/// `GET /api/events`: `[{"id", "name"}]`.
async fn events(State(app): State<AppState>, headers: HeaderMap) -> ApiResult {
    let list: Vec<EventItem> = app
        .events()
        .iter()
        .map(|e| EventItem {
            id: e.id.0.clone(),
            name: e.name.clone(),
        })
        .collect();
    Ok(Page::json(&list)?.respond(&headers))
}

/// The page `key` of `snap` as JSON of what `make` returns (cached per state).
async fn cached_json<T, F>(
    snap: &Arc<Snapshot>,
    key: String,
    headers: &HeaderMap,
    make: F,
) -> ApiResult
where
    T: Serialize,
    F: Fn(&Snapshot) -> Result<T, WebError> + Send + Sync + 'static,
{
    let page = snap
        .page(&format!("api:{key}"), move |s| Page::json(&make(s)?))
        .await?;
    Ok(page.respond(headers))
}

#[derive(Serialize)]
struct RoundItem {
    round: u32,
    published: bool,
    completed: bool,
    boards: usize,
}

#[derive(Serialize)]
struct SectionItem {
    id: String,
    name: String,
    players: usize,
    rounds: Vec<RoundItem>,
}

#[derive(Serialize)]
struct EventDetail {
    id: String,
    name: String,
    /// File stem of the regulation (`kunshan-2026`).
    regulation: String,
    /// Seq of the last log entry the answer reflects.
    last_seq: u64,
    sections: Vec<SectionItem>,
}

fn section_items(s: &Snapshot) -> Vec<SectionItem> {
    s.state
        .sections
        .values()
        .map(|sec| SectionItem {
            id: sec.id.clone(),
            name: sec.name.clone(),
            players: sec.entries.len(),
            rounds: sec
                .rounds
                .values()
                .map(|r| RoundItem {
                    round: r.round,
                    published: r.published,
                    completed: r.completed,
                    boards: r.boards.len(),
                })
                .collect(),
        })
        .collect()
}

/// `GET /api/events/{event}`.
async fn event(
    State(app): State<AppState>,
    Path(event): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    cached_json(&snap, "event".into(), &headers, |s| {
        Ok(EventDetail {
            id: s.event.0.clone(),
            name: s.title().to_string(),
            regulation: arbiter_director::regulation_stem(&s.state),
            last_seq: s.last_seq(),
            sections: section_items(s),
        })
    })
    .await
}

/// `GET /api/events/{event}/sections`.
async fn sections(
    State(app): State<AppState>,
    Path(event): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    cached_json(&snap, "sections".into(), &headers, |s| Ok(section_items(s))).await
}

/// `GET /api/events/{event}/sections/{section}/rounds/{round}`: the pairing sheet, the
/// `round show --json` shape.
async fn round(
    State(app): State<AppState>,
    Path((event, section, round)): Path<(String, String, u32)>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    views::sheet(&snap, &section, round)?;
    cached_json(
        &snap,
        format!("round/{section}/{round}"),
        &headers,
        move |s| {
            let sheet = views::sheet(s, &section, round)?;
            serde_json::to_value(&*sheet).map_err(|e| WebError::Internal(e.to_string()))
        },
    )
    .await
}

#[derive(Serialize)]
struct Results<'a> {
    section: &'a str,
    /// Rounds completed (they count in the standings).
    completed_rounds: u32,
    /// Every round with the results entered so far (`arbiter-export/1` round shape).
    rounds: &'a [RoundExport],
}

/// `GET /api/events/{event}/sections/{section}/results`.
async fn results(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    cached_json(&snap, format!("results/{section}"), &headers, move |s| {
        let e = s.export()?;
        let sec = views::export_section(&e, &section)?;
        let completed = s
            .state
            .section(&section)
            .map_or(0, |r| r.completed_rounds());
        serde_json::to_value(Results {
            section: &section,
            completed_rounds: completed,
            rounds: &sec.rounds,
        })
        .map_err(|e| WebError::Internal(e.to_string()))
    })
    .await
}

#[derive(Serialize)]
struct Standings<'a> {
    section: &'a str,
    completed_rounds: u32,
    /// Tie-break names after points, in order (the keys of each row's `tiebreaks`).
    tiebreaks: &'a [String],
    standings: Vec<StandingItem<'a>>,
}

#[derive(Serialize)]
struct StandingItem<'a> {
    #[serde(flatten)]
    row: &'a StandingRow,
    name: Option<&'a str>,
    unit: Option<&'a str>,
}

/// `GET /api/events/{event}/sections/{section}/standings`.
async fn standings(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    cached_json(&snap, format!("standings/{section}"), &headers, move |s| {
        let e = s.export()?;
        let sec = views::export_section(&e, &section)?;
        let player = |no: u32| sec.players.iter().find(|p| p.no == no);
        serde_json::to_value(Standings {
            section: &section,
            completed_rounds: s
                .state
                .section(&section)
                .map_or(0, |r| r.completed_rounds()),
            tiebreaks: &sec.tiebreaks,
            standings: sec
                .standings
                .iter()
                .map(|row| StandingItem {
                    row,
                    name: player(row.no).map(|p| p.name.as_str()),
                    unit: player(row.no).and_then(|p| p.unit.as_deref()),
                })
                .collect(),
        })
        .map_err(|e| WebError::Internal(e.to_string()))
    })
    .await
}

#[derive(Serialize)]
struct Players<'a> {
    section: &'a str,
    players: &'a [PlayerExport],
}

/// `GET /api/events/{event}/sections/{section}/players`: the published player list.
async fn players(
    State(app): State<AppState>,
    Path((event, section)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    views::section_name(&snap, &section)?;
    cached_json(&snap, format!("players/{section}"), &headers, move |s| {
        let e = s.export()?;
        let sec = views::export_section(&e, &section)?;
        serde_json::to_value(Players {
            section: &section,
            players: &sec.players,
        })
        .map_err(|e| WebError::Internal(e.to_string()))
    })
    .await
}

#[derive(Serialize)]
struct Teams<'a> {
    teams: &'a [TeamTable],
    associations: &'a [AssociationRow],
}

/// `GET /api/events/{event}/teams`: the `teams --json` shape.
async fn teams(
    State(app): State<AppState>,
    Path(event): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    let snap = app.snapshot(&event).await?;
    cached_json(&snap, "teams".into(), &headers, |s| {
        let e = s.export()?;
        serde_json::to_value(Teams {
            teams: &e.teams,
            associations: &e.associations,
        })
        .map_err(|e| WebError::Internal(e.to_string()))
    })
    .await
}
