//! Scoring, tie-breaks and standings (名次), categories, team and association standings,
//! prizes, and the automatic-withdrawal rule (rules.md A1, A5, A6, A10, A11).
//!
//! Invariant: no I/O; every number is exact; the same input gives the same table.

pub mod association;
pub mod prize;
pub mod team;
pub mod withdrawal;
