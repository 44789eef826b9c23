//! `/desk/e/{ev}/cash`: the event's cash report (收支表) — collected, refunded, owed and held
//! per money item and in total, exact to the fen — for the organiser and the chief arbiter
//! only (never public); no player is named in it. Its form refunds every deposit due back
//! under a rule (`api::money::refund_due`).

use super::{back, event_id, opt, Desk};
use crate::app::AppState;
use crate::auth::{Organisers, Post, RequireRole};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::money;
use arbiter_regulation::RefundAt;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

struct CashRow {
    item: String,
    kind: &'static str,
    due: String,
    collected: String,
    refunded: String,
    owed: String,
    held: String,
    payers: u32,
}

#[derive(Template)]
#[template(path = "desk/cash.html")]
struct CashPage<'a> {
    l: Lang,
    csrf: &'a str,
    ev: &'a str,
    rows: Vec<CashRow>,
    /// The refund rules of the regulation's deposits: (key, 中文).
    rules: Vec<(&'static str, &'static str)>,
}

/// `GET /desk/e/{ev}/cash`.
pub async fn show(
    State(app): State<AppState>,
    l: Lang,
    RequireRole(auth, ..): RequireRole<Organisers>,
    Path(ev): Path<String>,
) -> Result<Response, WebError> {
    let id = event_id(&ev);
    let (snap, _) = app.refresh(&id).await?;
    let st = &snap.state;
    let report = money::cash_report(st).map_err(|e| WebError::BadRequest(e.to_string()))?;
    let kind = |k: &str| match k {
        "fee" => "费用",
        "deposit" => "押金",
        _ => "",
    };
    let rows = report
        .items
        .iter()
        .chain(std::iter::once(&report.total))
        .map(|c| CashRow {
            item: c.item.clone(),
            kind: kind(c.kind),
            due: money::yuan_exact(c.due_fen),
            collected: money::yuan_exact(c.collected_fen),
            refunded: money::yuan_exact(c.refunded_fen),
            owed: money::yuan_exact(c.owed_fen),
            held: money::yuan_exact(c.held_fen),
            payers: c.payers,
        })
        .collect();
    let mut rules: Vec<(&'static str, &'static str)> = st
        .regulation()
        .map(|reg| {
            reg.registration
                .charges
                .iter()
                .filter_map(|c| c.refund_at)
                .map(|r| (r.key(), r.zh()))
                .collect()
        })
        .unwrap_or_default();
    rules.sort_unstable();
    rules.dedup();
    let page = CashPage {
        l,
        csrf: &auth.csrf,
        ev: &ev,
        rows,
        rules,
    };
    let name = st.name().to_string();
    Desk::new(
        l,
        &auth,
        format!("{} · {}", name, l.t("收支表", "Cash report")),
        format!("/desk/e/{ev}/cash"),
    )
    .crumb(format!("/desk/e/{ev}"), name)
    .render(StatusCode::OK, &page)
}

#[derive(Deserialize)]
pub struct RefundDueForm {
    rule: Option<String>,
}

/// `POST /desk/e/{ev}/cash`: refund every deposit due back under `rule`.
pub async fn refund_due(
    State(app): State<AppState>,
    Path(ev): Path<String>,
    p: Post<Organisers, RefundDueForm>,
) -> Result<Response, WebError> {
    let here = format!("/desk/e/{ev}/cash");
    let rule = match opt(&p.form.rule).as_deref() {
        Some("last_round") => RefundAt::LastRound,
        Some("closing") => RefundAt::Closing,
        Some("on_conditions") => RefundAt::OnConditions,
        _ => {
            return Ok(back(
                &here,
                Err("请选择退还规则 (choose a refund rule)".into()),
            ))
        }
    };
    let done = write::apply_with(&app, &event_id(&ev), &p.auth, move |st, ctx| {
        let es = money::refund_due(st, ctx, rule)?;
        let n = es.len();
        Ok((es, n))
    })
    .await?;
    Ok(back(
        &here,
        done.map(|(_, n)| format!("已退还押金 {n} 笔 ({n} deposits refunded)")),
    ))
}
