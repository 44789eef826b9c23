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
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant};

/// Pages asked for within this time are rendered for a new state before it is shown
/// ([`Snapshot::warm`]).
pub const WARM_WITHIN: Duration = Duration::from_secs(10);
/// At most this many pages are rendered ahead per change of the log.
pub const WARM_MAX: usize = 32;

/// At most this many pages are kept per state of an event (the least recently asked for go
/// first). Every page a visitor can name exists (unknown sections, rounds, boards, players and
/// screen pages are a 404 before anything is kept), so this bounds what the pages of a very
/// large event take, not what a visitor can make the server keep.
pub const PAGE_MAX_ENTRIES: usize = 4096;
/// At most this many bytes of rendered pages (body and gzip copy) are kept per state of an
/// event; past it the least recently asked for pages are dropped (rendered again when asked).
pub const PAGE_MAX_BYTES: usize = 64 << 20;

/// The bounds of the page cache of one state (see [`PAGE_MAX_ENTRIES`], [`PAGE_MAX_BYTES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageBounds {
    pub entries: usize,
    pub bytes: usize,
}

impl Default for PageBounds {
    fn default() -> Self {
        PageBounds {
            entries: PAGE_MAX_ENTRIES,
            bytes: PAGE_MAX_BYTES,
        }
    }
}

/// What the page cache of one state holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageUse {
    /// Pages kept (rendered or being rendered).
    pub entries: usize,
    /// Bytes of the rendered pages kept (body and gzip copy).
    pub bytes: usize,
}

/// How a page is rendered from a state (kept to render it again for the next state).
pub type Render = Arc<dyn Fn(&Snapshot) -> Result<Page, WebError> + Send + Sync>;

/// One cached page of one state.
struct Slot {
    cell: tokio::sync::OnceCell<Arc<Page>>,
    render: Render,
    /// When it was last asked for (µs since [`epoch`], [`now_us`]), carried over to the next
    /// state.
    last_hit: AtomicU64,
    /// The bytes this page adds to [`Pages::bytes`] (0 until it is rendered and counted).
    counted: AtomicUsize,
}

impl Slot {
    fn new(render: Render, last_hit: u64) -> Slot {
        Slot {
            cell: tokio::sync::OnceCell::new(),
            render,
            last_hit: AtomicU64::new(last_hit),
            counted: AtomicUsize::new(0),
        }
    }
}

/// What a rendered page takes in the cache: its body and its gzip copy.
fn page_bytes(p: &Page) -> usize {
    p.body.len() + p.gzip.as_ref().map_or(0, |z| z.len())
}

/// The rendered pages of one state, with the bytes they take.
#[derive(Default)]
struct Pages {
    map: HashMap<String, Arc<Slot>>,
    bytes: usize,
}

impl Pages {
    /// Drop the least recently asked for pages until at most `entries` pages and `bytes`
    /// bytes are kept (`keep` is never dropped: the page being answered).
    fn shrink_to(&mut self, entries: usize, bytes: usize, keep: &str) {
        if self.map.len() <= entries && self.bytes <= bytes {
            return;
        }
        let mut by_age: Vec<(u64, String)> = self
            .map
            .iter()
            .filter(|(k, _)| k.as_str() != keep)
            .map(|(k, s)| (s.last_hit.load(Ordering::Relaxed), k.clone()))
            .collect();
        by_age.sort();
        for (_, k) in by_age {
            if self.map.len() <= entries && self.bytes <= bytes {
                break;
            }
            if let Some(s) = self.map.remove(&k) {
                self.bytes -= s.counted.load(Ordering::Relaxed);
            }
        }
    }
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

/// Microseconds since [`epoch`], strictly increasing across calls: two hits never share a
/// stamp, so "least recently read" is an order, not a tie broken by the page's name.
fn now_us() -> u64 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let t = epoch().elapsed().as_micros() as u64;
    let mut prev = LAST.load(Ordering::Relaxed);
    loop {
        let next = t.max(prev + 1);
        match LAST.compare_exchange_weak(prev, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(p) => prev = p,
        }
    }
}

