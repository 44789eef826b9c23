//! `/desk/e/{ev}/log`: the event log for audit — every entry as a sentence saying who did
//! what, when (the director's `log_view`: names, not numbers or ids; ID numbers and phones
//! never shown), the recorded entry (masked) behind a details toggle, newest first, a page at
//! a time.

use super::{event_id, Desk};
use crate::app::AppState;
use crate::auth::{RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
use arbiter_director::log_view::{log_lines, Account, Language};
use arbiter_store::AccountStore;
use arbiter_store::EventStore;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Entries per page.
pub const PAGE: usize = 200;

#[derive(Deserialize)]
pub struct LogQuery {
    /// Show the entries before this seq (the next page).
    before: Option<u64>,
}

/// `/desk/e/{ev}/log`: a page of the event log, newest first.
#[derive(Template)]
#[template(path = "desk/log.html")]
struct LogPage<'a> {
    l: Lang,
    ev: &'a str,
    /// Entries in the whole log.
    total: usize,
    rows: Vec<LogRow>,
    /// The seq the next (earlier) page starts before, when there is one.
    earlier: Option<u64>,
}

/// One log entry as shown: its sentence (the director's [`log_view`]), and the recorded
/// entry for audit (personal data masked, long entries cut).
struct LogRow {
    seq: u64,
    /// The date, on the first row of each day of the page.
    day: Option<String>,
    time: String,
    who: String,
    what: String,
    raw: String,
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
    let (records, users) = app
        .with_store(move |st| Ok((st.read(&id)?, st.users()?)))
        .await?;
    let accounts: BTreeMap<String, Account> = users
        .into_iter()
        .map(|u| {
            (
                u.login,
                Account {
                    role: u.role,
                    name: u.display_name,
                },
            )
        })
        .collect();
    let before = q.before.unwrap_or(u64::MAX);
    // The page: the PAGE entries before `before`, worded in one pass over the log.
    let shown: Vec<u64> = records
        .iter()
        .rev()
        .filter(|r| r.seq < before)
        .take(PAGE)
        .map(|r| r.seq)
        .collect();
    let (first, last) = (
        shown.last().copied().unwrap_or(0),
        shown.first().copied().unwrap_or(0),
    );
    let language = match l {
        Lang::Zh => Language::Zh,
        Lang::En => Language::En,
    };
    let raw: BTreeMap<u64, &arbiter_core::Recorded> = records
        .iter()
        .filter(|r| (first..=last).contains(&r.seq))
        .map(|r| (r.seq, r))
        .collect();
    let mut rows: Vec<LogRow> = log_lines(&records, language, &accounts, |r| {
        (first..=last).contains(&r.seq)
    })
    .into_iter()
    .rev()
    .map(|line| {
        let mut raw = raw
            .get(&line.seq)
            .map(|r| r.entry.masked_json().to_string())
            .unwrap_or_default();
        if raw.chars().count() > 600 {
            raw = raw.chars().take(600).collect::<String>() + "…";
        }
        LogRow {
            seq: line.seq,
            day: Some(line.date),
            time: line.time,
            who: line.who,
            what: line.what,
            raw,
        }
    })
    .collect();
    // The date once a day (newest first).
    let mut day: Option<String> = None;
    for r in &mut rows {
        if r.day == day {
            r.day = None;
        } else {
            day = r.day.clone();
        }
    }
    let earlier = rows.last().map(|r| r.seq).filter(|&seq| seq > 1);
    let page = LogPage {
        l,
        ev: &ev,
        total: records.len(),
        rows,
        earlier,
    };
    let name = snap.state.name().to_string();
    Desk::new(
        l,
        &auth,
        format!("{} · {}", name, l.t("操作日志", "Log")),
        format!("/desk/e/{ev}/log"),
    )
    .event(&ev, &snap.state)
    .render(StatusCode::OK, &page)
}
