//! PostgreSQL implementation, for hosting: several `arbiter serve` processes on one
//! database. Same tables and versioned migrations as SQLite (`schema_version`), a small
//! connection pool (r2d2), and the same append discipline: one transaction that locks the
//! event's row, reads the last seq, checks the expected seq, validates the records against
//! the folded state ([`check_append`]) and inserts them under the `(event_num, seq)` primary
//! key — so two servers can never both append seq N. The transaction also sends
//! `NOTIFY arbiter_log, '<event id>'`, delivered at commit to every server listening
//! ([`PgStore::listen`]).
//!
//! The sync `postgres` client runs a small runtime of its own per connection; it must not
//! be used (or dropped) on an async task. The web shell calls the store in `spawn_blocking`,
//! and [`PgStore`]'s `Drop` closes the pool on a plain thread.

use crate::accounts::{check_login, Access, AccountStore, Failures, Session, User};
use crate::sqlite::{event_id, event_num};
use crate::{check_append, decode_record, number, EventId, EventStore, EventSummary, StoreError};
use arbiter_core::{EventState, LogEntry, Recorded, LOG_VERSION};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Config, GenericClient, NoTls};
use r2d2_postgres::PostgresConnectionManager;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;
type Conn = r2d2::PooledConnection<PostgresConnectionManager<NoTls>>;

/// The channel appends are announced on; the payload is the event id.
pub const CHANNEL: &str = "arbiter_log";

/// Key of the advisory lock that serialises migrations of one database.
const MIGRATION_LOCK: i64 = 0x0041_7262_6974_6572;

/// Schema migrations, in order; migration `i` brings the schema to version `i + 1`. The
/// same versions as SQLite's (v1 the log, v2 the accounts).
const MIGRATIONS: &[&str] = &[
    // v1
    "CREATE TABLE events (
         num  BIGSERIAL PRIMARY KEY,
         name TEXT NOT NULL
     );
     CREATE TABLE log (
         event_num BIGINT NOT NULL REFERENCES events(num),
         seq       BIGINT NOT NULL CHECK (seq >= 1),
         v         BIGINT NOT NULL,
         at        TEXT NOT NULL,
         actor     TEXT NOT NULL,
         entry     TEXT NOT NULL,
         PRIMARY KEY (event_num, seq)
     );",
    // v2: accounts, login sessions and failed-login counters (`accounts.rs`).
    "CREATE TABLE users (
         login         TEXT PRIMARY KEY,
         display_name  TEXT NOT NULL,
         role          TEXT NOT NULL
                       CHECK (role IN ('organiser', 'chief_arbiter', 'arbiter', 'desk')),
         password_hash TEXT NOT NULL,
         created       TEXT NOT NULL
     );
     CREATE TABLE sessions (
         token_hash TEXT PRIMARY KEY,
         login      TEXT NOT NULL REFERENCES users(login) ON DELETE CASCADE,
         csrf       TEXT NOT NULL,
         created    BIGINT NOT NULL,
         expires    BIGINT NOT NULL
     );
     CREATE INDEX sessions_login ON sessions(login);
     CREATE TABLE login_failures (
         key   TEXT PRIMARY KEY,
         count BIGINT NOT NULL,
         last  BIGINT NOT NULL
     );",
    // v3: what an account may reach — disabled, limited to named events, a one-time
    // password to change (`accounts.rs`, `Access`).
    "CREATE TABLE account_access (
         login       TEXT PRIMARY KEY REFERENCES users(login) ON DELETE CASCADE,
         disabled    BIGINT NOT NULL DEFAULT 0,
         events      TEXT NOT NULL DEFAULT '',
         must_change BIGINT NOT NULL DEFAULT 0
     );",
    // v4: the events list shows the name as last set by the settings (赛事设置), not the
    // regulation's: names renamed before this version are taken from the log.
    "UPDATE events SET name = r.name FROM (
         SELECT DISTINCT ON (event_num) event_num, (entry::jsonb)->>'name' AS name
           FROM log
          WHERE (entry::jsonb)->>'type' = 'settings_changed'
            AND (entry::jsonb)->>'name' IS NOT NULL
          ORDER BY event_num, seq DESC) r
      WHERE events.num = r.event_num;",
    // v5: each event's secret for the players' result codes (选手确认成绩的确认码), kept
    // beside the log and never in it or in an export (`AccountStore::claim_secret`).
    "CREATE TABLE event_secrets (
         event  TEXT PRIMARY KEY,
         secret TEXT NOT NULL
     );",
];

