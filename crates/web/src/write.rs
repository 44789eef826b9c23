//! The one write path of the web desk, the same as the CLI's `apply_op_as`: take the folded
//! state of the event (the cache, brought up to date), call an operation of
//! `arbiter_director::api` with the logged-in account as the actor, and append what it
//! returns with the expected sequence number. If another writer appended in between (another
//! arbiter's tab, the CLI), the cache is brought up to date and the operation decided again
//! on the fresh state — so two arbiters entering different boards both land, and the second
//! one to enter the same board gets the director's refusal showing the value now stored.
//! No rule lives here or in a handler: the operation decides everything.

use crate::app::AppState;
use crate::auth::session::Authed;
use crate::error::WebError;
use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::Ctx;
use arbiter_director::command::Command;
use arbiter_director::DirectorError;
use arbiter_store::{EventId, EventStore};
use tracing::Instrument;

pub use arbiter_director::api::write::ATTEMPTS;
use arbiter_director::api::write::{self as dw, Append, EventLog};
use arbiter_director::api::Role;

/// Who writes: the actor recorded with the entries and the role the director judges.
pub trait Writer {
    fn actor(&self) -> &str;
    fn role(&self) -> Role;
    /// The name a person signs with (the account's display name).
    fn name(&self) -> &str {
        self.actor()
    }
}

impl Writer for crate::auth::session::Authed {
    fn actor(&self) -> &str {
        Authed::actor(self)
    }
    fn role(&self) -> Role {
        Authed::role(self)
    }
    fn name(&self) -> &str {
        &self.user.display_name
    }
}

/// The public online entry form: recorded as `online`; it submits entries the desk decides
/// on later, so it acts with the desk's role, and only `entries::submit` is called for it.
pub struct OnlineForm;

impl Writer for OnlineForm {
    fn actor(&self) -> &str {
        crate::online::ACTOR
    }
    fn role(&self) -> Role {
        Role::Desk
    }
}

/// A command once appended: its entries, the log's last seq, and what it did
/// ([`arbiter_director::command::Outcome`]).
pub use arbiter_director::api::write::Done as Applied;

/// The time now as RFC 3339 with the venue's offset (+08:00), and as the venue's local time.
pub fn now_at() -> Result<(String, chrono::NaiveDateTime), WebError> {
    let secs = crate::auth::session::now();
    let at = arbiter_core::time::rfc3339_from_unix(secs);
    let local = arbiter_core::time::china_local(&at)
        .ok_or_else(|| WebError::Internal(format!("时间格式错误 (bad time): {at}")))?;
    Ok((at, local))
}

/// Decide `cmd` on the current state of `event` as `who` and append its entries. Outer
/// error: the server or database failed, or the director refused the account's role the
/// action ([`WebError::Forbidden`], a 403 page); inner error: the command refused, in the
/// desk's words ([`crate::refusal::words`]).
pub async fn apply(
    app: &AppState,
    event: &EventId,
    who: &(dyn Writer + Sync),
    cmd: impl Into<Command>,
) -> Result<Result<Applied, String>, WebError> {
    Ok(apply_raw(app, event, who, cmd)
        .await?
        .map_err(|e| crate::refusal::words(&e)))
}

/// The server's view of an event for the write path: the cached fold, brought up to date
/// before every decision, and appends through the store. Runs on a blocking thread.
struct CacheLog {
    app: AppState,
    event: EventId,
    rt: tokio::runtime::Handle,
}

