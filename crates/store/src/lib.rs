//! Event-log storage. [`EventStore`] is what the rest of the program uses; [`SqliteStore`]
//! is the default implementation (one file, one venue) and [`PgStore`] the PostgreSQL one
//! (hosting: several servers on one database). [`open`] picks one from a `--db` value:
//! `postgres://…`/`postgresql://…` is PostgreSQL, anything else a SQLite file.
//!
//! Appends are optimistic: the caller says which sequence number it last saw
//! (`expected_seq`), and the append fails with [`StoreError::Conflict`] if another writer
//! got there first. The `(event, seq)` primary key makes a double append impossible even if
//! two processes race.
//!
//! Every path that writes log entries validates them against the folded state of the event
//! first ([`EventState::apply`], the same check replay runs), inside the transaction that
//! checks the expected seq: a stored log therefore always folds. A refused entry leaves the
//! log unchanged and is reported as [`StoreError::Refused`].

pub mod accounts;
mod any;
mod pg;
#[cfg(any(test, feature = "pgtest"))]
pub mod pgtest;
mod sqlite;
pub mod write;

pub use accounts::{AccountStore, Role};
pub use any::{is_postgres_url, open, AnyRef, AnyStore, Store};
pub use pg::{redact_url, Listener, PgStore, CHANNEL};
pub use sqlite::SqliteStore;

use arbiter_core::{validate_at, EventState, FoldError, LogEntry, Recorded, Rejection};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Format tag of a log export document.
pub const EXPORT_FORMAT: &str = "arbiter-log/1";

