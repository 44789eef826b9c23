//! The event log of one competition: typed, versioned entries ([`LogEntry`] inside the
//! [`Recorded`] envelope), the rules an entry must satisfy before it is appended
//! ([`validate`], [`validate_at`]) and the fold that builds the event's state
//! ([`EventState::replay`], [`EventState::apply`]).
//!
//! The rules and the fold of an entry live together, by entry family, in `family/`:
//! `lifecycle` (event created, settings changed, closed, reopened), `registration` (players
//! registered, corrected, withdrawn, refused, fees, check-in, online submissions), `teams`,
//! `rounds` (numbers drawn, rounds paired, published, undone, absences), `results` (results,
//! confirmations, corrections, fouls, rounds completed) and `knockout` (knockout games);
//! `validate.rs` and `state.rs` only dispatch to them.
//!
//! Pure: no I/O, no clock. The time of an entry (`Recorded::at`) is supplied by the shell.

pub mod entry;
mod family;
pub mod index;
pub mod memo;
pub mod regulation;
pub mod state;
pub mod time;
pub mod validate;

pub use arbiter_types::Person;
pub use entry::mask_value;
pub use entry::{
    Board, ClosedPrize, ClosedSection, ClosedTeams, DivisionInfo, Ending, EntryLimits,
    EventCreated, FieldChange, FoulKind, KnockoutFoul, LogEntry, LogFormatError, Offender,
    Official, PlayerId, PlayerRegistered, RecordSource, Recorded, RefusedFacts, SectionInfo,
    TeamPairing, TimeControlSetting, LOG_VERSION,
};
pub use family::records::{record_end, replay_record};
pub use index::{CountBy, EntryIndex};
pub use memo::KnockoutMemo;
pub use regulation::RegulationError;
pub use state::{
    entry_facts, BoardRecord, Decision, Disqualification, EventHeader, EventSettings, EventState,
    FoldError, Foul, GameFoulRecord, GameRecord, ItemMoney, KnockoutGame, PlayerRecord,
    PlayerStatus, Protest, RecordEnd, RefusedEntry, ResultChange, ResultClaim, RoundRecord,
    SectionRecord, Submission, TeamRecord, TeamRound,
};
pub use validate::{validate, validate_at, Rejection};
