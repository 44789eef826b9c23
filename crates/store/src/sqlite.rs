//! SQLite implementation: WAL journal, `synchronous=FULL` (a committed append survives a
//! power cut), versioned migrations recorded in `schema_version`.

use crate::{check_append, number, EventId, EventStore, EventSummary, StoreError};
use arbiter_core::{EventState, LogEntry, Recorded, LOG_VERSION};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;

/// Schema migrations, in order; migration `i` brings the schema to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    // v1
    "CREATE TABLE events (
         num  INTEGER PRIMARY KEY AUTOINCREMENT,
         name TEXT NOT NULL
     );
     CREATE TABLE log (
         event_num INTEGER NOT NULL REFERENCES events(num),
         seq       INTEGER NOT NULL CHECK (seq >= 1),
         v         INTEGER NOT NULL,
         at        TEXT NOT NULL,
         actor     TEXT NOT NULL,
         entry     TEXT NOT NULL,
         PRIMARY KEY (event_num, seq)
     ) WITHOUT ROWID;",
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
         created    INTEGER NOT NULL,
         expires    INTEGER NOT NULL
     );
     CREATE INDEX sessions_login ON sessions(login);
     CREATE TABLE login_failures (
         key   TEXT PRIMARY KEY,
         count INTEGER NOT NULL,
         last  INTEGER NOT NULL
     );",
    // v3: what an account may reach — disabled, limited to named events, a one-time
    // password to change (`accounts.rs`, `Access`).
    "CREATE TABLE account_access (
         login       TEXT PRIMARY KEY REFERENCES users(login) ON DELETE CASCADE,
         disabled    INTEGER NOT NULL DEFAULT 0,
         events      TEXT NOT NULL DEFAULT '',
         must_change INTEGER NOT NULL DEFAULT 0
     );",
    // v4: the events list shows the name as last set by the settings (赛事设置), not the
    // regulation's: names renamed before this version are taken from the log.
    "UPDATE events SET name = (
         SELECT json_extract(l.entry, '$.name') FROM log l
          WHERE l.event_num = events.num
            AND json_extract(l.entry, '$.type') = 'settings_changed'
            AND json_extract(l.entry, '$.name') IS NOT NULL
          ORDER BY l.seq DESC LIMIT 1)
      WHERE EXISTS (
         SELECT 1 FROM log l
          WHERE l.event_num = events.num
            AND json_extract(l.entry, '$.type') = 'settings_changed'
            AND json_extract(l.entry, '$.name') IS NOT NULL);",
    // v5: each event's secret for the players' result codes (选手确认成绩的确认码), kept
    // beside the log and never in it or in an export (`AccountStore::claim_secret`).
    "CREATE TABLE event_secrets (
         event  TEXT PRIMARY KEY,
         secret TEXT NOT NULL
     );",
];

/// How long a writer waits for another one before giving up.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether SQLite refused for a lock held by another connection.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Run `f` again while SQLite answers "busy"/"locked", until `deadline`.
fn retry_busy<T>(
    deadline: std::time::Instant,
    mut f: impl FnMut() -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let mut pause = std::time::Duration::from_millis(2);
    loop {
        match f() {
            Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(50));
            }
            r => return r,
        }
    }
}

pub struct SqliteStore {
    pub(crate) conn: Connection,
    /// Folded state of events this connection has appended to, by event row number. An
    /// entry is used only when its `last_seq` equals the log's current last seq (read inside
    /// the write transaction); rows are never updated or deleted, so the log up to that seq
    /// is exactly what was folded. Otherwise the log is re-read and folded.
    states: RefCell<BTreeMap<i64, EventState>>,
}

pub(crate) fn event_id(num: i64) -> EventId {
    EventId(format!("ev-{num:08x}"))
}

