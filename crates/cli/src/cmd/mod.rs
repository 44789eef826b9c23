//! One module per command group. Each `run` returns the process exit code:
//! 0 success, 1 error, 2 invalid input (e.g. a regulation that does not check),
//! 3 no valid pairing exists.

pub mod award;
pub mod bench;
pub mod desk;
pub mod director_cmds;
pub mod event;
pub mod knockout;
pub mod money;
pub mod pairing;
pub mod player;
pub mod print;
pub mod records;
pub mod refusal;
pub mod regulation;
pub mod rounds;
pub mod section;
pub mod serve;
pub mod simulate;
pub mod standings;
pub mod team;
pub mod template;
pub mod user;
pub mod xiangqi;

/// Default database file of every command that takes `--db`.
pub const DEFAULT_DB: &str = "arbiter.db";

/// Whether `--db` names a PostgreSQL database (`postgres://…`, `postgresql://…`).
pub(crate) fn is_postgres(db: &std::path::Path) -> bool {
    db.to_str().is_some_and(arbiter_store::is_postgres_url)
}

/// Whether the database `--db` names is missing: a SQLite file that does not exist. A
/// PostgreSQL URL is never "missing" here; connecting says what is wrong with it.
pub(crate) fn db_missing(db: &std::path::Path) -> bool {
    !is_postgres(db) && !db.exists()
}

/// `--db` for messages: a PostgreSQL URL without its password.
pub(crate) fn shown_db(db: &std::path::Path) -> String {
    match db.to_str() {
        Some(s) if arbiter_store::is_postgres_url(s) => arbiter_store::redact_url(s),
        _ => db.display().to_string(),
    }
}

/// An event read for a read-only command: its folded state, its regulation and the section
/// chosen with `--section` (or the only one).
pub(crate) struct EventSection {
    pub state: arbiter_core::EventState,
    pub reg: std::sync::Arc<arbiter_regulation::Regulation>,
    pub section: String,
}

