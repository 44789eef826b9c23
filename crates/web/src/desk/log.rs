//! `/desk/e/{ev}/log`: the event log for audit — every entry with its time, the account that
//! made it and what it says (ID numbers and phones masked), newest first, a page at a time.

use super::{e, event_id, Desk};
use crate::app::AppState;
use crate::auth::{RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_store::EventStore;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::fmt::Write;

/// Entries per page.
pub const PAGE: usize = 200;

#[derive(Deserialize)]
pub struct LogQuery {
    /// Show the entries before this seq (the next page).
    before: Option<u64>,
}

/// `GET /desk/e/{ev}/log`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(q): Query<LogQuery>,
) -> Result<Response, WebError> {
    let id = event_id(&ev);
    let (snap, _) = app.refresh(&id).await?;
    let records = app.with_store(move |st| Ok(st.read(&id)?)).await?;
    let before = q.before.unwrap_or(u64::MAX);
    let shown: Vec<_> = records
        .iter()
        .rev()
        .filter(|r| r.seq < before)
        .take(PAGE)
        .collect();
    let mut c = String::new();
    let _ = write!(
        c,
        "<h1>{}</h1><p>{} {}</p><table class=\"grid log\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        l.t("操作日志", "Event log"),
        records.len(),
        l.t("条记录", "entries"),
        l.t("时间", "Time"),
        l.t("操作人", "Account"),
        l.t("类型", "Kind"),
        l.t("内容", "What"),
    );
    for r in &shown {
        let mut what = r.entry.masked_json().to_string();
        if what.chars().count() > 240 {
            what = what.chars().take(240).collect::<String>() + "…";
        }
        let _ = write!(
            c,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            r.seq,
            e(&r.at),
            e(&r.actor),
            r.entry.kind(),
            e(&what)
        );
    }
    c.push_str("</tbody></table>");
    if let Some(last) = shown.last() {
        if last.seq > 1 {
            let _ = write!(
                c,
                "<p><a href=\"/desk/e/{}/log?before={}\">{}</a></p>",
                e(&ev),
                last.seq,
                l.t("更早 →", "Earlier →")
            );
        }
    }
    let name = snap.state.name().to_string();
    Desk::new(
        l,
        &auth,
        format!("{} · {}", name, l.t("操作日志", "Log")),
        format!("/desk/e/{ev}/log"),
    )
    .crumb(format!("/desk/e/{ev}"), name)
    .render_html(StatusCode::OK, c)
}