/// A PostgreSQL event store (see the module documentation).
pub struct PgStore {
    /// `None` only while dropping.
    pool: Option<Pool>,
    config: Config,
    /// Folded state of events this process has appended to, by event number; used only when
    /// its `last_seq` equals the log's last seq read under the event's row lock.
    states: Mutex<BTreeMap<i64, EventState>>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Closing a connection runs the client's own runtime, which tokio forbids on an async
        // task: close them on a plain thread.
        if let Some(pool) = self.pool.take() {
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

/// A database URL without its password, for messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let userinfo = &url[s + 3..at];
            match userinfo.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &userinfo[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

fn is_unique_violation(e: &postgres::Error) -> bool {
    e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION)
}

impl PgStore {
    /// The schema version this program writes.
    pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

    /// Connect to `url` (`postgres://user:password@host:port/database`), open a pool of a
    /// few connections and bring the schema up to date.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let shown = redact_url(url);
        let config: Config = url.parse().map_err(|e| {
            StoreError::Database(format!(
                "PostgreSQL 地址 `{shown}` 无法解析: {e} (malformed PostgreSQL URL)"
            ))
        })?;
        let manager = PostgresConnectionManager::new(config.clone(), NoTls);
        let pool = r2d2::Pool::builder()
            .max_size(8)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(10))
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build(manager)
            .map_err(|e| {
                StoreError::Database(format!(
                    "无法连接 PostgreSQL `{shown}`: {e} (cannot connect to PostgreSQL)"
                ))
            })?;
        let store = PgStore {
            pool: Some(pool),
            config,
            states: Mutex::new(BTreeMap::new()),
        };
        let current = store.migrate()?;
        if current > Self::SCHEMA_VERSION {
            return Err(StoreError::SchemaTooNew {
                found: current,
                supported: Self::SCHEMA_VERSION,
            });
        }
        Ok(store)
    }

    fn conn(&self) -> Result<Conn, StoreError> {
        let pool = self
            .pool
            .as_ref()
            .ok_or_else(|| StoreError::Database("连接池已关闭 (pool closed)".into()))?;
        pool.get().map_err(|e| {
            StoreError::Database(format!(
                "无法从连接池取得 PostgreSQL 连接: {e} (no PostgreSQL connection available)"
            ))
        })
    }

