//! Pairing and colour settings shared by the regulation file and the pairing engine
//! (rules.md A2, A3, A4). Every default here is the one named in Part A.

use serde::{Deserialize, Serialize};

/// Same-team avoidance (H4 / C4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SameTeam {
    /// Team-mates may meet in any round.
    Off,
    /// Team-mates avoid each other in round 1 only (首轮同队回避; K6, S4, T2).
    #[default]
    Round1,
    /// Team-mates never meet (H4).
    Hard,
    /// Team-mates meet only when otherwise a worse pairing would result (C4).
    Soft,
}

/// Round-1 pairing mode (A3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round1Pairing {
    /// 拦腰: 1 v N/2+1, 2 v N/2+2, …
    #[default]
    Slide,
    /// 首尾: 1 v N, 2 v N−1, …
    Fold,
    /// 临近: 1 v 2, 3 v 4, …
    Adjacent,
    /// By lot, with the recorded seed.
    Random,
}

/// Round-1 colours (A3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round1Colour {
    /// 单数台次小号先，双数台次大号先 (default).
    #[default]
    OddBoardSmallRed,
    /// Mirror: odd boards larger number red, even boards smaller number red.
    OddBoardLargeRed,
    /// The smaller number always red.
    SmallRed,
    /// By lot, with the recorded seed.
    Lots,
}

/// How pairing numbers are given before round 1 (A3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Numbering {
    /// By lot (抽签) with a seed stored in the event log.
    #[default]
    Lots,
    /// By rating, then by lot for unrated players.
    Rating,
    /// In the order of the entry list as given.
    Given,
    /// By grade (段位/称号, the regulation's scale), highest first; equal grades by rating,
    /// then in registration order; players without a grade after them, by lot.
    Grade,
}

/// Colour when both histories are identical (A2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EqualHistoryColour {
    /// 奇数轮小号先行，偶数轮大号先行 (default).
    #[default]
    OddRoundSmallRed,
    /// Sum of the two numbers odd → smaller number red; even → larger number red.
    NumberSumOddSmallRed,
}

/// Deterministic choice among pairings equal on C0–C5 (A2 `within_group`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WithinGroup {
    #[default]
    Slide,
    Adjacent,
}

/// Who gets the bye (A4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeChoice {
    /// The lowest-ranked player who has not had a bye (default).
    #[default]
    LowestWithoutBye,
    /// The lowest-ranked player with the fewest byes.
    LowestFewestByes,
}

/// Swiss pairing settings of one section (A2–A5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PairingSettings {
    pub numbering: Numbering,
    pub round1: Round1Pairing,
    pub round1_colour: Round1Colour,
    pub same_team: SameTeam,
    /// H5: nobody may end a round with |reds − blacks| above this (default 2).
    pub max_colour_diff: u8,
    /// H5: nobody plays the same colour three times in a row (default on).
    pub no_three_in_a_row: bool,
    /// In the last round only, H5 becomes criterion C0 (default on).
    pub relax_colours_in_last_round: bool,
    /// Colour histories count forfeited games (default off: a forfeit gives no colour).
    pub forfeit_counts_for_colour: bool,
    /// H1 counts a forfeited pairing as a meeting (default on).
    pub forfeit_is_meeting: bool,
    pub equal_history: EqualHistoryColour,
    pub within_group: WithinGroup,
    pub bye: ByeChoice,
}

impl Default for PairingSettings {
    fn default() -> Self {
        PairingSettings {
            numbering: Numbering::default(),
            round1: Round1Pairing::default(),
            round1_colour: Round1Colour::default(),
            same_team: SameTeam::default(),
            max_colour_diff: 2,
            no_three_in_a_row: true,
            relax_colours_in_last_round: true,
            forfeit_counts_for_colour: false,
            forfeit_is_meeting: true,
            equal_history: EqualHistoryColour::default(),
            within_group: WithinGroup::default(),
            bye: ByeChoice::default(),
        }
    }
}

/// Time-control class of a game (A8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// 慢棋
    Slow,
    /// 快棋
    Rapid,
    /// 超快棋
    Blitz,
    /// 附加赛 / 超时快棋: a draw counts as a black win for the match.
    Armageddon,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Slow => "slow",
            GameKind::Rapid => "rapid",
            GameKind::Blitz => "blitz",
            GameKind::Armageddon => "armageddon",
        }
    }
    pub fn zh(self) -> &'static str {
        match self {
            GameKind::Slow => "慢棋",
            GameKind::Rapid => "快棋",
            GameKind::Blitz => "超快棋",
            GameKind::Armageddon => "附加赛",
        }
    }
}
