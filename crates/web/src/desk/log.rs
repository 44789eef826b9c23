//! `/desk/e/{ev}/log`: the event log for audit — every entry with its time, the account that
//! made it and what it says (ID numbers and phones masked), newest first, a page at a time.

use super::{event_id, Desk};
use crate::app::AppState;
use crate::auth::{RequireRole, Staff};
use crate::error::WebError;
use crate::i18n::Lang;
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
    rows: Vec<LogRow<'a>>,
    /// The seq the next (earlier) page starts before, when there is one.
    earlier: Option<u64>,
}

/// One log entry as shown (personal data masked, long entries cut).
struct LogRow<'a> {
    seq: u64,
    at: &'a str,
    actor: &'a str,
    kind: &'static str,
    /// A result entry in words: the board, and the result it replaces (a re-entry before
    /// confirmation, a correction) → the new one.
    result: Option<String>,
    what: String,
}

/// The result entries of the log in words, by seq: 「第1轮第3台 1-0 → = (重新录入)」. The
/// result replaced is the one the log held for the board just before the entry.
fn result_lines(
    state: &arbiter_core::EventState,
    records: &[arbiter_core::Recorded],
) -> BTreeMap<u64, String> {
    use arbiter_core::LogEntry;
    use arbiter_director::api::rounds::notation;
    let mut last: BTreeMap<(&str, u32, u32), arbiter_types::GameResult> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for r in records {
        let (section, round, board, result, corrected) = match &r.entry {
            LogEntry::ResultEntered {
                section,
                round,
                board,
                result,
                ..
            } => (section, *round, *board, *result, false),
            LogEntry::ResultCorrected {
                section,
                round,
                board,
                result,
                ..
            } => (section, *round, *board, *result, true),
            _ => continue,
        };
        let old = last.insert((section.as_str(), round, board), result);
        let section = arbiter_director::refusal::Sec::of(state, section);
        let line = match (old, corrected) {
            (None, _) => format!(
                "{section} 第{round}轮第{board}台 {} ({})",
                notation(result),
                result.zh()
            ),
            (Some(o), c) => format!(
                "{section} 第{round}轮第{board}台 {} → {} ({} → {}) {}",
                notation(o),
                notation(result),
                o.zh(),
                result.zh(),
                if c {
                    "更正 (correction)"
                } else {
                    "重新录入 (re-entered)"
                }
            ),
        };
        out.insert(r.seq, line);
    }
    out
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
    let results = result_lines(&snap.state, &records);
    let before = q.before.unwrap_or(u64::MAX);
    let rows: Vec<LogRow> = records
        .iter()
        .rev()
        .filter(|r| r.seq < before)
        .take(PAGE)
        .map(|r| {
            let mut what = r.entry.masked_json().to_string();
            if what.chars().count() > 240 {
                what = what.chars().take(240).collect::<String>() + "…";
            }
            LogRow {
                seq: r.seq,
                at: &r.at,
                actor: &r.actor,
                kind: r.entry.kind(),
                result: results.get(&r.seq).cloned(),
                what,
            }
        })
        .collect();
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
    .crumb(format!("/desk/e/{ev}"), name)
    .render(StatusCode::OK, &page)
}
