//! The registration desk (报名处): register, refuse, edit, fees, check-in, drawing pairing
//! numbers, withdrawals and absences, team rosters.
//!
//! Eligibility, team and limit rules live in [`crate::registration`] (the same code `verify`
//! runs again on replay); the operations here put them behind the API's shape and check
//! every returned entry against the log's own rules (`arbiter_core::validate_at`).
//!
//! Rules of the desk, as the operations apply them:
//! - A refusal equal to one already recorded (same name, section, reason, ID number and
//!   unit) is not recorded again: [`register`] answers with an error naming it, and
//!   [`register_each`] leaves that form out. Importing the same failing file twice leaves the
//!   log as it was.
//! - An entry without an ID number whose name, unit and birth date (both known or both
//!   unknown) equal an active player's of the same section is the same person entered twice:
//!   refused (the log's own rule, `Rejection::DuplicateEntry`).
//! - One roster per team (issue 18): see `docs/event-log.md` § 队伍名单.

mod absences;
mod fees;
mod not_paired;
mod numbers;
mod online;
mod register;
mod shared;
mod teams;

pub(crate) use absences::with_reinstatements;
pub use absences::{
    absence, absent, disqualify, forfeit_warning, reinstate, withdraw, ABSENCE_WITHDRAWS,
    REINSTATED_BY_CORRECTION,
};
pub use fees::{
    cancel_check_in, cancel_fee, check_in, check_in_pledged, fee_due, fee_status, for_each,
    not_checked_in_warning, paid_not_checked_in, pay_fee, pledge_required, yuan, FeeStatus,
    ForEach,
};
pub use not_paired::{why_not_paired, NotPaired};
pub use numbers::{draw, named, named_with_id, number_of, pairing_no};
pub use online::{
    approve, online_form, online_open, refuse_submission, section_offer, section_offer_in,
    submission_duplicate, submit, submit_keyed, to_bring, SectionOffer, SubmissionDuplicate,
    ToBring,
};
pub use register::{
    below_minimum, change_section, correct, merge_sections, refuse, register, register_batch,
    register_each, register_form, BelowMinimum,
};
pub(super) use shared::{checked, player, who};
pub use teams::{change_roster, enter_team, team_started, RosterChange, TeamForm};
