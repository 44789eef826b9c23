//! The event log of one competition: typed, versioned entries ([`LogEntry`] inside the
//! [`Recorded`] envelope), the rules an entry must satisfy before it is appended
//! ([`validate`], [`validate_at`]) and the fold that builds the event's state
//! ([`EventState::replay`], [`EventState::apply`]).
//!
//! Pure: no I/O, no clock. The time of an entry (`Recorded::at`) is supplied by the shell.

pub mod entry;
pub mod index;
pub mod regulation;
pub mod roster;
pub mod state;
pub mod time;
pub mod validate;

pub use entry::mask_value;
pub use entry::{
    Board, ClosedPrize, ClosedSection, ClosedTeams, DivisionInfo, Ending, EntryLimits,
    EventCreated, FieldChange, FoulKind, LogEntry, LogFormatError, Offender, PlayerId,
    PlayerRegistered, Recorded, RefusedFacts, SectionInfo, TimeControlSetting, LOG_VERSION,
};
pub use index::{CountBy, EntryIndex};
pub use regulation::RegulationError;
pub use roster::{parse_roster_table, Cell, Column, Roster, RosterError, RosterRow, TableRow};
pub use state::{
    BoardRecord, Decision, EventHeader, EventSettings, EventState, FoldError, Foul, GameFoulRecord,
    KnockoutGame, PlayerRecord, PlayerStatus, RefusedEntry, ResultChange, RoundRecord,
    SectionRecord, Submission, TeamRecord,
};
pub use validate::{validate, validate_at, Rejection};
