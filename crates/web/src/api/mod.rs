//! The read JSON API (documented in `docs/api.md`). Same data as the public pages: no ID
//! numbers, no phone numbers. Responses are cached per state like the pages.

use crate::app::AppState;
use crate::error::WebError;
use crate::page::Page;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde::Serialize;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/events", get(events))
}

#[derive(Serialize)]
struct EventItem {
    id: String,
    name: String,
}

/// `GET /api/events`: `[{"id", "name"}]`.
async fn events(State(app): State<AppState>, headers: HeaderMap) -> Result<Response, WebError> {
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
