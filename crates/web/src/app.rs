//! [`AppState`]: what every handler gets — the store, the event cache, the live-update
//! broadcaster. Cheap to clone (an `Arc` inside).

use crate::cache::{Cache, Snapshot};
use crate::error::WebError;
use crate::live::Change;
use arbiter_core::EventState;
use arbiter_store::{AnyRef, AnyStore, EventId, EventStore, EventSummary, PgStore, SqliteStore};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    /// The database file (or PostgreSQL URL).
    pub db: PathBuf,
    /// The store, used through [`AppState::with_store`] on a blocking thread.
    store: Backend,
    /// Woken by the PostgreSQL listener when any server appended ([`crate::live::watch`]).
    pub appended: tokio::sync::Notify,
    pub cache: Cache,
    /// One message per new `last_seq` of an event (see [`crate::live`]).
    pub changes: broadcast::Sender<Change>,
    /// Set when the server stops: open live streams end so the shutdown can finish.
    pub shutdown: tokio::sync::watch::Sender<bool>,
    /// Password checks at once and login attempts in flight ([`crate::auth::limit`]).
    pub login_gate: Arc<crate::auth::limit::Gate>,
    /// PDF documents and workbooks are made here, a few at once ([`crate::pool`]).
    pub documents: crate::pool::Pool,
    /// `--public-url`: the address players open (the QR codes encode it); unset, the
    /// address the browser reached the server at.
    public_url: std::sync::OnceLock<String>,
}

/// SQLite: one connection (not `Sync`), one call at a time. PostgreSQL: a pool, calls in
/// parallel.
enum Backend {
    Sqlite(Mutex<SqliteStore>),
    Postgres(PgStore),
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Open (or create) the database `db` names: a SQLite file, or PostgreSQL for a
    /// `postgres://…` URL. Blocks (call it off the async threads, e.g. in `spawn_blocking`).
    pub fn open(db: &Path) -> Result<AppState, WebError> {
        let store = match db.to_str().filter(|s| arbiter_store::is_postgres_url(s)) {
            Some(url) => AnyStore::Postgres(PgStore::connect(url)?),
            None => AnyStore::Sqlite(SqliteStore::open(db)?),
        };
        Ok(Self::with_any(db.to_path_buf(), store))
    }

    /// A state over an already open SQLite store (e.g. the in-memory demo database).
    pub fn with(db: PathBuf, store: SqliteStore) -> AppState {
        Self::with_any(db, AnyStore::Sqlite(store))
    }

    /// A state over an already open store of either kind.
    pub fn with_any(db: PathBuf, store: AnyStore) -> AppState {
        let (changes, _) = broadcast::channel(256);
        let store = match store {
            AnyStore::Sqlite(s) => Backend::Sqlite(Mutex::new(s)),
            AnyStore::Postgres(p) => Backend::Postgres(p),
        };
        AppState(Arc::new(Inner {
            db,
            store,
            appended: tokio::sync::Notify::new(),
            cache: Cache::default(),
            changes,
            shutdown: tokio::sync::watch::Sender::new(false),
            login_gate: Arc::new(crate::auth::limit::Gate::default()),
            documents: crate::pool::Pool::new(
                "documents",
                crate::pool::DOCUMENT_THREADS,
                crate::pool::DOCUMENT_QUEUE,
            ),
            public_url: std::sync::OnceLock::new(),
        }))
    }

    /// Set the public address (`--public-url`, checked by [`crate::parse_public_url`]);
    /// once: a later call changes nothing.
    pub fn set_public_url(&self, url: String) {
        let _ = self.public_url.set(url);
    }

    /// The public address the server was given (`--public-url`), without a trailing `/`.
    pub fn public_url(&self) -> Option<&str> {
        self.public_url.get().map(String::as_str)
    }