/// Read event `event` from the database at `db` and choose its section. Outer error: the
/// database itself failed (exit 1); inner error: the request does not fit the data (exit 2).
pub(crate) fn load_event_section(
    db: &std::path::Path,
    event: &str,
    section: Option<&str>,
) -> anyhow::Result<Result<EventSection, String>> {
    let state = match load_state(db, event)? {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    if state.header.is_none() {
        return Ok(Err(format!(
            "赛事 「{event}」 没有创建记录 (the event log has no EventCreated)"
        )));
    }
    let reg = match arbiter_director::regulation_of(&state) {
        Ok(r) => r,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let ids: Vec<&str> = state.sections.keys().map(String::as_str).collect();
    let section = match section {
        Some(s) => s.to_string(),
        None if ids.len() == 1 => ids[0].to_string(),
        None => {
            return Ok(Err(format!(
                "赛事有多个组别, 请用 --section 指定 (several sections, choose with --section): {}",
                ids.join(", ")
            )))
        }
    };
    if state.section(&section).is_none() {
        let hint = arbiter_types::closest(&section, ids.iter().copied())
            .map(|s| format!(" (did you mean 「{s}」?)"))
            .unwrap_or_default();
        return Ok(Err(format!(
            "未知的组别 「{section}」 (unknown section){hint}"
        )));
    }
    Ok(Ok(EventSection {
        state,
        reg,
        section,
    }))
}

/// Fold event `event` of the database at `db` (which must exist). Outer error: the database
/// failed (exit 1); inner error: no such database or event (exit 2).
pub(crate) fn load_state(
    db: &std::path::Path,
    event: &str,
) -> anyhow::Result<Result<arbiter_core::EventState, String>> {
    use anyhow::Context;
    use arbiter_store::{EventId, EventStore};
    if db_missing(db) {
        return Ok(Err(format!(
            "{}: 数据库不存在 (database not found)",
            db.display()
        )));
    }
    let store = event::open_db(db)?;
    let log = match store.read(&EventId(event.to_string())) {
        Ok(l) => l,
        Err(arbiter_store::StoreError::UnknownEvent(e)) => {
            return Ok(Err(format!("赛事 「{e}」 不存在 (unknown event)")))
        }
        Err(e) => return Err(e.into()),
    };
    let state = arbiter_core::EventState::replay(&log).context("replay")?;
    Ok(Ok(state))
}

/// A command once appended: its entries and what it did.
pub(crate) use arbiter_director::api::write::Done as Applied;

/// The one path every writing command takes: open the database (which must exist), fold the
/// event, decide `cmd` (`arbiter_director::command`) and append what it decided with the
/// expected sequence number. If another process appended in between, the fresh state is
/// folded and `cmd` decided again (a bounded number of times), so that only real refusals
/// reach the arbiter. Outer error: the database failed (exit 1); inner error: the command
/// refused (exit 2), with its message. `--at` (RFC 3339) replaces the clock; a dry run
/// decides and writes nothing.
///
/// Who acts: without an account, the operator of a local database as the chief arbiter,
/// recorded as `actor`; as an account of the database (`--as USER`), its login, role and
/// name. Outer error: the database failed; inner error: a bad time or no such account.
pub(crate) fn ctx_of(
    store: &arbiter_store::AnyStore,
    actor: &str,
    as_user: Option<&str>,
    clock: arbiter_director::api::write::Clock<'_>,
) -> anyhow::Result<Result<arbiter_director::api::Ctx, String>> {
    use arbiter_director::api::{Ctx, Role};
    let local = match clock() {
        Ok((_, local)) => local,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let Some(login) = as_user else {
        return Ok(Ok(Ctx::new(actor, Role::ChiefArbiter, local)));
    };
    use arbiter_store::AccountStore;
    Ok(match store.user(login.trim())? {
        Some(u) => Ok(Ctx::new(u.login.clone(), u.role, local).with_name(&u.display_name)),
        None => Err(format!(
            "账户 「{login}」 不存在 (no such account; 「arbiter user add」 creates one)"
        )),
    })
}

/// As an account of the database (`--as USER`, [`rounds::Writer`]): the account's login is
/// the actor and its role is what the director judges, by the same table as the desk's.
/// Without an account the command acts as the chief arbiter of a local database, recorded
/// as `actor`.
pub(crate) fn apply_op_as(
    w: &rounds::Writer,
    event: &str,
    cmd: &arbiter_director::command::Command,
    progress: &mut dyn FnMut(usize, usize),
    dry_run: bool,
) -> anyhow::Result<Result<Applied, String>> {
    use arbiter_director::api::write;
    let (db, actor, as_user, at) = (
        w.db.as_path(),
        w.actor.as_str(),
        w.as_user.as_deref(),
        w.at.as_deref(),
    );
    if db_missing(db) {
        return Ok(Err(format!(
            "{}: 数据库不存在 (database not found)",
            db.display()
        )));
    }
    let store = event::open_db(db)?;
    // The event must exist: its id is resolved (with a did-you-mean) before any decision.
    let (ev, _) = event::load(&store, event)?;
    let mut log = arbiter_store::write::StoreLog {
        store: &store,
        event: ev,
    };
    let clock = || write::at_or_now(at, event::now);
    let ctx = match ctx_of(&store, actor, as_user, &clock)? {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    let decided = if dry_run {
        write::apply_observed(&mut write::DryRun(&mut log), &ctx, &clock, cmd, progress)?
    } else {
        write::apply_observed(&mut log, &ctx, &clock, cmd, progress)?
    };
    match decided {
        Ok(a) => Ok(Ok(a)),
        Err(e) => Ok(Err(refusal::words(&e))),
    }
}

/// What a write appended, in the log's own sentences ([`arbiter_director::log_view::told`]),
/// one a line: the words `arbiter event log` gives these entries. The shell never reads the
/// entries to say what happened.
pub(crate) fn tell(db: &std::path::Path, event: &str, a: &Applied) {
    use arbiter_store::EventStore;
    let after = a.last_seq.saturating_sub(a.entries.len() as u64);
    let read = event::open_db(db)
        .and_then(|st| Ok(st.read(&arbiter_store::EventId(event.trim().to_string()))?));
    match read {
        Ok(records) => {
            for line in arbiter_director::log_view::told(
                &records,
                |seq| seq > after,
                arbiter_director::log_view::Language::Zh,
            ) {
                println!("{line}");
            }
        }
        // Written, but the log cannot be read back to word it: say so, not that it failed.
        Err(e) => {
            println!("已记录, 但无法读取日志以复述 (recorded; the log could not be read back): {e}")
        }
    }
}
