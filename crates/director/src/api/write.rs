//! The one write path of every shell: decide an operation on the event's current state,
//! append what it returns with the expected sequence number, and, when another writer
//! appended first, decide again on the fresh state. The log is a port ([`EventLog`]): the
//! store in the CLI, the server's cache and store at the desk, memory in the simulator and the
//! benches. Nothing here reads a clock or a file: the shell passes the time of the entries.

use super::Ctx;
use crate::command::{self, Command, Outcome};
use crate::DirectorError;
use arbiter_core::{EventState, LogEntry, Recorded, Rejection};

/// How many lost races are decided again before the writer is asked to try later.
pub const ATTEMPTS: usize = 20;

/// What the log answered an append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Append {
    /// Appended; the log's last seq now.
    Done(u64),
    /// Another writer appended first (the expected seq is not the last one).
    Conflict,
    /// The log's own rules refused an entry (e.g. the event is closed); nothing written.
    Refused(Rejection),
}

/// An event's log, as a shell keeps it.
pub trait EventLog {
    /// A failure of the log itself (the database, the server), not a refusal.
    type Error;
    /// Run `f` on the event's current state (brought up to date).
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, Self::Error>;
    /// Append `entries` if the log's last seq is still `expected`.
    fn append(
        &mut self,
        expected: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Append, Self::Error>;
}

/// A command once appended: its entries, the log's last seq, and what it did.
#[derive(Debug, Clone)]
pub struct Done {
    pub entries: Vec<LogEntry>,
    /// The log's last seq after the append.
    pub last_seq: u64,
    pub outcome: Outcome,
}

/// Decide `cmd` as `ctx`'s actor on the current state of `log` ([`command::decide`]) and
/// append its entries, deciding again after a lost race. Outer error: the log failed; inner
/// error: the command (or the log's rules) refused, or the log kept moving on for
/// [`ATTEMPTS`] tries. The one write path of every shell.
pub fn apply<L: EventLog>(
    log: &mut L,
    ctx: &Ctx,
    clock: Clock<'_>,
    cmd: &Command,
) -> Result<Result<Done, DirectorError>, L::Error> {
    apply_observed(log, ctx, clock, cmd, &mut |_, _| {})
}

/// [`apply`], telling `progress(done, total)` how far a long command has got.
pub fn apply_observed<L: EventLog>(
    log: &mut L,
    ctx: &Ctx,
    clock: Clock<'_>,
    cmd: &Command,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Result<Done, DirectorError>, L::Error> {
    let applied = apply_with(log, ctx, clock, |st, ctx| {
        command::decide_observed(st, ctx, cmd, progress).map(|d| (d.entries, d.outcome))
    })?;
    Ok(applied.map(|a| Done {
        entries: a.entries,
        last_seq: a.last_seq,
        outcome: a.extra,
    }))
}

/// What an operation gave back once appended, with what it told besides (a pairing's
/// explanation).
#[derive(Debug, Clone)]
struct Applied<X> {
    pub entries: Vec<LogEntry>,
    /// The log's last seq after the append.
    pub last_seq: u64,
    pub extra: X,
}

/// The time of the entries: RFC 3339 (recorded) and the venue's local time (the operation's).
pub type Clock<'a> = &'a dyn Fn() -> Result<(String, chrono::NaiveDateTime), DirectorError>;

/// A fixed time (`--at`), or `now` (RFC 3339, from the shell's clock), checked as RFC 3339.
pub fn at_or_now(
    at: Option<&str>,
    now: impl Fn() -> String,
) -> Result<(String, chrono::NaiveDateTime), DirectorError> {
    let at = at.map_or_else(now, str::to_string);
    let local = arbiter_core::time::china_local(&at)
        .ok_or_else(|| DirectorError::from(crate::Refusal::BadTime { at: at.clone() }))?;
    Ok((at, local))
}

/// Decide `op` as `ctx`'s actor on the current state of `log` and append its entries,
/// deciding again after a lost race. Outer error: the log failed; inner error: the operation
/// (or the log's rules) refused, or the log kept moving on for [`ATTEMPTS`] tries.
/// [`apply`] is this with a [`Command`]; shells call that.
fn apply_with<L, X, F>(
    log: &mut L,
    ctx: &Ctx,
    clock: Clock<'_>,
    mut op: F,
) -> Result<Result<Applied<X>, DirectorError>, L::Error>
where
    L: EventLog,
    F: FnMut(&EventState, &Ctx) -> Result<(Vec<LogEntry>, X), DirectorError>,
{
    for _ in 0..ATTEMPTS {
        let (at, local) = match clock() {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        let ctx = Ctx {
            at: local,
            ..ctx.clone()
        };
        let (decided, expected) = log.with_current(|st| (op(st, &ctx), st.last_seq))?;
        let (entries, extra) = match decided {
            Ok(x) => x,
            Err(e) => return Ok(Err(e)),
        };
        // The text rule and the log's rules were applied by the decision
        // (`command::finish`); the log checks the entries again as it appends them.
        if entries.is_empty() {
            return Ok(Ok(Applied {
                entries,
                last_seq: expected,
                extra,
            }));
        }
        match log.append(expected, &entries, &ctx.actor, &at)? {
            Append::Done(last_seq) => {
                return Ok(Ok(Applied {
                    entries,
                    last_seq,
                    extra,
                }))
            }
            Append::Conflict => continue,
            Append::Refused(why) => return Ok(Err(DirectorError::Rejected(why))),
        }
    }
    Ok(Err(crate::Refusal::Busy { attempts: ATTEMPTS }.into()))
}

/// An event's log in memory (the simulator, the benches, tests): every entry is folded as
/// it is appended, so it is checked as the store would check it.
#[derive(Debug, Clone, Default)]
pub struct MemoryLog {
    pub state: EventState,
    pub log: Vec<Recorded>,
}

impl EventLog for MemoryLog {
    type Error = std::convert::Infallible;
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, Self::Error> {
        Ok(f(&self.state))
    }
    fn append(
        &mut self,
        expected: u64,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Append, Self::Error> {
        if expected != self.state.last_seq {
            return Ok(Append::Conflict);
        }
        // All or nothing, as a store's transaction.
        let mut next = self.state.clone();
        let mut added = Vec::with_capacity(entries.len());
        for e in entries {
            let r = Recorded {
                seq: next.last_seq + 1,
                at: at.to_string(),
                actor: actor.to_string(),
                entry: e.clone(),
            };
            match next.apply(&r) {
                Ok(()) => {}
                Err(arbiter_core::FoldError::Rejected { rejection, .. }) => {
                    return Ok(Append::Refused(rejection))
                }
                Err(arbiter_core::FoldError::Sequence { .. }) => return Ok(Append::Conflict),
            }
            added.push(r);
        }
        self.state = next;
        self.log.extend(added);
        Ok(Append::Done(self.state.last_seq))
    }
}

/// A log that decides but never writes (a dry run): it reads the log it wraps, and every
/// append answers as if done, so [`apply`] gives the decision and nothing is stored.
pub struct DryRun<'a, L>(pub &'a mut L);

impl<L: EventLog> EventLog for DryRun<'_, L> {
    type Error = L::Error;
    fn with_current<R>(&mut self, f: impl FnOnce(&EventState) -> R) -> Result<R, Self::Error> {
        self.0.with_current(f)
    }
    fn append(
        &mut self,
        expected: u64,
        _entries: &[LogEntry],
        _actor: &str,
        _at: &str,
    ) -> Result<Append, Self::Error> {
        Ok(Append::Done(expected))
    }
}

/// Where new events are made (the store): an event created from its first entries.
pub trait EventBook {
    /// A failure of the book itself (the database), not a refusal.
    type Error;
    /// Create the event `name` with `entries` as its log; its id, or the log's rules'
    /// refusal (nothing created).
    fn create(
        &mut self,
        name: &str,
        entries: &[LogEntry],
        actor: &str,
        at: &str,
    ) -> Result<Result<String, Rejection>, Self::Error>;
}

/// An event created by [`create`].
#[derive(Debug, Clone)]
pub struct Created {
    pub id: String,
    pub name: String,
    pub entries: Vec<LogEntry>,
}

/// Decide `cmd` (an [`crate::command::event::EventCommand::Create`]) as `ctx`'s actor on an
/// empty log and create the event it makes in `book`. Outer error: the book failed; inner
/// error: the command (or the log's rules) refused, nothing created.
pub fn create<B: EventBook>(
    book: &mut B,
    ctx: &Ctx,
    clock: Clock<'_>,
    cmd: &Command,
) -> Result<Result<Created, DirectorError>, B::Error> {
    let (at, local) = match clock() {
        Ok(t) => t,
        Err(e) => return Ok(Err(e)),
    };
    let ctx = Ctx {
        at: local,
        ..ctx.clone()
    };
    let decided = match command::decide(&EventState::new(), &ctx, cmd) {
        Ok(d) => d,
        Err(e) => return Ok(Err(e)),
    };
    let Outcome::Created { name } = decided.outcome else {
        return Ok(Err(DirectorError::NoEvent));
    };
    Ok(
        match book.create(&name, &decided.entries, &ctx.actor, &at)? {
            Ok(id) => Ok(Created {
                id,
                name,
                entries: decided.entries,
            }),
            Err(r) => Err(DirectorError::Rejected(r)),
        },
    )
}
