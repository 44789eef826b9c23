//! The entries of the log by family, each family's validation and its fold side by side:
//!
//! | family | entries |
//! |---|---|
//! | [`lifecycle`] (赛事) | `event_created`, `settings_changed`, `special_award_given`, `officials_appointed`, `event_closed`, `event_reopened` |
//! | [`registration`] (报名) | `player_registered`, `player_corrected`, `player_withdrawn`, `player_reinstated`, `player_disqualified`, `disqualification_revoked`, `entry_refused`, `refusal_withdrawn`, `fee_paid`, `checked_in`, `fee_cancelled`, `check_in_cancelled`, `entry_submitted`, `submission_decided` |
//! | [`teams`] (队伍) | `team_entered`, `team_roster_changed` |
//! | [`matches`] (团体赛对阵) | `team_numbers_drawn`, `matches_paired`, `lineup_given`, `match_confirmed` |
//! | [`rounds`] (编排) | `pairing_numbers_drawn`, `round_paired`, `player_absent`, `round_published`, `round_undone` |
//! | [`results`] (成绩) | `result_entered`, `result_claimed`, `result_confirmed`, `result_corrected`, `foul_recorded`, `round_completed` |
//! | [`knockout`] (淘汰赛) | `knockout_seeded`, `knockout_game_recorded` |
//! | [`records`] (记谱) | `game_recorded`, `game_record_removed` |
//!
//! Each family module has `validate` (the rules its entries must satisfy, called by
//! [`crate::validate_at`] once the event exists and is open) and `apply` (the fold of a valid
//! entry, called by [`crate::EventState::apply`]). [`Family::of`] is the one table saying which
//! family an entry belongs to; the lookups shared by the rules (section, player, round, board)
//! and the gate every entry passes first ([`open_header`]) are here.

pub(crate) mod knockout;
pub(crate) mod lifecycle;
pub(crate) mod matches;
pub(crate) mod records;
pub(crate) mod registration;
pub(crate) mod results;
pub(crate) mod rounds;
pub(crate) mod teams;

use crate::entry::{LogEntry, PlayerId};
use crate::state::{
    BoardRecord, EventHeader, EventState, PlayerRecord, RoundRecord, SectionRecord,
};
use crate::validate::Rejection;

/// The family of a log entry: which module validates and folds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Lifecycle,
    Registration,
    Teams,
    Matches,
    Rounds,
    Results,
    Knockout,
    Records,
}

impl Family {
    pub(crate) fn of(entry: &LogEntry) -> Family {
        match entry {
            LogEntry::EventCreated(_)
            | LogEntry::SettingsChanged { .. }
            | LogEntry::EventClosed { .. }
            | LogEntry::SpecialAwardGiven { .. }
            | LogEntry::OfficialsAppointed { .. }
            | LogEntry::EventReopened { .. } => Family::Lifecycle,
            LogEntry::PlayerRegistered(_)
            | LogEntry::PlayerCorrected { .. }
            | LogEntry::PlayerWithdrawn { .. }
            | LogEntry::PlayerReinstated { .. }
            | LogEntry::PlayerDisqualified { .. }
            | LogEntry::DisqualificationRevoked { .. }
            | LogEntry::PlayerSectionChanged { .. }
            | LogEntry::SectionsMerged { .. }
            | LogEntry::EntryRefused { .. }
            | LogEntry::RefusalWithdrawn { .. }
            | LogEntry::FeePaid { .. }
            | LogEntry::CheckedIn { .. }
            | LogEntry::FeeCancelled { .. }
            | LogEntry::DepositRefunded { .. }
            | LogEntry::RefundConditionMarked { .. }
            | LogEntry::CheckInCancelled { .. }
            | LogEntry::EntrySubmitted { .. }
            | LogEntry::SubmissionDecided { .. } => Family::Registration,
            LogEntry::TeamEntered { .. } | LogEntry::TeamRosterChanged { .. } => Family::Teams,
            LogEntry::TeamNumbersDrawn { .. }
            | LogEntry::MatchesPaired { .. }
            | LogEntry::LineupGiven { .. }
            | LogEntry::MatchConfirmed { .. } => Family::Matches,
            LogEntry::PairingNumbersDrawn { .. }
            | LogEntry::GroupsDrawn { .. }
            | LogEntry::RoundPaired { .. }
            | LogEntry::PlayerAbsent { .. }
            | LogEntry::RoundPublished { .. }
            | LogEntry::RoundUndone { .. } => Family::Rounds,
            LogEntry::ResultEntered { .. }
            | LogEntry::ResultClaimed { .. }
            | LogEntry::ResultConfirmed { .. }
            | LogEntry::ResultCorrected { .. }
            | LogEntry::FoulRecorded { .. }
            | LogEntry::ColoursPlayed { .. }
            | LogEntry::FoulFlagDecided { .. }
            | LogEntry::ProtestDecided { .. }
            | LogEntry::RoundCompleted { .. } => Family::Results,
            LogEntry::KnockoutSeeded { .. }
            | LogEntry::KnockoutGameRecorded { .. }
            | LogEntry::KnockoutResultClaimed { .. } => Family::Knockout,
            LogEntry::GameRecorded { .. } | LogEntry::GameRecordRemoved { .. } => Family::Records,
        }
    }
}

