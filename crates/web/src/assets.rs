//! Static assets embedded in the binary (no CDN; works with no internet).

use crate::app::AppState;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

pub const STYLE: &str = include_str!("../assets/style.css");
pub const LIVE_JS: &str = include_str!("../assets/live.js");
/// The replay page's step buttons and arrow keys (`templates/game.html`).
pub const REPLAY_JS: &str = include_str!("../assets/replay.js");
pub const ICON: &str = include_str!("../assets/icon.svg");

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/assets/style.css",
            get(|| async { asset(STYLE, "text/css; charset=utf-8") }),
        )
        .route(
            "/assets/live.js",
            get(|| async { asset(LIVE_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/replay.js",
            get(|| async { asset(REPLAY_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/favicon.svg",
            get(|| async { asset(ICON, "image/svg+xml") }),
        )
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut r = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    r
}