    /// Run `f` with the store on a blocking thread (store calls block).
    pub async fn with_store<T, F>(&self, f: F) -> Result<T, WebError>
    where
        T: Send + 'static,
        F: FnOnce(&AnyRef<'_>) -> Result<T, WebError> + Send + 'static,
    {
        let app = self.clone();
        tokio::task::spawn_blocking(move || match &app.store {
            Backend::Sqlite(m) => {
                let store = m.lock().map_err(|_| {
                    WebError::Internal("数据库连接不可用 (store lock poisoned)".into())
                })?;
                f(&AnyRef::Sqlite(&store))
            }
            Backend::Postgres(p) => f(&AnyRef::Postgres(p)),
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?
    }

    /// A handle that does not keep the state alive (background threads hold this).
    pub fn downgrade(&self) -> std::sync::Weak<Inner> {
        Arc::downgrade(&self.0)
    }

    /// The state behind a [`AppState::downgrade`] handle, while the server still holds it.
    pub fn upgrade(weak: &std::sync::Weak<Inner>) -> Option<AppState> {
        weak.upgrade().map(AppState)
    }

    /// The PostgreSQL store, when that is the backend (its appends can be listened for).
    pub fn postgres(&self) -> Option<&PgStore> {
        match &self.store {
            Backend::Postgres(p) => Some(p),
            Backend::Sqlite(_) => None,
        }
    }

    /// The events of the database, as last seen by [`AppState::refresh_all`].
    pub fn events(&self) -> Arc<Vec<EventSummary>> {
        self.cache.events()
    }

    /// The cached folded state of `event` (folded on first use).
    pub async fn snapshot(&self, event: &str) -> Result<Arc<Snapshot>, WebError> {
        let id = EventId(event.to_string());
        if let Some(s) = self.cache.get(&id) {
            return Ok(s);
        }
        Ok(self.refresh(&id).await?.0)
    }

    /// Bring the cached state of `event` up to date: apply only the entries after its
    /// `last_seq` (or fold the whole log the first time). Returns the snapshot and whether
    /// it changed. Call it after appending through this process to see the write at once.
    pub async fn refresh(&self, event: &EventId) -> Result<(Arc<Snapshot>, bool), WebError> {
        let _one_at_a_time = self.cache.refresh_lock.lock().await;
        let old = self.cache.get(event);
        let id = event.clone();
        let after = old.as_ref().map_or(0, |s| s.last_seq());
        let (name, records) = self
            .with_store(move |st| {
                let name = st
                    .list_events()?
                    .into_iter()
                    .find(|e| e.id == id)
                    .map(|e| e.name)
                    .ok_or_else(|| WebError::NotFound(format!("赛事 {id} (event)")))?;
                Ok((name, st.read_after(&id, after)?))
            })
            .await?;
        if let (Some(old), true) = (&old, records.is_empty()) {
            return Ok((old.clone(), false));
        }
        // Fold the new entries and render the pages people were reading, all before the new
        // state is shown: meanwhile every request is still served from the old state's
        // cache, and none waits for a render when it changes.
        let id = event.clone();
        let bounds = self.cache.page_bounds();
        let snap = tokio::task::spawn_blocking(move || {
            let mut state: EventState = old.as_ref().map(|s| s.state.clone()).unwrap_or_default();
            for r in &records {
                state.apply(r).map_err(|e| {
                    WebError::Internal(format!("日志无法重放 (the log does not fold): {e}"))
                })?;
            }
            let snap = Snapshot::new(id, name, state).with_bounds(bounds);
            if let Some(old) = &old {
                old.warm(&snap);
            }
            Ok::<_, WebError>(Arc::new(snap))
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))??;
        self.cache.put(snap.clone());
        Ok((snap, true))
    }

    /// Look at every event's `last_seq`; refresh the cached ones that moved and send one
    /// [`Change`] per event whose `last_seq` is new. The background task calls this every
    /// poll interval, so appends by other processes (the CLI) show up too.
    pub async fn refresh_all(&self) -> Result<(), WebError> {
        let seqs = self
            .with_store(|st| {
                let events = st.list_events()?;
                let mut out = Vec::with_capacity(events.len());
                for e in events {
                    let seq = st.last_seq(&e.id)?;
                    out.push((e, seq));
                }
                Ok(out)
            })
            .await?;
        self.cache
            .set_events(seqs.iter().map(|(e, _)| e.clone()).collect());
        for (e, seq) in seqs {
            if !self.cache.note_seq(&e.id, seq) {
                continue;
            }
            if self.cache.get(&e.id).is_some() {
                self.refresh(&e.id).await?;
            }
            // Nobody listening is not an error.
            let _ = self.changes.send(Change {
                event: e.id.0.clone(),
                last_seq: seq,
            });
        }
        Ok(())
    }
}
