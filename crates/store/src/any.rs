//! One store type for the shells: [`AnyStore`] is SQLite or PostgreSQL, chosen by [`open`]
//! from the `--db` value, and implements both store traits by passing every call on (so
//! each backend's own faster paths — `append_checked`, `read_after` — are the ones used).

use crate::accounts::{AccountStore, Failures, Session, User};
use crate::{EventId, EventStore, EventSummary, LogExport, PgStore, SqliteStore, StoreError};
use arbiter_core::{EventState, LogEntry, Recorded};

/// Everything a shell needs of a store: the event log and the accounts.
pub trait Store: EventStore + AccountStore {}
impl<T: EventStore + AccountStore> Store for T {}

/// Whether a `--db` value names a PostgreSQL database (`postgres://…`, `postgresql://…`).
pub fn is_postgres_url(db: &str) -> bool {
    let lower = db.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Open the store a `--db` value names: a PostgreSQL URL, or else a SQLite file (created if
/// missing). The schema is brought up to date either way.
pub fn open(db: &str) -> Result<AnyStore, StoreError> {
    if is_postgres_url(db) {
        Ok(AnyStore::Postgres(PgStore::connect(db)?))
    } else {
        Ok(AnyStore::Sqlite(SqliteStore::open(db)?))
    }
}

/// A SQLite or a PostgreSQL store.
pub enum AnyStore {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

impl AnyStore {
    /// `"sqlite"` or `"postgres"`, for messages and benchmarks.
    pub fn backend(&self) -> &'static str {
        match self {
            AnyStore::Sqlite(_) => "sqlite",
            AnyStore::Postgres(_) => "postgres",
        }
    }

    /// Current schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        match self {
            AnyStore::Sqlite(s) => s.schema_version(),
            AnyStore::Postgres(s) => s.schema_version(),
        }
    }
}

/// A borrowed [`AnyStore`]: what the web server hands its handlers (the SQLite connection
/// from behind its mutex, or the PostgreSQL pool shared by all).
#[derive(Clone, Copy)]
pub enum AnyRef<'a> {
    Sqlite(&'a SqliteStore),
    Postgres(&'a PgStore),
}

impl AnyStore {
    pub fn borrowed(&self) -> AnyRef<'_> {
        match self {
            AnyStore::Sqlite(s) => AnyRef::Sqlite(s),
            AnyStore::Postgres(p) => AnyRef::Postgres(p),
        }
    }
}

macro_rules! each {
    ($self:ident, $s:ident => $e:expr) => {
        match $self.pick() {
            AnyRef::Sqlite($s) => $e,
            AnyRef::Postgres($s) => $e,
        }
    };
}

trait Pick {
    fn pick(&self) -> AnyRef<'_>;
}

impl Pick for AnyStore {
    fn pick(&self) -> AnyRef<'_> {
        self.borrowed()
    }
}

impl Pick for AnyRef<'_> {
    fn pick(&self) -> AnyRef<'_> {
        *self
    }
}