impl EventLog for CacheLog {
    type Error = WebError;
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, WebError> {
        let (snap, _) = self.rt.block_on(self.app.refresh(&self.event))?;
        Ok(f(&snap.state))
    }
    fn append(
        &mut self,
        expected: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Append, WebError> {
        let (ev, who, es, at) = (
            self.event.clone(),
            actor.to_string(),
            entries.to_vec(),
            at.to_string(),
        );
        let done = self.rt.block_on(self.app.with_store(move |st| {
            Ok(arbiter_store::write::append_outcome(
                st.append(&ev, expected, &es, &who, &at),
            ))
        }))?;
        let done = done.map_err(WebError::from)?;
        if matches!(done, Append::Done(_)) {
            // Show the write at once on this server's pages.
            self.rt.block_on(self.app.refresh(&self.event))?;
        }
        Ok(done)
    }
}

/// [`apply`] with the director's refusal itself as the inner error (a form that shows it
/// beside the field it is about). The write runs in its span: the account's login, the event
/// and the command's action; once done, how long it took and the kinds of the entries
/// appended, or the kind of the refusal — never its facts, which may name a person.
pub async fn apply_raw(
    app: &AppState,
    event: &EventId,
    who: &(dyn Writer + Sync),
    cmd: impl Into<Command>,
) -> Result<Result<Applied, DirectorError>, WebError> {
    let cmd = cmd.into();
    let span = tracing::info_span!(
        "write",
        actor = %who.actor(),
        event = %event.0,
        op = ?cmd.action()
    );
    let start = std::time::Instant::now();
    let done = write_loop(app, event, who, cmd)
        .instrument(span.clone())
        .await;
    let ms = crate::trace::millis(start);
    span.in_scope(|| traced(&done, ms));
    done
}

/// The end of a write in its span: done (the kinds of the entries appended), refused (the
/// kind of refusal) or failed.
fn traced(done: &Result<Result<Applied, DirectorError>, WebError>, ms: u64) {
    match done {
        Ok(Ok(a)) => {
            let kinds: Vec<&str> = a.entries.iter().map(LogEntry::kind).collect();
            tracing::info!(
                outcome = "done",
                entries = %kinds.join(","),
                seq = a.last_seq,
                duration_ms = ms,
                "写入 (write)"
            );
        }
        Ok(Err(e)) => tracing::info!(
            outcome = "refused",
            refusal = %crate::trace::kind(&format!("{e:?}")),
            duration_ms = ms,
            "写入被拒绝 (write refused)"
        ),
        Err(e) => tracing::warn!(
            outcome = "failed",
            error = %crate::trace::kind(&format!("{e:?}")),
            duration_ms = ms,
            "写入失败 (write failed)"
        ),
    }
}

/// The director's write loop ([`arbiter_director::api::write::apply`]) on a blocking thread:
/// pairing a large round takes real time.
async fn write_loop(
    app: &AppState,
    event: &EventId,
    who: &(dyn Writer + Sync),
    cmd: Command,
) -> Result<Result<Applied, DirectorError>, WebError> {
    let (_, local) = now_at()?;
    let ctx = Ctx::new(who.actor(), who.role(), local).with_name(who.name());
    let mut log = CacheLog {
        app: app.clone(),
        event: event.clone(),
        rt: tokio::runtime::Handle::current(),
    };
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _in = span.enter();
        let clock = || {
            now_at().map_err(|e| {
                DirectorError::from(arbiter_director::Refusal::BadTime { at: e.to_string() })
            })
        };
        match dw::apply(&mut log, &ctx, &clock, &cmd)? {
            Ok(a) => Ok(Ok(a)),
            Err(e @ DirectorError::NotAllowed { .. }) => Err(WebError::Forbidden(e.to_string())),
            Err(e) => Ok(Err(e)),
        }
    })
    .await
    .map_err(|e| WebError::Internal(e.to_string()))?
}

/// Create a new event as `who` by the command `cmd` (an `EventCommand::Create`): decided on
/// an empty log ([`arbiter_director::api::write::create`]) and made in the store. Outer
/// error: the server or database failed, or the account may not create events (a 403 page);
/// inner error: the director's refusal.
pub async fn create(
    app: &AppState,
    who: &(dyn Writer + Sync),
    cmd: impl Into<Command>,
) -> Result<Result<EventId, DirectorError>, WebError> {
    let cmd = cmd.into();
    let span = tracing::info_span!("write", actor = %who.actor(), op = ?cmd.action());
    let start = std::time::Instant::now();
    let (_, local) = now_at()?;
    let ctx = Ctx::new(who.actor(), who.role(), local).with_name(who.name());
    let clock = || {
        now_at().map_err(|e| {
            DirectorError::from(arbiter_director::Refusal::BadTime { at: e.to_string() })
        })
    };
    let made = app
        .with_store(move |st| {
            let mut book = arbiter_store::write::StoreBook(st);
            Ok(dw::create(&mut book, &ctx, &clock, &cmd)?)
        })
        .await?;
    let ms = crate::trace::millis(start);
    span.in_scope(|| match &made {
        Ok(c) => tracing::info!(
            outcome = "done",
            event = %c.id,
            duration_ms = ms,
            "新赛事 (event created)"
        ),
        Err(e) => tracing::info!(
            outcome = "refused",
            refusal = %crate::trace::kind(&format!("{e:?}")),
            duration_ms = ms,
            "新赛事被拒绝 (event refused)"
        ),
    });
    match made {
        Ok(c) => {
            app.refresh_all().await?;
            Ok(Ok(EventId(c.id)))
        }
        Err(e @ DirectorError::NotAllowed { .. }) => Err(WebError::Forbidden(e.to_string())),
        Err(e) => Ok(Err(e)),
    }
}

/// What a write appended, in the log's own sentences ([`arbiter_director::log_view::told`]),
/// joined for the message under the form: the desk words a write as its log page does, never
/// by reading the entries itself.
pub async fn told(
    app: &AppState,
    event: &EventId,
    done: &Applied,
    lang: crate::i18n::Lang,
) -> Result<String, WebError> {
    use arbiter_director::log_view::Language;
    let after = done.last_seq.saturating_sub(done.entries.len() as u64);
    let id = event.clone();
    let records = app.with_store(move |st| Ok(st.read(&id)?)).await?;
    let language = match lang {
        crate::i18n::Lang::Zh => Language::Zh,
        crate::i18n::Lang::En => Language::En,
    };
    let said = arbiter_director::log_view::told(&records, |seq| seq > after, language);
    Ok(if said.is_empty() {
        lang.t("已记录", "recorded").to_string()
    } else {
        said.join("; ")
    })
}
