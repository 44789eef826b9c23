//! The one write path of the web desk, the same as the CLI's `apply_op`: take the folded
//! state of the event (the cache, brought up to date), call an operation of
//! `arbiter_director::api` with the logged-in account as the actor, and append what it
//! returns with the expected sequence number. If another writer appended in between (another
//! arbiter's tab, the CLI), the cache is brought up to date and the operation decided again
//! on the fresh state — so two arbiters entering different boards both land, and the second
//! one to enter the same board gets the director's refusal showing the value now stored.
//! No rule lives here or in a handler: the operation decides everything.

use crate::app::AppState;
use crate::error::WebError;
use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::Ctx;
use arbiter_director::DirectorError;
use arbiter_store::{EventId, EventStore, StoreError};
use std::sync::Arc;

/// How many lost races are retried before the arbiter is asked to try again.
pub const ATTEMPTS: usize = 20;

/// What an operation gave back once appended.
#[derive(Debug, Clone)]
pub struct Applied {
    pub entries: Vec<LogEntry>,
    /// The log's last seq after the append.
    pub last_seq: u64,
}

/// The time now as RFC 3339 with the venue's offset (+08:00), and as the venue's local time.
pub fn now_at() -> Result<(String, chrono::NaiveDateTime), WebError> {
    let secs = crate::auth::session::now();
    let at = arbiter_core::time::rfc3339_from_unix(secs);
    let local = arbiter_core::time::china_local(&at)
        .ok_or_else(|| WebError::Internal(format!("时间格式错误 (bad time): {at}")))?;
    Ok((at, local))
}

/// Run `op` on the current state of `event` as `actor` and append its entries. Outer
/// error: the server or database failed; inner error: the operation refused, with its
/// message (shown to the arbiter as it is).
pub async fn apply<F>(
    app: &AppState,
    event: &EventId,
    actor: &str,
    op: F,
) -> Result<Result<Applied, String>, WebError>
where
    F: Fn(&EventState, &Ctx) -> Result<Vec<LogEntry>, DirectorError> + Send + Sync + 'static,
{
    Ok(apply_with(app, event, actor, move |st, ctx| {
        op(st, ctx).map(|e| (e, ()))
    })
    .await?
    .map(|(a, ())| a))
}

/// [`apply`] for an operation that also tells something (the pairing's explanation): `op`
/// returns the entries and that, which comes back with the appended entries.
pub async fn apply_with<F, X>(
    app: &AppState,
    event: &EventId,
    actor: &str,
    op: F,
) -> Result<Result<(Applied, X), String>, WebError>
where
    F: Fn(&EventState, &Ctx) -> Result<(Vec<LogEntry>, X), DirectorError> + Send + Sync + 'static,
    X: Send + 'static,
{
    let op = Arc::new(op);
    for _ in 0..ATTEMPTS {
        let (snap, _) = app.refresh(event).await?;
        let (at, local) = now_at()?;
        let ctx = Ctx::new(actor, local);
        let op2 = op.clone();
        let snap2 = snap.clone();
        // Pairing a large round takes real time: off the async threads.
        let decided = tokio::task::spawn_blocking(move || op2(&snap2.state, &ctx))
            .await
            .map_err(|e| WebError::Internal(e.to_string()))?;
        let (entries, extra) = match decided {
            Ok(e) => e,
            Err(e) => return Ok(Err(e.to_string())),
        };
        if entries.is_empty() {
            let last_seq = snap.last_seq();
            return Ok(Ok((Applied { entries, last_seq }, extra)));
        }
        let expected = snap.last_seq();
        let (ev, who, es) = (event.clone(), actor.to_string(), entries.clone());
        let appended = app
            .with_store(move |st| Ok(st.append(&ev, expected, &es, &who, &at)))
            .await?;
        match appended {
            Ok(last_seq) => {
                // Show the write at once on this server's pages.
                app.refresh(event).await?;
                return Ok(Ok((Applied { entries, last_seq }, extra)));
            }
            Err(StoreError::Conflict { .. }) => continue,
            Err(StoreError::Refused { rejection, .. }) => return Ok(Err(rejection.to_string())),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Err(format!(
        "数据库繁忙: {ATTEMPTS} 次追加均与其他写入冲突, 请重试 (the log kept moving on; try again)"
    )))
}

/// Create a new event from entries an operation returned (the first is `EventCreated`).
pub async fn create(
    app: &AppState,
    name: &str,
    actor: &str,
    entries: Vec<LogEntry>,
) -> Result<Result<EventId, String>, WebError> {
    let (at, _) = now_at()?;
    let (name, actor) = (name.to_string(), actor.to_string());
    let created = app
        .with_store(move |st| Ok(st.create_checked(&name, &entries, &actor, &at)))
        .await?;
    match created {
        Ok(id) => {
            app.refresh_all().await?;
            Ok(Ok(id))
        }
        Err(StoreError::Fold(e)) => Ok(Err(e.to_string())),
        Err(StoreError::Rejected(e)) => Ok(Err(e.to_string())),
        Err(e) => Err(e.into()),
    }
}
