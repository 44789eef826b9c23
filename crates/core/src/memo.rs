//! A place beside a section's knockout games for what a shell derives from them (the
//! director's bracket), so that the next state — one game more — starts from it instead of
//! replaying every game again.
//!
//! The games of a section only grow (`knockout_game_recorded` appends one). The fold stamps
//! each game it appends with a number unique in the process, so a stamp names one sequence
//! of games: two states whose game `k` carries the same stamp have the same first `k`
//! games, and a value derived from them holds for both. Clones of a state share the slot;
//! a state folded apart from the same entries (a scratch fold, then the log's own) stamps
//! them afresh, so whoever takes a value from the slot compares the games after the last
//! stamp the two share before using it.
//!
//! Nothing here is part of the state's value: two states folded from the same log compare
//! equal whatever their memos hold, and a memo is never serialised.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Stamps start at 1: 0 is the stamp of no game at all.
static NEXT_STAMP: AtomicU64 = AtomicU64::new(1);

/// The memo of one section's knockout games (see the module documentation).
#[derive(Clone, Default)]
pub struct KnockoutMemo {
    /// One stamp per game of [`crate::SectionRecord::knockout`], in order; shorter than the
    /// games when the state was not folded here (read from JSON), which then has no memo.
    stamps: imbl::Vector<u64>,
    /// The value a shell keeps, shared by the clones of the state.
    slot: Arc<Mutex<Option<Box<dyn Any + Send>>>>,
}

impl KnockoutMemo {
    /// Stamps one more game (the fold, as it appends a knockout game).
    pub(crate) fn push(&mut self) {
        self.stamps
            .push_back(NEXT_STAMP.fetch_add(1, Ordering::Relaxed));
    }

    /// The stamps of a section's `games` games, in order; `None` when the state keeps none
    /// for them (it was not folded here). Two states whose game `k` has the same stamp have
    /// the same first `k` games.
    pub fn stamps(&self, games: usize) -> Option<&imbl::Vector<u64>> {
        (self.stamps.len() == games).then_some(&self.stamps)
    }

    /// Takes the value kept, if it is a `T` (the slot is then empty until [`Self::put`]).
    pub fn take<T: Any + Send>(&self) -> Option<T> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        let kept = slot.take()?;
        match kept.downcast::<T>() {
            Ok(v) => Some(*v),
            Err(other) => {
                *slot = Some(other);
                None
            }
        }
    }

    /// Keeps `value` for this state and the states folded from it.
    pub fn put<T: Any + Send>(&self, value: T) {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        *slot = Some(Box::new(value));
    }
}

impl std::fmt::Debug for KnockoutMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KnockoutMemo({} stamps)", self.stamps.len())
    }
}

/// A memo is derived from the games, which the state compares itself.
impl PartialEq for KnockoutMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for KnockoutMemo {}