pub(crate) fn event_num(id: &EventId) -> Option<i64> {
    let hex = id.0.strip_prefix("ev-")?;
    if hex.is_empty() || hex.len() > 15 {
        return None;
    }
    let n = i64::from_str_radix(hex, 16).ok()?;
    // Only the canonical spelling names an event (`ev-1` is not `ev-00000001`).
    (event_id(n) == *id).then_some(n)
}

impl SqliteStore {
    /// Open (or create) a database file and bring its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let conn = Connection::open(path)?;
        Self::setup(conn)
    }

    /// An in-memory database (tests).
    pub fn open_in_memory() -> Result<Self, StoreError> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Self, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Two processes opening the same new database at once (two `event create`): switching
        // it to WAL and the first migration take locks that SQLite may refuse at once rather
        // than wait for (it will not let two readers wait on each other's upgrade). Such a
        // refusal is retried until the busy timeout.
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        // journal_mode returns a row; in-memory databases answer "memory".
        let _mode: String = retry_busy(deadline, || {
            conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        })?;
        retry_busy(deadline, || {
            conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        })?;
        let store = SqliteStore {
            conn,
            states: RefCell::new(BTreeMap::new()),
        };
        let current = retry_busy(deadline, || store.migrate())?;
        if current > Self::SCHEMA_VERSION {
            return Err(StoreError::SchemaTooNew {
                found: current,
                supported: Self::SCHEMA_VERSION,
            });
        }
        Ok(store)
    }

    /// The schema version this program writes.
    pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

    /// Bring the schema up to date in one immediate transaction; returns the version found
    /// (a version above [`Self::SCHEMA_VERSION`] is left alone for the caller to refuse).
    fn migrate(&self) -> rusqlite::Result<i64> {
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
        let current: Option<i64> = tx
            .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))
            .optional()?
            .flatten();
        let current = current.unwrap_or(0);
        if current > Self::SCHEMA_VERSION {
            return Ok(current);
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
            tx.execute_batch(sql)?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                params![i as i64 + 1],
            )?;
        }
        tx.commit()?;
        Ok(current)
    }

    /// Current schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))?)
    }

    /// `PRAGMA integrity_check`: `"ok"` for a sound database.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }

    /// Journal mode and synchronous level, for diagnostics (`("wal", 2)` on a file).
    pub fn settings(&self) -> Result<(String, i64), StoreError> {
        let j: String = self
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        let s: i64 = self
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))?;
        Ok((j, s))
    }

    fn num(&self, id: &EventId) -> Result<i64, StoreError> {
        let unknown = || StoreError::UnknownEvent(id.0.clone());
        let n = event_num(id).ok_or_else(unknown)?;
        let found: Option<i64> = self
            .conn
            .query_row("SELECT num FROM events WHERE num = ?1", [n], |r| r.get(0))
            .optional()?;
        found.ok_or_else(unknown)
    }

    /// Last seq of event `num` (0 for an empty log).
    fn last_seq(&self, num: i64) -> Result<u64, StoreError> {
        let actual: i64 = self.conn.query_row(
            "SELECT COALESCE(MAX(seq), 0) FROM log WHERE event_num = ?1",
            [num],
            |r| r.get(0),
        )?;
        Ok(actual as u64)
    }

    /// The folded state of event `num` whose log ends at `last_seq`, taken out of the cache
    /// (the caller puts it back after a successful commit) or folded from the database.
    fn take_state(&self, id: &EventId, num: i64, last_seq: u64) -> Result<EventState, StoreError> {
        let cached = self.states.borrow_mut().remove(&num);
        match cached {
            Some(s) if s.last_seq == last_seq => Ok(s),
            _ => Ok(EventState::replay(&self.read_num(id, num)?)?),
        }
    }

    /// In one immediate transaction: read the last seq, check it against `expected_seq`
    /// (`None`: append after whatever is there), validate the records `make` numbers after
    /// it against the folded state, and write them. Returns the state after them.
    fn append_validated<'r>(
        &self,
        event: &EventId,
        expected_seq: Option<u64>,
        make: impl FnOnce(u64) -> Cow<'r, [Recorded]>,
    ) -> Result<(i64, EventState), StoreError> {
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        let num = self.num(event)?;
        let actual = self.last_seq(num)?;
        if let Some(expected) = expected_seq.filter(|&e| e != actual) {
            return Err(StoreError::Conflict { expected, actual });
        }
        let records = make(actual);
        let mut state = self.take_state(event, num, actual)?;
        check_append(event, &mut state, actual, &records)?;
        insert_records(&tx, num, actual, &records)?;
        tx.commit()?;
        Ok((num, state))
    }

    fn read_num(&self, event: &EventId, num: i64) -> Result<Vec<Recorded>, StoreError> {
        self.read_num_after(event, num, 0)
    }

    fn read_num_after(
        &self,
        event: &EventId,
        num: i64,
        after: u64,
    ) -> Result<Vec<Recorded>, StoreError> {
        let mut st = self.conn.prepare_cached(
            "SELECT seq, v, at, actor, entry FROM log WHERE event_num = ?1 AND seq > ?2 ORDER BY seq",
        )?;
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let rows = st.query_map(params![num, after], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, v, at, actor, entry) = row?;
            out.push(crate::decode_record(event, seq, v, at, actor, &entry)?);
        }
        Ok(out)
    }
}