    /// Bring the schema up to date in one transaction, under an advisory lock so that
    /// servers starting at the same moment migrate one after the other. Returns the version
    /// found (a newer one is left alone for the caller to refuse).
    fn migrate(&self) -> Result<i64, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
        let current: Option<i64> = tx
            .query_one("SELECT MAX(version) FROM schema_version", &[])?
            .get(0);
        let current = current.unwrap_or(0);
        if current > Self::SCHEMA_VERSION {
            return Ok(current);
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            tx.batch_execute(sql)?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &[&(i as i64 + 1)],
            )?;
        }
        tx.commit()?;
        Ok(current)
    }

    /// Current schema version of the database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let v: Option<i64> = self
            .conn()?
            .query_one("SELECT MAX(version) FROM schema_version", &[])?
            .get(0);
        Ok(v.unwrap_or(0))
    }

    /// What a thread needs to listen for appends by any server ([`Listener::run`]).
    pub fn listener(&self) -> Listener {
        Listener {
            config: self.config.clone(),
        }
    }

    fn num(c: &mut impl GenericClient, id: &EventId, lock: bool) -> Result<i64, StoreError> {
        let unknown = || StoreError::UnknownEvent(id.0.clone());
        let n = event_num(id).ok_or_else(unknown)?;
        let sql = if lock {
            "SELECT num FROM events WHERE num = $1 FOR UPDATE"
        } else {
            "SELECT num FROM events WHERE num = $1"
        };
        let row = c.query_opt(sql, &[&n])?;
        row.map(|r| r.get(0)).ok_or_else(unknown)
    }

    fn last_seq_of(c: &mut impl GenericClient, num: i64) -> Result<u64, StoreError> {
        let n: i64 = c
            .query_one(
                "SELECT COALESCE(MAX(seq), 0)::BIGINT FROM log WHERE event_num = $1",
                &[&num],
            )?
            .get(0);
        Ok(n as u64)
    }

    fn read_after_num(
        c: &mut impl GenericClient,
        event: &EventId,
        num: i64,
        after: u64,
    ) -> Result<Vec<Recorded>, StoreError> {
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let rows = c.query(
            "SELECT seq, v, at, actor, entry FROM log
             WHERE event_num = $1 AND seq > $2 ORDER BY seq",
            &[&num, &after],
        )?;
        rows.into_iter()
            .map(|r| decode_record(event, r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
            .collect()
    }

    fn keep_state(&self, num: i64, state: EventState) {
        if let Ok(mut m) = self.states.lock() {
            let newer = m.get(&num).is_none_or(|s| s.last_seq < state.last_seq);
            if newer {
                m.insert(num, state);
            }
        }
    }

    /// In one transaction holding the event's row lock: read the last seq, check it against
    /// `expected_seq` (`None`: append after whatever is there), validate the records `make`
    /// numbers after it against the folded state, insert them and announce the append.
    fn append_validated<'r>(
        &self,
        event: &EventId,
        expected_seq: Option<u64>,
        make: impl FnOnce(u64) -> Cow<'r, [Recorded]>,
    ) -> Result<(i64, EventState), StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let num = Self::num(&mut tx, event, true)?;
        let actual = Self::last_seq_of(&mut tx, num)?;
        if let Some(expected) = expected_seq.filter(|&e| e != actual) {
            return Err(StoreError::Conflict { expected, actual });
        }
        let records = make(actual);
        let cached = self.states.lock().ok().and_then(|mut m| m.remove(&num));
        let mut state = match cached {
            Some(s) if s.last_seq == actual => s,
            _ => EventState::replay(&Self::read_after_num(&mut tx, event, num, 0)?)?,
        };
        check_append(event, &mut state, actual, &records)?;
        insert_records(&mut tx, num, actual, &records)?;
        tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &event.0])?;
        tx.commit().map_err(|e| {
            if is_unique_violation(&e) {
                StoreError::Conflict {
                    expected: actual,
                    actual: actual + 1,
                }
            } else {
                e.into()
            }
        })?;
        Ok((num, state))
    }
}

/// Listens for appends on a connection of its own (see [`PgStore::listener`]).
pub struct Listener {
    config: Config,
}

impl Listener {
    /// Block listening: call `on` with the event id of each append (by any server), or with
    /// `None` after a second without one. Returns when `on` returns `false`, or with the
    /// error that broke the connection.
    pub fn run(&self, mut on: impl FnMut(Option<&str>) -> bool) -> Result<(), StoreError> {
        let mut client = self.config.connect(NoTls)?;
        client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
        let mut n = client.notifications();
        loop {
            let mut it = n.timeout_iter(Duration::from_secs(1));
            let mut any = false;
            while let Some(note) = it.next()? {
                any = true;
                if !on(Some(note.payload())) {
                    return Ok(());
                }
            }
            if !any && !on(None) {
                return Ok(());
            }
        }
    }
}

