//! Pairing engine (编排): xiangqi Swiss (积分编排制, rules.md A2–A5), round 1 (A3), round
//! robin (A7), an independent checker and a random tournament generator.
//!
//! Objective (rounds ≥ 2, rules.md A2 as amended), compared lexicographically: C0 (H5
//! breakers in a relaxed last round), then CB (the bye recipient's score group counted from
//! the bottom: the bye goes to the lowest score group where a pairing satisfying H1–H6
//! exists, A4), then C1 (pairs crossing each score-group boundary, top down; the bye crosses
//! none), C2 (score gaps, top down), C3 (colours), C4 (same team, `soft`), C5 (repeated
//! floats). H5 constrains the colours of a pair, not the pair; H6 keeps the stage
//! pairable to its end (a degree bound in large fields, an exact search elsewhere).
//!
//! Invariant: no I/O. Same input → same output, byte for byte; randomness only from a seed
//! given in the input.

pub mod brute;
pub mod checker;
pub mod generator;
pub mod matching;
pub mod round1;
pub mod round_robin;
pub mod swiss;

pub use swiss::{pair_swiss, pair_with_fixed};

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

/// One board of a round: red (先手) against black (后手).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// 台次, 1-based, in print order (A2 / §3.7 step 7).
    pub board: u32,
    pub red: PlayerNo,
    pub black: PlayerNo,
    /// Why this pair and these colours, in the arbiter's terms (Chinese first).
    pub why: Explanation,
}

/// The explanation of one pair or of the bye.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// Score group / float: e.g. "同分组 4分" or "4分组下调至 3分组 (4分组人数为奇数)".
    pub group: String,
    /// Colour reason: e.g. "2号 应走红 (红黑 1:2)" or "同色历史，偶数轮大号先".
    pub colour: String,
}

/// A complete pairing of one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub round: u32,
    pub boards: Vec<Board>,
    pub bye: Option<PlayerNo>,
    pub bye_why: Option<String>,
    /// The hard rules this round could not keep and who breaks them, for the arbiter (A2 as
    /// amended: H5, then H1, relax when no pairing keeps them; A3b: H4 in a manual round).
    /// Empty in a round that keeps every hard rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relaxed: Vec<String>,
}

/// Why no pairing could be produced. Displays Chinese first, then English.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// No pairing satisfies the hard rules H1–H5; `reason` says which (e.g. every remaining
    /// opponent already met, too many rounds for the field).
    #[error("无法编排: {reason_zh} (no valid pairing exists: {reason_en})")]
    NoValidPairing {
        reason_zh: String,
        reason_en: String,
    },
    /// The input itself is wrong (duplicate numbers, history lengths differ, …).
    #[error("输入错误: {0}")]
    BadInput(String),
}
