//! Live updates: `GET /e/{event}/live` is a server-sent-events stream. The background task
//! [`watch`] polls every event's `last_seq` (one cheap indexed query each) and sends one
//! `change` message per new `last_seq` — whoever appended, this server or the CLI in
//! another process. Pages reload their `<main>` after a short random delay, so a hall full
//! of phones does not ask at the same instant; they all get the same cached page.
//!
//! A stream is one of a client's few ([`crate::net::LiveSlots`]: per address, per network,
//! in all) and ends after its lifetime, or when its event has not changed for the idle
//! time; its first message's `retry` (2–12 s, random) is how long the browser's
//! `EventSource` waits before it opens the stream again by itself, and the new stream's
//! first message says whether the page missed a change.
//!
//! On PostgreSQL every append sends `NOTIFY arbiter_log` in its transaction; [`listen`]
//! keeps one connection per server LISTENing and wakes [`watch`] at once, so a result
//! entered on another server reaches this one's phones without waiting for the poll (which
//! stays, slower, as a safety net should the listening connection break).

use crate::app::AppState;
use crate::error::WebError;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// The log of `event` now ends at `last_seq`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub event: String,
    pub last_seq: u64,
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/e/{event}/live", get(stream))
        .route("/api/events/{event}/live", get(stream))
}

/// Poll for appends every `every` (and whenever [`listen`] hears of one) until the server
/// stops.
pub async fn watch(app: AppState, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = app.appended.notified() => {}
        }
        if let Err(e) = app.refresh_all().await {
            tracing::warn!("注意: 读取日志失败 (polling the log failed): {e}");
        }
    }
}

/// PostgreSQL: a thread with a connection of its own LISTENing for appends by any server;
/// each wakes [`watch`]. Reconnects after a second if the connection breaks; ends when the
/// server stops or its state is gone. `None` for SQLite (polling sees other processes).
pub fn listen(app: &AppState) -> Option<std::thread::JoinHandle<()>> {
    let listener = app.postgres()?.listener();
    let weak = app.downgrade();
    Some(std::thread::spawn(move || loop {
        let alive = || AppState::upgrade(&weak).filter(|a| !*a.shutdown.borrow());
        let r = listener.run(|note| match alive() {
            Some(app) => {
                if note.is_some() {
                    app.appended.notify_one();
                }
                true
            }
            None => false,
        });
        if alive().is_none() {
            return;
        }
        if let Err(e) = r {
            tracing::warn!("注意: 监听 PostgreSQL 通知失败, 1 秒后重连 (listening for appends failed; retrying): {e}");
            std::thread::sleep(Duration::from_secs(1));
        }
    }))
}

fn message(c: &Change) -> Event {
    Event::default()
        .event("change")
        .id(c.last_seq.to_string())
        .data(serde_json::to_string(c).unwrap_or_default())
}

/// How long a browser waits before it opens an ended stream again: a random 2–12 s, so the
/// phones whose streams ended together (a restart, streams opened at the start of a round)
/// do not all come back at the same instant.
fn retry() -> Duration {
    use rand::Rng;
    Duration::from_millis(rand::thread_rng().gen_range(2_000..=12_000))
}

/// The instant `d` from now (a year at most).
fn after(d: Duration) -> tokio::time::Instant {
    let now = tokio::time::Instant::now();
    now.checked_add(d.min(Duration::from_secs(365 * 24 * 3600)))
        .unwrap_or(now)
}

async fn stream(
    State(app): State<AppState>,
    Path(event): Path<String>,
    client: crate::net::ClientInfo,
    slots: Option<axum::Extension<crate::net::LiveSlots>>,
) -> Result<axum::response::Response, WebError> {
    use axum::response::IntoResponse;
    // Streams are long-lived on purpose: their number is bounded per client, per network and
    // in all, and each ends after its lifetime or when idle (the browser opens it again).
    let (slot, lifetime, idle) = match slots {
        Some(axum::Extension(s)) => match s.take(client.addr) {
            Some(p) => (Some(p), s.lifetime, s.idle),
            None => return Ok((
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                [(axum::http::header::RETRY_AFTER, "30")],
                "实时更新连接已满, 请稍后刷新页面 (too many live streams; reload the page later)",
            )
                .into_response()),
        },
        None => {
            let l = crate::net::Limits::default();
            (None, l.live_lifetime, l.live_idle)
        }
    };
    // Subscribe first, then read the current seq: no change can fall between the two.
    let rx = app.changes.subscribe();
    let snap = app.snapshot(&event).await?;
    let first = Change {
        event: event.clone(),
        last_seq: snap.last_seq(),
    };
    let shutdown = app.shutdown.subscribe();
    let end = after(lifetime);
    let s = futures_util::stream::unfold(
        (Some(first), rx, shutdown, event, slot),
        move |(first, mut rx, mut shutdown, event, slot)| async move {
            if let Some(f) = first {
                return Some((
                    Ok::<Event, Infallible>(message(&f).retry(retry())),
                    (None, rx, shutdown, event, slot),
                ));
            }
            // Idle: counted from the last message sent (the keep-alives do not count).
            let quiet = after(idle).min(end);
            loop {
                if *shutdown.borrow() {
                    return None;
                }
                tokio::select! {
                    m = rx.recv() => match m {
                        Ok(c) if c.event == event => {
                            return Some((Ok(message(&c)), (None, rx, shutdown, event, slot)));
                        }
                        Ok(_) | Err(RecvError::Lagged(_)) => continue,
                        Err(RecvError::Closed) => return None,
                    },
                    _ = shutdown.changed() => return None,
                    _ = tokio::time::sleep_until(quiet) => return None,
                }
            }
        },
    );
    Ok(Sse::new(s)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}