/// Insert records numbered `expected_seq + 1 …` for event `num` inside the caller's
/// transaction. A duplicate seq (another server got there first) is a conflict.
fn insert_records(
    tx: &mut postgres::Transaction<'_>,
    num: i64,
    expected_seq: u64,
    records: &[Recorded],
) -> Result<(), StoreError> {
    let ins = tx.prepare(
        "INSERT INTO log (event_num, seq, v, at, actor, entry) VALUES ($1, $2, $3, $4, $5, $6)",
    )?;
    let v = i64::from(LOG_VERSION);
    for (i, r) in records.iter().enumerate() {
        let want = expected_seq + 1 + i as u64;
        if r.seq != want {
            return Err(StoreError::Import(format!(
                "日志序号应为 {want}, 实为 {} (records must be numbered without gaps)",
                r.seq
            )));
        }
        let json =
            serde_json::to_string(&r.entry).map_err(|e| StoreError::Database(e.to_string()))?;
        tx.execute(&ins, &[&num, &(r.seq as i64), &v, &r.at, &r.actor, &json])
            .map_err(|e| {
                if is_unique_violation(&e) {
                    StoreError::Conflict {
                        expected: expected_seq,
                        actual: r.seq,
                    }
                } else {
                    e.into()
                }
            })?;
        // The events list shows the name as last set: the regulation's, or this
        // edition's as the settings changed it (赛事设置).
        let renamed = match &r.entry {
            LogEntry::EventCreated(c) => Some(&c.name),
            LogEntry::SettingsChanged { name: Some(n), .. } => Some(n),
            _ => None,
        };
        if let Some(name) = renamed {
            tx.execute("UPDATE events SET name = $1 WHERE num = $2", &[name, &num])?;
        }
    }
    Ok(())
}

impl EventStore for PgStore {
    fn create_event(&self, name: &str) -> Result<EventId, StoreError> {
        let num: i64 = self
            .conn()?
            .query_one(
                "INSERT INTO events (name) VALUES ($1) RETURNING num",
                &[&name],
            )?
            .get(0);
        self.keep_state(num, EventState::new());
        Ok(event_id(num))
    }

    fn create_with_log(&self, name: &str, records: &[Recorded]) -> Result<EventId, StoreError> {
        // Fold first: a log that does not fold is refused before anything is written.
        let state = EventState::replay(records)?;
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let num: i64 = tx
            .query_one(
                "INSERT INTO events (name) VALUES ($1) RETURNING num",
                &[&name],
            )?
            .get(0);
        let id = event_id(num);
        insert_records(&mut tx, num, 0, records)?;
        tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &id.0])?;
        tx.commit()?;
        self.keep_state(num, state);
        Ok(id)
    }

    fn append_recorded(
        &self,
        event: &EventId,
        expected_seq: u64,
        records: &[Recorded],
    ) -> Result<u64, StoreError> {
        let (num, state) =
            self.append_validated(event, Some(expected_seq), |_| Cow::Borrowed(records))?;
        let last = state.last_seq;
        self.keep_state(num, state);
        Ok(last)
    }

    fn append_checked(
        &self,
        event: &EventId,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<EventState, StoreError> {
        let (num, state) = self.append_validated(event, None, |last| {
            Cow::Owned(number(entries, last, actor, at))
        })?;
        self.keep_state(num, state.clone());
        Ok(state)
    }

    fn read(&self, event: &EventId) -> Result<Vec<Recorded>, StoreError> {
        self.read_after(event, 0)
    }

    fn last_seq(&self, event: &EventId) -> Result<u64, StoreError> {
        let mut c = self.conn()?;
        let num = Self::num(&mut *c, event, false)?;
        Self::last_seq_of(&mut *c, num)
    }

    fn read_after(&self, event: &EventId, seq: u64) -> Result<Vec<Recorded>, StoreError> {
        let mut c = self.conn()?;
        // One snapshot for the existence check and the rows.
        let mut tx = c
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let num = Self::num(&mut tx, event, false)?;
        let out = Self::read_after_num(&mut tx, event, num, seq)?;
        tx.commit()?;
        Ok(out)
    }

    fn list_events(&self) -> Result<Vec<EventSummary>, StoreError> {
        let rows = self
            .conn()?
            .query("SELECT num, name FROM events ORDER BY num", &[])?;
        Ok(rows
            .into_iter()
            .map(|r| EventSummary {
                id: event_id(r.get(0)),
                name: r.get(1),
            })
            .collect())
    }
}

