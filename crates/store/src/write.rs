//! A stored event as the director's write path sees it ([`arbiter_director::api::write`]):
//! the current state folded from the store, and appends with the expected sequence number.

use crate::{EventId, EventStore, StoreError};
use arbiter_core::{EventState, LogEntry};
use arbiter_director::api::write::{Append, EventBook, EventLog};

/// What a store's append means to the write path: a lost race, a refusal of the log's own
/// rules (nothing written), or a failure of the store.
pub fn append_outcome(r: Result<u64, StoreError>) -> Result<Append, StoreError> {
    match r {
        Ok(seq) => Ok(Append::Done(seq)),
        Err(StoreError::Conflict { .. }) => Ok(Append::Conflict),
        Err(StoreError::Refused { rejection, .. }) => Ok(Append::Refused(rejection)),
        Err(StoreError::Rejected(r)) => Ok(Append::Refused(r)),
        Err(e) => Err(e),
    }
}

/// An event of a store, folded again from the log before every decision.
pub struct StoreLog<'a, S: EventStore + ?Sized> {
    pub store: &'a S,
    pub event: EventId,
}

impl<S: EventStore + ?Sized> EventLog for StoreLog<'_, S> {
    type Error = StoreError;
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, StoreError> {
        let state = self.store.state(&self.event)?;
        Ok(f(&state))
    }
    fn append(
        &mut self,
        expected: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Append, StoreError> {
        append_outcome(self.store.append(&self.event, expected, entries, actor, at))
    }
}

/// An event of a store whose only writer is this process (the simulator filling a new
/// database, the demo): the state is kept in memory and every appended entry folded into it,
/// instead of reading the log back before each decision.
pub struct KeptLog<'a, S: EventStore + ?Sized> {
    pub store: &'a S,
    pub event: EventId,
    pub state: EventState,
}

impl<S: EventStore + ?Sized> EventLog for KeptLog<'_, S> {
    type Error = StoreError;
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, StoreError> {
        Ok(f(&self.state))
    }
    fn append(
        &mut self,
        expected: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Append, StoreError> {
        let done = append_outcome(self.store.append(&self.event, expected, entries, actor, at))?;
        if let Append::Done(_) = done {
            for r in crate::number(entries, expected, actor, at) {
                self.state.apply(&r)?;
            }
        }
        Ok(done)
    }
}

/// A store as the place new events are made ([`arbiter_director::api::write::create`]).
pub struct StoreBook<'a, S: EventStore + ?Sized>(pub &'a S);

impl<S: EventStore + ?Sized> EventBook for StoreBook<'_, S> {
    type Error = StoreError;
    fn create(
        &mut self,
        name: &str,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Result<String, arbiter_core::Rejection>, StoreError> {
        match self.0.create_checked(name, entries, actor, at) {
            Ok(id) => Ok(Ok(id.0)),
            Err(StoreError::Rejected(r)) => Ok(Err(r)),
            Err(StoreError::Fold(arbiter_core::FoldError::Rejected { rejection, .. })) => {
                Ok(Err(rejection))
            }
            Err(e) => Err(e),
        }
    }
}
