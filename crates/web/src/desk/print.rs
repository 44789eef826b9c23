//! `/desk/e/{ev}/print`: the printed documents of an event (the same `arbiter-report` model as
//! `arbiter print`), as A4 HTML pages the browser prints. Without `doc` it lists the documents;
//! with `doc` (and optional `section`, `round`) it returns the document. ID numbers and phones
//! are masked here (the organiser's unmasked check-in sheet is `arbiter print --organiser`).

use super::{e, event_id, Desk};
use crate::app::AppState;
use crate::auth::{RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_report::{DocKind, Options, Privacy};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use std::fmt::Write;

#[derive(Deserialize)]
pub struct PrintQuery {
    doc: Option<String>,
    section: Option<String>,
    round: Option<String>,
}

/// `GET /desk/e/{ev}/print[?doc=NAME&section=S&round=N]`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Staff>,
    Path(ev): Path<String>,
    Query(q): Query<PrintQuery>,
) -> Result<Response, WebError> {
    let id = event_id(&ev);
    let (snap, _) = app.refresh(&id).await?;
    let Some(doc) = q.doc.as_deref().filter(|d| !d.trim().is_empty()) else {
        let mut c = String::new();
        let _ = write!(c, "<h1>{}</h1><ul class=\"docs\">", l.t("打印", "Print"));
        for kind in DocKind::ALL {
            let _ = write!(
                c,
                "<li><a href=\"/desk/e/{ev}/print?doc={name}\" target=\"_blank\">{label}</a></li>",
                ev = e(&ev),
                name = kind.name(),
                label = e(l.t(kind.zh(), kind.en())),
            );
        }
        let _ = write!(
            c,
            "</ul><p>{}</p>",
            l.t(
                "默认为最近一轮、全部组别；可在地址后加 &section=组别 &round=轮次。",
                "By default the last round and every section; add &section=S &round=N to the address."
            )
        );
        return Desk::new(
            l,
            &auth,
            l.t("打印", "Print"),
            format!("/desk/e/{ev}/print"),
        )
        .crumb(format!("/desk/e/{ev}"), snap.title().to_string())
        .render(StatusCode::OK, c);
    };
    let kind = DocKind::parse(doc).map_err(|err| WebError::BadRequest(err.to_string()))?;
    let round = match q.round.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => None,
        Some(r) => Some(r.parse::<u32>().map_err(|_| {
            WebError::BadRequest(format!("轮次 `{r}` 不是数字 (round must be a number)"))
        })?),
    };
    let opts = Options {
        section: q.section.filter(|s| !s.trim().is_empty()),
        round,
        privacy: Privacy::Published,
        lang: if l.t("zh", "en") == "en" {
            arbiter_report::Lang::En
        } else {
            arbiter_report::Lang::Zh
        },
    };
    let html = tokio::task::spawn_blocking(move || {
        arbiter_report::build(&snap.state, kind, &opts).map(|d| arbiter_report::html::render(&d))
    })
    .await
    .map_err(|err| WebError::Internal(err.to_string()))?
    .map_err(|err| WebError::BadRequest(err.to_string()))?;
    Ok(Html(html).into_response())
}