/// Both store traits for a type that can [`Pick`] its backend, every call passed on.
macro_rules! delegate {
    ($ty:ty) => {

impl EventStore for $ty {
    fn create_event(&self, name: &str) -> Result<EventId, StoreError> {
        each!(self, s => s.create_event(name))
    }
    fn create_with_log(&self, name: &str, records: &[Recorded]) -> Result<EventId, StoreError> {
        each!(self, s => s.create_with_log(name, records))
    }
    fn create_checked(
        &self,
        name: &str,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<EventId, StoreError> {
        each!(self, s => s.create_checked(name, entries, actor, at))
    }
    fn append_recorded(
        &self,
        event: &EventId,
        expected_seq: u64,
        records: &[Recorded],
    ) -> Result<u64, StoreError> {
        each!(self, s => s.append_recorded(event, expected_seq, records))
    }
    fn read(&self, event: &EventId) -> Result<Vec<Recorded>, StoreError> {
        each!(self, s => s.read(event))
    }
    fn list_events(&self) -> Result<Vec<EventSummary>, StoreError> {
        each!(self, s => s.list_events())
    }
    fn last_seq(&self, event: &EventId) -> Result<u64, StoreError> {
        each!(self, s => s.last_seq(event))
    }
    fn read_after(&self, event: &EventId, seq: u64) -> Result<Vec<Recorded>, StoreError> {
        each!(self, s => s.read_after(event, seq))
    }
    fn append(
        &self,
        event: &EventId,
        expected_seq: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<u64, StoreError> {
        each!(self, s => s.append(event, expected_seq, entries, actor, at))
    }
    fn state(&self, event: &EventId) -> Result<EventState, StoreError> {
        each!(self, s => s.state(event))
    }
    fn append_checked(
        &self,
        event: &EventId,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<EventState, StoreError> {
        each!(self, s => s.append_checked(event, entries, actor, at))
    }
    fn export(&self, event: &EventId) -> Result<LogExport, StoreError> {
        each!(self, s => s.export(event))
    }
    fn import(&self, json: &str) -> Result<EventId, StoreError> {
        each!(self, s => s.import(json))
    }
}

impl AccountStore for $ty {
    fn add_user(&self, user: &User) -> Result<(), StoreError> {
        each!(self, s => s.add_user(user))
    }
    fn user(&self, login: &str) -> Result<Option<User>, StoreError> {
        each!(self, s => s.user(login))
    }
    fn users(&self) -> Result<Vec<User>, StoreError> {
        each!(self, s => s.users())
    }
    fn set_password(&self, login: &str, password_hash: &str) -> Result<(), StoreError> {
        each!(self, s => s.set_password(login, password_hash))
    }
    fn create_session(&self, session: &Session) -> Result<(), StoreError> {
        each!(self, s => s.create_session(session))
    }
    fn session(&self, token_hash: &str, now: i64) -> Result<Option<(Session, User)>, StoreError> {
        each!(self, s => s.session(token_hash, now))
    }
    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        each!(self, s => s.delete_session(token_hash))
    }
    fn purge_sessions(&self, now: i64) -> Result<usize, StoreError> {
        each!(self, s => s.purge_sessions(now))
    }
    fn record_failure(&self, key: &str, now: i64, window: i64) -> Result<Failures, StoreError> {
        each!(self, s => s.record_failure(key, now, window))
    }
    fn failures(&self, key: &str, now: i64, window: i64) -> Result<Option<Failures>, StoreError> {
        each!(self, s => s.failures(key, now, window))
    }
    fn clear_failures(&self, key: &str) -> Result<(), StoreError> {
        each!(self, s => s.clear_failures(key))
    }
    fn claim_secret(&self, event: &str, fresh: &str) -> Result<String, StoreError> {
        each!(self, s => s.claim_secret(event, fresh))
    }
    fn purge_failures(&self, now: i64, window: i64) -> Result<usize, StoreError> {
        each!(self, s => s.purge_failures(now, window))
    }
    fn access(&self, login: &str) -> Result<crate::accounts::Access, StoreError> {
        each!(self, s => s.access(login))
    }
    fn set_access(&self, login: &str, access: &crate::accounts::Access) -> Result<(), StoreError> {
        each!(self, s => s.set_access(login, access))
    }
}
    };
}

delegate!(AnyStore);
delegate!(AnyRef<'_>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_pick_postgres_and_paths_pick_sqlite() {
        assert!(is_postgres_url("postgres://u@h/db"));
        assert!(is_postgres_url("postgresql://h:5433/db?sslmode=disable"));
        assert!(is_postgres_url("PostgreSQL://h/db"));
        assert!(!is_postgres_url("arbiter.db"));
        assert!(!is_postgres_url("/srv/postgres/arbiter.db"));
        assert!(!is_postgres_url("postgres.db"));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.db");
        let s = open(p.to_str().unwrap()).unwrap();
        assert_eq!(s.backend(), "sqlite");
        assert!(p.exists());
    }
}