fn to_user(r: &postgres::Row, at: usize) -> Result<User, StoreError> {
    let login: String = r.get(at);
    let role: String = r.get(at + 2);
    let role = role
        .parse()
        .map_err(|e: String| StoreError::Database(format!("users `{login}`: {e}")))?;
    Ok(User {
        login,
        display_name: r.get(at + 1),
        role,
        password_hash: r.get(at + 3),
        created: r.get(at + 4),
    })
}

const USER_COLUMNS: &str = "login, display_name, role, password_hash, created";

fn failures_of(count: i64, last: i64) -> Failures {
    Failures {
        count: u32::try_from(count).unwrap_or(u32::MAX),
        last,
    }
}

impl AccountStore for PgStore {
    fn add_user(&self, u: &User) -> Result<(), StoreError> {
        check_login(&u.login).map_err(StoreError::Account)?;
        let n = self.conn()?.execute(
            "INSERT INTO users (login, display_name, role, password_hash, created)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (login) DO NOTHING",
            &[
                &u.login,
                &u.display_name,
                &u.role.as_str(),
                &u.password_hash,
                &u.created,
            ],
        )?;
        if n == 0 {
            return Err(StoreError::Account(format!(
                "账户 `{}` 已存在 (login name taken)",
                u.login
            )));
        }
        Ok(())
    }

    fn user(&self, login: &str) -> Result<Option<User>, StoreError> {
        let row = self.conn()?.query_opt(
            &format!("SELECT {USER_COLUMNS} FROM users WHERE login = $1"),
            &[&login],
        )?;
        row.map(|r| to_user(&r, 0)).transpose()
    }

    fn users(&self) -> Result<Vec<User>, StoreError> {
        let rows = self.conn()?.query(
            &format!("SELECT {USER_COLUMNS} FROM users ORDER BY login COLLATE \"C\""),
            &[],
        )?;
        rows.iter().map(|r| to_user(r, 0)).collect()
    }