#[derive(Default)]
pub struct Cache {
    snaps: RwLock<HashMap<EventId, Arc<Snapshot>>>,
    /// Last seq seen per event by the background task.
    seqs: Mutex<HashMap<EventId, u64>>,
    events: RwLock<Arc<Vec<EventSummary>>>,
    /// Refreshes run one at a time (no two folds of the same entries).
    pub(crate) refresh_lock: tokio::sync::Mutex<()>,
    /// The bounds of each new snapshot's page cache.
    bounds: RwLock<PageBounds>,
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

    /// The bounds of the page cache of every state from now on (`--page-cache-mb`,
    /// `--page-cache-pages`).
    pub fn set_page_bounds(&self, b: PageBounds) {
        if let Ok(mut w) = self.bounds.write() {
            *w = PageBounds {
                entries: b.entries.max(1),
                bytes: b.bytes,
            };
        }
    }

    /// The bounds of the page cache of a new state.
    pub fn page_bounds(&self) -> PageBounds {
        self.bounds.read().map_or(PageBounds::default(), |b| *b)
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
    pages: Mutex<Pages>,
    bounds: PageBounds,
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
            pages: Mutex::new(Pages::default()),
            bounds: PageBounds::default(),
            memo: Mutex::new(HashMap::new()),
        }
    }

    /// This snapshot with other bounds on its page cache.
    pub fn with_bounds(mut self, bounds: PageBounds) -> Snapshot {
        self.bounds = bounds;
        self
    }

    /// The bounds of this snapshot's page cache.
    pub fn bounds(&self) -> PageBounds {
        self.bounds
    }

    /// What this snapshot's page cache holds now.
    pub fn page_use(&self) -> PageUse {
        self.pages.lock().map_or(PageUse::default(), |p| PageUse {
            entries: p.map.len(),
            bytes: p.bytes,
        })
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
    ///
    /// A page whose render fails is not kept (the next request renders it again), and the
    /// cache keeps at most [`PageBounds`] pages and bytes: past them the least recently
    /// asked for pages are dropped.
    pub async fn page<F>(self: &Arc<Self>, key: &str, render: F) -> Result<Arc<Page>, WebError>
    where
        F: Fn(&Snapshot) -> Result<Page, WebError> + Send + Sync + 'static,
    {
        let lock = || {
            self.pages
                .lock()
                .map_err(|_| WebError::Internal("page cache lock poisoned".into()))
        };
        let slot = {
            let mut pages = lock()?;
            match pages.map.get(key) {
                Some(s) => s.clone(),
                None => {
                    // Room is made once it has rendered: a URL that fails to render (a 404)
                    // never pushes a kept page out.
                    let s = Arc::new(Slot::new(Arc::new(render), now_us()));
                    pages.map.insert(key.to_string(), s.clone());
                    s
                }
            }
        };
        slot.last_hit.store(now_us(), Ordering::Relaxed);
        if let Some(p) = slot.cell.get() {
            return Ok(p.clone());
        }
        let snap = self.clone();
        let job = slot.clone();
        let rendered = std::sync::atomic::AtomicBool::new(false);
        let out = slot
            .cell
            .get_or_try_init(|| async {
                rendered.store(true, Ordering::Relaxed);
                tokio::task::spawn_blocking(move || (job.render)(&snap).map(Arc::new))
                    .await
                    .map_err(|e| WebError::Internal(e.to_string()))?
            })
            .await
            .cloned();
        let mut pages = lock()?;
        let ours = pages.map.get(key).is_some_and(|s| Arc::ptr_eq(s, &slot));
        match &out {
            // Counted once, by the request that rendered it, if it is still kept.
            Ok(p) if ours && rendered.load(Ordering::Relaxed) => {
                let n = page_bytes(p);
                if n > self.bounds.bytes {
                    // A single page larger than the bound is answered, not kept.
                    pages.map.remove(key);
                } else {
                    slot.counted.store(n, Ordering::Relaxed);
                    pages.bytes += n;
                    pages.shrink_to(self.bounds.entries, self.bounds.bytes, key);
                }
            }
            Err(_) if ours && !slot.cell.initialized() => {
                pages.map.remove(key);
            }
            _ => {}
        }
        out
    }

    /// Whether the page `key` of this state is rendered (in the cache).
    pub fn has_page(&self, key: &str) -> bool {
        self.pages
            .lock()
            .is_ok_and(|p| p.map.get(key).is_some_and(|s| s.cell.initialized()))
    }

    /// Render for `next` (the state after this one) the pages of this state asked for within
    /// [`WARM_WITHIN`] (at most [`WARM_MAX`], the most recent first), so that the first
    /// requests after a change of the log are served from the cache instead of all waiting
    /// for one render. Blocking; call it before `next` is put in the cache. A page whose
    /// render fails is left to render (and report its error) when asked for.
    pub fn warm(&self, next: &Snapshot) {
        let now = now_us();
        let within = WARM_WITHIN.as_micros() as u64;
        let mut hot: Vec<(String, Arc<Slot>)> = match self.pages.lock() {
            Ok(p) => p
                .map
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
            let slot = Slot::new(old.render.clone(), old.last_hit.load(Ordering::Relaxed));
            if let Ok(page) = (old.render)(next) {
                let _ = slot.cell.set(Arc::new(page));
                ready.push((key, Arc::new(slot)));
            }
        }
        if let Ok(mut pages) = next.pages.lock() {
            for (k, s) in ready {
                if pages.map.contains_key(&k) || pages.map.len() >= next.bounds.entries {
                    continue;
                }
                let bytes = s.cell.get().map_or(0, |p| page_bytes(p));
                if pages.bytes + bytes > next.bounds.bytes {
                    continue;
                }
                s.counted.store(bytes, Ordering::Relaxed);
                pages.bytes += bytes;
                pages.map.insert(k, s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(bounds: PageBounds) -> Arc<Snapshot> {
        Arc::new(
            Snapshot::new(EventId("e".into()), "e".into(), EventState::default())
                .with_bounds(bounds),
        )
    }

    #[tokio::test]
    async fn a_failed_render_is_not_kept() {
        let s = snap(PageBounds::default());
        for i in 0..100 {
            let r = s
                .page(&format!("nosuch{i}"), |_| {
                    Err(WebError::NotFound("nothing".into()))
                })
                .await;
            assert!(r.is_err());
        }
        assert_eq!(s.page_use(), PageUse::default());
        // At the bound, failing URLs push no kept page out.
        let full = snap(PageBounds {
            entries: 3,
            bytes: 1 << 20,
        });
        for k in ["a", "b", "c"] {
            full.page(k, |_| Ok(Page::new(vec![b'x'; 10], crate::page::HTML)))
                .await
                .unwrap();
        }
        for i in 0..50 {
            let _ = full
                .page(&format!("nosuch{i}"), |_| {
                    Err(WebError::NotFound("x".into()))
                })
                .await;
        }
        assert!(full.has_page("a") && full.has_page("b") && full.has_page("c"));
        assert_eq!(full.page_use().entries, 3);
    }

    #[tokio::test]
    async fn pages_past_the_bounds_drop_the_least_recently_read() {
        let s = snap(PageBounds {
            entries: 5,
            bytes: 10_000,
        });
        let body = |n: usize| move |_: &Snapshot| Ok(Page::new(vec![b'x'; n], crate::page::HTML));
        // `a` is read again after every new page: it stays.
        s.page("a", body(100)).await.unwrap();
        for i in 0..20 {
            s.page(&format!("p{i}"), body(100)).await.unwrap();
            s.page("a", body(100)).await.unwrap();
            let u = s.page_use();
            assert!(u.entries <= 5 && u.bytes <= 10_000, "{u:?}");
        }
        assert!(s.has_page("a"));
        assert!(s.has_page("p19") && !s.has_page("p0"));
        // Bytes: three pages of 4,000 do not fit in 10,000 (the gzip copy counts too).
        let big = snap(PageBounds {
            entries: 100,
            bytes: 10_000,
        });
        for i in 0..3 {
            big.page(&format!("b{i}"), body(4_000)).await.unwrap();
        }
        let u = big.page_use();
        assert!(u.bytes <= 10_000 && u.entries < 3, "{u:?}");
        // A page larger than the whole bound is answered, not kept.
        let p = big.page("huge", body(20_000)).await.unwrap();
        assert_eq!(p.body.len(), 20_000);
        assert!(!big.has_page("huge"));
        assert!(big.page_use().bytes <= 10_000);
    }
}
