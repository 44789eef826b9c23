//! Value types shared by every Arbiter crate.
//!
//! Invariant: this crate does no I/O and holds no policy. Every type here can only hold
//! valid data (parse, don't validate): a [`Score`] is an exact number of half-points, a
//! [`PlayerNo`] is at least 1, and so on.

pub mod id_number;
pub mod outcome;
pub mod person;
pub mod phone;
pub mod role;
pub mod score;
pub mod settings;
pub mod social_security;
pub mod team_match;
pub mod text;
pub mod tiebreak;

pub use id_number::{IdNumber, IdNumberError};
pub use outcome::{Colour, GameResult, Outcome, PlayerResult};
pub use person::Person;
pub use phone::{Phone, PhoneError};
pub use role::Role;
pub use score::{Score, ScoringPreset, ScoringTable};
pub use settings::*;
pub use social_security::{SocialSecurityError, SocialSecurityNo};
pub use team_match::{Side, TeamTiebreak};
pub use text::TextProblem;
pub use tiebreak::{closest, Fallback, TiebreakItem, TiebreakName, UnknownTiebreak};

use serde::{Deserialize, Serialize};
use std::fmt;

/// A pairing number (序号 / 签号) inside a section: 1, 2, 3, …
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct PlayerNo(u32);

impl PlayerNo {
    /// `None` for 0, which is not a pairing number (TRF uses 0 for "no opponent").
    pub fn new(n: u32) -> Option<Self> {
        (n >= 1).then_some(Self(n))
    }
    pub fn get(self) -> u32 {
        self.0
    }
    /// Zero-based index into a section's player list.
    pub fn index(self) -> usize {
        (self.0 - 1) as usize
    }
    pub fn from_index(i: usize) -> Self {
        Self(i as u32 + 1)
    }
}

impl TryFrom<u32> for PlayerNo {
    type Error = String;
    fn try_from(n: u32) -> Result<Self, String> {
        PlayerNo::new(n).ok_or_else(|| "pairing number must be at least 1".to_string())
    }
}
impl From<PlayerNo> for u32 {
    fn from(p: PlayerNo) -> u32 {
        p.0
    }
}
impl fmt::Display for PlayerNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A player's sex as derived from the ID number or declared at registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sex {
    #[serde(rename = "M")]
    Male,
    #[serde(rename = "F")]
    Female,
}

impl Sex {
    pub fn zh(self) -> &'static str {
        match self {
            Sex::Male => "男",
            Sex::Female => "女",
        }
    }
}
