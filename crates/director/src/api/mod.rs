//! The arbiter's API (裁判操作): one function per thing an arbiter or the registration desk
//! does at a real event. This is the one place where the arbiter's procedure lives: the CLI,
//! the web desk and the simulator are shells that parse their input, call an operation here
//! and append what it returns with the expected sequence number.
//!
//! Every operation has the same shape:
//!
//! ```text
//! fn op(state: &EventState, ctx: &Ctx, …arguments…) -> Result<Vec<LogEntry>, DirectorError>
//! ```
//!
//! It reads the folded state (and the regulation recorded in it), checks everything the
//! rules require, and returns the validated log entries to append — or a clear error,
//! Chinese first. It never writes anything. A shell that loses an append race (the log moved
//! on) folds the fresh state and calls the operation again, so identifiers such as a new
//! player's id are assigned against the state they are appended to.
//!
//! - [`entries`]: the registration desk — register (with the chief arbiter's late-entry
//!   override), refuse, edit an entry, fees, check-in, drawing pairing numbers, withdrawals
//!   and absences, team rosters; [`import`]: a roster file's rows, each registered by the
//!   same rules, with a report row by row.
//! - [`rounds`]: the rounds — pair (with fixed pairs and swaps and the checker's warnings),
//!   publish, undo and the pairing sheet; [`results`]: results with fouls (knockout games
//!   through the same operation), confirmation, corrections; [`event`]: closing the event
//!   (final standings, team standings and prizes fixed) and the chief arbiter's reopening.

pub mod awards;
pub mod entries;
pub mod event;
pub mod games;
pub mod import;
pub mod money;
pub mod officials;
pub mod records;
pub mod results;
pub mod rounds;
pub mod write;

use chrono::NaiveDateTime;

/// `entries` once every text people typed in them is allowed ([`crate::text`]).
pub(crate) fn text_checked(
    entries: Vec<arbiter_core::LogEntry>,
) -> Result<Vec<arbiter_core::LogEntry>, crate::DirectorError> {
    crate::text::check_entries(&entries)?;
    Ok(entries)
}

pub use arbiter_types::Role;

/// Who does an operation, in which role, and when (the shell supplies the clock; the core
/// never reads it). The operations decide what the role allows ([`crate::permission`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ctx {
    /// The actor recorded with the entries (`--actor`, the logged-in arbiter, `simulate`).
    pub actor: String,
    /// The actor's role: the account's at the desk and with the CLI's `--as`; the chief
    /// arbiter for the CLI on a local database and for the simulator (each says so).
    pub role: Role,
    /// Local time of the venue (China Standard Time).
    pub at: NaiveDateTime,
    /// The actor's name as a person signs it (the account's display name), written where an
    /// entry records who signed (a forfeit's slip, [`results::signatures`]); the actor when
    /// no account names one.
    pub name: String,
}

impl Ctx {
    /// `actor` acting in `role` at `at`: a context always names who acts and as what (the
    /// operator of a local database and the simulator act as the chief arbiter, and say so).
    pub fn new(actor: impl Into<String>, role: Role, at: NaiveDateTime) -> Self {
        let actor = actor.into();
        Ctx {
            name: actor.clone(),
            actor,
            role,
            at,
        }
    }

    /// The same actor signing as `name` (an account's display name; a blank name keeps the
    /// actor).
    pub fn with_name(mut self, name: &str) -> Self {
        if !name.trim().is_empty() {
            self.name = name.trim().to_string();
        }
        self
    }

    /// The same actor in `role`.
    pub fn with_role(mut self, role: Role) -> Self {
        self.role = role;
        self
    }

    /// The time as RFC 3339 with the +08:00 offset, as recorded in the log.
    pub fn at_rfc3339(&self) -> String {
        crate::registration::rfc3339(self.at)
    }
}