    fn set_password(&self, login: &str, password_hash: &str) -> Result<(), StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let n = tx.execute(
            "UPDATE users SET password_hash = $1 WHERE login = $2",
            &[&password_hash, &login],
        )?;
        if n == 0 {
            return Err(StoreError::Account(format!(
                "账户 `{login}` 不存在 (unknown account)"
            )));
        }
        tx.execute("DELETE FROM sessions WHERE login = $1", &[&login])?;
        tx.commit()?;
        Ok(())
    }

    fn create_session(&self, s: &Session) -> Result<(), StoreError> {
        if self.user(&s.login)?.is_none() {
            return Err(StoreError::Account(format!(
                "账户 `{}` 不存在 (unknown account)",
                s.login
            )));
        }
        self.conn()?.execute(
            "INSERT INTO sessions (token_hash, login, csrf, created, expires)
             VALUES ($1, $2, $3, $4, $5)",
            &[&s.token_hash, &s.login, &s.csrf, &s.created, &s.expires],
        )?;
        Ok(())
    }

    fn session(&self, token_hash: &str, now: i64) -> Result<Option<(Session, User)>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT s.token_hash, s.login, s.csrf, s.created, s.expires,
                    u.login, u.display_name, u.role, u.password_hash, u.created
             FROM sessions s JOIN users u ON u.login = s.login
             WHERE s.token_hash = $1 AND s.expires > $2",
            &[&token_hash, &now],
        )?;
        match row {
            None => Ok(None),
            Some(r) => Ok(Some((
                Session {
                    token_hash: r.get(0),
                    login: r.get(1),
                    csrf: r.get(2),
                    created: r.get(3),
                    expires: r.get(4),
                },
                to_user(&r, 5)?,
            ))),
        }
    }

    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.conn()?
            .execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])?;
        Ok(())
    }

    fn purge_sessions(&self, now: i64) -> Result<usize, StoreError> {
        let n = self
            .conn()?
            .execute("DELETE FROM sessions WHERE expires <= $1", &[&now])?;
        Ok(n as usize)
    }

    fn record_failure(&self, key: &str, now: i64, window: i64) -> Result<Failures, StoreError> {
        let r = self.conn()?.query_one(
            "INSERT INTO login_failures (key, count, last) VALUES ($1, 1, $2)
             ON CONFLICT (key) DO UPDATE SET
                 count = CASE WHEN login_failures.last < $2::BIGINT - $3::BIGINT
                              THEN 1 ELSE login_failures.count + 1 END,
                 last = $2
             RETURNING count, last",
            &[&key, &now, &window],
        )?;
        Ok(failures_of(r.get(0), r.get(1)))
    }

    fn failures(&self, key: &str, now: i64, window: i64) -> Result<Option<Failures>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT count, last FROM login_failures
             WHERE key = $1 AND last >= $2::BIGINT - $3::BIGINT",
            &[&key, &now, &window],
        )?;
        Ok(row.map(|r| failures_of(r.get(0), r.get(1))))
    }

    fn clear_failures(&self, key: &str) -> Result<(), StoreError> {
        self.conn()?
            .execute("DELETE FROM login_failures WHERE key = $1", &[&key])?;
        Ok(())
    }

    fn claim_secret(&self, event: &str, fresh: &str) -> Result<String, StoreError> {
        let mut c = self.conn()?;
        c.execute(
            "INSERT INTO event_secrets (event, secret) VALUES ($1, $2)
             ON CONFLICT (event) DO NOTHING",
            &[&event, &fresh],
        )?;
        let row = c.query_one(
            "SELECT secret FROM event_secrets WHERE event = $1",
            &[&event],
        )?;
        Ok(row.get(0))
    }

    fn access(&self, login: &str) -> Result<Access, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT disabled, events, must_change FROM account_access WHERE login = $1",
            &[&login],
        )?;
        Ok(match row {
            None => Access::default(),
            Some(r) => {
                let (d, e, m): (i64, String, i64) = (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
                Access::from_row(d, &e, m)
            }
        })
    }

    fn set_access(&self, login: &str, a: &Access) -> Result<(), StoreError> {
        if self.user(login)?.is_none() {
            return Err(StoreError::Account(format!(
                "账户 `{login}` 不存在 (unknown account)"
            )));
        }
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        tx.execute(
            "INSERT INTO account_access (login, disabled, events, must_change)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (login) DO UPDATE SET disabled = $2, events = $3, must_change = $4",
            &[
                &login,
                &i64::from(a.disabled),
                &a.events_text(),
                &i64::from(a.must_change_password),
            ],
        )?;
        if a.disabled {
            tx.execute("DELETE FROM sessions WHERE login = $1", &[&login])?;
        }
        tx.commit()?;
        Ok(())
    }

    fn purge_failures(&self, now: i64, window: i64) -> Result<usize, StoreError> {
        let n = self.conn()?.execute(
            "DELETE FROM login_failures WHERE last < $1::BIGINT - $2::BIGINT",
            &[&now, &window],
        )?;
        Ok(n as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            redact_url("postgres://arb:secret@db.example:5432/arbiter"),
            "postgres://arb:***@db.example:5432/arbiter"
        );
        assert_eq!(redact_url("postgres://arb@h/db"), "postgres://arb@h/db");
        assert_eq!(redact_url("postgresql:///db"), "postgresql:///db");
    }

    #[test]
    fn a_malformed_url_is_named_without_its_password() {
        let e = PgStore::connect("postgres://u:pw@h:notaport/db")
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("无法解析") && !e.contains("pw@"), "{e}");
    }
}