/// A stored event's id, e.g. `ev-00000001`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventId(pub String);

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSummary {
    pub id: EventId,
    pub name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("并发冲突: 期望最后序号 {expected}, 实际 {actual}; 请重新读取后再试 (append conflict: expected last seq {expected}, found {actual})")]
    Conflict { expected: u64, actual: u64 },
    #[error("赛事 `{0}` 不存在 (unknown event)")]
    UnknownEvent(String),
    #[error("数据库错误: {0} (database error)")]
    Database(String),
    #[error("数据库版本 {found} 高于本程序支持的 {supported} (database schema is newer than this program)")]
    SchemaTooNew { found: i64, supported: i64 },
    #[error("赛事 `{event}` 第 {seq} 条日志已损坏: {message} (corrupt log entry)")]
    Corrupt {
        event: String,
        seq: u64,
        message: String,
    },
    #[error("{0}")]
    Import(String),
    /// An account request that does not fit the stored accounts (a login name taken, an
    /// unknown account).
    #[error("{0}")]
    Account(String),
    #[error("日志无法重放: {0} (the log does not fold)")]
    Fold(#[from] FoldError),
    #[error("{0}")]
    Rejected(#[from] Rejection),
    /// An appended entry does not fit the event's state; nothing was written.
    #[error("赛事 `{event}` 第 {seq} 条日志 ({kind}) 被拒绝, 日志未改动: {rejection} (entry refused; nothing was appended)")]
    Refused {
        event: String,
        seq: u64,
        kind: &'static str,
        rejection: Rejection,
    },
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        // The server's own message (with its detail) says more than the client's summary.
        match e.as_db_error() {
            Some(db) => {
                StoreError::Database(format!("PostgreSQL {}: {}", db.code().code(), db.message()))
            }
            None => StoreError::Database(format!("PostgreSQL: {e}")),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

/// The log export document (`arbiter-log/1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogExport {
    pub format: String,
    pub event: EventId,
    pub name: String,
    pub entries: Vec<Recorded>,
}

/// Storage of event logs.
pub trait EventStore {
    /// A new, empty event; its log starts with `EventCreated` appended at seq 1.
    fn create_event(&self, name: &str) -> Result<EventId, StoreError>;

    /// A new event holding `records` (numbered from 1), created atomically: either the event
    /// and its whole log exist afterwards or nothing does. Implementations must refuse a
    /// log that does not fold ([`StoreError::Fold`]) before writing anything.
    fn create_with_log(&self, name: &str, records: &[Recorded]) -> Result<EventId, StoreError>;

    /// Validate `entries` as the start of a new log and create the event atomically.
    fn create_checked(
        &self,
        name: &str,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<EventId, StoreError> {
        // `create_with_log` folds (validates) the records before writing them.
        self.create_with_log(name, &number(entries, 0, actor, at))
    }

    /// Append already-numbered records atomically: `records[i].seq` must be
    /// `expected_seq + 1 + i`. Returns the new last seq. Implementations must check the
    /// expected seq and validate every record against the folded state (see
    /// [`check_append`]) in one transaction, and write nothing if either fails.
    fn append_recorded(
        &self,
        event: &EventId,
        expected_seq: u64,
        records: &[Recorded],
    ) -> Result<u64, StoreError>;

    /// The whole log of an event, in seq order.
    fn read(&self, event: &EventId) -> Result<Vec<Recorded>, StoreError>;

    fn list_events(&self) -> Result<Vec<EventSummary>, StoreError>;

    /// Seq of the last entry of an event's log (0 for an empty log). Readers that keep a
    /// folded state poll this to notice appends by other processes.
    fn last_seq(&self, event: &EventId) -> Result<u64, StoreError> {
        Ok(self.read(event)?.last().map_or(0, |r| r.seq))
    }

    /// The entries after `seq`, in seq order (a cached fold applies only these).
    fn read_after(&self, event: &EventId, seq: u64) -> Result<Vec<Recorded>, StoreError> {
        let mut log = self.read(event)?;
        log.retain(|r| r.seq > seq);
        Ok(log)
    }

    /// Append entries after `expected_seq` (the last seq the caller has seen); fails with
    /// [`StoreError::Conflict`] if the log has moved on. Returns the new last seq.
    fn append(
        &self,
        event: &EventId,
        expected_seq: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<u64, StoreError> {
        self.append_recorded(
            event,
            expected_seq,
            &number(entries, expected_seq, actor, at),
        )
    }

    /// Fold an event's log.
    fn state(&self, event: &EventId) -> Result<EventState, StoreError> {
        Ok(EventState::replay(&self.read(event)?)?)
    }

    /// Read, validate every entry against the state (as the fold will), then append with
    /// the seq that was read. Returns the new state.
    fn append_checked(
        &self,
        event: &EventId,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<EventState, StoreError> {
        let mut state = self.state(event)?;
        let expected = state.last_seq;
        for (i, e) in entries.iter().enumerate() {
            validate_at(&state, e, Some(at))?;
            state.apply(&Recorded {
                seq: expected + 1 + i as u64,
                at: at.into(),
                actor: actor.into(),
                entry: e.clone(),
            })?;
        }
        self.append(event, expected, entries, actor, at)?;
        Ok(state)
    }

    /// The `arbiter-log/1` document of an event (personal data included: it is the backup).
    fn export(&self, event: &EventId) -> Result<LogExport, StoreError> {
        let entries = self.read(event)?;
        let name = self
            .list_events()?
            .into_iter()
            .find(|e| &e.id == event)
            .map(|e| e.name)
            .ok_or_else(|| StoreError::UnknownEvent(event.0.clone()))?;
        Ok(LogExport {
            format: EXPORT_FORMAT.into(),
            event: event.clone(),
            name,
            entries,
        })
    }

    /// Import an `arbiter-log/1` document as a new event. The log is replayed first and
    /// refused if it does not fold.
    fn import(&self, json: &str) -> Result<EventId, StoreError> {
        let doc = parse_export(json)?;
        // `create_with_log` replays the log and refuses it if it does not fold.
        self.create_with_log(&doc.name, &doc.entries)
    }
}

/// Decode one stored row of a log (both backends store the same columns): the current
/// version directly, older versions through the migration steps.
pub(crate) fn decode_record(
    event: &EventId,
    seq: i64,
    v: i64,
    at: String,
    actor: String,
    entry: &str,
) -> Result<Recorded, StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        event: event.0.clone(),
        seq: seq as u64,
        message,
    };
    if v == i64::from(arbiter_core::LOG_VERSION) {
        let entry: LogEntry = serde_json::from_str(entry).map_err(|e| corrupt(e.to_string()))?;
        Ok(Recorded {
            seq: seq as u64,
            at,
            actor,
            entry,
        })
    } else {
        let entry: serde_json::Value =
            serde_json::from_str(entry).map_err(|e| corrupt(e.to_string()))?;
        let env =
            serde_json::json!({ "v": v, "seq": seq, "at": at, "actor": actor, "entry": entry });
        Recorded::from_value(env).map_err(|e| corrupt(e.to_string()))
    }
}

/// Entries numbered `after + 1 …` with one time and actor.
pub(crate) fn number(entries: &[LogEntry], after: u64, actor: &str, at: &str) -> Vec<Recorded> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| Recorded {
            seq: after + 1 + i as u64,
            at: at.into(),
            actor: actor.into(),
            entry: e.clone(),
        })
        .collect()
}

/// The check every [`EventStore`] append runs before writing: `records` must be numbered
/// `expected_seq + 1 …` and each must be accepted by the fold of `state` (whose `last_seq`
/// must be `expected_seq`). On success `state` is the state after the records; on failure
/// it may hold some of them and must be discarded.
pub fn check_append(
    event: &EventId,
    state: &mut EventState,
    expected_seq: u64,
    records: &[Recorded],
) -> Result<(), StoreError> {
    if state.last_seq != expected_seq {
        return Err(StoreError::Conflict {
            expected: expected_seq,
            actual: state.last_seq,
        });
    }
    for (i, r) in records.iter().enumerate() {
        let want = expected_seq + 1 + i as u64;
        if r.seq != want {
            return Err(StoreError::Import(format!(
                "日志序号应为 {want}, 实为 {} (records must be numbered without gaps)",
                r.seq
            )));
        }
        state.apply(r).map_err(|e| match e {
            FoldError::Rejected {
                seq,
                kind,
                rejection,
            } => StoreError::Refused {
                event: event.0.clone(),
                seq,
                kind,
                rejection,
            },
            other => StoreError::Fold(other),
        })?;
    }
    Ok(())
}

#[derive(Deserialize)]
struct RawExport {
    format: String,
    #[serde(default)]
    name: String,
    entries: Vec<serde_json::Value>,
}

/// Parse an `arbiter-log/1` document, with line/column for malformed JSON and the entry
/// index for entries that do not decode.
pub fn parse_export(json: &str) -> Result<LogExport, StoreError> {
    let raw: RawExport = serde_json::from_str(json).map_err(|e| {
        StoreError::Import(format!(
            "第{}行第{}列: 日志文件无法解析: {e} (malformed log document)",
            e.line(),
            e.column()
        ))
    })?;
    if raw.format != EXPORT_FORMAT {
        return Err(StoreError::Import(format!(
            "文件格式为 `{}`, 应为 `{EXPORT_FORMAT}` (unsupported document format)",
            raw.format
        )));
    }
    let mut entries = Vec::with_capacity(raw.entries.len());
    for (i, v) in raw.entries.into_iter().enumerate() {
        let r = Recorded::from_value(v)
            .map_err(|e| StoreError::Import(format!("entries[{i}] (第{}条): {e}", i + 1)))?;
        entries.push(r);
    }
    Ok(LogExport {
        format: raw.format,
        event: EventId(String::new()),
        name: raw.name,
        entries,
    })
}
