//! The event cache: one [`Snapshot`] (folded state) per event, replaced when the log grows.
//! A snapshot also caches what is derived from its state — the published export (standings,
//! team standings, prizes) and every rendered page — so each page is rendered once per
//! change of the log, however many phones ask for it.

use crate::error::WebError;
use crate::page::Page;
use arbiter_core::EventState;
use arbiter_director::Export;
use arbiter_store::{EventId, EventSummary};
use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

/// Pages asked for within this time are rendered for a new state before it is shown
/// ([`Snapshot::warm`]).
pub const WARM_WITHIN: Duration = Duration::from_secs(10);
/// At most this many pages are rendered ahead per change of the log.
pub const WARM_MAX: usize = 32;

/// How a page is rendered from a state (kept to render it again for the next state).
pub type Render = Arc<dyn Fn(&Snapshot) -> Result<Page, WebError> + Send + Sync>;

/// One cached page of one state.
struct Slot {
    cell: tokio::sync::OnceCell<Arc<Page>>,
    render: Render,
    /// When it was last asked for (ms since [`epoch`]), carried over to the next state.
    last_hit: AtomicU64,
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64
}

#[derive(Default)]
pub struct Cache {
    snaps: RwLock<HashMap<EventId, Arc<Snapshot>>>,
    /// Last seq seen per event by the background task.
    seqs: Mutex<HashMap<EventId, u64>>,
    events: RwLock<Arc<Vec<EventSummary>>>,
    /// Refreshes run one at a time (no two folds of the same entries).
    pub(crate) refresh_lock: tokio::sync::Mutex<()>,
}

impl Cache {
    pub fn get(&self, id: &EventId) -> Option<Arc<Snapshot>> {
        self.snaps.read().ok()?.get(id).cloned()
    }

    pub(crate) fn put(&self, s: Arc<Snapshot>) {
        if let Ok(mut m) = self.snaps.write() {
            m.insert(s.event.clone(), s);
        }
    }

    pub fn events(&self) -> Arc<Vec<EventSummary>> {
        self.events
            .read()
            .map(|e| e.clone())
            .unwrap_or_else(|_| Arc::new(Vec::new()))
    }

    pub(crate) fn set_events(&self, list: Vec<EventSummary>) {
        if let Ok(mut e) = self.events.write() {
            *e = Arc::new(list);
        }
    }

    /// Record `seq` as the event's last seq; true if it is new.
    pub(crate) fn note_seq(&self, id: &EventId, seq: u64) -> bool {
        let Ok(mut m) = self.seqs.lock() else {
            return false;
        };
        m.insert(id.clone(), seq) != Some(seq)
    }
}

/// The folded state of one event at one `last_seq`, and what is derived from it.
pub struct Snapshot {
    pub event: EventId,
    /// The event's name in the database.
    pub name: String,
    pub state: EventState,
    export: OnceLock<Result<Arc<Export>, String>>,
    pages: Mutex<HashMap<String, Arc<Slot>>>,
    /// Values derived from the state (round sheets, player histories), by key.
    memo: Mutex<HashMap<String, Arc<dyn Any + Send + Sync>>>,
}

impl Snapshot {
    pub fn new(event: EventId, name: String, state: EventState) -> Snapshot {
        Snapshot {
            event,
            name,
            state,
            export: OnceLock::new(),
            pages: Mutex::new(HashMap::new()),
            memo: Mutex::new(HashMap::new()),
        }
    }

    pub fn last_seq(&self) -> u64 {
        self.state.last_seq
    }

    /// The event's display name: the regulation's, else the database's.
    pub fn title(&self) -> &str {
        match self.state.name() {
            "" => &self.name,
            n => n,
        }
    }

    /// The event's name in language `l`: the regulation's English name (`name_en`) in
    /// English when it has one, else the display name.
    pub fn title_in(&self, l: crate::i18n::Lang) -> String {
        if l == crate::i18n::Lang::En {
            if let Some(en) = self
                .state
                .regulation()
                .ok()
                .and_then(|r| r.event.name_en.clone())
                .filter(|n| !n.trim().is_empty())
            {
                return en;
            }
        }
        self.title().to_string()
    }

    /// The name of section `id` in language `l` (its `name_en` in English when the
    /// regulation gives one), or `None` for a section the event does not have.
    pub fn section_title(&self, l: crate::i18n::Lang, id: &str) -> Option<String> {
        let sec = self.state.section(id)?;
        if l == crate::i18n::Lang::En {
            if let Some(en) = self.state.regulation().ok().and_then(|r| {
                r.sections
                    .iter()
                    .find(|s| s.id == id)
                    .and_then(|s| s.name_en.clone())
                    .filter(|n| !n.trim().is_empty())
            }) {
                return Some(en);
            }
        }
        Some(sec.name.clone())
    }

