//! Pairing engine (编排): xiangqi Swiss (积分编排制, rules.md A2–A5), round 1 (A3), round
//! robin (A7), an independent checker and a random tournament generator.
//!
//! Invariant: no I/O. Same input → same output, byte for byte; randomness only from a seed
//! given in the input.

pub mod generator;
pub mod round1;
pub mod round_robin;

use arbiter_types::{Outcome, PairingSettings, PlayerNo, ScoringTable};
use serde::{Deserialize, Serialize};

/// Whether a player can be paired this round (H2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    Active,
    /// 退赛: never paired again.
    Withdrawn,
    /// Fee unpaid / not checked in (T7): not paired.
    Unpaid,
    /// Absent for this round only.
    Absent,
}

/// One player of a section as the pairing engine sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub no: PlayerNo,
    /// Team / unit identity for same-team avoidance; `None` never matches anyone.
    pub team: Option<u32>,
    pub availability: Availability,
    /// One outcome per round already played, round 1 first. A late entry has `Absent`
    /// for the rounds before it joined.
    pub history: Vec<Outcome>,
}

/// A section's state before pairing a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionState {
    pub players: Vec<Entrant>,
    pub scoring: ScoringTable,
    pub settings: PairingSettings,
    /// Rounds planned for this stage (the last round relaxes H5, A2).
    pub total_rounds: u32,
}
