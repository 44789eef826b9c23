//! `/desk/e/{ev}/cash`: the event's cash report (收支表) — collected, refunded, owed and held
//! per money item and in total, exact to the fen — for the organiser and the chief arbiter
//! only (never public); no player is named in its totals. Its form refunds every deposit due
//! back under a rule (`api::money::refund_due`). When the regulation's deposits name refund
//! conditions, a table below lists the players holding such a deposit against the conditions,
//! each cell a button that marks it (or takes it back) through `api::money::mark_condition`.

use super::{back, event_id, opt, Desk};
use crate::app::AppState;
use crate::auth::{Organisers, Post, RequireRole};
use crate::error::WebError;
use crate::i18n::Lang;
use crate::write;
use arbiter_director::api::money;
use arbiter_director::command::money::MoneyCommand;
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
    /// The refund conditions of the regulation's deposits (the table's columns).
    conditions: Vec<String>,
    /// The players holding a deposit that names a condition.
    holders: Vec<Holder>,
    /// 「退赛选手已收」: the withdrawn players' money, added up (a row like the items'), if any.
    withdrawn_total: Option<CashRow>,
    /// Each withdrawn player: (「序号 3 张三」, section, 「已退赛, 已收 …」).
    withdrawn: Vec<(String, String, String)>,
}

/// A player holding a deposit with refund conditions: a cell per condition of the table,
/// `None` where none of his deposits names it.
struct Holder {
    pid: u32,
    /// 「序号 3 张三」 / 「P12 张三」.
    name: String,
    section: String,
    withdrawn: bool,
    cells: Vec<Option<bool>>,
}

/// The players holding a deposit that names a refund condition, by registration id.
fn holders(st: &arbiter_core::EventState, conditions: &[String]) -> Vec<Holder> {
    st.players
        .values()
        .filter_map(|p| {
            let named: Vec<String> = st
                .dues(p)
                .into_iter()
                .filter(|d| {
                    d.kind == arbiter_regulation::ChargeKind::Deposit
                        && p.money.get(&d.name).is_some_and(|m| m.held_fen() > 0)
                })
                .flat_map(|d| d.refund_conditions)
                .collect();
            (!named.is_empty()).then(|| Holder {
                pid: p.id.0,
                name: arbiter_director::api::entries::named(st, p.id),
                section: st
                    .section(&p.section)
                    .map_or(p.section.clone(), |s| s.name.clone()),
                withdrawn: p.withdrawn.is_some(),
                cells: conditions
                    .iter()
                    .map(|c| named.contains(c).then(|| p.conditions.contains(c)))
                    .collect(),
            })
        })
        .collect()
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
    let conditions = st
        .regulation()
        .map(|reg| reg.refund_conditions())
        .unwrap_or_default();
    let holders = holders(st, &conditions);
    let page = CashPage {
        l,
        csrf: &auth.csrf,
        ev: &ev,
        rows,
        rules,
        conditions,
        holders,
        withdrawn_total: (!report.withdrawn.is_empty()).then(|| {
            let w = &report.withdrawn_total;
            CashRow {
                item: w.item.clone(),
                kind: "",
                due: "—".into(),
                collected: money::yuan_exact(w.collected_fen),
                refunded: money::yuan_exact(w.refunded_fen),
                owed: "—".into(),
                held: money::yuan_exact(w.held_fen),
                payers: w.payers,
            }
        }),
        withdrawn: report
            .withdrawn
            .iter()
            .map(|w| (w.player.clone(), w.section.clone(), w.note.clone()))
            .collect(),
    };
    let name = st.name().to_string();
    Desk::new(
        l,
        &auth,
        format!("{} · {}", name, l.t("收支表", "Cash report")),
        format!("/desk/e/{ev}/cash"),
    )
    .event(&ev, st)
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
    p: Post<crate::auth::RefundDue, RefundDueForm>,
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
    let done = write::apply(
        &app,
        &event_id(&ev),
        &p.auth,
        MoneyCommand::RefundDue { rule },
    )
    .await?;
    Ok(back(
        &here,
        done.map(|a| {
            let n = a.entries.len();
            format!("已退还押金 {n} 笔 ({n} deposits refunded)")
        }),
    ))
}