/// The gate every entry passes before its family's rules: the log starts with one
/// `event_created`, and a closed event takes nothing but `event_reopened` (and the officials,
/// `officials_appointed`, which change no result). `Ok(Some(header))`:
/// the event is open, check the entry against it; `Ok(None)`: the entry is checked already
/// (the first `event_created`, a valid `event_reopened`).
pub(crate) fn open_header<'a>(
    state: &'a EventState,
    entry: &LogEntry,
) -> Result<Option<&'a EventHeader>, Rejection> {
    match (&state.header, entry) {
        (None, LogEntry::EventCreated(c)) => lifecycle::validate_created(c).map(|()| None),
        (None, _) => Err(Rejection::NoEvent),
        (Some(_), LogEntry::EventCreated(_)) => Err(Rejection::EventExists),
        (Some(_), LogEntry::EventReopened { reason, by }) => {
            lifecycle::validate_reopened(state, reason, by).map(|()| None)
        }
        // The officials are no result: the results book filed after the closing prints them.
        (Some(h), LogEntry::OfficialsAppointed { .. }) => Ok(Some(h)),
        (Some(_), _) if state.closed => Err(Rejection::EventClosed),
        (Some(h), _) => Ok(Some(h)),
    }
}

/// The section `id`.
pub(crate) fn section<'a>(state: &'a EventState, id: &str) -> Result<&'a SectionRecord, Rejection> {
    state
        .sections
        .get(id)
        .ok_or_else(|| Rejection::UnknownSection(id.to_string()))
}

/// The player `p`.
pub(crate) fn player<'a>(
    state: &'a EventState,
    p: &PlayerId,
) -> Result<&'a PlayerRecord, Rejection> {
    state.players.get(p).ok_or(Rejection::UnknownPlayer(*p))
}

/// Round `r` of section `s`, once paired.
pub(crate) fn round<'a>(
    state: &'a EventState,
    s: &str,
    r: u32,
) -> Result<&'a RoundRecord, Rejection> {
    section(state, s)?
        .rounds
        .get(&r)
        .ok_or_else(|| Rejection::UnknownRound {
            section: s.to_string(),
            round: r,
        })
}

/// Board `b` of round `r` of section `s`.
pub(crate) fn board<'a>(
    state: &'a EventState,
    s: &str,
    r: u32,
    b: u32,
) -> Result<&'a BoardRecord, Rejection> {
    round(state, s, r)?
        .board(b)
        .ok_or_else(|| Rejection::UnknownBoard {
            section: s.to_string(),
            round: r,
            board: b,
        })
}