    /// The published export of this state (`arbiter-export/1`: standings with every
    /// tie-break, team standings, prizes; no personal data), computed once. Call it from a
    /// blocking context: it may take a while for a large event.
    pub fn export(&self) -> Result<Arc<Export>, WebError> {
        self.export
            .get_or_init(|| {
                arbiter_director::export(&self.state)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(WebError::Internal)
    }

    /// A value derived from this state, computed once per key by `make` (blocking context).
    pub fn memo<T, F>(&self, key: &str, make: F) -> Result<Arc<T>, WebError>
    where
        T: Any + Send + Sync,
        F: FnOnce() -> Result<T, WebError>,
    {
        let lock = || {
            self.memo
                .lock()
                .map_err(|_| WebError::Internal("memo lock poisoned".into()))
        };
        if let Some(v) = lock()?.get(key).cloned() {
            if let Ok(t) = v.downcast::<T>() {
                return Ok(t);
            }
        }
        let v = Arc::new(make()?);
        lock()?.insert(key.to_string(), v.clone());
        Ok(v)
    }

    /// The page cached under `key` for this state, rendered by `render` (on a blocking
    /// thread) the first time it is asked for — or before the state was shown, if the page
    /// was asked for shortly before ([`Snapshot::warm`]). Concurrent requests wait for the
    /// one render. Serving a cached page is a map lookup and a clone of its `Arc`.
    pub async fn page<F>(self: &Arc<Self>, key: &str, render: F) -> Result<Arc<Page>, WebError>
    where
        F: Fn(&Snapshot) -> Result<Page, WebError> + Send + Sync + 'static,
    {
        let slot = {
            let mut pages = self
                .pages
                .lock()
                .map_err(|_| WebError::Internal("page cache lock poisoned".into()))?;
            match pages.get(key) {
                Some(s) => s.clone(),
                None => {
                    let s = Arc::new(Slot {
                        cell: tokio::sync::OnceCell::new(),
                        render: Arc::new(render),
                        last_hit: AtomicU64::new(0),
                    });
                    pages.insert(key.to_string(), s.clone());
                    s
                }
            }
        };
        slot.last_hit.store(now_ms(), Ordering::Relaxed);
        if let Some(p) = slot.cell.get() {
            return Ok(p.clone());
        }
        let snap = self.clone();
        let job = slot.clone();
        slot.cell
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || (job.render)(&snap).map(Arc::new))
                    .await
                    .map_err(|e| WebError::Internal(e.to_string()))?
            })
            .await
            .cloned()
    }

    /// Whether the page `key` of this state is rendered (in the cache).
    pub fn has_page(&self, key: &str) -> bool {
        self.pages
            .lock()
            .is_ok_and(|p| p.get(key).is_some_and(|s| s.cell.initialized()))
    }

    /// Render for `next` (the state after this one) the pages of this state asked for within
    /// [`WARM_WITHIN`] (at most [`WARM_MAX`], the most recent first), so that the first
    /// requests after a change of the log are served from the cache instead of all waiting
    /// for one render. Blocking; call it before `next` is put in the cache. A page whose
    /// render fails is left to render (and report its error) when asked for.
    pub fn warm(&self, next: &Snapshot) {
        let now = now_ms();
        let within = WARM_WITHIN.as_millis() as u64;
        let mut hot: Vec<(String, Arc<Slot>)> = match self.pages.lock() {
            Ok(p) => p
                .iter()
                .filter(|(_, s)| now.saturating_sub(s.last_hit.load(Ordering::Relaxed)) < within)
                .map(|(k, s)| (k.clone(), s.clone()))
                .collect(),
            Err(_) => return,
        };
        hot.sort_by_key(|(_, s)| std::cmp::Reverse(s.last_hit.load(Ordering::Relaxed)));
        hot.truncate(WARM_MAX);
        let mut ready = Vec::with_capacity(hot.len());
        for (key, old) in hot {
            let slot = Slot {
                cell: tokio::sync::OnceCell::new(),
                render: old.render.clone(),
                last_hit: AtomicU64::new(old.last_hit.load(Ordering::Relaxed)),
            };
            if let Ok(page) = (old.render)(next) {
                let _ = slot.cell.set(Arc::new(page));
                ready.push((key, Arc::new(slot)));
            }
        }
        if let Ok(mut pages) = next.pages.lock() {
            for (k, s) in ready {
                pages.entry(k).or_insert(s);
            }
        }
    }
}