impl EventStore for SqliteStore {
    fn create_event(&self, name: &str) -> Result<EventId, StoreError> {
        self.conn
            .execute("INSERT INTO events (name) VALUES (?1)", [name])?;
        let num = self.conn.last_insert_rowid();
        self.states.borrow_mut().insert(num, EventState::new());
        Ok(event_id(num))
    }

    fn create_with_log(&self, name: &str, records: &[Recorded]) -> Result<EventId, StoreError> {
        // Fold first: a log that does not fold is refused before anything is written.
        let state = EventState::replay(records)?;
        let tx = rusqlite::Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        tx.execute("INSERT INTO events (name) VALUES (?1)", [name])?;
        let num = tx.last_insert_rowid();
        insert_records(&tx, num, 0, records)?;
        tx.commit()?;
        self.states.borrow_mut().insert(num, state);
        Ok(event_id(num))
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
        self.states.borrow_mut().insert(num, state);
        Ok(last)
    }

    /// One transaction: read the last seq, fold (from the cache when it is current),
    /// validate, append.
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
        self.states.borrow_mut().insert(num, state.clone());
        Ok(state)
    }

    fn read(&self, event: &EventId) -> Result<Vec<Recorded>, StoreError> {
        let num = self.num(event)?;
        self.read_num(event, num)
    }

    fn last_seq(&self, event: &EventId) -> Result<u64, StoreError> {
        let num = self.num(event)?;
        SqliteStore::last_seq(self, num)
    }

    fn read_after(&self, event: &EventId, seq: u64) -> Result<Vec<Recorded>, StoreError> {
        let num = self.num(event)?;
        self.read_num_after(event, num, seq)
    }

    fn list_events(&self) -> Result<Vec<EventSummary>, StoreError> {
        let mut st = self
            .conn
            .prepare("SELECT num, name FROM events ORDER BY num")?;
        let rows = st.query_map([], |r| {
            Ok(EventSummary {
                id: event_id(r.get(0)?),
                name: r.get(1)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// Insert records numbered `expected_seq + 1 …` for event `num` (inside the caller's
/// transaction). A duplicate seq is reported as a conflict.
fn insert_records(
    tx: &rusqlite::Transaction<'_>,
    num: i64,
    expected_seq: u64,
    records: &[Recorded],
) -> Result<(), StoreError> {
    let mut ins = tx.prepare_cached(
        "INSERT INTO log (event_num, seq, v, at, actor, entry) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
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
        ins.execute(params![num, r.seq as i64, LOG_VERSION, r.at, r.actor, json])
            .map_err(|e| {
                if matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::ConstraintViolation)
                ) {
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
            tx.execute(
                "UPDATE events SET name = ?1 WHERE num = ?2",
                params![name, num],
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_round_trip() {
        assert_eq!(event_id(26).0, "ev-0000001a");
        assert_eq!(event_num(&event_id(26)), Some(26));
        assert_eq!(event_num(&EventId("ev-".into())), None);
        assert_eq!(event_num(&EventId("foo".into())), None);
        assert_eq!(event_num(&EventId("ev-0000001".into())), None);
        assert_eq!(event_num(&EventId("ev-0000001A".into())), None);
    }

    #[test]
    fn migrations_are_recorded_and_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.db");
        let s = SqliteStore::open(&p).unwrap();
        assert_eq!(s.schema_version().unwrap(), SqliteStore::SCHEMA_VERSION);
        assert_eq!(s.settings().unwrap(), ("wal".to_string(), 2));
        drop(s);
        let s = SqliteStore::open(&p).unwrap();
        let n: i64 = s
            .conn
            .query_row("SELECT COUNT(*) FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, SqliteStore::SCHEMA_VERSION);
    }

    #[test]
    fn corrupt_rows_and_unknown_versions_are_named() {
        let s = SqliteStore::open_in_memory().unwrap();
        let ev = s.create_event("x").unwrap();
        s.conn
            .execute(
                "INSERT INTO log VALUES (1, 1, 1, 'now', 'a', '{not json')",
                [],
            )
            .unwrap();
        let e = s.read(&ev).unwrap_err().to_string();
        assert!(
            e.contains("第 1 条日志已损坏") && e.contains("ev-00000001"),
            "{e}"
        );
        s.conn
            .execute("UPDATE log SET v = 7, entry = '{}'", [])
            .unwrap();
        let e = s.read(&ev).unwrap_err().to_string();
        assert!(e.contains("v7"), "{e}");
    }

    /// A database written before v4, whose event was renamed by the settings (赛事设置),
    /// lists the event under the new name once opened: the last `settings_changed` with a
    /// name wins; an event never renamed keeps its name.
    #[test]
    fn v4_lists_events_under_the_name_last_set() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("old.db");
        {
            let conn = Connection::open(&p).unwrap();
            conn.execute_batch("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                .unwrap();
            for (i, sql) in MIGRATIONS[..3].iter().enumerate() {
                conn.execute_batch(sql).unwrap();
                conn.execute(
                    "INSERT INTO schema_version (version) VALUES (?1)",
                    params![i as i64 + 1],
                )
                .unwrap();
            }
            conn.execute_batch(
                r#"INSERT INTO events (name) VALUES ('2024公开赛'), ('老赛事');
                   INSERT INTO log VALUES
                     (1, 1, 1, 't', 'a', '{"type":"event_created","name":"2024公开赛"}'),
                     (1, 2, 1, 't', 'a', '{"type":"settings_changed","name":"2025公开赛"}'),
                     (1, 3, 1, 't', 'a', '{"type":"settings_changed","venue":"文化宫"}'),
                     (1, 4, 1, 't', 'a', '{"type":"settings_changed","name":"2026公开赛"}'),
                     (1, 5, 1, 't', 'a', '{"type":"settings_changed","end":"2026-07-03"}'),
                     (2, 1, 1, 't', 'a', '{"type":"event_created","name":"老赛事"}');"#,
            )
            .unwrap();
        }
        let s = SqliteStore::open(&p).unwrap();
        assert_eq!(s.schema_version().unwrap(), SqliteStore::SCHEMA_VERSION);
        let names: Vec<String> = s
            .list_events()
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["2026公开赛", "老赛事"]);
    }

    #[test]
    fn newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.db");
        let s = SqliteStore::open(&p).unwrap();
        s.conn
            .execute("INSERT INTO schema_version (version) VALUES (99)", [])
            .unwrap();
        drop(s);
        assert!(matches!(
            SqliteStore::open(&p),
            Err(StoreError::SchemaTooNew { found: 99, .. })
        ));
    }
}
